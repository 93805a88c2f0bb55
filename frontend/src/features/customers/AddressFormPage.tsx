import { useEffect } from 'react';
import { Button, Card, Checkbox, Col, Form, Input, Row, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';

import { AddressFields, addressCountry, useInternational } from '@/shared/address/AddressFields';
import { notifySuccess } from '@/shared/dialogs/notify';
import { checkEmail, checkInternationalPhone, checkThaiPhone } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { BottomBar } from '@/shared/list/Actions';
import { useCreateAddressMutation, useGetAddressQuery, useGetCustomerQuery, useUpdateAddressMutation } from './api';
import { showServerErrors } from '@/shared/form/serverErrors';
import { CUSTOMER_ERRORS } from './formErrors';

interface Values {
  name: string;
  tel: string;
  email: string;
  address: string;
  subDistrict: string;
  district: string;
  stateProvince: string;
  postcode: string;
  country: string;
  international?: boolean;
  city: string;
  isDefault: boolean;
}

/** Create (address-book-create), edit (address-book-edit/{id}) and edit the customer's
 * default address from the detail screen (address-book/detail-edit). */
export default function AddressFormPage() {
  const { t } = useTranslation(['customers', 'common']);
  const { storeId, customerId, addressId } = useParams();
  const location = useLocation();
  const id = Number(storeId);
  const cid = Number(customerId);
  const detailEdit = location.pathname.endsWith('/detail-edit');
  const { data: customer } = useGetCustomerQuery({ id, customerId: cid });
  const targetId = addressId ? Number(addressId) : detailEdit ? customer?.defaultAddressId : undefined;
  const editing = addressId !== undefined || detailEdit;
  const { data: current, isLoading } = useGetAddressQuery({ id, customerId: cid, addressId: targetId ?? 0 }, { skip: !targetId });
  const [create, { isLoading: creating }] = useCreateAddressMutation();
  const [update, { isLoading: updating }] = useUpdateAddressMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const abroad = useInternational(form);

  useEffect(() => {
    if (current) form.setFieldsValue({ ...current, country: current.country || 'TH' });
  }, [current, form]);

  const rule = useCheck();

  const back = `/${id}/customer-detail/${cid}/address-book`;
  const submit = async (v: Values) => {
    const body = {
      name: v.name ?? '',
      tel: v.tel ?? '',
      email: v.email ?? '',
      address: v.address,
      subDistrict: v.subDistrict ?? '',
      district: v.district ?? '',
      stateProvince: v.stateProvince ?? '',
      postcode: v.postcode ?? '',
      ...addressCountry(v),
      city: v.city ?? '',
    };
    try {
      if (editing && targetId) await update({ id, customerId: cid, addressId: targetId, addressPatchInput: body }).unwrap();
      else await create({ id, customerId: cid, addressInput: { ...body, isDefault: Boolean(v.isDefault) } }).unwrap();
      notifySuccess(t(editing ? 'customers:addressBook.updated' : 'customers:addressBook.added'));
      navigate(detailEdit ? `/${id}/customer-detail/${cid}` : back);
    } catch (e) {
      showServerErrors(e, form, t, CUSTOMER_ERRORS);
    }
  };

  if (editing && (isLoading || !current)) return <Spin />;
  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t(editing ? 'customers:addressBook.editTitle' : 'customers:addressBook.createTitle', { name: customer?.name ?? '' })}</h1>
      </div>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ country: 'TH' }} data-testid="address-form" scrollToFirstError>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="name" label={t('customers:addressBook.recipient')} extra={t('customers:addressBook.recipientHint')}>
              <Input data-testid="field-recipient" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="tel" label={t('customers:fields.tel')} rules={[rule(abroad ? checkInternationalPhone : checkThaiPhone, true)]}>
              <Input inputMode="tel" data-testid="field-recipient-tel" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="email" label={t('customers:fields.email')} rules={[rule(checkEmail)]}>
              <Input type="email" />
            </Form.Item>
          </Col>
        </Row>
        <AddressFields form={form} />
        {editing ? null : (
          <Form.Item name="isDefault" valuePropName="checked">
            <Checkbox data-testid="field-make-default">{t('customers:addressBook.makeDefault')}</Checkbox>
          </Form.Item>
        )}
        <BottomBar data-testid="address-form-actions">
          <Button onClick={() => navigate(back)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="address-save">
            {t('common:actions.save')}
          </Button>
        </BottomBar>
      </Form>
    </Card>
  );
}
