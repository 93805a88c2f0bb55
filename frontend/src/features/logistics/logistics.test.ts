import { refusalKey } from '@/shared/refusal';
import type { TFunction } from 'i18next';

import en from '@/locales/en/logistics.json';
import th from '@/locales/th/logistics.json';
import enCommon from '@/locales/en/common.json';
import thCommon from '@/locales/th/common.json';
import { serverFieldErrors } from '@/shared/form/serverErrors';
import type { LogisticChannel } from './api';
import { fileNameOf } from './api/download';
import {
  addBracket,
  bracketProblems,
  changeBracket,
  cheapest,
  checkRange,
  checkRangePrefix,
  checkRateFile,
  checkSerial,
  checkSide,
  channelBody,
  channelValues,
  CHANNEL_ERRORS,
  checkBrackets,
  checkCodAccountNo,
  checkWeight,
  cleanBrackets,
  COD_ERRORS,
  createPath,
  isPostal,
  kgText,
  keyStatusColour,
  listPath,
  messageKeys,
  parseRowField,
  RANGE_ERRORS,
  rangeBody,
  rangePreview,
  rangeProviders,
  rateReasonKeys,
  ratesBody,
  rateTableProblems,
  s10CheckDigit,
  s10Number,
  trackingNumber,
  webhookUrl,
  MAX_BRACKETS,
  methodsFor,
  priceSummary,
  reasonKey,
  removeBracket,
  tabOf,
  toGrams,
  type BracketRow,
  type ChannelValues,
} from './logistics';

const rows = (...pairs: [string, string][]): BracketRow[] => pairs.map(([maxWeight, price]) => ({ maxWeight, price }));

describe('weights', () => {
  it('reads kilograms with up to three decimals as grams', () => {
    expect(toGrams('1')).toBe(1000);
    expect(toGrams('0.25')).toBe(250);
    expect(toGrams(' 5.500 ')).toBe(5500);
    expect(toGrams('1.2345')).toBeNull();
    expect(toGrams('-1')).toBeNull();
    expect(toGrams('')).toBeNull();
    expect(kgText('5.500')).toBe('5.5');
    expect(kgText('1.000')).toBe('1');
    expect(kgText('10')).toBe('10');
  });

  it('takes a bracket weight above 0 and up to 100 kg', () => {
    expect(checkWeight('100')).toBeNull();
    expect(checkWeight('0.001')).toBeNull();
    expect(checkWeight('0')).toBe('common:validation.weight');
    expect(checkWeight('100.001')).toBe('common:validation.weight');
    expect(checkWeight('')).toBe('common:validation.required');
  });
});

describe('weight brackets', () => {
  it('adds a row one kilogram heavier, removes and changes rows', () => {
    let r = addBracket([]);
    expect(r).toEqual(rows(['1', '']));
    r = changeBracket(r, 0, { maxWeight: '0.5', price: '30' });
    r = addBracket(r);
    expect(r).toEqual(rows(['0.5', '30'], ['1.5', '']));
    r = addBracket(changeBracket(r, 1, { maxWeight: 'x' }));
    expect(r[2]).toEqual({ maxWeight: '', price: '' });
    expect(removeBracket(r, 1)).toEqual(rows(['0.5', '30'], ['', '']));
    // Not beyond the heaviest weight, nor beyond thirty rows.
    expect(addBracket(rows(['99.5', '10']))[1].maxWeight).toBe('');
    const full = Array.from({ length: MAX_BRACKETS }, (_, i) => ({ maxWeight: String(i + 1), price: '1' }));
    expect(addBracket(full)).toBe(full);
  });

  it('finds each wrong cell, and weights that do not rise', () => {
    expect(bracketProblems(rows(['1', '38'], ['5', '65']))).toEqual([]);
    expect(bracketProblems([])).toEqual([{ row: -1, field: 'list', key: 'logistics:brackets.none' }]);
    expect(bracketProblems(rows(['1', '38'], ['1', 'x'], ['', '10'], ['0.5', '']))).toEqual([
      { row: 1, field: 'maxWeight', key: 'logistics:brackets.rising' },
      { row: 1, field: 'price', key: 'common:validation.price' },
      { row: 2, field: 'maxWeight', key: 'common:validation.required' },
      { row: 3, field: 'maxWeight', key: 'logistics:brackets.rising' },
      { row: 3, field: 'price', key: 'common:validation.required' },
    ]);
    expect(checkBrackets(rows(['2', '40'], ['1', '30']))).toBe('logistics:brackets.rising');
    expect(checkBrackets(undefined)).toBe('logistics:brackets.none');
    expect(cleanBrackets(rows([' 1 ', '1,000.50']))).toEqual([{ maxWeight: '1', price: '1000.50' }]);
  });
});

