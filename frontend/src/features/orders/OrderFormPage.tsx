import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Col, Descriptions, Divider, Form, Input, InputNumber, Radio, Result, Row, Select, Space, Spin, Switch, Typography, type FormInstance } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { AddressFields, useInternational } from '@/shared/address/AddressFields';
import { addressLine } from '@/shared/address/countries';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { checkEmail, checkInternationalPhone, checkThaiPhone } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { cleanAmount, formatBaht, toSatang } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import { ListView } from '@/shared/list/ListView';
import { BottomBar } from '@/shared/list/Actions';
import { CustomerPicker, useGetCustomerQuery, useListAddressesQuery, type AddressBody, type CustomerBody } from '@/features/customers/api';
import { useListLogisticChannelsQuery, useQuoteShippingMutation, type LogisticChannel } from '@/features/logistics/api';
import { useListOwnChannelsQuery } from '@/features/marketplaces/api';
import { useLazyGetProductQuery } from '@/features/products/api';
import { SkuSelect, useListWarehousesQuery, type SkuPick } from '@/features/stock/api';
import { useCreateOrderMutation, useGetOrderQuery, useOrderChannelsQuery, useOrderLimitsQuery, useUpdateOrderMutation, type OrderBody } from './api';
import { bahtText, BILL_LIMIT, overLimit, percentBp, type Totals } from './money';
import {
  blankLine,
  detailPath,
  estimatedGrams,
  formTotals,
  grams,
  inputOf,
  kgText,
  LINE_NOTE_MAX,
  linePrice,
  listPath,
  MAX_PACKING,
  MAX_QUANTITY,
  newValues,
  NOTE_MAX,
  PACKING_MAX,
  prefillOf,
  REFERENCE_MAX,
  valuesOf,
  type LineValues,
  type OrderValues,
  type SkuFacts,
} from './orders';
import { channelName, StateTag } from './parts';
import { showFormRefusal } from './refusal';
import { CUSTOMER_PICK, SKU_PICK } from './routes';

/** /order-create, /order-create/detail (prefilled from its query: channel, reference, note,
 * warehouseId, customerId, customerAddressId) and /order-edit/{id} (SPEC §2, §3, §5): the
 * channel and its reference, the warehouse (changing it clears the lines, once confirmed),
 * the customer and an address of their book or one typed, the lines (SKU with its stock in the
 * warehouse, quantity, price, packing options, note), the discount, VAT, the warehouse's
 * shipping channel and its charge (priced by the channel unless typed), a fee and COD. The
 * totals are shown as the server will compute them; a warehouse bill over the limit is
 * refused before sending. Saving opens the order. */
export default function OrderFormPage() {
  const { id } = useParams();
  // Another order is another form: nothing of the last one carries over.
  return <OrderForm key={id ?? 'new'} />;
}

/** A SKU's facts from its product: its price and cost in satang, its weight in grams. */
function factsOf(p: { weight: string; skus: { id: number; price: string; cost: string }[] }, skuId: number): SkuFacts | null {
  const sku = p.skus.find((s) => s.id === skuId);
  if (!sku) return null;
  return { price: toSatang(sku.price) ?? 0, cost: toSatang(sku.cost) ?? 0, weightG: grams(p.weight) ?? 0 };
}

/** An edited order's SKUs as its lines hold them (the snapshots). */
function factsOfOrder(o: OrderBody): Map<number, SkuFacts> {
  const m = new Map<number, SkuFacts>();
  for (const i of o.items) m.set(i.skuId, { price: toSatang(i.price) ?? 0, cost: toSatang(i.cost ?? '0') ?? 0, weightG: grams(i.weight) ?? 0 });
  return m;
}

function labelsOfOrder(o: OrderBody): Map<number, string> {
  const m = new Map<number, string>();
  for (const i of o.items) m.set(i.skuId, [i.productName, i.skuCode, i.variant].filter(Boolean).join(' · '));
  return m;
}

