// A marketplace order shipped the platform's way: the ways its platform offers (a pick-up at
// one of the shop's addresses in an offered time, a drop-off at a branch, or the seller's own
// carrier with its tracking number), arranging it with the platform first (the order then
// moves as the platform says), the carrier's tracking number once the platform gives it, and
// the platform's own label. A buyer's request to cancel shows first, with the seller's
// answer (accept: the platform cancels the order and its stock is released; reject: it goes
// on). A marketplace whose shipping is not here yet shows the store's own parcels instead
// (`fallback`). An order its platform ships that the marketplaces service has not recorded
// yet (a moment after it came in) is waited for, never shown with our own parcels.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Radio, Select, Space, Spin, Typography } from 'antd';
import { CheckOutlined, CloseOutlined, PrinterOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useAnswerChannelCancellationMutation, useArrangeChannelShipmentMutation, useGetChannelShippingQuery, usePrintChannelLabelsMutation, type OrderBody, type ShipOptionsBody } from './api';
import { nothingPrinted, pdfOfLabels } from './channelLabels';
import { usePdf } from './parts';
import { reasonKey } from './refusal';

type Way = 'pickup' | 'dropoff' | 'own_carrier' | 'platform';

interface Values {
  handover: Way;
  addressId?: string;
  slotId?: string;
  trackingNo?: string;
}

/** The ways offered, pick-up first. */
export function waysOf(o: ShipOptionsBody): Way[] {
  const ways: Way[] = [];
  if (o.pickup.length > 0) ways.push('pickup');
  if (o.dropoff) ways.push('dropoff');
  if (o.ownCarrier) ways.push('own_carrier');
  if (o.platform) ways.push('platform');
  return ways;
}

/** An order its platform ships that the marketplaces service has not recorded yet: said so,
 * and asked for again every 2 s while shown (the card's query polls with it). */
function Recording({ o, title }: { o: OrderBody; title: string }) {
  const { t } = useTranslation(['orders']);
  useGetChannelShippingQuery({ id: o.id }, { pollingInterval: 2000 });
  return (
    <Card title={title} data-testid="channel-shipping">
      <Space>
        <Spin size="small" />
        <Typography.Text type="secondary" data-testid="channel-recording">
          {t('orders:channelShipping.recording', { shop: o.channelShop })}
        </Typography.Text>
      </Space>
    </Card>
  );
}

/** The buyer's request to cancel, with the seller's answer. */
function CancelRequest({ o, reason, canEdit }: { o: OrderBody; reason: string; canEdit: boolean }) {
  const { t } = useTranslation(['orders', 'codes']);
  const [answer, { isLoading, originalArgs }] = useAnswerChannelCancellationMutation();
  const decide = async (decision: 'accept' | 'reject') => {
    if (decision === 'accept') {
      const ok = await showDialog({ kind: 'warning', title: 'orders:channelShipping.cancel.title', message: 'orders:channelShipping.cancel.confirmAccept', values: { orderNo: o.orderNo }, confirm: 'orders:channelShipping.cancel.accept' });
      if (!ok) return;
    }
    try {
      await answer({ id: o.id, cancelAnswerInput: { decision } }).unwrap();
      notifySuccess(t(`orders:channelShipping.cancel.${decision === 'accept' ? 'accepted' : 'rejected'}`, { orderNo: o.orderNo }));
    } catch (e) {
      notifyError(t(reasonKey(apiError(e)?.code)));
    }
  };
  const busy = (d: string) => isLoading && originalArgs?.cancelAnswerInput.decision === d;
  return (
    <Alert
      type="warning"
      showIcon
      title={t('orders:channelShipping.cancel.title')}
      description={
        <Space orientation="vertical">
          <Typography.Text data-testid="channel-cancel-reason">{reason ? t('orders:channelShipping.cancel.reason', { reason }) : t('orders:channelShipping.cancel.noReason')}</Typography.Text>
          <Typography.Text type="secondary">{t('orders:channelShipping.cancel.hint')}</Typography.Text>
          {canEdit ? (
            <Space wrap>
              <Button danger icon={<CheckOutlined />} onClick={() => void decide('accept')} loading={busy('accept')} disabled={isLoading} data-testid="channel-cancel-accept">
                {t('orders:channelShipping.cancel.accept')}
              </Button>
              <Button icon={<CloseOutlined />} onClick={() => void decide('reject')} loading={busy('reject')} disabled={isLoading} data-testid="channel-cancel-reject">
                {t('orders:channelShipping.cancel.reject')}
              </Button>
            </Space>
          ) : null}
        </Space>
      }
      data-testid="channel-cancel-request"
    />
  );
}