describe('channel bodies (only the pricing method\'s fields)', () => {
  const base: ChannelValues = {
    warehouseId: 1,
    logisticType: 'domestic',
    providerName: 'thaipost',
    name: ' ไปรษณีย์ EMS ',
    pricingMethod: 'flat',
    price: '50',
    brackets: rows(['1', '38'], ['5', '65']),
    freeOver: '1,000',
    cod: true,
    active: true,
  };
  const common = { warehouseId: 1, logisticType: 'domestic', providerName: 'thaipost', name: 'ไปรษณีย์ EMS', status: 'active' };

  it('sends a flat price, brackets, or a threshold and the price below it', () => {
    expect(channelBody(base, { cod: true })).toEqual({ ...common, pricingMethod: 'flat', price: '50', cod: true });
    expect(channelBody({ ...base, pricingMethod: 'weight' }, { cod: true })).toEqual({
      ...common,
      pricingMethod: 'weight',
      brackets: [
        { maxWeight: '1', price: '38' },
        { maxWeight: '5', price: '65' },
      ],
      cod: true,
    });
    expect(channelBody({ ...base, pricingMethod: 'free_over', active: false }, { cod: true })).toEqual({
      ...common,
      pricingMethod: 'free_over',
      price: '50',
      freeOver: '1000',
      cod: true,
      status: 'inactive',
    });
  });

  it('never asks COD of a provider that does not collect it', () => {
    expect(channelBody({ ...base, providerName: 'kerry' }, { cod: false }).cod).toBe(false);
    expect(channelBody(base, undefined).cod).toBe(false);
  });

  it('fills the form from a saved channel', () => {
    const saved: LogisticChannel = {
      id: 3,
      warehouseId: 1,
      logisticType: 'domestic',
      name: 'EMS',
      providerName: 'thaipost',
      pricingMethod: 'weight',
      price: '0.00',
      brackets: [{ maxWeight: '1.000', maxWeightG: 1000, price: '38.00' }],
      freeOver: '0.00',
      cod: true,
      international: false,
      status: 'inactive',
      createdAt: '',
      updatedAt: '',
    };
    expect(channelValues(saved)).toEqual({
      warehouseId: 1,
      logisticType: 'domestic',
      providerName: 'thaipost',
      name: 'EMS',
      pricingMethod: 'weight',
      price: '',
      brackets: [{ maxWeight: '1', price: '38.00' }],
      freeOver: '',
      cod: true,
      active: false,
    });
  });

  it('sums up a price in one line, in baht with two decimals', () => {
    const t = (key: string, v?: Record<string, string | number>) => `${key}${v ? JSON.stringify(v) : ''}`;
    expect(priceSummary({ pricingMethod: 'flat', price: '50', brackets: [], freeOver: '0' }, t)).toBe('common:money.baht{"amount":"50.00"}');
    expect(priceSummary({ pricingMethod: 'weight', price: '0', brackets: [{ maxWeight: '1.500', maxWeightG: 1500, price: '1200' }], freeOver: '0' }, t)).toBe(
      'logistics:pricing.bracket{"kg":"1.5","price":"common:money.baht{\\"amount\\":\\"1,200.00\\"}"}',
    );
  });
});

