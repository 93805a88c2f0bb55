// Order report exports (SPEC §2 Reports: order with export history, §4 Report export, §8):
// the owner exports this month's orders from the order list; the export is built in the
// background, shows in the export history with its progress, and downloads as a
// spreadsheet.
import fs from 'node:fs';

import { orderByApi, stockUp } from '../fixtures.mjs';

export const tests = [
  {
    name: 'this month\'s orders exported from the list, followed in the history, and downloaded',
    run: async ({ page, api, url }) => {
      // At least one order made today.
      const product = await api.product('EXP-MUG', 'แก้วน้ำ ลายดอกไม้', { price: '120', cost: '50' });
      const warehouse = await stockUp(api, product.skus[0].id, 5, 'e2e exports');
      const o = await orderByApi(api, {
        channel: 'website',
        warehouse_id: warehouse.id,
        items: [{ sku_id: product.skus[0].id, quantity: 1 }],
        shipping_address: { name: 'ปรีชา ดีใจ', tel: '0811112222', address: '5 ถนนเพชรบุรี', sub_district: 'ทุ่งพญาไท', district: 'ราชเทวี', state_province: 'กรุงเทพมหานคร', postcode: '10400' },
      });
      try {
        await page.goto(url('order-list'));
        await page.getByTestId('order-export').click();
        await page.getByTestId('export-form').waitFor();
        await page.locator('#export-submit').click();
        await page.getByText('กำลังเตรียมไฟล์ ดูได้ที่ประวัติการส่งออก').waitFor();
        const history = page.getByTestId('export-history');
        const row = history.locator('tr.ant-table-row').first();
        await row.getByText('ส่งออกแล้ว').waitFor({ timeout: 30_000 });
        await row.getByText('คำสั่งซื้อ', { exact: false }).first().waitFor();
        const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /ดาวน์โหลด/ }).click()]);
        const file = await download.path();
        const bytes = fs.readFileSync(file);
        if (!/^orders-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/.test(download.suggestedFilename())) throw new Error(`the file is named ${download.suggestedFilename()}`);
        if (bytes.length < 1000 || bytes.subarray(0, 2).toString() !== 'PK') throw new Error(`the file is not a spreadsheet (${bytes.length} bytes)`);
      } finally {
        await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
];
