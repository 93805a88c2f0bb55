import { useState } from 'react';
import { Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { useListWarehousesQuery } from '@/features/stock/api';
import { EraRangePicker } from '@/shared/form/EraDatePicker';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime, thailandToday } from '@/shared/i18n/i18n';
import { useExportStockMovementsMutation, useMovementHistoriesQuery, type MovementReportRow } from './api';
import { explainRefusal, HistoryDrawer } from './ExportButton';
import { useAddressParams } from '@/shared/useAddressParams';
import { ReportFrame } from './ReportFrame';

/** The stock ledger's kinds of movement, as the report filters them. */
export const MOVEMENT_KINDS = ['receive', 'adjust', 'reserve', 'release', 'commit', 'transfer_out', 'transfer_in'] as const;
const KIND_COLOURS: Record<string, string> = { receive: 'green', adjust: 'gold', reserve: 'blue', release: 'default', commit: 'purple', transfer_out: 'orange', transfer_in: 'cyan' };
const PAGE_SIZE = 20;

/** A change of units, signed: +5, −2, or – for none. */
export function signed(n: number): string {
  if (n === 0) return '–';
  return n > 0 ? `+${n.toLocaleString('en-US')}` : `−${Math.abs(n).toLocaleString('en-US')}`;
}

/** The document a movement's reference names: an order (`order:41`), a goods receipt
 * (`gr:12`), a transfer (`tf:5`) or an adjustment (`adjust:…`); anything else as it is. */
export function documentOf(reference: string): { kind: 'order' | 'receipt' | 'transfer' | 'adjust' | 'other'; id?: number } {
  const [prefix, rest = ''] = reference.split(/:(.*)/s);
  const id = /^\d+$/.test(rest) ? Number(rest) : undefined;
  if (prefix === 'order' && id) return { kind: 'order', id };
  if (prefix === 'gr' && id) return { kind: 'receipt', id };
  if (prefix === 'tf' && id) return { kind: 'transfer', id };
  if (prefix === 'adjust' && rest) return { kind: 'adjust' };
  return { kind: 'other' };
}

/** /report/movement (SPEC §2 Reports: movements): every movement of the stock with its
 * document, who made it and why, filtered by days, warehouse, kind and SKU code (kept in the
 * address), newest first, paged in the ledger. */
