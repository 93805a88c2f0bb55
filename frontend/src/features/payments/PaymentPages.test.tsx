import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { serveBy, type Reply, refusal } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import PaymentFormPage from './PaymentFormPage';
import PaymentListPage from './PaymentListPage';
import { fastComputedStyle } from '@/shared/testing/fastStyles';

// antd tables, selects and forms render slowly in jsdom.
fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const KBANK = { code: '004', short: 'KBANK', name_th: 'ธนาคารกสิกรไทย', name_en: 'Kasikornbank', color: '#138f2d' };
const SCB = { code: '014', short: 'SCB', name_th: 'ธนาคารไทยพาณิชย์', name_en: 'Siam Commercial Bank', color: '#4e2e7f' };
const BANKS = list([KBANK, SCB]);
const COUNTRIES = list([{ code: 'TH', name_th: 'ไทย', name_en: 'Thailand' }]);
const blank = { country: '', bank_code: '', acc_name: '', acc_no: '', branch: '', email: '', fee: '0.00' };
const account = (id: number, type: string, credential: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  id,
  channel: { type },
  credential: { ...blank, ...credential },
  bank: type === 'bank' ? KBANK : null,
  status: 'active',
  open_bills: 0,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...extra,
});
const BANK = account(1, 'bank', { country: 'TH', bank_code: '004', acc_name: 'ร้านดี', acc_no: '1234567890', branch: 'สีลม' }, { open_bills: 2 });
const PROMPTPAY = account(2, 'promptpay', { acc_name: 'ร้านดี', acc_no: '0812345678' });
const PAYPAL = account(3, 'paypal', { email: 'shop@example.com', fee: '4.40' });
const COD = account(4, 'cod', { acc_name: 'ร้านดี', acc_no: '9876543210' }, { status: 'inactive' });
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

