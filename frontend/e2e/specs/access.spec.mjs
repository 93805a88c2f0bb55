// A member's rights (SPEC §2 route guard, §6): the reader's role may read customers only.
export const tests = [
  {
    name: 'a member without store.customer.create is sent to access-denied',
    as: 'reader',
    run: async ({ page, url }) => {
      await page.goto(url('customer-create'));
      await page.waitForURL(/\/1\/access-denied\?pathName=/);
      await page.getByTestId('access-denied').getByText('คุณไม่มีสิทธิ์เข้าถึงหน้านี้').waitFor();
    },
  },
  {
    name: 'the reader still sees customers, without the create button',
    as: 'reader',
    run: async ({ page, url }) => {
      await page.goto(url('customer-list'));
      await page.getByText('สมชาย ใจดี').waitFor();
      if ((await page.getByTestId('customer-create').count()) !== 0) throw new Error('the create button is shown');
    },
  },
];
