// Order import (SPEC §2 /order-import-channel, /order-import/{saleChannel}/upload and
// /result, §5 "Order import"): the owner imports a CSV of three orders from the order list;
// the check before anything is saved names the bad row's reason, discarding asks first, the
// import makes the two good orders, and the failed rows download as a file with the reason.
import fs from 'node:fs';

import { stockUp } from '../fixtures.mjs';

const HEADER = 'เลขอ้างอิงคำสั่งซื้อ,ชื่อผู้รับ,เบอร์โทรศัพท์,ที่อยู่,ตำบล/แขวง,อำเภอ/เขต,จังหวัด,รหัสไปรษณีย์,อีเมล,รหัส SKU,จำนวน,ราคาต่อชิ้น,ค่าส่ง,ส่วนลด,หมายเหตุ';
const line = (ref, sku, qty) => `${ref},มานี มีนา,0891234567,12 ถนนนิมมานเหมินท์,สุเทพ,เมืองเชียงใหม่,เชียงใหม่,50200,,${sku},${qty},,,,`;

export const tests = [
  {
    name: 'an order file with one bad row: its reason shown, the rest imported, the failed rows downloaded',
    run: async ({ page, api, url }) => {
      const product = await api.product('IMP-TEA', 'ชาไทย ขวดใหญ่', { price: '65', cost: '20' });
      await stockUp(api, product.skus[0].id, 10, 'e2e import');
      const sku = product.skus[0].code;
      const csv = `\uFEFF${[HEADER, line('IMP-A1', sku, 2), line('IMP-A2', sku, 1), line('IMP-A3', 'NO-SUCH-SKU', 1)].join('\r\n')}\r\n`;
      const made = [];
      try {
        await page.goto(url('order-list'));
        await page.getByTestId('order-import').click();
        await page.getByTestId('order-import-channel-facebook').click();
        await page.getByTestId('import-warehouse').waitFor();
        await page.locator('input[type=file]').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

        // The check: two orders ready, one row with its reason; nothing saved yet.
        await page.getByTestId('import-summary').getByText('พร้อมนำเข้า 2 คำสั่งซื้อ จาก 3 แถว').waitFor();
        await page.getByTestId('import-orders').getByText('IMP-A1').waitFor();
        await page.getByTestId('import-problems-tab').click();
        await page.getByTestId('import-problems').getByText('รหัส SKU: ไม่พบ SKU นี้ในร้าน').waitFor();
        const before = await api.get('/orders?search=IMP-A1');
        if (before.data.length) throw new Error('the check saved an order');

        // Discarding asks first; keeping the file keeps the preview.
        await page.getByTestId('import-discard').click();
        await page.getByTestId('dialog-title').getByText('ยกเลิกไฟล์นี้หรือไม่?').waitFor();
        await page.getByTestId('dialog-cancel').click();
        await page.getByTestId('dialog-cancel').waitFor({ state: 'detached' });
        await page.getByTestId('import-confirm').waitFor();

        await page.getByTestId('import-confirm').click();
        await page.getByTestId('order-import-result').getByText('นำเข้าแล้ว 2 คำสั่งซื้อ').waitFor({ timeout: 30_000 });
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-download-failed').click()]);
        const text = fs.readFileSync(await download.path(), 'utf8');
        if (!text.includes('IMP-A3') || !text.includes('ไม่พบ SKU นี้ในร้าน') || text.includes('IMP-A1')) throw new Error(`the failed rows file is wrong:\n${text}`);
        for (const ref of ['IMP-A1', 'IMP-A2']) {
          const found = await api.get(`/orders?search=${ref}`);
          if (found.data.length !== 1 || !found.data[0].imported) throw new Error(`${ref} was not imported once`);
          made.push(found.data[0].id);
        }
      } finally {
        for (const id of made) await api.post(`/orders/${id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
];
