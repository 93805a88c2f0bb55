import { useState } from 'react';
import { Alert, Button, Checkbox, Descriptions, Drawer, Form, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { HistoryOutlined, ReloadOutlined, SendOutlined, SyncOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

import { notifySuccess } from '@/shared/dialogs/notify';
import { EraRangePicker } from '@/shared/form/EraDatePicker';
import { formatDateTime } from '@/shared/i18n/i18n';
import { notifyRefusal } from '@/shared/refusal';
import {
  usePushApiStockMutation,
  useReplayWebhookDeliveriesMutation,
  useReplayWebhookDeliveryMutation,
  useResumeWebhookMutation,
  useSendTestWebhookMutation,
  useWebhookDeliveriesQuery,
  useWebhookDeliveryQuery,
  type ApiChannelBody,
  type WebhookDeliveryBody,
} from './api';

/** The states a delivery may be in, in the order the filter lists them. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
const STATE_COLOR: Record<string, string> = { pending: 'blue', delivered: 'green', failed: 'red' };
const PAGE = 20;

/** A delivery's state as a tag (a pending one says when it is tried next). */
function StateTag({ d, lng }: { d: WebhookDeliveryBody; lng: string }) {
  const { t } = useTranslation(['marketplaces']);
  const label = t(`marketplaces:api.deliveries.states.${d.state}`, { defaultValue: d.state });
  const next = d.state === 'pending' && d.attempts > 0 && d.nextAttemptAt ? ` · ${t('marketplaces:api.deliveries.nextAt', { at: formatDateTime(d.nextAttemptAt, lng) })}` : '';
  return (
    <Tag color={STATE_COLOR[d.state]} data-testid={`delivery-state-${d.messageId}`}>
      {label}
      {next}
    </Tag>
  );
}

/** What an HTTP status reads as (0: no answer came). */
function statusText(status: number, t: (k: string) => string): string {
  return status === 0 ? t('marketplaces:api.deliveries.noAnswer') : String(status);
}

/** One delivery: the body sent, each attempt's headers, answer and time, and sending it
 * again (once it is delivered or given up). */
function DeliveryDrawer({ channel, messageId, onClose }: { channel: number; messageId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation(['marketplaces', 'common']);
  const lng = i18n.language;
  const { data: d } = useWebhookDeliveryQuery({ id: channel, messageId }, { pollingInterval: 2000 });
  const [replay, { isLoading }] = useReplayWebhookDeliveryMutation();
  const pretty = (body: string | null | undefined) => {
    try {
      return JSON.stringify(JSON.parse(body ?? ''), null, 2);
    } catch {
      return body ?? '';
    }
  };
  const again = async () => {
    try {
      await replay({ id: channel, messageId }).unwrap();
      notifySuccess(t('marketplaces:api.deliveries.replayed'));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };
  return (
    <Drawer open size="large" onClose={onClose} title={t('marketplaces:api.deliveries.detailTitle')} data-testid="delivery-drawer">
      {d ? (
        <>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('marketplaces:api.deliveries.messageId')}>
              <Typography.Text code copyable>
                {d.messageId}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('marketplaces:api.deliveries.event')}>{d.eventType}</Descriptions.Item>
            <Descriptions.Item label={t('marketplaces:api.deliveries.state')}>
              <StateTag d={d} lng={lng} />
            </Descriptions.Item>
            <Descriptions.Item label={t('marketplaces:api.deliveries.createdAt')}>{formatDateTime(d.createdAt, lng)}</Descriptions.Item>
            {d.deliveredAt ? <Descriptions.Item label={t('marketplaces:api.deliveries.deliveredAt')}>{formatDateTime(d.deliveredAt, lng)}</Descriptions.Item> : null}
          </Descriptions>
          <Button
            icon={<SyncOutlined />}
            style={{ marginTop: 12 }}
            disabled={d.state === 'pending'}
            loading={isLoading}
            onClick={() => void again()}
            data-testid="delivery-replay"
          >
            {t('marketplaces:api.deliveries.replay')}
          </Button>
          <h3 style={{ marginTop: 20 }}>{t('marketplaces:api.deliveries.body')}</h3>
          <pre style={{ background: '#f5f5f5', padding: 12, borderRadius: 6, fontSize: 12, overflowX: 'auto' }} data-testid="delivery-body">
            {pretty(d.payload)}
          </pre>
          <h3 style={{ marginTop: 20 }}>{t('marketplaces:api.deliveries.attemptsTitle')}</h3>
          {d.attemptLog.length === 0 ? <Typography.Text type="secondary">{t('marketplaces:api.deliveries.noAttempt')}</Typography.Text> : null}
          {d.attemptLog.map((a, i) => (
            <Descriptions key={`${a.at}-${i}`} size="small" column={1} bordered style={{ marginBottom: 12 }} data-testid="delivery-attempt">
              <Descriptions.Item label={t('marketplaces:api.deliveries.at')}>
                {formatDateTime(a.at, lng)} · {t('marketplaces:api.deliveries.took', { ms: a.durationMs })}
              </Descriptions.Item>
              <Descriptions.Item label={t('marketplaces:api.deliveries.request')}>
                <Typography.Text style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap' }}>
                  {`POST ${a.url}\nwebhook-id: ${d.messageId}\nwebhook-timestamp: ${a.webhookTimestamp}\nwebhook-signature: ${a.webhookSignature}`}
                </Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('marketplaces:api.deliveries.status')}>
                <Tag color={a.status >= 200 && a.status < 300 ? 'green' : 'red'}>{statusText(a.status, t)}</Tag>
              </Descriptions.Item>
              {a.answer ? (
                <Descriptions.Item label={t('marketplaces:api.deliveries.answer')}>
                  <Typography.Text style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap' }}>{a.answer}</Typography.Text>
                </Descriptions.Item>
              ) : null}
              {a.error ? <Descriptions.Item label={t('marketplaces:api.deliveries.error')}>{a.error}</Descriptions.Item> : null}
            </Descriptions>
          ))}
        </>
      ) : null}
    </Drawer>
  );
}

/** Sending again what was made in a time range. */
function ReplayRange({ channel, onClose }: { channel: number; onClose: () => void }) {
  const { t } = useTranslation(['marketplaces', 'common']);
  const [form] = Form.useForm<{ range?: [Dayjs, Dayjs]; failedOnly: boolean }>();
  const [replay, { isLoading }] = useReplayWebhookDeliveriesMutation();
  const go = async (v: { range?: [Dayjs, Dayjs]; failedOnly: boolean }) => {
    if (!v.range) return;
    try {
      const r = await replay({
        id: channel,
        replayRangeInput: { from: v.range[0].format('YYYY-MM-DD'), to: v.range[1].format('YYYY-MM-DD'), failedOnly: v.failedOnly },
      }).unwrap();
      notifySuccess(t('marketplaces:api.deliveries.rangeReplayed', { count: r.replayed }));
      onClose();
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };
  return (
    <Modal
      open
      title={t('marketplaces:api.deliveries.rangeTitle')}
      onCancel={onClose}
      okText={t('marketplaces:api.deliveries.replay')}
      okButtonProps={{ loading: isLoading, id: 'delivery-range-ok' }}
      onOk={() => form.submit()}
    >
      <Typography.Paragraph type="secondary">{t('marketplaces:api.deliveries.rangeHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ failedOnly: true }} onFinish={(v) => void go(v)}>
        <Form.Item name="range" label={t('marketplaces:api.deliveries.range')} rules={[{ required: true, message: t('common:validation.required') }]}>
          <EraRangePicker style={{ width: '100%' }} data-testid="delivery-range" />
        </Form.Item>
        <Form.Item name="failedOnly" valuePropName="checked">
          <Checkbox data-testid="delivery-range-failed">{t('marketplaces:api.deliveries.failedOnly')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Where a channel's webhook stands: turned off (with turning it back on), failing, or its
 * last delivery. */
export function WebhookHealth({ channel }: { channel: ApiChannelBody }) {
  const { t, i18n } = useTranslation(['marketplaces']);
  const lng = i18n.language;
  const [resume, { isLoading }] = useResumeWebhookMutation();
  const onResume = async () => {
    try {
      await resume({ id: channel.id }).unwrap();
      notifySuccess(t('marketplaces:api.webhook.resumed'));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };
  if (channel.webhookDisabledAt) {
    return (
      <Alert
        type="error"
        showIcon
        style={{ marginBottom: 12 }}
        title={t('marketplaces:api.webhook.disabled', { at: formatDateTime(channel.webhookDisabledAt, lng) })}
        description={t('marketplaces:api.webhook.disabledHint')}
        action={
          <Button size="small" type="primary" loading={isLoading} onClick={() => void onResume()} data-testid="webhook-resume">
            {t('marketplaces:api.webhook.resume')}
          </Button>
        }
        data-testid="webhook-disabled"
      />
    );
  }
  if (channel.webhookFailingSince) {
    return (
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        title={t('marketplaces:api.webhook.failing', { at: formatDateTime(channel.webhookFailingSince, lng) })}
        description={t('marketplaces:api.webhook.failingHint')}
        data-testid="webhook-failing"
      />
    );
  }
  return channel.webhookDeliveredAt ? (
    <Typography.Paragraph type="secondary" data-testid="webhook-last">
      {t('marketplaces:api.webhook.lastDelivered', { at: formatDateTime(channel.webhookDeliveredAt, lng) })}
    </Typography.Paragraph>
  ) : null;
}

/** A channel's delivery log (30 days): a test send, stock sent now, a time range sent again,
 * and each delivery opened with its attempts. */
export default function WebhookDeliveries({ channel }: { channel: ApiChannelBody }) {
  const { t, i18n } = useTranslation(['marketplaces', 'common']);
  const lng = i18n.language;
  const [state, setState] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [ranging, setRanging] = useState(false);
  const list = useWebhookDeliveriesQuery({ id: channel.id, state, page, limit: PAGE }, { pollingInterval: 3000, skipPollingIfUnfocused: true });
  const [sendTest, { isLoading: testing }] = useSendTestWebhookMutation();
  const [pushStock, { isLoading: pushing }] = usePushApiStockMutation();
  const hasUrl = channel.webhookUrl !== '';
  const tellsStock = hasUrl && channel.events.includes('stock.changed');

  const onTest = async () => {
    try {
      const d = await sendTest({ id: channel.id }).unwrap();
      notifySuccess(t('marketplaces:api.deliveries.testSent'));
      setOpen(d.messageId);
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };
  const onPush = async () => {
    try {
      const r = await pushStock({ id: channel.id, pushApiStockInput: { skuIds: [] } }).unwrap();
      notifySuccess(t('marketplaces:api.deliveries.stockSent', { count: r.pushed }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };

  return (
    <div data-testid="webhook-deliveries">
      <WebhookHealth channel={channel} />
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<SendOutlined />} disabled={!hasUrl} loading={testing} onClick={() => void onTest()} data-testid="webhook-test">
          {t('marketplaces:api.deliveries.test')}
        </Button>
        <Button disabled={!tellsStock} loading={pushing} onClick={() => void onPush()} data-testid="webhook-push-stock">
          {t('marketplaces:api.deliveries.pushStock')}
        </Button>
        <Button icon={<HistoryOutlined />} onClick={() => setRanging(true)} data-testid="webhook-replay-range">
          {t('marketplaces:api.deliveries.rangeTitle')}
        </Button>
        <Select
          allowClear
          style={{ minWidth: 180 }}
          placeholder={t('marketplaces:api.deliveries.anyState')}
          value={state}
          onChange={(v: string | undefined) => {
            setState(v);
            setPage(1);
          }}
          options={DELIVERY_STATES.map((s) => ({ value: s, label: t(`marketplaces:api.deliveries.states.${s}`) }))}
          data-testid="delivery-filter"
        />
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('marketplaces:api.deliveries.refresh')} />
      </Space>
      {!hasUrl ? <Typography.Paragraph type="secondary">{t('marketplaces:api.deliveries.noUrl')}</Typography.Paragraph> : null}
      <Table<WebhookDeliveryBody>
        rowKey="messageId"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={{ current: page, pageSize: PAGE, total: list.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: t('marketplaces:api.deliveries.empty') }}
        onRow={(d) => ({ onClick: () => setOpen(d.messageId), style: { cursor: 'pointer' } })}
        data-testid="delivery-log"
        columns={[
          { title: t('marketplaces:api.deliveries.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v, lng) },
          { title: t('marketplaces:api.deliveries.event'), dataIndex: 'eventType', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('marketplaces:api.deliveries.state'), key: 'state', render: (_: unknown, d: WebhookDeliveryBody) => <StateTag d={d} lng={lng} /> },
          { title: t('marketplaces:api.deliveries.attempts'), dataIndex: 'attempts' },
          {
            title: t('marketplaces:api.deliveries.status'),
            key: 'status',
            render: (_: unknown, d: WebhookDeliveryBody) => (d.attempts > 0 || d.state !== 'pending' ? statusText(d.lastStatus, t) : '—'),
          },
        ]}
      />
      {open ? <DeliveryDrawer channel={channel.id} messageId={open} onClose={() => setOpen(null)} /> : null}
      {ranging ? <ReplayRange channel={channel.id} onClose={() => setRanging(false)} /> : null}
    </div>
  );
}
