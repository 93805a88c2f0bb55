// CSV files the app writes for people to open in a spreadsheet: UTF-8 with a byte-order
// mark (so Thai shows), quoted where needed, and text that a spreadsheet would run as a
// formula (=, +, -, @ at its start, other than a plain number) kept as text with a leading
// apostrophe.

import { saveBlob } from './download';

const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** One cell. */
export function csvCell(v: string | number): string {
  let s = String(v);
  if (FORMULA.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as a CSV file's text. */
export function csvText(rows: (string | number)[][]): string {
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}

/** Saves text as a file the browser downloads. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), name);
}
