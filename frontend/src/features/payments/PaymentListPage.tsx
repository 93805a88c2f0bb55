import { useState, type ReactNode } from 'react';
import { Button, Card, Empty, Space, Switch, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { BankLabel } from '@/shared/bank/BankBadge';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { useCan } from '@/shared/useCan';
import {
  PAYMENT_EDIT,
  useDeleteStoreChannelMutation,
  useListStoreChannelsQuery,
  useSetStatusByTypeMutation,
  useUpdateStoreChannelMutation,
  type PaymentChannelRow,
} from './api';
import { accountLabel, byKind, feeLabel, formatAccountNo, KINDS, tabOf, type Kind } from './payments';
import { PromptPayQrModal } from './PromptPayQr';
import { notifyRefusal } from '@/shared/refusal';

/** /setting/payment-list (SPEC §2 Settings): the store's payment accounts on one tab per kind
 * (bank, PromptPay, PayPal, COD), `?tab=` naming the open one, each with its status switch,
 * edit and delete; PromptPay accounts show their QR; the COD accounts can be turned on or off
 * together. The owner and payment.storeChannel.* open it. */
export default function PaymentListPage() {
  const { t } = useTranslation(['payments', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const navigate = useNavigate();
  const canEdit = useCan(PAYMENT_EDIT);
  const { data, isFetching } = useListStoreChannelsQuery({});
  const [update] = useUpdateStoreChannelMutation();
  const [remove] = useDeleteStoreChannelMutation();
  const [setAll, { isLoading: settingAll }] = useSetStatusByTypeMutation();
  const [switching, setSwitching] = useState<number | null>(null);
  const [qrFor, setQrFor] = useState<PaymentChannelRow | null>(null);
  const groups = byKind(data?.data ?? []);

  const create = (kind: Kind) => navigate(`/${id}/setting/payment-create?type=${kind}`);

  const onStatus = async (row: PaymentChannelRow, on: boolean) => {
    setSwitching(row.id);
    try {
      await update({ id: row.id, storeChannelInput: { status: on ? 'active' : 'inactive' } }).unwrap();
      notifySuccess(t(on ? 'payments:list.turnedOn' : 'payments:list.turnedOff', { name: accountLabel(row) }));
    } catch (e) {
      notifyRefusal(e, t, 'payments');
    } finally {
      setSwitching(null);
    }
  };

  const onDelete = async (row: PaymentChannelRow) => {
    const name = accountLabel(row);
    const ok = await showDialog({ kind: 'warning', title: 'payments:list.deleteTitle', message: 'payments:list.deleteMessage', values: { name }, confirm: 'common:actions.delete' });
    if (!ok) return;
    try {
      await remove({ id: row.id }).unwrap();
      notifySuccess(t('payments:list.deleted'));
    } catch (e) {
      if (apiError(e)?.code === 'payment_channel_in_use') {
        await showDialog({ kind: 'error', title: 'payments:list.inUseTitle', message: 'payments:errors.payment_channel_in_use', values: { name } });
      } else {
        notifyRefusal(e, t, 'payments');
      }
    }
  };

  const onAllCod = async (on: boolean) => {
    try {
      const r = await setAll({ 'channel.type': 'cod', paymentStatusInput: { status: on ? 'active' : 'inactive' } }).unwrap();
      notifySuccess(t(on ? 'payments:cod.allOn' : 'payments:cod.allOff', { count: r.changed }));
    } catch (e) {
      notifyRefusal(e, t, 'payments');
    }
  };

  const columnsOf = (kind: Kind) => {
    const detail: { title: string; key: string; render: (_: unknown, r: PaymentChannelRow) => ReactNode }[] = [];
    const text = (key: string, value: (r: PaymentChannelRow) => ReactNode) => detail.push({ title: t(`payments:fields.${key}`), key, render: (_, r) => value(r) });
    if (kind === 'bank') {
      text('bank', (r) => (r.bank ? <BankLabel bank={r.bank} /> : r.credential.bankCode));
      text('accName', (r) => r.credential.accName);
      text('accNo', (r) => <span style={{ whiteSpace: 'nowrap' }}>{formatAccountNo(kind, r.credential.accNo)}</span>);
      text('branch', (r) => r.credential.branch);
    } else if (kind === 'promptpay') {
      text('accName', (r) => r.credential.accName);
      text('promptPayId', (r) => <span style={{ whiteSpace: 'nowrap' }}>{formatAccountNo(kind, r.credential.accNo)}</span>);
    } else if (kind === 'paypal') {
      text('email', (r) => r.credential.email);
      text('fee', (r) => feeLabel(r.credential.fee));
    } else {
      text('accName', (r) => r.credential.accName);
      text('accNo', (r) => <span style={{ whiteSpace: 'nowrap' }}>{formatAccountNo(kind, r.credential.accNo)}</span>);
    }
    text('openBills', (r) => (r.openBills > 0 ? <Tag color="orange">{t('payments:list.openBills', { count: r.openBills })}</Tag> : <Typography.Text type="secondary">{t('payments:list.noOpenBills')}</Typography.Text>));
    return [
      ...detail,
      {
        title: t('payments:fields.status'),
        key: 'status',
        width: 120,
        render: (_: unknown, r: PaymentChannelRow) => (
          <Space size={6} wrap={false}>
            <Switch
              checked={r.status === 'active'}
              disabled={!canEdit}
              loading={switching === r.id}
              onChange={(on) => void onStatus(r, on)}
              aria-label={t('payments:fields.status')}
              data-testid={`payment-${r.id}-status`}
            />
            <Typography.Text type={r.status === 'active' ? undefined : 'secondary'}>{t(`payments:status.${r.status}`, { defaultValue: r.status })}</Typography.Text>
          </Space>
        ),
      },
      {
        title: t('payments:fields.actions'),
        key: 'actions',
        align: 'right' as const,
        render: (_: unknown, r: PaymentChannelRow) => (
          <Space size={4} wrap={false}>
            {kind === 'promptpay' ? (
              <Button size="small" icon={<QrcodeOutlined />} onClick={() => setQrFor(r)} data-testid={`payment-${r.id}-qr`}>
                {t('payments:qr.show')}
              </Button>
            ) : null}
            {canEdit ? (
              <>
                <Button size="small" icon={<EditOutlined />} onClick={() => navigate(`/${id}/setting/payment-edit/${r.id}`)} data-testid={`payment-${r.id}-edit`}>
                  {t('common:actions.edit')}
                </Button>
                <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void onDelete(r)} data-testid={`payment-${r.id}-delete`}>
                  {t('common:actions.delete')}
                </Button>
              </>
            ) : null}
          </Space>
        ),
      },
    ];
  };

  const empty = (kind: Kind) => (
    <Empty description={t(`payments:empty.${kind}`)} data-testid={`payment-empty-${kind}`}>
      {canEdit ? (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => create(kind)}>
          {t(`payments:add.${kind}`)}
        </Button>
      ) : null}
    </Empty>
  );

  const codActions = canEdit && groups.cod.length > 0 && (
    <Space wrap>
      <Tooltip title={t('payments:cod.allHint')}>
        <Button onClick={() => void onAllCod(true)} loading={settingAll} data-testid="cod-all-on">
          {t('payments:cod.turnAllOn')}
        </Button>
      </Tooltip>
      <Button onClick={() => void onAllCod(false)} loading={settingAll} data-testid="cod-all-off">
        {t('payments:cod.turnAllOff')}
      </Button>
    </Space>
  );

  return (
    <Card data-testid="payment-list">
      <div className="bo-page-head">
        <h1>{t('payments:page.title')}</h1>
        {canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => create(tab)} data-testid="payment-create">
            {t(`payments:add.${tab}`)}
          </Button>
        ) : null}
      </div>
      <Typography.Paragraph type="secondary">{t('payments:page.hint')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(new URLSearchParams({ tab: k }), { replace: true })}
        items={KINDS.map((kind) => ({
          key: kind,
          label: (
            <span data-testid={`payment-tab-${kind}`}>
              {t(`payments:kinds.${kind}`)}
              {data ? <Typography.Text type="secondary">{` (${groups[kind].length})`}</Typography.Text> : null}
            </span>
          ),
          children: (
            <>
              <div className="bo-page-head">
                <Typography.Text type="secondary">{t(`payments:hints.${kind}`)}</Typography.Text>
                {kind === 'cod' ? codActions : null}
              </div>
              <Table<PaymentChannelRow>
                rowKey="id"
                size="middle"
                loading={isFetching}
                columns={columnsOf(kind)}
                dataSource={groups[kind]}
                pagination={false}
                locale={{ emptyText: empty(kind) }}
                scroll={{ x: 900 }}
                data-testid={`payment-table-${kind}`}
              />
            </>
          ),
        }))}
      />
      <PromptPayQrModal row={qrFor} onClose={() => setQrFor(null)} />
    </Card>
  );
}
