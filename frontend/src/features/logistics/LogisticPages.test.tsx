import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { serveBy, type Reply, refusal } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import LogisticFormPage from './LogisticFormPage';
import LogisticListPage from './LogisticListPage';

// antd tables, selects and forms render slowly in jsdom.
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const WAREHOUSES = list([
  { id: 1, code: 'MAIN', name: 'คลังหลัก', is_default: true, created_at: '2026-11-01T00:00:00Z' },
  { id: 2, code: 'SIAM', name: 'คลังสยาม', is_default: false, created_at: '2026-11-01T00:00:00Z' },
]);
const carrier = (provider_name: string, name_en: string, shipment_type: string, cod = false) => ({ provider_name, carrier: provider_name, name_th: name_en, name_en, shipment_type, cod });
const THAIPOST = carrier('thaipost', 'Thailand Post', 'domestic', true);
const KERRY = carrier('kerry', 'Kerry Express', 'domestic');
const EMS = carrier('ems_world_package', 'EMS World package', 'international');
const CARRIERS = list([THAIPOST, carrier('flash', 'Flash Express', 'domestic', true), KERRY, EMS]);
const channel = (id: number, extra: Record<string, unknown>) => ({
  id,
  warehouse_id: 1,
  logistic_type: 'domestic',
  name: 'ส่งด่วน',
  provider_name: 'kerry',
  provider: KERRY,
  pricing_method: 'flat',
  price: '50.00',
  brackets: [],
  free_over: '0.00',
  cod: false,
  international: false,
  status: 'active',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...extra,
});
const BY_WEIGHT = channel(1, {
  name: 'ไปรษณีย์ EMS',
  provider_name: 'thaipost',
  provider: THAIPOST,
  pricing_method: 'weight',
  price: '0.00',
  brackets: [
    { max_weight: '1.000', max_weight_g: 1000, price: '38.00' },
    { max_weight: '5.500', max_weight_g: 5500, price: '65.00' },
  ],
  cod: true,
});
const FREE_OVER = channel(2, { pricing_method: 'free_over', price: '40.00', free_over: '1000.00', status: 'inactive' });
const ABROAD = channel(3, { name: 'EMS World', logistic_type: 'international', international: true, provider_name: 'ems_world_package', provider: EMS, price: '850.00' });
const COD_THAIPOST = { id: 7, provider_name: 'thaipost', provider: THAIPOST, cod_account_no: '0012345678', created_at: '', updated_at: '2026-11-01T00:00:00Z' };

