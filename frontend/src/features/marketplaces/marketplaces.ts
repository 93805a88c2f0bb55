// The marketplaces' words the screens share: the three marketplaces and their path words,
// what the redirect's state says, and how a shop's times read.
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** The marketplaces, as paths write them (`tiktok-shop`, SPEC §7). */
export const MARKETPLACES = ['shopee', 'lazada', 'tiktok-shop'] as const;
export type MarketplacePath = (typeof MARKETPLACES)[number];

/** The path word of a marketplace code (`tiktok_shop` → `tiktok-shop`); null for another. */
export function pathOf(code: string | null | undefined): MarketplacePath | null {
  const word = (code ?? '').replace(/_/g, '-');
  return (MARKETPLACES as readonly string[]).includes(word) ? (word as MarketplacePath) : null;
}

/** The code of a path word (`tiktok-shop` → `tiktok_shop`). */
export const codeOf = (path: MarketplacePath): string => path.replace(/-/g, '_');

/** What a connect link's state names: `<store id>.<marketplace>.<random>`; null when it is
 * not one of ours. */
export function readState(state: string | null | undefined): { storeId: number; marketplace: MarketplacePath } | null {
  const m = /^(\d+)\.([a-z-]+)\.[0-9a-f]{16,}$/.exec(state ?? '');
  if (!m) return null;
  const marketplace = pathOf(m[2]);
  const storeId = Number(m[1]);
  return marketplace && storeId > 0 ? { storeId, marketplace } : null;
}

/** "5 minutes ago" in the screen's language; empty for never. */
export function ago(iso: string | null | undefined, lng: string): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.locale(lng === 'th' ? 'th' : 'en').fromNow() : '';
}

/** True when an authorization ends within `days` (SPEC: warn 7 days ahead). */
export function endsSoon(iso: string | null | undefined, now: number, days = 7): boolean {
  if (!iso) return false;
  const at = dayjs(iso).valueOf();
  return Number.isFinite(at) && at - now < days * 86_400_000;
}

/** The token-expiry notice asks at most this often per store (SPEC §4, §9). */
export const TOKEN_CHECK_MS = 300_000;
const lastTokenCheck = new Map<number, number>();

/** Entering a store: its next screen checks at once. */
export function resetTokenCheck(storeId: number): void {
  lastTokenCheck.set(storeId, 0);
}

/** True when the store's shops may be checked now; the check is then counted as made (a
 * failed one lets navigation go on and is not retried before its time). */
export function takeTokenCheck(storeId: number, now: number): boolean {
  if (now - (lastTokenCheck.get(storeId) ?? 0) < TOKEN_CHECK_MS) return false;
  lastTokenCheck.set(storeId, now);
  return true;
}

interface ShopConnection {
  shopName: string;
  isTokenExpire: boolean;
  tokenExpireAt?: string | null;
}

/** The shops whose connection is lost, and those whose connection ends within 7 days. */
export function connectionTrouble<T extends ShopConnection>(shops: T[], now: number): { lost: T[]; endingSoon: T[] } {
  return {
    lost: shops.filter((s) => s.isTokenExpire),
    endingSoon: shops.filter((s) => !s.isTokenExpire && endsSoon(s.tokenExpireAt, now)),
  };
}

/** The sales channels a store sells through by hand and sets up as its own channels. */
export const OWN_KINDS = ['facebook', 'line', 'instagram', 'website'] as const;

/** True for a social network's or the website's code. */
export const isOwnKind = (code: string): boolean => (OWN_KINDS as readonly string[]).includes(code);

/** A Magento store view's or inventory source's code (the server's rule). */
export const MAGENTO_CODE = /^[A-Za-z0-9_-]{1,64}$/;
/** A Magento credential: no spaces, at most 200 characters (the server's rule). */
export const MAGENTO_SECRET = /^\S{0,200}$/;

/** True when `url` may be a Magento shop's address, as the server decides it: https, or http
 * to this machine (a shop being tried out), with a host and no user name, password, query or
 * fragment. */
export function magentoUrlOk(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  return (u.protocol === 'https:' || (u.protocol === 'http:' && local)) && u.hostname !== '' && !u.username && !u.password && !u.search && !url.includes('?') && !url.includes('#');
}
