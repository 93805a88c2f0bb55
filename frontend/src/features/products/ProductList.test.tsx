import { render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { DialogHost } from '@/shared/dialogs/DialogHost';
import { P } from '@/shared/permissions.gen';
import { refusal, serveBy, type Reply } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { signedInStore } from '@/shared/testing/session';
import ProductListPage from './ProductListPage';
import { atWidth } from '@/shared/testing/viewport';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

const list = (data: unknown[]) => ({ status: 200, body: { data, total: data.length, limit: 10, page: 1, pages: 1 } });

const sku = (id: number, code: string, available: number) => ({
  id,
  code,
  price: '199.00',
  cost: '90.00',
  safety_stock: 0,
  barcode: '',
  status: 'active',
  variant_option: {},
  inventories: [{ warehouse_id: 1, quantity: available, reserve: 0, preorder: 0, available }],
});

const product = (id: number, code: string, name: string, over: Record<string, unknown> = {}) => ({
  id,
  code,
  name,
  name_en: '',
  short_description: '',
  description: '',
  hs_code: '',
  brand: '',
  tags: [],
  category_id: 3,
  price: '199.00',
  price_ex_vat: '185.98',
  cost: '90.00',
  vat: true,
  weight: '0.300',
  barcode: '',
  status: 'active',
  unit_id: 0,
  photos: [],
  cover_url: null,
  size_chart: null,
  variant1: null,
  variant1_options: [],
  variant2: null,
  variant2_options: [],
  skus: [sku(id * 10, code, 0)],
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...over,
});

const ROWS = [
  product(7, 'TS-01', 'เสื้อยืดคอกลม', { cover_url: '/api/products/photos/1/a.png', skus: [sku(71, 'TS-01-W', 12), sku(72, 'TS-01-B', 18)] }),
  product(8, 'BK-01', 'ถุงผ้าลายทาง', { status: 'inactive' }),
];

function serve(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (method === 'GET' && path === '/products') return list(ROWS);
    if (path === '/products/categories') return list([{ id: 3, name: 'เสื้อผ้าแฟชั่น', name_en: 'Fashion' }]);
    return refusal(404, 'not_found');
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
          <Route path="/:storeId/product-list/:channel?" element={<ProductListPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}


const desktopWidth = window.innerWidth;

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

describe('the product list on a desktop', () => {
  it('shows the products in a table, each name a link to its edit screen', async () => {
    serve();
    renderAt('/1/product-list/store');
    const table = await screen.findByTestId('product-table');
    expect(await within(table).findByRole('link', { name: 'เสื้อยืดคอกลม' })).toHaveAttribute('href', '/1/product-edit/store/7');
    expect(document.querySelector('.ant-table')).not.toBeNull();
    expect(screen.queryByTestId('product-7-card')).not.toBeInTheDocument();
    expect(screen.getByTestId('product-import')).toBeInTheDocument();
    expect(screen.queryByTestId('filters-open')).not.toBeInTheDocument();
  });
});

describe('the product list on a phone', () => {
  beforeEach(() => atWidth(390));
  afterEach(() => atWidth(desktopWidth));

  it('shows each product as a card, folds the filters and the import, and opens a product by a tap', async () => {
    serve();
    renderAt('/1/product-list/store');
    const card = await screen.findByTestId('product-7-card');
    expect(card).toHaveTextContent('เสื้อยืดคอกลม');
    expect(card).toHaveTextContent('TS-01');
    expect(card).toHaveTextContent('2 SKUs');
    expect(within(card).getByTestId('product-7-available')).toHaveTextContent('30 available');
    expect(card).toHaveTextContent('On sale');
    expect(card.querySelector('img')).toHaveAttribute('src', '/api/products/photos/1/a.png?size=48');
    expect(screen.getByTestId('product-8-card')).toHaveTextContent('Off sale');
    expect(document.querySelector('.ant-table')).toBeNull();
    // The filters and the import wait behind their buttons; creating stays in sight.
    expect(screen.queryByTestId('filter-category')).not.toBeInTheDocument();
    expect(screen.queryByTestId('product-import')).not.toBeInTheDocument();
    expect(screen.getByTestId('product-create')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('filters-open'));
    expect(await screen.findByTestId('filter-category')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('more-actions'));
    expect(await screen.findByTestId('product-import')).toBeInTheDocument();

    await userEvent.click(card);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/product-edit/store/7'));
  });

  it('chooses cards for a bulk action from the bar at the bottom', async () => {
    const sent = serve((method, path) =>
      method === 'POST' && path === '/products/bulk/status' ? { status: 200, body: { succeeded: 2, failed: 0, data: [] } } : undefined,
    );
    renderAt('/1/product-list/store');
    await screen.findByTestId('product-7-card');
    expect(screen.queryByTestId('bulk-actions')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('list-select'));
    await userEvent.click(screen.getByTestId('product-7-card'));
    await userEvent.click(screen.getByTestId('product-8-card'));
    const bar = await screen.findByTestId('bulk-actions');
    expect(bar).toHaveClass('bo-bottom-bar');
    expect(bar).toHaveTextContent('2 selected');
    expect(screen.getByTestId('where')).toHaveTextContent('/1/product-list/store');
    await userEvent.click(within(bar).getByRole('button', { name: 'Take off sale' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/products/bulk/status')).toBe(true));
    const body = new URLSearchParams(sent.find((s) => s.url === '/api/products/bulk/status')!.body);
    expect(Object.fromEntries(body)).toEqual({ 'ids[0]': '7', 'ids[1]': '8', status: 'inactive' });
  });

  it('opens a product read-only for a member who may not edit it', async () => {
    serve((method, path) => (method === 'GET' && path === '/products/8' ? { status: 200, body: ROWS[1] } : undefined));
    renderAt('/1/product-list/store', 'viewer', [P.productSkuRead]);
    await userEvent.click(await screen.findByTestId('product-8-card'));
    expect(await screen.findByTestId('product-view')).toBeInTheDocument();
    expect(screen.queryByTestId('list-select')).not.toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/1/product-list/store');
  });
});
