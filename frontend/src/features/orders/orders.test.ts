import i18n from 'i18next';

import type { OrderBody } from './api';
import { ALLOWED_ACTIONS } from './testing';
import { bahtText, divRoundHalfAway, exVat, orderTotals, overLimit, percentBp, shareBp, type Charges, type MoneyLine } from './money';
import {
  actionsOf,
  billLink,
  BULK_ACTIONS,
  checkSlip,
  bulkActionsFor,
  offeredFor,
  COLUMNS,
  discountOf,
  estimatedGrams,
  eventLine,
  formTotals,
  grams,
  idsOf,
  inputOf,
  kgText,
  newValues,
  paymentActions,
  prefillOf,
  renewable,
  valuesOf,
  withinSelection,
  type OrderValues,
  type SkuFacts,
} from './orders';
import { failureDialog, formErrors, reasonKey } from './refusal';
import { ERROR_CODES } from '@/shared/errorCodes.gen';

const t = i18n.t.bind(i18n);
const none: Charges = { discount: { kind: 'none' }, vatIncluded: false, shippingCharge: 0, shippingChargeInter: 0, additionalFee: 0 };
const line = (price: number, cost: number, quantity: number): MoneyLine => ({ price, cost, quantity, warehouseId: 1 });
const totals = (lines: MoneyLine[], c: Partial<Charges> = {}) => {
  const r = orderTotals(lines, { ...none, ...c });
  if (!r.ok) throw new Error(r.error);
  return r.totals;
};

