// Sales channels (SPEC §2 Sale channels, owner only): the list of marketplaces with their
// connected shops, the screen the marketplace's redirect hands over to, a shop's settings,
// the store's own, open-API and Magento channels, and /sale-channel-redirect, outside any
// store and without a sign-in check, where the marketplaces send a seller back.
import type { FeatureRoute } from '@/shared/routes';
import { SALE_CHANNELS } from './api';

export const ROUTES: FeatureRoute[] = [
  {
    path: 'sale-channel-list',
    layout: 'default',
    access: SALE_CHANNELS,
    menu: { group: 'salesChannels', label: 'menu.saleChannelList', order: 10 },
    page: () => import('./SaleChannelListPage'),
  },
  { path: 'sale-channel-auth/:saleChannel', layout: 'default', access: SALE_CHANNELS, page: () => import('./SaleChannelAuthPage') },
  {
    path: 'sale-channel-setting/:saleChannel/:storeChannelId',
    layout: 'default',
    access: SALE_CHANNELS,
    page: () => import('./SaleChannelSettingPage'),
  },
  // A store's own channel (a social network or the website) made; edited at the path above.
  { path: 'sale-channel-setting/:saleChannel', layout: 'default', access: SALE_CHANNELS, page: () => import('./OwnChannelPage') },
  { path: 'sale-channel-setting/open-api/:channel/create', layout: 'default', access: SALE_CHANNELS, page: () => import('./ApiChannelPage') },
  {
    path: 'sale-channel-setting/open-api/:channel/edit/:apiChannelId',
    layout: 'default',
    access: SALE_CHANNELS,
    page: () => import('./ApiChannelPage'),
  },
  // A Magento 2 shop (ADR 0045): made, then edited and synced at its own path.
  { path: 'sale-channel-setting/magento/create', layout: 'default', access: SALE_CHANNELS, page: () => import('./MagentoChannelPage') },
  {
    path: 'sale-channel-setting/magento/edit/:magentoChannelId',
    layout: 'default',
    access: SALE_CHANNELS,
    page: () => import('./MagentoChannelPage'),
  },
  { path: '/sale-channel-redirect', layout: 'none', page: () => import('./SaleChannelRedirectPage') },
];
