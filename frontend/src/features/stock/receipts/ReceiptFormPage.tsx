import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  Button,
  Card,
  Checkbox,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  TimePicker,
  Typography,
  type FormInstance,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { useIsMobile } from '@/app/layouts/useDevice';
import { notifySuccess } from '@/shared/dialogs/notify';
import { checkThaiPhone } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { BottomBar } from '@/shared/list/Actions';
import { useListStoreUnitsQuery } from '@/features/settings/api';
import { useCreateGoodsReceiptMutation, useGetGoodsReceiptQuery, useListWarehousesQuery, useUpdateGoodsReceiptMutation } from '../api';
import { CardPair, EraDatePicker, SkuPicker, StateTag } from './parts';
import {
  boardPath,
  checkCost,
  checkWeight,
  detailPath,
  inputOf,
  isType,
  linePieces,
  newLine,
  newValues,
  NOTE_MAX,
  OPTIONS,
  piecesPerUnit,
  satangText,
  totalCostSatang,
  valuesOf,
  type LineValues,
  type ReceiptType,
  type ReceiptValues,
  type UnitChoice,
} from './receipts';
import { showFormRefusal } from './refusal';

const MAX_CM = 10_000;

/** /stock-management-goods-receipt-create/{type} and …-edit/{type}/{id} (SPEC §2, §3, §5): a
 * goods receipt draft of products (SKU, unit, cost, quantity, expiry, labels), or of parcels or
 * materials (name, size, quantity, cost); when the goods come, whether the warehouse picks them
 * up, packagings and options. Saving writes the whole draft and opens it. On a phone the form
 * is one column, each line a box of its fields, and the save button sits at the foot. */
export default function ReceiptFormPage() {
  const { type, id } = useParams();
  // Another type or receipt is another form: nothing of the last one's lines carries over.
  return <ReceiptForm key={`${type ?? ''}-${id ?? 'new'}`} />;
}

