import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Divider, Form, Input, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { LanguageSwitch } from '@/app/layouts/Header';
import { loggedIn } from '@/app/session';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useAcceptInvitationMutation, usePreviewInvitationQuery, useRegisterMutation } from './api';
import { refusalKey } from './team';

interface Account {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** /invitations/{key}: what the link offers, with no sign-in. A signed-in person joins with
 * one click; a new person creates an account first; one with an account signs in and comes
 * back. A used, expired or withdrawn link says so. */
export default function JoinPage() {
  const { t, i18n } = useTranslation(['team', 'common', 'auth']);
  const { key = '' } = useParams();
  const { data: p, isLoading, error } = usePreviewInvitationQuery({ key });
  const signedIn = useAppSelector((s) => Boolean(s.session.userToken));
  const [accept, { isLoading: joining }] = useAcceptInvitationMutation();
  const [register, { isLoading: registering }] = useRegisterMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [form] = Form.useForm<Account>();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const frame = (body: React.ReactNode) => (
    <div className="bo-center">
      <Card className="bo-card" title={<Typography.Title level={3} style={{ margin: 0 }}>{t('team:join.title')}</Typography.Title>} extra={<LanguageSwitch />}>
        {body}
      </Card>
    </div>
  );

  if (isLoading) return frame(<Spin />);
  const state = p?.state ?? (apiError(error)?.code === 'invitation_not_found' ? 'notFound' : error ? 'failed' : 'notFound');
  if (state !== 'valid' || !p) {
    return frame(
      <Result
        status={state === 'failed' ? 'error' : 'warning'}
        title={t(`team:join.states.${state}`)}
        extra={<Link to={signedIn ? '/choose-store' : '/login'}>{t(signedIn ? 'team:join.toStores' : 'team:join.toLogin')}</Link>}
        data-testid="join-state"
      />,
    );
  }

  const join = async () => {
    setFailure(null);
    try {
      await accept({ key }).unwrap();
      navigate('/choose-store', { replace: true });
    } catch (e) {
      setFailure(refusalKey(apiError(e)?.code) ?? 'common:errors.tryLater');
    }
  };

  const create = async (v: Account) => {
    setFailure(null);
    try {
      const r = await register({
        registerInput: { invitationKey: key, email: v.email.trim(), password: v.password, firstName: v.firstName.trim(), lastName: v.lastName.trim() },
      }).unwrap();
      dispatch(loggedIn({ token: r.token, user: { id: r.user.id, email: r.user.email, name: r.user.name } }));
      navigate('/choose-store', { replace: true });
    } catch (e) {
      if (showServerErrors(e, form, t, { ns: 'team', codes: { user_email_taken: { field: 'email', message: 'team:errors.user_email_taken' } } })) return;
      setFailure(refusalKey(apiError(e)?.code) ?? 'common:errors.tryLater');
    }
  };

  const required = { required: true, whitespace: true, message: t('common:validation.required') };
  return frame(
    <>
      <Typography.Paragraph>{t('team:join.offer', { inviter: p.inviterName, store: p.storeName })}</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('team:join.store')}>
          <span data-testid="join-store">{p.storeName}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('team:fields.permission')}>{t(`common:permission.${p.permission}`)}</Descriptions.Item>
        <Descriptions.Item label={t('team:fields.role')}>{p.roleName === p.permission ? t(`common:permission.${p.permission}`) : p.roleName}</Descriptions.Item>
        <Descriptions.Item label={t('team:invitations.expiredAt')}>{formatDateTime(p.expiredAt, i18n.language)}</Descriptions.Item>
      </Descriptions>
      {failure ? <Alert type="error" showIcon title={t(failure)} style={{ marginBottom: 16 }} data-testid="join-error" /> : null}
      {signedIn ? (
        <Button type="primary" block loading={joining} onClick={() => void join()} data-testid="join-accept">
          {t('team:join.accept', { store: p.storeName })}
        </Button>
      ) : (
        <>
          <Typography.Title level={5}>{t('team:join.newAccount')}</Typography.Title>
          <Form form={form} layout="vertical" onFinish={(v) => void create(v)} requiredMark={false}>
            <Form.Item name="firstName" label={t('team:fields.firstName')} rules={[required, { max: 100 }]}>
              <Input autoComplete="given-name" data-testid="join-first-name" />
            </Form.Item>
            <Form.Item name="lastName" label={t('team:fields.lastName')} rules={[required, { max: 100 }]}>
              <Input autoComplete="family-name" data-testid="join-last-name" />
            </Form.Item>
            <Form.Item name="email" label={t('team:fields.email')} rules={[required, { type: 'email', message: t('common:validation.email') }]}>
              <Input type="email" autoComplete="username" data-testid="join-email" />
            </Form.Item>
            <Form.Item name="password" label={t('auth:login.password')} rules={[required, { min: 8, message: t('common:validation.password_short') }]}>
              <Input.Password autoComplete="new-password" data-testid="join-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={registering} data-testid="join-register">
              {t('team:join.register')}
            </Button>
          </Form>
          <Divider plain>{t('team:join.or')}</Divider>
          <Link to={`/login?next=${encodeURIComponent(`/invitations/${key}`)}`} data-testid="join-login">
            {t('team:join.haveAccount')}
          </Link>
        </>
      )}
    </>,
  );
}
