import { useMemo } from 'react';
import { Col, Empty, Row, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useCustomerSummariesQuery, type CustomerSummaryBody } from './api';
import { amount, percent, pointLabel } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, Moved, usePeriodParams } from './DashboardFrame';
import { BarsOverTime, ByChannel, COLORS } from './SalesCharts';

/** The kinds of customer, as the summary names them. */
export const CUSTOMER_KINDS = ['newCustomer', 'oldCustomer', 'guest'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];
const KIND_COLORS: Record<CustomerKind, string> = { newCustomer: COLORS[1], oldCustomer: COLORS[0], guest: '#8c8c8c' };

/** Returning customers' share of the period's sales, in percent (0 without sales). */
export function returningShare(s: Pick<CustomerSummaryBody, CustomerKind>, previous = false): number {
  const net = (k: CustomerKind) => amount(previous ? s[k].previousNet : s[k].net);
  const all = CUSTOMER_KINDS.reduce((n, k) => n + net(k), 0);
  return all > 0 ? percent(net('oldCustomer') / all) : 0;
}

/** /dashboard/customer (SPEC §2 Dashboards, owner only): who placed the period's orders —
 * new customers (their first order), returning customers and guests — beside the period
 * before, over the period, and each one's share of the sales. */
export default function CustomersPage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const summary = useCustomerSummariesQuery({ period, date }, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  const data = summary.data;

  const rows = useMemo(
    () =>
      (data?.series ?? []).map((p) => ({
        start: p.date,
        label: pointLabel(p.date, data?.bucket ?? 'day', lng),
        newCustomer: p.newCustomer.orders,
        oldCustomer: p.oldCustomer.orders,
        guest: p.guest.orders,
      })),
    [data, lng],
  );
  const net = data ? CUSTOMER_KINDS.reduce((n, k) => n + amount(data[k].net), 0) : 0;
  const label = (k: CustomerKind) => t(`customers.kinds.${k}`);

  return (
    <DashboardFrame tab="customer" title={t('tabs.customer')} testId="customer" at={{ period, date, go }} {...together(summary)} {...dated(data)}>
      {data && (
        <>
          <FigureRow>
            {[
              ...CUSTOMER_KINDS.map((k) => (
                <FigureCard key={k} testId={`figure-${k}`} label={t(`customers.figures.${k}`)} now={data[k].orders} before={data[k].previousOrders} money={false} />
              )),
              <FigureCard
                key="share"
                testId="figure-returning-share"
                label={t('customers.figures.returningShare')}
                now={returningShare(data)}
                before={returningShare(data, true)}
                money={false}
                suffix="%"
              />,
            ]}
          </FigureRow>
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            {t('customers.explain')}
          </Typography.Paragraph>
          <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
            <Col xs={24} xl={15}>
              <ChartOrTable
                title={t('customers.overTime')}
                testId="customers-over-time"
                chart={<BarsOverTime testId="chart-customers" money={false} stacked rows={rows} series={CUSTOMER_KINDS.map((k) => ({ key: k, label: label(k), color: KIND_COLORS[k] }))} />}
                table={
                  <Table
                    size="small"
                    rowKey="start"
                    pagination={false}
                    scroll={{ y: 360 }}
                    dataSource={rows}
                    columns={[
                      { title: t(`point.${data.bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label' },
                      ...CUSTOMER_KINDS.map((k) => ({ title: label(k), dataIndex: k, align: 'right' as const })),
                    ]}
                  />
                }
              />
            </Col>
            <Col xs={24} xl={9}>
              <ChartOrTable
                title={t('customers.salesByKind')}
                testId="customers-by-kind"
                chart={
                  net > 0 ? (
                    <>
                      <ByChannel slices={CUSTOMER_KINDS.map((k) => ({ label: label(k), net: amount(data[k].net) }))} colors={CUSTOMER_KINDS.map((k) => KIND_COLORS[k])} />
                      <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
                        {CUSTOMER_KINDS.map((k) => (
                          <li key={k} style={{ display: 'flex', justifyContent: 'space-between', gap: 8, padding: '2px 0' }}>
                            <span>
                              <span aria-hidden="true" style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: KIND_COLORS[k], marginRight: 6 }} />
                              {label(k)}
                            </span>
                            <span>
                              {formatBaht(data[k].net)} · {percent(amount(data[k].net) / net)}%
                            </span>
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <Empty description={t('empty')} />
                  )
                }
                table={
                  <Table
                    size="small"
                    rowKey="kind"
                    pagination={false}
                    scroll={{ x: true }}
                    dataSource={CUSTOMER_KINDS.map((k) => ({ kind: k, ...data[k] }))}
                    columns={[
                      { title: t('customers.kind'), dataIndex: 'kind', render: (k: CustomerKind) => <span data-testid={`kind-${k}`}>{label(k)}</span> },
                      { title: t('figures.orders'), dataIndex: 'orders', align: 'right', render: (v: number) => v.toLocaleString('en-US') },
                      { title: t('figures.net'), dataIndex: 'net', align: 'right', render: (v: string) => formatBaht(v) },
                      { title: t('share'), key: 'share', align: 'right', render: (_: unknown, r) => (net > 0 ? `${percent(amount(r.net) / net)}%` : '–') },
                      { title: t('changed'), key: 'change', align: 'right', render: (_: unknown, r) => <Moved now={amount(r.net)} before={amount(r.previousNet)} /> },
                    ]}
                  />
                }
              />
            </Col>
          </Row>
        </>
      )}
    </DashboardFrame>
  );
}
