import { useState, type ReactNode } from 'react';
import { Card, Checkbox, InputNumber, Segmented, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';

import { useIsMobile } from '@/app/layouts/useDevice';
import { Filters } from '@/shared/list/Filters';
import { ListView } from '@/shared/list/ListView';
import { formatBaht } from '@/shared/money';
import { Pager } from '@/shared/pager/Pager';
import { useAddressParams } from '@/shared/useAddressParams';
import { useCan } from '@/shared/useCan';
import { useSkuInventoriesQuery, type SkuInventoryBody } from '@/features/products/api';
import { useListInTransitQuery, useListStockLotsQuery, useListWarehousesQuery, useStockValuationQuery, type StockLotRow, type WarehouseValueBody } from './api';
import { ExpiryDate } from './LotBits';
import { DEFAULT_EXPIRY_DAYS, expiryDaysOf, expiryLevel, formatDate } from './lots';
import { RECEIPT_READ } from './routes';

type View = 'skus' | 'expiring';

/** Stock per SKU per warehouse (SPEC §2 /stock-management-overview-list): on hand, reserved,
 * available, in transit to the warehouse; each row opens on its lots (first expiry first),
 * lots expiring within the days asked flagged. Another view lists the lots expiring within
 * those days across SKUs. Members who may read goods receipts also see the stock's value. */
export default function StockOverviewPage() {
  const { t } = useTranslation(['stock', 'products', 'common']);
  useParams();
  const { params, set: setAddress } = useAddressParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const warehouseId = Number(params.get('warehouse')) || undefined;
  const below = params.get('below') === '1';
  const days = expiryDaysOf(params.get('days'));
  const view: View = params.get('view') === 'expiring' ? 'expiring' : 'skus';
  const canValue = useCan(RECEIPT_READ);
  const { data: warehouses } = useListWarehousesQuery();
  const warehouseName = (wid: number) => warehouses?.data.find((w) => w.id === wid)?.name ?? '—';
  const mobile = useIsMobile();
  const set = (key: string, value: string | undefined) => setAddress({ [key]: value });
  /** On a phone, the filters in the drawer that are in force (the days when not the default). */
  const folded = (warehouseId ? 1 : 0) + (below && view === 'skus' ? 1 : 0) + (days !== DEFAULT_EXPIRY_DAYS ? 1 : 0);
  const clearFolded = () => setAddress({ warehouse: undefined, below: undefined, days: undefined });

  const warehouseSelect = (
    <Select
      allowClear
      style={{ minWidth: 200 }}
      placeholder={t('stock:overview.allWarehouses')}
      value={warehouseId}
      onChange={(v?: number) => set('warehouse', v ? String(v) : undefined)}
      options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.active ? w.name : t('stock:warehouses.inactiveName', { name: w.name }) }))}
      data-testid="overview-warehouse"
    />
  );
  const belowCheckbox =
    view === 'skus' ? (
      <Checkbox checked={below} onChange={(e) => set('below', e.target.checked ? '1' : undefined)}>
        {t('stock:overview.belowSafety')}
      </Checkbox>
    ) : null;
  const viewSwitch = (
    <Segmented<View>
      value={view}
      block={mobile}
      onChange={(v) => set('view', v === 'expiring' ? v : undefined)}
      options={[
        { value: 'skus', label: <span data-testid="overview-view-skus">{t('stock:overview.viewSkus')}</span> },
        { value: 'expiring', label: <span data-testid="overview-view-expiring">{t('stock:overview.viewExpiring')}</span> },
      ]}
    />
  );
  const daysControl = (
    <Space size={6} wrap>
      <Typography.Text>{t('stock:overview.expiringWithin')}</Typography.Text>
      <InputNumber
        min={1}
        max={3650}
        precision={0}
        value={days}
        onChange={(v) => set('days', v && v !== DEFAULT_EXPIRY_DAYS ? String(v) : undefined)}
        style={{ width: 90 }}
        inputMode="numeric"
        aria-label={t('stock:overview.expiringWithin')}
        data-testid="overview-days"
      />
      <Typography.Text>{t('stock:overview.days')}</Typography.Text>
    </Space>
  );

  return (
    <Space orientation="vertical" size={mobile ? 12 : 16} style={{ width: '100%' }}>
      {canValue ? <StockValueCard warehouseId={warehouseId} warehouseName={warehouseName} /> : null}
      <Card>
        {mobile ? (
          <>
            {/* A phone: the title and the filters' button; the warehouse, below safety stock and
                the days fold into the drawer; the two views side by side under them. */}
            <div className="bo-page-head">
              <h1>{t('stock:overview.title')}</h1>
              <div style={{ flex: 'none', marginBottom: -8 }}>
                <Filters active={folded} onClear={folded > 0 ? clearFolded : undefined} data-testid="overview-filters">
                  {warehouseSelect}
                  {belowCheckbox}
                  {daysControl}
                </Filters>
              </div>
            </div>
            <div style={{ marginBottom: 8 }}>{viewSwitch}</div>
          </>
        ) : (
          <>
            <div className="bo-page-head">
              <h1>{t('stock:overview.title')}</h1>
              <Space wrap>
                {warehouseSelect}
                {belowCheckbox}
              </Space>
            </div>
            <div className="bo-page-head">
              {viewSwitch}
              {daysControl}
            </div>
          </>
        )}
        {view === 'expiring' ? (
          <ExpiringLots warehouseId={warehouseId} days={days} page={page} warehouseName={warehouseName} onPage={(p) => setAddress({ page: p })} />
        ) : (
          <SkuStock search={search} warehouseId={warehouseId} below={below} days={days} page={page} warehouseName={warehouseName} onPage={(p) => setAddress({ page: p })} />
        )}
      </Card>
    </Space>
  );
}

