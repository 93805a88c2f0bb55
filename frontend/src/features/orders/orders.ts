// Orders as the screens read them (SPEC §2 Orders, §3 Order, §4 Order state, §5): the list's
// columns, what may be done to an order in its state and to many in a column, the form's
// values and the body the API takes, and the paths. Pure: the screens translate.
import { toSatang, cleanAmount } from '@/shared/money';
import type { OrderAddressBody, OrderBillBody, OrderBody, OrderEventBody, OrderInput, OrderItemInput, OrderPaymentBody } from './api';
import { bahtText, orderTotals, percentBp, type Charges, type Discount, type MoneyLine, type Totals } from './money';

// ---------------------------------------------------------------------------------- states

/** The list's columns, in SPEC order: new, prepare shipment, sent, closed, cancelled, failed. */
export const COLUMNS = ['new', 'ready_to_fulfillment', 'shipped', 'closed', 'cancelled', 'failed'] as const;
export type Column = (typeof COLUMNS)[number];

export function isColumn(v: string | null | undefined): v is Column {
  return (COLUMNS as readonly string[]).includes(v ?? '');
}

/** The count of a column in GET /orders/count's answer. */
export const COUNT_KEYS: Record<Column, 'new' | 'readyToFulfillment' | 'shipped' | 'closed' | 'cancelled' | 'failed'> = {
  new: 'new',
  ready_to_fulfillment: 'readyToFulfillment',
  shipped: 'shipped',
  closed: 'closed',
  cancelled: 'cancelled',
  failed: 'failed',
};

export const STATE_COLOURS: Record<string, string> = {
  new: 'blue',
  ready_to_fulfillment: 'gold',
  shipped: 'cyan',
  closed: 'green',
  cancelled: 'default',
  failed: 'red',
};

export const PAYMENT_STATES = ['unpaid', 'pending', 'paid', 'voided', 'cancelled'] as const;
export const PAYMENT_COLOURS: Record<string, string> = { unpaid: 'default', pending: 'gold', paid: 'green', voided: 'purple', cancelled: 'red' };

export const PROBLEMS = ['stock_not_enough', 'address_incomplete', 'sku_not_linked'] as const;

/** Failure causes (SPEC §4). */
export const FAIL_CAUSES = ['fulfillment_failed', 'cancelled_by_warehouse'] as const;

/** An action on one order, as the API names it in the path (dash-separated). */
export type StateAction = 'ready-to-fulfillment' | 'close' | 'cancel' | 'void' | 'fail';

/** What may be done to an order: the actions the orders service allows in its state
 * (`allowedActions`, computed from its one state table), and what the screens derive from
 * them. Rights are checked apart. */
export function actionsOf(o: { allowedActions: readonly string[] }) {
  const allowed = (a: string) => o.allowedActions.includes(a);
  return {
    edit: allowed('edit'),
    prepare: allowed('ready_to_fulfillment'),
    cancel: allowed('cancel'),
    fail: allowed('fail'),
    close: allowed('close'),
    void: allowed('void'),
    ship: allowed('ship'),
    // Parcels are made while it may still ship; labels print until it has been closed.
    parcels: allowed('ship'),
    labels: allowed('ship') || allowed('close'),
    // An open order (new or being prepared) is picked, and its address may change.
    pickList: allowed('change_address'),
    address: allowed('change_address'),
  };
}

/** Actions on many orders at once. */
export type BulkAction = 'prepare' | 'channelArrange' | 'ship' | 'printLabels' | 'channelLabels' | 'pickList' | 'close' | 'cancel' | 'void';

/** Which right a bulk action takes: edit (prepare, close, ship), cancel (cancel, void), or
 * only reading (printing). */
export const BULK_RIGHT: Record<BulkAction, 'edit' | 'cancel' | 'read'> = {
  prepare: 'edit',
  // Marketplace orders their platform ships are prepared by arranging them there.
  channelArrange: 'edit',
  ship: 'edit',
  close: 'edit',
  cancel: 'cancel',
  void: 'cancel',
  printLabels: 'read',
  // The platforms' labels: printing them is recorded with the platform's shipment.
  channelLabels: 'edit',
  pickList: 'read',
};

