// The store's realtime socket, open while its screens are: each frame lands where the
// screens read it (the shops' stock sync status in its query's cache; new orders and
// exports' progress refresh their lists), so those screens need not poll while it is open.
import { useEffect } from 'react';

import { baseApi } from './api/baseApi';
import { toCamelKeys } from './api/caseConvert';
import { useAppDispatch, useAppSelector } from './hooks';
import { openLink, socketUrl, type LiveFrame } from './realtime';
import { listingsApi, type StockSyncBody } from '@/features/marketplaces/api';
import { storeApi } from '@/features/store/api';
import type { AppDispatch } from './store';

// The orders' tags are the orders screens' (loaded lazily: naming their api here would put it
// in the first download); a tag no screen provides yet invalidates nothing.
type Tag = Parameters<typeof baseApi.util.invalidateTags>[0][number];
const lazyTag = (type: string, id: string) => ({ type, id }) as unknown as Tag;

/** What a frame changes. */
export function applyFrame(f: LiveFrame, dispatch: AppDispatch): void {
  if (f.event === 'PRODUCT_SYNC_STOCK_ALL' && Array.isArray(f.data)) {
    const syncs = toCamelKeys(f.data) as StockSyncBody[];
    dispatch(
      listingsApi.util.upsertQueryEntries(
        syncs.map((s) => ({ endpointName: 'stockSync' as const, arg: { id: s.storeChannelId }, value: s })),
      ),
    );
    // A push that finished changed its listings' last push.
    if (syncs.some((s) => s.status === 'finished')) dispatch(listingsApi.util.invalidateTags([{ type: 'Listing', id: 'LIST' }]));
  } else if (f.event === 'ORDER_CREATED') {
    dispatch(baseApi.util.invalidateTags([lazyTag('Order', 'LIST')]));
  } else if (f.event === 'REPORT_EXPORT') {
    dispatch(baseApi.util.invalidateTags([lazyTag('OrderExport', 'LIST')]));
  }
}

export function LiveLink({ storeId }: { storeId: number }) {
  const dispatch = useAppDispatch();
  const token = useAppSelector((s) => s.session.stores[String(storeId)]?.token ?? null);
  useEffect(() => {
    if (!token || typeof WebSocket === 'undefined') return;
    const link = openLink({
      url: socketUrl(window.location.origin),
      token: () => token,
      onFrame: (f) => applyFrame(f, dispatch),
      // A call renews the store token (or ends the session) the way every refused call
      // does; the new token opens a new link.
      onRefused: () => void dispatch(storeApi.endpoints.getStore.initiate({ id: storeId }, { subscribe: false, forceRefetch: true })),
    });
    return () => link.close();
  }, [storeId, token, dispatch]);
  return null;
}
