import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Space, Switch, Table, Tag, Typography, type ButtonProps } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCan } from '@/shared/useCan';
import { useCreateWarehouseMutation, useListWarehousesQuery, useUpdateWarehouseMutation, type WarehouseBody } from '../api';
import { WAREHOUSE_EDIT } from '../routes';
import { notifyRefusal } from '@/shared/refusal';

/** A warehouse code as the service takes it: capital letters, digits and dashes. */
export const WAREHOUSE_CODE = /^[A-Z0-9-]{1,20}$/;

interface WarehouseValues {
  name: string;
  code?: string;
}

/** The store's warehouses (on the moves tab screen): added, renamed, deactivated and
 * activated again by the owner or store.*. A deactivated warehouse keeps its stock and
 * history but takes no new stock; the default one is always active. */
export function WarehousesTab() {
  const { t, i18n } = useTranslation(['stock', 'common']);
  const { data, isFetching } = useListWarehousesQuery();
  const canEdit = useCan(WAREHOUSE_EDIT);
  const [update] = useUpdateWarehouseMutation();
  const [switching, setSwitching] = useState<number | null>(null);
  const [editing, setEditing] = useState<WarehouseBody | 'new' | null>(null);

  const onActive = async (w: WarehouseBody, active: boolean) => {
    if (!active) {
      const ok = await showDialog({ kind: 'warning', title: 'stock:warehouses.deactivateTitle', message: 'stock:warehouses.deactivateMessage', values: { name: w.name }, confirm: 'stock:warehouses.deactivate' });
      if (!ok) return;
    }
    setSwitching(w.id);
    try {
      await update({ id: w.id, warehousePatch: { active } }).unwrap();
      notifySuccess(t(active ? 'stock:warehouses.activated' : 'stock:warehouses.deactivated', { name: w.name }));
    } catch (e) {
      notifyRefusal(e, t, 'stock');
    } finally {
      setSwitching(null);
    }
  };

  const columns = [
    {
      title: t('stock:warehouses.name'),
      key: 'name',
      render: (_: unknown, w: WarehouseBody) => (
        <Space size={6} wrap>
          <Typography.Text strong>{w.name}</Typography.Text>
          {w.isDefault ? (
            <Tag color="blue" data-testid={`warehouse-${w.id}-default`}>
              {t('stock:warehouses.default')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    { title: t('stock:warehouses.code'), dataIndex: 'code', render: (c: string) => <Typography.Text code>{c}</Typography.Text> },
    {
      title: t('stock:warehouses.status'),
      key: 'status',
      render: (_: unknown, w: WarehouseBody) => (
        <Space size={6} wrap={false}>
          {canEdit && !w.isDefault ? (
            <Switch
              checked={w.active}
              loading={switching === w.id}
              onChange={(on) => void onActive(w, on)}
              aria-label={t('stock:warehouses.status')}
              data-testid={`warehouse-${w.id}-active`}
            />
          ) : null}
          <Tag color={w.active ? 'green' : 'default'} data-testid={`warehouse-${w.id}-status`}>
            {t(w.active ? 'stock:warehouses.active' : 'stock:warehouses.inactive')}
          </Tag>
          {w.isDefault ? <Typography.Text type="secondary">{t('stock:warehouses.defaultAlwaysActive')}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: t('stock:warehouses.createdAt'), dataIndex: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v, i18n.language)}</span> },
    ...(canEdit
      ? [
          {
            title: t('stock:fields.actions'),
            key: 'actions',
            align: 'right' as const,
            render: (_: unknown, w: WarehouseBody) => (
              <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(w)} data-testid={`warehouse-${w.id}-rename`}>
                {t('stock:warehouses.rename')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <div className="bo-page-head">
        <h1>{t('stock:warehouses.title')}</h1>
        {canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="warehouse-create">
            {t('stock:warehouses.create')}
          </Button>
        ) : null}
      </div>
      <Alert type="info" showIcon title={t('stock:warehouses.hint')} style={{ marginBottom: 12 }} data-testid="warehouse-hint" />
      <Table<WarehouseBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t('stock:warehouses.empty') }}
        scroll={{ x: 760 }}
        data-testid="warehouse-table"
      />
      <WarehouseModal target={editing} onClose={() => setEditing(null)} />
    </>
  );
}

/** Adding a warehouse (a name and an optional code), or renaming one. */
function WarehouseModal({ target, onClose }: { target: WarehouseBody | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation(['stock', 'common']);
  const [create, { isLoading: creating }] = useCreateWarehouseMutation();
  const [update, { isLoading: updating }] = useUpdateWarehouseMutation();
  const [form] = Form.useForm<WarehouseValues>();
  const isNew = target === 'new';

  const submit = async (v: WarehouseValues) => {
    try {
      if (target === 'new') {
        const w = await create({ warehouseInput: { name: v.name.trim(), code: v.code?.trim() || undefined } }).unwrap();
        notifySuccess(t('stock:warehouses.created', { name: w.name }));
      } else if (target) {
        await update({ id: target.id, warehousePatch: { name: v.name.trim() } }).unwrap();
        notifySuccess(t('stock:warehouses.renamed', { name: v.name.trim() }));
      }
      onClose();
    } catch (e) {
      const onForm = showServerErrors(e, form, t, {
        codes: {
          warehouse_name_taken: { field: 'name', message: 'stock:errors.warehouse_name_taken' },
          warehouse_code_taken: { field: 'code', message: 'stock:errors.warehouse_code_taken' },
        },
        only: ['name', 'code'],
        ns: 'stock',
      });
      if (!onForm) notifyRefusal(e, t, 'stock');
    }
  };

  return (
    <Modal
      open={target !== null}
      title={t(isNew ? 'stock:warehouses.create' : 'stock:warehouses.rename')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={creating || updating}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      okButtonProps={{ 'data-testid': 'warehouse-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form<WarehouseValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={target && target !== 'new' ? { name: target.name } : {}}
      >
        <Form.Item name="name" label={t('stock:warehouses.name')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }, { max: 100, message: t('common:validation.too_long') }]}>
          <Input maxLength={100} data-testid="warehouse-name" />
        </Form.Item>
        {isNew ? (
          <Form.Item
            name="code"
            label={t('stock:warehouses.codeOptional')}
            extra={t('stock:warehouses.codeHint')}
            normalize={(v?: string) => v?.toUpperCase()}
            rules={[{ pattern: WAREHOUSE_CODE, message: t('stock:validation.code') }]}
          >
            <Input maxLength={20} data-testid="warehouse-code" />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
