// What the order screens' tests share: the gateway's answers (snake_case, as it sends them)
// and the screens mounted under their routes. Used by *.test.tsx only.
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { refusal, serveBy, type Reply, type Sent } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import type { Wire } from '@/shared/testing/wire';
import type { OrderAddressBody, OrderBillBody, OrderBody, OrderItemBody, OrderParcelBody, OrderPaymentBody, OrderReturnBody } from './api/endpoints.gen';
import OrderDetailPage from './OrderDetailPage';
import OrderFormPage from './OrderFormPage';
import OrderListPage from './OrderListPage';
import PaymentReviewPage from './PaymentReviewPage';
import PrintLabelPage from './PrintLabelPage';
import ReconcilePage from './ReconcilePage';

export const list = (data: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { data, total: data.length, limit: -1, page: 1, pages: 1, ...extra },
});

export { refusal };

export const WAREHOUSES = list([
  { id: 1, code: 'MAIN', name: 'คลังหลัก', is_default: true, active: true, created_at: '' },
  { id: 2, code: 'CNX', name: 'คลังเชียงใหม่', is_default: false, active: true, created_at: '' },
]);

export const CHANNELS = list([
  { code: 'shopee', kind: 'marketplace', name_th: 'Shopee', name_en: 'Shopee' },
  { code: 'facebook', kind: 'social_commerce', name_th: 'เฟซบุ๊ก', name_en: 'Facebook' },
  { code: 'line', kind: 'social_commerce', name_th: 'ไลน์', name_en: 'LINE' },
]);

export const LIMITS = { status: 200, body: { max_selection: 500, bill_limit: '50000.00', max_items: 200, vat_percent: '7.00' } };

export const address = {
  name: 'สมชาย ใจดี',
  tel: '0812345678',
  address: '99/1 ถนนสุขุมวิท',
  sub_district: 'คลองเตยเหนือ',
  district: 'วัฒนา',
  state_province: 'กรุงเทพมหานคร',
  postcode: '10110',
  email: '',
  country: 'TH',
  city: '',
} satisfies Wire<OrderAddressBody>;

export const item = (id: number, over: Record<string, unknown> = {}) => {
  const base = {
    id,
    sku_id: 27,
    product_id: 12,
    product_name: 'หมอนอิงลายช้าง',
    product_code: 'HM',
    sku_code: 'HM-021',
    variant: '',
    price: '199.00',
    cost: '120.00',
    hs_code: '',
    packing_options: [],
    note: '',
    warehouse_id: 1,
    quantity: 2,
    weight: '0.300',
    line_total: '398.00',
    listing: '',
  } satisfies Wire<OrderItemBody>;
  return { ...base, ...over };
};

/** A buyer's return as the gateway answers it: two units of line 1 on their way back. */
export const orderReturn = (id: number, over: Record<string, unknown> = {}) => {
  const base = {
    id,
    reference: 'RT-2612060101',
    stage: 'shipped_back',
    status_word: 'PROCESSING LOGISTICS_PICKUP_DONE',
    refund_only: false,
    reason: 'ITEM_DAMAGED',
    refund_amount: '398.00',
    tracking_no: 'RTTH0001',
    lines: [{ item_id: 1, sku_id: 27, name: 'หมอนอิงลายช้าง', sku_code: 'HM-021', quantity: 2, good: 0, defective: 0 }],
    receipts: [],
    received_at: null,
    received_by: 0,
    receivable: true,
    created_at: '2026-12-06T03:00:00Z',
    updated_at: '2026-12-06T04:00:00Z',
  } satisfies Wire<OrderReturnBody>;
  return { ...base, ...over };
};

export const parcel = (id: number, over: Record<string, unknown> = {}) => {
  const base = {
    id,
    warehouse_id: 1,
    weight: '0.700',
    width: 20,
    length: 30,
    height: 10,
    packaging_code: 'box_c',
    shipping_fee: '50.00',
    cod_fee: '0.00',
    packing_fee: '13.00',
    total: '63.00',
    cod_amount: '0.00',
    tracking_no: 'EB123456789TH',
    state: 'pending',
    provider: 'thaipost',
    shipped_at: null,
    printed_at: null,
    tracking: [],
    progress: '',
  } satisfies Wire<OrderParcelBody>;
  return { ...base, ...over };
};

/** An order's `allowed_actions` as the orders service answers them in each state (its state
 * table's test names the same lists). */
export const ALLOWED_ACTIONS: Record<string, string[]> = {
  new: ['ready_to_fulfillment', 'cancel', 'edit', 'change_address'],
  ready_to_fulfillment: ['ship', 'cancel', 'fail', 'change_address'],
  shipped: ['close', 'void'],
  closed: ['void'],
  failed: ['cancel'],
  cancelled: [],
};

