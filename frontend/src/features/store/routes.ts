// The store's own screens (SPEC §2 "Other" and Settings): maintenance, getting started, access
// denied, the settings index, the store's details and their edit.
import type { Access } from '@/shared/perms';
import type { FeatureRoute, PageLoader } from '@/shared/routes';

/** Editing the store: the owner only (SPEC §6; decision 0013). */
export const STORE_EDIT: Access = { roles: ['owner'] };

export const ROUTES: FeatureRoute[] = [
  { path: '/maintain-system', layout: 'none', page: () => import('./MaintainSystemPage') },
  {
    path: 'getting-start',
    layout: 'default',
    menu: { group: 'overviews', label: 'menu.gettingStart', order: 10 },
    page: () => import('./GettingStartPage'),
  },
  { path: 'access-denied', layout: 'default', page: () => import('./AccessDeniedPage') },
  { path: 'setting', layout: 'default', page: () => import('./SettingIndexPage') },
  {
    path: 'setting/store-detail',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.storeDetail', order: 10 },
    page: () => import('./StoreDetailPage'),
  },
  { path: 'setting/store-edit', layout: 'default', access: STORE_EDIT, page: () => import('./StoreEditPage') },
];

/** The screen for a path no route knows, inside a store or outside. */
export const NOT_FOUND: PageLoader = () => import('./NotFoundPage');
