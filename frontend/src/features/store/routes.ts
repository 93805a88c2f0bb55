// The store's own screens (SPEC §2 "Other"): maintenance, getting started, access denied.
import type { FeatureRoute, PageLoader } from '@/shared/routes';

export const ROUTES: FeatureRoute[] = [
  { path: '/maintain-system', layout: 'none', page: () => import('./MaintainSystemPage') },
  {
    path: 'getting-start',
    layout: 'default',
    menu: { group: 'overviews', label: 'menu.gettingStart', order: 10 },
    page: () => import('./GettingStartPage'),
  },
  { path: 'access-denied', layout: 'default', page: () => import('./AccessDeniedPage') },
];

/** The screen for a path no route knows, inside a store or outside. */
export const NOT_FOUND: PageLoader = () => import('./NotFoundPage');
