import { useEffect } from 'react';
import { Button, Card, Col, Divider, Form, Input, Row, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { AddressFields, addressCountry } from '@/shared/address/AddressFields';
import { notifySuccess } from '@/shared/dialogs/notify';
import { checkEmail, checkRequired, checkThaiPhone } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { BottomBar } from '@/shared/list/Actions';
import { useCreateCustomerMutation, useGetCustomerQuery, useUpdateCustomerMutation } from './api';
import { showServerErrors } from '@/shared/form/serverErrors';
import { CUSTOMER_ERRORS } from './formErrors';

interface Values {
  name: string;
  tel: string;
  email: string;
  facebook: string;
  line: string;
  address: string;
  subDistrict: string;
  district: string;
  stateProvince: string;
  postcode: string;
  country: string;
  international?: boolean;
  city: string;
}

/** Create (/customer-create) and edit (/customer-edit/{id}) share this screen. */
export default function CustomerFormPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { storeId, customerId } = useParams();
  const id = Number(storeId);
  const editing = customerId !== undefined;
  const { data: current, isLoading } = useGetCustomerQuery({ id, customerId: Number(customerId) }, { skip: !editing });
  const [create, { isLoading: creating }] = useCreateCustomerMutation();
  const [update, { isLoading: updating }] = useUpdateCustomerMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();

  useEffect(() => {
    if (current) form.setFieldsValue({ ...current, country: current.country || 'TH' });
  }, [current, form]);

  const rule = useCheck();

  const submit = async (v: Values) => {
    const body = {
      name: v.name,
      tel: v.tel,
      email: v.email ?? '',
      facebook: v.facebook ?? '',
      line: v.line ?? '',
      address: v.address,
      subDistrict: v.subDistrict ?? '',
      district: v.district ?? '',
      stateProvince: v.stateProvince ?? '',
      postcode: v.postcode ?? '',
      ...addressCountry(v),
      city: v.city ?? '',
    };
    try {
      const saved = editing
        ? await update({ id, customerId: Number(customerId), customerPatch: body }).unwrap()
        : await create({ id, customerInput: body }).unwrap();
      notifySuccess(t(editing ? 'customers:form.updated' : 'customers:form.created'));
      navigate(`/${id}/customer-detail/${saved.id}`);
    } catch (e) {
      showServerErrors(e, form, t, CUSTOMER_ERRORS);
    }
  };

  if (editing && isLoading) return <Spin />;
  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t(editing ? 'customers:form.editTitle' : 'customers:form.createTitle')}</h1>
      </div>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ country: 'TH' }} data-testid="customer-form" scrollToFirstError>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('customers:fields.name')} rules={[rule((v) => checkRequired(v, 200))]}>
              <Input data-testid="field-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="tel" label={t('customers:fields.tel')} rules={[rule(checkThaiPhone)]}>
              <Input inputMode="tel" data-testid="field-tel" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email" label={t('customers:fields.email')} rules={[rule(checkEmail)]}>
              <Input type="email" data-testid="field-email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="line" label={t('customers:fields.line')}>
              <Input data-testid="field-line" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="facebook" label={t('customers:fields.facebook')}>
              <Input data-testid="field-facebook" />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start">{t('customers:form.addressSection')}</Divider>
        <AddressFields form={form} />
        <BottomBar data-testid="customer-form-actions">
          <Button onClick={() => navigate(-1)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="customer-save">
            {t('common:actions.save')}
          </Button>
        </BottomBar>
      </Form>
    </Card>
  );
}
