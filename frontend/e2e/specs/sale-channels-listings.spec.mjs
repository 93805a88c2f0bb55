// A marketplace shop's listings (SPEC §2 `/product-list/{channel}/{providerName}`, issue
// "marketplace catalogues"): after the sale-channels spec the demo store's Shopee shop is
// connected again; the owner imports its listings through the Shopee sandbox, empties the
// queue of listings waiting for a SKU (a matching rule and an automatic link by name, a
// bundle by hand, a product made from a listing), changes the shop's stock rule and sees the
// sandbox receive the new quantity, and pushes all the shop's stock to finished.
import fs from 'node:fs';
import path from 'node:path';

import { file, pick, root, still } from '../fixtures.mjs';

const SHOP = 14701711;

export async function shopee(sandboxes, method, route, body, headers = { 'content-type': 'application/json' }) {
  const r = await fetch(`${sandboxes.shopee}${route}`, { method, headers, body, redirect: 'manual' });
  if (r.status >= 400) throw new Error(`${method} ${route}: ${r.status} ${await r.text()}`);
  return r;
}

/** The sandbox's stock of a listing. */
async function stockOf(sandboxes, item, model) {
  const r = await shopee(sandboxes, 'GET', `/sandbox/shopee/stock?shop_id=${SHOP}&item_id=${item}&model_id=${model}`);
  return (await r.json()).stock;
}

async function shows(sandboxes, item, model, quantity) {
  let seen;
  for (let i = 0; i < 100; i++) {
    seen = await stockOf(sandboxes, item, model);
    if (seen === quantity) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the Shopee listing ${item}:${model} shows ${seen}, not ${quantity}`);
}

async function waitFor(ok, what) {
  for (let i = 0; i < 150; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited in vain for ${what}`);
}

const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `listings-${name}.png`), fullPage: true });

/** The store's Shopee shop, connected again and turned on: its id. */
export async function reconnect(api, sandboxes) {
  const shops = await api.get('/marketplaces/store-channels?marketplace=shopee');
  const shop = shops.data[0];
  const link = await api.get(`/marketplaces/shopee/auth-url?store-channel-id=${shop.id}`);
  const redirect = new URL(link.url).searchParams.get('redirect');
  const r = await shopee(sandboxes, 'POST', '/sandbox/shopee/authorize', new URLSearchParams({ redirect, shop_id: String(SHOP) }).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  });
  const code = new URL(r.headers.get('location')).searchParams.get('code');
  await api.post('/marketplaces/shopee/reconnect', { state: link.state, code, shop_id: String(SHOP) });
  await api.patch(`/marketplaces/store-channels/${shop.id}`, { status: 'active' });
  return shop.id;
}

