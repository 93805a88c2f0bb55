// Bills and payments (SPEC §2 bill link, §4 Payment state and Bill; docs/decisions/0018 and
// 0019): the owner opens an order's bills and hands its link to the buyer; the buyer opens
// it on a phone without signing in, sees the shop, the amount and a PromptPay QR for exactly
// that amount, and sends a slip (a wrong file is refused first); the order shows the payment
// pending with the slip, and the owner confirms it: the order is paid and the buyer's page
// says so. The payment review confirms two waiting slips together. A bill is renewed by days.
import path from 'node:path';

import { file, orderByApi, root, still, stockUp } from '../fixtures.mjs';

/** An order of `quantity` of a SKU from `warehouse`, for a buyer in Bangkok. */
const anOrder = (api, warehouse, skuId, quantity) =>
  orderByApi(api, {
    channel: 'line',
    warehouse_id: warehouse.id,
    items: [{ sku_id: skuId, quantity }],
    shipping_address: { name: 'มานี มีนา', tel: '0891234567', address: '9 ถนนสุขุมวิท', sub_district: 'คลองเตย', district: 'คลองเตย', state_province: 'กรุงเทพมหานคร', postcode: '10110' },
  });

async function snap(page, name) {
  await still(page);
  await page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `bills-${name}.png`) });
}

