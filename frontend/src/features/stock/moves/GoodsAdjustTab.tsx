import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatDateTime } from '@/shared/i18n/i18n';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { useCreateGoodsAdjustMutation, useListGoodsAdjustQuery, useListWarehousesQuery, type GoodsAdjustBody } from '../api';
import { LotTakes } from '../LotBits';
import { ADJUST_CREATE } from '../routes';
import { SkuSelect } from '../SkuSelect';

interface AdjustValues {
  warehouseId: number;
  skuId: number;
  quantity: number;
  reason: string;
}

/** Goods adjust, on the stock moves tab screen (SPEC §2): increase or decrease with a reason;
 * the list says who adjusted, why, and which lots the units came from (or went into). */
export function GoodsAdjustTab() {
  const { t, i18n } = useTranslation(['stock', 'common']);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isFetching } = useListGoodsAdjustQuery({ page, limit: 10 });
  const { data: warehouses } = useListWarehousesQuery();
  const [create, { isLoading }] = useCreateGoodsAdjustMutation();
  const canCreate = useCan(ADJUST_CREATE);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<AdjustValues>();
  const warehouseName = (id: number) => warehouses?.data.find((w) => w.id === id)?.name ?? String(id);
  const defaultWarehouse = warehouses?.data.find((w) => w.isDefault && w.active)?.id ?? warehouses?.data.find((w) => w.active)?.id;

  const submit = async (v: AdjustValues) => {
    try {
      await create({ goodsAdjustInput: { warehouseId: v.warehouseId, skuId: v.skuId, quantity: v.quantity, reason: v.reason } }).unwrap();
      notifySuccess(t('stock:adjust.saved'));
      setOpen(false);
      form.resetFields();
    } catch (e) {
      showServerErrors(e, form, t, {
        codes: {
          stock_below_reserved: { field: 'quantity', message: 'stock:errors.stock_below_reserved' },
          insufficient_stock: { field: 'quantity', message: 'stock:errors.insufficient_stock' },
          warehouse_inactive: { field: 'warehouseId', message: 'stock:errors.warehouse_inactive' },
        },
        rename: { delta: 'quantity' },
        ns: 'stock',
      });
    }
  };

  const columns = [
    { title: t('stock:fields.date'), dataIndex: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v, i18n.language)}</span> },
    { title: t('stock:fields.sku'), dataIndex: 'skuCode' },
    { title: t('stock:fields.warehouse'), dataIndex: 'warehouseId', render: (w: number) => warehouseName(w) },
    {
      title: t('stock:fields.quantity'),
      dataIndex: 'quantity',
      align: 'right' as const,
      render: (q: number) => <Typography.Text type={q < 0 ? 'danger' : 'success'}>{q > 0 ? `+${q}` : q}</Typography.Text>,
    },
    { title: t('stock:fields.reason'), dataIndex: 'reason', render: (r: string, a: GoodsAdjustBody) => <span data-testid={`adjust-${a.id}-reason`}>{r}</span> },
    { title: t('stock:fields.lots'), key: 'lots', render: (_: unknown, a: GoodsAdjustBody) => <LotTakes lots={a.lots} testId={`adjust-${a.id}-lots`} /> },
    {
      title: t('stock:fields.by'),
      dataIndex: 'createdByName',
      render: (name: string, a: GoodsAdjustBody) => <span data-testid={`adjust-${a.id}-by`}>{name || '—'}</span>,
    },
  ];

  return (
    <>
      <div className="bo-page-head">
        <h1>{t('stock:adjust.title')}</h1>
        {canCreate ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="adjust-create">
            {t('stock:adjust.create')}
          </Button>
        ) : null}
      </div>
      <Table<GoodsAdjustBody> rowKey="id" size="middle" loading={isFetching} columns={columns} dataSource={data?.data ?? []} pagination={false} locale={{ emptyText: t('stock:adjust.empty') }} scroll={{ x: 960 }} data-testid="adjust-table" />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => setParams(new URLSearchParams({ page: String(p) }))} />
      <Modal open={open} title={t('stock:adjust.create')} onCancel={() => setOpen(false)} onOk={() => form.submit()} confirmLoading={isLoading} okText={t('common:actions.save')} cancelText={t('common:actions.cancel')} okButtonProps={{ id: 'adjust-save' }}>
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ warehouseId: defaultWarehouse }}>
          <Form.Item name="warehouseId" label={t('stock:fields.warehouse')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Select
              options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.active ? w.name : t('stock:warehouses.inactiveName', { name: w.name }) }))}
              data-testid="adjust-warehouse"
            />
          </Form.Item>
          <Form.Item name="skuId" label={t('stock:fields.sku')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <SkuSelect />
          </Form.Item>
          <Form.Item
            name="quantity"
            label={t('stock:adjust.quantity')}
            extra={t('stock:adjust.quantityHint')}
            rules={[{ required: true, message: t('common:validation.required') }, { validator: (_, v) => (v === 0 ? Promise.reject(new Error(t('common:validation.quantity'))) : Promise.resolve()) }]}
          >
            <InputNumber style={{ width: '100%' }} precision={0} data-testid="adjust-quantity" />
          </Form.Item>
          <Form.Item name="reason" label={t('stock:fields.reason')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
            <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} showCount data-testid="adjust-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
