import { camelCase, hasDataKeyedMap, kebabCase, snakeCase, toCamelKeys, toFormBody, toKebabQuery, toSnakeKeys } from './caseConvert';

describe('key conversions', () => {
  it.each([
    ['subDistrict', 'sub_district'],
    ['stateProvince', 'state_province'],
    ['hsCode', 'hs_code'],
    ['orderState', 'order_state'],
    ['_method', '_method'],
    ['already_snake', 'already_snake'],
  ])('snake_case %s', (input, want) => expect(snakeCase(input)).toBe(want));

  it('camelCases responses deeply, arrays included', () => {
    expect(toCamelKeys({ data: [{ default_address_id: 1, sub_district: 'x' }], total_pages: 2 })).toEqual({
      data: [{ defaultAddressId: 1, subDistrict: 'x' }],
      totalPages: 2,
    });
    expect(camelCase('menu_hiding_list')).toBe('menuHidingList');
  });

  it('snake_cases bodies but keeps keys beginning with an underscore', () => {
    expect(toSnakeKeys({ subDistrict: 'a', _token: 't', address: { stateProvince: 'b' } })).toEqual({
      sub_district: 'a',
      _token: 't',
      address: { state_province: 'b' },
    });
  });

  it('leaves the keys of data-keyed maps alone (variant names)', () => {
    expect(toCamelKeys({ skus: [{ variant_option: { '1Shirt_size': 'M' } }] })).toEqual({ skus: [{ variantOption: { '1Shirt_size': 'M' } }] });
    expect(toSnakeKeys({ skus: [{ variantOption: { '1Color': 'Red' } }] })).toEqual({ skus: [{ variant_option: { '1Color': 'Red' } }] });
    expect(decodeURIComponent(toFormBody({ skus: [{ variantOption: { '1Color': 'Red' } }] }))).toBe('skus[0][variant_option][1Color]=Red');
  });

  it('sends bodies with variant maps as JSON, since form keys may not begin with a digit', () => {
    expect(hasDataKeyedMap({ skus: [{ variantOption: { '1สี': 'ขาว' } }] })).toBe(true);
    expect(hasDataKeyedMap({ skus: [{ variantOption: {} }] })).toBe(false);
    expect(hasDataKeyedMap({ name: 'x' })).toBe(false);
  });

  it('kebab-cases query keys and drops empty values', () => {
    expect(kebabCase('orderState')).toBe('order-state');
    expect(toKebabQuery({ orderState: 'new', page: 2, search: '', limit: undefined })).toBe('order-state=new&page=2');
  });

  it('form-encodes nested values with bracket keys', () => {
    const body = toFormBody({ name: 'สม ชาย', items: [{ skuId: 7, quantity: 2, id: null }], vatIncluded: true, variant2: null });
    expect(decodeURIComponent(body)).toBe('name=สม ชาย&items[0][sku_id]=7&items[0][quantity]=2&vat_included=true');
  });
});
