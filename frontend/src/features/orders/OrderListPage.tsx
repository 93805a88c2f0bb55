import { useState } from 'react';
import { Badge, Button, Card, Form, Input, Modal, Radio, Select, Space, Tabs, Tag, Typography } from 'antd';
import { DollarOutlined, FileTextOutlined, PlusOutlined, InboxOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { EraRangePicker } from '@/shared/form/EraDatePicker';
import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { useIsMobile } from '@/app/layouts/useDevice';
import { BottomBar, HeadActions } from '@/shared/list/Actions';
import { ColumnSettings } from '@/shared/list/ColumnSettings';
import { arrange, useColumnPrefs } from '@/shared/list/columns';
import { Filters } from '@/shared/list/Filters';
import { ListView } from '@/shared/list/ListView';
import { useAddressParams } from '@/shared/useAddressParams';
import { useListWarehousesQuery } from '@/features/stock/api';
import {
  useBulkCancelMutation,
  useBulkCloseMutation,
  useBulkReadyToFulfillmentMutation,
  useBulkVoidMutation,
  useCountOrdersQuery,
  useHandleOutOfStockMutation,
  useListOrdersQuery,
  useOrderChannelsQuery,
  useOrderLimitsQuery,
  useOrderNetQuery,
  usePickListPdfMutation,
  usePrintChannelLabelsMutation,
  useArrangeChannelShipmentsMutation,
  useShipParcelsMutation,
  type OrderResultsBody,
  type OrderRow,
} from './api';
import {
  bulkActionsFor,
  offeredFor,
  COLUMNS,
  COUNT_KEYS,
  createPath,
  detailPath,
  isColumn,
  PAYMENT_STATES,
  pieces,
  printLabelPath,
  PROBLEMS,
  withinSelection,
  type BulkAction,
  type Column,
} from './orders';
import { BulkResultModal, channelName, PaymentTag, ProblemTags, ReasonModal, RETURN_MARKS, ReturnTag, StateTag, usePdf, type ReasonValues } from './parts';
import { showRefusal, type Doing } from './refusal';
import { doneResults, labelResults, nothingPrinted, pdfOfLabels } from './channelLabels';
import { ORDER_CANCEL, ORDER_CREATE, ORDER_EDIT, PAYMENT_APPROVE, STOCK_IN } from './routes';
import { useConfirmPayments } from './ConfirmPayments';
import { ExportOrders } from './ExportOrders';
import { InadequateGoods } from './InadequateGoods';

const PAGE_SIZE = 10;

/** An order's tracking numbers: its parcels' when the answer carries them (an order's own),
 * else the one the list gives. */
const trackingOf = (o: OrderRow) => o.parcels.map((p) => p.trackingNo).filter(Boolean).join(', ') || o.trackingNo;
const FILTERS = ['search', 'channel', 'from', 'to', 'payment', 'warehouse', 'problem', 'returns'] as const;

const DOING: Record<BulkAction, Doing> = {
  prepare: 'prepare',
  channelArrange: 'prepare',
  ship: 'ship',
  close: 'close',
  cancel: 'cancel',
  void: 'void',
  printLabels: 'print',
  channelLabels: 'print',
  pickList: 'print',
};

/** /order-list (SPEC §2 Orders): one tab per column (new, prepare shipment, sent, closed,
 * cancelled, failed) with its count; filtered by channel, days, payment, warehouse and
 * problem, and searched; rows are chosen for the column's bulk actions, each answered order by
 * order. The view lives in the address (`?state=…&search=…&page=…`). */
export default function OrderListPage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId } = useParams();
  const sid = storeId ?? '';
  const navigate = useNavigate();
  const { params, set: setAddress } = useAddressParams();
  const column: Column = isColumn(params.get('state')) ? (params.get('state') as Column) : 'new';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters = {
    search: params.get('search') || undefined,
    channel: params.get('channel') || undefined,
    dateFrom: params.get('from') || undefined,
    dateTo: params.get('to') || undefined,
    paymentState: params.get('payment') || undefined,
    warehouseId: Number(params.get('warehouse')) || undefined,
    problem: params.get('problem') || undefined,
    returns: params.get('returns') || undefined,
  };
  const canCreate = useCan(ORDER_CREATE);
  const canEdit = useCan(ORDER_EDIT);
  const canAdjust = useCan(STOCK_IN);
  const canCancel = useCan(ORDER_CANCEL);
  const canApprove = useCan(PAYMENT_APPROVE);
  const { data, isFetching, refetch } = useListOrdersQuery({ ...filters, orderState: column, page, limit: PAGE_SIZE });
  const { data: counts } = useCountOrdersQuery(filters);
  const { data: net } = useOrderNetQuery({ ...filters, orderState: column });
  const { data: channels } = useOrderChannelsQuery();
  const { data: limits } = useOrderLimitsQuery();
  const { data: warehouses } = useListWarehousesQuery();
  const [typed, setTyped] = useState(filters.search ?? '');
  const [selected, setSelected] = useState<number[]>([]);
  const confirmPayments = useConfirmPayments((body) => setSelected((s) => s.filter((id) => body.data.some((r) => r.orderId === id && !r.ok))));
  const [asking, setAsking] = useState<'cancel' | 'void' | null>(null);
  const [result, setResult] = useState<{ doing: Doing; body: OrderResultsBody } | null>(null);
  const [filling, setFilling] = useState(false);
  const [inadequate, setInadequate] = useState(false);
  const [prepare, { isLoading: preparing }] = useBulkReadyToFulfillmentMutation();
  const [close, { isLoading: closing }] = useBulkCloseMutation();
  const [cancel, { isLoading: cancelling }] = useBulkCancelMutation();
  const [voidOrders, { isLoading: voiding }] = useBulkVoidMutation();
  const [ship, { isLoading: shipping }] = useShipParcelsMutation();
  const [pickList] = usePickListPdfMutation();
  const [printChannelLabels] = usePrintChannelLabelsMutation();
  const [arrangeMany, { isLoading: arrangingMany }] = useArrangeChannelShipmentsMutation();
  /** The way chosen for arranging the selected marketplace orders (the dialog open while set). */
  const [handover, setHandover] = useState<'pickup' | 'dropoff' | null>(null);
  const pdf = usePdf();

  /** The same view with some of the address' query changed (back to page 1 unless named);
   * the chosen rows are let go (they were of another view). */
  const go = (change: Record<string, string | undefined>) => {
    if (!('page' in change)) setSelected([]);
    setAddress(change);
  };
  const anyFilter = FILTERS.some((k) => params.get(k));
  // The filters folded into the drawer on a phone (the days count as one).
  const folded = ['channel', 'payment', 'warehouse', 'problem', 'returns'].filter((k) => params.get(k)).length + (params.get('from') || params.get('to') ? 1 : 0);
  const mobile = useIsMobile();
  const [columnPrefs, setColumnPrefs] = useColumnPrefs('orders');

  const busy = preparing || closing || cancelling || voiding || shipping;
  // Arranging with the platform is offered when a marketplace order is chosen; a move by hand
  // when a chosen order allows it (a marketplace order its platform moves allows none).
  const chosenRows = (data?.data ?? []).filter((o) => selected.includes(o.id));
  const anyMarketplace = chosenRows.some((o) => Boolean(o.storeChannelId));
  const actions = offeredFor(
    bulkActionsFor(column, { edit: canEdit, cancel: canCancel }).filter((a) => a !== 'channelArrange' || anyMarketplace),
    chosenRows,
    chosenRows.length < selected.length,
  );

  const showResult = (doing: Doing, body: OrderResultsBody) => {
    setSelected((s) => s.filter((id) => body.data.some((r) => r.id === id && !r.ok)));
    if (body.failed === 0) notifySuccess(t('orders:bulk.done', { count: body.succeeded }));
    setResult({ doing, body });
  };

  const run = async (action: BulkAction) => {
    const ids = selected;
    if (ids.length === 0) return;
    if (!withinSelection(ids.length, limits?.maxSelection)) {
      void showDialog({ kind: 'error', title: 'orders:bulk.tooManyTitle', message: 'orders:bulk.tooMany', values: { n: limits?.maxSelection ?? 0 }, cancel: false });
      return;
    }
    const doing = DOING[action];
    if (action === 'printLabels') {
      navigate(printLabelPath(sid, ids));
      return;
    }
    if (action === 'pickList') {
      await pdf.open('pickList', () => pickList({ orderIds: ids }).unwrap(), 'pick-list.pdf');
      return;
    }
    if (action === 'channelLabels') {
      // The platforms' labels in one PDF; the orders not printed are listed with why.
      let failed: OrderResultsBody | null = null;
      await pdf.open(
        'channelLabels',
        async () => {
          const r = await printChannelLabels({ channelLabelsInput: { orderIds: ids } }).unwrap();
          failed = labelResults(ids, r, (id) => data?.data.find((o) => o.id === id)?.orderNo ?? String(id));
          if (!r.pdf) throw nothingPrinted(r);
          return pdfOfLabels(r.pdf);
        },
        'marketplace-labels.pdf',
      );
      if (failed && (failed as OrderResultsBody).failed > 0) setResult({ doing: 'print', body: failed });
      return;
    }
    if (action === 'cancel' || action === 'void') {
      setAsking(action);
      return;
    }
    if (action === 'channelArrange') {
      setHandover('pickup');
      return;
    }
    const ok = await showDialog({
      kind: 'question',
      title: `orders:bulk.confirmTitle.${action}`,
      message: `orders:bulk.confirm.${action}`,
      values: { count: ids.length },
      confirm: `orders:actions.${action}`,
    });
    if (!ok) return;
    try {
      const body =
        action === 'prepare'
          ? await prepare({ orderBulkInput: { ids } }).unwrap()
          : action === 'close'
            ? await close({ orderBulkInput: { ids } }).unwrap()
            : await ship({ shipInput: { orderIds: ids } }).unwrap();
      showResult(doing, body);
    } catch (e) {
      showRefusal(e, doing, t);
    }
  };

  const onArrange = async () => {
    const ids = selected;
    if (!handover) return;
    try {
      const r = await arrangeMany({ arrangeShipmentsInput: { orderIds: ids, handover } }).unwrap();
      setHandover(null);
      showResult('prepare', doneResults(ids, r.arranged, r.failed, (id) => data?.data.find((o) => o.id === id)?.orderNo ?? String(id)));
    } catch (e) {
      setHandover(null);
      showRefusal(e, 'prepare', t);
    }
  };

  const onReason = async (v: ReasonValues) => {
    const doing = asking;
    if (!doing) return;
    try {
      const input = { orderBulkInput: { ids: selected, reason: v.reason } };
      const body = doing === 'cancel' ? await cancel(input).unwrap() : await voidOrders(input).unwrap();
      setAsking(null);
      showResult(doing, body);
    } catch (e) {
      setAsking(null);
      showRefusal(e, doing, t);
    }
  };

  const lng = i18n.language;
  const warehouseName = (id: number) => warehouses?.data.find((w) => w.id === id)?.name ?? '';
  const columns = [
    {
      title: t('orders:fields.orderNo'),
      key: 'orderNo',
      render: (_: unknown, o: OrderRow) => (
        <Space orientation="vertical" size={0}>
          <Link to={detailPath(sid, o.id)} onClick={(e) => e.stopPropagation()} data-testid={`order-${o.id}-link`} style={{ whiteSpace: 'nowrap' }}>
            {o.orderNo}
          </Link>
          {o.reference ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {o.reference}
            </Typography.Text>
          ) : null}
          {o.problems.length || o.failureCause || o.returnMark ? (
            <Space size={[0, 4]} wrap data-testid={`order-${o.id}-problems`}>
              <ProblemTags problems={o.problems} />
              {o.failureCause ? <Tag color="red">{t(`orders:causes.${o.failureCause}`, { defaultValue: o.failureCause })}</Tag> : null}
              <ReturnTag mark={o.returnMark} testId={`order-${o.id}-return`} />
            </Space>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('orders:fields.createdAt'),
      key: 'createdAt',
      render: (_: unknown, o: OrderRow) => formatDateTime(o.createdAt, lng),
    },
    {
      title: t('orders:fields.receiver'),
      key: 'receiver',
      render: (_: unknown, o: OrderRow) =>
        o.shippingAddress.name || o.shippingAddress.tel ? (
          <Space orientation="vertical" size={0}>
            <span>{o.shippingAddress.name}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {o.shippingAddress.tel}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('orders:list.noReceiver')}</Typography.Text>
        ),
    },
    {
      title: t('orders:fields.channel'),
      key: 'channel',
      render: (_: unknown, o: OrderRow) =>
        o.channelShop ? (
          <Space orientation="vertical" size={0}>
            <span>{channelName(o.channel, channels?.data, lng)}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`order-${o.id}-shop`}>
              {o.channelShop}
            </Typography.Text>
          </Space>
        ) : (
          channelName(o.channel, channels?.data, lng)
        ),
    },
    {
      title: t('orders:fields.items'),
      key: 'items',
      render: (_: unknown, o: OrderRow) => t('orders:list.items', { count: o.items.length, pieces: pieces(o) }),
    },
    {
      title: t('orders:fields.total'),
      key: 'total',
      align: 'right' as const,
      render: (_: unknown, o: OrderRow) => (
        <span data-testid={`order-${o.id}-total`} style={{ whiteSpace: 'nowrap' }}>
          {formatBaht(o.total)}
        </span>
      ),
    },
    { title: t('orders:fields.payment'), key: 'payment', render: (_: unknown, o: OrderRow) => <PaymentTag state={o.paymentState} /> },
    ...(column === 'shipped' || column === 'closed' || column === 'ready_to_fulfillment'
      ? [
          {
            title: t('orders:fields.shipping'),
            key: 'shipping',
            render: (_: unknown, o: OrderRow) => (
              <Space orientation="vertical" size={0}>
                <span>{o.shippingName || '-'}</span>
                {trackingOf(o) ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`order-${o.id}-tracking`}>
                    {trackingOf(o)}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
          },
        ]
      : []),
    {
      title: t('orders:fields.warehouse'),
      key: 'warehouse',
      render: (_: unknown, o: OrderRow) => warehouseName(o.warehouseId),
    },
  ];

  const range = filters.dateFrom || filters.dateTo ? ([filters.dateFrom ? dayjs(filters.dateFrom) : null, filters.dateTo ? dayjs(filters.dateTo) : null] as const) : null;

  return (
    <Card data-testid="order-list">
      <div className="bo-page-head">
        <h1>{t('orders:list.title')}</h1>
        <HeadActions
          primary={
            canCreate ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(createPath(sid))} data-testid="order-create">
                {t('orders:list.create')}
              </Button>
            ) : null
          }
        >
          <ExportOrders />
          {canEdit ? (
            <Button icon={<ReloadOutlined />} onClick={() => setFilling(true)} data-testid="order-fill">
              {t('orders:fill.button')}
            </Button>
          ) : null}
          {canEdit && canAdjust ? (
            <Button icon={<InboxOutlined />} onClick={() => setInadequate(true)} data-testid="order-inadequate">
              {t('orders:inadequate.button')}
            </Button>
          ) : null}
          {canCreate ? (
            <Button icon={<UploadOutlined />} onClick={() => navigate(`/${sid}/order-import-channel`)} data-testid="order-import">
              {t('orders:import.button')}
            </Button>
          ) : null}
        </HeadActions>
      </div>
      <Tabs
        activeKey={column}
        tabBarExtraContent={
          mobile ? undefined : (
            <ColumnSettings columns={columns.map((c) => ({ key: c.key, title: c.title }))} prefs={columnPrefs} onChange={setColumnPrefs} />
          )
        }
        onChange={(k) => go({ state: k === 'new' ? undefined : k })}
        items={COLUMNS.map((k) => ({
          key: k,
          label: (
            <span data-testid={`tab-${k}`}>
              {t(`orders:columns.${k}`)}{' '}
              <Badge count={counts?.[COUNT_KEYS[k]] ?? 0} showZero overflowCount={99999} color={k === column ? '#0b2545' : '#bfbfbf'} data-testid={`tab-${k}-count`} />
            </span>
          ),
        }))}
      />
      <Filters
        active={folded}
        onClear={
          anyFilter
            ? () => {
                setTyped('');
                go(Object.fromEntries(FILTERS.map((k) => [k, undefined])));
              }
            : undefined
        }
        search={
          <Input.Search
            allowClear
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onSearch={(v) => go({ search: v.trim() || undefined })}
            placeholder={t('orders:list.search')}
            style={{ width: mobile ? '100%' : 280 }}
            inputMode="search"
            data-testid="order-search"
          />
        }
      >
        <Select
          allowClear
          value={filters.channel}
          onChange={(v?: string) => go({ channel: v })}
          placeholder={t('orders:list.allChannels')}
          options={(channels?.data ?? []).map((c) => ({ value: c.code, label: channelName(c.code, channels?.data, lng) }))}
          style={{ width: 160 }}
          data-testid="filter-channel"
        />
        <EraRangePicker
          value={range as never}
          onChange={(v) => go({ from: v?.[0]?.format('YYYY-MM-DD'), to: v?.[1]?.format('YYYY-MM-DD') })}
          placeholder={[t('orders:list.dateFrom'), t('orders:list.dateTo')]}
          data-testid="filter-dates"
        />
        <Select
          allowClear
          value={filters.paymentState}
          onChange={(v?: string) => go({ payment: v })}
          placeholder={t('orders:list.allPayments')}
          options={PAYMENT_STATES.map((p) => ({ value: p, label: t(`orders:payment.${p}`) }))}
          style={{ width: 180 }}
          data-testid="filter-payment"
        />
        <Select
          allowClear
          value={filters.warehouseId}
          onChange={(v?: number) => go({ warehouse: v ? String(v) : undefined })}
          placeholder={t('orders:list.allWarehouses')}
          options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
          style={{ width: 180 }}
          data-testid="filter-warehouse"
        />
        <Select
          allowClear
          value={filters.problem}
          onChange={(v?: string) => go({ problem: v })}
          placeholder={t('orders:list.allProblems')}
          options={[...PROBLEMS.map((p) => ({ value: p, label: t(`orders:problems.${p}`) })), { value: 'any', label: t('orders:problems.any') }]}
          style={{ width: 170 }}
          data-testid="filter-problem"
        />
        <Select
          allowClear
          value={filters.returns}
          onChange={(v?: string) => go({ returns: v })}
          placeholder={t('orders:returns.filter')}
          options={[...RETURN_MARKS.map((m) => ({ value: m, label: t(`orders:returns.marks.${m}`) })), { value: 'any', label: t('orders:returns.marks.any') }]}
          style={{ width: 170 }}
          data-testid="filter-returns"
        />
      </Filters>
      {net ? (
        <Typography.Paragraph type="secondary" data-testid="order-net">
          {t('orders:list.net', { count: net.orders, total: formatBaht(net.total), shipping: formatBaht(net.shipping) })}
          {net.profit !== null && net.profit !== undefined ? ` · ${t('orders:list.netProfit', { profit: formatBaht(net.profit) })}` : ''}
        </Typography.Paragraph>
      ) : null}
      {selected.length > 0 && (actions.length > 0 || canApprove) ? (
        <BottomBar data-testid="bulk-actions">
          <Typography.Text strong data-testid="bulk-count">
            {t('orders:bulk.selected', { count: selected.length })}
          </Typography.Text>
          {actions.map((a) => (
            <Button
              key={a}
              danger={a === 'cancel' || a === 'void'}
              type={a === 'prepare' || a === 'ship' ? 'primary' : 'default'}
              loading={busy || (a === 'pickList' && pdf.busy === 'pickList') || (a === 'channelLabels' && pdf.busy === 'channelLabels')}
              icon={a === 'printLabels' || a === 'pickList' || a === 'channelLabels' ? <FileTextOutlined /> : undefined}
              onClick={() => void run(a)}
              data-testid={`bulk-${a}`}
            >
              {t(`orders:actions.${a}`)}
            </Button>
          ))}
          {canApprove ? (
            <Button icon={<DollarOutlined />} onClick={() => confirmPayments.start(selected)} data-testid="bulk-confirmPayment">
              {t('orders:actions.confirmPayment')}
            </Button>
          ) : null}
          <Button type="link" onClick={() => setSelected([])} data-testid="bulk-clear">
            {t('orders:bulk.clear')}
          </Button>
        </BottomBar>
      ) : null}
      <ListView<OrderRow>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={arrange(columns, columnPrefs)}
        dataSource={data?.data ?? []}
        pagination={false}
        rowSelection={
          actions.length > 0
            ? { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys.map(Number)), columnWidth: 40 }
            : undefined
        }
        locale={{ emptyText: anyFilter ? t('orders:list.noMatch') : t(`orders:list.empty.${column}`) }}
        onRow={(o) => ({ onClick: () => navigate(detailPath(sid, o.id)), style: { cursor: 'pointer' } })}
        onOpen={(o) => navigate(detailPath(sid, o.id))}
        cardTestId={(o) => `order-${o.id}-card`}
        card={(o) => (
          <OrderCard
            order={o}
            channel={channelName(o.channel, channels?.data, lng)}
            tracking={trackingOf(o)}
            when={formatDateTime(o.createdAt, lng)}
          />
        )}
        data-testid="order-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => go({ page: String(p) })} />

      <Modal
        open={handover !== null}
        title={t('orders:channelArrange.title', { count: selected.length })}
        okText={t('orders:channelArrange.ok')}
        cancelText={t('common:actions.cancel')}
        onOk={() => void onArrange()}
        onCancel={() => setHandover(null)}
        confirmLoading={arrangingMany}
        destroyOnHidden
        data-testid="channel-arrange-many"
      >
        <Space orientation="vertical">
          <Radio.Group value={handover} onChange={(e) => setHandover(e.target.value as 'pickup' | 'dropoff')} data-testid="channel-arrange-way">
            <Radio.Button value="pickup" data-testid="channel-arrange-pickup">
              {t('orders:channelShipping.ways.pickup')}
            </Radio.Button>
            <Radio.Button value="dropoff" data-testid="channel-arrange-dropoff">
              {t('orders:channelShipping.ways.dropoff')}
            </Radio.Button>
          </Radio.Group>
          <Typography.Text type="secondary">{t(handover === 'dropoff' ? 'orders:channelArrange.dropoffHint' : 'orders:channelArrange.pickupHint')}</Typography.Text>
          <Typography.Text type="secondary">{t('orders:channelArrange.hint')}</Typography.Text>
        </Space>
      </Modal>
      <ReasonModal
        doing={asking ?? 'cancel'}
        count={selected.length}
        open={asking !== null}
        busy={cancelling || voiding}
        onCancel={() => setAsking(null)}
        onConfirm={(v) => void onReason(v)}
      />
      <BulkResultModal doing={result?.doing ?? 'prepare'} result={result?.body ?? null} onClose={() => setResult(null)} />
      <InadequateGoods open={inadequate} onClose={() => setInadequate(false)} warehouses={(warehouses?.data ?? []).filter((w) => w.active)} />
      <FillModal open={filling} onClose={() => setFilling(false)} warehouses={(warehouses?.data ?? []).filter((w) => w.active)} onFilled={() => void refetch()} />
      {confirmPayments.modal}
    </Card>
  );
}

