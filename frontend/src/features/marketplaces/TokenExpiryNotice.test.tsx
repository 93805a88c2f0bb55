import { render, screen, waitFor } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { DialogHost } from '@/shared/dialogs/DialogHost';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { serveBy } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import { connectionTrouble, resetTokenCheck, takeTokenCheck, TOKEN_CHECK_MS } from './marketplaces';
import { TokenExpiryNotice } from './TokenExpiryNotice';

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const MISSING = { status: 404, body: { error: { code: 'route_not_found', message_key: 'x', message: 'x' } } };
const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: -1, page: 1, pages: 1 } });
const shop = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  marketplace: 'shopee',
  shop_id: `55${id}`,
  shop_name: name,
  region: 'TH',
  warehouse_id: 1,
  logistic_channel_id: 0,
  payment_channel_id: 0,
  status: 'active',
  is_token_expire: false,
  token_expire_at: '2099-01-01T00:00:00Z',
  last_order_sync_at: '',
  last_stock_push_at: '',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...extra,
});

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname}</p>;
}

function Screen() {
  return (
    <>
      <TokenExpiryNotice storeId={1} />
      <Link to="/1/order-list" data-testid="to-orders">
        orders
      </Link>
      <Link to="/1/product-list" data-testid="to-products">
        products
      </Link>
    </>
  );
}

function renderAt(path: string, permission = 'owner') {
  render(
    <Provider store={signedInStore(permission, [])}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/*" element={<Screen />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

describe('the marketplace connection notice', () => {
  it('asks the owner to connect a lost shop again, at most every five minutes per store', async () => {
    const sent = serveBy((method, path) => (path === '/marketplaces/store-channels' ? list([shop(1, 'ร้านเสื้อ Shopee', { is_token_expire: true }), shop(2, 'ร้านดี')]) : MISSING));
    renderAt('/1/getting-start');
    expect(await screen.findByTestId('dialog-title')).toHaveTextContent('Marketplace connection lost');
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('The connection to ร้านเสื้อ Shopee was lost');
    expect(sent.filter((s) => s.url.startsWith('/api/marketplaces/store-channels'))).toHaveLength(1);
    expect(sent[0].url).toBe('/api/marketplaces/store-channels?status=active');
    // Cancel, then another screen within five minutes: not asked again.
    await userEvent.click(screen.getByTestId('dialog-cancel'));
    await userEvent.click(screen.getByTestId('to-products'));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('dialog-title')).not.toBeInTheDocument();
    expect(sent.filter((s) => s.url.startsWith('/api/marketplaces/store-channels'))).toHaveLength(1);
  });

  it('takes the owner to the sale channels', async () => {
    serveBy((method, path) => (path === '/marketplaces/store-channels' ? list([shop(1, 'ร้านเสื้อ Shopee', { is_token_expire: true })]) : MISSING));
    renderAt('/1/order-list');
    await screen.findByTestId('dialog-title');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/sale-channel-list'));
  });

  it('tells staff to ask the owner, without a way to the sale channels', async () => {
    serveBy((method, path) => (path === '/marketplaces/store-channels' ? list([shop(1, 'ร้านเสื้อ Shopee', { is_token_expire: true })]) : MISSING));
    renderAt('/1/order-list', 'cashier');
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Please ask the shop owner to connect it again');
    expect(screen.queryByTestId('dialog-cancel')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/order-list');
  });

  it('warns seven days before a connection ends', async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
    serveBy((method, path) => (path === '/marketplaces/store-channels' ? list([shop(1, 'ร้านลาซาด้า', { token_expire_at: soon })]) : MISSING));
    renderAt('/1/order-list');
    expect(await screen.findByTestId('dialog-title')).toHaveTextContent('Marketplace connection ends soon');
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('The connection to ร้านลาซาด้า ends within 7 days');
    await userEvent.click(screen.getByTestId('dialog-cancel'));
  });

  it('keeps quiet when the check fails', async () => {
    const sent = serveBy((method, path) => (path === '/marketplaces/store-channels' ? { status: 500, body: {} } : MISSING));
    renderAt('/1/order-list');
    await waitFor(() => expect(sent.some((s) => s.url.startsWith('/api/marketplaces/store-channels'))).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('dialog-title')).not.toBeInTheDocument();
  });

  it('counts checks per store and sorts shops by their trouble', () => {
    resetTokenCheck(7);
    expect(takeTokenCheck(7, 1_000_000)).toBe(true);
    expect(takeTokenCheck(7, 1_000_000 + TOKEN_CHECK_MS - 1)).toBe(false);
    expect(takeTokenCheck(8, 1_000_000)).toBe(true);
    expect(takeTokenCheck(7, 1_000_000 + TOKEN_CHECK_MS)).toBe(true);
    resetTokenCheck(7);
    expect(takeTokenCheck(7, 1_000_000 + TOKEN_CHECK_MS + 1)).toBe(true);
    const now = Date.parse('2026-11-28T00:00:00Z');
    const t = connectionTrouble(
      [
        { shopName: 'a', isTokenExpire: true, tokenExpireAt: '2027-01-01T00:00:00Z' },
        { shopName: 'b', isTokenExpire: false, tokenExpireAt: '2026-12-01T00:00:00Z' },
        { shopName: 'c', isTokenExpire: false, tokenExpireAt: '2027-01-01T00:00:00Z' },
      ],
      now,
    );
    expect([t.lost.map((s) => s.shopName), t.endingSoon.map((s) => s.shopName)]).toEqual([['a'], ['b']]);
  });
});
