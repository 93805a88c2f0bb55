import { Card, List, Progress, Typography } from 'antd';
import { CheckCircleTwoTone, ClockCircleOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { LOGISTIC_EDIT } from '@/features/logistics/api';
import { PAYMENT_EDIT } from '@/features/payments/api';
import { useCan } from '@/shared/useCan';
import { useGettingStartedQuery } from './api';

const STEPS = ['payment', 'logistic', 'product', 'goodsReceipt'] as const;

/** The store's first steps (SPEC §3 Store: getting-started flags). */
export default function GettingStartPage() {
  const { t } = useTranslation(['store', 'common']);
  const { storeId } = useParams();
  const { data, isLoading } = useGettingStartedQuery();
  const canPayments = useCan(PAYMENT_EDIT);
  const canLogistics = useCan(LOGISTIC_EDIT);
  // The screens where a step is done, for the member who may open them.
  const paths: Partial<Record<(typeof STEPS)[number], string>> = {
    ...(canPayments ? { payment: 'setting/payment-list' } : {}),
    ...(canLogistics ? { logistic: 'setting/logistic' } : {}),
  };
  const done = STEPS.filter((s) => data?.[s]).length;
  return (
    <Card data-testid="getting-start">
      <div className="bo-page-head">
        <h1>{t('store:gettingStart.title')}</h1>
        <Progress type="circle" size={56} percent={Math.round((done / STEPS.length) * 100)} />
      </div>
      <Typography.Paragraph type="secondary">{t('store:gettingStart.subtitle')}</Typography.Paragraph>
      <List
        loading={isLoading}
        dataSource={[...STEPS]}
        renderItem={(step) => (
          <List.Item
            data-testid={`step-${step}`}
            actions={
              paths[step]
                ? [
                    <Link key="go" to={`/${storeId}/${paths[step]}`} data-testid={`step-${step}-go`}>
                      {t(data?.[step] ? 'store:gettingStart.manage' : 'store:gettingStart.start')} <RightOutlined />
                    </Link>,
                  ]
                : undefined
            }
          >
            <List.Item.Meta
              avatar={data?.[step] ? <CheckCircleTwoTone twoToneColor="#389e0d" /> : <ClockCircleOutlined />}
              title={t(`store:gettingStart.steps.${step}.title`)}
              description={t(`store:gettingStart.steps.${step}.${data?.[step] ? 'done' : 'todo'}`)}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
