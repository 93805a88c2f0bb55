// The overview dashboard's rules, pure: periods, how a figure compares with the period
// before, and how a period and its points are named in Thai (Buddhist era) and English.
import dayjs from 'dayjs';

export const PERIODS = ['daily', 'monthly', 'quarterly', 'yearly'] as const;
export type Period = (typeof PERIODS)[number];

export function periodOf(v: string | null | undefined): Period {
  return (PERIODS as readonly string[]).includes(v ?? '') ? (v as Period) : 'monthly';
}

/** The antd picker that chooses a day of the period. */
export function pickerOf(p: Period): 'date' | 'month' | 'quarter' | 'year' {
  return p === 'daily' ? 'date' : p === 'monthly' ? 'month' : p === 'quarterly' ? 'quarter' : 'year';
}

/** A day as the API reads it (YYYY-MM-DD); null for what is not a real day. */
export function dayParam(v: string | null | undefined): string | null {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return null;
  const d = dayjs(v);
  return d.isValid() && d.format('YYYY-MM-DD') === v ? v : null;
}

/** How a figure moved against the period before: the change in percent, one decimal, or
 * null when there is nothing to compare with (nothing before). */
export function change(current: number, previous: number): number | null {
  if (!Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return null;
  return percent((current - previous) / Math.abs(previous));
}

/** A ratio in percent with one decimal, halves rounded away from zero (0.0625 → 6.3,
 * −0.0625 → −6.3). */
export function percent(ratio: number): number {
  const tenths = Math.round(Math.abs(ratio) * 1000);
  return (Math.sign(ratio) * tenths) / 10 || 0;
}

/** An amount of the API ("1345.50") as a number of baht. */
export function amount(v: string | null | undefined): number {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** An amount of the API in satang: a whole number, to add and divide exactly. */
export function satang(v: string | null | undefined): number {
  return Math.round(amount(v) * 100);
}

/** A period's name: a day, a month, a quarter or a year, in the Buddhist era in Thai. */
export function periodLabel(p: Period, from: string, lng: string): string {
  const d = dayjs(from);
  if (!d.isValid()) return '';
  const th = lng === 'th';
  const y = th ? 'BBBB' : 'YYYY';
  const loc = d.locale(th ? 'th' : 'en');
  switch (p) {
    case 'daily':
      return loc.format(`D MMMM ${y}`);
    case 'monthly':
      return loc.format(`MMMM ${y}`);
    case 'quarterly':
      return `${th ? 'ไตรมาส ' : 'Q'}${Math.floor(d.month() / 3) + 1} ${loc.format(y)}`;
    case 'yearly':
      return loc.format(y);
  }
}

/** A point of the sales over time: a day (its day of the month) or a month (its short name). */
export function pointLabel(start: string, bucket: string, lng: string): string {
  const d = dayjs(start);
  if (!d.isValid()) return start;
  const loc = d.locale(lng === 'th' ? 'th' : 'en');
  return bucket === 'month' ? loc.format('MMM') : loc.format('D MMM');
}