function ReceiptForm() {
  const { t } = useTranslation(['receipts', 'common']);
  const { storeId, type: typeParam, id: idParam } = useParams();
  const editing = idParam !== undefined;
  const receiptId = Number(idParam);
  const navigate = useNavigate();
  const current = useGetGoodsReceiptQuery({ id: receiptId }, { skip: !editing });
  const { data: warehouses, isLoading: loadingWarehouses } = useListWarehousesQuery();
  const { data: units } = useListStoreUnitsQuery({ id: Number(storeId), limit: -1 });
  const [create, { isLoading: creating }] = useCreateGoodsReceiptMutation();
  const [update, { isLoading: updating }] = useUpdateGoodsReceiptMutation();
  const [form] = Form.useForm<ReceiptValues>();
  const loaded = useRef(false);
  const mobile = useIsMobile();
  const type: ReceiptType | null = editing ? (isType(current.data?.type) ? current.data.type : isType(typeParam) ? typeParam : null) : isType(typeParam) ? typeParam : null;

  // An edited draft's values, once; a new draft starts at the store's default warehouse.
  useEffect(() => {
    if (editing && current.data && !loaded.current) {
      form.setFieldsValue(valuesOf(current.data));
      loaded.current = true;
    }
  }, [editing, current.data, form]);
  useEffect(() => {
    if (!editing && warehouses && form.getFieldValue('warehouseId') === undefined) {
      const first = warehouses.data.find((w) => w.isDefault && w.active) ?? warehouses.data.find((w) => w.active);
      if (first) form.setFieldValue('warehouseId', first.id);
    }
  }, [editing, warehouses, form]);

  // The units a line may be counted in: pieces, the store's units, and any an edited line
  // already names.
  const unitChoices: UnitChoice[] = useMemo(() => {
    const list: UnitChoice[] = [{ id: 0, name: '', pieces: 1 }];
    for (const u of units?.data ?? []) list.push({ id: u.id, name: u.name, pieces: piecesPerUnit(u) });
    for (const l of current.data?.items ?? []) {
      if (l.unit.id && !list.some((u) => u.id === l.unit.id)) list.push({ id: l.unit.id, name: l.unit.name, pieces: l.unit.quantity });
    }
    return list;
  }, [units, current.data]);
  const knownSkus = useMemo(() => {
    const m = new Map<number, string>();
    for (const l of current.data?.items ?? []) {
      const variant = [l.option1, l.option2].filter(Boolean).join(' / ');
      m.set(l.skuId, `${l.productName}${variant ? ` (${variant})` : ''} · ${l.skuCode}`);
    }
    return m;
  }, [current.data]);

  if (type === null && !(editing && current.isLoading)) {
    return (
      <Result
        status="404"
        title={t(editing && current.isError ? 'receipts:errors.goods_receipt_not_found' : 'receipts:form.unknownType')}
        extra={<Button onClick={() => navigate(boardPath(storeId ?? '', 'draft'))}>{t('receipts:board.back')}</Button>}
      />
    );
  }
  if (editing && current.data && current.data.state !== 'draft') {
    return (
      <Result
        status="warning"
        title={t('receipts:form.notDraft', { code: current.data.code })}
        subTitle={<StateTag state={current.data.state} />}
        extra={<Button onClick={() => navigate(detailPath(storeId ?? '', current.data!.state, receiptId))}>{t('receipts:form.toDetail')}</Button>}
      />
    );
  }

  const submit = async (v: ReceiptValues) => {
    if (!type) return;
    const body = inputOf(type, v);
    try {
      const r = editing ? await update({ id: receiptId, goodsReceiptInput: body }).unwrap() : await create({ goodsReceiptInput: body }).unwrap();
      notifySuccess(t(editing ? 'receipts:form.updated' : 'receipts:form.created', { code: r.code }));
      navigate(detailPath(storeId ?? '', r.state, r.id));
    } catch (e) {
      showFormRefusal(e, form, t);
    }
  };

  const back = () => (editing ? navigate(detailPath(storeId ?? '', 'draft', receiptId)) : navigate(boardPath(storeId ?? '', 'draft')));
  const warehouseOptions = (warehouses?.data ?? [])
    .filter((w) => w.active || w.id === current.data?.warehouseId)
    .map((w) => ({ value: w.id, label: w.active ? w.name : `${w.name} (${t('receipts:form.inactive')})`, disabled: !w.active }));
  const required = { required: true, message: t('common:validation.required') };

  return (
    <Card>
      <div className="bo-page-head">
        <h1>
          {editing
            ? t('receipts:form.editTitle', { code: current.data?.code ?? '' })
            : t('receipts:form.createTitle', { type: t(`receipts:types.${type ?? 'product'}`) })}
        </h1>
        {type ? <Tag color="blue">{t(`receipts:types.${type}`)}</Tag> : null}
      </div>
      <Spin spinning={(editing && current.isLoading) || loadingWarehouses}>
        <Form<ReceiptValues>
          form={form}
          layout="vertical"
          initialValues={newValues(type ?? 'product')}
          onFinish={(v) => void submit(v)}
          requiredMark={false}
          scrollToFirstError
          data-testid="receipt-form"
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="warehouseId" label={t('receipts:fields.warehouse')} rules={[required]}>
                <Select options={warehouseOptions} placeholder={t('receipts:form.pickWarehouse')} data-testid="field-warehouseId" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="expectedReceivedDate" label={t('receipts:fields.expectedDate')} rules={[required]}>
                <EraDatePicker placeholder={t('receipts:form.pickDate')} data-testid="field-expectedReceivedDate" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="expectedReceivedTime" label={t('receipts:fields.expectedTime')}>
                <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} placeholder={t('receipts:form.pickTime')} data-testid="field-expectedReceivedTime" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="note" label={t('receipts:fields.note')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={NOTE_MAX} showCount placeholder={t('receipts:form.notePlaceholder')} data-testid="field-note" />
          </Form.Item>

          <PickUpFields />

          <Divider titlePlacement="start">{t(type === 'product' ? 'receipts:form.productLines' : 'receipts:form.itemLines')}</Divider>
          {type === 'product' ? <ProductLines form={form} units={unitChoices} knownSkus={knownSkus} /> : <ItemLines form={form} type={type ?? 'parcel'} />}

          <Divider titlePlacement="start">{t('receipts:fields.packagings')}</Divider>
          <Packagings />

          <Divider titlePlacement="start">{t('receipts:fields.options')}</Divider>
          <Form.Item name="options">
            <Checkbox.Group data-testid="field-options">
              <Space orientation="vertical">
                {OPTIONS.map((o) => (
                  <Checkbox key={o} value={o} data-testid={`option-${o}`}>
                    {t(`receipts:options.${o}`)}
                  </Checkbox>
                ))}
              </Space>
            </Checkbox.Group>
          </Form.Item>

          <BottomBar data-testid="receipt-form-actions">
            <Button onClick={back} data-testid="receipt-cancel">
              {t('common:actions.cancel')}
            </Button>
            <Button type="primary" htmlType="submit" loading={creating || updating} style={mobile ? { flex: 1 } : undefined} data-testid="receipt-save">
              {t('receipts:form.save')}
            </Button>
          </BottomBar>
        </Form>
      </Spin>
    </Card>
  );
}

