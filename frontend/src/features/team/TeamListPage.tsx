import { useState } from 'react';
import { Button, Card, Input, Segmented, Space, Table, Tag, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { Pager } from '@/shared/pager/Pager';
import { useDeleteInvitationMutation, useListInvitationsQuery, useListMembersQuery, type InvitationBody, type UserStoreBody } from './api';
import { InviteModal } from './InviteModal';
import { copyText, invitationLink, refusalKey, STATUS_COLOR } from './team';

export const PAGE_SIZE = 10;
const STATUSES = ['', 'active', 'inactive', 'deleted'] as const;

/** /setting/user-list: the store's team, searched, filtered by status and paged, with the
 * pending invitations and a way to invite (owner or user.*). */
export default function TeamListPage() {
  const { t, i18n } = useTranslation(['team', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const status = STATUSES.find((s) => s === params.get('status')) ?? '';
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  const [inviting, setInviting] = useState(false);
  const { data, isFetching } = useListMembersQuery({ page, limit: PAGE_SIZE, status: status || undefined, search: search || undefined });
  const { data: invitations, isFetching: loadingInvitations } = useListInvitationsQuery({ id });
  const [removeInvitation] = useDeleteInvitationMutation();

  const go = (next: { page?: number; status?: string; search?: string }) => {
    const p = new URLSearchParams();
    const s = next.status ?? status;
    const q = next.search ?? search;
    if (s) p.set('status', s);
    if (q) p.set('search', q);
    p.set('page', String(next.page ?? 1));
    setParams(p);
  };

  const copy = async (inv: InvitationBody) => {
    if (await copyText(invitationLink(inv.key))) notifySuccess(t('team:invitations.copied'));
    else notifyError(t('team:invitations.copyFailed'));
  };

  const withdraw = async (inv: InvitationBody) => {
    const ok = await showDialog({ kind: 'warning', title: 'team:invitations.deleteTitle', message: 'team:invitations.deleteMessage', confirm: 'common:actions.delete' });
    if (!ok) return;
    try {
      await removeInvitation({ id, key: inv.key }).unwrap();
      notifySuccess(t('team:invitations.deleted'));
    } catch (e) {
      const key = refusalKey(apiError(e)?.code);
      if (key) notifyError(t(key));
    }
  };

  const columns = [
    {
      title: t('team:fields.name'),
      render: (_: unknown, m: UserStoreBody) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{m.user.name || m.user.email}</Typography.Text>
          <Typography.Text type="secondary">{m.user.email}</Typography.Text>
        </Space>
      ),
    },
    { title: t('team:fields.tel'), render: (_: unknown, m: UserStoreBody) => m.user.tel || '-' },
    { title: t('team:fields.permission'), render: (_: unknown, m: UserStoreBody) => <Tag>{t(`common:permission.${m.permission}`)}</Tag> },
    { title: t('team:fields.role'), render: (_: unknown, m: UserStoreBody) => (m.role.name === m.permission ? t(`common:permission.${m.permission}`) : m.role.name) },
    {
      title: t('team:fields.status'),
      render: (_: unknown, m: UserStoreBody) => <Tag color={STATUS_COLOR[m.status]}>{t(`team:status.${m.status}`)}</Tag>,
    },
    {
      title: t('team:fields.actions'),
      align: 'right' as const,
      render: (_: unknown, m: UserStoreBody) => (
        <Link to={`/${id}/setting/user-edit/${m.id}?user=${m.user.id}`} data-testid={`member-edit-${m.id}`}>
          <EditOutlined /> {m.status === 'deleted' ? t('team:actions.view') : t('common:actions.edit')}
        </Link>
      ),
    },
  ];

  const invitationColumns = [
    { title: t('team:fields.permission'), render: (_: unknown, i: InvitationBody) => <Tag>{t(`common:permission.${i.permission}`)}</Tag> },
    { title: t('team:fields.role'), render: (_: unknown, i: InvitationBody) => (i.role.name === i.permission ? t(`common:permission.${i.permission}`) : i.role.name) },
    { title: t('team:invitations.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v, i18n.language) },
    { title: t('team:invitations.expiredAt'), dataIndex: 'expiredAt', render: (v: string) => formatDateTime(v, i18n.language) },
    {
      title: t('team:fields.actions'),
      align: 'right' as const,
      render: (_: unknown, i: InvitationBody) => (
        <Space>
          <Button size="small" icon={<CopyOutlined />} onClick={() => void copy(i)} data-testid={`invitation-copy-${i.id}`}>
            {t('team:invitations.copy')}
          </Button>
          <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void withdraw(i)} data-testid={`invitation-delete-${i.id}`}>
            {t('common:actions.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card>
        <div className="bo-page-head">
          <h1>{t('team:list.title')}</h1>
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)} data-testid="invite-open">
            {t('team:invite.open')}
          </Button>
        </div>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            value={draft}
            placeholder={t('team:list.search')}
            onChange={(e) => setDraft(e.target.value)}
            onSearch={(v) => go({ search: v.trim() })}
            style={{ width: 280 }}
            data-testid="member-search"
          />
          <Segmented
            value={status}
            onChange={(v) => go({ status: String(v) })}
            options={STATUSES.map((s) => ({ value: s, label: t(s ? `team:status.${s}` : 'team:status.current') }))}
            data-testid="member-status"
          />
        </Space>
        <Table<UserStoreBody>
          rowKey="id"
          size="middle"
          loading={isFetching}
          columns={columns}
          dataSource={data?.data ?? []}
          pagination={false}
          locale={{ emptyText: t('team:list.empty') }}
          scroll={{ x: 720 }}
          data-testid="member-table"
        />
        <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => go({ page: p })} />
      </Card>
      <Card title={t('team:invitations.title')}>
        <Typography.Paragraph type="secondary">{t('team:invitations.hint')}</Typography.Paragraph>
        <Table<InvitationBody>
          rowKey="id"
          size="middle"
          loading={loadingInvitations}
          columns={invitationColumns}
          dataSource={invitations?.data ?? []}
          pagination={false}
          locale={{ emptyText: t('team:invitations.empty') }}
          scroll={{ x: 640 }}
          data-testid="invitation-table"
        />
      </Card>
      <InviteModal storeId={id} open={inviting} onClose={() => setInviting(false)} />
    </Space>
  );
}
