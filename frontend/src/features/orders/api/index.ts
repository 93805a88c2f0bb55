// Hand-written side of the generated client: cache tags, re-exports, and the PDFs (labels and
// pick lists), fetched with the store's token and handed back as object URLs.
//
// An order's change answers with the order as it now is: the open order shows it at once
// while the lists refetch. Orders hold, release and ship stock, so the stock overview and
// the lots refresh after every change that moves stock.
import { pdfUrl } from '@/shared/pdf/pdf';
import { enhancedApi, type OrderBody as OrderBodyGen, type ListOrderBody, type OrderImportBody, type ArrivalsBody, type ReconcileBody } from './endpoints.gen';

const ORDERS = { type: 'Order' as const, id: 'LIST' };
const PAYMENTS = { type: 'OrderPayment' as const, id: 'LIST' };
const EXPORTS = { type: 'OrderExport' as const, id: 'LIST' };
const STOCK = [{ type: 'Inventory' as const, id: 'LIST' }, { type: 'Product' as const, id: 'LIST' }, { type: 'StockLot' as const, id: 'LIST' }];
const one = (id: number) => ({ type: 'Order' as const, id });
/** An import of 10,000 rows makes thousands of orders. */
const IMPORT_TIMEOUT_MS = 300_000;

/** Keeps the order a change answered with as the open order's. */
async function holdAnswer(
  _arg: unknown,
  { dispatch, queryFulfilled }: { dispatch: (a: unknown) => unknown; queryFulfilled: Promise<{ data: OrderBodyGen }> },
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(enhancedApi.util.upsertQueryData('getOrder', { id: data.id }, data));
  } catch {
    /* refused: nothing changed */
  }
}

export const ordersApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Order', 'OrderPayment', 'OrderExport', 'Inventory', 'Product', 'StockLot', 'Customer', 'Shortage', 'ChannelShipping', 'GoodsReceipt'] })
  .enhanceEndpoints({
    endpoints: {
      listOrders: { providesTags: [ORDERS] },
      countOrders: { providesTags: [ORDERS] },
      orderNet: { providesTags: [ORDERS] },
      orderCountries: { providesTags: [ORDERS] },
      getOrder: { providesTags: (_r, _e, a) => [one(a.id)] },
      createOrder: { invalidatesTags: [ORDERS, ...STOCK, { type: 'Customer', id: 'LIST' }] },
      updateOrder: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id), ...STOCK], onQueryStarted: holdAnswer },
      changeOrderState: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id), ...STOCK], onQueryStarted: holdAnswer },
      changeShippingAddress: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id)], onQueryStarted: holdAnswer },
      clearShippingAddress: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id)], onQueryStarted: holdAnswer },
      linkLineSku: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id), ...STOCK], onQueryStarted: holdAnswer },
      renewBillExpiry: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id)], onQueryStarted: holdAnswer },
      renewBillLink: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id)], onQueryStarted: holdAnswer },
      createPayment: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id), PAYMENTS], onQueryStarted: holdAnswer },
      editPayment: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id), PAYMENTS], onQueryStarted: holdAnswer },
      actOnPayment: { invalidatesTags: (_r, _e, a) => [ORDERS, one(a.id), PAYMENTS], onQueryStarted: holdAnswer },
      listPayments: { providesTags: [PAYMENTS] },
      orderReports: { providesTags: [EXPORTS] },
      produceOrderReport: { invalidatesTags: [EXPORTS] },
      confirmPayments: { invalidatesTags: [{ type: 'Order' }, PAYMENTS] },
      bulkReadyToFulfillment: { invalidatesTags: [{ type: 'Order' }, ...STOCK] },
      bulkClose: { invalidatesTags: [{ type: 'Order' }] },
      bulkCancel: { invalidatesTags: [{ type: 'Order' }, ...STOCK] },
      bulkVoid: { invalidatesTags: [{ type: 'Order' }] },
      handleOutOfStock: { invalidatesTags: [{ type: 'Order' }, { type: 'Shortage' }, ...STOCK] },
      shortages: { providesTags: [{ type: 'Shortage' }, ORDERS] },
      addParcel: { invalidatesTags: (r) => [ORDERS, ...(r ? [one(r.id)] : [])], onQueryStarted: holdAnswer },
      updateParcel: { invalidatesTags: (r) => [ORDERS, ...(r ? [one(r.id)] : [])], onQueryStarted: holdAnswer },
      deleteParcel: { invalidatesTags: (r) => [ORDERS, ...(r ? [one(r.id)] : [])], onQueryStarted: holdAnswer },
      shipParcels: { invalidatesTags: [{ type: 'Order' }, ...STOCK] },
      // A marketplace order's shipping: arranging moves the order as the platform says;
      // printing records when.
      getChannelShipping: { providesTags: (_r, _e, a) => [{ type: 'ChannelShipping' as const, id: a.id }] },
      arrangeChannelShipment: { invalidatesTags: (_r, e, a) => (e ? [] : [ORDERS, one(a.id), { type: 'ChannelShipping' as const, id: a.id }, ...STOCK]) },
      // The order is read back from the platform even when it refused the answer.
      answerChannelCancellation: { invalidatesTags: (_r, e, a) => [{ type: 'ChannelShipping' as const, id: a.id }, ...(e ? [] : [ORDERS, one(a.id), ...STOCK])] },
      arrangeChannelShipments: { invalidatesTags: (_r, e, a) => (e ? [] : [ORDERS, ...STOCK, ...(a.arrangeShipmentsInput.orderIds ?? []).flatMap((id) => [one(id), { type: 'ChannelShipping' as const, id }])]) },
      printChannelLabels: { invalidatesTags: (_r, e, a) => (e ? [] : (a.channelLabelsInput.orderIds ?? []).map((id) => ({ type: 'ChannelShipping' as const, id }))) },
      // Returned goods go back on hand through an approved goods receipt.
      receiveReturn: { invalidatesTags: (_r, e, a) => (e ? [] : [ORDERS, one(a.id), ...STOCK, { type: 'GoodsReceipt' as const, id: 'LIST' }]), onQueryStarted: holdAnswer },
    },
  });