describe('pricing methods', () => {
  it('prices by the rate table only abroad, with the channel\'s price as a handling fee', () => {
    expect(methodsFor('domestic')).toEqual(['flat', 'weight', 'free_over']);
    expect(methodsFor('international')).toEqual(['flat', 'weight', 'free_over', 'rate_table']);
    const t = (key: string, v?: Record<string, string | number>) => `${key}${v ? JSON.stringify(v) : ''}`;
    expect(priceSummary({ pricingMethod: 'rate_table', price: '30', brackets: [], freeOver: '0' }, t)).toBe('logistics:pricing.rateTableSummary{"price":"common:money.baht{\\"amount\\":\\"30.00\\"}"}');
  });
});

describe('refusals', () => {
  const t = ((k: string | string[]) => (Array.isArray(k) ? k[0] : k)) as unknown as TFunction;
  const refusal = (code: string, fields?: { field: string; code: string }[]) => ({ status: code === 'validation_failed' ? 422 : 409, data: { error: { code, messageKey: `error.${code}`, message: code, fields } } });

  it('puts the service\'s field names on the form\'s fields', () => {
    const errors = serverFieldErrors(
      refusal('validation_failed', [
        { field: 'provider', code: 'validation.logistic_provider' },
        { field: 'method', code: 'validation.pricing_method' },
        { field: 'brackets[2].max_weight', code: 'validation.weight' },
        { field: 'cod', code: 'validation.cod_unsupported' },
      ]),
      t,
      CHANNEL_ERRORS,
    );
    expect(errors.map((e) => e.name)).toEqual(['providerName', 'pricingMethod', 'brackets', 'cod']);
  });

  it('says the second international channel under the provider, a missing COD account under COD', () => {
    expect(serverFieldErrors(refusal('logistic_inter_duplicate'), t, CHANNEL_ERRORS)).toEqual([{ name: 'providerName', errors: ['logistics:errors.logistic_inter_duplicate'] }]);
    expect(serverFieldErrors(refusal('cod_account_missing'), t, CHANNEL_ERRORS)).toEqual([{ name: 'cod', errors: ['logistics:errors.cod_account_missing'] }]);
    expect(serverFieldErrors(refusal('cod_provider_duplicate'), t, COD_ERRORS)).toEqual([{ name: 'providerName', errors: ['logistics:errors.cod_provider_duplicate'] }]);
    expect(refusalKey('logistic_limit_reached', 'logistics')).toBe('logistics:errors.logistic_limit_reached');
    expect(refusalKey('customer_not_found', 'logistics')).toBe('codes:customer_not_found');
    expect(refusalKey(undefined, 'logistics')).toBeNull();
  });

  it('has SPEC §8\'s messages in both languages', () => {
    const get = (o: unknown, key: string) => key.split(':').pop()!.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
    expect(get(en, 'errors.logistic_inter_duplicate')).toBe('Only one international shipping per warehouse per provider');
    expect(get(en, 'errors.logistic_limit_reached')).toContain('exceeded the set number');
    expect(get(en, 'errors.cod_account_missing')).toContain('Missing COD number');
    for (const key of ['logistics:brackets.none', 'logistics:brackets.rising', reasonKey('shipping.over_weight'), reasonKey('shipping.cod_not_offered'), reasonKey('shipping.wrong_destination'), reasonKey('shipping.country_not_served')]) {
      expect(get(en, key)).toBeTruthy();
      expect(get(th, key)).toBeTruthy();
    }
    for (const code of ['logistic_type', 'logistic_provider', 'pricing_method', 'price', 'weight_brackets', 'weight', 'warehouse_unknown', 'cod_unsupported', 'account_number', 'postcode', 'country_unknown', 'shipment_type', 'status']) {
      expect((enCommon.validation as Record<string, string>)[code]).toBeTruthy();
      expect((thCommon.validation as Record<string, string>)[code]).toBeTruthy();
    }
  });
});