function OrderForm() {
  const { t, i18n } = useTranslation(['orders', 'common', 'marketplaces']);
  const { storeId, id: idParam } = useParams();
  const [query] = useSearchParams();
  const sid = storeId ?? '';
  const editing = idParam !== undefined;
  const orderId = Number(idParam);
  const navigate = useNavigate();
  const current = useGetOrderQuery({ id: orderId }, { skip: !editing });
  const { data: warehouses, isLoading: loadingWarehouses } = useListWarehousesQuery();
  const { data: channels } = useOrderChannelsQuery();
  const { data: own } = useListOwnChannelsQuery({ status: 'active' }, { skip: editing });
  const [ownId, setOwnId] = useState<number | undefined>(undefined);
  const { data: limits } = useOrderLimitsQuery();
  const [create, { isLoading: creating }] = useCreateOrderMutation();
  const [update, { isLoading: updating }] = useUpdateOrderMutation();
  const [form] = Form.useForm<OrderValues>();
  const [facts, setFacts] = useState<Map<number, SkuFacts>>(() => new Map());
  const [known, setKnown] = useState<Map<number, string>>(() => new Map());
  const loaded = useRef(false);
  const prefill = useMemo(() => prefillOf(query), [query]);

  // An edited order's values, once; a new order starts at the store's default warehouse.
  useEffect(() => {
    if (editing && current.data && !loaded.current) {
      form.setFieldsValue(valuesOf(current.data));
      setFacts(factsOfOrder(current.data));
      setKnown(labelsOfOrder(current.data));
      loaded.current = true;
    }
  }, [editing, current.data, form]);
  useEffect(() => {
    if (!editing && warehouses && form.getFieldValue('warehouseId') === undefined) {
      const first = warehouses.data.find((w) => w.isDefault && w.active) ?? warehouses.data.find((w) => w.active);
      if (first) form.setFieldValue('warehouseId', first.id);
    }
  }, [editing, warehouses, form]);

  const values = (Form.useWatch([], { form, preserve: true }) as OrderValues | undefined) ?? {};
  const quote = useShippingQuote(values, facts);
  const totals = formTotals(values, facts, quote.price);
  const limit = toSatang(limits?.billLimit) ?? BILL_LIMIT;
  const over = totals ? overLimit(totals, limit) : [];

  if (editing && current.isError) {
    return <Result status="404" title={t('orders:errors.notFound')} extra={<Button onClick={() => navigate(listPath(sid))}>{t('orders:detail.backToList')}</Button>} />;
  }
  if (editing && current.data && current.data.state !== 'new') {
    return (
      <Result
        status="warning"
        title={t('orders:form.notEditable', { orderNo: current.data.orderNo })}
        subTitle={<StateTag state={current.data.state} />}
        extra={<Button onClick={() => navigate(detailPath(sid, orderId))}>{t('orders:form.toDetail')}</Button>}
      />
    );
  }

  const submit = async () => {
    const v = form.getFieldsValue(true) as OrderValues;
    const now = formTotals(v, facts, quote.price);
    if (now && overLimit(now, limit).length > 0) {
      form.setFields([{ name: 'items', errors: [t('orders:form.overLimit', { limit: formatBaht(bahtText(limit)) })] }]);
      void showDialog({ kind: 'error', title: 'orders:form.overLimitTitle', message: 'orders:form.overLimit', values: { limit: formatBaht(bahtText(limit)) }, cancel: false });
      return;
    }
    const body = inputOf(v, editing ? current.data?.version : undefined);
    try {
      const o = editing ? await update({ id: orderId, orderInput: body }).unwrap() : await create({ orderInput: body }).unwrap();
      notifySuccess(t(editing ? 'orders:form.updated' : 'orders:form.created', { orderNo: o.orderNo }));
      navigate(detailPath(sid, o.id));
    } catch (e) {
      showFormRefusal(e, form, t);
    }
  };

  // One of the store's own channels fills in its sales channel, warehouse and shipping channel.
  const ownChannels = own?.data ?? [];
  const pickOwn = async (next?: number) => {
    const c = ownChannels.find((x) => x.id === next);
    setOwnId(c?.id);
    if (!c) return;
    if (!(await moveWarehouse(form, c.warehouseId))) {
      setOwnId(undefined);
      return;
    }
    form.setFieldsValue({ channel: c.channel, logisticStoreChannelId: c.logisticChannelId });
  };

  const back = () => navigate(editing ? detailPath(sid, orderId) : listPath(sid));
  const required = { required: true, message: t('common:validation.required') };
  const lng = i18n.language;
  const warehouseOptions = (warehouses?.data ?? [])
    .filter((w) => w.active || w.id === current.data?.warehouseId)
    .map((w) => ({ value: w.id, label: w.name, disabled: !w.active }));

  return (
    <Spin spinning={(editing && current.isLoading) || loadingWarehouses}>
      <Form<OrderValues>
        form={form}
        layout="vertical"
        initialValues={newValues(prefill)}
        onFinish={() => void submit()}
        requiredMark={false}
        scrollToFirstError
        data-testid="order-form"
      >
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card>
            <div className="bo-page-head">
              <h1>{editing ? t('orders:form.editTitle', { orderNo: current.data?.orderNo ?? '' }) : t('orders:form.createTitle')}</h1>
            </div>
            {ownChannels.length > 0 ? (
              <Form.Item label={t('marketplaces:own.pick')} extra={t('marketplaces:own.pickHint')}>
                <Select
                  allowClear
                  value={ownId}
                  onChange={(v?: number) => void pickOwn(v)}
                  options={ownChannels.map((c) => ({ value: c.id, label: `${c.name} · ${channelName(c.channel, channels?.data, lng)}` }))}
                  placeholder={t('marketplaces:own.pickPlaceholder')}
                  style={{ maxWidth: 420 }}
                  data-testid="field-ownChannel"
                />
              </Form.Item>
            ) : null}
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name="channel" label={t('orders:fields.channel')} rules={[required]}>
                  <Select
                    options={(channels?.data ?? []).map((c) => ({ value: c.code, label: channelName(c.code, channels?.data, lng) }))}
                    placeholder={t('orders:form.pickChannel')}
                    data-testid="field-channel"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="reference" label={t('orders:fields.reference')} extra={t('orders:form.referenceHint')}>
                  <Input maxLength={REFERENCE_MAX} data-testid="field-reference" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="warehouseId" label={t('orders:fields.warehouse')} rules={[required]}>
                  <WarehouseSelect options={warehouseOptions} form={form} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="note" label={t('orders:fields.note')}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={NOTE_MAX} showCount data-testid="field-note" />
            </Form.Item>
          </Card>

          <Card title={t('orders:form.customerSection')}>
            <CustomerSection form={form} storeId={Number(sid)} />
          </Card>

          <Card title={t('orders:form.itemsSection')}>
            <OrderLines form={form} facts={facts} setFacts={setFacts} known={known} maxItems={limits?.maxItems ?? 200} />
            {over.length > 0 ? (
              <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('orders:form.overLimitTitle')} description={t('orders:form.overLimit', { limit: formatBaht(bahtText(limit)) })} data-testid="over-limit" />
            ) : null}
          </Card>

          <Row gutter={16}>
            <Col xs={24} lg={14}>
              <Card title={t('orders:form.chargesSection')} style={{ height: '100%' }}>
                <ChargesSection form={form} quote={quote} />
              </Card>
            </Col>
            <Col xs={24} lg={10}>
              <Card title={t('orders:form.totalsSection')} style={{ height: '100%' }}>
                <TotalsView totals={totals} vatIncluded={values.vatIncluded ?? true} shippingPending={quote.pending} discountType={values.discountType ?? ''} discountValue={values.discountValue} />
              </Card>
            </Col>
          </Row>

          <BottomBar>
            <Button onClick={back}>{t('common:actions.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="order-save">
              {t(editing ? 'orders:form.saveEdit' : 'orders:form.save')}
            </Button>
          </BottomBar>
        </Space>
      </Form>
    </Spin>
  );
}

/** Moves the order to warehouse `next`: once lines are chosen it asks first, then clears them
 * and the shipping channel (SPEC §5: products are chosen per warehouse). False when the user
 * keeps the warehouse it had. */
async function moveWarehouse(form: FormInstance<OrderValues>, next: number): Promise<boolean> {
  const value = form.getFieldValue('warehouseId') as number | undefined;
  if (next === value) return true;
  const items = (form.getFieldValue('items') as LineValues[] | undefined) ?? [];
  if (value !== undefined && items.some((l) => l?.skuId)) {
    const ok = await showDialog({ kind: 'warning', title: 'orders:form.warehouseChangeTitle', message: 'orders:form.warehouseChange', confirm: 'orders:form.warehouseChangeOk' });
    if (!ok) return false;
  }
  form.setFieldsValue({ warehouseId: next, items: [blankLine()], logisticStoreChannelId: 0, shippingCharge: '', cod: false });
  return true;
}

/** The warehouse: changing it once lines are chosen asks first ([`moveWarehouse`]). */
function WarehouseSelect({
  value,
  onChange,
  options,
  form,
}: {
  value?: number;
  onChange?: (v: number) => void;
  options: { value: number; label: string; disabled: boolean }[];
  form: FormInstance<OrderValues>;
}) {
  const { t } = useTranslation('orders');
  const pick = async (next: number) => {
    if (next !== value && (await moveWarehouse(form, next))) onChange?.(next);
  };
  return <Select value={value} onChange={(v: number) => void pick(v)} options={options} placeholder={t('orders:form.pickWarehouse')} data-testid="field-warehouseId" />;
}

/** The customer (picked from the store's, optional) and where the order goes: an address of
 * their book, or one typed (receiver, phone, email and the address with Thai autocomplete). */
function CustomerSection({ form, storeId }: { form: FormInstance<OrderValues>; storeId: number }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const canPick = useCan(CUSTOMER_PICK);
  const customerId = (Form.useWatch('customerId', form) as number | undefined) ?? 0;
  const addressId = (Form.useWatch('customerAddressId', form) as number | undefined) ?? 0;
  const abroad = useInternational(form, ['shippingAddress']);
  const rule = useCheck();
  const { data: customer } = useGetCustomerQuery({ id: storeId, customerId }, { skip: !customerId || !canPick });
  const { data: book, isFetching } = useListAddressesQuery({ id: storeId, customerId, limit: 50 }, { skip: !customerId || !canPick });
  const typed = !customerId || addressId === 0;

  // A customer named in the address (`?customerId=`) ships to their default address.
  useEffect(() => {
    if (customer && customer.id === customerId && form.getFieldValue('customerAddressId') === undefined) {
      form.setFieldValue('customerAddressId', customer.defaultAddressId || 0);
    }
  }, [customer, customerId, form]);

  const onPick = (c: CustomerBody) => {
    form.setFieldsValue({ customerId: c.id, customerAddressId: c.defaultAddressId || 0 });
    const a = form.getFieldValue('shippingAddress') as OrderValues['shippingAddress'];
    if (!a?.name && !a?.tel) form.setFieldsValue({ shippingAddress: { ...a, name: c.name, tel: c.tel } });
  };
  const drop = () => form.setFieldsValue({ customerId: 0, customerAddressId: 0 });

  return (
    <>
      <Form.Item name="customerId" hidden>
        <InputNumber />
      </Form.Item>
      {customerId ? (
        <Descriptions
          size="small"
          bordered
          column={1}
          style={{ marginBottom: 16 }}
          data-testid="order-customer"
          items={[
            {
              key: 'customer',
              label: t('orders:fields.customer'),
              children: (
                <Space wrap>
                  <span>{customer ? `${customer.name} · ${customer.tel}` : t('orders:form.customerNo', { id: customerId })}</span>
                  {canPick ? <CustomerPicker storeId={storeId} onPick={onPick} style={{ minWidth: 220 }} /> : null}
                  <Button type="link" onClick={drop} data-testid="customer-remove">
                    {t('orders:form.customerRemove')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      ) : canPick ? (
        <Form.Item label={t('orders:fields.customer')} extra={t('orders:form.customerHint')}>
          <CustomerPicker storeId={storeId} onPick={onPick} style={{ width: '100%', maxWidth: 420 }} />
        </Form.Item>
      ) : null}

      {customerId ? (
        <Form.Item name="customerAddressId" label={t('orders:form.shipTo')}>
          <Radio.Group style={{ width: '100%' }} data-testid="address-choice">
            <Space orientation="vertical" style={{ width: '100%' }}>
              {isFetching && !book ? <Spin size="small" /> : null}
              {canPick
                ? (book?.data ?? []).map((a: AddressBody) => (
                    <Radio key={a.id} value={a.id} data-testid={`address-${a.id}`}>
                      <Typography.Text strong>{a.name || customer?.name}</Typography.Text> {a.tel ? `· ${a.tel}` : ''}
                      <br />
                      <Typography.Text type="secondary">{addressLine(a, i18n.language)}</Typography.Text>
                    </Radio>
                  ))
                : null}
              <Radio value={0} data-testid="address-typed">
                {t('orders:form.typedAddress')}
              </Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
      ) : null}

      {typed ? (
      <div data-testid="typed-address">
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name={['shippingAddress', 'name']} label={t('orders:fields.receiver')} rules={[{ max: 200, message: t('common:validation.too_long') }]}>
              <Input data-testid="field-receiver" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['shippingAddress', 'tel']} label={t('orders:fields.tel')} rules={[rule(abroad ? checkInternationalPhone : checkThaiPhone, true)]}>
              <Input inputMode="tel" data-testid="field-receiver-tel" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['shippingAddress', 'email']} label={t('orders:fields.email')} rules={[rule(checkEmail)]}>
              <Input type="email" data-testid="field-receiver-email" />
            </Form.Item>
          </Col>
        </Row>
        <AddressFields form={form} prefix={['shippingAddress']} optional />
        <Typography.Paragraph type="secondary">{t('orders:form.addressHint')}</Typography.Paragraph>
      </div>
      ) : null}
    </>
  );
}

/** The order's lines: SKU (with its stock in the warehouse), quantity, price (the SKU's unless
 * typed), packing options, note, and the line's total. */
function OrderLines({
  form,
  facts,
  setFacts,
  known,
  maxItems,
}: {
  form: FormInstance<OrderValues>;
  facts: Map<number, SkuFacts>;
  setFacts: (f: (m: Map<number, SkuFacts>) => Map<number, SkuFacts>) => void;
  known: Map<number, string>;
  maxItems: number;
}) {
  const { t } = useTranslation(['orders', 'common']);
  const canPick = useCan(SKU_PICK);
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const lines: LineValues[] = (Form.useWatch('items', form) as LineValues[] | undefined) ?? [];
  const [loadProduct] = useLazyGetProductQuery();
  const required = { required: true, message: t('common:validation.required') };
  const priceRule = {
    validator: (_: unknown, v: string | undefined) => {
      const s = cleanAmount(v);
      if (!s) return Promise.resolve();
      const satang = toSatang(s);
      return satang === null || satang > 100_000_000 ? Promise.reject(new Error(t('common:validation.price'))) : Promise.resolve();
    },
  };

  const onPick = async (index: number, pick: SkuPick) => {
    form.setFieldValue(['items', index, 'productId'], pick.productId);
    if (!pick.productId) return;
    try {
      const p = await loadProduct({ id: pick.productId }, true).unwrap();
      const f = factsOf(p, pick.skuId);
      if (!f) return;
      setFacts((m) => new Map(m).set(pick.skuId, f));
      // The SKU's price, unless another SKU has been picked on the line since.
      if (form.getFieldValue(['items', index, 'skuId']) === pick.skuId) form.setFieldValue(['items', index, 'price'], bahtText(f.price));
    } catch {
      /* its price stays the server's to fill */
    }
  };

  if (!canPick) return <Alert type="warning" showIcon title={t('orders:form.noSkuRight')} data-testid="no-sku-right" />;
  return (
    <Form.List
      name="items"
      rules={[{ validator: (_, v: LineValues[] | undefined) => (v && v.some((l) => l?.skuId) ? Promise.resolve() : Promise.reject(new Error(t('orders:form.noLines')))) }]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          <ListView
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={fields}
            scroll={{ x: 930 }}
            fields="stacked"
            cardTestId={(f) => `line-${f.name}-card`}
            data-testid="order-lines"
            columns={[
              {
                title: t('orders:fields.sku'),
                key: 'sku',
                width: 260,
                render: (_: unknown, f) => (
                  <>
                    <Form.Item name={[f.name, 'productId']} hidden>
                      <InputNumber />
                    </Form.Item>
                    <Form.Item name={[f.name, 'skuId']} rules={[required]} style={{ margin: 0 }}>
                      <SkuSelect
                        warehouseId={warehouseId}
                        known={known}
                        onPick={(p) => void onPick(f.name, p)}
                        placeholder={t('orders:form.pickSku')}
                        availableText="orders:form.skuAvailable"
                        testId={`line-${f.name}-sku`}
                      />
                    </Form.Item>
                  </>
                ),
              },
              {
                title: t('orders:fields.quantity'),
                key: 'quantity',
                width: 90,
                render: (_: unknown, f) => (
                  <Form.Item name={[f.name, 'quantity']} rules={[required, { type: 'integer' as const, min: 1, max: MAX_QUANTITY, message: t('common:validation.quantity') }]} style={{ margin: 0 }}>
                    <InputNumber min={1} precision={0} inputMode="numeric" style={{ width: '100%' }} data-testid={`line-${f.name}-qty`} />
                  </Form.Item>
                ),
              },
              {
                title: t('orders:fields.price'),
                key: 'price',
                width: 130,
                render: (_: unknown, f) => {
                  const sku = lines[f.name]?.skuId;
                  const own = sku ? facts.get(sku) : undefined;
                  return (
                    <Form.Item name={[f.name, 'price']} rules={[priceRule]} style={{ margin: 0 }}>
                      <Input inputMode="decimal" suffix={t('common:money.unit')} placeholder={own ? bahtText(own.price) : t('orders:form.skuPrice')} data-testid={`line-${f.name}-price`} />
                    </Form.Item>
                  );
                },
              },
              {
                title: t('orders:fields.packingOptions'),
                key: 'packing',
                width: 160,
                render: (_: unknown, f) => (
                  <Form.Item
                    name={[f.name, 'packingOptions']}
                    rules={[{ validator: (_r, v: string[] | undefined) => ((v ?? []).length > MAX_PACKING || (v ?? []).some((o) => o.length > PACKING_MAX) ? Promise.reject(new Error(t('orders:validation.packing_options'))) : Promise.resolve()) }]}
                    style={{ margin: 0 }}
                  >
                    <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',']} placeholder={t('orders:form.packingPlaceholder')} data-testid={`line-${f.name}-packing`} />
                  </Form.Item>
                ),
              },
              {
                title: t('orders:fields.lineNote'),
                key: 'note',
                width: 150,
                render: (_: unknown, f) => (
                  <Form.Item name={[f.name, 'note']} style={{ margin: 0 }}>
                    <Input maxLength={LINE_NOTE_MAX} data-testid={`line-${f.name}-note`} />
                  </Form.Item>
                ),
              },
              {
                title: t('orders:fields.lineTotal'),
                key: 'lineTotal',
                width: 120,
                align: 'right' as const,
                render: (_: unknown, f) => {
                  const l = lines[f.name];
                  const price = l?.skuId ? linePrice(l, facts.get(l.skuId)) : null;
                  const qty = typeof l?.quantity === 'number' ? l.quantity : 0;
                  return <span data-testid={`line-${f.name}-total`}>{price === null ? '-' : formatBaht(bahtText(price * qty))}</span>;
                },
              },
              {
                title: '',
                key: 'remove',
                width: 50,
                fixed: 'right' as const,
                render: (_: unknown, f) => (
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('orders:form.removeLine')} data-testid={`line-${f.name}-remove`} />
                ),
              },
            ]}
          />
          <Form.ErrorList errors={errors} />
          <Space style={{ marginTop: 8 }} wrap>
            <Button icon={<PlusOutlined />} onClick={() => add(blankLine())} disabled={fields.length >= maxItems || !warehouseId} data-testid="add-line">
              {t('orders:form.addLine')}
            </Button>
            <Typography.Text type="secondary">{t('orders:form.linesHint')}</Typography.Text>
          </Space>
        </>
      )}
    </Form.List>
  );
}

