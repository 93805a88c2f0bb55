import { useEffect, useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Radio, Result, Space, Spin, Switch, Typography } from 'antd';
import { KeyOutlined, SyncOutlined } from '@ant-design/icons';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { notifyRefusal, refusalKey, showSaveRefusal } from '@/shared/refusal';
import {
  useCreateMagentoChannelMutation,
  useGenerateStoreChannelKeyMutation,
  useGetMagentoChannelQuery,
  useSyncMagentoChannelMutation,
  useUpdateMagentoChannelMutation,
  type GeneratedKeyBody,
  type MagentoChannelBody,
} from './api';
import { ChannelDefaults } from './ChannelDefaults';
import { Keys, NewKey } from './ChannelKeys';
import { MAGENTO_CODE, MAGENTO_SECRET, magentoUrlOk } from './marketplaces';

type Auth = 'bearer' | 'oauth1';

interface Values {
  name?: string;
  url?: string;
  storeCode?: string;
  auth: Auth;
  consumerKey?: string;
  consumerSecret?: string;
  accessToken?: string;
  accessTokenSecret?: string;
  sourceCode?: string;
  warehouseId?: number;
  logisticChannelId?: number;
  paymentChannelId?: number;
  active: boolean;
}

/** The form's fields a refusal may name (the server's, camelCased). */
const FIELDS = [
  'name',
  'url',
  'storeCode',
  'auth',
  'accessToken',
  'accessTokenSecret',
  'consumerKey',
  'consumerSecret',
  'sourceCode',
  'warehouseId',
  'logisticChannelId',
  'paymentChannelId',
];
/** The fields the connection is tried with. */
const CONNECTION = ['url', 'storeCode', 'auth', 'accessToken', 'accessTokenSecret', 'consumerKey', 'consumerSecret', 'sourceCode'];

/** A shop's last poll and push: when, how many orders, what went wrong; and Sync now. */
function SyncState({ channel, lng }: { channel: MagentoChannelBody; lng: string }) {
  const { t } = useTranslation(['marketplaces', 'common']);
  const [sync, { isLoading }] = useSyncMagentoChannelMutation();
  const onSync = async () => {
    try {
      const r = await sync({ id: channel.id }).unwrap();
      if (r.pollError) notifyError(t('marketplaces:magento.sync.failed', { error: r.pollError }));
      else notifySuccess(t('marketplaces:magento.sync.done', { name: channel.name, count: r.ordersTaken }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };
  const never = <Typography.Text type="secondary">{t('marketplaces:list.never')}</Typography.Text>;
  return (
    <section data-testid="magento-sync-state" style={{ marginBottom: 24 }}>
      <div className="bo-page-head">
        <h2 style={{ margin: 0 }}>{t('marketplaces:magento.sync.title')}</h2>
        <Button type="primary" icon={<SyncOutlined />} loading={isLoading} onClick={() => void onSync()} data-testid="magento-sync">
          {t('marketplaces:magento.sync.now')}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t('marketplaces:magento.sync.hint')}</Typography.Paragraph>
      <Descriptions size="small" column={{ xs: 1, md: 3 }} bordered>
        <Descriptions.Item label={t('marketplaces:magento.fields.lastPolledAt')}>
          <span data-testid="magento-last-polled">{channel.lastPolledAt ? formatDateTime(channel.lastPolledAt, lng) : never}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('marketplaces:magento.fields.ordersTaken')}>
          <span data-testid="magento-orders-taken">{channel.ordersTaken.toLocaleString(lng === 'th' ? 'th-TH' : 'en-US')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('marketplaces:magento.fields.stockPushedAt')}>
          {channel.stockPushedAt ? formatDateTime(channel.stockPushedAt, lng) : never}
        </Descriptions.Item>
      </Descriptions>
      {channel.pollError ? (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('marketplaces:magento.fields.pollError')} description={channel.pollError} data-testid="magento-poll-error" />
      ) : null}
      {channel.stockError ? (
        <Alert type="warning" showIcon style={{ marginTop: 12 }} title={t('marketplaces:magento.fields.stockError')} description={channel.stockError} data-testid="magento-stock-error" />
      ) : null}
    </section>
  );
}

