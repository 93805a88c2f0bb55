import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';

import { BlockingLoader } from './BlockingLoader';
import { setAfterLogout } from './globalErrors';
import type { RouteMeta } from './guard';
import { Allowed, StoreShell, UserGate } from './StoreGate';
import { useGetMaintainingQuery } from '@/features/store/api';
import { P } from '@/shared/permissions.gen';

function page(load: () => Promise<{ default: ComponentType }>, meta?: RouteMeta) {
  const Page = lazy(load);
  const el = (
    <Suspense fallback={<BlockingLoader />}>
      <Page />
    </Suspense>
  );
  return meta ? <Allowed meta={meta}>{el}</Allowed> : el;
}

// Layouts and the not-found screen load lazily too: the initial bundle holds only the shell.
const layout = (name: 'DefaultLayout' | 'NoSidebarLayout' | 'SearchBarLayout') =>
  page(() => import('./layouts/Layouts').then((m) => ({ default: m[name] })));
const notFound = () => page(() => import('@/features/store/NotFoundPage'));

const READ: RouteMeta = { store: true, permissions: [P.storeCustomerRead] };
const CREATE: RouteMeta = { store: true, permissions: [P.storeCustomerCreate] };
const EDIT: RouteMeta = { store: true, permissions: [P.storeCustomerEdit] };
const SKU_READ: RouteMeta = { store: true, permissions: [P.productSkuRead] };
const SKU_CREATE: RouteMeta = { store: true, permissions: [P.productSkuCreate] };
const SKU_EDIT: RouteMeta = { store: true, permissions: [P.productSkuEdit] };
const ADJUST_READ: RouteMeta = { store: true, permissions: [P.wmsGoodsAdjustRead] };
const SETTINGS_READ: RouteMeta = { store: true };
const SETTINGS_EDIT: RouteMeta = { store: true, roles: ['owner'], permissions: [P.storeAll] };

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

export function makeRouter() {
  return createBrowserRouter([
    {
      element: <Root />,
      children: [
        { path: '/', element: <Navigate to="/choose-store" replace /> },
        { element: <UserGate meta={{ store: false, guestOnly: true }} />, children: [{ path: '/login', element: page(() => import('@/features/auth/LoginPage')) }] },
        {
          element: <UserGate meta={{ store: false, user: true }} />,
          children: [{ element: layout('NoSidebarLayout'), children: [{ path: '/choose-store', element: page(() => import('@/features/auth/ChooseStorePage')) }] }],
        },
        { path: '/maintain-system', element: page(() => import('@/features/store/MaintainSystemPage')) },
        {
          path: '/:storeId',
          element: <StoreShell />,
          children: [
            {
              element: layout('DefaultLayout'),
              children: [
                { path: 'getting-start', element: page(() => import('@/features/store/GettingStartPage')) },
                { path: 'prepare-login', element: <Navigate to="../getting-start" replace /> },
                { path: 'access-denied', element: page(() => import('@/features/store/AccessDeniedPage')) },
                { path: 'customer-create', element: page(() => import('@/features/customers/CustomerFormPage'), CREATE) },
                { path: 'customer-edit/:customerId', element: page(() => import('@/features/customers/CustomerFormPage'), EDIT) },
                { path: 'customer-detail/:customerId', element: page(() => import('@/features/customers/CustomerDetailPage'), READ) },
                { path: 'customer-social/:customerId', element: page(() => import('@/features/customers/CustomerSocialPage'), READ) },
                { path: 'customer-detail/:customerId/address-book', element: page(() => import('@/features/customers/AddressBookPage'), READ) },
                { path: 'customer-detail/:customerId/address-book-create', element: page(() => import('@/features/customers/AddressFormPage'), EDIT) },
                { path: 'customer-detail/:customerId/address-book-edit/:addressId', element: page(() => import('@/features/customers/AddressFormPage'), EDIT) },
                { path: 'customer-detail/:customerId/address-book/detail-edit', element: page(() => import('@/features/customers/AddressFormPage'), EDIT) },
                { path: 'product-create/:channel/:productId?', element: page(() => import('@/features/products/ProductFormPage'), SKU_CREATE) },
                { path: 'product-edit/:channel/:productId', element: page(() => import('@/features/products/ProductFormPage'), SKU_EDIT) },
                { path: 'product-import-channel', element: page(() => import('@/features/products/import/ImportChannelPage'), SKU_CREATE) },
                { path: 'product-import/:saleChannel/upload/:storeChannelId', element: page(() => import('@/features/products/import/ImportUploadPage'), SKU_CREATE) },
                { path: 'product-import/:saleChannel/mapping/:storeChannelId', element: page(() => import('@/features/products/import/ImportMappingPage'), SKU_CREATE) },
                { path: 'product-import/:saleChannel/result/:storeChannelId', element: page(() => import('@/features/products/import/ImportResultPage'), SKU_CREATE) },
                { path: 'stock-management-goods-adjust', element: page(() => import('@/features/stock/GoodsAdjustPage'), ADJUST_READ) },
                { path: 'setting/safety-stock', element: page(() => import('@/features/settings/SafetyStockPage'), SETTINGS_READ) },
                { path: 'setting/unit-of-measurement', element: page(() => import('@/features/settings/UnitListPage'), SETTINGS_READ) },
                { path: 'setting/unit-of-measurement-create', element: page(() => import('@/features/settings/UnitFormPage'), SETTINGS_EDIT) },
                { path: '*', element: notFound() },
              ],
            },
            {
              element: layout('SearchBarLayout'),
              children: [
                { path: 'customer-list', handle: { search: 'customers' }, element: page(() => import('@/features/customers/CustomerListPage'), READ) },
                { path: 'product-list/:channel?/:providerName?', handle: { search: 'products' }, element: page(() => import('@/features/products/ProductListPage'), SKU_READ) },
                { path: 'stock-management-overview-list', handle: { search: 'stock' }, element: page(() => import('@/features/stock/StockOverviewPage'), SKU_READ) },
              ],
            },
          ],
        },
        { path: '*', element: notFound() },
      ],
    },
  ]);
}
