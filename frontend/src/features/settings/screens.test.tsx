import { fireEvent, render, screen } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import i18n from 'i18next';

import thSettings from '@/locales/th/settings.json';
import IdentityPage from './IdentityPage';
import ReceiptSettingsPage from './ReceiptSettingsPage';
import SafetyStockPage from './SafetyStockPage';
import UnitFormPage from './UnitFormPage';
import { serveBy, serveInTurn as serve } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';


// antd forms render slowly in jsdom (the identity form takes seconds even alone): the
// suite's own timeout applies, which leaves room for the Rust suites running beside it.
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });


function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  const store = signedInStore(permission, permissions);
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/setting/unit-of-measurement-create" element={<UnitFormPage />} />
          <Route path="/:storeId/setting/unit-of-measurement" element={<p>list</p>} />
          <Route path="/:storeId/setting/safety-stock" element={<SafetyStockPage />} />
          <Route path="/:storeId/setting/receipt" element={<ReceiptSettingsPage />} />
          <Route path="/:storeId/setting/additional-info-identity" element={<IdentityPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('unit of measurement form', () => {
  it('checks the fields as the server does', async () => {
    const sent = serve();
    renderAt('/1/setting/unit-of-measurement-create');
    await userEvent.click(screen.getByTestId('unit-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
    fireEvent.change(screen.getByTestId('field-quantity'), { target: { value: '1.5' } });
    expect(await screen.findByText('Not a valid quantity')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('offers the six unit types translated and shows a duplicate name under the name', async () => {
    const sent = serve({ status: 409, body: { error: { code: 'unit_name_duplicate', message_key: 'error.unit_name_duplicate', message: 'x' } } });
    renderAt('/1/setting/unit-of-measurement-create');
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'Pack 6' } });
    fireEvent.change(screen.getByTestId('field-quantity'), { target: { value: '6' } });
    // (getByRole is slow over antd's DOM in jsdom.)
    await userEvent.click(screen.getByTestId('unit-form').querySelector('[role="combobox"]') as HTMLElement);
    for (const label of ['Dozen', 'Pack', 'Carton', 'Box', 'Sack']) expect(await screen.findByText(label)).toBeInTheDocument();
    await userEvent.click(await screen.findByText('Piece'));
    await userEvent.click(screen.getByTestId('unit-save'));
    expect(await screen.findByText('This unit name already exists in the store')).toBeInTheDocument();
    expect(sent[0].url).toMatch(/\/api\/stores\/1\/store-unit-of-measurements$/);
    expect(new URLSearchParams(sent[0].body).get('base_unit')).toBe('piece');
    expect(new URLSearchParams(sent[0].body).get('quantity')).toBe('6');
  });
});

describe('safety stock', () => {
  it('says when none is set and records a new one with one command, separators and all', async () => {
    const sent = serve(
      { status: 404, body: { error: { code: 'safety_stock_not_set', message_key: 'error.safety_stock_not_set', message: 'x' } } },
      { status: 201, body: { id: 1, amount: 1200, created_by: 1, created_at: '2025-01-02T03:04:05Z' } },
      { status: 200, body: { id: 1, amount: 1200, created_by: 1, created_at: '2025-01-02T03:04:05Z' } },
    );
    renderAt('/1/setting/safety-stock');
    expect(await screen.findByTestId('safety-stock-not-set')).toHaveTextContent('Not set yet');
    fireEvent.change(screen.getByTestId('field-amount'), { target: { value: '1,200' } });
    await userEvent.click(screen.getByTestId('safety-stock-save'));
    expect(await screen.findByTestId('safety-stock-amount')).toHaveTextContent('1,200 units');
    // The store records it (and every SKU takes it from the store's event): one request,
    // the number without its separator, never NaN.
    expect(sent[1]).toMatchObject({ method: 'POST', body: 'amount=1200' });
    expect(sent[1].url).toMatch(/\/api\/stores\/store-safety-stock-histories$/);
    expect(sent[2].url).toMatch(/\/api\/stores\/1\/store-safety-stock-histories\/lastest$/);
    expect(sent).toHaveLength(3);
  });

  it('is read-only without store.*', async () => {
    serve({ status: 200, body: { id: 1, amount: 5, created_by: 1, created_at: '2025-01-02T03:04:05Z' } });
    renderAt('/1/setting/safety-stock', 'cashier', ['store.customer.*']);
    expect(await screen.findByTestId('safety-stock-amount')).toHaveTextContent('5 units');
    expect(screen.queryByTestId('safety-stock-form')).toBeNull();
  });
});

describe('bill expiry', () => {
  it('shows the setting in force and saves a new one for later bills', async () => {
    const { serveBy } = await import('@/shared/testing/fakeApi');
    const current = { id: 4, expiry_type: 'by_day', days: 3, hours: 0, minutes: 0, on_expiry: 'cancel_order', created_by: 1, started_at: '2026-11-20T00:00:00Z' };
    const sent = serveBy((method, path) => {
      if (path === '/stores/bill-expire/types') return { status: 200, body: { types: ['no_expiry', 'by_day', 'by_time', 'next_day'], actions: ['cancel_order', 'keep_new'], max_days: 30, max_hours: 72 } };
      if (method === 'POST') return { status: 422, body: { error: { code: 'validation_failed', message_key: 'x', message: 'x', fields: [{ field: 'minutes', code: 'validation.required' }] } } };
      return { status: 200, body: { current, history: [current] } };
    });
    const { default: BillExpiryPage } = await import('./BillExpiryPage');
    const store = signedInStore();
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/1/setting/bill-expiry']}>
          <Routes>
            <Route path="/:storeId/setting/bill-expiry" element={<BillExpiryPage />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    expect(await screen.findByTestId('bill-expiry-current')).toHaveTextContent('Bills made now: 3 days; then: Cancel the order (its stock is released)');
    expect(screen.getByTestId('bill-expiry-history')).toHaveTextContent('3 days');
    await userEvent.click(await screen.findByTestId('bill-expiry-by_time'));
    await userEvent.click(screen.getByTestId('bill-expiry-keep_new'));
    await userEvent.click(screen.getByTestId('bill-expiry-save'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST')!.body);
    expect([body.get('expiry_type'), body.get('on_expiry'), body.get('hours'), body.get('minutes')]).toEqual(['by_time', 'keep_new', '0', '0']);
    expect(body.get('days')).toBeNull();
  });
});

const STORE = {
  id: 1, name: 'ร้านป้าแดง', address: '1 ถนนสีลม', sub_district: 'สีลม', district: 'บางรัก', province: 'กรุงเทพมหานคร',
  postcode: '10500', tel: '021234567', vat_included: true, menu_hiding_list: [], logo_url: '',
  getting_started: { payment: false, logistic: false, product: false, goods_receipt: false }, created_at: '', updated_at: '',
};

const BRANCH = {
  id: 1, branch_no: '00000', is_main: true, name: 'สำนักงานใหญ่', tax_id: '1234567890121', warehouse_id: 1, address: '1',
  sub_district: 'สีลม', district: 'บางรัก', state_province: 'กรุงเทพมหานคร', postcode: '10500', created_at: '', updated_at: '',
};

describe('receipt settings', () => {
  // The receipt prints in Thai whatever the screen's language; the app loads Thai as its
  // fallback, the tests load English only, so Thai joins here.
  beforeAll(() => {
    i18n.addResourceBundle('th', 'settings', thSettings, true, true);
  });
  it('previews a Thai receipt that follows the footer text before it is saved', async () => {
    const sent = serveBy((method, path) => {
      if (path === '/stores/1') return { status: 200, body: STORE };
      if (path === '/stores/1/branches') return { status: 200, body: { data: [BRANCH], total: 1, limit: -1, page: 1, pages: 1 } };
      if (method === 'PUT') return { status: 200, body: { header_photo_url: '', footer_photo_url: '', footer_text: 'ขอบคุณค่ะ', updated_by: 1, updated_at: '' } };
      return { status: 200, body: { header_photo_url: '/api/stores/pictures/1/ab.png', footer_photo_url: '', footer_text: '', updated_by: 0, updated_at: '' } };
    });
    renderAt('/1/setting/receipt');
    const preview = await screen.findByTestId('receipt-preview');
    expect(await screen.findByText('ร้านป้าแดง')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-preview-total')).toHaveTextContent('฿1,288.00');
    expect(preview).toHaveTextContent('ราคารวมภาษีมูลค่าเพิ่มแล้ว');
    expect(screen.getByTestId('receipt-preview-branch')).toHaveTextContent('สำนักงานใหญ่ (สาขา 00000)');
    expect(preview).toHaveTextContent('เลขประจำตัวผู้เสียภาษี 1234567890121');
    expect(screen.getByTestId('receipt-preview-header')).toHaveAttribute('src', '/api/stores/pictures/1/ab.png');
    fireEvent.change(screen.getByTestId('field-footer-text'), { target: { value: 'ขอบคุณค่ะ' } });
    expect(await screen.findByTestId('receipt-preview-text')).toHaveTextContent('ขอบคุณค่ะ');
    await userEvent.click(screen.getByTestId('receipt-save'));
    expect(await screen.findByText('Receipt text saved')).toBeInTheDocument();
    const put = sent.find((r) => r.method === 'PUT');
    expect(put?.url).toBe('/api/stores/1/settings/receipt');
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ footer_text: 'ขอบคุณค่ะ' });
  });

  it('refuses a picture of the wrong type before sending it', async () => {
    const sent = serveBy((_m, path) => (path === '/stores/1' ? { status: 200, body: STORE } : path === '/stores/1/branches' ? { status: 200, body: { data: [], total: 0, limit: -1, page: 1, pages: 1 } } : { status: 200, body: { header_photo_url: '', footer_photo_url: '', footer_text: '', updated_by: 0, updated_at: '' } }));
    renderAt('/1/setting/receipt');
    const input = (await screen.findByTestId('receipt-header-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'menu.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('The picture must be a .jpg, .jpeg or .png file')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('identity verification', () => {
  const PENDING = {
    status: 'pending', first_name: '', last_name: '', tel: '', email: '', address: '', sub_district: '', district: '',
    state_province: '', postcode: '', has_id_card_photo: false, has_holding_photo: false, submitted_at: '', approved_at: '',
  };

  it('shows where the store stands and asks for both photos and a digits-only phone, sending nothing', async () => {
    const sent = serveBy(() => ({ status: 200, body: PENDING }));
    renderAt('/1/setting/additional-info-identity');
    expect(await screen.findByTestId('identity-status')).toHaveAttribute('data-status', 'pending');
    fireEvent.change(screen.getByTestId('field-tel'), { target: { value: '081-234-5678' } });
    await userEvent.click(screen.getByTestId('identity-submit'));
    expect(await screen.findByText('A phone number has 9 or 10 digits')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('fills in what was submitted and asks for both photos before sending', async () => {
    const sent = serveBy(() => ({
      status: 200,
      body: { ...PENDING, status: 'submitted', first_name: 'สมชาย', last_name: 'ใจดี', tel: '0812345678', email: 'a@example.com', address: '1', sub_district: 'สีลม', district: 'บางรัก', state_province: 'กรุงเทพมหานคร', postcode: '10500', submitted_at: '2026-01-02T03:04:05Z' },
    }));
    renderAt('/1/setting/additional-info-identity');
    expect(await screen.findByTestId('identity-status')).toHaveAttribute('data-status', 'submitted');
    expect(screen.getByTestId('field-first-name')).toHaveValue('สมชาย');
    fireEvent.change(screen.getByTestId('identity-id-card-input'), { target: { files: [new File(['x'], 'card.heic', { type: '' })] } });
    expect(await screen.findByText('The picture must be a .jpg, .jpeg or .png file')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('identity-submit'));
    expect(await screen.findAllByText('A picture is required')).toHaveLength(2);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});
