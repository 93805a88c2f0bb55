import { useEffect } from 'react';
import { Button, Card, Col, Form, Input, Radio, Result, Row, Select, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { BankBadge, bankName } from '@/shared/bank/BankBadge';
import { notifySuccess } from '@/shared/dialogs/notify';
import { useCheck } from '@/shared/form/useCheck';
import { useBanksQuery, useCountriesQuery, useCreateStoreChannelMutation, useGetStoreChannelQuery, useUpdateStoreChannelMutation } from './api';
import {
  ACCOUNT_ERRORS,
  accountBody,
  accountValues,
  checkAccountNo,
  checkFee,
  checkName,
  checkPaypalEmail,
  checkPromptPayId,
  kindOf,
  KINDS,
  listPath,
  type AccountValues,
  type Kind,
} from './payments';
import { PromptPayQrView } from './PromptPayQr';
import { showSaveRefusal } from '@/shared/refusal';

/** /setting/payment-create (`?type=` picks the kind) and /setting/payment-edit/{id}: a payment
 * account whose fields follow its kind (SPEC §3 Payment account, §5). The kind is chosen on
 * create and fixed on edit; a PromptPay account shows its QR beside the form. */
export default function PaymentFormPage() {
  const { t, i18n } = useTranslation(['payments', 'common']);
  const { storeId, channelId } = useParams();
  const [params] = useSearchParams();
  const id = Number(storeId);
  const editing = channelId !== undefined;
  const current = useGetStoreChannelQuery({ id: Number(channelId) }, { skip: !editing });
  const { data: banks, isFetching: loadingBanks } = useBanksQuery();
  const { data: countries } = useCountriesQuery();
  const [create, { isLoading: creating }] = useCreateStoreChannelMutation();
  const [update, { isLoading: updating }] = useUpdateStoreChannelMutation();
  const [form] = Form.useForm<AccountValues>();
  const navigate = useNavigate();
  const rule = useCheck();
  const startKind: Kind = kindOf(params.get('type')) ?? 'bank';
  const kind: Kind = Form.useWatch('channelType', form) ?? (editing ? (kindOf(current.data?.channel.type) ?? startKind) : startKind);
  const back = listPath(id, kind);

  useEffect(() => {
    if (current.data) form.setFieldsValue(accountValues(current.data));
  }, [current.data, form]);

  const submit = async (v: AccountValues) => {
    const body = accountBody({ ...v, channelType: kind }, !editing);
    try {
      if (editing) await update({ id: Number(channelId), storeChannelInput: body }).unwrap();
      else await create({ storeChannelInput: body }).unwrap();
      notifySuccess(t(editing ? 'payments:form.updated' : 'payments:form.created'));
      navigate(listPath(id, kind));
    } catch (e) {
      showSaveRefusal(e, form, t, ACCOUNT_ERRORS);
    }
  };

  if (editing && current.isError) {
    return (
      <Result
        status="404"
        title={t('payments:errors.payment_channel_not_found')}
        extra={<Button onClick={() => navigate(listPath(id, 'bank'))}>{t('common:actions.back')}</Button>}
      />
    );
  }

  const required = (check: (v: string) => string | null) => [rule(check)];
  const bankOptions = (banks?.data ?? []).map((b) => ({
    value: b.code,
    search: `${b.short} ${b.nameTh} ${b.nameEn}`.toLowerCase(),
    label: (
      <Space size={8} align="center">
        <BankBadge bank={b} size={26} />
        <span>{bankName(b, i18n.language)}</span>
      </Space>
    ),
  }));
  const showQr = editing && kind === 'promptpay' && current.data !== undefined;

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t(editing ? 'payments:form.editTitle' : 'payments:form.createTitle')}</h1>
      </div>
      <Spin spinning={editing && current.isLoading}>
        <Row gutter={[24, 16]}>
          <Col xs={24} lg={showQr ? 14 : 24}>
            <Form
              form={form}
              layout="vertical"
              onFinish={(v) => void submit(v)}
              initialValues={{ channelType: startKind, country: 'TH', active: true }}
              requiredMark={false}
              scrollToFirstError
              style={{ maxWidth: 640 }}
              data-testid="payment-form"
            >
              <Form.Item name="channelType" label={t('payments:fields.kind')} extra={editing ? t('payments:form.kindFixed') : t(`payments:hints.${kind}`)}>
                {editing ? (
                  <KindTag />
                ) : (
                  <Radio.Group optionType="button" buttonStyle="solid" data-testid="field-channelType">
                    {KINDS.map((k) => (
                      <Radio.Button key={k} value={k} data-testid={`kind-${k}`}>
                        {t(`payments:kinds.${k}`)}
                      </Radio.Button>
                    ))}
                  </Radio.Group>
                )}
              </Form.Item>

              {kind === 'bank' ? (
                <Row gutter={12}>
                  <Col xs={24} md={8}>
                    <Form.Item name="country" label={t('payments:fields.country')} rules={required((v) => (v ? null : 'validation.required'))}>
                      <Select
                        options={(countries?.data ?? []).map((c) => ({ value: c.code, label: i18n.language === 'th' ? c.nameTh : c.nameEn }))}
                        data-testid="field-country"
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={16}>
                    <Form.Item name="bankCode" label={t('payments:fields.bank')} rules={required((v) => (v ? null : 'validation.required'))}>
                      <Select
                        loading={loadingBanks}
                        placeholder={t('payments:form.bankPlaceholder')}
                        options={bankOptions}
                        showSearch={{ filterOption: (input, option) => Boolean(option?.search.includes(input.trim().toLowerCase())) }}
                        data-testid="field-bankCode"
                      />
                    </Form.Item>
                  </Col>
                </Row>
              ) : null}

              {kind !== 'paypal' ? (
                <Form.Item name="accName" label={t('payments:fields.accName')} extra={t(`payments:form.accNameHint.${kind}`)} rules={required(checkName)}>
                  <Input maxLength={200} data-testid="field-accName" />
                </Form.Item>
              ) : null}

              {kind === 'bank' || kind === 'cod' ? (
                <Form.Item name="accNo" label={t('payments:fields.accNo')} extra={t('payments:form.accNoHint')} rules={required(checkAccountNo)}>
                  <Input inputMode="numeric" maxLength={30} data-testid="field-accNo" />
                </Form.Item>
              ) : null}

              {kind === 'promptpay' ? (
                <Form.Item name="accNo" label={t('payments:fields.promptPayId')} extra={t('payments:form.promptPayHint')} rules={required(checkPromptPayId)}>
                  <Input inputMode="numeric" maxLength={20} data-testid="field-accNo" />
                </Form.Item>
              ) : null}

              {kind === 'bank' ? (
                <Form.Item name="branch" label={t('payments:fields.branch')} rules={required(checkName)}>
                  <Input maxLength={200} placeholder={t('payments:form.branchPlaceholder')} data-testid="field-branch" />
                </Form.Item>
              ) : null}

              {kind === 'paypal' ? (
                <Row gutter={12}>
                  <Col xs={24} md={16}>
                    <Form.Item name="email" label={t('payments:fields.email')} rules={required(checkPaypalEmail)}>
                      <Input type="email" maxLength={254} data-testid="field-email" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name="fee" label={t('payments:fields.fee')} extra={t('payments:form.feeHint')} rules={required(checkFee)}>
                      <Input inputMode="decimal" suffix="%" maxLength={7} data-testid="field-fee" />
                    </Form.Item>
                  </Col>
                </Row>
              ) : null}

              <Form.Item name="active" label={t('payments:fields.status')} valuePropName="checked" extra={t('payments:form.statusHint')}>
                <Switch checkedChildren={t('payments:status.active')} unCheckedChildren={t('payments:status.inactive')} data-testid="field-active" />
              </Form.Item>

              <Space>
                <Button onClick={() => navigate(back)}>{t('common:actions.cancel')}</Button>
                <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="payment-save">
                  {t('common:actions.save')}
                </Button>
              </Space>
            </Form>
          </Col>
          {showQr ? (
            <Col xs={24} lg={10}>
              <Card size="small" title={t('payments:qr.title')}>
                <Typography.Paragraph type="secondary">{t('payments:qr.hint')}</Typography.Paragraph>
                <PromptPayQrView channelId={Number(channelId)} />
              </Card>
            </Col>
          ) : null}
        </Row>
      </Spin>
    </Card>
  );
}

/** The kind of an account being edited: shown, not changed. */
function KindTag({ value }: { value?: string }) {
  const { t } = useTranslation('payments');
  return (
    <Tag color="blue" style={{ fontSize: 14, padding: '2px 10px' }} data-testid="field-channelType">
      {t(`payments:kinds.${value ?? 'bank'}`)}
    </Tag>
  );
}
