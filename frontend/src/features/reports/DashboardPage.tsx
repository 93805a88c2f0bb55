import { useMemo } from 'react';
import { Card, Col, Empty, Row, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useOrderSummariesQuery, type SalesTotalsBody } from './api';
import { amount, percent, pointLabel } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, useChannelLabel, usePeriodParams } from './DashboardFrame';
import { ByChannel, COLORS, OverTime } from './SalesCharts';
import { ExportButton } from './ExportButton';

type Figure = 'net' | 'orders' | 'average' | 'profit' | 'cancelled';
const FIGURES: Figure[] = ['net', 'orders', 'average', 'profit', 'cancelled'];
const MONEY: Figure[] = ['net', 'average', 'profit'];

const valueOf = (t: SalesTotalsBody | undefined, f: Figure): number =>
  !t ? 0 : MONEY.includes(f) ? amount(t[f as 'net' | 'average' | 'profit']) : Number(t[f as 'orders' | 'cancelled']);

/** /dashboard (SPEC §2 Dashboards, owner only): a period's sales (daily, monthly, quarterly or
 * yearly, `?period=&date=`) beside the period before: net, orders, the average order, gross
 * profit and cancellations; sales over time; sales by channel; the orders' states; the
 * best-selling SKUs. It asks again every few seconds, so an order placed elsewhere shows. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation(['reports', 'orders', 'common']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const summary = useOrderSummariesQuery(
    { period, date },
    { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true },
  );
  const data = summary.data;
  const channelLabel = useChannelLabel();

  const points = useMemo(
    () =>
      (data?.series ?? []).map((p) => ({
        label: pointLabel(p.start, data?.bucket ?? 'day', lng),
        start: p.start,
        net: amount(p.totals.net),
        orders: p.totals.orders,
      })),
    [data, lng],
  );
  const totalNet = amount(data?.current.net);

  return (
    <DashboardFrame
      tab="overview"
      title={t('reports:title')}
      testId="dashboard"
      at={{ period, date, go }}
      actions={<ExportButton kind="order-summaries" tables={['daily', 'channels', 'states']} at={{ period, date }} />}
      {...together(summary)}
      {...dated(data)}
    >
      {data && (
        <>
          <FigureRow>
            {FIGURES.map((f) => (
              <FigureCard
                key={f}
                testId={`figure-${f}`}
                label={t(`reports:figures.${f}`)}
                now={valueOf(data.current, f)}
                before={valueOf(data.previous, f)}
                money={MONEY.includes(f)}
                lowerIsBetter={f === 'cancelled'}
              />
            ))}
          </FigureRow>
          <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
            <Col xs={24}>
              <ChartOrTable
                title={t('reports:blocks.overTime')}
                testId="over-time"
                chart={<OverTime points={points} netLabel={t('reports:figures.net')} ordersLabel={t('reports:figures.orders')} />}
                table={
                  <Table
                    size="small"
                    rowKey="start"
                    pagination={false}
                    scroll={{ y: 320 }}
                    dataSource={points}
                    columns={[
                      { title: t(`reports:point.${data.bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label' },
                      { title: t('reports:figures.orders'), dataIndex: 'orders', align: 'right' },
                      { title: t('reports:figures.net'), dataIndex: 'net', align: 'right', render: (v: number) => formatBaht(v) },
                    ]}
                  />
                }
              />
            </Col>
            <Col xs={24} lg={14}>
              <ChartOrTable
                title={t('reports:blocks.byChannel')}
                testId="by-channel"
                beside
                chart={
                  data.channels.length === 0 ? (
                    <Empty description={t('reports:empty')} />
                  ) : (
                    <ByChannel slices={data.channels.map((c) => ({ label: channelLabel(c.channel), net: amount(c.totals.net) }))} />
                  )
                }
                table={
                  <Table
                    size="small"
                    rowKey="channel"
                    pagination={false}
                    dataSource={data.channels}
                    locale={{ emptyText: t('reports:empty') }}
                    columns={[
                      {
                        title: t('reports:channel'),
                        key: 'channel',
                        render: (_: unknown, c, i) => (
                          <span data-testid={`channel-${c.channel}`}>
                            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: COLORS[i % COLORS.length], marginRight: 6 }} />
                            {channelLabel(c.channel)}
                          </span>
                        ),
                      },
                      { title: t('reports:figures.orders'), key: 'orders', align: 'right', render: (_: unknown, c) => c.totals.orders },
                      { title: t('reports:figures.net'), key: 'net', align: 'right', render: (_: unknown, c) => formatBaht(c.totals.net) },
                      {
                        title: t('reports:share'),
                        key: 'share',
                        align: 'right',
                        render: (_: unknown, c) => (totalNet > 0 ? `${percent(amount(c.totals.net) / totalNet)}%` : '–'),
                      },
                    ]}
                  />
                }
              />
            </Col>
            <Col xs={24} lg={10}>
              <Card title={t('reports:blocks.states')} data-testid="states">
                {data.states.length === 0 ? (
                  <Empty description={t('reports:empty')} />
                ) : (
                  <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {data.states.map((s) => (
                      <li key={s.state} data-testid={`state-${s.state}`} style={{ display: 'flex', justifyContent: 'space-between', padding: '6px 0' }}>
                        <Tag>{t(`orders:states.${s.state}`)}</Tag>
                        <strong>{s.orders.toLocaleString('en-US')}</strong>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
            </Col>
            <Col xs={24}>
              <Card title={t('reports:blocks.products')} data-testid="products">
                <Table
                  size="small"
                  rowKey="skuId"
                  pagination={false}
                  dataSource={data.products}
                  locale={{ emptyText: t('reports:empty') }}
                  columns={[
                    { title: '#', key: 'rank', width: 48, render: (_: unknown, _p, i) => i + 1 },
                    {
                      title: t('reports:product'),
                      key: 'name',
                      render: (_: unknown, p) => (
                        <span data-testid={`product-${p.skuId}`}>
                          {p.productName}
                          {p.variant ? ` · ${p.variant}` : ''}
                          <br />
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {p.skuCode}
                          </Typography.Text>
                        </span>
                      ),
                    },
                    { title: t('reports:totalQty'), dataIndex: 'totalQty', align: 'right' },
                    { title: t('reports:totalNet'), dataIndex: 'totalNet', align: 'right', render: (v: string) => formatBaht(v) },
                    { title: t('reports:figures.profit'), dataIndex: 'profit', align: 'right', render: (v: string) => formatBaht(v) },
                  ]}
                />
              </Card>
            </Col>
          </Row>
        </>
      )}
    </DashboardFrame>
  );
}
