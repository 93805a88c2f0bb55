// Point of sale (SPEC §2 Point of sale, §3, §5): the owner sets up the head office from an empty
// store, a wrong branch number and a bad tax id refused under their fields first; a duplicate
// number refused by the server; a second branch, a POS unit, the owner as a cashier and a seller
// (a bad email refused first), whose phone and status then change; a branch in use stays. A
// member without store.* reads the setup and cannot open its forms.
import path from 'node:path';

import { root } from '../fixtures.mjs';

/** A screenshot of a state the run's own end-of-test screenshot would not show. Of the
 * viewport only: a full-page capture resizes the window for a moment, which switches the app
 * to its mobile layout and back, and the open form with it. */
const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `pos-${name}.png`) });

/** The message under one form field. */
const fieldError = (page, testId) => page.locator('.ant-form-item', { has: page.getByTestId(testId) }).locator('.ant-form-item-explain-error');

async function expectError(page, testId, text) {
  await fieldError(page, testId).getByText(text, { exact: true }).waitFor();
}

async function pick(page, testId, option) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/** The Thai address through the autocomplete: a sub-district fills the rest. */
async function fillAddress(page, line, subDistrict, entry, postcode) {
  await page.getByTestId('field-address').fill(line);
  await page.getByTestId('field-subDistrict').locator('input').fill(subDistrict);
  await page.locator('.ant-select-item-option', { hasText: entry }).first().click();
  await page.waitForFunction((p) => document.querySelector('[data-testid="field-postcode"] input')?.value === p, postcode);
}

async function branchCount(api) {
  return (await api.get('/stores/1/branches')).total;
}

