import { useEffect, useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Select, Space, Tag } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useAppSelector } from '@/app/hooks';
import { AuditTimeline } from '@/shared/audit/AuditTimeline';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatDateTime } from '@/shared/i18n/i18n';
import { Pager } from '@/shared/pager/Pager';
import { useGetMemberQuery, useListAuditQuery, useListRolesQuery, useRemoveMemberMutation, useUpdateMemberMutation } from './api';
import { refusalKey, roleLabel, rolesFor, STATUS_COLOR } from './team';

/** Changes shown per page of the person's history. */
const AUDIT_PAGE = 10;

interface Values {
  firstName: string;
  lastName: string;
  tel: string;
  permission: string;
  roleId: number;
  status: string;
}

/** /setting/user-edit/{membershipId}?user={userId}: a member's level, role and status
 * (owner or user.*), their own name and phone when it is oneself, removal, and what they
 * changed in the store. */
export default function MemberEditPage() {
  const { t, i18n } = useTranslation(['team', 'common']);
  const { storeId, membershipId } = useParams();
  const [params] = useSearchParams();
  const id = Number(storeId);
  const mid = Number(membershipId);
  const userId = Number(params.get('user'));
  const valid = Number.isInteger(mid) && mid > 0 && Number.isInteger(userId) && userId > 0;
  const { data: m, isLoading, isError } = useGetMemberQuery({ userId, id: mid }, { skip: !valid });
  const { data: roles } = useListRolesQuery({ id });
  const [auditPage, setAuditPage] = useState(1);
  const { data: audit } = useListAuditQuery({ id, userId, page: auditPage, limit: AUDIT_PAGE }, { skip: !valid, refetchOnMountOrArgChange: true });
  const [update, { isLoading: saving }] = useUpdateMemberMutation();
  const [remove, { isLoading: removing }] = useRemoveMemberMutation();
  const me = useAppSelector((s) => s.session.user?.id);
  const myLevel = useAppSelector((s) => (storeId ? s.session.stores[storeId]?.permission : undefined));
  const [form] = Form.useForm<Values>();
  const level = Form.useWatch('permission', form) ?? m?.permission ?? 'cashier';
  const [failure, setFailure] = useState<string | null>(null);
  const navigate = useNavigate();
  const self = m?.user.id === me;
  const removed = m?.status === 'deleted';
  const choices = rolesFor(level, roles?.data.roles ?? []);

  useEffect(() => {
    if (!m) return;
    form.setFieldsValue({
      firstName: m.user.firstName,
      lastName: m.user.lastName,
      tel: m.user.tel,
      permission: m.permission,
      roleId: m.role.id,
      status: m.status,
    });
  }, [m, form]);

  useEffect(() => {
    // Another level takes that level's built-in role unless a fitting one is chosen.
    if (!m || choices.length === 0) return;
    if (!choices.some((r) => r.id === form.getFieldValue('roleId'))) form.setFieldValue('roleId', choices.find((r) => r.builtIn)?.id);
  }, [choices, form, m]);

  if (!valid || isError) return <Result status="404" title={t('team:edit.notFound')} />;
  if (isLoading || !m) return <Card loading />;

  const submit = async (v: Values) => {
    setFailure(null);
    const input: Record<string, string | number> = {};
    if (self) {
      if (v.firstName !== m.user.firstName) input.firstName = v.firstName;
      if (v.lastName !== m.user.lastName) input.lastName = v.lastName;
      if (v.tel !== m.user.tel) input.tel = v.tel;
    } else {
      if (v.permission !== m.permission) input.permission = v.permission;
      if (v.roleId !== m.role.id) input.roleId = v.roleId;
      if (v.status !== m.status) input.status = v.status;
    }
    if (Object.keys(input).length === 0) {
      navigate(`/${id}/setting/user-list`);
      return;
    }
    try {
      await update({ userId, id: mid, memberInput: input }).unwrap();
      notifySuccess(t('team:edit.saved'));
      navigate(`/${id}/setting/user-list`);
    } catch (e) {
      if (showServerErrors(e, form, t, { ns: 'team' })) return;
      setFailure(refusalKey(apiError(e)?.code));
    }
  };

  const onRemove = async () => {
    const ok = await showDialog({
      kind: 'warning',
      title: 'team:edit.removeTitle',
      message: 'team:edit.removeMessage',
      values: { name: m.user.name || m.user.email },
      confirm: 'team:edit.remove',
    });
    if (!ok) return;
    setFailure(null);
    try {
      await remove({ userId, id: mid }).unwrap();
      notifySuccess(t('team:edit.removed'));
      navigate(`/${id}/setting/user-list`);
    } catch (e) {
      setFailure(refusalKey(apiError(e)?.code));
    }
  };

  const levels = myLevel === 'owner' ? ['owner', 'admin', 'cashier'] : m.permission === 'owner' ? ['owner'] : ['admin', 'cashier'];
  const lockedRights = self || removed || (m.permission === 'owner' && myLevel !== 'owner');

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card>
        <div className="bo-page-head">
          <h1>{t('team:edit.title')}</h1>
          <Tag color={STATUS_COLOR[m.status]}>{t(`team:status.${m.status}`)}</Tag>
        </div>
        {failure ? <Alert type="error" showIcon title={t(failure)} style={{ marginBottom: 16 }} data-testid="member-error" /> : null}
        {self ? <Alert type="info" showIcon title={t('team:edit.selfHint')} style={{ marginBottom: 16 }} /> : null}
        <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('team:fields.email')}>{m.user.email}</Descriptions.Item>
          <Descriptions.Item label={t('team:fields.joinedAt')}>{formatDateTime(m.createdAt, i18n.language)}</Descriptions.Item>
        </Descriptions>
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} disabled={removed} style={{ maxWidth: 560 }}>
          <Space.Compact block>
            <Form.Item name="firstName" label={t('team:fields.firstName')} style={{ flex: 1 }} rules={self ? [{ required: true, whitespace: true, message: t('common:validation.required') }, { max: 100 }] : []}>
              <Input disabled={!self} data-testid="member-first-name" />
            </Form.Item>
            <Form.Item name="lastName" label={t('team:fields.lastName')} style={{ flex: 1 }} rules={self ? [{ required: true, whitespace: true, message: t('common:validation.required') }, { max: 100 }] : []}>
              <Input disabled={!self} data-testid="member-last-name" />
            </Form.Item>
          </Space.Compact>
          <Form.Item
            name="tel"
            label={t('team:fields.tel')}
            extra={self ? undefined : t('team:edit.profileHint')}
            rules={self ? [{ pattern: /^[0-9\s-]*$/, message: t('common:validation.phone_digits') }] : []}
          >
            <Input disabled={!self} inputMode="tel" data-testid="member-tel" />
          </Form.Item>
          <Form.Item name="permission" label={t('team:fields.permission')}>
            <Select disabled={lockedRights} options={levels.map((p) => ({ value: p, label: t(`common:permission.${p}`) }))} data-testid="member-permission" />
          </Form.Item>
          <Form.Item name="roleId" label={t('team:fields.role')}>
            <Select disabled={lockedRights} options={choices.map((r) => ({ value: r.id, label: roleLabel(r, t) }))} data-testid="member-role" />
          </Form.Item>
          <Form.Item name="status" label={t('team:fields.status')}>
            <Select
              disabled={lockedRights}
              options={['active', 'inactive'].map((s) => ({ value: s, label: t(`team:status.${s}`) }))}
              data-testid="member-status-select"
            />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="member-save">
              {t('common:actions.save')}
            </Button>
            <Button onClick={() => navigate(`/${id}/setting/user-list`)}>{t('common:actions.back')}</Button>
            {!lockedRights ? (
              <Button danger icon={<DeleteOutlined />} loading={removing} onClick={() => void onRemove()} data-testid="member-remove">
                {t('team:edit.remove')}
              </Button>
            ) : null}
          </Space>
        </Form>
      </Card>
      <Card title={t('common:audit.byPerson')}>
        <AuditTimeline entries={audit?.data ?? []} testId="member-audit" />
        {(audit?.pages ?? 1) > 1 ? <Pager page={audit?.page ?? auditPage} pages={audit?.pages ?? 1} total={audit?.total ?? 0} onChange={setAuditPage} /> : null}
      </Card>
    </Space>
  );
}
