// The store's details (SPEC §2 Settings: store-detail, store-edit): the settings index, the owner
// edits the name, the Thai address through the autocomplete and the phone; a wrong phone is
// refused under its field; the change shows in the store's last changes.
import { file } from '../fixtures.mjs';
export const tests = [
  {
    name: 'the owner edits the store, refusing a wrong phone, and sees the change recorded',
    run: async ({ page, url }) => {
      await page.goto(url('setting'));
      await page.getByTestId('setting-index').waitFor();
      await page.getByTestId('setting-store-detail').click();
      await page.waitForURL('**/1/setting/store-detail');
      await page.getByTestId('store-edit-open').click();
      await page.waitForURL('**/1/setting/store-edit');
      await page.getByTestId('field-name').fill('ร้านสบายดี สาขาอารีย์');
      await page.getByTestId('field-address').fill('88 ซอยอารีย์ 1');
      await page.getByTestId('field-subDistrict').locator('input').fill('สามเสนใน');
      await page.locator('.ant-select-item-option', { hasText: 'สามเสนใน » พญาไท' }).first().click();
      await page.waitForFunction(() => document.querySelector('[data-testid="field-postcode"] input')?.value === '10400');
      await page.getByTestId('field-tel').fill('02-12');
      await page.getByTestId('store-save').click();
      await page.getByText('เบอร์โทรต้องเป็นตัวเลข 9 หรือ 10 หลัก').waitFor();
      await page.getByTestId('field-tel').fill('02-123-4567');
      await page.getByTestId('store-save').click();
      await page.waitForURL('**/1/setting/store-detail');
      await page.getByTestId('store-name').getByText('ร้านสบายดี สาขาอารีย์').waitFor();
      await page.getByTestId('store-detail').getByText('88 ซอยอารีย์ 1 สามเสนใน พญาไท กรุงเทพมหานคร 10400').waitFor();
      await page.getByTestId('store-audit').getByText(/แก้ไขข้อมูลร้าน: .*ชื่อ .* → ร้านสบายดี สาขาอารีย์/).waitFor();
    },
  },
  {
    name: 'the owner gives the store a logo',
    run: async ({ page, url }) => {
      await page.goto(url('setting/store-edit'));
      await page.getByTestId('store-logo-input').setInputFiles(file('photo.png'));
      await page.getByTestId('store-logo-preview').waitFor();
      await page.goto(url('setting/store-detail'));
      await page.getByTestId('store-logo').locator('img').waitFor();
    },
  },
];

