import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { P } from '@/shared/permissions.gen';
import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { atWidth, DESKTOP, PHONE } from '@/shared/testing/viewport';
import { formBody, item, list, order, renderAt, serve } from './testing';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const COUNTS = { status: 200, body: { new: 3, ready_to_fulfillment: 2, shipped: 7, closed: 1, cancelled: 4, failed: 0, all: 17 } };
const ROWS = [
  order(),
  order({ id: 10, order_no: 'SO2569-000010', channel: 'line', problems: ['stock_not_enough'], problem: 'stock_not_enough', items: [item(2), item(3, { quantity: 1 })], total: '1,250.50' }),
  order({ id: 11, order_no: 'SO2569-000011', problems: ['address_incomplete'], shipping_address: { name: '', tel: '' }, payment_state: 'paid', total: '99.00' }),
];

/** Ticks a row's selection box. */
const tick = (orderNo: string) => fireEvent.click(within(screen.getByText(orderNo).closest('tr') as HTMLElement).getByRole('checkbox'));

describe('the order list', () => {
  it('shows every column with its count and each order as a row', async () => {
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list(ROWS, { limit: 10 });
      if (path === '/orders/count') return COUNTS;
      return undefined;
    });
    renderAt('/1/order-list');
    expect(await screen.findByText('SO2569-000010')).toBeInTheDocument();
    const tabs = ['new', 'ready_to_fulfillment', 'shipped', 'closed', 'cancelled', 'failed'].map((k) => [screen.getByTestId(`tab-${k}`).textContent]);
    expect(tabs).toEqual([['New 3'], ['Prepare shipment 2'], ['Sent 7'], ['Closed 1'], ['Cancelled 4'], ['Failed 0']]);
    expect(sent.some((s) => s.url === '/api/orders?page=1&limit=10&order-state=new')).toBe(true);
    const row = screen.getByText('SO2569-000010').closest('tr') as HTMLElement;
    expect(within(row).getByText('2 items · 3 pcs')).toBeInTheDocument();
    expect(within(row).getByText('1,250.50')).toBeInTheDocument();
    expect(within(row).getByText('LINE')).toBeInTheDocument();
    expect(within(row).getByText('Stock not enough')).toBeInTheDocument();
    expect(within(row).getByText('สมชาย ใจดี')).toBeInTheDocument();
    const other = screen.getByText('SO2569-000011').closest('tr') as HTMLElement;
    expect(within(other).getByText('Address incomplete')).toBeInTheDocument();
    expect(within(other).getByText('Paid')).toBeInTheDocument();
    expect(within(other).getByText('No receiver yet')).toBeInTheDocument();

    // Another column, filtered: the counts keep the filters, the list takes the column too.
    await userEvent.click(screen.getByTestId('tab-shipped'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/order-list?state=shipped');
    await userEvent.type(screen.getByPlaceholderText('Order no., reference, receiver or phone'), '0812{Enter}');
    await waitFor(() => expect(sent.some((s) => s.url === '/api/orders?page=1&limit=10&order-state=shipped&search=0812')).toBe(true));
    expect(sent.some((s) => s.url === '/api/orders/count?search=0812')).toBe(true);
  });

  it('shows a marketplace order with its number, its shop and a line not linked to a SKU', async () => {
    const shopee = order({
      id: 12,
      order_no: 'SO2569-000012',
      channel: 'shopee',
      reference: '2611280001',
      store_channel_id: 3,
      channel_shop: 'ร้านเสื้อ Shopee',
      problems: ['sku_not_linked'],
      problem: 'sku_not_linked',
      payment_state: 'paid',
    });
    serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list([shopee], { limit: 10 });
      if (path === '/orders/count') return COUNTS;
      return undefined;
    });
    renderAt('/1/order-list');
    const row = (await screen.findByText('SO2569-000012')).closest('tr') as HTMLElement;
    expect(within(row).getByText('2611280001')).toBeInTheDocument();
    expect(within(row).getByTestId('order-12-shop')).toHaveTextContent('ร้านเสื้อ Shopee');
    expect(within(row).getByText('SKU not linked')).toBeInTheDocument();
  });

  it('prepares the chosen orders and lists those that could not move, with their reason', async () => {
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list(ROWS, { limit: 10 });
      if (path === '/orders/ready-to-fulfillment' && method === 'POST') {
        return {
          status: 200,
          body: {
            data: [
              { id: 9, order_no: 'SO2569-000009', ok: true, reason: '', state: 'ready_to_fulfillment' },
              { id: 10, order_no: 'SO2569-000010', ok: false, reason: 'insufficient_stock', state: 'new' },
              { id: 11, order_no: 'SO2569-000011', ok: false, reason: 'address_incomplete', state: 'new' },
            ],
            succeeded: 1,
            failed: 2,
          },
        };
      }
      return undefined;
    });
    renderAt('/1/order-list');
    await screen.findByText('SO2569-000009');
    tick('SO2569-000009');
    tick('SO2569-000010');
    tick('SO2569-000011');
    expect(await screen.findByTestId('bulk-count')).toHaveTextContent('3 orders chosen');
    expect(within(screen.getByTestId('bulk-actions')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Prepare shipment', 'Pick list', 'Cancel order', 'Confirm payment', 'Clear the choice']);
    await userEvent.click(screen.getByTestId('bulk-prepare'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Prepare shipment of 3 orders? Their stock is kept for them.');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    const result = await screen.findByTestId('bulk-result');
    expect(within(result).getByTestId('bulk-summary')).toHaveTextContent('Done: 1 · Not done: 2');
    expect(screen.getByText('There was a problem while preparing shipment')).toBeInTheDocument();
    expect(within(result).getByText('Please check your order detail.')).toBeInTheDocument();
    expect(within(result).getByTestId('bulk-reason-10')).toHaveTextContent('Stock is not enough');
    expect(within(result).getByTestId('bulk-reason-11')).toHaveTextContent('The shipping address is incomplete');
    expect(within(result).queryByText('SO2569-000009')).not.toBeInTheDocument();
    const post = sent.find((s) => s.method === 'POST')!;
    expect(formBody(post.body).getAll('ids[0]').concat(formBody(post.body).getAll('ids[1]'), formBody(post.body).getAll('ids[2]'))).toEqual(['9', '10', '11']);
    // The orders that did not move stay chosen.
    await waitFor(() => expect(screen.getByTestId('bulk-count')).toHaveTextContent('2 orders chosen'));
  });

  it('arranges the chosen marketplace orders with their channels by drop-off, listing those refused with why', async () => {
    // Shopee moves its orders: none allows a move by hand.
    const shopee = (id: number, no: string) =>
      order({ id, order_no: no, channel: 'shopee', reference: `26120301${id}`, store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee', payment_state: 'paid', allowed_actions: ['edit', 'change_address'] });
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list([shopee(9, 'SO2569-000009'), shopee(12, 'SO2569-000012'), ROWS[1]], { limit: 10 });
      if (path === '/orders/marketplace-shipping' && method === 'POST') {
        return { status: 200, body: { arranged: [9], failed: [{ order_id: 12, code: 'channel_handover_unavailable', message: '' }, { order_id: 10, code: 'channel_order_not_found', message: '' }] } };
      }
      return undefined;
    });
    renderAt('/1/order-list');
    await screen.findByText('SO2569-000009');
    // Only typed orders chosen: nothing to arrange with a channel.
    tick('SO2569-000010');
    expect(await screen.findByTestId('bulk-count')).toHaveTextContent('1 order chosen');
    expect(screen.queryByTestId('bulk-channelArrange')).not.toBeInTheDocument();
    tick('SO2569-000010');
    // Only Shopee orders chosen: arranged with Shopee, never prepared or cancelled by hand.
    tick('SO2569-000009');
    expect(await screen.findByTestId('bulk-channelArrange')).toBeInTheDocument();
    expect(screen.queryByTestId('bulk-prepare')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bulk-cancel')).not.toBeInTheDocument();
    tick('SO2569-000010');
    expect(await screen.findByTestId('bulk-prepare')).toBeInTheDocument();
    tick('SO2569-000012');
    await userEvent.click(await screen.findByTestId('bulk-channelArrange'));
    const dialog = await screen.findByTestId('channel-arrange-many');
    expect(dialog).toHaveTextContent('Arrange 3 orders with their channels');
    await userEvent.click(within(dialog).getByTestId('channel-arrange-dropoff'));
    expect(dialog).toHaveTextContent('You drop each parcel at a branch');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Arrange' }));
    const result = await screen.findByTestId('bulk-result');
    expect(within(result).getByTestId('bulk-summary')).toHaveTextContent('Done: 1 · Not done: 2');
    expect(within(result).getByTestId('bulk-reason-12')).toHaveTextContent('does not offer this way of handing over');
    expect(within(result).getByTestId('bulk-reason-10')).toHaveTextContent('did not come from a marketplace shop');
    const post = formBody(sent.find((s) => s.method === 'POST')!.body);
    expect(post.get('handover')).toBe('dropoff');
    expect(['0', '1', '2'].map((i) => post.get(`order_ids[${i}]`))).toEqual(['9', '10', '12']);
  });

  it('says it cannot choose over the limit before sending anything', async () => {
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list(ROWS, { limit: 10 });
      if (path === '/orders/limits') return { status: 200, body: { max_selection: 2, bill_limit: '50000.00', max_items: 200, vat_percent: '7.00' } };
      return undefined;
    });
    renderAt('/1/order-list');
    await screen.findByText('SO2569-000009');
    fireEvent.click(within(screen.getByTestId('order-table')).getAllByRole('checkbox')[0]);
    expect(await screen.findByTestId('bulk-count')).toHaveTextContent('3 orders chosen');
    await userEvent.click(screen.getByTestId('bulk-prepare'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Cannot choose over 2 orders');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
  });

  it('cancels the chosen orders with a reason, and tells to contact support for those refused', async () => {
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list(ROWS.slice(0, 2), { limit: 10 });
      if (path === '/orders/cancel' && method === 'POST') {
        return { status: 200, body: { data: [{ id: 9, order_no: 'SO2569-000009', ok: false, reason: 'already_shipped', state: 'shipped' }], succeeded: 0, failed: 1 } };
      }
      return undefined;
    });
    renderAt('/1/order-list');
    await screen.findByText('SO2569-000009');
    tick('SO2569-000009');
    await userEvent.click(await screen.findByTestId('bulk-cancel'));
    fireEvent.change(await screen.findByTestId('reason-input'), { target: { value: 'ลูกค้าขอยกเลิก' } });
    await userEvent.click(document.getElementById('reason-confirm')!);
    const result = await screen.findByTestId('bulk-result');
    expect(within(result).getByText('Please check your order detail, or contact customer support.')).toBeInTheDocument();
    expect(within(result).getByTestId('bulk-reason-9')).toHaveTextContent('The order has already been sent');
    const body = formBody(sent.find((s) => s.method === 'POST')!.body);
    expect([body.get('ids[0]'), body.get('reason')]).toEqual(['9', 'ลูกค้าขอยกเลิก']);
  });

  it('sends the chosen prepared orders to print their labels', async () => {
    serve((method, path) => (path === '/orders' && method === 'GET' ? list([order({ state: 'ready_to_fulfillment' }), order({ id: 12, order_no: 'SO2569-000012', state: 'ready_to_fulfillment' })]) : undefined));
    renderAt('/1/order-list?state=ready_to_fulfillment');
    await screen.findByText('SO2569-000012');
    tick('SO2569-000012');
    tick('SO2569-000009');
    await userEvent.click(await screen.findByTestId('bulk-printLabels'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/print-label?ids=12,9&size=a6');
  });

  it('fills short orders of one warehouse, and says when none is short', async () => {
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list([]);
      if (path === '/orders/handle-out-of-stock') return { status: 200, body: { filled: [], short: [] } };
      return undefined;
    });
    renderAt('/1/order-list');
    expect(await screen.findByText('No new orders')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('order-fill'));
    await waitFor(() => expect(screen.getByTestId('fill-warehouse').closest('.ant-select')).toHaveTextContent('คลังหลัก'));
    await userEvent.click(document.getElementById('fill-confirm')!);
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent("Inadequate goods aren't found");
    expect(formBody(sent.find((s) => s.method === 'POST')!.body).get('warehouse_id')).toBe('1');
  });

  it('lists what short orders of a warehouse wait for, and says when nothing is short', async () => {
    let asked = 0;
    const sent = serve((method, path) => {
      if (path === '/orders' && method === 'GET') return list([]);
      if (path === '/orders/inadequate-goods') {
        return asked++ === 0
          ? { status: 200, body: { data: [{ sku_id: 27, sku_code: 'HM-021', product_name: 'หมอนอิงลายช้าง', variant: '', needed: 5, available: 2, missing: 3, orders: 2 }] } }
          : { status: 200, body: { data: [] } };
      }
      return undefined;
    });
    renderAt('/1/order-list');
    await userEvent.click(await screen.findByTestId('order-inadequate'));
    const rows = await screen.findByTestId('inadequate-list');
    expect(within(rows).getByText('HM-021')).toBeInTheDocument();
    expect(within(rows).getAllByRole('cell').map((c) => c.textContent)).toEqual(['HM-021', 'หมอนอิงลายช้าง', '5', '2', '3', '2']);
    expect(screen.getByTestId('inadequate-download')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('inadequate-warehouse').querySelector('.ant-select-selector') ?? screen.getByTestId('inadequate-warehouse'));
    await userEvent.click(await screen.findByText('คลังเชียงใหม่'));
    expect(await screen.findByTestId('inadequate-none')).toHaveTextContent("Inadequate goods aren't found");
    expect(sent.filter((x) => x.url.startsWith('/api/orders/inadequate-goods')).map((x) => x.url)).toEqual(['/api/orders/inadequate-goods?warehouse-id=1', '/api/orders/inadequate-goods?warehouse-id=2']);
  });

  it('shows a reader neither the choice of rows nor creating', async () => {
    serve((method, path) => (path === '/orders' && method === 'GET' ? list(ROWS) : undefined));
    renderAt('/1/order-list', 'cashier', [P.orderOrderRead]);
    await screen.findByText('SO2569-000009');
    expect(screen.queryByTestId('order-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-fill')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-inadequate')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-import')).not.toBeInTheDocument();
    // Only printing is left to them: a pick list of new orders.
    tick('SO2569-000009');
    expect(within(await screen.findByTestId('bulk-actions')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Pick list', 'Clear the choice']);
  });

  describe('on a phone', () => {
    afterEach(() => atWidth(DESKTOP));

    it('shows each order as a card, folds the filters, and opens an order by a tap', async () => {
      atWidth(PHONE);
      const sent = serve((method, path) => {
        if (path === '/orders' && method === 'GET') return list(ROWS, { limit: 10 });
        if (path === '/orders/count') return COUNTS;
        return undefined;
      });
      renderAt('/1/order-list');
      const card = await screen.findByTestId('order-10-card');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(card).toHaveTextContent('SO2569-000010');
      expect(within(card).getByTestId('order-10-total')).toHaveTextContent('1,250.50');
      expect(card).toHaveTextContent('LINE · 2 items · 3 pcs');
      expect(within(card).getByTestId('order-10-state')).toHaveTextContent('New');
      expect(within(card).getByText('Stock not enough')).toBeInTheDocument();
      expect(screen.getByTestId('order-11-card')).toHaveTextContent('No receiver yet');
      expect(within(screen.getByTestId('order-11-card')).getByText('Paid')).toBeInTheDocument();
      // One action in sight; the others behind "more". The filters behind their button.
      expect(screen.getByTestId('order-create')).toBeInTheDocument();
      expect(screen.queryByTestId('order-import')).not.toBeInTheDocument();
      expect(screen.queryByTestId('filter-channel')).not.toBeInTheDocument();
      await userEvent.click(screen.getByTestId('more-actions'));
      expect(await screen.findByTestId('order-import')).toBeInTheDocument();
      expect(sent.some((s) => s.url === '/api/orders?page=1&limit=10&order-state=new')).toBe(true);

      await userEvent.click(screen.getByTestId('order-10-card'));
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/order-detail/10'));
    });

    it('chooses orders in select mode and prepares them from the bar at the bottom', async () => {
      atWidth(PHONE);
      const sent = serve((method, path) => {
        if (path === '/orders' && method === 'GET') return list(ROWS, { limit: 10 });
        if (path === '/orders/ready-to-fulfillment' && method === 'POST') {
          return { status: 200, body: { data: [9, 10].map((id) => ({ id, order_no: `SO2569-0000${String(id).padStart(2, '0')}`, ok: true, reason: '', state: 'ready_to_fulfillment' })), succeeded: 2, failed: 0 } };
        }
        return undefined;
      });
      renderAt('/1/order-list');
      await screen.findByTestId('order-10-card');
      await userEvent.click(screen.getByTestId('list-select'));
      await userEvent.click(screen.getByTestId('order-9-card'));
      await userEvent.click(screen.getByTestId('order-10-card'));
      const bar = screen.getByTestId('bulk-actions');
      expect(bar).toHaveClass('bo-bottom-bar');
      expect(within(bar).getByTestId('bulk-count')).toHaveTextContent('2 orders chosen');
      await userEvent.click(within(bar).getByTestId('bulk-prepare'));
      await userEvent.click(await screen.findByTestId('dialog-ok'));
      await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/ready-to-fulfillment')).toBe(true));
      const post = sent.find((s) => s.method === 'POST' && s.url === '/api/orders/ready-to-fulfillment')!;
      expect([formBody(post.body).get('ids[0]'), formBody(post.body).get('ids[1]'), formBody(post.body).get('ids[2]')]).toEqual(['9', '10', null]);
    });
  });
});
