import { isValidElement, type ReactElement } from 'react';
import type { RouteObject } from 'react-router-dom';

import common from '@/locales/th/common.json';
import { P } from '@/shared/permissions.gen';
import type { RouteMeta } from './guard';
import { routeTree } from './router';
import { ROUTES } from './routes';
import { Allowed, UserGate } from './StoreGate';

type Row = { path: string; gate?: RouteMeta; meta?: RouteMeta; search?: string };

// Every route of the router as [full path, the gate around it, the screen's own rules, search].
function flatten(routes: RouteObject[], prefix = '', gate?: RouteMeta): Row[] {
  return routes.flatMap((r) => {
    const el = r.element as ReactElement<{ meta?: RouteMeta }> | undefined;
    const own = isValidElement(el) && el.type === UserGate ? el.props.meta : gate;
    const path = r.path === undefined ? prefix : r.path.startsWith('/') ? r.path : `${prefix}/${r.path}`;
    if (r.children) return flatten(r.children, path, own);
    const meta = isValidElement(el) && el.type === Allowed ? el.props.meta : undefined;
    const search = (r.handle as { search?: string } | undefined)?.search;
    return [{ path, ...(own ? { gate: own } : {}), ...(meta ? { meta } : {}), ...(search ? { search } : {}) }];
  });
}

const read = { store: true, permissions: [P.storeCustomerRead] };
const create = { store: true, permissions: [P.storeCustomerCreate] };
const edit = { store: true, permissions: [P.storeCustomerEdit] };
const skuRead = { store: true, permissions: [P.productSkuRead] };
const skuCreate = { store: true, permissions: [P.productSkuCreate] };
const skuEdit = { store: true, permissions: [P.productSkuEdit] };
const team = { store: true, roles: ['owner'], permissions: [P.userAll] };
const roles = { store: true, roles: ['owner'], permissions: [P.storeRoleAll] };
const posEdit = { store: true, roles: ['owner'], permissions: [P.storeAll] };
const payments = { store: true, roles: ['owner'], permissions: [P.paymentStoreChannelAll] };
const logistics = { store: true, roles: ['owner'], permissions: [P.logisticStoreChannelAll] };
const orderRead = { store: true, permissions: [P.orderOrderRead] };
const orderCreate = { store: true, permissions: [P.orderOrderCreate] };
const orderEdit = { store: true, permissions: [P.orderOrderEdit] };