function serve(setup: { channels?: unknown[]; cod?: unknown[] }, over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/wms/warehouses') return WAREHOUSES;
    if (path === '/logistics/channels') return CARRIERS;
    if (method === 'GET' && path === '/logistics/store-channels') return list(setup.channels ?? []);
    if (method === 'GET' && path === '/logistics/store-providers') return list(setup.cod ?? []);
    const one = /^\/logistics\/store-channels\/(\d+)$/.exec(path);
    if (method === 'GET' && one) return { status: 200, body: (setup.channels as { id: number }[]).find((c) => c.id === Number(one[1])) };
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
          <Route path="/:storeId/setting/logistic" element={<LogisticListPage />} />
          <Route path="/:storeId/setting/logistic-create" element={<LogisticFormPage />} />
          <Route path="/:storeId/setting/logistic-edit/:channelId" element={<LogisticFormPage />} />
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
const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

describe('the shipping list', () => {
  it('shows the default warehouse\'s channels with their prices in baht, and the COD accounts', async () => {
    const sent = serve({ channels: [BY_WEIGHT, FREE_OVER, ABROAD], cod: [COD_THAIPOST] });
    renderAt('/1/setting/logistic');
    const table = await screen.findByTestId('channel-table-domestic');
    expect(await within(table).findByText('≤ 1 kg ฿38.00 · ≤ 5.5 kg ฿65.00')).toBeInTheDocument();
    expect(within(table).getByText('Free from ฿1,000.00, else ฿40.00')).toBeInTheDocument();
    expect(within(table).getByText('Thailand Post')).toBeInTheDocument();
    expect(within(table).queryByText('EMS World')).not.toBeInTheDocument();
    expect(sent.some((s) => s.url === '/api/logistics/store-channels?warehouse-id=1')).toBe(true);
    expect(screen.getByTestId('logistic-tab-international')).toHaveTextContent('International (1)');
    await userEvent.click(screen.getByTestId('logistic-tab-cod'));
    expect(await screen.findByText('0012345678')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/logistic?tab=cod&warehouse=1');
  });

  it('switches an international channel by its provider and warehouse', async () => {
    const sent = serve({ channels: [ABROAD] }, (method) => (method === 'PATCH' ? { status: 200, body: { ...ABROAD, status: 'inactive' } } : undefined));
    renderAt('/1/setting/logistic?tab=international');
    await userEvent.click(await screen.findByTestId('channel-3-status'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    const patch = sent.find((s) => s.method === 'PATCH')!;
    expect(patch.url).toBe('/api/logistics/store-channels/inter/ems_world_package/1');
    expect(JSON.parse(patch.body)).toEqual({ status: 'inactive' });
  });

  it('adds a COD account in a dialog, a second one for the provider refused under it', async () => {
    let posts = 0;
    const sent = serve({ cod: [] }, (method, path) => {
      if (method !== 'POST' || path !== '/logistics/store-providers') return undefined;
      posts += 1;
      return posts === 1 ? refusal(409, 'cod_provider_duplicate') : { status: 201, body: COD_THAIPOST };
    });
    renderAt('/1/setting/logistic?tab=cod');
    await userEvent.click(await screen.findByTestId('cod-create'));
    await choose('field-codProvider', 'Thailand Post');
    fireEvent.change(screen.getByTestId('field-codAccountNo'), { target: { value: '001' } });
    await userEvent.click(screen.getByTestId('cod-save'));
    expect(await within(item('field-codAccountNo')).findByText('An account number has 10 to 20 digits')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('field-codAccountNo'), { target: { value: '001-234-5678' } });
    await userEvent.click(screen.getByTestId('cod-save'));
    expect(await within(item('field-codProvider')).findByText('The store already has a COD account with this provider')).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(sent.find((s) => s.method === 'POST')!.body))).toEqual({ provider_name: 'thaipost', cod_account_no: '0012345678' });
    await userEvent.click(screen.getByTestId('cod-save'));
    expect(await screen.findByText('COD account added')).toBeInTheDocument();
  });
});

describe('the channel form', () => {
  it('prices by weight brackets edited in a table, and offers COD for Thailand Post', async () => {
    const sent = serve({ cod: [COD_THAIPOST] }, (method) => (method === 'POST' ? { status: 201, body: BY_WEIGHT } : undefined));
    renderAt('/1/setting/logistic-create?type=domestic&warehouse=1');
    expect(await screen.findByText('คลังหลัก')).toBeInTheDocument();
    await choose('field-providerName', 'Thailand Post');
    await waitFor(() => expect(value('field-name')).toBe('Thailand Post'));
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'ไปรษณีย์ EMS' } });
    await userEvent.click(screen.getByText('By weight'));
    fireEvent.change(screen.getByTestId('bracket-0-price'), { target: { value: '38' } });
    await userEvent.click(screen.getByTestId('bracket-add'));
    expect(value('bracket-1-weight')).toBe('2');
    fireEvent.change(screen.getByTestId('bracket-1-weight'), { target: { value: '0.5' } });
    fireEvent.change(screen.getByTestId('bracket-1-price'), { target: { value: '65' } });
    await userEvent.click(screen.getByTestId('logistic-save'));
    expect(await within(item('brackets')).findByText("Each bracket's weight must be more than the one above it")).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('bracket-1-weight'), { target: { value: '5.5' } });
    await userEvent.click(screen.getByTestId('bracket-add'));
    await userEvent.click(screen.getByTestId('bracket-2-remove'));
    await userEvent.click(screen.getByTestId('field-cod'));
    expect(screen.queryByTestId('cod-missing')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('logistic-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/logistic?tab=domestic&warehouse=1'));
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.url).toBe('/api/logistics/store-channels');
    expect(Object.fromEntries(new URLSearchParams(post.body))).toEqual({
      warehouse_id: '1',
      logistic_type: 'domestic',
      name: 'ไปรษณีย์ EMS',
      provider_name: 'thaipost',
      pricing_method: 'weight',
      cod: 'true',
      status: 'active',
      'brackets[0][max_weight]': '1',
      'brackets[0][price]': '38',
      'brackets[1][max_weight]': '5.5',
      'brackets[1][price]': '65',
    });
  });

  it('points the owner to the COD account the provider lacks, and says the refusal under COD', async () => {
    const sent = serve({ cod: [] }, (method, path) => {
      if (method === 'POST' && path === '/logistics/store-channels') return refusal(409, 'cod_account_missing');
      if (method === 'POST' && path === '/logistics/store-providers') return { status: 201, body: COD_THAIPOST };
      return undefined;
    });
    renderAt('/1/setting/logistic-create');
    await choose('field-providerName', 'Thailand Post');
    fireEvent.change(screen.getByTestId('field-price'), { target: { value: '50' } });
    await userEvent.click(screen.getByTestId('field-cod'));
    expect(await screen.findByTestId('cod-missing')).toHaveTextContent('The store has no COD account with Thailand Post yet');
    await userEvent.click(screen.getByTestId('logistic-save'));
    expect(await within(item('field-cod')).findByText('Missing COD number: add the COD account for this provider first')).toBeInTheDocument();
    // The dialog opens for Thailand Post.
    await userEvent.click(screen.getByTestId('cod-add-from-form'));
    await waitFor(() => expect(within(screen.getByTestId('cod-modal')).getByText('Thailand Post')).toBeInTheDocument());
    fireEvent.change(screen.getByTestId('field-codAccountNo'), { target: { value: '0012345678' } });
    await userEvent.click(screen.getByTestId('cod-save'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/logistics/store-providers' && s.method === 'POST')).toBe(true));
  });

  it('refuses a second international channel for the warehouse and provider under the provider', async () => {
    const sent = serve({}, (method) => (method === 'POST' ? refusal(409, 'logistic_inter_duplicate') : undefined));
    renderAt('/1/setting/logistic-create?type=international');
    expect(await screen.findByText('Add international shipping')).toBeInTheDocument();
    await choose('field-providerName', 'EMS World package');
    expect(screen.queryByTestId('field-cod')).not.toBeInTheDocument();
    // Abroad, the store's rate table may price the parcel.
    expect(within(screen.getByTestId('field-pricingMethod')).getByText('Rate table')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('field-price'), { target: { value: '850' } });
    await userEvent.click(screen.getByTestId('logistic-save'));
    expect(await within(item('field-providerName')).findByText('Only one international shipping per warehouse per provider')).toBeInTheDocument();
    expect(sent.find((s) => s.method === 'POST')!.url).toBe('/api/logistics/store-channels/inter');
  });

  it('says in a dialog that the set number of channels is reached', async () => {
    serve({}, (method) => (method === 'POST' ? refusal(409, 'logistic_limit_reached') : undefined));
    renderAt('/1/setting/logistic-create');
    await choose('field-providerName', 'Kerry Express');
    expect(within(screen.getByTestId('field-pricingMethod')).queryByText('Rate table')).not.toBeInTheDocument();
    expect(screen.getByTestId('cod-unsupported')).toHaveTextContent('Kerry Express does not collect cash on delivery.');
    fireEvent.change(screen.getByTestId('field-price'), { target: { value: '40' } });
    await userEvent.click(screen.getByTestId('logistic-save'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Cannot create: exceeded the set number of shipping channels');
  });

  it('edits a channel free over a total, its type fixed, and replaces it whole', async () => {
    const sent = serve({ channels: [FREE_OVER] }, (method) => (method === 'PUT' ? { status: 200, body: FREE_OVER } : undefined));
    renderAt('/1/setting/logistic-edit/2');
    await waitFor(() => expect(value('field-freeOver')).toBe('1000.00'));
    expect(value('field-price')).toBe('40.00');
    expect(within(screen.getByTestId('field-logisticType')).getByDisplayValue('international')).toBeDisabled();
    fireEvent.change(screen.getByTestId('field-freeOver'), { target: { value: '1,500' } });
    await userEvent.click(screen.getByTestId('logistic-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/setting/logistic?tab=domestic&warehouse=1'));
    const put = sent.find((s) => s.method === 'PUT')!;
    expect(put.url).toBe('/api/logistics/store-channels/2');
    expect(JSON.parse(put.body)).toEqual({
      warehouse_id: 1,
      logistic_type: 'domestic',
      name: 'ส่งด่วน',
      provider_name: 'kerry',
      pricing_method: 'free_over',
      price: '40.00',
      free_over: '1500',
      cod: false,
      status: 'inactive',
    });
  });
});