/** An order as a card on a phone: number and total, buyer, channel and lines, its state,
 * payment and problems. */
function OrderCard({ order: o, channel, tracking, when }: { order: OrderRow; channel: string; tracking: string; when: string }) {
  const { t } = useTranslation('orders');
  const buyer = [o.shippingAddress.name, o.shippingAddress.tel].filter(Boolean).join(' · ');
  return (
    <>
      <div className="bo-card-row">
        <span className="bo-card-title">{o.orderNo}</span>
        <strong data-testid={`order-${o.id}-total`}>{formatBaht(o.total)}</strong>
      </div>
      <div className="bo-card-row">
        <span>{buyer || <Typography.Text type="secondary">{t('list.noReceiver')}</Typography.Text>}</span>
      </div>
      <div className="bo-card-sub">
        {[channel, t('list.items', { count: o.items.length, pieces: pieces(o) }), when].filter(Boolean).join(' · ')}
        {tracking ? <div data-testid={`order-${o.id}-tracking`}>{tracking}</div> : null}
      </div>
      <div className="bo-card-tags">
        <StateTag state={o.state} testId={`order-${o.id}-state`} />
        <PaymentTag state={o.paymentState} />
        <ProblemTags problems={o.problems} />
        {o.failureCause ? <Tag color="red">{t(`causes.${o.failureCause}`, { defaultValue: o.failureCause })}</Tag> : null}
        <ReturnTag mark={o.returnMark} testId={`order-${o.id}-return`} />
      </div>
    </>
  );
}

