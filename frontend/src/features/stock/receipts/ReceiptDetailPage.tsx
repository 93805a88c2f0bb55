import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Modal, Result, Space, Spin, Tag, Typography } from 'antd';
import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PrinterOutlined, SaveOutlined, SendOutlined, TagsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useIsMobile } from '@/app/layouts/useDevice';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { BottomBar, HeadActions } from '@/shared/list/Actions';
import { ListView } from '@/shared/list/ListView';
import { formatBaht } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import {
  useApproveGoodsReceiptMutation,
  useCheckGoodsReceiptMutation,
  useDeleteGoodsReceiptMutation,
  useGetGoodsReceiptQuery,
  useRejectGoodsReceiptMutation,
  useSendGoodsReceiptMutation,
  useShelveGoodsReceiptMutation,
  type DimensionBody,
  type GoodsReceiptBody,
  type ReceiptLineBody,
} from '../api';
import { RECEIPT_APPROVE, RECEIPT_DELETE, RECEIPT_EDIT, RECEIPT_SEND } from '../routes';
import { CardPair, LineStatusTag, StateTag, useReceiptPdf } from './parts';
import { actionsOf, boardPath, detailPath, editPath, fieldPath, formatArrival, formatDate, lineStatus, qcDefaults, REASON_MAX, tabOf, type QcRow } from './receipts';
import { notifyRefusal, ruleMessage } from './refusal';

/** /stock-management-goods-receipt-detail/{state}/{id} (SPEC §2, §4): one goods receipt, its
 * lines and what may be done to it in its state: a draft is edited, deleted or sent to the
 * warehouse; a pending or received one is counted at QC (pieces received and defective per
 * line), then approved into stock or rejected with a reason; an approved one is put away. The
 * receipt and its SKU labels print as PDFs. The address follows the receipt's state. On a
 * phone the lines are cards, the printing behind the head's "more" button and what the state
 * allows in a bar at the foot of the screen. */
