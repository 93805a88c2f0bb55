import { useRef, useState } from 'react';
import { Button, Col, Form, Input, InputNumber, Modal, Row, Select, Typography, type ButtonProps } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { useListWarehousesQuery, useSendTransferMutation, type TransferInput } from '../api';
import { SkuSelect } from '../SkuSelect';
import { SubmissionKeys } from './keys';
import { notifyRefusal } from '@/shared/refusal';

interface LineValues {
  skuId?: number;
  quantity?: number;
}

interface TransferValues {
  fromWarehouseId?: number;
  toWarehouseId?: number;
  note?: string;
  items: LineValues[];
}

/** The lines a transfer sends: by SKU, as the service orders them when it checks stock (a
 * refusal's `lines[i]` then names the same line under either reading). */
export function sentLines(items: LineValues[]): { skuId: number; quantity: number }[] {
  return items.map((l) => ({ skuId: l.skuId as number, quantity: l.quantity as number })).sort((a, b) => a.skuId - b.skuId);
}

/** The SKUs of a refusal for want of stock: its fields `lines[i].quantity` (or `items[i]…`)
 * name lines of what was sent. */
export function shortSkus(e: unknown, sent: { skuId: number }[]): number[] {
  const err = apiError(e);
  if (err?.code !== 'insufficient_stock') return [];
  return (err.fields ?? []).flatMap((f) => {
    const m = /^(?:lines|items)\[(\d+)\]/.exec(f.field);
    const line = m ? sent[Number(m[1])] : undefined;
    return line ? [line.skuId] : [];
  });
}

/** A new transfer: from a warehouse (any: a deactivated one may still send its stock away) to
 * another, active one, with lines of SKUs and units; sent in one go, or refused in one go. */