// The same cases as the server's rule (services/orders/src/domain/money.rs), so the app shows
// what the server will compute.
describe('the totals mirror the server', () => {
  it('adds VAT on goods, shipping and fee', () => {
    // 2 × 199.00 + 1 × 350.50 = 748.50; 10% off = 74.85; net 673.65; shipping 40, fee 10:
    // base 723.65; VAT 7% = 50.6555 → 50.66; total 774.31.
    const x = totals([line(199_00, 120_00, 2), line(350_50, 200_00, 1)], {
      discount: { kind: 'percent', bp: 1_000 },
      vatIncluded: false,
      shippingCharge: 40_00,
      additionalFee: 10_00,
    });
    expect([x.subtotal, x.discountAmount, x.net, x.shippingTotal, x.vatAmount, x.total]).toEqual([748_50, 74_85, 673_65, 40_00, 50_66, 774_31]);
    expect([x.netExVat, x.costTotal, x.profit]).toEqual([673_65, 440_00, 233_65]);
    expect(x.perWarehouse.get(1)).toBe(748_50);
  });

  it('takes included VAT out of the total', () => {
    const x = totals([line(107_00, 60_00, 1)], { vatIncluded: true });
    expect([x.total, x.vatAmount, x.netExVat, x.profit]).toEqual([107_00, 7_00, 100_00, 40_00]);
    // 100.00 included: 100/1.07 = 93.457… → 93.46, so VAT is 6.54.
    const y = totals([line(100_00, 0, 1)], { vatIncluded: true });
    expect([y.vatAmount, y.netExVat]).toEqual([6_54, 93_46]);
  });

  it('never lets a fixed discount go below zero', () => {
    const x = totals([line(120_00, 0, 2)], { discount: { kind: 'fixed', satang: 500_00 }, vatIncluded: true });
    expect([x.discountAmount, x.net, x.total]).toEqual([240_00, 0, 0]);
  });

  it('rounds shares half away from zero, in integers', () => {
    // 33.3% of 0.15 baht = 4.995 satang → 5; 7% of 0.50 baht = 3.5 satang → 4.
    expect(totals([line(15, 0, 1)], { discount: { kind: 'percent', bp: 3_330 } }).discountAmount).toBe(5);
    expect(totals([line(50, 0, 1)]).vatAmount).toBe(4);
    expect(shareBp(-50, 700)).toBe(-4);
    expect(shareBp(1007, 700)).toBe(70);
    expect(exVat(19_900, 700)).toBe(18_598);
    expect(divRoundHalfAway(-7n, 2n)).toBe(-4n);
    expect(divRoundHalfAway(7n, -2n)).toBe(-4n);
    expect(divRoundHalfAway(5n, 4n)).toBe(1n);
  });

  it('counts international shipping and keeps a loss negative', () => {
    expect(totals([line(1_000_00, 0, 1)], { vatIncluded: true, shippingChargeInter: 850_00 }).total).toBe(1_850_00);
    expect(totals([line(90_00, 100_00, 3)]).profit).toBe(-30_00);
  });

  it('holds the bill limit per warehouse at list prices, before the discount', () => {
    const lines: MoneyLine[] = [
      { price: 25_000_00, cost: 0, quantity: 2, warehouseId: 1 },
      { price: 30_000_00, cost: 0, quantity: 1, warehouseId: 2 },
      { price: 1, cost: 0, quantity: 1, warehouseId: 1 },
    ];
    expect(overLimit(totals(lines, { discount: { kind: 'percent', bp: 5_000 } }))).toEqual([[1, 5_000_001]]);
    expect(overLimit(totals(lines.slice(0, 2)))).toEqual([]);
    expect(overLimit(totals(lines.slice(0, 2)), 4_000_000)).toEqual([[1, 5_000_000]]);
  });

  it('refuses what is out of range or too large to hold', () => {
    expect(orderTotals([line(-1, 0, 1)], none)).toEqual({ ok: false, error: 'out_of_range' });
    expect(orderTotals([line(1, 0, 1)], { ...none, discount: { kind: 'percent', bp: 10_001 } })).toEqual({ ok: false, error: 'out_of_range' });
    expect(orderTotals([line(1, 0, 1)], { ...none, discount: { kind: 'fixed', satang: -1 } })).toEqual({ ok: false, error: 'out_of_range' });
    expect(orderTotals([line(1, 0, 1)], { ...none, shippingCharge: -1 })).toEqual({ ok: false, error: 'out_of_range' });
    expect(orderTotals([line(1.5, 0, 1)], none)).toEqual({ ok: false, error: 'out_of_range' });
    expect(orderTotals([line(Number.MAX_SAFE_INTEGER, 0, 2)], none)).toEqual({ ok: false, error: 'overflow' });
  });

  it('reads percents as basis points and writes satang as baht', () => {
    expect(['10', '12.5', '100', '100.01', '-1', '1.234', 'abc', ''].map(percentBp)).toEqual([1_000, 1_250, 10_000, null, null, null, null, null]);
    expect([bahtText(1_234_550), bahtText(5), bahtText(-5)]).toEqual(['12345.50', '0.05', '-0.05']);
  });
});

