import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.message')}
      extra={<Button onClick={() => navigate('/choose-store')}>{t('notFound.back')}</Button>}
      data-testid="not-found"
    />
  );
}

export default NotFoundPage;