/** The PDFs: a parcel's label, many orders' labels, a pick list. Printing records when, so
 * the orders refetch. */
const pdfApi = ordersApi.injectEndpoints({
  endpoints: (build) => ({
    parcelLabelPdf: build.mutation<string, { id: number; orderId: number; size: string }>({
      query: ({ id, size }) => ({ url: `/wms/parcels/${id}/print-label`, method: 'POST', params: { size }, responseHandler: pdfUrl }),
      invalidatesTags: (_r, e, a) => (e ? [] : [one(a.orderId)]),
    }),
    labelsPdf: build.mutation<string, { orderIds: number[]; size: string }>({
      query: (body) => ({ url: '/wms/parcels/print-labels', method: 'POST', body, responseHandler: pdfUrl }),
      invalidatesTags: (_r, e) => (e ? [] : [{ type: 'Order' }]),
    }),
    pickListPdf: build.mutation<string, { orderIds: number[] }>({
      query: (body) => ({ url: '/orders/pick-list', method: 'POST', body, responseHandler: pdfUrl }),
    }),
    /** A slip kept for a payment (multipart: the generated endpoints cannot carry a file). */
    uploadSlip: build.mutation<{ name: string }, { file: File }>({
      query: ({ file }) => {
        const form = new FormData();
        form.append('type', 'slip');
        form.append('file', file);
        return { url: '/orders/attachment/upload', method: 'POST', body: form };
      },
    }),
    /** An order file read (dry run) or imported (multipart). Importing makes orders one by
     * one, so it may take longer than other requests. */
    importOrdersFile: build.mutation<OrderImportBody, { file: File; channel: string; warehouseId: number; dryRun: boolean }>({
      query: ({ file, channel, warehouseId, dryRun }) => {
        const form = new FormData();
        form.append('file', file);
        form.append('channel', channel);
        form.append('warehouse_id', String(warehouseId));
        form.append('dry_run', String(dryRun));
        return { url: '/orders/excel/import', method: 'POST', body: form, timeout: IMPORT_TIMEOUT_MS };
      },
      invalidatesTags: (_r, _e, a) => (a.dryRun ? [] : [ORDERS, ...STOCK]),
    }),
    /** A file of goods arriving for short orders of a warehouse: read (dry run) or received. */
    receiveArrivalsFile: build.mutation<ArrivalsBody, { file: File; warehouseId: number; dryRun: boolean }>({
      query: ({ file, warehouseId, dryRun }) => {
        const form = new FormData();
        form.append('file', file);
        form.append('warehouse_id', String(warehouseId));
        form.append('dry_run', String(dryRun));
        return { url: '/orders/inadequate-goods/import', method: 'POST', body: form };
      },
      invalidatesTags: (_r, _e, a) => (a.dryRun ? [] : [{ type: 'Order' }, { type: 'Shortage' }, ...STOCK]),
    }),
    /** A bank statement or COD report matched (dry run) or its chosen matches confirmed. */
    reconcileFile: build.mutation<ReconcileBody, { file: File; dryRun: boolean; choices: { row: number; billId: number }[] }>({
      query: ({ file, dryRun, choices }) => {
        const form = new FormData();
        form.append('file', file);
        form.append('dry_run', String(dryRun));
        form.append('choices', JSON.stringify(choices.map((c) => ({ row: c.row, bill_id: c.billId }))));
        return { url: '/orders/payments/reconcile', method: 'POST', body: form, timeout: IMPORT_TIMEOUT_MS };
      },
      invalidatesTags: (_r, _e, a) => (a.dryRun ? [] : [{ type: 'Order' }, PAYMENTS]),
    }),
    /** The import template in a language, read with the member's token into a URL to save. */
    importTemplateFile: build.mutation<string, { lang: string }>({
      query: ({ lang }) => ({
        url: '/orders/excel/template',
        params: { lang },
        responseHandler: async (r: Response) => (r.ok ? URL.createObjectURL(await r.blob()) : r.json()),
      }),
    }),
    /** A payment's slip, read with the member's token into a URL the page shows. */
    paymentAttachmentUrl: build.query<string, { orderId: number; paymentId: number; version: string; slipId?: number }>({
      query: ({ orderId, paymentId, slipId }) => ({
        url: `/orders/${orderId}/payments/${paymentId}/attachment${slipId ? `?slip=${slipId}` : ''}`,
        responseHandler: async (r: Response) => (r.ok ? URL.createObjectURL(await r.blob()) : r.json()),
      }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useParcelLabelPdfMutation,
  useLabelsPdfMutation,
  usePickListPdfMutation,
  useUploadSlipMutation,
  usePaymentAttachmentUrlQuery,
  useImportOrdersFileMutation,
  useImportTemplateFileMutation,
  useReceiveArrivalsFileMutation,
  useReconcileFileMutation,
} = pdfApi;

export const {
  useListOrdersQuery,
  useCountOrdersQuery,
  useOrderNetQuery,
  useOrderChannelsQuery,
  useOrderLimitsQuery,
  useGetOrderQuery,
  useCreateOrderMutation,
  useUpdateOrderMutation,
  useChangeOrderStateMutation,
  useChangeShippingAddressMutation,
  useClearShippingAddressMutation,
  useLinkLineSkuMutation,
  useRenewBillExpiryMutation,
  useRenewBillLinkMutation,
  useCreatePaymentMutation,
  useEditPaymentMutation,
  useActOnPaymentMutation,
  useListPaymentsQuery,
  usePreConfirmPaymentsMutation,
  useConfirmPaymentsMutation,
  useOrderReportsQuery,
  useProduceOrderReportMutation,
  useBulkReadyToFulfillmentMutation,
  useBulkCloseMutation,
  useBulkCancelMutation,
  useBulkVoidMutation,
  useHandleOutOfStockMutation,
  useShortagesQuery,
  usePackagingsQuery,
  useAddParcelMutation,
  useUpdateParcelMutation,
  useDeleteParcelMutation,
  useShipParcelsMutation,
  useGetChannelShippingQuery,
  useArrangeChannelShipmentMutation,
  usePrintChannelLabelsMutation,
  useAnswerChannelCancellationMutation,
  useArrangeChannelShipmentsMutation,
  useReceiveReturnMutation,
} = ordersApi;

export type {
  ShipOptionsBody,
  ChannelShippingBody,
  OrderBody,
  OrderInput,
  OrderItemInput,
  OrderItemBody,
  OrderAddressBody,
  OrderParcelBody,
  OrderBillBody,
  OrderPaymentBody,
  PaymentConfirmBody,
  PaymentConfirmsBody,
  ExportBody,
  OrderImportBody,
  ShortageBody,
  ArrivalsBody,
  ReconcileBody,
  StatementLineBody,
  ImportedOrderBody,
  OrderEventBody,
  OrderTrackingBody,
  OrderResultsBody,
  OrderResultBody,
  OrderLimitsBody,
  ParcelInput,
  OrderReturnBody,
  ReturnLineBody,
} from './endpoints.gen';
export type OrderRow = ListOrderBody['data'][number];
/** A payment of the review list, with its order. */
export type ListedPaymentBody = import('./endpoints.gen').ListListedPaymentBody['data'][number];
export type OrderChannel = NonNullable<import('./endpoints.gen').ListOrderChannelBody['data']>[number];
export type Packaging = import('./endpoints.gen').ListParcelPackagingBody['data'][number];
export { ExportHistory, OrderReportPanel } from '../ExportOrders';