export default function ReceiptDetailPage() {
  const { t, i18n } = useTranslation(['receipts', 'common']);
  const { storeId, state, id: idParam } = useParams();
  const id = Number(idParam);
  const navigate = useNavigate();
  const { data: r, isLoading, isError, error } = useGetGoodsReceiptQuery({ id });
  const [send, { isLoading: sending }] = useSendGoodsReceiptMutation();
  const [remove, { isLoading: deleting }] = useDeleteGoodsReceiptMutation();
  const [shelve, { isLoading: shelving }] = useShelveGoodsReceiptMutation();
  const canEdit = useCan(RECEIPT_EDIT);
  const canDelete = useCan(RECEIPT_DELETE);
  const canSend = useCan(RECEIPT_SEND);
  const canApprove = useCan(RECEIPT_APPROVE);
  const pdf = useReceiptPdf();
  const sid = storeId ?? '';
  const mobile = useIsMobile();

  // The address names the receipt's state: a stale one (an old link) is put right.
  useEffect(() => {
    if (r && r.id === id && r.state !== state) navigate(detailPath(sid, r.state, r.id), { replace: true });
  }, [r, id, state, sid, navigate]);

  if (isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (isError || !r) {
    const notFound = apiError(error)?.code === 'goods_receipt_not_found' || (error as { status?: number } | undefined)?.status === 404;
    return (
      <Result
        status={notFound ? '404' : 'warning'}
        title={t(notFound ? 'receipts:errors.goods_receipt_not_found' : 'receipts:errors.load_failed')}
        extra={<Button onClick={() => navigate(boardPath(sid, isStateTab(state)))}>{t('receipts:board.back')}</Button>}
      />
    );
  }

  const can = actionsOf(r.state);
  /** After a change: the receipt's new state in the address. */
  const follow = (next: GoodsReceiptBody) => navigate(detailPath(sid, next.state, next.id), { replace: true });

  const onSend = async () => {
    const ok = await showDialog({ kind: 'question', title: 'receipts:detail.sendTitle', message: 'receipts:detail.sendMessage', values: { code: r.code, warehouse: r.warehouseName }, confirm: 'receipts:actions.send' });
    if (!ok) return;
    try {
      const next = await send({ id: r.id }).unwrap();
      notifySuccess(t('receipts:detail.sent', { code: r.code }));
      follow(next);
    } catch (e) {
      notifyRefusal(e, t);
    }
  };

  const onDelete = async () => {
    const ok = await showDialog({ kind: 'warning', title: 'receipts:detail.deleteTitle', message: 'receipts:detail.deleteMessage', values: { code: r.code }, confirm: 'common:actions.delete' });
    if (!ok) return;
    try {
      await remove({ id: r.id }).unwrap();
      notifySuccess(t('receipts:detail.deleted', { code: r.code }));
      navigate(boardPath(sid, 'draft'), { replace: true });
    } catch (e) {
      notifyRefusal(e, t);
    }
  };

  const onShelve = async (to: 'shelving' | 'shelved') => {
    try {
      const next = await shelve({ id: r.id, shelveInput: { state: to } }).unwrap();
      notifySuccess(t(to === 'shelving' ? 'receipts:detail.shelvingStarted' : 'receipts:detail.shelvedDone', { code: r.code }));
      follow(next);
    } catch (e) {
      notifyRefusal(e, t);
    }
  };

  const hasLabels = r.items.some((l) => l.printLabel);
  const actions: ReactNode[] = [];
  if (can.edit && canEdit)
    actions.push(
      <Button key="edit" icon={<EditOutlined />} onClick={() => navigate(editPath(sid, r.type, r.id))} data-testid="receipt-edit">
        {t('common:actions.edit')}
      </Button>,
    );
  if (can.delete && canDelete)
    actions.push(
      <Button key="delete" danger icon={<DeleteOutlined />} loading={deleting} onClick={() => void onDelete()} data-testid="receipt-delete">
        {t('common:actions.delete')}
      </Button>,
    );
  if (can.send && canSend)
    actions.push(
      <Button key="send" type="primary" icon={<SendOutlined />} loading={sending} onClick={() => void onSend()} data-testid="receipt-send">
        {t('receipts:actions.send')}
      </Button>,
    );
  if (can.startShelving && canApprove)
    actions.push(
      <Button key="shelving" type="primary" loading={shelving} onClick={() => void onShelve('shelving')} data-testid="receipt-start-shelving">
        {t('receipts:actions.startShelving')}
      </Button>,
    );
  if (can.finishShelving && canApprove)
    actions.push(
      <Button key="shelved" type="primary" loading={shelving} onClick={() => void onShelve('shelved')} data-testid="receipt-finish-shelving">
        {t('receipts:actions.finishShelving')}
      </Button>,
    );

  const prints = [
    <Button key="print" icon={<PrinterOutlined />} loading={pdf.busy === 'print'} onClick={() => void pdf.open(r.id, 'print', r.code)} data-testid="receipt-print">
      {t('receipts:actions.print')}
    </Button>,
    hasLabels ? (
      <Button key="labels" icon={<TagsOutlined />} loading={pdf.busy === 'labels'} onClick={() => void pdf.open(r.id, 'labels', r.code)} data-testid="receipt-labels">
        {t('receipts:actions.labels')}
      </Button>
    ) : null,
  ];
  const tags = (
    <>
      <StateTag state={r.state} />
      <Tag color="blue">{t(`receipts:types.${r.type}`, { defaultValue: r.type })}</Tag>
    </>
  );

  return (
    <Space orientation="vertical" size={mobile ? 12 : 16} style={{ width: '100%' }}>
      <Card>
        {mobile ? (
          <>
            <div className="bo-page-head">
              <h1 data-testid="receipt-code">{t('receipts:detail.title', { code: r.code })}</h1>
              <HeadActions>{prints}</HeadActions>
            </div>
            <div className="bo-card-tags" style={{ margin: '0 0 12px' }}>
              {tags}
            </div>
          </>
        ) : (
          <div className="bo-page-head">
            <Space wrap align="center">
              <h1 style={{ margin: 0 }} data-testid="receipt-code">
                {t('receipts:detail.title', { code: r.code })}
              </h1>
              {tags}
            </Space>
            <Space wrap>
              {prints}
              {actions}
            </Space>
          </div>
        )}
        {r.state === 'rejected' ? (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('receipts:detail.rejectedBecause')} description={r.rejectReason} data-testid="reject-reason" />
        ) : null}
        <Header r={r} lng={i18n.language} mobile={mobile} />
      </Card>

      {can.qc && canApprove ? (
        <QcCard key={`${r.id}-${r.updatedAt}`} r={r} onDone={follow} />
      ) : (
        <Card title={t('receipts:detail.lines')}>
          {can.qc ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('receipts:detail.waitingQc')} /> : null}
          <LinesTable r={r} />
        </Card>
      )}
      {/* A phone: what the state allows, at the foot of the screen (its spacer under the page). */}
      {mobile && actions.length > 0 ? <BottomBar data-testid="receipt-actions">{actions}</BottomBar> : null}
    </Space>
  );
}

