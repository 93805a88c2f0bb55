import type { TFunction } from 'i18next';

import en from '@/locales/en/logistics.json';
import th from '@/locales/th/logistics.json';
import enCommon from '@/locales/en/common.json';
import thCommon from '@/locales/th/common.json';
import { serverFieldErrors } from '@/shared/form/serverErrors';
import type { LogisticChannel } from './api';
import {
  addBracket,
  bracketProblems,
  changeBracket,
  channelBody,
  channelValues,
  CHANNEL_ERRORS,
  checkBrackets,
  checkCodAccountNo,
  checkWeight,
  cleanBrackets,
  COD_ERRORS,
  createPath,
  kgText,
  listPath,
  MAX_BRACKETS,
  methodsFor,
  priceSummary,
  reasonKey,
  refusalKey,
  REFUSALS,
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
    expect(refusalKey('logistic_limit_reached')).toBe('logistics:errors.logistic_limit_reached');
    expect(refusalKey(undefined)).toBeNull();
  });

  it('has SPEC §8\'s messages in both languages', () => {
    const get = (o: unknown, key: string) => key.split(':').pop()!.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
    expect(get(en, 'errors.logistic_inter_duplicate')).toBe('Only one international shipping per warehouse per provider');
    expect(get(en, 'errors.logistic_limit_reached')).toContain('exceeded the set number');
    expect(get(en, 'errors.cod_account_missing')).toContain('Missing COD number');
    for (const key of [...Object.values(REFUSALS), 'logistics:brackets.none', 'logistics:brackets.rising', reasonKey('shipping.over_weight'), reasonKey('shipping.cod_not_offered'), reasonKey('shipping.wrong_destination'), reasonKey('shipping.country_not_served')]) {
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
