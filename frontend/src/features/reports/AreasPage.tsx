import { Empty, Segmented, Table } from 'antd';
import { useTranslation } from 'react-i18next';

import { countryName } from '@/shared/address/countries';
import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useTopAreasQuery, type AreaRowBody } from './api';
import { amount, percent } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, Moved, usePeriodParams } from './DashboardFrame';
import { Ranked } from './SalesCharts';

export const AREA_KINDS = ['province', 'district', 'country', 'city'] as const;
export type AreaKind = (typeof AREA_KINDS)[number];
const kindOf = (v: string | null): AreaKind => ((AREA_KINDS as readonly string[]).includes(v ?? '') ? (v as AreaKind) : 'province');

/** An area's name as a person reads it: a country by its name in `lng`, a district with its
 * province, a city with its country. */
export function areaName(kind: AreaKind, a: { name: string; parent: string }, lng: string): string {
  if (kind === 'country') return countryName(a.name, lng);
  if (kind === 'city') return a.parent ? `${a.name}, ${countryName(a.parent, lng)}` : a.name;
  if (kind === 'district') return a.parent ? `${a.name}, ${a.parent}` : a.name;
  return a.name;
}

/** /dashboard/customer-area (SPEC §2 Dashboards, owner only): where the period's orders went:
 * the top 10 provinces, districts, countries or cities (`?kind=`) by sales, each with its
 * orders and its share, beside the period before. */
export default function AreasPage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go, params } = usePeriodParams();
  const kind = kindOf(params.get('kind'));
  const areas = useTopAreasQuery({ period, date, kind }, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  const data = areas.data;
  const total = amount(data?.current.net);
  const rows = data?.areas ?? [];

  return (
    <DashboardFrame
      tab="customerArea"
      title={t('tabs.customerArea')}
      testId="customer-area"
      at={{ period, date, go: (p, d) => go(p, d, { kind }) }}
      {...together(areas)}
      {...dated(data)}
    >
      {data && (
        <>
          <FigureRow>
            {[
              <FigureCard key="areas" testId="figure-areas" label={t(`areas.count.${kind}`)} now={data.current.areas} before={data.previous.areas} money={false} />,
              <FigureCard key="orders" testId="figure-orders" label={t('figures.orders')} now={data.current.orders} before={data.previous.orders} money={false} />,
              <FigureCard key="net" testId="figure-net" label={t('figures.net')} now={total} before={amount(data.previous.net)} money />,
            ]}
          </FigureRow>
          <div style={{ marginTop: 12 }}>
            <ChartOrTable
              title={t(`areas.top.${kind}`)}
              testId="top-areas"
              beside
              extra={
                <Segmented
                  size="small"
                  value={kind}
                  onChange={(v) => go(period, date, { kind: String(v) })}
                  options={AREA_KINDS.map((k) => ({ value: k, label: t(`areas.kinds.${k}`) }))}
                  data-testid="kind"
                />
              }
              chart={rows.length === 0 ? <Empty description={t('empty')} /> : <Ranked items={rows.map((a) => ({ label: areaName(kind, a, lng), net: amount(a.net) }))} />}
              table={
                <Table<AreaRowBody>
                  size="small"
                  rowKey={(a) => `${a.name}|${a.parent}`}
                  pagination={false}
                  scroll={{ x: true }}
                  dataSource={rows}
                  locale={{ emptyText: t('empty') }}
                  columns={[
                    { title: '#', key: 'rank', width: 40, render: (_: unknown, _a, i) => i + 1 },
                    { title: t(`areas.kinds.${kind}`), key: 'name', render: (_: unknown, a) => <span data-testid={`area-${a.name}`}>{areaName(kind, a, lng)}</span> },
                    { title: t('figures.orders'), dataIndex: 'orders', align: 'right', render: (v: number) => v.toLocaleString('en-US') },
                    { title: t('figures.net'), dataIndex: 'net', align: 'right', render: (v: string) => formatBaht(v) },
                    { title: t('share'), key: 'share', align: 'right', render: (_: unknown, a) => (total > 0 ? `${percent(amount(a.net) / total)}%` : '–') },
                    {
                      title: t('changed'),
                      key: 'change',
                      align: 'right',
                      render: (_: unknown, a) => <Moved now={amount(a.net)} before={amount(a.previousNet)} />,
                    },
                  ]}
                />
              }
            />
          </div>
        </>
      )}
    </DashboardFrame>
  );
}
