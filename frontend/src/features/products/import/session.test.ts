import { checkImportFile, failedRowsCsv } from './session';

describe('import wizard helpers', () => {
  it('accepts .xlsx up to 5 MB only', () => {
    expect(checkImportFile('สินค้า.xlsx', 1000)).toBeNull();
    expect(checkImportFile('products.XLSX', 1000)).toBeNull();
    expect(checkImportFile('products.csv', 1000)).toBe('products:import.errors.type');
    expect(checkImportFile('products.xlsx', 5 * 1024 * 1024 + 1)).toBe('products:import.errors.size');
  });

  it('writes failed rows as CSV', () => {
    const csv = failedRowsCsv([{ row: 5, field: 'price', code: 'validation.money' }], ['row', 'field', 'problem'], (c) => `msg ${c}, "x"`);
    expect(csv).toBe('\uFEFFrow,field,problem\n5,price,"msg validation.money, ""x"""\n');
  });
});
