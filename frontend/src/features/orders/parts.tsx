// Pieces the order screens share: the state, payment and problem tags, a channel's name, the
// dialog asking why (cancel, void, fail), the result of a bulk action, and opening PDFs.
import { useState } from 'react';
import { Alert, Form, Input, Modal, Radio, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { openPdf } from '@/shared/pdf/pdf';
import { type OrderChannel, type OrderResultBody, type OrderResultsBody } from './api';
import { FAIL_CAUSES, PAYMENT_COLOURS, REASON_MAX, STATE_COLOURS } from './orders';
import { reasonKey, showRefusal, SUPPORT, type Doing } from './refusal';

export function StateTag({ state, testId = 'order-state' }: { state: string; testId?: string }) {
  const { t } = useTranslation('orders');
  return (
    <Tag color={STATE_COLOURS[state] ?? 'default'} data-testid={testId}>
      {t(`orders:states.${state}`, { defaultValue: state })}
    </Tag>
  );
}

export function PaymentTag({ state }: { state: string }) {
  const { t } = useTranslation('orders');
  return (
    <Tag color={PAYMENT_COLOURS[state] ?? 'default'} data-testid="payment-state">
      {t(`orders:payment.${state}`, { defaultValue: state })}
    </Tag>
  );
}

/** The marks of orders with buyers' returns, as the list filters them. */
export const RETURN_MARKS = ['open', 'received', 'refunded', 'closed'] as const;
const MARK_COLOURS: Record<string, string> = { open: 'orange', received: 'green', refunded: 'cyan', closed: 'default' };

/** Where an order's buyers' returns stand (nothing for an order without one). */
export function ReturnTag({ mark, testId }: { mark: string; testId?: string }) {
  const { t } = useTranslation('orders');
  if (!mark) return null;
  return (
    <Tag color={MARK_COLOURS[mark] ?? 'default'} data-testid={testId}>
      {t(`orders:returns.marks.${mark}`, { defaultValue: mark })}
    </Tag>
  );
}

/** The problems that keep an order from being prepared (stock not enough, address
 * incomplete). */
export function ProblemTags({ problems }: { problems: string[] }) {
  const { t } = useTranslation('orders');
  if (problems.length === 0) return null;
  return (
    <>
      {problems.map((p) => (
        <Tag key={p} color={p === 'stock_not_enough' ? 'red' : 'orange'} data-testid={`problem-${p}`}>
          {t(`orders:problems.${p}`, { defaultValue: p })}
        </Tag>
      ))}
    </>
  );
}

/** A channel's name in the chosen language (its code while the list loads). */
export function channelName(code: string, channels: OrderChannel[] | undefined, lng: string): string {
  const c = channels?.find((x) => x.code === code);
  if (!c) return code;
  return lng === 'th' ? c.nameTh : c.nameEn;
}

export interface ReasonValues {
  reason: string;
  cause?: string;
}

/** Asks why an order (or several) is cancelled, voided or failed: a reason (needed to void),
 * and for a failure its cause (SPEC §4). */
export function ReasonModal({
  doing,
  count,
  orderNo,
  open,
  busy,
  onCancel,
  onConfirm,
}: {
  doing: 'cancel' | 'void' | 'fail';
  /** How many orders (bulk), or 1. */
  count: number;
  /** The one order's number. */
  orderNo?: string;
  open: boolean;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (v: ReasonValues) => void;
}) {
  const { t } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<ReasonValues>();
  const required = { required: true, whitespace: true, message: t('common:validation.required') };
  return (
    <Modal
      open={open}
      title={orderNo ? t(`orders:reasonModal.title.${doing}`, { orderNo }) : t(`orders:reasonModal.bulkTitle.${doing}`, { count })}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={t(`orders:actions.${doing}`)}
      okButtonProps={{ danger: true, loading: busy, id: 'reason-confirm' }}
      cancelText={t('common:actions.cancel')}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t(`orders:reasonModal.hint.${doing}`)}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => onConfirm({ reason: (v.reason ?? '').trim(), cause: v.cause })} data-testid="reason-form" initialValues={{ reason: '', cause: doing === 'fail' ? FAIL_CAUSES[0] : undefined }}>
        {doing === 'fail' ? (
          <Form.Item name="cause" label={t('orders:reasonModal.cause')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Radio.Group data-testid="fail-cause">
              <Space orientation="vertical">
                {FAIL_CAUSES.map((c) => (
                  <Radio key={c} value={c} data-testid={`cause-${c}`}>
                    {t(`orders:causes.${c}`)}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
        ) : null}
        <Form.Item name="reason" label={t('orders:reasonModal.reason')} rules={doing === 'void' ? [required] : []}>
          <Input.TextArea autoSize={{ minRows: 3 }} maxLength={REASON_MAX} showCount data-testid="reason-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What a bulk action did: how many moved, and each order that did not, with its reason in
 * words. */
export function BulkResultModal({ doing, result, onClose }: { doing: Doing; result: OrderResultsBody | null; onClose: () => void }) {
  const { t } = useTranslation(['orders', 'common']);
  const failed = (result?.data ?? []).filter((r) => !r.ok);
  return (
    <Modal
      open={result !== null}
      title={failed.length ? t(`orders:failure.${doing}`) : t('orders:bulk.doneTitle')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('common:dialog.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      width={640}
      destroyOnHidden
    >
      <div data-testid="bulk-result">
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text data-testid="bulk-summary">{t('orders:bulk.summary', { ok: result?.succeeded ?? 0, failed: result?.failed ?? 0 })}</Typography.Text>
          {failed.length ? (
            <>
              <Alert
                type="warning"
                showIcon
                title={SUPPORT.includes(doing) ? t('orders:bulk.checkSupport') : t('orders:bulk.check')}
              />
              <Table<OrderResultBody>
                rowKey="id"
                size="small"
                pagination={false}
                dataSource={failed}
                data-testid="bulk-failed"
                columns={[
                  { title: t('orders:fields.orderNo'), dataIndex: 'orderNo', key: 'orderNo', width: 160 },
                  {
                    title: t('orders:bulk.reason'),
                    key: 'reason',
                    render: (_: unknown, r: OrderResultBody) => <span data-testid={`bulk-reason-${r.id}`}>{t(reasonKey(r.reason))}</span>,
                  },
                ]}
              />
            </>
          ) : null}
        </Space>
      </div>
    </Modal>
  );
}

/** Opens a PDF the API answers in a new tab (saved where no tab may open); a refusal is said
 * in the printing's failure dialog. */
export function usePdf() {
  const { t } = useTranslation(['orders', 'common']);
  const [busy, setBusy] = useState<string | null>(null);
  const open = async (key: string, load: () => Promise<string>, fileName: string) => {
    setBusy(key);
    try {
      await openPdf(load, fileName, t('orders:print.loading'));
    } catch (e) {
      showRefusal(e, 'print', t);
    } finally {
      setBusy(null);
    }
  };
  return { open, busy };
}
