import { fireEvent, render, screen } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import SafetyStockPage from './SafetyStockPage';
import UnitFormPage from './UnitFormPage';
import { serveInTurn as serve } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';


// antd forms render slowly in jsdom; checking pointer-events through antd's styles is slower still.
jest.setTimeout(20_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });


function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  const store = signedInStore(permission, permissions);
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/setting/unit-of-measurement-create" element={<UnitFormPage />} />
          <Route path="/:storeId/setting/unit-of-measurement" element={<p>list</p>} />
          <Route path="/:storeId/setting/safety-stock" element={<SafetyStockPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('unit of measurement form', () => {
  it('checks the fields as the server does', async () => {
    const sent = serve();
    renderAt('/1/setting/unit-of-measurement-create');
    await userEvent.click(screen.getByTestId('unit-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
    fireEvent.change(screen.getByTestId('field-quantity'), { target: { value: '1.5' } });
    expect(await screen.findByText('Not a valid quantity')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('offers the six unit types translated and shows a duplicate name under the name', async () => {
    const sent = serve({ status: 409, body: { error: { code: 'unit_name_duplicate', message_key: 'error.unit_name_duplicate', message: 'x' } } });
    renderAt('/1/setting/unit-of-measurement-create');
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'Pack 6' } });
    fireEvent.change(screen.getByTestId('field-quantity'), { target: { value: '6' } });
    // (getByRole is slow over antd's DOM in jsdom.)
    await userEvent.click(screen.getByTestId('unit-form').querySelector('[role="combobox"]') as HTMLElement);
    for (const label of ['Dozen', 'Pack', 'Carton', 'Box', 'Sack']) expect(await screen.findByText(label)).toBeInTheDocument();
    await userEvent.click(await screen.findByText('Piece'));
    await userEvent.click(screen.getByTestId('unit-save'));
    expect(await screen.findByText('This unit name already exists in the store')).toBeInTheDocument();
    expect(sent[0].url).toMatch(/\/api\/stores\/1\/store-unit-of-measurements$/);
    expect(new URLSearchParams(sent[0].body).get('base_unit')).toBe('piece');
    expect(new URLSearchParams(sent[0].body).get('quantity')).toBe('6');
  });
});

describe('safety stock', () => {
  it('says when none is set and records a new one with one command, separators and all', async () => {
    const sent = serve(
      { status: 404, body: { error: { code: 'safety_stock_not_set', message_key: 'error.safety_stock_not_set', message: 'x' } } },
      { status: 201, body: { id: 1, amount: 1200, created_by: 1, created_at: '2025-01-02T03:04:05Z' } },
      { status: 200, body: { id: 1, amount: 1200, created_by: 1, created_at: '2025-01-02T03:04:05Z' } },
    );
    renderAt('/1/setting/safety-stock');
    expect(await screen.findByTestId('safety-stock-not-set')).toHaveTextContent('Not set yet');
    fireEvent.change(screen.getByTestId('field-amount'), { target: { value: '1,200' } });
    await userEvent.click(screen.getByTestId('safety-stock-save'));
    expect(await screen.findByTestId('safety-stock-amount')).toHaveTextContent('1,200 units');
    // The store records it (and every SKU takes it from the store's event): one request,
    // the number without its separator, never NaN.
    expect(sent[1]).toMatchObject({ method: 'POST', body: 'amount=1200' });
    expect(sent[1].url).toMatch(/\/api\/stores\/store-safety-stock-histories$/);
    expect(sent[2].url).toMatch(/\/api\/stores\/1\/store-safety-stock-histories\/lastest$/);
    expect(sent).toHaveLength(3);
  });

  it('is read-only without store.*', async () => {
    serve({ status: 200, body: { id: 1, amount: 5, created_by: 1, created_at: '2025-01-02T03:04:05Z' } });
    renderAt('/1/setting/safety-stock', 'cashier', ['store.customer.*']);
    expect(await screen.findByTestId('safety-stock-amount')).toHaveTextContent('5 units');
    expect(screen.queryByTestId('safety-stock-form')).toBeNull();
  });
});

describe('bill expiry', () => {
  it('shows the setting in force and saves a new one for later bills', async () => {
    const { serveBy } = await import('@/shared/testing/fakeApi');
    const current = { id: 4, expiry_type: 'by_day', days: 3, hours: 0, minutes: 0, on_expiry: 'cancel_order', created_by: 1, started_at: '2026-11-20T00:00:00Z' };
    const sent = serveBy((method, path) => {
      if (path === '/stores/bill-expire/types') return { status: 200, body: { types: ['no_expiry', 'by_day', 'by_time', 'next_day'], actions: ['cancel_order', 'keep_new'], max_days: 30, max_hours: 72 } };
      if (method === 'POST') return { status: 422, body: { error: { code: 'validation_failed', message_key: 'x', message: 'x', fields: [{ field: 'minutes', code: 'validation.required' }] } } };
      return { status: 200, body: { current, history: [current] } };
    });
    const { default: BillExpiryPage } = await import('./BillExpiryPage');
    const store = signedInStore();
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/1/setting/bill-expiry']}>
          <Routes>
            <Route path="/:storeId/setting/bill-expiry" element={<BillExpiryPage />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    expect(await screen.findByTestId('bill-expiry-current')).toHaveTextContent('Bills made now: 3 days; then: Cancel the order (its stock is released)');
    expect(screen.getByTestId('bill-expiry-history')).toHaveTextContent('3 days');
    await userEvent.click(await screen.findByTestId('bill-expiry-by_time'));
    await userEvent.click(screen.getByTestId('bill-expiry-keep_new'));
    await userEvent.click(screen.getByTestId('bill-expiry-save'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST')!.body);
    expect([body.get('expiry_type'), body.get('on_expiry'), body.get('hours'), body.get('minutes')]).toEqual(['by_time', 'keep_new', '0', '0']);
    expect(body.get('days')).toBeNull();
  });
});
