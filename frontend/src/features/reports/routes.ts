// The owner's dashboards (SPEC §2 Dashboards, owner only): the overview at /dashboard, in
// the Overviews group after getting started; the others are its tabs. The reports (SPEC §2
// Reports) follow it: /report opens the first its reader may read; the others are its tabs.
import type { FeatureRoute } from '@/shared/routes';
import { DASHBOARDS, MOVEMENT_REPORT, ORDER_REPORT, REPORTS } from './access';

export const ROUTES: FeatureRoute[] = [
  {
    path: 'dashboard',
    layout: 'default',
    access: DASHBOARDS,
    menu: { group: 'overviews', label: 'menu.dashboard', order: 20 },
    page: () => import('./DashboardPage'),
  },
  { path: 'dashboard/statistic', layout: 'default', access: DASHBOARDS, page: () => import('./StatisticPage') },
  { path: 'dashboard/sale-channel', layout: 'default', access: DASHBOARDS, page: () => import('./ChannelsPage') },
  { path: 'dashboard/sale-product', layout: 'default', access: DASHBOARDS, page: () => import('./ProductsPage') },
  { path: 'dashboard/sale-order', layout: 'default', access: DASHBOARDS, page: () => import('./OrdersPage') },
  { path: 'dashboard/customer', layout: 'default', access: DASHBOARDS, page: () => import('./CustomersPage') },
  { path: 'dashboard/customer-area', layout: 'default', access: DASHBOARDS, page: () => import('./AreasPage') },
  { path: 'dashboard/service-fee', layout: 'default', access: DASHBOARDS, page: () => import('./ServiceFeePage') },
  {
    path: 'report',
    layout: 'default',
    access: REPORTS,
    menu: { group: 'overviews', label: 'menu.report', order: 30 },
    page: () => import('./ReportFrame'),
  },
  { path: 'report/order', layout: 'default', access: ORDER_REPORT, page: () => import('./OrderReportPage') },
  { path: 'report/stock', layout: 'default', access: MOVEMENT_REPORT, page: () => import('./StockReportPage') },
  { path: 'report/movement', layout: 'default', access: MOVEMENT_REPORT, page: () => import('./MovementsReportPage') },
  { path: 'report/sales', layout: 'default', access: DASHBOARDS, page: () => import('./SalesReportPage') },
  { path: 'report/staff', layout: 'default', access: DASHBOARDS, page: () => import('./StaffReportPage') },
];
