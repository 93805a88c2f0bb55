// The point-of-sale setup (SPEC §2 Point of sale): one screen with the branches, POS units,
// cashiers and sellers, and a form for each. Any member reads the setup; the forms take the
// owner role or store.* (POS_EDIT) and stay out of the sidebar.
import type { FeatureRoute } from '@/shared/routes';
import { POS_EDIT } from './api';

const BRANCH_FORM = () => import('./BranchFormPage');
const POS_UNIT_FORM = () => import('./PosUnitFormPage');
const CASHIER_FORM = () => import('./CashierFormPage');
const SELLER_FORM = () => import('./SellerFormPage');

export const ROUTES: FeatureRoute[] = [
  {
    path: 'pos-setting',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.posSetting', order: 95 },
    page: () => import('./PosSettingPage'),
  },
  { path: 'pos-setting/branch-receipt', layout: 'default', access: POS_EDIT, page: BRANCH_FORM },
  { path: 'pos-setting/branch-receipt/:branchId/edit', layout: 'default', access: POS_EDIT, page: BRANCH_FORM },
  { path: 'pos-setting/pos-unit/create', layout: 'default', access: POS_EDIT, page: POS_UNIT_FORM },
  { path: 'pos-setting/pos-unit/:posUnitId/edit', layout: 'default', access: POS_EDIT, page: POS_UNIT_FORM },
  { path: 'pos-setting/cashier/create', layout: 'default', access: POS_EDIT, page: CASHIER_FORM },
  { path: 'pos-setting/cashier/:cashierId/edit', layout: 'default', access: POS_EDIT, page: CASHIER_FORM },
  { path: 'pos-setting/seller/create', layout: 'default', access: POS_EDIT, page: SELLER_FORM },
  { path: 'pos-setting/seller/:sellerId/edit', layout: 'default', access: POS_EDIT, page: SELLER_FORM },
];
