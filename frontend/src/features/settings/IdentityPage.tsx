import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Form, Input, Row, Space, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { AddressFields } from '@/shared/address/AddressFields';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { PicturePicker } from '@/shared/form/PicturePicker';
import { checkEmail, checkRequired } from '@/shared/form/rules';
import { serverFieldErrors } from '@/shared/form/serverErrors';
import { useCheck } from '@/shared/form/useCheck';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useGetIdentityQuery, useIdentityPhotoUrlQuery, useSubmitIdentityFormMutation } from './api';

interface Values {
  firstName: string;
  lastName: string;
  tel: string;
  email: string;
  address: string;
  subDistrict: string;
  district: string;
  stateProvince: string;
  postcode: string;
}

type Kind = 'idCard' | 'holding';

/** Digits only, 9 or 10 of them (SPEC §5: identity tel is digits only). */
export function checkIdentityTel(v: string): string | null {
  const s = v.trim();
  if (!s) return 'validation.required';
  return /^\d{9,10}$/.test(s) ? null : 'validation.phone_digits';
}

const STEP: Record<string, number> = { pending: 0, submitted: 1, approved: 2 };

/** /setting/additional-info-identity (owner): the owner's details and two photos (the ID card,
 * and holding it), sent for the operator's approval; the page shows where the store stands. */
