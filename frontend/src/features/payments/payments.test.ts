import { refusalKey } from '@/shared/refusal';
import en from '@/locales/en/payments.json';
import th from '@/locales/th/payments.json';
import enCommon from '@/locales/en/common.json';
import thCommon from '@/locales/th/common.json';
import {
  ACCOUNT_ERRORS,
  accountBody,
  accountLabel,
  accountValues,
  byKind,
  checkAccountNo,
  checkFee,
  checkName,
  checkPaypalEmail,
  checkPromptPayId,
  digitsOf,
  feeLabel,
  formatAccountNo,
  listPath,
  tabOf,
} from './payments';

describe('account numbers and PromptPay ids (SPEC §5: numeric)', () => {
  it('takes 10 to 20 digits, grouped by dashes or spaces', () => {
    expect(checkAccountNo('123-4-56789-0')).toBeNull();
    expect(checkAccountNo('1234567890')).toBeNull();
    expect(checkAccountNo('1'.repeat(20))).toBeNull();
    expect(checkAccountNo('')).toBe('validation.required');
    for (const bad of ['123456789', '1'.repeat(21), '12345x7890', '๑๒๓๔๕๖๗๘๙๐']) expect(checkAccountNo(bad)).toBe('validation.account_number');
    expect(digitsOf(' 123 456-7890 ')).toBe('1234567890');
  });

  it('takes a mobile number or a 13-digit id with its check digit', () => {
    expect(checkPromptPayId('081-234-5678')).toBeNull();
    expect(checkPromptPayId('1-2345-67890-12-1')).toBeNull();
    expect(checkPromptPayId('')).toBe('validation.required');
    for (const bad of ['1812345678', '081234567', '1234567890122', '08123456789']) expect(checkPromptPayId(bad)).toBe('validation.promptpay_id');
  });

  it('takes a PayPal fee up to 100% with two decimals, and a valid email', () => {
    for (const ok of ['4.4', '4.40', '0', '100', '3.5%']) expect(checkFee(ok)).toBeNull();
    for (const bad of ['100.01', '4.444', 'x', '-1']) expect(checkFee(bad)).toBe('validation.fee_percent');
    expect(checkFee(' ')).toBe('validation.required');
    expect(checkPaypalEmail('')).toBe('validation.required');
    expect(checkPaypalEmail('shop@example')).toBe('validation.email');
    expect(checkPaypalEmail('shop@example.com')).toBeNull();
    expect(checkName('x'.repeat(201))).toBe('validation.too_long');
  });
});

describe('request bodies (only the kind\'s fields)', () => {
  const typed = {
    country: 'th',
    bankCode: '004',
    accName: ' ร้านดี ',
    accNo: '123-4-56789-0',
    branch: ' สีลม ',
    email: ' shop@example.com ',
    fee: '4.4%',
    active: true,
  };

  it('sends a bank account\'s country, bank, name, number and branch', () => {
    expect(accountBody({ ...typed, channelType: 'bank' }, true)).toEqual({
      channelType: 'bank',
      country: 'TH',
      bankCode: '004',
      accName: 'ร้านดี',
      accNo: '1234567890',
      branch: 'สีลม',
      status: 'active',
    });
  });

  it('sends PayPal\'s email and fee, PromptPay\'s and COD\'s name and number', () => {
    expect(accountBody({ ...typed, channelType: 'paypal' }, true)).toEqual({ channelType: 'paypal', email: 'shop@example.com', fee: '4.4', status: 'active' });
    expect(accountBody({ ...typed, channelType: 'promptpay', accNo: '081-234-5678' }, true)).toEqual({ channelType: 'promptpay', accName: 'ร้านดี', accNo: '0812345678', status: 'active' });
    expect(accountBody({ ...typed, channelType: 'cod', active: false }, true)).toEqual({ channelType: 'cod', accName: 'ร้านดี', accNo: '1234567890', status: 'inactive' });
  });

  it('leaves the kind out on edit, since it cannot change', () => {
    expect(accountBody({ ...typed, channelType: 'cod' }, false)).toEqual({ accName: 'ร้านดี', accNo: '1234567890', status: 'active' });
  });

  it('fills the form from a saved account', () => {
    const credential = { country: '', bankCode: '', accName: '', accNo: '', branch: '', email: 'shop@example.com', fee: '4.40' };
    expect(accountValues({ channel: { type: 'paypal' }, credential, status: 'inactive' })).toEqual({ channelType: 'paypal', active: false, email: 'shop@example.com', fee: '4.40' });
  });
});

describe('how accounts read', () => {
  it('groups numbers as Thai banks and PromptPay print them', () => {
    expect(formatAccountNo('bank', '1234567890')).toBe('123-4-56789-0');
    expect(formatAccountNo('bank', '123456789012')).toBe('123456789012');
    expect(formatAccountNo('promptpay', '0812345678')).toBe('081-234-5678');
    expect(formatAccountNo('promptpay', '1234567890121')).toBe('1-2345-67890-12-1');
    expect(feeLabel('4.4')).toBe('4.40%');
  });

  it('names accounts and groups them by kind', () => {
    const row = (id: number, type: string) => ({ id, channel: { type }, credential: { accName: 'ร้านดี', accNo: '0812345678', email: 'shop@example.com' } });
    expect(accountLabel(row(1, 'promptpay'))).toBe('ร้านดี (081-234-5678)');
    expect(accountLabel(row(1, 'paypal'))).toBe('shop@example.com');
    const groups = byKind([row(1, 'bank'), row(2, 'cod'), row(3, 'bank'), row(4, 'wire')]);
    expect(groups.bank.map((r) => r.id)).toEqual([1, 3]);
    expect(groups.cod.map((r) => r.id)).toEqual([2]);
    expect(groups.paypal).toEqual([]);
    expect(tabOf('promptpay')).toBe('promptpay');
    expect(tabOf('x')).toBe('bank');
    expect(listPath(3, 'cod')).toBe('/3/setting/payment-list?tab=cod');
  });
});

describe('messages', () => {
  const get = (o: unknown, key: string) => key.split(':').pop()!.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);

  it('says a duplicate number under the number, in SPEC §8\'s words', () => {
    expect(ACCOUNT_ERRORS.codes?.account_number_duplicate).toEqual({ field: 'accNo', message: 'payments:errors.account_number_duplicate' });
    expect(get(en, 'payments:errors.account_number_duplicate')).toBe('Account Number has already existed.');
    expect(get(th, 'payments:errors.account_number_duplicate')).toBeTruthy();
    expect(refusalKey('payment_channel_in_use', 'payments')).toBe('payments:errors.payment_channel_in_use');
    expect(refusalKey('other', 'payments')).toBeNull();
  });

  it('knows every rule the payments service names, in both languages', () => {
    for (const code of ['required', 'too_long', 'payment_channel_type', 'country_unknown', 'bank_unknown', 'account_number', 'promptpay_id', 'email', 'fee_percent', 'status', 'amount']) {
      expect((enCommon.validation as Record<string, string>)[code]).toBeTruthy();
      expect((thCommon.validation as Record<string, string>)[code]).toBeTruthy();
    }
  });
});
