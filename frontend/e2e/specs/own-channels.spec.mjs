// A store's own channels (SPEC §1 social commerce and website; §2 /sale-channel-setting/
// {saleChannel}): the owner adds the shop's LINE account from the sales-channel list with
// the warehouse, shipping channel and payment account its orders take; a new order typed
// for "LINE shop" takes its sales channel and shipping channel at once, and is saved as a
// LINE order shipped by that channel.
import path from 'node:path';

import { input, pick, root, still, stockUp } from '../fixtures.mjs';

const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `own-channels-${name}.png`), fullPage: true });

export const tests = [
  {
    name: "the owner adds the shop's LINE account, and an order typed for it takes its channel and shipping",
    run: async ({ page, api }) => {
      const mug = await api.product('LINE-MUG', 'แก้วมัคสั่งทางไลน์', { price: '150', cost: '60' });
      const warehouse = await stockUp(api, mug.skus[0].id, 10);
      const customer = await api.customer('ลูกค้าไลน์ ใจดี', '0812223344');
      const kerry = await api.post('/logistics/store-channels', {
        warehouse_id: warehouse.id,
        logistic_type: 'domestic',
        provider_name: 'kerry',
        name: 'Kerry ลูกค้าไลน์',
        pricing_method: 'flat',
        price: '45',
      });
      await api.post('/payments/store-channels', { channel_type: 'cod', acc_name: 'ปลายทางไลน์', acc_no: '0899990007' });

      // From the list: add a LINE channel, every default required.
      await page.getByTestId('sidebar').getByText('ร้านค้าบนมาร์เก็ตเพลส', { exact: true }).click();
      await page.waitForURL('**/1/sale-channel-list');
      await page.getByTestId('own-channels').getByText('ยังไม่มีช่องทางโซเชียลหรือเว็บไซต์').waitFor();
      await page.getByTestId('own-create').click();
      await page.getByTestId('own-create-line').click();
      await page.waitForURL('**/1/sale-channel-setting/line');
      await page.getByRole('heading', { name: 'ช่องทางไลน์ใหม่' }).waitFor();
      await page.getByTestId('own-save').click();
      await page.getByText('กรุณากรอกข้อมูล', { exact: false }).first().waitFor();
      await input(page, 'own-name').fill('ร้านไลน์ใจดี');
      await pick(page, 'own-warehouse', warehouse.name);
      await pick(page, 'own-logistic', 'Kerry ลูกค้าไลน์');
      await pick(page, 'own-payment', 'ปลายทางไลน์');
      await still(page);
      await snap(page, 'form');
      await page.getByTestId('own-save').click();
      await page.waitForURL('**/1/sale-channel-list');
      const row = page.getByTestId('own-channels-table').locator('tr', { hasText: 'ร้านไลน์ใจดี' });
      await row.getByText('ไลน์', { exact: true }).waitFor();
      await row.getByText(warehouse.name).waitFor();
      await still(page);
      await snap(page, 'list');

      // A new order for it: its channel and shipping filled in.
      await page.getByTestId('sidebar').getByText('สร้างคำสั่งซื้อ', { exact: true }).click();
      await page.waitForURL('**/1/order-create');
      await pick(page, 'field-ownChannel', 'ร้านไลน์ใจดี · ไลน์');
      await page.getByTestId('field-channel').getByText('ไลน์', { exact: true }).waitFor();
      await page.getByTestId('field-warehouseId').getByText(warehouse.name).waitFor();
      await page.getByTestId('field-channelId').getByText('Kerry ลูกค้าไลน์', { exact: false }).waitFor();
      await page.getByTestId('customer-picker').click();
      await page.getByTestId('customer-picker').locator('input').fill('ลูกค้าไลน์');
      const found = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'ลูกค้าไลน์ ใจดี · 0812223344' }).first();
      await found.waitFor();
      await still(page);
      await found.click();
      await pick(page, 'line-0-sku', 'LINE-MUG — พร้อมขาย 10', 'LINE-MUG');
      await page.getByTestId('total-shipping').getByText('45.00 บาท').waitFor();
      await still(page);
      await snap(page, 'order');
      await page.getByTestId('order-save').click();
      await page.waitForURL('**/1/order-detail/*');
      const id = Number(page.url().split('/').pop());
      const saved = await api.get(`/orders/${id}`);
      if (saved.channel !== 'line' || saved.warehouse_id !== warehouse.id || saved.logistic_store_channel_id !== kerry.id || saved.customer_id !== customer.id) {
        throw new Error(`saved ${JSON.stringify({ channel: saved.channel, warehouse: saved.warehouse_id, logistic: saved.logistic_store_channel_id })}`);
      }
    },
  },
];
