import { render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { DialogHost } from '@/shared/dialogs/DialogHost';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { refusal, serveBy, type Reply } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import type { Wire } from '@/shared/testing/wire';
import type { MagentoChannelBody } from './api';
import MagentoChannelPage from './MagentoChannelPage';
import { magentoUrlOk } from './marketplaces';
import SaleChannelListPage from './SaleChannelListPage';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const KEY = `bok_0123456789abcdef_${'a'.repeat(64)}`;

const shop = (over: Record<string, unknown> = {}) => {
  const base = {
    id: 6,
    name: 'ร้านเว็บ Magento',
    url: 'https://shop.example.co.th',
    store_code: 'default',
    auth: 'oauth1',
    source_code: '',
    warehouse_id: 3,
    logistic_channel_id: 8,
    payment_channel_id: 9,
    status: 'active',
    keys: [{ id: 11, shown: 'bok_0123456789abcdef_…', created_at: '2026-12-06T00:00:00Z', expires_at: null, revoked_at: null, last_used_at: null, working: true }],
    last_polled_at: '2026-12-06T03:00:00Z',
    poll_error: '',
    orders_taken: 4,
    stock_pushed_at: null,
    stock_error: '',
    created_at: '2026-12-06T00:00:00Z',
    updated_at: '2026-12-06T00:00:00Z',
    version: 2,
  } satisfies Wire<MagentoChannelBody>;
  return { ...base, ...over };
};

function serve(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/marketplaces/channels') return list([]);
    if (method === 'GET' && path === '/marketplaces/store-channels') return list([]);
    if (method === 'GET' && path === '/open-api/store-channels') return list([]);
    if (method === 'GET' && path === '/marketplaces/own-channels') return list([]);
    if (method === 'GET' && path === '/marketplaces/magento-channels') return list([]);
    if (path === '/wms/warehouses') return list([{ id: 3, name: 'คลังหลัก', code: 'WH1', active: true, created_at: '', updated_at: '' }]);
    if (path === '/logistics/store-channels') return list([{ id: 8, name: 'Flash Express', warehouse_id: 3, status: 'active' }]);
    if (path === '/payments/store-channels') {
      return list([{ id: 9, channel: { type: 'cod' }, credential: { acc_name: 'COD', acc_no: '1234567890', email: '' }, status: 'active' }]);
    }
    return { status: 404, body: { error: { code: 'route_not_found', message_key: 'x', message: 'x' } } };
  });
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname}</p>;
}

