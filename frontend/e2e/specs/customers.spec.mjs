// Customers: the list, the form's Thai rules and the server's refusals, search, the address
// book (SPEC §2, §5).
const NEW = { name: 'มานี มีนา', address: '12/3 ถนนสุขุมวิท' };

/** Fills the new-customer form, picking the sub-district from the Thai address list. */
async function fillCustomer(page, tel) {
  await page.getByTestId('field-name').fill(NEW.name);
  await page.getByTestId('field-tel').fill(tel);
  await page.getByTestId('field-address').fill(NEW.address);
  await page.getByTestId('field-subDistrict').locator('input').fill('คลองเตยเหนือ');
  await page.locator('.ant-select-item-option', { hasText: 'คลองเตยเหนือ » วัฒนา' }).first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid="field-postcode"] input')?.value === '10110');
}

export const tests = [
  {
    name: 'customer list from the sidebar',
    run: async ({ page }) => {
      await page.getByTestId('sidebar').getByText('รายชื่อลูกค้า').click();
      await page.waitForURL('**/1/customer-list');
      await page.getByText('สมชาย ใจดี').waitFor();
    },
  },
  {
    name: 'an 8-digit phone shows the Thai rule',
    run: async ({ page, url }) => {
      await page.goto(url('customer-list'));
      await page.getByTestId('customer-create').click();
      await page.waitForURL('**/1/customer-create');
      await fillCustomer(page, '08123456');
      await page.getByTestId('customer-save').click();
      await page.getByText('เบอร์โทรต้องเป็นตัวเลข 9 หรือ 10 หลัก').waitFor();
    },
  },
  {
    name: 'a phone already in the store is refused by the server',
    run: async ({ page, url }) => {
      await page.goto(url('customer-create'));
      await fillCustomer(page, '081-234-5678');
      await page.getByTestId('customer-save').click();
      await page.getByText('เบอร์โทรนี้มีอยู่แล้ว กรุณาแก้ไข').waitFor();
    },
  },
  {
    name: 'fix the phone and save',
    run: async ({ page, url }) => {
      await page.goto(url('customer-create'));
      await fillCustomer(page, '081-234-5678');
      await page.getByTestId('customer-save').click();
      await page.getByText('เบอร์โทรนี้มีอยู่แล้ว กรุณาแก้ไข').waitFor();
      await page.getByTestId('field-tel').fill('089-111-2233');
      await page.getByTestId('customer-save').click();
      await page.getByTestId('customer-detail').waitFor();
      await page.getByTestId('default-address').getByText(/คลองเตยเหนือ วัฒนา กรุงเทพมหานคร 10110/).waitFor();
    },
  },
  {
    name: 'find the customer by search',
    run: async ({ page, url, api }) => {
      await api.customer('ปิติ ชูใจ', '0891234500');
      await page.goto(url('customer-list'));
      await page.getByTestId('search-bar').locator('input').fill('ปิติ');
      await page.getByTestId('search-bar').locator('input').press('Enter');
      await page.waitForURL(/search=/);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="customer-table"] tbody tr.ant-table-row').length === 1);
      await page.getByTestId('customer-table').getByText('ปิติ ชูใจ').waitFor();
    },
  },
  {
    name: 'add an address, edit it and make it default',
    run: async ({ page, url, api }) => {
      await api.customer('วีระ ใจกล้า', '0891234501');
      await page.goto(url(`customer-list?search=${encodeURIComponent('วีระ')}`));
      await page.getByTestId('customer-table').getByText('วีระ ใจกล้า').click();
      await page.getByTestId('open-address-book').click();
      await page.getByTestId('address-book').waitFor();
      await page.getByTestId('address-create').click();
      await page.getByTestId('field-address').fill('99 ถนนนิมมานเหมินท์');
      await page.getByTestId('field-postcode').locator('input').fill('50200');
      await page.locator('.ant-select-item-option', { hasText: 'สุเทพ » เมืองเชียงใหม่' }).first().click();
      await page.waitForFunction(() => document.querySelector('[data-testid="field-subDistrict"] input')?.value === 'สุเทพ');
      await page.getByTestId('address-save').click();
      await page.getByTestId('address-book').waitFor();
      const second = page.locator('[data-testid^="address-edit-"]').last();
      const id = (await second.getAttribute('data-testid')).replace('address-edit-', '');
      await second.click();
      await page.getByTestId('field-address').fill('99/9 ถนนนิมมานเหมินท์ ซอย 7');
      await page.getByTestId('address-save').click();
      await page.getByTestId('address-book').waitFor();
      await page.getByTestId(`address-${id}`).getByText('99/9 ถนนนิมมานเหมินท์ ซอย 7', { exact: false }).waitFor();
      await page.getByTestId(`address-make-default-${id}`).click();
      await page.getByTestId(`address-${id}`).getByTestId('default-tag').waitFor();
      const defaults = await page.getByTestId('default-tag').count();
      if (defaults !== 1) throw new Error(`expected one default address, saw ${defaults}`);
    },
  },
];
