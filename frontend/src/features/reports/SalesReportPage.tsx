import { useMemo } from 'react';
import { Alert, Card, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useStateTableQuery, type StateSalesBody } from './api';
import { periodLabel, pointLabel, satang } from './dashboard';
import { PeriodPicker, usePeriodParams } from './DashboardFrame';
import { ExportButton } from './ExportButton';
import { ReportFrame } from './ReportFrame';

/** The report's columns: every order placed, then those open, sent, closed and cancelled now. */
export const SALES_GROUPS = ['placed', 'open', 'sent', 'closed', 'cancelled'] as const;
export type SalesGroup = (typeof SALES_GROUPS)[number];
const MEMBERS: Record<Exclude<SalesGroup, 'placed'>, string[]> = {
  open: ['new', 'ready_to_fulfillment'],
  sent: ['shipped'],
  closed: ['closed'],
  cancelled: ['cancelled', 'failed'],
};

/** The balances beside the columns: paid, and still owed. */
const BALANCES = ['paid', 'balance'] as const;

/** Orders and their net in satang (whole numbers, summed exactly). */
export type Tally = Record<SalesGroup, { orders: number; satang: number }> & {
  /** What the buyers of the orders not cancelled have paid, and still owe, satang. */
  paid: number;
  balance: number;
};

/** Orders by their state now, gathered into the report's columns; the balances are those of
 * the orders that still stand (a cancelled or failed order owes nothing). */
export function tally(states: StateSalesBody[]): Tally {
  const out = { ...Object.fromEntries(SALES_GROUPS.map((g) => [g, { orders: 0, satang: 0 }])), paid: 0, balance: 0 } as Tally;
  for (const s of states) {
    const net = satang(s.net);
    const add = (g: SalesGroup) => {
      out[g].orders += s.orders;
      out[g].satang += net;
    };
    add('placed');
    for (const [g, members] of Object.entries(MEMBERS)) if (members.includes(s.state)) add(g as SalesGroup);
    if (!MEMBERS.cancelled.includes(s.state)) {
      out.paid += satang(s.paid);
      out.balance += satang(s.balance);
    }
  }
  return out;
}

/** /report/sales (SPEC §2 Reports: sales, owner only): the orders placed day by day (month
 * by month in a year), how many of them are open, sent, closed or cancelled now and for how
 * much, what their buyers have paid and still owe, with the period's totals beside the
 * period before's. */
export default function SalesReportPage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const report = useStateTableQuery({ period, date });
  const data = report.data;
  const rows = useMemo(
    () => (data?.rows ?? []).map((r) => ({ key: r.date, label: pointLabel(r.date, data?.bucket ?? 'day', lng), ...tally(r.states) })),
    [data, lng],
  );
  const now = tally(data?.current ?? []);
  const before = tally(data?.previous ?? []);
  const cell = (v: { orders: number; satang: number }) => (
    <span>
      {v.orders.toLocaleString('en-US')}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {formatBaht(v.satang / 100)}
      </Typography.Text>
    </span>
  );

  return (
    <ReportFrame tab="sales" extra={
        <>
          <PeriodPicker at={{ period, date, go }} />
          <ExportButton kind="order-summaries" tables={['states', 'daily']} at={{ period, date }} />
        </>
      }>
      {report.isError ? (
        <Alert type="error" showIcon title={t('failed')} action={<a onClick={() => void report.refetch()}>{t('retry')}</a>} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <Card>
          <Typography.Paragraph type="secondary" data-testid="period-label">
            {t('periodOf', { period: periodLabel(period, data.dateFrom, lng), previous: periodLabel(period, data.previousFrom, lng) })} ·{' '}
            {data.updatedAt ? t('updatedAt', { at: formatDateTime(data.updatedAt, lng) }) : t('neverUpdated')}
          </Typography.Paragraph>
          <Table
            size="small"
            rowKey="key"
            pagination={false}
            scroll={{ x: true, y: 520 }}
            dataSource={rows}
            data-testid="sales-report"
            columns={[
              { title: t(`point.${data.bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label', fixed: 'left' },
              ...SALES_GROUPS.map((g) => ({ title: t(`report.sales.groups.${g}`), key: g, align: 'right' as const, render: (_: unknown, r: Tally) => cell(r[g]) })),
              ...BALANCES.map((b) => ({ title: t(`report.sales.${b}`), key: b, align: 'right' as const, render: (_: unknown, r: Tally) => formatBaht(r[b] / 100) })),
            ]}
            summary={() => (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="sales-total">
                  <Table.Summary.Cell index={0}>
                    <strong>{t('thisPeriod')}</strong>
                  </Table.Summary.Cell>
                  {SALES_GROUPS.map((g, i) => (
                    <Table.Summary.Cell key={g} index={i + 1} align="right">
                      <strong>{cell(now[g])}</strong>
                    </Table.Summary.Cell>
                  ))}
                  {BALANCES.map((b, i) => (
                    <Table.Summary.Cell key={b} index={SALES_GROUPS.length + i + 1} align="right">
                      <strong>{formatBaht(now[b] / 100)}</strong>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
                <Table.Summary.Row data-testid="sales-before">
                  <Table.Summary.Cell index={0}>{t('previousPeriod')}</Table.Summary.Cell>
                  {SALES_GROUPS.map((g, i) => (
                    <Table.Summary.Cell key={g} index={i + 1} align="right">
                      {cell(before[g])}
                    </Table.Summary.Cell>
                  ))}
                  {BALANCES.map((b, i) => (
                    <Table.Summary.Cell key={b} index={SALES_GROUPS.length + i + 1} align="right">
                      {formatBaht(before[b] / 100)}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
        </Card>
      )}
    </ReportFrame>
  );
}
