// Pieces the goods receipt screens share: a date picker that reads Buddhist-era years in Thai,
// the state and line-status tags, the SKU picker, and opening a receipt's PDFs in a new tab.
import { useState } from 'react';
import { DatePicker, Select, Tag, type DatePickerProps } from 'antd';
import thTH from 'antd/locale/th_TH';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

import { useSkuInventoriesQuery } from '@/features/products/api';
import { openPdf, useGoodsReceiptPdfMutation, type ReceiptPdfKind } from '../api';
import { LINE_STATUS_COLOURS, STATE_COLOURS } from './receipts';
import { notifyRefusal } from './refusal';

// The Thai calendar's headers and year cells in the Buddhist era (dayjs' `BBBB`).
const TH_PICKER = thTH.DatePicker
  ? { ...thTH.DatePicker, lang: { ...thTH.DatePicker.lang, yearFormat: 'BBBB', cellYearFormat: 'BBBB' } }
  : undefined;

/** antd's DatePicker; in Thai its field and calendar show Buddhist-era years (2569 for 2026). */
export function EraDatePicker(props: DatePickerProps) {
  const { i18n } = useTranslation();
  const th = i18n.language === 'th';
  const withTime = Boolean(props.showTime);
  const format = th
    ? (d: Dayjs) => d.locale('th').format(withTime ? 'D MMM BBBB HH:mm' : 'D MMM BBBB')
    : withTime
      ? 'D MMM YYYY HH:mm'
      : 'D MMM YYYY';
  return <DatePicker style={{ width: '100%' }} {...props} format={format} locale={th ? TH_PICKER : undefined} />;
}

export function StateTag({ state }: { state: string }) {
  const { t } = useTranslation('receipts');
  return (
    <Tag color={STATE_COLOURS[state] ?? 'default'} data-testid="receipt-state">
      {t(`receipts:states.${state}`, { defaultValue: state })}
    </Tag>
  );
}

export function LineStatusTag({ status }: { status: string }) {
  const { t } = useTranslation('receipts');
  if (!status) return null;
  return <Tag color={LINE_STATUS_COLOURS[status] ?? 'default'}>{t(`receipts:lineStatus.${status}`, { defaultValue: status })}</Tag>;
}

/** A SKU of the store, searched by product name or SKU code, shown as "name · code". `known`
 * names SKUs already chosen (an edited draft's), which the search may not list. */
export function SkuPicker({
  value,
  onChange,
  known,
  testId,
  status,
}: {
  value?: number;
  onChange?: (v: number) => void;
  known?: Map<number, string>;
  testId?: string;
  status?: '' | 'error' | 'warning';
}) {
  const { t } = useTranslation('receipts');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Map<number, string>>(() => new Map());
  const { data, isFetching } = useSkuInventoriesQuery({ search: search || undefined, limit: 20 });
  const seen = new Set<number>();
  const options = (data?.data ?? [])
    .filter((r) => (seen.has(r.skuId) ? false : (seen.add(r.skuId), true)))
    .map((r) => {
      const variant = [r.option1, r.option2].filter(Boolean).join(' / ');
      return { value: r.skuId, label: `${r.productName}${variant ? ` (${variant})` : ''} · ${r.skuCode}` };
    });
  if (value && !seen.has(value)) {
    const label = picked.get(value) ?? known?.get(value);
    if (label) options.unshift({ value, label });
  }
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      status={status}
      onChange={(v: number, opt) => {
        const label = (Array.isArray(opt) ? opt[0] : opt)?.label;
        if (typeof label === 'string') setPicked((m) => new Map(m).set(v, label));
        onChange?.(v);
      }}
      loading={isFetching}
      options={options}
      placeholder={t('receipts:form.pickSku')}
      notFoundContent={isFetching ? undefined : t('receipts:form.noSku')}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}

/** Opens a receipt's PDF (the printed receipt or its SKU labels) in a new tab (saved instead
 * where no tab may open); a refusal (no line to label) is said in a notification. */
export function useReceiptPdf() {
  const { t } = useTranslation(['receipts', 'common']);
  const [fetchPdf] = useGoodsReceiptPdfMutation();
  const [busy, setBusy] = useState<ReceiptPdfKind | null>(null);
  const open = async (id: number, kind: ReceiptPdfKind, code: string) => {
    setBusy(kind);
    try {
      await openPdf(() => fetchPdf({ id, kind }).unwrap(), `${code}${kind === 'labels' ? '-labels' : ''}.pdf`, t('receipts:print.loading'));
    } catch (e) {
      notifyRefusal(e, t);
    } finally {
      setBusy(null);
    }
  };
  return { open, busy };
}
