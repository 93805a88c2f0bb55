import { useEffect } from 'react';
import { Col, Form, Input, Radio, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { notifySuccess } from '@/shared/dialogs/notify';
import { checkThaiPhone, MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { useCreateSellerMutation, useGetSellerQuery, useListBranchesQuery, useUpdateSellerMutation, type PosPersonInput } from './api';
import { BranchSelect, FormButtons, FormCard, Gone, NoBranchNotice, usePickOnlyBranch } from './FormParts';
import { checkCode, checkName, checkPersonEmail, listPath, SELLER_ERRORS } from './pos';
import { showSaveRefusal } from '@/shared/refusal';

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  branchId?: number;
  tel?: string;
  code?: string;
  status?: string;
}

const STATUSES = ['active', 'inactive'] as const;

/** /pos-setting/seller/create and /pos-setting/seller/{id}/edit: the sales staff a sale is
 * credited to. A new seller is active with no phone or code; editing adds those and the status. */
export default function SellerFormPage() {
  const { t } = useTranslation(['pos', 'common']);
  const { storeId, sellerId } = useParams();
  const id = Number(storeId);
  const editing = sellerId !== undefined;
  const current = useGetSellerQuery({ id, sellerId: Number(sellerId) }, { skip: !editing });
  const branches = useListBranchesQuery({ id });
  const [create, { isLoading: creating }] = useCreateSellerMutation();
  const [update, { isLoading: updating }] = useUpdateSellerMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const back = listPath(id, 'sellers');

  usePickOnlyBranch(form, branches.data?.data, !editing);
  useEffect(() => {
    const s = current.data;
    if (s) form.setFieldsValue({ firstName: s.firstName, lastName: s.lastName, email: s.email, branchId: s.branchId, tel: s.tel, code: s.code, status: s.status });
  }, [current.data, form]);

  const submit = async (v: Values) => {
    const person: PosPersonInput = { firstName: v.firstName.trim(), lastName: v.lastName.trim(), email: v.email.trim(), branchId: v.branchId };
    try {
      if (editing) {
        const more = { tel: (v.tel ?? '').trim(), code: (v.code ?? '').trim(), status: v.status };
        await update({ id, sellerId: Number(sellerId), posPersonInput: { ...person, ...more } }).unwrap();
      } else {
        await create({ id, posPersonInput: person }).unwrap();
      }
      notifySuccess(t(editing ? 'pos:sellerForm.updated' : 'pos:sellerForm.created'));
      navigate(back);
    } catch (e) {
      showSaveRefusal(e, form, t, SELLER_ERRORS);
    }
  };

  if (editing && current.isError) return <Gone message={t('pos:errors.seller_not_found')} back={back} />;

  return (
    <FormCard title={t(editing ? 'pos:sellerForm.editTitle' : 'pos:sellerForm.createTitle')} loading={editing && current.isLoading}>
      <NoBranchNotice storeId={id} show={branches.isSuccess && branches.data.data.length === 0} />
      {!editing ? <Typography.Paragraph type="secondary">{t('pos:sellerForm.createHint')}</Typography.Paragraph> : null}
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} style={{ maxWidth: 560 }} data-testid="seller-form">
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name="firstName" label={t('pos:fields.firstName')} rules={[rule(checkName)]}>
              <Input data-testid="field-firstName" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="lastName" label={t('pos:fields.lastName')} rules={[rule(checkName)]}>
              <Input data-testid="field-lastName" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="email" label={t('pos:fields.email')} rules={[rule(checkPersonEmail)]}>
          <Input type="email" data-testid="field-email" />
        </Form.Item>
        <Form.Item name="branchId" label={t('pos:fields.branch')} rules={[{ required: true, message: t(`common:${MSG.required}`) }]}>
          <BranchSelect branches={branches.data?.data ?? []} loading={branches.isFetching} />
        </Form.Item>
        {editing ? (
          <>
            <Row gutter={12}>
              <Col xs={24} md={12}>
                <Form.Item name="tel" label={t('pos:fields.tel')} extra={t('pos:sellerForm.telHint')} rules={[rule(checkThaiPhone, true)]}>
                  <Input inputMode="tel" data-testid="field-tel" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="code" label={t('pos:fields.code')} extra={t('pos:sellerForm.codeHint')} rules={[rule(checkCode)]}>
                  <Input data-testid="field-code" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="status" label={t('pos:fields.status')}>
              <Radio.Group optionType="button" buttonStyle="solid" data-testid="field-status">
                {STATUSES.map((s) => (
                  <Radio.Button key={s} value={s} data-testid={`seller-status-${s}`}>
                    {t(`pos:status.${s}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
          </>
        ) : null}
        <FormButtons back={back} saving={creating || updating} testId="seller-save" />
      </Form>
    </FormCard>
  );
}