describe('the rest', () => {
  it('checks COD account numbers and links the screens', () => {
    expect(checkCodAccountNo('123-456-7890')).toBeNull();
    expect(checkCodAccountNo('12345')).toBe('validation.account_number');
    expect(checkCodAccountNo('')).toBe('validation.required');
    expect(tabOf('cod')).toBe('cod');
    expect(tabOf(null)).toBe('domestic');
    expect(listPath(1, 'international', 2)).toBe('/1/setting/logistic?tab=international&warehouse=2');
    expect(createPath(1, 'international')).toBe('/1/setting/logistic-create?type=international');
  });
});

describe('tracking numbers (UPU S10 for the postal provider)', () => {
  it('computes the check digit with the weights 8 6 4 2 3 5 9 7', () => {
    // 1·8 + 2·6 + 3·4 + 4·2 + 5·3 + 6·5 + 7·9 + 8·7 = 204; 11 − 204 mod 11 = 5.
    expect(s10CheckDigit(12345678)).toBe(5);
    expect(s10Number('EY', 12345678)).toBe('EY123456785TH');
    expect(s10Number('EY', 12345687)).toBe('EY123456873TH');
    // Serial 1 weighs 1·7 = 7: 11 − 7 = 4.
    expect(s10Number('EY', 1)).toBe('EY000000014TH');
    // All zeros: the sum is 0, 11 is written 5.
    expect(s10CheckDigit(0)).toBe(5);
    // A remainder of 1 gives 10, written 0.
    const ten = Array.from({ length: 1000 }, (_, i) => i).find((n) => {
      const sum = [...String(n).padStart(8, '0')].reduce((acc, d, i) => acc + Number(d) * [8, 6, 4, 2, 3, 5, 9, 7][i], 0);
      return sum % 11 === 1;
    })!;
    expect(s10CheckDigit(ten)).toBe(0);
    for (let serial = 0; serial < 2000; serial += 37) {
      const c = s10CheckDigit(serial);
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(9);
    }
  });

  it('writes other carriers\' numbers as the prefix and the serial padded to the last serial', () => {
    expect(trackingNumber(false, 'KEX', 42, 6)).toBe('KEX000042');
    // Serial 42 weighs 4·9 + 2·7 = 50: 11 − 50 mod 11 = 5.
    expect(trackingNumber(true, 'EE', 42, 6)).toBe('EE000000425TH');
  });

  it('checks a range as the service does', () => {
    expect(checkRangePrefix('ey', true)).toBeNull();
    expect(checkRangePrefix('E1', true)).toBe('common:validation.tracking_prefix');
    expect(checkRangePrefix('EYX', true)).toBe('common:validation.tracking_prefix');
    expect(checkRangePrefix('KEX01', false)).toBeNull();
    expect(checkRangePrefix('', false)).toBe('common:validation.required');
    expect(checkSerial('12345678', true)).toBeNull();
    expect(checkSerial('123456789', true)).toBe('common:validation.tracking_range');
    expect(checkSerial('123456789012', false)).toBeNull();
    expect(checkSerial('12a', false)).toBe('common:validation.tracking_range');
    expect(checkRange('12345687', '12345678', true)).toBe('common:validation.tracking_range');
    expect(checkRange('1', '1000000', false)).toBeNull();
    expect(checkRange('1', '1000001', false)).toBe('common:validation.tracking_range');
  });

  it('shows the first and last numbers a range will produce, and sends it in capitals', () => {
    expect(rangePreview(true, { prefix: 'ey', first: '12345678', last: '12345687' })).toEqual({ first: 'EY123456785TH', last: 'EY123456873TH', count: 10 });
    expect(rangePreview(false, { prefix: 'K', first: '1', last: '00100' })).toEqual({ first: 'K00001', last: 'K00100', count: 100 });
    expect(rangePreview(true, { prefix: 'EY', first: '12345687', last: '12345678' })).toBeNull();
    expect(rangePreview(true, { prefix: 'EY', first: '', last: '12345678' })).toBeNull();
    expect(rangeBody({ providerName: 'thaipost', prefix: ' ey ', first: ' 12345678', last: '12345687 ' })).toEqual({ providerName: 'thaipost', prefix: 'EY', first: '12345678', last: '12345687' });
  });

  it('offers domestic carriers and the postal provider\'s services, postal ones by their carrier', () => {
    const all = [
      { providerName: 'thaipost', carrier: 'thaipost', shipmentType: 'domestic' },
      { providerName: 'kerry', carrier: 'kerry', shipmentType: 'domestic' },
      { providerName: 'ems_world_package', carrier: 'thaipost', shipmentType: 'international' },
    ];
    expect(rangeProviders(all).map((c) => c.providerName)).toEqual(['thaipost', 'kerry', 'ems_world_package']);
    expect(isPostal(all[2])).toBe(true);
    expect(isPostal(all[1])).toBe(false);
    expect(isPostal(undefined)).toBe(false);
  });

  it('says an overlap under the first number', () => {
    const t = ((k: string | string[]) => (Array.isArray(k) ? k[0] : k)) as unknown as TFunction;
    const overlap = { status: 409, data: { error: { code: 'tracking_range_overlap', messageKey: '', message: '' } } };
    expect(serverFieldErrors(overlap, t, RANGE_ERRORS)).toEqual([{ name: 'first', errors: ['logistics:errors.tracking_range_overlap'] }]);
    const fields = { status: 422, data: { error: { code: 'validation_failed', messageKey: '', message: '', fields: [{ field: 'provider_name', code: 'validation.logistic_provider' }] } } };
    expect(serverFieldErrors(fields, t, RANGE_ERRORS)).toEqual([{ name: 'providerName', errors: ['logistics:validation.logistic_provider'] }]);
  });
});

