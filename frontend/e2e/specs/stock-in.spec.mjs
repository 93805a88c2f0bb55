// Stock in (SPEC §2 Stock, §3, §4; docs/decisions/0016): the owner writes a goods receipt of two
// lines on the create screen, one SKU counted in the store's carton of 12 and one in pieces with
// an expiry date; sends it to the warehouse, records the QC count with one defective piece in
// the cartons, and approves it: the good pieces (23 of 2 cartons, and 10) are on hand in the
// stock overview, each as a lot named after the receipt (GR…) with its expiry and cost per piece.
// The printed receipt is a PDF in Thai naming the products. Five pieces go by transfer to a new
// warehouse, in transit until received there, where the overview then shows 5 of the same lot.
// Another receipt, sent to the warehouse, is rejected with a reason, shown under the rejected tab.
import path from 'node:path';

import dayjs from 'dayjs';
import buddhistEra from 'dayjs/plugin/buddhistEra.js';
import 'dayjs/locale/th.js';

import { STORE_ID, confirm, input, pdfText, pick, receiptByApi, root } from '../fixtures.mjs';

dayjs.extend(buddhistEra);

/** Waits until nothing of antd moves: no motion half-way (a modal zooming in, a dropdown
 * sliding down, a row opening, a toast fading in). Under load a click can land on the first
 * frame of one, pointer down on its button and up on what has moved there since: no click. */
const still = (page) =>
  page
    .waitForFunction(() =>
      [...document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]')].every(
        (el) => !/(^|\s)ant-[\w-]+-(appear|enter|leave)(\s|$|-)/.test(el.getAttribute('class') ?? '') || el.getClientRects().length === 0,
      ),
    )
    .catch(async (e) => {
      const moving = await page.evaluate(() =>
        [...document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]')]
          .filter((el) => /(^|\s)ant-[\w-]+-(appear|enter|leave)(\s|$|-)/.test(el.getAttribute('class') ?? '') && el.getClientRects().length > 0)
          .map((el) => `${el.tagName}.${el.getAttribute('class')} ${JSON.stringify(el.getBoundingClientRect())}`),
      );
      throw new Error(`still moving: ${moving.join('; ')} (${e.message.split('\n')[0]})`);
    });

/** A screenshot of a state the run's own end-of-test screenshot would not show (of the
 * viewport only: a full-page capture resizes the window, which switches layouts), once still. */
async function snap(page, name) {
  await still(page);
  await page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `stock-in-${name}.png`) });
}

/** Searches a searchable antd select and picks the option naming `text`. */
const search = (page, testId, text) => pick(page, testId, text, text);

/** Picks a day on an antd date picker: today, or a later day reached month by month. */
async function pickDate(page, testId, day) {
  await page.getByTestId(testId).click();
  const panel = page.locator('.ant-picker-dropdown:visible');
  await panel.waitFor();
  await still(page);
  const months = day.startOf('month').diff(dayjs().startOf('month'), 'month');
  for (let i = 0; i < months; i++) await panel.locator('.ant-picker-header-next-btn').click();
  await panel.locator(`td[title="${day.format('YYYY-MM-DD')}"]`).click();
  await panel.waitFor({ state: 'hidden' });
}

/** A date as the screens write it in Thai: "9 ก.พ. 2570". */
const thaiDate = (d) => d.locale('th').format('D MMM BBBB');

/** The stock overview narrowed to `text` through the search bar. */
async function overview(page, text) {
  await page.getByTestId('sidebar').getByText('ภาพรวมสต็อก', { exact: true }).click();
  await page.waitForURL('**/1/stock-management-overview-list');
  await input(page, 'search-bar').fill(text);
  await input(page, 'search-bar').press('Enter');
  await page.waitForURL(`**/stock-management-overview-list?*search=${encodeURIComponent(text)}*`);
  return page.getByTestId('stock-table');
}

/** The cells of a table row, as read. */
const cells = async (row) => (await row.locator(':scope > td').allInnerTexts()).map((s) => s.trim());

