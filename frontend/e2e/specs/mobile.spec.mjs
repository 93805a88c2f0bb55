// The back-office on a phone (390×844, Thai): the screens staff use all day, walked as a
// person would. An order is found by the buyer's phone number, its slip confirmed and the
// order prepared; an order of two SKUs is written for a customer from their address book; a
// SKU's stock is adjusted; a goods receipt is approved. On every screen nothing scrolls
// sideways, the first item of every list shows without scrolling, and the browser logs no
// error. A screenshot of each step goes to e2e/screenshots/mobile-*.png.
import path from 'node:path';

import { confirm, file, input, orderByApi, pick, receiptByApi, root, still, stockUp } from '../fixtures.mjs';

const PHONE = { width: 390, height: 844 };

/** Errors the page logs or throws, gathered for the end of each test. */
function watchErrors(page) {
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e?.message ?? e)));
  return () => {
    if (errors.length) throw new Error(`the browser logged errors: ${errors.join(' | ')}`);
  };
}

/** The screen once still: nothing on it scrolls sideways; then its screenshot. */
async function step(page, name) {
  await still(page);
  const wide = await page.evaluate(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the page (${doc.scrollWidth} px in ${doc.clientWidth})`);
    // Every box a finger could scroll sideways: the page, and whatever scrolls on its own.
    for (const el of document.querySelectorAll('body *')) {
      if (!el.getClientRects().length || !/auto|scroll/.test(getComputedStyle(el).overflowX)) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        const id = el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.className.split(' ')[0];
        out.push(`${id} (${el.scrollWidth} px in ${el.clientWidth})`);
      }
    }
    return out;
  });
  if (wide.length) throw new Error(`${name} scrolls sideways: ${wide.join(', ')}`);
  await page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `mobile-${name}.png`) });
}

/** A list just opened: its first item shows in full without scrolling. */
async function firstInSight(page, item, name) {
  await item.waitFor();
  await still(page);
  const box = await item.boundingBox();
  const scrolled = await page.evaluate(() => window.scrollY);
  if (!box || scrolled !== 0 || box.y + box.height > PHONE.height) {
    throw new Error(`${name}: the first item is not in sight (top ${box?.y}, height ${box?.height}, scrolled ${scrolled})`);
  }
}

const BUYER = { name: 'ปราณี ศรีสุข', tel: '0861239876' };

export const tests = [
  {
    name: 'find an order by the buyer\'s phone, confirm its slip, prepare it',
    viewport: PHONE,
    run: async ({ page, api, base, url, another }) => {
      const errorsSeen = watchErrors(page);
      const product = await api.product('MOB-SOAP', 'สบู่ใบบัวบก สูตรอ่อนโยน', { price: '120', cost: '40' });
      const warehouse = await stockUp(api, product.skus[0].id, 10);
      await api.post('/payments/store-channels', { channel_type: 'promptpay', acc_name: 'ร้านใจดี', acc_no: '0899990002' });
      const o = await orderByApi(api, {
        channel: 'line',
        warehouse_id: warehouse.id,
        items: [{ sku_id: product.skus[0].id, quantity: 2 }],
        shipping_address: { ...BUYER, address: '12 ถนนสุขุมวิท', sub_district: 'คลองเตย', district: 'คลองเตย', state_province: 'กรุงเทพมหานคร', postcode: '10110' },
      });
      // The buyer sends a slip from the bill's link, on their own phone.
      const buyer = await another();
      await buyer.setViewportSize(PHONE);
      await buyer.goto(`${base}/bill/${o.bills[0].token}`);
      await buyer.getByTestId('bill-slip-file').setInputFiles(file('photo.png'));
      await buyer.getByTestId('bill-slip-send').click();
      await buyer.getByTestId('bill-sent').waitFor();

      // The list: cards, the first in sight; found by the phone number.
      await page.goto(url('order-list'));
      await page.locator('[data-layout="default-mobile"]').waitFor();
      await firstInSight(page, page.getByTestId('order-table').locator('[role="listitem"]').first(), 'the order list');
      await step(page, '01-order-list');
      await input(page, 'order-search').fill(BUYER.tel);
      await input(page, 'order-search').press('Enter');
      await page.waitForURL(`**/order-list?*search=${BUYER.tel}*`);
      const card = page.getByTestId(`order-${o.id}-card`);
      await card.getByText(BUYER.name, { exact: false }).waitFor();
      for (let i = 0; (await page.getByTestId('order-table').locator('[role="listitem"]').count()) !== 1; i++) {
        if (i > 50) throw new Error('the search by phone finds more than the one order');
        await page.waitForTimeout(100);
      }
      await card.getByText('รอยืนยันการชำระ').waitFor();
      await step(page, '02-order-found');

      // Opened: its payment confirmed from the payment's card.
      await card.click();
      await page.waitForURL(`**/order-detail/${o.id}`);
      await page.getByTestId('order-state').getByText('ใหม่').waitFor();
      await step(page, '03-order-detail');
      const payments = page.getByTestId('order-payments');
      await payments.scrollIntoViewIfNeeded();
      await payments.locator('[data-testid$="-confirm"]').first().click();
      await confirm(page, 'ยืนยันการชำระเงิน 240.00 บาท');
      await page.getByTestId('payment-state').getByText('ชำระแล้ว').waitFor();
      await step(page, '04-payment-confirmed');

      // Prepared from the bar at the bottom, where the thumb is.
      const bar = page.getByTestId('order-actions');
      const box = await bar.boundingBox();
      if (!box || box.y + box.height < PHONE.height - 2) throw new Error(`the actions bar is not at the bottom: ${JSON.stringify(box)}`);
      await bar.getByTestId('order-prepare').click();
      await confirm(page);
      await page.getByTestId('order-state').getByText('เตรียมจัดส่ง').waitFor();
      await step(page, '05-order-prepared');
      errorsSeen();
    },
  },
  {
    name: 'write an order of two SKUs for a customer from the address book',
    viewport: PHONE,
    run: async ({ page, api, url }) => {
      const errorsSeen = watchErrors(page);
      const shirt = await api.product('MOB-TEE', 'เสื้อยืดคอกลม สีครีม', { price: '250', cost: '110' });
      const cap = await api.product('MOB-CAP', 'หมวกแก๊ป ผ้าฝ้าย', { price: '180', cost: '70' });
      const warehouse = await stockUp(api, shirt.skus[0].id, 20);
      await stockUp(api, cap.skus[0].id, 20);
      const customer = await api.customer('กมลวรรณ ทองดี', '0867770002');
      const office = await api.post(`/stores/1/customers/${customer.id}/addresses`, {
        name: 'กมลวรรณ (ที่ทำงาน)',
        tel: '0867770002',
        address: '88 อาคารสาทรซิตี้ ชั้น 12',
        sub_district: 'ทุ่งมหาเมฆ',
        district: 'สาทร',
        state_province: 'กรุงเทพมหานคร',
        postcode: '10120',
      });

      await page.goto(url('order-create'));
      await page.getByRole('heading', { name: 'สร้างคำสั่งซื้อ' }).waitFor();
      await page.getByTestId('field-warehouseId').getByText(warehouse.name).waitFor();
      await step(page, '06-order-form');
      await pick(page, 'field-channel', 'ไลน์');
      await page.getByTestId('customer-picker').click();
      await page.getByTestId('customer-picker').locator('input').fill('กมลวรรณ');
      const found = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'กมลวรรณ ทองดี' }).first();
      await found.waitFor();
      await still(page);
      await found.click();
      // From the address book: the office, not the default.
      await page.getByTestId(`address-${office.id}`).click();
      await page.getByTestId('address-choice').locator(`input[value="${office.id}"]`).isChecked();

      // Two lines, each on its own card; quantities typed with the numeric keypad.
      await pick(page, 'line-0-sku', 'MOB-TEE', 'MOB-TEE');
      await page.waitForFunction(() => document.querySelector('[data-testid="line-0-price"]')?.value === '250.00');
      const qty = input(page, 'line-0-qty');
      if ((await qty.getAttribute('inputmode')) !== 'numeric') throw new Error('the quantity does not ask for the numeric keypad');
      await qty.fill('2');
      // A phone turned into a desktop and back (the same as a window resized) keeps the form.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('order-lines').locator('table').waitFor();
      if ((await input(page, 'line-0-qty').inputValue()) !== '2') throw new Error('the quantity was lost on a desktop');
      await page.setViewportSize(PHONE);
      await page.getByTestId('line-0-card').waitFor();
      if ((await input(page, 'line-0-qty').inputValue()) !== '2') throw new Error('the quantity was lost on the way back');
      await page.getByTestId('add-line').click();
      await pick(page, 'line-1-sku', 'MOB-CAP', 'MOB-CAP');
      await page.waitForFunction(() => document.querySelector('[data-testid="line-1-price"]')?.value === '180.00');
      await page.getByTestId('line-0-total').getByText('500.00').waitFor();
      await page.getByTestId('total-total').getByText('680.00 บาท').waitFor();
      await step(page, '07-order-form-filled');

      // Saved from the bar at the bottom.
      await page.getByTestId('order-save').click();
      await page.waitForURL('**/1/order-detail/*');
      const id = Number(page.url().split('/').pop());
      await page.getByTestId('order-state').getByText('ใหม่').waitFor();
      await page.getByTestId('order-address').getByText('88 อาคารสาทรซิตี้ ชั้น 12', { exact: false }).waitFor();
      const saved = await api.get(`/orders/${id}`);
      if (saved.customer_id !== customer.id || saved.customer_address_id !== office.id || saved.items.length !== 2) {
        throw new Error(`saved ${JSON.stringify({ customer: saved.customer_id, address: saved.customer_address_id, items: saved.items.length })}`);
      }
      await step(page, '08-order-written');
      errorsSeen();
    },
  },
  {
    name: 'adjust a SKU\'s stock, and see it on the overview',
    viewport: PHONE,
    run: async ({ page, api, url }) => {
      const errorsSeen = watchErrors(page);
      const rice = await api.product('MOB-RICE', 'ข้าวหอมมะลิ 5 กก.', { price: '210', cost: '150' });
      const warehouse = await stockUp(api, rice.skus[0].id, 20);

      await page.goto(url('stock-management-goods-adjust'));
      await firstInSight(page, page.getByTestId('adjust-table').locator('[role="listitem"]').first(), 'the adjustments');
      await step(page, '09-adjustments');
      await page.getByTestId('adjust-create').click();
      await page.getByTestId('adjust-form').waitFor();
      await pick(page, 'adjust-sku', 'MOB-RICE', 'MOB-RICE');
      // Taken out: the number pad has no minus, so the direction is a switch.
      await page.getByTestId('adjust-remove').click();
      const qty = input(page, 'adjust-quantity');
      if ((await qty.getAttribute('inputmode')) !== 'numeric') throw new Error('the quantity does not ask for the numeric keypad');
      await qty.fill('3');
      await page.getByTestId('adjust-reason').fill('ถุงขาด 3 ถุง');
      await step(page, '10-adjust-form');
      await page.getByTestId('adjust-save').click();
      await page.getByTestId('adjust-table').locator('[role="listitem"]', { hasText: 'ถุงขาด 3 ถุง' }).getByText('-3').waitFor();
      await step(page, '11-adjusted');

      // The overview: 17 on hand and available.
      await page.goto(url('stock-management-overview-list?search=MOB-RICE'));
      const card = page.getByTestId(`stock-${rice.skus[0].id}-${warehouse.id}-card`);
      await firstInSight(page, card, 'the stock overview');
      for (let i = 0; !/17[\s\S]*17/.test(await card.innerText()); i++) {
        if (i > 50) throw new Error(`the overview reads ${await card.innerText()}`);
        await page.waitForTimeout(200);
        if (i % 10 === 9) await page.reload();
      }
      await step(page, '12-stock-overview');
      errorsSeen();
    },
  },
  {
    name: 'count a goods receipt with a defect and approve it',
    viewport: PHONE,
    run: async ({ page, api, url }) => {
      const errorsSeen = watchErrors(page);
      const oil = await api.product('MOB-OIL', 'น้ำมันมะพร้าวสกัดเย็น 250 มล.', { price: '189', cost: '95' });
      const { data: warehouses } = await api.get('/wms/warehouses');
      const main = warehouses.find((w) => w.is_default);
      const today = new Date().toISOString().slice(0, 10);
      const receipt = await receiptByApi(api, { type: 'product', warehouse_id: main.id, expected_received_date: today, products: [{ sku_id: oil.skus[0].id, request_qty: 12, cost: '95' }] });
      await api.post(`/wms/goods-receipts/${receipt.id}/ready-to-warehouse`, {});

      await page.goto(url('stock-management-goods-receipt/pending'));
      const card = page.getByTestId(`receipt-${receipt.id}-card`);
      await firstInSight(page, page.getByTestId('receipt-table').locator('[role="listitem"]').first(), 'the receipts');
      await step(page, '13-receipts');
      await card.click();
      await page.waitForURL(`**/stock-management-goods-receipt-detail/pending/${receipt.id}`);
      await page.getByTestId('receipt-state').getByText('ส่งเข้าคลังแล้ว').waitFor();
      await step(page, '14-receipt');

      // Eleven good of twelve: one defective, counted on the line's card.
      const line = page.getByTestId('qc-card').locator('[role="listitem"]').first();
      await line.scrollIntoViewIfNeeded();
      const received = line.locator('input[data-testid$="-received"], [data-testid$="-received"] input').first();
      if ((await received.inputValue()) !== '12') throw new Error(`the count starts at ${await received.inputValue()}`);
      await line.locator('input[data-testid$="-defective"], [data-testid$="-defective"] input').first().fill('1');
      await line.locator('[data-testid$="-good"]').getByText('11', { exact: true }).waitFor();
      await step(page, '15-receipt-counted');
      await page.getByTestId('qc-actions').getByTestId('qc-check').click();
      await page.waitForURL(`**/stock-management-goods-receipt-detail/received/${receipt.id}`);
      await page.getByTestId('receipt-state').getByText('ตรวจนับแล้ว').waitFor();
      await page.getByTestId('qc-actions').getByTestId('qc-approve').click();
      await confirm(page, 'สินค้าสภาพดี 11 ชิ้น');
      await page.waitForURL(`**/stock-management-goods-receipt-detail/approved/${receipt.id}`);
      await page.getByTestId('receipt-state').getByText('อนุมัติแล้ว').waitFor();
      await step(page, '16-receipt-approved');
      errorsSeen();
    },
  },
  {
    name: 'the other lists staff use: products, customers, payments to review, stock, receipts',
    viewport: PHONE,
    run: async ({ page, api, base, url, another }) => {
      const errorsSeen = watchErrors(page);
      // A slip waiting for review.
      const product = await api.product('MOB-TEA', 'ชาเขียวมัทฉะ 100 กรัม', { price: '320', cost: '150' });
      const warehouse = await stockUp(api, product.skus[0].id, 5);
      const o = await orderByApi(api, {
        channel: 'facebook',
        warehouse_id: warehouse.id,
        items: [{ sku_id: product.skus[0].id, quantity: 1 }],
        shipping_address: { name: 'สุดา ใจงาม', tel: '0845556677', address: '3 ซอยอารีย์', sub_district: 'สามเสนใน', district: 'พญาไท', state_province: 'กรุงเทพมหานคร', postcode: '10400' },
      });
      const buyer = await another();
      await buyer.goto(`${base}/bill/${o.bills[0].token}`);
      await buyer.getByTestId('bill-slip-file').setInputFiles(file('photo.png'));
      await buyer.getByTestId('bill-slip-send').click();
      await buyer.getByTestId('bill-sent').waitFor();
      await api.customer('อรทัย มั่นคง', '0845556688');

      const lists = [
        ['product-list/store', 'product-table', '17-products'],
        ['customer-list', 'customer-table', '18-customers'],
        ['order-payment-review', 'review-table', '19-payments-to-review'],
        ['stock-management-overview-list', 'stock-table', '20-stock'],
        ['stock-management-goods-receipt/approved', 'receipt-table', '21-receipts'],
      ];
      for (const [path, list, name] of lists) {
        await page.goto(url(path));
        await firstInSight(page, page.getByTestId(list).locator('[role="listitem"]').first(), name);
        await step(page, name);
      }
      errorsSeen();
    },
  },
  {
    name: 'at 1280 px the order table shows every column, hidden and moved as each person likes',
    viewport: { width: 1280, height: 800 },
    run: async ({ page, api, url }) => {
      const errorsSeen = watchErrors(page);
      const product = await api.product('DESK-MUG', 'แก้วมัคเซรามิก ลายช้างไทย ขนาด 350 มล.', { price: '159', cost: '60' });
      const warehouse = await stockUp(api, product.skus[0].id, 10);
      const o = await orderByApi(api, {
        channel: 'instagram',
        reference: 'IG-2569-000123',
        warehouse_id: warehouse.id,
        items: [{ sku_id: product.skus[0].id, quantity: 1 }],
        shipping_address: { name: 'กาญจนาภรณ์ วงศ์สวัสดิ์ไพบูลย์', tel: '0923334455', address: '5/1 หมู่ 3', sub_district: 'บางพูด', district: 'ปากเกร็ด', state_province: 'นนทบุรี', postcode: '11120' },
      });
      await api.post(`/orders/${o.id}/ready-to-fulfillment`, {});
      const headers = async () => (await page.getByTestId('order-table').locator('thead th').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
      const fits = async (where) => {
        const [sw, cw] = await page.getByTestId('order-table').locator('.ant-table-content').evaluate((el) => [el.scrollWidth, el.clientWidth]);
        if (sw > cw) throw new Error(`${where}: the order table scrolls sideways (${sw} px in ${cw})`);
      };
      // The widest column: prepared orders add their shipping.
      await page.goto(url('order-list?state=ready_to_fulfillment'));
      await page.getByTestId(`order-${o.id}-link`).waitFor();
      await still(page);
      const all = ['เลขที่คำสั่งซื้อ', 'วันที่สั่งซื้อ', 'ผู้รับ', 'ช่องทางขาย', 'สินค้า', 'ยอดรวม (บาท)', 'การชำระเงิน', 'การจัดส่ง', 'คลังสินค้า'];
      if ((await headers()).join('|') !== all.join('|')) throw new Error(`the columns read ${(await headers()).join(' | ')}`);
      await fits('prepared orders');
      await step(page, '22-desktop-orders');

      // The warehouse hidden and the total moved first-but-one; kept after a reload.
      await page.getByTestId('columns-open').click();
      await page.getByTestId('columns-menu').waitFor();
      await page.getByTestId('column-warehouse-shown').click();
      for (let i = 0; i < 4; i++) await page.getByTestId('column-total-up').click();
      await page.keyboard.press('Escape');
      await page.reload();
      await page.getByTestId(`order-${o.id}-link`).waitFor();
      const mine = ['เลขที่คำสั่งซื้อ', 'ยอดรวม (บาท)', 'วันที่สั่งซื้อ', 'ผู้รับ', 'ช่องทางขาย', 'สินค้า', 'การชำระเงิน', 'การจัดส่ง'];
      if ((await headers()).join('|') !== mine.join('|')) throw new Error(`after a reload the columns read ${(await headers()).join(' | ')}`);
      await fits('chosen columns');
      await step(page, '23-desktop-columns');
      await page.getByTestId('columns-open').click();
      await page.getByTestId('columns-reset').click();
      await page.keyboard.press('Escape');
      if ((await headers()).join('|') !== all.join('|')) throw new Error(`reset, the columns read ${(await headers()).join(' | ')}`);
      errorsSeen();
    },
  },
];
