// Payment accounts and shipping (SPEC §2 Settings, §3, §5, §8): the owner adds a bank account
// (a second one with the same number refused under the number) and a PromptPay account whose
// QR shows, for any amount and for 12.50 baht; a domestic Thailand Post channel priced by weight
// brackets with COD, refused until the store has its COD account, which the owner adds from
// the form; an EMS World package channel abroad, and a second one for the same warehouse and
// provider refused with the spec's message; a parcel priced with both. A member without the
// rights sees neither screen.
import path from 'node:path';

import { root } from '../fixtures.mjs';

/** A screenshot of a state the run's own end-of-test screenshot would not show (of the
 * viewport only: a full-page capture resizes the window, which switches layouts). */
const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `payments-logistics-${name}.png`) });

/** The message under one form field. */
const fieldError = (page, testId) => page.locator('.ant-form-item', { has: page.getByTestId(testId) }).locator('.ant-form-item-explain-error');

async function expectError(page, testId, text) {
  await fieldError(page, testId).getByText(text, { exact: true }).waitFor();
}

async function pick(page, testId, option) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

export const tests = [
  {
    name: 'the owner adds a bank account, its duplicate number refused, and a PromptPay account with its QR',
    run: async ({ page, api }) => {
      await page.getByTestId('sidebar').getByText('ช่องทางรับชำระเงิน', { exact: true }).click();
      await page.waitForURL('**/1/setting/payment-list');
      await page.getByTestId('payment-empty-bank').getByText('ยังไม่มีบัญชีธนาคาร').waitFor();
      await page.getByTestId('payment-create').click();
      await page.waitForURL('**/1/setting/payment-create?type=bank');

      // Every field is required, and the number is digits.
      await page.getByTestId('field-accNo').fill('12345');
      await page.getByTestId('payment-save').click();
      await expectError(page, 'field-bankCode', 'กรุณากรอกข้อมูล');
      await expectError(page, 'field-accNo', 'เลขที่บัญชีต้องเป็นตัวเลข 10 ถึง 20 หลัก');
      await pick(page, 'field-bankCode', 'ธนาคารกสิกรไทย');
      await page.getByTestId('field-accName').fill('ร้านตัวอย่าง จำกัด');
      await page.getByTestId('field-accNo').fill('123-4-56789-0');
      await page.getByTestId('field-branch').fill('สีลม');
      await snap(page, 'bank-form');
      await page.getByTestId('payment-save').click();
      await page.waitForURL('**/1/setting/payment-list?tab=bank');
      const bank = page.getByTestId('payment-table-bank').locator('tr', { hasText: '123-4-56789-0' });
      await bank.getByTestId('bank-badge-004').getByText('KBANK').waitFor();
      await bank.getByText('ธนาคารกสิกรไทย').waitFor();
      await bank.getByText('ร้านตัวอย่าง จำกัด').waitFor();
      await snap(page, 'bank-list');

      // The same number again: SPEC §8's duplicate account number, under the number.
      await page.getByTestId('payment-create').click();
      await pick(page, 'field-bankCode', 'ธนาคารไทยพาณิชย์');
      await page.getByTestId('field-accName').fill('ร้านตัวอย่าง');
      await page.getByTestId('field-accNo').fill('1234567890');
      await page.getByTestId('field-branch').fill('สยาม');
      await page.getByTestId('payment-save').click();
      await expectError(page, 'field-accNo', 'เลขที่บัญชีนี้มีอยู่แล้ว');
      await snap(page, 'bank-duplicate');
      const banks = await api.get('/payments/store-channels?channel-type=bank');
      if (banks.total !== 1 || banks.data[0].credential.acc_no !== '1234567890') throw new Error(`saved ${JSON.stringify(banks.data)}`);

      // PromptPay: a mobile number; a wrong one refused first.
      await page.getByTestId('field-channelType').getByText('พร้อมเพย์', { exact: true }).click();
      await page.getByTestId('field-accName').fill('ร้านตัวอย่าง');
      await page.getByTestId('field-accNo').fill('1812345678');
      await page.getByTestId('payment-save').click();
      await expectError(page, 'field-accNo', 'หมายเลขพร้อมเพย์ต้องเป็นเบอร์มือถือ 10 หลัก หรือเลขประจำตัว 13 หลัก');
      await page.getByTestId('field-accNo').fill('081-234-5678');
      await page.getByTestId('payment-save').click();
      await page.waitForURL('**/1/setting/payment-list?tab=promptpay');
      const promptpay = page.getByTestId('payment-table-promptpay').locator('tr', { hasText: '081-234-5678' });
      await promptpay.locator('[data-testid$="-qr"]').click();
      const modal = page.getByTestId('qr-modal');
      await modal.getByTestId('qr-image').waitFor();
      const src = await modal.getByTestId('qr-image').getAttribute('src');
      if (!src?.startsWith('data:image/svg+xml')) throw new Error(`the QR is ${src?.slice(0, 40)}`);
      if ((await modal.getByTestId('qr-image').evaluate((img) => img.naturalWidth)) === 0) throw new Error('the QR image does not draw');
      await modal.getByText('ผู้โอนกรอกยอดเงินเอง').waitFor();
      await modal.getByTestId('qr-id').getByText('พร้อมเพย์ xxxxxx5678').waitFor();
      await modal.getByTestId('qr-amount-input').fill('12.50');
      await modal.getByTestId('qr-apply').click();
      await modal.getByTestId('qr-amount').getByText('12.50 บาท').waitFor();
      if ((await modal.getByTestId('qr-image').getAttribute('src')) === src) throw new Error('the QR did not change with the amount');
      await snap(page, 'promptpay-qr');
      await page.locator('.ant-modal-footer button').click();

      // The edit screen shows it too, with the kind fixed.
      await promptpay.locator('[data-testid$="-edit"]').click();
      await page.waitForURL(/\/1\/setting\/payment-edit\/\d+$/);
      await page.getByTestId('field-channelType').getByText('พร้อมเพย์').waitFor();
      await page.getByTestId('promptpay-qr').getByTestId('qr-image').waitFor();
      await snap(page, 'promptpay-edit');
    },
  },
  {
    name: 'a domestic channel by weight with COD, once the COD account is added from the form',
    run: async ({ page, url, api }) => {
      // The demo store ships its demo orders by another carrier (added while it starts).
      await page.goto(url('setting/logistic'));
      await page.getByTestId('channel-create-domestic').waitFor();
      const thaipost = async () => (await api.get('/logistics/store-channels')).data.filter((c) => c.provider_name === 'thaipost');
      await page.getByTestId('channel-create-domestic').click();
      await page.waitForURL('**/1/setting/logistic-create?type=domestic&warehouse=1');
      await page.getByTestId('field-warehouseId').getByText('คลังสินค้าหลัก').waitFor();
      await pick(page, 'field-providerName', 'ไปรษณีย์ไทย');
      await page.waitForFunction(() => document.querySelector('[data-testid="field-name"]')?.value === 'ไปรษณีย์ไทย');
      await page.getByTestId('field-name').fill('ไปรษณีย์ไทย EMS');
      await page.getByTestId('field-pricingMethod').getByText('ตามน้ำหนัก', { exact: true }).click();

      // Brackets: a lighter second row is refused first; a third row added, then removed.
      await page.getByTestId('bracket-0-price').fill('38');
      await page.getByTestId('bracket-add').click();
      await page.getByTestId('bracket-1-weight').fill('0.5');
      await page.getByTestId('bracket-1-price').fill('65');
      await page.getByTestId('logistic-save').click();
      await fieldError(page, 'brackets').getByText('น้ำหนักของแต่ละช่วงต้องมากกว่าช่วงก่อนหน้า').waitFor();
      await page.getByTestId('bracket-1-weight').fill('5');
      await page.getByTestId('bracket-add').click();
      await page.getByTestId('bracket-2-weight').waitFor();
      if ((await page.getByTestId('bracket-2-weight').inputValue()) !== '6') throw new Error('a new bracket is not a kilogram heavier');
      await page.getByTestId('bracket-2-remove').click();

      // COD with Thailand Post: the store has no COD account yet.
      await page.getByTestId('field-cod').click();
      await page.getByTestId('cod-missing').waitFor();
      await snap(page, 'domestic-form');
      await page.getByTestId('logistic-save').click();
      await expectError(page, 'field-cod', 'ไม่มีเลขบัญชี COD กรุณาเพิ่มบัญชี COD ของผู้ให้บริการนี้ก่อน');
      if ((await thaipost()).length !== 0) throw new Error('a channel without its COD account was saved');

      // The owner adds it from the form, then saves.
      await page.getByTestId('cod-add-from-form').click();
      const modal = page.getByTestId('cod-modal');
      await modal.getByTestId('field-codProvider').getByText('ไปรษณีย์ไทย').waitFor();
      await modal.getByTestId('field-codAccountNo').fill('123');
      await page.getByTestId('cod-save').click();
      await expectError(page, 'field-codAccountNo', 'เลขที่บัญชีต้องเป็นตัวเลข 10 ถึง 20 หลัก');
      await modal.getByTestId('field-codAccountNo').fill('0012345678');
      await snap(page, 'cod-account');
      await page.getByTestId('cod-save').click();
      await page.getByTestId('cod-missing').waitFor({ state: 'detached' });
      await page.getByTestId('logistic-save').click();
      await page.waitForURL('**/1/setting/logistic?tab=domestic&warehouse=1');
      const row = page.getByTestId('channel-table-domestic').locator('tr', { hasText: 'ไปรษณีย์ไทย EMS' });
      await row.getByText('≤ 1 กก. 38.00 บาท · ≤ 5 กก. 65.00 บาท').waitFor();
      await row.getByText('COD', { exact: true }).waitFor();
      const data = await thaipost();
      const saved = data[0];
      if (data.length !== 1 || !saved.cod || saved.name !== 'ไปรษณีย์ไทย EMS' || saved.brackets.map((b) => b.max_weight_g).join() !== '1000,5000') {
        throw new Error(`saved ${JSON.stringify(data)}`);
      }
      await page.getByTestId('logistic-tab-cod').click();
      await page.getByTestId('cod-table').getByText('0012345678').waitFor();
      await page.getByTestId('cod-table').getByText('ไปรษณีย์ไทย').waitFor();
    },
  },
  {
    name: 'an international channel, a second one for the warehouse and provider refused, and a parcel priced',
    run: async ({ page, url, api }) => {
      await page.goto(url('setting/logistic?tab=international'));
      await page.getByTestId('channel-create-international').click();
      await page.waitForURL('**/1/setting/logistic-create?type=international&warehouse=1');
      await page.getByRole('heading', { name: 'เพิ่มการจัดส่งต่างประเทศ' }).waitFor();
      await pick(page, 'field-providerName', 'อีเอ็มเอส เวิลด์ (สิ่งของ)');
      if (await page.getByTestId('field-cod').count()) throw new Error('COD is offered for an international service');
      await page.getByTestId('field-price').fill('850');
      await page.getByTestId('logistic-save').click();
      await page.waitForURL('**/1/setting/logistic?tab=international&warehouse=1');
      await page.getByTestId('channel-table-international').locator('tr', { hasText: 'อีเอ็มเอส เวิลด์ (สิ่งของ)' }).getByText('850.00 บาท').first().waitFor();
      await snap(page, 'international-list');

      // The same service from the same warehouse again: refused with SPEC §8's message.
      await page.getByTestId('channel-create-international').click();
      await pick(page, 'field-providerName', 'อีเอ็มเอส เวิลด์ (สิ่งของ)');
      await page.getByTestId('field-name').fill('EMS ด่วน');
      await page.getByTestId('field-price').fill('900');
      await page.getByTestId('logistic-save').click();
      await expectError(page, 'field-providerName', 'การจัดส่งต่างประเทศตั้งได้เพียงหนึ่งรายการต่อคลังสินค้าต่อผู้ให้บริการ');
      await snap(page, 'international-duplicate');
      const inter = await api.get('/logistics/store-channels?logistic-type=international');
      if (inter.total !== 1) throw new Error(`${inter.total} international channels`);

      // A 2 kg parcel within Thailand: Thailand Post's second bracket; EMS World does not go there.
      await page.goto(url('setting/logistic'));
      await page.getByTestId('quote-weight').fill('2');
      await page.getByTestId('quote-run').click();
      const quotes = page.getByTestId('quote-table');
      await quotes.locator('tr', { hasText: 'ไปรษณีย์ไทย EMS' }).getByText('65.00 บาท').waitFor();
      await quotes.locator('tr', { hasText: 'อีเอ็มเอส' }).getByText('ไม่ส่งไปปลายทางนี้').waitFor();
      await snap(page, 'quote');
    },
  },
  {
    name: 'a member without the rights sees neither screen',
    as: 'reader',
    run: async ({ page, url }) => {
      await page.goto(url('setting'));
      await page.getByTestId('setting-index').waitFor();
      for (const label of ['ช่องทางรับชำระเงิน', 'ช่องทางการจัดส่ง']) {
        if (await page.getByTestId('sidebar').getByText(label, { exact: true }).count()) throw new Error(`the reader sees ${label}`);
      }
      await page.goto(url('setting/payment-list'));
      await page.getByTestId('access-denied').waitFor();
      await page.goto(url('setting/logistic-create?type=international'));
      await page.getByTestId('access-denied').waitFor();
    },
  },
];
