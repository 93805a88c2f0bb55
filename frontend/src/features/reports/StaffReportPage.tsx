import { Alert, Empty, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useAdminPerformanceQuery, type StaffRowBody } from './api';
import { amount, percent, periodLabel } from './dashboard';
import { ChartOrTable, Moved, PeriodPicker, usePeriodParams } from './DashboardFrame';
import { ExportButton } from './ExportButton';
import { ReportFrame } from './ReportFrame';
import { Ranked } from './SalesCharts';

/** /report/staff (SPEC §2 Reports: sales per employee, owner only): the period's orders by
 * the member who made them (orders from a channel or the system apart), with their net, their
 * share and the change from the period before. */
export default function StaffReportPage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const report = useAdminPerformanceQuery({ period, date });
  const data = report.data;
  const rows = data?.staff ?? [];
  const total = rows.reduce((n, r) => n + Math.round(amount(r.net) * 100), 0) / 100;
  const who = (r: StaffRowBody) => (r.userId === 0 ? t('report.staff.nobody') : r.name || t('report.staff.former', { id: r.userId }));

  return (
    <ReportFrame tab="staff" extra={
        <>
          <PeriodPicker at={{ period, date, go }} />
          <ExportButton kind="admin-performance-summaries" at={{ period, date }} />
        </>
      }>
      {report.isError ? (
        <Alert type="error" showIcon title={t('failed')} action={<a onClick={() => void report.refetch()}>{t('retry')}</a>} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <Typography.Paragraph type="secondary" data-testid="period-label">
            {t('periodOf', { period: periodLabel(period, data.dateFrom, lng), previous: periodLabel(period, data.previousFrom, lng) })} ·{' '}
            {data.updatedAt ? t('updatedAt', { at: formatDateTime(data.updatedAt, lng) }) : t('neverUpdated')}
          </Typography.Paragraph>
          <ChartOrTable
            title={t('report.staff.block')}
            testId="staff-report"
            chart={rows.length === 0 ? <Empty description={t('empty')} /> : <Ranked items={rows.map((r) => ({ label: who(r), net: amount(r.net) }))} />}
            table={
              <Table<StaffRowBody>
                size="small"
                rowKey="userId"
                pagination={false}
                scroll={{ x: true }}
                dataSource={rows}
                locale={{ emptyText: t('empty') }}
                columns={[
                  { title: t('report.staff.member'), key: 'who', render: (_: unknown, r) => <span data-testid={`staff-${r.userId}`}>{who(r)}</span> },
                  { title: t('figures.orders'), dataIndex: 'orders', align: 'right', render: (v: number) => v.toLocaleString('en-US') },
                  { title: t('figures.cancelled'), dataIndex: 'cancelled', align: 'right', render: (v: number) => v.toLocaleString('en-US') },
                  { title: t('figures.net'), dataIndex: 'net', align: 'right', render: (v: string) => formatBaht(v) },
                  { title: t('share'), key: 'share', align: 'right', render: (_: unknown, r) => (total > 0 ? `${percent(amount(r.net) / total)}%` : '–') },
                  { title: t('changed'), key: 'change', align: 'right', render: (_: unknown, r) => <Moved now={amount(r.net)} before={amount(r.previousNet)} /> },
                ]}
              />
            }
          />
        </>
      )}
    </ReportFrame>
  );
}
