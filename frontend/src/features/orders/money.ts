// What an order comes to, computed in the app ONLY to show it while the order is written: the
// server computes it again when the order is saved, and its answer is what the order holds.
// This mirrors the server's one rule (services/orders/src/domain/money.rs), in integers only:
// satang for money, basis points for shares (1% = 100 bp).
//
// 1. subtotal = Σ price × quantity of the lines.
// 2. The discount: a fixed one taken as given, at most the subtotal; a percent one is that
//    share of the subtotal.
// 3. net = subtotal − discount: what the goods sell for.
// 4. shipping total = domestic + international shipping charged.
// 5. The VAT base is net + shipping + additional fee. VAT included: the base already holds
//    7%, VAT = base − base × 100/107, and total = base. VAT added: VAT = 7% of the base, and
//    total = base + VAT.
// 6. net without VAT = net × 100/107 when included, else net; cost total = Σ cost × quantity;
//    profit = net without VAT − cost total.
//
// Every share (percent discount, VAT) is rounded once, half away from zero, to the satang.
// The 50,000-baht limit (SPEC §9) holds per warehouse bill: the lines of one warehouse at
// their prices, before the order's discount.

/** VAT in Thailand: 7%. */
export const VAT_BP = 700;
/** The most basis points a percent discount takes (100%). */
export const FULL_BP = 10_000;
/** The most a warehouse bill's goods may come to, satang (SPEC §9: 50,000 baht), when the
 * server has not said otherwise (GET /orders/limits). */
export const BILL_LIMIT = 5_000_000;

/** A line as the money sees it (satang). */
export interface MoneyLine {
  price: number;
  cost: number;
  quantity: number;
  warehouseId: number;
}

export type Discount = { kind: 'none' } | { kind: 'fixed'; satang: number } | { kind: 'percent'; bp: number };

/** What is charged besides the goods (satang). */
export interface Charges {
  discount: Discount;
  vatIncluded: boolean;
  shippingCharge: number;
  shippingChargeInter: number;
  additionalFee: number;
}

/** What an order comes to (satang). */
export interface Totals {
  subtotal: number;
  discountAmount: number;
  net: number;
  shippingCharge: number;
  shippingChargeInter: number;
  shippingTotal: number;
  additionalFee: number;
  vatAmount: number;
  total: number;
  costTotal: number;
  netExVat: number;
  profit: number;
  /** Goods at their prices per warehouse. */
  perWarehouse: Map<number, number>;
}

/** Why an order's money cannot be computed: an amount below zero (or a share over 100%), or
 * amounts too large to hold exactly. */
export type MoneyError = 'out_of_range' | 'overflow';

/** `num / den` rounded half away from zero, exactly (BigInt). */
export function divRoundHalfAway(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r = num % den;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  if (abs(r) * 2n >= abs(den)) {
    const sign = (num < 0n ? -1n : 1n) * (den < 0n ? -1n : 1n);
    return q + sign;
  }
  return q;
}

/** The share `bp / 10_000` of `satang`, rounded half away from zero. */
export function shareBp(satang: number, bp: number): number {
  return Number(divRoundHalfAway(BigInt(satang) * BigInt(bp), 10_000n));
}

/** `satang` without the VAT of `rateBp` it includes, rounded half away from zero. */
export function exVat(satang: number, rateBp: number): number {
  return Number(divRoundHalfAway(BigInt(satang) * 10_000n, 10_000n + BigInt(rateBp)));
}

function checked(v: bigint): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('overflow');
  return Number(v);
}

/** Computes the order's money (the rule is at the top of this file). */
export function orderTotals(lines: MoneyLine[], c: Charges): { ok: true; totals: Totals } | { ok: false; error: MoneyError } {
  const ints = [c.shippingCharge, c.shippingChargeInter, c.additionalFee, ...lines.flatMap((l) => [l.price, l.cost, l.quantity])];
  if (!ints.every(Number.isInteger)) return { ok: false, error: 'out_of_range' };
  for (const l of lines) if (l.price < 0 || l.cost < 0 || l.quantity < 0) return { ok: false, error: 'out_of_range' };
  if (c.shippingCharge < 0 || c.shippingChargeInter < 0 || c.additionalFee < 0) return { ok: false, error: 'out_of_range' };
  try {
    let subtotal = 0n;
    let costTotal = 0n;
    const per = new Map<number, bigint>();
    for (const l of lines) {
      const value = BigInt(l.price) * BigInt(l.quantity);
      subtotal += value;
      costTotal += BigInt(l.cost) * BigInt(l.quantity);
      per.set(l.warehouseId, (per.get(l.warehouseId) ?? 0n) + value);
    }
    const sub = checked(subtotal);
    let discountAmount = 0;
    if (c.discount.kind === 'fixed') {
      if (c.discount.satang < 0 || !Number.isInteger(c.discount.satang)) return { ok: false, error: 'out_of_range' };
      discountAmount = Math.min(c.discount.satang, sub);
    } else if (c.discount.kind === 'percent') {
      if (!Number.isInteger(c.discount.bp) || c.discount.bp < 0 || c.discount.bp > FULL_BP) return { ok: false, error: 'out_of_range' };
      discountAmount = shareBp(sub, c.discount.bp);
    }
    const net = sub - discountAmount;
    const shippingTotal = checked(BigInt(c.shippingCharge) + BigInt(c.shippingChargeInter));
    const base = checked(BigInt(net) + BigInt(shippingTotal) + BigInt(c.additionalFee));
    let vatAmount: number;
    let total: number;
    let netExVat: number;
    if (c.vatIncluded) {
      vatAmount = base - exVat(base, VAT_BP);
      total = base;
      netExVat = exVat(net, VAT_BP);
    } else {
      vatAmount = shareBp(base, VAT_BP);
      total = checked(BigInt(base) + BigInt(vatAmount));
      netExVat = net;
    }
    const cost = checked(costTotal);
    const perWarehouse = new Map<number, number>();
    for (const [w, v] of per) perWarehouse.set(w, checked(v));
    return {
      ok: true,
      totals: {
        subtotal: sub,
        discountAmount,
        net,
        shippingCharge: c.shippingCharge,
        shippingChargeInter: c.shippingChargeInter,
        shippingTotal,
        additionalFee: c.additionalFee,
        vatAmount,
        total,
        costTotal: cost,
        netExVat,
        profit: netExVat - cost,
        perWarehouse,
      },
    };
  } catch {
    return { ok: false, error: 'overflow' };
  }
}

/** The warehouses whose bill passes `limit` (satang), with their value. */
export function overLimit(t: Pick<Totals, 'perWarehouse'>, limit = BILL_LIMIT): [number, number][] {
  return [...t.perWarehouse].filter(([, v]) => v > limit).sort((a, b) => a[0] - b[0]);
}

/** A percent as typed ("10", "12.5", "7.25") in basis points; null when it is not one (at
 * most two decimals, 0 to 100). */
export function percentBp(text: string | null | undefined): number | null {
  const s = String(text ?? '').trim();
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  if (whole.length > 5) return null;
  const bp = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return bp <= FULL_BP ? bp : null;
}

/** Satang as baht text with two decimals, without separators (the wire's form): 1234550 →
 * "12345.50". */
export function bahtText(satang: number): string {
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
