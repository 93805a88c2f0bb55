import { useState, type CSSProperties } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

import { useSkuInventoriesQuery } from '@/features/products/api';

export interface SkuPick {
  skuId: number;
  /** Units available in the warehouse asked for (undefined without one). */
  available?: number;
  /** The SKU's product. */
  productId?: number;
  /** "product name · SKU code · options", as the option reads without its stock. */
  name?: string;
}

/** A SKU picked by product name or SKU code. With `warehouseId`, each option shows what is
 * available there, and SKUs with nothing available are offered disabled when `needStock`.
 * `known` names SKUs already chosen (an edited order's lines), which a search may not list. */
export function SkuSelect({
  value,
  onChange,
  onPick,
  warehouseId,
  needStock = false,
  known,
  placeholder,
  availableText = 'stock:transfer.skuAvailable',
  testId = 'adjust-sku',
  style,
}: {
  value?: number;
  onChange?: (v: number) => void;
  onPick?: (pick: SkuPick) => void;
  warehouseId?: number;
  needStock?: boolean;
  known?: Map<number, string>;
  placeholder?: string;
  /** The i18n key saying an option with its stock (`name`, `count`). */
  availableText?: string;
  testId?: string;
  style?: CSSProperties;
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
  const nameOf = (r: (typeof rows)[number]) => [r.productName, r.skuCode, r.option1, r.option2].filter(Boolean).join(' · ');
  const options = rows.map((r) => {
    const available = availableOf(r.skuId);
    const name = nameOf(r);
    return {
      value: r.skuId,
      label: available === undefined ? name : t(availableText, { name, count: available }),
      disabled: needStock && (available ?? 0) <= 0,
    };
  });
  const knownLabel = value !== undefined && !seen.has(value) ? known?.get(value) : undefined;
  if (value !== undefined && knownLabel) options.unshift({ value, label: knownLabel, disabled: false });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={(v: number) => {
        onChange?.(v);
        const r = rows.find((x) => x.skuId === v);
        onPick?.({ skuId: v, available: availableOf(v), productId: r?.productId, name: r ? nameOf(r) : undefined });
      }}
      loading={isFetching}
      options={options}
      placeholder={placeholder ?? t('stock:adjust.pickSku')}
      style={style}
      data-testid={testId}
    />
  );
}
