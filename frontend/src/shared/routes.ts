// What a feature says about its screens, in one list per feature (`features/<area>/routes.ts`):
// the app's router, desktop sidebar and mobile menu are composed from these lists.
import type { ComponentType } from 'react';

import type { Access } from './perms';

/** A screen's module, loaded when the route is first opened. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/** The layouts of SPEC §2; `none` for screens that draw the whole page (sign-in, maintenance). */
export type RouteLayout = 'default' | 'noSidebar' | 'searchBar' | 'none';

/** The sidebar's groups that have screens today (SPEC §2 order is kept in app/menu.ts); the
 * others join with their screens. */
/** The sidebar's groups in SPEC §2's order; the dashboards and reports belong to overviews. */
export type MenuGroupKey = 'overviews' | 'orders' | 'products' | 'salesChannels' | 'stock' | 'customers' | 'settings';

export interface RouteMenu {
  group: MenuGroupKey;
  /** i18n key in `common`. */
  label: string;
  /** Place in the group; SPEC §2 lists the order. */
  order: number;
  /** Where the entry leads when the route's path has parameters. */
  to?: string;
  /** Key in the store's menu-hiding list that hides the entry. */
  hideKey?: string;
}

export interface FeatureRoute {
  /** Relative paths live under /{storeId}/; absolute ones ('/login') outside any store. */
  path: string;
  layout: RouteLayout;
  /** On the search-bar layout: what its search finds (`common:search.<search>`). */
  search?: 'customers' | 'products' | 'stock';
  /** Outside a store: `guest` for sign-in (a signed-in user goes on to the store picker),
   * `user` for screens that need a signed-in user. */
  gate?: 'guest' | 'user';
  /** Store screens: the roles or permissions it takes; either passes (SPEC §2). */
  access?: Access;
  menu?: RouteMenu;
  page: PageLoader;
}
