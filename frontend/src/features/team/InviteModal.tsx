import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { useAppSelector } from '@/app/hooks';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCreateInvitationMutation, useListRolesQuery, type InvitationBody } from './api';
import { copyText, invitationLink, refusalKey, roleLabel, rolesFor } from './team';

interface Props {
  storeId: number;
  open: boolean;
  onClose: () => void;
}

/** Invites by link: the level (admin or cashier) and a role; once made, the link to copy. */
export function InviteModal({ storeId, open, onClose }: Props) {
  const { t, i18n } = useTranslation(['team', 'common']);
  const [form] = Form.useForm<{ permission: string; roleId: number }>();
  const level = Form.useWatch('permission', form) ?? 'cashier';
  const { data: roles } = useListRolesQuery({ id: storeId }, { skip: !open });
  const [create, { isLoading }] = useCreateInvitationMutation();
  const [made, setMade] = useState<InvitationBody | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const storeName = useAppSelector((s) => s.store.loaded?.name ?? '');
  const choices = rolesFor(level, roles?.data.roles ?? []);

  const close = () => {
    setMade(null);
    setFailure(null);
    form.resetFields();
    onClose();
  };

  useEffect(() => {
    // A level's built-in role is chosen until another is picked.
    const builtIn = choices.find((r) => r.builtIn);
    if (builtIn && !choices.some((r) => r.id === form.getFieldValue('roleId'))) form.setFieldValue('roleId', builtIn.id);
  }, [choices, form]);

  const submit = async (v: { permission: string; roleId: number }) => {
    setFailure(null);
    try {
      const builtIn = choices.find((r) => r.id === v.roleId)?.builtIn;
      const inv = await create({
        invitationInput: { storeId, storeName, permission: v.permission, roleId: builtIn ? undefined : v.roleId },
      }).unwrap();
      setMade(inv);
    } catch (e) {
      setFailure(refusalKey(apiError(e)?.code));
    }
  };

  const copy = async () => {
    if (made && (await copyText(invitationLink(made.key)))) notifySuccess(t('team:invitations.copied'));
    else notifyError(t('team:invitations.copyFailed'));
  };

  return (
    <Modal open={open} title={t('team:invite.title')} onCancel={close} footer={null} destroyOnHidden data-testid="invite-modal">
      {made ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="success" showIcon title={t('team:invite.made', { date: formatDateTime(made.expiredAt, i18n.language) })} />
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={invitationLink(made.key)} data-testid="invite-link" />
            <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="invite-copy">
              {t('team:invitations.copy')}
            </Button>
          </Space.Compact>
          <Typography.Text type="secondary">{t('team:invite.once')}</Typography.Text>
          <Button block onClick={close}>
            {t('team:invite.done')}
          </Button>
        </Space>
      ) : (
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} initialValues={{ permission: 'cashier' }} requiredMark={false}>
          {failure ? <Alert type="error" showIcon title={t(failure)} style={{ marginBottom: 16 }} /> : null}
          <Form.Item name="permission" label={t('team:fields.permission')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Select
              options={['admin', 'cashier'].map((p) => ({ value: p, label: t(`common:permission.${p}`) }))}
              data-testid="invite-permission"
            />
          </Form.Item>
          <Form.Item name="roleId" label={t('team:fields.role')} extra={t('team:invite.roleHint')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Select options={choices.map((r) => ({ value: r.id, label: roleLabel(r, t) }))} data-testid="invite-role" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isLoading} data-testid="invite-submit">
            {t('team:invite.submit')}
          </Button>
        </Form>
      )}
    </Modal>
  );
}
