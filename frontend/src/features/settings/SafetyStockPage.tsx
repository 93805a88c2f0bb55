import { Button, Card, Descriptions, Form, Input, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';

import { globalErrorKind } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { useCheck } from '@/shared/form/useCheck';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCan } from '@/shared/useCan';
import { useCreateSafetyStockHistoryMutation, useGetLatestSafetyStockQuery } from './api';
import { SETTINGS_EDIT } from './routes';
import { checkAmount, wholeNumberValue } from './units';
import { showServerErrors } from '@/shared/form/serverErrors';

interface Values {
  amount: string;
}

/** /setting/safety-stock: the store's current safety stock and, for owners and store.*, a
 * form to set a new one (each setting is kept in the store's history). */
export default function SafetyStockPage() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { data: latest, error, isLoading } = useGetLatestSafetyStockQuery({ id });
  const [save, { isLoading: saving }] = useCreateSafetyStockHistoryMutation();
  const canEdit = useCan(SETTINGS_EDIT);
  const [form] = Form.useForm<Values>();
  const rule = useCheck();
  // 404 safety_stock_not_set: nothing was set yet.
  const current = error ? undefined : latest;

  const submit = async (v: Values) => {
    try {
      // One command: the store records it, and every SKU takes it from the store's event.
      const amount = wholeNumberValue(v.amount);
      await save({ safetyStockInput: { amount: String(amount) } }).unwrap();
      notifySuccess(t('settings:safetyStock.applied', { amount: amount.toLocaleString(i18n.language) }));
      form.resetFields();
    } catch (e) {
      if (showServerErrors(e, form, t, { ns: 'settings' })) {
        // shown under the fields
      } else if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) {
        notifyError(t('settings:errors.safety_stock_failed'));
      }
    }
  };

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('settings:safetyStock.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('settings:safetyStock.hint')}</Typography.Paragraph>
      {isLoading ? (
        <Spin />
      ) : (
        <Descriptions column={1} bordered size="small" style={{ maxWidth: 480, marginBottom: 24 }} data-testid="safety-stock-current">
          <Descriptions.Item label={t('settings:safetyStock.current')}>
            {current ? (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong data-testid="safety-stock-amount">
                  {t('settings:safetyStock.amountValue', { amount: current.amount.toLocaleString(i18n.language) })}
                </Typography.Text>
                <Typography.Text type="secondary">{t('settings:safetyStock.setAt', { date: formatDateTime(current.createdAt, i18n.language) })}</Typography.Text>
              </Space>
            ) : (
              <Typography.Text type="secondary" data-testid="safety-stock-not-set">
                {t('settings:safetyStock.notSet')}
              </Typography.Text>
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
      {canEdit ? (
        <Form form={form} layout="vertical" onFinish={submit} data-testid="safety-stock-form" style={{ maxWidth: 480 }}>
          <Form.Item name="amount" label={t('settings:safetyStock.amount')} rules={[rule(checkAmount)]}>
            <Input inputMode="numeric" data-testid="field-amount" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="safety-stock-save">
            {t('settings:safetyStock.save')}
          </Button>
        </Form>
      ) : (
        <Typography.Paragraph type="secondary">{t('settings:safetyStock.readOnly')}</Typography.Paragraph>
      )}
    </Card>
  );
}
