import { useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

import { useSkuInventoriesQuery } from '@/features/products/api';

export interface SkuPick {
  skuId: number;
  /** Units available in the warehouse asked for (undefined without one). */
  available?: number;
}

/** A SKU picked by product name or SKU code. With `warehouseId`, each option shows what is
 * available there, and SKUs with nothing available are offered disabled when `needStock`. */
export function SkuSelect({
  value,
  onChange,
  onPick,
  warehouseId,
  needStock = false,
  testId = 'adjust-sku',
}: {
  value?: number;
  onChange?: (v: number) => void;
  onPick?: (pick: SkuPick) => void;
  warehouseId?: number;
  needStock?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('stock');
  const [search, setSearch] = useState('');
  const { data, isFetching } = useSkuInventoriesQuery({ search: search || undefined, warehouseId, limit: 20 });
  const seen = new Set<number>();
  const rows = (data?.data ?? []).filter((r) => (seen.has(r.skuId) ? false : (seen.add(r.skuId), true)));
  const availableOf = (skuId: number) => {
    if (warehouseId === undefined) return undefined;
    const r = rows.find((x) => x.skuId === skuId);
    return r && r.inventory.warehouseId === warehouseId ? r.inventory.available : 0;
  };
  const options = rows.map((r) => {
    const available = availableOf(r.skuId);
    const name = [r.productName, r.skuCode, r.option1, r.option2].filter(Boolean).join(' · ');
    return {
      value: r.skuId,
      label: available === undefined ? name : t('stock:transfer.skuAvailable', { name, count: available }),
      disabled: needStock && (available ?? 0) <= 0,
    };
  });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={(v: number) => {
        onChange?.(v);
        onPick?.({ skuId: v, available: availableOf(v) });
      }}
      loading={isFetching}
      options={options}
      placeholder={t('stock:adjust.pickSku')}
      data-testid={testId}
    />
  );
}
