import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Descriptions, Dropdown, Form, Input, Modal, Radio, Result, Row, Space, Spin, Tag, Typography } from 'antd';
import {
  CheckOutlined,
  CloseCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  FileTextOutlined,
  PlusOutlined,
  PrinterOutlined,
  SendOutlined,
  StopOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { AddressFields, useInternational } from '@/shared/address/AddressFields';
import { addressLine } from '@/shared/address/countries';
import { AuditTimeline } from '@/shared/audit/AuditTimeline';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { notifyRefusal } from '@/shared/refusal';
import { checkEmail, checkInternationalPhone, checkThaiPhone } from '@/shared/form/rules';
import { formField, namePath } from '@/shared/form/serverErrors';
import { useCheck } from '@/shared/form/useCheck';
import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import { ListView } from '@/shared/list/ListView';
import { BottomBar, HeadActions } from '@/shared/list/Actions';
import { useIsMobile } from '@/app/layouts/useDevice';
import { useListAddressesQuery, type AddressBody } from '@/features/customers/api';
import { SkuSelect, useListWarehousesQuery } from '@/features/stock/api';
import {
  useAddParcelMutation,
  useChangeOrderStateMutation,
  useChangeShippingAddressMutation,
  useClearShippingAddressMutation,
  useDeleteParcelMutation,
  useGetOrderQuery,
  useLinkLineSkuMutation,
  useOrderChannelsQuery,
  usePackagingsQuery,
  useParcelLabelPdfMutation,
  usePickListPdfMutation,
  useShipParcelsMutation,
  useUpdateParcelMutation,
  type OrderBody,
  type OrderItemBody,
  type OrderParcelBody,
  type Packaging,
} from './api';
import { BillsCard } from './BillsCard';
import { ChannelShippingCard } from './ChannelShippingCard';
import { ReturnsCard } from './ReturnsCard';
import { actionsOf, addressInput, editPath, eventLine, LABEL_SIZES, listPath, parcelInput, type AddressValues, type ParcelValues, type StateAction } from './orders';
import { channelName, PaymentTag, ProblemTags, ReasonModal, StateTag, usePdf, type ReasonValues } from './parts';
import { DOING_OF, showRefusal } from './refusal';
import { CUSTOMER_PICK, ORDER_CANCEL, ORDER_EDIT } from './routes';

/** /order-detail/{id} (SPEC §2, §3, §4): one order, its lines, money and profit (for those who
 * may see costs), problems, where it goes (changed or cleared while open), what may be done
 * to it in its state (prepare, close, cancel, void with a reason, fail with a cause), its
 * parcels (packaging, weight, size, tracking number, fees, labels, the carrier's tracking),
 * shipping, and its timeline. */
/** The actions that move an order on, in sight on a phone; the others wait behind "more". */
const PRIMARY = ['prepare', 'ship', 'close'];

export default function OrderDetailPage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId, id: idParam } = useParams();
  const sid = storeId ?? '';
  const id = Number(idParam);
  const navigate = useNavigate();
  const { data: o, isLoading, isError, error } = useGetOrderQuery({ id });
  const { data: warehouses } = useListWarehousesQuery();
  const { data: channels } = useOrderChannelsQuery();
  const [change, { isLoading: changing, originalArgs: changingArgs }] = useChangeOrderStateMutation();
  const [ship, { isLoading: shipping }] = useShipParcelsMutation();
  const [pickList] = usePickListPdfMutation();
  const canEdit = useCan(ORDER_EDIT);
  const canCancel = useCan(ORDER_CANCEL);
  const [asking, setAsking] = useState<'cancel' | 'void' | 'fail' | null>(null);
  const pdf = usePdf();
  const mobile = useIsMobile();

  if (isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (isError || !o) {
    const notFound = apiError(error)?.code === 'order_not_found' || (error as { status?: number } | undefined)?.status === 404;
    return (
      <Result
        status={notFound ? '404' : 'warning'}
        title={t(notFound ? 'orders:errors.notFound' : 'orders:errors.loadFailed')}
        extra={<Button onClick={() => navigate(listPath(sid))}>{t('orders:detail.backToList')}</Button>}
      />
    );
  }

  const can = actionsOf(o);
  const lng = i18n.language;

  const move = async (action: StateAction, input: { reason?: string; cause?: string } = {}) => {
    const doing = DOING_OF[action];
    try {
      const next = await change({ id: o.id, action, orderStateInput: input }).unwrap();
      notifySuccess(t(`orders:detail.moved.${doing}`, { orderNo: o.orderNo }));
      return next;
    } catch (e) {
      showRefusal(e, doing, t);
      return null;
    }
  };

  const ask = async (action: 'ready-to-fulfillment' | 'close') => {
    const doing = DOING_OF[action];
    const ok = await showDialog({ kind: 'question', title: `orders:detail.confirmTitle.${doing}`, message: `orders:detail.confirm.${doing}`, values: { orderNo: o.orderNo }, confirm: `orders:actions.${doing}` });
    if (ok) await move(action);
  };

  const onReason = async (v: ReasonValues) => {
    if (!asking) return;
    const action: StateAction = asking;
    await move(action, asking === 'fail' ? { cause: v.cause, reason: v.reason } : { reason: v.reason });
    setAsking(null);
  };

  const onShip = async () => {
    const ok = await showDialog({ kind: 'question', title: 'orders:detail.confirmTitle.ship', message: 'orders:detail.confirm.ship', values: { orderNo: o.orderNo, count: o.parcels.length }, confirm: 'orders:actions.ship' });
    if (!ok) return;
    try {
      const r = await ship({ shipInput: { orderIds: [o.id] } }).unwrap();
      const mine = r.data.find((x) => x.id === o.id);
      if (mine?.ok) notifySuccess(t('orders:detail.moved.ship', { orderNo: o.orderNo }));
      else void showDialog({ kind: 'error', title: 'orders:failure.ship', message: 'orders:failure.checkDetail', values: { reason: t(`orders:reasons.${mine?.reason ?? 'unknown'}`, { defaultValue: t('orders:reasons.unknown') }) }, cancel: false });
    } catch (e) {
      showRefusal(e, 'ship', t);
    }
  };

  const busy = (action: StateAction) => changing && changingArgs?.action === action;
  const actions: ReactNode[] = [];
  if (can.edit && canEdit)
    actions.push(
      <Button key="edit" icon={<EditOutlined />} onClick={() => navigate(editPath(sid, o.id))} data-testid="order-edit">
        {t('common:actions.edit')}
      </Button>,
    );
  if (can.pickList)
    actions.push(
      <Button key="pick" icon={<FileTextOutlined />} loading={pdf.busy === 'pickList'} onClick={() => void pdf.open('pickList', () => pickList({ orderIds: [o.id] }).unwrap(), `${o.orderNo}-pick-list.pdf`)} data-testid="order-pick-list">
        {t('orders:actions.pickList')}
      </Button>,
    );
  if (can.prepare && canEdit)
    actions.push(
      <Button key="prepare" type="primary" icon={<CheckOutlined />} loading={busy('ready-to-fulfillment')} onClick={() => void ask('ready-to-fulfillment')} data-testid="order-prepare">
        {t('orders:actions.prepare')}
      </Button>,
    );
  if (can.ship && canEdit)
    actions.push(
      <Button key="ship" type="primary" icon={<SendOutlined />} loading={shipping} onClick={() => void onShip()} data-testid="order-ship">
        {t('orders:actions.ship')}
      </Button>,
    );
  if (can.close && canEdit)
    actions.push(
      <Button key="close" type="primary" icon={<CheckOutlined />} loading={busy('close')} onClick={() => void ask('close')} data-testid="order-close">
        {t('orders:actions.close')}
      </Button>,
    );
  if (can.fail && canCancel)
    actions.push(
      <Button key="fail" danger icon={<WarningOutlined />} onClick={() => setAsking('fail')} data-testid="order-fail">
        {t('orders:actions.fail')}
      </Button>,
    );
  if (can.cancel && canCancel)
    actions.push(
      <Button key="cancel" danger icon={<CloseCircleOutlined />} onClick={() => setAsking('cancel')} data-testid="order-cancel">
        {t('orders:actions.cancel')}
      </Button>,
    );
  if (can.void && canCancel)
    actions.push(
      <Button key="void" danger icon={<StopOutlined />} onClick={() => setAsking('void')} data-testid="order-void">
        {t('orders:actions.void')}
      </Button>,
    );

  const warehouseName = warehouses?.data.find((w) => w.id === o.warehouseId)?.name ?? '';

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <div className="bo-page-head">
          <Space wrap align="center">
            <h1 style={{ margin: 0 }} data-testid="order-no">
              {t('orders:detail.title', { orderNo: o.orderNo })}
            </h1>
            <StateTag state={o.state} />
            <PaymentTag state={o.paymentState} />
            <ProblemTags problems={o.problems} />
            {o.shippingAddressChanged ? <Tag color="purple">{t('orders:detail.addressChanged')}</Tag> : null}
          </Space>
          {mobile ? null : <Space wrap>{actions}</Space>}
        </div>
        {o.state === 'failed' ? (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('orders:detail.failedBecause', { cause: t(`orders:causes.${o.failureCause}`, { defaultValue: o.failureCause }) })}
            description={o.failureReason || undefined}
            data-testid="failure"
          />
        ) : null}
        {o.problems.length > 0 && o.state === 'new' ? (
          <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('orders:detail.problemsHint')} description={o.problems.map((p) => t(`orders:problems.hint.${p}`, { defaultValue: p })).join(' ')} data-testid="problems" />
        ) : null}
        <Header o={o} warehouseName={warehouseName} channel={channelName(o.channel, channels?.data, lng)} lng={lng} sid={sid} />
      </Card>

      <Card title={t('orders:detail.items')}>
        <ItemsTable o={o} canLink={canEdit && o.state === 'new'} />
        <Row gutter={16} style={{ marginTop: 16 }}>
          <Col xs={24} md={12}>
            {o.profit ? <ProfitView o={o} /> : null}
          </Col>
          <Col xs={24} md={12}>
            <MoneyView o={o} />
          </Col>
        </Row>
      </Card>

      {o.bills.length ? <BillsCard o={o} canEdit={canEdit} warehouseName={(w) => warehouses?.data.find((x) => x.id === w)?.name ?? ''} /> : null}

      <AddressCard o={o} canChange={can.address && canEdit} sid={sid} />

      {o.storeChannelId && ['new', 'ready_to_fulfillment', 'shipped'].includes(o.state) ? (
        <ChannelShippingCard o={o} canEdit={canEdit} fallback={o.state !== 'new' ? <ParcelsCard o={o} canEdit={can.parcels && canEdit} /> : null} />
      ) : o.state !== 'new' && o.state !== 'cancelled' ? (
        <ParcelsCard o={o} canEdit={can.parcels && canEdit} />
      ) : null}

      <ReturnsCard o={o} sid={sid} canEdit={canEdit} />

      <Card title={t('orders:detail.timeline')}>
        <AuditTimeline
          testId="order-timeline"
          withActor
          entries={o.events.map((e) => ({ ...e, actorName: e.userName, detail: {} as object, event: e }))}
          describe={(e) => eventLine(e.event, t)}
        />
        {o.eventsTotal > o.events.length ? (
          <Typography.Text type="secondary" data-testid="order-timeline-cut">
            {t('orders:detail.timelineCut', { shown: o.events.length.toLocaleString(), total: o.eventsTotal.toLocaleString() })}
          </Typography.Text>
        ) : null}
      </Card>

      <ReasonModal
        doing={asking ?? 'cancel'}
        count={1}
        orderNo={o.orderNo}
        open={asking !== null}
        busy={changing}
        onCancel={() => setAsking(null)}
        onConfirm={(v) => void onReason(v)}
      />
      {mobile && actions.length ? (
        // On a phone the actions the state allows sit at the bottom, the next step in sight.
        <BottomBar data-testid="order-actions">
          <HeadActions primary={actions.filter((a) => PRIMARY.includes(String((a as { key?: string }).key)))}>
            {actions.filter((a) => !PRIMARY.includes(String((a as { key?: string }).key)))}
          </HeadActions>
        </BottomBar>
      ) : null}
    </Space>
  );
}

