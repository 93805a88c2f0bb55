// The import wizard's state between its steps (a File cannot live in the Redux store).
import { csvText } from '@/shared/csv';
import type { ListingFileBody } from '@/features/marketplaces/api';
import type { ImportBody } from '../api';

export interface ImportSession {
  file: File | null;
  preview: ImportBody | null;
  result: ImportBody | null;
  /** A marketplace shop's spreadsheet: what its dry run read, and what its run did. */
  listings: ListingFileBody | null;
  listingsDone: ListingFileBody | null;
}

export const importSession: ImportSession = { file: null, preview: null, result: null, listings: null, listingsDone: null };

export function resetImport(): void {
  importSession.file = null;
  importSession.preview = null;
  importSession.result = null;
  importSession.listings = null;
  importSession.listingsDone = null;
}

/** The SPEC §3 TikTok column mapping: spreadsheet column → product field (i18n key). */
export const COLUMN_MAPPING: [string, string][] = [
  ['product_id', 'code'],
  ['product_name', 'name'],
  ['sku_id', 'skuCode'],
  ['variation_value', 'variant'],
  ['product_description', 'description'],
  ['price', 'price'],
  ['seller_sku', 'sellerSku'],
];

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** Checks a chosen file before upload: .xlsx, at most 5 MB. Returns a message key or null. */
export function checkImportFile(name: string, size: number): string | null {
  if (!name.toLowerCase().endsWith('.xlsx')) return 'products:import.errors.type';
  if (size > MAX_IMPORT_BYTES) return 'products:import.errors.size';
  if (size === 0) return 'products:import.errors.type';
  return null;
}

/** Failed rows as CSV (with a BOM so spreadsheet programs read Thai). */
export function failedRowsCsv(errors: { row: number; field: string; code: string }[], header: string[], message: (code: string) => string): string {
  return csvText([header, ...errors.map((e) => [e.row, e.field, message(e.code)])]);
}
