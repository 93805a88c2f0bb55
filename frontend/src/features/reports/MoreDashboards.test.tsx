import { screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { serveBy, refusal } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { CHANNEL_LIST, renderDashboardAt, totals } from './dashboardTesting';
import { areaName } from './AreasPage';
import { returningShare } from './CustomersPage';
import { cancelRate } from './OrdersPage';
import { margin } from './ProductsPage';

// jsdom lays nothing out, so the charts are given the size a screen would give them.
jest.mock('recharts', () => {
  const actual = jest.requireActual('recharts');
  const { cloneElement } = jest.requireActual('react');
  return { ...actual, ResponsiveContainer: ({ children }: { children: React.ReactElement }) => cloneElement(children, { width: 800, height: 280 }) };
});

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

const PERIOD = { period: 'monthly', date_from: '2026-11-01', date_to: '2026-11-30', previous_from: '2026-10-01', previous_to: '2026-10-31', updated_at: '2026-11-27T08:00:00.000Z' };

const day = (i: number) => `2026-11-${String(i + 1).padStart(2, '0')}`;
const before = (i: number) => `2026-10-${String(i + 1).padStart(2, '0')}`;

const SALES_CHART = {
  ...PERIOD,
  bucket: 'day',
  channels: [''],
  points: Array.from({ length: 30 }, (_, i) => ({
    start: day(i),
    previous_start: before(i),
    current: [{ channel: '', totals: i === 26 ? totals(3, '1345.50') : totals(0, '0.00') }],
    previous: [{ channel: '', totals: i === 0 ? totals(2, '897.00') : totals(0, '0.00') }],
  })),
};

const CHANNELS_CHART = {
  ...PERIOD,
  bucket: 'day',
  channels: ['facebook', 'line'],
  points: Array.from({ length: 30 }, (_, i) => ({
    start: day(i),
    previous_start: before(i),
    current: [
      { channel: 'facebook', totals: i === 26 ? totals(2, '748.50') : totals(0, '0.00') },
      { channel: 'line', totals: i === 26 ? totals(1, '597.00') : totals(0, '0.00') },
    ],
    previous: [
      { channel: 'facebook', totals: totals(0, '0.00') },
      { channel: 'line', totals: totals(0, '0.00') },
    ],
  })),
};

const CHANNEL_TABLE = {
  ...PERIOD,
  current: totals(3, '1345.50'),
  previous: totals(1, '500.00'),
  channels: [
    { channel: 'facebook', current: totals(2, '748.50'), previous: totals(1, '500.00') },
    { channel: 'line', current: totals(1, '597.00'), previous: totals(0, '0.00') },
  ],
};

const SOLD_SUMMARY = {
  ...PERIOD,
  current: { skus: 2, total_qty: 6, total_net: '1345.50', profit: '457.01' },
  previous: { skus: 1, total_qty: 4, total_net: '400.00', profit: '100.00' },
};

const sold = (sku_id: number, code: string, qty: number, net: string, previous_net: string) => ({
  sku_id,
  product_id: 1,
  product_name: 'เสื้อยืดคอกลม',
  sku_code: code,
  variant: code.endsWith('R') ? 'แดง' : 'น้ำเงิน',
  total_qty: qty,
  total_net: net,
  net_ex_vat: (Number(net) / 1.07).toFixed(2),
  cost: '100.00',
  profit: (Number(net) / 1.07 - 100).toFixed(2),
  previous_qty: 0,
  previous_net: previous_net,
  previous_profit: '0.00',
});

describe('the statistics dashboard', () => {
  it('draws a figure beside the period before, point by point, and switches figures', async () => {
    const sent = serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : { status: 200, body: SALES_CHART }));
    renderDashboardAt('/1/dashboard/statistic?period=monthly&date=2026-11-15');
    expect(await screen.findByTestId('figure-total-value')).toHaveTextContent('1,345.50');
    expect(sent.some((s) => s.url === '/api/order-reports/order-summaries/charts/sales?period=monthly&date=2026-11-15')).toBe(true);
    expect(screen.getByTestId('figure-total-change')).toHaveTextContent('50%');
    expect(screen.getByTestId('chart-compared')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByTestId('chart-compared').querySelectorAll('.recharts-line').length).toBe(2);

    // The table: each day of November beside the same day of October.
    await userEvent.click(within(screen.getByTestId('compared-view')).getByText('Table'));
    const rows = within(screen.getByTestId('compared')).getAllByRole('row');
    expect(rows.length).toBe(31);
    const first = rows[1];
    expect(first).toHaveTextContent('1 Nov');
    expect(first).toHaveTextContent('1 Oct');
    expect(first).toHaveTextContent('897.00');

    // Orders instead of sales: counted, not in baht, and kept in the address.
    await userEvent.click(within(screen.getByTestId('figure')).getByText('Orders'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toContain('figure=orders'));
    expect(screen.getByTestId('figure-total-value')).toHaveTextContent(/^3$/);
    expect(screen.getByTestId('figure-total')).toHaveTextContent('(before: 2)');
  });

  it('goes to another dashboard with the same period', async () => {
    serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : path.endsWith('/channels') ? { status: 200, body: path.includes('charts') ? CHANNELS_CHART : CHANNEL_TABLE } : { status: 200, body: SALES_CHART }));
    renderDashboardAt('/1/dashboard/statistic?period=quarterly&date=2026-11-15');
    await screen.findByTestId('figure-total-value');
    await userEvent.click(screen.getByTestId('tab-saleChannel'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/1/dashboard/sale-channel?period=quarterly&date=2026-11-15'));
  });
});