/** The warehouse a row's stock is in: its own, or the one filtered on (a SKU never stocked
 * there comes with warehouse 0). */
const rowWarehouse = (r: SkuInventoryBody, filter: number | undefined) => r.inventory.warehouseId || filter || 0;

function SkuStock({
  search,
  warehouseId,
  below,
  days,
  page,
  warehouseName,
  onPage,
}: {
  search: string;
  warehouseId: number | undefined;
  below: boolean;
  days: number;
  page: number;
  warehouseName: (id: number) => string;
  onPage: (p: number) => void;
}) {
  const { t } = useTranslation(['stock', 'products', 'common']);
  const { data, isFetching } = useSkuInventoriesQuery({ search: search || undefined, warehouseId, belowSafetyStock: below || undefined, page, limit: 10 });
  const rows = data?.data ?? [];
  const skuIds = [...new Set(rows.map((r) => r.skuId))].join(',');
  const { data: transit } = useListInTransitQuery({ skuIds }, { skip: !skuIds });
  const { data: expiring } = useListStockLotsQuery({ skuIds, warehouseId, expiringWithinDays: days, limit: -1 }, { skip: !skuIds });
  const expiringLots = (r: SkuInventoryBody) => {
    const wid = rowWarehouse(r, warehouseId);
    return (expiring?.data ?? []).filter((l) => l.skuId === r.skuId && l.warehouseId === wid && l.onHand > 0 && expiryLevel(l.expiredAt, days) !== null).length;
  };
  const inTransit = (r: SkuInventoryBody) => {
    const wid = rowWarehouse(r, warehouseId);
    return (transit?.data ?? []).filter((x) => x.skuId === r.skuId && (wid === 0 || x.warehouseId === wid)).reduce((n, x) => n + x.quantity, 0);
  };
  const key = (r: SkuInventoryBody) => `${r.skuId}-${rowWarehouse(r, warehouseId)}`;
  // On a phone a tap on a card opens it on its lots (as a row's expand button does).
  const mobile = useIsMobile();
  const [opened, setOpened] = useState<string[]>([]);
  const toggle = (r: SkuInventoryBody) => {
    if (rowWarehouse(r, warehouseId) === 0) return;
    const k = key(r);
    setOpened((o) => (o.includes(k) ? o.filter((x) => x !== k) : [...o, k]));
  };
  const transitTag = (r: SkuInventoryBody) => {
    const n = inTransit(r);
    return (
      <span data-testid={`stock-${key(r)}-transit`}>
        {n > 0 ? (
          <Tag color="processing" style={{ marginInlineEnd: 0 }}>
            {n}
          </Tag>
        ) : (
          n
        )}
      </span>
    );
  };
  const expiringTag = (r: SkuInventoryBody) => {
    const soon = expiringLots(r);
    return soon > 0 ? (
      <Tag color="orange" style={{ marginTop: 2 }} data-testid={`stock-${key(r)}-expiring`}>
        {t('stock:overview.expiringBadge', { count: soon })}
      </Tag>
    ) : null;
  };
  const availableOf = (r: SkuInventoryBody) => (r.inventory.available <= r.safetyStock ? <Tag color="red">{r.inventory.available}</Tag> : r.inventory.available);

  const columns = [
    {
      title: t('products:fields.name'),
      key: 'name',
      render: (_: unknown, r: SkuInventoryBody) => (
        <Space orientation="vertical" size={0}>
          <span>{r.productName}</span>
          <Typography.Text type="secondary">{[r.skuCode, r.option1, r.option2].filter(Boolean).join(' · ')}</Typography.Text>
          {expiringTag(r)}
        </Space>
      ),
    },
    {
      title: t('stock:fields.warehouse'),
      key: 'warehouse',
      render: (_: unknown, r: SkuInventoryBody) => (rowWarehouse(r, warehouseId) ? warehouseName(rowWarehouse(r, warehouseId)) : '—'),
    },
    { title: t('stock:fields.onHand'), key: 'onHand', render: (_: unknown, r: SkuInventoryBody) => r.inventory.quantity, align: 'right' as const },
    { title: t('stock:fields.reserved'), key: 'reserved', render: (_: unknown, r: SkuInventoryBody) => r.inventory.reserve, align: 'right' as const },
    {
      title: t('stock:fields.available'),
      key: 'available',
      align: 'right' as const,
      render: (_: unknown, r: SkuInventoryBody) => availableOf(r),
    },
    {
      title: t('stock:fields.inTransit'),
      key: 'inTransit',
      align: 'right' as const,
      render: (_: unknown, r: SkuInventoryBody) => transitTag(r),
    },
    { title: t('stock:fields.preorder'), key: 'preorder', render: (_: unknown, r: SkuInventoryBody) => r.inventory.preorder, align: 'right' as const },
    { title: t('products:fields.safetyStock'), dataIndex: 'safetyStock', align: 'right' as const },
  ];

  return (
    <>
      <ListView<SkuInventoryBody>
        rowKey={key}
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={rows}
        pagination={false}
        // On a phone a card opens on its lots when tapped (below), not every card at once.
        expandable={
          mobile
            ? undefined
            : {
                expandedRowRender: (r) => <SkuLots skuId={r.skuId} warehouseId={rowWarehouse(r, warehouseId)} days={days} />,
                rowExpandable: (r) => rowWarehouse(r, warehouseId) > 0,
              }
        }
        locale={{ emptyText: t('stock:overview.empty') }}
        scroll={{ x: 900 }}
        onOpen={toggle}
        cardTestId={(r) => `stock-${key(r)}-card`}
        card={(r) => {
          const wid = rowWarehouse(r, warehouseId);
          const open = opened.includes(key(r));
          return (
            <>
              <div className="bo-card-row">
                <span className="bo-card-title">{r.skuCode}</span>
                <span className="bo-card-sub" style={{ textAlign: 'right' }}>
                  {wid ? warehouseName(wid) : '—'}
                </span>
              </div>
              <div>{[r.productName, r.option1, r.option2].filter(Boolean).join(' · ')}</div>
              <div style={FIGURES}>
                <Figure label={t('stock:fields.available')}>{availableOf(r)}</Figure>
                <Figure label={t('stock:fields.onHand')}>{r.inventory.quantity}</Figure>
                <Figure label={t('stock:fields.reserved')}>{r.inventory.reserve}</Figure>
              </div>
              <div className="bo-card-sub" style={{ display: 'flex', flexWrap: 'wrap', gap: '2px 12px', marginTop: 4 }}>
                <span>
                  {t('stock:fields.inTransit')} {transitTag(r)}
                </span>
                <span>
                  {t('stock:fields.preorder')} {r.inventory.preorder}
                </span>
                <span>
                  {t('products:fields.safetyStock')} {r.safetyStock}
                </span>
              </div>
              {expiringTag(r)}
              {wid ? (
                <div className="bo-card-sub" style={{ marginTop: 4, color: '#1677ff' }}>
                  {open ? <UpOutlined /> : <DownOutlined />} {t(open ? 'stock:overview.hideLots' : 'stock:overview.showLots')}
                </div>
              ) : null}
              {open && wid ? (
                // Taps on the lots leave the card open.
                <div onClick={(e) => e.stopPropagation()} style={{ marginTop: 8, cursor: 'default' }}>
                  <SkuLots skuId={r.skuId} warehouseId={wid} days={days} />
                </div>
              ) : null}
            </>
          );
        }}
        data-testid="stock-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={onPage} />
    </>
  );
}

