// Hand-written side of the generated client: how fresh the dashboards are kept, and one
// mutation for every summary's export (their calls differ by path alone).
import { enhancedApi, type ExportBody, type SummaryExportInput } from './endpoints.gen';

export { DASHBOARDS } from '../access';

/** How often an open dashboard asks again: an order placed elsewhere shows within seconds. */
export const REFRESH_MS = 2_000;

/** The summaries whose period exports as a spreadsheet. */
export type SummaryKind = 'order-summaries' | 'sold-item-summaries' | 'service-fee-summaries' | 'admin-performance-summaries';

const EXPORTS = { type: 'OrderExport' as const, id: 'LIST' };

export const reportsApi = enhancedApi
  .enhanceEndpoints({
    addTagTypes: ['OrderExport'],
    endpoints: { exportStockMovements: { invalidatesTags: [EXPORTS] } },
  })
  .injectEndpoints({
    endpoints: (build) => ({
      /** `POST /order-reports/{kind}/export-excel[/{table}]`. */
      exportSummary: build.mutation<ExportBody, { kind: SummaryKind; table?: string; body: SummaryExportInput }>({
        query: ({ kind, table, body }) => ({
          url: `/order-reports/${kind}/export-excel${table ? `/${encodeURIComponent(table)}` : ''}`,
          method: 'POST',
          body,
        }),
        invalidatesTags: [EXPORTS],
      }),
    }),
  });

export const { useOrderSummariesQuery, useSalesChartQuery, useChannelsChartQuery, useChannelTableQuery, useSoldItemSummariesQuery, useSoldItemTableQuery, useTopAreasQuery, useCustomerSummariesQuery, useMovementHistoriesQuery, useStateTableQuery, useAdminPerformanceQuery, useStockReportQuery, useServiceFeeSummariesQuery, useExportSummaryMutation, useLazyExportDownloadUrlQuery, useExportStockMovementsMutation } =
  reportsApi;
import type { ListMovementReportRow, ListSoldItemBody } from './endpoints.gen';
export type { AreaRowBody, ChannelRowBody, CustomerSummaryBody, FeeTotalsBody, OrderSummaryBody, SalesTotalsBody, ServiceFeeSummaryBody, StaffRowBody, StateSalesBody, StockRowBody, WarehouseFeesBody } from './endpoints.gen';
/** A SKU's sales in the period, beside the period before. */
export type SoldItemBody = ListSoldItemBody['data'][number];
/** One stock movement of the movements report. */
export type MovementReportRow = ListMovementReportRow['data'][number];