describe('the sales-channel dashboard', () => {
  it('stacks the channels over time and compares each with the period before', async () => {
    const sent = serveBy((_m, path) =>
      path === '/orders/channels' ? CHANNEL_LIST : path.includes('/charts/') ? { status: 200, body: CHANNELS_CHART } : { status: 200, body: CHANNEL_TABLE },
    );
    renderDashboardAt('/1/dashboard/sale-channel?period=monthly&date=2026-11-15');
    const table = await screen.findByTestId('channels');
    expect(await within(table).findByTestId('channel-facebook')).toHaveTextContent('Facebook');
    expect(sent.some((s) => s.url.startsWith('/api/order-reports/order-summaries/table-lists/channels?'))).toBe(true);
    // 748.50 against 500.00; LINE sold nothing before.
    expect(within(table).getByTestId('change-facebook')).toHaveTextContent('49.7%');
    expect(within(table).getByTestId('change-line')).toHaveTextContent('Nothing to compare with');
    expect(within(table).getByText('55.6%')).toBeInTheDocument();
    expect(screen.getByTestId('figure-channels-value')).toHaveTextContent('2');
    expect(screen.getByTestId('chart-stacked').querySelectorAll('.recharts-bar').length).toBe(2);

    await userEvent.click(within(screen.getByTestId('channels-over-time-view')).getByText('Table'));
    const over = screen.getByTestId('channels-over-time');
    const row = within(over).getAllByRole('row').find((r) => r.textContent?.includes('27 Nov'))!;
    expect(row).toHaveTextContent('748.50');
    expect(row).toHaveTextContent('597.00');
  });

  it('says so when the figures cannot be loaded', async () => {
    serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : refusal(503, 'service_unavailable')));
    renderDashboardAt('/1/dashboard/sale-channel');
    expect(await screen.findByText('The figures could not be loaded')).toBeInTheDocument();
  });
});

describe('the products-sold dashboard', () => {
  it('lists every SKU sold, searched, sorted and paged, beside the period before', async () => {
    const sent = serveBy((_m, path) => {
      if (path === '/order-reports/sold-item-summaries') return { status: 200, body: SOLD_SUMMARY };
      return { status: 200, body: { data: [sold(7, 'DB1-R', 5, '995.00', '400.00'), sold(8, 'DB1-B', 1, '350.50', '0.00')], total: 12, limit: 10, page: 1, pages: 2 } };
    });
    renderDashboardAt('/1/dashboard/sale-product?period=monthly&date=2026-11-15');
    expect(await screen.findByTestId('figure-skus-value')).toHaveTextContent('2');
    expect(screen.getByTestId('figure-net-change')).toHaveTextContent('236.4%');
    const items = screen.getByTestId('sold-items');
    expect(await within(items).findByTestId('sold-7')).toHaveTextContent('เสื้อยืดคอกลม · แดง');
    expect(within(items).getByTestId('change-7')).toHaveTextContent('148.8%');
    expect(screen.getByTestId('chart-ranked').querySelectorAll('.recharts-bar-rectangle').length).toBe(2);
    expect(sent.some((s) => s.url === '/api/order-reports/sold-item-summaries/table-lists/skus?period=monthly&date=2026-11-15&sort=net&page=1&limit=10')).toBe(true);

    await userEvent.click(within(screen.getByTestId('sort')).getByText('By units'));
    await waitFor(() => expect(sent.some((s) => s.url.includes('sort=quantity&page=1'))).toBe(true));
    await userEvent.type(within(items).getByRole('searchbox'), 'db1-b{Enter}');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toContain('search=db1-b'));
    await waitFor(() => expect(sent.some((s) => s.url.includes('search=db1-b&sort=quantity'))).toBe(true));
    await userEvent.click(within(items).getByTitle('2'));
    await waitFor(() => expect(sent.some((s) => s.url.includes('page=2'))).toBe(true));
    expect(screen.getByTestId('where').textContent).toContain('page=2');
  });

  it('says when nothing sold matches the search', async () => {
    serveBy((_m, path) =>
      path === '/order-reports/sold-item-summaries'
        ? { status: 200, body: SOLD_SUMMARY }
        : { status: 200, body: { data: [], total: 0, limit: 10, page: 1, pages: 1 } },
    );
    renderDashboardAt('/1/dashboard/sale-product?search=nothing');
    expect(await screen.findAllByText('No SKU sold in this period matches')).not.toHaveLength(0);
  });

  it('works out the margin on the net without VAT', () => {
    expect(margin('30.00', '100.00')).toBe(30);
    expect(margin('-5.00', '80.00')).toBe(-6.3);
    expect(margin('0.00', '0.00')).toBeNull();
  });
});

