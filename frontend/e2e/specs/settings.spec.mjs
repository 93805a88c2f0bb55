// Store settings: units of measurement and the store's safety stock (SPEC §2, §5).
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
      const rows = page.getByTestId('bill-expiry-history').locator('tbody tr.ant-table-row');
      if ((await rows.count()) !== 2) throw new Error('the earlier setting is not in the history');
    },
  },
];
