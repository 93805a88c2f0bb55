import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import type { LotTakeBody } from './api';
import { daysUntil, expiryLevel, formatDate } from './lots';

/** A lot's expiry date, with a red tag once expired and an orange one within `withinDays`. */
export function ExpiryDate({ expiredAt, withinDays, testId }: { expiredAt?: string | null; withinDays?: number; testId?: string }) {
  const { t, i18n } = useTranslation('stock');
  if (!expiredAt) return <Typography.Text type="secondary">{t('stock:lots.noExpiry')}</Typography.Text>;
  const level = withinDays === undefined ? null : expiryLevel(expiredAt, withinDays);
  const days = daysUntil(expiredAt) ?? 0;
  return (
    <Space size={4} wrap data-testid={testId}>
      <span>{formatDate(expiredAt, i18n.language)}</span>
      {level === 'expired' ? (
        <Tag color="red" data-testid={testId ? `${testId}-tag` : undefined}>
          {t('stock:lots.expired')}
        </Tag>
      ) : level === 'soon' ? (
        <Tag color={days <= 7 ? 'red' : 'orange'} data-testid={testId ? `${testId}-tag` : undefined}>
          {days === 0 ? t('stock:lots.expiresToday') : t('stock:lots.daysLeft', { count: days })}
        </Tag>
      ) : null}
    </Space>
  );
}

/** The lots a movement took units from (or made): code × units, and each one's expiry. */
export function LotTakes({ lots, testId }: { lots: LotTakeBody[]; testId?: string }) {
  const { t, i18n } = useTranslation('stock');
  if (lots.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space orientation="vertical" size={2} data-testid={testId}>
      {lots.map((l) => (
        <span key={`${l.lotId}-${l.lotCode}`} style={{ whiteSpace: 'nowrap' }}>
          <Tag style={{ marginInlineEnd: 4 }}>{t('stock:lots.take', { code: l.lotCode, count: l.quantity })}</Tag>
          {l.expiredAt ? <Typography.Text type="secondary">{t('stock:lots.expiresOn', { date: formatDate(l.expiredAt, i18n.language) })}</Typography.Text> : null}
        </span>
      ))}
    </Space>
  );
}