/** The bulk actions of a column, the ones that can move its orders. */
export const BULK_ACTIONS: Record<Column, BulkAction[]> = {
  new: ['prepare', 'channelArrange', 'pickList', 'cancel'],
  ready_to_fulfillment: ['ship', 'printLabels', 'channelLabels', 'pickList', 'cancel'],
  shipped: ['close', 'printLabels', 'void'],
  closed: ['void'],
  cancelled: [],
  failed: ['cancel'],
};

/** The bulk actions of `column` a member with these rights may use. */
export function bulkActionsFor(column: Column, rights: { edit: boolean; cancel: boolean }): BulkAction[] {
  return BULK_ACTIONS[column].filter((a) => BULK_RIGHT[a] === 'read' || rights[BULK_RIGHT[a] as 'edit' | 'cancel']);
}

/** The bulk actions that move an order by hand, each with the action its state must allow. */
const BY_HAND: Partial<Record<BulkAction, string>> = { prepare: 'ready_to_fulfillment', ship: 'ship', close: 'close', cancel: 'cancel', void: 'void' };

/** Of `actions`, those the chosen orders allow: a move by hand is offered when at least one
 * chosen order allows it (a marketplace order whose platform moves it allows none), or when
 * some chosen order is not at hand (`unseen`: chosen on another page). */
export function offeredFor(actions: BulkAction[], chosen: readonly { allowedActions: readonly string[] }[], unseen: boolean): BulkAction[] {
  return actions.filter((a) => {
    const needs = BY_HAND[a];
    return needs === undefined || unseen || chosen.some((o) => o.allowedActions.includes(needs));
  });
}

/** Whether `count` orders may be sent at once (GET /orders/limits' maxSelection). */
export function withinSelection(count: number, maxSelection: number | undefined): boolean {
  return maxSelection === undefined || count <= maxSelection;
}

// ------------------------------------------------------------------------------------ form

export interface LineValues {
  skuId?: number;
  /** The SKU's product (its price, cost and weight are read from it). */
  productId?: number;
  quantity?: number | null;
  /** Baht as typed; empty: the SKU's price. */
  price?: string;
  packingOptions?: string[];
  note?: string;
}

export interface AddressValues {
  name?: string;
  tel?: string;
  email?: string;
  address?: string;
  subDistrict?: string;
  district?: string;
  stateProvince?: string;
  postcode?: string;
  country?: string;
  city?: string;
  international?: boolean;
}

export type DiscountType = '' | 'fixed' | 'percent';

export interface OrderValues {
  channel?: string;
  reference?: string;
  note?: string;
  warehouseId?: number;
  /** 0 or absent: no customer. */
  customerId?: number;
  /** An entry of the customer's book; 0: the address typed below. */
  customerAddressId?: number;
  shippingAddress?: AddressValues;
  items?: LineValues[];
  discountType?: DiscountType;
  discountValue?: string;
  vatIncluded?: boolean;
  /** 0: no shipping channel. */
  logisticStoreChannelId?: number;
  /** Baht as typed; empty: priced by the channel when saved. */
  shippingCharge?: string;
  additionalFee?: string;
  cod?: boolean;
}

export const NOTE_MAX = 500;
export const LINE_NOTE_MAX = 200;
export const REFERENCE_MAX = 100;
export const REASON_MAX = 500;
/** The most packing options of a line, and their longest. */
export const MAX_PACKING = 10;
export const PACKING_MAX = 50;
export const MAX_QUANTITY = 100_000;

export const blankLine = (): LineValues => ({ quantity: 1, price: '', packingOptions: [], note: '' });

/** A new order's values; `prefill` from the address (`/order-create/detail?channel=…`). */
export function newValues(prefill: Partial<OrderValues> = {}): OrderValues {
  return {
    channel: undefined,
    reference: '',
    note: '',
    customerId: 0,
    customerAddressId: 0,
    shippingAddress: { country: 'TH' },
    items: [blankLine()],
    discountType: '',
    discountValue: '',
    vatIncluded: true,
    logisticStoreChannelId: 0,
    shippingCharge: '',
    additionalFee: '',
    cod: false,
    ...prefill,
    // A customer named without an address ships to their default one, once it is known.
    ...(prefill.customerId && !prefill.customerAddressId ? { customerAddressId: undefined } : {}),
  };
}