export function TransferFormModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['stock', 'common']);
  const { data: warehouses } = useListWarehousesQuery();
  const [send, { isLoading }] = useSendTransferMutation();
  const [form] = Form.useForm<TransferValues>();
  const keys = useRef(new SubmissionKeys());
  const [available, setAvailable] = useState<Record<number, number>>({});
  const all = warehouses?.data ?? [];
  const from = Form.useWatch('fromWarehouseId', form);
  const lines = Form.useWatch('items', form);
  const defaultFrom = all.find((w) => w.isDefault)?.id ?? all[0]?.id;
  const required = { required: true, message: t('common:validation.required') };

  const close = () => {
    onClose();
    form.resetFields();
    setAvailable({});
  };

  const submit = async (v: TransferValues) => {
    const items = sentLines(v.items);
    const body: TransferInput = { fromWarehouseId: v.fromWarehouseId, toWarehouseId: v.toWarehouseId, note: v.note?.trim() || undefined, items };
    const idempotencyKey = keys.current.keyFor(body);
    try {
      const r = await send({ transferInput: body, idempotencyKey }).unwrap();
      keys.current.settled();
      notifySuccess(t('stock:transfer.sent', { code: r.code }));
      close();
    } catch (e) {
      keys.current.settled(e);
      const short = shortSkus(e, items).map((sku) => v.items.findIndex((l) => l.skuId === sku)).filter((i) => i >= 0);
      if (short.length > 0) {
        form.setFields(short.map((i) => ({ name: ['items', i, 'quantity'], errors: [t('stock:errors.insufficient_stock')] })));
        return;
      }
      const onForm = showServerErrors(e, form, t, {
        codes: {
          warehouse_inactive: { field: 'toWarehouseId', message: 'stock:errors.warehouse_inactive' },
        },
        only: ['fromWarehouseId', 'toWarehouseId', 'note'],
        ns: 'stock',
      });
      if (!onForm) notifyRefusal(e, t, 'stock');
    }
  };

  return (
    <Modal
      open={open}
      title={t('stock:transfer.create')}
      width={720}
      onCancel={close}
      onOk={() => form.submit()}
      confirmLoading={isLoading}
      okText={t('stock:transfer.send')}
      cancelText={t('common:actions.cancel')}
      okButtonProps={{ 'data-testid': 'transfer-save' } as ButtonProps}
    >
      <Form<TransferValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ fromWarehouseId: defaultFrom, items: [{}] }}
        onValuesChange={(changed: Partial<TransferValues>) => {
          // Another source: what was picked was picked for the old one.
          if ('fromWarehouseId' in changed) {
            form.setFieldValue('items', [{}]);
            setAvailable({});
          }
        }}
      >
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="fromWarehouseId" label={t('stock:transfer.from')} rules={[required]}>
              <Select
                options={all.map((w) => ({ value: w.id, label: w.active ? w.name : t('stock:warehouses.inactiveName', { name: w.name }) }))}
                data-testid="transfer-from"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="toWarehouseId"
              label={t('stock:transfer.to')}
              dependencies={['fromWarehouseId']}
              rules={[
                required,
                ({ getFieldValue }) => ({
                  validator: (_, v?: number) =>
                    v !== undefined && v === getFieldValue('fromWarehouseId') ? Promise.reject(new Error(t('stock:validation.same_warehouse'))) : Promise.resolve(),
                }),
              ]}
            >
              <Select
                placeholder={t('stock:transfer.pickTo')}
                options={all.filter((w) => w.active).map((w) => ({ value: w.id, label: w.name, disabled: w.id === from }))}
                data-testid="transfer-to"
              />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text strong>{t('stock:transfer.lines')}</Typography.Text>
        <Form.List name="items">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, i) => {
                const skuId = lines?.[i]?.skuId;
                const left = skuId !== undefined ? available[skuId] : undefined;
                return (
                  <div key={field.key} style={{ display: 'flex', flexWrap: 'wrap', columnGap: 8, alignItems: 'flex-start', marginTop: 8 }} data-testid={`transfer-line-${i}`}>
                    <Form.Item
                      name={[field.name, 'skuId']}
                      style={{ flex: '1 1 260px', minWidth: 0, marginBottom: 8 }}
                      rules={[
                        required,
                        ({ getFieldValue }) => ({
                          validator: (_, v?: number) => {
                            const items = (getFieldValue('items') ?? []) as LineValues[];
                            return v !== undefined && items.some((l, j) => j !== i && l?.skuId === v) ? Promise.reject(new Error(t('stock:validation.duplicate_sku'))) : Promise.resolve();
                          },
                        }),
                      ]}
                    >
                      <SkuSelect
                        warehouseId={from}
                        needStock
                        testId={`transfer-line-${i}-sku`}
                        onPick={(p) => p.available !== undefined && setAvailable((a) => ({ ...a, [p.skuId]: p.available as number }))}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'quantity']}
                      style={{ flex: '0 0 140px', marginBottom: 8 }}
                      extra={left !== undefined ? t('stock:transfer.available', { count: left }) : undefined}
                      rules={[
                        required,
                        {
                          validator: (_, q?: number) =>
                            q !== undefined && q !== null && left !== undefined && q > left ? Promise.reject(new Error(t('stock:validation.more_than_available', { count: left }))) : Promise.resolve(),
                        },
                      ]}
                    >
                      <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder={t('stock:fields.quantity')} data-testid={`transfer-line-${i}-quantity`} />
                    </Form.Item>
                    <Button icon={<DeleteOutlined />} disabled={fields.length === 1} onClick={() => remove(field.name)} aria-label={t('stock:transfer.removeLine')} data-testid={`transfer-line-${i}-remove`} />
                  </div>
                );
              })}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} disabled={fields.length >= 100} style={{ marginBottom: 16 }} data-testid="transfer-add-line">
                {t('stock:transfer.addLine')}
              </Button>
            </>
          )}
        </Form.List>
        <Form.Item name="note" label={t('stock:transfer.note')}>
          <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} showCount data-testid="transfer-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