/** One SKU's lots in one warehouse, first expiry first. */
function SkuLots({ skuId, warehouseId, days }: { skuId: number; warehouseId: number; days: number }) {
  const { t, i18n } = useTranslation(['stock', 'common']);
  const { data, isFetching } = useListStockLotsQuery({ skuIds: String(skuId), warehouseId, limit: -1 });
  const lots = (data?.data ?? []).filter((l) => l.skuId === skuId && l.warehouseId === warehouseId);
  const mobile = useIsMobile();
  if (mobile) {
    return (
      <Spin spinning={isFetching}>
        <div data-testid={`lots-${skuId}-${warehouseId}`} style={{ borderTop: '1px solid #f0f0f0' }}>
          {lots.length === 0 && !isFetching ? <div className="bo-card-sub" style={{ padding: '8px 0' }}>{t('stock:lots.empty')}</div> : null}
          {lots.map((l) => (
            <div key={l.id} data-testid={`lot-${l.id}-row`} style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}>
              <div className="bo-card-row">
                <Typography.Text strong>{l.code}</Typography.Text>
                <span style={{ whiteSpace: 'nowrap' }}>
                  {t('stock:fields.onHand')} <strong>{l.onHand}</strong>
                </span>
              </div>
              <ExpiryDate expiredAt={l.expiredAt} withinDays={days} testId={`lot-${l.id}-expiry`} />
              <div className="bo-card-sub">
                {[
                  `${t('stock:lots.receivedAt')} ${formatDate(l.receivedAt, i18n.language)}`,
                  `${t('stock:fields.reserved')} ${l.reserved}`,
                  `${t('stock:lots.unitCost')} ${t('common:money.baht', { amount: formatBaht(l.unitCost) })}`,
                ].join(' · ')}
              </div>
            </div>
          ))}
        </div>
      </Spin>
    );
  }
  const columns = [
    { title: t('stock:lots.code'), dataIndex: 'code', render: (c: string) => <Typography.Text strong>{c}</Typography.Text> },
    { title: t('stock:lots.receivedAt'), dataIndex: 'receivedAt', render: (v: string) => formatDate(v, i18n.language) },
    { title: t('stock:lots.expiredAt'), key: 'expiry', render: (_: unknown, l: StockLotRow) => <ExpiryDate expiredAt={l.expiredAt} withinDays={days} testId={`lot-${l.id}-expiry`} /> },
    { title: t('stock:fields.onHand'), dataIndex: 'onHand', align: 'right' as const },
    { title: t('stock:fields.reserved'), dataIndex: 'reserved', align: 'right' as const },
    { title: t('stock:lots.unitCost'), dataIndex: 'unitCost', align: 'right' as const, render: (v: string) => t('common:money.baht', { amount: formatBaht(v) }) },
  ];
  return (
    <Table<StockLotRow>
      rowKey="id"
      size="small"
      loading={isFetching}
      columns={columns}
      dataSource={lots}
      pagination={false}
      locale={{ emptyText: t('stock:lots.empty') }}
      data-testid={`lots-${skuId}-${warehouseId}`}
    />
  );
}

