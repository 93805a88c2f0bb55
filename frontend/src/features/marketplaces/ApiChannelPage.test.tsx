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
import ApiChannelPage from './ApiChannelPage';
import type { ApiChannelBody, OwnChannelBody } from './api';
import OwnChannelPage from './OwnChannelPage';
import SaleChannelListPage from './SaleChannelListPage';
import SaleChannelSettingPage from './SaleChannelSettingPage';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const KEY = `bok_0123456789abcdef_${'a'.repeat(64)}`;

const channel = (over: Record<string, unknown> = {}) => {
  const base = {
    id: 4,
    name: 'เว็บไซต์ร้าน',
    channel: 'website',
    warehouse_id: 3,
    logistic_channel_id: 8,
    payment_channel_id: 9,
    status: 'active',
    webhook_url: 'https://shop.example/hooks',
    events: ['order.created'],
    webhook_secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=',
    keys: [{ id: 11, shown: 'bok_0123456789abcdef_…', created_at: '2026-12-06T00:00:00Z', expires_at: null, revoked_at: null, last_used_at: null, working: true }],
    created_at: '2026-12-06T00:00:00Z',
    updated_at: '2026-12-06T00:00:00Z',
    version: 2,
  } satisfies Wire<ApiChannelBody>;
  return { ...base, ...over };
};

function serve(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/open-api/channels') {
      return list([
        { code: 'line', kind: 'social_commerce', name_th: 'ไลน์', name_en: 'LINE' },
        { code: 'website', kind: 'website', name_th: 'เว็บไซต์', name_en: 'Website' },
        { code: 'open_api', kind: 'open_api', name_th: 'Open API', name_en: 'Open API' },
      ]);
    }
    if (path === '/open-api/webhook-events') return list(['order.created', 'order.shipped', 'stock.changed'].map((code) => ({ code })));
    if (method === 'GET' && path === '/marketplaces/own-channels') return list([]);
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

