// What the dashboards' screen tests share: sales totals as the API answers them, the channel
// list, and every dashboard mounted at its route with the address shown.
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { signedInStore } from '@/shared/testing/session';
import AreasPage from './AreasPage';
import ChannelsPage from './ChannelsPage';
import CustomersPage from './CustomersPage';
import DashboardPage from './DashboardPage';
import OrdersPage from './OrdersPage';
import ProductsPage from './ProductsPage';
import ServiceFeePage from './ServiceFeePage';
import StatisticPage from './StatisticPage';

/** A `SalesTotalsBody` of `orders` orders selling `net`, two units each, at no cost. */
export const totals = (orders: number, net: string, extra: Record<string, unknown> = {}) => ({
  orders,
  cancelled: 0,
  units: orders * 2,
  net,
  total: net,
  net_ex_vat: net,
  cost: '0.00',
  profit: net,
  average: orders ? (Number(net) / orders).toFixed(2) : '0.00',
  shipping: '0.00',
  ...extra,
});

/** `GET /orders/channels`: Facebook and LINE. */
export const CHANNEL_LIST = {
  status: 200,
  body: {
    data: [
      { code: 'facebook', kind: 'social_commerce', name_th: 'เฟซบุ๊ก', name_en: 'Facebook' },
      { code: 'line', kind: 'social_commerce', name_th: 'ไลน์', name_en: 'LINE' },
    ],
    total: 2,
    limit: -1,
    page: 1,
    pages: 1,
  },
};

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

/** Every dashboard at its route, opened at `path`, the owner signed in; the address is in
 * `where`. */
export function renderDashboardAt(path: string) {
  render(
    <Provider store={signedInStore('owner')}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/dashboard" element={<DashboardPage />} />
          <Route path="/:storeId/dashboard/statistic" element={<StatisticPage />} />
          <Route path="/:storeId/dashboard/sale-channel" element={<ChannelsPage />} />
          <Route path="/:storeId/dashboard/sale-product" element={<ProductsPage />} />
          <Route path="/:storeId/dashboard/sale-order" element={<OrdersPage />} />
          <Route path="/:storeId/dashboard/customer" element={<CustomersPage />} />
          <Route path="/:storeId/dashboard/customer-area" element={<AreasPage />} />
          <Route path="/:storeId/dashboard/service-fee" element={<ServiceFeePage />} />
        </Routes>
        <Where />
        <DialogHost />
      </MemoryRouter>
    </Provider>,
  );
}
