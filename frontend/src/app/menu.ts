// The sidebar (SPEC §2), composed from the features' routes: desktop groups in the spec's
// order, entries in their routes' order; mobile lists settings as a submenu. Items are
// filtered by the member's rights and by the store's hiding-menu list.
import { allows, type Access } from '@/shared/perms';
import type { FeatureRoute, MenuGroupKey } from '@/shared/routes';
import { ROUTES } from './routes';

export interface MenuEntry extends Access {
  /** i18n key in `common`. */
  label: string;
  /** Under /{storeId}/. */
  path: string;
  /** Key in the store's menu-hiding list that hides this entry. */
  hideKey?: string;
}

export interface MenuGroup {
  key: MenuGroupKey;
  label: string;
  items: MenuEntry[];
}

/** Desktop groups in SPEC order: Overviews, Order management, Product list, Sales channels,
 * Stock management, Customer detail, Setting. Groups whose screens do not exist yet are
 * absent; they join here with their screens. */
export const GROUPS: { key: MenuGroupKey; label: string }[] = [
  { key: 'overviews', label: 'menu.overviews' },
  { key: 'orders', label: 'menu.orders' },
  { key: 'products', label: 'menu.products' },
  // Sales channels' screens arrive with their issue; a group without entries stays hidden.
  { key: 'salesChannels', label: 'menu.salesChannels' },
  { key: 'stock', label: 'menu.stock' },
  { key: 'customers', label: 'menu.customers' },
  { key: 'settings', label: 'menu.settings' },
];

/** The groups with the routes' menu entries, each group sorted by the entries' order; groups
 * without entries are left out. */
export function composeMenu(routes: FeatureRoute[]): MenuGroup[] {
  return GROUPS.map((g) => ({
    ...g,
    items: routes
      .flatMap((r) => (r.menu?.group === g.key ? [{ r, menu: r.menu }] : []))
      .sort((a, b) => a.menu.order - b.menu.order)
      .map(({ r, menu }) => ({
        label: menu.label,
        path: menu.to ?? r.path,
        ...(menu.hideKey ? { hideKey: menu.hideKey } : {}),
        ...r.access,
      })),
  })).filter((g) => g.items.length > 0);
}

export const MENU: MenuGroup[] = composeMenu(ROUTES);

/** Settings children: desktop shows them as the Setting group, mobile as a submenu.
 * Changing settings takes the owner role or store.*; any member reads them. */
export const SETTINGS: MenuEntry[] = MENU.find((g) => g.key === 'settings')?.items ?? [];

export interface Viewer {
  permission: string;
  permissions: string[];
}

/** The key that hides an entry through the store's hiding list (set by the operator's
 * `backoffice admin menus hide`): its own, else its screen's name in snake case
 * ('setting/user-list' → 'user_list', 'product-list/store' → 'product_list'). */
export function hideKeyOf(e: Pick<MenuEntry, 'path' | 'hideKey'>): string {
  return e.hideKey ?? e.path.replace(/^setting\//, '').split('/')[0].replace(/-/g, '_');
}

export function visibleEntries(entries: MenuEntry[], viewer: Viewer, hiding: string[]): MenuEntry[] {
  return entries.filter((e) => !hiding.includes(hideKeyOf(e)) && allows(e, viewer.permission, viewer.permissions));
}

export function visibleMenu(groups: MenuGroup[], viewer: Viewer, hiding: string[]): MenuGroup[] {
  return groups.map((g) => ({ ...g, items: visibleEntries(g.items, viewer, hiding) })).filter((g) => g.items.length > 0);
}
