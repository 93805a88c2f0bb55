import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { P } from '@/shared/permissions.gen';
import type { Reply } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { atWidth, DESKTOP, PHONE } from '@/shared/testing/viewport';
import { bill, formBody, item, order, parcel, payment, refusal, renderAt, serve } from './testing';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

/** The gateway holding one order; a change it answers with becomes the order it holds. */
function serveOrder(one: Record<string, unknown>, over: (method: string, path: string) => Reply | undefined = () => undefined) {
  let held = one;
  return serve((method, path) => {
    const own = over(method, path);
    if (own) {
      const body = own.body as Record<string, unknown> | undefined;
      if (own.status < 300 && body && body.id === held.id && typeof body.state === 'string') held = body;
      return own;
    }
    if (method === 'GET' && path === `/orders/${held.id as number}`) return { status: 200, body: held };
    return undefined;
  });
}

const buttons = () =>
  ['order-edit', 'order-pick-list', 'order-prepare', 'order-ship', 'order-close', 'order-fail', 'order-cancel', 'order-void'].filter((id) => screen.queryByTestId(id));

describe('an order', () => {
  it('shows a new order in full, and says why it could not be prepared', async () => {
    const sent = serveOrder(order({ note: 'ส่งก่อนเที่ยง' }), (method, path) =>
      method === 'POST' && path === '/orders/9/ready-to-fulfillment' ? refusal(409, 'insufficient_stock') : undefined,
    );
    renderAt('/1/order-detail/9');
    expect(await screen.findByText('Order SO2569-000009')).toBeInTheDocument();
    expect(screen.getByTestId('order-state')).toHaveTextContent('New');
    expect(buttons()).toEqual(['order-edit', 'order-pick-list', 'order-prepare', 'order-cancel']);
    expect(within(screen.getByTestId('order-header')).getByText('Facebook')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-header')).getByText('คลังหลัก')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-header')).getByText('ส่งก่อนเที่ยง')).toBeInTheDocument();
    const items = screen.getByTestId('order-items');
    expect(within(items).getByText('HM-021')).toBeInTheDocument();
    expect(within(items).getByText('398.00')).toBeInTheDocument();
    expect(screen.getByTestId('money-total')).toHaveTextContent('฿438.00');
    expect(screen.getByTestId('money-vat')).toHaveTextContent('฿28.65');
    expect(screen.getByTestId('profit-value')).toHaveTextContent('฿131.96');
    expect(screen.getByTestId('profit-margin')).toHaveTextContent('35.48%');
    expect(within(screen.getByTestId('order-address')).getByText('99/1 ถนนสุขุมวิท คลองเตยเหนือ วัฒนา กรุงเทพมหานคร 10110')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-timeline')).getByText(/สมศรี ใจดี/)).toBeInTheDocument();
    expect(within(screen.getByTestId('order-timeline')).getByText('Created')).toBeInTheDocument();
    expect(screen.queryByTestId('order-parcels')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('order-prepare'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Prepare shipment of SO2569-000009?');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('dialog-title')).toHaveTextContent('There was a problem while preparing shipment'));
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('Stock is not enough. Please check your order detail.');
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/9/ready-to-fulfillment')).toBe(true);
  });

  it('shows a marketplace order: its shop, a line not linked to a SKU, and its marketplace timeline', async () => {
    serveOrder(
      order({
        channel: 'shopee',
        reference: '2611280001',
        store_channel_id: 3,
        channel_shop: 'ร้านเสื้อ Shopee',
        payment_state: 'paid',
        problems: ['sku_not_linked'],
        problem: 'sku_not_linked',
        items: [item(1), item(2, { sku_id: 0, sku_code: 'GIFT-9', product_name: 'ของแถม', listing: '1002' })],
        events: [
          { id: 1, action: 'created', from_state: '', to_state: 'new', user_id: 0, user_name: '', detail: '', created_at: '2026-11-28T10:00:00Z' },
          { id: 2, action: 'channel_changed', from_state: 'new', to_state: 'new', user_id: 0, user_name: '', detail: 'PROCESSED', created_at: '2026-11-28T10:05:00Z' },
        ],
      }),
    );
    renderAt('/1/order-detail/9');
    expect(await screen.findByText('Order SO2569-000009')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-header')).getByText('Shopee · ร้านเสื้อ Shopee')).toBeInTheDocument();
    expect(screen.getByTestId('item-2-unlinked')).toHaveTextContent('SKU not linked');
    expect(screen.queryByTestId('item-1-unlinked')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('order-timeline')).getByText('Marketplace status: PROCESSED')).toBeInTheDocument();
  });

  it("arranges a marketplace order's pick-up with its platform, then shows the carrier's number and prints the platform's label", async () => {
    const options = {
      options: {
        pickup: [{ id: '2826', address: '99/1 ถนนสุขุมวิท เขตวัฒนา กรุงเทพมหานคร 10110', is_default: true, slots: [{ id: '1764640800', date: '2026-12-03T02:00:00.000Z', text: '' }] }],
        dropoff: true,
        own_carrier: false,
        platform: false,
      },
      shipment: null,
    };
    const shipment = {
      options: null,
      shipment: { order_id: 9, store_channel_id: 3, channel_order_id: '2612020101', handover: 'pickup', tracking_no: 'TH4100000000001', arranged_at: '2026-12-02T10:00:00.000Z', label_printed_at: '' },
    };
    let arranged = false;
    const sent = serveOrder(order({ channel: 'shopee', reference: '2612020101', store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee', payment_state: 'paid' }), (method, path) => {
      if (path !== '/orders/9/marketplace-shipping') return undefined;
      if (method === 'POST') {
        arranged = true;
        return { status: 200, body: shipment };
      }
      return { status: 200, body: arranged ? shipment : options };
    });
    renderAt('/1/order-detail/9');
    const card = await screen.findByTestId('channel-shipping');
    expect(card).toHaveTextContent('Shipping through ร้านเสื้อ Shopee');
    expect(within(card).getByTestId('channel-handover-dropoff')).toBeInTheDocument();
    // A pick-up needs a time.
    await userEvent.click(within(card).getByTestId('channel-arrange'));
    expect(await within(card).findByText('Choose a pick-up time')).toBeInTheDocument();
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    await userEvent.click(within(card).getByTestId('channel-slot').querySelector('.ant-select-selector') ?? within(card).getByTestId('channel-slot'));
    await userEvent.click(await screen.findByText(/2026|03/, { selector: '.ant-select-item-option-content' }));
    await userEvent.click(within(card).getByTestId('channel-arrange'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/9/marketplace-shipping')).toBe(true));
    const body = formBody(sent.find((s) => s.method === 'POST')?.body ?? '');
    expect([body.get('handover'), body.get('address_id'), body.get('slot_id')]).toEqual(['pickup', '2826', '1764640800']);
    expect(await screen.findByTestId('channel-tracking')).toHaveTextContent('TH4100000000001');
    expect(screen.getByTestId('channel-label')).toBeEnabled();
  });

  it('arranges a Lazada order the way its shop is set up on the platform, its only way', async () => {
    const options = { options: { pickup: [], dropoff: false, own_carrier: false, platform: true }, shipment: null, cancel_request: null };
    const shipment = {
      options: null,
      shipment: { order_id: 9, store_channel_id: 4, channel_order_id: '990001', handover: 'platform', tracking_no: 'LEXDO0069388114', arranged_at: '2026-12-03T10:00:00.000Z', label_printed_at: '' },
      cancel_request: null,
    };
    let arranged = false;
    const sent = serveOrder(order({ channel: 'lazada', reference: '3990001', store_channel_id: 4, channel_shop: 'ร้านเสื้อ Lazada', payment_state: 'paid' }), (method, path) => {
      if (path !== '/orders/9/marketplace-shipping') return undefined;
      if (method === 'POST') {
        arranged = true;
        return { status: 200, body: shipment };
      }
      return { status: 200, body: arranged ? shipment : options };
    });
    renderAt('/1/order-detail/9');
    const card = await screen.findByTestId('channel-shipping');
    expect(within(card).getByTestId('channel-handover-platform')).toBeInTheDocument();
    expect(within(card).getByText('As my shop is set up on the platform')).toBeInTheDocument();
    expect(within(card).queryByTestId('channel-handover-pickup')).not.toBeInTheDocument();
    expect(within(card).getByTestId('channel-platform-hint')).toHaveTextContent("seller centre");
    await userEvent.click(within(card).getByTestId('channel-arrange'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/9/marketplace-shipping')).toBe(true));
    expect(formBody(sent.find((s) => s.method === 'POST')?.body ?? '').get('handover')).toBe('platform');
    expect(await screen.findByTestId('channel-tracking')).toHaveTextContent('LEXDO0069388114');
  });

  it('waits for the marketplace to record an order its platform ships, never offering our own parcels meanwhile', async () => {
    let asked = 0;
    serveOrder(order({ state: 'ready_to_fulfillment', channel: 'lazada', reference: '3990001', store_channel_id: 4, channel_shop: 'ร้านเสื้อ Lazada', payment_state: 'paid', platform_ships: true }), (method, path) => {
      if (path !== '/orders/9/marketplace-shipping') return undefined;
      asked += 1;
      if (asked === 1) return refusal(404, 'channel_order_not_found');
      return { status: 200, body: { options: { pickup: [], dropoff: false, own_carrier: false, platform: true }, shipment: null, cancel_request: null } };
    });
    renderAt('/1/order-detail/9');
    expect(await screen.findByTestId('channel-recording')).toHaveTextContent('ร้านเสื้อ Lazada has sent this order');
    expect(screen.queryByTestId('order-parcels')).not.toBeInTheDocument();
    expect(await screen.findByTestId('channel-handover-platform', undefined, { timeout: 5000 })).toBeInTheDocument();
  });

  it("shows the buyer's request to cancel, and accepts it after a confirmation", async () => {
    let answered = '';
    const sent = serveOrder(order({ channel: 'shopee', reference: '2612030101', store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee', payment_state: 'paid' }), (method, path) => {
      if (method === 'GET' && path === '/orders/9/marketplace-shipping') {
        return { status: 200, body: answered ? { options: null, shipment: null, cancel_request: null } : { options: null, shipment: null, cancel_request: { reason: 'ต้องการเปลี่ยนที่อยู่' } } };
      }
      if (method === 'POST' && path === '/orders/9/marketplace-cancellation') {
        answered = 'yes';
        return { status: 200, body: { cancelled: true } };
      }
      return undefined;
    });
    renderAt('/1/order-detail/9');
    const request = await screen.findByTestId('channel-cancel-request');
    expect(request).toHaveTextContent('The buyer asks to cancel this order');
    expect(within(request).getByTestId('channel-cancel-reason')).toHaveTextContent('Reason: ต้องการเปลี่ยนที่อยู่');
    // Accepting asks first; cancelling the dialog sends nothing.
    await userEvent.click(within(request).getByTestId('channel-cancel-accept'));
    await userEvent.click(await screen.findByTestId('dialog-cancel'));
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    await userEvent.click(within(request).getByTestId('channel-cancel-accept'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/9/marketplace-cancellation')).toBe(true));
    expect(formBody(sent.find((s) => s.method === 'POST')?.body ?? '').get('decision')).toBe('accept');
    await waitFor(() => expect(screen.queryByTestId('channel-cancel-request')).not.toBeInTheDocument());
  });

  it("rejects a buyer's request to cancel, and shows a refusal in the channel's words", async () => {
    serveOrder(order({ channel: 'shopee', reference: '2612030102', store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee', payment_state: 'paid' }), (method, path) => {
      if (method === 'GET' && path === '/orders/9/marketplace-shipping') return { status: 200, body: { options: null, shipment: null, cancel_request: { reason: '' } } };
      if (method === 'POST' && path === '/orders/9/marketplace-cancellation') return refusal(409, 'channel_cancel_not_asked');
      return undefined;
    });
    renderAt('/1/order-detail/9');
    const request = await screen.findByTestId('channel-cancel-request');
    expect(within(request).getByTestId('channel-cancel-reason')).toHaveTextContent('The buyer gave no reason');
    await userEvent.click(within(request).getByTestId('channel-cancel-reject'));
    expect(await screen.findByText('The buyer has not asked to cancel this order, or the request has been answered')).toBeInTheDocument();
  });

  it("shows a marketplace order the platform cannot ship now with the platform's reason", async () => {
    serveOrder(order({ channel: 'shopee', reference: '2612020103', store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee' }), (method, path) =>
      path === '/orders/9/marketplace-shipping' ? refusal(409, 'channel_order_on_hold') : undefined,
    );
    renderAt('/1/order-detail/9');
    expect(await screen.findByTestId('channel-shipping-refused')).toHaveTextContent('The marketplace holds this order for its first hour');
  });

  it('links an unlinked marketplace line to one of our SKUs', async () => {
    const unlinked = item(2, { sku_id: 0, sku_code: 'GIFT-9', product_name: 'ของแถม', listing: '1002', cost: '0.00' });
    const shopee = order({ channel: 'shopee', store_channel_id: 3, channel_shop: 'ร้านเสื้อ Shopee', problems: ['sku_not_linked'], problem: 'sku_not_linked', items: [item(1), unlinked] });
    const linked = { ...shopee, problems: [], problem: '', items: [item(1), { ...unlinked, sku_id: 8, sku_code: 'MUG-02', product_name: 'แก้วมัค' }] };
    const inventories = {
      status: 200,
      body: {
        data: [{ sku_id: 8, sku_code: 'MUG-02', product_id: 8, product_name: 'แก้วมัค', option1: '', option2: '', safety_stock: 0, inventory: { warehouse_id: 1, available: 6, preorder: 0, quantity: 6, reserve: 0 } }],
        total: 1,
        limit: 20,
        page: 1,
        pages: 1,
      },
    };
    const sent = serveOrder(shopee, (method, path) => {
      if (path === '/products/sku-inventories') return inventories;
      if (method === 'POST' && path === '/orders/9/items/2/sku') return { status: 200, body: linked };
      return undefined;
    });
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('item-2-link'));
    expect(await screen.findByText('Which of our SKUs is GIFT-9?')).toBeInTheDocument();
    await userEvent.click(document.getElementById('link-sku-save') as HTMLElement);
    expect(await screen.findByTestId('link-sku-error')).toHaveTextContent('Choose a SKU');
    const select = screen.getByTestId('link-sku-pick').closest('.ant-select') as HTMLElement;
    await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
    const option = await waitFor(() => {
      const found = screen.getAllByText(/MUG-02/).filter((o) => o.closest('.ant-select-item-option') && !o.closest('.ant-select-dropdown-hidden'));
      if (!found.length) throw new Error('no option');
      return found[0];
    });
    await userEvent.click(option);
    await userEvent.click(document.getElementById('link-sku-save') as HTMLElement);
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders/9/items/2/sku')).toBe(true));
    expect(sent.find((s) => s.url === '/api/orders/9/items/2/sku')?.body).toBe('sku_id=8');
    await waitFor(() => expect(screen.queryByTestId('item-2-unlinked')).not.toBeInTheDocument());
  });

  it('cancels with a reason; a refused cancel also says to contact customer support', async () => {
    let refuse = true;
    const sent = serveOrder(order(), (method, path) => {
      if (method !== 'POST' || path !== '/orders/9/cancel') return undefined;
      if (refuse) {
        refuse = false;
        return refusal(409, 'order_busy');
      }
      return { status: 200, body: order({ state: 'cancelled', stock_state: 'released' }) };
    });
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('order-cancel'));
    fireEvent.change(await screen.findByTestId('reason-input'), { target: { value: 'ลูกค้าเปลี่ยนใจ' } });
    await userEvent.click(document.getElementById('reason-confirm')!);
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent(
      'The order is busy with another change, try again in a moment. Please check your order detail, or contact customer support.',
    );
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await userEvent.click(screen.getByTestId('order-cancel'));
    fireEvent.change(await screen.findByTestId('reason-input'), { target: { value: 'ลูกค้าเปลี่ยนใจ' } });
    await userEvent.click(document.getElementById('reason-confirm')!);
    await waitFor(() => expect(screen.getByTestId('order-state')).toHaveTextContent('Cancelled'));
    expect(buttons()).toEqual([]);
    const posts = sent.filter((s) => s.method === 'POST');
    expect(posts.map((s) => formBody(s.body).get('reason'))).toEqual(['ลูกค้าเปลี่ยนใจ', 'ลูกค้าเปลี่ยนใจ']);
  });

  it('shows the bill and renews it by days, refusing a wrong number under its field', async () => {
    let renewals = 0;
    const sent = serveOrder(order(), (method, path) => {
      if (method !== 'PATCH' || path !== '/orders/9/bill-expiry') return undefined;
      renewals += 1;
      if (renewals === 1) return refusal(422, 'validation_failed', [{ field: 'days', code: 'validation.bill_renew_days' }]);
      return { status: 200, body: order({ bills: [bill({ expires_at: '2026-12-01T12:00:00Z', renewed_at: '2026-11-26T12:00:00Z' })], bill_expire_at: '2026-12-01T12:00:00Z' }) };
    });
    renderAt('/1/order-detail/9');
    const bills = await screen.findByTestId('order-bills');
    expect(within(bills).getByText('คลังหลัก')).toBeInTheDocument();
    expect(screen.getByTestId('bill-1-amount')).toHaveTextContent('438.00');
    expect(screen.getByTestId('bill-1-state')).toHaveTextContent('Active');
    expect(screen.getByTestId('bill-1-expiry')).toHaveTextContent(/Expires .*2026/);
    expect(screen.getByTestId('bill-1-expiry')).toHaveTextContent('By days · the order is cancelled on expiry');

    await userEvent.click(screen.getByTestId('bill-1-renew'));
    const days = await screen.findByTestId('bill-renew-days');
    fireEvent.change(days, { target: { value: '45' } });
    await userEvent.click(screen.getByText('Renew', { selector: '#bill-renew-save span' }));
    expect(await screen.findByText('Renew by 1 to 30 days')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'PATCH')).toHaveLength(0);
    // The service's own rule goes under the field too.
    fireEvent.change(days, { target: { value: '3' } });
    await userEvent.click(screen.getByText('Renew', { selector: '#bill-renew-save span' }));
    await waitFor(() => expect(sent.filter((s) => s.method === 'PATCH')).toHaveLength(1));
    // The refusal comes back through the store and the form: slower on a busy machine.
    expect(await screen.findByText('Renew by 1 to 30 days', {}, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.click(screen.getByText('Renew', { selector: '#bill-renew-save span' }));
    expect(await screen.findByText(/The bill of SO2569-000009 is renewed until/)).toBeInTheDocument();
    const patch = sent.filter((s) => s.method === 'PATCH')[1];
    expect(JSON.parse(patch.body)).toEqual({ days: 3, warehouse_id: 1 });
    await waitFor(() => expect(screen.getByTestId('bill-1-expiry')).toHaveTextContent(/renewed/));
  });

  it('says why a bill could not be renewed, and offers no renewal where none applies', async () => {
    serveOrder(order(), (method, path) => (method === 'PATCH' && path === '/orders/9/bill-expiry' ? refusal(409, 'bill_order_not_new') : undefined));
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('bill-1-renew'));
    await userEvent.click(screen.getByText('Renew', { selector: '#bill-renew-save span' }));
    await waitFor(() => expect(screen.getByTestId('dialog-title')).toHaveTextContent('There was a problem while renewing the bill'));
    expect(screen.getByTestId('dialog-message')).toHaveTextContent("Only a new order's bill can be renewed");
  });

  it('shows an expired bill and a bill that never expires', async () => {
    serveOrder(
      order({
        state: 'cancelled',
        bills: [bill({ state: 'expired', expired_at: '2026-11-28T12:00:00Z' })],
        events: [
          { id: 1, action: 'bill_expired', from_state: 'new', to_state: 'new', user_id: 0, user_name: '', detail: '1:cancel_order', created_at: '2026-11-28T12:00:00Z' },
          { id: 2, action: 'cancelled', from_state: 'new', to_state: 'cancelled', user_id: 0, user_name: '', detail: 'bill_expired', created_at: '2026-11-28T12:00:00Z' },
        ],
      }),
    );
    renderAt('/1/order-detail/9');
    expect(await screen.findByTestId('bill-1-state')).toHaveTextContent('Expired');
    expect(screen.getByTestId('bill-1-expiry')).toHaveTextContent(/Expired .*2026/);
    expect(screen.queryByTestId('bill-1-renew')).not.toBeInTheDocument();
    const timeline = screen.getByTestId('order-timeline');
    expect(within(timeline).getByText('Bill expired: the order is cancelled on expiry')).toBeInTheDocument();
    expect(within(timeline).getByText('Cancelled (New → Cancelled): its bill expired')).toBeInTheDocument();
  });

  it('shows a buyer\'s slip and confirms the payment; a refused confirmation says why', async () => {
    let confirms = 0;
    const sent = serveOrder(order({ payment_state: 'pending', payments: [payment()] }), (method, path) => {
      if (method !== 'POST' || path !== '/orders/9/invoices/5/payments/31/confirm') return undefined;
      confirms += 1;
      if (confirms === 1) return refusal(409, 'payment_attachment_required');
      return { status: 200, body: order({ payment_state: 'paid', payments: [payment({ state: 'paid', confirmed_at: '2026-11-25T14:00:00Z' })] }) };
    });
    renderAt('/1/order-detail/9');
    const table = await screen.findByTestId('order-payments');
    expect(screen.getByTestId('payment-31-state')).toHaveTextContent('Payment pending');
    await waitFor(() => expect(within(table).getByText('PromptPay · ร้านดีดี (081-234-5678)')).toBeInTheDocument());
    expect(within(table).getByText(/Sent by the buyer/)).toBeInTheDocument();
    expect(screen.queryByTestId('bill-1-pay')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('payment-31-confirm'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Confirm the payment of ฿438.00 for SO2569-000009?');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('dialog-title')).toHaveTextContent('There was a problem while confirming the payment'));
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('A slip is needed to confirm the payment');
    await userEvent.click(screen.getByTestId('dialog-ok'));

    await userEvent.click(screen.getByTestId('payment-31-confirm'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('payment-31-state')).toHaveTextContent('Paid'));
    expect(screen.getByTestId('payment-state')).toHaveTextContent('Paid');
    expect(screen.queryByTestId('payment-31-confirm')).not.toBeInTheDocument();
    expect(screen.getByTestId('payment-31-void')).toBeInTheDocument();
    expect(sent.filter((x) => x.method === 'POST').map((x) => x.url)).toEqual([
      '/api/orders/9/invoices/5/payments/31/confirm',
      '/api/orders/9/invoices/5/payments/31/confirm',
    ]);
  });

  it('gives a bill a new link once confirmed, keeps every slip a payment was sent, and says when the timeline is cut', async () => {
    const slips = [
      { id: 41, source: 'buyer', created_by: 0, created_at: '2026-11-25T13:00:00Z' },
      { id: 42, source: 'buyer', created_by: 0, created_at: '2026-11-25T13:05:00Z' },
    ];
    const sent = serveOrder(order({ payment_state: 'pending', payments: [payment({ slips })], events_total: 412 }), (method, path) => {
      if (method === 'POST' && path === '/orders/9/invoices/5/new-link') {
        return { status: 200, body: order({ payment_state: 'pending', payments: [payment({ slips })], bills: [bill({ token: 'fedcba9876543210fedcba9876543210' })] }) };
      }
      if (method === 'GET' && path === '/orders/9/payments/31/attachment') return refusal(404, 'attachment_not_found');
      return undefined;
    });
    renderAt('/1/order-detail/9');
    expect(await screen.findByTestId('order-timeline-cut')).toHaveTextContent('Showing the latest 1 of 412 entries');

    // Every slip kept: the newest shown first, an earlier one on demand.
    await userEvent.click(screen.getByTestId('payment-31-slip'));
    expect(screen.getByTestId('payment-31-slip')).toHaveTextContent('Slips (2)');
    expect(await screen.findByText('Every slip sent for this payment is kept; the newest is shown first.')).toBeInTheDocument();
    await waitFor(() => expect(sent.map((x) => x.url)).toContain('/api/orders/9/payments/31/attachment?slip=42'));
    await userEvent.click(within(screen.getByTestId('payment-slip-pick')).getByRole('combobox'));
    await userEvent.click(await screen.findByText(/Slip 1 · .* · Sent by the buyer/));
    await waitFor(() => expect(sent.map((x) => x.url)).toContain('/api/orders/9/payments/31/attachment?slip=41'));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

    // A new link, once the owner says so: the old one stops working.
    await userEvent.click(screen.getByTestId('bill-1-new-link'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('The link sent before stops working at once.');
    await userEvent.click(screen.getByTestId('dialog-cancel'));
    expect(sent.filter((x) => x.method === 'POST')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('bill-1-new-link'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    expect(await screen.findByText('The bill has a new link; copy it for the buyer')).toBeInTheDocument();
    expect(sent.filter((x) => x.method === 'POST').map((x) => x.url)).toEqual(['/api/orders/9/invoices/5/new-link']);
  });

  it('records a payment with an account and a slip, refusing a file that is not a picture', async () => {
    const sent = serveOrder(order(), (method, path) => {
      if (method === 'POST' && path === '/orders/attachment/upload') return { status: 201, body: { name: 'abc.png' } };
      if (method === 'POST' && path === '/orders/9/pay') return { status: 201, body: order({ payment_state: 'pending', payments: [payment({ source: 'staff', store_channel_id: 22, channel_type: 'bank' })] }) };
      return undefined;
    });
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('bill-1-pay'));
    const input = (await screen.findByTestId('payment-slip-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['GIF89a'], 'slip.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText('Choose a .jpg, .jpeg or .png file')).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [new File(['png'], 'slip.png', { type: 'image/png' })] } });
    await waitFor(() => expect(screen.queryByText('Choose a .jpg, .jpeg or .png file')).not.toBeInTheDocument());
    expect(screen.getByTestId('payment-slip-name')).toHaveTextContent('slip.png');
    await userEvent.click(screen.getByTestId('payment-account'));
    await userEvent.click(await screen.findByText('Bank transfer · ร้านดีดี (123-4-56789-0)'));
    fireEvent.change(screen.getByTestId('payment-note'), { target: { value: 'โอนตอนเที่ยง' } });
    await userEvent.click(screen.getByText('Save', { selector: '#payment-save span' }));
    expect(await screen.findByText('The payment of SO2569-000009 is recorded')).toBeInTheDocument();
    const pay = sent.find((x) => x.url === '/api/orders/9/pay')!;
    expect(Object.fromEntries(formBody(pay.body))).toEqual({ store_channel_id: '22', note: 'โอนตอนเที่ยง', attachment: 'abc.png', warehouse_id: '1' });
    await waitFor(() => expect(screen.getByTestId('payment-31-state')).toHaveTextContent('Payment pending'));
  });

  it('shows a reader no action and no profit when the API gives none', async () => {
    serveOrder(order({ profit: null, items: [{ ...order().items[0], cost: null }] }));
    renderAt('/1/order-detail/9', 'cashier', [P.orderOrderRead]);
    expect(await screen.findByText('Order SO2569-000009')).toBeInTheDocument();
    expect(buttons()).toEqual(['order-pick-list']);
    expect(screen.queryByTestId('order-profit')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('order-items')).queryByText('Cost (฿)')).not.toBeInTheDocument();
    expect(screen.queryByTestId('address-change')).not.toBeInTheDocument();
    expect(screen.getByTestId('bill-1-state')).toHaveTextContent('Active');
    expect(screen.queryByTestId('bill-1-renew')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bill-1-pay')).not.toBeInTheDocument();
    expect(screen.getByTestId('bill-1-copy')).toBeInTheDocument();
  });

  it('adds a parcel to a prepared order, and says why it could not ship', async () => {
    const ready = order({ state: 'ready_to_fulfillment', ready_to_fulfillment_at: '2026-11-25T13:00:00Z' });
    const sent = serveOrder(ready, (method, path) => {
      if (method === 'POST' && path === '/wms/parcels/in-store') return { status: 201, body: { ...ready, parcels: [parcel(4, { tracking_no: '' })] } };
      if (method === 'POST' && path === '/wms/parcels/ship/in-store') {
        return { status: 200, body: { data: [{ id: 9, order_no: 'SO2569-000009', ok: false, reason: 'parcel_tracking_missing', state: 'ready_to_fulfillment' }], succeeded: 0, failed: 1 } };
      }
      return undefined;
    });
    renderAt('/1/order-detail/9');
    expect(await screen.findByTestId('parcels-empty')).toHaveTextContent('No parcel yet');
    expect(buttons()).toEqual(['order-pick-list', 'order-ship', 'order-fail', 'order-cancel']);
    await userEvent.click(screen.getByTestId('parcel-add'));
    const modal = await screen.findByTestId('parcel-form');
    expect(within(modal).getByTestId('parcel-weight')).toHaveValue('0.600');
    await userEvent.click(within(modal).getByText('Box C · 20×30×11 cm · ฿13.00'));
    await waitFor(() => expect(within(modal).getByTestId('parcel-height')).toHaveValue('11'));
    fireEvent.change(within(modal).getByTestId('parcel-tracking'), { target: { value: 'eb123' } });
    await userEvent.click(document.getElementById('parcel-save')!);
    await waitFor(() => expect(sent.some((s) => s.url === '/api/wms/parcels/in-store')).toBe(true));
    expect(Object.fromEntries(formBody(sent.find((s) => s.url === '/api/wms/parcels/in-store')!.body))).toEqual({
      order_id: '9',
      weight: '0.600',
      width: '20',
      length: '30',
      height: '11',
      packaging_code: 'box_c',
      tracking_no: 'EB123',
    });
    const table = await screen.findByTestId('parcel-table');
    expect(within(table).getByText('No tracking no.')).toBeInTheDocument();
    expect(within(table).getByText('Shipping ฿50.00')).toBeInTheDocument();
    expect(within(table).getByText('Packing ฿13.00')).toBeInTheDocument();
    expect(within(table).getByTestId('parcel-4-total')).toHaveTextContent('63.00');

    await userEvent.click(screen.getByTestId('order-ship'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('dialog-title')).toHaveTextContent('There was a problem while notifying shipping'));
    expect(screen.getByTestId('dialog-message')).toHaveTextContent('A parcel has no tracking number. Please check your order detail.');
  });

  it('marks a prepared order failed with its cause', async () => {
    const ready = order({ state: 'ready_to_fulfillment' });
    const sent = serveOrder(ready, (method, path) =>
      method === 'POST' && path === '/orders/9/fail'
        ? { status: 200, body: order({ state: 'failed', failure_cause: 'cancelled_by_warehouse', failure_reason: 'กล่องเสียหาย' }) }
        : undefined,
    );
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('order-fail'));
    await userEvent.click(await screen.findByText('Cancelled by the warehouse'));
    fireEvent.change(screen.getByTestId('reason-input'), { target: { value: 'กล่องเสียหาย' } });
    await userEvent.click(document.getElementById('reason-confirm')!);
    expect(await screen.findByTestId('failure')).toHaveTextContent('Fulfilment failed: Cancelled by the warehouse');
    const body = formBody(sent.find((s) => s.method === 'POST')!.body);
    expect([body.get('cause'), body.get('reason')]).toEqual(['cancelled_by_warehouse', 'กล่องเสียหาย']);
  });

  it('voids a sent order only with a reason', async () => {
    const shipped = order({ state: 'shipped', shipped_at: '2026-11-26T03:00:00Z', parcels: [parcel(4, { state: 'shipped', progress: 'in_transit', tracking: [{ status: '201', description: 'รับฝาก', location: 'ปณ.คลองเตย', at: '2026-11-26T04:00:00Z' }] })] });
    const sent = serveOrder(shipped, (method, path) => (method === 'POST' && path === '/orders/9/void' ? { status: 200, body: { ...shipped, state: 'cancelled' } } : undefined));
    renderAt('/1/order-detail/9');
    expect(await screen.findByText('In transit')).toBeInTheDocument();
    expect(buttons()).toEqual(['order-close', 'order-void']);
    await userEvent.click(screen.getByTestId('order-void'));
    await userEvent.click(document.getElementById('reason-confirm')!);
    await waitFor(() => expect((screen.getByTestId('reason-input').closest('.ant-form-item') as HTMLElement)).toHaveTextContent('This field is required'));
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('reason-input'), { target: { value: 'สินค้าตีกลับ' } });
    await userEvent.click(document.getElementById('reason-confirm')!);
    await waitFor(() => expect(screen.getByTestId('order-state')).toHaveTextContent('Cancelled'));
  });

  it('clears the shipping address once confirmed', async () => {
    const sent = serveOrder(order(), (method, path) =>
      method === 'POST' && path === '/orders/9/shipping-address/clear' ? { status: 200, body: order({ shipping_address: {}, problems: ['address_incomplete'] }) } : undefined,
    );
    renderAt('/1/order-detail/9');
    await userEvent.click(await screen.findByTestId('address-clear'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('SO2569-000009 cannot be prepared until an address is set again.');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(await screen.findByTestId('address-empty')).toHaveTextContent('No shipping address');
    expect(screen.getByTestId('problem-address_incomplete')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(1);
  });
});

describe('printing labels', () => {
  const realCreate = URL.createObjectURL;
  const realRevoke = URL.revokeObjectURL;
  beforeAll(() => {
    URL.createObjectURL = jest.fn(() => 'blob:labels');
    URL.revokeObjectURL = jest.fn();
  });
  afterAll(() => {
    URL.createObjectURL = realCreate;
    URL.revokeObjectURL = realRevoke;
  });

  it('fetches the chosen orders\' labels in the size asked, and another size on demand', async () => {
    const sent = serve((method, path) => (method === 'POST' && path === '/wms/parcels/print-labels' ? { status: 200, body: {} } : undefined));
    renderAt('/1/print-label?ids=9,12&size=a6');
    expect(await screen.findByTestId('label-ready')).toHaveTextContent('The A6 labels are ready');
    expect(screen.getByTestId('print-label-count')).toHaveTextContent('Labels of 2 orders');
    expect(screen.getByTestId('label-print')).toBeEnabled();
    await userEvent.click(screen.getByTestId('label-size-100x150'));
    expect(await screen.findByText('The 100 × 150 mm labels are ready')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/1\/print-label\?ids=9(,|%2C)12&size=100x150$/);
    const bodies = sent.filter((s) => s.method === 'POST').map((s) => Object.fromEntries(formBody(s.body)));
    expect(bodies[0]).toEqual({ 'order_ids[0]': '9', 'order_ids[1]': '12', size: 'a6' });
    expect(bodies[bodies.length - 1]).toEqual({ 'order_ids[0]': '9', 'order_ids[1]': '12', size: '100x150' });
  });

  it('says why there is nothing to print', async () => {
    serve((method, path) => (method === 'POST' && path === '/wms/parcels/print-labels' ? refusal(409, 'parcel_required') : undefined));
    renderAt('/1/print-label?ids=9');
    expect(await screen.findByTestId('label-failed')).toHaveTextContent('The order has no parcel yet. Please check your order detail.');
    expect(screen.getByTestId('label-print')).toBeDisabled();
  });

  describe('on a phone', () => {
    afterEach(() => atWidth(DESKTOP));

    it('keeps the next step at the bottom, the rest behind "more", and its lines and payments as cards', async () => {
      atWidth(PHONE);
      serveOrder(order({ payment_state: 'pending', payments: [payment()] }));
      renderAt('/1/order-detail/9');
      expect(await screen.findByText('Order SO2569-000009')).toBeInTheDocument();
      const bar = screen.getByTestId('order-actions');
      expect(bar).toHaveClass('bo-bottom-bar');
      expect(within(bar).getByTestId('order-prepare')).toBeInTheDocument();
      expect(screen.queryByTestId('order-cancel')).not.toBeInTheDocument();
      await userEvent.click(within(bar).getByTestId('more-actions'));
      expect(await screen.findByTestId('order-cancel')).toBeInTheDocument();
      expect(screen.getByTestId('order-edit')).toBeInTheDocument();
      const items = screen.getByTestId('order-items');
      expect(items).toHaveAttribute('data-view', 'cards');
      expect(within(items).getByText('HM-021', { exact: false })).toBeInTheDocument();
      const payments = screen.getByTestId('order-payments');
      expect(payments).toHaveAttribute('data-view', 'cards');
      expect(payments.querySelector('[data-testid$="-confirm"]')).not.toBeNull();
      expect(document.querySelector('.ant-table-content')).toBeNull();
    });
  });
});
