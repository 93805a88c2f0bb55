import { addPrefix, combinations, optionsOf, skuGrid, stripPrefix, variantOption } from './variants';

describe('variants on the wire', () => {
  it('strips and adds the ordering prefix', () => {
    expect(stripPrefix('1สี')).toBe('สี');
    expect(stripPrefix(null)).toBe('');
    expect(addPrefix(1, 'ไซซ์')).toBe('2ไซซ์');
  });

  it('builds every combination, and one plain SKU without variants', () => {
    expect(combinations([])).toEqual([[]]);
    expect(combinations([{ name: 'สี', options: ['ขาว', 'ดำ'] }, { name: 'ไซซ์', options: ['M', 'L'] }])).toEqual([
      ['ขาว', 'M'],
      ['ขาว', 'L'],
      ['ดำ', 'M'],
      ['ดำ', 'L'],
    ]);
  });

  it('keeps typed SKUs when options change', () => {
    const v = [{ name: 'สี', options: ['ขาว'] }];
    const grid = skuGrid(v, [], 'TS', '199.00', '90.00');
    grid[0].price = '250.00';
    const more = skuGrid([{ name: 'สี', options: ['ขาว', 'ดำ'] }], grid, 'TS', '199.00', '90.00');
    expect(more.map((s) => [s.code, s.price])).toEqual([
      ['TS-ขาว', '250.00'],
      ['TS-ดำ', '199.00'],
    ]);
  });

  it('maps options to and from the prefixed map', () => {
    const v = [{ name: 'สี', options: ['ขาว'] }, { name: 'ไซซ์', options: ['M'] }];
    expect(variantOption(v, ['ขาว', 'M'])).toEqual({ '1สี': 'ขาว', '2ไซซ์': 'M' });
    expect(optionsOf(v, { '1สี': 'ขาว', '2ไซซ์': 'M' })).toEqual(['ขาว', 'M']);
  });
});
