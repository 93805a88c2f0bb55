import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { P } from '@/shared/permissions.gen';
import { serveBy, type Reply, refusal } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import EParcelPage from './EParcelPage';
import LogisticListPage from './LogisticListPage';
import ShippingRatePage from './ShippingRatePage';

// antd tables, selects and forms render slowly in jsdom.
jest.setTimeout(120_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const carrier = (provider_name: string, name_en: string, shipment_type: string, owner = provider_name) => ({ provider_name, carrier: owner, name_th: name_en, name_en, shipment_type, cod: false });
const SERVICES: [string, string][] = [
  ['surface_parcel', 'Surface parcel'],
  ['surface_registered_mail', 'Surface registered mail'],
  ['air_registered_mail', 'Air registered mail'],
  ['epacket_lp', 'ePacket LP'],
  ['epacket', 'ePacket'],
  ['ems_world_package', 'EMS World package'],
  ['ems_world_document', 'EMS World document'],
  ['air_parcel', 'Air parcel'],
];
const CARRIERS = list([
  carrier('thaipost', 'Thailand Post', 'domestic'),
  carrier('kerry', 'Kerry Express', 'domestic'),
  ...SERVICES.map(([code, name]) => carrier(code, name, 'international', 'thaipost')),
]);
const SAMPLE_LABEL = 'Sample rates (not real prices)';
const TABLE = {
  loaded: true,
  label: SAMPLE_LABEL,
  is_sample: true,
  uploaded_at: '2026-11-25T05:00:00Z',
  countries: [
    { code: 'JP', name: 'ญี่ปุ่น / Japan' },
    { code: 'US', name: 'สหรัฐอเมริกา / United States' },
  ],
  rate_count: 640,
};
const rate = (service: string, extra: Record<string, unknown>) => ({
  service,
  provider: carrier(service, SERVICES.find(([c]) => c === service)![1], 'international', 'thaipost'),
  available: true,
  zone: '2',
  price: '0.00',
  reason: '',
  ...extra,
});
const RATES = {
  data: [
    rate('surface_parcel', { price: '375.00' }),
    rate('surface_registered_mail', { available: false, zone: '', reason: 'shipping.over_weight' }),
    rate('air_registered_mail', { available: false, zone: '', reason: 'shipping.over_weight' }),
    rate('epacket_lp', { available: false, zone: '', reason: 'shipping.country_not_served' }),
    rate('epacket', { price: '541.00' }),
    rate('ems_world_package', { price: '1350.00' }),
    rate('ems_world_document', { available: false, zone: '', reason: 'shipping.over_weight' }),
    rate('air_parcel', { price: '1105.00' }),
  ],
  chargeable_weight: '1.200',
  label: SAMPLE_LABEL,
  is_sample: true,
};

function serve(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/logistics/channels') return CARRIERS;
    if (path === '/wms/warehouses') return list([{ id: 1, code: 'MAIN', name: 'คลังหลัก', is_default: true, created_at: '' }]);
    if (method === 'GET' && path === '/logistics/shipping-rate/tables') return { status: 200, body: TABLE };
    if (method === 'GET' && (path === '/logistics/store-channels' || path === '/logistics/store-providers' || path === '/logistics/tracking-numbers/ranges')) return list([]);
    return { status: 404, body: { error: { code: 'not_found', message_key: 'x', message: 'x' } } };
  });
}

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  render(
    <Provider store={signedInStore(permission, permissions)}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/setting/shipping-rate" element={<ShippingRatePage />} />
          <Route path="/:storeId/setting/e-parcel-connecting" element={<EParcelPage />} />
          <Route path="/:storeId/setting/logistic" element={<LogisticListPage />} />
        </Routes>
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
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('the international calculator', () => {
  it('prices a parcel with the eight services, says why some cannot, and warns that the rates are a sample', async () => {
    const sent = serve((method, path) => (method === 'POST' && path === '/logistics/shipping-rate/rates' ? { status: 200, body: RATES } : undefined));
    renderAt('/1/setting/shipping-rate');
    expect(await screen.findByTestId('rates-sample')).toHaveTextContent('Sample rates, not real prices');
    await choose('rates-country', 'ญี่ปุ่น / Japan (JP)');
    fireEvent.change(screen.getByTestId('rates-weight'), { target: { value: '1.2' } });
    fireEvent.change(screen.getByTestId('rates-length'), { target: { value: '301' } });
    await userEvent.click(screen.getByTestId('rates-run'));
    expect(await within(item('rates-length')).findByText('Whole centimetres, up to 300')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('rates-length'), { target: { value: '' } });
    await userEvent.click(screen.getByTestId('rates-run'));
    const table = await screen.findByTestId('rates-table');
    expect(form(sent.find((s) => s.method === 'POST')!.body)).toEqual({ country: 'JP', weight: '1.2' });
    const ems = within(table).getByText('EMS World package').closest('tr') as HTMLElement;
    expect(ems).toHaveTextContent('Zone 2');
    expect(ems).toHaveTextContent('฿1,350.00');
    // The cheapest service that takes the parcel is marked.
    expect(screen.getByTestId('rates-cheapest')).toHaveTextContent('Surface parcel');
    expect(screen.getByTestId('rates-cheapest')).toHaveTextContent('Cheapest');
    expect(screen.getByTestId('rates-reason-epacket_lp')).toHaveTextContent('Does not serve this country');
    expect(screen.getByTestId('rates-reason-surface_registered_mail')).toHaveTextContent("Over the service's weight limit");
    expect(screen.getByTestId('rates-summary')).toHaveTextContent('Chargeable weight 1.2 kg');
    expect(screen.getByTestId('rates-sample')).toBeInTheDocument();
  });

  it('lets any member price a parcel, and keeps the rate table to the shipping editors', async () => {
    serve();
    renderAt('/1/setting/shipping-rate', 'cashier', [P.storeCustomerRead]);
    await screen.findByTestId('rates-form');
    await waitFor(() => expect(screen.getByTestId('rates-sample')).toBeInTheDocument());
    expect(screen.queryByTestId('rate-table')).not.toBeInTheDocument();
    expect(screen.queryByTestId('rate-table-upload')).not.toBeInTheDocument();
  });

  it('says so when the store has no table', async () => {
    serve((method, path) => (path === '/logistics/shipping-rate/tables' ? { status: 200, body: { loaded: false, label: '', is_sample: false, uploaded_at: '', countries: [], rate_count: 0 } } : undefined));
    renderAt('/1/setting/shipping-rate', 'cashier', []);
    expect(await screen.findByTestId('rates-no-table')).toHaveTextContent('Ask the store owner to load one');
    expect(screen.queryByTestId('rates-sample')).not.toBeInTheDocument();
  });
});

describe('the rate table', () => {
  it('lists each bad cell of a refused file by sheet, row and column, and changes nothing', async () => {
    const sent = serve((method, path) =>
      method === 'POST' && path === '/logistics/shipping-rate/tables'
        ? refusal(422, 'validation_failed', [
            { field: 'rates[3].price', code: 'validation.money' },
            { field: 'zones[5].country', code: 'validation.duplicate' },
            { field: 'zones[6].ems_world_package', code: 'validation.zone' },
          ])
        : undefined,
    );
    renderAt('/1/setting/shipping-rate');
    const info = await screen.findByTestId('rate-table-info');
    expect(info).toHaveTextContent('Sample');
    expect(info).toHaveTextContent('640 price rows');
    // The upload's input is made anew after each file.
    const input = () => screen.getByTestId('rate-table').querySelector('input[type="file"]') as HTMLInputElement;

    // A file that is not .xlsx is refused before it is sent.
    fireEvent.change(input(), { target: { files: [new File(['a,b'], 'rates.csv', { type: 'text/csv' })] } });
    expect(await screen.findByTestId('rate-table-error')).toHaveTextContent('Upload unsuccessful, select only .xlsx files');
    expect(sent.some((s) => s.method === 'POST')).toBe(false);

    fireEvent.change(input(), { target: { files: [new File(['xlsx'], 'rates.xlsx')] } });
    const rows = await screen.findByTestId('rate-table-rows');
    expect(screen.getByTestId('rate-table-error')).toHaveTextContent('The file has 3 errors; the table was not changed');
    const row = (text: string) => within(rows).getByText(text).closest('tr') as HTMLElement;
    expect(row('Not an amount (at most two decimals)')).toHaveTextContent(/rates \(prices\)\s*3\s*price \(baht\)/);
    expect(row('This value is already in the file')).toHaveTextContent(/zones \(countries\)\s*5\s*country/);
    expect(row('A zone is 1 to 10 characters')).toHaveTextContent('EMS World package');
    expect(sent.filter((s) => s.method === 'POST')).toEqual([{ method: 'POST', url: '/api/logistics/shipping-rate/tables', body: 'multipart/form-data' }]);
  });

  it('says a wrong template, loads the sample after asking, and downloads the template with the store token', async () => {
    const created: Blob[] = [];
    Object.assign(URL, { createObjectURL: jest.fn((b: Blob) => (created.push(b), 'blob:x')), revokeObjectURL: jest.fn() });
    // jsdom cannot follow the link; the name it would save under is kept.
    const saved: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const sent = serve((method, path) => {
      if (method === 'POST' && path === '/logistics/shipping-rate/tables') return refusal(422, 'validation_failed', [{ field: 'file', code: 'import_wrong_template' }]);
      if (method === 'POST' && path === '/logistics/shipping-rate/tables/sample') return { status: 200, body: TABLE };
      if (path === '/logistics/shipping-rate/template') return { status: 200, body: 'xlsx' };
      if (path === '/logistics/shipping-rate/tables') return { status: 200, body: { ...TABLE, is_sample: false, label: '' } };
      return undefined;
    });
    renderAt('/1/setting/shipping-rate');
    await screen.findByTestId('rate-table-info');
    const input = screen.getByTestId('rate-table').querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'rates.xlsx')] } });
    expect(await screen.findByTestId('rate-table-error')).toHaveTextContent('Wrong file, please upload a file laid out as the template');
    expect(screen.queryByTestId('rate-table-rows')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('rate-table-sample'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('The sample replaces the store');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(await screen.findByText(/Sample table loaded: 2 countries, 640 price rows/)).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('rate-table-template'));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(saved).toEqual(['shipping-rates-template.xlsx']);
    click.mockRestore();
    expect(sent.some((s) => s.method === 'GET' && s.url === '/api/logistics/shipping-rate/template')).toBe(true);
    const call = (global.fetch as jest.Mock).mock.calls.map(([r]) => r as Request).find((r) => r.url.endsWith('/shipping-rate/template'))!;
    expect(call.headers.get('authorization')).toBe('Bearer store');
  });
});

