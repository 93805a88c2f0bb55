import { useMemo } from 'react';
import { Card, Col, Empty, Row, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatBaht } from '@/shared/money';
import { REFRESH_MS, useServiceFeeSummariesQuery, type FeeTotalsBody, type WarehouseFeesBody } from './api';
import { amount, pointLabel, satang } from './dashboard';
import { ChartOrTable, DashboardFrame, dated, together, FigureCard, FigureRow, Moved, usePeriodParams } from './DashboardFrame';
import { BarsOverTime, COLORS } from './SalesCharts';
import { ExportButton } from './ExportButton';

/** The kinds of fee the warehouse charges, as the summary names them, in the order shown. */
export const FEE_KINDS = ['shelving', 'goodsReceipt', 'picking', 'packing', 'packaging', 'material', 'additional', 'shipping', 'cod'] as const;
export type FeeKind = (typeof FEE_KINDS)[number];
const KIND_COLORS = [...COLORS, '#a0d911'];

/** The fees per order shipped, in baht: the total in satang divided by the orders, rounded to
 * the satang (0 without orders). */
export function feesPerOrder(f: Pick<FeeTotalsBody, 'total' | 'orders'>): number {
  return f.orders > 0 ? Math.round(satang(f.total) / f.orders) / 100 : 0;
}

/** /dashboard/service-fee (owner only): what the warehouses charged the shop in the period —
 * each kind of fee over the period, per kind and per warehouse — beside the period before.
 * The fees are without VAT and withholding tax. */
export default function ServiceFeePage() {
  const { t, i18n } = useTranslation(['reports']);
  const lng = i18n.language;
  const { period, date, go } = usePeriodParams();
  const summary = useServiceFeeSummariesQuery({ period, date }, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  const data = summary.data;
  const label = (k: FeeKind | 'total' | 'orders') => t(`serviceFee.kinds.${k}`);

  // One row per point, one amount per kind: what the stacked bars and their table read.
  const rows = useMemo(
    () =>
      (data?.points ?? []).map((p) => ({
        start: p.start,
        label: pointLabel(p.start, data?.bucket ?? 'day', lng),
        ...Object.fromEntries(FEE_KINDS.map((k) => [k, amount(p.fees[k])])),
        total: amount(p.fees.total),
      })),
    [data, lng],
  );
  const money = (v: number | string) => formatBaht(v ?? 0);

  return (
    <DashboardFrame
      tab="serviceFee"
      title={t('tabs.serviceFee')}
      testId="service-fee"
      at={{ period, date, go }}
      actions={<ExportButton kind="service-fee-summaries" tables={['daily', 'warehouses']} at={{ period, date }} />}
      never={t('serviceFee.never')}
      {...together(summary)}
      {...dated(data)}
    >
      {data && (
        <>
          <FigureRow>
            {[
              <FigureCard key="total" testId="figure-total" label={t('serviceFee.figures.total')} now={amount(data.current.total)} before={amount(data.previous.total)} money lowerIsBetter />,
              <FigureCard key="orders" testId="figure-orders" label={t('serviceFee.figures.orders')} now={data.current.orders} before={data.previous.orders} money={false} />,
              <FigureCard key="perOrder" testId="figure-per-order" label={t('serviceFee.figures.perOrder')} now={feesPerOrder(data.current)} before={feesPerOrder(data.previous)} money lowerIsBetter />,
              <FigureCard key="receipts" testId="figure-receipts" label={t('serviceFee.figures.receipts')} now={data.current.receipts} before={data.previous.receipts} money={false} />,
            ]}
          </FigureRow>
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }} data-testid="fees-ex-vat">
            {t('serviceFee.exVat')}
          </Typography.Paragraph>
          <div style={{ marginTop: 12 }}>
            <ChartOrTable
              title={t('serviceFee.overTime')}
              testId="fees-over-time"
              chart={
                satang(data.current.total) === 0 ? (
                  <Empty description={t('serviceFee.empty')} />
                ) : (
                  <BarsOverTime testId="chart-fees" stacked rows={rows} series={FEE_KINDS.map((k, i) => ({ key: k, label: label(k), color: KIND_COLORS[i] }))} />
                )
              }
              table={
                <Table
                  size="small"
                  rowKey="start"
                  pagination={false}
                  scroll={{ x: true, y: 360 }}
                  dataSource={rows}
                  locale={{ emptyText: t('serviceFee.empty') }}
                  columns={[
                    { title: t(`point.${data.bucket === 'month' ? 'month' : 'day'}`), dataIndex: 'label', fixed: 'left' },
                    ...[...FEE_KINDS, 'total' as const].map((k) => ({ title: label(k), dataIndex: k, align: 'right' as const, render: money })),
                  ]}
                />
              }
            />
          </div>
          <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
            <Col xs={24} xl={12}>
              <KindsTable current={data.current} previous={data.previous} />
            </Col>
            <Col xs={24} xl={12}>
              <WarehousesTable warehouses={data.warehouses} />
            </Col>
          </Row>
        </>
      )}
    </DashboardFrame>
  );
}

