import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { serveBy, type Reply, refusal } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import BranchFormPage from './BranchFormPage';
import CashierFormPage from './CashierFormPage';
import PosSettingPage from './PosSettingPage';
import PosUnitFormPage from './PosUnitFormPage';
import SellerFormPage from './SellerFormPage';

// A small address book instead of the whole kingdom's: the autocomplete works the same.
jest.mock('@/shared/thai-address', () => ({
  ...jest.requireActual('@/shared/thai-address'),
  loadThaiAddresses: () =>
    Promise.resolve([
      { subDistrict: 'ปทุมวัน', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' },
      { subDistrict: 'สีลม', district: 'บางรัก', province: 'กรุงเทพมหานคร', postcode: '10500' },
    ]),
}));

// antd tables, selects and forms render slowly in jsdom.
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

// The session is kept in localStorage; every test starts signed out.
beforeEach(() => localStorage.clear());

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const WAREHOUSES = list([
  { id: 1, code: 'MAIN', name: 'คลังหลัก', is_default: true, created_at: '2026-11-01T00:00:00Z' },
  { id: 2, code: 'SIAM', name: 'คลังสยาม', is_default: false, created_at: '2026-11-01T00:00:00Z' },
]);
const MAIN = {
  id: 1,
  branch_no: '00000',
  is_main: true,
  name: 'สำนักงานใหญ่',
  tax_id: '1234567890121',
  warehouse_id: 1,
  address: '1 ถนนสีลม',
  sub_district: 'สีลม',
  district: 'บางรัก',
  state_province: 'กรุงเทพมหานคร',
  postcode: '10500',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};
const POS_UNIT = { id: 5, pos_no: 'POS-01', branch_id: 1, branch_no: '00000', branch_name: 'สำนักงานใหญ่', warehouse_id: 0, effective_warehouse_id: 1, created_at: '', updated_at: '' };
const person = (id: number, userId: number, extra: Record<string, unknown> = {}) => ({
  id,
  user_id: userId,
  first_name: 'สมหญิง',
  last_name: 'ขายดี',
  name: 'สมหญิง ขายดี',
  email: 'somying@example.com',
  branch_id: 1,
  branch_no: '00000',
  branch_name: 'สำนักงานใหญ่',
  tel: '',
  code: '',
  status: 'active',
  created_at: '',
  updated_at: '',
  ...extra,
});

/** The store's setup as the gateway answers it, with `over` answering first. */
function serve(setup: { branches?: unknown[]; posUnits?: unknown[]; cashiers?: unknown[]; sellers?: unknown[] }, over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/wms/warehouses') return WAREHOUSES;
    if (method === 'GET' && path === '/stores/1/branches') return list(setup.branches ?? []);
    if (method === 'GET' && path === '/stores/1/pos-units') return list(setup.posUnits ?? []);
    if (method === 'GET' && path === '/stores/1/cashiers') return list(setup.cashiers ?? []);
    if (method === 'GET' && path === '/stores/1/sellers') return list(setup.sellers ?? []);
    return { status: 404, body: { error: { code: 'not_found', message_key: 'x', message: 'x' } } };
  });
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  const store = signedInStore(permission, permissions);
  render(
    <Provider store={store}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/pos-setting" element={<PosSettingPage />} />
          <Route path="/:storeId/pos-setting/branch-receipt" element={<BranchFormPage />} />
          <Route path="/:storeId/pos-setting/branch-receipt/:branchId/edit" element={<BranchFormPage />} />
          <Route path="/:storeId/pos-setting/pos-unit/create" element={<PosUnitFormPage />} />
          <Route path="/:storeId/pos-setting/cashier/create" element={<CashierFormPage />} />
          <Route path="/:storeId/pos-setting/seller/:sellerId/edit" element={<SellerFormPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

/** The text box of a field (antd's autocomplete puts the test id on its wrapper). */
function box(testId: string): HTMLInputElement {
  const el = screen.getByTestId(testId);
  return (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? el : el.querySelector('input')) as HTMLInputElement;
}

async function choose(testId: string, option: string) {
  const select = screen.getByTestId(testId).closest('.ant-select') as HTMLElement;
  await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
  const options = await screen.findAllByText(option);
  await userEvent.click(options.find((o) => o.closest('.ant-select-item-option')) ?? options[options.length - 1]);
}

/** Everything a branch needs but its number and tax id. */
async function fillBranch() {
  fireEvent.change(box('field-name'), { target: { value: 'สาขาสยาม' } });
  await choose('field-warehouseId', 'คลังสยาม');
  fireEvent.change(box('field-address'), { target: { value: '99 ถนนพระราม 1' } });
  // Picking a sub-district from the Thai address list fills the district, province and postcode.
  fireEvent.change(box('field-subDistrict'), { target: { value: 'ปทุม' } });
  const picks = await screen.findAllByText('ปทุมวัน » ปทุมวัน » กรุงเทพมหานคร » 10330');
  await userEvent.click(picks.find((o) => o.classList.contains('ant-select-item-option-content')) ?? picks[0]);
  await waitFor(() => expect(box('field-postcode').value).toBe('10330'));
}

describe('branch form', () => {
  it('explains a wrong number and a bad tax id without calling the API', async () => {
    const sent = serve({ branches: [MAIN] });
    renderAt('/1/pos-setting/branch-receipt');
    await fillBranch();
    fireEvent.change(box('field-branchNo'), { target: { value: '12' } });
    fireEvent.change(box('field-taxId'), { target: { value: '1-2345-67890-12-2' } });
    await userEvent.click(screen.getByTestId('branch-save'));
    expect(await screen.findByText('A branch number has exactly 5 digits')).toBeInTheDocument();
    expect(screen.getByText('Not a valid tax ID (13 digits with its check digit)')).toBeInTheDocument();
    fireEvent.change(box('field-branchNo'), { target: { value: '00000' } });
    expect(await screen.findByText("The head office is branch 00000, and 00000 is the head office's number only")).toBeInTheDocument();
    expect(screen.getByText('This store already has a head office: 00000 · สำนักงานใหญ่')).toBeInTheDocument();
    expect(sent.filter((s) => s.method !== 'GET')).toHaveLength(0);
  });

  it('shows the server\'s duplicate number under the number, and its other refusals under their fields', async () => {
    let posts = 0;
    const sent = serve({ branches: [MAIN] }, (method, path) => {
      if (method !== 'POST' || path !== '/stores/1/branches') return undefined;
      posts += 1;
      return posts === 1 ? refusal(409, 'branch_number_duplicate') : refusal(422, 'validation_failed', [{ field: 'warehouse_id', code: 'validation.warehouse_unknown' }, { field: 'tax_id', code: 'validation.tax_id' }]);
    });
    renderAt('/1/pos-setting/branch-receipt');
    await fillBranch();
    fireEvent.change(box('field-branchNo'), { target: { value: '00001' } });
    fireEvent.change(box('field-taxId'), { target: { value: '1-2345-67890-12-1' } });
    await userEvent.click(screen.getByTestId('branch-save'));
    const number = screen.getByTestId('field-branchNo').closest('.ant-form-item') as HTMLElement;
    expect(await within(number).findByText('The store already has a branch with this number')).toBeInTheDocument();
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST')!.body);
    expect(Object.fromEntries(body)).toMatchObject({ is_main: 'false', branch_no: '00001', tax_id: '1234567890121', warehouse_id: '2', name: 'สาขาสยาม', sub_district: 'ปทุมวัน', state_province: 'กรุงเทพมหานคร', postcode: '10330' });

    await userEvent.click(screen.getByTestId('branch-save'));
    const warehouse = screen.getByTestId('field-warehouseId').closest('.ant-form-item') as HTMLElement;
    expect(await within(warehouse).findByText("Not one of the store's warehouses")).toBeInTheDocument();
    const taxId = screen.getByTestId('field-taxId').closest('.ant-form-item') as HTMLElement;
    expect(within(taxId).getByText('Not a valid tax ID (13 digits with its check digit)')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/1/pos-setting/branch-receipt');
  });

  it('fills and locks 00000 for the main branch, then goes back to the branches', async () => {
    const sent = serve({}, (method) => (method === 'POST' ? { status: 201, body: MAIN } : undefined));
    renderAt('/1/pos-setting/branch-receipt');
    await userEvent.click(screen.getByTestId('branch-main'));
    await waitFor(() => expect(box('field-branchNo').value).toBe('00000'));
    expect(box('field-branchNo')).toBeDisabled();
    await fillBranch();
    fireEvent.change(box('field-taxId'), { target: { value: '1234567890121' } });
    await userEvent.click(screen.getByTestId('branch-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/pos-setting?tab=branches'));
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST')!.body);
    expect([body.get('is_main'), body.get('branch_no')]).toEqual(['true', '00000']);
  });
});

describe('the setup lists', () => {
  it('show a member without store.* every list, read-only', async () => {
    serve({ branches: [MAIN], posUnits: [POS_UNIT], cashiers: [person(3, 7)], sellers: [person(4, 0, { tel: '0812345678', code: 'S01' })] });
    renderAt('/1/pos-setting', 'cashier', ['store.customer.read']);
    expect(await screen.findByText('1-2345-67890-12-1')).toBeInTheDocument();
    expect(screen.getByTestId('branch-main-1')).toHaveTextContent('Head office');
    expect(screen.getByText('1 ถนนสีลม สีลม บางรัก กรุงเทพมหานคร 10500')).toBeInTheDocument();
    expect(screen.getAllByText('คลังหลัก').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('branch-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('branch-1-edit')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('pos-tab-sellers'));
    expect(await screen.findByText('0812345678')).toBeInTheDocument();
    // The branch by its own name, not the seller's.
    expect(within(screen.getByTestId('seller-table')).getByText('00000 · สำนักงานใหญ่')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/1/pos-setting?tab=sellers');
    expect(screen.queryByTestId('seller-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('seller-4-delete')).not.toBeInTheDocument();
  });

  it('lead the owner to the main branch first, and hold the rest until a branch exists', async () => {
    serve({});
    renderAt('/1/pos-setting');
    expect(await screen.findByText('No branches yet')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('branch-create-main'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/pos-setting/branch-receipt?main=1'));
    expect(screen.getByTestId('branch-main')).toBeChecked();
    expect(box('field-branchNo').value).toBe('00000');
  });

  it('open on the tab the link names, with adding disabled while there is no branch', async () => {
    serve({});
    renderAt('/1/pos-setting?tab=cashiers');
    expect(await screen.findByTestId('pos-need-branch')).toHaveTextContent('Add a branch first');
    await waitFor(() => expect(screen.getByTestId('cashier-create')).toBeDisabled());
  });

  it('say why a branch in use stays', async () => {
    serve({ branches: [MAIN], posUnits: [POS_UNIT] }, (method) => (method === 'DELETE' ? refusal(409, 'branch_in_use') : undefined));
    renderAt('/1/pos-setting');
    await userEvent.click(await screen.findByTestId('branch-1-delete'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Delete the branch "00000 · สำนักงานใหญ่"?');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(await screen.findByText('This branch still has POS units, cashiers or sellers; move them to another branch or delete them first, then delete the branch.')).toBeInTheDocument();
    expect(screen.getByTestId('dialog-title')).toHaveTextContent('The branch "00000 · สำนักงานใหญ่" cannot be deleted');
  });
});

describe('POS unit, cashier and seller forms', () => {
  it('checks a POS number and shows a duplicate under it', async () => {
    const sent = serve({ branches: [MAIN] }, (method) => (method === 'POST' ? refusal(409, 'pos_number_duplicate') : undefined));
    renderAt('/1/pos-setting/pos-unit/create');
    // The store's only branch is picked.
    expect(await screen.findByText('00000 · สำนักงานใหญ่')).toBeInTheDocument();
    fireEvent.change(box('field-posNo'), { target: { value: 'POS 1' } });
    await userEvent.click(screen.getByTestId('pos-unit-save'));
    expect(await screen.findByText('A POS number has only letters, digits and dashes')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    fireEvent.change(box('field-posNo'), { target: { value: 'POS-01' } });
    await userEvent.click(screen.getByTestId('pos-unit-save'));
    expect(await screen.findByText('The store already has a POS unit with this number')).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(sent.find((s) => s.method === 'POST')!.body))).toEqual({ pos_no: 'POS-01', branch_id: '1', warehouse_id: '0' });
  });

  it('makes an active member a cashier, the member\'s names and email filled in', async () => {
    const members = list([
      { user_id: 1, first_name: 'เจ้าของ', last_name: 'ร้าน', name: 'เจ้าของ ร้าน', email: 'owner@example.com', permission: 'owner', is_cashier: false },
      { user_id: 7, first_name: 'สมหญิง', last_name: 'ขายดี', name: 'สมหญิง ขายดี', email: 'somying@example.com', permission: 'cashier', is_cashier: true },
    ]);
    const sent = serve({ branches: [MAIN], cashiers: [person(3, 7)] }, (method, path) => {
      if (path === '/stores/1/cashier-members') return members;
      if (method === 'POST') return { status: 201, body: person(4, 1) };
      return undefined;
    });
    renderAt('/1/pos-setting/cashier/create');
    await choose('field-userId', 'เจ้าของ ร้าน (owner@example.com)');
    await waitFor(() => expect(box('field-firstName').value).toBe('เจ้าของ'));
    expect(box('field-email').value).toBe('owner@example.com');
    fireEvent.change(box('field-lastName'), { target: { value: 'ใจดี' } });
    await userEvent.click(screen.getByTestId('cashier-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/pos-setting?tab=cashiers'));
    expect(Object.fromEntries(new URLSearchParams(sent.find((s) => s.method === 'POST')!.body))).toEqual({
      first_name: 'เจ้าของ',
      last_name: 'ใจดี',
      email: 'owner@example.com',
      branch_id: '1',
      user_id: '1',
    });
    // The members come from the list made for choosing cashiers, not the team list (user.*).
    expect(sent.some((s) => s.url.startsWith('/api/user'))).toBe(false);
    expect(sent.some((s) => s.url === '/api/stores/1/cashier-members')).toBe(true);
  });

  it('changes a seller\'s phone and status, a wrong phone refused first', async () => {
    const sent = serve({ branches: [MAIN] }, (method, path) => {
      if (path !== '/stores/1/sellers/4') return undefined;
      return method === 'GET' ? { status: 200, body: person(4, 0) } : { status: 200, body: person(4, 0, { tel: '0812345678', status: 'inactive' }) };
    });
    renderAt('/1/pos-setting/seller/4/edit');
    await waitFor(() => expect(box('field-firstName').value).toBe('สมหญิง'));
    fireEvent.change(box('field-tel'), { target: { value: '0812' } });
    await userEvent.click(screen.getByTestId('seller-save'));
    expect(await screen.findByText('A phone number has 9 or 10 digits')).toBeInTheDocument();
    fireEvent.change(box('field-tel'), { target: { value: '081-234-5678' } });
    await userEvent.click(screen.getByTestId('seller-status-inactive'));
    await userEvent.click(screen.getByTestId('seller-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/pos-setting?tab=sellers'));
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')!.body)).toEqual({
      first_name: 'สมหญิง',
      last_name: 'ขายดี',
      email: 'somying@example.com',
      branch_id: 1,
      tel: '081-234-5678',
      code: '',
      status: 'inactive',
    });
  });
});
