// Sales channels (SPEC §2 Sale channels, §3, §7 Marketplaces): the owner connects a Shopee
// shop through the marketplace's authorize page (the sandbox's, which checks the signed link
// and hands out a single-use code), lands back on /sale-channel-redirect, which hands the
// code to the store's auth screen, and picks the shop's warehouse; the list then shows it.
// A member without the owner's role has no sales-channel screen.
import path from 'node:path';

import { pick, root, still } from '../fixtures.mjs';

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
];