/** Lots expiring within `days` (or expired, still on hand) across SKUs. */
function ExpiringLots({
  warehouseId,
  days,
  page,
  warehouseName,
  onPage,
}: {
  warehouseId: number | undefined;
  days: number;
  page: number;
  warehouseName: (id: number) => string;
  onPage: (p: number) => void;
}) {
  const { t, i18n } = useTranslation(['stock', 'products', 'common']);
  const { data, isFetching } = useListStockLotsQuery({ expiringWithinDays: days, warehouseId, page, limit: 10 });
  const lots = (data?.data ?? []).filter((l) => expiryLevel(l.expiredAt, days) !== null && (!warehouseId || l.warehouseId === warehouseId));
  // The lots name their SKU by id: the store's SKUs name them.
  const { data: skus } = useSkuInventoriesQuery({ warehouseId, limit: -1 }, { skip: lots.length === 0 });
  const skuOf = (id: number) => skus?.data.find((s) => s.skuId === id);
  const skuName = (l: StockLotRow) => {
    const s = skuOf(l.skuId);
    return s ? { title: s.skuCode, name: [s.productName, s.option1, s.option2].filter(Boolean).join(' · ') } : { title: t('stock:lots.sku', { id: l.skuId }), name: '' };
  };
  const columns = [
    {
      title: t('products:fields.name'),
      key: 'sku',
      render: (_: unknown, l: StockLotRow) => {
        const s = skuOf(l.skuId);
        return s ? (
          <Space orientation="vertical" size={0}>
            <span>{s.productName}</span>
            <Typography.Text type="secondary">{[s.skuCode, s.option1, s.option2].filter(Boolean).join(' · ')}</Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('stock:lots.sku', { id: l.skuId })}</Typography.Text>
        );
      },
    },
    { title: t('stock:fields.warehouse'), key: 'warehouse', render: (_: unknown, l: StockLotRow) => warehouseName(l.warehouseId) },
    { title: t('stock:lots.code'), dataIndex: 'code' },
    { title: t('stock:lots.receivedAt'), dataIndex: 'receivedAt', render: (v: string) => formatDate(v, i18n.language) },
    { title: t('stock:lots.expiredAt'), key: 'expiry', render: (_: unknown, l: StockLotRow) => <ExpiryDate expiredAt={l.expiredAt} withinDays={days} testId={`lot-${l.id}-expiry`} /> },
    { title: t('stock:fields.onHand'), dataIndex: 'onHand', align: 'right' as const },
    { title: t('stock:fields.reserved'), dataIndex: 'reserved', align: 'right' as const },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('stock:overview.expiringHint', { count: days })}</Typography.Paragraph>
      <ListView<StockLotRow>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={lots}
        pagination={false}
        locale={{ emptyText: t('stock:overview.noExpiring', { count: days }) }}
        scroll={{ x: 860 }}
        cardTestId={(l) => `lot-${l.id}-card`}
        card={(l) => {
          const s = skuName(l);
          return (
            <>
              <div className="bo-card-row">
                <span className="bo-card-title">{s.title}</span>
                <span className="bo-card-sub" style={{ textAlign: 'right' }}>
                  {warehouseName(l.warehouseId)}
                </span>
              </div>
              {s.name ? <div>{s.name}</div> : null}
              <div className="bo-card-row" style={{ marginTop: 4 }}>
                <Typography.Text strong>{l.code}</Typography.Text>
                <ExpiryDate expiredAt={l.expiredAt} withinDays={days} testId={`lot-${l.id}-expiry`} />
              </div>
              <div className="bo-card-sub">
                {[
                  `${t('stock:fields.onHand')} ${l.onHand}`,
                  `${t('stock:fields.reserved')} ${l.reserved}`,
                  `${t('stock:lots.receivedAt')} ${formatDate(l.receivedAt, i18n.language)}`,
                ].join(' · ')}
              </div>
            </>
          );
        }}
        data-testid="expiring-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={onPage} />
    </>
  );
}

