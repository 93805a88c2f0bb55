// The sidebar (SPEC §2): desktop items in the spec's order, only screens that work today;
// mobile lists settings as a submenu. Items are filtered by the member's rights and by the
// store's hiding-menu list.
import { allows, type Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';

export interface MenuEntry extends Access {
  key: string;
  /** i18n key in `common`. */
  label: string;
  path: string;
  /** Key in the store's menu-hiding list that hides this entry. */
  hideKey?: string;
}

export interface MenuGroup {
  key: string;
  label: string;
  items: MenuEntry[];
}

/** Settings children (SPEC §2), in the spec's order; each arrives with its screen. Mobile
 * shows them as a submenu, desktop as the Setting group. Changing settings takes the owner
 * role or store.*; any member reads them. */
export const SETTINGS: MenuEntry[] = [
  { key: 'safety-stock', label: 'menu.safetyStock', path: 'setting/safety-stock' },
  { key: 'unit-of-measurement', label: 'menu.unitOfMeasurement', path: 'setting/unit-of-measurement' },
  {
    key: 'unit-of-measurement-create',
    label: 'menu.unitOfMeasurementCreate',
    path: 'setting/unit-of-measurement-create',
    roles: ['owner'],
    permissions: [P.storeAll],
  },
];

/** Desktop groups in SPEC order: Overviews, Order management, Product list, Sales channels,
 * Stock management, Customer detail, Setting. Groups whose screens do not exist yet are
 * absent; they join here with their screens. */
export const MENU: MenuGroup[] = [
  { key: 'overviews', label: 'menu.overviews', items: [{ key: 'getting-start', label: 'menu.gettingStart', path: 'getting-start' }] },
  {
    key: 'products',
    label: 'menu.products',
    items: [{ key: 'product-list', label: 'menu.productList', path: 'product-list/store', permissions: [P.productSkuRead] }],
  },
  {
    key: 'stock',
    label: 'menu.stock',
    items: [
      { key: 'stock-overview', label: 'menu.stockOverview', path: 'stock-management-overview-list', permissions: [P.productSkuRead] },
      { key: 'goods-adjust', label: 'menu.goodsAdjust', path: 'stock-management-goods-adjust', permissions: [P.wmsGoodsAdjustRead] },
    ],
  },
  {
    key: 'customers',
    label: 'menu.customers',
    items: [{ key: 'customer-list', label: 'menu.customerList', path: 'customer-list', permissions: [P.storeCustomerRead] }],
  },
  { key: 'settings', label: 'menu.settings', items: SETTINGS },
];

export interface Viewer {
  permission: string;
  permissions: string[];
}

export function visibleEntries(entries: MenuEntry[], viewer: Viewer, hiding: string[]): MenuEntry[] {
  return entries.filter((e) => !(e.hideKey && hiding.includes(e.hideKey)) && allows(e, viewer.permission, viewer.permissions));
}

export function visibleMenu(groups: MenuGroup[], viewer: Viewer, hiding: string[]): MenuGroup[] {
  return groups.map((g) => ({ ...g, items: visibleEntries(g.items, viewer, hiding) })).filter((g) => g.items.length > 0);
}
