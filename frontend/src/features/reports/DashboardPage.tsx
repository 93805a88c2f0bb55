import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Card, Col, DatePicker, Empty, Row, Segmented, Skeleton, Table, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { useOrderChannelsQuery } from '@/features/orders/api';
import { eraLocale } from '@/shared/form/EraDatePicker';
import { formatDateTime, thailandToday } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useOrderSummariesQuery, type OrderSummaryBody, type SalesTotalsBody } from './api';
import { amount, change, dayParam, periodLabel, periodOf, pickerOf, pointLabel, PERIODS, type Period } from './dashboard';
import { ByChannel, COLORS, OverTime } from './SalesCharts';

type Figure = 'net' | 'orders' | 'average' | 'profit' | 'cancelled';
const FIGURES: Figure[] = ['net', 'orders', 'average', 'profit', 'cancelled'];
const MONEY: Figure[] = ['net', 'average', 'profit'];

const valueOf = (t: SalesTotalsBody | undefined, f: Figure): number =>
  !t ? 0 : MONEY.includes(f) ? amount(t[f as 'net' | 'average' | 'profit']) : Number(t[f as 'orders' | 'cancelled']);

const shown = (f: Figure, v: number) => (MONEY.includes(f) ? formatBaht(v) : v.toLocaleString('en-US'));

/** One figure of the period, beside the period before and how it moved. */
function FigureCard({ figure, data }: { figure: Figure; data: OrderSummaryBody }) {
  const { t } = useTranslation('reports');
  const now = valueOf(data.current, figure);
  const before = valueOf(data.previous, figure);
  const moved = change(now, before);
  // Fewer cancellations are the good news.
  const good = moved === null ? null : figure === 'cancelled' ? moved <= 0 : moved >= 0;
  return (
    <Card size="small" data-testid={`figure-${figure}`}>
      <Typography.Text type="secondary">{t(`figures.${figure}`)}</Typography.Text>
      <div style={{ fontSize: 24, fontWeight: 600 }} data-testid={`figure-${figure}-value`}>
        {shown(figure, now)}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {moved === null ? (
          t('compare.none')
        ) : (
          <span style={{ color: good ? '#389e0d' : '#cf1322' }} data-testid={`figure-${figure}-change`}>
            {moved >= 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {Math.abs(moved).toLocaleString('en-US')}%
          </span>
        )}{' '}
        {t('compare.before', { value: shown(figure, before) })}
      </Typography.Text>
    </Card>
  );
}

/** A block that shows a chart or, for those who would rather read, its table; `beside` keeps
 * the table in sight next to the chart on a wide screen. */
function ChartOrTable({ title, testId, chart, table, beside = false }: { title: string; testId: string; chart: ReactNode; table: ReactNode; beside?: boolean }) {
  const { t } = useTranslation('reports');
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <Card
      title={title}
      data-testid={testId}
      extra={
        <Segmented
          size="small"
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          options={[
            { value: 'chart', label: t('view.chart') },
            { value: 'table', label: t('view.table') },
          ]}
          data-testid={`${testId}-view`}
        />
      }
    >
      {view === 'chart' && beside ? (
        <Row gutter={16} align="middle">
          <Col xs={24} md={10}>
            {chart}
          </Col>
          <Col xs={24} md={14}>
            {table}
          </Col>
        </Row>
      ) : view === 'chart' ? (
        <>
          {chart}
          {/* The chart's figures for screen readers. */}
          <div className="bo-sr-only">{table}</div>
        </>
      ) : (
        table
      )}
    </Card>
  );
}

/** /dashboard (SPEC §2 Dashboards, owner only): a period's sales (daily, monthly, quarterly or
 * yearly, `?period=&date=`) beside the period before: net, orders, the average order, gross
 * profit and cancellations; sales over time; sales by channel; the orders' states; the
 * best-selling SKUs. It asks again every few seconds, so an order placed elsewhere shows. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation(['reports', 'orders', 'common']);
  const lng = i18n.language;
  const [params, setParams] = useSearchParams();
  const period = periodOf(params.get('period'));
  const date = dayParam(params.get('date')) ?? thailandToday().format('YYYY-MM-DD');
  const { data, isLoading, isError, refetch } = useOrderSummariesQuery(
    { period, date },
    { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true },
  );
  const { data: channels } = useOrderChannelsQuery();
  const channelLabel = (code: string) => {
    const c = channels?.data.find((x) => x.code === code);
    return c ? (lng === 'th' ? c.nameTh : c.nameEn) : code;
  };
  const go = (p: Period, d: string) => setParams({ period: p, date: d }, { replace: true });

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
    <div data-testid="dashboard">
      <div className="bo-page-head">
        <h1>{t('reports:title')}</h1>
        <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
          <Segmented
            value={period}
            onChange={(v) => go(v as Period, date)}
            options={PERIODS.map((p) => ({ value: p, label: t(`reports:periods.${p}`) }))}
            data-testid="period"
          />
          <DatePicker
            picker={pickerOf(period)}
            value={dayjs(date)}
            allowClear={false}
            locale={eraLocale(lng)}
            format={(d: Dayjs) => periodLabel(period, d.format('YYYY-MM-DD'), lng)}
            onChange={(d: Dayjs | null) => d && go(period, d.format('YYYY-MM-DD'))}
            aria-label={t('reports:pickPeriod')}
            data-testid="period-date"
          />
        </div>
      </div>
      {isError ? (
        <Alert type="error" showIcon title={t('reports:failed')} action={<a onClick={() => void refetch()}>{t('reports:retry')}</a>} />
      ) : isLoading || !data ? (
        <Skeleton active />
      ) : (
        <>
          <Typography.Paragraph type="secondary" data-testid="period-label">
            {t('reports:periodOf', {
              period: periodLabel(period, data.dateFrom, lng),
              previous: periodLabel(period, data.previousFrom, lng),
            })}{' '}
            ·{' '}
            <span data-testid="updated-at">
              {data.updatedAt ? t('reports:updatedAt', { at: formatDateTime(data.updatedAt, lng) }) : t('reports:neverUpdated')}
            </span>
          </Typography.Paragraph>
          <Row gutter={[12, 12]}>
            {FIGURES.map((f) => (
              <Col key={f} xs={12} md={8} xl={4} flex="auto">
                <FigureCard figure={f} data={data} />
              </Col>
            ))}
          </Row>
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
                        render: (_: unknown, c) => (totalNet > 0 ? `${Math.round((amount(c.totals.net) / totalNet) * 1000) / 10}%` : '–'),
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
    </div>
  );
}