describe('what may be done to an order', () => {
  it('offers what the orders service allows in each state', () => {
    const allowed = (state: string) =>
      Object.entries(actionsOf({ allowedActions: ALLOWED_ACTIONS[state] }))
        .filter(([, v]) => v)
        .map(([k]) => k)
        .sort();
    expect(allowed('new')).toEqual(['address', 'cancel', 'edit', 'pickList', 'prepare']);
    expect(allowed('ready_to_fulfillment')).toEqual(['address', 'cancel', 'fail', 'labels', 'parcels', 'pickList', 'ship']);
    expect(allowed('shipped')).toEqual(['close', 'labels', 'void']);
    expect(allowed('closed')).toEqual(['void']);
    expect(allowed('failed')).toEqual(['cancel']);
    expect(allowed('cancelled')).toEqual([]);
  });

  it('offers each column its bulk actions, as the member\'s rights allow', () => {
    expect(COLUMNS.map((c) => [c, BULK_ACTIONS[c]])).toEqual([
      ['new', ['prepare', 'channelArrange', 'pickList', 'cancel']],
      ['ready_to_fulfillment', ['ship', 'printLabels', 'channelLabels', 'pickList', 'cancel']],
      ['shipped', ['close', 'printLabels', 'void']],
      ['closed', ['void']],
      ['cancelled', []],
      ['failed', ['cancel']],
    ]);
    expect(bulkActionsFor('new', { edit: true, cancel: false })).toEqual(['prepare', 'channelArrange', 'pickList']);
    expect(bulkActionsFor('shipped', { edit: false, cancel: true })).toEqual(['printLabels', 'void']);
    expect(bulkActionsFor('ready_to_fulfillment', { edit: false, cancel: false })).toEqual(['printLabels', 'pickList']);
  });

  it('offers a move by hand only when a chosen order allows it', () => {
    const all = bulkActionsFor('new', { edit: true, cancel: true });
    const typed = { allowedActions: ALLOWED_ACTIONS.new };
    // A Shopee order moves on Shopee: nothing to prepare or cancel by hand.
    const shopee = { allowedActions: ['edit', 'change_address'] };
    expect(offeredFor(all, [shopee], false)).toEqual(['channelArrange', 'pickList']);
    expect(offeredFor(all, [shopee, typed], false)).toEqual(all);
    expect(offeredFor(all, [shopee], true)).toEqual(all);
    expect(offeredFor(['close', 'printLabels', 'void'], [{ allowedActions: ['void'] }], false)).toEqual(['printLabels', 'void']);
  });

  it('keeps a selection within the limit', () => {
    expect(withinSelection(500, 500)).toBe(true);
    expect(withinSelection(501, 500)).toBe(false);
    expect(withinSelection(10_000, undefined)).toBe(true);
  });
});

const ORDER = {
  id: 9,
  orderNo: 'SO2569-000009',
  channel: 'line',
  reference: 'LN-77',
  note: 'ห่อของขวัญ',
  state: 'new',
  warehouseId: 1,
  customerId: 4,
  customerAddressId: 0,
  shippingAddress: { name: 'สมชาย', tel: '0812345678', address: '99/1', subDistrict: 'คลองเตยเหนือ', district: 'วัฒนา', stateProvince: 'กรุงเทพมหานคร', postcode: '10110', email: '', country: 'TH', city: '' },
  items: [
    { id: 1, skuId: 7, productId: 3, productName: 'เสื้อ', productCode: 'T', skuCode: 'T-M', variant: 'ไซซ์: M', price: '150.00', cost: '80.00', hsCode: '', packingOptions: ['ห่อของขวัญ'], note: 'ไม่ใส่ใบเสร็จ', warehouseId: 1, quantity: 2, weight: '0.250', lineTotal: '300.00' },
  ],
  discount: { type: 'fixed', value: '20.00', amount: '20.00' },
  vatIncluded: false,
  logisticStoreChannelId: 5,
  shippingTotal: '45.00',
  additionalFee: '0.00',
  cod: true,
  version: 3,
} as unknown as OrderBody;

