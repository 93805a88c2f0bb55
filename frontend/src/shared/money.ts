// Money as shop staff read it (SPEC §3, §9): baht with two decimals and thousands separators,
// and amounts as typed, checked the way the services read them (at most two decimals, in a
// range). Checks return message keys of `common`.

/** Baht with at most two decimals, as typed: "50", "1288.5", "0.25". */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** The text of an amount: "1,288.50" → "1288.50", " 40 " → "40". */
export function cleanAmount(v: string | number | null | undefined): string {
  return String(v ?? '')
    .trim()
    .replace(/,/g, '');
}

/** Baht in satang, or null when the text is not an amount with at most two decimals. */
export function toSatang(v: string | number | null | undefined): number | null {
  const s = cleanAmount(v);
  if (!AMOUNT.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  if (whole.length > 13) return null;
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** An amount (a number, or text such as the API's "1288.50") as baht with two decimals and
 * thousands separators: "1,288.50"; empty for what is not an amount. */
export function formatBaht(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  const n = typeof v === 'number' ? v : Number(cleanAmount(v));
  if (!Number.isFinite(n)) return '';
  const satang = Math.round(n * 100);
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** A price: required, 0 to `max` baht (a million by default), at most two decimals. */
export function checkPrice(v: string | undefined | null, max = 1_000_000): string | null {
  const s = cleanAmount(v);
  if (!s) return 'validation.required';
  const satang = toSatang(s);
  return satang === null || satang > max * 100 ? 'validation.price' : null;
}

/** An amount to ask a payer for: above zero, at most two decimals. */
export function checkAmount(v: string | undefined | null, max = 99_999_999.99): string | null {
  const s = cleanAmount(v);
  if (!s) return 'validation.required';
  const satang = toSatang(s);
  return satang === null || satang <= 0 || satang > Math.round(max * 100) ? 'validation.amount' : null;
}
