import { useMemo } from 'react';
import { Card, Col, Empty, Progress, Row, Table } from 'antd';
import { useTranslation } from 'react-i18next';

import { REFRESH_MS, useOrderSummariesQuery, useSalesChartQuery } from './api';
import { percent, pointLabel } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, usePeriodParams } from './DashboardFrame';
import { BarsOverTime, COLORS } from './SalesCharts';
import { ExportButton } from './ExportButton';

/** Cancelled orders as a share of those placed, in percent (0 without orders). */
export function cancelRate(orders: number, cancelled: number): number {
  return orders > 0 ? percent(cancelled / orders) : 0;
}

/** /dashboard/sale-order (SPEC §2 Dashboards, owner only): the period's orders beside the
 * period before (placed, cancelled, the cancellation rate, the average order), orders placed
 * and cancelled over time, and where the period's orders stand now, state by state. */
export default function OrdersPage() {
  const { t, i18n } = useTranslation(['reports', 'orders']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const poll = { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true };
  const summary = useOrderSummariesQuery({ period, date, top: 1 }, poll);
  const chart = useSalesChartQuery({ period, date }, poll);
  const data = summary.data;

  const rows = useMemo(
    () =>
      (chart.data?.points ?? []).map((p) => ({
        start: p.start,
        label: pointLabel(p.start, chart.data?.bucket ?? 'day', lng),
        placed: p.current[0]?.totals.orders ?? 0,
        cancelled: p.current[0]?.totals.cancelled ?? 0,
      })),
    [chart.data, lng],
  );
  const inStates = (data?.states ?? []).reduce((n, s) => n + s.orders, 0);

  return (
    <DashboardFrame
      tab="saleOrder"
      title={t('reports:tabs.saleOrder')}
      testId="sale-order"
      at={{ period, date, go }}
      actions={<ExportButton kind="order-summaries" tables={['states']} at={{ period, date }} />}
      {...together(summary, chart)}
      {...dated(data)}
    >
      {data && (
        <>
          <FigureRow>
            {[
              <FigureCard key="orders" testId="figure-orders" label={t('reports:figures.orders')} now={data.current.orders} before={data.previous.orders} money={false} />,
              <FigureCard key="cancelled" testId="figure-cancelled" label={t('reports:figures.cancelled')} now={data.current.cancelled} before={data.previous.cancelled} money={false} lowerIsBetter />,
              <FigureCard
                key="rate"
                testId="figure-rate"
                label={t('reports:figures.cancelRate')}
                now={cancelRate(data.current.orders, data.current.cancelled)}
                before={cancelRate(data.previous.orders, data.previous.cancelled)}
                money={false}
                lowerIsBetter
                suffix="%"
              />,
              <FigureCard key="units" testId="figure-units" label={t('reports:figures.units')} now={data.current.units} before={data.previous.units} money={false} />,
            ]}
          </FigureRow>
          <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
            <Col xs={24} xl={15}>
              <ChartOrTable
                title={t('reports:blocks.ordersOverTime')}
                testId="orders-over-time"
                chart={
                  <BarsOverTime
                    testId="chart-orders"
                    money={false}
                    rows={rows}
                    series={[
                      { key: 'placed', label: t('reports:placed'), color: COLORS[0] },
                      { key: 'cancelled', label: t('reports:cancelledOn'), color: '#cf1322' },
                    ]}
                  />
                }
                table={
                  <Table
                    size="small"
                    rowKey="start"
                    pagination={false}
                    scroll={{ y: 360 }}
                    dataSource={rows}
                    columns={[
                      { title: t(`reports:point.${chart.data?.bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label' },
                      { title: t('reports:placed'), dataIndex: 'placed', align: 'right' },
                      { title: t('reports:cancelledOn'), dataIndex: 'cancelled', align: 'right' },
                    ]}
                  />
                }
              />
            </Col>
            <Col xs={24} xl={9}>
              <Card title={t('reports:blocks.states')} data-testid="states">
                {data.states.length === 0 ? (
                  <Empty description={t('reports:empty')} />
                ) : (
                  <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {data.states.map((s) => {
                      const share = inStates > 0 ? percent(s.orders / inStates) : 0;
                      return (
                        <li key={s.state} data-testid={`state-${s.state}`} style={{ padding: '6px 0' }}>
                          <div style={{ display: 'flex', justifyContent: 'space-between' }}>
                            <span>{t(`orders:states.${s.state}`)}</span>
                            <span>
                              <strong>{s.orders.toLocaleString('en-US')}</strong> · {share}%
                            </span>
                          </div>
                          <Progress percent={share} showInfo={false} size="small" strokeColor={s.state === 'cancelled' || s.state === 'failed' ? '#cf1322' : COLORS[0]} aria-label={`${t(`orders:states.${s.state}`)} ${share}%`} />
                        </li>
                      );
                    })}
                  </ul>
                )}
              </Card>
            </Col>
          </Row>
        </>
      )}
    </DashboardFrame>
  );
}
