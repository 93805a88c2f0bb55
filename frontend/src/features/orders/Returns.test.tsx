import { screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { P } from '@/shared/permissions.gen';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { formBody, list, order, orderReturn, refusal, renderAt, serve } from './testing';
import { countProblems } from './ReturnsCard';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

/** A Shopee order sent and closed, its buyer sending one line back. */
const returned = (over: Record<string, unknown> = {}) =>
  order({ channel: 'shopee', reference: '2612060101', store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee', state: 'closed', stock_state: 'committed', payment_state: 'paid', return_mark: 'open', returns: [orderReturn(5)], ...over });

describe("a buyer's return", () => {
  it('counts good and defective units no more than were returned, and something in all', () => {
    const lines = [{ itemId: 1, quantity: 2 }, { itemId: 2, quantity: 1 }];
    expect(countProblems(lines, { 1: { good: 1, defective: 1 } })).toBeNull();
    expect(countProblems(lines, { 1: { good: 2, defective: 1 } })).toEqual({ itemId: 1, key: 'orders:returns.receive.tooMany' });
    expect(countProblems(lines, { 2: { good: -1 } })).toEqual({ itemId: 2, key: 'orders:returns.receive.tooMany' });
    expect(countProblems(lines, {})).toEqual({ itemId: null, key: 'orders:returns.receive.nothing' });
  });

  it('shows where it stands, then receives its goods once counted, and links the receipt that put them back', async () => {
    let held = returned();
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/orders/9') return { status: 200, body: held };
      if (method === 'POST' && path === '/orders/9/returns/5/receive') {
        held = returned({
          return_mark: 'received',
          returns: [orderReturn(5, { receivable: false, received_at: '2026-12-06T05:00:00Z', received_by: 1, lines: [{ item_id: 1, sku_id: 27, name: 'หมอนอิงลายช้าง', sku_code: 'HM-021', quantity: 2, good: 1, defective: 1 }], receipts: [{ goods_receipt_id: 77, code: 'GR2569-000077', warehouse_id: 1 }] })],
        });
        return { status: 200, body: held };
      }
      return undefined;
    });
    renderAt('/1/order-detail/9');
    const card = await screen.findByTestId('return-5');
    expect(within(card).getByTestId('return-stage-5')).toHaveTextContent('On its way back');
    expect(card).toHaveTextContent('ITEM_DAMAGED');
    expect(card).toHaveTextContent('RTTH0001');
    expect(card).toHaveTextContent('฿398.00');

    // Three of two is refused before anything is sent.
    await userEvent.click(within(card).getByTestId('return-receive-5'));
    const good = await screen.findByTestId('return-good-1');
    await userEvent.clear(good);
    await userEvent.type(good, '2');
    const defective = screen.getByTestId('return-defective-1');
    await userEvent.clear(defective);
    await userEvent.type(defective, '1');
    await userEvent.click(screen.getByTestId('return-receive-ok'));
    expect(await screen.findByTestId('return-count-problem')).toHaveTextContent('cannot be more than were returned');
    expect(sent.some((s) => s.method === 'POST')).toBe(false);

    await userEvent.clear(good);
    await userEvent.type(good, '1');
    await userEvent.type(screen.getByTestId('return-note'), 'กล่องบุบ');
    await userEvent.click(screen.getByTestId('return-receive-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/9/returns/5/receive')).toBe(true));
    const body = formBody(sent.find((s) => s.method === 'POST')?.body ?? '');
    expect([body.get('lines[0][item_id]'), body.get('lines[0][good]'), body.get('lines[0][defective]'), body.get('note')]).toEqual(['1', '1', '1', 'กล่องบุบ']);
    expect(await screen.findByText('The goods are back in stock (GR2569-000077)')).toBeInTheDocument();
    const link = await screen.findByTestId('return-receipt-77');
    expect(link).toHaveAttribute('href', '/1/stock-management-goods-receipt-detail/approved/77');
    expect(screen.getByTestId('return-5')).toHaveTextContent('1 fit to sell, 1 defective');
    expect(screen.queryByTestId('return-receive-5')).not.toBeInTheDocument();
  });

  it('says why the goods could not be received', async () => {
    serve((method, path) => {
      if (method === 'GET' && path === '/orders/9') return { status: 200, body: returned() };
      if (method === 'POST' && path === '/orders/9/returns/5/receive') return refusal(409, 'order_return_not_receivable');
      return undefined;
    });
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('return-receive-5'));
    await userEvent.click(await screen.findByTestId('return-receive-ok'));
    expect(await screen.findByText(/This return's goods cannot be received now/)).toBeInTheDocument();
  });

  it('offers receiving only to those who may also approve goods receipts', async () => {
    serve((method, path) => (method === 'GET' && path === '/orders/9' ? { status: 200, body: returned() } : undefined));
    renderAt('/1/order-detail/9', 'admin', [P.orderOrderRead, P.orderOrderEdit]);
    expect(await screen.findByTestId('return-5')).toBeInTheDocument();
    expect(screen.queryByTestId('return-receive-5')).not.toBeInTheDocument();
  });

  it('marks the order in the list and filters the list by its returns', async () => {
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/orders') return list([returned({ state: 'new' })]);
      return undefined;
    });
    renderAt('/1/order-list?state=new');
    expect(await screen.findByTestId('order-9-return')).toHaveTextContent('Return in progress');
    const select = screen.getByTestId('filter-returns').closest('.ant-select') as HTMLElement;
    await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
    const option = await waitFor(() => {
      const found = screen.getAllByText('Return received').filter((o) => o.closest('.ant-select-item-option') && !o.closest('.ant-select-dropdown-hidden'));
      if (!found.length) throw new Error('no option');
      return found[0];
    });
    await userEvent.click(option);
    await waitFor(() => expect(sent.some((s) => s.method === 'GET' && s.url.startsWith('/api/orders?') && s.url.includes('returns=received'))).toBe(true));
  });
});
