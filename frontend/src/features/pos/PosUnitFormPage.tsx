import { useEffect } from 'react';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { useListWarehousesQuery } from '@/features/stock/api';
import { notifySuccess } from '@/shared/dialogs/notify';
import { MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { useCreatePosUnitMutation, useGetPosUnitQuery, useListBranchesQuery, useUpdatePosUnitMutation } from './api';
import { BranchSelect, FormButtons, FormCard, Gone, NoBranchNotice, usePickOnlyBranch } from './FormParts';
import { checkPosNo, listPath, POS_UNIT_ERRORS } from './pos';
import { showSaveRefusal } from '@/shared/refusal';

interface Values {
  posNo: string;
  branchId?: number;
  /** 0: the branch's warehouse. */
  warehouseId: number;
}

/** /pos-setting/pos-unit/create and /pos-setting/pos-unit/{id}/edit: a till's number, its
 * branch, and the warehouse it deducts stock from (the branch's unless it names its own). */
export default function PosUnitFormPage() {
  const { t } = useTranslation(['pos', 'common']);
  const { storeId, posUnitId } = useParams();
  const id = Number(storeId);
  const editing = posUnitId !== undefined;
  const current = useGetPosUnitQuery({ id, posUnitId: Number(posUnitId) }, { skip: !editing });
  const branches = useListBranchesQuery({ id });
  const { data: warehouses, isFetching: loadingWarehouses } = useListWarehousesQuery();
  const [create, { isLoading: creating }] = useCreatePosUnitMutation();
  const [update, { isLoading: updating }] = useUpdatePosUnitMutation();
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const back = listPath(id, 'pos-units');
  const branchId = Form.useWatch('branchId', form);
  const branch = branches.data?.data.find((b) => b.id === branchId);
  const warehouseName = (w: number) => warehouses?.data.find((x) => x.id === w)?.name ?? (w ? `#${w}` : '–');

  usePickOnlyBranch(form, branches.data?.data, !editing);
  useEffect(() => {
    const p = current.data;
    if (p) form.setFieldsValue({ posNo: p.posNo, branchId: p.branchId, warehouseId: p.warehouseId });
  }, [current.data, form]);

  const submit = async (v: Values) => {
    const body = { posNo: v.posNo.trim(), branchId: v.branchId, warehouseId: v.warehouseId ?? 0 };
    try {
      if (editing) await update({ id, posUnitId: Number(posUnitId), posUnitInput: body }).unwrap();
      else await create({ id, posUnitInput: body }).unwrap();
      notifySuccess(t(editing ? 'pos:posUnitForm.updated' : 'pos:posUnitForm.created'));
      navigate(back);
    } catch (e) {
      showSaveRefusal(e, form, t, POS_UNIT_ERRORS);
    }
  };

  if (editing && current.isError) return <Gone message={t('pos:errors.pos_unit_not_found')} back={back} />;

  return (
    <FormCard title={t(editing ? 'pos:posUnitForm.editTitle' : 'pos:posUnitForm.createTitle')} loading={editing && current.isLoading}>
      <NoBranchNotice storeId={id} show={branches.isSuccess && branches.data.data.length === 0} />
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={{ warehouseId: 0 }}
        requiredMark={false}
        style={{ maxWidth: 480 }}
        data-testid="pos-unit-form"
      >
        <Form.Item name="posNo" label={t('pos:fields.posNo')} extra={t('pos:posUnitForm.posNoHint')} rules={[rule(checkPosNo)]}>
          <Input maxLength={40} placeholder={t('pos:posUnitForm.posNoPlaceholder')} data-testid="field-posNo" />
        </Form.Item>
        <Form.Item name="branchId" label={t('pos:fields.branch')} rules={[{ required: true, message: t(`common:${MSG.required}`) }]}>
          <BranchSelect branches={branches.data?.data ?? []} loading={branches.isFetching} />
        </Form.Item>
        <Form.Item name="warehouseId" label={t('pos:fields.warehouse')} extra={t('pos:posUnitForm.warehouseHint')}>
          <Select
            loading={loadingWarehouses}
            options={[
              { value: 0, label: t('pos:posUnitForm.useBranchWarehouse', { name: branch ? warehouseName(branch.warehouseId) : '–' }) },
              ...(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name })),
            ]}
            data-testid="field-warehouseId"
          />
        </Form.Item>
        <FormButtons back={back} saving={creating || updating} testId="pos-unit-save" />
      </Form>
    </FormCard>
  );
}