/** The TikTok sandbox's seller, connected through the sandbox's consent page: the shop's id. */
async function tiktok(api, sandboxes) {
  const link = await api.get('/marketplaces/tiktok-shop/auth-url');
  const r = await fetch(`${sandboxes.tiktok}/sandbox/tiktok/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ state: link.state, redirect: 'http://localhost/' }).toString(),
    redirect: 'manual',
  });
  const code = new URL(r.headers.get('location')).searchParams.get('code');
  const shops = await api.post('/marketplaces/tiktok-shop/connect', { state: link.state, code });
  return shops.data[0];
}

export const tests = [
  {
    name: "the owner imports a shop's listings and empties the queue by rule, name, bundle and a new product",
    run: async ({ page, api, sandboxes }) => {
      const shop = await reconnect(api, sandboxes);
      await page.getByTestId('sidebar').getByText('รายการสินค้า', { exact: true }).click();
      await page.waitForURL('**/1/product-list/store');
      await pick(page, 'channel-switch', 'ร้านเสื้อผ้าใจดี (Shopee)');
      await page.waitForURL(`**/1/product-list/shopee/${shop}`);
      await page.getByTestId('listings-shop').getByText('ร้านเสื้อผ้าใจดี (Shopee) · Shopee').waitFor();

      // The import, through Shopee's API: what matches our codes is linked.
      await page.getByTestId('listings-import').first().click();
      await page.getByRole('button', { name: 'เริ่มนำเข้า' }).click();
      await page.getByTestId('import-done').getByText('นำเข้าเสร็จ', { exact: false }).waitFor({ timeout: 30_000 });
      await page.getByTestId('import-done').getByText('พบ 9', { exact: false }).waitFor();
      const table = page.getByTestId('listings-table');
      await table.getByText('ครีมกันแดด SPF50 PA+++ (โปรโมชัน)').waitFor();
      await still(page);
      await snap(page, 'queue');

      // A shop prefix, then an automatic link by name: two leave the queue.
      await page.getByTestId('listings-match-rules').click();
      await page.getByTestId('match-rule-text').fill('PROMO-');
      await page.getByTestId('match-rule-add').click();
      await page.getByTestId('match-rules').getByText('PROMO-').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('listings-auto-link').click();
      await page.locator('#auto-link-run').click();
      await page.getByText('เชื่อมด้วย SKU 1 รายการ ด้วยชื่อ 1 รายการ เหลือรอเชื่อม 2 รายการ').waitFor();
      await table.getByText('ครีมกันแดด SPF50 PA+++ (โปรโมชัน)').waitFor({ state: 'detached' });
      await table.getByText('หมอนอิงลายช้าง').waitFor({ state: 'detached' });

      // The set by hand: a shirt and a bag.
      const set = table.locator('tr', { hasText: 'ชุดเสื้อยืด + กระเป๋าผ้า' });
      await set.getByRole('button', { name: 'เลือก SKU' }).click();
      await page.getByTestId('link-kind').getByText('ชุดสินค้า (หลาย SKU)').click();
      await pick(page, 'bundle-sku-0', 'TS-001-1', 'TS-001-1');
      await pick(page, 'bundle-sku-1', 'BG-030-1', 'BG-030-1');
      await page.getByTestId('bundle-share-0').fill('70');
      await page.getByTestId('bundle-share-1').fill('30');
      await page.getByRole('button', { name: 'บันทึก' }).click();
      await page.getByText('เชื่อมสินค้าแล้ว', { exact: false }).first().waitFor();
      await set.waitFor({ state: 'detached' });

      // The key ring we do not sell yet: made into a product of ours.
      const key = table.locator('tr', { hasText: 'พวงกุญแจช้างไม้แกะสลัก' });
      await key.locator('input[type=checkbox]').check();
      await page.getByTestId('listings-create').click();
      await pick(page, 'listings-create-category', 'บ้านและสวน');
      await page.locator('#listings-create-confirm').click();
      await page.getByText('สร้างสินค้าและเชื่อมแล้ว 1 SKU').waitFor();
      await table.getByText('ไม่มีสินค้าที่รอเชื่อม SKU').waitFor();
      await still(page);
      await snap(page, 'queue-empty');
      // The new product is in the catalogue, linked to the shop.
      const made = await api.get('/products?search=KEY-ELE-01');
      if (made.data.length !== 1) throw new Error(`the key ring was not made: ${JSON.stringify(made)}`);
    },
  },
  {
    name: "a shop's stock rule reaches the marketplace, and push all finishes as the realtime socket tells it",
    run: async ({ page, api, sandboxes }) => {
      const shops = await api.get('/marketplaces/store-channels?marketplace=shopee');
      const shop = shops.data[0].id;
      // What the store's socket hears, and how often the screen asks for the sync status.
      const frames = [];
      page.on('websocket', (ws) => {
        if (!ws.url().endsWith('/api/realtime')) return;
        ws.on('framereceived', (f) => {
          try {
            frames.push(JSON.parse(String(f.payload)));
          } catch {
            // not a frame of ours
          }
        });
      });
      let asked = 0;
      page.on('request', (r) => {
        if (r.method() === 'GET' && r.url().includes(`/store-channels/${shop}/stock-sync`)) asked++;
      });
      await page.goto(page.url().replace(/\/1\/.*$/, `/1/product-list/shopee/${shop}?tab=linked`));
      await page.getByTestId('listings-table').getByText('CF-250-1').first().waitFor();
      const before = await stockOf(sandboxes, 1002, 601);
      await page.getByTestId('listings-shop-rule').click();
      await page.getByTestId('rule-percent').fill('50');
      await page.getByTestId('rule-preview').getByText('ช่องทางนี้จะแสดง 5 ชิ้น', { exact: false }).waitFor();
      await snap(page, 'rule');
      await page.getByTestId('rule-save').click();
      await page.getByText('บันทึกกฎสต็อกแล้ว', { exact: false }).waitFor();
      await shows(sandboxes, 1002, 601, Math.floor(before / 2));

      // Signed in on the socket, the screen does not poll: push all's steps come as frames.
      await waitFor(() => frames.some((f) => f.event === 'AUTH'), 'the socket to sign in');
      const askedBefore = asked;
      await page.getByTestId('listings-push-all').click();
      await page.getByTestId('stock-sync').getByText('เสร็จเมื่อ', { exact: false }).waitFor({ timeout: 30_000 });
      await waitFor(
        () => frames.some((f) => f.event === 'PRODUCT_SYNC_STOCK_ALL' && f.data.some((x) => x.store_channel_id === shop && x.status === 'finished' && x.total > 0)),
        "the socket to tell push all's end",
      );
      if (asked !== askedBefore) throw new Error(`the screen polled the sync status ${asked - askedBefore} times with the socket open`);
      await still(page);
      await snap(page, 'pushed-all');
    },
  },
  {
    name: "a TikTok shop's spreadsheet goes through the import wizard: a wrong template is refused, the rows are read, kept and linked",
    run: async ({ page, api, sandboxes }) => {
      const shop = await tiktok(api, sandboxes);
      await page.getByTestId('sidebar').getByText('รายการสินค้า', { exact: true }).click();
      await page.waitForURL('**/1/product-list/store');
      await page.getByTestId('product-import').click();
      await page.waitForURL('**/1/product-import-channel');
      await page.getByTestId(`import-channel-tiktok_shop-${shop.id}`).click();
      await page.waitForURL(`**/1/product-import/tiktok_shop/upload/${shop.id}`);
      await page.getByTestId('import-shop').getByText(shop.shop_name, { exact: false }).waitFor();

      // A sheet of orders is not the platform's export of listings.
      await page.locator('input[type=file]').setInputFiles(file('wrong-template.xlsx'));
      await page.getByTestId('import-error').getByText('ไฟล์ไม่ถูกต้อง กรุณาอัปโหลดไฟล์ตามรูปแบบ').waitFor();
      if (!page.url().includes('/upload/')) throw new Error('a wrong template must stay on the upload step');

      // TikTok's export: its columns, three rows read and one refused.
      await page.locator('input[type=file]').setInputFiles(file('tiktok-listings.xlsx'));
      await page.waitForURL(`**/1/product-import/tiktok_shop/mapping/${shop.id}`);
      const mapping = page.getByTestId('import-mapping');
      for (const column of ['product_id', 'product_name', 'sku_id', 'variation_value', 'product_description', 'price', 'seller_sku']) await mapping.getByText(column, { exact: true }).waitFor();
      await page.getByTestId('import-summary').getByText('อ่านได้ 3 รายการ มีปัญหา 1 แถว', { exact: false }).waitFor();
      await still(page);
      await snap(page, 'file-mapping');
      await page.getByTestId('import-start').click();
      await page.waitForURL(`**/1/product-import/tiktok_shop/result/${shop.id}`);
      await page.getByTestId('import-result').getByText('พบ 3', { exact: false }).waitFor({ timeout: 30_000 });
      await page.getByTestId('import-result').getByText('เชื่อม 2', { exact: false }).waitFor();
      await page.getByTestId('import-download').waitFor();
      await snap(page, 'file-result');

      // The same file again makes nothing twice.
      const before = await api.get(`/marketplaces/store-channels/${shop.id}/listings`);
      await page.getByTestId('import-to-listings').click();
      await page.waitForURL(`**/1/product-list/tiktok_shop/${shop.id}`);
      await page.getByTestId('listings-table').getByText('หมวกบักเก็ต').waitFor();
      const form = new FormData();
      form.append('store_channel_id', String(shop.id));
      form.append('file', new Blob([fs.readFileSync(file('tiktok-listings.xlsx'))]), 'tiktok-listings.xlsx');
      const again = await api.post('/products/marketplace/tiktok-shop/import-file', form);
      const after = await api.get(`/marketplaces/store-channels/${shop.id}/listings`);
      if (after.total !== before.total || before.total !== 3) throw new Error(`the listings were ${before.total}, then ${after.total}`);
      if (again.import.id === undefined) throw new Error(`the second import answered ${JSON.stringify(again)}`);
    },
  },
];
