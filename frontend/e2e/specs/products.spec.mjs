// Products: the form with variants and photos, photo order, the spreadsheet import, search
// and bulk actions on the list (SPEC §2).
import { file } from '../fixtures.mjs';

export const tests = [
  {
    name: 'create a product with variants',
    run: async ({ page }) => {
      await page.getByTestId('sidebar').getByText('รายการสินค้า').click();
      await page.waitForURL('**/1/product-list/store');
      await page.getByTestId('product-create').click();
      await page.waitForURL('**/1/product-create/store');
      await page.getByTestId('field-name').fill('เสื้อยืดคอกลม');
      await page.getByTestId('field-code').fill('TS-01');
      await page.getByTestId('field-category').click();
      await page.locator('.ant-select-item-option', { hasText: 'เสื้อผ้าแฟชั่น' }).click();
      const tags = page.getByTestId('field-tags').locator('input');
      await tags.fill('เสื้อ');
      await tags.press('Enter');
      await page.getByTestId('field-short-description').fill('ผ้าฝ้าย 100% ใส่สบาย');
      await page.getByTestId('field-price').fill('199');
      await page.getByTestId('field-cost').fill('90.50');
      await page.getByTestId('variant-add').click();
      await page.getByTestId('variant-name-0').fill('สี');
      const options = page.getByTestId('variant-options-0').locator('input');
      for (const o of ['ขาว', 'ดำ']) {
        await options.fill(o);
        await options.press('Enter');
      }
      await page.getByTestId('sku-code-1').waitFor();
      if ((await page.getByTestId('sku-code-0').inputValue()) !== 'TS-01-ขาว') throw new Error('SKU codes follow the options');
      // Pictures can be chosen before the product exists; they go up once it is saved.
      await page.getByTestId('photo-need-more').waitFor();
      await page.getByTestId('photo-input').setInputFiles(file('photo.png'));
      await page.getByTestId('photo-0').locator('img').waitFor();
      await page.getByTestId('photo-need-more').waitFor({ state: 'detached' });
      await page.getByTestId('product-save').click();
      await page.waitForURL('**/1/product-list/store');
      const row = page.getByTestId('product-table').locator('tr', { hasText: 'TS-01' });
      await row.getByText('เสื้อยืดคอกลม', { exact: true }).waitFor();
      await row.locator('img').waitFor();
    },
  },
  {
    name: 'add photos to the product and order them',
    run: async ({ page, url, api }) => {
      const product = await api.product('PH-01', 'หมวกบักเก็ต');
      await api.photo(product.id, 'photo.png');
      await page.goto(url('product-list/store?search=PH-01'));
      await page.getByTestId('product-table').getByText('หมวกบักเก็ต', { exact: true }).click();
      await page.waitForURL(/\/1\/product-edit\/store\/\d+$/);
      await page.getByTestId('photo-0').waitFor();
      await page.getByTestId('photo-input').setInputFiles([file('photo.png'), file('photo.png')]);
      await page.getByTestId('photo-2').waitFor();
      await page.getByTestId('photo-input').setInputFiles({ name: 'page.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<html>not a photo</html>') });
      await page.getByTestId('photo-error').waitFor();
      await page.getByTestId('photo-1').dragTo(page.getByTestId('photo-0'));
      await page.waitForTimeout(300);
      await page.getByTestId('photo-0').locator('img').waitFor();
      // A product keeps at least one photo: two may go, the last may not.
      await page.getByTestId('photo-2').locator('.bo-photo-delete').click();
      await page.getByTestId('photo-2').waitFor({ state: 'detached' });
      await page.getByTestId('photo-1').locator('.bo-photo-delete').click();
      await page.getByTestId('photo-1').waitFor({ state: 'detached' });
      if (!(await page.getByTestId('photo-0').locator('.bo-photo-delete').isDisabled())) throw new Error('the last photo could be deleted');
    },
  },
  {
    name: 'import products from a spreadsheet',
    run: async ({ page, url }) => {
      await page.goto(url('product-list/store'));
      await page.getByTestId('product-import').click();
      await page.waitForURL('**/1/product-import-channel');
      await page.getByTestId('import-channel-store').click();
      await page.waitForURL('**/1/product-import/store/upload/0');
      await page.locator('input[type=file]').setInputFiles(file('products.xlsx'));
      await page.waitForURL('**/1/product-import/store/mapping/0');
      await page.getByTestId('import-mapping').getByText('seller_sku').waitFor();
      await page.getByText('พบสินค้า 2 รายการ จาก 3 แถว มีปัญหา 2 แถว').waitFor();
      await page.getByTestId('import-category').click();
      await page.locator('.ant-select-item-option', { hasText: 'กระเป๋าและรองเท้า' }).click();
      await page.getByTestId('import-start').click();
      await page.waitForURL('**/1/product-import/store/result/0');
      await page.getByText('สร้างสินค้าใหม่ 2 รายการ ข้ามรายการที่มีอยู่แล้ว 0 รายการ').waitFor();
      await page.getByTestId('import-download').waitFor();
      await page.getByRole('button', { name: 'ไปที่รายการสินค้า' }).click();
      await page.getByTestId('product-table').getByText('กระเป๋าผ้าแคนวาส', { exact: true }).waitFor();
    },
  },
  {
    name: 'search the list, close two products for sale at once, then delete them',
    run: async ({ page, url, api }) => {
      await api.product('BK-901', 'ถุงผ้าลายทาง');
      await api.product('BK-902', 'ถุงผ้าสีพื้น');
      // The search ignores case.
      await page.goto(url(`product-list/store?search=${encodeURIComponent('bk-90')}`));
      const table = page.getByTestId('product-table');
      await table.getByText('BK-901', { exact: true }).waitFor();
      if ((await table.locator('tbody tr.ant-table-row').count()) !== 2) throw new Error('the search should find the two products');
      // Each bulk action is one request for every chosen product.
      const writes = [];
      page.on('request', (r) => {
        if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/products')) writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      await table.locator('thead .ant-checkbox-input').check();
      await page.getByTestId('bulk-actions').getByRole('button', { name: 'ปิดขาย', exact: true }).click();
      await page.getByText('เปลี่ยนสถานะ 2 รายการแล้ว').waitFor();
      if (writes.join(',') !== 'POST /api/products/bulk/status') throw new Error(`closing two products sent ${writes.join(', ')}`);
      await page.goto(url(`product-list/store?search=${encodeURIComponent('bk-90')}&status=inactive`));
      await table.getByText('BK-902', { exact: true }).waitFor();
      await table.locator('thead .ant-checkbox-input').check();
      await page.getByTestId('bulk-actions').getByRole('button', { name: 'ลบ', exact: true }).click();
      await page.getByTestId('dialog-ok').click();
      await page.getByText('ไม่พบสินค้าที่ค้นหา').waitFor();
      if (writes.join(',') !== 'POST /api/products/bulk/status,POST /api/products/bulk/delete') throw new Error(`deleting two products sent ${writes.join(', ')}`);
    },
  },
  {
    name: 'a member who may only read products opens one read-only',
    as: 'viewer',
    run: async ({ page, url, api }) => {
      const p = await api.product('VIEW-01', 'กระเป๋าผ้าแคนวาส');
      await page.goto(url('product-list/store?search=VIEW-01'));
      await page.getByTestId(`product-view-${p.id}`).click();
      const drawer = page.getByTestId('product-view');
      await drawer.getByTestId('product-view-skus').getByText('VIEW-01').waitFor();
      if ((await page.getByTestId('product-create').count()) !== 0) throw new Error('the viewer may create products');
      if (page.url().includes('product-edit')) throw new Error('the viewer was sent to the edit screen');
      await page.waitForTimeout(400); // the drawer's slide-in, for the screenshot
    },
  },
];
