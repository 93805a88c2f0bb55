import { useEffect } from 'react';
import { Button, Card, Col, Descriptions, Form, Input, Row, Space, Spin, Tag, Typography } from 'antd';
import { ApiOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { MSG } from '@/shared/form/rules';
import { formatDateTime } from '@/shared/i18n/i18n';
import { logisticsApi, useConnectCarrierAccountMutation, useGetCarrierAccountQuery, useLazyGetCarrierAccountQuery } from './api';
import { ACCOUNT_CARRIERS, CONNECT_ERRORS, keyStatusColour, webhookUrl, type AccountCarrier } from './logistics';
import { notifyRefusal, showSaveRefusal } from '@/shared/refusal';

/** /setting/e-parcel-connecting (SPEC §2 Settings; hidden by the store's hiding-menu key
 * connect_e_parcel): the store's accounts with the carriers' APIs. The e-parcel account with
 * the postal provider (its API key, and the address to give the provider for its tracking
 * pushes) and the Flash Express merchant account (merchant id and key). A key is kept only
 * once the carrier has taken it and is never shown back, only its last four characters. */
export default function EParcelPage() {
  const { t } = useTranslation(['logistics', 'common']);
  return (
    <Card data-testid="e-parcel">
      <div className="bo-page-head">
        <h1>{t('logistics:eparcel.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('logistics:eparcel.hint')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {ACCOUNT_CARRIERS.map((c) => (
          <Col xs={24} xl={12} key={c}>
            <CarrierAccountCard carrier={c} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

interface Values {
  apiKey: string;
  accountId?: string;
}

function CarrierAccountCard({ carrier }: { carrier: AccountCarrier }) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const dispatch = useAppDispatch();
  const account = useGetCarrierAccountQuery({ carrier });
  const [check, { isFetching: checking }] = useLazyGetCarrierAccountQuery();
  const [connect, { isLoading: connecting }] = useConnectCarrierAccountMutation();
  const [form] = Form.useForm<Values>();
  const a = account.data;
  const connected = Boolean(a?.connected);
  const webhook = a && carrier === 'thaipost' ? webhookUrl(window.location.origin, a.webhookPath) : '';
  const required = { required: true, whitespace: true, message: t(`common:${MSG.required}`) };

  // A Flash Express key goes with its merchant id: the one kept is offered again.
  useEffect(() => {
    if (a?.accountId && !form.getFieldValue('accountId')) form.setFieldsValue({ accountId: a.accountId });
  }, [a?.accountId, form]);

  const onCheck = async () => {
    try {
      const fresh = await check({ carrier, check: true }).unwrap();
      dispatch(logisticsApi.util.upsertQueryData('getCarrierAccount', { carrier }, fresh));
      notifySuccess(t(`logistics:eparcel.checked.${fresh.status}`, { defaultValue: t('logistics:eparcel.checked.done') }));
    } catch (e) {
      notifyRefusal(e, t, 'logistics');
    }
  };

  const submit = async (v: Values) => {
    try {
      await connect({ carrier, connectInput: { apiKey: v.apiKey.trim(), ...(carrier === 'flash' ? { accountId: (v.accountId ?? '').trim() } : {}) } }).unwrap();
      // The key is not kept on the screen once the carrier has taken it.
      form.resetFields(['apiKey']);
      notifySuccess(t('logistics:eparcel.saved', { name: t(`logistics:eparcel.carriers.${carrier}.name`) }));
    } catch (e) {
      if (apiError(e)?.code === 'carrier_unreachable') {
        await showDialog({ kind: 'error', title: 'logistics:eparcel.unreachableTitle', message: 'logistics:errors.carrier_unreachable', cancel: false });
        return;
      }
      showSaveRefusal(e, form, t, CONNECT_ERRORS);
    }
  };

  return (
    <Card
      size="small"
      title={t(`logistics:eparcel.carriers.${carrier}.title`)}
      extra={
        a ? (
          <Tag color={connected ? keyStatusColour(a.status) : undefined} data-testid={`account-${carrier}-status`}>
            {connected ? t(`logistics:eparcel.status.${a.status}`, { defaultValue: t('logistics:eparcel.status.connected') }) : t('logistics:eparcel.status.none')}
          </Tag>
        ) : null
      }
      style={{ height: '100%' }}
      data-testid={`account-${carrier}`}
    >
      <Spin spinning={account.isLoading}>
        <Typography.Paragraph type="secondary">{t(`logistics:eparcel.carriers.${carrier}.hint`)}</Typography.Paragraph>
        {connected && a ? (
          <>
            <Descriptions
              size="small"
              column={1}
              bordered
              style={{ marginBottom: 12 }}
              data-testid={`account-${carrier}-info`}
              items={[
                ...(carrier === 'flash' ? [{ key: 'accountId', label: t('logistics:eparcel.accountId'), children: a.accountId }] : []),
                { key: 'key', label: t('logistics:eparcel.apiKey'), children: <Typography.Text code>{a.maskedKey}</Typography.Text> },
                {
                  key: 'checkedAt',
                  label: t('logistics:eparcel.checkedAt'),
                  children: (
                    <Space wrap>
                      <span data-testid={`account-${carrier}-checked`}>{formatDateTime(a.checkedAt, i18n.language)}</span>
                      <Button size="small" icon={<SyncOutlined />} loading={checking} onClick={() => void onCheck()} data-testid={`account-${carrier}-check`}>
                        {t('logistics:eparcel.checkNow')}
                      </Button>
                    </Space>
                  ),
                },
                ...(webhook
                  ? [
                      {
                        key: 'webhook',
                        label: t('logistics:eparcel.webhook'),
                        children: (
                          <Space orientation="vertical" size={2}>
                            <Typography.Text copyable={{ text: webhook }} style={{ wordBreak: 'break-all' }} data-testid="account-thaipost-webhook">
                              {webhook}
                            </Typography.Text>
                            <Typography.Text type="secondary">{t('logistics:eparcel.webhookHint')}</Typography.Text>
                          </Space>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
            {a.status === 'rejected' ? (
              <Typography.Paragraph type="danger" data-testid={`account-${carrier}-rejected`}>
                {t('logistics:eparcel.rejectedHint')}
              </Typography.Paragraph>
            ) : null}
          </>
        ) : null}
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} autoComplete="off" data-testid={`account-${carrier}-form`}>
          {carrier === 'flash' ? (
            <Form.Item name="accountId" label={t('logistics:eparcel.accountId')} extra={t('logistics:eparcel.accountIdHint')} rules={[required]}>
              <Input maxLength={64} autoComplete="off" data-testid="field-accountId" />
            </Form.Item>
          ) : null}
          <Form.Item
            name="apiKey"
            label={t(connected ? 'logistics:eparcel.newKey' : 'logistics:eparcel.apiKey')}
            extra={t(`logistics:eparcel.carriers.${carrier}.keyHint`)}
            rules={[required]}
          >
            <Input.Password maxLength={500} autoComplete="new-password" data-testid={`field-apiKey-${carrier}`} />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<ApiOutlined />} loading={connecting} data-testid={`account-${carrier}-save`}>
            {t(connected ? 'logistics:eparcel.replace' : 'logistics:eparcel.connect')}
          </Button>
        </Form>
      </Spin>
    </Card>
  );
}