describe('routes (SPEC §2)', () => {
  it('guard each screen as the spec says', () => {
    expect(flatten(routeTree()).sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [
        { path: '/' },
        { path: '/login', gate: { store: false, guestOnly: true } },
        { path: '/choose-store', gate: { store: false, user: true } },
        { path: '/maintain-system' },
        { path: '/:storeId/getting-start' },
        { path: '/:storeId/dashboard', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/statistic', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/sale-channel', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/sale-product', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/sale-order', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/customer', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/customer-area', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/dashboard/service-fee', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/report', meta: { store: true, permissions: [P.orderOrderRead, P.productSkuRead] } },
        { path: '/:storeId/report/order', meta: orderRead },
        { path: '/:storeId/report/movement', meta: skuRead },
        { path: '/:storeId/report/stock', meta: skuRead },
        { path: '/:storeId/report/sales', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/report/staff', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/prepare-login' },
        { path: '/:storeId/access-denied' },
        { path: '/:storeId/order-list', meta: orderRead },
        { path: '/:storeId/order-create', meta: orderCreate },
        { path: '/:storeId/order-create/detail', meta: orderCreate },
        { path: '/:storeId/order-edit/:id', meta: orderEdit },
        { path: '/:storeId/order-import-channel', meta: orderCreate },
        { path: '/:storeId/order-import/:saleChannel/upload', meta: orderCreate },
        { path: '/:storeId/order-import/:saleChannel/result', meta: orderCreate },
        { path: '/:storeId/order-detail/:id', meta: orderRead },
        { path: '/:storeId/print-label', meta: orderRead },
        { path: '/:storeId/order-payment-review', meta: { store: true, permissions: [P.orderOrderRead, P.paymentPaymentRead] } },
        { path: '/:storeId/order-payment-reconcile', meta: { store: true, permissions: [P.paymentPaymentApprove] } },
        { path: '/:storeId/customer-list', meta: read, search: 'customers' },
        { path: '/:storeId/customer-create', meta: create },
        { path: '/:storeId/customer-edit/:customerId', meta: edit },
        { path: '/:storeId/customer-detail/:customerId', meta: read },
        { path: '/:storeId/customer-social/:customerId', meta: read },
        { path: '/:storeId/customer-detail/:customerId/address-book', meta: read },
        { path: '/:storeId/customer-detail/:customerId/address-book-create', meta: edit },
        { path: '/:storeId/customer-detail/:customerId/address-book-edit/:addressId', meta: edit },
        { path: '/:storeId/customer-detail/:customerId/address-book/detail-edit', meta: edit },
        { path: '/:storeId/product-list/:channel?/:providerName?', meta: skuRead, search: 'products' },
        { path: '/:storeId/product-create/:channel/:productId?', meta: skuCreate },
        { path: '/:storeId/product-edit/:channel/:productId', meta: skuEdit },
        { path: '/:storeId/product-import-channel', meta: skuCreate },
        { path: '/:storeId/product-import/:saleChannel/upload/:storeChannelId', meta: skuCreate },
        { path: '/:storeId/product-import/:saleChannel/mapping/:storeChannelId', meta: skuCreate },
        { path: '/:storeId/product-import/:saleChannel/result/:storeChannelId', meta: skuCreate },
        { path: '/:storeId/stock-management-overview-list', meta: skuRead, search: 'stock' },
        { path: '/:storeId/stock-management-goods-receipt/:state', meta: { store: true, permissions: [P.wmsGoodsReceiptRead] } },
        { path: '/:storeId/stock-management-goods-receipt-create/:type', meta: { store: true, permissions: [P.wmsGoodsReceiptCreate] } },
        { path: '/:storeId/stock-management-goods-receipt-edit/:type/:id', meta: { store: true, permissions: [P.wmsGoodsReceiptEdit] } },
        { path: '/:storeId/stock-management-goods-receipt-detail/:state/:id', meta: { store: true, permissions: [P.wmsGoodsReceiptRead] } },
        { path: '/:storeId/stock-management-transfer', meta: { store: true, permissions: [P.wmsGoodsAdjustRead] } },
        { path: '/:storeId/stock-management-goods-adjust', meta: { store: true, permissions: [P.wmsGoodsAdjustRead] } },
        { path: '/:storeId/stock-management-warehouses', meta: skuRead },
        { path: '/:storeId/setting/warehouse-fee', meta: { store: true, roles: ['owner'], permissions: [] } },
        { path: '/:storeId/setting' },
        { path: '/:storeId/setting/store-detail' },
        { path: '/:storeId/setting/store-edit', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/setting/payment-list', meta: payments },
        { path: '/:storeId/setting/payment-create', meta: payments },
        { path: '/:storeId/setting/payment-edit/:channelId', meta: payments },
        { path: '/:storeId/setting/logistic', meta: logistics },
        { path: '/:storeId/setting/logistic-create', meta: logistics },
        { path: '/:storeId/setting/logistic-edit/:channelId', meta: logistics },
        { path: '/:storeId/setting/shipping-rate' },
        { path: '/:storeId/setting/e-parcel-connecting', meta: logistics },
        { path: '/:storeId/setting/safety-stock' },
        { path: '/:storeId/setting/bill-expiry' },
        { path: '/:storeId/setting/receipt' },
        { path: '/:storeId/setting/additional-info-identity', meta: { store: true, roles: ['owner'], permissions: [] } },
        { path: '/:storeId/setting/unit-of-measurement' },
        { path: '/:storeId/setting/unit-of-measurement-create', meta: { store: true, roles: ['owner'], permissions: [P.storeAll] } },
        { path: '/:storeId/setting/user-list', meta: team },
        { path: '/:storeId/setting/user-edit/:membershipId', meta: team },
        { path: '/:storeId/setting/role-permission-list', meta: roles },
        { path: '/:storeId/setting/role-permission-create', meta: roles },
        { path: '/:storeId/setting/role-permission-edit/:roleId', meta: roles },
        { path: '/:storeId/pos-setting' },
        { path: '/:storeId/pos-setting/branch-receipt', meta: posEdit },
        { path: '/:storeId/pos-setting/branch-receipt/:branchId/edit', meta: posEdit },
        { path: '/:storeId/pos-setting/pos-unit/create', meta: posEdit },
        { path: '/:storeId/pos-setting/pos-unit/:posUnitId/edit', meta: posEdit },
        { path: '/:storeId/pos-setting/cashier/create', meta: posEdit },
        { path: '/:storeId/pos-setting/cashier/:cashierId/edit', meta: posEdit },
        { path: '/:storeId/pos-setting/seller/create', meta: posEdit },
        { path: '/:storeId/pos-setting/seller/:sellerId/edit', meta: posEdit },
        { path: '/:storeId/sale-channel-list', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-auth/:saleChannel', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-setting/:saleChannel/:storeChannelId', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-setting/:saleChannel', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-setting/open-api/:channel/create', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-setting/open-api/:channel/edit/:apiChannelId', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-setting/magento/create', meta: { store: true, roles: ['owner'] } },
        { path: '/:storeId/sale-channel-setting/magento/edit/:magentoChannelId', meta: { store: true, roles: ['owner'] } },
        { path: '/sale-channel-redirect' },
        { path: '/invitations/:key' },
        { path: '/:storeId/*' },
        { path: '/*' },
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );
  });

  it('put each screen on its layout', () => {
    const by = (layout: string) => ROUTES.filter((r) => r.layout === layout).map((r) => r.path);
    expect(by('none')).toEqual(['/login', '/maintain-system', '/sale-channel-redirect', '/invitations/:key']);
    expect(by('noSidebar')).toEqual(['/choose-store']);
    expect(by('searchBar')).toEqual(['customer-list', 'product-list/:channel?/:providerName?', 'stock-management-overview-list']);
    expect(by('default')).toHaveLength(88);
  });

  it('name each path once, and menu labels and searches the locales know', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    const menu = common.menu as Record<string, string>;
    const search = common.search as Record<string, string>;
    for (const r of ROUTES) {
      if (r.menu) expect(menu[r.menu.label.replace(/^menu\./, '')]).toBeDefined();
      if (r.search) expect(search[r.search]).toBeDefined();
      expect(Boolean(r.search)).toBe(r.layout === 'searchBar');
    }
  });
});
