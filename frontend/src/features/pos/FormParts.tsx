// Pieces the POS unit, cashier and seller forms share: the branch picker, the notice while the
// store has no branch, the buttons, and the screen for a row that is gone.
import { useEffect, type ReactNode } from 'react';
import { Alert, Button, Card, Result, Select, Space, Spin, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import type { BranchRow } from './api';
import { branchLabel } from './pos';

/** A branch of the store, by number and name. */
export function BranchSelect({ branches, loading, value, onChange }: { branches: BranchRow[]; loading: boolean; value?: number; onChange?: (v: number) => void }) {
  const { t } = useTranslation('pos');
  return (
    <Select
      value={value}
      onChange={onChange}
      loading={loading}
      showSearch
      optionFilterProp="label"
      placeholder={t('pos:forms.branchPlaceholder')}
      options={branches.map((b) => ({ value: b.id, label: branchLabel(b) }))}
      data-testid="field-branchId"
    />
  );
}

/** On a new row, the store's only branch is picked for the member. */
export function usePickOnlyBranch(form: FormInstance, branches: BranchRow[] | undefined, creating: boolean): void {
  useEffect(() => {
    if (creating && branches?.length === 1 && form.getFieldValue('branchId') === undefined) form.setFieldsValue({ branchId: branches[0].id });
  }, [creating, branches, form]);
}

/** While the store has no branch: add one first. */
export function NoBranchNotice({ storeId, show }: { storeId: number; show: boolean }) {
  const { t } = useTranslation('pos');
  if (!show) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={t('pos:needBranch')}
      action={<Link to={`/${storeId}/pos-setting/branch-receipt?main=1`}>{t('pos:branches.createMain')}</Link>}
      style={{ marginBottom: 16 }}
      data-testid="form-need-branch"
    />
  );
}

export function FormButtons({ back, saving, testId }: { back: string; saving: boolean; testId: string }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Space>
      <Button onClick={() => navigate(back)}>{t('common:actions.cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={saving} data-testid={testId}>
        {t('common:actions.save')}
      </Button>
    </Space>
  );
}

/** The form's card: its title, and a spinner while the row being edited loads. */
export function FormCard({ title, loading, children }: { title: string; loading: boolean; children: ReactNode }) {
  return (
    <Card>
      <div className="bo-page-head">
        <h1>{title}</h1>
      </div>
      <Spin spinning={loading}>{children}</Spin>
    </Card>
  );
}

/** The row being edited is not the store's (or is gone). */
export function Gone({ message, back }: { message: string; back: string }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return <Result status="404" title={message} extra={<Button onClick={() => navigate(back)}>{t('common:actions.back')}</Button>} />;
}
