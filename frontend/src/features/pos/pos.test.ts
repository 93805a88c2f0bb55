import { refusalKey } from '@/shared/refusal';
import en from '@/locales/en/pos.json';
import th from '@/locales/th/pos.json';
import enCommon from '@/locales/en/common.json';
import thCommon from '@/locales/th/common.json';
import {
  addressLine,
  BRANCH_ERRORS,
  branchLabel,
  branchOf,
  CASHIER_ERRORS,
  checkBranchNumber,
  checkCode,
  checkName,
  checkPersonEmail,
  checkPosNo,
  checkTaxId,
  cleanTaxId,
  formatTaxId,
  isThaiTaxId,
  listPath,
  POS_UNIT_ERRORS,
  SELLER_ERRORS,
  tabOf,
} from './pos';

/** The check digit computed the long way, for a second opinion. */
function withCheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (13 - i);
  return `${first12}${(11 - (sum % 11)) % 10}`;
}

describe('tax id (13 digits with the Thai check digit)', () => {
  it('takes ids whose last digit is the check digit, as the service does', () => {
    expect(isThaiTaxId('1234567890121')).toBe(true);
    for (const first12 of ['010553601234', '000000000000', '999999999999', '310010012345']) {
      expect(isThaiTaxId(withCheckDigit(first12))).toBe(true);
    }
    expect(checkTaxId('1234567890121')).toBeNull();
  });

  it('has exactly one check digit for every twelve digits', () => {
    for (const first12 of ['000000000000', '999999999999', '310010012345', '010553601234']) {
      const valid = [...'0123456789'].filter((c) => isThaiTaxId(`${first12}${c}`));
      expect(valid).toHaveLength(1);
    }
  });

  it('refuses a wrong check digit, a wrong length, letters and Thai digits', () => {
    for (const bad of ['1234567890122', '123456789012', '12345678901212', '123456789012a', '๑๒๓๔๕๖๗๘๙๐๑๒๑', '1234567890.21']) {
      expect(checkTaxId(bad)).toBe('validation.tax_id');
    }
    expect(checkTaxId('')).toBe('validation.required');
    expect(checkTaxId('  - ')).toBe('validation.required');
  });

  it('takes dashes and spaces people group it with, and prints it grouped', () => {
    expect(cleanTaxId(' 1-2345-67890-12-1 ')).toBe('1234567890121');
    expect(checkTaxId('1-2345-67890-12-1')).toBeNull();
    expect(checkTaxId('1 2345 67890 12 1')).toBeNull();
    expect(formatTaxId('1234567890121')).toBe('1-2345-67890-12-1');
    expect(formatTaxId('123')).toBe('123');
  });
});

describe('branch number (5 digits, the main branch 00000)', () => {
  it('takes five digits, 00000 for the main branch only', () => {
    expect(checkBranchNumber('00000', true)).toBeNull();
    expect(checkBranchNumber('00001', false)).toBeNull();
    expect(checkBranchNumber(' 12345 ', false)).toBeNull();
  });

  it('refuses what the service refuses, with its messages', () => {
    expect(checkBranchNumber('', false)).toBe('validation.required');
    for (const bad of ['1', '0001', '000001', '0000a', '๐๐๐๐๑', '00 01', '-0001']) expect(checkBranchNumber(bad, false)).toBe('validation.branch_number');
    expect(checkBranchNumber('00001', true)).toBe('validation.branch_main');
    expect(checkBranchNumber('00000', false)).toBe('validation.branch_main');
  });
});

describe('POS number', () => {
  it('takes letters, digits and dashes up to 20', () => {
    for (const ok of ['POS-01', 'a', ' P1 ', '1'.repeat(20), 'front-desk-2']) expect(checkPosNo(ok)).toBeNull();
  });

  it('refuses spaces, other signs, Thai letters and more than 20 characters', () => {
    expect(checkPosNo('')).toBe('validation.required');
    for (const bad of ['POS 1', 'POS_1', 'POS#1', 'เครื่อง1', 'PÖS']) expect(checkPosNo(bad)).toBe('validation.pos_number');
    expect(checkPosNo('1'.repeat(21))).toBe('validation.too_long');
  });
});

