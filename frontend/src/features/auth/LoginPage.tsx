import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';

import { useAppDispatch } from '@/app/hooks';
import { loggedIn } from '@/app/session';
import { apiError } from '@/app/api/errors';
import { LanguageSwitch } from '@/app/layouts/Header';
import { refusalKey } from '@/shared/refusal';
import { useLoginMutation } from './api';
import { deviceFor, rememberDevice } from './device';

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (v: { email: string; password: string }) => {
    setFailure(null);
    try {
      const email = v.email.trim();
      const r = await login({ loginInput: { email, password: v.password, device: deviceFor(email) } }).unwrap();
      rememberDevice(email, r.device);
      dispatch(loggedIn({ token: r.token, user: { id: r.user.id, email: r.user.email, name: r.user.name } }));
      navigate(params.get('next') ?? '/choose-store', { replace: true });
    } catch (e) {
      const code = apiError(e)?.code;
      setFailure(
        code === 'invalid_credentials' || code === 'too_many_attempts' ? `auth:login.${code}` : (refusalKey(code) ?? 'common:errors.cannotFetch'),
      );
    }
  };

  return (
    <div className="bo-center">
      <Card className="bo-card" title={<Typography.Title level={3} style={{ margin: 0 }}>{t('auth:login.title')}</Typography.Title>} extra={<LanguageSwitch />}>
        <Typography.Paragraph type="secondary">{t('auth:login.subtitle')}</Typography.Paragraph>
        {failure ? <Alert type="error" showIcon title={t(failure)} style={{ marginBottom: 16 }} data-testid="login-error" /> : null}
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="email" label={t('auth:login.email')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Input autoComplete="username" type="email" data-testid="login-email" />
          </Form.Item>
          <Form.Item name="password" label={t('auth:login.password')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Input.Password autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isLoading} data-testid="login-submit">
            {t('auth:login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
