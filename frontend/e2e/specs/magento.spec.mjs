// Magento 2 shops (SPEC §2 Sale channels, §3 Magento channel, §5 its form; ADR 0045): the
// owner adds the store's Magento shop (the sandbox's, which refuses integration tokens as
// bearer tokens as Magento 2.4.4 and later do by default) from the sales-channel list. With
// Bearer and a wrong token the back-office cannot connect, says why under the token field and
// saves nothing; with OAuth 1.0a and the integration's four credentials, and a generated
// token, it saves. Sync now takes the shop's orders: they show in the order list as website
// orders, their Magento order numbers as references.
import path from 'node:path';

import { input, pick, root, still } from '../fixtures.mjs';

const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `magento-${name}.png`), fullPage: true });

/** The sandbox's orders (services/sandbox/src/main.rs): their increment ids. */
const ORDERS = ['000000101', '000000102', '000000103'];

export const tests = [
  {
    name: 'the owner adds a Magento shop: refused with a wrong bearer token, saved with OAuth 1.0a, its orders taken by Sync now',
    run: async ({ page, api, sandboxes }) => {
      const creds = sandboxes.magentoIntegration;
      if (!sandboxes.magento || !creds.accessToken) throw new Error('the sandbox printed no Magento shop');
      const { data: warehouses } = await api.get('/wms/warehouses');
      const warehouse = warehouses.find((w) => w.is_default) ?? warehouses[0];
      await api.post('/logistics/store-channels', {
        warehouse_id: warehouse.id,
        logistic_type: 'domestic',
        provider_name: 'flash',
        name: 'Flash ร้าน Magento',
        pricing_method: 'flat',
        price: '40',
      });
      await api.post('/payments/store-channels', { channel_type: 'cod', acc_name: 'ปลายทาง Magento', acc_no: '0899990045' });

      await page.getByTestId('sidebar').getByText('ร้านค้าบนมาร์เก็ตเพลส', { exact: true }).click();
      await page.waitForURL('**/1/sale-channel-list');
      await page.getByTestId('magento-channels').getByText('ยังไม่มีร้านค้า Magento').waitFor();
      await page.getByTestId('magento-create').click();
      await page.waitForURL('**/1/sale-channel-setting/magento/create');
      await page.getByRole('heading', { name: 'ช่องทาง Magento ใหม่' }).waitFor();

      // Bearer, a wrong token: Magento cannot connect, the reason under the token, nothing saved.
      await input(page, 'magento-name').fill('ร้าน Magento ใจดี');
      await input(page, 'magento-url').fill(sandboxes.magento);
      await page.getByTestId('magento-bearer-note').getByText('oauth/consumer/enable_integration_as_bearer', { exact: false }).waitFor();
      await input(page, 'magento-access-token').fill('wrongtoken0000000000000000000001');
      await pick(page, 'magento-warehouse', warehouse.name);
      await pick(page, 'magento-logistic', 'Flash ร้าน Magento');
      await pick(page, 'magento-payment', 'ปลายทาง Magento');
      await page.getByTestId('magento-generate-key').click();
      const token = await page.getByTestId('magento-key-value').inputValue();
      if (!/^bok_[0-9a-f]{16}_[0-9a-f]{64}$/.test(token)) throw new Error(`the generated token reads ${token}`);
      await page.getByTestId('magento-save').click();
      await page.getByTestId('magento-cannot-connect').getByText('ไม่สามารถเชื่อมต่อ Magento ได้').waitFor();
      const tokenField = page.locator('.ant-form-item', { has: page.getByTestId('magento-access-token') });
      await tokenField.locator('.ant-form-item-explain-error').getByText('Magento ไม่รับโทเคนแบบ Bearer', { exact: false }).waitFor();
      await still(page);
      await snap(page, 'cannot-connect');
      const none = await api.get('/marketplaces/magento-channels');
      if (none.total !== 0) throw new Error(`a refused shop was saved: ${JSON.stringify(none.data)}`);
      if (page.url().includes('/edit/')) throw new Error('the refused form was left');

      // OAuth 1.0a with the integration's credentials: saved.
      await page.getByTestId('magento-auth-oauth1').click();
      await input(page, 'magento-consumer-key').fill(creds.consumerKey);
      await input(page, 'magento-consumer-secret').fill(creds.consumerSecret);
      await input(page, 'magento-access-token').fill(creds.accessToken);
      await input(page, 'magento-access-token-secret').fill(creds.accessTokenSecret);
      await still(page);
      await snap(page, 'form');
      await page.getByTestId('magento-save').click();
      await page.waitForURL('**/1/sale-channel-setting/magento/edit/*');
      await page.getByRole('heading', { name: 'ร้าน Magento ใจดี: Magento' }).waitFor();
      await page.getByTestId('magento-keys').getByText(token.slice(0, 20), { exact: false }).waitFor();
      if ((await page.content()).includes(token)) throw new Error('the generated token is shown again');
      for (const secret of [creds.consumerSecret, creds.accessToken, creds.accessTokenSecret]) {
        if ((await page.content()).includes(secret)) throw new Error('a credential is shown back');
      }

      // Sync now: the shop's three orders taken.
      await page.getByTestId('magento-sync').click();
      await page.getByTestId('magento-orders-taken').getByText('3', { exact: true }).waitFor({ timeout: 20_000 });
      await page.getByTestId('magento-last-polled').getByText('ยังไม่', { exact: false }).waitFor({ state: 'detached' });
      if (await page.getByTestId('magento-poll-error').count()) throw new Error(`the poll failed: ${await page.getByTestId('magento-poll-error').textContent()}`);
      await still(page);
      await snap(page, 'synced');

      // In the order list: website orders, the Magento order numbers as their references.
      await page.getByTestId('sidebar').getByText('รายการคำสั่งซื้อ', { exact: true }).click();
      await page.waitForURL('**/1/order-list**');
      for (const ref of ORDERS) {
        const row = page.locator('tr', { hasText: ref });
        for (let i = 0; i < 20 && !(await row.count()); i++) {
          await page.waitForTimeout(250);
          await page.reload();
        }
        await row.getByText('เว็บไซต์', { exact: true }).waitFor();
      }
      await still(page);
      await snap(page, 'order-list');
      for (const ref of ORDERS) {
        const found = await api.get(`/orders?search=${ref}`);
        const order = found.data.find((o) => o.reference === ref);
        if (!order || order.channel !== 'website') throw new Error(`order ${ref} reads ${JSON.stringify(found.data.map((o) => ({ reference: o.reference, channel: o.channel })))}`);
      }

      // The list tells the shop, on, with its last poll.
      await page.goto(page.url().replace(/order-list.*/, 'sale-channel-list'));
      const shop = page.getByTestId('magento-channels-table').locator('tr', { hasText: 'ร้าน Magento ใจดี' });
      await shop.getByText('เปิด', { exact: true }).waitFor();
      await shop.getByText(sandboxes.magento).waitFor();
      await still(page);
      await snap(page, 'list');
    },
  },
];
