import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Spin, Switch, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useIsMobile } from '@/app/layouts/useDevice';
import { BottomBar } from '@/shared/list/Actions';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { checkRequired } from '@/shared/form/rules';
import { showServerErrors } from '@/shared/form/serverErrors';
import { useCheck } from '@/shared/form/useCheck';
import { STORE_CHANNEL } from './channel';
import { DraftPhotosCard, EMPTY_DRAFT, PhotosCard, type PhotoDraft } from './PhotosCard';
import { useAddPhotoFilesMutation, useCreateProductMutation, useGetProductQuery, useListCategoriesQuery, useUpdateProductMutation, type ProductInput } from './api';
import { optionsOf, skuGrid, stripPrefix, variantOption, type SkuDraft, type VariantDraft } from './variants';

interface Values {
  name: string;
  nameEn: string;
  shortDescription: string;
  description: string;
  code: string;
  hsCode: string;
  brand: string;
  tags: string[];
  categoryId: number;
  price: string;
  cost: string;
  vat: boolean;
  weight: string;
  barcode: string;
}

const MONEY = /^\d{1,8}(\.\d{1,2})?$/;
const checkMoney = (v: string) => (!v.trim() ? 'validation.required' : MONEY.test(v.replace(/,/g, '').trim()) ? null : 'validation.money');
const checkHs = (v: string) => (!v.trim() || /^(\d{6}|\d{8}|\d{10})$/.test(v.trim()) ? null : 'validation.hs_code');
const checkWeight = (v: string) => (!v.trim() || /^\d{1,4}(\.\d{1,3})?$/.test(v.trim()) ? null : 'validation.weight');

