// The order import's state between its screens (a File cannot live in the Redux store),
// the checks of a chosen file, and the failed-rows file.
import { csvText } from '@/shared/csv';
import type { OrderImportBody } from '../api';

export interface OrderImportSession {
  file: File | null;
  warehouseId: number | null;
  preview: OrderImportBody | null;
  result: OrderImportBody | null;
}

export const orderImport: OrderImportSession = { file: null, warehouseId: null, preview: null, result: null };

export function resetOrderImport(): void {
  orderImport.file = null;
  orderImport.warehouseId = null;
  orderImport.preview = null;
  orderImport.result = null;
}

/** The largest file, as the server takes it. */
export const MAX_ORDER_IMPORT_BYTES = 10 * 1024 * 1024;

/** Checks a chosen file before upload: .csv or .xlsx, at most 10 MB. A message key or null. */
export function checkOrderImportFile(name: string, size: number): string | null {
  const lower = name.toLowerCase();
  if (!lower.endsWith('.csv') && !lower.endsWith('.xlsx')) return 'orders:import.errors.import_wrong_file_type';
  if (size === 0) return 'orders:import.errors.import_empty';
  if (size > MAX_ORDER_IMPORT_BYTES) return 'orders:import.errors.import_too_large';
  return null;
}

/** Each row's problems, as one line of text per row. */
export function reasonsByRow(body: OrderImportBody, column: (key: string) => string, message: (code: string) => string): Map<number, string> {
  const out = new Map<number, string[]>();
  for (const e of body.errors) {
    const list = out.get(e.row) ?? [];
    list.push(`${column(e.field)}: ${message(e.code)}`);
    out.set(e.row, list);
  }
  return new Map([...out].map(([row, list]) => [row, list.join('; ')]));
}

/** The failed rows as they were in the file, with their row number and reason after them:
 * fixed, the file can be imported again as it is. */
export function failedRowsFile(body: OrderImportBody, labels: { row: string; reason: string }, column: (key: string) => string, message: (code: string) => string): string {
  const reasons = reasonsByRow(body, column, message);
  const width = body.data.header.length;
  const rows = body.data.failedRows.map((f) => {
    const cells = [...f.cells];
    while (cells.length < width) cells.push('');
    return [...cells.slice(0, width), f.row, reasons.get(f.row) ?? ''];
  });
  return csvText([[...body.data.header, labels.row, labels.reason], ...rows]);
}
