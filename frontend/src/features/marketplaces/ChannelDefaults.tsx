import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

import { useListLogisticChannelsQuery } from '@/features/logistics/api';
import { accountLabel, useListStoreChannelsQuery } from '@/features/payments/api';
import { useListWarehousesQuery } from '@/features/stock/api';

/** What a channel's form holds of its defaults. */
export interface DefaultsValues {
  warehouseId?: number;
  logisticChannelId?: number;
  paymentChannelId?: number;
}

/** The warehouse, shipping channel (of that warehouse) and payment account a channel's orders
 * take (SPEC §5: each required), as the open-API and the store's own channels' forms ask
 * them, inside the form. `prefix` names their test ids (`<prefix>-warehouse`, …). */
export function ChannelDefaults({ prefix, warehouseHint }: { prefix: string; warehouseHint?: string }) {
  const form = Form.useFormInstance<DefaultsValues>();
  const { t } = useTranslation(['marketplaces', 'common']);
  const warehouses = useListWarehousesQuery();
  const payments = useListStoreChannelsQuery({ limit: -1 });
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const shipping = useListLogisticChannelsQuery({ limit: -1, warehouseId, status: 'active' }, { skip: !warehouseId });
  const required = { required: true, message: t('common:validation.required') };
  return (
    <>
      <Form.Item name="warehouseId" label={t('marketplaces:fields.warehouse')} extra={warehouseHint} rules={[required]}>
        <Select
          placeholder={t('marketplaces:setting.choose')}
          options={(warehouses.data?.data ?? []).filter((w) => w.active || w.id === warehouseId).map((w) => ({ value: w.id, label: w.name }))}
          onChange={() => form.setFieldValue('logisticChannelId', undefined)}
          data-testid={`${prefix}-warehouse`}
        />
      </Form.Item>
      <Form.Item name="logisticChannelId" label={t('marketplaces:fields.logisticChannel')} rules={[required]}>
        <Select
          disabled={!warehouseId}
          placeholder={t(warehouseId ? 'marketplaces:setting.choose' : 'marketplaces:setting.warehouseFirst')}
          loading={shipping.isFetching}
          options={(shipping.data?.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          data-testid={`${prefix}-logistic`}
        />
      </Form.Item>
      <Form.Item name="paymentChannelId" label={t('marketplaces:fields.paymentChannel')} rules={[required]}>
        <Select
          placeholder={t('marketplaces:setting.choose')}
          options={(payments.data?.data ?? []).filter((p) => p.status === 'active').map((p) => ({ value: p.id, label: accountLabel(p) }))}
          data-testid={`${prefix}-payment`}
        />
      </Form.Item>
    </>
  );
}
