// Pieces the goods receipt screens share: a date picker that reads Buddhist-era years in Thai,
// the state and line-status tags, the SKU picker, opening a receipt's PDFs in a new tab, and
// what a receipt or a line shows as a card on a phone.
import { useState, type ReactNode } from 'react';
import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

import { useSkuInventoriesQuery } from '@/features/products/api';
import { formatBaht } from '@/shared/money';
import { openPdf, useGoodsReceiptPdfMutation, type GoodsReceiptBody, type ReceiptPdfKind } from '../api';
import { formatArrival, LINE_STATUS_COLOURS, STATE_COLOURS } from './receipts';
import { notifyRefusal } from './refusal';

/** The date picker of every screen (Buddhist-era years in Thai), kept here under its old name. */
export { EraDatePicker } from '@/shared/form/EraDatePicker';

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

/** A goods receipt as a card on a phone: its number and state, type and warehouse, when it is
 * expected, its lines and pieces, and its cost. */
export function ReceiptCard({ r, lng }: { r: GoodsReceiptBody; lng: string }) {
  const { t } = useTranslation(['receipts', 'common']);
  const arrival = formatArrival(r.expectedReceivedDate, r.expectedReceivedTime, lng);
  return (
    <>
      <div className="bo-card-row">
        <span className="bo-card-title" data-testid={`receipt-${r.id}-code`}>
          {r.code}
        </span>
        <StateTag state={r.state} />
      </div>
      <div className="bo-card-sub">{[t(`receipts:types.${r.type}`, { defaultValue: r.type }), r.warehouseName].filter(Boolean).join(' · ')}</div>
      <CardPair label={t('receipts:fields.expectedReceived')}>{arrival || '-'}</CardPair>
      <div className="bo-card-row">
        <span data-testid={`receipt-${r.id}-lines`}>{t('receipts:board.linesPieces', { count: r.lineCount, pieces: r.totalRequestQty.toLocaleString('en-US') })}</span>
        <strong style={{ whiteSpace: 'nowrap' }}>{t('common:money.baht', { amount: formatBaht(r.totalCost) })}</strong>
      </div>
      {r.note ? (
        <div className="bo-card-sub" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {r.note}
        </div>
      ) : null}
    </>
  );
}

/** A label and its value on one line of a card (the value to the right). */
export function CardPair({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="bo-card-row" data-testid={testId}>
      <span className="bo-card-sub">{label}</span>
      <span style={{ textAlign: 'right' }}>{children}</span>
    </div>
  );
}
