// Store settings: units of measurement and the store's safety stock (SPEC §2, §5).
import { file } from '../fixtures.mjs';
export const tests = [
  {
    name: 'add a unit of measurement, refusing a wrong quantity and a duplicate name',
    run: async ({ page, url }) => {
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
      await page.goto(url('setting/unit-of-measurement'));
      await page.getByTestId('unit-table').locator('button[data-testid^="unit-delete-"]').first().click();
      await page.getByTestId('dialog-ok').click();
      await page.getByText('ยังไม่มีหน่วยนับ').waitFor();
    },
  },
  {
    name: 'set the store safety stock, refusing a negative amount',
    run: async ({ page, url, api }) => {
      await api.product('SAFE-LOW', 'สบู่ก้อน');
      const stocked = await api.product('SAFE-OK', 'แชมพูขวด');
      await api.stock(stocked.skus[0].id, 'SAFE-OK', 12);
      await page.getByTestId('sidebar').getByText('สต็อกขั้นต่ำ', { exact: true }).click();
      await page.waitForURL('**/1/setting/safety-stock');
      await page.getByTestId('safety-stock-not-set').waitFor();
      await page.getByTestId('field-amount').fill('-3');
      await page.getByTestId('safety-stock-save').click();
      await page.getByText('จำนวนไม่ถูกต้อง').waitFor();
      await page.getByTestId('field-amount').fill('8');
      await page.getByTestId('safety-stock-save').click();
      await page.getByTestId('safety-stock-amount').getByText('8 หน่วย').waitFor();
      // Every SKU takes 8 from the store's event: SAFE-LOW (none) is low, SAFE-OK (12) is not.
      const table = page.getByTestId('stock-table');
      for (let i = 0; ; i++) {
        await page.goto(url('stock-management-overview-list?below=1&search=SAFE-'));
        await table.waitFor();
        await page.waitForLoadState('networkidle');
        if (await table.locator('tr', { hasText: 'SAFE-LOW' }).count()) break;
        if (i === 20) throw new Error('the SKUs never took the safety stock');
        await page.waitForTimeout(250);
      }
      if (await table.locator('tr', { hasText: 'SAFE-OK' }).count()) throw new Error('SAFE-OK is above its safety stock');
      // Thousands separators are read as such, never as "not a number".
      await page.goto(url('setting/safety-stock'));
      await page.getByTestId('field-amount').fill('1,000');
      await page.getByTestId('safety-stock-save').click();
      await page.getByTestId('safety-stock-amount').getByText('1,000 หน่วย').waitFor();
    },
  },
  {
    name: 'choose the bill expiry for new bills, keeping the earlier setting in the history',
    run: async ({ page }) => {
      await page.getByTestId('sidebar').getByText('การหมดอายุบิล', { exact: true }).click();
      await page.waitForURL('**/1/setting/bill-expiry');
      await page.getByTestId('bill-expiry-current').getByText('บิลที่สร้างตอนนี้: บิลไม่หมดอายุ', { exact: false }).waitFor();
      // Other specs may have chosen settings before (and put the store back to no expiry).
      const rows = page.getByTestId('bill-expiry-history').locator('tbody tr.ant-table-row');
      const before = await rows.count();
      await page.getByTestId('bill-expiry-by_day').click();
      await page.getByTestId('field-days').fill('3');
      await page.getByTestId('bill-expiry-cancel_order').click();
      await page.getByTestId('bill-expiry-save').click();
      await page.getByTestId('bill-expiry-current').getByText('บิลที่สร้างตอนนี้: 3 วัน จากนั้น: ยกเลิกคำสั่งซื้อ (คืนสต็อก)').waitFor();
      await page.getByTestId('bill-expiry-by_time').click();
      await page.getByTestId('field-hours').fill('0');
      await page.getByTestId('field-minutes').fill('0');
      await page.getByTestId('bill-expiry-save').click();
      await page.getByText('กรุณากรอกข้อมูล').waitFor();
      await page.getByTestId('field-hours').fill('2');
      await page.getByTestId('field-minutes').fill('30');
      await page.getByTestId('bill-expiry-keep_new').click();
      await page.getByTestId('bill-expiry-save').click();
      await page.getByTestId('bill-expiry-current').getByText('บิลที่สร้างตอนนี้: 2 ชม. 30 นาที จากนั้น: คงคำสั่งซื้อไว้เป็นรายการใหม่').waitFor();
      await page.waitForFunction(
        ([sel, want]) => document.querySelectorAll(sel).length === want,
        ['[data-testid="bill-expiry-history"] tbody tr.ant-table-row', before + 2],
      ).catch(() => undefined);
      if ((await rows.count()) !== before + 2) throw new Error('the earlier setting is not in the history');
    },
  },
  {
    name: 'set the receipt pictures and footer text, watching the Thai preview follow',
    run: async ({ page, url }) => {
      await page.goto(url('setting/receipt'));
      await page.getByTestId('receipt-preview').waitFor();
      await page.getByTestId('receipt-preview-total').getByText('฿1,288.00').waitFor();
      await page.getByTestId('receipt-header-input').setInputFiles({ name: 'menu.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
      await page.getByText('รูปต้องเป็นไฟล์ .jpg, .jpeg หรือ .png').waitFor();
      await page.getByTestId('receipt-header-input').setInputFiles(file('photo.png'));
      await page.getByTestId('receipt-preview-header').waitFor();
      await page.getByTestId('receipt-footer-input').setInputFiles(file('photo.png'));
      await page.getByTestId('receipt-preview-footer').waitFor();
      await page.getByTestId('field-footer-text').fill('ขอบคุณที่อุดหนุน\nเปลี่ยนสินค้าได้ภายใน 7 วัน');
      await page.getByTestId('receipt-preview-text').getByText('เปลี่ยนสินค้าได้ภายใน 7 วัน', { exact: false }).waitFor();
      await page.getByTestId('receipt-save').click();
      await page.getByText('บันทึกข้อความท้ายใบเสร็จแล้ว').waitFor();
      await page.reload();
      await page.getByTestId('receipt-preview-text').getByText('ขอบคุณที่อุดหนุน', { exact: false }).waitFor();
      await page.getByTestId('receipt-preview-header').waitFor();
      await page.getByTestId('receipt-header-remove').click();
      await page.getByTestId('receipt-preview-header').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'submit the identity with two photos after a missing one is asked for',
    run: async ({ page, url }) => {
      await page.goto(url('setting/additional-info-identity'));
      await page.locator('[data-testid="identity-status"][data-status="pending"]').waitFor();
      await page.getByTestId('field-first-name').fill('สมชาย');
      await page.getByTestId('field-last-name').fill('ใจดี');
      await page.getByTestId('field-tel').fill('081-234-5678');
      await page.getByTestId('field-email').fill('somchai@example.com');
      await page.getByTestId('field-address').fill('88 ซอยอารีย์ 1');
      await page.getByTestId('field-subDistrict').locator('input').fill('สามเสนใน');
      await page.locator('.ant-select-item-option', { hasText: 'สามเสนใน » พญาไท' }).first().click();
      await page.waitForFunction(() => document.querySelector('[data-testid="field-postcode"] input')?.value === '10400');
      await page.getByTestId('identity-id-card-input').setInputFiles(file('photo.png'));
      await page.getByTestId('identity-submit').click();
      await page.getByText('เบอร์โทรต้องเป็นตัวเลข 9 หรือ 10 หลัก').waitFor();
      await page.getByTestId('field-tel').fill('0812345678');
      await page.getByTestId('identity-submit').click();
      await page.getByText('กรุณาอัปโหลดรูป').waitFor();
      await page.getByTestId('identity-holding-input').setInputFiles(file('photo.png'));
      await page.getByTestId('identity-submit').click();
      await page.locator('[data-testid="identity-status"][data-status="submitted"]').waitFor();
      // The kept photos come back with the owner's token only.
      await page.getByTestId('identity-id-card-preview').waitFor();
      await page.getByTestId('identity-holding-preview').waitFor();
    },
  },
];

