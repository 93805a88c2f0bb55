// Lot dates as shop staff read them (Buddhist era in Thai), and how near a lot is to its
// expiry: expired, expiring within the days asked (the overview's "expiring within N days"),
// or neither.
import dayjs from 'dayjs';
import buddhistEra from 'dayjs/plugin/buddhistEra';
import 'dayjs/locale/th';

dayjs.extend(buddhistEra);

/** The days an expiry control starts at. */
export const DEFAULT_EXPIRY_DAYS = 30;

/** A date (`YYYY-MM-DD` or RFC 3339) without its time: "12 ธ.ค. 2569" in Thai. */
export function formatDate(value: string | null | undefined, lng: string): string {
  if (!value) return '';
  const d = dayjs(value);
  if (!d.isValid()) return '';
  return lng === 'th' ? d.locale('th').format('D MMM BBBB') : d.locale('en').format('D MMM YYYY');
}

/** Whole days from `today` to the expiry date (negative once expired); null without one. */
export function daysUntil(expiredAt: string | null | undefined, today: dayjs.Dayjs = dayjs()): number | null {
  if (!expiredAt) return null;
  const d = dayjs(expiredAt);
  if (!d.isValid()) return null;
  return d.startOf('day').diff(today.startOf('day'), 'day');
}

export type ExpiryLevel = 'expired' | 'soon' | null;

/** `expired` on or after the expiry date's end, `soon` within `withinDays`, else null. */
export function expiryLevel(expiredAt: string | null | undefined, withinDays: number, today: dayjs.Dayjs = dayjs()): ExpiryLevel {
  const days = daysUntil(expiredAt, today);
  if (days === null) return null;
  if (days < 0) return 'expired';
  return days <= withinDays ? 'soon' : null;
}

/** The days of a `?days=` parameter: 1 to 3650, else the default. */
export function expiryDaysOf(raw: string | null): number {
  const n = Math.floor(Number(raw));
  return Number.isFinite(n) && n >= 1 && n <= 3650 ? n : DEFAULT_EXPIRY_DAYS;
}
