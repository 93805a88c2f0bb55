// The store's shipping (SPEC §2 Settings: logistic, logistic-create, logistic-edit/{id}): its
// domestic and international channels by warehouse and its COD accounts. The owner role and
// logistic.storeChannel.* open them (LOGISTIC_EDIT); the list is a settings entry (order 40).
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
];
