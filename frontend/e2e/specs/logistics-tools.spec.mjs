// The shipping tools (SPEC §1, §2 Settings, §9): the international calculator prices a 1.2 kg
// parcel to Japan from the demo store's sample rate table (EMS World package, zone 2: 1,350.00
// baht), saying the rates are a sample; the table's template downloads, and a file not laid
// out as it is refused with nothing changed; a range of postal tracking numbers is added and shows
// its first S10 number; the e-parcel screen tries a key with the postal provider, which cannot
// be reached from the test machine: the screen says so and nothing is connected.
import path from 'node:path';

import { file, root } from '../fixtures.mjs';

/** A screenshot of a state the run's own end-of-test screenshot would not show (of the
 * viewport only: a full-page capture resizes the window, which switches layouts). */
const snap = (page, name) => page.screenshot({ path: path.join(root, 'e2e', 'screenshots', `logistics-tools-${name}.png`) });

/** The message under one form field. */
const fieldError = (page, testId) => page.locator('.ant-form-item', { has: page.getByTestId(testId) }).locator('.ant-form-item-explain-error');

async function pick(page, testId, option) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

export const tests = [
  {
    name: 'the owner prices a parcel to Japan from the sample table, told the rates are a sample',
    run: async ({ page }) => {
      await page.getByTestId('sidebar').getByText('คำนวณค่าส่งต่างประเทศ', { exact: true }).click();
      await page.waitForURL('**/1/setting/shipping-rate');
      await page.getByTestId('rates-sample').getByText('อัตราตัวอย่าง ไม่ใช่ราคาจริง').waitFor();
      // The table the store has: the sample, with its countries.
      const info = page.getByTestId('rate-table-info');
      await info.getByText('ตัวอย่าง', { exact: true }).waitFor();
      await info.getByText('JP · ญี่ปุ่น / Japan').waitFor();

      await pick(page, 'rates-country', 'ญี่ปุ่น / Japan (JP)');
      await page.getByTestId('rates-weight').fill('1.2');
      await page.getByTestId('rates-run').click();
      const table = page.getByTestId('rates-table');
      const ems = table.locator('tr', { hasText: 'อีเอ็มเอส เวิลด์ (สิ่งของ)' });
      await ems.getByText('โซน 2').waitFor();
      await ems.getByText('1,350.00 บาท').waitFor();
      await page.getByTestId('rates-summary').getByText('น้ำหนักที่คิดค่าส่ง 1.2 กก.').waitFor();
      await page.getByTestId('rates-cheapest').getByText('ถูกที่สุด').waitFor();
      // Registered mail takes at most 2 kg: a 1.2 kg parcel fits, so every service prices it.
      if ((await table.locator('tbody tr.ant-table-row').count()) !== 8) throw new Error('not eight services');
      await page.getByTestId('rates-sample').waitFor();
      await page.waitForTimeout(300); // the country list's fade-out, for the screenshot
      await snap(page, 'calculator');

      // A parcel too heavy for the mail services: they say why.
      await page.getByTestId('rates-weight').fill('5');
      await page.getByTestId('rates-run').click();
      await page.getByTestId('rates-reason-epacket').getByText('เกินน้ำหนักสูงสุดของบริการ').waitFor();

      // The template downloads with the store's token; a file not laid out as it changes nothing.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('rate-table-template').click()]);
      if (download.suggestedFilename() !== 'shipping-rates-template.xlsx') throw new Error(`downloaded ${download.suggestedFilename()}`);
      await page.getByTestId('rate-table').locator('input[type="file"]').setInputFiles(file('products.xlsx'));
      await page.getByTestId('rate-table-error').getByText('ไฟล์ไม่ถูกต้อง กรุณาอัปโหลดไฟล์ตามแบบฟอร์ม').waitFor();
      await page.getByTestId('rate-table-info').getByText('ตัวอย่าง', { exact: true }).waitFor();
      await snap(page, 'wrong-template');
    },
  },
  {
    name: 'a range of postal tracking numbers, its first S10 number shown before and after it is added',
    run: async ({ page, url, api }) => {
      await page.goto(url('setting/logistic?tab=tracking'));
      await page.getByTestId('range-table').waitFor();
      await pick(page, 'range-provider', 'ไปรษณีย์ไทย');
      await page.getByTestId('range-help').getByText(/UPU S10/).waitFor();
      await page.getByTestId('range-prefix').fill('ey');
      await page.getByTestId('range-first').fill('12345678');
      await page.getByTestId('range-last').fill('12345687');
      await page.getByTestId('range-preview').getByText('เลขแรก EY123456785TH · เลขสุดท้าย EY123456873TH').waitFor();
      await snap(page, 'range-form');
      await page.getByTestId('range-save').click();
      const row = page.getByTestId('range-table').locator('tr', { hasText: 'EY123456785TH' });
      await row.getByText('EY123456873TH').waitFor();
      await row.getByText('10 จาก 10').waitFor();
      await page.getByTestId('logistic-tab-tracking').getByText('(1)').waitFor();

      // The same numbers again overlap.
      await page.getByTestId('range-first').fill('12345680');
      await page.getByTestId('range-last').fill('12345690');
      await page.getByTestId('range-save').click();
      await fieldError(page, 'range-first').getByText('ช่วงเลขนี้ซ้อนกับช่วงเลขที่ร้านมีอยู่แล้ว').waitFor();
      const { data } = await api.get('/logistics/tracking-numbers/ranges');
      if (data.length !== 1 || data[0].first_number !== 'EY123456785TH' || data[0].remaining !== 10) throw new Error(`saved ${JSON.stringify(data)}`);
      await snap(page, 'range-list');
    },
  },
  {
    name: 'the e-parcel screen tries a key the postal provider cannot be asked about, and connects nothing',
    run: async ({ page, api }) => {
      await page.getByTestId('sidebar').getByText('เชื่อมต่อ e-parcel', { exact: true }).click();
      await page.waitForURL('**/1/setting/e-parcel-connecting');
      await page.getByTestId('account-thaipost-status').getByText('ยังไม่เชื่อมต่อ').waitFor();
      await page.getByTestId('account-flash-status').getByText('ยังไม่เชื่อมต่อ').waitFor();
      await page.getByTestId('account-thaipost-save').click();
      await fieldError(page, 'field-apiKey-thaipost').getByText('กรุณากรอกข้อมูล').waitFor();
      await page.getByTestId('field-apiKey-thaipost').fill('e2e-key-that-cannot-be-checked');
      await page.getByTestId('account-thaipost-save').click();
      await page.getByTestId('dialog-title').getByText('ติดต่อขนส่งไม่ได้').waitFor({ timeout: 40_000 });
      await page.getByTestId('dialog-message').getByText(/ไม่สามารถติดต่อขนส่งได้ในขณะนี้/).waitFor();
      if ((await page.getByTestId('dialog-message').count()) !== 1) throw new Error('more than one dialog');
      await page.waitForTimeout(400); // the dialog's zoom-in, for the screenshot
      await snap(page, 'unreachable');
      await page.getByTestId('dialog-ok').click();
      await page.getByTestId('account-thaipost-status').getByText('ยังไม่เชื่อมต่อ').waitFor();
      if (await page.getByTestId('account-thaipost-info').count()) throw new Error('the account shows as connected');
      const account = await api.get('/logistics/account-management-channels/thaipost');
      if (account.connected || account.masked_key) throw new Error(`kept ${JSON.stringify(account)}`);
    },
  },
  {
    name: 'a member without the shipping rights prices parcels but sees neither the table nor the accounts',
    as: 'reader',
    run: async ({ page, url }) => {
      await page.goto(url('setting/shipping-rate'));
      await page.getByTestId('rates-form').waitFor();
      await page.getByTestId('rates-sample').waitFor();
      if (await page.getByTestId('rate-table').count()) throw new Error('the reader sees the rate table');
      if (await page.getByTestId('sidebar').getByText('เชื่อมต่อ e-parcel', { exact: true }).count()) throw new Error('the reader sees the e-parcel entry');
      await page.goto(url('setting/e-parcel-connecting'));
      await page.getByTestId('access-denied').waitFor();
    },
  },
];