function Header({ o, warehouseName, channel, lng, sid }: { o: OrderBody; warehouseName: string; channel: string; lng: string; sid: string }) {
  const { t } = useTranslation(['orders', 'common']);
  const canCustomers = useCan(CUSTOMER_PICK);
  const at = (label: string, iso: string | null | undefined) => (iso ? [{ key: label, label: t(`orders:dates.${label}`), children: formatDateTime(iso, lng) }] : []);
  const items: { key: string; label: string; children: ReactNode }[] = [
    { key: 'channel', label: t('orders:fields.channel'), children: o.channelShop ? `${channel} · ${o.channelShop}` : channel },
    { key: 'reference', label: t('orders:fields.reference'), children: o.reference || '-' },
    { key: 'warehouse', label: t('orders:fields.warehouse'), children: warehouseName || '-' },
    {
      key: 'created',
      label: t('orders:fields.createdBy'),
      children: t('orders:detail.byAt', { name: o.createdByName || t('common:audit.system'), at: formatDateTime(o.createdAt, lng) }),
    },
    {
      key: 'customer',
      label: t('orders:fields.customer'),
      children:
        o.customerId && canCustomers ? (
          <Link to={`/${sid}/customer-detail/${o.customerId}`} data-testid="order-customer-link">
            {o.shippingAddress.name || t('orders:form.customerNo', { id: o.customerId })}
          </Link>
        ) : (
          t('orders:detail.noCustomer')
        ),
    },
    {
      key: 'shipping',
      label: t('orders:fields.shippingChannel'),
      children: o.shippingName ? `${o.shippingName}${o.cod ? ` · ${t('orders:fields.cod')}` : ''}` : t('orders:form.noChannel'),
    },
    { key: 'weight', label: t('orders:fields.estimatedWeight'), children: t('orders:detail.kg', { kg: o.estimatedWeight }) },
    { key: 'stock', label: t('orders:fields.stockState'), children: t(`orders:stock.${o.stockState}`, { defaultValue: o.stockState }) },
    ...at('readyToFulfillmentAt', o.readyToFulfillmentAt),
    ...at('shippedAt', o.shippedAt),
    ...at('closedAt', o.closedAt),
    ...at('failedAt', o.failedAt),
    ...at('cancelledAt', o.cancelledAt),
    ...at('voidedAt', o.voidedAt),
    { key: 'note', label: t('orders:fields.note'), children: o.note ? <span style={{ whiteSpace: 'pre-wrap' }}>{o.note}</span> : '-' },
  ];
  return <Descriptions size="small" bordered column={{ xs: 1, md: 2 }} items={items} data-testid="order-header" />;
}

