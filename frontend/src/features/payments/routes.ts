// The store's payment accounts (SPEC §2 Settings: payment-list, payment-create,
// payment-edit/{id}): bank, PromptPay, PayPal and COD accounts. The owner role and
// payment.storeChannel.* open them (PAYMENT_EDIT); the list is a settings entry (order 30).
import type { FeatureRoute } from '@/shared/routes';
import { PAYMENT_EDIT } from './api';

const FORM = () => import('./PaymentFormPage');

export const ROUTES: FeatureRoute[] = [
  {
    path: 'setting/payment-list',
    layout: 'default',
    access: PAYMENT_EDIT,
    menu: { group: 'settings', label: 'menu.paymentList', order: 30 },
    page: () => import('./PaymentListPage'),
  },
  { path: 'setting/payment-create', layout: 'default', access: PAYMENT_EDIT, page: FORM },
  { path: 'setting/payment-edit/:channelId', layout: 'default', access: PAYMENT_EDIT, page: FORM },
];
