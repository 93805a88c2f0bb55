// The order screens (SPEC §2 Orders, Other) and who may use them (SPEC §6): reading orders
// opens the list, an order and the labels; making one takes order.order.create; changing one
// (its lines, address, state, parcels, shipping) order.order.edit; cancelling, voiding and
// marking it failed order.order.cancel.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';

export const ORDER_READ: Access = { permissions: [P.orderOrderRead] };
export const ORDER_CREATE: Access = { permissions: [P.orderOrderCreate] };
export const ORDER_EDIT: Access = { permissions: [P.orderOrderEdit] };
export const ORDER_CANCEL: Access = { permissions: [P.orderOrderCancel] };
/** Payments of orders: make, change, confirm, cancel and void them (SPEC §6 payment.payment.*). */
export const PAYMENT_CREATE: Access = { permissions: [P.paymentPaymentCreate] };
export const PAYMENT_EDIT: Access = { permissions: [P.paymentPaymentEdit] };
export const PAYMENT_APPROVE: Access = { permissions: [P.paymentPaymentApprove] };
export const PAYMENT_REJECT: Access = { permissions: [P.paymentPaymentReject] };
export const PAYMENT_VOID: Access = { permissions: [P.paymentPaymentDelete] };
/** The payment review: whoever reads orders or payments. */
export const PAYMENT_REVIEW: Access = { permissions: [P.orderOrderRead, P.paymentPaymentRead] };
/** Picking a customer and their address book: reading customers. */
export const CUSTOMER_PICK: Access = { permissions: [P.storeCustomerRead] };
/** Receiving goods for short orders: adjusting stock (with changing orders). */
export const STOCK_IN: Access = { permissions: [P.wmsGoodsAdjustCreate] };
/** Receiving a buyer's returned goods back into stock: approving goods receipts (with
 * changing orders). */
export const RETURN_RECEIVE: Access = { permissions: [P.wmsGoodsReceiptApprove] };
/** Picking SKUs with their stock: reading products (the SKU list is the catalog's). */
export const SKU_PICK: Access = { permissions: [P.productSkuRead] };

const FORM = () => import('./OrderFormPage');

export const ROUTES: FeatureRoute[] = [
  {
    path: 'order-list',
    layout: 'default',
    access: ORDER_READ,
    menu: { group: 'orders', label: 'menu.orderList', order: 10 },
    page: () => import('./OrderListPage'),
  },
  {
    path: 'order-create',
    layout: 'default',
    access: ORDER_CREATE,
    menu: { group: 'orders', label: 'menu.orderCreate', order: 20 },
    page: FORM,
  },
  { path: 'order-create/detail', layout: 'default', access: ORDER_CREATE, page: FORM },
  { path: 'order-edit/:id', layout: 'default', access: ORDER_EDIT, page: FORM },
  { path: 'order-import-channel', layout: 'default', access: ORDER_CREATE, page: () => import('./import/OrderImportChannelPage') },
  { path: 'order-import/:saleChannel/upload', layout: 'default', access: ORDER_CREATE, page: () => import('./import/OrderImportUploadPage') },
  { path: 'order-import/:saleChannel/result', layout: 'default', access: ORDER_CREATE, page: () => import('./import/OrderImportResultPage') },
  { path: 'order-detail/:id', layout: 'default', access: ORDER_READ, page: () => import('./OrderDetailPage') },
  { path: 'print-label', layout: 'default', access: ORDER_READ, page: () => import('./PrintLabelPage') },
  {
    path: 'order-payment-review',
    layout: 'default',
    access: PAYMENT_REVIEW,
    menu: { group: 'orders', label: 'menu.paymentReview', order: 30 },
    page: () => import('./PaymentReviewPage'),
  },
  {
    path: 'order-payment-reconcile',
    layout: 'default',
    access: PAYMENT_APPROVE,
    menu: { group: 'orders', label: 'menu.paymentReconcile', order: 40 },
    page: () => import('./ReconcilePage'),
  },
];