function isStateTab(state: string | undefined): string {
  return tabOf(state ?? 'draft');
}

function dimensionText(d: DimensionBody | null | undefined, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (!d) return '';
  const parts: string[] = [];
  if (d.width || d.length || d.height) parts.push(t('receipts:dimension.size', { w: d.width ?? 0, l: d.length ?? 0, h: d.height ?? 0 }));
  if (d.weight && Number(d.weight) > 0) parts.push(t('receipts:dimension.weightText', { kg: d.weight }));
  return parts.join(' · ');
}

/** Who, where, when, and what the warehouse is asked. */
function Header({ r, lng, mobile }: { r: GoodsReceiptBody; lng: string; mobile: boolean }) {
  const { t } = useTranslation(['receipts', 'common']);
  const { storeId } = useParams();
  const items: { key: string; label: string; children: ReactNode }[] = [
    { key: 'warehouse', label: t('receipts:fields.warehouse'), children: r.warehouseName },
    { key: 'expected', label: t('receipts:fields.expectedReceived'), children: formatArrival(r.expectedReceivedDate, r.expectedReceivedTime, lng) },
    {
      key: 'created',
      label: t('receipts:fields.createdBy'),
      children: t('receipts:detail.byAt', { name: r.createdByName || '-', at: formatDateTime(r.createdAt, lng) }),
    },
  ];
  if (r.decidedAt) {
    items.push({
      key: 'decided',
      label: t(r.state === 'rejected' ? 'receipts:fields.rejectedBy' : 'receipts:fields.approvedBy'),
      children: t('receipts:detail.byAt', { name: r.decidedByName || '-', at: formatDateTime(r.decidedAt, lng) }),
    });
  }
  items.push(
    { key: 'totals', label: t('receipts:fields.totals'), children: t('receipts:board.linesPieces', { count: r.lineCount, pieces: r.totalRequestQty.toLocaleString('en-US') }) },
    { key: 'cost', label: t('receipts:fields.totalCost'), children: t('common:money.baht', { amount: formatBaht(r.totalCost) }) },
    { key: 'note', label: t('receipts:fields.note'), children: r.note ? <span style={{ whiteSpace: 'pre-wrap' }}>{r.note}</span> : '-' },
    ...(r.orderId > 0
      ? [
          {
            key: 'order',
            label: t('receipts:fields.returnOf'),
            children: (
              <Link to={`/${storeId ?? ''}/order-detail/${r.orderId}`} data-testid="detail-return-order">
                {t('receipts:detail.returnOrder')}
              </Link>
            ),
          },
        ]
      : []),
    {
      key: 'pickUp',
      label: t('receipts:fields.isPickUp'),
      children:
        r.isPickUp && r.pickUpDetail ? (
          <Space orientation="vertical" size={0} data-testid="detail-pick-up">
            <span style={{ whiteSpace: 'pre-wrap' }}>{r.pickUpDetail.address}</span>
            <span>{t('receipts:detail.tel', { tel: r.pickUpDetail.tel })}</span>
            <span>{t('receipts:detail.pickUpAt', { at: formatDateTime(r.pickUpDetail.expectedPickedUpAt, lng) })}</span>
          </Space>
        ) : (
          t('receipts:detail.noPickUp')
        ),
    },
    {
      key: 'packagings',
      label: t('receipts:fields.packagings'),
      children:
        r.packagings.length > 0 ? (
          <Space orientation="vertical" size={0}>
            {r.packagings.map((p, i) => {
              const size = dimensionText(p.dimension, t);
              return <span key={i}>{t('receipts:detail.packaging', { name: p.name, count: p.quantity }) + (size ? ` (${size})` : '')}</span>;
            })}
          </Space>
        ) : (
          '-'
        ),
    },
    {
      key: 'options',
      label: t('receipts:fields.options'),
      children: r.options.length > 0 ? r.options.map((o) => <Tag key={o}>{t(`receipts:options.${o}`, { defaultValue: o })}</Tag>) : '-',
    },
  );
  // A phone: one "label: value" a line, without the grid's borders.
  return <Descriptions size="small" bordered={!mobile} column={{ xs: 1, md: 2 }} items={items} data-testid="receipt-header" />;
}

