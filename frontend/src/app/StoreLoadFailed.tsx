import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The store could not be loaded: say so, with a retry and a way back to the picker. */
export default function StoreLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Result
      status="warning"
      title={t('storeLoad.title')}
      subTitle={t('storeLoad.message')}
      data-testid="store-load-failed"
      extra={[
        <Button key="retry" type="primary" onClick={onRetry} data-testid="store-load-retry">
          {t('storeLoad.retry')}
        </Button>,
        <Link key="back" to="/choose-store">
          {t('storeLoad.back')}
        </Link>,
      ]}
    />
  );
}