/** Whether the warehouse picks the goods up, and where, whom to call and when. */
function PickUpFields() {
  const { t } = useTranslation(['receipts', 'common']);
  const rule = useCheck();
  const form = Form.useFormInstance<ReceiptValues>();
  const on = Form.useWatch('isPickUp', form);
  const required = { required: true, message: t('common:validation.required') };
  return (
    <>
      <Form.Item name="isPickUp" valuePropName="checked" label={t('receipts:fields.isPickUp')} extra={t('receipts:form.pickUpHint')}>
        <Switch data-testid="field-isPickUp" />
      </Form.Item>
      {on ? (
        <Card size="small" style={{ marginBottom: 16 }} data-testid="pick-up">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name={['pickUp', 'address']} label={t('receipts:fields.pickUpAddress')} rules={[{ ...required, whitespace: true }]}>
                <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} data-testid="field-pickUp-address" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name={['pickUp', 'tel']} label={t('receipts:fields.pickUpTel')} rules={[rule(checkThaiPhone)]}>
                <Input inputMode="tel" maxLength={12} data-testid="field-pickUp-tel" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name={['pickUp', 'expectedPickedUpAt']} label={t('receipts:fields.pickUpAt')} rules={[required]}>
                <EraDatePicker showTime={{ format: 'HH:mm', minuteStep: 5 }} placeholder={t('receipts:form.pickDateTime')} data-testid="field-pickUp-at" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
      ) : null}
    </>
  );
}

function useLineRules() {
  const { t } = useTranslation(['receipts', 'common']);
  const required = { required: true, message: t('common:validation.required') };
  const check = (fn: (v: string) => string | null) => ({
    validator: (_: unknown, v: string | undefined) => {
      const code = fn(v ?? '');
      return code ? Promise.reject(new Error(t([`receipts:${code}`, `common:${code}`]))) : Promise.resolve();
    },
  });
  const quantity = [required, { type: 'integer' as const, min: 1, message: t('common:validation.quantity') }];
  return { required, check, quantity };
}

/** The lines' total: pieces and cost, as typed so far. */
function Totals({ lines, units }: { lines: LineValues[]; units?: UnitChoice[] }) {
  const { t } = useTranslation('receipts');
  const perUnit = (id?: number) => units?.find((u) => u.id === (id ?? 0))?.pieces ?? 1;
  const pieces = lines.reduce((n, l) => n + linePieces(l?.requestQty, units ? perUnit(l?.unitId) : 1), 0);
  const cost = totalCostSatang(lines.map((l) => ({ cost: l?.cost, requestQty: l?.requestQty })));
  const mobile = useIsMobile();
  return (
    <Space
      size={mobile ? [16, 4] : 'large'}
      wrap={mobile}
      style={{ justifyContent: mobile ? 'flex-start' : 'flex-end', width: '100%', margin: mobile ? '8px 0 12px' : '8px 0 16px' }}
      data-testid="receipt-totals"
    >
      <Typography.Text>
        {t('receipts:form.totalLines', { count: lines.length })}
      </Typography.Text>
      <Typography.Text>
        {t('receipts:form.totalPieces')} <strong data-testid="total-pieces">{pieces.toLocaleString('en-US')}</strong>
      </Typography.Text>
      <Typography.Text>
        {t('receipts:form.totalCost')} <strong data-testid="total-cost">{t('common:money.baht', { amount: satangText(cost) })}</strong>
      </Typography.Text>
    </Space>
  );
}

