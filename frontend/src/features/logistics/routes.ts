// The store's shipping (SPEC §2 Settings: logistic, logistic-create, logistic-edit/{id},
// e-parcel-connecting): its domestic and international channels by warehouse, its COD
// accounts and tracking-number ranges, and its carrier accounts. The owner role and
// logistic.storeChannel.* open them (LOGISTIC_EDIT); the list is a settings entry (order 40),
// the carrier accounts another (order 46) that the store's hiding-menu list hides by the key
// connect_e_parcel. The international calculator (order 45) is open to any member: it reads
// prices; only its rate-table card asks LOGISTIC_EDIT.
import type { FeatureRoute } from '@/shared/routes';
import { LOGISTIC_EDIT } from './api';

const FORM = () => import('./LogisticFormPage');

export const ROUTES: FeatureRoute[] = [
  {
    path: 'setting/logistic',
    layout: 'default',
    access: LOGISTIC_EDIT,
    menu: { group: 'settings', label: 'menu.logistic', order: 40 },
    page: () => import('./LogisticListPage'),
  },
  { path: 'setting/logistic-create', layout: 'default', access: LOGISTIC_EDIT, page: FORM },
  { path: 'setting/logistic-edit/:channelId', layout: 'default', access: LOGISTIC_EDIT, page: FORM },
  {
    path: 'setting/shipping-rate',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.shippingRate', order: 45 },
    page: () => import('./ShippingRatePage'),
  },
  {
    path: 'setting/e-parcel-connecting',
    layout: 'default',
    access: LOGISTIC_EDIT,
    menu: { group: 'settings', label: 'menu.eParcelConnecting', order: 46, hideKey: 'connect_e_parcel' },
    page: () => import('./EParcelPage'),
  },
];
