import { useEffect } from 'react';
import { Col, Divider, Form, Input, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { useListWarehousesQuery } from '@/features/stock/api';
import { AddressFields } from '@/shared/address/AddressFields';
import { notifySuccess } from '@/shared/dialogs/notify';
import { MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { useCreateBranchMutation, useGetBranchQuery, useListBranchesQuery, useUpdateBranchMutation, type BranchInput } from './api';
import { BRANCH_ERRORS, branchLabel, checkBranchNumber, checkName, checkTaxId, cleanTaxId, listPath, MAIN_BRANCH } from './pos';
import { FormButtons, FormCard, Gone } from './FormParts';
import { showSaveRefusal } from '@/shared/refusal';

interface Values {
  isMain: boolean;
  branchNo: string;
  name: string;
  taxId: string;
  warehouseId?: number;
  address: string;
  subDistrict: string;
  district: string;
  stateProvince: string;
  postcode: string;
}

/** /pos-setting/branch-receipt (create) and /pos-setting/branch-receipt/{id}/edit: a branch as
 * its receipts print it (number, name, tax id, Thai address) and the warehouse its sales
 * deduct stock from. The main-branch switch fills 00000 and locks the number. */
export default function BranchFormPage() {
  const { t } = useTranslation(['pos', 'common']);
  const { storeId, branchId } = useParams();
  const [params] = useSearchParams();
  const id = Number(storeId);
  const editing = branchId !== undefined;
  const current = useGetBranchQuery({ id, branchId: Number(branchId) }, { skip: !editing });
  const { data: branches } = useListBranchesQuery({ id });
  const { data: warehouses, isFetching: loadingWarehouses } = useListWarehousesQuery();
  const [create, { isLoading: creating }] = useCreateBranchMutation();
  const [update, { isLoading: updating }] = useUpdateBranchMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const isMain = Form.useWatch('isMain', form) ?? false;
  const back = listPath(id, 'branches');
  const otherMain = branches?.data.find((b) => b.isMain && b.id !== Number(branchId));

  useEffect(() => {
    const b = current.data;
    if (!b) return;
    form.setFieldsValue({
      isMain: b.isMain,
      branchNo: b.branchNo,
      name: b.name,
      taxId: b.taxId,
      warehouseId: b.warehouseId || undefined,
      address: b.address,
      subDistrict: b.subDistrict,
      district: b.district,
      stateProvince: b.stateProvince,
      postcode: b.postcode,
    });
  }, [current.data, form]);

  const onMain = (on: boolean) => {
    const no = form.getFieldValue('branchNo') as string | undefined;
    form.setFieldsValue({ branchNo: on ? MAIN_BRANCH : no === MAIN_BRANCH ? '' : no });
    if (form.isFieldTouched('branchNo') || on) void form.validateFields(['branchNo']).catch(() => undefined);
  };

  const submit = async (v: Values) => {
    const body: BranchInput = {
      isMain: v.isMain,
      branchNo: v.branchNo.trim(),
      name: v.name.trim(),
      taxId: cleanTaxId(v.taxId),
      warehouseId: v.warehouseId,
      address: v.address.trim(),
      subDistrict: v.subDistrict.trim(),
      district: v.district.trim(),
      stateProvince: v.stateProvince.trim(),
      postcode: v.postcode.trim(),
    };
    try {
      if (editing) await update({ id, branchId: Number(branchId), branchInput: body }).unwrap();
      else await create({ id, branchInput: body }).unwrap();
      notifySuccess(t(editing ? 'pos:branchForm.updated' : 'pos:branchForm.created'));
      navigate(back);
    } catch (e) {
      showSaveRefusal(e, form, t, BRANCH_ERRORS);
    }
  };

  if (editing && current.isError) return <Gone message={t('pos:errors.branch_not_found')} back={back} />;

  return (
    <FormCard title={t(editing ? 'pos:branchForm.editTitle' : 'pos:branchForm.createTitle')} loading={editing && current.isLoading}>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={{ isMain: !editing && params.get('main') === '1', branchNo: !editing && params.get('main') === '1' ? MAIN_BRANCH : '' }}
        requiredMark={false}
        scrollToFirstError
        style={{ maxWidth: 720 }}
        data-testid="branch-form"
      >
        <Form.Item
          name="isMain"
          label={t('pos:fields.isMain')}
          valuePropName="checked"
          extra={otherMain && !isMain ? t('pos:branchForm.mainTaken', { branch: branchLabel(otherMain) }) : t('pos:branchForm.mainHint')}
        >
          <Switch onChange={onMain} data-testid="branch-main" />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name="branchNo" label={t('pos:fields.branchNo')} extra={t('pos:branchForm.numberHint')} rules={[rule((v) => checkBranchNumber(v, Boolean(form.getFieldValue('isMain'))))]}>
              <Input inputMode="numeric" maxLength={5} disabled={isMain} data-testid="field-branchNo" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('pos:fields.branchName')} rules={[rule(checkName)]}>
              <Input placeholder={t('pos:branchForm.namePlaceholder')} data-testid="field-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="taxId" label={t('pos:fields.taxId')} extra={t('pos:branchForm.taxIdHint')} rules={[rule(checkTaxId)]}>
              <Input inputMode="numeric" maxLength={20} data-testid="field-taxId" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="warehouseId" label={t('pos:fields.warehouse')} extra={t('pos:branchForm.warehouseHint')} rules={[{ required: true, message: t(`common:${MSG.required}`) }]}>
              <Select
                loading={loadingWarehouses}
                placeholder={t('pos:branchForm.warehousePlaceholder')}
                options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
                data-testid="field-warehouseId"
              />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start">{t('pos:branchForm.addressSection')}</Divider>
        <AddressFields form={form} thaiOnly />
        <FormButtons back={back} saving={creating || updating} testId="branch-save" />
      </Form>
    </FormCard>
  );
}
