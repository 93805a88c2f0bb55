import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import i18n from 'i18next';

import thReports from '@/locales/th/reports.json';
import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { refusal, serveBy } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { satang } from './dashboard';
import { renderDashboardAt } from './dashboardTesting';
import { feesPerOrder } from './ServiceFeePage';

// jsdom lays nothing out, so the charts are given the size a screen would give them.
jest.mock('recharts', () => {
  const actual = jest.requireActual('recharts');
  const { cloneElement } = jest.requireActual('react');
  return { ...actual, ResponsiveContainer: ({ children }: { children: React.ReactElement }) => cloneElement(children, { width: 800, height: 280 }) };
});

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

/** A `FeeTotalsBody` as the gateway sends it (snake_case): nothing but what `extra` says. */
const fees = (extra: Record<string, unknown> = {}) => ({
  orders: 0,
  receipts: 0,
  shelving: '0.00',
  goods_receipt: '0.00',
  picking: '0.00',
  packing: '0.00',
  packaging: '0.00',
  material: '0.00',
  additional: '0.00',
  shipping: '0.00',
  cod: '0.00',
  total: '0.00',
  ...extra,
});

// November: 3 orders shipped and 2 receipts for 500.50 baht; October: 2 orders for 400.00.
const NOVEMBER = fees({
  orders: 3,
  receipts: 2,
  shelving: '120.00',
  goods_receipt: '45.00',
  picking: '30.00',
  packing: '60.00',
  packaging: '36.00',
  material: '15.00',
  additional: '10.00',
  shipping: '150.00',
  cod: '34.50',
  total: '500.50',
});
const OCTOBER = fees({ orders: 2, receipts: 1, shelving: '100.00', picking: '20.00', packing: '40.00', shipping: '200.00', cod: '40.00', total: '400.00' });

const SUMMARY = {
  period: 'monthly',
  date_from: '2026-11-01',
  date_to: '2026-11-30',
  previous_from: '2026-10-01',
  previous_to: '2026-10-31',
  updated_at: '2026-11-27T08:00:00.000Z',
  current: NOVEMBER,
  previous: OCTOBER,
  bucket: 'day',
  points: Array.from({ length: 30 }, (_, i) => ({ start: `2026-11-${String(i + 1).padStart(2, '0')}`, fees: i === 26 ? NOVEMBER : fees() })),
  warehouses: [
    { warehouse_id: 1, warehouse_name: 'คลังหลัก', current: fees({ orders: 2, total: '400.50' }), previous: OCTOBER },
    { warehouse_id: 2, warehouse_name: 'คลังสยาม', current: fees({ orders: 1, total: '100.00' }), previous: fees() },
  ],
};

const serve = () => serveBy((_m, path) => (path === '/order-reports/service-fee-summaries' ? { status: 200, body: SUMMARY } : { status: 404 }));

