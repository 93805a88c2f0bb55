// Goods receipts as the screens read them (SPEC §3, §4, §5): the board's tabs and the states
// each holds, what may be done in each state, a line's pieces and cost, the form's values and
// the body the API takes, and where a server's refusal goes. Pure: the screens translate.
import dayjs, { type Dayjs } from 'dayjs';

import { formatDateTime } from '@/shared/i18n/i18n';
import { namePath } from '@/shared/form/serverErrors';
import { cleanAmount, formatBaht, toSatang } from '@/shared/money';
import type { DimensionBody, GoodsReceiptBody, GoodsReceiptInput, PackagingBody, ReceiptLineBody, ReceiptLineInput } from '../api';

/** The board's tabs, in order (SPEC §4: draft; pending and received; approved, shelving and
 * shelved; rejected). */
export const TABS = ['draft', 'pending', 'approved', 'rejected'] as const;
export type Tab = (typeof TABS)[number];

export const TYPES = ['product', 'parcel', 'material'] as const;
export type ReceiptType = (typeof TYPES)[number];

export const OPTIONS = ['label_sku', 'repack', 'inspect_every_unit'] as const;

export const STATES = ['draft', 'pending', 'received', 'approved', 'rejected', 'shelving', 'shelved'] as const;

export const NOTE_MAX = 500;
export const REASON_MAX = 500;
/** The most pieces on one line, as the service allows. */
export const MAX_QTY = 1_000_000_000;

export function isTab(v: string | undefined | null): v is Tab {
  return (TABS as readonly string[]).includes(v ?? '');
}

export function isType(v: string | undefined | null): v is ReceiptType {
  return (TYPES as readonly string[]).includes(v ?? '');
}

/** The tab a state shows on. */
export function tabOf(state: string): Tab {
  if (state === 'pending' || state === 'received') return 'pending';
  if (state === 'approved' || state === 'shelving' || state === 'shelved') return 'approved';
  if (state === 'rejected') return 'rejected';
  return 'draft';
}

/** The colour of a state's tag. */
export const STATE_COLOURS: Record<string, string> = {
  draft: 'default',
  pending: 'gold',
  received: 'blue',
  approved: 'green',
  rejected: 'red',
  shelving: 'cyan',
  shelved: 'geekblue',
};

/** The colour of a line status' tag. */
export const LINE_STATUS_COLOURS: Record<string, string> = {
  complete: 'green',
  incomplete: 'orange',
  no_product: 'red',
  excess_product: 'purple',
};

/** What a receipt in `state` may have done to it (SPEC §4); rights are checked apart. */
export function actionsOf(state: string) {
  return {
    edit: state === 'draft',
    delete: state === 'draft',
    send: state === 'draft',
    qc: state === 'pending' || state === 'received',
    startShelving: state === 'approved',
    finishShelving: state === 'shelving',
  };
}

// ----------------------------------------------------------------------------------- dates

/** A date (`YYYY-MM-DD`) as shop staff read it: Buddhist era in Thai. */
export function formatDate(date: string | null | undefined, lng: string): string {
  if (!date) return '';
  const d = dayjs(date);
  if (!d.isValid()) return '';
  return lng === 'th' ? d.locale('th').format('D MMM BBBB') : d.locale('en').format('D MMM YYYY');
}

/** The expected arrival (a date and an `HH:MM` in Thailand) as read. */
export function formatArrival(date: string, time: string, lng: string): string {
  if (!date) return '';
  return time ? formatDateTime(`${date}T${time.slice(0, 5)}`, lng) : formatDate(date, lng);
}

// ----------------------------------------------------------------------------------- units

/** A store unit of measurement as a line may be written in. */
export interface UnitChoice {
  id: number;
  name: string;
  /** Pieces in one. */
  pieces: number;
}

/** Pieces in one of a store unit, as the gateway reckons it (the larger of its converted
 * quantity and its quantity, at least 1). */
export function piecesPerUnit(u: { quantity: number; convertedQuantity: number }): number {
  return Math.max(1, u.convertedQuantity, u.quantity);
}

/** A line's pieces: units asked × pieces in one (0 while the quantity is not a number). */
export function linePieces(qty: number | null | undefined, perUnit: number): number {
  return typeof qty === 'number' && Number.isFinite(qty) && qty > 0 ? qty * Math.max(1, perUnit) : 0;
}

