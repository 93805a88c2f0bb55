// The reports (SPEC §2 Reports), in Thai: the owner opens Reports from the sidebar and lands
// on the order report, asks for this month's orders and downloads the spreadsheet from the
// export history on the page; then the stock movements, filtered by kind and SKU code and
// paged; and the owner's sales report. Screenshots go to e2e/screenshots/report-*.png.
import fs from 'node:fs';
import path from 'node:path';

import { orderByApi, root, still, stockUp } from '../fixtures.mjs';

const SHOTS = (name) => path.join(root, 'e2e', 'screenshots', `report-${name}.png`);

export const tests = [
  {
    name: 'the order report from the sidebar: this month exported on the page and downloaded',
    run: async ({ page, api, url }) => {
      const product = await api.product('REP-BAG', 'กระเป๋าผ้า ลายช้าง', { price: '250', cost: '90' });
      const warehouse = await stockUp(api, product.skus[0].id, 5, 'e2e report');
      const o = await orderByApi(api, {
        channel: 'line',
        warehouse_id: warehouse.id,
        items: [{ sku_id: product.skus[0].id, quantity: 1 }],
        shipping_address: { name: 'ปรีชา ดีใจ', tel: '0811112222', address: '5 ถนนเพชรบุรี', sub_district: 'ทุ่งพญาไท', district: 'ราชเทวี', state_province: 'กรุงเทพมหานคร', postcode: '10400' },
      });
      try {
        await page.goto(url('getting-start'));
        await page.getByTestId('sidebar').getByText('รายงาน', { exact: true }).click();
        await page.waitForURL('**/1/report/order');
        await page.getByTestId('order-report').getByTestId('export-form').waitFor();
        await page.getByTestId('order-report').getByTestId('export-submit').click();
        await page.getByText('กำลังเตรียมไฟล์ ดูได้ที่ประวัติการส่งออก').waitFor();
        const row = page.getByTestId('export-history').locator('tr.ant-table-row').first();
        await row.getByText('ส่งออกแล้ว').waitFor({ timeout: 30_000 });
        await still(page);
        await page.screenshot({ path: SHOTS('order'), fullPage: true });
        const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /ดาวน์โหลด/ }).click()]);
        const bytes = fs.readFileSync(await download.path());
        if (bytes.length < 1000 || bytes.subarray(0, 2).toString() !== 'PK') throw new Error(`the file is not a spreadsheet (${bytes.length} bytes)`);
      } finally {
        await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
  {
    name: 'the stock movements filtered by kind and SKU code, and paged; the stock now',
    run: async ({ page, api, url }) => {
      const product = await api.product('REP-MOVE', 'ผ้าพันคอ ไหมไทย', { price: '390', cost: '150' });
      const sku = product.skus[0].id;
      const warehouse = await stockUp(api, sku, 30, 'e2e movements');
      // 24 more counts of one unit off: 25 adjustments of this SKU, two pages of 20.
      for (let i = 0; i < 24; i++) await api.post('/wms/goods-adjust', { warehouse_id: warehouse.id, sku_id: sku, quantity: -1, reason: `นับได้ขาด ${i + 1}` });
      await page.goto(url('report'));
      await page.waitForURL('**/1/report/order');
      await page.getByTestId('report-tab-movement').click();
      await page.waitForURL('**/1/report/movement');
      await page.getByTestId('movements').locator('tr.ant-table-row').first().waitFor();
      await page.getByTestId('movement-kind').click();
      await page.locator('.ant-select-item-option', { hasText: 'ปรับสต๊อก' }).click();
      await page.waitForURL(/kind=adjust/);
      const search = page.getByTestId('movement-sku').getByRole('searchbox');
      await search.fill('REP-MOVE');
      await search.press('Enter');
      await page.waitForURL(/sku-code=REP-MOVE/);
      await page.getByText('25 รายการ').waitFor();
      const rows = page.getByTestId('movements').locator('tr.ant-table-row');
      await rows.first().getByText('นับได้ขาด 24').waitFor();
      if ((await rows.count()) !== 20) throw new Error(`the first page holds ${await rows.count()} rows`);
      await page.locator('.ant-pagination-item-2').click();
      await page.waitForURL(/page=2/);
      // The page turned keeps the filters it turned under.
      if (!/kind=adjust/.test(page.url()) || !/sku-code=REP-MOVE/.test(page.url())) throw new Error(`the filters were lost: ${page.url()}`);
      await rows.first().getByText('นับได้ขาด 4').waitFor();
      await rows.last().getByText('e2e movements').waitFor();
      if ((await rows.count()) !== 5) throw new Error(`the second page holds ${await rows.count()} rows`);
      await still(page);
      await page.screenshot({ path: SHOTS('movements'), fullPage: true });
      // The movements as filtered, exported: the history opens beside them and the file
      // downloads once built.
      await page.getByTestId('movement-export').click();
      const drawer = page.locator('.ant-drawer').getByTestId('export-history');
      const exported = drawer.locator('tr.ant-table-row').first();
      await exported.getByText('ความเคลื่อนไหวสต๊อก', { exact: false }).waitFor();
      await exported.getByText('ส่งออกแล้ว').waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), exported.getByRole('button', { name: /ดาวน์โหลด/ }).click()]);
      if (!/^stock-movements-.*\.xlsx$/.test(download.suggestedFilename())) throw new Error(`the file is named ${download.suggestedFilename()}`);
      const bytes = fs.readFileSync(await download.path());
      if (bytes.subarray(0, 2).toString() !== 'PK') throw new Error('the movements file is not a spreadsheet');
      await page.locator('.ant-drawer-close').click();
      // The stock now: 30 counted in, 24 counted off.
      await page.getByTestId('report-tab-stock').click();
      await page.waitForURL('**/1/report/stock');
      const stock = page.getByTestId('stock-report').locator('tr.ant-table-row');
      const scarf = stock.filter({ hasText: 'REP-MOVE' });
      await stock.first().waitFor();
      await still(page);
      for (let p = 2; (await scarf.count()) === 0; p++) {
        if (p > 20) throw new Error('the scarf is not in the stock report');
        // The table keeps the page before on screen until the new page has answered.
        const turned = page.waitForResponse((r) => {
          const u = new URL(r.url());
          return u.pathname === '/api/reports/stock' && u.searchParams.get('page') === String(p);
        });
        const before = await stock.first().innerText();
        await page.locator(`.ant-pagination-item-${p}`).click();
        await page.waitForURL(new RegExp(`page=${p}`));
        await turned;
        await page.getByTestId('stock-report').locator('.ant-spin-spinning').waitFor({ state: 'detached' });
        // The new page is on screen once its first row is another one.
        for (let i = 0; i < 100 && (await stock.first().innerText()) === before; i++) await page.waitForTimeout(50);
        await still(page);
      }
      if (!/\b6\b/.test(await scarf.innerText())) throw new Error(`the scarf's stock reads ${await scarf.innerText()}`);
      await still(page);
      await page.screenshot({ path: SHOTS('stock'), fullPage: true });
    },
  },
  {
    name: 'the sales report: the orders of the month by their state now, then the year; and who made them',
    run: async ({ page, api, url }) => {
      await page.goto(url('report/order'));
      await page.getByTestId('report-tab-sales').click();
      await page.waitForURL('**/1/report/sales');
      // The period's orders placed, as the report's total row counts them.
      const placed = async () => Number((await page.getByTestId('sales-total').locator('td').nth(1).innerText()).split('\n')[0].replace(/,/g, ''));
      await page.getByTestId('sales-total').waitFor();
      const before = await placed();
      const product = await api.product('REP-SALE', 'หมอนอิง ผ้าฝ้าย', { price: '320', cost: '120' });
      const warehouse = await stockUp(api, product.skus[0].id, 5, 'e2e sales report');
      const o = await orderByApi(api, {
        channel: 'facebook',
        warehouse_id: warehouse.id,
        items: [{ sku_id: product.skus[0].id, quantity: 1 }],
        shipping_address: { name: 'สมใจ ใจดี', tel: '0812345678', address: '1 ถนนสุขุมวิท', sub_district: 'คลองเตย', district: 'คลองเตย', state_province: 'กรุงเทพมหานคร', postcode: '10110' },
      });
      try {
        // The order just placed counts among the month's orders once the figures follow it.
        for (let i = 0; (await placed()) !== before + 1; i++) {
          if (i > 40) throw new Error(`the new order never showed in the report (placed ${await placed()}, before ${before})`);
          await page.reload();
          await page.getByTestId('sales-total').waitFor();
        }
        await page.getByTestId('period').getByText('รายปี').click();
        await page.waitForURL(/period=yearly/);
        await page.getByTestId('sales-report').getByText('ธ.ค.').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('sales'), fullPage: true });
        // Sales per employee: the owner made the order.
        await page.getByTestId('report-tab-staff').click();
        await page.waitForURL('**/1/report/staff');
        await page.getByTestId('staff-report-view').getByText('ตาราง').click();
        await page.getByTestId('staff-report').getByText('สมศรี ใจดี').waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('staff'), fullPage: true });
      } finally {
        await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
];
