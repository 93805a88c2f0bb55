import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router-dom';

import { BlockingLoader } from './BlockingLoader';
import { decide, type RouteMeta } from './guard';
import { useAppDispatch, useAppSelector } from './hooks';
import { currentStoreSet } from './session';
import { menuHidingLoaded, storeLoaded } from './storeSlice';
import { useLazyGetMenuHidingQuery, useLazyGetStoreQuery } from '@/features/store/api';
import { NOT_FOUND } from '@/features/store/routes';
import { TokenExpiryNotice } from '@/features/marketplaces/TokenExpiryNotice';
import { LiveLink } from './LiveLink';

const NotFoundPage = lazy(NOT_FOUND);
// Rarely shown, so kept out of the first download.
const StoreLoadFailed = lazy(() => import('./StoreLoadFailed'));
const notFound = (
  <Suspense fallback={<BlockingLoader />}>
    <NotFoundPage />
  </Suspense>
);

/** The store loader waits at least this long, so the screen does not flicker (SPEC §2). */
export const STORE_LOADER_MS = 1000;

function useDecision(meta: RouteMeta) {
  const { storeId } = useParams();
  const location = useLocation();
  const session = useAppSelector((s) => s.session);
  return decide({ pathname: location.pathname, storeIdParam: storeId, route: meta, session });
}

/** Wraps every /{storeId}/… screen: checks the stored login, then loads the store on first
 * entry or when the id changes, and the hiding-menu list when it is empty. */
export function StoreShell() {
  const decision = useDecision({ store: true });
  const dispatch = useAppDispatch();
  const loaded = useAppSelector((s) => s.store.loaded);
  const hiding = useAppSelector((s) => s.store.menuHidingList);
  const [getStore] = useLazyGetStoreQuery();
  const [getMenuHiding] = useLazyGetMenuHidingQuery();
  const storeId = decision.kind === 'allow' ? decision.storeId ?? null : null;
  // A failed load shows what happened with a way out, never an endless loader.
  const [failedFor, setFailedFor] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (storeId === null) return;
    dispatch(currentStoreSet(storeId));
    // The loader shows until the store is the loaded one, so a store already loaded opens at once.
    if (loaded?.id === storeId) return;
    let cancelled = false;
    const started = Date.now();
    getStore({ id: storeId })
      .unwrap()
      .then((s) => {
        const wait = Math.max(0, STORE_LOADER_MS - (Date.now() - started));
        setTimeout(() => {
          if (cancelled) return;
          dispatch(storeLoaded({ id: s.id, name: s.name }));
        }, wait);
      })
      // Refusals and failures also have their global dialogs.
      .catch(() => {
        if (!cancelled) setFailedFor(storeId);
      });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storeId, attempt]);

  useEffect(() => {
    if (storeId === null || loaded?.id !== storeId || hiding !== null) return;
    getMenuHiding({ id: storeId })
      .unwrap()
      .then((r) => dispatch(menuHidingLoaded(r.menuHidingList)))
      .catch(() => dispatch(menuHidingLoaded([])));
  }, [storeId, loaded, hiding, getMenuHiding, dispatch]);

  if (decision.kind === 'notFound') return notFound;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (loaded?.id !== storeId) {
    const retry = () => {
      setFailedFor(null);
      setAttempt((n) => n + 1);
    };
    return failedFor === storeId ? (
      <Suspense fallback={<BlockingLoader />}>
        <StoreLoadFailed onRetry={retry} />
      </Suspense>
    ) : (
      <BlockingLoader />
    );
  }
  return (
    <>
      <TokenExpiryNotice storeId={loaded.id} />
      <LiveLink storeId={loaded.id} />
      <Outlet />
    </>
  );
}


/** A screen's own roles and permissions: either passes, or access-denied. */
export function Allowed({ meta, children }: { meta: RouteMeta; children: React.ReactNode }) {
  const decision = useDecision(meta);
  if (decision.kind === 'notFound') return notFound;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <>{children}</>;
}

/** Screens outside a store: the picker needs a user; sign-in skips to the picker. */
export function UserGate({ meta }: { meta: RouteMeta }) {
  const decision = useDecision(meta);
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(currentStoreSet(null));
  }, [dispatch]);
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
}