export function ChannelShippingCard({ o, canEdit, fallback }: { o: OrderBody; canEdit: boolean; fallback: ReactNode }) {
  const { t, i18n } = useTranslation(['orders', 'common', 'codes']);
  const { data, isLoading, isFetching, error, refetch } = useGetChannelShippingQuery({ id: o.id });
  const [arrange, { isLoading: arranging }] = useArrangeChannelShipmentMutation();
  const [print] = usePrintChannelLabelsMutation();
  const pdf = usePdf();
  const [form] = Form.useForm<Values>();
  const [way, setWay] = useState<Way | undefined>(undefined);
  const [addressId, setAddressId] = useState<string | undefined>(undefined);
  const code = apiError(error)?.code;
  const lng = i18n.language;
  const title = t('orders:channelShipping.title', { shop: o.channelShop });
  // Its platform ships it, but the marketplaces service has not recorded it yet.
  if (code === 'channel_order_not_found' && o.platformShips) return <Recording o={o} title={title} />;
  if (code === 'channel_shipping_unavailable' || code === 'channel_order_not_found') return <>{fallback}</>;
  if (isLoading) {
    return (
      <Card title={title}>
        <Spin />
      </Card>
    );
  }
  const shipment = data?.shipment;
  const options = data?.options;
  const ways = options ? waysOf(options) : [];
  const chosen = way ?? ways[0];
  const address = options?.pickup.find((a) => a.id === (addressId ?? options.pickup.find((x) => x.isDefault)?.id ?? options.pickup[0]?.id));

  const submit = async (v: Values) => {
    try {
      await arrange({
        id: o.id,
        arrangeShipmentInput: { handover: chosen ?? '', addressId: address?.id ?? '', slotId: v.slotId ?? '', trackingNo: v.trackingNo ?? '' },
      }).unwrap();
      notifySuccess(t('orders:channelShipping.arranged', { orderNo: o.orderNo }));
    } catch (e) {
      const body = apiError(e);
      const field = body?.fields?.[0]?.field;
      if (field === 'slot_id' || field === 'tracking_no') {
        form.setFields([{ name: field === 'slot_id' ? 'slotId' : 'trackingNo', errors: [t(`orders:channelShipping.fieldErrors.${body?.fields?.[0]?.code ?? 'required'}`, { defaultValue: t('common:errors.required') })] }]);
        return;
      }
      notifyError(t(reasonKey(body?.code)));
    }
  };

  const printLabel = () =>
    pdf.open(
      'channel-label',
      async () => {
        const r = await print({ channelLabelsInput: { orderIds: [o.id] } }).unwrap();
        if (!r.pdf) throw nothingPrinted(r);
        return pdfOfLabels(r.pdf);
      },
      shipment?.trackingNo || o.orderNo,
    );

  return (
    <Card title={title} data-testid="channel-shipping">
      {data?.cancelRequest ? (
        <CancelRequest o={o} reason={data.cancelRequest.reason} canEdit={canEdit} />
      ) : code ? (
        <Alert
          type="warning"
          showIcon
          title={t(reasonKey(code))}
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void refetch()} loading={isFetching}>
              {t('orders:channelShipping.again')}
            </Button>
          }
          data-testid="channel-shipping-refused"
        />
      ) : shipment ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2 }}
            items={[
              { key: 'how', label: t('orders:channelShipping.handover'), children: t(`orders:channelShipping.ways.${shipment.handover}`) },
              {
                key: 'tracking',
                label: t('orders:channelShipping.trackingNo'),
                children: shipment.trackingNo ? (
                  <Typography.Text copyable data-testid="channel-tracking">
                    {shipment.trackingNo}
                  </Typography.Text>
                ) : (
                  <Space>
                    <Typography.Text type="secondary">{t('orders:channelShipping.trackingPending')}</Typography.Text>
                    <Button size="small" icon={<ReloadOutlined />} onClick={() => void refetch()} loading={isFetching} data-testid="channel-tracking-refresh" />
                  </Space>
                ),
              },
              { key: 'arranged', label: t('orders:channelShipping.arrangedAt'), children: formatDateTime(shipment.arrangedAt, lng) },
              { key: 'label', label: t('orders:channelShipping.labelAt'), children: shipment.labelPrintedAt ? formatDateTime(shipment.labelPrintedAt, lng) : '–' },
            ]}
          />
          {canEdit ? (
            <Button icon={<PrinterOutlined />} onClick={() => void printLabel()} loading={pdf.busy === 'channel-label'} disabled={!shipment.trackingNo} data-testid="channel-label">
              {t('orders:channelShipping.printLabel')}
            </Button>
          ) : null}
        </Space>
      ) : options && ways.length > 0 ? (
        canEdit ? (
          <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} data-testid="channel-shipping-form">
            <Form.Item label={t('orders:channelShipping.handover')}>
              <Radio.Group value={chosen} onChange={(e) => setWay(e.target.value as Way)} data-testid="channel-handover">
                {ways.map((w) => (
                  <Radio.Button key={w} value={w} data-testid={`channel-handover-${w}`}>
                    {t(`orders:channelShipping.ways.${w}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
            {chosen === 'pickup' && address ? (
              <>
                <Form.Item label={t('orders:channelShipping.address')}>
                  <Select
                    value={address.id}
                    onChange={(v: string) => {
                      setAddressId(v);
                      form.setFieldValue('slotId', undefined);
                    }}
                    options={options.pickup.map((a) => ({ value: a.id, label: a.address }))}
                    data-testid="channel-address"
                  />
                </Form.Item>
                <Form.Item name="slotId" label={t('orders:channelShipping.slot')} rules={[{ required: true, message: t('orders:channelShipping.needSlot') }]}>
                  <Select
                    placeholder={t('orders:channelShipping.pickSlot')}
                    options={address.slots.map((s) => ({ value: s.id, label: s.text || formatDateTime(s.date, lng) }))}
                    notFoundContent={t('orders:channelShipping.noSlot')}
                    data-testid="channel-slot"
                  />
                </Form.Item>
              </>
            ) : null}
            {chosen === 'platform' ? <Typography.Paragraph data-testid="channel-platform-hint">{t('orders:channelShipping.platformHint')}</Typography.Paragraph> : null}
            {chosen === 'own_carrier' ? (
              <Form.Item name="trackingNo" label={t('orders:channelShipping.ownTrackingNo')} rules={[{ required: true, whitespace: true, message: t('orders:channelShipping.needTracking') }, { max: 64 }]}>
                <Input maxLength={64} data-testid="channel-own-tracking" />
              </Form.Item>
            ) : null}
            <Typography.Paragraph type="secondary">{t('orders:channelShipping.hint')}</Typography.Paragraph>
            <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={arranging} data-testid="channel-arrange">
              {t('orders:channelShipping.arrange')}
            </Button>
          </Form>
        ) : (
          <Typography.Text type="secondary">{t('orders:channelShipping.notArranged')}</Typography.Text>
        )
      ) : (
        <Typography.Text type="secondary">{t('orders:channelShipping.noWay')}</Typography.Text>
      )}
    </Card>
  );
}