/** Σ cost × quantity in satang over the lines whose cost and quantity are readable. */
export function totalCostSatang(lines: { cost?: string | null; requestQty?: number | null }[]): number {
  let sum = 0;
  for (const l of lines) {
    const satang = toSatang(l.cost === undefined || l.cost === null || l.cost === '' ? '0' : l.cost);
    if (satang === null || typeof l.requestQty !== 'number' || !Number.isFinite(l.requestQty) || l.requestQty <= 0) continue;
    sum += satang * l.requestQty;
  }
  return sum;
}

/** Satang as baht text with separators: 39100 → "391.00". */
export function satangText(satang: number): string {
  return formatBaht(satang / 100);
}

// ------------------------------------------------------------------------------------ form

export interface DimensionValues {
  width?: number | null;
  length?: number | null;
  height?: number | null;
  weight?: string | null;
}

export interface LineValues {
  skuId?: number;
  name?: string;
  unitId?: number;
  cost?: string;
  requestQty?: number | null;
  expiredAt?: Dayjs | null;
  printLabel?: boolean;
  dimension?: DimensionValues;
}

export interface PackagingValues {
  name?: string;
  quantity?: number | null;
  dimension?: DimensionValues;
}

export interface ReceiptValues {
  warehouseId?: number;
  expectedReceivedDate?: Dayjs | null;
  expectedReceivedTime?: Dayjs | null;
  note?: string;
  isPickUp?: boolean;
  pickUp?: { address?: string; tel?: string; expectedPickedUpAt?: Dayjs | null };
  products?: LineValues[];
  packagings?: PackagingValues[];
  options?: string[];
}

/** A weight in kilograms as typed: at most three decimals. */
export function checkWeight(v: string | null | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return null;
  return /^\d{1,5}(\.\d{1,3})?$/.test(s) ? null : 'validation.weight';
}

/** A line's cost as typed: empty (free) or baht with at most two decimals, up to 10 million. */
export function checkCost(v: string | null | undefined): string | null {
  const s = cleanAmount(v);
  if (!s) return null;
  const satang = toSatang(s);
  return satang === null || satang > 1_000_000_000 ? 'validation.money' : null;
}

const blankLine = (type: ReceiptType): LineValues =>
  type === 'product' ? { unitId: 0, printLabel: false, cost: '' } : { name: '', cost: '', dimension: {} };

/** A new receipt's values: one empty line. */
export function newValues(type: ReceiptType, warehouseId?: number): ReceiptValues {
  return { warehouseId, note: '', isPickUp: false, pickUp: {}, products: [blankLine(type)], packagings: [], options: [] };
}

export function newLine(type: ReceiptType): LineValues {
  return blankLine(type);
}

function hasSize(d: DimensionBody | null | undefined): boolean {
  if (!d) return false;
  return Boolean(d.width || d.length || d.height || (d.weight && Number(d.weight) > 0));
}

function dimensionValues(d: DimensionBody | null | undefined): DimensionValues {
  if (!hasSize(d)) return {};
  return { width: d?.width || null, length: d?.length || null, height: d?.height || null, weight: d?.weight && Number(d.weight) > 0 ? d.weight : '' };
}

/** A saved receipt as the form's values. */
export function valuesOf(r: GoodsReceiptBody): ReceiptValues {
  const time = /^\d{2}:\d{2}/.test(r.expectedReceivedTime) ? dayjs(`2000-01-01T${r.expectedReceivedTime.slice(0, 5)}`) : null;
  return {
    warehouseId: r.warehouseId,
    expectedReceivedDate: r.expectedReceivedDate ? dayjs(r.expectedReceivedDate) : null,
    expectedReceivedTime: time,
    note: r.note,
    isPickUp: r.isPickUp,
    pickUp: {
      address: r.pickUpDetail?.address ?? '',
      tel: r.pickUpDetail?.tel ?? '',
      expectedPickedUpAt: r.pickUpDetail?.expectedPickedUpAt ? dayjs(r.pickUpDetail.expectedPickedUpAt) : null,
    },
    products: r.items.map((l: ReceiptLineBody) =>
      r.type === 'product'
        ? {
            skuId: l.skuId,
            unitId: l.unit.id,
            cost: l.cost,
            requestQty: l.requestQty,
            expiredAt: l.expiredAt ? dayjs(l.expiredAt) : null,
            printLabel: l.printLabel,
          }
        : { name: l.name, cost: l.cost, requestQty: l.requestQty, dimension: dimensionValues(l.dimension) },
    ),
    packagings: r.packagings.map((p: PackagingBody) => ({ name: p.name, quantity: p.quantity, dimension: dimensionValues(p.dimension) })),
    options: r.options,
  };
}