interface Quote {
  /** The channel's price for this order, satang (null: none asked, or not yet). */
  price: number | null;
  /** Why the channel cannot take it (a message key), "" when it can. */
  reason: string;
  /** The price will be asked (typed none). */
  pending: boolean;
}

/** The chosen channel's price for the order as it stands (its weight, where it goes, its net,
 * COD), asked a moment after the last change; only while the shipping charge is not typed. */
function useShippingQuote(v: OrderValues, facts: Map<number, SkuFacts>): Quote {
  const [ask] = useQuoteShippingMutation();
  const [answer, setAnswer] = useState<{ key: string; price: number | null; reason: string } | null>(null);
  const customerId = v.customerId ?? 0;
  const addressId = v.customerAddressId ?? 0;
  const { storeId } = useParams();
  const canPick = useCan(CUSTOMER_PICK);
  const { data: book } = useListAddressesQuery({ id: Number(storeId), customerId, limit: 50 }, { skip: !customerId || !addressId || !canPick });
  const fromBook = customerId && addressId ? book?.data.find((a) => a.id === addressId) : undefined;
  const place = fromBook ?? v.shippingAddress ?? {};
  const country = place.country || 'TH';
  const channelId = v.logisticStoreChannelId ?? 0;
  const typed = cleanAmount(v.shippingCharge);
  const noPrice = formTotals({ ...v, logisticStoreChannelId: 0 }, facts);
  const wanted = channelId > 0 && !typed && Boolean(v.warehouseId);
  const request = wanted
    ? {
        warehouseId: v.warehouseId,
        weight: kgText(estimatedGrams(v, facts)),
        postcode: country === 'TH' ? (place.postcode ?? '') : '',
        country,
        orderTotal: bahtText(noPrice?.net ?? 0),
        cod: Boolean(v.cod),
      }
    : null;
  const key = request ? JSON.stringify({ ...request, channelId }) : '';
  useEffect(() => {
    if (!request) return;
    const timer = setTimeout(() => {
      ask({ quoteInput: request })
        .unwrap()
        .then((r) => {
          const q = r.data.find((x) => x.storeChannel.id === channelId);
          setAnswer({ key, price: q && q.available ? toSatang(q.price) : null, reason: q ? (q.available ? '' : q.reason) : 'order.logistic_channel_unknown' });
        })
        .catch(() => setAnswer({ key, price: null, reason: '' }));
    }, 400);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!wanted) return { price: null, reason: '', pending: false };
  const fresh = answer && answer.key === key ? answer : null;
  return { price: fresh?.price ?? null, reason: fresh?.reason ?? '', pending: true };
}

/** The shipping channel of the warehouse and its charge (priced by the channel when left
 * empty), COD where the channel collects it, a fee, the discount and VAT. */
function ChargesSection({ form, quote }: { form: FormInstance<OrderValues>; quote: Quote }) {
  const { t } = useTranslation(['orders', 'common']);
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const channelId = (Form.useWatch('logisticStoreChannelId', form) as number | undefined) ?? 0;
  const discountType = (Form.useWatch('discountType', form) as string | undefined) ?? '';
  const { data: channels } = useListLogisticChannelsQuery({ warehouseId, status: 'active', limit: -1 }, { skip: !warehouseId });
  const chosen: LogisticChannel | undefined = channels?.data.find((c) => c.id === channelId);
  const money = {
    validator: (_: unknown, v: string | undefined) => {
      const s = cleanAmount(v);
      if (!s) return Promise.resolve();
      const satang = toSatang(s);
      return satang === null || satang > 100_000_000 ? Promise.reject(new Error(t('common:validation.price'))) : Promise.resolve();
    },
  };
  const discountRule = {
    validator: (_: unknown, v: string | undefined) => {
      const s = cleanAmount(v);
      if (!s || !discountType) return Promise.resolve();
      if (discountType === 'percent') return percentBp(s) === null ? Promise.reject(new Error(t('orders:validation.percent'))) : Promise.resolve();
      const satang = toSatang(s);
      return satang === null || satang > 100_000_000 ? Promise.reject(new Error(t('common:validation.price'))) : Promise.resolve();
    },
  };

  // A channel that does not collect cash cannot carry COD.
  useEffect(() => {
    if (channels && !chosen?.cod && form.getFieldValue('cod')) form.setFieldValue('cod', false);
  }, [channels, chosen, form]);

  return (
    <>
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item name="logisticStoreChannelId" label={t('orders:fields.shippingChannel')}>
            <Select
              disabled={!warehouseId}
              options={[
                { value: 0, label: t('orders:form.noChannel') },
                ...(channels?.data ?? []).map((c) => ({ value: c.id, label: c.provider ? `${c.name} (${c.provider.nameTh})` : c.name })),
              ]}
              data-testid="field-channelId"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="shippingCharge"
            label={t('orders:fields.shippingCharge')}
            rules={[money]}
            extra={
              channelId > 0
                ? quote.reason
                  ? <span data-testid="quote-reason">{t([`orders:${quote.reason}`, `common:${quote.reason}`, 'orders:form.quoteFailed'])}</span>
                  : quote.price !== null
                    ? <span data-testid="quote-price">{t('orders:form.quoted', { price: formatBaht(bahtText(quote.price)) })}</span>
                    : t('orders:form.shippingHint')
                : null
            }
          >
            <Input inputMode="decimal" disabled={channelId === 0} suffix={t('common:money.unit')} placeholder={quote.price !== null ? bahtText(quote.price) : t('orders:form.byChannel')} data-testid="field-shippingCharge" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col xs={12} md={12}>
          <Form.Item name="cod" valuePropName="checked" label={t('orders:fields.cod')} extra={chosen && !chosen.cod ? t('orders:form.codNotOffered') : undefined}>
            <Switch disabled={!chosen?.cod} data-testid="field-cod" />
          </Form.Item>
        </Col>
        <Col xs={12} md={12}>
          <Form.Item name="additionalFee" label={t('orders:fields.additionalFee')} rules={[money]}>
            <Input inputMode="decimal" suffix={t('common:money.unit')} placeholder="0.00" data-testid="field-additionalFee" />
          </Form.Item>
        </Col>
      </Row>
      <Divider style={{ margin: '4px 0 16px' }} />
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item name="discountType" label={t('orders:fields.discount')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: '', label: t('orders:discount.none') },
                { value: 'fixed', label: t('orders:discount.fixed') },
                { value: 'percent', label: t('orders:discount.percent') },
              ]}
              onChange={() => form.setFieldValue('discountValue', '')}
              data-testid="field-discountType"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="discountValue" label={t('orders:fields.discountValue')} rules={[discountRule]} dependencies={['discountType']}>
            <Input inputMode="decimal" disabled={!discountType} suffix={discountType === 'percent' ? '%' : t('common:money.unit')} data-testid="field-discountValue" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="vatIncluded" valuePropName="checked" label={t('orders:fields.vatIncluded')} extra={t('orders:form.vatHint')}>
        <Switch data-testid="field-vatIncluded" />
      </Form.Item>
    </>
  );
}