/** Create (/product-create/{channel}) and edit (/product-edit/{channel}/{id}) share this screen. */
export default function ProductFormPage() {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { storeId, productId } = useParams();
  const id = Number(storeId);
  const editing = productId !== undefined;
  const { data: current, isLoading } = useGetProductQuery({ id: Number(productId) }, { skip: !editing });
  const { data: categories } = useListCategoriesQuery();
  const [create, { isLoading: creating }] = useCreateProductMutation();
  const [update, { isLoading: updating }] = useUpdateProductMutation();
  const [addFiles, { isLoading: uploading }] = useAddPhotoFilesMutation();
  const [draft, setDraft] = useState<PhotoDraft>(EMPTY_DRAFT);
  const [form] = Form.useForm<Values>();
  const rule = useCheck();
  const navigate = useNavigate();
  const [variants, setVariants] = useState<VariantDraft[]>([]);
  const [skus, setSkus] = useState<SkuDraft[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const code = Form.useWatch('code', form) ?? '';
  const price = Form.useWatch('price', form) ?? '';
  const cost = Form.useWatch('cost', form) ?? '';
  const mobile = useIsMobile();

  // The saved product seeds the variants and SKUs while rendering (React's way to follow
  // data that arrives), and the form's fields once it has rendered.
  const [seededFrom, setSeededFrom] = useState<typeof current>();
  if (current && current !== seededFrom) {
    setSeededFrom(current);
    const vs: VariantDraft[] = [];
    if (current.variant1) vs.push({ name: stripPrefix(current.variant1), options: current.variant1Options });
    if (current.variant2) vs.push({ name: stripPrefix(current.variant2), options: current.variant2Options });
    setVariants(vs);
    setSkus(
      current.skus.map((s) => ({
        id: s.id,
        code: s.code,
        price: s.price,
        cost: s.cost,
        safetyStock: s.safetyStock,
        barcode: s.barcode,
        status: s.status === 'inactive' ? 'inactive' : 'active',
        options: optionsOf(vs, s.variantOption),
      })),
    );
  }
  useEffect(() => {
    if (current) form.setFieldsValue({ ...current, weight: current.weight === '0.000' ? '' : current.weight });
  }, [current, form]);

  // The SKU grid follows the variants (typed values are kept).
  const grid = useMemo(() => skuGrid(variants, skus, code, price, cost), [variants, skus, code, price, cost]);
  const setSku = (index: number, patch: Partial<SkuDraft>) => setSkus(grid.map((s, i) => (i === index ? { ...s, ...patch } : s)));

  const submit = async (v: Values) => {
    setProblems([]);
    const vs = variants.filter((x) => x.name.trim());
    const body: ProductInput = {
      name: v.name,
      nameEn: v.nameEn ?? '',
      shortDescription: v.shortDescription,
      description: v.description ?? '',
      code: v.code,
      hsCode: v.hsCode ?? '',
      brand: v.brand ?? '',
      tags: v.tags ?? [],
      categoryId: v.categoryId,
      price: v.price.replace(/,/g, ''),
      cost: v.cost.replace(/,/g, ''),
      vat: v.vat,
      weight: v.weight?.trim() ? v.weight.trim() : '0',
      barcode: v.barcode ?? '',
      variant1: vs[0] ? `1${vs[0].name.trim()}` : null,
      variant1Options: vs[0]?.options ?? [],
      variant2: vs[1] ? `2${vs[1].name.trim()}` : null,
      variant2Options: vs[1]?.options ?? [],
      skus: grid.map((s) => ({
        id: s.id ?? null,
        code: s.code,
        price: s.price.replace(/,/g, ''),
        cost: s.cost.replace(/,/g, ''),
        safetyStock: s.safetyStock,
        barcode: s.barcode,
        status: s.status,
        variantOption: variantOption(vs, s.options),
      })),
    };
    try {
      if (editing) {
        await update({ id: Number(productId), productInput: body }).unwrap();
        notifySuccess(t('products:form.updated'));
      } else {
        const created = await create({ productInput: body }).unwrap();
        notifySuccess(t('products:form.created'));
        if (!(await uploadDraft(created.id))) {
          // The product is saved; its pictures can be added again on its edit screen.
          notifyError(t('products:photos.errors.afterCreate'));
          navigate(`/${id}/product-edit/${STORE_CHANNEL}/${created.id}`);
          return;
        }
      }
      navigate(`/${id}/product-list/${STORE_CHANNEL}`);
    } catch (e) {
      const err = apiError(e);
      if (!err) return;
      if (err.code === 'invalid_body') {
        notifyError(t('common:errors.tryLater'));
        return;
      }
      showServerErrors(e, form, t, {
        codes: { code_taken: { field: 'code', message: 'products:errors.code_taken' } },
        only: ['name', 'shortDescription', 'code', 'hsCode', 'categoryId', 'price', 'cost', 'tags', 'weight'],
      });
      if (err.code === 'code_taken') {
        setProblems([t('products:errors.code_taken')]);
        return;
      }
      const fields = err.fields ?? [];
      setProblems(fields.map((f) => `${t(`products:fieldNames.${f.field.replace(/\[\d+\]/, '[]')}`, { defaultValue: f.field })}: ${t(`common:${f.code}`)}`));
    }
  };

  /** Uploads the pictures chosen before the product existed; false when the server refused them. */
  const uploadDraft = async (productId: number): Promise<boolean> => {
    try {
      if (draft.photos.length) await addFiles({ id: productId, files: draft.photos.map((p) => p.file), kind: 'photo' }).unwrap();
      if (draft.sizeChart) await addFiles({ id: productId, files: [draft.sizeChart.file], kind: 'size_chart' }).unwrap();
      return true;
    } catch {
      return false;
    }
  };

  if (editing && (isLoading || !current)) return <Spin />;
  const catOptions = (categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }));
  const skuColumns = [
    ...variants
      .filter((v) => v.name.trim())
      .map((v, vi) => ({ title: v.name, render: (_: unknown, s: SkuDraft) => s.options[vi], key: `v${vi}` })),
    {
      title: t('products:fields.skuCode'),
      key: 'code',
      render: (_: unknown, s: SkuDraft, i: number) => <Input value={s.code} onChange={(e) => setSku(i, { code: e.target.value })} data-testid={`sku-code-${i}`} />,
    },
    {
      title: t('products:fields.price'),
      key: 'price',
      render: (_: unknown, s: SkuDraft, i: number) => <Input inputMode="decimal" value={s.price} onChange={(e) => setSku(i, { price: e.target.value })} style={{ width: 110 }} />,
    },
    {
      title: t('products:fields.cost'),
      key: 'cost',
      render: (_: unknown, s: SkuDraft, i: number) => <Input inputMode="decimal" value={s.cost} onChange={(e) => setSku(i, { cost: e.target.value })} style={{ width: 110 }} />,
    },
    {
      title: t('products:fields.safetyStock'),
      key: 'safety',
      render: (_: unknown, s: SkuDraft, i: number) => (
        <InputNumber min={0} inputMode="numeric" value={s.safetyStock} onChange={(n) => setSku(i, { safetyStock: Number(n) || 0 })} style={{ width: 90 }} />
      ),
    },
    {
      title: t('products:fields.barcode'),
      key: 'barcode',
      render: (_: unknown, s: SkuDraft, i: number) => <Input value={s.barcode} onChange={(e) => setSku(i, { barcode: e.target.value })} />,
    },
    {
      title: t('products:fields.status'),
      key: 'status',
      render: (_: unknown, s: SkuDraft, i: number) => (
        <Switch checked={s.status === 'active'} onChange={(on) => setSku(i, { status: on ? 'active' : 'inactive' })} />
      ),
    },
  ];

  const saveButtons = (
    <>
      <Button onClick={() => navigate(`/${id}/product-list/${STORE_CHANNEL}`)}>{t('common:actions.cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={creating || updating || uploading} data-testid="product-save">
        {t('common:actions.save')}
      </Button>
    </>
  );

  return (
    <Form form={form} layout="vertical" onFinish={submit} initialValues={{ vat: true, tags: [] }} data-testid="product-form" scrollToFirstError>
      <div className="bo-page-head">
        <h1>{t(editing ? 'products:form.editTitle' : 'products:form.createTitle')}</h1>
        {mobile ? null : <Space>{saveButtons}</Space>}
      </div>
      {problems.length > 0 ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('products:form.problems')} description={problems.join(' · ')} /> : null}
      <Card title={t('products:form.basic')} style={{ marginBottom: 16 }}>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('products:fields.name')} rules={[rule((v) => checkRequired(v, 255))]}>
              <Input data-testid="field-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="nameEn" label={t('products:fields.nameEn')}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="code" label={t('products:fields.code')} rules={[rule((v) => checkRequired(v, 100))]}>
              <Input data-testid="field-code" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="categoryId" label={t('products:fields.category')} rules={[{ required: true, message: t('common:validation.category') }]}>
              <Select options={catOptions} showSearch optionFilterProp="label" data-testid="field-category" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="brand" label={t('products:fields.brand')}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="tags" label={t('products:fields.tags')} rules={[{ required: true, type: 'array', min: 1, message: t('common:validation.required') }]}>
              <Select mode="tags" tokenSeparators={[',']} open={false} data-testid="field-tags" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="shortDescription" label={t('products:fields.shortDescription')} rules={[rule((v) => checkRequired(v, 500))]}>
              <Input data-testid="field-short-description" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="description" label={t('products:fields.description')}>
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="hsCode" label={t('products:fields.hsCode')} rules={[rule(checkHs)]}>
              <Input inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="barcode" label={t('products:fields.barcode')}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="weight" label={t('products:fields.weight')} rules={[rule(checkWeight)]}>
              <Input inputMode="decimal" suffix={t('products:units.kg')} />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      {editing && current ? (
        <PhotosCard productId={current.id} photos={current.photos} sizeChart={current.sizeChart} />
      ) : (
        <DraftPhotosCard draft={draft} onChange={setDraft} />
      )}
      <Card title={t('products:form.pricing')} style={{ marginBottom: 16 }}>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="price" label={t('products:fields.price')} rules={[rule(checkMoney)]}>
              <Input inputMode="decimal" suffix={t('products:units.baht')} data-testid="field-price" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="cost" label={t('products:fields.cost')} rules={[rule(checkMoney)]}>
              <Input inputMode="decimal" suffix={t('products:units.baht')} data-testid="field-cost" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="vat" label={t('products:fields.vat')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card
        title={t('products:form.variants')}
        style={{ marginBottom: 16 }}
        extra={
          variants.length < 2 ? (
            <Button icon={<PlusOutlined />} onClick={() => setVariants([...variants, { name: '', options: [] }])} data-testid="variant-add">
              {t('products:form.addVariant')}
            </Button>
          ) : null
        }
      >
        {variants.length === 0 ? <Typography.Paragraph type="secondary">{t('products:form.noVariants')}</Typography.Paragraph> : null}
        {variants.map((v, vi) => (
          <Row gutter={12} key={vi} align="middle" style={{ marginBottom: 8 }}>
            <Col xs={24} md={6}>
              <Input
                placeholder={t('products:form.variantName')}
                value={v.name}
                onChange={(e) => setVariants(variants.map((x, i) => (i === vi ? { ...x, name: e.target.value } : x)))}
                data-testid={`variant-name-${vi}`}
              />
            </Col>
            <Col xs={20} md={16}>
              <Select
                mode="tags"
                open={false}
                style={{ width: '100%' }}
                placeholder={t('products:form.variantOptions')}
                value={v.options}
                tokenSeparators={[',']}
                onChange={(opts: string[]) =>
                  setVariants(variants.map((x, i) => (i === vi ? { ...x, options: [...new Set(opts.map((o) => o.trim()).filter(Boolean))] } : x)))
                }
                data-testid={`variant-options-${vi}`}
              />
            </Col>
            <Col xs={4} md={2}>
              <Button icon={<DeleteOutlined />} aria-label={t('common:actions.delete')} onClick={() => setVariants(variants.filter((_, i) => i !== vi))} />
            </Col>
          </Row>
        ))}
      </Card>
      <Card title={t('products:form.skus')}>
        {mobile ? (
          <SkuCards variants={variants} grid={grid} setSku={setSku} />
        ) : (
          <Table<SkuDraft> rowKey={(s) => s.options.join('|') || 'single'} columns={skuColumns} dataSource={grid} pagination={false} size="small" scroll={{ x: 760 }} data-testid="sku-grid" />
        )}
      </Card>
      {mobile ? <BottomBar data-testid="product-form-actions">{saveButtons}</BottomBar> : null}
    </Form>
  );
}