describe('the carrier accounts', () => {
  const THAIPOST = { connected: true, account_id: '', masked_key: '••••••••9f3a', status: 'working', checked_at: '2026-11-25T05:00:00Z', webhook_path: '/logistics/webhooks/thaipost/ab12' };
  const NONE = { connected: false, account_id: '', masked_key: '', status: '', checked_at: '', webhook_path: '' };

  it('shows the postal account\'s status, when it was checked, and the webhook to register, and checks the key now', async () => {
    const sent = serve((method, path) => {
      if (path === '/logistics/account-management-channels/thaipost') return { status: 200, body: THAIPOST };
      if (path === '/logistics/account-management-channels/flash') return { status: 200, body: NONE };
      return undefined;
    });
    renderAt('/1/setting/e-parcel-connecting');
    expect(await screen.findByTestId('account-thaipost-status')).toHaveTextContent('Working');
    expect(screen.getByTestId('account-flash-status')).toHaveTextContent('Not connected');
    expect(screen.getByTestId('account-thaipost-info')).toHaveTextContent('••••••••9f3a');
    expect(screen.getByTestId('account-thaipost-checked')).toHaveTextContent('25 Nov 2026');
    expect(screen.getByTestId('account-thaipost-webhook')).toHaveTextContent('http://localhost/api/logistics/webhooks/thaipost/ab12');
    expect(screen.queryByTestId('account-flash-info')).not.toBeInTheDocument();

    serve((method, path) => (path === '/logistics/account-management-channels/thaipost' ? { status: 200, body: { ...THAIPOST, status: 'rejected' } } : undefined));
    const checks = serveCalls();
    await userEvent.click(screen.getByTestId('account-thaipost-check'));
    await waitFor(() => expect(screen.getByTestId('account-thaipost-status')).toHaveTextContent('Key refused'));
    expect(checks().some((url) => url === '/api/logistics/account-management-channels/thaipost?check=true')).toBe(true);
    expect(screen.getByTestId('account-thaipost-rejected')).toBeInTheDocument();
    expect(sent.length).toBeGreaterThan(0);
  });

  it('says a refused key under the key, and a carrier that cannot be reached in a dialog, nothing connected', async () => {
    let posts = 0;
    const sent = serve((method, path) => {
      if (method === 'GET' && path.startsWith('/logistics/account-management-channels/')) return { status: 200, body: NONE };
      if (method === 'POST' && path === '/logistics/account-management-channels/flash') {
        posts += 1;
        return posts === 1 ? refusal(422, 'validation_failed', [{ field: 'api_key', code: 'carrier_auth_failed' }]) : refusal(503, 'carrier_unreachable');
      }
      return undefined;
    });
    renderAt('/1/setting/e-parcel-connecting');
    await screen.findByTestId('account-flash-form');
    await userEvent.click(screen.getByTestId('account-flash-save'));
    expect(await within(item('field-accountId')).findByText('This field is required')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('field-accountId'), { target: { value: 'AA1234' } });
    fireEvent.change(screen.getByTestId('field-apiKey-flash'), { target: { value: 'secret-key' } });
    await userEvent.click(screen.getByTestId('account-flash-save'));
    expect(await within(item('field-apiKey-flash')).findByText('The carrier did not accept this key')).toBeInTheDocument();
    expect(form(sent.find((s) => s.method === 'POST')!.body)).toEqual({ api_key: 'secret-key', account_id: 'AA1234' });

    await userEvent.click(screen.getByTestId('account-flash-save'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Cannot reach the carrier right now. Nothing was saved');
    // The screen says it, not the generic 'cannot fetch data' dialog as well.
    expect(screen.getAllByTestId('dialog-message')).toHaveLength(1);
    expect(screen.getByTestId('dialog-title')).toHaveTextContent('Cannot reach the carrier');
    expect(screen.getByTestId('account-flash-status')).toHaveTextContent('Not connected');
  });
});

describe('the tracking-number ranges', () => {
  const RANGE = {
    id: 1,
    provider_name: 'thaipost',
    prefix: 'EY',
    first_serial: 12345678,
    last_serial: 12345687,
    next_serial: 12345680,
    remaining: 8,
    first_number: 'EY123456785TH',
    last_number: 'EY123456873TH',
  };

  it('lists the ranges and adds one, showing the numbers it will produce, an overlap refused under the first serial', async () => {
    let posts = 0;
    const sent = serve((method, path) => {
      if (path !== '/logistics/tracking-numbers/ranges') return undefined;
      if (method === 'GET') return list([RANGE]);
      posts += 1;
      return posts === 1 ? refusal(409, 'tracking_range_overlap') : { status: 201, body: { ...RANGE, id: 2, first_serial: 20000000 } };
    });
    renderAt('/1/setting/logistic?tab=tracking');
    const table = await screen.findByTestId('range-table');
    expect(await within(table).findByText('EY123456785TH')).toBeInTheDocument();
    expect(within(table).getByText('8 of 10')).toBeInTheDocument();
    expect(screen.getByTestId('logistic-tab-tracking')).toHaveTextContent('Tracking numbers (1)');
    expect(screen.queryByTestId('parcel-quote')).not.toBeInTheDocument();
    expect(screen.getByTestId('range-help')).toHaveTextContent('UPU S10: two letters, an 8-digit serial, a check digit and TH');

    await choose('range-provider', 'Thailand Post');
    fireEvent.change(screen.getByTestId('range-prefix'), { target: { value: 'ey' } });
    fireEvent.change(screen.getByTestId('range-first'), { target: { value: '12345687' } });
    fireEvent.change(screen.getByTestId('range-last'), { target: { value: '12345678' } });
    await userEvent.click(screen.getByTestId('range-save'));
    expect(await within(item('range-last')).findByText(/Not a valid range/)).toBeInTheDocument();
    expect(sent.some((s) => s.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByTestId('range-first'), { target: { value: '12345678' } });
    fireEvent.change(screen.getByTestId('range-last'), { target: { value: '12345687' } });
    expect(await screen.findByTestId('range-preview')).toHaveTextContent('First number EY123456785TH · last number EY123456873TH');
    expect(screen.getByTestId('range-preview')).toHaveTextContent('10 numbers');
    await userEvent.click(screen.getByTestId('range-save'));
    expect(await within(item('range-first')).findByText('This range overlaps a range the store already has')).toBeInTheDocument();
    expect(form(sent.find((s) => s.method === 'POST')!.body)).toEqual({ provider_name: 'thaipost', prefix: 'EY', first: '12345678', last: '12345687' });

    await userEvent.click(screen.getByTestId('range-save'));
    expect(await screen.findByText('Range added: EY123456785TH to EY123456873TH')).toBeInTheDocument();
  });

  it('shows other carriers\' numbers as prefix and padded serial', async () => {
    serve();
    renderAt('/1/setting/logistic?tab=tracking');
    await screen.findByTestId('range-form');
    await choose('range-provider', 'Kerry Express');
    expect(screen.getByTestId('range-help')).toHaveTextContent('the prefix followed by the serial');
    fireEvent.change(screen.getByTestId('range-prefix'), { target: { value: 'kex' } });
    fireEvent.change(screen.getByTestId('range-first'), { target: { value: '1' } });
    fireEvent.change(screen.getByTestId('range-last'), { target: { value: '000500' } });
    expect(await screen.findByTestId('range-preview')).toHaveTextContent('First number KEX000001 · last number KEX000500');
  });

  it('offers no form to a member who may not change the shipping', async () => {
    serve((method, path) => (path === '/logistics/tracking-numbers/ranges' ? list([RANGE]) : undefined));
    renderAt('/1/setting/logistic?tab=tracking', 'cashier', []);
    await screen.findByText('EY123456785TH');
    expect(screen.queryByTestId('range-form')).not.toBeInTheDocument();
  });
});

/** The URLs fetched from now on. */
function serveCalls(): () => string[] {
  const mock = global.fetch as jest.Mock;
  const from = mock.mock.calls.length;
  return () => mock.mock.calls.slice(from).map(([r]) => {
    const u = new URL((r as Request).url);
    return u.pathname + u.search;
  });
}
