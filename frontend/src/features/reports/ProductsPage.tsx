import { Card, Col, Empty, Input, Row, Segmented, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useSoldItemSummariesQuery, useSoldItemTableQuery, type SoldItemBody } from './api';
import { amount, percent } from './dashboard';
import { DashboardFrame, dated, together, FigureCard, FigureRow, Moved, usePeriodParams } from './DashboardFrame';
import { Ranked } from './SalesCharts';
import { ExportButton } from './ExportButton';

const SORTS = ['net', 'quantity', 'profit'] as const;
type Sort = (typeof SORTS)[number];
const sortOf = (v: string | null): Sort => ((SORTS as readonly string[]).includes(v ?? '') ? (v as Sort) : 'net');
const pageOf = (v: string | null) => Math.max(1, Math.floor(Number(v)) || 1);

/** The most characters a search holds (as the API reads it). */
const SEARCH_MAX = 100;

/** Gross profit as a share of the net without VAT, one decimal; null without sales. */
export function margin(profit: string, netExVat: string): number | null {
  const base = amount(netExVat);
  return base === 0 ? null : percent(amount(profit) / base);
}

/** /dashboard/sale-product (SPEC §2 Dashboards, owner only): what the period sold, in SKUs,
 * units, sales and gross profit beside the period before, and every SKU sold, searched,
 * sorted and paged (`?search=&sort=&page=`), each beside its own period before, the page's
 * best sellers drawn as bars. */
export default function ProductsPage() {
  const { t } = useTranslation(['reports']);
  const { period, date, go, params } = usePeriodParams();
  const search = (params.get('search') ?? '').slice(0, SEARCH_MAX);
  const sort = sortOf(params.get('sort'));
  const page = pageOf(params.get('page'));
  const keep = (next: Partial<{ search: string; sort: Sort; page: number }>) => {
    const q: Record<string, string> = { sort: next.sort ?? sort, page: String(next.page ?? page) };
    const s = next.search ?? search;
    if (s) q.search = s;
    go(period, date, q);
  };
  const poll = { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true };
  const summary = useSoldItemSummariesQuery({ period, date }, poll);
  const table = useSoldItemTableQuery({ period, date, search: search || undefined, sort, page, limit: 10 }, poll);
  const data = summary.data;
  const rows = table.data?.data ?? [];

  return (
    <DashboardFrame
      tab="saleProduct"
      title={t('tabs.saleProduct')}
      testId="sale-product"
      at={{ period, date, go: (p, d) => go(p, d, { sort }) }}
      actions={<ExportButton kind="sold-item-summaries" tables={['skus']} at={{ period, date }} />}
      {...together(summary, table)}
      {...dated(data)}
    >
      {data && (
        <>
          <FigureRow>
            {[
              <FigureCard key="skus" testId="figure-skus" label={t('figures.skus')} now={data.current.skus} before={data.previous.skus} money={false} />,
              <FigureCard key="units" testId="figure-units" label={t('figures.units')} now={data.current.totalQty} before={data.previous.totalQty} money={false} />,
              <FigureCard key="net" testId="figure-net" label={t('figures.net')} now={amount(data.current.totalNet)} before={amount(data.previous.totalNet)} money />,
              <FigureCard key="profit" testId="figure-profit" label={t('figures.profit')} now={amount(data.current.profit)} before={amount(data.previous.profit)} money />,
            ]}
          </FigureRow>
          <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
            <Col xs={24} xl={16}>
              <Card
                title={t('blocks.soldItems')}
                data-testid="sold-items"
                extra={
                  <Segmented
                    size="small"
                    value={sort}
                    onChange={(v) => keep({ sort: v as Sort, page: 1 })}
                    options={SORTS.map((s) => ({ value: s, label: t(`sorts.${s}`) }))}
                    data-testid="sort"
                  />
                }
              >
                <Input.Search
                  // A new search in the address (back, a shared link) starts the box afresh.
                  key={search}
                  allowClear
                  defaultValue={search}
                  maxLength={SEARCH_MAX}
                  placeholder={t('searchProducts')}
                  aria-label={t('searchProducts')}
                  onSearch={(v) => keep({ search: v.trim(), page: 1 })}
                  style={{ marginBottom: 12, maxWidth: 360 }}
                  data-testid="search"
                />
                <Table<SoldItemBody>
                  size="small"
                  rowKey="skuId"
                  loading={table.isFetching && !table.data}
                  dataSource={rows}
                  scroll={{ x: true }}
                  locale={{ emptyText: search ? t('noMatch') : t('empty') }}
                  pagination={{
                    current: table.data?.page ?? page,
                    pageSize: 10,
                    total: table.data?.total ?? 0,
                    showSizeChanger: false,
                    onChange: (p) => keep({ page: p }),
                  }}
                  columns={[
                    { title: '#', key: 'rank', width: 48, render: (_: unknown, _r, i) => ((table.data?.page ?? 1) - 1) * 10 + i + 1 },
                    {
                      title: t('product'),
                      key: 'name',
                      render: (_: unknown, p) => (
                        <span data-testid={`sold-${p.skuId}`}>
                          {p.productName || p.skuCode}
                          {p.variant ? ` · ${p.variant}` : ''}
                          <br />
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {p.skuCode}
                          </Typography.Text>
                        </span>
                      ),
                    },
                    { title: t('totalQty'), dataIndex: 'totalQty', align: 'right', render: (v: number) => v.toLocaleString('en-US') },
                    { title: t('totalNet'), dataIndex: 'totalNet', align: 'right', render: (v: string) => formatBaht(v) },
                    { title: t('figures.cost'), dataIndex: 'cost', align: 'right', render: (v: string) => formatBaht(v) },
                    { title: t('figures.profit'), dataIndex: 'profit', align: 'right', render: (v: string) => formatBaht(v) },
                    {
                      title: t('margin'),
                      key: 'margin',
                      align: 'right',
                      render: (_: unknown, p) => {
                        const m = margin(p.profit, p.netExVat);
                        return m === null ? '–' : `${m}%`;
                      },
                    },
                    { title: t('previousNet'), dataIndex: 'previousNet', align: 'right', render: (v: string) => formatBaht(v) },
                    {
                      title: t('changed'),
                      key: 'change',
                      align: 'right',
                      render: (_: unknown, p) => <Moved now={amount(p.totalNet)} before={amount(p.previousNet)} testId={`change-${p.skuId}`} />,
                    },
                  ]}
                />
              </Card>
            </Col>
            <Col xs={24} xl={8}>
              <Card title={t('blocks.pageBest')} data-testid="ranked">
                {rows.length === 0 ? (
                  <Empty description={search ? t('noMatch') : t('empty')} />
                ) : (
                  <Ranked items={rows.map((r) => ({ label: r.variant ? `${r.productName || r.skuCode} · ${r.variant}` : r.productName || r.skuCode, net: amount(r.totalNet) }))} />
                )}
              </Card>
            </Col>
          </Row>
        </>
      )}
    </DashboardFrame>
  );
}