/** The SKUs on a phone: one stacked card each (its options, then its fields under their
 * labels) instead of a table too wide for the screen. */
function SkuCards({ variants, grid, setSku }: { variants: VariantDraft[]; grid: SkuDraft[]; setSku: (index: number, patch: Partial<SkuDraft>) => void }) {
  const { t } = useTranslation(['products', 'common']);
  const named = variants.filter((v) => v.name.trim());
  const label = (text: string, control: ReactNode, half = false) => (
    <Col span={half ? 12 : 24}>
      <label style={{ display: 'block', marginBottom: 8 }}>
        <span className="bo-card-sub">{text}</span>
        {control}
      </label>
    </Col>
  );
  return (
    <div data-testid="sku-grid" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {grid.map((s, i) => (
        <Card
          key={s.options.join('|') || 'single'}
          size="small"
          data-testid={`sku-card-${i}`}
          title={named.length ? named.map((v, vi) => `${v.name}: ${s.options[vi] ?? ''}`).join(' · ') : t('products:form.singleSku')}
          extra={
            <Switch
              checked={s.status === 'active'}
              onChange={(on) => setSku(i, { status: on ? 'active' : 'inactive' })}
              checkedChildren={t('products:status.active')}
              unCheckedChildren={t('products:status.inactive')}
              aria-label={t('products:fields.status')}
            />
          }
        >
          <Row gutter={8}>
            {label(t('products:fields.skuCode'), <Input value={s.code} onChange={(e) => setSku(i, { code: e.target.value })} data-testid={`sku-code-${i}`} />)}
            {label(t('products:fields.price'), <Input inputMode="decimal" value={s.price} onChange={(e) => setSku(i, { price: e.target.value })} suffix={t('products:units.baht')} />, true)}
            {label(t('products:fields.cost'), <Input inputMode="decimal" value={s.cost} onChange={(e) => setSku(i, { cost: e.target.value })} suffix={t('products:units.baht')} />, true)}
            {label(
              t('products:fields.safetyStock'),
              <InputNumber min={0} inputMode="numeric" value={s.safetyStock} onChange={(n) => setSku(i, { safetyStock: Number(n) || 0 })} style={{ width: '100%' }} />,
              true,
            )}
            {label(t('products:fields.barcode'), <Input value={s.barcode} onChange={(e) => setSku(i, { barcode: e.target.value })} />, true)}
          </Row>
        </Card>
      ))}
    </div>
  );
}
