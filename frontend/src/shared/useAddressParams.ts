import { useCallback, useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A change of a screen's filters: a value, or nothing (`undefined`, `''`, `0`) to drop it. */
export type ParamChanges = Record<string, string | number | undefined>;

/** What the screen showing the address `now` leaves of the addresses asked for and not shown
 * yet (`asked`, oldest first): those asked after it, and whether the screen has caught up
 * with every change asked for. An address never asked for (back, a link) is caught up. */
export function shown(asked: string[], now: string): { waiting: string[]; caughtUp: boolean } {
  const at = asked.indexOf(now);
  const waiting = at === -1 ? [] : asked.slice(at + 1);
  return { waiting, caughtUp: waiting.length === 0 };
}

/** A screen's filters and page kept in the address, and a way to change some of them. A change starts
 * from the address as last asked for, not as the screen shows it now: a page turned right
 * after a filter keeps the filter, however slowly the screen follows. Any change but the
 * page's own goes back to the first page. */
export function useAddressParams() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  // The addresses asked for that the screen has not shown yet, oldest first.
  const asked = useRef<string[]>([]);
  // With the commit itself, before any click can be handled. The screen may show an address
  // asked for before the last one (a slow screen catches up one change at a time): the last
  // asked for stays. An address never asked for here (back, a link) is taken as it is.
  useLayoutEffect(() => {
    const now = shown(asked.current, params.toString());
    asked.current = now.waiting;
    if (now.caughtUp) latest.current = params;
  }, [params]);
  const set = useCallback(
    (changes: ParamChanges) => {
      const next = new URLSearchParams(latest.current);
      for (const [k, v] of Object.entries(changes)) {
        if (v === undefined || v === '' || v === 0) next.delete(k);
        else next.set(k, String(v));
      }
      if (!('page' in changes)) next.delete('page');
      // A second change before the screen follows builds on this one.
      latest.current = next;
      asked.current.push(next.toString());
      setParams(next);
    },
    [setParams],
  );
  return { params, set };
}
