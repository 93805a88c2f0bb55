// The stock screens (SPEC §2) and who may use them (SPEC §6). The overview lists SKUs, so it
// takes the right to read them.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';

export const OVERVIEW_READ: Access = { permissions: [P.productSkuRead] };
export const ADJUST_READ: Access = { permissions: [P.wmsGoodsAdjustRead] };
export const ADJUST_CREATE: Access = { permissions: [P.wmsGoodsAdjustCreate] };

export const ROUTES: FeatureRoute[] = [
  {
    path: 'stock-management-overview-list',
    layout: 'searchBar',
    search: 'stock',
    access: OVERVIEW_READ,
    menu: { group: 'stock', label: 'menu.stockOverview', order: 10 },
    page: () => import('./StockOverviewPage'),
  },
  {
    path: 'stock-management-goods-adjust',
    layout: 'default',
    access: ADJUST_READ,
    menu: { group: 'stock', label: 'menu.goodsAdjust', order: 40 },
    page: () => import('./GoodsAdjustPage'),
  },
];
