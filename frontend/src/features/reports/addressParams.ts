import { useCallback, useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A change of a report's filters: a value, or nothing (`undefined`, `''`, `0`) to drop it. */
export type ParamChanges = Record<string, string | number | undefined>;

/** A report's filters kept in the address, and a way to change some of them. A change starts
 * from the address as last asked for, not as the render that made its handler saw it: a page
 * turned right after a filter keeps the filter, however slowly the screen follows. Any change
 * but the page's own goes back to the first page. */
export function useAddressParams() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  // With the commit itself, before any click can be handled: navigation elsewhere (back,
  // a link) is seen too.
  useLayoutEffect(() => {
    latest.current = params;
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
      setParams(next);
    },
    [setParams],
  );
  return { params, set };
}
