import { useEffect } from 'react';
import { Button, Card, Form, Input, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { useCan } from '@/shared/useCan';
import { useGetCustomerQuery, useUpdateCustomerMutation } from './api';
import { CUSTOMER_ERRORS } from './formErrors';
import { CUSTOMER_EDIT } from './routes';

/** The customer's social contacts: Facebook and LINE. */
export default function CustomerSocialPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { storeId, customerId } = useParams();
  const id = Number(storeId);
  const cid = Number(customerId);
  const { data: c, isLoading } = useGetCustomerQuery({ id, customerId: cid });
  const [update, { isLoading: saving }] = useUpdateCustomerMutation();
  const canEdit = useCan(CUSTOMER_EDIT);
  const [form] = Form.useForm<{ facebook: string; line: string }>();
  const navigate = useNavigate();
  useEffect(() => {
    if (c) form.setFieldsValue({ facebook: c.facebook, line: c.line });
  }, [c, form]);
  if (isLoading || !c) return <Spin />;
  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('customers:social.title', { name: c.name })}</h1>
      </div>
      <Form
        form={form}
        layout="vertical"
        disabled={!canEdit}
        onFinish={async (v) => {
          try {
            await update({ id, customerId: cid, customerPatch: { facebook: v.facebook ?? '', line: v.line ?? '' } }).unwrap();
            notifySuccess(t('customers:form.updated'));
            navigate(`/${id}/customer-detail/${cid}`);
          } catch (e) {
            showServerErrors(e, form, t, CUSTOMER_ERRORS);
          }
        }}
      >
        <Form.Item name="facebook" label={t('customers:fields.facebook')}>
          <Input />
        </Form.Item>
        <Form.Item name="line" label={t('customers:fields.line')}>
          <Input />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(`/${id}/customer-detail/${cid}`)}>{t('common:actions.back')}</Button>
          {canEdit ? (
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('common:actions.save')}
            </Button>
          ) : null}
        </Space>
      </Form>
    </Card>
  );
}