export const tests = [
  {
    name: 'the buyer pays on a phone through the bill link with a slip; the owner sees it pending and confirms it',
    run: async ({ page, api, base, url, another }) => {
      const product = await api.product('BILL-SOAP', 'สบู่สมุนไพร ขมิ้น', { price: '89', cost: '30' });
      const warehouse = await stockUp(api, product.skus[0].id, 30);
      const account = await api.post('/payments/store-channels', { channel_type: 'promptpay', acc_name: 'ร้านสมุนไพรดี', acc_no: '0899990001' });
      const o = await anOrder(api, warehouse, product.skus[0].id, 3);
      try {
        // The owner opens the order: its bill, with a link for the buyer.
        await page.goto(url(`order-detail/${o.id}`));
        const bills = page.getByTestId('order-bills');
        await bills.getByTestId(`bill-${warehouse.id}-state`).getByText('ใช้งาน').waitFor();
        const link = await bills.getByTestId(`bill-${warehouse.id}-open`).getAttribute('href');
        if (!/^\/bill\/[0-9a-f]{32}$/.test(link ?? '')) throw new Error(`the bill's link is ${link}`);
        await snap(page, 'order');

        // The buyer, on a phone, signed in nowhere.
        const phone = await another();
        await phone.setViewportSize({ width: 390, height: 844 });
        const fetched = [];
        phone.on('request', (r) => fetched.push(r.url()));
        await phone.goto(`${base}${link}`);
        await phone.getByTestId('bill-order-no').getByText(o.order_no).waitFor();
        await phone.getByTestId('bill-amount').getByText('฿267.00').waitFor();
        await phone.getByTestId('bill-qr').locator('svg').waitFor();
        await phone.getByTestId('bill-items').getByText('สบู่สมุนไพร ขมิ้น').waitFor();
        await phone.getByTestId(`bill-account-${account.id}`).getByText('ร้านสมุนไพรดี').waitFor();
        const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
        if (wide > 390) throw new Error(`the page is ${wide}px wide on a 390px phone`);
        const others = fetched.filter((u) => !u.includes('/bill/') && !u.endsWith('/favicon.ico'));
        if (others.length) throw new Error(`the page fetched more than itself: ${others.join(', ')}`);
        await phone.screenshot({ path: path.join(root, 'e2e', 'screenshots', 'bills-phone.png'), fullPage: true });

        // A wrong file is refused; the slip goes through.
        await phone.getByTestId('bill-slip-file').setInputFiles({ name: 'slip.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
        await phone.getByTestId('bill-slip-send').click();
        await phone.getByTestId('bill-problem').getByText('สลิปต้องเป็นไฟล์ .jpg, .jpeg หรือ .png').waitFor();
        await phone.getByTestId('bill-slip-file').setInputFiles(file('photo.png'));
        await phone.getByTestId('bill-slip-send').click();
        await phone.getByTestId('bill-sent').getByText('ได้รับสลิปแล้ว').waitFor();
        await phone.getByTestId('bill-lang').click();
        await phone.getByTestId('bill-standing').getByText('Waiting for the shop to confirm your payment').waitFor();

        // The owner sees it pending, looks at the slip, and confirms it.
        await page.reload();
        await page.getByTestId('payment-state').getByText('รอยืนยันการชำระ').waitFor();
        const pay = page.getByTestId('order-payments').locator('tr.ant-table-row').first();
        await pay.getByText('ผู้ซื้อส่งมา', { exact: false }).waitFor();
        await pay.locator('[data-testid$="-slip"]').click();
        await page.locator('img[data-testid="payment-slip-image"], [data-testid="payment-slip-image"] img').first().waitFor();
        await snap(page, 'slip');
        await page.keyboard.press('Escape');
        await pay.locator('[data-testid$="-confirm"]').click();
        await page.getByTestId('dialog-message').getByText('ยืนยันการชำระเงิน 267.00 บาท').waitFor();
        await still(page);
        await page.getByTestId('dialog-ok').click();
        await page.getByTestId('payment-state').getByText('ชำระแล้ว').waitFor();
        await page.getByTestId('order-timeline').getByText('ยืนยันการชำระเงิน').first().waitFor();
        await snap(page, 'confirmed');

        // The buyer's page says paid, and takes no more slips.
        await phone.reload();
        await phone.getByTestId('bill-standing').getByText('Paid. Thank you!').waitFor();
        if (await phone.getByTestId('bill-slip-form').count()) throw new Error('a paid bill still takes slips');
      } finally {
        await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
  {
    name: 'the payment review lists two slips waiting and confirms them together after showing what will happen',
    run: async ({ page, api, base, another }) => {
      const product = await api.product('BILL-TEA', 'ชาเขียวใบหม่อน', { price: '150', cost: '60' });
      const warehouse = await stockUp(api, product.skus[0].id, 20);
      const a = await anOrder(api, warehouse, product.skus[0].id, 1);
      const b = await anOrder(api, warehouse, product.skus[0].id, 2);
      try {
        const buyer = await another();
        for (const o of [a, b]) {
          await buyer.goto(`${base}/bill/${o.bills[0].token}`);
          await buyer.getByTestId('bill-slip-file').setInputFiles(file('photo.png'));
          await buyer.getByTestId('bill-slip-send').click();
          await buyer.getByTestId('bill-sent').waitFor();
        }
        await page.getByTestId('sidebar').getByText('ตรวจสอบการชำระเงิน', { exact: true }).click();
        await page.waitForURL('**/1/order-payment-review');
        const table = page.getByTestId('review-table');
        for (const o of [a, b]) {
          const pay = (await api.get(`/orders/${o.id}`)).payments[0];
          await table.getByText(o.order_no).waitFor();
          await page.getByTestId(`review-select-${pay.id}`).check();
        }
        await page.getByTestId('review-confirm').click();
        await page.getByTestId('confirm-payments-summary').getByText('จะยืนยันการชำระเงิน 2 รายการ รวม 450.00 บาท', { exact: false }).waitFor();
        await snap(page, 'review');
        await page.locator('#confirm-payments-ok').click();
        await page.getByText('ยืนยันการชำระเงิน 2 รายการ รวม 450.00 บาท แล้ว').waitFor();
        for (const o of [a, b]) {
          const now = await api.get(`/orders/${o.id}`);
          if (now.payment_state !== 'paid') throw new Error(`${o.order_no} is ${now.payment_state}`);
        }
        await page.getByTestId('review-tab-paid').click();
        await table.getByText(a.order_no).waitFor();
      } finally {
        for (const o of [a, b]) await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
  {
    name: 'a bill of a by-day setting is renewed by days, a wrong number refused under its field',
    run: async ({ page, api, url }) => {
      const before = await api.get('/stores/settings/bill-expire');
      await api.post('/stores/settings/bill-expire', { expiry_type: 'by_day', days: 2, on_expiry: 'keep_new' });
      const product = await api.product('BILL-CANDLE', 'เทียนหอม ตะไคร้', { price: '120', cost: '40' });
      const warehouse = await stockUp(api, product.skus[0].id, 10);
      const o = await anOrder(api, warehouse, product.skus[0].id, 1);
      try {
        await page.goto(url(`order-detail/${o.id}`));
        const bill = page.getByTestId('order-bills');
        await bill.getByTestId(`bill-${warehouse.id}-expiry`).getByText('ตามจำนวนวัน', { exact: false }).waitFor();
        await bill.getByTestId(`bill-${warehouse.id}-renew`).click();
        const days = page.getByTestId('bill-renew-days');
        await days.fill('45');
        await page.locator('#bill-renew-save').click();
        await page.getByText('ต่ออายุได้ 1 ถึง 30 วัน').waitFor();
        await days.fill('7');
        await page.locator('#bill-renew-save').click();
        await page.getByText(`ต่ออายุบิลของ ${o.order_no} ถึง`, { exact: false }).waitFor();
        await bill.getByTestId(`bill-${warehouse.id}-expiry`).getByText('ต่ออายุเมื่อ', { exact: false }).waitFor();
        await page.getByTestId('order-timeline').getByText('ต่ออายุบิล: 7 วัน').waitFor();
      } finally {
        await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
        const c = before.current;
        await api
          .post('/stores/settings/bill-expire', { expiry_type: c.expiry_type, days: c.days, hours: c.hours, minutes: c.minutes, on_expiry: c.on_expiry })
          .catch(() => undefined);
      }
    },
  },
];