/** How a line's field sits: in a table cell without a label on a desktop, under its label in
 * the line's box on a phone. */
function useCell() {
  const mobile = useIsMobile();
  return { mobile, cell: (label: string) => (mobile ? { label } : { style: { margin: 0 } }) };
}

/** A line on a phone: a box of its fields, headed by its number and its remove button. */
function LineBox({ n, removeLabel, onRemove, testId, children }: { n: number; removeLabel: string; onRemove: () => void; testId: string; children: ReactNode }) {
  const { t } = useTranslation('receipts');
  return (
    <div data-testid={testId} style={{ border: '1px solid #e5e7eb', borderRadius: 8, padding: '8px 12px', marginBottom: 8, minWidth: 0 }}>
      <div className="bo-card-row" style={{ alignItems: 'center', marginBottom: 4 }}>
        <span className="bo-card-title">{t('receipts:form.lineNo', { n })}</span>
        <Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={removeLabel} data-testid={`${testId}-remove`} />
      </div>
      {children}
    </div>
  );
}

/** Under the lines: the button adding one, and the totals (one under the other on a phone). */
function LinesFoot({ onAdd, totals }: { onAdd: () => void; totals: ReactNode }) {
  const { t } = useTranslation('receipts');
  const mobile = useIsMobile();
  const add = (
    <Button icon={<PlusOutlined />} onClick={onAdd} block={mobile} data-testid="add-line">
      {t('receipts:form.addLine')}
    </Button>
  );
  if (mobile) {
    return (
      <div style={{ marginTop: 8 }}>
        {add}
        {totals}
      </div>
    );
  }
  return (
    <div className="bo-page-head" style={{ marginTop: 8 }}>
      {add}
      {totals}
    </div>
  );
}

/** A product receipt's lines: SKU, unit, cost of one unit, units asked for (and the pieces
 * they make), expiry and whether to print SKU labels. */