/** Fills the short orders of one warehouse (SPEC §5: one warehouse at a time) from the stock
 * available now, oldest first; says 'Inadequate goods aren't found' when none is short. */
function FillModal({ open, onClose, warehouses, onFilled }: { open: boolean; onClose: () => void; warehouses: { id: number; name: string; isDefault: boolean }[]; onFilled: () => void }) {
  const { t } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<{ warehouseId?: number }>();
  const [fill, { isLoading }] = useHandleOutOfStockMutation();
  const submit = async (v: { warehouseId?: number }) => {
    try {
      const r = await fill({ outOfStockInput: { warehouseId: v.warehouseId } }).unwrap();
      onClose();
      onFilled();
      if (r.filled.length === 0 && r.short.length === 0) {
        void showDialog({ kind: 'info', title: 'orders:fill.title', message: 'orders:fill.noneShort', cancel: false });
      } else if (r.filled.length === 0) {
        void showDialog({ kind: 'warning', title: 'orders:fill.title', message: 'orders:fill.stillShort', values: { count: r.short.length }, cancel: false });
      } else {
        notifySuccess(t('orders:fill.done', { filled: r.filled.length, short: r.short.length }));
      }
    } catch (e) {
      onClose();
      showRefusal(e, 'fill', t);
    }
  };
  const first = warehouses.find((w) => w.isDefault) ?? warehouses[0];
  return (
    <Modal
      open={open}
      title={t('orders:fill.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('orders:fill.confirm')}
      okButtonProps={{ loading: isLoading, id: 'fill-confirm' }}
      cancelText={t('common:actions.cancel')}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('orders:fill.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ warehouseId: first?.id }} onFinish={(v) => void submit(v)} data-testid="fill-form">
        <Form.Item name="warehouseId" label={t('orders:fields.warehouse')} rules={[{ required: true, message: t('common:validation.required') }]}>
          <Select options={warehouses.map((w) => ({ value: w.id, label: w.name }))} data-testid="fill-warehouse" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
