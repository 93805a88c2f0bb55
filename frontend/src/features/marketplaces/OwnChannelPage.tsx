import { useEffect } from 'react';
import { Button, Card, Form, Input, Result, Select, Spin, Switch, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { notifySuccess } from '@/shared/dialogs/notify';
import { showSaveRefusal } from '@/shared/refusal';
import { useCreateOwnChannelMutation, useGetOwnChannelQuery, useUpdateOwnChannelMutation } from './api';
import { ChannelDefaults } from './ChannelDefaults';
import { OWN_KINDS, isOwnKind } from './marketplaces';

interface Values {
  name?: string;
  channel?: string;
  warehouseId?: number;
  logisticChannelId?: number;
  paymentChannelId?: number;
  active: boolean;
}

const FIELDS = ['name', 'channel', 'warehouseId', 'logisticChannelId', 'paymentChannelId'];

/** /sale-channel-setting/{saleChannel} to make one and …/{storeChannelId} to edit it (SPEC
 * §2, §5: name, channel, warehouse, shipping channel and payment account required): one of
 * the store's own channels (its Facebook page, LINE account, Instagram or website), whose
 * defaults a new order typed for it takes. */
export default function OwnChannelPage() {
  const { t } = useTranslation(['marketplaces', 'common']);
  const { storeId, saleChannel, storeChannelId } = useParams();
  const navigate = useNavigate();
  const editing = storeChannelId !== undefined;
  const id = Number(storeChannelId);
  const existing = useGetOwnChannelQuery({ id }, { skip: !editing });
  const [create, { isLoading: creating }] = useCreateOwnChannelMutation();
  const [update, { isLoading: updating }] = useUpdateOwnChannelMutation();
  const [form] = Form.useForm<Values>();
  const list = `/${Number(storeId)}/sale-channel-list`;
  const kind = saleChannel ?? '';

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
    });
  }, [existing.data, form]);

  if (!editing && !isOwnKind(kind)) {
    return <Result status="404" title={t('marketplaces:own.unknownChannel', { channel: kind })} extra={<Button onClick={() => navigate(list)}>{t('common:actions.back')}</Button>} />;
  }
  if (editing && existing.isError) {
    return <Result status="404" title={t('marketplaces:own.notFound')} extra={<Button onClick={() => navigate(list)}>{t('common:actions.back')}</Button>} />;
  }
  if (editing && !existing.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const c = existing.data;

  const submit = async (v: Values) => {
    const input = {
      name: v.name ?? '',
      channel: v.channel ?? '',
      warehouseId: v.warehouseId ?? 0,
      logisticChannelId: v.logisticChannelId ?? 0,
      paymentChannelId: v.paymentChannelId ?? 0,
      status: v.active ? 'active' : 'inactive',
      version: c?.version ?? 0,
    };
    try {
      if (editing) {
        await update({ id, ownChannelInput: input }).unwrap();
        notifySuccess(t('marketplaces:own.saved', { name: input.name.trim() }));
      } else {
        const made = await create({ ownChannelInput: input }).unwrap();
        notifySuccess(t('marketplaces:own.created', { name: made.name }));
      }
      navigate(list);
    } catch (e) {
      showSaveRefusal(e, form, t, { ns: 'marketplaces', only: FIELDS });
    }
  };

  const channelName = (code: string) => t(`marketplaces:api.channels.${code}`, { defaultValue: code });
  return (
    <Card data-testid="own-channel-page">
      <div className="bo-page-head">
        <h1>{editing && c ? t('marketplaces:own.editTitle', { name: c.name }) : t('marketplaces:own.createTitle', { channel: channelName(kind) })}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('marketplaces:own.hint')}</Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" style={{ maxWidth: 640 }} requiredMark initialValues={{ channel: kind, active: true }} onFinish={(v) => void submit(v)}>
        <Form.Item name="name" label={t('marketplaces:own.fields.name')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }, { max: 100, message: t('common:validation.too_long') }]}>
          <Input placeholder={t('marketplaces:own.namePlaceholder')} maxLength={100} data-testid="own-name" />
        </Form.Item>
        <Form.Item name="channel" label={t('marketplaces:own.fields.channel')} rules={[{ required: true, message: t('common:validation.required') }]}>
          <Select options={OWN_KINDS.map((k) => ({ value: k, label: channelName(k) }))} data-testid="own-channel" />
        </Form.Item>
        <ChannelDefaults prefix="own" />
        <Form.Item name="active" label={t('marketplaces:fields.status')} valuePropName="checked" extra={t('marketplaces:own.statusHint')}>
          <Switch data-testid="own-status" />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(list)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="own-save">
            {t('common:actions.save')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