function ProductLines({ form, units, knownSkus }: { form: FormInstance<ReceiptValues>; units: UnitChoice[]; knownSkus: Map<number, string> }) {
  const { t } = useTranslation(['receipts', 'common']);
  const { required, check, quantity } = useLineRules();
  const { mobile, cell } = useCell();
  const lines: LineValues[] = Form.useWatch('products', form) ?? [];
  const perUnit = (id?: number) => units.find((u) => u.id === (id ?? 0))?.pieces ?? 1;
  const unitOptions = units.map((u) => ({
    value: u.id,
    label: u.id === 0 ? t('receipts:units.piece') : t('receipts:units.named', { name: u.name, count: u.pieces }),
  }));
  type Field = { key: number; name: number };
  const skuCell = (f: Field) => (
    <Form.Item name={[f.name, 'skuId']} rules={[required]} {...cell(t('receipts:fields.sku'))}>
      <SkuPicker known={knownSkus} testId={`line-${f.name}-sku`} />
    </Form.Item>
  );
  const unitCell = (f: Field) => (
    <Form.Item name={[f.name, 'unitId']} {...cell(t('receipts:fields.unit'))}>
      <Select options={unitOptions} data-testid={`line-${f.name}-unit`} />
    </Form.Item>
  );
  const costCell = (f: Field) => (
    <Form.Item name={[f.name, 'cost']} rules={[check(checkCost)]} {...cell(t('receipts:fields.cost'))}>
      <Input inputMode="decimal" suffix={t('common:money.unit')} placeholder="0.00" data-testid={`line-${f.name}-cost`} />
    </Form.Item>
  );
  const qtyCell = (f: Field) => {
    const l = lines[f.name];
    const per = perUnit(l?.unitId);
    const pieces =
      per > 1 ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`line-${f.name}-pieces`}>
          {t('receipts:form.linePieces', { count: linePieces(l?.requestQty, per) })}
        </Typography.Text>
      ) : null;
    return (
      <>
        <Form.Item name={[f.name, 'requestQty']} rules={quantity} {...cell(t('receipts:fields.requestQty'))} extra={mobile ? pieces : undefined}>
          <InputNumber precision={0} inputMode="numeric" style={{ width: '100%' }} data-testid={`line-${f.name}-qty`} />
        </Form.Item>
        {mobile ? null : pieces}
      </>
    );
  };
  const expiryCell = (f: Field) => (
    <Form.Item name={[f.name, 'expiredAt']} {...cell(t('receipts:fields.expiredAt'))}>
      <EraDatePicker placeholder={t('receipts:form.noExpiry')} data-testid={`line-${f.name}-expiry`} />
    </Form.Item>
  );
  const labelCell = (f: Field) =>
    mobile ? (
      <Form.Item name={[f.name, 'printLabel']} valuePropName="checked">
        <Checkbox data-testid={`line-${f.name}-label`}>{t('receipts:fields.printLabel')}</Checkbox>
      </Form.Item>
    ) : (
      <Form.Item name={[f.name, 'printLabel']} valuePropName="checked" style={{ margin: 0 }}>
        <Checkbox aria-label={t('receipts:fields.printLabel')} data-testid={`line-${f.name}-label`} />
      </Form.Item>
    );
  const totalCell = (f: Field) => {
    const l = lines[f.name];
    return <span data-testid={`line-${f.name}-total`}>{satangText(totalCostSatang([{ cost: l?.cost, requestQty: l?.requestQty }]))}</span>;
  };
  return (
    <Form.List
      name="products"
      rules={[{ validator: (_, v: unknown[] | undefined) => (v && v.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('receipts:form.noLines')))) }]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {mobile ? (
            <div data-testid="product-lines">
              {fields.map((f) => (
                <LineBox key={f.key} n={f.name + 1} removeLabel={t('receipts:form.removeLine')} onRemove={() => remove(f.name)} testId={`line-${f.name}`}>
                  {skuCell(f)}
                  {unitCell(f)}
                  {qtyCell(f)}
                  {costCell(f)}
                  {expiryCell(f)}
                  {labelCell(f)}
                  <CardPair label={t('receipts:fields.lineCost')}>
                    <strong>{totalCell(f)}</strong>
                  </CardPair>
                </LineBox>
              ))}
            </div>
          ) : (
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              dataSource={fields}
              scroll={{ x: 1100 }}
              data-testid="product-lines"
              columns={[
                { title: t('receipts:fields.sku'), key: 'sku', width: 300, render: (_: unknown, f) => skuCell(f) },
                { title: t('receipts:fields.unit'), key: 'unit', width: 150, render: (_: unknown, f) => unitCell(f) },
                { title: t('receipts:fields.cost'), key: 'cost', width: 130, render: (_: unknown, f) => costCell(f) },
                { title: t('receipts:fields.requestQty'), key: 'qty', width: 130, render: (_: unknown, f) => qtyCell(f) },
                { title: t('receipts:fields.expiredAt'), key: 'expiredAt', width: 170, render: (_: unknown, f) => expiryCell(f) },
                { title: t('receipts:fields.printLabel'), key: 'printLabel', width: 90, align: 'center' as const, render: (_: unknown, f) => labelCell(f) },
                { title: t('receipts:fields.lineCost'), key: 'lineCost', width: 120, align: 'right' as const, render: (_: unknown, f) => totalCell(f) },
                {
                  title: '',
                  key: 'remove',
                  width: 50,
                  fixed: 'right' as const,
                  render: (_: unknown, f) => (
                    <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('receipts:form.removeLine')} data-testid={`line-${f.name}-remove`} />
                  ),
                },
              ]}
            />
          )}
          <Form.ErrorList errors={errors} />
          <LinesFoot onAdd={() => add(newLine('product'))} totals={<Totals lines={lines} units={units} />} />
        </>
      )}
    </Form.List>
  );
}

