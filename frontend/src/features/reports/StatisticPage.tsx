import { useMemo } from 'react';
import { Segmented, Table } from 'antd';
import { useTranslation } from 'react-i18next';

import { REFRESH_MS, useSalesChartQuery, type SalesTotalsBody } from './api';
import { amount, pointLabel } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, Moved, shownValue, usePeriodParams } from './DashboardFrame';
import { ComparedOverTime } from './SalesCharts';
import { ExportButton } from './ExportButton';

const FIGURES = ['net', 'orders', 'average', 'profit', 'units', 'cancelled'] as const;
type Figure = (typeof FIGURES)[number];
const MONEY: readonly Figure[] = ['net', 'average', 'profit'];

const figureOf = (v: string | null): Figure => ((FIGURES as readonly string[]).includes(v ?? '') ? (v as Figure) : 'net');

function valueOf(t: SalesTotalsBody | undefined, f: Figure): number {
  if (!t) return 0;
  switch (f) {
    case 'net':
    case 'average':
    case 'profit':
      return amount(t[f]);
    default:
      return Number(t[f]);
  }
}

/** The sum of a figure over points; the average is the period's own (net over orders). */
function totalOf(list: (SalesTotalsBody | undefined)[], f: Figure): number {
  if (f === 'average') {
    const orders = list.reduce((n, t) => n + (t?.orders ?? 0), 0);
    const net = list.reduce((n, t) => n + amount(t?.net), 0);
    return orders ? Math.round((net / orders) * 100) / 100 : 0;
  }
  const sum = list.reduce((n, t) => n + valueOf(t, f), 0);
  return MONEY.includes(f) ? Math.round(sum * 100) / 100 : sum;
}

/** /dashboard/statistic (SPEC §2 Dashboards, owner only): one figure of the period (sales,
 * orders, the average order, gross profit, units or cancellations, `?figure=`) over time,
 * point by point beside the period before's, with every point in a table. */
export default function StatisticPage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go, params } = usePeriodParams();
  const figure = figureOf(params.get('figure'));
  const chart = useSalesChartQuery({ period, date }, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  const data = chart.data;
  const bucket = data?.bucket ?? 'day';

  const rows = useMemo(
    () =>
      (data?.points ?? []).map((p) => ({
        start: p.start,
        label: pointLabel(p.start, bucket, lng),
        previousLabel: p.previousStart ? pointLabel(p.previousStart, bucket, lng) : '–',
        current: valueOf(p.current[0]?.totals, figure),
        previous: p.previousStart ? valueOf(p.previous[0]?.totals, figure) : null,
      })),
    [data, bucket, lng, figure],
  );
  const money = MONEY.includes(figure);
  const now = totalOf((data?.points ?? []).map((p) => p.current[0]?.totals), figure);
  const before = totalOf((data?.points ?? []).map((p) => p.previous[0]?.totals), figure);

  return (
    <DashboardFrame
      tab="statistic"
      title={t('tabs.statistic')}
      testId="statistic"
      at={{ period, date, go: (p, d) => go(p, d, { figure }) }}
      actions={<ExportButton kind="order-summaries" tables={['daily']} at={{ period, date }} />}
      {...together(chart)}
      {...dated(data)}
    >
      <FigureRow>
        {[
          <FigureCard
            key="figure"
            testId="figure-total"
            label={t(`figures.${figure}`)}
            now={now}
            before={before}
            money={money}
            lowerIsBetter={figure === 'cancelled'}
          />,
        ]}
      </FigureRow>
      <div style={{ marginTop: 12 }}>
        <ChartOrTable
          title={t('blocks.compared', { figure: t(`figures.${figure}`) })}
          testId="compared"
          extra={
            <Segmented
              size="small"
              value={figure}
              onChange={(v) => go(period, date, { figure: String(v) })}
              options={FIGURES.map((f) => ({ value: f, label: t(`figures.${f}`) }))}
              data-testid="figure"
            />
          }
          chart={<ComparedOverTime points={rows} money={money} currentLabel={t('thisPeriod')} previousLabel={t('previousPeriod')} />}
          table={
            <Table
              size="small"
              rowKey="start"
              pagination={false}
              scroll={{ y: 360 }}
              dataSource={rows}
              columns={[
                { title: t(`point.${bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label' },
                { title: t('thisPeriod'), dataIndex: 'current', align: 'right', render: (v: number) => shownValue(money, v) },
                { title: t('previousPoint'), dataIndex: 'previousLabel' },
                { title: t('previousPeriod'), dataIndex: 'previous', align: 'right', render: (v: number | null) => (v === null ? '–' : shownValue(money, v)) },
                {
                  title: t('changed'),
                  key: 'change',
                  align: 'right',
                  render: (_: unknown, r) => (r.previous === null ? '–' : <Moved now={r.current} before={r.previous} lowerIsBetter={figure === 'cancelled'} />),
                },
              ]}
            />
          }
        />
      </div>
    </DashboardFrame>
  );
}