/** What a line is: the SKU's product (and variant), or a parcel's or material's name and size. */
function LineWhat({ l, type }: { l: ReceiptLineBody; type: string }) {
  const { t } = useTranslation('receipts');
  if (type !== 'product') {
    const size = dimensionText(l.dimension, t);
    return (
      <Space orientation="vertical" size={0}>
        <span>{l.name}</span>
        {size ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{size}</Typography.Text> : null}
      </Space>
    );
  }
  const variant = [l.option1, l.option2].filter(Boolean).join(' / ');
  return (
    <Space orientation="vertical" size={0}>
      <span>{l.productName}</span>
      {variant ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{variant}</Typography.Text> : null}
    </Space>
  );
}

function unitLabel(l: ReceiptLineBody, t: (k: string, o?: Record<string, unknown>) => string): string {
  return l.unit.id ? t('receipts:units.named', { name: l.unit.name, count: l.unit.quantity }) : t('receipts:units.piece');
}

/** What a line's card on a phone starts with: its number and SKU code, what it is, and how many
 * were asked for. */
function LineCardHead({ l, i, r }: { l: ReceiptLineBody; i: number; r: GoodsReceiptBody }) {
  const { t } = useTranslation(['receipts', 'common']);
  const product = r.type === 'product';
  return (
    <>
      <div className="bo-card-row">
        <span className="bo-card-title">{product ? l.skuCode : `#${i + 1}`}</span>
        {product ? <span className="bo-card-sub">#{i + 1}</span> : null}
      </div>
      <LineWhat l={l} type={r.type} />
      <CardPair label={t('receipts:fields.requestQty')}>
        {product && l.unit.id ? `${l.requestQty} × ${unitLabel(l, t)}` : product ? `${l.requestQty} ${unitLabel(l, t)}` : l.requestQty}
        {product && l.requestBaseQty !== l.requestQty ? (
          <span className="bo-card-sub"> {t('receipts:form.linePieces', { count: l.requestBaseQty })}</span>
        ) : null}
      </CardPair>
    </>
  );
}

/** What a line's card on a phone ends with: its expiry and cost. */
function LineCardTail({ l, r, lng }: { l: ReceiptLineBody; r: GoodsReceiptBody; lng: string }) {
  const { t } = useTranslation(['receipts', 'common']);
  return (
    <>
      {r.type === 'product' ? <CardPair label={t('receipts:fields.expiredAt')}>{formatDate(l.expiredAt, lng) || '-'}</CardPair> : null}
      <CardPair label={t('receipts:fields.cost')}>{t('common:money.baht', { amount: formatBaht(l.cost) })}</CardPair>
    </>
  );
}

/** The lines' columns every view shares, before the counts. */
function useLeadColumns(r: GoodsReceiptBody) {
  const { t } = useTranslation(['receipts', 'common']);
  const product = r.type === 'product';
  return [
    { title: '#', key: 'n', width: 48, render: (_: unknown, _l: ReceiptLineBody, i: number) => i + 1 },
    ...(product ? [{ title: t('receipts:fields.skuCode'), dataIndex: 'skuCode', key: 'sku', width: 120 }] : []),
    { title: t(product ? 'receipts:fields.product' : `receipts:fields.itemName.${r.type}`), key: 'what', render: (_: unknown, l: ReceiptLineBody) => <LineWhat l={l} type={r.type} /> },
    ...(product ? [{ title: t('receipts:fields.unit'), key: 'unit', render: (_: unknown, l: ReceiptLineBody) => unitLabel(l, t) }] : []),
    { title: t('receipts:fields.requestQty'), dataIndex: 'requestQty', key: 'requestQty', align: 'right' as const },
    { title: t('receipts:fields.pieces'), dataIndex: 'requestBaseQty', key: 'pieces', align: 'right' as const },
  ];
}

function useTailColumns(r: GoodsReceiptBody, lng: string) {
  const { t } = useTranslation(['receipts', 'common']);
  return [
    ...(r.type === 'product'
      ? [{ title: t('receipts:fields.expiredAt'), key: 'expiredAt', render: (_: unknown, l: ReceiptLineBody) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(l.expiredAt, lng) || '-'}</span> }]
      : []),
    { title: t('receipts:fields.cost'), key: 'cost', align: 'right' as const, render: (_: unknown, l: ReceiptLineBody) => formatBaht(l.cost) },
  ];
}

