import { render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { refusal, serveBy, type Reply } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import ProductListPage from '../ProductListPage';
import { preview } from './StockRuleDrawer';

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { data, total: data.length, limit: 20, page: 1, pages: 1, ...extra },
});
const SHOP = {
  id: 4,
  marketplace: 'shopee',
  shop_id: '14701711',
  shop_name: 'ร้านเสื้อ Shopee',
  region: 'TH',
  warehouse_id: 3,
  logistic_channel_id: 0,
  payment_channel_id: 0,
  status: 'active',
  is_token_expire: false,
  token_expire_at: '',
  last_order_sync_at: '',
  last_stock_push_at: '',
  created_at: '',
  updated_at: '',
};
const listing = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  store_channel_id: 4,
  item_id: `100${id}`,
  model_id: '',
  name: `สินค้า ${id}`,
  options: [],
  seller_sku: `S-${id}`,
  price: '99.00',
  platform_stock: 5,
  image_url: '',
  state: 'active',
  sku_id: null,
  sku_code: '',
  sku_name: '',
  product_id: null,
  parts: [],
  linked_by: '',
  available: null,
  pushed: null,
  last_push_at: '',
  last_answer: '',
  push_due: false,
  own_rule: false,
  stock_checked_at: '',
  stock_differs: false,
  ...extra,
});

function serve(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/marketplaces/store-channels/4') return { status: 200, body: SHOP };
    if (path === '/marketplaces/store-channels') return list([SHOP]);
    if (path === '/marketplaces/store-channels/4/listings') {
      return list([listing(1), listing(2, { sku_id: 7, sku_code: 'TEE-1', sku_name: 'เสื้อยืด · ขาว', product_id: 70, linked_by: 'import', available: 5, pushed: 5 })], {
        waiting: 1,
        linked: 1,
      });
    }
    if (path === '/marketplaces/store-channels/4/stock-sync') return { status: 200, body: { store_channel_id: 4, status: 'finished', total: 0, done: 0, started_at: '', finished_at: '' } };
    if (path === '/products/marketplace/shopee/imports') return list([]);
    if (path === '/products/sku-inventories') {
      return list([{ sku_id: 7, sku_code: 'TEE-1', product_id: 70, product_name: 'เสื้อยืด', option1: 'ขาว', option2: '', inventory: { warehouse_id: 3, available: 5 } }]);
    }
    if (path === '/products/categories') return list([{ id: 1, name: 'เสื้อผ้า', name_en: 'Clothes' }]);
    return { status: 404, body: { error: { code: 'route_not_found', message_key: 'x', message: 'x' } } };
  });
}

