// Sales channels (SPEC §2 Sale channels, §3, §7 Marketplaces): the owner connects a Shopee
// shop through the marketplace's authorize page (the sandbox's, which checks the signed link
// and hands out a single-use code), lands back on /sale-channel-redirect, which hands the
// code to the store's auth screen, and picks the shop's warehouse; the list then shows it.
// A member without the owner's role has no sales-channel screen. An order placed at Shopee is
// pushed to the back-office and shows in the order list with its shop; our stock reaches the
// Shopee listing it sold as; when Shopee ends the authorization the owner is prompted to
// connect again and staff are told to ask the owner.
import path from 'node:path';

import { pick, root, still } from '../fixtures.mjs';

/** Asks the Shopee sandbox (its control routes). */
async function shopee(sandboxes, method, route, body) {
  const r = await fetch(`${sandboxes.shopee}${route}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** Waits until the Shopee listing 1001:501 shows `quantity`. */
async function listingShows(sandboxes, quantity) {
  let seen;
  for (let i = 0; i < 100; i++) {
    seen = (await shopee(sandboxes, 'GET', '/sandbox/shopee/stock?shop_id=14701711&item_id=1001&model_id=501')).stock;
    if (seen === quantity) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the Shopee listing shows ${seen}, not ${quantity}`);
}

const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `sale-channels-${name}.png`) });

export const tests = [
  {
    name: 'the owner connects a Shopee shop through its authorize page and picks its warehouse',
    run: async ({ page }) => {
      await page.getByTestId('sidebar').getByText('ร้านค้าบนมาร์เก็ตเพลส', { exact: true }).click();
      await page.waitForURL('**/1/sale-channel-list');
      await page.getByTestId('marketplace-shopee').getByText('ยังไม่มีร้านค้า Shopee ที่เชื่อมต่อ').waitFor();
      await snap(page, 'list-empty');

      // Off to the marketplace: its page names the shop the seller authorizes.
      await page.getByTestId('connect-shopee').click();
      await page.waitForURL('**/api/v2/shop/auth_partner?**');
      await page.getByText('ร้านเสื้อผ้าใจดี (Shopee)').first().waitFor({ state: 'attached' });
      await snap(page, 'shopee-authorize');
      await page.locator('#authorize').click();

      // Back through the redirect to the shop's settings.
      await page.waitForURL('**/1/sale-channel-setting/shopee/*?connected=1');
      await page.getByTestId('sale-channel-connected').getByText('เชื่อมต่อ ร้านเสื้อผ้าใจดี (Shopee) แล้ว', { exact: false }).waitFor();
      await pick(page, 'setting-warehouse', 'คลังสินค้าหลัก');
      await snap(page, 'setting');
      await page.getByTestId('setting-save').click();
      await page.waitForURL('**/1/sale-channel-list');
      const row = page.getByTestId('shops-shopee').locator('tr', { hasText: 'ร้านเสื้อผ้าใจดี (Shopee)' });
      await row.getByText('คลังสินค้าหลัก').waitFor();
      await row.getByText('รหัสร้าน 14701711').waitFor();
      await still(page);
      await snap(page, 'list-connected');
    },
  },
  {
    name: 'a member without the owner role has no sales-channel screen',
    as: 'viewer',
    run: async ({ page, url }) => {
      await page.getByTestId('sidebar').waitFor();
      await page.getByTestId('sidebar').getByText('ช่องทางการขาย', { exact: true }).waitFor({ state: 'detached' });
      await page.goto(url('sale-channel-list'));
      await page.waitForURL('**/access-denied**');
    },
  },
  {
    name: 'an order pushed by Shopee shows in the order list with its shop, and our stock reaches its listing',
    run: async ({ page, api, sandboxes }) => {
      const made = await api.product('TEE-RED-M', 'เสื้อยืดสีแดง M');
      await api.stock(made.skus[0].id, 'TEE-RED-M', 10);
      const placed = await shopee(sandboxes, 'POST', '/sandbox/shopee/orders', {
        shop_id: 14701711,
        order_sn: '2611280101SHP',
        item_id: '1001',
        model_id: '501',
        seller_sku: 'TEE-RED-M',
        name: 'เสื้อยืดสีแดง M',
        quantity: 2,
        price: '199.00',
      });
      if (placed.answered !== 204) throw new Error(`Shopee's push was answered ${placed.answered}`);
      await page.getByTestId('sidebar').getByText('รายการคำสั่งซื้อ', { exact: true }).click();
      await page.waitForURL('**/1/order-list**');
      // The push is handled after its answer: the list shows it within seconds.
      const row = page.locator('tr', { hasText: '2611280101SHP' });
      for (let i = 0; i < 20 && !(await row.count()); i++) {
        await page.waitForTimeout(250);
        await page.reload();
      }
      await row.getByText('ร้านเสื้อผ้าใจดี (Shopee)').waitFor();
      await still(page);
      await snap(page, 'order-list');
      // The listing it sold as shows what is left, and a count here reaches it.
      await listingShows(sandboxes, 8);
      const warehouses = await api.get('/wms/warehouses');
      await api.post('/wms/goods-adjust', { warehouse_id: warehouses.data[0].id, sku_id: made.skus[0].id, quantity: 5, reason: 'นับสต็อก' });
      await listingShows(sandboxes, 13);
      // Shopee ends the authorization: the next sync finds it lost.
      await shopee(sandboxes, 'POST', '/sandbox/shopee/end-authorization?shop_id=14701711');
      const synced = await api.post('/orders/produce-missing-mkp-order-after-token-expire', {});
      if (synced.failed_store_channel_ids.length !== 1) throw new Error(`the sync did not find the lost shop: ${JSON.stringify(synced)}`);
    },
  },
  {
    name: 'the owner is asked to connect a lost shop again',
    run: async ({ page }) => {
      await page.getByTestId('dialog-title').getByText('การเชื่อมต่อมาร์เก็ตเพลสขาดหาย').waitFor();
      await page.getByTestId('dialog-message').getByText('ร้านเสื้อผ้าใจดี (Shopee)', { exact: false }).waitFor();
      await snap(page, 'lost-owner');
      await page.getByTestId('dialog-ok').click();
      await page.waitForURL('**/1/sale-channel-list');
      await page.getByTestId('shops-shopee').locator('tr', { hasText: 'ร้านเสื้อผ้าใจดี (Shopee)' }).getByTestId(/shop-\d+-lost/).waitFor();
    },
  },
  {
    name: 'staff are told to ask the owner, without a way to the sale channels',
    as: 'viewer',
    run: async ({ page, api }) => {
      await page.getByTestId('dialog-message').getByText('กรุณาติดต่อเจ้าของร้าน', { exact: false }).waitFor();
      if (await page.getByTestId('dialog-cancel').count()) throw new Error('staff were offered a cancel button');
      await snap(page, 'lost-staff');
      await page.getByTestId('dialog-ok').click();
      await page.getByTestId('dialog-title').waitFor({ state: 'detached' });
      // The shop is turned off, so the specs after this one meet no notice.
      const shops = await api.get('/marketplaces/store-channels');
      for (const s of shops.data) await api.patch(`/marketplaces/store-channels/${s.id}`, { status: 'inactive' });
    },
  },
];
