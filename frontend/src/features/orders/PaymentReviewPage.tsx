import { useState } from 'react';
import { Button, Card, Image, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import { CheckOutlined, FileSearchOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';

import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import { accountLabel, useListStoreChannelsQuery } from '@/features/payments/api';
import { useListPaymentsQuery, usePaymentAttachmentUrlQuery, type ListedPaymentBody } from './api';
import { useConfirmPayments } from './ConfirmPayments';
import { PAYMENT_COLOURS } from './orders';
import { PAYMENT_APPROVE } from './routes';

const TABS = ['pending', 'paid', 'cancelled', 'voided', 'all'] as const;

/** /order-payment-review (SPEC §2 bill and payment review): the store's payments by state,
 * slips waiting first; each with its order, amount, the account paid to and the slip; those
 * chosen are confirmed together after seeing what will happen. */
export default function PaymentReviewPage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get('state') ?? '') ? (params.get('state') as (typeof TABS)[number]) : 'pending';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isFetching } = useListPaymentsQuery({ state: tab === 'all' ? undefined : tab, page, limit: 20 });
  const { data: channels } = useListStoreChannelsQuery({ limit: -1 });
  const canApprove = useCan(PAYMENT_APPROVE);
  const [selected, setSelected] = useState<number[]>([]);
  const [slip, setSlip] = useState<ListedPaymentBody | null>(null);
  const confirm = useConfirmPayments(() => setSelected([]));
  const account = (id: number, type: string) => {
    const c = channels?.data.find((x) => x.id === id);
    const kind = t(`orders:payments.kinds.${type || c?.channel.type || ''}`, { defaultValue: type });
    return c ? `${kind} · ${accountLabel(c)}` : kind || t('orders:payments.noAccount');
  };
  const rows = data?.data ?? [];
  const orderIds = [...new Set(rows.filter((r) => selected.includes(r.payment.id)).map((r) => r.orderId))];

  return (
    <Card>
      <div className="bo-page-head">
        <h1 style={{ margin: 0 }}>{t('orders:review.title')}</h1>
        {canApprove ? (
          <Space wrap>
            <Link to={`/${storeId}/order-payment-reconcile`} data-testid="review-reconcile">
              <Button icon={<FileSearchOutlined />}>{t('orders:reconcile.open')}</Button>
            </Link>
            {tab === 'pending' ? (
              <Button type="primary" icon={<CheckOutlined />} disabled={orderIds.length === 0} onClick={() => confirm.start(orderIds)} data-testid="review-confirm">
                {t('orders:review.confirmSelected', { count: orderIds.length })}
              </Button>
            ) : null}
          </Space>
        ) : null}
      </div>
      <Typography.Paragraph type="secondary">{t('orders:review.hint')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setSelected([]);
          setParams({ state: k });
        }}
        items={TABS.map((k) => ({ key: k, label: <span data-testid={`review-tab-${k}`}>{t(`orders:review.tabs.${k}`)}</span> }))}
      />
      <Table<ListedPaymentBody>
        rowKey={(r) => r.payment.id}
        size="middle"
        loading={isFetching}
        dataSource={rows}
        scroll={{ x: 900 }}
        data-testid="review-table"
        rowSelection={
          canApprove && tab === 'pending'
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (r) => ({ 'data-testid': `review-select-${r.payment.id}` }) as object }
            : undefined
        }
        pagination={{
          current: data?.page ?? page,
          pageSize: 20,
          total: data?.total ?? 0,
          showSizeChanger: false,
          onChange: (p) => setParams({ state: tab, page: String(p) }),
        }}
        locale={{ emptyText: t(`orders:review.empty.${tab}`) }}
        columns={[
          {
            title: t('orders:fields.orderNo'),
            key: 'order',
            render: (_: unknown, r: ListedPaymentBody) => (
              <Space orientation="vertical" size={0}>
                <Link to={`/${storeId}/order-detail/${r.orderId}`} data-testid={`review-order-${r.payment.id}`}>
                  {r.orderNo}
                </Link>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`orders:states.${r.orderState}`, { defaultValue: r.orderState })}
                  {r.cod ? ` · ${t('orders:fields.cod')}` : ''}
                </Typography.Text>
              </Space>
            ),
          },
          { title: t('orders:bills.amount'), key: 'amount', align: 'right' as const, width: 130, render: (_: unknown, r: ListedPaymentBody) => <strong>{formatBaht(r.payment.amount)}</strong> },
          {
            title: t('orders:payments.state'),
            key: 'state',
            width: 140,
            render: (_: unknown, r: ListedPaymentBody) => (
              <Tag color={PAYMENT_COLOURS[r.payment.state] ?? 'default'}>{t(`orders:payment.${r.payment.state}`, { defaultValue: r.payment.state })}</Tag>
            ),
          },
          {
            title: t('orders:payments.account'),
            key: 'account',
            render: (_: unknown, r: ListedPaymentBody) => (
              <Space orientation="vertical" size={0}>
                <span>{account(r.payment.storeChannelId, r.payment.channelType)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`orders:payments.source.${r.payment.source}`, { defaultValue: r.payment.source })} · {formatDateTime(r.payment.slipAt ?? r.payment.createdAt, i18n.language)}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('orders:payments.slip'),
            key: 'slip',
            width: 120,
            render: (_: unknown, r: ListedPaymentBody) =>
              r.payment.hasAttachment ? (
                <Button size="small" icon={<PaperClipOutlined />} onClick={() => setSlip(r)} data-testid={`review-slip-${r.payment.id}`}>
                  {t('orders:payments.viewSlip')}
                </Button>
              ) : (
                '-'
              ),
          },
        ]}
      />
      {slip ? <Slip row={slip} onClose={() => setSlip(null)} /> : null}
      {confirm.modal}
    </Card>
  );
}

function Slip({ row, onClose }: { row: ListedPaymentBody; onClose: () => void }) {
  const { t } = useTranslation(['orders', 'common']);
  const { data: url, isError } = usePaymentAttachmentUrlQuery({ orderId: row.orderId, paymentId: row.payment.id, version: row.payment.updatedAt });
  return (
    <Modal open title={`${row.orderNo} · ${t('orders:payments.slipTitle', { amount: formatBaht(row.payment.amount) })}`} onCancel={onClose} footer={null}>
      {isError ? <Typography.Text type="danger">{t('orders:payments.slipUnavailable')}</Typography.Text> : null}
      {url ? <Image src={url} alt={t('orders:payments.slip')} style={{ maxWidth: '100%' }} data-testid="review-slip-image" /> : null}
    </Modal>
  );
}
