import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Divider, Form, Input, Radio, Result, Row, Select, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useListWarehousesQuery } from '@/features/stock/api';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { checkPrice } from '@/shared/money';
import {
  useCatalogueQuery,
  useCreateInterChannelMutation,
  useCreateLogisticChannelMutation,
  useGetLogisticChannelQuery,
  useListStoreProvidersQuery,
  useReplaceLogisticChannelMutation,
} from './api';
import { BracketsEditor } from './BracketsEditor';
import { CodAccountModal, type CodAccountTarget } from './CodAccountModal';
import {
  carrierName,
  channelBody,
  channelValues,
  CHANNEL_ERRORS,
  checkBrackets,
  checkChannelName,
  listPath,
  methodsFor,
  SHIPMENT_TYPES,
  shipmentTypeOf,
  type ChannelValues,
  type ShipmentType,
} from './logistics';
import { showSaveRefusal } from '@/shared/refusal';

/** /setting/logistic-create (`?type=international`, `?warehouse=`) and
 * /setting/logistic-edit/{id}: a shipping channel (SPEC §3 Logistic store channel, §5): the
 * warehouse it ships from, domestic or international (fixed once saved), a provider of that
 * type, its name, how it is priced (flat; weight brackets; free from an order total up), COD
 * for the providers that collect it, and its status. */
