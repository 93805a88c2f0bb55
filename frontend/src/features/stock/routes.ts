// The stock screens (SPEC §2) and who may use them (SPEC §6). The overview lists SKUs, so it
// takes the right to read them. Transfers, goods adjust and warehouses share one tab screen.
// The warehouses' service fees are a settings entry, the owner's.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';

export const OVERVIEW_READ: Access = { permissions: [P.productSkuRead] };
export const ADJUST_READ: Access = { permissions: [P.wmsGoodsAdjustRead] };
export const ADJUST_CREATE: Access = { permissions: [P.wmsGoodsAdjustCreate] };
export const RECEIPT_READ: Access = { permissions: [P.wmsGoodsReceiptRead] };
export const RECEIPT_CREATE: Access = { permissions: [P.wmsGoodsReceiptCreate] };
export const RECEIPT_EDIT: Access = { permissions: [P.wmsGoodsReceiptEdit] };
export const RECEIPT_SEND: Access = { permissions: [P.wmsGoodsReceiptCreate, P.wmsGoodsReceiptEdit] };
export const RECEIPT_DELETE: Access = { permissions: [P.wmsGoodsReceiptDelete] };
export const RECEIPT_APPROVE: Access = { permissions: [P.wmsGoodsReceiptApprove] };
/** Adding and changing warehouses: the owner, or store.*. */
export const WAREHOUSE_EDIT: Access = { roles: ['owner'], permissions: [P.storeAll] };
/** What the warehouses charge the shop: the owner's alone (no permission opens it). */
export const FEE_PLANS: Access = { roles: ['owner'], permissions: [] };

const MOVES = () => import('./StockMovesPage');

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
    path: 'stock-management-goods-receipt/:state',
    layout: 'default',
    access: RECEIPT_READ,
    menu: { group: 'stock', label: 'menu.goodsReceipt', order: 20, to: 'stock-management-goods-receipt/draft' },
    page: () => import('./receipts/ReceiptBoardPage'),
  },
  {
    path: 'stock-management-goods-receipt-create/:type',
    layout: 'default',
    access: RECEIPT_CREATE,
    page: () => import('./receipts/ReceiptFormPage'),
  },
  {
    path: 'stock-management-goods-receipt-edit/:type/:id',
    layout: 'default',
    access: RECEIPT_EDIT,
    page: () => import('./receipts/ReceiptFormPage'),
  },
  {
    path: 'stock-management-goods-receipt-detail/:state/:id',
    layout: 'default',
    access: RECEIPT_READ,
    page: () => import('./receipts/ReceiptDetailPage'),
  },
  {
    path: 'stock-management-transfer',
    layout: 'default',
    access: ADJUST_READ,
    menu: { group: 'stock', label: 'menu.transfer', order: 30 },
    page: MOVES,
  },
  {
    path: 'stock-management-goods-adjust',
    layout: 'default',
    access: ADJUST_READ,
    menu: { group: 'stock', label: 'menu.goodsAdjust', order: 40 },
    page: MOVES,
  },
  {
    path: 'stock-management-warehouses',
    layout: 'default',
    access: OVERVIEW_READ,
    menu: { group: 'stock', label: 'menu.warehouses', order: 50 },
    page: MOVES,
  },
  // A settings entry, after shipping (40).
  {
    path: 'setting/warehouse-fee',
    layout: 'default',
    access: FEE_PLANS,
    menu: { group: 'settings', label: 'menu.warehouseFee', order: 45 },
    page: () => import('./FeePlanPage'),
  },
];