function renderAt(path: string, permission = 'owner', perms: string[] = []) {
  render(
    <Provider store={signedInStore(permission, perms)}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/product-list/:channel?/:providerName?" element={<ProductListPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe("a marketplace shop's listings", () => {
  it('lists the queue waiting for a SKU with its counts, and what a linked one is and was sent', async () => {
    const sent = serve();
    renderAt('/1/product-list/shopee/4');
    await waitFor(() => expect(screen.getByTestId('listings-shop')).toHaveTextContent('ร้านเสื้อ Shopee · Shopee'));
    const table = await screen.findByTestId('listings-table');
    expect(await within(table).findByText('สินค้า 1')).toBeInTheDocument();
    expect(within(table).getByText('Waiting for a SKU')).toBeInTheDocument();
    expect(within(table).getByText('TEE-1')).toBeInTheDocument();
    expect(screen.getByTestId('listing-2-shown')).toHaveTextContent('Sent 5');
    expect(screen.getByTestId('listings-tabs')).toHaveTextContent('Waiting for a SKU (1)');
    // The queue is asked for first: linked=false, on sale.
    expect(sent.some((s) => s.url.startsWith('/api/marketplaces/store-channels/4/listings?') && s.url.includes('linked=false'))).toBe(true);
  });

  it("flags a listing whose channel shows another stock than it took, under a tab of its own", async () => {
    const differing = listing(3, { sku_id: 7, sku_code: 'TEE-1', linked_by: 'person', available: 7, pushed: 7, platform_stock: 10, stock_differs: true, stock_checked_at: '2026-12-02T10:00:00.000Z' });
    const sent = serve((_, path) => (path === '/marketplaces/store-channels/4/listings' ? list([differing], { waiting: 0, linked: 1, stock_differs: 1 }) : undefined));
    renderAt('/1/product-list/shopee/4');
    expect(await screen.findByTestId('listing-3-differs')).toHaveTextContent('10');
    const tabs = screen.getByTestId('listings-tabs');
    expect(tabs).toHaveTextContent('Stock differs (1)');
    await userEvent.click(within(tabs).getByText('Stock differs (1)'));
    await waitFor(() => expect(sent.some((s) => s.url.includes('stock-differs=true'))).toBe(true));
  });

  it('shows no stock-differs tab while every listing agrees with its channel', async () => {
    serve();
    renderAt('/1/product-list/shopee/4');
    await screen.findByTestId('listing-2-shown');
    expect(screen.getByTestId('listings-tabs')).not.toHaveTextContent('Stock differs');
  });

  it('links a listing to a SKU picked by hand, and says a refusal', async () => {
    const sent = serve((method, path) =>
      method === 'POST' && path === '/marketplaces/listings/1/link' ? { status: 200, body: listing(1, { sku_id: 7, linked_by: 'person' }) } : undefined,
    );
    renderAt('/1/product-list/shopee/4');
    await userEvent.click(await screen.findByTestId('listing-1-link'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('link-problem')).toHaveTextContent('Pick a SKU');
    await userEvent.click(within(screen.getByTestId('link-sku')).getByRole('combobox'));
    await userEvent.click(await screen.findByText('เสื้อยืด · TEE-1 · ขาว'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/marketplaces/listings/1/link')).toBe(true));
    expect(sent.find((s) => s.url === '/api/marketplaces/listings/1/link')!.body).toBe('sku_id=7');
  });

  it('checks a bundle before it is sent', async () => {
    serve();
    renderAt('/1/product-list/shopee/4');
    await userEvent.click(await screen.findByTestId('listing-1-link'));
    await userEvent.click(screen.getByText('Bundle (several SKUs)'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('link-problem')).toHaveTextContent('Pick a SKU on every row');
  });

  it('unlinks a linked listing through its product, and links automatically by name when asked', async () => {
    const sent = serve((method, path) => {
      if (method === 'POST' && path === '/products/70/shopee/2/unlink') return { status: 200, body: listing(2, { linked_by: 'unlinked' }) };
      if (method === 'POST' && path === '/marketplaces/store-channels/4/listings/auto-link') return { status: 200, body: { by_seller_sku: 1, by_name: 2, waiting: 0 } };
      return undefined;
    });
    renderAt('/1/product-list/shopee/4');
    await userEvent.click(await screen.findByTestId('listing-2-unlink'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/products/70/shopee/2/unlink')).toBe(true));
    await userEvent.click(screen.getByTestId('listings-auto-link'));
    await userEvent.click(await screen.findByText('Link', { selector: 'button span' }));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/marketplaces/store-channels/4/listings/auto-link')).toBe(true));
    expect(sent.find((s) => s.url.endsWith('/auto-link'))!.body).toBe('by_name=true');
    expect(await screen.findByText('Linked 1 by SKU and 2 by name; 0 still waiting')).toBeInTheDocument();
  });

  it('offers a reader no change, and says when the shop is not found', async () => {
    serve((_, path) => (path === '/marketplaces/store-channels/9' ? refusal(404, 'marketplace_channel_not_found') : undefined));
    renderAt('/1/product-list/shopee/4', 'cashier', ['product.sku.read']);
    expect(await screen.findByText('สินค้า 1')).toBeInTheDocument();
    expect(screen.queryByTestId('listing-1-link')).toBeNull();
    expect(screen.queryByTestId('listings-push-all')).toBeNull();
  });
});

describe('a stock rule', () => {
  it('previews what the channel shows as the service computes it', () => {
    expect(preview({ percent: 50, rounding: 'up', fixed: -1 }, 10)).toBe(4);
    expect(preview({ percent: 100, hold: 4 }, 10)).toBe(6);
    expect(preview({ percent: 100, threshold: 12 }, 10)).toBe(0);
    expect(preview({ percent: 100, threshold: 12, priority: true }, 10)).toBe(10);
    expect(preview({ percent: 30, rounding: 'nearest' }, 8)).toBe(2);
    expect(preview({ percent: 100, fixed: 5 }, 3)).toBe(3);
  });
});
