import { useState } from 'react';
import { Button, Card, Form, InputNumber, Modal, Space, Tag, Typography } from 'antd';
import { CopyOutlined, DollarOutlined, ExportOutlined, FieldTimeOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { ListView } from '@/shared/list/ListView';
import { useRenewBillExpiryMutation, useRenewBillLinkMutation, type OrderBillBody, type OrderBody } from './api';
import { billLink, MAX_RENEW_DAYS, renewable } from './orders';
import { PaymentModal, PaymentsTable, usePaymentRights } from './PaymentsPanel';
import { showRefusal } from './refusal';

/** An order's bills (SPEC §4 Bill): one per warehouse, for its share of the total, active or
 * expired, when it expires under the store's setting of the moment it was made and what then
 * happens to the order; a new order's bills are renewed by a number of days. Each bill's
 * public link is copied or opened for the buyer, or replaced by a new one (the old link then
 * finds nothing), and its payments are recorded, confirmed, cancelled and voided below. */
export function BillsCard({ o, canEdit, warehouseName }: { o: OrderBody; canEdit: boolean; warehouseName: (id: number) => string }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const lng = i18n.language;
  const [renewing, setRenewing] = useState<OrderBillBody | null>(null);
  const [paying, setPaying] = useState<OrderBillBody | null>(null);
  const rights = usePaymentRights();
  const waits = o.state === 'new' && o.paymentState === 'unpaid';
  const open = o.state !== 'cancelled' && o.state !== 'failed';
  const live = (b: OrderBillBody) => o.payments.some((p) => p.billId === b.id && ['unpaid', 'pending', 'paid'].includes(p.state));
  const [newLink, { isLoading: linking }] = useRenewBillLinkMutation();
  const renewLink = async (b: OrderBillBody) => {
    const ok = await showDialog({ kind: 'warning', title: 'orders:bills.newLinkTitle', message: 'orders:bills.newLinkHint', confirm: 'orders:bills.newLink' });
    if (!ok) return;
    try {
      await newLink({ id: o.id, inv: b.id }).unwrap();
      notifySuccess(t('orders:bills.newLinkDone'));
    } catch (e) {
      showRefusal(e, 'renew', t);
    }
  };
  const copy = async (b: OrderBillBody) => {
    try {
      await navigator.clipboard.writeText(billLink(window.location.origin, b.token));
      notifySuccess(t('orders:bills.copied'));
    } catch {
      notifyError(t('orders:bills.copyFailed'));
    }
  };
  return (
    <Card title={t('orders:bills.title')} data-testid="order-bills">
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t('orders:bills.linkHint')}
      </Typography.Paragraph>
      <ListView<OrderBillBody>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={o.bills}
        scroll={{ x: 720 }}
        columns={[
          { title: t('orders:fields.warehouse'), key: 'warehouse', render: (_: unknown, b: OrderBillBody) => warehouseName(b.warehouseId) || '-' },
          {
            title: t('orders:bills.amount'),
            key: 'amount',
            align: 'right' as const,
            width: 130,
            render: (_: unknown, b: OrderBillBody) => <strong data-testid={`bill-${b.warehouseId}-amount`}>{formatBaht(b.amount)}</strong>,
          },
          {
            title: t('orders:bills.state'),
            key: 'state',
            width: 110,
            render: (_: unknown, b: OrderBillBody) => (
              <Tag color={b.state === 'active' ? 'green' : 'red'} data-testid={`bill-${b.warehouseId}-state`}>
                {t(`orders:bills.states.${b.state}`, { defaultValue: b.state })}
              </Tag>
            ),
          },
          {
            title: t('orders:bills.expiry'),
            key: 'expiry',
            render: (_: unknown, b: OrderBillBody) => (
              <div data-testid={`bill-${b.warehouseId}-expiry`}>
                <div>
                  {b.state === 'expired' && b.expiredAt
                    ? t('orders:bills.expiredAt', { at: formatDateTime(b.expiredAt, lng) })
                    : b.expiresAt
                      ? t(waits ? 'orders:bills.expiresAt' : 'orders:bills.expiresAtPaused', { at: formatDateTime(b.expiresAt, lng) })
                      : t('orders:bills.never')}
                </div>
                {b.expiryType !== 'no_expiry' ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(`orders:bills.types.${b.expiryType}`, { defaultValue: b.expiryType })} · {t(`orders:bills.onExpiry.${b.onExpiry}`, { defaultValue: b.onExpiry })}
                    {b.renewedAt ? ` · ${t('orders:bills.renewedAt', { at: formatDateTime(b.renewedAt, lng) })}` : ''}
                  </Typography.Text>
                ) : null}
              </div>
            ),
          },
          {
            title: '',
            key: 'actions',
            width: 340,
            render: (_: unknown, b: OrderBillBody) => (
              <Space size={4} wrap>
                <Button size="small" icon={<CopyOutlined />} onClick={() => void copy(b)} data-testid={`bill-${b.warehouseId}-copy`}>
                  {t('orders:bills.copy')}
                </Button>
                <Button size="small" type="link" icon={<ExportOutlined />} href={billLink('', b.token)} target="_blank" rel="noopener noreferrer" data-testid={`bill-${b.warehouseId}-open`}>
                  {t('orders:bills.open')}
                </Button>
                {canEdit ? (
                  <Button size="small" icon={<LinkOutlined />} loading={linking} onClick={() => void renewLink(b)} data-testid={`bill-${b.warehouseId}-new-link`}>
                    {t('orders:bills.newLink')}
                  </Button>
                ) : null}
                {canEdit && renewable(o, b) ? (
                  <Button size="small" icon={<FieldTimeOutlined />} onClick={() => setRenewing(b)} data-testid={`bill-${b.warehouseId}-renew`}>
                    {t('orders:bills.renew')}
                  </Button>
                ) : null}
                {rights.create && open && !live(b) ? (
                  <Button size="small" icon={<DollarOutlined />} onClick={() => setPaying(b)} data-testid={`bill-${b.warehouseId}-pay`}>
                    {t('orders:payments.record')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <PaymentsTable o={o} warehouseName={warehouseName} />
      {renewing ? <RenewModal o={o} bill={renewing} onClose={() => setRenewing(null)} /> : null}
      {paying ? <PaymentModal o={o} bill={paying} payment={null} onClose={() => setPaying(null)} /> : null}
    </Card>
  );
}

/** Renews a bill by 1 to 30 days from now. */
function RenewModal({ o, bill, onClose }: { o: OrderBody; bill: OrderBillBody; onClose: () => void }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<{ days: number | null }>();
  const [renew, { isLoading }] = useRenewBillExpiryMutation();
  const submit = async ({ days }: { days: number | null }) => {
    try {
      const next = await renew({ id: o.id, billExpiryInput: { days: days ?? undefined, warehouseId: bill.warehouseId } }).unwrap();
      const at = next.bills.find((b) => b.warehouseId === bill.warehouseId)?.expiresAt;
      notifySuccess(t('orders:bills.renewed', { orderNo: o.orderNo, at: at ? formatDateTime(at, i18n.language) : '' }));
      onClose();
    } catch (e) {
      const field = apiError(e)?.fields?.find((f) => f.field === 'days');
      if (field) form.setFields([{ name: 'days', errors: [t([`orders:${field.code}`, `common:${field.code}`], { max: MAX_RENEW_DAYS })] }]);
      else {
        onClose();
        showRefusal(e, 'renew', t);
      }
    }
  };
  return (
    <Modal
      open
      title={t('orders:bills.renewTitle', { orderNo: o.orderNo })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('orders:bills.renew')}
      okButtonProps={{ loading: isLoading, id: 'bill-renew-save' }}
      cancelText={t('common:actions.cancel')}
    >
      <Typography.Paragraph type="secondary">{t('orders:bills.renewHint', { max: MAX_RENEW_DAYS })}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ days: 1 }} onFinish={(v) => void submit(v)} data-testid="bill-renew-form">
        <Form.Item
          name="days"
          label={t('orders:bills.days')}
          rules={[
            { required: true, message: t('common:validation.required') },
            { type: 'integer', min: 1, max: MAX_RENEW_DAYS, message: t('orders:validation.bill_renew_days', { max: MAX_RENEW_DAYS }) },
          ]}
        >
          <InputNumber style={{ width: 160 }} precision={0} suffix={t('orders:bills.daysUnit')} data-testid="bill-renew-days" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