function renderAt(path: string, permission = 'owner') {
  render(
    <Provider store={signedInStore(permission, [])}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/sale-channel-list" element={<SaleChannelListPage />} />
          <Route path="/:storeId/sale-channel-setting/magento/create" element={<MagentoChannelPage />} />
          <Route path="/:storeId/sale-channel-setting/magento/edit/:magentoChannelId" element={<MagentoChannelPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

async function choose(testId: string, option: string | RegExp) {
  const select = screen.getByTestId(testId).closest('.ant-select') as HTMLElement;
  await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
  const found = await waitFor(() => {
    const o = screen.getAllByText(option).filter((x) => x.closest('.ant-select-item-option') && !x.closest('.ant-select-dropdown-hidden'));
    if (!o.length) throw new Error(`no option ${option}`);
    return o[0];
  });
  await userEvent.click(found);
}

/** The text under a form field, by its input's test id. */
const fieldOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;

/** Fills in the form's required fields but the credentials. */
async function fillShop() {
  await userEvent.type(await screen.findByTestId('magento-name'), 'ร้านเว็บ Magento');
  await userEvent.type(screen.getByTestId('magento-url'), 'https://shop.example.co.th/');
  await choose('magento-warehouse', 'คลังหลัก');
  await choose('magento-logistic', 'Flash Express');
  await choose('magento-payment', /COD/);
}

const generateKey = (): Reply => ({ status: 201, body: { key: KEY, key_id: 77, expires_at: '2026-12-06T01:00:00Z' } });

describe('a Magento channel', () => {
  it('is added from the list with a token generated and shown once, refused without one', async () => {
    const sent = serve((method, path) => {
      if (method === 'POST' && path === '/marketplaces/store-channels/generate-key') return generateKey();
      if (method === 'POST' && path === '/marketplaces/magento-channels') return { status: 201, body: shop({ auth: 'bearer' }) };
      if (method === 'GET' && path === '/marketplaces/magento-channels/6') return { status: 200, body: shop({ auth: 'bearer' }) };
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    expect(await screen.findByText('No Magento shop yet')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('magento-create'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/magento/create');
    expect(await screen.findByText('New Magento channel', { selector: 'h1' })).toBeInTheDocument();
    // The bearer note says what Magento 2.4.4 asks.
    expect(screen.getByTestId('magento-bearer-note')).toHaveTextContent('oauth/consumer/enable_integration_as_bearer');
    expect(screen.getByTestId('magento-store-code')).toHaveAttribute('placeholder', 'default');

    // Every required field is asked for before anything is sent.
    await userEvent.click(screen.getByTestId('magento-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(6);
    await fillShop();
    await userEvent.type(screen.getByTestId('magento-access-token'), 'x'.repeat(32));
    // No token generated yet: nothing is sent.
    await userEvent.click(screen.getByTestId('magento-save'));
    expect(await screen.findByText('Generate a token first')).toBeInTheDocument();
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/marketplaces/magento-channels')).toBe(false);

    await userEvent.click(screen.getByTestId('magento-generate-key'));
    expect(await screen.findByTestId('magento-key-value')).toHaveValue(KEY);
    expect(screen.getByTestId('magento-key-once')).toHaveTextContent('shown only this once');
    expect(screen.getByTestId('magento-key-copy')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('magento-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/marketplaces/magento-channels')).toBe(true));
    const post = sent.find((s) => s.method === 'POST' && s.url === '/api/marketplaces/magento-channels')!;
    expect(Object.fromEntries(new URLSearchParams(post.body))).toEqual({
      name: 'ร้านเว็บ Magento',
      url: 'https://shop.example.co.th',
      store_code: '',
      auth: 'bearer',
      access_token: 'x'.repeat(32),
      access_token_secret: '',
      consumer_key: '',
      consumer_secret: '',
      source_code: '',
      warehouse_id: '3',
      logistic_channel_id: '8',
      payment_channel_id: '9',
      status: 'active',
      key_id: '77',
      version: '0',
    });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/magento/edit/6'));
    expect(await screen.findByTestId('magento-keys')).toHaveTextContent('bok_0123456789abcdef_…');
    // The token is never shown again.
    expect(screen.queryByTestId('magento-key-value')).not.toBeInTheDocument();
  });

  it("asks OAuth 1.0a's credentials only when OAuth is chosen", async () => {
    const sent = serve((method, path) => {
      if (method === 'POST' && path === '/marketplaces/store-channels/generate-key') return generateKey();
      if (method === 'POST' && path === '/marketplaces/magento-channels') return { status: 201, body: shop() };
      if (method === 'GET' && path === '/marketplaces/magento-channels/6') return { status: 200, body: shop() };
      return undefined;
    });
    renderAt('/1/sale-channel-setting/magento/create');
    await screen.findByTestId('magento-access-token');
    expect(screen.queryByTestId('magento-consumer-key')).not.toBeInTheDocument();
    expect(screen.queryByTestId('magento-consumer-secret')).not.toBeInTheDocument();
    expect(screen.queryByTestId('magento-access-token-secret')).not.toBeInTheDocument();
    await userEvent.click(screen.getByText('OAuth 1.0a'));
    expect(await screen.findByTestId('magento-consumer-key')).toBeInTheDocument();
    expect(screen.getByTestId('magento-consumer-secret')).toBeInTheDocument();
    expect(screen.getByTestId('magento-access-token-secret')).toBeInTheDocument();
    // Each of them required.
    await fillShop();
    await userEvent.click(screen.getByTestId('magento-generate-key'));
    await screen.findByTestId('magento-key-value');
    await userEvent.click(screen.getByTestId('magento-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(4);
    await userEvent.type(screen.getByTestId('magento-consumer-key'), 'c'.repeat(32));
    await userEvent.type(screen.getByTestId('magento-consumer-secret'), 'd'.repeat(32));
    await userEvent.type(screen.getByTestId('magento-access-token'), 'a'.repeat(32));
    await userEvent.type(screen.getByTestId('magento-access-token-secret'), 'b'.repeat(32));
    await userEvent.type(screen.getByTestId('magento-source-code'), 'bangkok_1');
    await userEvent.click(screen.getByTestId('magento-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/marketplaces/magento-channels')).toBe(true));
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST' && s.url === '/api/marketplaces/magento-channels')?.body ?? '');
    expect([body.get('auth'), body.get('consumer_key'), body.get('consumer_secret'), body.get('access_token'), body.get('access_token_secret'), body.get('source_code')]).toEqual([
      'oauth1',
      'c'.repeat(32),
      'd'.repeat(32),
      'a'.repeat(32),
      'b'.repeat(32),
      'bangkok_1',
    ]);
  });

  it('hides them again when Bearer is chosen back', async () => {
    serve();
    renderAt('/1/sale-channel-setting/magento/create');
    await userEvent.click(await screen.findByText('OAuth 1.0a'));
    await userEvent.type(await screen.findByTestId('magento-consumer-key'), 'c'.repeat(32));
    await userEvent.click(screen.getByText('Integration token (Bearer)'));
    await waitFor(() => expect(screen.queryByTestId('magento-consumer-key')).not.toBeInTheDocument());
    expect(screen.getByTestId('magento-access-token')).toBeInTheDocument();
  });

  it("says the shop's URL and codes are wrong before sending them", async () => {
    const sent = serve();
    renderAt('/1/sale-channel-setting/magento/create');
    await userEvent.type(await screen.findByTestId('magento-url'), 'http://shop.example.co.th');
    await userEvent.type(screen.getByTestId('magento-store-code'), 'th store');
    await userEvent.type(screen.getByTestId('magento-access-token'), 'has space');
    await userEvent.click(screen.getByTestId('magento-save'));
    expect(await screen.findByText(/A shop URL is https/)).toBeInTheDocument();
    expect(fieldOf('magento-store-code')).toHaveTextContent('Letters, digits, _ and - only');
    expect(fieldOf('magento-access-token')).toHaveTextContent('No spaces');
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    expect([magentoUrlOk('https://shop.example.co.th'), magentoUrlOk('http://127.0.0.1:18084'), magentoUrlOk('http://shop.example.co.th'), magentoUrlOk('https://u:p@shop.example.co.th'), magentoUrlOk('https://shop.example.co.th/?a=1')]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("shows 'Magento cannot connect' with the reason under the access token, nothing saved", async () => {
    serve((method, path) => {
      if (method === 'POST' && path === '/marketplaces/store-channels/generate-key') return generateKey();
      if (method === 'POST' && path === '/marketplaces/magento-channels') return refusal(409, 'magento_cannot_connect', [{ field: 'access_token', code: 'magento.bearer_refused' }]);
      return undefined;
    });
    renderAt('/1/sale-channel-setting/magento/create');
    await fillShop();
    await userEvent.type(screen.getByTestId('magento-access-token'), 'w'.repeat(32));
    await userEvent.click(screen.getByTestId('magento-generate-key'));
    await screen.findByTestId('magento-key-value');
    await userEvent.click(screen.getByTestId('magento-save'));
    expect(await screen.findByTestId('magento-cannot-connect')).toHaveTextContent('Magento cannot connect');
    expect(screen.getByTestId('magento-cannot-connect')).toHaveTextContent('Magento refused the token as a bearer token');
    await waitFor(() => expect(fieldOf('magento-access-token')).toHaveTextContent('Magento refused the token as a bearer token'));
    expect(fieldOf('magento-access-token')).toHaveTextContent('Access token');
    // Still on the form, the token kept for the next try.
    expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/magento/create');
    expect(screen.getByTestId('magento-key-value')).toHaveValue(KEY);
    // Changing what the connection is tried with clears what the shop refused.
    await userEvent.type(screen.getByTestId('magento-access-token'), 'x');
    await waitFor(() => expect(screen.queryByTestId('magento-cannot-connect')).not.toBeInTheDocument());
  });

  it('puts an unknown store view under its field', async () => {
    serve((method, path) => {
      if (method === 'POST' && path === '/marketplaces/store-channels/generate-key') return generateKey();
      if (method === 'POST' && path === '/marketplaces/magento-channels') return refusal(409, 'magento_cannot_connect', [{ field: 'store_code', code: 'magento.store_unknown' }]);
      return undefined;
    });
    renderAt('/1/sale-channel-setting/magento/create');
    await fillShop();
    await userEvent.type(screen.getByTestId('magento-store-code'), 'en');
    await userEvent.type(screen.getByTestId('magento-access-token'), 'w'.repeat(32));
    await userEvent.click(screen.getByTestId('magento-generate-key'));
    await screen.findByTestId('magento-key-value');
    await userEvent.click(screen.getByTestId('magento-save'));
    await waitFor(() => expect(fieldOf('magento-store-code')).toHaveTextContent('The shop has no store view with this code'));
  });

  it('is edited with its credentials left empty (kept) and its version, and synced now', async () => {
    let held = shop();
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/marketplaces/magento-channels/6') return { status: 200, body: held };
      if (method === 'GET' && path === '/marketplaces/magento-channels') return list([held]);
      if (method === 'POST' && path === '/marketplaces/magento-channels/6/sync') {
        held = shop({ orders_taken: 7, last_polled_at: '2026-12-06T04:00:00Z', stock_error: 'The Product with the "TS-001-9" SKU doesn\'t exist.' });
        return { status: 200, body: { channel: held, orders_taken: 3, poll_error: '', skus_due: 2 } };
      }
      if (method === 'PATCH' && path === '/marketplaces/magento-channels/6') return { status: 200, body: held };
      return undefined;
    });
    renderAt('/1/sale-channel-setting/magento/edit/6');
    expect(await screen.findByText('ร้านเว็บ Magento: Magento', { selector: 'h1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('magento-name')).toHaveValue('ร้านเว็บ Magento'));
    expect(screen.getByTestId('magento-orders-taken')).toHaveTextContent('4');
    expect(screen.queryByTestId('magento-generate-key')).not.toBeInTheDocument();
    // Its credentials are never shown: each empty, saying it is kept.
    for (const id of ['magento-consumer-key', 'magento-consumer-secret', 'magento-access-token', 'magento-access-token-secret']) {
      expect(screen.getByTestId(id)).toHaveValue('');
      expect(screen.getByTestId(id)).toHaveAttribute('placeholder', 'Kept: leave empty to keep it');
    }

    await userEvent.click(screen.getByTestId('magento-sync'));
    expect(await screen.findByText('ร้านเว็บ Magento synced: 3 orders taken')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('magento-orders-taken')).toHaveTextContent('7'));
    expect(screen.getByTestId('magento-stock-error')).toHaveTextContent('TS-001-9');

    await userEvent.clear(screen.getByTestId('magento-name'));
    await userEvent.type(screen.getByTestId('magento-name'), 'ร้านเว็บใหม่');
    await userEvent.click(screen.getByTestId('magento-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')?.body ?? '{}')).toMatchObject({
      name: 'ร้านเว็บใหม่',
      auth: 'oauth1',
      access_token: '',
      access_token_secret: '',
      consumer_key: '',
      consumer_secret: '',
      store_code: 'default',
      version: 2,
      key_id: 0,
    });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-list'));
  });

  it('asks the credentials again on an edit that changes the way it connects', async () => {
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/marketplaces/magento-channels/6') return { status: 200, body: shop({ auth: 'bearer' }) };
      return undefined;
    });
    renderAt('/1/sale-channel-setting/magento/edit/6');
    await waitFor(() => expect(screen.getByTestId('magento-name')).toHaveValue('ร้านเว็บ Magento'));
    await userEvent.click(screen.getByText('OAuth 1.0a'));
    await userEvent.click(await screen.findByTestId('magento-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(4);
    expect(sent.some((s) => s.method === 'PATCH')).toBe(false);
  });

  it('says a sync refused because the shop is off', async () => {
    serve((method, path) => {
      if (method === 'GET' && path === '/marketplaces/magento-channels/6') return { status: 200, body: shop({ status: 'inactive' }) };
      if (method === 'POST' && path === '/marketplaces/magento-channels/6/sync') return refusal(409, 'magento_channel_inactive');
      return undefined;
    });
    renderAt('/1/sale-channel-setting/magento/edit/6');
    await userEvent.click(await screen.findByTestId('magento-sync'));
    expect(await screen.findByText('The Magento channel is turned off: turn it on to sync it')).toBeInTheDocument();
  });

  it('is listed with its status, last poll and errors, and opened from the list', async () => {
    serve((method, path) => {
      if (method === 'GET' && path === '/marketplaces/magento-channels') {
        return list([shop({ poll_error: 'The consumer isn\'t authorized to access Magento_Sales::actions_view.' }), shop({ id: 7, name: 'ร้านปิด', status: 'inactive', last_polled_at: null })]);
      }
      if (method === 'GET' && path === '/marketplaces/magento-channels/6') return { status: 200, body: shop() };
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    const table = await screen.findByTestId('magento-channels-table');
    await within(table).findByText('ร้านเว็บ Magento');
    expect(table).toHaveTextContent('https://shop.example.co.th');
    expect(screen.getByTestId('magento-6-status')).toHaveTextContent('On');
    expect(screen.getByTestId('magento-7-status')).toHaveTextContent('Off');
    expect(screen.getByTestId('magento-6-poll-error')).toHaveTextContent('Poll failed: The consumer isn');
    expect(screen.getByTestId('magento-7-polled')).toHaveTextContent('Not yet');
    expect(within(table).getAllByText('คลังหลัก')).toHaveLength(2);
    await userEvent.click(screen.getByTestId('magento-6-edit'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/magento/edit/6');
  });

  it('offers adding or changing one only to those who may', async () => {
    serve((method, path) => {
      if (method === 'GET' && path === '/marketplaces/magento-channels') return list([shop()]);
      return undefined;
    });
    renderAt('/1/sale-channel-list', 'admin');
    await within(await screen.findByTestId('magento-channels-table')).findByText('ร้านเว็บ Magento');
    expect(screen.queryByTestId('magento-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('magento-6-edit')).not.toBeInTheDocument();
  });
});