const CARTON = { code: 'GRN-CTN', name: 'น้ำแร่ธรรมชาติ 600 มล.' };
const PIECE = { code: 'GRN-PCS', name: 'นมอัลมอนด์ สูตรไม่หวาน 180 มล.' };
const BRANCH = 'คลังสาขาเชียงใหม่';
const MAIN = 'คลังสินค้าหลัก';
const REASON = 'สินค้าเสียหายระหว่างขนส่ง';
/** The piece line's expiry: beyond the overview's 30 days, so no lot is flagged. */
const EXPIRY = dayjs().add(75, 'day').startOf('day');

/** What the first test received, for the transfer that follows. */
let received = null;

export const tests = [
  {
    name: 'a receipt of cartons and pieces is written, counted with a defect, approved, on hand as lots and printed in Thai',
    run: async ({ page, api }) => {
      await api.post(`/stores/${STORE_ID}/store-unit-of-measurements`, { name: 'ลัง 12', quantity: 12, base_unit: 'piece' });
      const carton = await api.product(CARTON.code, CARTON.name);
      const piece = await api.product(PIECE.code, PIECE.name);
      const cartonSku = carton.skus[0].id;
      const pieceSku = piece.skus[0].id;
      const { data: warehouses } = await api.get('/wms/warehouses');
      const main = warehouses.find((w) => w.is_default);
      if (main?.name !== MAIN) throw new Error(`the default warehouse is ${JSON.stringify(main)}`);

      // The board opens at its drafts; a product receipt is created from it.
      await page.getByTestId('sidebar').getByText('รับสินค้าเข้าคลัง', { exact: true }).click();
      await page.waitForURL('**/1/stock-management-goods-receipt/draft');
      await page.getByTestId('receipt-board').getByRole('heading', { name: 'รับสินค้าเข้าคลัง' }).waitFor();
      await page.getByTestId('receipt-create').click();
      await page.getByTestId('create-product').waitFor();
      await still(page);
      await page.getByTestId('create-product').click();
      await page.waitForURL('**/1/stock-management-goods-receipt-create/product');
      await page.getByRole('heading', { name: 'สร้างใบรับสินค้า: สินค้า' }).waitFor();
      await page.getByTestId('receipt-form').getByText(MAIN).waitFor();
      await pickDate(page, 'field-expectedReceivedDate', dayjs().startOf('day'));

      // Two cartons of 12 at 120 baht a carton…
      await search(page, 'line-0-sku', CARTON.code);
      await pick(page, 'line-0-unit', 'ลัง 12 (12)');
      await input(page, 'line-0-cost').fill('120');
      await input(page, 'line-0-qty').fill('2');
      await page.getByTestId('line-0-pieces').getByText('= 24 ชิ้น').waitFor();
      // …and ten pieces at 25 baht, with an expiry date.
      await page.getByTestId('add-line').click();
      await search(page, 'line-1-sku', PIECE.code);
      await input(page, 'line-1-cost').fill('25');
      await input(page, 'line-1-qty').fill('10');
      await pickDate(page, 'line-1-expiry', EXPIRY);
      await page.getByTestId('line-1-total').getByText('250.00').waitFor();
      await page.getByTestId('total-pieces').getByText('34', { exact: true }).waitFor();
      await page.getByTestId('total-cost').getByText('490.00 บาท').waitFor();
      await snap(page, 'form');

      await page.getByTestId('receipt-save').click();
      await page.waitForURL('**/1/stock-management-goods-receipt-detail/draft/*');
      const id = Number(page.url().split('/').pop());
      const heading = await page.getByTestId('receipt-code').innerText();
      const code = /GR\d{4}-\d{6}/.exec(heading)?.[0];
      if (!code) throw new Error(`no receipt code in "${heading}"`);
      await page.getByTestId('receipt-state').getByText('แบบร่าง').waitFor();
      const lines = page.getByTestId('receipt-lines');
      const cartonLine = await cells(lines.locator('tr.ant-table-row', { hasText: CARTON.code }));
      if (!cartonLine.includes('ลัง 12 (12)') || !cartonLine.includes('2') || !cartonLine.includes('24')) throw new Error(`carton line reads ${cartonLine.join(' | ')}`);
      await lines.locator('tr.ant-table-row', { hasText: PIECE.code }).getByText(thaiDate(EXPIRY)).waitFor();
      const saved = await api.get(`/wms/goods-receipts/${id}`);
      const savedPiece = saved.items.find((l) => l.sku_id === pieceSku);
      if (savedPiece?.expired_at !== EXPIRY.format('YYYY-MM-DD') || savedPiece.request_base_qty !== 10) throw new Error(`saved the piece line as ${JSON.stringify(savedPiece)}`);

      // Sent to the warehouse, it waits for QC.
      await page.getByTestId('receipt-send').click();
      await confirm(page, `${code} จะส่งไปที่ ${MAIN}`);
      await page.waitForURL(`**/1/stock-management-goods-receipt-detail/pending/${id}`);
      await page.getByTestId('receipt-state').getByText('ส่งเข้าคลังแล้ว').waitFor();

      // QC: all 24 pieces of the cartons came, one of them defective; recorded ("confirm check").
      const qc = page.getByTestId('qc-table');
      const qcCarton = qc.locator('tr.ant-table-row', { hasText: CARTON.code });
      const receivedInput = qcCarton.locator('input[data-testid$="-received"], [data-testid$="-received"] input').first();
      if ((await receivedInput.inputValue()) !== '24') throw new Error(`QC starts at ${await receivedInput.inputValue()} received`);
      await qcCarton.locator('input[data-testid$="-defective"], [data-testid$="-defective"] input').first().fill('1');
      await qcCarton.locator('[data-testid$="-good"]').getByText('23', { exact: true }).waitFor();
      await qcCarton.getByText('ครบ', { exact: true }).waitFor();
      await page.getByTestId('qc-check').click();
      await page.getByText(`บันทึกผลตรวจนับ ${code} แล้ว`).waitFor();
      await page.waitForURL(`**/1/stock-management-goods-receipt-detail/received/${id}`);
      await page.getByTestId('receipt-state').getByText('ตรวจนับแล้ว').waitFor();
      await page.getByTestId('qc-card').getByText('ผลตรวจนับที่บันทึกไว้ แก้ไขได้ก่อนอนุมัติ').waitFor();
      await qc.locator('tr.ant-table-row', { hasText: CARTON.code }).locator('[data-testid$="-good"]').getByText('23', { exact: true }).waitFor();
      await snap(page, 'qc-counted');

      // Approved: 23 + 10 good pieces go into stock.
      await page.getByTestId('qc-approve').click();
      await confirm(page, `สินค้าสภาพดี 33 ชิ้นของ ${code} จะเข้าสต็อกที่ ${MAIN}`);
      await page.waitForURL(`**/1/stock-management-goods-receipt-detail/approved/${id}`);
      await page.getByTestId('receipt-state').getByText('อนุมัติแล้ว').waitFor();
      await page.getByTestId('receipt-header').getByText(/สมศรี ใจดี เมื่อ/).first().waitFor();
      const approvedCarton = await cells(page.getByTestId('receipt-lines').locator('tr.ant-table-row', { hasText: CARTON.code }));
      // #, SKU, product, unit, asked, pieces, received, defective, good, …
      if (approvedCarton[6] !== '24' || approvedCarton[7] !== '1' || approvedCarton[8] !== '23') throw new Error(`approved carton line reads ${approvedCarton.join(' | ')}`);
      await snap(page, 'approved');
      received = { code, pieceSku };

      // Printed: a new tab opens on the PDF, which is in Thai and names the products.
      const [popup, response] = await Promise.all([
        page.waitForEvent('popup'),
        page.waitForResponse((r) => new URL(r.url()).pathname === `/api/wms/goods-receipts/${id}/print`),
        page.getByTestId('receipt-print').click(),
      ]);
      if (response.status() !== 200 || !String(response.headers()['content-type']).startsWith('application/pdf')) {
        throw new Error(`print answered ${response.status()} ${response.headers()['content-type']}`);
      }
      const bytes = await response.body();
      if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('print did not answer a PDF');
      await popup.waitForURL(/^blob:/);
      await popup.close();
      const text = await pdfText(bytes);
      if (text === null) {
        if (process.env.CI === 'true') throw new Error('pdftotext (poppler-utils) is not installed');
        console.log('     note: pdftotext is not installed here; the PDF\'s Thai text was not read');
      } else {
        // Without white space: a name may wrap in its column, and Thai wraps between words.
        const bare = (t) => t.normalize('NFC').replace(/\s+/g, '');
        for (const want of ['ใบรับสินค้า', code, CARTON.name, PIECE.name, 'ลัง 12 (12)']) {
          if (!bare(text).includes(bare(want))) throw new Error(`the printed receipt lacks "${want}": ${text.replace(/\s+/g, ' ').slice(0, 400)}`);
        }
      }
      await page.getByTestId('receipt-print').locator('.ant-btn-loading-icon').waitFor({ state: 'detached' });
      // Printing records who printed it.
      if ((await api.get(`/wms/goods-receipts/${id}`)).printed_by === 0) throw new Error('the print was not recorded');

      // The board lists it under approved.
      await page.getByTestId('sidebar').getByText('รับสินค้าเข้าคลัง', { exact: true }).click();
      await page.waitForURL('**/1/stock-management-goods-receipt/draft');
      await page.getByTestId('tab-approved').click();
      await page.waitForURL('**/1/stock-management-goods-receipt/approved');
      const boardRow = page.getByTestId('receipt-table').locator('tr.ant-table-row', { hasText: code });
      await boardRow.getByText('อนุมัติแล้ว').waitFor();
      await boardRow.getByText('2 รายการ · 34 ชิ้น').waitFor();

      // The overview: the good pieces on hand, each SKU's lot named after the receipt.
      const table = await overview(page, 'GRN-');
      const cartonRow = table.locator('tr.ant-table-row', { hasText: CARTON.code });
      const pieceRow = table.locator('tr.ant-table-row', { hasText: PIECE.code });
      for (let i = 0; ; i++) {
        // The overview follows the ledger's event; reload until it has arrived.
        await cartonRow.waitFor();
        const [c, p] = [await cells(cartonRow), await cells(pieceRow)];
        // expand, name, warehouse, on hand, reserved, available, …
        if (c[3] === '23' && c[5] === '23' && p[3] === '10' && c[2] === MAIN) break;
        if (i >= 10) throw new Error(`the overview shows ${c.join(' | ')} and ${p.join(' | ')}`);
        await page.waitForTimeout(300);
        await page.reload();
      }
      await pieceRow.locator('.ant-table-row-expand-icon').click();
      const pieceLot = page.getByTestId(`lots-${pieceSku}-${main.id}`).locator('tr.ant-table-row', { hasText: code });
      await pieceLot.getByText(thaiDate(EXPIRY)).waitFor();
      await pieceLot.getByText('25.00 บาท').waitFor();
      if ((await cells(pieceLot))[3] !== '10') throw new Error(`the piece lot reads ${(await cells(pieceLot)).join(' | ')}`);
      await cartonRow.locator('.ant-table-row-expand-icon').click();
      const cartonLot = page.getByTestId(`lots-${cartonSku}-${main.id}`).locator('tr.ant-table-row', { hasText: code });
      await cartonLot.getByText('ไม่มีวันหมดอายุ').waitFor();
      // 120 baht a carton of 12: 10 baht a piece.
      await cartonLot.getByText('10.00 บาท').waitFor();
      if ((await cells(cartonLot))[3] !== '23') throw new Error(`the carton lot reads ${(await cells(cartonLot)).join(' | ')}`);
      await snap(page, 'overview-lots');

    },
  },
  {
    name: 'five pieces go to a new warehouse: in transit, then received there as the same lot',
    run: async ({ page }) => {
      if (!received) throw new Error('needs the receipt of the first test');
      const { code, pieceSku } = received;

      // A second warehouse, added on the warehouses tab.
      await page.getByTestId('sidebar').getByText('คลังสินค้า', { exact: true }).click();
      await page.waitForURL('**/1/stock-management-warehouses');
      const warehouses = page.getByTestId('warehouse-table');
      await warehouses.locator('tr.ant-table-row', { hasText: MAIN }).getByText('คลังหลัก', { exact: true }).waitFor();
      await page.getByTestId('warehouse-create').click();
      await still(page);
      await input(page, 'warehouse-name').fill(BRANCH);
      await input(page, 'warehouse-code').fill('cnx-1');
      await page.getByTestId('warehouse-save').click();
      await page.getByText(`เพิ่ม ${BRANCH} แล้ว`).waitFor();
      const branchRow = warehouses.locator('tr.ant-table-row', { hasText: BRANCH });
      await branchRow.getByText('CNX-1', { exact: true }).waitFor();
      await branchRow.getByText('ใช้งาน', { exact: true }).waitFor();
      await snap(page, 'warehouses');

      // A transfer of five pieces from the main warehouse.
      await page.getByTestId('moves-tab-transfer').click();
      await page.waitForURL('**/1/stock-management-transfer');
      await page.getByTestId('transfer-create').click();
      await still(page);
      await page.getByTestId('transfer-from').getByText(MAIN).waitFor();
      await pick(page, 'transfer-to', BRANCH);
      await pick(page, 'transfer-line-0-sku', `${PIECE.code} — พร้อมโอน 10`, PIECE.code);
      await page.getByTestId('transfer-line-0').getByText('พร้อมโอน 10 ชิ้น').waitFor();
      await input(page, 'transfer-line-0-quantity').fill('5');
      await snap(page, 'transfer-form');
      await page.getByTestId('transfer-save').click();
      await page.getByText(/^ส่งโอน \S+ แล้ว สินค้าอยู่ระหว่างขนส่ง$/).waitFor();

      // In transit; its line took the five from the receipt's lot.
      const row = page.getByTestId('transfer-table').locator('tr.ant-table-row', { hasText: BRANCH });
      await row.locator('[data-testid$="-state"]').getByText('ระหว่างขนส่ง').waitFor();
      await row.locator('.ant-table-row-expand-icon').click();
      await page.locator(`[data-testid$="-line-${pieceSku}-lots"]`).getByText(`${code} × 5`).waitFor();
      await snap(page, 'in-transit');

      // Received at the branch.
      await row.locator('[data-testid$="-receive"]').click();
      await confirm(page, `${BRANCH} ได้รับสินค้า 5 ชิ้น`);
      await row.locator('[data-testid$="-state"]').getByText('รับสินค้าแล้ว').waitFor();
      await row.locator('[data-testid$="-received"]').getByText('สมศรี ใจดี').waitFor();
      if (await row.locator('[data-testid$="-receive"]').count()) throw new Error('a received transfer still offers to receive it');
      await snap(page, 'received');

      // The overview: five in each warehouse; the branch's five of the same lot.
      const table = await overview(page, PIECE.code);
      const rows = table.locator('tr.ant-table-row', { hasText: PIECE.code });
      const read = async () => (await Promise.all((await rows.all()).map(cells))).map((c) => `${c[2]}: ${c[3]}/${c[5]}`).sort().join(', ');
      const both = [`${BRANCH}: 5/5`, `${MAIN}: 5/5`].sort().join(', ');
      for (let i = 0; ; i++) {
        // on hand / available per warehouse; the ledger's events arrive a moment later.
        await rows.first().waitFor();
        const seen = await read();
        if (seen === both) break;
        if (i >= 10) throw new Error(`the overview shows ${seen}`);
        await page.waitForTimeout(300);
        await page.reload();
      }
      await pick(page, 'overview-warehouse', BRANCH);
      await page.waitForURL(/[?&]warehouse=\d+/);
      await table.locator('tr.ant-table-row', { hasText: MAIN }).waitFor({ state: 'detached' });
      if ((await read()) !== `${BRANCH}: 5/5`) throw new Error(`the branch shows ${await read()}`);
      await rows.locator('.ant-table-row-expand-icon').click();
      const lot = page.locator(`[data-testid^="lots-${pieceSku}-"]`).locator('tr.ant-table-row', { hasText: code });
      await lot.getByText(thaiDate(EXPIRY)).waitFor();
      if ((await cells(lot))[3] !== '5') throw new Error(`the branch's lot reads ${(await cells(lot)).join(' | ')}`);
      await snap(page, 'branch-stock');
    },
  },
  {
    name: 'a receipt sent to the warehouse is rejected with a reason, shown under the rejected tab',
    run: async ({ page, api }) => {
      const product = await api.product('GRN-REJ', 'ขนมปังกรอบ รสเนย');
      const { data: warehouses } = await api.get('/wms/warehouses');
      const main = warehouses.find((w) => w.is_default);
      const draft = await receiptByApi(api, {
        type: 'product',
        warehouse_id: main.id,
        expected_received_date: dayjs().format('YYYY-MM-DD'),
        note: 'ล็อตจากซัพพลายเออร์รายใหม่',
        products: [{ sku_id: product.skus[0].id, request_qty: 6, cost: '15' }],
      });
      await api.post(`/wms/goods-receipts/${draft.id}/ready-to-warehouse`);

      // Found on the board under the pending tab, and opened.
      await page.getByTestId('sidebar').getByText('รับสินค้าเข้าคลัง', { exact: true }).click();
      await page.waitForURL('**/1/stock-management-goods-receipt/draft');
      await page.getByTestId('tab-pending').click();
      await page.waitForURL('**/1/stock-management-goods-receipt/pending');
      await page.getByTestId(`receipt-${draft.id}-link`).click();
      await page.waitForURL(`**/1/stock-management-goods-receipt-detail/pending/${draft.id}`);
      await page.getByTestId('receipt-state').getByText('ส่งเข้าคลังแล้ว').waitFor();

      // Rejected: a reason is asked for, then given.
      await page.getByTestId('qc-reject').click();
      await still(page);
      await page.getByText(`ไม่อนุมัติ ${draft.code}`, { exact: true }).waitFor();
      await page.locator('#reject-confirm').click();
      await page.getByTestId('reject-form').getByText('กรุณากรอกข้อมูล').waitFor();
      await page.getByTestId('reject-reason-input').fill(REASON);
      await page.getByTestId('reject-form').getByText('กรุณากรอกข้อมูล').waitFor({ state: 'detached' });
      await snap(page, 'reject-dialog');
      await page.locator('#reject-confirm').click();
      await page.waitForURL(`**/1/stock-management-goods-receipt-detail/rejected/${draft.id}`);
      await page.getByTestId('receipt-state').getByText('ไม่อนุมัติ').waitFor();
      await page.getByTestId('reject-reason').getByText(REASON).waitFor();
      if (await page.getByTestId('qc-card').count()) throw new Error('a rejected receipt still offers QC');

      // Under the rejected tab, and its reason shown when opened from there.
      await page.getByTestId('sidebar').getByText('รับสินค้าเข้าคลัง', { exact: true }).click();
      await page.waitForURL('**/1/stock-management-goods-receipt/draft');
      await page.getByTestId('tab-rejected').click();
      await page.waitForURL('**/1/stock-management-goods-receipt/rejected');
      const row = page.getByTestId('receipt-table').locator('tr.ant-table-row', { hasText: draft.code });
      await row.getByTestId('receipt-state').getByText('ไม่อนุมัติ').waitFor();
      await page.getByTestId('tab-rejected-count').getByText('1', { exact: true }).waitFor();
      await page.getByTestId('receipt-table').locator('.ant-spin-spinning').waitFor({ state: 'detached' });
      await snap(page, 'rejected-tab');
      await row.getByTestId(`receipt-${draft.id}-link`).click();
      await page.waitForURL(`**/1/stock-management-goods-receipt-detail/rejected/${draft.id}`);
      await page.getByTestId('reject-reason').getByText(REASON).waitFor();
      await page.getByTestId('receipt-header').getByText(/ไม่อนุมัติโดย/).waitFor();
      await snap(page, 'rejected');
      const saved = await api.get(`/wms/goods-receipts/${draft.id}`);
      if (saved.state !== 'rejected' || saved.reject_reason !== REASON) throw new Error(`saved ${saved.state}: ${saved.reject_reason}`);
      // Nothing of it reached the stock.
      const stock = await api.get('/products/sku-inventories?search=GRN-REJ');
      if (stock.data.some((r) => r.inventory.quantity !== 0)) throw new Error(`a rejected receipt put stock on hand: ${JSON.stringify(stock.data)}`);
    },
  },
];
