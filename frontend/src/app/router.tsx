import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, useNavigate, type RouteObject } from 'react-router-dom';

import { BlockingLoader } from './BlockingLoader';
import { setAfterLogout } from './globalErrors';
import type { RouteMeta } from './guard';
import { inStore, ROUTES } from './routes';
import { Allowed, StoreShell, UserGate } from './StoreGate';
import { useGetMaintainingQuery } from '@/features/store/api';
import { NOT_FOUND } from '@/features/store/routes';
import type { FeatureRoute, PageLoader, RouteLayout } from '@/shared/routes';

function page(load: PageLoader, meta?: RouteMeta) {
  const Page = lazy(load);
  const el = (
    <Suspense fallback={<BlockingLoader />}>
      <Page />
    </Suspense>
  );
  return meta ? <Allowed meta={meta}>{el}</Allowed> : el;
}

// Layouts and the not-found screen load lazily too: the initial bundle holds only the shell.
const LAYOUTS = { default: 'DefaultLayout', noSidebar: 'NoSidebarLayout', searchBar: 'SearchBarLayout' } as const;
const layout = (name: (typeof LAYOUTS)[keyof typeof LAYOUTS]) => page(() => import('./layouts/Layouts').then((m) => ({ default: m[name] })));
const notFound = () => page(NOT_FOUND);

/** A feature's route as react-router's: a store screen with rules checks them itself. */
function toRoute(r: FeatureRoute): RouteObject {
  const meta = r.access && inStore(r) ? { store: true, ...r.access } : undefined;
  return { path: r.path, ...(r.search ? { handle: { search: r.search } } : {}), element: page(r.page, meta) };
}

/** Screens under their layouts, one layout element per kind; `extra` joins a layout's screens. */
function byLayout(routes: FeatureRoute[], extra: Partial<Record<RouteLayout, RouteObject[]>> = {}): RouteObject[] {
  const out = routes.filter((r) => r.layout === 'none').map(toRoute);
  for (const kind of ['default', 'noSidebar', 'searchBar'] as const) {
    const children = [...routes.filter((r) => r.layout === kind).map(toRoute), ...(extra[kind] ?? [])];
    if (children.length > 0) out.push({ element: layout(LAYOUTS[kind]), children });
  }
  return out;
}

/** Screens outside a store behind a gate (sign-in, or a signed-in user). */
function gated(gate: FeatureRoute['gate'], meta: RouteMeta): RouteObject[] {
  const routes = ROUTES.filter((r) => !inStore(r) && r.gate === gate);
  return routes.length > 0 ? [{ element: <UserGate meta={meta} />, children: byLayout(routes) }] : [];
}

/** Sends everyone to the maintenance screen while the service says so. */
function Root() {
  const navigate = useNavigate();
  const location = useLocation();
  const { data } = useGetMaintainingQuery();
  useEffect(() => {
    setAfterLogout(() => navigate('/login', { replace: true }));
  }, [navigate]);
  useEffect(() => {
    if (data?.maintaining && location.pathname !== '/maintain-system') navigate('/maintain-system', { replace: true });
  }, [data, location.pathname, navigate]);
  return <Outlet />;
}

/** The app's routes, composed from the features' lists (app/routes.ts). */
export function routeTree(): RouteObject[] {
  return [
    {
      element: <Root />,
      children: [
        { path: '/', element: <Navigate to="/choose-store" replace /> },
        ...gated('guest', { store: false, guestOnly: true }),
        ...gated('user', { store: false, user: true }),
        ...byLayout(ROUTES.filter((r) => !inStore(r) && !r.gate)),
        {
          path: '/:storeId',
          element: <StoreShell />,
          children: byLayout(ROUTES.filter(inStore), {
            default: [
              { path: 'prepare-login', element: <Navigate to="../getting-start" replace /> },
              { path: '*', element: notFound() },
            ],
          }),
        },
        { path: '*', element: notFound() },
      ],
    },
  ];
}

export function makeRouter() {
  return createBrowserRouter(routeTree());
}