/** Gives a marketplace line that matched none of our SKUs one of them: it holds its stock at
 * once, and the shop's next orders of the listing come as that SKU. */
function LinkSkuModal({ o, line, onClose }: { o: OrderBody; line: OrderItemBody; onClose: () => void }) {
  const { t } = useTranslation(['orders', 'common']);
  const [skuId, setSkuId] = useState<number>();
  const [link, { isLoading }] = useLinkLineSkuMutation();
  const [error, setError] = useState<string>();
  const save = async () => {
    if (!skuId) {
      setError(t('orders:link.pick'));
      return;
    }
    try {
      await link({ id: o.id, itemId: line.id, lineSkuInput: { skuId } }).unwrap();
      notifySuccess(t('orders:link.done', { sku: line.skuCode }));
      onClose();
    } catch (e) {
      // A broken rule is said in the dialog; other refusals as every screen says them.
      const field = apiError(e)?.fields?.[0];
      if (field) setError(t(field.code, { ns: ['orders', 'common'] }));
      else notifyRefusal(e, t, 'orders');
    }
  };
  return (
    <Modal
      open
      title={t('orders:link.title', { sku: line.skuCode || line.productName })}
      onCancel={onClose}
      onOk={save}
      okText={t('orders:link.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={isLoading}
      okButtonProps={{ id: 'link-sku-save' }}
    >
      <Typography.Paragraph type="secondary">{t('orders:link.hint', { listing: line.listing || '-' })}</Typography.Paragraph>
      <SkuSelect value={skuId} onChange={setSkuId} warehouseId={line.warehouseId} testId="link-sku-pick" placeholder={t('orders:link.pick')} />
      {error ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={error} data-testid="link-sku-error" /> : null}
    </Modal>
  );
}

function ItemsTable({ o, canLink }: { o: OrderBody; canLink: boolean }) {
  const { t } = useTranslation(['orders', 'common']);
  const costs = o.items.some((i) => i.cost !== null && i.cost !== undefined);
  const [linking, setLinking] = useState<OrderItemBody | null>(null);
  const linkButton = (i: OrderItemBody) =>
    canLink ? (
      <Button size="small" onClick={() => setLinking(i)} data-testid={`item-${i.id}-link`}>
        {t('orders:link.button')}
      </Button>
    ) : null;
  return (
    <>
    {linking ? <LinkSkuModal o={o} line={linking} onClose={() => setLinking(null)} /> : null}
    <ListView<OrderItemBody>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={o.items}
      scroll={{ x: 900 }}
      data-testid="order-items"
      cardTestId={(i) => `item-${i.id}-card`}
      card={(i) => (
        <>
          <div className="bo-card-row">
            <span className="bo-card-title">{i.productName}</span>
            <strong>{formatBaht(i.lineTotal)}</strong>
          </div>
          <div className="bo-card-row bo-card-sub">
            <span>
              {[i.skuCode, i.variant].filter(Boolean).join(' · ')}
              {i.skuId === 0 ? <Tag color="orange">{t('orders:problems.sku_not_linked')}</Tag> : null}
              {i.skuId === 0 ? linkButton(i) : null}
            </span>
            <span>
              {i.quantity} × {formatBaht(i.price)}
            </span>
          </div>
          {i.packingOptions.length ? (
            <div className="bo-card-tags">
              {i.packingOptions.map((p) => (
                <Tag key={p}>{p}</Tag>
              ))}
            </div>
          ) : null}
          {i.note ? <div className="bo-card-sub">{i.note}</div> : null}
        </>
      )}
      columns={[
        { title: '#', key: 'n', width: 44, render: (_: unknown, _i: OrderItemBody, n: number) => n + 1 },
        {
          title: t('orders:fields.skuCode'),
          key: 'sku',
          width: 130,
          render: (_: unknown, i: OrderItemBody) => (
            <Space orientation="vertical" size={0}>
              <span>{i.skuCode}</span>
              {i.skuId === 0 ? (
                <>
                  <Tag color="orange" data-testid={`item-${i.id}-unlinked`}>
                    {t('orders:problems.sku_not_linked')}
                  </Tag>
                  {linkButton(i)}
                </>
              ) : null}
            </Space>
          ),
        },
        {
          title: t('orders:fields.product'),
          key: 'product',
          render: (_: unknown, i: OrderItemBody) => (
            <Space orientation="vertical" size={0}>
              <span>{i.productName}</span>
              {i.variant ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{i.variant}</Typography.Text> : null}
              {i.packingOptions.length ? (
                <span>
                  {i.packingOptions.map((p) => (
                    <Tag key={p}>{p}</Tag>
                  ))}
                </span>
              ) : null}
              {i.note ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{i.note}</Typography.Text> : null}
            </Space>
          ),
        },
        { title: t('orders:fields.quantity'), dataIndex: 'quantity', key: 'qty', width: 90, align: 'right' as const },
        { title: t('orders:fields.price'), key: 'price', width: 120, align: 'right' as const, render: (_: unknown, i: OrderItemBody) => formatBaht(i.price) },
        ...(costs ? [{ title: t('orders:fields.cost'), key: 'cost', width: 110, align: 'right' as const, render: (_: unknown, i: OrderItemBody) => formatBaht(i.cost ?? '') }] : []),
        { title: t('orders:fields.lineTotal'), key: 'total', width: 130, align: 'right' as const, render: (_: unknown, i: OrderItemBody) => formatBaht(i.lineTotal) },
      ]}
    />
    </>
  );
}

/** The order's money as the server computed it. */
function MoneyView({ o }: { o: OrderBody }) {
  const { t } = useTranslation(['orders', 'common']);
  const baht = (v: string) => t('common:money.baht', { amount: formatBaht(v) });
  const rows: [string, string, string][] = [
    ['subtotal', t('orders:totals.subtotal'), baht(o.subtotal)],
    ...(o.discount.type
      ? [['discount', o.discount.type === 'percent' ? t('orders:totals.discountPercent', { value: o.discount.value }) : t('orders:totals.discount'), `-${baht(o.discount.amount)}`] as [string, string, string]]
      : []),
    ['net', t('orders:totals.net'), baht(o.net)],
    ['shipping', o.shippingChargeInter !== '0.00' ? t('orders:totals.shippingInter') : t('orders:totals.shipping'), baht(o.shippingTotal)],
    ...(o.additionalFee !== '0.00' ? [['fee', t('orders:totals.additionalFee'), baht(o.additionalFee)] as [string, string, string]] : []),
    ['vat', t(o.vatIncluded ? 'orders:totals.vatIncluded' : 'orders:totals.vatAdded'), baht(o.vatAmount)],
  ];
  return (
    <div data-testid="order-money">
      {rows.map(([k, label, value]) => (
        <div key={k} className="bo-page-head" style={{ marginBottom: 6 }}>
          <Typography.Text>{label}</Typography.Text>
          <Typography.Text data-testid={`money-${k}`}>{value}</Typography.Text>
        </div>
      ))}
      <div className="bo-page-head" style={{ borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
        <Typography.Text strong>{t('orders:totals.total')}</Typography.Text>
        <Typography.Text strong data-testid="money-total">
          {baht(o.total)}
        </Typography.Text>
      </div>
    </div>
  );
}

/** What the goods cost and earn (shown only when the API gives it: the owner, or whoever may
 * read products). */
function ProfitView({ o }: { o: OrderBody }) {
  const { t } = useTranslation(['orders', 'common']);
  const p = o.profit;
  if (!p) return null;
  const baht = (v: string) => t('common:money.baht', { amount: formatBaht(v) });
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      title={t('orders:profit.title')}
      data-testid="order-profit"
      items={[
        { key: 'cost', label: t('orders:profit.costTotal'), children: <span data-testid="profit-cost">{baht(p.costTotal)}</span> },
        { key: 'netExVat', label: t('orders:profit.netExVat'), children: <span data-testid="profit-net">{baht(p.netExVat)}</span> },
        {
          key: 'profit',
          label: t('orders:profit.profit'),
          children: (
            <Typography.Text type={p.profit.startsWith('-') ? 'danger' : 'success'} strong data-testid="profit-value">
              {baht(p.profit)}
            </Typography.Text>
          ),
        },
        { key: 'margin', label: t('orders:profit.margin'), children: <span data-testid="profit-margin">{p.margin ? `${p.margin}%` : '-'}</span> },
      ]}
    />
  );
}

/** Where the order goes; while open, changed (an address of the customer's book, or typed)
 * or cleared. */
function AddressCard({ o, canChange, sid }: { o: OrderBody; canChange: boolean; sid: string }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const [open, setOpen] = useState(false);
  const [clear, { isLoading: clearing }] = useClearShippingAddressMutation();
  const a = o.shippingAddress;
  const empty = !a.name && !a.tel && !a.address;
  const onClear = async () => {
    const ok = await showDialog({ kind: 'warning', title: 'orders:address.clearTitle', message: 'orders:address.clearMessage', values: { orderNo: o.orderNo }, confirm: 'orders:address.clear' });
    if (!ok) return;
    try {
      await clear({ id: o.id }).unwrap();
      notifySuccess(t('orders:address.cleared', { orderNo: o.orderNo }));
    } catch (e) {
      showRefusal(e, 'address', t);
    }
  };
  return (
    <Card
      title={t('orders:address.title')}
      extra={
        canChange ? (
          <Space>
            <Button icon={<EditOutlined />} onClick={() => setOpen(true)} data-testid="address-change">
              {t('orders:address.change')}
            </Button>
            {!empty ? (
              <Button danger icon={<DeleteOutlined />} loading={clearing} onClick={() => void onClear()} data-testid="address-clear">
                {t('orders:address.clear')}
              </Button>
            ) : null}
          </Space>
        ) : null
      }
    >
      {empty ? (
        <Typography.Text type="secondary" data-testid="address-empty">
          {t('orders:address.none')}
        </Typography.Text>
      ) : (
        <Space orientation="vertical" size={0} data-testid="order-address">
          <Typography.Text strong>{a.name}</Typography.Text>
          <span>{[a.tel, a.email].filter(Boolean).join(' · ')}</span>
          <span>{addressLine(a, i18n.language)}</span>
        </Space>
      )}
      {open ? <AddressModal o={o} sid={sid} onClose={() => setOpen(false)} /> : null}
    </Card>
  );
}

interface AddressModalValues {
  customerAddressId: number;
  shippingAddress: AddressValues;
}

function AddressModal({ o, sid, onClose }: { o: OrderBody; sid: string; onClose: () => void }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<AddressModalValues>();
  const canBook = useCan(CUSTOMER_PICK);
  const { data: book } = useListAddressesQuery({ id: Number(sid), customerId: o.customerId, limit: 50 }, { skip: !o.customerId || !canBook });
  const [save, { isLoading }] = useChangeShippingAddressMutation();
  const chosen = (Form.useWatch('customerAddressId', form) as number | undefined) ?? 0;
  const abroad = useInternational(form, ['shippingAddress']);
  const rule = useCheck();
  const a = o.shippingAddress;
  const submit = async (v: AddressModalValues) => {
    const body = chosen > 0 ? { customerAddressId: chosen, customerId: o.customerId } : { shippingAddress: addressInput(v.shippingAddress), customerId: o.customerId };
    try {
      await save({ id: o.id, shippingAddressInput: body }).unwrap();
      notifySuccess(t('orders:address.changed', { orderNo: o.orderNo }));
      onClose();
    } catch (e) {
      const fields = apiError(e)?.fields ?? [];
      if (fields.length) {
        form.setFields(
          fields.map((f) => {
            const path = namePath(f.field);
            return { name: path[0] === 'shippingAddress' ? path : ['shippingAddress', ...path], errors: [t([`orders:${f.code}`, `common:${f.code}`, 'orders:reasons.unknown'])] };
          }) as never,
        );
      } else showRefusal(e, 'address', t);
    }
  };
  return (
    <Modal
      open
      width={720}
      title={t('orders:address.changeTitle', { orderNo: o.orderNo })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      okButtonProps={{ loading: isLoading, id: 'address-save' }}
      cancelText={t('common:actions.cancel')}
    >
      <Form<AddressModalValues>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={{ customerAddressId: 0, shippingAddress: { ...a, country: a.country || 'TH', international: Boolean(a.country && a.country !== 'TH') } }}
        data-testid="address-form"
      >
        {book && book.data.length > 0 ? (
          <Form.Item name="customerAddressId" label={t('orders:form.shipTo')}>
            <Radio.Group>
              <Space orientation="vertical">
                {book.data.map((b: AddressBody) => (
                  <Radio key={b.id} value={b.id} data-testid={`book-${b.id}`}>
                    <Typography.Text strong>{b.name}</Typography.Text> {b.tel ? `· ${b.tel}` : ''}
                    <br />
                    <Typography.Text type="secondary">{addressLine(b, i18n.language)}</Typography.Text>
                  </Radio>
                ))}
                <Radio value={0}>{t('orders:form.typedAddress')}</Radio>
              </Space>
            </Radio.Group>
          </Form.Item>
        ) : null}
        {chosen === 0 ? (
          <>
            <Row gutter={12}>
              <Col xs={24} md={8}>
                <Form.Item name={['shippingAddress', 'name']} label={t('orders:fields.receiver')}>
                  <Input data-testid="address-name" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name={['shippingAddress', 'tel']} label={t('orders:fields.tel')} rules={[rule(abroad ? checkInternationalPhone : checkThaiPhone, true)]}>
                  <Input inputMode="tel" data-testid="address-tel" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name={['shippingAddress', 'email']} label={t('orders:fields.email')} rules={[rule(checkEmail)]}>
                  <Input type="email" />
                </Form.Item>
              </Col>
            </Row>
            <AddressFields form={form} prefix={['shippingAddress']} optional />
          </>
        ) : null}
      </Form>
    </Modal>
  );
}

/** The order's parcels: added while it is prepared (packaging, weight, size, tracking number),
 * each priced (shipping, COD and packing fees), its label printed A6 or 100 × 150 mm, and
 * what the carrier has said of it. */
function ParcelsCard({ o, canEdit }: { o: OrderBody; canEdit: boolean }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { data: packagings } = usePackagingsQuery();
  const [editing, setEditing] = useState<OrderParcelBody | 'new' | null>(null);
  const [remove] = useDeleteParcelMutation();
  const [label] = useParcelLabelPdfMutation();
  const pdf = usePdf();
  const lng = i18n.language;
  const packagingName = (code: string) => {
    if (!code) return t('orders:parcels.ownPackaging');
    const p = packagings?.data.find((x) => x.code === code);
    return p ? (lng === 'th' ? p.nameTh : p.nameEn) : code;
  };
  const onDelete = async (p: OrderParcelBody) => {
    const ok = await showDialog({ kind: 'warning', title: 'orders:parcels.deleteTitle', message: 'orders:parcels.deleteMessage', values: { tracking: p.trackingNo || '-' }, confirm: 'common:actions.delete' });
    if (!ok) return;
    try {
      await remove({ id: p.id }).unwrap();
      notifySuccess(t('orders:parcels.deleted'));
    } catch (e) {
      showRefusal(e, 'parcel', t);
    }
  };
  const baht = (v: string) => formatBaht(v);
  return (
    <Card
      title={t('orders:parcels.title')}
      extra={
        canEdit ? (
          <Button icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="parcel-add">
            {t('orders:parcels.add')}
          </Button>
        ) : null
      }
      data-testid="order-parcels"
    >
      {o.parcels.length === 0 ? (
        <Typography.Text type="secondary" data-testid="parcels-empty">
          {o.shippingName ? t('orders:parcels.empty') : t('orders:parcels.noChannel')}
        </Typography.Text>
      ) : (
        <ListView<OrderParcelBody>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={o.parcels}
          scroll={{ x: 950 }}
          data-testid="parcel-table"
          expandable={{
            rowExpandable: (p) => p.tracking.length > 0,
            expandedRowRender: (p) => <TrackingList p={p} />,
          }}
          columns={[
            { title: '#', key: 'n', width: 44, render: (_: unknown, _p: OrderParcelBody, n: number) => n + 1 },
            {
              title: t('orders:parcels.trackingNo'),
              key: 'tracking',
              width: 185,
              render: (_: unknown, p: OrderParcelBody) =>
                p.trackingNo ? (
                  <Typography.Text copyable data-testid={`parcel-${p.id}-tracking`}>
                    {p.trackingNo}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="warning">{t('orders:parcels.noTracking')}</Typography.Text>
                ),
            },
            {
              title: t('orders:parcels.packaging'),
              key: 'packaging',
              width: 170,
              render: (_: unknown, p: OrderParcelBody) => (
                <Space orientation="vertical" size={0}>
                  <span>{packagingName(p.packagingCode)}</span>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('orders:parcels.size', { w: p.width, l: p.length, h: p.height, kg: p.weight })}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t('orders:parcels.fees'),
              key: 'fees',
              width: 160,
              render: (_: unknown, p: OrderParcelBody) => (
                <Space orientation="vertical" size={0} style={{ fontSize: 12 }}>
                  <span>{t('orders:parcels.feeShipping', { amount: baht(p.shippingFee) })}</span>
                  <span>{t('orders:parcels.feeCod', { amount: baht(p.codFee) })}</span>
                  <span>{t('orders:parcels.feePacking', { amount: baht(p.packingFee) })}</span>
                </Space>
              ),
            },
            {
              title: t('orders:parcels.total'),
              key: 'total',
              width: 100,
              align: 'right' as const,
              render: (_: unknown, p: OrderParcelBody) => <strong data-testid={`parcel-${p.id}-total`}>{baht(p.total)}</strong>,
            },
            {
              title: t('orders:parcels.state'),
              key: 'state',
              width: 160,
              render: (_: unknown, p: OrderParcelBody) => (
                <Space orientation="vertical" size={0}>
                  <Tag color={p.state === 'shipped' ? 'cyan' : 'default'}>{t(`orders:parcels.states.${p.state}`, { defaultValue: p.state })}</Tag>
                  {p.progress ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`orders:parcels.progress.${p.progress}`, { defaultValue: p.progress })}</Typography.Text> : null}
                  {p.printedAt ? (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t('orders:parcels.printedAt', { at: formatDateTime(p.printedAt, lng) })}
                    </Typography.Text>
                  ) : null}
                </Space>
              ),
            },
            {
              title: '',
              key: 'actions',
              width: 170,
              render: (_: unknown, p: OrderParcelBody) => (
                <Space size={4}>
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: LABEL_SIZES.map((s) => ({ key: s, label: <span data-testid={`parcel-${p.id}-label-${s}`}>{t(`orders:labels.size.${s}`)}</span> })),
                      onClick: ({ key }) => void pdf.open(`label-${p.id}`, () => label({ id: p.id, orderId: o.id, size: key }).unwrap(), `${p.trackingNo || o.orderNo}-label.pdf`),
                    }}
                  >
                    <Button size="small" icon={<PrinterOutlined />} loading={pdf.busy === `label-${p.id}`} data-testid={`parcel-${p.id}-print`}>
                      {t('orders:parcels.printLabel')}
                    </Button>
                  </Dropdown>
                  {canEdit && p.state === 'pending' ? (
                    <>
                      <Button size="small" type="text" icon={<EditOutlined />} onClick={() => setEditing(p)} aria-label={t('common:actions.edit')} data-testid={`parcel-${p.id}-edit`} />
                      <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={() => void onDelete(p)} aria-label={t('common:actions.delete')} data-testid={`parcel-${p.id}-delete`} />
                    </>
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      )}
      {editing ? <ParcelModal o={o} parcel={editing === 'new' ? null : editing} packagings={packagings?.data ?? []} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}

function TrackingList({ p }: { p: OrderParcelBody }) {
  const { i18n } = useTranslation('orders');
  return (
    <Space orientation="vertical" size={4} data-testid={`parcel-${p.id}-events`}>
      {p.tracking.map((e, i) => (
        <div key={i}>
          <Typography.Text strong>{formatDateTime(e.at, i18n.language)}</Typography.Text> · {e.description || e.status}
          {e.location ? <Typography.Text type="secondary"> · {e.location}</Typography.Text> : null}
        </div>
      ))}
    </Space>
  );
}

/** A parcel's packaging (its size filled from the catalogue), weight, size and tracking number
 * (left empty, the carrier's or the store's range gives one). */
function ParcelModal({ o, parcel, packagings, onClose }: { o: OrderBody; parcel: OrderParcelBody | null; packagings: Packaging[]; onClose: () => void }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<ParcelValues>();
  const [add, { isLoading: adding }] = useAddParcelMutation();
  const [update, { isLoading: updating }] = useUpdateParcelMutation();
  const required = { required: true, message: t('common:validation.required') };
  const cm = [required, { type: 'integer' as const, min: 1, max: 300, message: t('orders:validation.dimension') }];
  const initial: ParcelValues = parcel
    ? { packagingCode: parcel.packagingCode, weight: parcel.weight, width: parcel.width, length: parcel.length, height: parcel.height, trackingNo: parcel.trackingNo }
    : { packagingCode: '', weight: o.estimatedWeight !== '0.000' ? o.estimatedWeight : '', trackingNo: '' };
  const submit = async (v: ParcelValues) => {
    try {
      if (parcel) await update({ id: parcel.id, parcelInput: parcelInput(v) }).unwrap();
      else await add({ parcelInput: parcelInput(v, o.id) }).unwrap();
      notifySuccess(t(parcel ? 'orders:parcels.updated' : 'orders:parcels.added'));
      onClose();
    } catch (e) {
      const fields = apiError(e)?.fields ?? [];
      const own = fields.filter((f) => ['weight', 'width', 'length', 'height', 'packaging_code', 'tracking_no'].includes(f.field));
      if (own.length) form.setFields(own.map((f) => ({ name: formField(f.field) as keyof ParcelValues, errors: [t([`orders:${f.code}`, `common:${f.code}`, 'orders:reasons.unknown'])] })));
      else showRefusal(e, 'parcel', t);
    }
  };
  return (
    <Modal
      open
      title={parcel ? t('orders:parcels.editTitle') : t('orders:parcels.addTitle', { orderNo: o.orderNo })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      okButtonProps={{ loading: adding || updating, id: 'parcel-save' }}
      cancelText={t('common:actions.cancel')}
    >
      <Typography.Paragraph type="secondary">{t('orders:parcels.hint', { channel: o.shippingName })}</Typography.Paragraph>
      <Form<ParcelValues> form={form} layout="vertical" initialValues={initial} onFinish={(v) => void submit(v)} data-testid="parcel-form">
        <Form.Item name="packagingCode" label={t('orders:parcels.packaging')}>
          <Radio.Group
            style={{ width: '100%' }}
            onChange={(e) => {
              const p = packagings.find((x) => x.code === e.target.value);
              if (p) form.setFieldsValue({ width: p.width, length: p.length, height: p.height });
            }}
          >
            <Space orientation="vertical" data-testid="parcel-packaging">
              <Radio value="">{t('orders:parcels.ownPackaging')}</Radio>
              {packagings.map((p) => (
                <Radio key={p.code} value={p.code} data-testid={`packaging-${p.code}`}>
                  {t('orders:parcels.packagingOption', { name: i18n.language === 'th' ? p.nameTh : p.nameEn, w: p.width, l: p.length, h: p.height, fee: formatBaht(p.fee) })}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Row gutter={8}>
          <Col span={6}>
            <Form.Item name="weight" label={t('orders:parcels.weight')} rules={[required, { pattern: /^\d{1,3}(\.\d{1,3})?$/, message: t('common:validation.weight') }]}>
              <Input inputMode="decimal" data-testid="parcel-weight" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="width" label={t('orders:parcels.width')} rules={cm}>
              <InputNumberCm testId="parcel-width" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="length" label={t('orders:parcels.length')} rules={cm}>
              <InputNumberCm testId="parcel-length" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="height" label={t('orders:parcels.height')} rules={cm}>
              <InputNumberCm testId="parcel-height" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="trackingNo" label={t('orders:parcels.trackingNo')} extra={t('orders:parcels.trackingHint')} rules={[{ max: 40, message: t('common:validation.too_long') }]}>
          <Input data-testid="parcel-tracking" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function InputNumberCm({ value, onChange, testId }: { value?: number | null; onChange?: (v: number | null) => void; testId: string }) {
  const { t } = useTranslation('orders');
  return (
    <Input
      inputMode="numeric"
      value={value ?? ''}
      suffix={t('orders:parcels.cm')}
      onChange={(e) => {
        const s = e.target.value.replace(/\D/g, '');
        onChange?.(s ? Number(s) : null);
      }}
      data-testid={testId}
    />
  );
}

