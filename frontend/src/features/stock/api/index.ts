// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const stockApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Adjustment', 'Inventory', 'Product'] })
  .enhanceEndpoints({
    endpoints: {
      listGoodsAdjust: { providesTags: [{ type: 'Adjustment', id: 'LIST' }] },
      createGoodsAdjust: {
        // The inventory view follows the ledger's event a moment later.
        invalidatesTags: [{ type: 'Adjustment', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
      },
    },
  });

export const { useListWarehousesQuery, useListGoodsAdjustQuery, useCreateGoodsAdjustMutation } = stockApi;
import type { ListGoodsAdjustBody, ListWarehouseBody } from './endpoints.gen';
export type GoodsAdjustBody = ListGoodsAdjustBody['data'][number];
export type WarehouseBody = ListWarehouseBody['data'][number];

// ---- Transfers, warehouses, lots, in transit and stock value (the moves tabs and the
// overview). Kept in one block: other stock screens add their own exports above or below.
import type { CreateTransferApiResponse, ListStockLotBody, ListTransferBody, TransferInput } from './endpoints.gen';
import { pdfUrl } from './pdf';

const TRANSFERS = { type: 'Transfer' as const, id: 'LIST' };
const WAREHOUSES = { type: 'Warehouse' as const, id: 'LIST' };
const STOCK = [{ type: 'Inventory' as const, id: 'LIST' }, { type: 'Product' as const, id: 'LIST' }];
const LOTS = { type: 'StockLot' as const, id: 'LIST' };

export const movesApi = stockApi
  .enhanceEndpoints({ addTagTypes: ['Transfer', 'Warehouse', 'StockLot'] })
  .enhanceEndpoints({
    endpoints: {
      listWarehouses: { providesTags: [WAREHOUSES] },
      createWarehouse: { invalidatesTags: [WAREHOUSES] },
      updateWarehouse: { invalidatesTags: [WAREHOUSES] },
      listTransfers: { providesTags: [TRANSFERS] },
      getTransfer: { providesTags: (_r, _e, a) => [{ type: 'Transfer', id: a.id }] },
      createTransfer: { invalidatesTags: [TRANSFERS, LOTS, ...STOCK] },
      receiveTransfer: { invalidatesTags: (_r, _e, a) => [TRANSFERS, { type: 'Transfer', id: a.id }, LOTS, ...STOCK] },
      listInTransit: { providesTags: [TRANSFERS] },
      listStockLots: { providesTags: [LOTS, { type: 'Inventory', id: 'LIST' }] },
      stockValuation: { providesTags: [LOTS, { type: 'Inventory', id: 'LIST' }] },
    },
  });

/** A transfer sent with an `Idempotency-Key` (the generated call cannot carry a header): a
 * repeat of the same submission never sends the units twice. */
const sendApi = movesApi.injectEndpoints({
  endpoints: (build) => ({
    sendTransfer: build.mutation<CreateTransferApiResponse, { transferInput: TransferInput; idempotencyKey: string }>({
      query: ({ transferInput, idempotencyKey }) => ({ url: '/wms/transfers', method: 'POST', body: transferInput, headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: [TRANSFERS, LOTS, ...STOCK],
    }),
    /** The transfer's pick list, a PDF fetched with the store's token, as an object URL. */
    pickListUrl: build.mutation<string, { id: number }>({
      query: ({ id }) => ({ url: `/wms/transfers/${id}/pick-list`, responseHandler: pdfUrl }),
    }),
  }),
});

export const { useSendTransferMutation, usePickListUrlMutation } = sendApi;
export const {
  useCreateWarehouseMutation,
  useUpdateWarehouseMutation,
  useListTransfersQuery,
  useGetTransferQuery,
  useReceiveTransferMutation,
  useListInTransitQuery,
  useListStockLotsQuery,
  useStockValuationQuery,
} = movesApi;
export type { TransferInput, TransferLineBody, LotTakeBody, WarehouseValueBody } from './endpoints.gen';
export type TransferRow = ListTransferBody['data'][number];
export type StockLotRow = ListStockLotBody['data'][number];
export { openPdf } from './pdf';
// ---- end of the moves block.

// ---------------------------------------------------------------------------------------------
// Goods receipts (SPEC §2 Stock, §3, §4): the board and a receipt refresh after every change;
// an approval puts stock on hand, so the stock overview refreshes too. The printed receipt and
// the SKU labels are PDFs fetched with the store's token (the generated GETs would try to read
// them as JSON), handed back as object URLs.
import type { GoodsReceiptBody as ReceiptBodyGen, GoodsReceiptList as ReceiptListGen } from './endpoints.gen';
import { pdfUrl as receiptPdfUrl } from './pdf';

const RECEIPTS = { type: 'GoodsReceipt' as const, id: 'LIST' };
const receiptTags = (id: number) => [RECEIPTS, { type: 'GoodsReceipt' as const, id }];

/** A change answers with the receipt as it now is: the open receipt shows it at once (its
 * new state) while the refetch runs. */
async function holdAnswer(
  arg: { id: number },
  { dispatch, queryFulfilled }: { dispatch: (a: unknown) => unknown; queryFulfilled: Promise<{ data: ReceiptBodyGen }> },
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(enhancedApi.util.upsertQueryData('getGoodsReceipt', { id: arg.id }, data));
  } catch {
    /* refused: nothing changed */
  }
}

export const receiptsApi = stockApi.enhanceEndpoints({ addTagTypes: ['GoodsReceipt', 'StockLot'] }).enhanceEndpoints({
  endpoints: {
    listGoodsReceipts: { providesTags: [RECEIPTS] },
    getGoodsReceipt: { providesTags: (_r, _e, a) => [{ type: 'GoodsReceipt', id: a.id }] },
    createGoodsReceipt: { invalidatesTags: [RECEIPTS] },
    updateGoodsReceipt: { invalidatesTags: (_r, _e, a) => receiptTags(a.id), onQueryStarted: holdAnswer },
    deleteGoodsReceipt: { invalidatesTags: [RECEIPTS] },
    sendGoodsReceipt: { invalidatesTags: (_r, _e, a) => receiptTags(a.id), onQueryStarted: holdAnswer },
    checkGoodsReceipt: { invalidatesTags: (_r, _e, a) => receiptTags(a.id), onQueryStarted: holdAnswer },
    approveGoodsReceipt: {
      // The good pieces go on hand as a lot: the stock overview and the lots follow.
      invalidatesTags: (_r, _e, a) => [...receiptTags(a.id), { type: 'Inventory', id: 'LIST' }, { type: 'Product', id: 'LIST' }, { type: 'StockLot', id: 'LIST' }],
      onQueryStarted: holdAnswer,
    },
    rejectGoodsReceipt: { invalidatesTags: (_r, _e, a) => receiptTags(a.id), onQueryStarted: holdAnswer },
    shelveGoodsReceipt: { invalidatesTags: (_r, _e, a) => receiptTags(a.id), onQueryStarted: holdAnswer },
  },
});

/** Which PDF of a receipt: the printed receipt (records who printed it) or its SKU labels. */
export type ReceiptPdfKind = 'print' | 'labels';

const receiptPdfApi = receiptsApi.injectEndpoints({
  endpoints: (build) => ({
    goodsReceiptPdf: build.mutation<string, { id: number; kind: ReceiptPdfKind }>({
      query: ({ id, kind }) => ({
        url: `/wms/goods-receipts/${id}/${kind}`,
        responseHandler: receiptPdfUrl,
      }),
      invalidatesTags: (_r, e, a) => (a.kind === 'print' && !e ? [{ type: 'GoodsReceipt', id: a.id }] : []),
    }),
  }),
});

export const { useGoodsReceiptPdfMutation } = receiptPdfApi;
export const {
  useListGoodsReceiptsQuery,
  useGetGoodsReceiptQuery,
  useCreateGoodsReceiptMutation,
  useUpdateGoodsReceiptMutation,
  useDeleteGoodsReceiptMutation,
  useSendGoodsReceiptMutation,
  useCheckGoodsReceiptMutation,
  useApproveGoodsReceiptMutation,
  useRejectGoodsReceiptMutation,
  useShelveGoodsReceiptMutation,
} = receiptsApi;
export type { GoodsReceiptInput, ReceiptLineInput, ReceiptLineBody, PackagingBody, DimensionBody, LineCheckInput } from './endpoints.gen';
export type GoodsReceiptBody = ReceiptBodyGen;
export type GoodsReceiptList = ReceiptListGen;
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// What each warehouse charges the shop (/setting/warehouse-fee, the owner's): the list
// refreshes after a save.
const FEE_PLANS = { type: 'FeePlan' as const, id: 'LIST' };

export const feePlansApi = stockApi.enhanceEndpoints({ addTagTypes: ['FeePlan'] }).enhanceEndpoints({
  endpoints: {
    feePlans: { providesTags: [FEE_PLANS] },
    saveFeePlan: { invalidatesTags: [FEE_PLANS] },
  },
});

export const { useFeePlansQuery, useSaveFeePlanMutation } = feePlansApi;
export type { FeePlanBody, FeePlanInput } from './endpoints.gen';
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// For other features' screens (an order's lines): the SKU picker with each SKU's stock in a
// warehouse.
export { SkuSelect, type SkuPick } from '../SkuSelect';
