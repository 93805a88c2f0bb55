import { useRef, useState } from 'react';
import { Button, Form, Image, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { CheckOutlined, CloseOutlined, EditOutlined, PaperClipOutlined, StopOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import { ListView } from '@/shared/list/ListView';
import { accountLabel, useListStoreChannelsQuery } from '@/features/payments/api';
import {
  useActOnPaymentMutation,
  useCreatePaymentMutation,
  useEditPaymentMutation,
  usePaymentAttachmentUrlQuery,
  useUploadSlipMutation,
  type OrderBillBody,
  type OrderBody,
  type OrderPaymentBody,
} from './api';
import { checkSlip, PAYMENT_COLOURS, paymentActions, type PaymentAction } from './orders';
import { showRefusal } from './refusal';
import { PAYMENT_APPROVE, PAYMENT_CREATE, PAYMENT_EDIT, PAYMENT_REJECT, PAYMENT_VOID } from './routes';

/** Who may do what to payments. */
export function usePaymentRights() {
  return {
    create: useCan(PAYMENT_CREATE),
    edit: useCan(PAYMENT_EDIT),
    confirm: useCan(PAYMENT_APPROVE),
    cancel: useCan(PAYMENT_REJECT),
    void: useCan(PAYMENT_VOID),
  };
}

/** An order's payments (SPEC §3 payment, §4 Payment state): each bill's, with its slip, the
 * account it was paid to, who sent it, and what may be done to it in its state. */
export function PaymentsTable({ o, warehouseName }: { o: OrderBody; warehouseName: (id: number) => string }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const rights = usePaymentRights();
  const { data: channels } = useListStoreChannelsQuery({ limit: -1 });
  const [act, { isLoading: acting }] = useActOnPaymentMutation();
  const [slipOf, setSlipOf] = useState<OrderPaymentBody | null>(null);
  const [editing, setEditing] = useState<OrderPaymentBody | null>(null);
  const account = (id: number) => {
    const c = channels?.data.find((x) => x.id === id);
    return c ? `${t(`orders:payments.kinds.${c.channel.type}`, { defaultValue: c.channel.type })} · ${accountLabel(c)}` : '';
  };

  const run = async (p: OrderPaymentBody, action: PaymentAction) => {
    const ok = await showDialog({
      kind: action === 'confirm' ? 'question' : 'warning',
      title: `orders:payments.confirmTitle.${action}`,
      message: `orders:payments.confirm.${action}`,
      values: { amount: formatBaht(p.amount), orderNo: o.orderNo },
      confirm: `orders:payments.actions.${action}`,
    });
    if (!ok) return;
    try {
      await act({ id: o.id, inv: p.billId, pay: p.id, action }).unwrap();
      notifySuccess(t(`orders:payments.done.${action}`, { orderNo: o.orderNo }));
    } catch (e) {
      showRefusal(e, `payment_${action}`, t);
    }
  };

  if (o.payments.length === 0) return null;
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('orders:payments.title')}
      </Typography.Title>
      <ListView<OrderPaymentBody>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={o.payments}
        scroll={{ x: 860 }}
        data-testid="order-payments"
        columns={[
          { title: t('orders:fields.warehouse'), key: 'w', render: (_: unknown, p: OrderPaymentBody) => warehouseName(p.warehouseId) || '-' },
          { title: t('orders:bills.amount'), key: 'amount', align: 'right' as const, width: 120, render: (_: unknown, p: OrderPaymentBody) => formatBaht(p.amount) },
          {
            title: t('orders:payments.state'),
            key: 'state',
            width: 130,
            render: (_: unknown, p: OrderPaymentBody) => (
              <Tag color={PAYMENT_COLOURS[p.state] ?? 'default'} data-testid={`payment-${p.id}-state`}>
                {t(`orders:payment.${p.state}`, { defaultValue: p.state })}
              </Tag>
            ),
          },
          {
            title: t('orders:payments.account'),
            key: 'account',
            render: (_: unknown, p: OrderPaymentBody) => (
              <Space orientation="vertical" size={0}>
                <span>{p.storeChannelId ? account(p.storeChannelId) || t('orders:payments.kinds.' + p.channelType, { defaultValue: p.channelType }) : t('orders:payments.noAccount')}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`orders:payments.source.${p.source}`, { defaultValue: p.source })} · {formatDateTime(p.slipAt ?? p.createdAt, i18n.language)}
                </Typography.Text>
                {p.note ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{p.note}</Typography.Text> : null}
              </Space>
            ),
          },
          {
            title: t('orders:payments.slip'),
            key: 'slip',
            width: 110,
            render: (_: unknown, p: OrderPaymentBody) =>
              p.hasAttachment ? (
                <Button size="small" icon={<PaperClipOutlined />} onClick={() => setSlipOf(p)} data-testid={`payment-${p.id}-slip`}>
                  {p.slips.length > 1 ? t('orders:payments.slipsCount', { count: p.slips.length }) : t('orders:payments.viewSlip')}
                </Button>
              ) : (
                <Typography.Text type="secondary">-</Typography.Text>
              ),
          },
          {
            title: '',
            key: 'actions',
            width: 250,
            render: (_: unknown, p: OrderPaymentBody) => {
              const allowed = paymentActions(p, o).filter((a) => rights[a]);
              const canEdit = rights.edit && (p.state === 'unpaid' || p.state === 'pending');
              return (
                <Space size={4} wrap>
                  {allowed.includes('confirm') ? (
                    <Button size="small" type="primary" icon={<CheckOutlined />} loading={acting} onClick={() => void run(p, 'confirm')} data-testid={`payment-${p.id}-confirm`}>
                      {t('orders:payments.actions.confirm')}
                    </Button>
                  ) : null}
                  {canEdit ? (
                    <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(p)} data-testid={`payment-${p.id}-edit`}>
                      {t('common:actions.edit')}
                    </Button>
                  ) : null}
                  {allowed.includes('cancel') ? (
                    <Button size="small" danger icon={<CloseOutlined />} onClick={() => void run(p, 'cancel')} data-testid={`payment-${p.id}-cancel`}>
                      {t('orders:payments.actions.cancel')}
                    </Button>
                  ) : null}
                  {allowed.includes('void') ? (
                    <Button size="small" danger icon={<StopOutlined />} onClick={() => void run(p, 'void')} data-testid={`payment-${p.id}-void`}>
                      {t('orders:payments.actions.void')}
                    </Button>
                  ) : null}
                </Space>
              );
            },
          },
        ]}
      />
      {slipOf ? <SlipModal orderId={o.id} payment={slipOf} onClose={() => setSlipOf(null)} /> : null}
      {editing ? <PaymentModal o={o} bill={o.bills.find((b) => b.id === editing.billId) ?? null} payment={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

/** A payment's slips, read with the member's token: the newest first, and every earlier one
 * the payment was sent (none is ever dropped). */
function SlipModal({ orderId, payment, onClose }: { orderId: number; payment: OrderPaymentBody; onClose: () => void }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const slips = [...payment.slips].reverse();
  const [slipId, setSlipId] = useState<number | undefined>(slips[0]?.id);
  const { data: url, isError } = usePaymentAttachmentUrlQuery({ orderId, paymentId: payment.id, version: payment.updatedAt, slipId });
  return (
    <Modal open title={t('orders:payments.slipTitle', { amount: formatBaht(payment.amount) })} onCancel={onClose} footer={null}>
      {slips.length > 1 ? (
        <Space orientation="vertical" size={4} style={{ marginBottom: 12, width: '100%' }}>
          <Typography.Text type="secondary">{t('orders:payments.slipsHint')}</Typography.Text>
          <Select
            style={{ width: '100%' }}
            value={slipId}
            onChange={setSlipId}
            data-testid="payment-slip-pick"
            options={slips.map((s, i) => ({
              value: s.id,
              label: `${t('orders:payments.slipPick', { n: slips.length - i, at: formatDateTime(s.createdAt, i18n.language) })} · ${t(`orders:payments.source.${s.source}`, { defaultValue: s.source })}`,
            }))}
          />
        </Space>
      ) : null}
      {isError ? <Typography.Text type="danger">{t('orders:payments.slipUnavailable')}</Typography.Text> : null}
      {url ? <Image src={url} alt={t('orders:payments.slip')} style={{ maxWidth: '100%' }} data-testid="payment-slip-image" /> : null}
    </Modal>
  );
}

type PaymentValues = { storeChannelId?: number; note?: string };

/** Makes a payment for a bill, or changes one: the account paid to, a slip (.jpg, .jpeg,
 * .png, 5 MB; kept first, then given with the payment) and a note. */
export function PaymentModal({ o, bill, payment, onClose }: { o: OrderBody; bill: OrderBillBody | null; payment: OrderPaymentBody | null; onClose: () => void }) {
  const { t } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<PaymentValues>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const { data: channels } = useListStoreChannelsQuery({ limit: -1, status: 'active' });
  const [upload, { isLoading: uploading }] = useUploadSlipMutation();
  const [create, { isLoading: creating }] = useCreatePaymentMutation();
  const [edit, { isLoading: editingBusy }] = useEditPaymentMutation();
  const options = (channels?.data ?? [])
    .filter((c) => (o.cod ? true : c.channel.type !== 'cod'))
    .map((c) => ({ value: c.id, label: `${t(`orders:payments.kinds.${c.channel.type}`, { defaultValue: c.channel.type })} · ${accountLabel(c)}` }));

  const submit = async (v: PaymentValues) => {
    if (fileError) return;
    try {
      const attachment = file ? (await upload({ file }).unwrap()).name : undefined;
      const paymentInput = { storeChannelId: v.storeChannelId ?? undefined, note: v.note?.trim() || undefined, attachment };
      if (payment) await edit({ id: o.id, inv: payment.billId, pay: payment.id, paymentInput }).unwrap();
      else await create({ id: o.id, paymentInput: { ...paymentInput, warehouseId: bill?.warehouseId } }).unwrap();
      notifySuccess(t(payment ? 'orders:payments.done.edit' : 'orders:payments.done.create', { orderNo: o.orderNo }));
      onClose();
    } catch (e) {
      const fields = apiError(e)?.fields ?? [];
      const onFile = fields.find((f) => f.field === 'file' || f.field === 'attachment');
      const onAccount = fields.find((f) => f.field === 'store_channel_id');
      const onNote = fields.find((f) => f.field === 'note');
      if (onFile) setFileError(t([`orders:${onFile.code}`, `common:${onFile.code}`, 'orders:payments.slipRefused']));
      if (onAccount) form.setFields([{ name: 'storeChannelId', errors: [t([`orders:${onAccount.code}`, `common:${onAccount.code}`])] }]);
      if (onNote) form.setFields([{ name: 'note', errors: [t([`orders:${onNote.code}`, `common:${onNote.code}`])] }]);
      if (!onFile && !onAccount && !onNote) {
        onClose();
        showRefusal(e, payment ? 'payment_edit' : 'payment_create', t);
      }
    }
  };

  return (
    <Modal
      open
      title={payment ? t('orders:payments.editTitle', { orderNo: o.orderNo }) : t('orders:payments.createTitle', { orderNo: o.orderNo })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      okButtonProps={{ loading: uploading || creating || editingBusy, id: 'payment-save' }}
      cancelText={t('common:actions.cancel')}
    >
      <Typography.Paragraph type="secondary">
        {t('orders:payments.forBill', { amount: formatBaht(bill?.amount ?? payment?.amount ?? '0') })}
      </Typography.Paragraph>
      <Form<PaymentValues>
        form={form}
        layout="vertical"
        initialValues={{ storeChannelId: payment?.storeChannelId || undefined, note: payment?.note ?? '' }}
        onFinish={(v) => void submit(v)}
        data-testid="payment-form"
      >
        <Form.Item name="storeChannelId" label={t('orders:payments.account')}>
          <Select allowClear options={options} placeholder={t('orders:payments.noAccount')} data-testid="payment-account" />
        </Form.Item>
        <Form.Item label={t('orders:payments.slip')} validateStatus={fileError ? 'error' : undefined} help={fileError ?? t('orders:payments.slipHint')}>
          <Space>
            <Button icon={<UploadOutlined />} onClick={() => picker.current?.click()} data-testid="payment-slip-choose">
              {t('orders:payments.chooseSlip')}
            </Button>
            {file ? <Typography.Text data-testid="payment-slip-name">{file.name}</Typography.Text> : null}
          </Space>
          <input
            ref={picker}
            type="file"
            hidden
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            data-testid="payment-slip-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (!f) return;
              const problem = checkSlip(f);
              setFileError(problem ? t(`orders:payments.${problem}`) : null);
              setFile(problem ? null : f);
            }}
          />
        </Form.Item>
        <Form.Item name="note" label={t('orders:fields.note')} rules={[{ max: 500, message: t('common:validation.too_long') }]}>
          <Input.TextArea rows={2} maxLength={500} showCount data-testid="payment-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
