import { Card, Select, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

import { useListWarehousesQuery } from '@/features/stock/api';
import { EraDatePicker } from '@/shared/form/EraDatePicker';
import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useStockReportQuery, type StockRowBody } from './api';
import { useAddressParams } from '@/shared/useAddressParams';
import { ReportFrame } from './ReportFrame';

const PAGE_SIZE = 20;

/** /report/stock (SPEC §2 Reports: stock): every SKU's stock per warehouse at the end of a
 * day (now unless a day is chosen): on hand, reserved, available and the lots' value then,
 * with the totals; the day, warehouse and page kept in the address. */
export default function StockReportPage() {
  const { t, i18n } = useTranslation(['reports', 'common']);
  const lng = i18n.language;
  const { params, set } = useAddressParams();
  const date = params.get('date') ?? '';
  const warehouseId = Number(params.get('warehouse-id') ?? 0) || undefined;
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const warehouses = useListWarehousesQuery();
  const report = useStockReportQuery({ date: date || undefined, warehouseId, page, limit: PAGE_SIZE });
  const data = report.data;
  const units = (n: number) => n.toLocaleString('en-US');

  return (
    <ReportFrame tab="stock">
      <Card>
        <Space wrap style={{ marginBottom: 12 }}>
          <EraDatePicker
            value={date ? dayjs(date) : null}
            placeholder={t('reports:report.stock.now')}
            disabledDate={(d: Dayjs) => d.isAfter(dayjs(), 'day')}
            onChange={(d) => set({ date: dayjs.isDayjs(d) ? d.format('YYYY-MM-DD') : undefined })}
            aria-label={t('reports:report.stock.day')}
            data-testid="stock-day"
          />
          <Select
            allowClear
            style={{ minWidth: 180 }}
            placeholder={t('reports:report.movement.allWarehouses')}
            value={warehouseId}
            onChange={(v?: number) => set({ 'warehouse-id': v })}
            options={(warehouses.data?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            data-testid="stock-warehouse"
          />
        </Space>
        {data && (
          <Typography.Paragraph type="secondary" data-testid="stock-at">
            {t('reports:report.stock.at', { at: formatDateTime(data.at, lng) })}
          </Typography.Paragraph>
        )}
        <Table<StockRowBody>
          rowKey={(r) => `${r.warehouseId}-${r.skuId}`}
          size="small"
          scroll={{ x: true }}
          loading={report.isFetching}
          dataSource={data?.data ?? []}
          data-testid="stock-report"
          locale={{ emptyText: report.isError ? t('reports:failed') : t('reports:report.stock.empty') }}
          pagination={{
            current: data?.page ?? page,
            total: data?.total ?? 0,
            pageSize: PAGE_SIZE,
            showSizeChanger: false,
            onChange: (p) => set({ page: p }),
          }}
          columns={[
            {
              title: t('reports:report.movement.sku'),
              key: 'sku',
              render: (_: unknown, r) => (
                <Space orientation="vertical" size={0}>
                  <Typography.Text strong>{r.skuCode}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {r.productName}
                  </Typography.Text>
                </Space>
              ),
            },
            { title: t('reports:report.movement.warehouse'), dataIndex: 'warehouseName' },
            { title: t('reports:report.stock.onHand'), dataIndex: 'onHand', align: 'right', render: units },
            { title: t('reports:report.stock.reserved'), dataIndex: 'reserved', align: 'right', render: units },
            { title: t('reports:report.stock.available'), dataIndex: 'available', align: 'right', render: units },
            { title: t('reports:report.stock.value'), dataIndex: 'value', align: 'right', render: (v: string) => formatBaht(v) },
          ]}
          summary={() =>
            data && data.total > 0 ? (
              <Table.Summary.Row data-testid="stock-total">
                <Table.Summary.Cell index={0} colSpan={2}>
                  <strong>{t('reports:report.stock.total', { count: data.total })}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={2} align="right">
                  <strong>{units(data.onHand)}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">
                  <strong>{units(data.reserved)}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={4} align="right">
                  <strong>{units(data.available)}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={5} align="right">
                  <strong>{formatBaht(data.value)}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            ) : null
          }
        />
      </Card>
    </ReportFrame>
  );
}
