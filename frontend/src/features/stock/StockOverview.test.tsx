import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import dayjs from 'dayjs';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { P } from '@/shared/permissions.gen';
import { serveBy, type Reply } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import StockOverviewPage from './StockOverviewPage';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { atWidth } from '@/shared/testing/viewport';

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[]) => ({
  status: 200,
  body: { data, total: data.length, limit: 10, page: 1, pages: 1 },
});
const WAREHOUSES = list([
  {
    id: 1,
    code: 'MAIN',
    name: 'คลังหลัก',
    is_default: true,
    active: true,
    created_at: '2026-11-01T00:00:00Z',
  },
  {
    id: 2,
    code: 'SIAM',
    name: 'คลังสยาม',
    is_default: false,
    active: true,
    created_at: '2026-11-02T00:00:00Z',
  },
]);
const row = (sku_id: number, sku_code: string, product_name: string, warehouse_id: number, quantity: number) => ({
  sku_id,
  sku_code,
  product_id: sku_id,
  product_name,
  option1: '',
  option2: '',
  safety_stock: 2,
  inventory: {
    warehouse_id,
    available: quantity,
    preorder: 0,
    quantity,
    reserve: 0,
  },
});
const SKUS = list([row(1, 'NAM-01', 'น้ำพริกเผา', 1, 30), row(2, 'MUG-02', 'แก้วมัค', 1, 6)]);
const day = (n: number) => dayjs().add(n, 'day').format('YYYY-MM-DD');
const lot = (id: number, sku_id: number, warehouse_id: number, code: string, expired_at: string | null, on_hand: number) => ({
  id,
  sku_id,
  warehouse_id,
  code,
  goods_receipt_id: 0,
  unit_cost: '42.50',
  expired_at,
  received_at: '2026-11-01T03:00:00Z',
  quantity_in: on_hand,
  on_hand,
  reserved: 0,
});
const LOTS = list([
  lot(11, 1, 1, 'GR2569-000001', day(3), 10),
  lot(12, 1, 1, 'GR2569-000002', day(20), 12),
  lot(13, 1, 1, 'GR2569-000003', day(90), 8),
  lot(14, 1, 1, 'ADJ', null, 0),
  // Another SKU's, and another warehouse's: not the row's.
  lot(15, 2, 1, 'GR2569-000004', day(200), 6),
  lot(16, 1, 2, 'GR2569-000005', day(1), 4),
]);
const IN_TRANSIT = list([
  { warehouse_id: 1, sku_id: 1, quantity: 5 },
  { warehouse_id: 2, sku_id: 2, quantity: 7 },
]);
const VALUE = {
  status: 200,
  body: {
    warehouses: [
      {
        warehouse_id: 1,
        on_hand: 36,
        average_value: '1530.00',
        fifo_value: '1512.25',
      },
      {
        warehouse_id: 2,
        on_hand: 4,
        average_value: '170.00',
        fifo_value: '170.00',
      },
    ],
    data: [],
    total: 2,
    limit: 1,
    page: 1,
    pages: 2,
  },
};

