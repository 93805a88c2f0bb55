import { screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { serveBy, refusal } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { CHANNEL_LIST, renderDashboardAt, totals } from './dashboardTesting';

// jsdom lays nothing out, so the charts are given the size a screen would give them.
jest.mock('recharts', () => {
  const actual = jest.requireActual('recharts');
  const { cloneElement } = jest.requireActual('react');
  return { ...actual, ResponsiveContainer: ({ children }: { children: React.ReactElement }) => cloneElement(children, { width: 800, height: 280 }) };
});

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

const SUMMARY = {
  period: 'monthly',
  date_from: '2026-11-01',
  date_to: '2026-11-30',
  previous_from: '2026-10-01',
  previous_to: '2026-10-31',
  current: totals(3, '1345.50', { cancelled: 1, profit: '457.01', average: '448.50' }),
  previous: totals(2, '897.00', { cancelled: 2, profit: '300.00', average: '448.50' }),
  channels: [
    { channel: 'facebook', totals: totals(2, '748.50', { cancelled: 1 }) },
    { channel: 'line', totals: totals(1, '597.00') },
  ],
  bucket: 'day',
  series: Array.from({ length: 30 }, (_, i) => ({
    start: `2026-11-${String(i + 1).padStart(2, '0')}`,
    totals: i === 26 ? totals(3, '1345.50') : totals(0, '0.00'),
  })),
  products: [
    { sku_id: 7, product_id: 1, product_name: 'เสื้อยืดคอกลม', sku_code: 'DB1-R', variant: 'แดง', total_qty: 5, total_net: '995.00', profit: '330.00' },
    { sku_id: 8, product_id: 1, product_name: 'เสื้อยืดคอกลม', sku_code: 'DB1-B', variant: 'น้ำเงิน', total_qty: 1, total_net: '350.50', profit: '127.57' },
  ],
  states: [
    { state: 'cancelled', orders: 1 },
    { state: 'new', orders: 2 },
  ],
  updated_at: '2026-11-27T08:00:00.000Z',
};

describe('the overview dashboard', () => {
  it('shows the period beside the one before, by channel, by state and the best sellers', async () => {
    const sent = serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : { status: 200, body: SUMMARY }));
    renderDashboardAt('/1/dashboard?period=monthly&date=2026-11-15');
    expect(await screen.findByTestId('figure-net-value')).toHaveTextContent('1,345.50');
    expect(sent.some((s) => s.url === '/api/order-reports/order-summaries?period=monthly&date=2026-11-15')).toBe(true);
    // 1,345.50 against 897.00 is half as much again; one cancellation against two is better.
    expect(screen.getByTestId('figure-net-change')).toHaveTextContent('50%');
    expect(screen.getByTestId('figure-net')).toHaveTextContent('(before: 897.00)');
    expect(screen.getByTestId('figure-cancelled-change')).toHaveTextContent('50%');
    expect(screen.getByTestId('figure-orders-value')).toHaveTextContent('3');
    expect(screen.getByTestId('period-label')).toHaveTextContent('November 2026, compared with October 2026');
    expect(screen.getByTestId('updated-at')).toHaveTextContent('Figures updated 27 Nov 2026');

    // The channels' table is read beside the chart, with each one's share.
    const channels = screen.getByTestId('by-channel');
    expect(await within(channels).findByTestId('channel-facebook')).toHaveTextContent('Facebook');
    expect(within(channels).getByText('55.6%')).toBeInTheDocument();
    expect(within(screen.getByTestId('states')).getByTestId('state-new')).toHaveTextContent('2');
    expect(within(screen.getByTestId('states')).getByTestId('state-cancelled')).toHaveTextContent('Cancelled');
    const products = screen.getByTestId('products');
    expect(within(products).getByTestId('product-7')).toHaveTextContent('เสื้อยืดคอกลม · แดง');
    expect(within(products).getByText('995.00')).toBeInTheDocument();
    // The charts are drawn for the eye, hidden from screen readers, which read the tables.
    expect(screen.getByTestId('chart-over-time')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByTestId('chart-over-time').querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('chart-by-channel').querySelectorAll('.recharts-pie-sector').length).toBe(2);

    // The sales over time as a table: every day of the month.
    await userEvent.click(within(screen.getByTestId('over-time-view')).getByText('Table'));
    const rows = within(screen.getByTestId('over-time')).getAllByRole('row');
    expect(rows.length).toBe(31);
    expect(within(screen.getByTestId('over-time')).getByText('27 Nov')).toBeInTheDocument();
  });

  it('switches to a quarter, keeping the day, and reads a wrong day as today', async () => {
    const sent = serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : { status: 200, body: SUMMARY }));
    renderDashboardAt('/1/dashboard?period=weekly&date=2026-02-30');
    await screen.findByTestId('figure-net-value');
    const first = sent.find((s) => s.url.startsWith('/api/order-reports/order-summaries'))!;
    expect(first.url).toMatch(/period=monthly&date=\d{4}-\d{2}-\d{2}$/);
    expect(first.url).not.toContain('2026-02-30');
    await userEvent.click(within(screen.getByTestId('period')).getByText('Quarter'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toContain('period=quarterly'));
    await waitFor(() => expect(sent.some((s) => s.url.includes('period=quarterly'))).toBe(true));
  });

  it('says so when the figures cannot be loaded, and tries again', async () => {
    let fail = true;
    serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : fail ? refusal(503, 'service_unavailable') : { status: 200, body: SUMMARY }));
    renderDashboardAt('/1/dashboard');
    expect(await screen.findByText('The figures could not be loaded')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByText('Try again'));
    expect(await screen.findByTestId('figure-net-value')).toHaveTextContent('1,345.50');
  });

  it('shows a period without sales as such', async () => {
    const empty = { ...SUMMARY, current: totals(0, '0.00'), previous: totals(0, '0.00'), channels: [], products: [], states: [], updated_at: '' };
    serveBy((_m, path) => (path === '/orders/channels' ? CHANNEL_LIST : { status: 200, body: empty }));
    renderDashboardAt('/1/dashboard');
    expect(await screen.findByTestId('updated-at')).toHaveTextContent('No sales recorded yet');
    expect(screen.getByTestId('figure-net')).toHaveTextContent('Nothing to compare with');
    expect(within(screen.getByTestId('states')).getByText('No sales in this period')).toBeInTheDocument();
  });
});