export default function MovementsReportPage() {
  const { t, i18n } = useTranslation(['reports', 'common']);
  const lng = i18n.language;
  const { storeId } = useParams();
  const { params, set } = useAddressParams();
  const from = params.get('date-from') ?? '';
  const to = params.get('date-to') ?? '';
  const warehouseId = Number(params.get('warehouse-id') ?? 0) || undefined;
  const kind = params.get('kind') ?? '';
  const skuCode = params.get('sku-code') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const warehouses = useListWarehousesQuery();
  const report = useMovementHistoriesQuery({
    dateFrom: from || undefined,
    dateTo: to || undefined,
    warehouseId,
    kind: kind || undefined,
    skuCode: skuCode || undefined,
    page,
    limit: PAGE_SIZE,
  });
  const rows = report.data?.data ?? [];
  const [ask, asking] = useExportStockMovementsMutation();
  const [history, setHistory] = useState(false);
  // The movements as filtered, of the days chosen (this month so far when none are).
  const exportThem = async () => {
    const today = thailandToday();
    try {
      await ask({
        movementExportInput: {
          dateFrom: from || today.startOf('month').format('YYYY-MM-DD'),
          dateTo: to || today.format('YYYY-MM-DD'),
          kind: kind || undefined,
          skuCode: skuCode || undefined,
          warehouseId,
          lang: lng === 'en' ? 'en' : 'th',
        },
      }).unwrap();
      notifySuccess(t('reports:export.asked'));
      setHistory(true);
    } catch (e) {
      explainRefusal(e, t('reports:export.failed'));
    }
  };

  return (
    <ReportFrame tab="movement">
      <Card>
        <Space wrap style={{ marginBottom: 12 }} data-testid="movement-filters">
          <EraRangePicker
            value={from && to ? [dayjs(from), dayjs(to)] : null}
            onChange={(v) => {
              const [a, b] = (v ?? [null, null]) as [Dayjs | null, Dayjs | null];
              set({ 'date-from': a?.format('YYYY-MM-DD'), 'date-to': b?.format('YYYY-MM-DD') });
            }}
            aria-label={t('reports:report.movement.days')}
            data-testid="movement-days"
          />
          <Select
            allowClear
            style={{ minWidth: 180 }}
            placeholder={t('reports:report.movement.allWarehouses')}
            value={warehouseId}
            onChange={(v?: number) => set({ 'warehouse-id': v })}
            options={(warehouses.data?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            data-testid="movement-warehouse"
          />
          <Select
            allowClear
            style={{ minWidth: 180 }}
            placeholder={t('reports:report.movement.allKinds')}
            value={kind || undefined}
            onChange={(v?: string) => set({ kind: v })}
            options={MOVEMENT_KINDS.map((k) => ({ value: k, label: t(`reports:report.movement.kinds.${k}`) }))}
            data-testid="movement-kind"
          />
          <Input.Search
            key={skuCode}
            allowClear
            defaultValue={skuCode}
            placeholder={t('reports:report.movement.skuCode')}
            onSearch={(v) => set({ 'sku-code': v.trim() })}
            style={{ width: 220 }}
            data-testid="movement-sku"
          />
          <Button icon={<ExportOutlined />} loading={asking.isLoading} onClick={() => void exportThem()} data-testid="movement-export">
            {t('reports:export.button')}
          </Button>
        </Space>
        <HistoryDrawer open={history} onClose={() => setHistory(false)} />
        <Table<MovementReportRow>
          rowKey="id"
          size="small"
          scroll={{ x: true }}
          loading={report.isFetching}
          dataSource={rows}
          data-testid="movements"
          locale={{ emptyText: report.isError ? t('reports:failed') : t('reports:report.movement.empty') }}
          pagination={{
            current: report.data?.page ?? page,
            total: report.data?.total ?? 0,
            pageSize: PAGE_SIZE,
            showSizeChanger: false,
            showTotal: (n) => t('reports:report.movement.count', { count: n }),
            onChange: (p) => set({ page: p }),
          }}
          columns={[
            { title: t('reports:report.movement.at'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v, lng) },
            {
              title: t('reports:report.movement.sku'),
              key: 'sku',
              render: (_: unknown, m) => (
                <Space orientation="vertical" size={0}>
                  <Typography.Text strong>{m.skuCode}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[m.productName, m.variant].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </Space>
              ),
            },
            { title: t('reports:report.movement.warehouse'), dataIndex: 'warehouseName' },
            {
              title: t('reports:report.movement.kind'),
              dataIndex: 'kind',
              render: (k: string) => <Tag color={KIND_COLOURS[k] ?? 'default'}>{t(`reports:report.movement.kinds.${k}`, { defaultValue: k })}</Tag>,
            },
            { title: t('reports:report.movement.onHand'), dataIndex: 'onHand', align: 'right', render: (n: number) => signed(n) },
            { title: t('reports:report.movement.reserved'), dataIndex: 'reserved', align: 'right', render: (n: number) => signed(n) },
            {
              title: t('reports:report.movement.document'),
              dataIndex: 'reference',
              render: (v: string) => {
                const d = documentOf(v);
                if (d.kind === 'order') return <Link to={`/${storeId}/order-detail/${d.id}`}>{t('reports:report.movement.documents.order', { id: d.id })}</Link>;
                if (d.kind === 'other') return v;
                return t(`reports:report.movement.documents.${d.kind}`, { id: d.id });
              },
            },
            { title: t('reports:report.movement.reason'), dataIndex: 'reason' },
            { title: t('reports:report.movement.by'), dataIndex: 'createdByName' },
          ]}
        />
      </Card>
    </ReportFrame>
  );
}