function renderAt(path: string) {
  render(
    <Provider store={signedInStore('owner', [])}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/sale-channel-list" element={<SaleChannelListPage />} />
          <Route path="/:storeId/sale-channel-setting/open-api/:channel/create" element={<ApiChannelPage />} />
          <Route path="/:storeId/sale-channel-setting/open-api/:channel/edit/:apiChannelId" element={<ApiChannelPage />} />
          <Route path="/:storeId/sale-channel-setting/:saleChannel" element={<OwnChannelPage />} />
          <Route path="/:storeId/sale-channel-setting/:saleChannel/:storeChannelId" element={<SaleChannelSettingPage />} />
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

describe('an open-API channel', () => {
  it('is made with a key generated and shown once, refused without one, its events chosen', async () => {
    const sent = serve((method, path) => {
      if (method === 'POST' && path === '/open-api/store-channels/generate-key') return { status: 201, body: { key: KEY, key_id: 77, expires_at: '2026-12-06T01:00:00Z' } };
      if (method === 'POST' && path === '/open-api/store-channels') return { status: 201, body: channel() };
      if (method === 'GET' && path === '/open-api/store-channels/4') return { status: 200, body: channel() };
      return undefined;
    });
    renderAt('/1/sale-channel-setting/open-api/website/create');
    await userEvent.type(await screen.findByTestId('api-name'), 'เว็บไซต์ร้าน');
    await choose('api-warehouse', 'คลังหลัก');
    await choose('api-logistic', 'Flash Express');
    await choose('api-payment', /COD/);
    await userEvent.type(screen.getByTestId('api-webhook-url'), 'https://shop.example/hooks');
    await userEvent.click(await screen.findByText('An order is made'));
    // No key yet: nothing is sent.
    await userEvent.click(screen.getByTestId('api-save'));
    expect(await screen.findByText('Generate a key first')).toBeInTheDocument();
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/open-api/store-channels')).toBe(false);
    await userEvent.click(screen.getByTestId('api-generate-key'));
    expect(await screen.findByTestId('api-key-value')).toHaveValue(KEY);
    expect(screen.getByTestId('api-key-once')).toHaveTextContent('shown only this once');
    await userEvent.click(screen.getByTestId('api-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/open-api/store-channels')).toBe(true));
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST' && s.url === '/api/open-api/store-channels')?.body ?? '');
    expect([body.get('name'), body.get('channel'), body.get('warehouse_id'), body.get('logistic_channel_id'), body.get('payment_channel_id'), body.get('key_id'), body.get('events[0]'), body.get('status')]).toEqual([
      'เว็บไซต์ร้าน',
      'website',
      '3',
      '8',
      '9',
      '77',
      'order.created',
      'active',
    ]);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/open-api/website/edit/4'));
  });

  it("puts the server's refusal under its field", async () => {
    serve((method, path) => {
      if (method === 'POST' && path === '/open-api/store-channels/generate-key') return { status: 201, body: { key: KEY, key_id: 77, expires_at: '2026-12-06T01:00:00Z' } };
      if (method === 'POST' && path === '/open-api/store-channels') return refusal(422, 'validation_failed', [{ field: 'webhook_url', code: 'validation.webhook_url' }]);
      return undefined;
    });
    renderAt('/1/sale-channel-setting/open-api/website/create');
    await userEvent.type(await screen.findByTestId('api-name'), 'เว็บไซต์ร้าน');
    await choose('api-warehouse', 'คลังหลัก');
    await choose('api-logistic', 'Flash Express');
    await choose('api-payment', /COD/);
    await userEvent.click(screen.getByTestId('api-generate-key'));
    await screen.findByTestId('api-key-value');
    await userEvent.click(screen.getByTestId('api-save'));
    expect(await screen.findByText(/A webhook address is https/)).toBeInTheDocument();
  });

  it('rolls its key with a grace period, showing the new one once, and revokes every key after a confirmation', async () => {
    let held = channel();
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/open-api/store-channels/4') return { status: 200, body: held };
      if (method === 'POST' && path === '/open-api/store-channels/generate-key') return { status: 201, body: { key: KEY, key_id: 78, expires_at: '2026-12-06T01:00:00Z' } };
      if (method === 'POST' && path === '/open-api/store-channels/4/roll-key') {
        held = channel({ keys: [{ ...channel().keys[0], id: 12 }, { ...channel().keys[0], expires_at: '2026-12-07T00:00:00Z' }] });
        return { status: 200, body: held };
      }
      if (method === 'POST' && path === '/open-api/store-channels/4/revoke-keys') {
        held = channel({ keys: held.keys.map((k) => ({ ...k, working: false, revoked_at: '2026-12-06T02:00:00Z' })) });
        return { status: 200, body: held };
      }
      return undefined;
    });
    renderAt('/1/sale-channel-setting/open-api/website/edit/4');
    expect(await screen.findByTestId('api-keys')).toHaveTextContent('bok_0123456789abcdef_…');
    expect(screen.getByTestId('api-webhook-secret')).toHaveTextContent('whsec_c2Vj…');
    await userEvent.click(screen.getByTestId('api-webhook-secret-show'));
    expect(screen.getByTestId('api-webhook-secret')).toHaveTextContent('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=');

    await userEvent.click(screen.getByTestId('api-roll'));
    await userEvent.click(await screen.findByText('One day'));
    await userEvent.click(screen.getByTestId('api-roll-ok'));
    expect(await screen.findByTestId('api-key-value')).toHaveValue(KEY);
    const roll = sent.find((s) => s.url === '/api/open-api/store-channels/4/roll-key');
    expect([new URLSearchParams(roll?.body ?? '').get('key_id'), new URLSearchParams(roll?.body ?? '').get('grace_hours')]).toEqual(['78', '24']);
    await userEvent.click(screen.getByTestId('api-roll-done'));
    const working = () => Array.from(screen.getByTestId('api-keys').querySelectorAll('tbody .ant-tag')).filter((t) => /Works/.test(t.textContent ?? '')).length;
    await waitFor(() => expect(working()).toBe(2));

    await userEvent.click(screen.getByTestId('api-revoke'));
    await userEvent.click(await screen.findByTestId('dialog-cancel'));
    expect(sent.some((s) => s.url === '/api/open-api/store-channels/4/revoke-keys')).toBe(false);
    await userEvent.click(screen.getByTestId('api-revoke'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(within(screen.getByTestId('api-keys')).getAllByText('Revoked').length).toBe(2));
    expect(working()).toBe(0);
  });

  it('opens its settings from the list', async () => {
    serve((method, path) => {
      if (path === '/marketplaces/channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/store-channels') return list([]);
      if (method === 'GET' && path === '/open-api/store-channels') return list([channel({ id: 5, name: 'แอปไลน์', channel: 'line' })]);
      if (method === 'GET' && path === '/open-api/store-channels/5') return { status: 200, body: channel({ id: 5, name: 'แอปไลน์', channel: 'line' }) };
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    await userEvent.click(await screen.findByTestId('api-5-edit'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/open-api/line/edit/5');
    expect(await screen.findByText('แอปไลน์: open API')).toBeInTheDocument();
  });

  it('is listed with the marketplaces, with its key and its settings', async () => {
    serve((method, path) => {
      if (path === '/marketplaces/channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/store-channels') return list([]);
      if (method === 'GET' && path === '/open-api/store-channels') return list([channel({ webhook_secret: '' }), channel({ id: 5, name: 'แอปไลน์', channel: 'line', keys: [] })]);
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    const table = await screen.findByTestId('api-channels');
    await within(table).findByText('เว็บไซต์ร้าน');
    expect(table).toHaveTextContent('bok_0123456789abcdef_…');
    expect(table).toHaveTextContent('No working key');
    expect(table).toHaveTextContent('LINE');
    await userEvent.click(screen.getByTestId('api-create'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/open-api/open_api/create');
  });
});

describe("an open-API channel's webhook", () => {
  const delivery = (over: Record<string, unknown> = {}) => ({
    message_id: 'msg_01',
    event_type: 'webhook.test',
    state: 'delivered',
    attempts: 1,
    created_at: '2026-12-06T03:00:00Z',
    next_attempt_at: null,
    delivered_at: '2026-12-06T03:00:01Z',
    last_status: 200,
    last_error: '',
    payload: null,
    attempt_log: [],
    ...over,
  });
  const whole = delivery({
    payload: '{"type":"webhook.test","timestamp":"2026-12-06T03:00:00.000Z","data":{"api_channel_id":4}}',
    attempt_log: [
      { at: '2026-12-06T03:00:00Z', url: 'https://shop.example/hooks', webhook_timestamp: 1796526000, webhook_signature: 'v1,abc=', status: 503, duration_ms: 12, answer: 'down for maintenance', error: '' },
      { at: '2026-12-06T03:00:05Z', url: 'https://shop.example/hooks', webhook_timestamp: 1796526005, webhook_signature: 'v1,def=', status: 200, duration_ms: 9, answer: '{"ok":true}', error: '' },
    ],
  });

  it('sends a test, shows the delivery with each attempt, and sends it again', async () => {
    let replays = 0;
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/open-api/store-channels/4') return { status: 200, body: channel({ webhook_delivered_at: '2026-12-06T03:00:01Z' }) };
      if (method === 'GET' && path === '/open-api/store-channels/4/webhook-deliveries') {
        return { status: 200, body: { data: [delivery(), delivery({ message_id: 'msg_02', event_type: 'order.created', state: 'pending', attempts: 2, next_attempt_at: '2026-12-06T03:10:00Z', delivered_at: null, last_status: 503 })], total: 2, limit: 20, page: 1, pages: 1 } };
      }
      if (method === 'POST' && path === '/open-api/store-channels/4/webhook-test') return { status: 201, body: whole };
      if (method === 'GET' && path === '/open-api/store-channels/4/webhook-deliveries/msg_01') return { status: 200, body: whole };
      if (method === 'POST' && path === '/open-api/store-channels/4/webhook-deliveries/msg_01/replay') {
        replays++;
        return { status: 200, body: { ...whole, state: 'pending', attempts: 0 } };
      }
      if (method === 'POST' && path === '/open-api/store-channels/4/webhook-deliveries/msg_02/replay') return refusal(409, 'webhook_message_pending');
      return undefined;
    });
    renderAt('/1/sale-channel-setting/open-api/website/edit/4');
    const log = await screen.findByTestId('delivery-log');
    expect(await within(log).findByText('order.created')).toBeInTheDocument();
    expect(screen.getByTestId('delivery-state-msg_01')).toHaveTextContent('Delivered');
    expect(screen.getByTestId('delivery-state-msg_02')).toHaveTextContent(/Pending · next try/);
    expect(screen.getByTestId('webhook-last')).toHaveTextContent('Last delivered');
    // Stock is not among its events: it cannot be sent now.
    expect(screen.getByTestId('webhook-push-stock')).toBeDisabled();

    await userEvent.click(screen.getByTestId('webhook-test'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/open-api/store-channels/4/webhook-test')).toBe(true));
    const drawer = await screen.findByTestId('delivery-drawer');
    expect(await within(drawer).findByText('down for maintenance')).toBeInTheDocument();
    expect(within(drawer).getAllByTestId('delivery-attempt')).toHaveLength(2);
    expect(drawer).toHaveTextContent('webhook-signature: v1,def=');
    expect(within(drawer).getByTestId('delivery-body')).toHaveTextContent('"api_channel_id": 4');
    await userEvent.click(within(drawer).getByTestId('delivery-replay'));
    await waitFor(() => expect(replays).toBe(1));
  });

  it('says when its endpoint is failing, and when it was turned off lets the owner turn it back on', async () => {
    let held = channel({ webhook_failing_since: '2026-12-03T03:00:00Z', webhook_disabled_at: '2026-12-06T03:00:00Z' });
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/open-api/store-channels/4') return { status: 200, body: held };
      if (method === 'GET' && path === '/open-api/store-channels/4/webhook-deliveries') return list([]);
      if (method === 'POST' && path === '/open-api/store-channels/4/webhook-resume') {
        held = channel({ webhook_failing_since: '2026-12-06T04:00:00Z' });
        return { status: 200, body: held };
      }
      return undefined;
    });
    renderAt('/1/sale-channel-setting/open-api/website/edit/4');
    expect(await screen.findByTestId('webhook-disabled')).toHaveTextContent('turned off');
    await userEvent.click(screen.getByTestId('webhook-resume'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/open-api/store-channels/4/webhook-resume')).toBe(true));
    expect(await screen.findByTestId('webhook-failing')).toHaveTextContent('failing since');
    expect(screen.queryByTestId('webhook-disabled')).not.toBeInTheDocument();
  });

  it('tells the owner on the list which channels have their webhook turned off', async () => {
    serve((method, path) => {
      if (path === '/marketplaces/channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/store-channels') return list([]);
      if (method === 'GET' && path === '/open-api/store-channels') {
        return list([channel({ webhook_secret: '', webhook_disabled_at: '2026-12-06T03:00:00Z' }), channel({ id: 5, name: 'แอปไลน์', channel: 'line', webhook_failing_since: '2026-12-06T03:00:00Z' })]);
      }
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    expect(await screen.findByTestId('api-webhooks-off')).toHaveTextContent('เว็บไซต์ร้าน');
    expect(screen.getByTestId('api-4-webhook-off')).toHaveTextContent('Webhook off');
    expect(screen.getByTestId('api-5-webhook-failing')).toHaveTextContent('Webhook failing');
  });
});

const mine = (over: Record<string, unknown> = {}) => {
  const base = {
    id: 5,
    name: 'ร้านไลน์',
    channel: 'line',
    warehouse_id: 3,
    logistic_channel_id: 8,
    payment_channel_id: 9,
    status: 'active',
    created_at: '2026-12-06T00:00:00Z',
    updated_at: '2026-12-06T00:00:00Z',
    version: 3,
  } satisfies Wire<OwnChannelBody>;
  return { ...base, ...over };
};

describe("a store's own channel", () => {
  it('is added from the list for a social network, its defaults chosen, and listed', async () => {
    let made = false;
    const sent = serve((method, path) => {
      if (path === '/marketplaces/channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/store-channels') return list([]);
      if (method === 'GET' && path === '/open-api/store-channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/own-channels') return list(made ? [mine()] : []);
      if (method === 'POST' && path === '/marketplaces/own-channels') {
        made = true;
        return { status: 201, body: mine() };
      }
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    expect(await screen.findByText('No social or website channel yet')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('own-create'));
    await userEvent.click(await screen.findByTestId('own-create-line'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/line'));
    expect(await screen.findByText('New LINE channel', { selector: 'h1' })).toBeInTheDocument();
    // Nothing is sent while a required field is empty.
    await userEvent.click(screen.getByTestId('own-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(4);
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    await userEvent.type(screen.getByTestId('own-name'), 'ร้านไลน์');
    await choose('own-warehouse', 'คลังหลัก');
    await choose('own-logistic', 'Flash Express');
    await choose('own-payment', /COD/);
    await userEvent.click(screen.getByTestId('own-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-list'));
    const post = sent.find((s) => s.method === 'POST' && s.url === '/api/marketplaces/own-channels')!;
    expect(Object.fromEntries(new URLSearchParams(post.body ?? ''))).toEqual({
      name: 'ร้านไลน์',
      channel: 'line',
      warehouse_id: '3',
      logistic_channel_id: '8',
      payment_channel_id: '9',
      status: 'active',
      version: '0',
    });
    const row = await screen.findByText('ร้านไลน์');
    expect(within(row.closest('tr') as HTMLElement).getByText('คลังหลัก')).toBeInTheDocument();
  });

  it("is edited with its version, turned off from the list, and shows the server's refusal under its field", async () => {
    const sent = serve((method, path) => {
      if (path === '/marketplaces/channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/store-channels') return list([]);
      if (method === 'GET' && path === '/open-api/store-channels') return list([]);
      if (method === 'GET' && path === '/marketplaces/own-channels') return list([mine()]);
      if (method === 'GET' && path === '/marketplaces/own-channels/5') return { status: 200, body: mine() };
      if (method === 'PATCH' && path === '/marketplaces/own-channels/5') {
        const n = sent.filter((s) => s.method === 'PATCH').length;
        return n === 1 ? { status: 200, body: mine({ status: 'inactive', version: 4 }) } : refusal(422, 'validation_failed', [{ field: 'logistic_channel_id', code: 'validation.logistic_channel_unknown' }]);
      }
      return undefined;
    });
    renderAt('/1/sale-channel-list');
    await userEvent.click(await screen.findByTestId('own-5-status'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    // An edit is sent as JSON, a new channel as a form.
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')?.body ?? '{}')).toMatchObject({ name: 'ร้านไลน์', status: 'inactive', version: 3 });
    await userEvent.click(screen.getByTestId('own-5-edit'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-setting/line/5'));
    expect(await screen.findByText('ร้านไลน์', { selector: 'h1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('own-name')).toHaveValue('ร้านไลน์'));
    await userEvent.click(screen.getByTestId('own-save'));
    const field = await screen.findByText("Not one of the store's shipping channels");
    expect(field.closest('.ant-form-item')).toHaveTextContent('Shipping channel');
    expect(JSON.parse(sent.filter((s) => s.method === 'PATCH')[1].body ?? '{}')).toMatchObject({ version: 3 });
  });
});