/** Width, length and height in cm and weight in kg, of `at` (a line's or a packaging's). */
function DimensionFields({ at, testId }: { at: (string | number)[]; testId: string }) {
  const { t } = useTranslation(['receipts', 'common']);
  const { check } = useLineRules();
  const cm = (key: 'width' | 'length' | 'height') => (
    <Form.Item name={[...at, 'dimension', key]} style={{ margin: 0 }} rules={[{ type: 'integer' as const, min: 0, max: MAX_CM, message: t('receipts:validation.range') }]}>
      <InputNumber min={0} max={MAX_CM} precision={0} inputMode="numeric" placeholder={t(`receipts:dimension.${key}`)} aria-label={t(`receipts:dimension.${key}`)} style={{ width: 76 }} data-testid={`${testId}-${key}`} />
    </Form.Item>
  );
  return (
    <Space size={4} align="start" wrap>
      {cm('width')}
      {cm('length')}
      {cm('height')}
      <Typography.Text type="secondary" style={{ lineHeight: '32px' }}>
        {t('receipts:dimension.cm')}
      </Typography.Text>
      <Form.Item name={[...at, 'dimension', 'weight']} style={{ margin: 0 }} rules={[check(checkWeight)]}>
        <Input inputMode="decimal" placeholder={t('receipts:dimension.weight')} aria-label={t('receipts:dimension.weight')} suffix={t('receipts:dimension.kg')} style={{ width: 110 }} data-testid={`${testId}-weight`} />
      </Form.Item>
    </Space>
  );
}

/** A parcel or material receipt's lines: what it is, its size, how many, and cost. */
function ItemLines({ form, type }: { form: FormInstance<ReceiptValues>; type: ReceiptType }) {
  const { t } = useTranslation(['receipts', 'common']);
  const { required, check, quantity } = useLineRules();
  const { mobile, cell } = useCell();
  const lines: LineValues[] = Form.useWatch('products', form) ?? [];
  type Field = { key: number; name: number };
  const nameCell = (f: Field) => (
    <Form.Item name={[f.name, 'name']} rules={[{ ...required, whitespace: true }, { max: 200, message: t('common:validation.too_long') }]} {...cell(t(`receipts:fields.itemName.${type}`))}>
      <Input maxLength={200} placeholder={t(`receipts:form.itemPlaceholder.${type}`)} data-testid={`line-${f.name}-name`} />
    </Form.Item>
  );
  const dimensionCell = (f: Field) => <DimensionFields at={[f.name]} testId={`line-${f.name}`} />;
  const qtyCell = (f: Field) => (
    <Form.Item name={[f.name, 'requestQty']} rules={quantity} {...cell(t('receipts:fields.requestQty'))}>
      <InputNumber precision={0} inputMode="numeric" style={{ width: '100%' }} data-testid={`line-${f.name}-qty`} />
    </Form.Item>
  );
  const costCell = (f: Field) => (
    <Form.Item name={[f.name, 'cost']} rules={[check(checkCost)]} {...cell(t('receipts:fields.cost'))}>
      <Input inputMode="decimal" suffix={t('common:money.unit')} placeholder="0.00" data-testid={`line-${f.name}-cost`} />
    </Form.Item>
  );
  return (
    <Form.List
      name="products"
      rules={[{ validator: (_, v: unknown[] | undefined) => (v && v.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('receipts:form.noLines')))) }]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {mobile ? (
            <div data-testid="item-lines">
              {fields.map((f) => (
                <LineBox key={f.key} n={f.name + 1} removeLabel={t('receipts:form.removeLine')} onRemove={() => remove(f.name)} testId={`line-${f.name}`}>
                  {nameCell(f)}
                  <Form.Item label={t('receipts:fields.dimension')}>{dimensionCell(f)}</Form.Item>
                  {qtyCell(f)}
                  {costCell(f)}
                </LineBox>
              ))}
            </div>
          ) : (
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              dataSource={fields}
              scroll={{ x: 980 }}
              data-testid="item-lines"
              columns={[
                { title: t(`receipts:fields.itemName.${type}`), key: 'name', width: 260, render: (_: unknown, f) => nameCell(f) },
                { title: t('receipts:fields.dimension'), key: 'dimension', width: 400, render: (_: unknown, f) => dimensionCell(f) },
                { title: t('receipts:fields.requestQty'), key: 'qty', width: 110, render: (_: unknown, f) => qtyCell(f) },
                { title: t('receipts:fields.cost'), key: 'cost', width: 130, render: (_: unknown, f) => costCell(f) },
                {
                  title: '',
                  key: 'remove',
                  width: 50,
                  fixed: 'right' as const,
                  render: (_: unknown, f) => (
                    <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('receipts:form.removeLine')} data-testid={`line-${f.name}-remove`} />
                  ),
                },
              ]}
            />
          )}
          <Form.ErrorList errors={errors} />
          <LinesFoot onAdd={() => add(newLine(type))} totals={<Totals lines={lines} />} />
        </>
      )}
    </Form.List>
  );
}

