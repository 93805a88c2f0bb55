// Hand-written side of the generated client: how fresh the dashboards are kept.
import { enhancedApi } from './endpoints.gen';

export { DASHBOARDS } from '../access';

/** How often an open dashboard asks again: an order placed elsewhere shows within seconds. */
export const REFRESH_MS = 2_000;

export const reportsApi = enhancedApi;

export const { useOrderSummariesQuery, useSalesChartQuery, useChannelsChartQuery, useChannelTableQuery, useSoldItemSummariesQuery, useSoldItemTableQuery, useTopAreasQuery, useCustomerSummariesQuery, useMovementHistoriesQuery, useStateTableQuery, useAdminPerformanceQuery, useStockReportQuery, useServiceFeeSummariesQuery } =
  reportsApi;
import type { ListMovementReportRow, ListSoldItemBody } from './endpoints.gen';
export type { AreaRowBody, ChannelRowBody, CustomerSummaryBody, FeeTotalsBody, OrderSummaryBody, SalesTotalsBody, ServiceFeeSummaryBody, StaffRowBody, StateSalesBody, StockRowBody, WarehouseFeesBody } from './endpoints.gen';
/** A SKU's sales in the period, beside the period before. */
export type SoldItemBody = ListSoldItemBody['data'][number];
/** One stock movement of the movements report. */
export type MovementReportRow = ListMovementReportRow['data'][number];