function serve(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/wms/warehouses') return WAREHOUSES;
    if (path === '/products/sku-inventories') return SKUS;
    if (path === '/wms/in-transit') return IN_TRANSIT;
    if (path === '/wms/stock-lots') return LOTS;
    if (path === '/wms/stock-valuation') return VALUE;
    return {
      status: 404,
      body: { error: { code: 'not_found', message_key: 'x', message: 'x' } },
    };
  });
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  render(
    <Provider store={signedInStore(permission, permissions)}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/stock-management-overview-list" element={<StockOverviewPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

describe('the stock overview', () => {
  it('shows what is in transit to each row’s warehouse, and opens a row on its lots with the expiring ones flagged', async () => {
    const sent = serve();
    renderAt('/1/stock-management-overview-list');
    await waitFor(() => expect(screen.getByTestId('stock-1-1-transit')).toHaveTextContent('5'));
    // SKU 2 is in transit to the other warehouse only.
    expect(screen.getByTestId('stock-2-1-transit')).toHaveTextContent('0');
    expect(sent.some((s) => s.url === '/api/wms/in-transit?sku-ids=1%2C2')).toBe(true);
    // Two of the row's lots expire within 30 days.
    expect(await screen.findByTestId('stock-1-1-expiring')).toHaveTextContent('2 lots expiring soon');
    expect(screen.queryByTestId('stock-2-1-expiring')).not.toBeInTheDocument();

    const tr = screen.getByText('NAM-01').closest('tr') as HTMLElement;
    await userEvent.click(tr.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const lots = await screen.findByTestId('lots-1-1');
    await waitFor(() => expect(within(lots).getByText('GR2569-000001')).toBeInTheDocument());
    expect(sent.some((s) => s.url === '/api/wms/stock-lots?warehouse-id=1&sku-ids=1&limit=-1')).toBe(true);
    // Only this SKU's lots in this warehouse.
    expect(within(lots).queryByText('GR2569-000004')).not.toBeInTheDocument();
    expect(within(lots).queryByText('GR2569-000005')).not.toBeInTheDocument();
    expect(screen.getByTestId('lot-11-expiry-tag')).toHaveTextContent('3 days left');
    expect(screen.getByTestId('lot-11-expiry-tag')).toHaveClass('ant-tag-red');
    expect(screen.getByTestId('lot-12-expiry-tag')).toHaveTextContent('20 days left');
    expect(screen.getByTestId('lot-12-expiry-tag')).toHaveClass('ant-tag-orange');
    expect(screen.queryByTestId('lot-13-expiry-tag')).not.toBeInTheDocument();
    expect(within(lots).getByText('No expiry')).toBeInTheDocument();
    expect(within(lots).getAllByText('฿42.50').length).toBeGreaterThan(0);

    // Fewer days: the 20-day lot is no longer flagged.
    fireEvent.change(screen.getByTestId('overview-days'), {
      target: { value: '10' },
    });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('days=10'));
    await waitFor(() => expect(screen.getByTestId('stock-1-1-expiring')).toHaveTextContent('1 lot expiring soon'));
  });

  it('lists the lots expiring soon across SKUs', async () => {
    const sent = serve();
    renderAt('/1/stock-management-overview-list?days=30');
    await userEvent.click(await screen.findByTestId('overview-view-expiring'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('view=expiring'));
    const table = await screen.findByTestId('expiring-table');
    await waitFor(() => expect(within(table).getByText('GR2569-000005')).toBeInTheDocument());
    expect(sent.some((s) => s.url.startsWith('/api/wms/stock-lots?expiring-within-days=30'))).toBe(true);
    expect(within(table).getByText('GR2569-000001')).toBeInTheDocument();
    expect(within(table).getByText('GR2569-000002')).toBeInTheDocument();
    expect(within(table).queryByText('GR2569-000003')).not.toBeInTheDocument();
    // Named by their SKU, in their warehouse.
    await waitFor(() => expect(within(screen.getByText('GR2569-000005').closest('tr') as HTMLElement).getByText('น้ำพริกเผา')).toBeInTheDocument());
    expect(within(screen.getByText('GR2569-000005').closest('tr') as HTMLElement).getByText('คลังสยาม')).toBeInTheDocument();
    expect(screen.getByTestId('lot-16-expiry-tag')).toHaveTextContent('1 day left');
  });

  it('shows the stock value per warehouse to those who may read goods receipts', async () => {
    serve();
    renderAt('/1/stock-management-overview-list');
    const card = await screen.findByTestId('stock-value');
    await waitFor(() => expect(within(card).getByText('฿1,530.00')).toBeInTheDocument());
    expect(within(card).getByText('฿1,512.25')).toBeInTheDocument();
    expect(within(card).getByText('All warehouses')).toBeInTheDocument();
    expect(within(card).getByText('฿1,700.00')).toBeInTheDocument();
    expect(within(card).getByText('฿1,682.25')).toBeInTheDocument();
  });

  it('hides the stock value from a member who may not read goods receipts', async () => {
    const sent = serve();
    renderAt('/1/stock-management-overview-list', 'cashier', [P.productSkuRead]);
    expect(await screen.findByTestId('stock-1-1-transit')).toBeInTheDocument();
    expect(screen.queryByTestId('stock-value')).not.toBeInTheDocument();
    expect(sent.some((s) => s.url.startsWith('/api/wms/stock-valuation'))).toBe(false);
  });
});


describe('the stock overview on a phone', () => {
  const desktopWidth = window.innerWidth;
  beforeEach(() => atWidth(390));
  afterEach(() => atWidth(desktopWidth));

  it('shows a card per SKU and warehouse, opened on its lots by a tap, and the value per warehouse without a table', async () => {
    const sent = serve();
    renderAt('/1/stock-management-overview-list');
    const card = await screen.findByTestId('stock-1-1-card');
    expect(card).toHaveTextContent('NAM-01');
    expect(card).toHaveTextContent('น้ำพริกเผา');
    expect(card).toHaveTextContent('คลังหลัก');
    expect(card).toHaveTextContent('Available30');
    expect(card).toHaveTextContent('On hand30');
    expect(card).toHaveTextContent('Reserved0');
    await waitFor(() => expect(within(card).getByTestId('stock-1-1-transit')).toHaveTextContent('5'));
    expect(await within(card).findByTestId('stock-1-1-expiring')).toHaveTextContent('2 lots expiring soon');
    expect(screen.getByTestId('stock-2-1-card')).toHaveTextContent('แก้วมัค');

    // The lots come when the card is tapped, not before.
    expect(screen.queryByTestId('lots-1-1')).not.toBeInTheDocument();
    await userEvent.click(card);
    const lots = await screen.findByTestId('lots-1-1');
    await waitFor(() => expect(within(lots).getByText('GR2569-000001')).toBeInTheDocument());
    expect(sent.some((s) => s.url === '/api/wms/stock-lots?warehouse-id=1&sku-ids=1&limit=-1')).toBe(true);
    expect(within(lots).queryByText('GR2569-000004')).not.toBeInTheDocument();
    expect(screen.getByTestId('lot-11-expiry-tag')).toHaveTextContent('3 days left');
    // A tap on the lots leaves them open; one on the card closes them.
    await userEvent.click(lots);
    expect(screen.getByTestId('lots-1-1')).toBeInTheDocument();
    await userEvent.click(within(card).getByText('NAM-01'));
    await waitFor(() => expect(screen.queryByTestId('lots-1-1')).not.toBeInTheDocument());

    const value = screen.getByTestId('stock-value');
    await waitFor(() => expect(within(value).getByText('฿1,530.00')).toBeInTheDocument());
    expect(within(value).getByTestId('stock-value-total')).toHaveTextContent('฿1,700.00');
    expect(within(value).getByTestId('stock-value-total')).toHaveTextContent('฿1,682.25');
    expect(document.querySelector('.ant-table')).toBeNull();
  });

  it('folds the warehouse, below safety stock and the days into the drawer', async () => {
    serve();
    renderAt('/1/stock-management-overview-list?days=10');
    await screen.findByTestId('stock-1-1-card');
    expect(screen.queryByTestId('overview-warehouse')).not.toBeInTheDocument();
    expect(screen.getByTestId('overview-filters')).toHaveTextContent('1');
    await userEvent.click(screen.getByTestId('filters-open'));
    expect(await screen.findByTestId('overview-warehouse')).toBeInTheDocument();
    expect(screen.getByTestId('overview-days')).toHaveValue('10');
    await userEvent.click(screen.getByText('Below safety stock'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('below=1'));
    await userEvent.click(screen.getAllByTestId('filter-clear')[0]);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/overview-list$/));
  });

  it('lists the lots expiring soon as cards', async () => {
    serve();
    renderAt('/1/stock-management-overview-list?view=expiring');
    const card = await screen.findByTestId('lot-16-card');
    await waitFor(() => expect(card).toHaveTextContent('น้ำพริกเผา'));
    expect(card).toHaveTextContent('NAM-01');
    expect(card).toHaveTextContent('คลังสยาม');
    expect(card).toHaveTextContent('GR2569-000005');
    expect(within(card).getByTestId('lot-16-expiry-tag')).toHaveTextContent('1 day left');
    expect(screen.queryByTestId('lot-13-card')).not.toBeInTheDocument();
    expect(document.querySelector('.ant-table')).toBeNull();
  });
});