/** /sale-channel-setting/magento/create and …/magento/edit/{id} (SPEC §2, §3 Magento channel,
 * §5: the generated token, title, URL, Magento token, warehouse, shipping channel and payment
 * account required): the store's Magento 2 shop, reached by an integration's token as a
 * bearer token or by OAuth 1.0a. The server tries the connection before it saves; when it
 * cannot connect it names the field at fault, whose reason shows under it. On an edit the
 * credentials are never shown: left empty they are kept. */
export default function MagentoChannelPage() {
  const { t, i18n } = useTranslation(['marketplaces', 'common']);
  const { storeId, magentoChannelId } = useParams();
  const navigate = useNavigate();
  const editing = magentoChannelId !== undefined;
  const id = Number(magentoChannelId);
  const existing = useGetMagentoChannelQuery({ id }, { skip: !editing });
  const [form] = Form.useForm<Values>();
  const auth = (Form.useWatch('auth', form) as Auth | undefined) ?? 'bearer';
  const [generate, { isLoading: generating }] = useGenerateStoreChannelKeyMutation();
  const [create, { isLoading: creating }] = useCreateMagentoChannelMutation();
  const [update, { isLoading: updating }] = useUpdateMagentoChannelMutation();
  const [generated, setGenerated] = useState<GeneratedKeyBody | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [cannotConnect, setCannotConnect] = useState<string | null>(null);
  const list = `/${Number(storeId)}/sale-channel-list`;
  const lng = i18n.language;

  useEffect(() => {
    const c = existing.data;
    if (!c) return;
    form.setFieldsValue({
      name: c.name,
      url: c.url,
      storeCode: c.storeCode,
      auth: c.auth === 'oauth1' ? 'oauth1' : 'bearer',
      consumerKey: '',
      consumerSecret: '',
      accessToken: '',
      accessTokenSecret: '',
      sourceCode: c.sourceCode,
      warehouseId: c.warehouseId || undefined,
      logisticChannelId: c.logisticChannelId || undefined,
      paymentChannelId: c.paymentChannelId || undefined,
      active: c.status === 'active',
    });
  }, [existing.data, form]);

  if (editing && existing.isError) {
    return <Result status="404" title={t('codes:magento_channel_not_found')} extra={<Button onClick={() => navigate(list)}>{t('common:actions.back')}</Button>} />;
  }
  if (editing && !existing.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const c = existing.data;
  // A new shop needs every credential of its way; an edit keeps those left empty, unless it
  // changes the way (the other way's are not kept).
  const credentialsRequired = !c || c.auth !== auth;

  const required = { required: true, whitespace: true, message: t('common:validation.required') };
  const secretRules = (needed: boolean): Rule[] => [
    ...(needed ? [required] : []),
    { pattern: MAGENTO_SECRET, message: t('marketplaces:magento.secretInvalid') },
  ];
  const codeRule: Rule = {
    validator: (_, v: string | undefined) => (!v?.trim() || MAGENTO_CODE.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('marketplaces:magento.codeInvalid')))),
  };
  const urlRule: Rule = {
    validator: (_, v: string | undefined) => {
      const url = (v ?? '').trim().replace(/\/+$/, '');
      if (!url) return Promise.resolve();
      if (url.length > 300) return Promise.reject(new Error(t('common:validation.too_long')));
      return magentoUrlOk(url) ? Promise.resolve() : Promise.reject(new Error(t('common:validation.magento_url')));
    },
  };
  const keptPlaceholder = c ? t('marketplaces:magento.kept') : undefined;

  const onGenerate = async () => {
    try {
      setGenerated(await generate().unwrap());
      setKeyError(null);
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    }
  };

  const submit = async (v: Values) => {
    setCannotConnect(null);
    if (!editing && !generated) {
      setKeyError(t('marketplaces:magento.key.required'));
      return;
    }
    const oauth = v.auth === 'oauth1';
    const trimmed = (s: string | undefined) => (s ?? '').trim();
    const input = {
      name: trimmed(v.name),
      url: trimmed(v.url).replace(/\/+$/, ''),
      storeCode: trimmed(v.storeCode),
      auth: v.auth,
      accessToken: trimmed(v.accessToken),
      accessTokenSecret: oauth ? trimmed(v.accessTokenSecret) : '',
      consumerKey: oauth ? trimmed(v.consumerKey) : '',
      consumerSecret: oauth ? trimmed(v.consumerSecret) : '',
      sourceCode: trimmed(v.sourceCode),
      warehouseId: v.warehouseId ?? 0,
      logisticChannelId: v.logisticChannelId ?? 0,
      paymentChannelId: v.paymentChannelId ?? 0,
      status: v.active ? 'active' : 'inactive',
      keyId: editing ? 0 : (generated?.keyId ?? 0),
      version: c?.version ?? 0,
    };
    try {
      if (editing) {
        await update({ id, magentoChannelInput: input }).unwrap();
        notifySuccess(t('marketplaces:magento.saved', { name: input.name }));
        navigate(list);
      } else {
        const made = await create({ magentoChannelInput: input }).unwrap();
        notifySuccess(t('marketplaces:magento.created', { name: made.name }));
        navigate(`/${Number(storeId)}/sale-channel-setting/magento/edit/${made.id}`);
      }
    } catch (e) {
      const body = apiError(e);
      // The generated token is refused (its hour is over, or it was taken): generate another.
      const keyFault = body?.fields?.find((f) => f.field === 'key_id');
      if (keyFault || body?.code === 'api_key_not_generated') {
        setGenerated(null);
        setKeyError(keyFault ? t([`marketplaces:${keyFault.code}`, `common:${keyFault.code}`]) : t('codes:api_key_not_generated'));
        if (!body?.fields?.some((f) => f.field !== 'key_id')) return;
      }
      if (body?.code === 'magento_cannot_connect') {
        const reason = body.fields?.[0]?.code;
        setCannotConnect(reason ? t([`marketplaces:${reason}`, 'codes:magento_cannot_connect']) : '');
      }
      showSaveRefusal(e, form, t, { ns: 'marketplaces', only: FIELDS });
    }
  };

  return (
    <Card data-testid="magento-channel-page">
      <div className="bo-page-head">
        <h1>{editing && c ? t('marketplaces:magento.editTitle', { name: c.name }) : t('marketplaces:magento.createTitle')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('marketplaces:magento.hint')}</Typography.Paragraph>
      {c ? <SyncState channel={c} lng={lng} /> : null}
      {generated && !editing ? <NewKey generated={generated} prefix="magento" title={t('marketplaces:magento.key.once')} /> : null}
      {cannotConnect !== null ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t(refusalKey('magento_cannot_connect', 'marketplaces') ?? 'codes:magento_cannot_connect')}
          description={cannotConnect || undefined}
          data-testid="magento-cannot-connect"
        />
      ) : null}
      <Form<Values>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        requiredMark
        initialValues={{ auth: 'bearer', active: true }}
        onFinish={(v) => void submit(v)}
        onValuesChange={(changed: Partial<Values>) => {
          // What the shop refused is no longer what the form says.
          if (cannotConnect !== null && CONNECTION.some((k) => k in changed)) setCannotConnect(null);
        }}
      >
        <Form.Item name="name" label={t('marketplaces:magento.fields.name')} rules={[required, { max: 100, message: t('common:validation.too_long') }]}>
          <Input maxLength={100} data-testid="magento-name" />
        </Form.Item>
        <Form.Item name="url" label={t('marketplaces:magento.fields.url')} extra={t('marketplaces:magento.urlHint')} rules={[required, urlRule]}>
          <Input placeholder={t('marketplaces:magento.urlPlaceholder')} inputMode="url" data-testid="magento-url" />
        </Form.Item>
        <Form.Item name="storeCode" label={t('marketplaces:magento.fields.storeCode')} extra={t('marketplaces:magento.storeCodeHint')} rules={[codeRule]}>
          <Input placeholder={t('marketplaces:magento.storeCodePlaceholder')} data-testid="magento-store-code" />
        </Form.Item>
        <Form.Item name="auth" label={t('marketplaces:magento.fields.auth')} rules={[{ required: true, message: t('common:validation.required') }]}>
          <Radio.Group data-testid="magento-auth">
            <Radio value="bearer" data-testid="magento-auth-bearer">
              {t('marketplaces:magento.auth.bearer')}
            </Radio>
            <Radio value="oauth1" data-testid="magento-auth-oauth1">
              {t('marketplaces:magento.auth.oauth1')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Alert
          type={auth === 'bearer' ? 'warning' : 'info'}
          showIcon
          style={{ marginBottom: 16 }}
          title={t('marketplaces:magento.bearerNote.title')}
          description={t('marketplaces:magento.bearerNote.text')}
          data-testid="magento-bearer-note"
        />
        {auth === 'oauth1' ? (
          <>
            <Typography.Paragraph type="secondary">{t('marketplaces:magento.oauthHint')}</Typography.Paragraph>
            <Form.Item name="consumerKey" label={t('marketplaces:magento.fields.consumerKey')} rules={secretRules(credentialsRequired)}>
              <Input.Password autoComplete="off" placeholder={keptPlaceholder} data-testid="magento-consumer-key" />
            </Form.Item>
            <Form.Item name="consumerSecret" label={t('marketplaces:magento.fields.consumerSecret')} rules={secretRules(credentialsRequired)}>
              <Input.Password autoComplete="off" placeholder={keptPlaceholder} data-testid="magento-consumer-secret" />
            </Form.Item>
          </>
        ) : null}
        <Form.Item name="accessToken" label={t('marketplaces:magento.fields.accessToken')} rules={secretRules(credentialsRequired)}>
          <Input.Password autoComplete="off" placeholder={keptPlaceholder} data-testid="magento-access-token" />
        </Form.Item>
        {auth === 'oauth1' ? (
          <Form.Item name="accessTokenSecret" label={t('marketplaces:magento.fields.accessTokenSecret')} rules={secretRules(credentialsRequired)}>
            <Input.Password autoComplete="off" placeholder={keptPlaceholder} data-testid="magento-access-token-secret" />
          </Form.Item>
        ) : null}
        <Form.Item name="sourceCode" label={t('marketplaces:magento.fields.sourceCode')} extra={t('marketplaces:magento.sourceHint')} rules={[codeRule]}>
          <Input data-testid="magento-source-code" />
        </Form.Item>
        {!editing ? (
          <Form.Item
            label={t('marketplaces:magento.fields.key')}
            required
            validateStatus={keyError ? 'error' : undefined}
            help={keyError ?? undefined}
            extra={t('marketplaces:magento.key.hint')}
          >
            <Button icon={<KeyOutlined />} loading={generating} onClick={() => void onGenerate()} data-testid="magento-generate-key">
              {generated ? t('marketplaces:magento.key.again') : t('marketplaces:magento.key.generate')}
            </Button>
          </Form.Item>
        ) : null}
        <ChannelDefaults prefix="magento" warehouseHint={t('marketplaces:api.warehouseHint')} />
        <Form.Item name="active" label={t('marketplaces:fields.status')} valuePropName="checked" extra={t('marketplaces:magento.statusHint')}>
          <Switch data-testid="magento-status" />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(list)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="magento-save">
            {t('common:actions.save')}
          </Button>
        </Space>
      </Form>
      {c ? (
        <>
          <h2 style={{ marginTop: 32 }}>{t('marketplaces:magento.key.title')}</h2>
          <Keys keys={c.keys} lng={lng} testId="magento-keys" />
        </>
      ) : null}
    </Card>
  );
}
