import { useState, type ReactNode } from 'react';
import { Alert, Modal, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { notifySuccess } from '@/shared/dialogs/notify';
import { formatBaht } from '@/shared/money';
import { useConfirmPaymentsMutation, usePreConfirmPaymentsMutation, type PaymentConfirmBody, type PaymentConfirmsBody } from './api';
import { reasonKey, showRefusal } from './refusal';

/** Confirming the payments of many orders (SPEC §2 confirm payment, §8): first what would
 * happen — each payment that would be confirmed with its amount, each that would not with its
 * reason — then, once the member agrees, doing it; the answer names what was refused. */
export function useConfirmPayments(onDone?: (body: PaymentConfirmsBody) => void): { start: (orderIds: number[]) => void; modal: ReactNode } {
  const { t } = useTranslation(['orders', 'common']);
  const [ids, setIds] = useState<number[] | null>(null);
  const [preview, setPreview] = useState<PaymentConfirmsBody | null>(null);
  const [done, setDone] = useState<PaymentConfirmsBody | null>(null);
  const [pre, { isLoading: checking }] = usePreConfirmPaymentsMutation();
  const [confirm, { isLoading: confirming }] = useConfirmPaymentsMutation();

  const close = () => {
    setIds(null);
    setPreview(null);
    setDone(null);
  };

  const start = (orderIds: number[]) => {
    if (orderIds.length === 0) return;
    setIds(orderIds);
    setPreview(null);
    setDone(null);
    pre({ confirmPaymentsInput: { ids: orderIds } })
      .unwrap()
      .then(setPreview)
      .catch((e: unknown) => {
        close();
        showRefusal(e, 'payment_confirm', t);
      });
  };

  const run = async () => {
    if (!ids) return;
    try {
      const body = await confirm({ confirmPaymentsInput: { ids } }).unwrap();
      if (body.confirmable > 0) notifySuccess(t('orders:payments.bulk.done', { count: body.confirmable, amount: formatBaht(body.amount) }));
      onDone?.(body);
      if (body.data.every((r) => r.ok)) close();
      else setDone(body);
    } catch (e) {
      close();
      showRefusal(e, 'payment_confirm', t);
    }
  };

  const shown = done ?? preview;
  const modal = ids ? (
    <Modal
      open
      title={t(done ? 'orders:payments.bulk.resultTitle' : 'orders:payments.bulk.title')}
      onCancel={close}
      onOk={() => (done || !preview?.confirmable ? close() : void run())}
      okText={done || !preview?.confirmable ? t('common:actions.close') : t('orders:payments.bulk.confirm', { count: preview.confirmable, amount: formatBaht(preview.amount) })}
      okButtonProps={{ loading: confirming, disabled: checking, id: 'confirm-payments-ok' }}
      cancelButtonProps={{ style: done ? { display: 'none' } : undefined }}
      cancelText={t('common:actions.cancel')}
      width={640}
    >
      {!shown ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : (
        <>
          {done ? (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('orders:payments.bulk.someRefused', { count: done.data.filter((r) => !r.ok).length })} />
          ) : (
            <Typography.Paragraph data-testid="confirm-payments-summary">
              {shown.confirmable > 0 ? t('orders:payments.bulk.willConfirm', { count: shown.confirmable, amount: formatBaht(shown.amount) }) : t('orders:payments.bulk.nothing')}
            </Typography.Paragraph>
          )}
          <Table<PaymentConfirmBody>
            rowKey={(r) => `${r.orderId}-${r.paymentId}`}
            size="small"
            pagination={false}
            dataSource={shown.data}
            data-testid="confirm-payments-table"
            columns={[
              { title: t('orders:fields.orderNo'), dataIndex: 'orderNo', key: 'no' },
              { title: t('orders:bills.amount'), key: 'amount', align: 'right' as const, render: (_: unknown, r: PaymentConfirmBody) => (r.paymentId ? formatBaht(r.amount) : '-') },
              {
                title: '',
                key: 'what',
                render: (_: unknown, r: PaymentConfirmBody) =>
                  r.ok ? <Tag color="green">{t(done ? 'orders:payments.bulk.confirmed' : 'orders:payments.bulk.toConfirm')}</Tag> : <Typography.Text type="danger">{t(reasonKey(r.reason))}</Typography.Text>,
              },
            ]}
          />
        </>
      )}
    </Modal>
  ) : null;
  return { start, modal };
}