describe('the service-fee dashboard', () => {
  it('shows the fees beside the period before, per kind, per warehouse and over time', async () => {
    const sent = serve();
    renderDashboardAt('/1/dashboard/service-fee?period=monthly&date=2026-11-15');
    expect(await screen.findByTestId('figure-total-value')).toHaveTextContent('500.50');
    expect(sent.map((s) => s.url)).toContain('/api/order-reports/service-fee-summaries?period=monthly&date=2026-11-15');
    // Dearer by a quarter: bad news, in red.
    expect(screen.getByTestId('figure-total-change')).toHaveTextContent('25.1%');
    expect(screen.getByTestId('figure-total-change')).toHaveStyle({ color: '#cf1322' });
    expect(screen.getByTestId('figure-orders-value')).toHaveTextContent(/^3$/);
    expect(screen.getByTestId('figure-receipts-value')).toHaveTextContent(/^2$/);
    // 50,050 satang over 3 orders: 16,683 satang each, against 200.00 before.
    expect(screen.getByTestId('figure-per-order-value')).toHaveTextContent('166.83');
    expect(screen.getByTestId('figure-per-order')).toHaveTextContent('(before: 200.00)');
    expect(screen.getByTestId('figure-per-order-change')).toHaveStyle({ color: '#389e0d' });
    expect(screen.getByTestId('fees-ex-vat')).toHaveTextContent('Excluding 7% VAT and withholding tax');
    expect(screen.getByTestId('updated-at')).toHaveTextContent('Figures updated 27 Nov 2026');
    expect(screen.getByTestId('tab-serviceFee')).toHaveTextContent('Service fees');

    // One stack per kind of fee, drawn for the eye only.
    expect(screen.getByTestId('chart-fees')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByTestId('chart-fees').querySelectorAll('.recharts-bar').length).toBe(9);

    // The kinds add up to the total, in satang.
    const kinds = screen.getByTestId('fee-kinds');
    const rows = within(kinds).getAllByRole('row').filter((r) => r.querySelector('[data-testid^="kind-"]'));
    expect(rows).toHaveLength(9);
    const cells = (r: HTMLElement) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '');
    const sum = rows.reduce((n, r) => n + satang(cells(r)[1].replace(/,/g, '')), 0);
    const total = cells(screen.getByTestId('fee-kinds-total'));
    expect(total.slice(0, 3)).toEqual(['Total', '500.50', '400.00']);
    expect(sum).toBe(satang(NOVEMBER.total));
    expect(within(kinds).getByTestId('kind-cod').closest('tr')).toHaveTextContent('COD fee34.5040.00');
    expect(within(kinds).getByTestId('change-cod')).toHaveTextContent('13.8%');
    expect(within(kinds).getByTestId('change-goodsReceipt')).toHaveTextContent('Nothing to compare with');

    const warehouses = screen.getByTestId('fee-warehouses');
    expect(within(warehouses).getByTestId('warehouse-1').closest('tr')).toHaveTextContent('คลังหลัก2400.50400.00');
    expect(within(warehouses).getByTestId('warehouse-change-1')).toHaveTextContent('0.1%');
    expect(within(warehouses).getByTestId('warehouse-change-2')).toHaveTextContent('Nothing to compare with');

    // The chart's figures as a table, day by day.
    await userEvent.click(within(screen.getByTestId('fees-over-time-view')).getByText('Table'));
    const day27 = within(screen.getByTestId('fees-over-time')).getAllByRole('row').find((r) => r.textContent?.startsWith('27 Nov'))!;
    expect(day27.textContent).toBe('27 Nov120.0045.0030.0060.0036.0015.0010.00150.0034.50500.50');
  });

  it('keeps the period in the address, switches it and comes from the other dashboards with it', async () => {
    const sent = serve();
    renderDashboardAt('/1/dashboard/service-fee?period=monthly&date=2026-11-15');
    await screen.findByTestId('figure-total-value');
    await userEvent.click(within(screen.getByTestId('period')).getByText('Year'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/1/dashboard/service-fee?period=yearly&date=2026-11-15'));
    await waitFor(() => expect(sent.map((s) => s.url)).toContain('/api/order-reports/service-fee-summaries?period=yearly&date=2026-11-15'));
    await userEvent.click(screen.getByTestId('tab-customer'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/1/dashboard/customer?period=yearly&date=2026-11-15'));
  });

  it('speaks Thai', async () => {
    i18n.addResourceBundle('th', 'reports', thReports, true, true);
    await i18n.changeLanguage('th');
    try {
      serve();
      renderDashboardAt('/1/dashboard/service-fee?period=monthly&date=2026-11-15');
      expect(await screen.findByTestId('figure-total')).toHaveTextContent('ค่าบริการรวม');
      expect(screen.getByTestId('figure-total-value')).toHaveTextContent('500.50');
      expect(screen.getByTestId('tab-serviceFee')).toHaveTextContent('ค่าบริการ');
      expect(screen.getByTestId('period-label')).toHaveTextContent('พฤศจิกายน 2569');
      expect(screen.getByTestId('fees-ex-vat')).toHaveTextContent('ไม่รวมภาษีมูลค่าเพิ่ม 7% และภาษีหัก ณ ที่จ่าย');
      expect(screen.getByTestId('kind-shelving')).toHaveTextContent('ค่าจัดเก็บขึ้นชั้น');
      expect(screen.getByTestId('kind-cod')).toHaveTextContent('ค่าธรรมเนียม COD');
      expect(screen.getByTestId('fee-kinds-total')).toHaveTextContent('รวม');
      expect(screen.getByTestId('fee-warehouses')).toHaveTextContent('จำนวนออเดอร์');
    } finally {
      cleanup();
      await i18n.changeLanguage('en');
    }
  });

  it('says so when no fee was ever charged', async () => {
    serveBy(() => ({ status: 200, body: { ...SUMMARY, updated_at: '', current: fees(), previous: fees(), points: [], warehouses: [] } }));
    renderDashboardAt('/1/dashboard/service-fee');
    expect(await screen.findByTestId('updated-at')).toHaveTextContent('No service fees recorded yet');
    expect(screen.getByTestId('figure-per-order-value')).toHaveTextContent('0.00');
    expect(within(screen.getByTestId('fees-over-time')).getAllByText('No service fees in this period').length).toBeGreaterThan(0);
  });
});

/** An export as the gateway answers it, being built. */
const EXPORTING = {
  id: 9,
  kind: 'service_fees',
  file_name: 'service-fees-warehouses-2026-11-01-2026-11-30.xlsx',
  state: 'exporting',
  date_from: '2026-10-31T17:00:00Z',
  date_to: '2026-11-30T17:00:00Z',
  order_states: [],
  table: 'warehouses',
  total: 2,
  done: 0,
  progress: 0,
  file_size: 0,
  exporter_id: 1,
  exporter: 'สมศรี ใจดี',
  created_at: '2026-11-27T08:00:00Z',
  finished_at: null,
  expires_at: null,
  failure: '',
};

describe('exporting a dashboard', () => {
  afterEach(() => closeAllDialogs());

  it('asks for the chosen table of the period shown, then opens the history to follow it', async () => {
    let asked = false;
    const sent = serveBy((m, path) => {
      if (path === '/order-reports/service-fee-summaries') return { status: 200, body: SUMMARY };
      if (m === 'POST' && path === '/order-reports/service-fee-summaries/export-excel/warehouses') {
        asked = true;
        return { status: 201, body: EXPORTING };
      }
      if (path === '/orders/reports') return { status: 200, body: { data: asked ? [EXPORTING] : [], total: asked ? 1 : 0, limit: 10, page: 1, pages: 1 } };
      return { status: 404 };
    });
    renderDashboardAt('/1/dashboard/service-fee?period=quarterly&date=2026-11-15');
    await screen.findByTestId('figure-total-value');
    await userEvent.click(screen.getByTestId('export-service-fee-summaries'));
    await userEvent.click(await screen.findByTestId('export-service-fee-summaries-warehouses'));
    const post = await waitFor(() => {
      const p = sent.find((s) => s.method === 'POST');
      expect(p).toBeDefined();
      return p!;
    });
    expect(post.url).toBe('/api/order-reports/service-fee-summaries/export-excel/warehouses');
    expect(Object.fromEntries(new URLSearchParams(post.body))).toMatchObject({ period: 'quarterly', date: '2026-11-15', lang: 'en' });
    expect(await screen.findByText('The spreadsheet is being prepared; it appears in the export history')).toBeInTheDocument();
    const history = await screen.findByTestId('export-history');
    expect(await within(history).findByTestId('export-9-what')).toHaveTextContent('Service fees (by warehouse) · 2 rows');
    expect(within(history).getByTestId('export-9-progress')).toBeInTheDocument();
  });

  it('says plainly when the period has nothing to export', async () => {
    serveBy((m, path) => {
      if (path === '/order-reports/service-fee-summaries') return { status: 200, body: SUMMARY };
      if (m === 'POST') return refusal(422, 'no_data_for_export');
      return { status: 404 };
    });
    renderDashboardAt('/1/dashboard/service-fee?period=monthly&date=2026-11-15');
    await screen.findByTestId('figure-total-value');
    await userEvent.click(screen.getByTestId('export-service-fee-summaries'));
    await userEvent.click(await screen.findByTestId('export-service-fee-summaries-daily'));
    await waitFor(() => expect(screen.getByTestId('dialog-title')).toHaveTextContent('Nothing to export'));
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('This period has nothing to export.');
    expect(screen.queryByTestId('export-history')).toBeNull();
  });
});

describe('fees per order', () => {
  it('divides the satang, not the baht, and rounds half up', () => {
    // 10.05 / 2 in floating point is 5.0249999…: the satang make it 5.03.
    expect(feesPerOrder({ total: '10.05', orders: 2 })).toBe(5.03);
    expect(feesPerOrder({ total: '500.50', orders: 3 })).toBe(166.83);
    expect(feesPerOrder({ total: '100.00', orders: 0 })).toBe(0);
  });
});
