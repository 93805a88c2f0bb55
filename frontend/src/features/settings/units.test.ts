import en from '@/locales/en/settings.json';
import th from '@/locales/th/settings.json';
import { BASE_UNITS, baseUnitKey, checkAmount, checkQuantity, isBaseUnit, UNIT_ERRORS, wholeNumberValue } from './units';

describe('unit of measurement rules', () => {
  it('takes whole quantities from 1, as the service does', () => {
    for (const ok of ['1', '6', ' 12 ', '1,000', '6.0', '1000000']) expect(checkQuantity(ok)).toBeNull();
    for (const bad of ['0', '-1', '1.5', 'abc', '6 ชิ้น', '๖', '1000001', '.', ',']) expect(checkQuantity(bad)).toBe('validation.quantity');
    expect(checkQuantity('  ')).toBe('validation.required');
  });

  it('takes safety stocks from 0', () => {
    expect(checkAmount('0')).toBeNull();
    expect(checkAmount('25')).toBeNull();
    expect(checkAmount('')).toBe('validation.required');
    expect(checkAmount('-5')).toBe('validation.quantity');
    expect(checkAmount('2.5')).toBe('validation.quantity');
  });

  it('reads what the rules accept as the number it means, separators and all', () => {
    expect(wholeNumberValue('1,000')).toBe(1000);
    expect(wholeNumberValue(' 25 ')).toBe(25);
    expect(wholeNumberValue('6.0')).toBe(6);
    expect(wholeNumberValue('abc')).toBeNaN();
    for (const ok of ['0', '7', '1,000', '12,345']) {
      expect(checkAmount(ok)).toBeNull();
      expect(Number.isInteger(wholeNumberValue(ok))).toBe(true);
    }
  });

  it('offers the six unit types of SPEC §9, each translated in both languages', () => {
    expect([...BASE_UNITS]).toEqual(['piece', 'dozen', 'pack', 'carton', 'box', 'sack']);
    for (const u of BASE_UNITS) {
      expect(isBaseUnit(u)).toBe(true);
      expect(baseUnitKey(u)).toBe(`settings:baseUnits.${u}`);
      expect(en.baseUnits[u]).toBeTruthy();
      expect(th.baseUnits[u]).toBeTruthy();
    }
    expect(isBaseUnit('litre')).toBe(false);
    expect(baseUnitKey('litre')).toBe('litre');
  });

  it('has its own message for a unit type the server refuses', () => {
    expect(en.validation.unit_type).toBeTruthy();
    expect(th.validation.unit_type).toBeTruthy();
    expect(UNIT_ERRORS.codes?.unit_name_duplicate.field).toBe('name');
  });
});
