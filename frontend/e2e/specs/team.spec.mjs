// The team (SPEC §2 Settings, §6): the owner invites a cashier with a custom role by link; a new
// person opens it in another browser, creates an account and joins; they see only what the
// role allows; the owner takes a right away and the cashier's very next request is refused.

/** Fills the new-customer form, picking the sub-district from the Thai address list. */
async function fillCustomer(page, name, tel) {
  await page.getByTestId('field-name').fill(name);
  await page.getByTestId('field-tel').fill(tel);
  await page.getByTestId('field-address').fill('5 ถนนพหลโยธิน');
  await page.getByTestId('field-subDistrict').locator('input').fill('สามเสนใน');
  await page.locator('.ant-select-item-option', { hasText: 'สามเสนใน » พญาไท' }).first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid="field-postcode"] input')?.value === '10400');
}

export const tests = [
  {
    name: 'invite a cashier with a custom role, join as a new person, lose a right on the next request',
    run: async ({ page, url, api, another }) => {
      // The owner makes a custom role on the permission matrix.
      await page.getByTestId('sidebar').getByText('บทบาทและสิทธิ์การใช้งาน', { exact: true }).click();
      await page.waitForURL('**/1/setting/role-permission-list');
      await page.getByTestId('role-create').click();
      await page.waitForURL('**/1/setting/role-permission-create');
      await page.getByTestId('role-save').click();
      await page.getByText('กรุณากรอกข้อมูล').first().waitFor();
      await page.getByTestId('field-name').fill('หน้าร้าน e2e');
      await page.getByTestId('perm-customers-read').check();
      await page.getByTestId('perm-customers-create').check();
      await page.getByTestId('role-save').click();
      await page.waitForURL('**/1/setting/role-permission-list');
      await page.getByTestId('role-table').getByText('หน้าร้าน e2e').waitFor();
      const { data } = await api.get('/stores/1/roles');
      const role = data.roles.find((r) => r.name === 'หน้าร้าน e2e');
      if (JSON.stringify(role.permissions) !== JSON.stringify(['store.customer.read', 'store.customer.create'])) {
        throw new Error(`the matrix made ${role.permissions}`);
      }

      // The owner makes the link from the team screen.
      await page.getByTestId('sidebar').getByText('ผู้ใช้งาน', { exact: true }).click();
      await page.waitForURL('**/1/setting/user-list');
      await page.getByTestId('member-table').getByText('owner@example.com').waitFor();
      await page.getByTestId('invite-open').click();
      await page.getByTestId('invite-role').click();
      await page.locator('.ant-select-item-option', { hasText: 'หน้าร้าน e2e' }).click();
      await page.getByTestId('invite-submit').click();
      const link = await page.getByTestId('invite-link').inputValue();
      if (!/\/invitations\/[0-9a-f]{64}$/.test(link)) throw new Error(`not a link: ${link}`);
      await page.getByText('เสร็จสิ้น').click();
      await page.getByTestId('invitation-table').getByText('หน้าร้าน e2e').waitFor();

      // A new person, in their own browser, creates an account from the link.
      const guest = await another();
      await guest.goto(link);
      await guest.getByTestId('join-store').waitFor();
      await guest.getByTestId('join-register').click();
      await guest.getByText('กรุณากรอกข้อมูล').first().waitFor();
      await guest.getByTestId('join-first-name').fill('มาลี');
      await guest.getByTestId('join-last-name').fill('ขยันขาย');
      await guest.getByTestId('join-email').fill('malee@example.com');
      await guest.getByTestId('join-password').fill('malee-pass-1');
      await guest.getByTestId('join-register').click();
      await guest.waitForURL('**/choose-store');
      await guest.getByTestId('store-1').getByRole('button').click();
      await guest.waitForURL('**/1/getting-start');

      // Only what the role allows: customers, not products and not the team.
      const sidebar = guest.getByTestId('sidebar');
      await sidebar.getByText('รายชื่อลูกค้า').waitFor();
      for (const hidden of ['รายการสินค้า', 'ผู้ใช้งาน', 'บทบาทและสิทธิ์การใช้งาน']) {
        if (await sidebar.getByText(hidden, { exact: true }).count()) throw new Error(`the cashier sees ${hidden}`);
      }
      await guest.goto(url('setting/user-list'));
      await guest.getByTestId('access-denied').waitFor();

      // The link is spent: opened again, it says so.
      const late = await another();
      await late.goto(link);
      await late.getByTestId('join-state').getByText('ลิงก์คำเชิญนี้ถูกใช้ไปแล้ว').waitFor();

      // The cashier opens the new-customer form while they may still create customers...
      await guest.goto(url('customer-create'));
      await fillCustomer(guest, 'ลูกค้า ทดลอง', '0815550001');
      // ...the owner takes that right away...
      await api.patch(`/stores/1/roles/${role.id}`, { permissions: ['store.customer.read'] });
      // ...and the very next request is refused: the app renews its token with the new rights.
      await guest.getByTestId('customer-save').click();
      await guest.getByText('คุณไม่มีสิทธิ์ กรุณาติดต่อเจ้าของร้าน').waitFor();
      await guest.getByTestId('dialog-ok').click();
      await guest.goto(url('customer-list'));
      await guest.getByTestId('customer-table').waitFor();
      if (await guest.getByTestId('customer-create').count()) throw new Error('the create button is still shown');

      // The owner sees the new member, and the trail of what happened.
      await page.reload();
      await page.getByTestId('member-table').getByText('malee@example.com').waitFor();
      await page.getByTestId('member-table').locator('tr', { hasText: 'malee@example.com' }).getByText('แก้ไข').click();
      await page.waitForURL('**/1/setting/user-edit/**');
      await page.getByTestId('member-audit').getByText('เข้าร่วมร้าน').waitFor();
    },
  },
  {
    name: 'the owner deactivates a member, who is refused at once',
    run: async ({ page, api, another, base }) => {
      const inv = await api.post('/stores/invitations', { store_id: 1, permission: 'cashier' });
      const guest = await another();
      await guest.goto(`${base}/invitations/${inv.key}`);
      await guest.getByTestId('join-first-name').fill('ปิติ');
      await guest.getByTestId('join-last-name').fill('พักงาน');
      await guest.getByTestId('join-email').fill('piti@example.com');
      await guest.getByTestId('join-password').fill('piti-pass-12');
      await guest.getByTestId('join-register').click();
      await guest.waitForURL('**/choose-store');
      await guest.getByTestId('store-1').getByRole('button').click();
      await guest.waitForURL('**/1/getting-start');

      await page.goto(`${base}/1/setting/user-list?search=piti`);
      await page.getByTestId('member-table').locator('tr', { hasText: 'piti@example.com' }).getByText('แก้ไข').click();
      await page.getByTestId('member-status-select').click();
      await page.locator('.ant-select-item-option', { hasText: 'ระงับการใช้งาน' }).click();
      await page.getByTestId('member-save').click();
      await page.waitForURL('**/1/setting/user-list');

      // The member's next request ends their access to the store, with a clear message.
      await guest.getByTestId('sidebar').getByText('รายชื่อลูกค้า').click();
      await guest.getByText('คุณไม่ได้เป็นสมาชิกของร้านนี้แล้ว กรุณาเลือกร้านอื่นหรือติดต่อเจ้าของร้าน').waitFor();
      await guest.getByTestId('dialog-ok').click();
      await guest.waitForURL('**/choose-store**');
    },
  },
];
