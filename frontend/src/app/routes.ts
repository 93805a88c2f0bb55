// Every screen of the app, from each feature's own list; the router and the sidebar are
// composed from this one list.
import { ROUTES as AUTH } from '@/features/auth/routes';
import { ROUTES as CUSTOMERS } from '@/features/customers/routes';
import { ROUTES as LOGISTICS } from '@/features/logistics/routes';
import { ROUTES as MARKETPLACES } from '@/features/marketplaces/routes';
import { ROUTES as ORDERS } from '@/features/orders/routes';
import { ROUTES as PAYMENTS } from '@/features/payments/routes';
import { ROUTES as POS } from '@/features/pos/routes';
import { ROUTES as PRODUCTS } from '@/features/products/routes';
import { ROUTES as REPORTS } from '@/features/reports/routes';
import { ROUTES as SETTINGS } from '@/features/settings/routes';
import { ROUTES as STOCK } from '@/features/stock/routes';
import { ROUTES as STORE } from '@/features/store/routes';
import { ROUTES as TEAM } from '@/features/team/routes';
import type { FeatureRoute } from '@/shared/routes';

export const ROUTES: FeatureRoute[] = [...AUTH, ...STORE, ...REPORTS, ...ORDERS, ...CUSTOMERS, ...PRODUCTS, ...STOCK, ...SETTINGS, ...PAYMENTS, ...LOGISTICS, ...MARKETPLACES, ...TEAM, ...POS];

/** Screens under /{storeId}/ have relative paths. */
export const inStore = (r: FeatureRoute) => !r.path.startsWith('/');
