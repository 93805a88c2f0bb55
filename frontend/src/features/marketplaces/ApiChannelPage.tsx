import { useEffect, useState } from 'react';
import { Button, Card, Checkbox, Descriptions, Form, Input, Modal, Radio, Result, Select, Space, Spin, Switch, Typography } from 'antd';
import { CopyOutlined, KeyOutlined, StopOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { notifyRefusal, showSaveRefusal } from '@/shared/refusal';
import {
  useCreateApiChannelMutation,
  useGenerateApiKeyMutation,
  useGetApiChannelQuery,
  useOpenApiChannelsQuery,
  useRevokeApiKeysMutation,
  useRollApiKeyMutation,
  useUpdateApiChannelMutation,
  useWebhookEventsQuery,
  type ApiChannelBody,
  type GeneratedKeyBody,
} from './api';
import { ChannelDefaults } from './ChannelDefaults';
import { copyText, Keys, NewKey } from './ChannelKeys';
import WebhookDeliveries from './WebhookDeliveries';

interface Values {
  name?: string;
  channel?: string;
  warehouseId?: number;
  logisticChannelId?: number;
  paymentChannelId?: number;
  active: boolean;
  webhookUrl?: string;
  events: string[];
}

const FIELDS = ['name', 'channel', 'warehouseId', 'logisticChannelId', 'paymentChannelId', 'webhookUrl', 'events', 'keyId'];
/** The grace periods a rolled key's old keys may keep working for, hours. */
export const GRACE_HOURS = [0, 1, 24, 72, 168];

/** Rolling a channel's key: a new one generated and shown once, the old ones kept working
 * for the grace period chosen. */
function RollKey({ channel, onClose }: { channel: ApiChannelBody; onClose: () => void }) {
  const { t } = useTranslation(['marketplaces', 'common']);
  const [generate, { isLoading: generating }] = useGenerateApiKeyMutation();
  const [roll, { isLoading: rolling }] = useRollApiKeyMutation();
  const [generated, setGenerated] = useState<GeneratedKeyBody | null>(null);
  const [grace, setGrace] = useState(24);
  const go = async () => {
    try {
      const g = generated ?? (await generate().unwrap());
      setGenerated(g);
      await roll({ id: channel.id, rollKeyInput: { keyId: g.keyId, graceHours: grace } }).unwrap();
      notifySuccess(t('marketplaces:api.key.rolled', { name: channel.name }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };
  const done = generated !== null && !rolling;
  return (
    <Modal
      open
      title={t('marketplaces:api.key.rollTitle', { name: channel.name })}
      onCancel={onClose}
      footer={
        done ? (
          <Button type="primary" onClick={onClose} data-testid="api-roll-done">
            {t('marketplaces:api.key.saved')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
            <Button type="primary" icon={<SyncOutlined />} loading={generating || rolling} onClick={() => void go()} data-testid="api-roll-ok">
              {t('marketplaces:api.key.roll')}
            </Button>
          </Space>
        )
      }
    >
      {generated && done ? (
        <NewKey generated={generated} />
      ) : (
        <>
          <Typography.Paragraph>{t('marketplaces:api.key.rollHint')}</Typography.Paragraph>
          <Radio.Group value={grace} onChange={(e) => setGrace(e.target.value as number)} data-testid="api-roll-grace">
            <Space orientation="vertical">
              {GRACE_HOURS.map((h) => (
                <Radio key={h} value={h}>
                  {t(`marketplaces:api.key.grace.${h}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </>
      )}
    </Modal>
  );
}

/** /sale-channel-setting/open-api/{channel}/create and …/edit/{id} (SPEC §2, §3 Open API
 * connection, §5: name, channel, key, warehouse, shipping channel and payment account are
 * required; the key only by generating it): an integrator's app's connection to the store,
 * the events its webhook is sent, its keys (shown once, rolled with a grace period for the
 * old, revoked) and the secret its webhook is signed with. */
export default function ApiChannelPage() {
  const { t, i18n } = useTranslation(['marketplaces', 'common']);
  const { storeId, channel: channelParam, apiChannelId } = useParams();
  const navigate = useNavigate();
  const editing = apiChannelId !== undefined;
  const id = Number(apiChannelId);
  const existing = useGetApiChannelQuery({ id }, { skip: !editing });
  const channels = useOpenApiChannelsQuery();
  const events = useWebhookEventsQuery();
  const [form] = Form.useForm<Values>();
  const [generate, { isLoading: generating }] = useGenerateApiKeyMutation();
  const [create, { isLoading: creating }] = useCreateApiChannelMutation();
  const [update, { isLoading: updating }] = useUpdateApiChannelMutation();
  const [revoke, { isLoading: revoking }] = useRevokeApiKeysMutation();
  const [generated, setGenerated] = useState<GeneratedKeyBody | null>(null);
  const [keyMissing, setKeyMissing] = useState(false);
  const [rolling, setRolling] = useState(false);
  const [secretShown, setSecretShown] = useState(false);
  const list = `/${Number(storeId)}/sale-channel-list`;
  const lng = i18n.language;

  useEffect(() => {
    const c = existing.data;
    if (!c) return;
    form.setFieldsValue({
      name: c.name,
      channel: c.channel,
      warehouseId: c.warehouseId || undefined,
      logisticChannelId: c.logisticChannelId || undefined,
      paymentChannelId: c.paymentChannelId || undefined,
      active: c.status === 'active',
      webhookUrl: c.webhookUrl,
      events: c.events,
    });
  }, [existing.data, form]);

  if (editing && existing.isError) {
    return <Result status="404" title={t('codes:api_channel_not_found')} extra={<Button onClick={() => navigate(list)}>{t('common:actions.back')}</Button>} />;
  }
  if (editing && !existing.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const c = existing.data;

  const onGenerate = async () => {
    try {
      setGenerated(await generate().unwrap());
      setKeyMissing(false);
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };

  const submit = async (v: Values) => {
    const input = {
      name: v.name ?? '',
      channel: v.channel ?? '',
      warehouseId: v.warehouseId ?? 0,
      logisticChannelId: v.logisticChannelId ?? 0,
      paymentChannelId: v.paymentChannelId ?? 0,
      status: v.active ? 'active' : 'inactive',
      webhookUrl: v.webhookUrl?.trim() ?? '',
      events: v.events ?? [],
      keyId: generated?.keyId ?? 0,
      version: c?.version ?? 0,
    };
    if (!editing && !generated) {
      setKeyMissing(true);
      return;
    }
    try {
      if (editing) {
        await update({ id, apiChannelInput: input }).unwrap();
        notifySuccess(t('marketplaces:api.saved', { name: input.name }));
      } else {
        const made = await create({ apiChannelInput: input }).unwrap();
        notifySuccess(t('marketplaces:api.created', { name: made.name }));
        navigate(`/${Number(storeId)}/sale-channel-setting/open-api/${made.channel}/edit/${made.id}`);
        return;
      }
      navigate(list);
    } catch (e) {
      showSaveRefusal(e, form, t, { ns: 'marketplaces', only: FIELDS });
    }
  };

  const onRevoke = async () => {
    if (!c) return;
    const ok = await showDialog({ kind: 'warning', title: 'marketplaces:api.key.revokeTitle', message: 'marketplaces:api.key.revokeMessage', values: { name: c.name }, confirm: 'marketplaces:api.key.revoke' });
    if (!ok) return;
    try {
      await revoke({ id: c.id }).unwrap();
      notifySuccess(t('marketplaces:api.key.revokedAll', { name: c.name }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };

  return (
    <Card data-testid="api-channel-page">
      <div className="bo-page-head">
        <h1>{editing && c ? t('marketplaces:api.editTitle', { name: c.name }) : t('marketplaces:api.createTitle')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('marketplaces:api.hint')}</Typography.Paragraph>
      {generated && !editing ? <NewKey generated={generated} /> : null}
      <Form<Values>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        requiredMark
        initialValues={{ channel: channelParam && channelParam !== 'open-api' ? channelParam : 'open_api', active: true, events: [] }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="name" label={t('marketplaces:api.fields.name')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }, { max: 100, message: t('common:validation.too_long') }]}>
          <Input data-testid="api-name" />
        </Form.Item>
        <Form.Item name="channel" label={t('marketplaces:api.fields.channel')} extra={t('marketplaces:api.channelHint')} rules={[{ required: true, message: t('common:validation.required') }]}>
          <Select
            options={(channels.data?.data ?? []).map((x) => ({ value: x.code, label: lng === 'th' ? x.nameTh : x.nameEn }))}
            data-testid="api-channel"
          />
        </Form.Item>
        {!editing ? (
          <Form.Item label={t('marketplaces:api.fields.key')} required validateStatus={keyMissing ? 'error' : undefined} help={keyMissing ? t('marketplaces:api.key.required') : t('marketplaces:api.key.hint')}>
            <Button icon={<KeyOutlined />} loading={generating} onClick={() => void onGenerate()} data-testid="api-generate-key">
              {generated ? t('marketplaces:api.key.again') : t('marketplaces:api.key.generate')}
            </Button>
          </Form.Item>
        ) : null}
        <ChannelDefaults prefix="api" warehouseHint={t('marketplaces:api.warehouseHint')} />
        <Form.Item name="webhookUrl" label={t('marketplaces:api.fields.webhookUrl')} extra={t('marketplaces:api.webhookHint')}>
          <Input placeholder={t('marketplaces:api.webhookPlaceholder')} data-testid="api-webhook-url" />
        </Form.Item>
        <Form.Item name="events" label={t('marketplaces:api.fields.events')}>
          <Checkbox.Group data-testid="api-events">
            <Space orientation="vertical">
              {(events.data?.data ?? []).map((e) => (
                <Checkbox key={e.code} value={e.code} data-testid={`api-event-${e.code}`}>
                  {t(`marketplaces:api.events.${e.code}`, { defaultValue: e.code })}
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="active" label={t('marketplaces:fields.status')} valuePropName="checked" extra={t('marketplaces:api.statusHint')}>
          <Switch data-testid="api-status" />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(list)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="api-save">
            {t('common:actions.save')}
          </Button>
        </Space>
      </Form>
      {c ? (
        <>
          <h2 style={{ marginTop: 32 }}>{t('marketplaces:api.key.title')}</h2>
          <Space style={{ marginBottom: 12 }} wrap>
            <Button icon={<SyncOutlined />} onClick={() => setRolling(true)} data-testid="api-roll">
              {t('marketplaces:api.key.roll')}
            </Button>
            <Button danger icon={<StopOutlined />} loading={revoking} onClick={() => void onRevoke()} data-testid="api-revoke">
              {t('marketplaces:api.key.revoke')}
            </Button>
          </Space>
          <Keys keys={c.keys} lng={lng} />
          <h2 style={{ marginTop: 32 }}>{t('marketplaces:api.webhook.title')}</h2>
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('marketplaces:api.webhook.secret')}>
              <Space wrap>
                <Typography.Text code data-testid="api-webhook-secret">
                  {secretShown ? c.webhookSecret : `${c.webhookSecret.slice(0, 10)}…`}
                </Typography.Text>
                <Button size="small" onClick={() => setSecretShown((s) => !s)} data-testid="api-webhook-secret-show">
                  {t(secretShown ? 'marketplaces:api.webhook.hide' : 'marketplaces:api.webhook.show')}
                </Button>
                <Button size="small" icon={<CopyOutlined />} onClick={() => void copyText(c.webhookSecret, t('marketplaces:api.key.copied'), t('marketplaces:api.key.copyFailed'))}>
                  {t('marketplaces:api.key.copy')}
                </Button>
              </Space>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Paragraph type="secondary">{t('marketplaces:api.webhook.hint')}</Typography.Paragraph>
          <h2 style={{ marginTop: 32 }}>{t('marketplaces:api.deliveries.title')}</h2>
          <Typography.Paragraph type="secondary">{t('marketplaces:api.deliveries.hint')}</Typography.Paragraph>
          <WebhookDeliveries channel={c} />
          {rolling ? <RollKey channel={c} onClose={() => setRolling(false)} /> : null}
        </>
      ) : null}
    </Card>
  );
}