/** The lines as they stand. */
function LinesTable({ r }: { r: GoodsReceiptBody }) {
  const { t, i18n } = useTranslation(['receipts', 'common']);
  const counted = r.items.some((l) => l.status !== '');
  const columns = [
    ...useLeadColumns(r),
    ...(counted
      ? [
          { title: t('receipts:fields.received'), dataIndex: 'receiveQty', key: 'receiveQty', align: 'right' as const },
          { title: t('receipts:fields.defective'), dataIndex: 'defectQty', key: 'defectQty', align: 'right' as const },
          { title: t('receipts:fields.good'), dataIndex: 'goodQty', key: 'goodQty', align: 'right' as const },
        ]
      : []),
    ...useTailColumns(r, i18n.language),
    ...(counted ? [{ title: t('receipts:fields.status'), key: 'status', render: (_: unknown, l: ReceiptLineBody) => <LineStatusTag status={l.status} /> }] : []),
  ];
  return (
    <ListView<ReceiptLineBody>
      rowKey="id"
      size="small"
      pagination={false}
      columns={columns}
      dataSource={r.items}
      scroll={{ x: 900 }}
      cardTestId={(l) => `line-${l.id}-card`}
      card={(l) => (
        <>
          <LineCardHead l={l} i={r.items.indexOf(l)} r={r} />
          {counted ? (
            <>
              <CardPair label={t('receipts:fields.received')}>{l.receiveQty}</CardPair>
              <CardPair label={t('receipts:fields.defective')}>{l.defectQty}</CardPair>
              <CardPair label={t('receipts:fields.good')}>
                <strong>{l.goodQty}</strong>
              </CardPair>
            </>
          ) : null}
          <LineCardTail l={l} r={r} lng={i18n.language} />
          {counted && l.status ? (
            <div className="bo-card-tags">
              <LineStatusTag status={l.status} />
            </div>
          ) : null}
        </>
      )}
      data-testid="receipt-lines"
    />
  );
}

interface QcValues {
  qc: QcRow[];
}

/** QC: pieces received and, of them, defective per line (received defaults to the pieces
 * asked for); the counts are saved ("confirm check"), or sent with the approval, or the receipt
 * is rejected with a reason. */