const ORDER_SUMMARY = {
  ...PERIOD,
  current: totals(6, '1345.50', { cancelled: 1, units: 9 }),
  previous: totals(4, '897.00', { cancelled: 2, units: 5 }),
  channels: [],
  previous_channels: [],
  bucket: 'day',
  series: [],
  products: [],
  states: [
    { state: 'cancelled', orders: 1 },
    { state: 'new', orders: 2 },
    { state: 'shipped', orders: 3 },
  ],
};

describe('the orders dashboard', () => {
  it('counts orders placed and cancelled, over time and by state now', async () => {
    const chart = {
      ...SALES_CHART,
      points: SALES_CHART.points.map((p, i) => (i === 26 ? { ...p, current: [{ channel: '', totals: totals(6, '1345.50', { cancelled: 1 }) }] } : p)),
    };
    const sent = serveBy((_m, path) => ({ status: 200, body: path.includes('/charts/') ? chart : ORDER_SUMMARY }));
    renderDashboardAt('/1/dashboard/sale-order?period=monthly&date=2026-11-15');
    expect(await screen.findByTestId('figure-orders-value')).toHaveTextContent('6');
    expect(sent.some((s) => s.url === '/api/order-reports/order-summaries?period=monthly&date=2026-11-15&top=1')).toBe(true);
    // One in six cancelled (16.7%) against two in four (50%): better by two thirds.
    expect(screen.getByTestId('figure-rate-value')).toHaveTextContent('16.7%');
    expect(screen.getByTestId('figure-rate')).toHaveTextContent('(before: 50%)');
    expect(screen.getByTestId('figure-rate-change')).toHaveTextContent('66.6%');
    expect(screen.getByTestId('figure-rate-change')).toHaveStyle({ color: '#389e0d' });
    expect(screen.getByTestId('state-shipped')).toHaveTextContent('Sent');
    expect(screen.getByTestId('state-shipped')).toHaveTextContent('3 · 50%');
    expect(screen.getByTestId('chart-orders').querySelectorAll('.recharts-bar').length).toBe(2);

    await userEvent.click(within(screen.getByTestId('orders-over-time-view')).getByText('Table'));
    const row = within(screen.getByTestId('orders-over-time')).getAllByRole('row').find((r) => r.textContent?.includes('27 Nov'))!;
    expect(row.textContent).toBe('27 Nov61');
  });

  it('works out the cancellation rate', () => {
    expect(cancelRate(6, 1)).toBe(16.7);
    expect(cancelRate(0, 0)).toBe(0);
    expect(cancelRate(3, 3)).toBe(100);
  });
});

const area = (name: string, parent: string, orders: number, net: string, previous_net: string) => ({ name, parent, orders, cancelled: 0, net, previous_orders: 0, previous_net });