function serve(accounts: unknown[], over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/payments/') return BANKS;
    if (path === '/payments/countries') return COUNTRIES;
    if (method === 'GET' && path === '/payments/store-channels') return list(accounts);
    const one = /^\/payments\/store-channels\/(\d+)$/.exec(path);
    if (method === 'GET' && one) return { status: 200, body: (accounts as { id: number }[]).find((a) => a.id === Number(one[1])) };
    if (/promptpay-qr$/.test(path)) return { status: 200, body: { payload: '000201', svg: SVG, acc_name: 'ร้านดี', masked_id: 'xxxxxx5678', amount: '' } };
    return { status: 404, body: { error: { code: 'not_found', message_key: 'x', message: 'x' } } };
  });
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  render(
    <Provider store={signedInStore(permission, permissions)}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/setting/payment-list" element={<PaymentListPage />} />
          <Route path="/:storeId/setting/payment-create" element={<PaymentFormPage />} />
          <Route path="/:storeId/setting/payment-edit/:channelId" element={<PaymentFormPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

async function choose(testId: string, option: string) {
  const select = screen.getByTestId(testId).closest('.ant-select') as HTMLElement;
  await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
  const options = await screen.findAllByText(option);
  await userEvent.click(options.find((o) => o.closest('.ant-select-item-option')) ?? options[options.length - 1]);
}

const item = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;

describe('the payment account list', () => {
  it('shows each kind on its tab, banks with their badge, and turns an account off', async () => {
    const sent = serve([BANK, PROMPTPAY, PAYPAL, COD], (method, path) => (method === 'PATCH' && path === '/payments/store-channels/1' ? { status: 200, body: { ...BANK, status: 'inactive' } } : undefined));
    renderAt('/1/setting/payment-list');
    const table = await screen.findByTestId('payment-table-bank');
    expect(await within(table).findByText('123-4-56789-0')).toBeInTheDocument();
    expect(within(table).getByTestId('bank-badge-004')).toHaveTextContent('KBANK');
    expect(within(table).getByText('Kasikornbank')).toBeInTheDocument();
    expect(within(table).getByText('2 open bills')).toBeInTheDocument();
    expect(screen.getByTestId('payment-tab-cod')).toHaveTextContent('Cash on delivery (COD) (1)');
    await userEvent.click(screen.getByTestId('payment-1-status'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')!.body)).toEqual({ status: 'inactive' });

    await userEvent.click(screen.getByTestId('payment-tab-paypal'));
    expect(await screen.findByText('shop@example.com')).toBeInTheDocument();
    expect(screen.getByText('4.40%')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/payment-list?tab=paypal');
  });

  it('shows a PromptPay account\'s QR as an image, for any amount or the one typed', async () => {
    const sent = serve([PROMPTPAY]);
    renderAt('/1/setting/payment-list?tab=promptpay');
    expect(await screen.findByText('081-234-5678')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('payment-2-qr'));
    const img = await screen.findByTestId('qr-image');
    expect(img.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`);
    expect(screen.getByTestId('qr-amount')).toHaveTextContent('The payer enters the amount');
    expect(screen.getByTestId('qr-id')).toHaveTextContent('PromptPay xxxxxx5678');
    fireEvent.change(screen.getByTestId('qr-amount-input'), { target: { value: '12.345' } });
    await userEvent.click(screen.getByTestId('qr-apply'));
    expect(await screen.findByText('Not an amount in baht (above zero, at most two decimals)')).toBeInTheDocument();
    expect(sent.filter((s) => s.url.includes('amount='))).toHaveLength(0);
    fireEvent.change(screen.getByTestId('qr-amount-input'), { target: { value: '12.50' } });
    await userEvent.click(screen.getByTestId('qr-apply'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/payments/store-channels/2/promptpay-qr?amount=12.50')).toBe(true));
  });

  it('says why an account that open bills point at stays', async () => {
    serve([BANK], (method) => (method === 'DELETE' ? refusal(409, 'payment_channel_in_use') : undefined));
    renderAt('/1/setting/payment-list');
    await userEvent.click(await screen.findByTestId('payment-1-delete'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Delete the account ร้านดี (123-4-56789-0)?');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(await screen.findByText(/Open bills still point at this account/)).toBeInTheDocument();
    expect(screen.getByTestId('dialog-title')).toHaveTextContent('ร้านดี (123-4-56789-0) cannot be deleted');
  });

  it('turns every COD account on or off at once', async () => {
    const sent = serve([COD], (method) => (method === 'PATCH' ? { status: 200, body: { changed: 1 } } : undefined));
    renderAt('/1/setting/payment-list?tab=cod');
    await userEvent.click(await screen.findByTestId('cod-all-on'));
    expect(await screen.findByText('1 COD account turned on')).toBeInTheDocument();
    const patch = sent.find((s) => s.method === 'PATCH')!;
    expect(patch.url).toBe('/api/payments/store-channels?channel.type=cod');
    expect(JSON.parse(patch.body)).toEqual({ status: 'active' });
  });

  it('shows a member without the right every account, read-only', async () => {
    serve([BANK, PROMPTPAY]);
    renderAt('/1/setting/payment-list', 'admin', ['store.*']);
    expect(await screen.findByText('123-4-56789-0')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('payment-1-edit')).not.toBeInTheDocument();
    expect(screen.getByTestId('payment-1-status')).toBeDisabled();
  });
});

describe('the payment account form', () => {
  it('asks a bank account\'s fields, and shows a duplicate number under the number in SPEC §8\'s words', async () => {
    const sent = serve([], (method) => (method === 'POST' ? refusal(409, 'account_number_duplicate') : undefined));
    renderAt('/1/setting/payment-create?type=bank');
    fireEvent.change(await screen.findByTestId('field-accNo'), { target: { value: '12345' } });
    await userEvent.click(screen.getByTestId('payment-save'));
    expect(await within(item('field-accNo')).findByText('An account number has 10 to 20 digits')).toBeInTheDocument();
    expect(await within(item('field-bankCode')).findByText('This field is required')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);

    await choose('field-bankCode', 'Siam Commercial Bank');
    fireEvent.change(screen.getByTestId('field-accName'), { target: { value: 'ร้านดี' } });
    fireEvent.change(screen.getByTestId('field-accNo'), { target: { value: '123-4-56789-0' } });
    fireEvent.change(screen.getByTestId('field-branch'), { target: { value: 'สีลม' } });
    await userEvent.click(screen.getByTestId('payment-save'));
    expect(await within(item('field-accNo')).findByText('Account Number has already existed.')).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(sent.find((s) => s.method === 'POST')!.body))).toEqual({
      channel_type: 'bank',
      country: 'TH',
      bank_code: '014',
      acc_name: 'ร้านดี',
      acc_no: '1234567890',
      branch: 'สีลม',
      status: 'active',
    });
    expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/payment-create');
  });

  it('follows the chosen kind: PayPal sends its email and fee only', async () => {
    const sent = serve([], (method) => (method === 'POST' ? { status: 201, body: PAYPAL } : undefined));
    renderAt('/1/setting/payment-create');
    await userEvent.click(await screen.findByText('PayPal'));
    // The form watches the chosen kind, and its fields follow on a later render.
    await waitFor(() => expect(screen.queryByTestId('field-accName')).not.toBeInTheDocument());
    fireEvent.change(await screen.findByTestId('field-email'), { target: { value: 'shop@example.com' } });
    fireEvent.change(screen.getByTestId('field-fee'), { target: { value: '4.444' } });
    await userEvent.click(screen.getByTestId('payment-save'));
    expect(await screen.findByText('A fee is a percentage from 0 to 100 with at most two decimals')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('field-fee'), { target: { value: '4.4' } });
    await userEvent.click(screen.getByTestId('payment-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/payment-list?tab=paypal'));
    expect(Object.fromEntries(new URLSearchParams(sent.find((s) => s.method === 'POST')!.body))).toEqual({ channel_type: 'paypal', email: 'shop@example.com', fee: '4.4', status: 'active' });
  });

  it('puts the service\'s field rules under their fields', async () => {
    serve([], (method) => (method === 'POST' ? refusal(422, 'validation_failed', [{ field: 'acc_no', code: 'validation.promptpay_id' }]) : undefined));
    renderAt('/1/setting/payment-create?type=promptpay');
    fireEvent.change(await screen.findByTestId('field-accName'), { target: { value: 'ร้านดี' } });
    fireEvent.change(screen.getByTestId('field-accNo'), { target: { value: '0812345678' } });
    await userEvent.click(screen.getByTestId('payment-save'));
    expect(await within(item('field-accNo')).findByText('A PromptPay ID is a 10-digit mobile number or a 13-digit ID number')).toBeInTheDocument();
  });

  it('keeps the kind on edit, sends only what the kind has, and shows a PromptPay account\'s QR', async () => {
    const sent = serve([PROMPTPAY], (method) => (method === 'PATCH' ? { status: 200, body: PROMPTPAY } : undefined));
    renderAt('/1/setting/payment-edit/2');
    await waitFor(() => expect((screen.getByTestId('field-accNo') as HTMLInputElement).value).toBe('0812345678'));
    expect(screen.getByTestId('field-channelType')).toHaveTextContent('PromptPay');
    expect(await screen.findByTestId('qr-image')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('field-accNo'), { target: { value: '1-2345-67890-12-1' } });
    await userEvent.click(screen.getByTestId('field-active'));
    await userEvent.click(screen.getByTestId('payment-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/payment-list?tab=promptpay'));
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')!.body)).toEqual({ acc_name: 'ร้านดี', acc_no: '1234567890121', status: 'inactive' });
  });
});