/** How the goods are packed: name, how many, and optionally their size. */
function Packagings() {
  const { t } = useTranslation(['receipts', 'common']);
  const { required, quantity } = useLineRules();
  const mobile = useIsMobile();
  return (
    <Form.List name="packagings">
      {(fields, { add, remove }) => (
        <>
          {fields.length === 0 ? (
            <Typography.Paragraph type="secondary" data-testid="no-packagings">
              {t('receipts:form.noPackagings')}
            </Typography.Paragraph>
          ) : null}
          {fields.map((f) =>
            mobile ? (
              // A phone: name and the remove button, then how many, then the size.
              <div key={f.key} data-testid={`packaging-${f.name}`} style={{ border: '1px solid #e5e7eb', borderRadius: 8, padding: '8px 12px', marginBottom: 8 }}>
                <div style={{ display: 'flex', gap: 4, alignItems: 'flex-start' }}>
                  <Form.Item name={[f.name, 'name']} rules={[{ ...required, whitespace: true }]} style={{ flex: 1, minWidth: 0 }} label={t('receipts:form.packagingName')}>
                    <Input maxLength={100} data-testid={`packaging-${f.name}-name`} />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('receipts:form.removePackaging')} data-testid={`packaging-${f.name}-remove`} />
                </div>
                <Form.Item name={[f.name, 'quantity']} rules={quantity} label={t('receipts:fields.quantity')}>
                  <InputNumber precision={0} inputMode="numeric" style={{ width: '100%' }} data-testid={`packaging-${f.name}-quantity`} />
                </Form.Item>
                <DimensionFields at={[f.name]} testId={`packaging-${f.name}`} />
              </div>
            ) : (
            <Row key={f.key} gutter={8} align="top" style={{ marginBottom: 8 }} data-testid={`packaging-${f.name}`}>
              <Col xs={24} md={7}>
                <Form.Item name={[f.name, 'name']} rules={[{ ...required, whitespace: true }]} style={{ margin: 0 }}>
                  <Input maxLength={100} placeholder={t('receipts:form.packagingName')} aria-label={t('receipts:form.packagingName')} data-testid={`packaging-${f.name}-name`} />
                </Form.Item>
              </Col>
              <Col xs={8} md={3}>
                <Form.Item name={[f.name, 'quantity']} rules={quantity} style={{ margin: 0 }}>
                  <InputNumber precision={0} inputMode="numeric" placeholder={t('receipts:fields.quantity')} aria-label={t('receipts:fields.quantity')} style={{ width: '100%' }} data-testid={`packaging-${f.name}-quantity`} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <DimensionFields at={[f.name]} testId={`packaging-${f.name}`} />
              </Col>
              <Col xs={2} md={2}>
                <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('receipts:form.removePackaging')} data-testid={`packaging-${f.name}-remove`} />
              </Col>
            </Row>
            ),
          )}
          <Button icon={<PlusOutlined />} onClick={() => add({ name: '', quantity: 1, dimension: {} })} block={mobile} data-testid="add-packaging">
            {t('receipts:form.addPackaging')}
          </Button>
        </>
      )}
    </Form.List>
  );
}
