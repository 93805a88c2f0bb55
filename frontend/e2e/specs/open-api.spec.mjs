// Open-API channels (SPEC §2 Sale channels, §3 Open API connection, §5 its form): the owner
// makes a channel for an integrator's app from the sales-channel list, generates its key
// (shown once, copied), picks where its orders go and the events its webhook is sent, saves;
// the key is never shown again. On the channel's page the owner sends a test webhook to the
// integrator's endpoint (a small server here, which keeps what it is sent), sees it delivered
// in the delivery log with the request's headers and the answer, and sends it again with the
// same webhook-id.
import http from 'node:http';
import path from 'node:path';

import { input, pick, root, still } from '../fixtures.mjs';

const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `open-api-${name}.png`), fullPage: true });

/** The integrator's endpoint: answers 200 and keeps each request's headers and body. */
async function endpoint() {
  const seen = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ id: req.headers['webhook-id'], signature: req.headers['webhook-signature'], body: JSON.parse(body || '{}') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, seen, close: () => server.close() };
}

async function until(what, ok) {
  for (let i = 0; i < 200; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

export const tests = [
  {
    name: 'the owner makes an open-API channel, copies its key once, sends a test webhook, sees it delivered and sends it again',
    run: async ({ page, api }) => {
      const hook = await endpoint();
      try {
        const { data: warehouses } = await api.get('/wms/warehouses');
        const warehouse = warehouses.find((w) => w.is_default) ?? warehouses[0];
        await api.post('/logistics/store-channels', {
          warehouse_id: warehouse.id,
          logistic_type: 'domestic',
          provider_name: 'flash',
          name: 'Flash เว็บไซต์',
          pricing_method: 'flat',
          price: '40',
        });
        await api.post('/payments/store-channels', { channel_type: 'cod', acc_name: 'เก็บเงินปลายทาง', acc_no: '0899990003' });

        await page.getByTestId('sidebar').getByText('ร้านค้าบนมาร์เก็ตเพลส', { exact: true }).click();
        await page.waitForURL('**/1/sale-channel-list');
        await page.getByTestId('open-api-channels').getByText('ยังไม่มีช่องทาง Open API', { exact: false }).waitFor();
        await page.getByTestId('api-create').click();
        await page.waitForURL('**/1/sale-channel-setting/open-api/open_api/create');

        // Saving without a key says to generate one first; the key is then shown once.
        await input(page, 'api-name').fill('เว็บไซต์ร้านใจดี');
        await pick(page, 'api-channel', 'เว็บไซต์');
        await pick(page, 'api-warehouse', warehouse.name);
        await pick(page, 'api-logistic', 'Flash เว็บไซต์');
        await pick(page, 'api-payment', 'เก็บเงินปลายทาง');
        await page.getByTestId('api-save').click();
        await page.getByText('สร้างคีย์ก่อน', { exact: false }).first().waitFor();
        await page.getByTestId('api-generate-key').click();
        const shown = page.getByTestId('api-key-value');
        await shown.waitFor();
        const key = await shown.inputValue();
        if (!/^bok_[0-9a-f]{16}_[0-9a-f]{64}$/.test(key)) throw new Error(`the key reads ${key}`);
        await page.getByTestId('api-key-copy').click();
        await input(page, 'api-webhook-url').fill(hook.url);
        await page.getByTestId('api-event-order.created').click();
        await page.getByTestId('api-event-stock.changed').click();
        await still(page);
        await snap(page, 'create');
        await page.getByTestId('api-save').click();

        // Its own page: the key is gone for good, its first characters stay.
        await page.waitForURL('**/1/sale-channel-setting/open-api/website/edit/*');
        await page.getByTestId('api-keys').getByText(`${key.slice(0, 20)}`, { exact: false }).waitFor();
        if ((await page.content()).includes(key)) throw new Error('the key is shown again');
        await page.getByTestId('delivery-log').getByText('ยังไม่มีการส่ง').waitFor();

        // A test webhook: delivered, with the request's headers and the endpoint's answer.
        await page.getByTestId('webhook-test').click();
        const drawer = page.getByTestId('delivery-drawer');
        await drawer.getByText('ส่งสำเร็จ', { exact: false }).first().waitFor({ timeout: 20_000 });
        await until('the endpoint hears the test', () => hook.seen.length === 1);
        const first = hook.seen[0];
        if (first.body.type !== 'webhook.test' || !first.signature.startsWith('v1,')) throw new Error(JSON.stringify(first));
        await drawer.getByText(first.id).first().waitFor();
        await drawer.getByTestId('delivery-attempt').getByText('200').first().waitFor();
        await drawer.getByText('{"received":true}').waitFor();
        await drawer.getByText(`webhook-signature: ${first.signature}`, { exact: false }).waitFor();
        await still(page);
        await snap(page, 'delivered');

        // Sent again: the same webhook-id, a second attempt in the log.
        await drawer.getByTestId('delivery-replay').click();
        await until('the endpoint hears it again', () => hook.seen.length === 2);
        if (hook.seen[1].id !== first.id) throw new Error(`sent again as ${hook.seen[1].id}, not ${first.id}`);
        await drawer.getByTestId('delivery-attempt').nth(1).waitFor({ timeout: 20_000 });
        await snap(page, 'replayed');
        await page.keyboard.press('Escape');
        const row = page.getByTestId('delivery-log').locator('tr', { hasText: 'webhook.test' });
        await row.getByText('ส่งสำเร็จ').waitFor();
        await snap(page, 'log');

        // The list tells the channel and its key's first characters.
        await page.goto(page.url().replace(/sale-channel-setting.*/, 'sale-channel-list'));
        await page.getByTestId('api-channels').getByText('เว็บไซต์ร้านใจดี').waitFor();
      } finally {
        hook.close();
      }
    },
  },
];
