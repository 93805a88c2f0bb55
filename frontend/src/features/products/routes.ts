// The product screens (SPEC §2) and who may use them (SPEC §6).
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';
import { STORE_CHANNEL } from './channel';

export const SKU_READ: Access = { permissions: [P.productSkuRead] };
export const SKU_CREATE: Access = { permissions: [P.productSkuCreate] };
export const SKU_EDIT: Access = { permissions: [P.productSkuEdit] };

const form = () => import('./ProductFormPage');

export const ROUTES: FeatureRoute[] = [
  {
    path: 'product-list/:channel?/:providerName?',
    layout: 'searchBar',
    search: 'products',
    access: SKU_READ,
    menu: { group: 'products', label: 'menu.productList', order: 10, to: `product-list/${STORE_CHANNEL}` },
    page: () => import('./ProductListPage'),
  },
  { path: 'product-create/:channel/:productId?', layout: 'default', access: SKU_CREATE, page: form },
  { path: 'product-edit/:channel/:productId', layout: 'default', access: SKU_EDIT, page: form },
  { path: 'product-import-channel', layout: 'default', access: SKU_CREATE, page: () => import('./import/ImportChannelPage') },
  { path: 'product-import/:saleChannel/upload/:storeChannelId', layout: 'default', access: SKU_CREATE, page: () => import('./import/ImportUploadPage') },
  { path: 'product-import/:saleChannel/mapping/:storeChannelId', layout: 'default', access: SKU_CREATE, page: () => import('./import/ImportMappingPage') },
  { path: 'product-import/:saleChannel/result/:storeChannelId', layout: 'default', access: SKU_CREATE, page: () => import('./import/ImportResultPage') },
];