/** The stock's value per warehouse: units on hand, at moving-average cost and at the costs of
 * the lots still on hand (FIFO). */
function StockValueCard({ warehouseId, warehouseName }: { warehouseId: number | undefined; warehouseName: (id: number) => string }) {
  const { t } = useTranslation(['stock', 'common']);
  const { data, isFetching } = useStockValuationQuery({ warehouseId, limit: 1 });
  const rows = data?.warehouses ?? [];
  const baht = (v: string | number) => t('common:money.baht', { amount: formatBaht(v) });
  const sum = (pick: (w: WarehouseValueBody) => number) => rows.reduce((n, w) => n + pick(w), 0);
  const mobile = useIsMobile();
  const totalAverage = baht(sum((w) => Math.round(Number(w.averageValue) * 100)) / 100);
  const totalFifo = baht(sum((w) => Math.round(Number(w.fifoValue) * 100)) / 100);
  if (mobile) {
    // A phone: one short block per warehouse (units, then the two values), the total last.
    const block = (key: string, name: ReactNode, onHand: number, average: string, fifo: string, strong = false) => (
      <div key={key} data-testid={`stock-value-${key}`} style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0', fontWeight: strong ? 600 : undefined }}>
        <div className="bo-card-row">
          <span className={strong ? undefined : 'bo-card-title'}>{name}</span>
          <span style={{ whiteSpace: 'nowrap' }}>
            {t('stock:fields.onHand')} {onHand}
          </span>
        </div>
        <div className="bo-card-row">
          <span className="bo-card-sub">{t('stock:value.average')}</span>
          <span>{average}</span>
        </div>
        <div className="bo-card-row">
          <span className="bo-card-sub">{t('stock:value.fifo')}</span>
          <span>{fifo}</span>
        </div>
      </div>
    );
    return (
      <Card title={t('stock:value.title')} size="small" data-testid="stock-value">
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 4 }}>
          {t('stock:value.hint')}
        </Typography.Paragraph>
        <Spin spinning={isFetching}>
          <div data-testid="stock-value-table" data-view="cards">
            {rows.length === 0 && !isFetching ? <div className="bo-cards-empty">{t('stock:value.empty')}</div> : null}
            {rows.map((w) => block(String(w.warehouseId), warehouseName(w.warehouseId), w.onHand, baht(w.averageValue), baht(w.fifoValue)))}
            {rows.length > 1 ? block('total', t('stock:value.total'), sum((w) => w.onHand), totalAverage, totalFifo, true) : null}
          </div>
        </Spin>
      </Card>
    );
  }
  const columns = [
    { title: t('stock:fields.warehouse'), key: 'warehouse', render: (_: unknown, w: WarehouseValueBody) => warehouseName(w.warehouseId) },
    { title: t('stock:fields.onHand'), dataIndex: 'onHand', align: 'right' as const },
    { title: t('stock:value.average'), dataIndex: 'averageValue', align: 'right' as const, render: (v: string) => baht(v) },
    { title: t('stock:value.fifo'), dataIndex: 'fifoValue', align: 'right' as const, render: (v: string) => baht(v) },
  ];
  return (
    <Card title={t('stock:value.title')} size="small" data-testid="stock-value">
      <Typography.Paragraph type="secondary">{t('stock:value.hint')}</Typography.Paragraph>
      <Table<WarehouseValueBody>
        rowKey="warehouseId"
        size="small"
        loading={isFetching}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('stock:value.empty') }}
        scroll={{ x: 520 }}
        summary={() =>
          rows.length > 1 ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>{t('stock:value.total')}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <Typography.Text strong>{sum((w) => w.onHand)}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                <Typography.Text strong>{totalAverage}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                <Typography.Text strong>{totalFifo}</Typography.Text>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
        data-testid="stock-value-table"
      />
    </Card>
  );
}

/** A card's three figures side by side (available, on hand, reserved). */
const FIGURES = { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 8, marginTop: 6 } as const;

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <div className="bo-card-sub">{label}</div>
      <div style={{ fontWeight: 600, fontSize: 16 }}>{children}</div>
    </div>
  );
}