describe('people and the rest', () => {
  it('asks names and a valid email; a seller code is optional up to 20', () => {
    expect(checkName(' ')).toBe('validation.required');
    expect(checkName('x'.repeat(201))).toBe('validation.too_long');
    expect(checkName('สมหญิง')).toBeNull();
    expect(checkPersonEmail('')).toBe('validation.required');
    expect(checkPersonEmail('not-an-email')).toBe('validation.email');
    expect(checkPersonEmail('somying@example.com')).toBeNull();
    expect(checkCode('')).toBeNull();
    expect(checkCode('S-01')).toBeNull();
    expect(checkCode('x'.repeat(21))).toBe('validation.too_long');
  });

  it('names branches and addresses on one line, and links tabs', () => {
    expect(branchLabel({ branchNo: '00000', name: 'สำนักงานใหญ่' })).toBe('00000 · สำนักงานใหญ่');
    // A person's row names the person too: their branch is the branch's name, not theirs.
    const seller = { branchNo: '00001', branchName: 'สยาม', name: 'สมหญิง ขายดี' };
    expect(branchOf(seller)).toBe('00001 · สยาม');
    expect(addressLine({ address: '1 ถนนสีลม', subDistrict: 'สีลม', district: 'บางรัก', stateProvince: 'กรุงเทพมหานคร', postcode: '10500' })).toBe('1 ถนนสีลม สีลม บางรัก กรุงเทพมหานคร 10500');
    expect(tabOf('cashiers')).toBe('cashiers');
    expect(tabOf('nope')).toBe('branches');
    expect(tabOf(null)).toBe('branches');
    expect(listPath(7, 'sellers')).toBe('/7/pos-setting?tab=sellers');
  });
});

describe('messages', () => {
  const get = (o: unknown, key: string) => key.split(':').pop()!.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);

  it('puts each duplicate under its field, with a message in both languages', () => {
    expect(BRANCH_ERRORS.codes?.branch_number_duplicate.field).toBe('branchNo');
    expect(POS_UNIT_ERRORS.codes?.pos_number_duplicate.field).toBe('posNo');
    expect(CASHIER_ERRORS.codes?.cashier_duplicate.field).toBe('userId');
    expect(SELLER_ERRORS.codes?.seller_email_duplicate.field).toBe('email');
    for (const opts of [BRANCH_ERRORS, POS_UNIT_ERRORS, CASHIER_ERRORS, SELLER_ERRORS]) {
      for (const { message } of Object.values(opts.codes ?? {})) {
        expect(get(en, message)).toBeTruthy();
        expect(get(th, message)).toBeTruthy();
      }
    }
    expect(refusalKey('branch_in_use', 'pos')).toBe('pos:errors.branch_in_use');
    expect(refusalKey('something_else', 'pos')).toBeNull();
    expect(refusalKey(undefined, 'pos')).toBeNull();
  });

  it('knows every rule the service names, in both languages', () => {
    for (const code of ['branch_number', 'branch_main', 'tax_id', 'warehouse_unknown', 'branch_unknown', 'member_unknown', 'pos_number', 'email', 'phone_digits', 'postcode', 'too_long', 'status', 'required']) {
      expect((enCommon.validation as Record<string, string>)[code]).toBeTruthy();
      expect((thCommon.validation as Record<string, string>)[code]).toBeTruthy();
    }
    for (const area of ['branch', 'unit', 'cashier', 'seller']) {
      for (const verb of ['create', 'update', 'delete']) {
        expect((enCommon.audit.actions as Record<string, string>)[`pos.${area}.${verb}`]).toBeTruthy();
        expect((thCommon.audit.actions as Record<string, string>)[`pos.${area}.${verb}`]).toBeTruthy();
      }
    }
  });
});
