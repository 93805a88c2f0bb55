// Hand-written side of the generated client: how fresh the dashboards are kept.
import { enhancedApi } from './endpoints.gen';

export { DASHBOARDS } from '../access';

/** How often an open dashboard asks again: an order placed elsewhere shows within seconds. */
export const REFRESH_MS = 2_000;

export const reportsApi = enhancedApi;

export const { useOrderSummariesQuery } = reportsApi;
export type { OrderSummaryBody, SalesTotalsBody } from './endpoints.gen';