describe('the order form', () => {
  it('reads a saved order and writes it back as the API takes it', () => {
    const v = valuesOf(ORDER);
    expect(v).toMatchObject({ channel: 'line', customerId: 4, customerAddressId: 0, discountType: 'fixed', discountValue: '20.00', shippingCharge: '45.00', additionalFee: '', vatIncluded: false, cod: true });
    expect(inputOf(v, ORDER.version)).toEqual({
      channel: 'line',
      reference: 'LN-77',
      note: 'ห่อของขวัญ',
      warehouseId: 1,
      customerId: 4,
      customerAddressId: 0,
      shippingAddress: { name: 'สมชาย', tel: '0812345678', email: '', address: '99/1', subDistrict: 'คลองเตยเหนือ', district: 'วัฒนา', stateProvince: 'กรุงเทพมหานคร', postcode: '10110', country: 'TH', city: '' },
      items: [{ skuId: 7, quantity: 2, price: '150.00', packingOptions: ['ห่อของขวัญ'], note: 'ไม่ใส่ใบเสร็จ' }],
      discountType: 'fixed',
      discountValue: '20.00',
      vatIncluded: false,
      logisticStoreChannelId: 5,
      shippingCharge: '45.00',
      cod: true,
      version: 3,
    });
  });

  it('leaves out what the server fills: a SKU\'s price, the channel\'s shipping, an address of the book', () => {
    const v: OrderValues = {
      ...newValues(),
      channel: 'facebook',
      warehouseId: 2,
      customerId: 4,
      customerAddressId: 11,
      shippingAddress: { name: 'typed but unused' },
      items: [{ skuId: 7, quantity: 1, price: ' ', packingOptions: [' ', 'กล่อง'], note: '' }],
      logisticStoreChannelId: 0,
      shippingCharge: '50',
      cod: true,
    };
    const body = inputOf(v);
    expect(body.items).toEqual([{ skuId: 7, quantity: 1, packingOptions: ['กล่อง'], note: '' }]);
    expect(body).toMatchObject({ customerId: 4, customerAddressId: 11, shippingAddress: {}, cod: false, discountType: '' });
    expect('shippingCharge' in body || 'version' in body || 'discountValue' in body || 'additionalFee' in body).toBe(false);
    // Abroad: the country kept, the Thai parts dropped.
    expect(inputOf({ ...v, customerId: 0, shippingAddress: { name: 'Taro', tel: '+81 3 1234', address: '1-1', country: 'JP', city: 'Tokyo', subDistrict: 'x', international: true } }).shippingAddress).toMatchObject({
      country: 'JP',
      city: 'Tokyo',
      subDistrict: '',
      tel: '+8131234',
    });
  });

  it('prefills a new order from its address', () => {
    expect(prefillOf(new URLSearchParams('channel=line&customerId=4&warehouseId=2&reference=LN-1&note=x'))).toEqual({ channel: 'line', customerId: 4, warehouseId: 2, reference: 'LN-1', note: 'x' });
    expect(prefillOf(new URLSearchParams('customer-id=4&customer-address-id=9&warehouse-id=x'))).toEqual({ customerId: 4, customerAddressId: 9 });
    // A customer without an address ships to their default one, once known.
    expect(newValues({ customerId: 4 }).customerAddressId).toBeUndefined();
    expect(newValues().customerAddressId).toBe(0);
  });

  it('totals what is written: typed prices, the SKU\'s otherwise, shipping typed or quoted', () => {
    const facts = new Map<number, SkuFacts>([
      [7, { price: 150_00, cost: 80_00, weightG: 250 }],
      [8, { price: 99_00, cost: 0, weightG: 1200 }],
    ]);
    const v: OrderValues = {
      ...newValues(),
      warehouseId: 1,
      items: [
        { skuId: 7, quantity: 2, price: '' },
        { skuId: 8, quantity: 1, price: '89.50' },
        { skuId: undefined, quantity: 1 },
      ],
      discountType: 'percent',
      discountValue: '10',
      logisticStoreChannelId: 5,
      additionalFee: '5',
    };
    const quoted = formTotals(v, facts, 40_00);
    // 300.00 + 89.50 = 389.50; 10% = 38.95; net 350.55; + 40 + 5 = 395.55 with VAT included.
    expect([quoted?.subtotal, quoted?.discountAmount, quoted?.net, quoted?.shippingTotal, quoted?.total]).toEqual([389_50, 38_95, 350_55, 40_00, 395_55]);
    expect(formTotals({ ...v, shippingCharge: '60' }, facts, 40_00)?.shippingTotal).toBe(60_00);
    expect(formTotals({ ...v, logisticStoreChannelId: 0, shippingCharge: '60' }, facts, 40_00)?.shippingTotal).toBe(0);
    expect(formTotals({ ...v, items: [{ skuId: 7, quantity: 1, price: '1.234' }] }, facts)).toBeNull();
    expect(formTotals({ ...v, discountValue: '120' }, facts)).toBeNull();
    expect(estimatedGrams(v, facts)).toBe(1_700);
    expect(estimatedGrams({ items: [] }, facts)).toBe(1);
    expect([kgText(1_700), kgText(5)]).toEqual(['1.700', '0.005']);
    expect([grams('0.3'), grams('12.125'), grams('1.2345'), grams('')]).toEqual([300, 12_125, null, null]);
    expect(discountOf('fixed', '')).toEqual({ kind: 'fixed', satang: 0 });
    expect(discountOf('', '50')).toEqual({ kind: 'none' });
  });

  it('reads the print screen\'s orders once each', () => {
    expect(idsOf('3,1,x,3, 2,0,-4')).toEqual([3, 1, 2]);
    expect(idsOf(null)).toEqual([]);
  });
});

