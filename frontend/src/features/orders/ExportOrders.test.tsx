import { screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { formBody, refusal, renderAt, serve } from './testing';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const EMPTY = { data: [], total: 0, limit: 10, page: 1, pages: 1 };
const exported = (over: Record<string, unknown> = {}) => ({
  id: 4,
  kind: 'orders',
  table: '',
  failure: '',
  file_name: 'orders-2026-11-01-2026-11-26.xlsx',
  state: 'exported',
  date_from: '2026-10-31T17:00:00Z',
  date_to: '2026-11-26T17:00:00Z',
  order_states: ['new'],
  total: 120,
  done: 120,
  progress: 100,
  file_size: 40960,
  exporter_id: 1,
  exporter: 'สมศรี ใจดี',
  created_at: '2026-11-26T03:00:00Z',
  finished_at: '2026-11-26T03:00:02Z',
  expires_at: '2026-12-03T03:00:02Z',
  ...over,
});

describe('exporting orders', () => {
  it('asks for an export of the chosen states, then shows it in the history with its download', async () => {
    let asked = false;
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/orders') return { status: 200, body: EMPTY };
      if (method === 'POST' && path === '/orders/reports/produce-order-report') {
        asked = true;
        return { status: 201, body: exported({ state: 'exporting', done: 0, progress: 0 }) };
      }
      if (method === 'GET' && path === '/orders/reports') return { status: 200, body: asked ? { data: [exported()], total: 1, limit: 10, page: 1, pages: 1 } : EMPTY };
      return undefined;
    });
    renderAt('/1/order-list');
    await userEvent.click(await screen.findByTestId('order-export'));
    const form = await screen.findByTestId('export-form');
    await userEvent.click(within(form).getByText('New'));
    await userEvent.click(within(form).getByText('Sent'));
    await userEvent.click(screen.getByText('Export', { selector: '#export-submit span' }));
    expect(await screen.findByText('The export is being prepared; it appears in the export history')).toBeInTheDocument();
    const body = Object.fromEntries(formBody(sent.find((s) => s.url === '/api/orders/reports/produce-order-report')!.body));
    expect(body['order_state[0]']).toBe('new');
    expect(body['order_state[1]']).toBe('shipped');
    expect(body.lang).toBe('en');
    expect(body.date_from).toMatch(/^\d{4}-\d{2}-01$/);
    const history = await screen.findByTestId('export-history');
    expect(await within(history).findByText('orders-2026-11-01-2026-11-26.xlsx')).toBeInTheDocument();
    expect(screen.getByTestId('export-4-state')).toHaveTextContent('Exported');
    expect(within(history).getByText(/120 orders · New/)).toBeInTheDocument();
    expect(screen.getByTestId('export-4-download')).toBeInTheDocument();
  });

  it('says plainly when there is nothing to export', async () => {
    serve((method, path) => {
      if (method === 'GET' && path === '/orders') return { status: 200, body: EMPTY };
      if (method === 'POST' && path === '/orders/reports/produce-order-report') return refusal(422, 'no_data_for_export');
      return undefined;
    });
    renderAt('/1/order-list');
    await userEvent.click(await screen.findByTestId('order-export'));
    await screen.findByTestId('export-form');
    await userEvent.click(screen.getByText('Export', { selector: '#export-submit span' }));
    await waitFor(() => expect(screen.getByTestId('dialog-title')).toHaveTextContent('Nothing to export'));
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('No order was made in those days in those states.');
  });

  it('lists every kind of export it may read, says why one failed, and downloads by a link', async () => {
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/orders') return { status: 200, body: EMPTY };
      if (method === 'GET' && path === '/orders/reports')
        return {
          status: 200,
          body: {
            data: [
              exported({ id: 7, kind: 'sold_items', table: 'skus', total: 12, done: 12, order_states: [], file_name: 'sold-items-2026-11-01-2026-11-30.xlsx' }),
              exported({ id: 6, kind: 'stock_movements', state: 'failed', failure: 'service_unavailable', file_name: 'stock-movements.xlsx' }),
            ],
            total: 2,
            limit: 10,
            page: 1,
            pages: 1,
          },
        };
      if (method === 'GET' && path === '/reports/exports/7/download-url')
        return { status: 200, body: { url: '/reports/exports/7/file?token=abc', file_name: 'sold-items-2026-11-01-2026-11-30.xlsx', expires_at: '2026-11-26T03:05:00Z' } };
      return undefined;
    });
    renderAt('/1/order-list');
    await userEvent.click(await screen.findByTestId('order-export-history'));
    const history = await screen.findByTestId('export-history');
    expect(await within(history).findByTestId('export-7-what')).toHaveTextContent('Sold items (by SKU) · 12 rows');
    expect(within(history).getByTestId('export-6-state')).toHaveTextContent('Failed');
    expect(within(history).getByText(/Could not be built/)).toBeInTheDocument();
    expect(within(history).queryByTestId('export-6-download')).toBeNull();
    await userEvent.click(within(history).getByTestId('export-7-download'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.getAttribute('href')).toBe('/api/reports/exports/7/file?token=abc');
    expect(anchor.download).toBe('sold-items-2026-11-01-2026-11-30.xlsx');
    expect(sent.some((s) => s.url === '/api/reports/exports/7/download-url')).toBe(true);
    click.mockRestore();
  });
});
