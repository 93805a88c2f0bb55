import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Covers the screen while the app or the store loads. */
export function BlockingLoader() {
  const { t } = useTranslation('common');
  return (
    <div className="bo-blocking-loader" role="status" aria-live="polite" data-testid="blocking-loader">
      <Spin size="large" />
      <span className="bo-sr-only">{t('loading')}</span>
    </div>
  );
}
