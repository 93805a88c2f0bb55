// End-to-end: a freshly started backoffice (SQLite, demo store) driven in Debian's Chromium
// through playwright-core. Screenshots of each step go to e2e/screenshots/ (git-ignored).
//
//   BACKOFFICE_BIN  the binary (default ../target/debug/backoffice)
//   CHROMIUM        the browser (default /usr/bin/chromium)
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = process.env.BACKOFFICE_BIN || path.join(process.env.CARGO_TARGET_DIR || path.join(root, '..', 'target'), 'debug', 'backoffice');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const shots = path.join(root, 'e2e', 'screenshots');
fs.rmSync(shots, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const data = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-e2e-'));
const port = await freePort();
const env = {
  ...process.env,
  BO_DATA_DIR: data,
  BO_HTTP__ADDR: `127.0.0.1:${port}`,
  BO_HTTP__STATIC_DIR: path.join(root, 'dist'),
  BO_DEMO__EMAIL: 'owner@example.com',
  BO_DEMO__PASSWORD: 'demo1234',
  RUST_LOG: 'warn',
};
const server = spawn(bin, ['--target', 'all'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;

let passed = 0;
let failed = 0;
let browser;
const steps = [];

async function waitReady() {
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('backoffice never became ready');
}

async function step(name, fn, page) {
  try {
    await fn();
    passed++;
    steps.push(`ok   ${name}`);
  } catch (e) {
    failed++;
    steps.push(`FAIL ${name}: ${e.message.split('\n')[0]}`);
    throw e;
  } finally {
    if (page) {
      const file = path.join(shots, `${String(steps.length).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    }
  }
}

try {
  await waitReady();
  // A member whose role may read customers but not create them.
  execFileSync(bin, ['admin', 'add-member', '--store-id', '1', '--email', 'reader@example.com', '--permission', 'cashier', '--role', 'customer-reader', '--role-permissions', 'store.customer.read'], {
    env: { ...env, BO_MEMBER_PASSWORD: 'reader-pass-1' },
    stdio: 'ignore',
  });

  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'th-TH' });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);

  await step('login page in Thai', async () => {
    await page.goto(`${base}/login`);
    await page.getByRole('heading', { name: 'เข้าสู่ระบบ' }).waitFor();
  }, page);

  await step('sign in and see the store picker', async () => {
    await page.getByTestId('login-email').fill('owner@example.com');
    await page.getByTestId('login-password').fill('demo1234');
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/choose-store');
    await page.getByText('ร้านใจดี ออนไลน์').waitFor();
  }, page);

  await step('choose the demo store', async () => {
    await page.getByTestId('store-1').getByRole('button').click();
    await page.waitForURL('**/1/getting-start');
    await page.getByTestId('getting-start').waitFor();
  }, page);

  await step('customer list from the sidebar', async () => {
    await page.getByTestId('sidebar').getByText('รายชื่อลูกค้า').click();
    await page.waitForURL('**/1/customer-list');
    await page.getByText('สมชาย ใจดี').waitFor();
  }, page);

  await step('an 8-digit phone shows the Thai rule', async () => {
    await page.getByTestId('customer-create').click();
    await page.waitForURL('**/1/customer-create');
    await page.getByTestId('field-name').fill('มานี มีนา');
    await page.getByTestId('field-tel').fill('08123456');
    await page.getByTestId('field-address').fill('12/3 ถนนสุขุมวิท');
    await page.getByTestId('field-subDistrict').locator('input').fill('คลองเตยเหนือ');
    await page.locator('.ant-select-item-option', { hasText: 'คลองเตยเหนือ » วัฒนา' }).first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="field-postcode"] input')?.value === '10110');
    await page.getByTestId('customer-save').click();
    await page.getByText('เบอร์โทรต้องเป็นตัวเลข 9 หรือ 10 หลัก').waitFor();
  }, page);

  await step('a phone already in the store is refused by the server', async () => {
    await page.getByTestId('field-tel').fill('081-234-5678');
    await page.getByTestId('customer-save').click();
    await page.getByText('เบอร์โทรนี้มีอยู่แล้ว กรุณาแก้ไข').waitFor();
  }, page);

  await step('fix the phone and save', async () => {
    await page.getByTestId('field-tel').fill('089-111-2233');
    await page.getByTestId('customer-save').click();
    await page.getByTestId('customer-detail').waitFor();
    await page.getByTestId('default-address').getByText(/คลองเตยเหนือ วัฒนา กรุงเทพมหานคร 10110/).waitFor();
  }, page);

  await step('find the customer by search', async () => {
    await page.goto(`${base}/1/customer-list`);
    await page.getByTestId('search-bar').locator('input').fill('มานี');
    await page.getByTestId('search-bar').locator('input').press('Enter');
    await page.waitForURL(/search=/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="customer-table"] tbody tr.ant-table-row').length === 1);
    await page.getByTestId('customer-table').getByText('มานี มีนา').waitFor();
  }, page);

  await step('add an address, edit it and make it default', async () => {
    await page.getByTestId('customer-table').getByText('มานี มีนา').click();
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
  }, page);

  await step('create a product with variants', async () => {
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
    await page.getByTestId('photo-input').setInputFiles(path.join(root, 'e2e', 'fixtures', 'photo.png'));
    await page.getByTestId('photo-0').locator('img').waitFor();
    await page.getByTestId('photo-need-more').waitFor({ state: 'detached' });
    await page.getByTestId('product-save').click();
    await page.waitForURL('**/1/product-list/store');
    const row = page.getByTestId('product-table').locator('tr', { hasText: 'TS-01' });
    await row.getByText('เสื้อยืดคอกลม', { exact: true }).waitFor();
    await row.locator('img').waitFor();
  }, page);

  await step('add photos to the product and order them', async () => {
    await page.getByTestId('product-table').getByText('เสื้อยืดคอกลม', { exact: true }).click();
    await page.waitForURL(/\/1\/product-edit\/store\/\d+$/);
    await page.getByTestId('photo-0').waitFor();
    await page.getByTestId('photo-input').setInputFiles([path.join(root, 'e2e', 'fixtures', 'photo.png'), path.join(root, 'e2e', 'fixtures', 'photo.png')]);
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
  }, page);

  await step('adjust stock and see it in the overview', async () => {
    await page.getByTestId('sidebar').getByText('ปรับสต็อก').click();
    await page.waitForURL('**/1/stock-management-goods-adjust');
    await page.getByTestId('adjust-create').click();
    await page.getByTestId('adjust-sku').click();
    await page.getByTestId('adjust-sku').locator('input').fill('TS-01-ดำ');
    await page.locator('.ant-select-item-option', { hasText: 'TS-01-ดำ' }).click();
    await page.locator('[data-testid="adjust-quantity"] input, input[data-testid="adjust-quantity"]').first().fill('12');
    await page.getByTestId('adjust-reason').fill('นับสต็อกต้นงวด');
    await page.locator('#adjust-save').click();
    await page.getByTestId('adjust-table').getByText('+12').waitFor();
    await page.getByTestId('sidebar').getByText('ภาพรวมสต็อก').click();
    await page.waitForURL('**/1/stock-management-overview-list');
    // The overview follows the ledger's event; reload until it has arrived.
    for (let i = 0; i < 10; i++) {
      await page.getByTestId('stock-table').waitFor();
      const row = page.getByTestId('stock-table').locator('tr', { hasText: 'TS-01-ดำ' });
      await row.first().waitFor().catch(() => undefined);
      if ((await row.count()) && (await row.first().innerText()).includes('12')) return;
      await page.waitForTimeout(300);
      await page.reload();
    }
    throw new Error('the overview never showed 12 units of TS-01-ดำ');
  }, page);

  await step('import products from a spreadsheet', async () => {
    await page.goto(`${base}/1/product-list/store`);
    await page.getByTestId('product-import').click();
    await page.waitForURL('**/1/product-import-channel');
    await page.getByTestId('import-channel-store').click();
    await page.waitForURL('**/1/product-import/store/upload/0');
    await page.locator('input[type=file]').setInputFiles(path.join(root, 'e2e', 'fixtures', 'products.xlsx'));
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
  }, page);

  await step('search the list, close two products for sale at once, then delete them', async () => {
    await page.goto(`${base}/1/product-list/store?search=${encodeURIComponent('p-90')}`);
    const table = page.getByTestId('product-table');
    await table.getByText('P-900', { exact: true }).waitFor();
    if ((await table.locator('tbody tr.ant-table-row').count()) !== 2) throw new Error('the search should find the two imported products');
    await table.locator('thead .ant-checkbox-input').check();
    await page.getByTestId('bulk-actions').getByRole('button', { name: 'ปิดขาย', exact: true }).click();
    await page.getByText('เปลี่ยนสถานะ 2 รายการแล้ว').waitFor();
    await page.goto(`${base}/1/product-list/store?search=${encodeURIComponent('p-90')}&status=inactive`);
    await table.getByText('P-901', { exact: true }).waitFor();
    await table.locator('thead .ant-checkbox-input').check();
    await page.getByTestId('bulk-actions').getByRole('button', { name: 'ลบ', exact: true }).click();
    await page.getByTestId('dialog-ok').click();
    await page.getByText('ไม่พบสินค้าที่ค้นหา').waitFor();
  }, page);

  await step('add a unit of measurement, refusing a wrong quantity and a duplicate name', async () => {
    await page.getByTestId('sidebar').getByText('หน่วยนับ', { exact: true }).click();
    await page.waitForURL('**/1/setting/unit-of-measurement');
    await page.getByText('ยังไม่มีหน่วยนับ').waitFor();
    const create = async (name, quantity) => {
      await page.getByTestId('unit-create').click();
      await page.waitForURL('**/1/setting/unit-of-measurement-create');
      await page.getByTestId('field-name').fill(name);
      await page.getByTestId('field-quantity').fill(quantity);
      await page.getByTestId('field-base-unit').click();
      await page.locator('.ant-select-item-option', { hasText: 'ชิ้น' }).click();
      await page.getByTestId('unit-save').click();
    };
    await create('แพ็ค 6', 'หก');
    await page.getByText('จำนวนไม่ถูกต้อง').waitFor();
    await page.getByTestId('field-quantity').fill('6');
    await page.getByTestId('unit-save').click();
    await page.waitForURL('**/1/setting/unit-of-measurement');
    await page.getByTestId('unit-table').getByText('6 ชิ้น').waitFor();
    await create('แพ็ค 6', '6');
    await page.getByText('ชื่อหน่วยนับนี้มีอยู่แล้วในร้าน').waitFor();
    await page.goto(`${base}/1/setting/unit-of-measurement`);
    await page.getByTestId('unit-table').locator('button[data-testid^="unit-delete-"]').first().click();
    await page.getByTestId('dialog-ok').click();
    await page.getByText('ยังไม่มีหน่วยนับ').waitFor();
  }, page);

  await step('set the store safety stock, refusing a negative amount', async () => {
    await page.getByTestId('sidebar').getByText('สต็อกขั้นต่ำ', { exact: true }).click();
    await page.waitForURL('**/1/setting/safety-stock');
    await page.getByTestId('safety-stock-not-set').waitFor();
    await page.getByTestId('field-amount').fill('-3');
    await page.getByTestId('safety-stock-save').click();
    await page.getByText('จำนวนไม่ถูกต้อง').waitFor();
    await page.getByTestId('field-amount').fill('8');
    await page.getByTestId('safety-stock-save').click();
    await page.getByTestId('safety-stock-amount').getByText('8 หน่วย').waitFor();
    // Every SKU now has 8 as its safety stock: TS-01-ขาว (none) is low, TS-01-ดำ (12) is not.
    await page.goto(`${base}/1/stock-management-overview-list?below=1&search=TS-01`);
    await page.getByTestId('stock-table').locator('tr', { hasText: 'TS-01-ขาว' }).first().waitFor();
    if (await page.getByTestId('stock-table').locator('tr', { hasText: 'TS-01-ดำ' }).count()) throw new Error('TS-01-ดำ is above its safety stock');
    await page.goto(`${base}/1/product-list/store`);
    await page.getByTestId('product-table').waitFor();
  }, page);

  await step('switch to English, remembered', async () => {
    await page.getByTestId('language-switch').click();
    await page.getByRole('heading', { name: 'Products' }).waitFor();
    await page.getByTestId('sidebar').getByText('Stock overview').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Products' }).waitFor();
  }, page);

  await step('a member without store.customer.create is sent to access-denied', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByText('Log out').click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-email').fill('reader@example.com');
    await page.getByTestId('login-password').fill('reader-pass-1');
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/choose-store');
    await page.getByTestId('store-1').getByRole('button').click();
    await page.waitForURL('**/1/getting-start');
    await page.goto(`${base}/1/customer-create`);
    await page.waitForURL(/\/1\/access-denied\?pathName=/);
    await page.getByTestId('access-denied').getByText('You have no permission to access').waitFor();
  }, page);

  await step('the reader still sees customers, without the create button', async () => {
    await page.goto(`${base}/1/customer-list`);
    await page.getByText('สมชาย ใจดี').waitFor();
    if ((await page.getByTestId('customer-create').count()) !== 0) throw new Error('the create button is shown');
  }, page);

  await step('mobile layout', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('[data-layout="search-bar-mobile"]').waitFor();
    await page.getByTestId('mobile-menu').click();
    await page.getByTestId('sidebar').waitFor();
    await page.waitForTimeout(400); // the drawer's slide-in, for the screenshot
  }, page);
} catch (e) {
  console.error(e);
  failed = Math.max(failed, 1);
} finally {
  if (browser) await browser.close().catch(() => undefined);
  server.kill('SIGTERM');
  fs.rmSync(data, { recursive: true, force: true });
}

for (const s of steps) console.log(s);
console.log(`screenshots: ${path.relative(process.cwd(), shots)}/`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
