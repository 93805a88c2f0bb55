// The owner's dashboards (SPEC §2 Dashboards, owner only), in Thai: a month's sales beside
// the month before with its charts, the period switched to a quarter, and an order placed
// elsewhere (through the API, as another tab or a sales channel would) showing on the open
// dashboard within 5 s; the statistics, sales-channel, products-sold, orders, customer and
// customer-area dashboards reached by their tabs. A member who is not the owner is turned
// away. Screenshots go to e2e/screenshots/dashboard-*.png.
import path from 'node:path';

import { orderByApi, root, still, stockUp } from '../fixtures.mjs';

const SHOTS = (name) => path.join(root, 'e2e', 'screenshots', `dashboard-${name}.png`);

/** The figure of a card as a number of baht ("1,345.50" → 1345.5). */
async function figure(page, name) {
  const text = await page.getByTestId(`figure-${name}-value`).innerText();
  return Number(text.replace(/,/g, ''));
}

const ADDRESS = { name: 'มานี มีนา', tel: '0812223333', address: '9 ถนนสีลม', sub_district: 'สีลม', district: 'บางรัก', state_province: 'กรุงเทพมหานคร', postcode: '10500' };

export const tests = [
  {
    name: 'the month in Thai with its charts, a quarter, and a new order within 5 s',
    run: async ({ page, api, url }) => {
      const product = await api.product('DASH-CUP', 'แก้วกาแฟ เซรามิก', { price: '150', cost: '60' });
      const sku = product.skus[0].id;
      const warehouse = await stockUp(api, sku, 20, 'e2e dashboard');
      const order = (channel, quantity) =>
        orderByApi(api, { channel, warehouse_id: warehouse.id, items: [{ sku_id: sku, quantity }], shipping_address: ADDRESS });
      const made = [await order('facebook', 2), await order('line', 1)];
      try {
        await page.goto(url('dashboard?period=monthly'));
        await page.getByTestId('figure-net-value').waitFor();
        // The orders just made are in the month (the figures follow within seconds).
        for (let i = 0; (await page.getByTestId('product-' + sku).count()) === 0; i++) {
          if (i > 60) throw new Error('the new SKU never showed among the best sellers');
          await page.waitForTimeout(250);
        }
        await page.getByTestId('period-label').getByText(/เทียบกับ/).waitFor();
        if (!/25\d\d/.test(await page.getByTestId('period-label').innerText())) throw new Error('the period is not in the Buddhist era');
        await page.getByTestId('by-channel').getByText('เฟซบุ๊ก').first().waitFor();
        await page.getByTestId('states').getByText('ใหม่', { exact: false }).first().waitFor();
        // The charts are drawn.
        await page.locator('[data-testid="chart-over-time"] svg .recharts-bar-rectangle').first().waitFor();
        await page.locator('[data-testid="chart-by-channel"] svg .recharts-pie-sector').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('month'), fullPage: true });

        // Another order, placed elsewhere while the dashboard is open: on it within 5 s.
        const before = await figure(page, 'orders');
        const net = await figure(page, 'net');
        made.push(await order('website', 3));
        const placed = Date.now();
        while ((await figure(page, 'orders')) !== before + 1) {
          if (Date.now() - placed > 5_000) throw new Error(`the new order did not show within 5 s (orders still ${await figure(page, 'orders')})`);
          await page.waitForTimeout(100);
        }
        const after = await figure(page, 'net');
        if (Math.abs(after - net - 450) > 0.001) throw new Error(`the net grew by ${after - net}, not 450.00`);
        console.log(`      the new order showed on the dashboard ${Date.now() - placed} ms after it was placed`);

        // The quarter holds the month.
        await page.getByTestId('period').getByText('รายไตรมาส').click();
        await page.waitForURL(/period=quarterly/);
        await page.getByTestId('period-label').getByText(/ไตรมาส/).first().waitFor();
        if ((await figure(page, 'orders')) < before + 1) throw new Error('the quarter has fewer orders than its month');
        // The sales over time as a table, for those who would rather read.
        await page.getByTestId('over-time-view').getByText('ตาราง').click();
        await page.getByTestId('over-time').locator('tr.ant-table-row').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('quarter'), fullPage: true });
      } finally {
        for (const o of made) await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
  {
    name: 'the statistics, sales-channel, products-sold, orders, customer and customer-area dashboards, reached by their tabs',
    run: async ({ page, api, url }) => {
      const product = await api.product('DASH-TEA', 'ชาไทย ถุง', { price: '90', cost: '30' });
      const sku = product.skus[0].id;
      const warehouse = await stockUp(api, sku, 20, 'e2e dashboards');
      const made = [await orderByApi(api, { channel: 'line', warehouse_id: warehouse.id, items: [{ sku_id: sku, quantity: 4 }], shipping_address: ADDRESS })];
      try {
        await page.goto(url('dashboard?period=monthly'));
        await page.getByTestId('figure-net-value').waitFor();
        // Statistics: sales over the month beside the month before, then orders.
        await page.getByTestId('tab-statistic').click();
        await page.waitForURL(/dashboard\/statistic\?period=monthly/);
        await page.getByTestId('figure-total-value').waitFor();
        // Two lines: this month's and the month before's (flat on the axis, so only attached).
        await page.locator('[data-testid="chart-compared"] svg .recharts-line').nth(1).waitFor({ state: 'attached' });
        await page.getByTestId('figure').getByText('คำสั่งซื้อ', { exact: true }).click();
        await page.waitForURL(/figure=orders/);
        await still(page);
        await page.screenshot({ path: SHOTS('statistic'), fullPage: true });

        // Sales channels: LINE is among them, its bars stacked over the month.
        await page.getByTestId('tab-saleChannel').click();
        await page.waitForURL(/dashboard\/sale-channel\?period=monthly/);
        await page.getByTestId('channels').getByTestId('channel-line').waitFor();
        await page.locator('[data-testid="chart-stacked"] svg .recharts-bar-rectangle').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('sale-channel'), fullPage: true });

        // Products sold: the tea is found by its SKU code, with its four units (the figures
        // follow the order within seconds).
        await page.getByTestId('tab-saleProduct').click();
        await page.waitForURL(/dashboard\/sale-product\?period=monthly/);
        const search = page.getByTestId('sold-items').getByRole('searchbox');
        await search.fill('dash-tea');
        await search.press('Enter');
        await page.waitForURL(/search=dash-tea/);
        // Found when the search has narrowed the table to the tea alone.
        const rows = page.getByTestId('sold-items').locator('tr.ant-table-row');
        for (let i = 0; (await rows.count()) !== 1 || (await page.getByTestId(`sold-${sku}`).count()) === 0; i++) {
          if (i > 40) throw new Error('the search never narrowed the SKUs sold to the tea');
          await page.waitForTimeout(250);
          if (i % 8 === 7) await search.press('Enter');
        }
        const cells = await rows.first().innerText();
        if (!/ชาไทย ถุง/.test(cells) || !/\b4\b/.test(cells) || !/360\.00/.test(cells)) throw new Error(`the tea's row reads ${cells}`);
        await page.getByTestId('sort').getByText('ตามกำไร').click();
        await page.waitForURL(/sort=profit/);
        await still(page);
        await page.screenshot({ path: SHOTS('sale-product'), fullPage: true });

        // Orders: placed and cancelled over the month, and where they stand now.
        await page.getByTestId('tab-saleOrder').click();
        await page.waitForURL(/dashboard\/sale-order\?period=monthly/);
        await page.getByTestId('states').getByTestId('state-new').waitFor();
        await page.locator('[data-testid="chart-orders"] svg .recharts-bar-rectangle').first().waitFor();
        if (!/%$/.test(await page.getByTestId('figure-rate-value').innerText())) throw new Error('the cancellation rate is not a percentage');
        await still(page);
        await page.screenshot({ path: SHOTS('sale-order'), fullPage: true });

        // Customers: the tea went to a guest (no customer on the order), drawn over the month.
        await page.getByTestId('tab-customer').click();
        await page.waitForURL(/dashboard\/customer\?period=monthly/);
        for (let i = 0; (await figure(page, 'guest')) < 1; i++) {
          if (i > 40) throw new Error('the guest\'s order never showed on the customer dashboard');
          await page.waitForTimeout(250);
        }
        await page.getByTestId('customers-by-kind').getByText('ไม่ระบุลูกค้า').first().waitFor();
        await page.locator('[data-testid="chart-customers"] svg .recharts-bar-rectangle').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('customer'), fullPage: true });

        // Customer areas: Bangkok among the top provinces, then Bang Rak among the districts.
        await page.getByTestId('tab-customerArea').click();
        await page.waitForURL(/dashboard\/customer-area\?period=monthly/);
        await page.getByTestId('top-areas').getByTestId('area-กรุงเทพมหานคร').first().waitFor();
        await page.locator('[data-testid="chart-ranked"] svg .recharts-bar-rectangle').first().waitFor();
        await page.getByTestId('kind').getByText('อำเภอ/เขต').click();
        await page.waitForURL(/kind=district/);
        await page.getByTestId('top-areas').getByText('บางรัก, กรุงเทพมหานคร').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('customer-area'), fullPage: true });
      } finally {
        for (const o of made) await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
  {
    name: 'the warehouse fee plan set in settings, and a shipped order charged by it on the service-fee dashboard',
    run: async ({ page, api, url }) => {
      const product = await api.product('DASH-FEE', 'สบู่ก้อน', { price: '40', cost: '12' });
      const sku = product.skus[0].id;
      const warehouse = await stockUp(api, sku, 10, 'e2e service fees');
      const zero = { receipt_line: '0', shelving: '0', pick: '0', pack: '0', packaging: '0', material: '0', additional: '0', shipping: '0', cod_percent: '0' };
      const channel = await api.post('/logistics/store-channels', {
        warehouse_id: warehouse.id, logistic_type: 'domestic', provider_name: 'thaipost', name: 'ไปรษณีย์ e2e ค่าบริการ', pricing_method: 'flat', price: '50',
      });
      try {
        // The owner sets the main warehouse's plan in settings.
        await page.goto(url('setting/warehouse-fee'));
        await page.getByTestId(`fee-plan-${warehouse.id}-edit`).click();
        for (const [field, value] of [['pick', '3'], ['pack', '10'], ['material', '2'], ['additional', '1.5'], ['codPercent', '2.5']]) {
          await page.getByTestId(`field-${field}`).fill(value);
        }
        await page.getByTestId('fee-plan-save').click();
        await page.getByTestId('fee-plan-form').waitFor({ state: 'detached' });
        await page.getByTestId('fee-plan-table').getByText('2.50%').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('fee-plan'), fullPage: true });

        await page.goto(url('dashboard/service-fee?period=monthly'));
        await page.getByTestId('figure-total-value').waitFor();
        await page.getByTestId('fees-ex-vat').waitFor();
        const before = await figure(page, 'total');
        const orders = await figure(page, 'orders');
        // One unit shipped in one parcel by a channel at 50.00 flat: 3.00 picked, 10.00
        // packed, 2.00 material, 1.50 additional and the parcel's own 50.00 = 66.50.
        const order = await orderByApi(api, { channel: 'line', warehouse_id: warehouse.id, logistic_store_channel_id: channel.id, items: [{ sku_id: sku, quantity: 1 }], shipping_address: ADDRESS });
        await api.post(`/orders/${order.id}/ready-to-fulfillment`, {});
        await api.post('/wms/parcels/in-store', { order_id: order.id, weight: '0.3', tracking_no: `FEE${order.id}TH` });
        const shipped = await api.post('/wms/parcels/ship/in-store', { order_ids: [order.id] });
        if (shipped.succeeded !== 1) throw new Error(`the order did not ship: ${JSON.stringify(shipped)}`);
        const placed = Date.now();
        while ((await figure(page, 'orders')) !== orders + 1) {
          if (Date.now() - placed > 5_000) throw new Error('the shipped order did not show on the service-fee dashboard within 5 s');
          await page.waitForTimeout(100);
        }
        const grown = (await figure(page, 'total')) - before;
        if (Math.abs(grown - 66.5) > 0.001) throw new Error(`the fees grew by ${grown}, not 66.50`);
        await page.getByTestId('fee-kinds').getByTestId('kind-picking').waitFor();
        await page.getByTestId('fee-warehouses').getByTestId(`warehouse-${warehouse.id}`).waitFor();
        await page.locator('[data-testid="chart-fees"] svg .recharts-bar-rectangle').first().waitFor();
        await still(page);
        await page.screenshot({ path: SHOTS('service-fee'), fullPage: true });
      } finally {
        await api.put(`/wms/warehouse-stores/pricing-plans/parcel-billing-by/${warehouse.id}`, zero).catch(() => undefined);
        await api.del(`/logistics/store-channels/${channel.id}`).catch(() => undefined);
      }
    },
  },
  {
    name: 'on a phone every dashboard fits the screen',
    viewport: { width: 390, height: 844 },
    run: async ({ page, url }) => {
      await page.goto(url('dashboard?period=yearly'));
      await page.getByTestId('figure-net-value').waitFor();
      await page.getByTestId('products').waitFor();
      await still(page);
      const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if ((await sideways()) > 0) throw new Error(`the page scrolls sideways by ${await sideways()} px`);
      await page.screenshot({ path: SHOTS('phone'), fullPage: true });
      // The other dashboards too: their wide tables scroll inside their cards.
      for (const [path, ready] of [
        ['dashboard/statistic', 'compared'],
        ['dashboard/sale-channel', 'channels'],
        ['dashboard/sale-product', 'sold-items'],
        ['dashboard/sale-order', 'states'],
        ['dashboard/customer', 'customers-by-kind'],
        ['dashboard/customer-area', 'top-areas'],
        ['dashboard/service-fee', 'fee-kinds'],
      ]) {
        await page.goto(url(`${path}?period=yearly`));
        await page.getByTestId(ready).waitFor();
        await still(page);
        const wide = await sideways();
        if (wide > 0) throw new Error(`${path} scrolls sideways by ${wide} px`);
      }
      await page.screenshot({ path: SHOTS('phone-areas'), fullPage: true });
    },
  },
  {
    name: 'a member who is not the owner is turned away from the dashboard',
    as: 'reader',
    run: async ({ page, url }) => {
      await page.goto(url('dashboard'));
      await page.waitForURL(/\/1\/access-denied\?pathName=/);
    },
  },
];
