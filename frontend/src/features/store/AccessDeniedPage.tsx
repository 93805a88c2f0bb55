import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

/** Receives the store id and the path that was refused (SPEC §2). */
export default function AccessDeniedPage() {
  const { t } = useTranslation('common');
  const { storeId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const pathName = params.get('pathName');
  return (
    <Result
      status="403"
      title={t('accessDenied.title')}
      subTitle={
        <>
          <span data-testid="access-denied">{t('accessDenied.message')}</span>
          {pathName ? (
            <Typography.Paragraph type="secondary" code style={{ marginTop: 8 }}>
              {pathName}
            </Typography.Paragraph>
          ) : null}
        </>
      }
      extra={<Button onClick={() => navigate(`/${storeId}/getting-start`)}>{t('accessDenied.back')}</Button>}
    />
  );
}
