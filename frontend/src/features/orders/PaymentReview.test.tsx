import { screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { P } from '@/shared/permissions.gen';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { formBody, payment, renderAt, serve } from './testing';
import { atWidth } from '@/shared/testing/viewport';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const listed = (id: number, orderId: number, orderNo: string, amount: string) => ({
  order_id: orderId,
  order_no: orderNo,
  order_state: 'new',
  cod: false,
  payment: payment({ id, amount }),
});

const PENDING = { data: [listed(31, 9, 'SO2569-000009', '438.00'), listed(32, 10, 'SO2569-000010', '438.00'), listed(33, 11, 'SO2569-000011', '120.00')], total: 3, limit: 20, page: 1, pages: 1 };

const result = (orderId: number, orderNo: string, paymentId: number, ok: boolean, reason = '') => ({ order_id: orderId, order_no: orderNo, payment_id: paymentId, bill_id: 5, amount: '438.00', ok, reason });

describe('the payment review', () => {
  it('lists the slips waiting, shows what confirming the chosen ones will do, and does it', async () => {
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/orders/payments') return { status: 200, body: PENDING };
      if (method === 'POST' && path === '/orders/payments/pre-confirm')
        return { status: 200, body: { data: [result(9, 'SO2569-000009', 31, true), result(10, 'SO2569-000010', 32, false, 'payment_cod_not_shipped')], confirmable: 1, amount: '438.00' } };
      if (method === 'POST' && path === '/orders/payments/confirm')
        return { status: 200, body: { data: [result(9, 'SO2569-000009', 31, true), result(10, 'SO2569-000010', 32, false, 'payment_cod_not_shipped')], confirmable: 1, amount: '438.00' } };
      return undefined;
    });
    renderAt('/1/order-payment-review');
    const table = await screen.findByTestId('review-table');
    await within(table).findByText('SO2569-000009');
    expect(within(table).getByText('SO2569-000011')).toBeInTheDocument();
    expect(screen.getByTestId('review-confirm')).toBeDisabled();
    expect(sent.find((s) => s.url.startsWith('/api/orders/payments?'))?.url).toContain('state=pending');

    await userEvent.click(screen.getByTestId('review-select-31'));
    await userEvent.click(screen.getByTestId('review-select-32'));
    expect(screen.getByTestId('review-confirm')).toHaveTextContent("Confirm 2 orders' payments");
    await userEvent.click(screen.getByTestId('review-confirm'));
    expect(await screen.findByTestId('confirm-payments-summary')).toHaveTextContent('1 payment of ฿438.00 will be confirmed');
    const preview = screen.getByTestId('confirm-payments-table');
    expect(within(preview).getByText('Will be confirmed')).toBeInTheDocument();
    expect(within(preview).getByText('Cash on delivery is confirmed only after the order is shipped')).toBeInTheDocument();
    expect(Object.fromEntries(formBody(sent.find((s) => s.url === '/api/orders/payments/pre-confirm')!.body))).toEqual({ 'ids[0]': '9', 'ids[1]': '10' });

    await userEvent.click(screen.getByText('Confirm 1 payment (฿438.00)'));
    expect(await screen.findByText('1 payment of ฿438.00 confirmed')).toBeInTheDocument();
    expect(await screen.findByText('1 payment could not be confirmed')).toBeInTheDocument();
    expect(Object.fromEntries(formBody(sent.find((s) => s.url === '/api/orders/payments/confirm')!.body))).toEqual({ 'ids[0]': '9', 'ids[1]': '10' });
  });

  it('shows a reader the payments without choosing or confirming, and other states by tab', async () => {
    const sent = serve((method, path) => (method === 'GET' && path === '/orders/payments' ? { status: 200, body: PENDING } : undefined));
    renderAt('/1/order-payment-review', 'cashier', [P.paymentPaymentRead]);
    await within(await screen.findByTestId('review-table')).findByText('SO2569-000009');
    expect(screen.queryByTestId('review-confirm')).not.toBeInTheDocument();
    expect(screen.queryByTestId('review-select-31')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('review-tab-paid'));
    await waitFor(() => expect(sent.some((s) => s.url.includes('state=paid'))).toBe(true));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/order-payment-review?state=paid');
  });
});


describe('the payment review on a phone', () => {
  const desktopWidth = window.innerWidth;
  beforeEach(() => atWidth(390));
  afterEach(() => atWidth(desktopWidth));

  it('shows each payment as a card and confirms the chosen ones from the bar at the bottom', async () => {
    const sent = serve((method, path) => {
      if (method === 'GET' && path === '/orders/payments') return { status: 200, body: PENDING };
      if (method === 'POST' && path === '/orders/payments/pre-confirm')
        return { status: 200, body: { data: [result(9, 'SO2569-000009', 31, true), result(11, 'SO2569-000011', 33, true)], confirmable: 2, amount: '558.00' } };
      return undefined;
    });
    renderAt('/1/order-payment-review');
    const card = await screen.findByTestId('payment-31-card');
    expect(card).toHaveTextContent('SO2569-000009');
    expect(within(card).getByTestId('payment-31-amount')).toHaveTextContent('438.00');
    await waitFor(() => expect(card).toHaveTextContent('PromptPay'));
    expect(card).toHaveTextContent('Sent by the buyer');
    expect(within(card).getByTestId('payment-31-state')).toHaveTextContent('Payment pending');
    expect(within(card).getByTestId('review-slip-31')).toBeInTheDocument();
    expect(document.querySelector('.ant-table')).toBeNull();
    // Confirming waits in the bar at the bottom until a payment is chosen.
    expect(screen.queryByTestId('review-confirm')).not.toBeInTheDocument();
    expect(screen.getByTestId('pager')).toHaveTextContent('3');

    await userEvent.click(screen.getByTestId('list-select'));
    await userEvent.click(card);
    await userEvent.click(screen.getByTestId('payment-33-card'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/order-payment-review');
    const bar = await screen.findByTestId('review-bulk');
    expect(bar).toHaveClass('bo-bottom-bar');
    expect(within(bar).getByTestId('review-confirm')).toHaveTextContent("Confirm 2 orders' payments");
    await userEvent.click(within(bar).getByTestId('review-confirm'));
    expect(await screen.findByTestId('confirm-payments-summary')).toHaveTextContent('2 payments of ฿558.00 in all will be confirmed');
    expect(Object.fromEntries(formBody(sent.find((s) => s.url === '/api/orders/payments/pre-confirm')!.body))).toEqual({ 'ids[0]': '9', 'ids[1]': '11' });
  });

  it('opens a slip from its card without choosing the card, and the order by a tap', async () => {
    serve((method, path) => {
      if (method === 'GET' && path === '/orders/payments') return { status: 200, body: PENDING };
      return undefined;
    });
    renderAt('/1/order-payment-review');
    const card = await screen.findByTestId('payment-32-card');
    await userEvent.click(within(card).getByTestId('review-slip-32'));
    expect(await screen.findByText('SO2569-000010 · Slip for ฿438.00')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/1/order-payment-review');
    expect(screen.queryByTestId('review-bulk')).not.toBeInTheDocument();
    await userEvent.click(within(card).getByText('SO2569-000010'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/order-detail/10'));
  });
});