/** Each kind of fee in the period beside the period before, and their total. */
function KindsTable({ current, previous }: { current: FeeTotalsBody; previous: FeeTotalsBody }) {
  const { t } = useTranslation(['reports']);
  return (
    <Card title={t('serviceFee.byKind')} data-testid="fee-kinds">
      <Table
        size="small"
        rowKey="kind"
        pagination={false}
        scroll={{ x: true }}
        dataSource={FEE_KINDS.map((kind) => ({ kind, now: current[kind], before: previous[kind] }))}
        columns={[
          { title: t('serviceFee.kind'), dataIndex: 'kind', render: (k: FeeKind) => <span data-testid={`kind-${k}`}>{t(`serviceFee.kinds.${k}`)}</span> },
          { title: t('thisPeriod'), dataIndex: 'now', align: 'right', render: (v: string) => formatBaht(v) },
          { title: t('previousPeriod'), dataIndex: 'before', align: 'right', render: (v: string) => formatBaht(v) },
          { title: t('changed'), key: 'change', align: 'right', render: (_: unknown, r) => <Moved now={amount(r.now)} before={amount(r.before)} lowerIsBetter testId={`change-${r.kind}`} /> },
        ]}
        summary={() => (
          <Table.Summary.Row data-testid="fee-kinds-total">
            <Table.Summary.Cell index={0}>
              <strong>{t('serviceFee.kinds.total')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              <strong>{formatBaht(current.total)}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              {formatBaht(previous.total)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">
              <Moved now={amount(current.total)} before={amount(previous.total)} lowerIsBetter />
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </Card>
  );
}

/** Each warehouse's orders and fees in the period beside the period before. */
function WarehousesTable({ warehouses }: { warehouses: WarehouseFeesBody[] }) {
  const { t } = useTranslation(['reports']);
  return (
    <Card title={t('serviceFee.byWarehouse')} data-testid="fee-warehouses">
      <Table<WarehouseFeesBody>
        size="small"
        rowKey="warehouseId"
        pagination={false}
        scroll={{ x: true }}
        dataSource={warehouses}
        locale={{ emptyText: t('serviceFee.empty') }}
        columns={[
          { title: t('serviceFee.warehouse'), key: 'name', render: (_: unknown, w) => <span data-testid={`warehouse-${w.warehouseId}`}>{w.warehouseName}</span> },
          { title: t('serviceFee.kinds.orders'), key: 'orders', align: 'right', render: (_: unknown, w) => w.current.orders.toLocaleString('en-US') },
          { title: t('thisPeriod'), key: 'now', align: 'right', render: (_: unknown, w) => formatBaht(w.current.total) },
          { title: t('previousPeriod'), key: 'before', align: 'right', render: (_: unknown, w) => formatBaht(w.previous.total) },
          {
            title: t('changed'),
            key: 'change',
            align: 'right',
            render: (_: unknown, w) => <Moved now={amount(w.current.total)} before={amount(w.previous.total)} lowerIsBetter testId={`warehouse-change-${w.warehouseId}`} />,
          },
        ]}
      />
    </Card>
  );
}
