import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { AddressFields } from '@/shared/address/AddressFields';
import { globalErrorKind } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { PicturePicker } from '@/shared/form/PicturePicker';
import { checkRequired } from '@/shared/form/rules';
import { serverFieldErrors, showServerErrors } from '@/shared/form/serverErrors';
import { useCheck } from '@/shared/form/useCheck';
import { useGetStoreQuery, useRemoveLogoMutation, useSetLogoFileMutation, useUpdateStoreMutation } from './api';

interface Values {
  name: string;
  address: string;
  subDistrict: string;
  district: string;
  stateProvince: string;
  postcode: string;
  tel: string;
  vatIncluded: boolean;
}

/** /setting/store-edit (owner only): the store's name, Thai address with the autocomplete the
 * customer screens have, phone and whether prices include VAT. */
export default function StoreEditPage() {
  const { t } = useTranslation(['store', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { data: s, isLoading } = useGetStoreQuery({ id });
  const [update, { isLoading: saving }] = useUpdateStoreMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const [setLogo, { isLoading: logoSaving }] = useSetLogoFileMutation();
  const [removeLogo, { isLoading: logoRemoving }] = useRemoveLogoMutation();
  const [logoError, setLogoError] = useState<string>();

  const pickLogo = async (file: File) => {
    setLogoError(undefined);
    try {
      await setLogo({ id, file }).unwrap();
      notifySuccess(t('store:logo.saved'));
    } catch (e) {
      const shown = serverFieldErrors(e, t)[0]?.errors[0];
      if (shown) setLogoError(shown);
      else if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('store:logo.failed'));
    }
  };
  const dropLogo = async () => {
    try {
      await removeLogo({ id }).unwrap();
      notifySuccess(t('store:logo.removed'));
    } catch (e) {
      if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('store:logo.failed'));
    }
  };

  useEffect(() => {
    if (!s) return;
    form.setFieldsValue({
      name: s.name,
      address: s.address,
      subDistrict: s.subDistrict,
      district: s.district,
      stateProvince: s.province,
      postcode: s.postcode,
      tel: s.tel,
      vatIncluded: s.vatIncluded,
    });
  }, [s, form]);

  const submit = async (v: Values) => {
    try {
      await update({
        id,
        storeInput: {
          name: v.name.trim(),
          address: v.address.trim(),
          subDistrict: v.subDistrict,
          district: v.district,
          province: v.stateProvince,
          postcode: v.postcode,
          tel: (v.tel ?? '').trim(),
          vatIncluded: v.vatIncluded,
        },
      }).unwrap();
      notifySuccess(t('store:edit.saved'));
      navigate(`/${id}/setting/store-detail`);
    } catch (e) {
      showServerErrors(e, form, t, { rename: { province: 'stateProvince' } });
    }
  };

  return (
    <Card loading={isLoading}>
      <div className="bo-page-head">
        <h1>{t('store:edit.title')}</h1>
      </div>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} style={{ maxWidth: 720 }} data-testid="store-form">
        <Form.Item label={t('store:logo.title')} validateStatus={logoError ? 'error' : undefined} help={logoError ?? t('store:logo.hint')}>
          <PicturePicker
            src={s?.logoUrl || undefined}
            onPick={(f) => void pickLogo(f)}
            onRemove={() => void dropLogo()}
            onRefuse={setLogoError}
            busy={logoSaving || logoRemoving}
            testId="store-logo"
          />
        </Form.Item>
        <Form.Item name="name" label={t('store:fields.name')} rules={[rule((v) => checkRequired(v, 200))]}>
          <Input data-testid="field-name" />
        </Form.Item>
        <AddressFields form={form} thaiOnly />
        <Form.Item name="tel" label={t('store:fields.tel')} rules={[{ pattern: /^[0-9\s-]*$/, message: t('common:validation.phone_digits') }]}>
          <Input inputMode="tel" data-testid="field-tel" />
        </Form.Item>
        <Form.Item name="vatIncluded" label={t('store:fields.vat')} valuePropName="checked" extra={t('store:edit.vatHint')}>
          <Switch data-testid="field-vat" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="store-save">
            {t('common:actions.save')}
          </Button>
          <Button onClick={() => navigate(`/${id}/setting/store-detail`)}>{t('common:actions.back')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
