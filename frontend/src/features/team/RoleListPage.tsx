import { useState } from 'react';
import { Button, Card, Form, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, ExclamationCircleFilled, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { useAppSelector } from '@/app/hooks';
import { CONFIRM_COLOURS, showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { covers } from '@/shared/perms';
import { useCan } from '@/shared/useCan';
import { useDeleteRoleMutation, useListRolesQuery, type StoreRoleBody } from './api';
import { RIGHTS_TOTAL, rightCount, roleRefusalKey } from './matrix';
import { ROLES } from './api';

/** /setting/role-permission-list: the store's roles, built-in first; custom roles are
 * created, changed and deleted here (owner or store.role.*), built-in ones only viewed. */
export default function RoleListPage() {
  const { t } = useTranslation(['roles', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { data, isFetching } = useListRolesQuery({ id });
  const [remove, { isLoading: deleting }] = useDeleteRoleMutation();
  const canManage = useCan(ROLES);
  const login = useAppSelector((s) => (storeId ? s.session.stores[storeId] : undefined));
  const navigate = useNavigate();
  /** The role being deleted whose members must move first. */
  const [moving, setMoving] = useState<StoreRoleBody | null>(null);
  const [moveTo, setMoveTo] = useState<number | undefined>(undefined);
  const roles = data?.data?.roles ?? [];

  const label = (r: StoreRoleBody) => (r.builtIn ? t(`common:permission.${r.name}`, { defaultValue: r.name }) : r.name);
  const editPath = (r: StoreRoleBody) => `/${id}/setting/role-permission-edit/${r.id}`;
  /** A non-owner may move members only to a role whose rights they hold themself. */
  const mayHandOut = (r: StoreRoleBody) =>
    login?.permission === 'owner' || r.permissions.every((k) => (login?.permissions ?? []).some((g) => covers(g, k)));

  const askMove = (r: StoreRoleBody) => {
    setMoveTo(undefined);
    setMoving(r);
  };

  const doDelete = async (r: StoreRoleBody, target?: number) => {
    try {
      await remove({ id, roleId: r.id, moveTo: target }).unwrap();
      setMoving(null);
      notifySuccess(t('roles:delete.done'));
    } catch (e) {
      const code = apiError(e)?.code;
      // Pending invitations hold the role too, which the member count does not show.
      if (code === 'role_in_use' && target === undefined) return askMove(r);
      const refusal = roleRefusalKey(code);
      if (refusal) notifyError(t(refusal));
      else if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('roles:errors.delete_failed'));
    }
  };

  const onDelete = async (r: StoreRoleBody) => {
    if (r.memberCount > 0) return askMove(r);
    const ok = await showDialog({ kind: 'warning', title: 'roles:delete.title', message: 'roles:delete.message', values: { name: r.name }, confirm: 'common:actions.delete' });
    if (ok) await doDelete(r);
  };

  const columns = [
    {
      title: t('roles:fields.name'),
      render: (_: unknown, r: StoreRoleBody) => (
        <Space wrap size={4}>
          <span>{label(r)}</span>
          {r.builtIn ? <Tag data-testid={`role-built-in-${r.id}`}>{t('roles:list.builtIn')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('roles:fields.members'), dataIndex: 'memberCount', align: 'right' as const },
    {
      title: t('roles:fields.rights'),
      align: 'right' as const,
      render: (_: unknown, r: StoreRoleBody) => <span data-testid={`role-rights-${r.id}`}>{t('roles:list.rightsValue', { count: rightCount(r.permissions), total: RIGHTS_TOTAL })}</span>,
    },
    {
      title: t('roles:fields.actions'),
      align: 'right' as const,
      render: (_: unknown, r: StoreRoleBody) =>
        r.builtIn || !canManage ? (
          <Button size="small" icon={<EyeOutlined />} onClick={() => navigate(editPath(r))} data-testid={`role-view-${r.id}`}>
            {t('roles:list.view')}
          </Button>
        ) : (
          <Space wrap size={4}>
            <Button size="small" icon={<EditOutlined />} onClick={() => navigate(editPath(r))} data-testid={`role-edit-${r.id}`}>
              {t('common:actions.edit')}
            </Button>
            <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void onDelete(r)} data-testid={`role-delete-${r.id}`}>
              {t('common:actions.delete')}
            </Button>
          </Space>
        ),
    },
  ];

  const targets = moving ? roles.filter((r) => r.id !== moving.id && !(r.builtIn && r.name === 'owner')) : [];

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('roles:list.title')}</h1>
        {canManage ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/${id}/setting/role-permission-create`)} data-testid="role-create">
            {t('roles:list.create')}
          </Button>
        ) : null}
      </div>
      <Typography.Paragraph type="secondary">{t('roles:list.hint')}</Typography.Paragraph>
      <Table<StoreRoleBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={roles}
        pagination={false}
        locale={{ emptyText: t('roles:list.empty') }}
        scroll={{ x: 560 }}
        data-testid="role-table"
      />
      <Modal open={moving !== null} centered closable={false} footer={null} width={440} onCancel={() => setMoving(null)} destroyOnHidden>
        {moving ? (
          <div className="bo-dialog" data-testid="role-move-dialog" role="alertdialog" aria-labelledby="role-move-title">
            <div className="bo-dialog-icon">
              <ExclamationCircleFilled style={{ color: CONFIRM_COLOURS.warning }} />
            </div>
            <Typography.Title level={4} id="role-move-title">
              {t('roles:delete.title')}
            </Typography.Title>
            <Typography.Paragraph>{t('roles:delete.moveMessage', { name: moving.name })}</Typography.Paragraph>
            {moving.memberCount > 0 ? <Typography.Paragraph strong>{t('roles:delete.moveMembers', { count: moving.memberCount })}</Typography.Paragraph> : null}
            <Form layout="vertical" style={{ textAlign: 'left' }}>
              <Form.Item label={t('roles:delete.moveTo')} required>
                <Select
                  value={moveTo}
                  onChange={setMoveTo}
                  placeholder={t('roles:delete.moveToPlaceholder')}
                  options={targets.map((r) => ({ value: r.id, label: label(r), disabled: !mayHandOut(r) }))}
                  data-testid="role-move-to"
                />
              </Form.Item>
            </Form>
            <Space>
              <Button onClick={() => setMoving(null)}>{t('common:dialog.cancel')}</Button>
              <Button
                type="primary"
                danger
                disabled={moveTo === undefined}
                loading={deleting}
                onClick={() => void doDelete(moving, moveTo)}
                data-testid="role-move-ok"
              >
                {t('common:actions.delete')}
              </Button>
            </Space>
          </div>
        ) : null}
      </Modal>
    </Card>
  );
}
