// Which columns of a table a person shows, and in what order: kept per person and per list
// in the browser, applied to the table's columns as the page defines them (a column the
// page adds later shows, at its own place; one it drops is forgotten).
import { useCallback, useState } from 'react';

import { useAppSelector } from '@/app/hooks';

export interface ColumnPrefs {
  order: string[];
  hidden: string[];
}

export const NO_PREFS: ColumnPrefs = { order: [], hidden: [] };

const storageKey = (userId: number, list: string) => `bo.columns.${userId}.${list}`;

export function readPrefs(userId: number, list: string): ColumnPrefs {
  try {
    const v = JSON.parse(localStorage.getItem(storageKey(userId, list)) ?? 'null') as Partial<ColumnPrefs> | null;
    const strings = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
    return v ? { order: strings(v.order), hidden: strings(v.hidden) } : NO_PREFS;
  } catch {
    return NO_PREFS;
  }
}

/** The keys in the order the person chose; keys they never placed keep the page's order,
 * each after the key the page puts before it. */
export function ordered(keys: string[], prefs: ColumnPrefs): string[] {
  const placed = prefs.order.filter((k) => keys.includes(k));
  const out = [...placed];
  keys.forEach((k, i) => {
    if (out.includes(k)) return;
    const before = keys.slice(0, i).reverse().find((b) => out.includes(b));
    out.splice(before === undefined ? 0 : out.indexOf(before) + 1, 0, k);
  });
  return out;
}

/** The page's columns arranged and filtered by the person's choice. */
export function arrange<C extends { key?: unknown }>(columns: C[], prefs: ColumnPrefs): C[] {
  const byKey = new Map(columns.map((c) => [String(c.key), c]));
  return ordered([...byKey.keys()], prefs)
    .filter((k) => !prefs.hidden.includes(k))
    .map((k) => byKey.get(k) as C);
}

/** `key` moved one place up (-1) or down (+1) among `keys`. */
export function moved(keys: string[], prefs: ColumnPrefs, key: string, by: -1 | 1): ColumnPrefs {
  const order = ordered(keys, prefs);
  const i = order.indexOf(key);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return prefs;
  [order[i], order[j]] = [order[j], order[i]];
  return { ...prefs, order };
}

/** `key` shown or hidden; the last shown column stays. */
export function toggled(keys: string[], prefs: ColumnPrefs, key: string): ColumnPrefs {
  if (prefs.hidden.includes(key)) return { ...prefs, hidden: prefs.hidden.filter((k) => k !== key) };
  const shown = keys.filter((k) => !prefs.hidden.includes(k));
  if (shown.length <= 1) return prefs;
  return { ...prefs, hidden: [...prefs.hidden, key] };
}

/** The signed-in person's choice for `list`, and a way to change it (kept at once). */
export function useColumnPrefs(list: string): [ColumnPrefs, (next: ColumnPrefs) => void] {
  const userId = useAppSelector((s) => s.session.user?.id ?? 0);
  const [prefs, setPrefs] = useState(() => readPrefs(userId, list));
  const save = useCallback(
    (next: ColumnPrefs) => {
      setPrefs(next);
      try {
        localStorage.setItem(storageKey(userId, list), JSON.stringify(next));
      } catch {
        /* storage full or disabled: the choice lasts until the page closes */
      }
    },
    [userId, list],
  );
  return [prefs, save];
}
