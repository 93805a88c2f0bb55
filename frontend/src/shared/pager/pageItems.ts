// Page buttons: at most `max` (7) entries, with ellipses where pages are skipped; the
// first and last page always show.
export type PageItem = number | 'ellipsis-left' | 'ellipsis-right';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export function pageItems(current: number, pages: number, max = 7): PageItem[] {
  const last = Math.max(1, pages);
  const cur = clampPage(current, last);
  if (last <= max) return range(1, last);
  if (cur <= max - 3) return [...range(1, max - 2), 'ellipsis-right', last];
  if (cur >= last - (max - 4)) return [1, 'ellipsis-left', ...range(last - (max - 3), last)];
  const half = Math.floor((max - 4) / 2);
  return [1, 'ellipsis-left', ...range(cur - half, cur + half), 'ellipsis-right', last];
}

/** Page input clamped to 1..last (SPEC §5). */
export function clampPage(page: number, pages: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, pages));
}