function dimensionBody(d: DimensionValues | undefined): DimensionBody | undefined {
  if (!d) return undefined;
  const out: DimensionBody = {};
  if (d.width) out.width = d.width;
  if (d.length) out.length = d.length;
  if (d.height) out.height = d.height;
  if (d.weight && d.weight.trim()) out.weight = d.weight.trim();
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The form's values as the API's draft (a whole draft: the same body creates and rewrites). */
export function inputOf(type: ReceiptType, v: ReceiptValues): GoodsReceiptInput {
  const products: ReceiptLineInput[] = (v.products ?? []).map((l) => {
    const cost = cleanAmount(l.cost) || '0';
    if (type === 'product') {
      const line: ReceiptLineInput = { skuId: l.skuId, cost, requestQty: l.requestQty ?? 0, printLabel: Boolean(l.printLabel) };
      if (l.unitId) line.unitId = l.unitId;
      if (l.expiredAt) line.expiredAt = l.expiredAt.format('YYYY-MM-DD');
      return line;
    }
    const line: ReceiptLineInput = { name: (l.name ?? '').trim(), cost, requestQty: l.requestQty ?? 0 };
    const dimension = dimensionBody(l.dimension);
    if (dimension) line.dimension = dimension;
    return line;
  });
  const packagings: PackagingBody[] = (v.packagings ?? []).map((p) => {
    const body: PackagingBody = { name: (p.name ?? '').trim(), quantity: p.quantity ?? 0 };
    const dimension = dimensionBody(p.dimension);
    if (dimension) body.dimension = dimension;
    return body;
  });
  const input: GoodsReceiptInput = {
    type,
    warehouseId: v.warehouseId,
    expectedReceivedDate: v.expectedReceivedDate ? v.expectedReceivedDate.format('YYYY-MM-DD') : '',
    expectedReceivedTime: v.expectedReceivedTime ? v.expectedReceivedTime.format('HH:mm') : '',
    note: (v.note ?? '').trim(),
    isPickUp: Boolean(v.isPickUp),
    products,
    packagings,
    options: v.options ?? [],
  };
  if (v.isPickUp) {
    input.pickUp = {
      address: (v.pickUp?.address ?? '').trim(),
      tel: (v.pickUp?.tel ?? '').replace(/[\s-]/g, ''),
      expectedPickedUpAt: v.pickUp?.expectedPickedUpAt ? v.pickUp.expectedPickedUpAt.format() : '',
    };
  }
  return input;
}

// --------------------------------------------------------------------------------- refusals

/** A server field (`products[1].request_qty`, `lines[0].sku_id`, `pick_up.tel`) as the form's
 * name path (`['products', 1, 'requestQty']`): the service's `lines` are the form's
 * `products`, and `options[2]` is the options group. */
export function fieldPath(field: string): (string | number)[] {
  const path = namePath(field);
  if (path[0] === 'lines') path[0] = 'products';
  return path[0] === 'options' ? ['options'] : path;
}

/** Refusals that belong under one field of the form. */
export const FORM_CODES = {
  warehouse_inactive: { field: 'warehouseId', message: 'receipts:errors.warehouse_inactive' },
  warehouse_not_found: { field: 'warehouseId', message: 'receipts:errors.warehouse_not_found' },
};

// ---------------------------------------------------------------------------------------- QC

export interface QcRow {
  id: number;
  receiveQty: number;
  defectQty: number;
}

/** The counts QC starts from: those already recorded, else every piece asked for, none
 * defective. */
export function qcDefaults(r: GoodsReceiptBody): QcRow[] {
  const counted = r.state === 'received';
  return r.items.map((l) => ({ id: l.id, receiveQty: counted ? l.receiveQty : l.requestBaseQty, defectQty: counted ? l.defectQty : 0 }));
}

/** A line's status as QC counts would make it (SPEC §4). */
export function lineStatus(requestBase: number, received: number): string {
  if (received <= 0) return 'no_product';
  if (received < requestBase) return 'incomplete';
  if (received === requestBase) return 'complete';
  return 'excess_product';
}

// ------------------------------------------------------------------------------------ paths

export const boardPath = (storeId: number | string, tab: string) => `/${storeId}/stock-management-goods-receipt/${tab}`;
export const detailPath = (storeId: number | string, state: string, id: number) => `/${storeId}/stock-management-goods-receipt-detail/${state}/${id}`;
export const createPath = (storeId: number | string, type: string) => `/${storeId}/stock-management-goods-receipt-create/${type}`;
export const editPath = (storeId: number | string, type: string, id: number) => `/${storeId}/stock-management-goods-receipt-edit/${type}/${id}`;