describe('refusals in words', () => {
  it('names every reason in both languages, and an unknown one as such', () => {
    for (const r of ERROR_CODES) expect(t(reasonKey(r))).not.toBe(reasonKey(r));
    expect(reasonKey('something_new')).toBe('orders:reasons.unknown');
  });

  it('says a failed action as SPEC §8 does: a problem while …, and to check the order (cancel and void: support too)', () => {
    expect(failureDialog('prepare', 'insufficient_stock', t)).toEqual({
      kind: 'error',
      title: 'orders:failure.prepare',
      message: 'orders:failure.checkDetail',
      values: { reason: 'Stock is not enough' },
      cancel: false,
    });
    expect(t('orders:failure.prepare')).toBe('There was a problem while preparing shipment');
    expect(t(failureDialog('cancel', 'already_shipped', t).message, failureDialog('cancel', 'already_shipped', t).values)).toBe(
      'The order has already been sent. Please check your order detail, or contact customer support.',
    );
    expect(failureDialog('void', null, t).message).toBe('orders:failure.checkDetailSupport');
  });

  it('puts a refused save under the form\'s fields', () => {
    const refusal = (code: string, fields: { field: string; code: string }[] = []) => ({ status: 422, data: { error: { code, messageKey: '', message: '', fields } } });
    expect(
      formErrors(
        refusal('validation_failed', [
          { field: 'items[1].sku_id', code: 'order.sku_unknown' },
          { field: 'shipping_address.tel', code: 'validation.phone_digits' },
          { field: 'logistic_store_channel_id', code: 'shipping.over_weight' },
          { field: 'somewhere_else', code: 'validation.required' },
        ]),
        t,
      ),
    ).toEqual([
      { name: ['items', 1, 'skuId'], errors: ['This SKU is not in the store'] },
      { name: ['shippingAddress', 'tel'], errors: ['A phone number has 9 or 10 digits'] },
      { name: ['logisticStoreChannelId'], errors: ['Too heavy for this channel'] },
    ]);
    expect(formErrors(refusal('order_value_exceeds_limit', [{ field: 'items', code: 'order.value_exceeds_limit' }]), t)[0].name).toEqual(['items']);
    expect(formErrors({ status: 409, data: { error: { code: 'insufficient_stock', messageKey: '', message: '', fields: [{ field: 'items[0].quantity', code: 'stock.insufficient' }] } } }, t)).toEqual([
      { name: ['items', 0, 'quantity'], errors: ['Not enough stock in the warehouse for this quantity'] },
    ]);
    expect(formErrors({ status: 409, data: { error: { code: 'duplicate_order_reference', messageKey: '', message: '' } } }, t)).toEqual([
      { name: ['reference'], errors: ['This channel reference is already on another order'] },
    ]);
    expect(formErrors({ status: 409, data: { error: { code: 'order_changed', messageKey: '', message: '' } } }, t)).toEqual([]);
  });

  it('tells the timeline in words', () => {
    expect(eventLine({ action: 'ready_to_fulfillment', fromState: 'new', toState: 'ready_to_fulfillment', detail: '' }, t)).toBe('Prepare shipment (New → Preparing shipment)');
    expect(eventLine({ action: 'failed', fromState: 'ready_to_fulfillment', toState: 'failed', detail: 'cancelled_by_warehouse: box crushed' }, t)).toBe(
      'Fulfilment failed (Preparing shipment → Failed): Cancelled by the warehouse: box crushed',
    );
    expect(eventLine({ action: 'parcel_added', fromState: 'ready_to_fulfillment', toState: 'ready_to_fulfillment', detail: 'EB1 · 700 g' }, t)).toBe('Parcel added: EB1 · 700 g');
    expect(eventLine({ action: 'bill_expired', fromState: 'new', toState: 'new', detail: '3:keep_new' }, t)).toBe('Bill expired: the order stays new on expiry');
    expect(eventLine({ action: 'bill_renewed', fromState: 'new', toState: 'new', detail: '1' }, t)).toBe('Bill renewed: 1 day');
    expect(eventLine({ action: 'cancelled', fromState: 'new', toState: 'cancelled', detail: 'bill_expired' }, t)).toBe('Cancelled (New → Cancelled): its bill expired');
    expect(eventLine({ action: 'payment_slip', fromState: 'new', toState: 'new', detail: '3:buyer' }, t)).toBe('Slip received: Sent by the buyer');
    expect(eventLine({ action: 'payment_voided', fromState: 'new', toState: 'new', detail: '3:paid' }, t)).toBe('Payment voided: Paid');
    expect(eventLine({ action: 'payment_created', fromState: 'new', toState: 'new', detail: '3' }, t)).toBe('Payment recorded');
  });

  it('offers on a payment what its state allows', () => {
    const open = { cod: false, state: 'new' };
    expect(paymentActions({ state: 'unpaid' }, open)).toEqual(['cancel']);
    expect(paymentActions({ state: 'pending' }, open)).toEqual(['confirm', 'cancel', 'void']);
    expect(paymentActions({ state: 'paid' }, open)).toEqual(['void']);
    expect(paymentActions({ state: 'voided' }, open)).toEqual([]);
    expect(paymentActions({ state: 'cancelled' }, open)).toEqual([]);
    // Cash on delivery: confirmed once shipped, with or without a slip.
    expect(paymentActions({ state: 'unpaid' }, { cod: true, state: 'ready_to_fulfillment' })).toEqual(['cancel']);
    expect(paymentActions({ state: 'unpaid' }, { cod: true, state: 'shipped' })).toEqual(['confirm', 'cancel']);
  });

  it('checks a slip before sending it, and renews only what expires', () => {
    expect(checkSlip({ name: 'slip.JPG', size: 100 })).toBeNull();
    expect(checkSlip({ name: 'slip.jpeg', size: 5 * 1024 * 1024 })).toBeNull();
    expect(checkSlip({ name: 'slip.png', size: 5 * 1024 * 1024 + 1 })).toBe('slipTooLarge');
    expect(checkSlip({ name: 'slip.heic', size: 100 })).toBe('slipType');
    expect(checkSlip({ name: 'png', size: 100 })).toBe('slipType');
    expect(billLink('https://shop.example', 'ab12')).toBe('https://shop.example/bill/ab12');
    expect(renewable({ state: 'new', paymentState: 'unpaid' }, { expiresAt: '2026-12-01T00:00:00Z' })).toBe(true);
    expect(renewable({ state: 'new', paymentState: 'unpaid' }, { expiresAt: null })).toBe(false);
    expect(renewable({ state: 'cancelled', paymentState: 'unpaid' }, { expiresAt: '2026-12-01T00:00:00Z' })).toBe(false);
    expect(renewable({ state: 'new', paymentState: 'paid' }, { expiresAt: '2026-12-01T00:00:00Z' })).toBe(false);
  });
});
