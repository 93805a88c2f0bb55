import { checkAmount, checkPrice, cleanAmount, formatBaht, toSatang } from './money';

describe('baht', () => {
  it('shows two decimals and thousands separators, from numbers or the API\'s text', () => {
    expect(formatBaht('1288.5')).toBe('1,288.50');
    expect(formatBaht(40)).toBe('40.00');
    expect(formatBaht('0.00')).toBe('0.00');
    expect(formatBaht('1000000')).toBe('1,000,000.00');
    expect(formatBaht('12.345')).toBe('12.35');
    expect(formatBaht(-5.5)).toBe('-5.50');
    expect(formatBaht('1,234.5')).toBe('1,234.50');
    expect(formatBaht('')).toBe('');
    expect(formatBaht(null)).toBe('');
    expect(formatBaht('abc')).toBe('');
  });

  it('reads amounts as typed into satang, refusing more than two decimals', () => {
    expect(toSatang('12.5')).toBe(1250);
    expect(toSatang(' 1,000 ')).toBe(100000);
    expect(toSatang('0.01')).toBe(1);
    expect(toSatang('12.345')).toBeNull();
    expect(toSatang('-1')).toBeNull();
    expect(toSatang('1e3')).toBeNull();
    expect(toSatang('')).toBeNull();
    expect(cleanAmount(' 1,288.50 ')).toBe('1288.50');
  });

  it('checks prices (0 to a million) and amounts asked (above zero)', () => {
    expect(checkPrice('0')).toBeNull();
    expect(checkPrice('1000000')).toBeNull();
    expect(checkPrice('1000000.01')).toBe('validation.price');
    expect(checkPrice('4.999')).toBe('validation.price');
    expect(checkPrice('')).toBe('validation.required');
    expect(checkAmount('12.50')).toBeNull();
    expect(checkAmount('0')).toBe('validation.amount');
    expect(checkAmount('x')).toBe('validation.amount');
    expect(checkAmount(' ')).toBe('validation.required');
  });
});
