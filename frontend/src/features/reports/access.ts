// Who may open the dashboards and the reports, apart from the API client so the routes stay
// light.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';

/** Dashboards are the owner's (SPEC §6), as the gateway decides it. */
export const DASHBOARDS: Access = { roles: ['owner'] };

/** The order report follows the orders' read right; the movements report the stock's. */
export const ORDER_REPORT: Access = { permissions: [P.orderOrderRead] };
export const MOVEMENT_REPORT: Access = { permissions: [P.productSkuRead] };
/** The reports: whoever may read one of them. */
export const REPORTS: Access = { permissions: [P.orderOrderRead, P.productSkuRead] };
