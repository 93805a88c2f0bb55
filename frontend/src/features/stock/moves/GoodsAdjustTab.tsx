import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Segmented, Select, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { useIsMobile } from '@/app/layouts/useDevice';
import { BottomBar } from '@/shared/list/Actions';
import { ListView } from '@/shared/list/ListView';
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
  /** On a phone, whether the quantity (typed without a sign on the numeric keypad) is added or
   * removed. */
  direction?: 'add' | 'remove';
}

/** Goods adjust, on the stock moves tab screen (SPEC §2): increase or decrease with a reason;
 * the list says who adjusted, why, and which lots the units came from (or went into). On a
 * phone the list is of cards and the form takes the screen's place of the list, in one column,
 * adding or removing a count typed on the numeric keypad, its save button at the foot. */
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
  const mobile = useIsMobile();

  const submit = async (v: AdjustValues) => {
    const quantity = mobile ? (v.direction === 'remove' ? -Math.abs(v.quantity) : Math.abs(v.quantity)) : v.quantity;
    try {
      await create({ goodsAdjustInput: { warehouseId: v.warehouseId, skuId: v.skuId, quantity, reason: v.reason } }).unwrap();
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

  const signed = (q: number) => <Typography.Text type={q < 0 ? 'danger' : 'success'}>{q > 0 ? `+${q}` : q}</Typography.Text>;
  const columns = [
    { title: t('stock:fields.date'), dataIndex: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v, i18n.language)}</span> },
    { title: t('stock:fields.sku'), dataIndex: 'skuCode' },
    { title: t('stock:fields.warehouse'), dataIndex: 'warehouseId', render: (w: number) => warehouseName(w) },
    {
      title: t('stock:fields.quantity'),
      dataIndex: 'quantity',
      align: 'right' as const,
      render: (q: number) => signed(q),
    },
    { title: t('stock:fields.reason'), dataIndex: 'reason', render: (r: string, a: GoodsAdjustBody) => <span data-testid={`adjust-${a.id}-reason`}>{r}</span> },
    { title: t('stock:fields.lots'), key: 'lots', render: (_: unknown, a: GoodsAdjustBody) => <LotTakes lots={a.lots} testId={`adjust-${a.id}-lots`} /> },
    {
      title: t('stock:fields.by'),
      dataIndex: 'createdByName',
      render: (name: string, a: GoodsAdjustBody) => <span data-testid={`adjust-${a.id}-by`}>{name || '—'}</span>,
    },
  ];

  const fields = (
    <>
      <Form.Item name="warehouseId" label={t('stock:fields.warehouse')} rules={[{ required: true, message: t('common:validation.required') }]}>
        <Select
          options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.active ? w.name : t('stock:warehouses.inactiveName', { name: w.name }) }))}
          data-testid="adjust-warehouse"
        />
      </Form.Item>
      <Form.Item name="skuId" label={t('stock:fields.sku')} rules={[{ required: true, message: t('common:validation.required') }]}>
        <SkuSelect />
      </Form.Item>
      {mobile ? (
        <Form.Item name="direction" label={t('stock:adjust.direction')}>
          <Segmented
            block
            options={[
              { value: 'add', label: <span data-testid="adjust-add">{t('stock:adjust.add')}</span> },
              { value: 'remove', label: <span data-testid="adjust-remove">{t('stock:adjust.remove')}</span> },
            ]}
          />
        </Form.Item>
      ) : null}
      <Form.Item
        name="quantity"
        label={t(mobile ? 'stock:adjust.pieces' : 'stock:adjust.quantity')}
        extra={mobile ? undefined : t('stock:adjust.quantityHint')}
        rules={[
          { required: true, message: t('common:validation.required') },
          { validator: (_, v) => (v === 0 || (mobile && typeof v === 'number' && v < 0) ? Promise.reject(new Error(t('common:validation.quantity'))) : Promise.resolve()) },
        ]}
      >
        <InputNumber style={{ width: '100%' }} precision={0} inputMode={mobile ? 'numeric' : undefined} data-testid="adjust-quantity" />
      </Form.Item>
      <Form.Item name="reason" label={t('stock:fields.reason')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
        <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} showCount data-testid="adjust-reason" />
      </Form.Item>
    </>
  );

  if (mobile && open) {
    return (
      <div data-testid="adjust-form">
        <div className="bo-page-head">
          <h1>{t('stock:adjust.create')}</h1>
        </div>
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ warehouseId: defaultWarehouse, direction: 'add' }}>
          {fields}
          <BottomBar data-testid="adjust-actions">
            <Button onClick={() => setOpen(false)} data-testid="adjust-cancel">
              {t('common:actions.cancel')}
            </Button>
            <Button type="primary" htmlType="submit" loading={isLoading} id="adjust-save" data-testid="adjust-save" style={{ flex: 1 }}>
              {t('common:actions.save')}
            </Button>
          </BottomBar>
        </Form>
      </div>
    );
  }

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
      <ListView<GoodsAdjustBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t('stock:adjust.empty') }}
        scroll={{ x: 960 }}
        cardTestId={(a) => `adjust-${a.id}-card`}
        card={(a) => (
          <>
            <div className="bo-card-row">
              <span className="bo-card-title">{a.skuCode}</span>
              <strong data-testid={`adjust-${a.id}-quantity`}>{signed(a.quantity)}</strong>
            </div>
            <div className="bo-card-sub">
              {warehouseName(a.warehouseId)} · {formatDateTime(a.createdAt, i18n.language)} · <span data-testid={`adjust-${a.id}-by`}>{a.createdByName || '—'}</span>
            </div>
            <div data-testid={`adjust-${a.id}-reason`}>{a.reason}</div>
            {a.lots.length > 0 ? (
              <div style={{ marginTop: 4 }}>
                <LotTakes lots={a.lots} testId={`adjust-${a.id}-lots`} />
              </div>
            ) : null}
          </>
        )}
        data-testid="adjust-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => setParams(new URLSearchParams({ page: String(p) }))} />
      {mobile ? null : (
        <Modal open={open} title={t('stock:adjust.create')} onCancel={() => setOpen(false)} onOk={() => form.submit()} confirmLoading={isLoading} okText={t('common:actions.save')} cancelText={t('common:actions.cancel')} okButtonProps={{ id: 'adjust-save' }}>
          <Form form={form} layout="vertical" onFinish={submit} initialValues={{ warehouseId: defaultWarehouse }}>
            {fields}
          </Form>
        </Modal>
      )}
    </>
  );
}