const orderFields = (over: Record<string, unknown>) => {
  const base = {
    id: 9,
    order_no: 'SO2569-000009',
    channel: 'facebook',
    reference: 'FB-77',
    note: '',
    state: 'new',
    payment_state: 'unpaid',
    problem: '',
    problems: [],
    failure_cause: '',
    failure_reason: '',
    warehouse_id: 1,
    customer_id: 0,
    customer_address_id: 0,
    shipping_address: address,
    shipping_address_changed: false,
    items: [item(1)],
    discount: { type: '', value: '', amount: '0.00' },
    vat_included: true,
    subtotal: '398.00',
    net: '398.00',
    shipping_charge: '40.00',
    shipping_charge_inter: '0.00',
    shipping_total: '40.00',
    additional_fee: '0.00',
    vat_amount: '28.65',
    total: '438.00',
    profit: { cost_total: '240.00', net_ex_vat: '371.96', profit: '131.96', margin: '35.48' },
    logistic_store_channel_id: 3,
    shipping_name: 'ไปรษณีย์ไทย EMS',
    shipping_provider: 'thaipost',
    cod: false,
    tracking_no: '',
    estimated_weight: '0.600',
    imported: false,
    store_channel_id: 0,
    channel_shop: '',
    platform_ships: false,
    return_mark: '',
    returns: [],
    bill_expire_at: '2026-11-28T12:00:00Z',
    bills: [bill()],
    payments: [],
    stock_state: 'held',
    parcels: [],
    created_by: 1,
    created_by_name: 'สมศรี ใจดี',
    version: 4,
    created_at: '2026-11-25T12:00:00Z',
    updated_at: '2026-11-25T12:00:00Z',
    ready_to_fulfillment_at: null,
    shipped_at: null,
    cancelled_at: null,
    closed_at: null,
    failed_at: null,
    voided_at: null,
    events: [{ id: 1, action: 'created', from_state: '', to_state: 'new', user_id: 1, user_name: 'สมศรี ใจดี', detail: '', created_at: '2026-11-25T12:00:00Z' }],
    events_total: 1,
  } satisfies Wire<Omit<OrderBody, 'allowedActions'>>;
  return { ...base, ...over };
};

/** An order as the gateway answers it; its allowed actions follow its state unless given. */
export const order = (over: Record<string, unknown> = {}) => {
  const o = orderFields(over);
  return { allowed_actions: ALLOWED_ACTIONS[String(o.state)] ?? [], ...o };
};

/** The store's accounts: PromptPay and a bank account. */
export const ACCOUNTS = [
  { id: 21, channel: { type: 'promptpay' }, credential: { acc_name: 'ร้านดีดี', acc_no: '0812345678', bank_code: '', branch: '', country: '', email: '', fee: '' }, bank: null, status: 'active', open_bills: 0, created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' },
  { id: 22, channel: { type: 'bank' }, credential: { acc_name: 'ร้านดีดี', acc_no: '1234567890', bank_code: '004', branch: 'สีลม', country: 'TH', email: '', fee: '' }, bank: { code: '004', short: 'KBANK', name_th: 'ธนาคารกสิกรไทย', name_en: 'Kasikornbank', color: '#138f2d' }, status: 'active', open_bills: 0, created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' },
];

/** A payment of the bill of warehouse 1. */
export function payment(over: Record<string, unknown> = {}) {
  const base = {
    id: 31,
    bill_id: 5,
    warehouse_id: 1,
    amount: '438.00',
    state: 'pending',
    store_channel_id: 21,
    channel_type: 'promptpay',
    has_attachment: true,
    source: 'buyer',
    note: '',
    created_by: 0,
    confirmed_by: 0,
    confirmed_at: null,
    slip_at: '2026-11-25T13:00:00Z',
    created_at: '2026-11-25T13:00:00Z',
    updated_at: '2026-11-25T13:00:00Z',
    slips: [{ id: 41, source: 'buyer', created_by: 0, created_at: '2026-11-25T13:00:00Z' }],
  } satisfies Wire<OrderPaymentBody>;
  return { ...base, ...over };
}

/** The order's bill of warehouse 1: 438.00, by days, cancelling the order on expiry. */
export function bill(over: Record<string, unknown> = {}) {
  const base = {
    id: 5,
    warehouse_id: 1,
    amount: '438.00',
    state: 'active',
    expiry_type: 'by_day',
    on_expiry: 'cancel_order',
    expires_at: '2026-11-28T12:00:00Z',
    expired_at: null,
    renewed_at: null,
    token: '0123456789abcdef0123456789abcdef',
    created_at: '2026-11-25T12:00:00Z',
  } satisfies Wire<OrderBillBody>;
  return { ...base, ...over };
}

/** The gateway: warehouses, channels, limits, packagings; `over` answers first. */
export function serve(over: (method: string, path: string) => Reply | undefined = () => undefined): Sent[] {
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/wms/warehouses') return WAREHOUSES;
    if (path === '/orders/channels') return CHANNELS;
    if (path === '/orders/limits') return LIMITS;
    if (path === '/wms/packagings') return list([{ code: 'box_c', name_th: 'กล่องเบอร์ C', name_en: 'Box C', width: 20, length: 30, height: 11, fee: '13.00' }]);
    if (path === '/orders/count') return { status: 200, body: { new: 0, ready_to_fulfillment: 0, shipped: 0, closed: 0, cancelled: 0, failed: 0, all: 0 } };
    if (path === '/orders/net') return { status: 200, body: { orders: 0, net: '0.00', total: '0.00', shipping: '0.00', profit: null } };
    if (path === '/logistics/store-channels') return list([]);
    if (path === '/payments/store-channels') return list(ACCOUNTS);
    if (path === '/marketplaces/own-channels') return list([]);
    return refusal(404, 'not_found');
  });
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

export function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  render(
    <Provider store={signedInStore(permission, permissions)}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/order-list" element={<OrderListPage />} />
          <Route path="/:storeId/order-create" element={<OrderFormPage />} />
          <Route path="/:storeId/order-create/detail" element={<OrderFormPage />} />
          <Route path="/:storeId/order-edit/:id" element={<OrderFormPage />} />
          <Route path="/:storeId/order-detail/:id" element={<OrderDetailPage />} />
          <Route path="/:storeId/print-label" element={<PrintLabelPage />} />
          <Route path="/:storeId/order-payment-review" element={<PaymentReviewPage />} />
          <Route path="/:storeId/order-payment-reconcile" element={<ReconcilePage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

/** The body of a form-encoded call. */
export const formBody = (body: string) => new URLSearchParams(body);