describe('the customer-area dashboard', () => {
  it('ranks the provinces by sales and switches to districts and countries', async () => {
    const sent = serveBy((_m, _path) => ({
      status: 200,
      body: {
        ...PERIOD,
        kind: 'province',
        current: { areas: 2, orders: 3, cancelled: 0, net: '1345.50' },
        previous: { areas: 1, orders: 1, cancelled: 0, net: '500.00' },
        areas: [area('กรุงเทพมหานคร', '', 2, '995.00', '500.00'), area('เชียงใหม่', '', 1, '350.50', '0.00')],
      },
    }));
    renderDashboardAt('/1/dashboard/customer-area?period=monthly&date=2026-11-15');
    const top = await screen.findByTestId('top-areas');
    expect(within(top).getByTestId('area-กรุงเทพมหานคร')).toHaveTextContent('กรุงเทพมหานคร');
    expect(sent.some((s) => s.url === '/api/order-reports/customer-summaries/locations/top-sales?period=monthly&date=2026-11-15&kind=province')).toBe(true);
    expect(within(top).getByText('74%')).toBeInTheDocument();
    expect(within(top).getByText('99%')).toBeInTheDocument();
    expect(screen.getByTestId('figure-areas')).toHaveTextContent('Provinces ordering');
    expect(screen.getByTestId('chart-ranked').querySelectorAll('.recharts-bar-rectangle').length).toBe(2);

    await userEvent.click(within(screen.getByTestId('kind')).getByText('District'));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith('kind=district'))).toBe(true));
    expect(screen.getByTestId('where').textContent).toContain('kind=district');
  });

  it('names districts with their province, cities and countries by the country', () => {
    expect(areaName('district', { name: 'บางรัก', parent: 'กรุงเทพมหานคร' }, 'th')).toBe('บางรัก, กรุงเทพมหานคร');
    expect(areaName('country', { name: 'JP', parent: '' }, 'en')).toBe('Japan');
    expect(areaName('city', { name: 'Osaka', parent: 'JP' }, 'en')).toBe('Osaka, Japan');
    expect(areaName('province', { name: 'ตาก', parent: '' }, 'en')).toBe('ตาก');
  });
});

const count = (orders: number, net: string) => ({ orders, cancelled: 0, net });
const kind = (orders: number, net: string, previous_orders: number, previous_net: string) => ({ ...count(orders, net), previous_orders, previous_cancelled: 0, previous_net });

describe('the customer dashboard', () => {
  it('tells new customers from returning ones and guests, over time and by share of sales', async () => {
    const sent = serveBy((_m, _path) => ({
      status: 200,
      body: {
        ...PERIOD,
        new_customer: kind(2, '400.00', 1, '100.00'),
        old_customer: kind(3, '500.00', 3, '300.00'),
        guest: kind(1, '100.00', 0, '0.00'),
        bucket: 'day',
        series: Array.from({ length: 30 }, (_, i) =>
          i === 26
            ? { date: day(i), new_customer: count(2, '400.00'), old_customer: count(3, '500.00'), guest: count(1, '100.00') }
            : { date: day(i), new_customer: count(0, '0.00'), old_customer: count(0, '0.00'), guest: count(0, '0.00') },
        ),
      },
    }));
    renderDashboardAt('/1/dashboard/customer?period=monthly&date=2026-11-15');
    expect(await screen.findByTestId('figure-newCustomer-value')).toHaveTextContent('2');
    expect(sent.some((s) => s.url === '/api/order-reports/customer-summaries?period=monthly&date=2026-11-15')).toBe(true);
    expect(screen.getByTestId('figure-newCustomer')).toHaveTextContent('(before: 1)');
    // Returning customers made 500 of 1,000 baht (50%), against 300 of 400 (75%) before.
    expect(screen.getByTestId('figure-returning-share-value')).toHaveTextContent('50%');
    expect(screen.getByTestId('figure-returning-share')).toHaveTextContent('(before: 75%)');
    expect(screen.getByTestId('chart-customers').querySelectorAll('.recharts-bar').length).toBe(3);
    const byKind = screen.getByTestId('customers-by-kind');
    await userEvent.click(within(screen.getByTestId('customers-by-kind-view')).getByText('Table'));
    const row = within(byKind).getAllByRole('row').find((r) => r.textContent?.includes('Returning customers'))!;
    expect(row.textContent).toContain('500.00');
    expect(row.textContent).toContain('50%');

    await userEvent.click(within(screen.getByTestId('customers-over-time-view')).getByText('Table'));
    const day27 = within(screen.getByTestId('customers-over-time')).getAllByRole('row').find((r) => r.textContent?.includes('27 Nov'))!;
    expect(day27.textContent).toBe('27 Nov231');
  });

  it('works out returning customers\' share of the sales', () => {
    const k = (net: string, previousNet: string) => ({ orders: 1, cancelled: 0, net, previousOrders: 1, previousCancelled: 0, previousNet });
    const s = { newCustomer: k('100.00', '100.00'), oldCustomer: k('300.00', '0.00'), guest: k('0.00', '0.00') };
    expect(returningShare(s)).toBe(75);
    expect(returningShare(s, true)).toBe(0);
  });
});
