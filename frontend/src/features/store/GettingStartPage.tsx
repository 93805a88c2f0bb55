import { Card, List, Progress, Typography } from 'antd';
import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useGettingStartedQuery } from './api';

const STEPS = ['payment', 'logistic', 'product', 'goodsReceipt'] as const;

/** The store's first steps (SPEC §3 Store: getting-started flags). */
export default function GettingStartPage() {
  const { t } = useTranslation(['store', 'common']);
  const { data, isLoading } = useGettingStartedQuery();
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
          <List.Item data-testid={`step-${step}`}>
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
