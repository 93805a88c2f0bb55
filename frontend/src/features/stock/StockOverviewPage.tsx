import { Card, Checkbox, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';

import { Pager } from '@/shared/pager/Pager';
import { useSkuInventoriesQuery, type SkuInventoryBody } from '@/features/products/api';
import { useListWarehousesQuery } from './api';

/** Stock per SKU per warehouse (SPEC §2 /stock-management-overview-list). */
export default function StockOverviewPage() {
  const { t } = useTranslation(['stock', 'products', 'common']);
  useParams();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const warehouseId = Number(params.get('warehouse')) || undefined;
  const below = params.get('below') === '1';
  const { data, isFetching } = useSkuInventoriesQuery({ search: search || undefined, warehouseId, belowSafetyStock: below || undefined, page, limit: 10 });
  const { data: warehouses } = useListWarehousesQuery();
  const warehouseName = (wid: number) => warehouses?.data.find((w) => w.id === wid)?.name ?? '—';
  const set = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next);
  };
  const columns = [
    {
      title: t('products:fields.name'),
      render: (_: unknown, r: SkuInventoryBody) => (
        <Space orientation="vertical" size={0}>
          <span>{r.productName}</span>
          <Typography.Text type="secondary">{[r.skuCode, r.option1, r.option2].filter(Boolean).join(' · ')}</Typography.Text>
        </Space>
      ),
    },
    { title: t('stock:fields.warehouse'), render: (_: unknown, r: SkuInventoryBody) => (r.inventory.warehouseId ? warehouseName(r.inventory.warehouseId) : '—') },
    { title: t('stock:fields.onHand'), render: (_: unknown, r: SkuInventoryBody) => r.inventory.quantity, align: 'right' as const },
    { title: t('stock:fields.reserved'), render: (_: unknown, r: SkuInventoryBody) => r.inventory.reserve, align: 'right' as const },
    {
      title: t('stock:fields.available'),
      align: 'right' as const,
      render: (_: unknown, r: SkuInventoryBody) =>
        r.inventory.available <= r.safetyStock ? <Tag color="red">{r.inventory.available}</Tag> : r.inventory.available,
    },
    { title: t('stock:fields.preorder'), render: (_: unknown, r: SkuInventoryBody) => r.inventory.preorder, align: 'right' as const },
    { title: t('products:fields.safetyStock'), dataIndex: 'safetyStock', align: 'right' as const },
  ];
  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('stock:overview.title')}</h1>
        <Space wrap>
          <Select
            allowClear
            style={{ minWidth: 200 }}
            placeholder={t('stock:overview.allWarehouses')}
            value={warehouseId}
            onChange={(v?: number) => set('warehouse', v ? String(v) : undefined)}
            options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
          />
          <Checkbox checked={below} onChange={(e) => set('below', e.target.checked ? '1' : undefined)}>
            {t('stock:overview.belowSafety')}
          </Checkbox>
        </Space>
      </div>
      <Table<SkuInventoryBody>
        rowKey={(r) => `${r.skuId}-${r.inventory.warehouseId}`}
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t('stock:overview.empty') }}
        scroll={{ x: 760 }}
        data-testid="stock-table"
      />
      <Pager
        page={data?.page ?? page}
        pages={data?.pages ?? 1}
        total={data?.total ?? 0}
        onChange={(p) => {
          const next = new URLSearchParams(params);
          next.set('page', String(p));
          setParams(next);
        }}
      />
    </Card>
  );
}
