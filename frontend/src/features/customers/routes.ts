// The customers' screens (SPEC §2) and who may use them (SPEC §6).
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';

export const CUSTOMER_READ: Access = { permissions: [P.storeCustomerRead] };
export const CUSTOMER_CREATE: Access = { permissions: [P.storeCustomerCreate] };
export const CUSTOMER_EDIT: Access = { permissions: [P.storeCustomerEdit] };

const form = () => import('./CustomerFormPage');
const address = () => import('./AddressFormPage');

export const ROUTES: FeatureRoute[] = [
  {
    path: 'customer-list',
    layout: 'searchBar',
    search: 'customers',
    access: CUSTOMER_READ,
    menu: { group: 'customers', label: 'menu.customerList', order: 10 },
    page: () => import('./CustomerListPage'),
  },
  { path: 'customer-create', layout: 'default', access: CUSTOMER_CREATE, page: form },
  { path: 'customer-edit/:customerId', layout: 'default', access: CUSTOMER_EDIT, page: form },
  { path: 'customer-detail/:customerId', layout: 'default', access: CUSTOMER_READ, page: () => import('./CustomerDetailPage') },
  { path: 'customer-social/:customerId', layout: 'default', access: CUSTOMER_READ, page: () => import('./CustomerSocialPage') },
  { path: 'customer-detail/:customerId/address-book', layout: 'default', access: CUSTOMER_READ, page: () => import('./AddressBookPage') },
  { path: 'customer-detail/:customerId/address-book-create', layout: 'default', access: CUSTOMER_EDIT, page: address },
  { path: 'customer-detail/:customerId/address-book-edit/:addressId', layout: 'default', access: CUSTOMER_EDIT, page: address },
  { path: 'customer-detail/:customerId/address-book/detail-edit', layout: 'default', access: CUSTOMER_EDIT, page: address },
];