/** What `/order-create/detail` takes from its query: channel, reference, note, warehouseId,
 * customerId and customerAddressId. */
export function prefillOf(params: URLSearchParams): Partial<OrderValues> {
  const out: Partial<OrderValues> = {};
  const id = (k: string) => {
    const n = Number(params.get(k));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const channel = params.get('channel')?.trim();
  if (channel) out.channel = channel;
  const reference = params.get('reference')?.trim();
  if (reference) out.reference = reference.slice(0, REFERENCE_MAX);
  const note = params.get('note')?.trim();
  if (note) out.note = note.slice(0, NOTE_MAX);
  const warehouseId = id('warehouseId') ?? id('warehouse-id') ?? id('warehouse');
  if (warehouseId) out.warehouseId = warehouseId;
  const customerId = id('customerId') ?? id('customer-id') ?? id('customer');
  if (customerId) out.customerId = customerId;
  const addressId = id('customerAddressId') ?? id('customer-address-id');
  if (customerId && addressId) out.customerAddressId = addressId;
  return out;
}

function addressValues(a: OrderAddressBody): AddressValues {
  const country = a.country || 'TH';
  return {
    name: a.name ?? '',
    tel: a.tel ?? '',
    email: a.email ?? '',
    address: a.address ?? '',
    subDistrict: a.subDistrict ?? '',
    district: a.district ?? '',
    stateProvince: a.stateProvince ?? '',
    postcode: a.postcode ?? '',
    country,
    city: a.city ?? '',
    international: country !== 'TH',
  };
}

/** A saved order as the form's values (an edit). The shipping charge the order holds is kept
 * as typed, so the buyer's total stays what was agreed unless it is changed (emptied, the
 * channel prices it again). */
export function valuesOf(o: OrderBody): OrderValues {
  const discountType: DiscountType = o.discount.type === 'fixed' || o.discount.type === 'percent' ? o.discount.type : '';
  return {
    channel: o.channel,
    reference: o.reference,
    note: o.note,
    warehouseId: o.warehouseId,
    customerId: o.customerId,
    customerAddressId: o.customerAddressId,
    shippingAddress: addressValues(o.shippingAddress),
    items: o.items.map((i) => ({
      skuId: i.skuId,
      productId: i.productId,
      quantity: i.quantity,
      price: i.price,
      packingOptions: i.packingOptions,
      note: i.note,
    })),
    discountType,
    discountValue: discountType ? o.discount.value : '',
    vatIncluded: o.vatIncluded,
    logisticStoreChannelId: o.logisticStoreChannelId,
    shippingCharge: o.logisticStoreChannelId > 0 ? o.shippingTotal : '',
    additionalFee: toSatang(o.additionalFee) ? o.additionalFee : '',
    cod: o.cod,
  };
}

const trim = (s: string | undefined) => (s ?? '').trim();

/** The typed address as the API takes it: a Thai one as TH, abroad with its country. */
export function addressInput(a: AddressValues | undefined): OrderAddressBody {
  const v = a ?? {};
  const abroad = v.international ?? Boolean(v.country && v.country !== 'TH');
  return {
    name: trim(v.name),
    tel: trim(v.tel).replace(/[\s-]/g, ''),
    email: trim(v.email),
    address: trim(v.address),
    subDistrict: abroad ? '' : trim(v.subDistrict),
    district: abroad ? '' : trim(v.district),
    stateProvince: trim(v.stateProvince),
    postcode: trim(v.postcode),
    country: abroad ? trim(v.country) : 'TH',
    city: abroad ? trim(v.city) : '',
  };
}

/** The form's values as the API's order (a whole order: the same body creates and rewrites;
 * `version` is the one read, for an edit). Empty amounts are left out: the server then takes
 * the SKU's price, prices shipping with the channel, and charges no fee. */
export function inputOf(v: OrderValues, version?: number): OrderInput {
  const items: OrderItemInput[] = (v.items ?? []).map((l) => {
    const line: OrderItemInput = {
      skuId: l.skuId ?? 0,
      quantity: typeof l.quantity === 'number' ? l.quantity : 0,
      packingOptions: (l.packingOptions ?? []).map((o) => o.trim()).filter(Boolean),
      note: trim(l.note),
    };
    const price = cleanAmount(l.price);
    if (price) line.price = price;
    return line;
  });
  const customerId = v.customerId && v.customerId > 0 ? v.customerId : 0;
  const fromBook = customerId > 0 && (v.customerAddressId ?? 0) > 0;
  const discountType = v.discountType ?? '';
  const input: OrderInput = {
    channel: v.channel ?? '',
    reference: trim(v.reference),
    note: trim(v.note),
    warehouseId: v.warehouseId ?? 0,
    customerId,
    customerAddressId: fromBook ? (v.customerAddressId ?? 0) : 0,
    shippingAddress: fromBook ? {} : addressInput(v.shippingAddress),
    items,
    discountType,
    vatIncluded: v.vatIncluded ?? true,
    logisticStoreChannelId: v.logisticStoreChannelId ?? 0,
    cod: Boolean(v.cod) && (v.logisticStoreChannelId ?? 0) > 0,
  };
  const discount = cleanAmount(v.discountValue);
  if (discountType && discount) input.discountValue = discount;
  const shipping = cleanAmount(v.shippingCharge);
  if (shipping && (v.logisticStoreChannelId ?? 0) > 0) input.shippingCharge = shipping;
  const fee = cleanAmount(v.additionalFee);
  if (fee) input.additionalFee = fee;
  if (version !== undefined) input.version = version;
  return input;
}

// ---------------------------------------------------------------------------------- totals

/** What the app knows of a SKU (from its product, or an edited order's snapshot), satang and
 * grams. */
export interface SkuFacts {
  price: number;
  cost: number;
  weightG: number;
}

/** A line's unit price: as typed, else the SKU's; null while neither is known or readable. */
export function linePrice(l: LineValues | undefined, facts: SkuFacts | undefined): number | null {
  const typed = cleanAmount(l?.price);
  if (typed) return toSatang(typed);
  return facts ? facts.price : null;
}

/** The discount as typed; null when the value is not readable. */
export function discountOf(type: DiscountType | undefined, value: string | undefined): Discount | null {
  const s = cleanAmount(value);
  if (!type) return { kind: 'none' };
  if (!s) return type === 'fixed' ? { kind: 'fixed', satang: 0 } : { kind: 'percent', bp: 0 };
  if (type === 'fixed') {
    const satang = toSatang(s);
    return satang === null ? null : { kind: 'fixed', satang };
  }
  const bp = percentBp(s);
  return bp === null ? null : { kind: 'percent', bp };
}

/** What the form's order comes to, as the server would compute it, for display: lines whose
 * SKU, quantity and price are known; shipping as typed, else `quoted` (the channel's price
 * for it), else none. Null while an amount is unreadable. */
export function formTotals(v: OrderValues, facts: Map<number, SkuFacts>, quoted: number | null = null): Totals | null {
  const lines: MoneyLine[] = [];
  for (const l of v.items ?? []) {
    if (!l?.skuId || typeof l.quantity !== 'number' || l.quantity <= 0) continue;
    const price = linePrice(l, facts.get(l.skuId));
    if (price === null) {
      if (cleanAmount(l.price)) return null;
      continue;
    }
    lines.push({ price, cost: facts.get(l.skuId)?.cost ?? 0, quantity: l.quantity, warehouseId: v.warehouseId ?? 0 });
  }
  const discount = discountOf(v.discountType, v.discountValue);
  if (!discount) return null;
  const hasChannel = (v.logisticStoreChannelId ?? 0) > 0;
  const typedShipping = cleanAmount(v.shippingCharge);
  const shipping = !hasChannel ? 0 : typedShipping ? toSatang(typedShipping) : (quoted ?? 0);
  const fee = cleanAmount(v.additionalFee) ? toSatang(v.additionalFee) : 0;
  if (shipping === null || fee === null) return null;
  const charges: Charges = { discount, vatIncluded: v.vatIncluded ?? true, shippingCharge: shipping, shippingChargeInter: 0, additionalFee: fee };
  const r = orderTotals(lines, charges);
  return r.ok ? r.totals : null;
}

/** The order's estimated weight in grams, as the server reckons it for pricing shipping
 * (at least one gram). */
export function estimatedGrams(v: OrderValues, facts: Map<number, SkuFacts>): number {
  let g = 0;
  for (const l of v.items ?? []) {
    if (!l?.skuId || typeof l.quantity !== 'number' || l.quantity <= 0) continue;
    g += (facts.get(l.skuId)?.weightG ?? 0) * l.quantity;
  }
  return Math.max(1, g);
}

/** Grams as kilogram text ("0.600"). */
export function kgText(grams: number): string {
  return `${Math.floor(grams / 1000)}.${String(grams % 1000).padStart(3, '0')}`;
}

/** Kilogram text ("0.3", "1.250") in grams; null when it is not a weight of at most three
 * decimals. */
export function grams(kg: string | null | undefined): number | null {
  const s = String(kg ?? '').trim();
  if (!/^\d{1,5}(\.\d{1,3})?$/.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 1000 + Number(frac.padEnd(3, '0'));
}

export { bahtText };

// ---------------------------------------------------------------------------------- parcels

export interface ParcelValues {
  packagingCode?: string;
  weight?: string;
  width?: number | null;
  length?: number | null;
  height?: number | null;
  trackingNo?: string;
}

/** A parcel's form values as the API takes them. */
export function parcelInput(v: ParcelValues, orderId?: number) {
  return {
    ...(orderId ? { orderId } : {}),
    weight: (v.weight ?? '').trim(),
    width: v.width ?? 0,
    length: v.length ?? 0,
    height: v.height ?? 0,
    packagingCode: v.packagingCode ?? '',
    trackingNo: (v.trackingNo ?? '').trim().toUpperCase(),
  };
}

// ------------------------------------------------------------------------------------ paths

export const listPath = (storeId: number | string, column?: string) => `/${storeId}/order-list${column && column !== 'new' ? `?state=${column}` : ''}`;
export const detailPath = (storeId: number | string, id: number) => `/${storeId}/order-detail/${id}`;
export const createPath = (storeId: number | string) => `/${storeId}/order-create`;
export const editPath = (storeId: number | string, id: number) => `/${storeId}/order-edit/${id}`;
export const printLabelPath = (storeId: number | string, ids: number[], size = 'a6') => `/${storeId}/print-label?ids=${ids.join(',')}&size=${size}`;

/** The order ids of `/print-label?ids=1,2,3`, each once, in order. */
export function idsOf(text: string | null): number[] {
  const out: number[] = [];
  for (const part of (text ?? '').split(',')) {
    const n = Number(part.trim());
    if (Number.isInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

/** Label sizes (SPEC: A6, or 100 × 150 mm for label printers). */
export const LABEL_SIZES = ['a6', '100x150'] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];
export function isLabelSize(v: string | null | undefined): v is LabelSize {
  return (LABEL_SIZES as readonly string[]).includes(v ?? '');
}

/** Units of an order's lines. */
export function pieces(o: Pick<OrderBody, 'items'>): number {
  return o.items.reduce((n, i) => n + i.quantity, 0);
}

// -------------------------------------------------------------------------------- timeline

type T = (k: string | string[], o?: Record<string, unknown>) => string;

/** One change of an order's life in words: what was done, from which state to which, and its
 * detail (a reason, a tracking number, a failure's cause). */
export function eventLine(e: Pick<OrderEventBody, 'action' | 'fromState' | 'toState' | 'detail'>, t: T): string {
  const action = t(`orders:timeline.${e.action}`, { defaultValue: e.action });
  const moved = e.fromState && e.toState && e.fromState !== e.toState ? ` (${t(`orders:states.${e.fromState}`)} → ${t(`orders:states.${e.toState}`)})` : '';
  const said = e.detail ? eventDetail(e.action, e.detail, t) : '';
  const detail = said ? `: ${said}` : '';
  return `${action}${moved}${detail}`;
}

/** What an event's detail says, in words where the API writes a code. */
function eventDetail(action: string, detail: string, t: T): string {
  if (action === 'failed') return failedDetail(detail, t);
  if (action === 'cancelled' && detail === 'bill_expired') return t('orders:bills.cancelledOnExpiry');
  if (action === 'bill_expired') return t(`orders:bills.onExpiry.${detail.split(':')[1] ?? ''}`, { defaultValue: detail });
  if (action === 'bill_renewed') return t('orders:bills.renewedDays', { count: Number(detail) || 0 });
  // Payments write "warehouse:source" (a slip) or "warehouse:state" (a move): said in words.
  if (action === 'payment_slip') return t(`orders:payments.source.${detail.split(':')[1] ?? ''}`, { defaultValue: '' });
  if (action === 'payment_voided' || action === 'payment_confirmed' || action === 'payment_cancelled') {
    const to = detail.split(':')[1] ?? '';
    return t(`orders:payment.${to}`, { defaultValue: '' });
  }
  if (action === 'payment_created' || action === 'payment_edited') return '';
  // Returns write "reference stage status…" and "codes good n defective n".
  if (action === 'return_reported' || action === 'return_changed') {
    const [reference, stage] = detail.split(' ');
    return t('orders:returns.event', { reference, stage: t(`orders:returns.stages.${stage}`, { defaultValue: stage ?? '' }) });
  }
  if (action === 'return_received') {
    const m = /^(.*) good (\d+) defective (\d+)$/.exec(detail);
    if (m) return t('orders:returns.receivedEvent', { codes: m[1], good: Number(m[2]), defective: Number(m[3]) });
  }
  return detail;
}

/** The most days a bill is renewed by. */
export const MAX_RENEW_DAYS = 30;

/** Whether a bill of the order may be renewed: the order is new and not paid, and the bill
 * has an expiry (a bill that never expires needs no renewal). */
export function renewable(o: Pick<OrderBody, 'state' | 'paymentState'>, b: Pick<OrderBillBody, 'expiresAt'>): boolean {
  return o.state === 'new' && o.paymentState !== 'paid' && !!b.expiresAt;
}

/** A failure's detail ("cause: reason") with its cause in words. */
function failedDetail(detail: string, t: T): string {
  const [cause, ...rest] = detail.split(': ');
  const named = t(`orders:causes.${cause}`, { defaultValue: cause });
  return rest.length ? `${named}: ${rest.join(': ')}` : named;
}

/** What staff may do to a payment. */
export type PaymentAction = 'confirm' | 'cancel' | 'void';

/** The actions a payment's state offers (SPEC §4): confirm a pending one (cash on delivery:
 * an unpaid or pending one once the order is shipped), cancel an unpaid or pending one,
 * void a pending or paid one. The server has the last word. */
export function paymentActions(p: Pick<OrderPaymentBody, 'state'>, o: Pick<OrderBody, 'cod' | 'state'>): PaymentAction[] {
  const shipped = o.state === 'shipped' || o.state === 'closed';
  const out: PaymentAction[] = [];
  if (p.state === 'pending' && !o.cod) out.push('confirm');
  if (o.cod && shipped && (p.state === 'unpaid' || p.state === 'pending')) out.push('confirm');
  if (p.state === 'unpaid' || p.state === 'pending') out.push('cancel');
  if (p.state === 'pending' || p.state === 'paid') out.push('void');
  return out;
}

/** The most a slip may weigh: 5 MB. */
export const MAX_SLIP_BYTES = 5 * 1024 * 1024;

/** Why a chosen slip cannot be sent (a message key under orders:payments), or null. */
export function checkSlip(f: { name: string; size: number; type?: string }): 'slipType' | 'slipTooLarge' | null {
  if (!/\.(jpe?g|png)$/i.test(f.name)) return 'slipType';
  if (f.size > MAX_SLIP_BYTES) return 'slipTooLarge';
  return null;
}

/** A bill's public link on this site. */
export function billLink(origin: string, token: string): string {
  return `${origin}/bill/${token}`;
}
