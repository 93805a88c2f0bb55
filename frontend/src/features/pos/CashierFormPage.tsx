import { useEffect } from 'react';
import { Col, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { notifySuccess } from '@/shared/dialogs/notify';
import { MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { useCashierMembersQuery, useCreateCashierMutation, useGetCashierQuery, useListBranchesQuery, useUpdateCashierMutation } from './api';
import { BranchSelect, FormButtons, FormCard, Gone, NoBranchNotice, usePickOnlyBranch } from './FormParts';
import { CASHIER_ERRORS, checkName, checkPersonEmail, listPath } from './pos';
import { showSaveRefusal } from '@/shared/refusal';

interface Values {
  userId?: number;
  firstName: string;
  lastName: string;
  email: string;
  branchId?: number;
}

/** /pos-setting/cashier/create and /pos-setting/cashier/{id}/edit: an active member of the store
 * at a branch's tills. Picking the member fills their names and email, which stay editable;
 * the member cannot change afterwards. */
export default function CashierFormPage() {
  const { t } = useTranslation(['pos', 'common']);
  const { storeId, cashierId } = useParams();
  const id = Number(storeId);
  const editing = cashierId !== undefined;
  const current = useGetCashierQuery({ id, cashierId: Number(cashierId) }, { skip: !editing });
  const branches = useListBranchesQuery({ id });
  // The store's active members, readable with the same right as making a cashier.
  // Fresh on every visit: the team changes elsewhere.
  const members = useCashierMembersQuery({ id }, { skip: editing, refetchOnMountOrArgChange: true });
  const [create, { isLoading: creating }] = useCreateCashierMutation();
  const [update, { isLoading: updating }] = useUpdateCashierMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const back = listPath(id, 'cashiers');
  const active = members.data?.data ?? [];

  usePickOnlyBranch(form, branches.data?.data, !editing);
  useEffect(() => {
    const c = current.data;
    if (c) form.setFieldsValue({ userId: c.userId, firstName: c.firstName, lastName: c.lastName, email: c.email, branchId: c.branchId });
  }, [current.data, form]);

  const pick = (userId: number) => {
    const m = active.find((x) => x.userId === userId);
    if (!m) return;
    form.setFieldsValue({ firstName: m.firstName, lastName: m.lastName, email: m.email });
    void form.validateFields(['firstName', 'lastName', 'email']).catch(() => undefined);
  };

  const submit = async (v: Values) => {
    const person = { firstName: v.firstName.trim(), lastName: v.lastName.trim(), email: v.email.trim(), branchId: v.branchId };
    try {
      if (editing) await update({ id, cashierId: Number(cashierId), posPersonInput: person }).unwrap();
      else await create({ id, posPersonInput: { ...person, userId: v.userId } }).unwrap();
      notifySuccess(t(editing ? 'pos:cashierForm.updated' : 'pos:cashierForm.created'));
      navigate(back);
    } catch (e) {
      showSaveRefusal(e, form, t, CASHIER_ERRORS);
    }
  };

  if (editing && current.isError) return <Gone message={t('pos:errors.cashier_not_found')} back={back} />;

  const memberOptions = editing
    ? current.data
      ? [{ value: current.data.userId, label: current.data.name }]
      : []
    : active.map((m) => ({
        value: m.userId,
        label: `${m.name ? `${m.name} (${m.email})` : m.email}${m.isCashier ? ` · ${t('pos:cashierForm.alreadyCashier')}` : ''}`,
        disabled: m.isCashier,
      }));

  return (
    <FormCard title={t(editing ? 'pos:cashierForm.editTitle' : 'pos:cashierForm.createTitle')} loading={editing && current.isLoading}>
      <NoBranchNotice storeId={id} show={branches.isSuccess && branches.data.data.length === 0} />
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} style={{ maxWidth: 560 }} data-testid="cashier-form">
        <Form.Item
          name="userId"
          label={t('pos:fields.member')}
          extra={t(editing ? 'pos:cashierForm.memberFixed' : 'pos:cashierForm.memberHint')}
          rules={[{ required: true, message: t(`common:${MSG.required}`) }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            disabled={editing}
            loading={members.isFetching}
            placeholder={t('pos:cashierForm.memberPlaceholder')}
            options={memberOptions}
            onChange={(v: number) => pick(v)}
            data-testid="field-userId"
          />
        </Form.Item>
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
        <FormButtons back={back} saving={creating || updating} testId="cashier-save" />
      </Form>
    </FormCard>
  );
}