export default function IdentityPage() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { data, isLoading } = useGetIdentityQuery({ id });
  const [submit, { isLoading: sending }] = useSubmitIdentityFormMutation();
  const [form] = Form.useForm<Values>();
  const rule = useCheck();
  const [files, setFiles] = useState<Partial<Record<Kind, File>>>({});
  const [photoError, setPhotoError] = useState<Partial<Record<Kind, string>>>({});
  const version = data?.submittedAt ?? '';
  const { data: keptCard } = useIdentityPhotoUrlQuery({ id, kind: 'id_card', version }, { skip: !data?.hasIdCardPhoto });
  const { data: keptHolding } = useIdentityPhotoUrlQuery({ id, kind: 'holding', version }, { skip: !data?.hasHoldingPhoto });
  const previews = useMemo(
    () => ({
      idCard: files.idCard ? URL.createObjectURL(files.idCard) : undefined,
      holding: files.holding ? URL.createObjectURL(files.holding) : undefined,
    }),
    [files],
  );
  useEffect(() => () => Object.values(previews).forEach((u) => u && URL.revokeObjectURL(u)), [previews]);

  useEffect(() => {
    if (!data || data.status === 'pending') return;
    form.setFieldsValue({
      firstName: data.firstName,
      lastName: data.lastName,
      tel: data.tel,
      email: data.email,
      address: data.address,
      subDistrict: data.subDistrict,
      district: data.district,
      stateProvince: data.stateProvince,
      postcode: data.postcode,
    });
  }, [data, form]);

  const approved = data?.status === 'approved';
  const has = (k: Kind) => Boolean(files[k]) || (k === 'idCard' ? data?.hasIdCardPhoto : data?.hasHoldingPhoto);

  const send = async (v: Values) => {
    const missing: Partial<Record<Kind, string>> = {};
    for (const k of ['idCard', 'holding'] as const) if (!has(k)) missing[k] = t('common:validation.photo_required');
    setPhotoError(missing);
    if (Object.keys(missing).length) return;
    try {
      await submit({
        id,
        fields: {
          first_name: v.firstName.trim(),
          last_name: v.lastName.trim(),
          tel: v.tel.trim(),
          email: v.email.trim(),
          address: v.address.trim(),
          sub_district: v.subDistrict,
          district: v.district,
          state_province: v.stateProvince,
          postcode: v.postcode,
        },
        idCard: files.idCard,
        holding: files.holding,
      }).unwrap();
      setFiles({});
      notifySuccess(t('settings:identity.submitted'));
    } catch (e) {
      const errors = serverFieldErrors(e, t, { ns: 'settings' });
      const photos: Partial<Record<Kind, string>> = {};
      const rest = errors.filter((f) => {
        if (f.name === 'idCardPhoto') photos.idCard = f.errors[0];
        else if (f.name === 'holdingPhoto') photos.holding = f.errors[0];
        else return true;
        return false;
      });
      setPhotoError(photos);
      form.setFields(rest as Parameters<typeof form.setFields>[0]);
      if (errors.length === 0 && !globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) {
        const code = apiError(e)?.code;
        notifyError(t(code === 'identity_approved' ? 'settings:identity.errors.identity_approved' : 'settings:identity.errors.failed'));
      }
    }
  };

  const photo = (k: Kind, label: string, hint: string) => (
    <Form.Item label={label} required validateStatus={photoError[k] ? 'error' : undefined} help={photoError[k] ?? hint}>
      <PicturePicker
        src={previews[k] ?? (k === 'idCard' ? keptCard : keptHolding)}
        onPick={(f) => {
          setFiles((p) => ({ ...p, [k]: f }));
          setPhotoError((p) => ({ ...p, [k]: undefined }));
        }}
        onRefuse={(m) => setPhotoError((p) => ({ ...p, [k]: m }))}
        disabled={approved}
        height={120}
        testId={k === 'idCard' ? 'identity-id-card' : 'identity-holding'}
      />
    </Form.Item>
  );

  const status = data?.status ?? 'pending';
  return (
    <Card loading={isLoading} data-testid="identity">
      <div className="bo-page-head">
        <h1>{t('settings:identity.title')}</h1>
      </div>
      <Steps
        current={STEP[status] ?? 0}
        style={{ marginBottom: 24 }}
        items={[
          { title: t('settings:identity.state.pending') },
          { title: t('settings:identity.state.submitted') },
          { title: t('settings:identity.state.approved') },
        ]}
        data-testid="identity-steps"
      />
      <Alert
        type={approved ? 'success' : status === 'submitted' ? 'info' : 'warning'}
        showIcon
        style={{ marginBottom: 24 }}
        data-testid="identity-status"
        data-status={status}
        title={t(`settings:identity.explain.${status}`, {
          at: formatDateTime(status === 'approved' ? data?.approvedAt : data?.submittedAt, i18n.language),
        })}
      />
      <Form form={form} layout="vertical" onFinish={(v) => void send(v)} disabled={approved} requiredMark style={{ maxWidth: 760 }} data-testid="identity-form">
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="firstName" label={t('settings:identity.fields.firstName')} rules={[rule((v) => checkRequired(v, 200))]}>
              <Input data-testid="field-first-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="lastName" label={t('settings:identity.fields.lastName')} rules={[rule((v) => checkRequired(v, 200))]}>
              <Input data-testid="field-last-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="tel" label={t('settings:identity.fields.tel')} rules={[rule(checkIdentityTel)]} extra={t('settings:identity.telHint')}>
              <Input inputMode="numeric" maxLength={10} data-testid="field-tel" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email" label={t('settings:identity.fields.email')} rules={[rule((v) => checkRequired(v, 254) ?? checkEmail(v))]}>
              <Input inputMode="email" data-testid="field-email" />
            </Form.Item>
          </Col>
        </Row>
        <AddressFields form={form} thaiOnly />
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {photo('idCard', t('settings:identity.fields.idCardPhoto'), t('settings:identity.idCardHint'))}
          </Col>
          <Col xs={24} md={12}>
            {photo('holding', t('settings:identity.fields.holdingPhoto'), t('settings:identity.holdingHint'))}
          </Col>
        </Row>
        {approved ? null : (
          <Space>
            <Button type="primary" htmlType="submit" loading={sending} data-testid="identity-submit">
              {t(status === 'submitted' ? 'settings:identity.resubmit' : 'settings:identity.submit')}
            </Button>
            <Typography.Text type="secondary">{t('settings:identity.privacy')}</Typography.Text>
          </Space>
        )}
      </Form>
    </Card>
  );
}
