import type { OrderImportBody } from '../api';
import { checkOrderImportFile, failedRowsFile, reasonsByRow } from './session';

const body: OrderImportBody = {
  data: {
    orders: [],
    rows: 3,
    created: 1,
    header: ['Order reference', 'SKU code', 'Quantity', 'Note'],
    failedRows: [
      { row: 3, cells: ['A-2', 'NOPE', '1'] },
      { row: 4, cells: ['A-2', 'MUG', '0', '=HYPERLINK("x")'] },
    ],
  },
  errors: [
    { row: 3, field: 'sku', code: 'order.sku_unknown' },
    { row: 4, field: 'quantity', code: 'validation.quantity' },
    { row: 4, field: 'reference', code: 'order.import_order_has_errors' },
  ],
};

describe('order import helpers', () => {
  it('takes .csv and .xlsx up to 10 MB', () => {
    expect(checkOrderImportFile('orders.csv', 10)).toBeNull();
    expect(checkOrderImportFile('คำสั่งซื้อ.XLSX', 10)).toBeNull();
    expect(checkOrderImportFile('orders.xls', 10)).toBe('orders:import.errors.import_wrong_file_type');
    expect(checkOrderImportFile('orders.csv', 0)).toBe('orders:import.errors.import_empty');
    expect(checkOrderImportFile('orders.csv', 10 * 1024 * 1024 + 1)).toBe('orders:import.errors.import_too_large');
  });

  it('joins the reasons of a row', () => {
    const r = reasonsByRow(body, (k) => k.toUpperCase(), (c) => `m(${c})`);
    expect(r.get(4)).toBe('QUANTITY: m(validation.quantity); REFERENCE: m(order.import_order_has_errors)');
    expect(r.get(3)).toBe('SKU: m(order.sku_unknown)');
  });

  it('writes the failed rows as they were, with the row and reason after them', () => {
    const csv = failedRowsFile(body, { row: 'Row', reason: 'Reason' }, (k) => k, (c) => c);
    expect(csv.split('\n')).toEqual([
      '\uFEFFOrder reference,SKU code,Quantity,Note,Row,Reason',
      'A-2,NOPE,1,,3,sku: order.sku_unknown',
      'A-2,MUG,0,"\'=HYPERLINK(""x"")",4,quantity: validation.quantity; reference: order.import_order_has_errors',
      '',
    ]);
  });
});