export default function LogisticFormPage() {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const { storeId, channelId } = useParams();
  const [params] = useSearchParams();
  const id = Number(storeId);
  const editing = channelId !== undefined;
  const current = useGetLogisticChannelQuery({ id: Number(channelId) }, { skip: !editing });
  const { data: warehouses, isFetching: loadingWarehouses } = useListWarehousesQuery();
  const { data: carriers, isFetching: loadingCarriers } = useCatalogueQuery({});
  const { data: codAccounts } = useListStoreProvidersQuery();
  const [create, { isLoading: creating }] = useCreateLogisticChannelMutation();
  const [createInter, { isLoading: creatingInter }] = useCreateInterChannelMutation();
  const [replace, { isLoading: replacing }] = useReplaceLogisticChannelMutation();
  const [form] = Form.useForm<ChannelValues>();
  const navigate = useNavigate();
  const rule = useCheck();
  const [codTarget, setCodTarget] = useState<CodAccountTarget | null>(null);
  const startType = shipmentTypeOf(params.get('type'));
  const startWarehouse = Number(params.get('warehouse')) || undefined;

  const type: ShipmentType = Form.useWatch('logisticType', form) ?? (editing ? shipmentTypeOf(current.data?.logisticType) : startType);
  const providerName: string | undefined = Form.useWatch('providerName', form);
  const method = Form.useWatch('pricingMethod', form) ?? 'flat';
  const codOn: boolean = Form.useWatch('cod', form) ?? false;
  const warehouseId: number | undefined = Form.useWatch('warehouseId', form);
  const all = carriers?.data ?? [];
  const provider = all.find((c) => c.providerName === providerName);
  const hasCodAccount = (codAccounts?.data ?? []).some((a) => a.providerName === providerName);
  const name = (p: { nameTh: string; nameEn: string; providerName: string }) => carrierName(p, p.providerName, i18n.language);

  useEffect(() => {
    if (current.data) form.setFieldsValue(channelValues(current.data));
  }, [current.data, form]);

  // A new channel ships from the warehouse it was opened for, else the store's default one.
  useEffect(() => {
    if (editing || !warehouses || form.getFieldValue('warehouseId')) return;
    const w = warehouses.data.find((x) => x.id === startWarehouse) ?? warehouses.data.find((x) => x.isDefault) ?? warehouses.data[0];
    if (w) form.setFieldsValue({ warehouseId: w.id });
  }, [editing, warehouses, startWarehouse, form]);

  const onType = (next: ShipmentType) => {
    const p = all.find((c) => c.providerName === form.getFieldValue('providerName'));
    if (p && p.shipmentType !== next) form.setFieldsValue({ providerName: undefined, cod: false });
    if (!methodsFor(next).includes(form.getFieldValue('pricingMethod'))) form.setFieldsValue({ pricingMethod: 'flat' });
  };

  const onProvider = (next: string) => {
    const before = all.find((c) => c.providerName === providerName);
    const p = all.find((c) => c.providerName === next);
    const typed = (form.getFieldValue('name') as string | undefined)?.trim();
    // The channel is named after its provider until the owner names it.
    if (p && (!typed || (before && typed === name(before)))) form.setFieldsValue({ name: name(p) });
    if (!p?.cod) form.setFieldsValue({ cod: false });
  };

  const submit = async (v: ChannelValues) => {
    const body = channelBody({ ...v, logisticType: type }, provider);
    try {
      // Domestic channels go to /store-channels, international ones to /store-channels/inter.
      if (editing) await replace({ id: Number(channelId), logisticChannelInput: body }).unwrap();
      else if (type === 'international') await createInter({ logisticChannelInput: body }).unwrap();
      else await create({ logisticChannelInput: body }).unwrap();
      notifySuccess(t(editing ? 'logistics:form.updated' : 'logistics:form.created'));
      navigate(listPath(id, type, v.warehouseId));
    } catch (e) {
      if (apiError(e)?.code === 'logistic_limit_reached') {
        await showDialog({ kind: 'error', title: 'logistics:errors.limitTitle', message: 'logistics:errors.logistic_limit_reached' });
        return;
      }
      showSaveRefusal(e, form, t, CHANNEL_ERRORS);
    }
  };

  const back = listPath(id, type, warehouseId ?? startWarehouse);

  if (editing && current.isError) {
    return <Result status="404" title={t('logistics:errors.logistic_channel_not_found')} extra={<Button onClick={() => navigate(back)}>{t('common:actions.back')}</Button>} />;
  }

  const priceRule = [rule((v) => checkPrice(v))];

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t(editing ? 'logistics:form.editTitle' : `logistics:form.createTitle.${type}`)}</h1>
      </div>
      <Spin spinning={editing && current.isLoading}>
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => void submit(v)}
          initialValues={{
            logisticType: startType,
            warehouseId: startWarehouse,
            pricingMethod: 'flat',
            name: '',
            brackets: [{ maxWeight: '1', price: '' }],
            cod: false,
            active: true,
          }}
          requiredMark={false}
          scrollToFirstError
          style={{ maxWidth: 760 }}
          data-testid="logistic-form"
        >
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item name="warehouseId" label={t('logistics:fields.warehouse')} rules={[{ required: true, message: t(`common:${MSG.required}`) }]}>
                <Select
                  loading={loadingWarehouses}
                  placeholder={t('logistics:form.warehousePlaceholder')}
                  options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
                  data-testid="field-warehouseId"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="logisticType" label={t('logistics:fields.logisticType')} extra={editing ? t('logistics:form.typeFixed') : undefined}>
                <Radio.Group optionType="button" buttonStyle="solid" disabled={editing} onChange={(e) => onType(e.target.value as ShipmentType)} data-testid="field-logisticType">
                  {SHIPMENT_TYPES.map((s) => (
                    <Radio.Button key={s} value={s} data-testid={`type-${s}`}>
                      {t(`logistics:types.${s}`)}
                    </Radio.Button>
                  ))}
                </Radio.Group>
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="providerName"
                label={t('logistics:fields.provider')}
                rules={[{ required: true, message: t(`common:${MSG.required}`) }]}
              >
                <Select
                  loading={loadingCarriers}
                  placeholder={t('logistics:form.providerPlaceholder')}
                  onChange={onProvider}
                  options={all
                    .filter((c) => c.shipmentType === type)
                    .map((c) => ({
                      value: c.providerName,
                      label: (
                        <Space size={6}>
                          <span>{name(c)}</span>
                          {c.cod ? <Tag color="gold">{t('logistics:list.codOn')}</Tag> : null}
                        </Space>
                      ),
                      search: `${c.nameTh} ${c.nameEn} ${c.providerName}`.toLowerCase(),
                    }))}
                  showSearch={{ filterOption: (input, option) => Boolean(option?.search.includes(input.trim().toLowerCase())) }}
                  data-testid="field-providerName"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="name" label={t('logistics:fields.name')} extra={t('logistics:form.nameHint')} rules={[rule(checkChannelName)]}>
                <Input maxLength={100} data-testid="field-name" />
              </Form.Item>
            </Col>
          </Row>

          <Divider titlePlacement="start">{t('logistics:form.priceSection')}</Divider>
          <Form.Item name="pricingMethod" label={t('logistics:fields.pricingMethod')} extra={t(`logistics:methodHints.${method}`)}>
            <Radio.Group optionType="button" buttonStyle="solid" data-testid="field-pricingMethod">
              {methodsFor(type).map((m) => (
                <Radio.Button key={m} value={m} data-testid={`method-${m}`}>
                  {t(`logistics:methods.${m}`)}
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          {method === 'flat' ? (
            <Form.Item name="price" label={t('logistics:fields.price')} rules={priceRule} style={{ maxWidth: 280 }}>
              <Input inputMode="decimal" suffix={t('common:money.unit')} data-testid="field-price" />
            </Form.Item>
          ) : null}
          {method === 'weight' ? (
            <Form.Item
              name="brackets"
              label={t('logistics:fields.brackets')}
              rules={[
                {
                  validator: (_: unknown, v: ChannelValues['brackets']) => {
                    const key = checkBrackets(v);
                    return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
                  },
                },
              ]}
            >
              <BracketsEditor />
            </Form.Item>
          ) : null}
          {method === 'rate_table' ? (
            <Form.Item name="price" label={t('logistics:fields.handlingFee')} extra={t('logistics:form.handlingFeeHint')} rules={priceRule} style={{ maxWidth: 280 }}>
              <Input inputMode="decimal" suffix={t('common:money.unit')} data-testid="field-price" />
            </Form.Item>
          ) : null}
          {method === 'free_over' ? (
            <Row gutter={12}>
              <Col xs={24} md={12}>
                <Form.Item name="freeOver" label={t('logistics:fields.freeOver')} extra={t('logistics:form.freeOverHint')} rules={priceRule}>
                  <Input inputMode="decimal" suffix={t('common:money.unit')} data-testid="field-freeOver" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="price" label={t('logistics:fields.priceBelow')} rules={priceRule}>
                  <Input inputMode="decimal" suffix={t('common:money.unit')} data-testid="field-price" />
                </Form.Item>
              </Col>
            </Row>
          ) : null}

          <Divider />
          {provider?.cod ? (
            <>
              <Form.Item name="cod" label={t('logistics:fields.cod')} valuePropName="checked" extra={t('logistics:form.codHint', { name: name(provider) })}>
                <Switch data-testid="field-cod" />
              </Form.Item>
              {codOn && codAccounts && !hasCodAccount ? (
                <Alert
                  type="warning"
                  showIcon
                  title={t('logistics:form.codAccountMissing', { name: name(provider) })}
                  action={
                    <Button size="small" type="primary" onClick={() => setCodTarget({ provider: provider.providerName })} data-testid="cod-add-from-form">
                      {t('logistics:cod.create')}
                    </Button>
                  }
                  style={{ marginBottom: 16 }}
                  data-testid="cod-missing"
                />
              ) : null}
            </>
          ) : provider && type === 'domestic' ? (
            <Typography.Paragraph type="secondary" data-testid="cod-unsupported">
              {t('logistics:form.noCod', { name: name(provider) })}
            </Typography.Paragraph>
          ) : null}
          <Form.Item name="active" label={t('logistics:fields.status')} valuePropName="checked" extra={t('logistics:form.statusHint')}>
            <Switch checkedChildren={t('logistics:status.active')} unCheckedChildren={t('logistics:status.inactive')} data-testid="field-active" />
          </Form.Item>

          <Space>
            <Button onClick={() => navigate(back)}>{t('common:actions.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={creating || creatingInter || replacing} data-testid="logistic-save">
              {t('common:actions.save')}
            </Button>
          </Space>
        </Form>
      </Spin>
      <CodAccountModal
        target={codTarget}
        onClose={() => setCodTarget(null)}
        onSaved={() => form.setFields([{ name: 'cod', errors: [] }])}
      />
    </Card>
  );
}
