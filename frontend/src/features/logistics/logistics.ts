// Rules of the store's shipping (SPEC §3 COD provider, Logistic store channel; §5; §9), the
// same as the logistics service's: a channel ships from one warehouse with one provider of its
// type, priced flat, by weight brackets (rising weights, each with a price, at most 30, up to
// 100 kg) or free from an order total up (the flat price below it); COD only with a COD
// provider; a COD account number is 10 to 20 digits. Also the store's tracking-number ranges
// (UPU S10 for the postal provider), the international rate table's file and its errors, the
// calculator's parcel, and the carrier accounts. Checks return message keys with their
// namespace; `t` translates them.
import { apiError } from '@/app/api/errors';
import { checkRequired, MSG } from '@/shared/form/rules';
import type { ServerErrorOptions } from '@/shared/form/serverErrors';
import { checkPrice, cleanAmount, formatBaht, toSatang } from '@/shared/money';
import type { Carrier, LogisticChannel, LogisticChannelInput, ServiceRateBody, TrackingRangeInput } from './api';

export const SHIPMENT_TYPES = ['domestic', 'international'] as const;
export type ShipmentType = (typeof SHIPMENT_TYPES)[number];

export const METHODS = ['flat', 'weight', 'free_over', 'rate_table'] as const;
export type PricingMethod = (typeof METHODS)[number];

/** The pricing methods of a shipping type: the store's international rate table (plus the
 * channel's price as a handling fee) prices international channels only. */
export function methodsFor(type: ShipmentType): readonly PricingMethod[] {
  return type === 'international' ? METHODS : METHODS.filter((m) => m !== 'rate_table');
}

/** The tabs of /setting/logistic, as `?tab=` names them. */
export const TABS = ['domestic', 'international', 'cod', 'tracking'] as const;
export type LogisticTab = (typeof TABS)[number];

/** Most weight brackets of a channel. */
export const MAX_BRACKETS = 30;
/** The heaviest bracket, in grams. */
export const MAX_WEIGHT_G = 100_000;
/** Longest channel name. */
export const NAME_MAX = 100;
/** COD account numbers: 10 to 20 digits. */
export const COD_ACC_MIN = 10;
export const COD_ACC_MAX = 20;

/** A weight bracket as the form holds it: kilograms and baht as typed. */
export interface BracketRow {
  maxWeight: string;
  price: string;
}

/** What the channel form holds. */
export interface ChannelValues {
  warehouseId?: number;
  logisticType: ShipmentType;
  providerName?: string;
  name: string;
  pricingMethod: PricingMethod;
  price?: string;
  brackets: BracketRow[];
  freeOver?: string;
  cod: boolean;
  active: boolean;
}

export function tabOf(v: string | null): LogisticTab {
  return (TABS as readonly string[]).includes(v ?? '') ? (v as LogisticTab) : 'domestic';
}

export function shipmentTypeOf(v: string | null | undefined): ShipmentType {
  return v === 'international' ? 'international' : 'domestic';
}

/** The list a form returns to: the channel's type and warehouse. */
export function listPath(storeId: number, tab: LogisticTab, warehouseId?: number): string {
  const q = new URLSearchParams({ tab });
  if (warehouseId) q.set('warehouse', String(warehouseId));
  return `/${storeId}/setting/logistic?${q.toString()}`;
}

/** The create form for a type, in a warehouse. */
export function createPath(storeId: number, type: ShipmentType, warehouseId?: number): string {
  const q = new URLSearchParams({ type });
  if (warehouseId) q.set('warehouse', String(warehouseId));
  return `/${storeId}/setting/logistic-create?${q.toString()}`;
}