describe('the rate table and the calculator', () => {
  const refused = (fields: { field: string; code: string }[] | undefined, code = 'validation_failed') => ({ status: 422, data: { error: { code, messageKey: '', message: '', fields } } });

  it('reads a bad cell as its sheet, row and column', () => {
    expect(parseRowField('rates[3].price')).toEqual({ sheet: 'rates', row: 3, column: 'price' });
    expect(parseRowField('zones[12].ems_world_package')).toEqual({ sheet: 'zones', row: 12, column: 'ems_world_package' });
    expect(parseRowField('rates[3].max_weight_g')).toEqual({ sheet: 'rates', row: 3, column: 'max_weight_g' });
    expect(parseRowField('file')).toBeNull();
    expect(parseRowField('rates.price')).toBeNull();
  });

  it('tells the file\'s problems from its cells\'', () => {
    expect(
      rateTableProblems(
        refused([
          { field: 'rates[3].price', code: 'validation.money' },
          { field: 'zones[2].country', code: 'validation.duplicate' },
        ]),
      ),
    ).toEqual({
      file: [],
      rows: [
        { sheet: 'rates', row: 3, column: 'price', code: 'validation.money' },
        { sheet: 'zones', row: 2, column: 'country', code: 'validation.duplicate' },
      ],
    });
    expect(rateTableProblems(refused([{ field: 'file', code: 'import_wrong_template' }]))).toEqual({ file: ['import_wrong_template'], rows: [] });
    expect(rateTableProblems(refused(undefined, 'import_not_xlsx'))).toEqual({ file: ['import_not_xlsx'], rows: [] });
    expect(rateTableProblems({ status: 'FETCH_ERROR' })).toEqual({ file: [], rows: [] });
    expect(messageKeys('validation.money')).toEqual(['logistics:errors.validation.money', 'logistics:validation.money', 'common:validation.money', 'logistics:errors.save_failed']);
  });

  it('checks a file before upload: .xlsx, not empty, at most 2 MB', () => {
    expect(checkRateFile('rates.xlsx', 1000)).toBeNull();
    expect(checkRateFile('RATES.XLSX', 2 * 1024 * 1024)).toBeNull();
    expect(checkRateFile('rates.csv', 1000)).toBe('import_not_xlsx');
    expect(checkRateFile('rates.xlsx', 0)).toBe('import_empty');
    expect(checkRateFile('rates.xlsx', 2 * 1024 * 1024 + 1)).toBe('import_too_large');
  });

  it('has a message for every code an upload or a carrier can answer, in both languages', () => {
    const get = (o: unknown, key: string) => key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
    const codes = ['import_wrong_template', 'import_not_xlsx', 'import_too_large', 'import_empty', 'carrier_unreachable', 'carrier_auth_failed', 'carrier_rejected', 'carrier_bad_answer', 'carrier_account_missing', 'tracking_range_overlap', 'tracking_range_limit_reached', 'tracking_numbers_exhausted', 'shipment_not_found'];
    for (const code of codes) {
      expect(get(en, `errors.${code}`)).toBeTruthy();
      expect(get(th, `errors.${code}`)).toBeTruthy();
    }
    for (const code of ['tracking_prefix', 'tracking_range', 'tracking_number', 'zone', 'duplicate', 'money', 'country_unknown', 'too_long', 'logistic_provider', 'weight', 'required']) {
      expect((enCommon.validation as Record<string, string>)[code]).toBeTruthy();
      expect((thCommon.validation as Record<string, string>)[code]).toBeTruthy();
    }
    for (const reason of ['shipping.country_not_served', 'shipping.over_weight']) {
      expect(get(en, rateReasonKeys(reason)[0].replace('logistics:', ''))).toBeTruthy();
      expect(get(th, rateReasonKeys(reason)[0].replace('logistics:', ''))).toBeTruthy();
    }
  });

  it('sends the parcel with its sides only when given, and finds the cheapest service', () => {
    expect(ratesBody({ country: 'jp', weight: ' 1.2 ' })).toEqual({ country: 'JP', weight: '1.2', length: undefined, width: undefined, height: undefined });
    expect(ratesBody({ country: 'JP', weight: '1', length: '30', width: ' 20 ', height: '' })).toEqual({ country: 'JP', weight: '1', length: 30, width: 20, height: undefined });
    expect(checkSide('')).toBeNull();
    expect(checkSide('300')).toBeNull();
    expect(checkSide('301')).toBe('logistics:rates.sideRule');
    expect(checkSide('1.5')).toBe('logistics:rates.sideRule');
    const rate = (service: string, price: string, available = true) => ({ service, price, available });
    expect(cheapest([rate('a', '1350.00'), rate('b', '0.00', false), rate('c', '990.50'), rate('d', '1000.00')])).toBe('c');
    expect(cheapest([rate('a', '0.00', false)])).toBeNull();
  });
});

describe('carrier accounts', () => {
  it('gives the postal provider the webhook under /api, and colours the key\'s status', () => {
    expect(webhookUrl('https://shop.example', '/logistics/webhooks/thaipost/abc')).toBe('https://shop.example/api/logistics/webhooks/thaipost/abc');
    expect(webhookUrl('https://shop.example/', '/logistics/webhooks/thaipost/abc')).toBe('https://shop.example/api/logistics/webhooks/thaipost/abc');
    expect(webhookUrl('https://shop.example', '')).toBe('');
    expect(keyStatusColour('working')).toBe('green');
    expect(keyStatusColour('rejected')).toBe('red');
    expect(keyStatusColour('')).toBeUndefined();
  });

  it('names a downloaded file as the server does', () => {
    expect(fileNameOf('attachment; filename="shipping-rates-template.xlsx"')).toBe('shipping-rates-template.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''%E0%B8%95%E0%B8%B2%E0%B8%A3%E0%B8%B2%E0%B8%87.xlsx")).toBe('ตาราง.xlsx');
    expect(fileNameOf(null)).toBeNull();
    expect(fileNameOf('inline')).toBeNull();
  });
});
