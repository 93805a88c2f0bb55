import { render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { refusal, serveBy, type Reply } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import { endsSoon, pathOf, readState } from './marketplaces';
import SaleChannelAuthPage from './SaleChannelAuthPage';
import SaleChannelListPage from './SaleChannelListPage';
import SaleChannelRedirectPage from './SaleChannelRedirectPage';
import SaleChannelSettingPage from './SaleChannelSettingPage';

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const MARKETPLACES = list([
  { marketplace: 'shopee', path: 'shopee', name: 'Shopee', configured: true, missing_settings: [], allowed: true },
  { marketplace: 'lazada', path: 'lazada', name: 'Lazada', configured: true, missing_settings: [], allowed: false },
  {
    marketplace: 'tiktok_shop',
    path: 'tiktok-shop',
    name: 'TikTok Shop',
    configured: false,
    missing_settings: ['services.marketplaces.tiktok_shop.app_key', 'services.marketplaces.tiktok_shop.app_secret'],
    allowed: true,
  },
]);
const shop = (id: number, marketplace: string, extra: Record<string, unknown> = {}) => ({
  id,
  marketplace,
  shop_id: `55${id}`,
  shop_name: `ร้าน ${id}`,
  region: 'TH',
  warehouse_id: 0,
  logistic_channel_id: 0,
  payment_channel_id: 0,
  status: 'active',
  is_token_expire: false,
  token_expire_at: '2027-11-01T00:00:00Z',
  last_order_sync_at: '',
  last_stock_push_at: '',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...extra,
});
const WAREHOUSES = list([{ id: 3, name: 'คลังหลัก', code: 'WH1', active: true, created_at: '', updated_at: '' }]);

function serve(shops: unknown[], over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/marketplaces/channels') return MARKETPLACES;
    if (method === 'GET' && path === '/open-api/store-channels') return list([]);
    if (method === 'GET' && path === '/marketplaces/store-channels') return list(shops);
    const one = /^\/marketplaces\/store-channels\/(\d+)$/.exec(path);
    if (method === 'GET' && one) {
      const found = (shops as { id: number }[]).find((s) => s.id === Number(one[1]));
      return found ? { status: 200, body: found } : refusal(404, 'marketplace_channel_not_found');
    }
    if (path === '/wms/warehouses') return WAREHOUSES;
    if (path === '/logistics/store-channels') return list([{ id: 8, name: 'Flash Express', warehouse_id: 3, status: 'active' }]);
    if (path === '/payments/store-channels') {
      return list([{ id: 9, channel: { type: 'cod' }, credential: { acc_name: 'COD', acc_no: '1234567890', email: '' }, status: 'active' }]);
    }
    return { status: 404, body: { error: { code: 'route_not_found', message_key: 'x', message: 'x' } } };
  });
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, permission = 'owner') {
  render(
    <Provider store={signedInStore(permission, [])}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/sale-channel-list" element={<SaleChannelListPage />} />
          <Route path="/:storeId/sale-channel-auth/:saleChannel" element={<SaleChannelAuthPage />} />
          <Route path="/:storeId/sale-channel-setting/:saleChannel/:storeChannelId" element={<SaleChannelSettingPage />} />
          <Route path="/sale-channel-redirect" element={<SaleChannelRedirectPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

describe('the marketplaces words', () => {
  it('reads a state of ours and nothing else', () => {
    expect(readState('12.tiktok-shop.0123456789abcdef0123456789abcdef')).toEqual({ storeId: 12, marketplace: 'tiktok-shop' });
    expect(readState('12.shopee.0123456789abcdef')).toEqual({ storeId: 12, marketplace: 'shopee' });
    for (const bad of ['', '12.amazon.0123456789abcdef', 'x.shopee.0123456789abcdef', '0.shopee.0123456789abcdef', '12.shopee.short', null]) {
      expect(readState(bad)).toBeNull();
    }
    expect(pathOf('tiktok_shop')).toBe('tiktok-shop');
    expect(pathOf('facebook')).toBeNull();
  });

  it('marks an authorization ending within seven days', () => {
    const now = Date.parse('2026-11-28T00:00:00Z');
    expect(endsSoon('2026-12-04T00:00:00Z', now)).toBe(true);
    expect(endsSoon('2026-12-06T00:00:00Z', now)).toBe(false);
    expect(endsSoon('', now)).toBe(false);
  });
});

describe('the sales channel list', () => {
  it('lists each marketplace with its shops, marks a lost connection and says what an unset marketplace needs', async () => {
    serve([shop(1, 'shopee', { warehouse_id: 3 }), shop(2, 'lazada', { is_token_expire: true })]);
    renderAt('/1/sale-channel-list');
    const shopee = await screen.findByTestId('marketplace-shopee');
    expect(await within(shopee).findByText('ร้าน 1')).toBeInTheDocument();
    expect(await within(shopee).findByText('คลังหลัก')).toBeInTheDocument();
    expect(within(shopee).getAllByText('Not yet')).toHaveLength(2);
    const lazada = screen.getByTestId('marketplace-lazada');
    expect(within(lazada).getByTestId('shop-2-lost')).toHaveTextContent('Connection lost');
    expect(within(lazada).getByText('Not chosen yet')).toBeInTheDocument();
    expect(screen.getByTestId('sale-channel-lost')).toHaveTextContent('1 shop lost its connection');
    expect(screen.getByTestId('connect-tiktok-shop')).toBeDisabled();
    expect(screen.getByTestId('not-configured-tiktok-shop')).toHaveTextContent('services.marketplaces.tiktok_shop.app_key');
    // Lazada is open to whitelisted stores only, and this is not one.
    expect(screen.getByTestId('connect-lazada')).toBeDisabled();
    expect(screen.getByTestId('shop-2-reconnect')).toBeDisabled();
    expect(screen.getByTestId('not-allowed-lazada')).toHaveTextContent("Lazada is not open to this store yet");
    expect(screen.getByTestId('connect-shopee')).toBeEnabled();
  });

  it('asks for a connect link and sends the seller to the marketplace', async () => {
    const assign = jest.fn();
    Object.defineProperty(window, 'location', { configurable: true, value: { ...window.location, assign } });
    const sent = serve([], (method, path) =>
      path === '/marketplaces/shopee/auth-url' ? { status: 200, body: { url: 'https://shopee.example/auth?x=1', state: '1.shopee.abc' } } : undefined,
    );
    renderAt('/1/sale-channel-list');
    await userEvent.click(await screen.findByTestId('connect-shopee'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://shopee.example/auth?x=1'));
    expect(sent.some((s) => s.url === '/api/marketplaces/shopee/auth-url')).toBe(true);
  });

  it('turns a shop off', async () => {
    const sent = serve([shop(1, 'shopee')], (method) => (method === 'PATCH' ? { status: 200, body: shop(1, 'shopee', { status: 'inactive' }) } : undefined));
    renderAt('/1/sale-channel-list');
    await userEvent.click(await screen.findByTestId('shop-1-status'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')!.body)).toEqual({ status: 'inactive' });
    expect(await screen.findByText('ร้าน 1 is off')).toBeInTheDocument();
  });
});

describe('unlinking', () => {
  it('unlinks a shop after asking', async () => {
    const sent = serve([shop(1, 'shopee')], (method) => (method === 'DELETE' ? { status: 204 } : undefined));
    renderAt('/1/sale-channel-list');
    await userEvent.click(await screen.findByTestId('shop-1-unlink'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('ร้าน 1 stops sending orders');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'DELETE' && s.url === '/api/marketplaces/store-channels/1')).toBe(true));
    expect(await screen.findByText('ร้าน 1 is unlinked')).toBeInTheDocument();
  });
});

describe('connecting', () => {
  const STATE = '7.shopee.0123456789abcdef0123456789abcdef';

  it('hands the redirect over to the store named by the state, with the code and the shop', async () => {
    serve([]);
    renderAt(`/sale-channel-redirect?code=c0de&shop_id=14701711&state=${STATE}`);
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent(`/7/sale-channel-auth/shopee?state=${STATE}&code=c0de&shop_id=14701711`),
    );
  });

  it('says a refused authorization or a foreign link, and leads back', async () => {
    serve([]);
    renderAt(`/sale-channel-redirect?code=null&error=auth_denied&state=${STATE}`);
    expect(await screen.findByTestId('sale-channel-redirect')).toHaveTextContent('The shop was not authorized');
    await userEvent.click(screen.getByTestId('redirect-back'));
    expect(screen.getByTestId('where')).toHaveTextContent('/7/sale-channel-list');
  });

  it('spends the code once and opens the new shop\'s settings', async () => {
    const sent = serve([shop(5, 'shopee')], (method, path) => (method === 'POST' && path === '/marketplaces/shopee/connect' ? { status: 201, body: list([shop(5, 'shopee')]).body } : undefined));
    renderAt(`/7/sale-channel-auth/shopee?state=${STATE}&code=c0de&shop_id=14701711`);
    expect(await screen.findByTestId('sale-channel-connected')).toHaveTextContent('ร้าน 5 is connected');
    const posts = sent.filter((s) => s.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(posts[0].body))).toEqual({ state: STATE, code: 'c0de', shop_id: '14701711' });
    expect(screen.getByTestId('where')).toHaveTextContent('/7/sale-channel-setting/shopee/5?connected=1');
  });

  it('says why a connect was refused', async () => {
    serve([], (method) => (method === 'POST' ? refusal(409, 'marketplace_state_invalid') : undefined));
    renderAt(`/7/sale-channel-auth/shopee?state=${STATE}&code=c0de`);
    expect(await screen.findByTestId('sale-channel-auth-failed')).toHaveTextContent('The connect link has expired or was already used; connect again');
  });
});

describe('a shop\'s settings', () => {
  it('saves the warehouse, shipping channel, payment account and status, and shows the server\'s field refusals', async () => {
    let refuse = true;
    const sent = serve([shop(5, 'shopee')], (method) => {
      if (method !== 'PATCH') return undefined;
      if (refuse) {
        refuse = false;
        return refusal(422, 'validation_failed', [{ field: 'warehouse_id', code: 'validation.warehouse_unknown' }]);
      }
      return { status: 200, body: shop(5, 'shopee', { warehouse_id: 3 }) };
    });
    renderAt('/7/sale-channel-setting/shopee/5');
    const pick = async (testId: string, option: string) => {
      const select = (await screen.findByTestId(testId)).closest('.ant-select') as HTMLElement;
      await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
      const options = await screen.findAllByText(option);
      await userEvent.click(options.find((o) => o.closest('.ant-select-item-option')) ?? options[options.length - 1]);
    };
    await pick('setting-warehouse', 'คลังหลัก');
    await pick('setting-logistic', 'Flash Express');
    await pick('setting-payment', 'COD (123-4-56789-0)');
    await userEvent.click(screen.getByTestId('setting-save'));
    expect(await screen.findByText("Not one of the store's warehouses")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('setting-save'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/7/sale-channel-list'));
    const patches = sent.filter((s) => s.method === 'PATCH');
    expect(JSON.parse(patches[1].body)).toEqual({ warehouse_id: 3, logistic_channel_id: 8, payment_channel_id: 9, status: 'active' });
  });
});
