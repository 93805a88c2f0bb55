// The language switch and the mobile layout (SPEC §2).
export const tests = [
  {
    name: 'switch to English, remembered',
    run: async ({ page, url }) => {
      await page.goto(url('product-list/store'));
      await page.getByTestId('product-table').waitFor();
      await page.getByTestId('language-switch').click();
      await page.getByRole('heading', { name: 'Products' }).waitFor();
      await page.getByTestId('sidebar').getByText('Stock overview').waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Products' }).waitFor();
    },
  },
  {
    name: 'mobile layout',
    as: 'reader',
    viewport: { width: 390, height: 844 },
    run: async ({ page, url }) => {
      await page.goto(url('customer-list'));
      await page.locator('[data-layout="search-bar-mobile"]').waitFor();
      await page.getByTestId('mobile-menu').click();
      const sidebar = page.getByTestId('sidebar');
      await sidebar.waitFor();
      // The reader's menu: customers, and the settings submenu without what only owners may do.
      await sidebar.getByText('รายชื่อลูกค้า').waitFor();
      if (await sidebar.getByText('รายการสินค้า').count()) throw new Error('the reader sees the product list');
      await sidebar.getByText('ตั้งค่า', { exact: true }).click();
      await sidebar.getByText('หน่วยนับ', { exact: true }).waitFor();
      if (await sidebar.getByText('เพิ่มหน่วยนับ').count()) throw new Error('the reader may add units');
      await page.waitForTimeout(400); // the drawer's slide-in, for the screenshot
    },
  },
];
