// Rules of the store's shipping (SPEC §3 COD provider, Logistic store channel; §5; §9), the
// same as the logistics service's: a channel ships from one warehouse with one provider of its
// type, priced flat, by weight brackets (rising weights, each with a price, at most 30, up to
// 100 kg) or free from an order total up (the flat price below it); COD only with a COD
// provider; a COD account number is 10 to 20 digits. Checks return message keys with their
// namespace; `t` translates them.
import { checkRequired, MSG } from '@/shared/form/rules';
import type { ServerErrorOptions } from '@/shared/form/serverErrors';
import { checkPrice, cleanAmount, formatBaht } from '@/shared/money';
import type { Carrier, LogisticChannel, LogisticChannelInput } from './api';

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
export const TABS = ['domestic', 'international', 'cod'] as const;
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

/** Refusals a screen says in a notification or dialog, with their message keys. */
export const REFUSALS: Record<string, string> = {
  logistic_limit_reached: 'logistics:errors.logistic_limit_reached',
  logistic_inter_duplicate: 'logistics:errors.logistic_inter_duplicate',
  cod_account_missing: 'logistics:errors.cod_account_missing',
  cod_provider_duplicate: 'logistics:errors.cod_provider_duplicate',
  logistic_channel_not_found: 'logistics:errors.logistic_channel_not_found',
  cod_provider_not_found: 'logistics:errors.cod_provider_not_found',
};

/** The message key of a refusal a screen explains itself, if it is one. */
export function refusalKey(code: string | undefined): string | null {
  return code && REFUSALS[code] ? REFUSALS[code] : null;
}

/** Why a channel cannot take a parcel (`shipping.over_weight`), as a message key. */
export function reasonKey(reason: string): string {
  return `logistics:quote.reasons.${reason.replace(/^shipping\./, '')}`;
}