/** Kilograms as typed (up to three decimals) in grams; null when not a weight. */
export function toGrams(kg: string | undefined | null): number | null {
  const s = (kg ?? '').trim().replace(/,/g, '');
  if (!/^\d+(\.\d{1,3})?$/.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  if (whole.length > 6) return null;
  return Number(whole) * 1000 + Number(frac.padEnd(3, '0'));
}

/** Kilograms from the API ("5.500") as people write them ("5.5"). */
export function kgText(v: string): string {
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/** A bracket's upper weight: above 0, at most 100 kg, three decimals. */
export function checkWeight(v: string): string | null {
  if (!(v ?? '').trim()) return `common:${MSG.required}`;
  const g = toGrams(v);
  return g === null || g <= 0 || g > MAX_WEIGHT_G ? 'common:validation.weight' : null;
}

/** A price, as a namespaced key. */
export function checkBaht(v: string | undefined): string | null {
  const code = checkPrice(v);
  return code ? `common:${code}` : null;
}

/** A problem of one cell of the bracket table, or of the table (`row` -1). */
export interface BracketProblem {
  row: number;
  field: 'maxWeight' | 'price' | 'list';
  key: string;
}

/** Every problem of the brackets, in the table's order: each row's weight and price, then
 * weights that do not rise. */
export function bracketProblems(rows: BracketRow[]): BracketProblem[] {
  if (rows.length === 0) return [{ row: -1, field: 'list', key: 'logistics:brackets.none' }];
  const out: BracketProblem[] = [];
  if (rows.length > MAX_BRACKETS) out.push({ row: -1, field: 'list', key: 'common:validation.weight_brackets' });
  // The heaviest valid weight above the row: each row must be heavier.
  let above = 0;
  rows.forEach((r, i) => {
    const w = checkWeight(r.maxWeight);
    if (w) out.push({ row: i, field: 'maxWeight', key: w });
    else {
      const here = toGrams(r.maxWeight) ?? 0;
      if (here <= above) out.push({ row: i, field: 'maxWeight', key: 'logistics:brackets.rising' });
      above = Math.max(above, here);
    }
    const p = checkBaht(r.price);
    if (p) out.push({ row: i, field: 'price', key: p });
  });
  return out;
}

/** The first problem of the brackets, for the message under the table. */
export function checkBrackets(rows: BracketRow[] | undefined): string | null {
  return bracketProblems(rows ?? [])[0]?.key ?? null;
}

/** A row added below the last, one kilogram heavier; none beyond the limit. */
export function addBracket(rows: BracketRow[]): BracketRow[] {
  if (rows.length >= MAX_BRACKETS) return rows;
  const last = rows.length ? toGrams(rows[rows.length - 1].maxWeight) : 0;
  const next = last === null ? '' : kgText(((last + 1000) / 1000).toFixed(3));
  return [...rows, { maxWeight: last !== null && last + 1000 <= MAX_WEIGHT_G ? next : '', price: '' }];
}

export function removeBracket(rows: BracketRow[], index: number): BracketRow[] {
  return rows.filter((_, i) => i !== index);
}

export function changeBracket(rows: BracketRow[], index: number, change: Partial<BracketRow>): BracketRow[] {
  return rows.map((r, i) => (i === index ? { ...r, ...change } : r));
}

/** The brackets as sent: kilograms and baht without grouping. */
export function cleanBrackets(rows: BracketRow[]): { maxWeight: string; price: string }[] {
  return rows.map((r) => ({ maxWeight: r.maxWeight.trim().replace(/,/g, ''), price: cleanAmount(r.price) }));
}

/** A channel's name: required, at most 100 characters. */
export function checkChannelName(v: string): string | null {
  return checkRequired(v, NAME_MAX);
}

/** A COD account number: required, 10 to 20 digits (dashes and spaces may group them). */
export function checkCodAccountNo(v: string): string | null {
  const d = (v ?? '').trim().replace(/[ -]/g, '');
  if (!d) return MSG.required;
  return /^[0-9]+$/.test(d) && d.length >= COD_ACC_MIN && d.length <= COD_ACC_MAX ? null : 'validation.account_number';
}

/** The request body of the channel form: only its pricing method's fields; COD only for a
 * provider that collects it. */
export function channelBody(v: ChannelValues, provider: Pick<Carrier, 'cod'> | undefined): LogisticChannelInput {
  const body: LogisticChannelInput = {
    warehouseId: v.warehouseId,
    logisticType: v.logisticType,
    name: v.name.trim(),
    providerName: v.providerName,
    pricingMethod: v.pricingMethod,
    cod: Boolean(provider?.cod && v.cod),
    status: v.active ? 'active' : 'inactive',
  };
  if (v.pricingMethod === 'weight') body.brackets = cleanBrackets(v.brackets);
  else body.price = cleanAmount(v.price);
  if (v.pricingMethod === 'free_over') body.freeOver = cleanAmount(v.freeOver);
  return body;
}

/** The form's values of a saved channel. */
export function channelValues(c: LogisticChannel): ChannelValues {
  const method = (METHODS as readonly string[]).includes(c.pricingMethod) ? (c.pricingMethod as PricingMethod) : 'flat';
  return {
    warehouseId: c.warehouseId,
    logisticType: shipmentTypeOf(c.logisticType),
    providerName: c.providerName,
    name: c.name,
    pricingMethod: method,
    price: method === 'weight' ? '' : c.price,
    brackets: c.brackets.map((b) => ({ maxWeight: kgText(b.maxWeight), price: b.price })),
    freeOver: method === 'free_over' ? c.freeOver : '',
    cod: c.cod,
    active: c.status === 'active',
  };
}

/** A carrier's name in the chosen language, or the provider name the catalogue lacks. */
export function carrierName(c: Pick<Carrier, 'nameTh' | 'nameEn'> | null | undefined, providerName: string, lng: string): string {
  if (!c) return providerName;
  return lng === 'th' ? c.nameTh : c.nameEn;
}

type Translate = (key: string, values?: Record<string, string | number>) => string;

/** How a channel prices a parcel, in one line. */
export function priceSummary(c: Pick<LogisticChannel, 'pricingMethod' | 'price' | 'brackets' | 'freeOver'>, t: Translate): string {
  const baht = (v: string) => t('common:money.baht', { amount: formatBaht(v) });
  if (c.pricingMethod === 'weight') {
    return c.brackets.map((b) => t('logistics:pricing.bracket', { kg: kgText(b.maxWeight), price: baht(b.price) })).join(' · ');
  }
  if (c.pricingMethod === 'free_over') return t('logistics:pricing.freeOverSummary', { over: baht(c.freeOver), price: baht(c.price) });
  if (c.pricingMethod === 'rate_table') return t('logistics:pricing.rateTableSummary', { price: baht(c.price) });
  return baht(c.price);
}

// Server errors of one bracket's cell belong under the table.
const BRACKET_FIELDS = Object.fromEntries(
  Array.from({ length: MAX_BRACKETS }, (_, i) => [
    [`brackets[${i}].maxWeight`, 'brackets'],
    [`brackets[${i}].price`, 'brackets'],
  ]).flat(),
) as Record<string, string>;

/** The channel form's refusals: the service's field names as the form's, and the refusals
 * that belong under one field (the one international channel per warehouse and provider under
 * the provider, a missing COD account under the COD switch). */
export const CHANNEL_ERRORS: ServerErrorOptions = {
  ns: 'logistics',
  rename: { provider: 'providerName', method: 'pricingMethod', ...BRACKET_FIELDS },
  codes: {
    logistic_inter_duplicate: { field: 'providerName', message: 'logistics:errors.logistic_inter_duplicate' },
    cod_account_missing: { field: 'cod', message: 'logistics:errors.cod_account_missing' },
  },
};

/** The COD account form's refusals. */
export const COD_ERRORS: ServerErrorOptions = {
  ns: 'logistics',
  rename: { provider: 'providerName' },
  codes: { cod_provider_duplicate: { field: 'providerName', message: 'logistics:errors.cod_provider_duplicate' } },
};

/** Why a channel cannot take a parcel (`shipping.over_weight`), as a message key. */
export function reasonKey(reason: string): string {
  return `logistics:quote.reasons.${reason.replace(/^shipping\./, '')}`;
}

// ---------------------------------------------------------------------------------------
// Tracking-number ranges

/** The weights of the UPU S10 check digit, serial digit by digit. */
export const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;
/** The largest postal serial (eight digits). */
export const S10_MAX_SERIAL = 99_999_999;
/** The most numbers one range may hold. */
export const RANGE_MAX = 1_000_000;
/** The longest serial of other carriers, in digits. */
export const SERIAL_MAX_DIGITS = 12;

/** The S10 check digit of an eight-digit serial: the digits weighted 8 6 4 2 3 5 9 7,
 * c = 11 − sum mod 11, with 10 written 0 and 11 written 5. */
export function s10CheckDigit(serial: number): number {
  const digits = String(serial).padStart(8, '0');
  const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * S10_WEIGHTS[i], 0);
  const c = 11 - (sum % 11);
  return c === 10 ? 0 : c === 11 ? 5 : c;
}

/** A postal (S10) number: two letters, the eight-digit serial, its check digit, TH. */
export function s10Number(prefix: string, serial: number): string {
  return `${prefix}${String(serial).padStart(8, '0')}${s10CheckDigit(serial)}TH`;
}

/** Whether a provider's numbers are postal (S10): the postal provider carries it. */
export function isPostal(c: Pick<Carrier, 'carrier'> | null | undefined): boolean {
  return c?.carrier === 'thaipost';
}

/** The providers a range may be registered for: domestic carriers and the postal provider's
 * services abroad. */
export function rangeProviders<T extends Pick<Carrier, 'carrier' | 'shipmentType'>>(all: T[]): T[] {
  return all.filter((c) => c.shipmentType === 'domestic' || isPostal(c));
}

/** The number of `serial` in a range: S10 for postal numbers, else the prefix and the serial
 * padded to `width` digits. */
export function trackingNumber(postal: boolean, prefix: string, serial: number, width: number): string {
  return postal ? s10Number(prefix, serial) : `${prefix}${String(serial).padStart(width, '0')}`;
}

/** What the range form holds. */
export interface RangeValues {
  providerName?: string;
  prefix: string;
  first: string;
  last: string;
}

/** A prefix as sent: trimmed, in capitals. */
export function cleanPrefix(v: string | undefined | null): string {
  return (v ?? '').trim().toUpperCase();
}

/** A prefix: two letters for postal numbers, 1 to 6 letters or digits for others. */
export function checkRangePrefix(v: string, postal: boolean): string | null {
  const p = cleanPrefix(v);
  if (!p) return `common:${MSG.required}`;
  const ok = postal ? /^[A-Z]{2}$/.test(p) : /^[A-Z0-9]{1,6}$/.test(p);
  return ok ? null : 'common:validation.tracking_prefix';
}

/** A serial: digits, at most eight (a postal one) or twelve. */
export function checkSerial(v: string, postal: boolean): string | null {
  const s = (v ?? '').trim();
  if (!s) return `common:${MSG.required}`;
  if (!/^[0-9]+$/.test(s) || s.length > SERIAL_MAX_DIGITS) return 'common:validation.tracking_range';
  return postal && Number(s) > S10_MAX_SERIAL ? 'common:validation.tracking_range' : null;
}

/** The range as a whole: the last serial not below the first, at most a million numbers. */
export function checkRange(first: string, last: string, postal: boolean): string | null {
  if (checkSerial(first, postal) || checkSerial(last, postal)) return null;
  const f = Number(first.trim());
  const l = Number(last.trim());
  return l < f || l - f + 1 > RANGE_MAX ? 'common:validation.tracking_range' : null;
}

/** The first and last numbers a range will hand out, and how many; null while it is not a
 * range yet. */
export function rangePreview(postal: boolean, v: Partial<RangeValues>): { first: string; last: string; count: number } | null {
  const prefix = cleanPrefix(v.prefix);
  const first = (v.first ?? '').trim();
  const last = (v.last ?? '').trim();
  if (checkRangePrefix(prefix, postal) || checkSerial(first, postal) || checkSerial(last, postal) || checkRange(first, last, postal)) return null;
  const width = postal ? 8 : last.length;
  return {
    first: trackingNumber(postal, prefix, Number(first), width),
    last: trackingNumber(postal, prefix, Number(last), width),
    count: Number(last) - Number(first) + 1,
  };
}

/** The request body of the range form. */
export function rangeBody(v: RangeValues): TrackingRangeInput {
  return { providerName: v.providerName, prefix: cleanPrefix(v.prefix), first: v.first.trim(), last: v.last.trim() };
}

/** The range form's refusals: an overlap belongs under the first number. */
export const RANGE_ERRORS: ServerErrorOptions = {
  ns: 'logistics',
  codes: { tracking_range_overlap: { field: 'first', message: 'logistics:errors.tracking_range_overlap' } },
};

// ---------------------------------------------------------------------------------------
// The international rate table and the calculator

/** The largest rate-table file. */
export const RATE_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** Checks a chosen rate-table file before upload: .xlsx, not empty, at most 2 MB. Answers
 * the code the server would (`messageKeys` translates it). */
export function checkRateFile(name: string, size: number): string | null {
  if (!name.toLowerCase().endsWith('.xlsx')) return 'import_not_xlsx';
  if (size === 0) return 'import_empty';
  return size > RATE_FILE_MAX_BYTES ? 'import_too_large' : null;
}

/** One bad cell of an uploaded table: its sheet, its row as the spreadsheet numbers it, its
 * column, and the message code. */
export interface RowError {
  sheet: string;
  row: number;
  column: string;
  code: string;
}

/** A field of a rate-table refusal, `rates[3].price`, as its sheet, row and column; null
 * for a field that names no cell (`file`). */
export function parseRowField(field: string): Omit<RowError, 'code'> | null {
  const m = /^([A-Za-z_]+)\[(\d+)\]\.([A-Za-z0-9_]+)$/.exec(field);
  return m ? { sheet: m[1], row: Number(m[2]), column: m[3] } : null;
}

/** What an upload's refusal says: about the whole file (message codes) and about cells. */
export function rateTableProblems(err: unknown): { file: string[]; rows: RowError[] } {
  const body = apiError(err);
  if (!body) return { file: [], rows: [] };
  const file: string[] = [];
  const rows: RowError[] = [];
  for (const f of body.fields ?? []) {
    const cell = parseRowField(f.field);
    if (cell) rows.push({ ...cell, code: f.code });
    else file.push(f.code);
  }
  if (file.length === 0 && rows.length === 0) file.push(body.code);
  return { file, rows };
}

/** The keys a message code is looked up by: the feature's refusals, its own keys, then
 * `common`'s (`validation.money`). */
export function messageKeys(code: string): string[] {
  return [`logistics:errors.${code}`, `logistics:${code}`, `common:${code}`, 'logistics:errors.save_failed'];
}

/** What the calculator's form holds. */
export interface RatesValues {
  country?: string;
  weight: string;
  length?: string;
  width?: string;
  height?: string;
}

/** The largest side of a parcel, centimetres. */
export const MAX_SIDE_CM = 300;

/** A side of the parcel: optional, whole centimetres up to 300. */
export function checkSide(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return null;
  return /^\d{1,3}$/.test(s) && Number(s) <= MAX_SIDE_CM ? null : 'logistics:rates.sideRule';
}

/** The calculator's request body: the country in capitals, sides only when given. */
export function ratesBody(v: RatesValues): { country: string; weight: string; length?: number; width?: number; height?: number } {
  const side = (x: string | undefined) => ((x ?? '').trim() ? Number(x!.trim()) : undefined);
  return { country: (v.country ?? '').trim().toUpperCase(), weight: (v.weight ?? '').trim(), length: side(v.length), width: side(v.width), height: side(v.height) };
}

/** The service that takes the parcel for the least, if any does. */
export function cheapest(rates: Pick<ServiceRateBody, 'service' | 'available' | 'price'>[]): string | null {
  let best: { service: string; satang: number } | null = null;
  for (const r of rates) {
    const satang = toSatang(r.price);
    if (!r.available || satang === null) continue;
    if (!best || satang < best.satang) best = { service: r.service, satang };
  }
  return best?.service ?? null;
}

/** Why a service cannot take a parcel abroad (`shipping.over_weight`): the calculator's own
 * words, else the quote's. */
export function rateReasonKeys(reason: string): string[] {
  return [`logistics:rates.reasons.${reason.replace(/^shipping\./, '')}`, reasonKey(reason)];
}

// ---------------------------------------------------------------------------------------
// Carrier accounts (the e-parcel account with the postal provider, Flash Express)

/** The carriers with an account the store connects. */
export const ACCOUNT_CARRIERS = ['thaipost', 'flash'] as const;
export type AccountCarrier = (typeof ACCOUNT_CARRIERS)[number];

/** The address to give the postal provider for its tracking pushes. */
export function webhookUrl(origin: string, webhookPath: string): string {
  return webhookPath ? `${origin.replace(/\/$/, '')}/api${webhookPath}` : '';
}

/** The colour of a key's status tag. */
export function keyStatusColour(status: string): string | undefined {
  return ({ working: 'green', rejected: 'red', unreachable: 'orange' } as Record<string, string>)[status];
}

/** The connect form's refusals: the carrier's refusal of the key under the key. */
export const CONNECT_ERRORS: ServerErrorOptions = { ns: 'logistics' };
