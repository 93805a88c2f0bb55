import { Button, Card, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { globalErrorKind } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { checkRequired } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { useCreateStoreUnitMutation } from './api';
import { BASE_UNITS, checkQuantity, NAME_MAX, UNIT_ERRORS } from './units';
import { showServerErrors } from '@/shared/form/serverErrors';

interface Values {
  name: string;
  quantity: string;
  baseUnit: string;
}

/** /setting/unit-of-measurement-create: a name, a quantity and one of the six base units. */
export default function UnitFormPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [create, { isLoading }] = useCreateStoreUnitMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const list = `/${id}/setting/unit-of-measurement`;

  const submit = async (v: Values) => {
    try {
      await create({ id, unitInput: { name: v.name.trim(), quantity: v.quantity.trim(), baseUnit: v.baseUnit } }).unwrap();
      notifySuccess(t('settings:unitForm.created'));
      navigate(list);
    } catch (e) {
      if (showServerErrors(e, form, t, UNIT_ERRORS)) {
        // shown under the fields
      } else if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) {
        notifyError(t('settings:errors.unit_create_failed'));
      }
    }
  };

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('settings:unitForm.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('settings:unitForm.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit} data-testid="unit-form" style={{ maxWidth: 480 }}>
        <Form.Item name="name" label={t('settings:unitFields.name')} rules={[rule((v) => checkRequired(v, NAME_MAX))]}>
          <Input placeholder={t('settings:unitFields.namePlaceholder')} data-testid="field-name" />
        </Form.Item>
        <Form.Item name="quantity" label={t('settings:unitFields.quantity')} rules={[rule(checkQuantity)]}>
          <Input inputMode="numeric" data-testid="field-quantity" />
        </Form.Item>
        <Form.Item name="baseUnit" label={t('settings:unitFields.baseUnit')} rules={[rule((v) => (v ? null : 'validation.required'))]}>
          <Select
            placeholder={t('settings:unitFields.baseUnitPlaceholder')}
            options={BASE_UNITS.map((u) => ({ value: u, label: t(`settings:baseUnits.${u}`) }))}
            data-testid="field-base-unit"
          />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(list)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={isLoading} data-testid="unit-save">
            {t('common:actions.save')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
