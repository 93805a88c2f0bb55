// Automatic reconciliation (issue: bills and payments; decision 0022): the owner uploads the
// bank statement of the evening; two of its three transfers match two open bills and are
// confirmed in one step; the third is explained; the orders show paid.
import { orderByApi, stockUp } from '../fixtures.mjs';

const ADDRESS = { name: 'วันดี มีสุข', tel: '0833334444', address: '3 ถนนพหลโยธิน', sub_district: 'สามเสนใน', district: 'พญาไท', state_province: 'กรุงเทพมหานคร', postcode: '10400' };

/** A Kasikorn-style statement line, Thai time, a few minutes from now. */
function line(minutes, amount, text) {
  const now = new Date(Date.now() + minutes * 60_000 + 7 * 3_600_000);
  const p = (n) => String(n).padStart(2, '0');
  return `${p(now.getUTCDate())}/${p(now.getUTCMonth() + 1)}/${now.getUTCFullYear() + 543},${p(now.getUTCHours())}:${p(now.getUTCMinutes())},รับโอนเงิน,,"${amount}",,${text}`;
}

export const tests = [
  {
    name: 'a bank statement matches two of three bills, confirms them, and explains the third',
    run: async ({ page, api, url }) => {
      const a = await api.product('REC-SOAP', 'สบู่สมุนไพร', { price: '123.45', cost: '40' });
      const b = await api.product('REC-OIL', 'น้ำมันมะพร้าว', { price: '267.50', cost: '90' });
      const warehouse = await stockUp(api, a.skus[0].id, 5, 'e2e reconcile');
      await stockUp(api, b.skus[0].id, 5, 'e2e reconcile');
      const first = await orderByApi(api, { channel: 'line', warehouse_id: warehouse.id, items: [{ sku_id: a.skus[0].id, quantity: 1 }], shipping_address: ADDRESS });
      const second = await orderByApi(api, { channel: 'line', warehouse_id: warehouse.id, items: [{ sku_id: b.skus[0].id, quantity: 1 }], shipping_address: ADDRESS });
      const csv = `\uFEFF${[
        'วันที่,เวลา,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ,รายละเอียด',
        line(1, first.total, `โอนค่าสบู่ ${first.order_no}`),
        line(2, second.total, 'จาก น.ส. วันดี มีสุข'),
        line(3, '4321.00', 'จาก นาย ไม่รู้จัก'),
      ].join('\n')}\n`;
      try {
        await page.goto(url('order-payment-reconcile'));
        await page.locator('input[type=file]').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await page.getByTestId('reconcile-summary').getByText('มั่นใจ 2', { exact: false }).waitFor();
        const confident = page.getByTestId('reconcile-confident');
        await confident.getByRole('link', { name: first.order_no }).waitFor();
        await confident.getByText(`ระบุคำสั่งซื้อ ${first.order_no}`).waitFor();
        await confident.getByText('ระบุชื่อผู้ซื้อ วันดี มีสุข').waitFor();
        await page.getByTestId('reconcile-tab-unmatched').click();
        await page.getByTestId('reconcile-unmatched').getByText('ไม่มีบิลค้างชำระยอด 4321.00 บาท').waitFor();
        await page.getByTestId('reconcile-tab-confident').click();
        await page.getByTestId('reconcile-confirm').click();
        await page.getByTestId('reconcile-confirmed').first().waitFor();
        if ((await page.getByTestId('reconcile-confirmed').count()) !== 2) throw new Error('not both confirmed');
        for (const o of [first, second]) {
          const now = await api.get(`/orders/${o.id}`);
          if (now.payment_state !== 'paid') throw new Error(`${o.order_no} is ${now.payment_state}`);
        }
      } finally {
        for (const o of [first, second]) await api.post(`/orders/${o.id}/cancel`, {}).catch(() => undefined);
      }
    },
  },
];
