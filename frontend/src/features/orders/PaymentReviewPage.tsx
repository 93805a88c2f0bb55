import { useState, type ReactNode } from 'react';
import { Button, Card, Image, Modal, Space, Tabs, Tag, Typography } from 'antd';
import { CheckOutlined, FileSearchOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { useIsMobile } from '@/app/layouts/useDevice';
import { BottomBar, HeadActions } from '@/shared/list/Actions';
import { ListView } from '@/shared/list/ListView';
import { accountLabel, useListStoreChannelsQuery } from '@/features/payments/api';
import { useListPaymentsQuery, usePaymentAttachmentUrlQuery, type ListedPaymentBody } from './api';
import { useConfirmPayments } from './ConfirmPayments';
import { PAYMENT_COLOURS } from './orders';
import { PAYMENT_APPROVE } from './routes';

const TABS = ['pending', 'paid', 'cancelled', 'voided', 'all'] as const;
const PAGE_SIZE = 20;

/** /order-payment-review (SPEC §2 bill and payment review): the store's payments by state,
 * slips waiting first; each with its order, amount, the account paid to and the slip; those
 * chosen are confirmed together after seeing what will happen. */
export default function PaymentReviewPage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get('state') ?? '') ? (params.get('state') as (typeof TABS)[number]) : 'pending';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isFetching } = useListPaymentsQuery({ state: tab === 'all' ? undefined : tab, page, limit: PAGE_SIZE });
  const { data: channels } = useListStoreChannelsQuery({ limit: -1 });
  const canApprove = useCan(PAYMENT_APPROVE);
  const [selected, setSelected] = useState<number[]>([]);
  const [slip, setSlip] = useState<ListedPaymentBody | null>(null);
  const confirm = useConfirmPayments(() => setSelected([]));
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const account = (id: number, type: string) => {
    const c = channels?.data.find((x) => x.id === id);
    const kind = t(`orders:payments.kinds.${type || c?.channel.type || ''}`, { defaultValue: type });
    return c ? `${kind} · ${accountLabel(c)}` : kind || t('orders:payments.noAccount');
  };
  const rows = data?.data ?? [];
  const orderIds = [...new Set(rows.filter((r) => selected.includes(r.payment.id)).map((r) => r.orderId))];

  const reconcile = (
    <Link to={`/${storeId}/order-payment-reconcile`} data-testid="review-reconcile">
      <Button icon={<FileSearchOutlined />}>{t('orders:reconcile.open')}</Button>
    </Link>
  );
  const confirmButton = (
    <Button type="primary" icon={<CheckOutlined />} disabled={orderIds.length === 0} onClick={() => confirm.start(orderIds)} data-testid="review-confirm">
      {t('orders:review.confirmSelected', { count: orderIds.length })}
    </Button>
  );
  const choosing = canApprove && tab === 'pending';
  const slipButton = (r: ListedPaymentBody) => (
    <Button
      size="small"
      icon={<PaperClipOutlined />}
      onClick={(e) => {
        e.stopPropagation();
        setSlip(r);
      }}
      // Enter on the button opens the slip, not the card it sits in (on a phone).
      onKeyDown={(e) => e.stopPropagation()}
      data-testid={`review-slip-${r.payment.id}`}
    >
      {t('orders:payments.viewSlip')}
    </Button>
  );
  const when = (r: ListedPaymentBody) => formatDateTime(r.payment.slipAt ?? r.payment.createdAt, i18n.language);

  return (
    <Card>
      <div className="bo-page-head">
        <h1 style={{ margin: 0 }}>{t('orders:review.title')}</h1>
        {canApprove ? (
          mobile ? (
            // On a phone the chosen payments are confirmed from the bar at the bottom.
            <HeadActions>{reconcile}</HeadActions>
          ) : (
            <Space wrap>
              {reconcile}
              {tab === 'pending' ? confirmButton : null}
            </Space>
          )
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
      <ListView<ListedPaymentBody>
        rowKey={(r) => r.payment.id}
        size="middle"
        loading={isFetching}
        dataSource={rows}
        scroll={{ x: 900 }}
        data-testid="review-table"
        rowSelection={
          choosing
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (r) => ({ 'data-testid': `review-select-${r.payment.id}` }) as object }
            : undefined
        }
        pagination={{
          current: data?.page ?? page,
          pageSize: PAGE_SIZE,
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
                  {t(`orders:payments.source.${r.payment.source}`, { defaultValue: r.payment.source })} · {when(r)}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('orders:payments.slip'),
            key: 'slip',
            width: 120,
            render: (_: unknown, r: ListedPaymentBody) => (r.payment.hasAttachment ? slipButton(r) : '-'),
          },
        ]}
        onOpen={(r) => navigate(`/${storeId}/order-detail/${r.orderId}`)}
        cardTestId={(r) => `payment-${r.payment.id}-card`}
        card={(r) => <PaymentCard row={r} account={account(r.payment.storeChannelId, r.payment.channelType)} when={when(r)} slip={r.payment.hasAttachment ? slipButton(r) : null} />}
      />
      {/* The cards have no pager of their own (the table's is in it). */}
      {mobile ? <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => setParams({ state: tab, page: String(p) })} /> : null}
      {/* At the foot, its room kept under the list. */}
      {mobile && choosing && selected.length > 0 ? <BottomBar data-testid="review-bulk">{confirmButton}</BottomBar> : null}
      {slip ? <Slip row={slip} onClose={() => setSlip(null)} /> : null}
      {confirm.modal}
    </Card>
  );
}

/** A payment as a card on a phone: its order and amount, the account paid to, who sent it
 * and when, its state, and its slip. */
function PaymentCard({ row: r, account, when, slip }: { row: ListedPaymentBody; account: string; when: string; slip: ReactNode }) {
  const { t } = useTranslation('orders');
  return (
    <>
      <div className="bo-card-row">
        <span className="bo-card-title">{r.orderNo}</span>
        <strong style={{ whiteSpace: 'nowrap', flex: 'none' }} data-testid={`payment-${r.payment.id}-amount`}>
          {formatBaht(r.payment.amount)}
        </strong>
      </div>
      <div>{account}</div>
      <div className="bo-card-sub">
        {t(`payments.source.${r.payment.source}`, { defaultValue: r.payment.source })} · {when}
      </div>
      <div className="bo-card-row" style={{ alignItems: 'center', marginTop: 4 }}>
        <span className="bo-card-tags" style={{ marginTop: 0 }}>
          <Tag color={PAYMENT_COLOURS[r.payment.state] ?? 'default'} data-testid={`payment-${r.payment.id}-state`}>
            {t(`payment.${r.payment.state}`, { defaultValue: r.payment.state })}
          </Tag>
          <Tag>
            {t(`states.${r.orderState}`, { defaultValue: r.orderState })}
            {r.cod ? ` · ${t('fields.cod')}` : ''}
          </Tag>
        </span>
        {slip ? <span style={{ flex: 'none' }}>{slip}</span> : null}
      </div>
    </>
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