/** What the order comes to as written (the server's rule), and that shipping is priced when
 * saved while the channel's price is not known. */
function TotalsView({
  totals,
  vatIncluded,
  shippingPending,
  discountType,
  discountValue,
}: {
  totals: Totals | null;
  vatIncluded: boolean;
  shippingPending: boolean;
  discountType: string;
  discountValue?: string;
}) {
  const { t } = useTranslation(['orders', 'common']);
  if (!totals) return <Typography.Text type="secondary">{t('orders:form.totalsUnreadable')}</Typography.Text>;
  const baht = (satang: number) => t('common:money.baht', { amount: formatBaht(bahtText(satang)) });
  const row = (key: string, label: string, value: string, strong = false) => (
    <div key={key} className="bo-page-head" style={{ marginBottom: 6 }}>
      <Typography.Text strong={strong}>{label}</Typography.Text>
      <Typography.Text strong={strong} data-testid={`total-${key}`}>
        {value}
      </Typography.Text>
    </div>
  );
  return (
    <div data-testid="order-totals">
      {row('subtotal', t('orders:totals.subtotal'), baht(totals.subtotal))}
      {discountType
        ? row('discount', discountType === 'percent' ? t('orders:totals.discountPercent', { value: cleanAmount(discountValue) || '0' }) : t('orders:totals.discount'), `-${baht(totals.discountAmount)}`)
        : null}
      {row('net', t('orders:totals.net'), baht(totals.net))}
      {row('shipping', t('orders:totals.shipping'), baht(totals.shippingTotal))}
      {totals.additionalFee ? row('fee', t('orders:totals.additionalFee'), baht(totals.additionalFee)) : null}
      {row('vat', t(vatIncluded ? 'orders:totals.vatIncluded' : 'orders:totals.vatAdded'), baht(totals.vatAmount))}
      <Divider style={{ margin: '8px 0' }} />
      {row('total', t('orders:totals.total'), baht(totals.total), true)}
      {shippingPending ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('orders:form.totalsEstimate')}
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}
