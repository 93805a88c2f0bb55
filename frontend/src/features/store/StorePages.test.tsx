import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { serveBy } from '@/shared/testing/fakeApi';
import GettingStartPage from './GettingStartPage';
import SettingIndexPage from './SettingIndexPage';
import StoreDetailPage from './StoreDetailPage';
import StoreEditPage from './StoreEditPage';
import { signedInStore } from '@/shared/testing/session';

// antd forms render slowly in jsdom.
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });
beforeEach(() => localStorage.clear());

const STORE = {
  id: 1,
  name: 'ร้านดีมีสุข',
  address: '9 ถนนพหลโยธิน',
  sub_district: 'สามเสนใน',
  district: 'พญาไท',
  province: 'กรุงเทพมหานคร',
  postcode: '10400',
  tel: '021234567',
  vat_included: true,
  menu_hiding_list: [],
  getting_started: { payment: false, logistic: false, product: false, goods_receipt: false },
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-20T00:00:00Z',
};
const AUDIT = {
  data: [{ id: 3, actor_user_id: 1, actor_name: 'เจ้าของ', action: 'store.updated', subject_type: 'store', subject_id: 1, subject_user_id: 0, detail: { tel: ['', '021234567'] }, created_at: '2026-11-20T00:00:00Z' }],
  total: 1,
  limit: 10,
  page: 1,
  pages: 1,
};

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  const store = signedInStore(permission, permissions);
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/getting-start" element={<GettingStartPage />} />
          <Route path="/:storeId/setting" element={<SettingIndexPage />} />
          <Route path="/:storeId/setting/store-detail" element={<StoreDetailPage />} />
          <Route path="/:storeId/setting/store-edit" element={<StoreEditPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('store details', () => {
  it('shows the owner the details, the edit button and the last changes', async () => {
    serveBy((_, path) => (path === '/stores/1/audit' ? { status: 200, body: AUDIT } : { status: 200, body: STORE }));
    renderAt('/1/setting/store-detail');
    expect(await screen.findByTestId('store-name')).toHaveTextContent('ร้านดีมีสุข');
    expect(screen.getByText('9 ถนนพหลโยธิน สามเสนใน พญาไท กรุงเทพมหานคร 10400')).toBeInTheDocument();
    expect(screen.getByText('Prices include VAT')).toBeInTheDocument();
    expect(screen.getByTestId('store-edit-open')).toBeInTheDocument();
    expect(await screen.findByTestId('store-audit')).toHaveTextContent('เจ้าของ · Changed the store: phone – → 021234567');
  });

  it('shows a cashier the details only', async () => {
    const sent = serveBy(() => ({ status: 200, body: STORE }));
    renderAt('/1/setting/store-detail', 'cashier', ['store.customer.read']);
    await screen.findByTestId('store-name');
    expect(screen.queryByTestId('store-edit-open')).not.toBeInTheDocument();
    expect(screen.queryByText('Recent changes')).not.toBeInTheDocument();
    expect(sent.some((s) => s.url.includes('/audit'))).toBe(false);
  });
});

describe('store edit', () => {
  it('sends the store address as the API names it and shows a refusal under its field', async () => {
    const sent = serveBy((method) =>
      method === 'PUT'
        ? { status: 422, body: { error: { code: 'validation_failed', message_key: 'x', message: 'x', fields: [{ field: 'tel', code: 'validation.phone_digits' }] } } }
        : { status: 200, body: STORE },
    );
    renderAt('/1/setting/store-edit');
    await waitFor(() => expect((screen.getByTestId('field-name') as HTMLInputElement).value).toBe('ร้านดีมีสุข'));
    expect(screen.queryByTestId('address-international')).not.toBeVisible();
    fireEvent.change(screen.getByTestId('field-tel'), { target: { value: '0212' } });
    await userEvent.click(screen.getByTestId('store-save'));
    expect(await screen.findByText('A phone number has 9 or 10 digits')).toBeInTheDocument();
    const put = sent.find((s) => s.method === 'PUT')!;
    expect(JSON.parse(put.body)).toMatchObject({ name: 'ร้านดีมีสุข', province: 'กรุงเทพมหานคร', sub_district: 'สามเสนใน', tel: '0212', vat_included: true });
  });
});

describe('settings index', () => {
  it('lists what the member may open', async () => {
    serveBy(() => ({ status: 200, body: STORE }));
    renderAt('/1/setting', 'admin', ['user.*']);
    expect(await screen.findByTestId('setting-user-list')).toBeInTheDocument();
    expect(screen.getByTestId('setting-store-detail')).toBeInTheDocument();
    expect(screen.queryByTestId('setting-role-permission-list')).not.toBeInTheDocument();
  });
});

describe('getting started', () => {
  it('links the payment and shipping steps to their screens, for the member who may open them', async () => {
    serveBy(() => ({ status: 200, body: { payment: true, logistic: false, product: false, goods_receipt: false } }));
    renderAt('/1/getting-start');
    expect(await screen.findByTestId('step-payment-go')).toHaveAttribute('href', '/1/setting/payment-list');
    // The links show before the steps' state has arrived; then a done step says Manage.
    await waitFor(() => expect(screen.getByTestId('step-payment-go')).toHaveTextContent('Manage'));
    expect(screen.getByTestId('step-logistic-go')).toHaveAttribute('href', '/1/setting/logistic');
    expect(screen.getByTestId('step-logistic-go')).toHaveTextContent('Set up');
    expect(screen.queryByTestId('step-product-go')).not.toBeInTheDocument();
  });

  it('shows the steps without links to a member without those rights', async () => {
    serveBy(() => ({ status: 200, body: { payment: false, logistic: false, product: false, goods_receipt: false } }));
    renderAt('/1/getting-start', 'cashier', ['logistic.storeChannel.*']);
    expect(await screen.findByTestId('step-logistic-go')).toBeInTheDocument();
    expect(screen.queryByTestId('step-payment-go')).not.toBeInTheDocument();
  });
});
