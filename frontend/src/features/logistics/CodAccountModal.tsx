// The store's COD account with a COD provider (SPEC §3 COD provider, §5: provider and account
// number required): the number the provider remits cash on delivery to. Added and changed in
// a dialog, from the COD tab of the shipping list or from a channel form that needs one.
import { useEffect } from 'react';
import { Form, Input, Modal, Select, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';

import { notifySuccess } from '@/shared/dialogs/notify';
import { useCheck } from '@/shared/form/useCheck';
import { useCatalogueQuery, useCreateStoreProviderMutation, useListStoreProvidersQuery, useUpdateStoreProviderMutation, type CodProvider } from './api';
import { carrierName, checkCodAccountNo, COD_ERRORS } from './logistics';
import { showSaveRefusal } from '@/shared/refusal';

interface Values {
  providerName?: string;
  codAccountNo: string;
}

/** Open with `editing` to change an account, or with `provider` to add one for that provider. */
export interface CodAccountTarget {
  editing?: CodProvider;
  provider?: string;
}

export function CodAccountModal({ target, onClose, onSaved }: { target: CodAccountTarget | null; onClose: () => void; onSaved?: (p: CodProvider) => void }) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const [form] = Form.useForm<Values>();
  const rule = useCheck();
  const { data: carriers } = useCatalogueQuery({ shipmentType: 'domestic' });
  const { data: accounts } = useListStoreProvidersQuery();
  const [create, { isLoading: creating }] = useCreateStoreProviderMutation();
  const [update, { isLoading: updating }] = useUpdateStoreProviderMutation();
  const editing = target?.editing;
  const taken = new Set((accounts?.data ?? []).filter((a) => a.id !== editing?.id).map((a) => a.providerName));

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(editing ? { providerName: editing.providerName, codAccountNo: editing.codAccountNo } : { providerName: target.provider, codAccountNo: '' });
  }, [target, editing, form]);

  const submit = async (v: Values) => {
    const input = { providerName: v.providerName, codAccountNo: v.codAccountNo.trim().replace(/[ -]/g, '') };
    try {
      const saved = editing ? await update({ id: editing.id, storeProviderInput: input }).unwrap() : await create({ storeProviderInput: input }).unwrap();
      notifySuccess(t(editing ? 'logistics:cod.updated' : 'logistics:cod.created'));
      onSaved?.(saved);
      onClose();
    } catch (e) {
      showSaveRefusal(e, form, t, COD_ERRORS);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={t(editing ? 'logistics:cod.editTitle' : 'logistics:cod.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      okButtonProps={{ loading: creating || updating, 'data-testid': 'cod-save' } as ButtonProps}
      forceRender
      data-testid="cod-modal"
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} data-testid="cod-form">
        <Form.Item name="providerName" label={t('logistics:fields.provider')} rules={[{ required: true, message: t('common:validation.required') }]}>
          <Select
            placeholder={t('logistics:form.providerPlaceholder')}
            options={(carriers?.data ?? [])
              .filter((c) => c.cod)
              .map((c) => ({
                value: c.providerName,
                label: taken.has(c.providerName) ? t('logistics:cod.taken', { name: carrierName(c, c.providerName, i18n.language) }) : carrierName(c, c.providerName, i18n.language),
                disabled: taken.has(c.providerName),
              }))}
            data-testid="field-codProvider"
          />
        </Form.Item>
        <Form.Item name="codAccountNo" label={t('logistics:fields.codAccountNo')} extra={t('logistics:cod.accountHint')} rules={[rule(checkCodAccountNo)]}>
          <Input inputMode="numeric" maxLength={30} data-testid="field-codAccountNo" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
