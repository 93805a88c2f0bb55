import { render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { serveBy } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { signedInStore } from '@/shared/testing/session';
import MovementsReportPage, { documentOf, signed } from './MovementsReportPage';
import OrderReportPage from './OrderReportPage';
import SalesReportPage, { tally } from './SalesReportPage';
import StaffReportPage from './StaffReportPage';
import StockReportPage from './StockReportPage';
import ReportIndexPage from './ReportFrame';

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, role = 'owner', permissions: string[] = []) {
  render(
    <Provider store={signedInStore(role, permissions)}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/report" element={<ReportIndexPage />} />
          <Route path="/:storeId/report/order" element={<OrderReportPage />} />
          <Route path="/:storeId/report/movement" element={<MovementsReportPage />} />
          <Route path="/:storeId/report/sales" element={<SalesReportPage />} />
          <Route path="/:storeId/report/staff" element={<StaffReportPage />} />
          <Route path="/:storeId/report/stock" element={<StockReportPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

const page = (data: unknown[], total = data.length, p = 1) => ({ data, total, limit: 20, page: p, pages: Math.max(1, Math.ceil(total / 20)) });
const movement = (id: number, kind: string, onHand: number, reserved: number, extra: Record<string, unknown> = {}) => ({
  id,
  created_at: '2026-11-27T03:00:00Z',
  warehouse_id: 1,
  warehouse_name: 'คลังหลัก',
  sku_id: 10,
  sku_code: 'MV1-R',
  product_name: 'เสื้อยืดคอกลม',
  variant: 'แดง',
  kind,
  on_hand: onHand,
  reserved,
  reason: '',
  reference: 'order:41',
  created_by: 1,
  created_by_name: 'สมชาย',
  ...extra,
});

const WAREHOUSES = { data: [{ id: 1, name: 'คลังหลัก', code: 'MAIN', is_default: true, active: true }], total: 1, limit: -1, page: 1, pages: 1 };

describe('the reports', () => {
  it('open the order report, or the movements report for whoever reads only the stock', async () => {
    serveBy(() => ({ status: 200, body: page([]) }));
    renderAt('/1/report');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/1/report/order'));
    expect(await screen.findByTestId('order-report')).toBeInTheDocument();
    expect(screen.getByTestId('report-tab-movement')).toBeInTheDocument();
  });

  it('send a stock reader to the stock report, without the order tab', async () => {
    serveBy((_m, path) => ({ status: 200, body: path === '/wms/warehouses' ? WAREHOUSES : page([]) }));
    renderAt('/1/report', 'cashier', ['product.sku.read']);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/1/report/stock'));
    expect(await screen.findByTestId('report-tab-movement')).toBeInTheDocument();
    expect(screen.queryByTestId('report-tab-order')).toBeNull();
  });

  it('list the movements with their documents, filtered and paged through the address', async () => {
    const sent = serveBy((_m, path) => {
      if (path === '/wms/warehouses') return { status: 200, body: WAREHOUSES };
      return {
        status: 200,
        body: page([movement(3, 'reserve', 0, 1), movement(2, 'adjust', -2, 0, { reason: 'แตกเสียหาย', reference: 'adj-1' })], 45),
      };
    });
    renderAt('/1/report/movement?kind=adjust');
    const table = await screen.findByTestId('movements');
    await within(table).findByText('แตกเสียหาย');
    expect(sent.some((s) => s.url === '/api/reports/stock-movement/histories?kind=adjust&page=1&limit=20')).toBe(true);
    const rows = within(table).getAllByRole('row');
    expect(rows[1].textContent).toContain('Reserved for an order');
    expect(rows[1].textContent).toContain('+1');
    expect(within(rows[1]).getByRole('link', { name: 'Order #41' })).toHaveAttribute('href', '/1/order-detail/41');
    expect(rows[2].textContent).toContain('−2');
    expect(rows[2].textContent).toContain('adj-1');
    expect(screen.getByText('45 movements')).toBeInTheDocument();

    // A SKU code searched and the second page: both in the address and in the call.
    const search = within(screen.getByTestId('movement-sku')).getByRole('searchbox');
    await userEvent.type(search, 'MV1-R{Enter}');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/1/report/movement?kind=adjust&sku-code=MV1-R'));
    await userEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/reports/stock-movement/histories?kind=adjust&sku-code=MV1-R&page=2&limit=20')).toBe(true));
    expect(screen.getByTestId('where').textContent).toBe('/1/report/movement?kind=adjust&sku-code=MV1-R&page=2');
  });

  it('export the movements as filtered, and follow the export in the history', async () => {
    let asked = false;
    const exporting = {
      id: 5,
      kind: 'stock_movements',
      file_name: 'stock-movements-2026-11-01-2026-11-27.xlsx',
      state: 'exporting',
      date_from: '2026-10-31T17:00:00Z',
      date_to: '2026-11-27T17:00:00Z',
      order_states: [],
      table: '',
      total: 45,
      done: 9,
      progress: 20,
      file_size: 0,
      exporter_id: 1,
      exporter: 'สมชาย',
      created_at: '2026-11-27T03:00:00Z',
      finished_at: null,
      expires_at: null,
      failure: '',
    };
    const sent = serveBy((m, path) => {
      if (path === '/wms/warehouses') return { status: 200, body: WAREHOUSES };
      if (m === 'POST' && path === '/reports/stock-movement') {
        asked = true;
        return { status: 201, body: exporting };
      }
      if (path === '/orders/reports') return { status: 200, body: page(asked ? [exporting] : []) };
      return { status: 200, body: page([movement(3, 'adjust', -1, 0)], 45) };
    });
    renderAt('/1/report/movement?date-from=2026-11-01&date-to=2026-11-27&kind=adjust&sku-code=MV1-R&warehouse-id=1');
    await within(await screen.findByTestId('movements')).findByText('MV1-R');
    await userEvent.click(screen.getByTestId('movement-export'));
    const post = await waitFor(() => {
      const p = sent.find((x) => x.method === 'POST');
      expect(p).toBeDefined();
      return p!;
    });
    expect(post.url).toBe('/api/reports/stock-movement');
    expect(Object.fromEntries(new URLSearchParams(post.body))).toEqual({
      date_from: '2026-11-01',
      date_to: '2026-11-27',
      kind: 'adjust',
      sku_code: 'MV1-R',
      warehouse_id: '1',
      lang: 'en',
    });
    const history = await screen.findByTestId('export-history');
    expect(await within(history).findByTestId('export-5-what')).toHaveTextContent('Stock movements · 45 rows');
    expect(within(history).getByTestId('export-5-progress')).toBeInTheDocument();
  });


  it('name the document a movement\'s reference points to', () => {
    expect(documentOf('order:41')).toEqual({ kind: 'order', id: 41 });
    expect(documentOf('gr:12')).toEqual({ kind: 'receipt', id: 12 });
    expect(documentOf('tf:5')).toEqual({ kind: 'transfer', id: 5 });
    expect(documentOf('adjust:01a2-ff')).toEqual({ kind: 'adjust' });
    expect(documentOf('order:x')).toEqual({ kind: 'other' });
    expect(documentOf('adj-1')).toEqual({ kind: 'other' });
  });

  it('show the owner the orders placed each day by their state now, with the period\'s totals', async () => {
    // Net, then what the orders come to and what of it is paid; the balance is the rest.
    const state = (s: string, orders: number, net: string, total = net, paid = '0.00') => ({
      state: s,
      orders,
      net,
      total,
      paid,
      balance: (Number(total) - Number(paid)).toFixed(2),
    });
    const sent = serveBy(() => ({
      status: 200,
      body: {
        period: 'monthly',
        date_from: '2026-11-01',
        date_to: '2026-11-30',
        previous_from: '2026-10-01',
        previous_to: '2026-10-31',
        bucket: 'day',
        current: [state('new', 2, '1345.50', '1439.69', '500.00'), state('shipped', 1, '100.00', '107.00', '107.00'), state('cancelled', 1, '199.00', '212.93', '212.93')],
        previous: [state('closed', 4, '800.00')],
        rows: Array.from({ length: 30 }, (_, i) => ({
          date: `2026-11-${String(i + 1).padStart(2, '0')}`,
          states: i === 26 ? [state('new', 2, '1345.50', '1439.69', '500.00'), state('shipped', 1, '100.00', '107.00', '107.00'), state('cancelled', 1, '199.00', '212.93', '212.93')] : [],
        })),
        updated_at: '2026-11-27T08:00:00.000Z',
      },
    }));
    renderAt('/1/report/sales?period=monthly&date=2026-11-15');
    const table = await screen.findByTestId('sales-report');
    expect(sent.some((s) => s.url === '/api/order-reports/order-summaries/table-lists/states?period=monthly&date=2026-11-15')).toBe(true);
    const day27 = within(table).getAllByRole('row').find((r) => r.textContent?.startsWith('27 Nov'))!;
    // Placed 4 (1,644.50), open 2, sent 1, closed 0, cancelled 1; of those that stand 607.00
    // paid and 939.69 owed (the cancelled order's money is not a balance).
    expect(day27.textContent).toBe('27 Nov41,644.5021,345.501100.0000.001199.00607.00939.69');
    expect(screen.getByTestId('sales-total').textContent).toContain('41,644.50');
    expect(screen.getByTestId('sales-total').textContent).toMatch(/607\.00939\.69$/);
    expect(within(table).getByRole('columnheader', { name: 'Balance due' })).toBeInTheDocument();
    expect(screen.getByTestId('sales-before').textContent).toContain('4800.00');
    expect(screen.getByTestId('report-tab-sales')).toBeInTheDocument();
  });

  it('show the owner who made the period\'s orders, orders from channels apart', async () => {
    const row = (user_id: number, name: string, orders: number, net: string, previous_net: string) => ({ user_id, name, orders, cancelled: 0, net, previous_orders: 0, previous_net });
    const sent = serveBy(() => ({
      status: 200,
      body: {
        period: 'monthly',
        date_from: '2026-11-01',
        date_to: '2026-11-30',
        previous_from: '2026-10-01',
        previous_to: '2026-10-31',
        staff: [row(1, 'สมศรี ใจดี', 3, '750.00', '500.00'), row(0, '', 1, '250.00', '0.00'), row(7, '', 1, '0.00', '100.00')],
        updated_at: '2026-11-27T08:00:00.000Z',
      },
    }));
    renderAt('/1/report/staff?period=monthly&date=2026-11-15');
    await screen.findByTestId('staff-report');
    expect(sent.some((s) => s.url === '/api/order-reports/admin-performance-summaries?period=monthly&date=2026-11-15')).toBe(true);
    await userEvent.click(within(screen.getByTestId('staff-report-view')).getByText('Table'));
    expect(screen.getByTestId('staff-1')).toHaveTextContent('สมศรี ใจดี');
    expect(screen.getByTestId('staff-0')).toHaveTextContent('From channels and the system');
    expect(screen.getByTestId('staff-7')).toHaveTextContent('Former member #7');
    const owner = screen.getAllByRole('row').find((r) => r.textContent?.includes('สมศรี'))!;
    // 750 of 1,000 baht: 75%, up by half on the month before.
    expect(owner.textContent).toContain('75%');
    expect(owner.textContent).toContain('50%');
  });

  it('show the stock at the end of a day, with the totals, the day in the address', async () => {
    const sent = serveBy((_m, path) => {
      if (path === '/wms/warehouses') return { status: 200, body: WAREHOUSES };
      const row = (sku_id: number, sku_code: string, on_hand: number, reserved: number, value: string) => ({
        warehouse_id: 1,
        warehouse_name: 'คลังหลัก',
        sku_id,
        sku_code,
        product_name: 'เสื้อยืดคอกลม',
        on_hand,
        reserved,
        available: on_hand - reserved,
        value,
      });
      return {
        status: 200,
        body: { at: '2026-11-20T16:59:59.999Z', data: [row(1, 'ST1-B', 3, 0, '600.00'), row(2, 'ST1-R', 8, 1, '960.00')], total: 2, limit: 20, page: 1, pages: 1, on_hand: 11, reserved: 1, available: 10, value: '1560.00' },
      };
    });
    renderAt('/1/report/stock?date=2026-11-20');
    const table = await screen.findByTestId('stock-report');
    await within(table).findByText('ST1-R');
    expect(sent.some((s) => s.url === '/api/reports/stock?date=2026-11-20&page=1&limit=20')).toBe(true);
    const red = within(table).getAllByRole('row').find((r) => r.textContent?.includes('ST1-R'))!;
    expect(red.textContent).toContain('960.00');
    expect(screen.getByTestId('stock-total').textContent).toBe('2 SKUs in all111101,560.00');
    expect(screen.getByTestId('stock-at')).toHaveTextContent('2026');
  });

  it('gather the states into the report\'s columns', () => {
    const t = tally([
      { state: 'new', orders: 1, net: '10.10', total: '10.81', paid: '0.00', balance: '10.81' },
      { state: 'ready_to_fulfillment', orders: 2, net: '0.20', total: '0.21', paid: '0.10', balance: '0.11' },
      { state: 'failed', orders: 1, net: '5.00', total: '5.35', paid: '5.35', balance: '0.00' },
    ]);
    expect(t.placed).toEqual({ orders: 4, satang: 1530 });
    expect(t.open).toEqual({ orders: 3, satang: 1030 });
    expect(t.cancelled).toEqual({ orders: 1, satang: 500 });
    expect(t.sent).toEqual({ orders: 0, satang: 0 });
    // The failed order's payment is not counted as paid for what stands, nor owed.
    expect([t.paid, t.balance]).toEqual([10, 1092]);
  });

  it('write changes of units with their sign', () => {
    expect(signed(5)).toBe('+5');
    expect(signed(-1200)).toBe('−1,200');
    expect(signed(0)).toBe('–');
  });
});