function QcCard({ r, onDone }: { r: GoodsReceiptBody; onDone: (next: GoodsReceiptBody) => void }) {
  const { t, i18n } = useTranslation(['receipts', 'common']);
  const [form] = Form.useForm<QcValues>();
  const [check, { isLoading: checking }] = useCheckGoodsReceiptMutation();
  const [approve, { isLoading: approving }] = useApproveGoodsReceiptMutation();
  const [reject, { isLoading: rejecting }] = useRejectGoodsReceiptMutation();
  const [rejectOpen, setRejectOpen] = useState(false);
  const [reasonForm] = Form.useForm<{ reason: string }>();
  const rows: QcRow[] = Form.useWatch('qc', form) ?? qcDefaults(r);
  const required = { required: true, message: t('common:validation.required') };
  const mobile = useIsMobile();

  /** Server refusals of the counts under their line's fields (`lines[2].defect_qty`). */
  const showRefusal = (e: unknown) => {
    const fields = apiError(e)?.fields ?? [];
    const onLines = fields
      .map((f) => ({ path: fieldPath(f.field), code: f.code }))
      .filter((f) => f.path[0] === 'products' && typeof f.path[1] === 'number' && (f.path[2] === 'receiveQty' || f.path[2] === 'defectQty'));
    if (onLines.length === 0) return notifyRefusal(e, t);
    form.setFields(onLines.map((f) => ({ name: ['qc', f.path[1] as number, f.path[2] as 'receiveQty' | 'defectQty'] as const, errors: [ruleMessage(f.code, t)] })));
  };

  const counts = async () => {
    const v = await form.validateFields();
    return { items: v.qc.map((q) => ({ id: q.id, receiveQty: q.receiveQty, defectQty: q.defectQty })) };
  };

  const onCheck = async () => {
    let qcInput;
    try {
      qcInput = await counts();
    } catch {
      return;
    }
    try {
      const next = await check({ id: r.id, qcInput }).unwrap();
      notifySuccess(t('receipts:qc.checked', { code: r.code }));
      onDone(next);
    } catch (e) {
      showRefusal(e);
    }
  };

  const onApprove = async () => {
    let qcInput;
    try {
      qcInput = await counts();
    } catch {
      return;
    }
    const good = qcInput.items.reduce((n, q) => n + Math.max(0, q.receiveQty - q.defectQty), 0);
    const ok = await showDialog({
      kind: 'question',
      title: 'receipts:qc.approveTitle',
      message: 'receipts:qc.approveMessage',
      values: { code: r.code, count: good, warehouse: r.warehouseName },
      confirm: 'receipts:actions.approve',
    });
    if (!ok) return;
    try {
      const next = await approve({ id: r.id, qcInput }).unwrap();
      notifySuccess(t('receipts:qc.approved', { code: r.code }));
      onDone(next);
    } catch (e) {
      showRefusal(e);
    }
  };

  const onReject = async (v: { reason: string }) => {
    try {
      const next = await reject({ id: r.id, rejectInput: { reason: v.reason.trim() } }).unwrap();
      notifySuccess(t('receipts:qc.rejected', { code: r.code }));
      setRejectOpen(false);
      onDone(next);
    } catch (e) {
      const field = apiError(e)?.fields?.find((f) => f.field === 'reason');
      if (field) reasonForm.setFields([{ name: 'reason', errors: [ruleMessage(field.code, t)] }]);
      else notifyRefusal(e, t);
    }
  };

  /** The pieces received of line `i` (with the line's id, hidden), defective, and so good; on a
   * phone under their labels. */
  const receivedInput = (i: number) => (
    <>
      <Form.Item name={['qc', i, 'id']} hidden>
        <InputNumber />
      </Form.Item>
      <Form.Item
        name={['qc', i, 'receiveQty']}
        label={mobile ? t('receipts:fields.received') : undefined}
        rules={[required, { type: 'integer' as const, min: 0, message: t('common:validation.quantity') }]}
        style={{ margin: 0 }}
      >
        <InputNumber min={0} precision={0} inputMode="numeric" style={{ width: '100%' }} aria-label={t('receipts:fields.received')} data-testid={`qc-${i}-received`} />
      </Form.Item>
    </>
  );
  const defectiveInput = (i: number) => (
    <Form.Item
      name={['qc', i, 'defectQty']}
      label={mobile ? t('receipts:fields.defective') : undefined}
      dependencies={[['qc', i, 'receiveQty']]}
      rules={[
        required,
        ({ getFieldValue }) => ({
          validator: (_r, v: number | null) => {
            const received = getFieldValue(['qc', i, 'receiveQty']) as number | null;
            if (typeof v === 'number' && typeof received === 'number' && v > received) return Promise.reject(new Error(ruleMessage('validation.defect_over_received', t)));
            return Promise.resolve();
          },
        }),
      ]}
      style={{ margin: 0 }}
    >
      <InputNumber min={0} precision={0} inputMode="numeric" style={{ width: '100%' }} aria-label={t('receipts:fields.defective')} data-testid={`qc-${i}-defective`} />
    </Form.Item>
  );
  const goodOf = (i: number) => {
    const q = rows[i];
    return <span data-testid={`qc-${i}-good`}>{q ? Math.max(0, (q.receiveQty ?? 0) - (q.defectQty ?? 0)) : 0}</span>;
  };
  const statusOf = (l: ReceiptLineBody, i: number) => {
    const q = rows[i];
    return typeof q?.receiveQty === 'number' ? <LineStatusTag status={lineStatus(l.requestBaseQty, q.receiveQty)} /> : null;
  };

  const columns = [
    ...useLeadColumns(r),
    {
      title: t('receipts:fields.received'),
      key: 'receiveQty',
      width: 130,
      render: (_: unknown, _l: ReceiptLineBody, i: number) => receivedInput(i),
    },
    {
      title: t('receipts:fields.defective'),
      key: 'defectQty',
      width: 130,
      render: (_: unknown, _l: ReceiptLineBody, i: number) => defectiveInput(i),
    },
    {
      title: t('receipts:fields.good'),
      key: 'good',
      align: 'right' as const,
      render: (_: unknown, _l: ReceiptLineBody, i: number) => goodOf(i),
    },
    ...useTailColumns(r, i18n.language),
    {
      title: t('receipts:fields.status'),
      key: 'status',
      render: (_: unknown, l: ReceiptLineBody, i: number) => statusOf(l, i),
    },
  ];

  const hint = t(r.state === 'received' ? 'receipts:qc.hintCounted' : 'receipts:qc.hint');
  const buttons = [
    <Button key="reject" danger icon={<CloseOutlined />} onClick={() => setRejectOpen(true)} data-testid="qc-reject">
      {t('receipts:actions.reject')}
    </Button>,
    <Button key="check" icon={<SaveOutlined />} loading={checking} onClick={() => void onCheck()} data-testid="qc-check">
      {t('receipts:actions.check')}
    </Button>,
    <Button key="approve" type="primary" icon={<CheckOutlined />} loading={approving} onClick={() => void onApprove()} data-testid="qc-approve">
      {t('receipts:actions.approve')}
    </Button>,
  ];

  return (
    <Card title={t('receipts:qc.title')} extra={mobile ? undefined : <Typography.Text type="secondary">{hint}</Typography.Text>} data-testid="qc-card">
      {mobile ? (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {hint}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} initialValues={{ qc: qcDefaults(r) }} component="div" layout={mobile ? 'vertical' : undefined}>
        <ListView<ReceiptLineBody>
          rowKey="id"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={r.items}
          scroll={{ x: 1000 }}
          cardTestId={(l) => `qc-${l.id}-card`}
          card={(l) => {
            const i = r.items.indexOf(l);
            return (
              <>
                <LineCardHead l={l} i={i} r={r} />
                <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 8, margin: '6px 0' }}>
                  <div>{receivedInput(i)}</div>
                  <div>{defectiveInput(i)}</div>
                </div>
                <CardPair label={t('receipts:fields.good')}>
                  <strong>{goodOf(i)}</strong>
                </CardPair>
                <LineCardTail l={l} r={r} lng={i18n.language} />
                <div className="bo-card-tags">{statusOf(l, i)}</div>
              </>
            );
          }}
          data-testid="qc-table"
        />
      </Form>
      {mobile ? (
        <BottomBar data-testid="qc-actions">{buttons}</BottomBar>
      ) : (
        <Space wrap style={{ marginTop: 16, justifyContent: 'flex-end', width: '100%' }}>
          {buttons}
        </Space>
      )}
      <Modal
        open={rejectOpen}
        title={t('receipts:qc.rejectTitle', { code: r.code })}
        onCancel={() => setRejectOpen(false)}
        onOk={() => reasonForm.submit()}
        okText={t('receipts:actions.reject')}
        okButtonProps={{ danger: true, loading: rejecting, id: 'reject-confirm' }}
        cancelText={t('common:actions.cancel')}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('receipts:qc.rejectHint')}</Typography.Paragraph>
        <Form form={reasonForm} layout="vertical" onFinish={(v) => void onReject(v)} data-testid="reject-form">
          <Form.Item name="reason" label={t('receipts:fields.reason')} rules={[{ ...required, whitespace: true }]}>
            <Input.TextArea autoSize={{ minRows: 3 }} maxLength={REASON_MAX} showCount data-testid="reject-reason-input" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