export const tests = [
  {
    name: 'the owner adds the head office, a wrong number and a bad tax id refused first',
    run: async ({ page, api }) => {
      await page.getByTestId('sidebar').getByText('ตั้งค่า POS', { exact: true }).click();
      await page.waitForURL('**/1/pos-setting');
      await page.getByTestId('branch-empty').getByText('ยังไม่มีสาขา').waitFor();
      // POS units, cashiers and sellers wait for a branch.
      await page.getByTestId('pos-tab-pos-units').click();
      await page.waitForURL('**/1/pos-setting?tab=pos-units');
      await page.getByTestId('pos-need-branch').getByText('กรุณาเพิ่มสาขาก่อน', { exact: false }).waitFor();
      if (!(await page.getByTestId('pos-unit-create').isDisabled())) throw new Error('a POS unit can be added without a branch');
      await snap(page, 'no-branch');
      await page.getByTestId('pos-tab-branches').click();
      await page.getByTestId('branch-create-main').click();
      await page.waitForURL('**/1/pos-setting/branch-receipt?main=1');

      // The switch starts on for the first branch; off, the number is the owner's to type.
      await page.getByTestId('branch-main').click();
      await page.getByTestId('field-branchNo').fill('123');
      await page.getByTestId('field-name').fill('สำนักงานใหญ่');
      await page.getByTestId('field-taxId').fill('0-1055-36012-34-5');
      await page.getByTestId('branch-save').click();
      await expectError(page, 'field-branchNo', 'เลขที่สาขาต้องเป็นตัวเลข 5 หลัก');
      await expectError(page, 'field-taxId', 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง (ตัวเลข 13 หลัก)');
      await expectError(page, 'field-warehouseId', 'กรุณากรอกข้อมูล');
      await page.getByTestId('field-branchNo').fill('00000');
      await expectError(page, 'field-branchNo', 'สำนักงานใหญ่ใช้เลข 00000 และเลขนี้ใช้ได้กับสำนักงานใหญ่เท่านั้น');
      await snap(page, 'branch-refused');
      if ((await branchCount(api)) !== 0) throw new Error('a refused branch was saved');

      // The head office: the switch fills 00000 and locks it.
      await page.getByTestId('branch-main').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="field-branchNo"]')?.value === '00000');
      if (!(await page.getByTestId('field-branchNo').isDisabled())) throw new Error('the main branch number is not locked');
      await page.getByTestId('field-taxId').fill('0-1055-36012-34-6');
      await pick(page, 'field-warehouseId', 'คลังสินค้าหลัก');
      await fillAddress(page, '1 ถนนสีลม', 'สีลม', 'สีลม » บางรัก', '10500');
      await page.getByTestId('branch-save').click();
      await page.waitForURL('**/1/pos-setting?tab=branches');
      const row = page.getByTestId('branch-table').locator('tr', { hasText: '00000' });
      await row.getByText('สำนักงานใหญ่', { exact: true }).first().waitFor();
      await row.getByText('0-1055-36012-34-6').waitFor();
      await row.getByText('คลังสินค้าหลัก').waitFor();
      await row.getByText('1 ถนนสีลม สีลม บางรัก กรุงเทพมหานคร 10500').waitFor();
      const { data } = await api.get('/stores/1/branches');
      if (data.length !== 1 || data[0].tax_id !== '0105536012346' || !data[0].is_main) throw new Error(`saved ${JSON.stringify(data)}`);
    },
  },
  {
    name: 'a second branch, its duplicate number refused under the field',
    run: async ({ page, url, api }) => {
      await page.goto(url('pos-setting'));
      await page.getByTestId('branch-create').click();
      await page.waitForURL('**/1/pos-setting/branch-receipt');
      await page.getByText('ร้านนี้มีสำนักงานใหญ่แล้ว: 00000 · สำนักงานใหญ่').waitFor();
      // A second head office: the server refuses its number.
      await page.getByTestId('branch-main').click();
      await page.getByTestId('field-name').fill('สาขาสยาม');
      await page.getByTestId('field-taxId').fill('1 2345 67890 12 1');
      await pick(page, 'field-warehouseId', 'คลังสินค้าหลัก');
      await fillAddress(page, '99 ถนนพระราม 1', 'ปทุมวัน', 'ปทุมวัน » ปทุมวัน', '10330');
      await page.getByTestId('branch-save').click();
      await expectError(page, 'field-branchNo', 'เลขที่สาขานี้มีอยู่แล้วในร้าน');
      await snap(page, 'branch-duplicate');
      if ((await branchCount(api)) !== 1) throw new Error('the duplicate branch was saved');
      await page.getByTestId('branch-main').click();
      await page.getByTestId('field-branchNo').fill('00001');
      await page.getByTestId('branch-save').click();
      await page.waitForURL('**/1/pos-setting?tab=branches');
      await page.getByTestId('branch-table').locator('tr', { hasText: '00001' }).getByText('สาขาสยาม').waitFor();
      await page.getByTestId('pos-tab-branches').getByText('(2)').waitFor();
    },
  },
  {
    name: 'a POS unit, the owner as a cashier and a seller, whose phone and status change',
    run: async ({ page, url, api }) => {
      await page.goto(url('pos-setting?tab=pos-units'));
      await page.getByTestId('pos-unit-create').click();
      await page.waitForURL('**/1/pos-setting/pos-unit/create');
      await page.getByTestId('field-posNo').fill('POS 01');
      await page.getByTestId('pos-unit-save').click();
      await expectError(page, 'field-posNo', 'หมายเลขเครื่อง POS ใช้ได้เฉพาะตัวอักษรภาษาอังกฤษ ตัวเลข และขีด (-)');
      await expectError(page, 'field-branchId', 'กรุณากรอกข้อมูล');
      await page.getByTestId('field-posNo').fill('POS-01');
      await pick(page, 'field-branchId', '00001 · สาขาสยาม');
      await page.getByTestId('field-warehouseId').getByText('ใช้คลังของสาขา (คลังสินค้าหลัก)').waitFor();
      await snap(page, 'pos-unit-form');
      await page.getByTestId('pos-unit-save').click();
      await page.waitForURL('**/1/pos-setting?tab=pos-units');
      const unit = page.getByTestId('pos-unit-table').locator('tr', { hasText: 'POS-01' });
      await unit.getByText('00001 · สาขาสยาม').waitFor();
      await unit.getByText('ตามสาขา').waitFor();

      // The owner at the head office's till: picking the member fills the names and email.
      await page.getByTestId('pos-tab-cashiers').click();
      await page.getByTestId('cashier-create').click();
      await page.waitForURL('**/1/pos-setting/cashier/create');
      await pick(page, 'field-userId', 'owner@example.com');
      await page.waitForFunction(() => document.querySelector('[data-testid="field-email"]')?.value === 'owner@example.com');
      if (!(await page.getByTestId('field-firstName').inputValue())) throw new Error('the first name was not filled in');
      await page.getByTestId('field-lastName').fill('เจ้าของร้าน');
      await pick(page, 'field-branchId', '00000 · สำนักงานใหญ่');
      await snap(page, 'cashier-form');
      await page.getByTestId('cashier-save').click();
      await page.waitForURL('**/1/pos-setting?tab=cashiers');
      const cashier = page.getByTestId('cashier-table').locator('tr', { hasText: 'owner@example.com' });
      await cashier.getByText('00000 · สำนักงานใหญ่').waitFor();
      await cashier.getByText('ใช้งาน', { exact: true }).waitFor();
      // The member is a cashier once: the picker says so.
      await page.getByTestId('cashier-create').click();
      await page.getByTestId('field-userId').click();
      await page.locator('.ant-select-item-option-disabled', { hasText: 'เป็นแคชเชียร์แล้ว' }).waitFor();
      await page.goto(url('pos-setting?tab=sellers'));

      // A seller: a bad email refused first.
      await page.getByTestId('seller-create').click();
      await page.waitForURL('**/1/pos-setting/seller/create');
      await page.getByTestId('field-firstName').fill('มาลี');
      await page.getByTestId('field-lastName').fill('ขายเก่ง');
      await page.getByTestId('field-email').fill('malee@example');
      await pick(page, 'field-branchId', '00001 · สาขาสยาม');
      await page.getByTestId('seller-save').click();
      await expectError(page, 'field-email', 'รูปแบบอีเมลไม่ถูกต้อง');
      await snap(page, 'seller-refused');
      await page.getByTestId('field-email').fill('malee@example.com');
      await page.getByTestId('seller-save').click();
      await page.waitForURL('**/1/pos-setting?tab=sellers');
      const seller = page.getByTestId('seller-table').locator('tr', { hasText: 'malee@example.com' });
      await seller.getByText('ใช้งาน', { exact: true }).waitFor();

      // Its phone (a wrong one refused first) and status.
      await seller.locator('[data-testid$="-edit"]').click();
      await page.waitForURL(/\/1\/pos-setting\/seller\/\d+\/edit$/);
      await page.waitForFunction(() => document.querySelector('[data-testid="field-email"]')?.value === 'malee@example.com');
      await page.getByTestId('field-tel').fill('08123');
      await page.getByTestId('seller-save').click();
      await expectError(page, 'field-tel', 'เบอร์โทรต้องเป็นตัวเลข 9 หรือ 10 หลัก');
      await page.getByTestId('field-tel').fill('081-234-5678');
      await page.getByTestId('field-code').fill('S-01');
      await page.getByTestId('field-status').getByText('ปิดใช้งาน', { exact: true }).click();
      await snap(page, 'seller-edit');
      await page.getByTestId('seller-save').click();
      await page.waitForURL('**/1/pos-setting?tab=sellers');
      await seller.getByText('0812345678').waitFor();
      await seller.getByText('S-01').waitFor();
      await seller.getByText('ปิดใช้งาน', { exact: true }).waitFor();
      const { data } = await api.get('/stores/1/sellers');
      if (data.length !== 1 || data[0].status !== 'inactive' || data[0].tel !== '0812345678') throw new Error(`saved ${JSON.stringify(data)}`);
    },
  },
  {
    name: 'a branch with a POS unit and a seller stays, and says why',
    run: async ({ page, url, api }) => {
      await page.goto(url('pos-setting'));
      await page.getByTestId('branch-table').locator('tr', { hasText: '00001' }).locator('[data-testid$="-delete"]').click();
      await page.getByTestId('dialog-message').getByText('ต้องการลบสาขา "00001 · สาขาสยาม" หรือไม่?').waitFor();
      await page.getByTestId('dialog-ok').click();
      await page.getByTestId('dialog-title').getByText('ลบสาขา "00001 · สาขาสยาม" ไม่ได้').waitFor();
      await page.getByTestId('dialog-message').getByText('สาขานี้ยังมีเครื่อง POS แคชเชียร์ หรือพนักงานขายอยู่', { exact: false }).waitFor();
      await snap(page, 'branch-in-use');
      await page.getByTestId('dialog-ok').click();
      if ((await branchCount(api)) !== 2) throw new Error('the branch in use was deleted');
      // The changes are in the store's history.
      await page.goto(url('setting/store-detail'));
      await page.getByTestId('store-audit').getByText('เพิ่มพนักงานขาย', { exact: false }).first().waitFor();
    },
  },
  {
    name: 'a member without store.* reads the setup but cannot change it',
    as: 'reader',
    run: async ({ page, url }) => {
      await page.goto(url('pos-setting'));
      await page.getByTestId('branch-table').getByText('0-1055-36012-34-6').waitFor();
      if (await page.getByTestId('branch-create').count()) throw new Error('the reader may add a branch');
      if (await page.locator('[data-testid$="-delete"]').count()) throw new Error('the reader may delete');
      await page.getByTestId('pos-tab-sellers').click();
      await page.getByTestId('seller-table').getByText('malee@example.com').waitFor();
      if (await page.getByTestId('seller-create').count()) throw new Error('the reader may add a seller');
      await page.goto(url('pos-setting/branch-receipt'));
      await page.getByTestId('access-denied').waitFor();
    },
  },
];
