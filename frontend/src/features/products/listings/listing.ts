// What a marketplace listing's row says, in one place: its variation, what it is linked to,
// its push, the tabs of the list and the parts of a bundle being written.
import type { ListingBody } from '@/features/marketplaces/api';

/** The list's tabs: the queue waiting for a SKU first (SPEC: unlinked first). */
export const TABS = ['waiting', 'linked', 'differs', 'all', 'deleted'] as const;
export type Tab = (typeof TABS)[number];

/** The list's filters of a tab. */
export function filterOf(tab: Tab): { linked?: boolean; state?: string; stockDiffers?: boolean } {
  switch (tab) {
    case 'waiting':
      return { linked: false, state: 'active' };
    case 'linked':
      return { linked: true };
    case 'differs':
      return { stockDiffers: true };
    case 'deleted':
      return { state: 'deleted' };
    default:
      return {};
  }
}

/** A tab of an address word; the queue for anything else. */
export const tabOf = (s: string | null): Tab => ((TABS as readonly string[]).includes(s ?? '') ? (s as Tab) : 'waiting');

/** "สี: แดง · ไซซ์: M" */
export const variation = (l: Pick<ListingBody, 'options'>): string => l.options.map((o) => (o.name ? `${o.name}: ${o.value}` : o.value)).join(' · ');

/** The marketplace's ids as one reference: `item` or `item:model`. */
export const reference = (l: Pick<ListingBody, 'itemId' | 'modelId'>): string => (l.modelId ? `${l.itemId}:${l.modelId}` : l.itemId);

/** What a listing is linked to. */
export type Link = { kind: 'none' } | { kind: 'sku'; code: string; name: string } | { kind: 'bundle'; parts: { code: string; name: string; quantity: number }[] };

export function linkOf(l: ListingBody): Link {
  if (l.skuId) return { kind: 'sku', code: l.skuCode, name: l.skuName };
  if (l.parts.length > 0) return { kind: 'bundle', parts: l.parts.map((p) => ({ code: p.skuCode, name: p.skuName, quantity: p.quantity })) };
  return { kind: 'none' };
}

/** How a listing's stock stands: never pushed, waiting for a push, pushed, refused or left. */
export type PushState = 'unlinked' | 'never' | 'due' | 'refused' | 'left' | 'pushed';

export function pushState(l: ListingBody): PushState {
  if (!l.skuId && l.parts.length === 0) return 'unlinked';
  if (l.pushDue) return 'due';
  if (l.lastAnswer === 'increase_only') return 'left';
  if (l.lastAnswer) return 'refused';
  return l.pushed === null || l.pushed === undefined ? 'never' : 'pushed';
}

/** A bundle part as written in the form: a SKU, units per set, its share in percent. */
export interface PartDraft {
  skuId?: number;
  quantity: number;
  share: string;
}

/** What the form's parts break: the first problem's i18n key, or null. Shares left all
 * empty spread by units; given, they must add up to 100. */
export function partsProblem(parts: PartDraft[]): string | null {
  if (parts.length === 0) return 'products:listings.bundle.needParts';
  if (parts.some((p) => !p.skuId)) return 'products:listings.bundle.needSku';
  const ids = parts.map((p) => p.skuId);
  if (new Set(ids).size !== ids.length) return 'products:listings.bundle.twice';
  if (parts.some((p) => !Number.isInteger(p.quantity) || p.quantity < 1 || p.quantity > 1000)) return 'products:listings.bundle.quantity';
  const given = parts.filter((p) => p.share.trim() !== '');
  if (given.length === 0) return null;
  if (given.length !== parts.length || given.some((p) => !/^\d+(\.\d{1,2})?$/.test(p.share.trim()))) return 'products:listings.bundle.shares';
  const total = given.reduce((sum, p) => sum + Math.round(Number(p.share) * 100), 0);
  return total === 10_000 ? null : 'products:listings.bundle.sharesSum';
}
