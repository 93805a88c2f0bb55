import { useMemo } from 'react';
import { Card, Empty, Table } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useChannelsChartQuery, useChannelTableQuery, type ChannelRowBody } from './api';
import { amount, percent, pointLabel } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, Moved, useChannelLabel, usePeriodParams } from './DashboardFrame';
import { BarsOverTime, COLORS } from './SalesCharts';
import { ExportButton } from './ExportButton';

/** /dashboard/sale-channel (SPEC §2 Dashboards, owner only): each channel's sales over the
 * period, stacked over time, and a table of every channel (orders, units, sales, the average
 * order, gross profit, its share) beside the period before. */
export default function ChannelsPage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const poll = { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true };
  const table = useChannelTableQuery({ period, date }, poll);
  const chart = useChannelsChartQuery({ period, date }, poll);
  const channelLabel = useChannelLabel();
  const data = table.data;
  const totalNet = amount(data?.current.net);

  // One row per point, one number per channel: what the stacked bars and their table read.
  const stacked = useMemo(() => {
    const c = chart.data;
    if (!c) return { rows: [], series: [] };
    const series = c.channels.map((code) => ({ key: `c_${code}`, label: channelLabel(code) }));
    const rows = c.points.map((p) => {
      const row: Record<string, number | string> = { start: p.start, label: pointLabel(p.start, c.bucket, lng) };
      p.current.forEach((e) => {
        row[`c_${e.channel}`] = amount(e.totals.net);
      });
      return row;
    });
    return { rows, series };
  }, [chart.data, channelLabel, lng]);

  return (
    <DashboardFrame
      tab="saleChannel"
      title={t('tabs.saleChannel')}
      testId="sale-channel"
      at={{ period, date, go }}
      actions={<ExportButton kind="order-summaries" tables={['channels']} at={{ period, date }} />}
      {...together(table, chart)}
      {...dated(data)}
    >
      {data && (
        <>
          <FigureRow>
            {[
              <FigureCard key="channels" testId="figure-channels" label={t('figures.channels')} now={data.channels.filter((c) => c.current.orders > 0 || amount(c.current.net) !== 0).length} before={data.channels.filter((c) => c.previous.orders > 0 || amount(c.previous.net) !== 0).length} money={false} />,
              <FigureCard key="net" testId="figure-net" label={t('figures.net')} now={amount(data.current.net)} before={amount(data.previous.net)} money />,
              <FigureCard key="orders" testId="figure-orders" label={t('figures.orders')} now={data.current.orders} before={data.previous.orders} money={false} />,
            ]}
          </FigureRow>
          <div style={{ marginTop: 12 }}>
            <ChartOrTable
              title={t('blocks.channelsOverTime')}
              testId="channels-over-time"
              chart={stacked.series.length === 0 ? <Empty description={t('empty')} /> : <BarsOverTime rows={stacked.rows} series={stacked.series} stacked />}
              table={
                <Table
                  size="small"
                  rowKey="start"
                  pagination={false}
                  scroll={{ x: true, y: 360 }}
                  dataSource={stacked.rows}
                  locale={{ emptyText: t('empty') }}
                  columns={[
                    { title: t(`point.${chart.data?.bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label', fixed: 'left' },
                    ...stacked.series.map((s) => ({ title: s.label, dataIndex: s.key, align: 'right' as const, render: (v: number) => formatBaht(v ?? 0) })),
                  ]}
                />
              }
            />
          </div>
          <Card title={t('blocks.channels')} data-testid="channels" style={{ marginTop: 12 }}>
            <Table<ChannelRowBody>
              size="small"
              rowKey="channel"
              pagination={false}
              scroll={{ x: true }}
              dataSource={data.channels}
              locale={{ emptyText: t('empty') }}
              columns={[
                {
                  title: t('channel'),
                  key: 'channel',
                  render: (_: unknown, c, i) => (
                    <span data-testid={`channel-${c.channel}`}>
                      <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: COLORS[i % COLORS.length], marginRight: 6 }} />
                      {channelLabel(c.channel)}
                    </span>
                  ),
                },
                { title: t('figures.orders'), key: 'orders', align: 'right', render: (_: unknown, c) => c.current.orders.toLocaleString('en-US') },
                { title: t('figures.units'), key: 'units', align: 'right', render: (_: unknown, c) => c.current.units.toLocaleString('en-US') },
                { title: t('figures.net'), key: 'net', align: 'right', render: (_: unknown, c) => formatBaht(c.current.net) },
                { title: t('figures.average'), key: 'average', align: 'right', render: (_: unknown, c) => formatBaht(c.current.average) },
                { title: t('figures.profit'), key: 'profit', align: 'right', render: (_: unknown, c) => formatBaht(c.current.profit) },
                {
                  title: t('share'),
                  key: 'share',
                  align: 'right',
                  render: (_: unknown, c) => (totalNet > 0 ? `${percent(amount(c.current.net) / totalNet)}%` : '–'),
                },
                { title: t('previousNet'), key: 'previous', align: 'right', render: (_: unknown, c) => formatBaht(c.previous.net) },
                {
                  title: t('changed'),
                  key: 'change',
                  align: 'right',
                  render: (_: unknown, c) => <Moved now={amount(c.current.net)} before={amount(c.previous.net)} testId={`change-${c.channel}`} />,
                },
              ]}
            />
          </Card>
        </>
      )}
    </DashboardFrame>
  );
}
