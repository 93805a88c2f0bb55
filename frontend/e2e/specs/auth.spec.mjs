// Signing in, picking the store, signing out (SPEC §2).
import { login, signIn } from '../fixtures.mjs';

export const tests = [
  {
    name: 'login page in Thai',
    as: null,
    run: async ({ page, base }) => {
      await page.goto(`${base}/login`);
      await page.getByRole('heading', { name: 'เข้าสู่ระบบ' }).waitFor();
    },
  },
  {
    name: 'sign in and see the store picker',
    as: null,
    run: async ({ page, base }) => {
      await signIn(page, base, 'owner');
      await page.getByText('ร้านใจดี ออนไลน์').waitFor();
    },
  },
  {
    name: 'choose the demo store',
    as: null,
    run: async ({ page, base }) => {
      await signIn(page, base, 'owner');
      await page.getByTestId('store-1').getByRole('button').click();
      await page.waitForURL('**/1/getting-start');
      await page.getByTestId('getting-start').waitFor();
    },
  },
  {
    name: 'log out from the user menu, then sign in as another member',
    as: null,
    run: async ({ page, base }) => {
      await login(page, base, 'owner');
      await page.getByTestId('user-menu').click();
      await page.getByText('ออกจากระบบ').click();
      await page.waitForURL('**/login');
      await login(page, base, 'reader');
    },
  },
];
