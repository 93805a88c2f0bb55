// Rules of the store's payment accounts (SPEC §3 Payment account, §5), the same as the
// payments service's: every field of the account's kind is required; bank and COD account
// numbers are 10 to 20 digits; a PromptPay id is a 10-digit mobile number or a 13-digit id
// with the Thai check digit; a PayPal fee is a percentage with at most two decimals. Checks
// return message keys of `common`; `t` translates them.
import { checkEmail, checkRequired, isThaiTaxId, MSG } from '@/shared/form/rules';
import type { ServerErrorOptions } from '@/shared/form/serverErrors';
import type { StoreChannelInput } from './api';

/** The kinds, in the order the screens show them. */
export const KINDS = ['bank', 'promptpay', 'paypal', 'cod'] as const;
export type Kind = (typeof KINDS)[number];

/** The fields of each kind's form, in its order. */
export const FIELDS: Record<Kind, readonly (keyof AccountFields)[]> = {
  bank: ['country', 'bankCode', 'accName', 'accNo', 'branch'],
  promptpay: ['accName', 'accNo'],
  paypal: ['email', 'fee'],
  cod: ['accName', 'accNo'],
};

/** Longest name or branch, in characters. */
export const NAME_MAX = 200;
/** Account numbers: 10 to 20 digits. */
export const ACC_NO_MIN = 10;
export const ACC_NO_MAX = 20;

export const PAY_MSG = {
  accountNumber: 'validation.account_number',
  promptPayId: 'validation.promptpay_id',
  fee: 'validation.fee_percent',
} as const;

/** What the form holds for an account (texts as typed). */
export interface AccountFields {
  country?: string;
  bankCode?: string;
  accName?: string;
  accNo?: string;
  branch?: string;
  email?: string;
  fee?: string;
}

export interface AccountValues extends AccountFields {
  channelType: Kind;
  /** On (active) or off. */
  active: boolean;
}

export function kindOf(v: string | null | undefined): Kind | null {
  return (KINDS as readonly string[]).includes(v ?? '') ? (v as Kind) : null;
}

/** The tab `?tab=` names, the bank accounts when it names none. */
export function tabOf(v: string | null): Kind {
  return kindOf(v) ?? 'bank';
}

/** The list a form returns to, on the account's kind. */
export function listPath(storeId: number, kind: Kind): string {
  return `/${storeId}/setting/payment-list?tab=${kind}`;
}

/** A number as typed, without the spaces and dashes people group it with. */
export function digitsOf(v: string | undefined | null): string {
  return (v ?? '').trim().replace(/[ -]/g, '');
}

/** A bank or COD account number: required, 10 to 20 digits. */
export function checkAccountNo(v: string): string | null {
  const d = digitsOf(v);
  if (!d) return MSG.required;
  return /^[0-9]+$/.test(d) && d.length >= ACC_NO_MIN && d.length <= ACC_NO_MAX ? null : PAY_MSG.accountNumber;
}

/** A PromptPay id: a mobile number (10 digits from 0) or a national or tax id (13 digits with
 * the check digit). */
export function checkPromptPayId(v: string): string | null {
  const d = digitsOf(v);
  if (!d) return MSG.required;
  if (/^0[0-9]{9}$/.test(d) || isThaiTaxId(d)) return null;
  return PAY_MSG.promptPayId;
}

/** A PayPal fee in percent: required, 0 to 100, at most two decimals ("4.4", "4.40%"). */
export function checkFee(v: string): string | null {
  const s = (v ?? '').trim().replace(/%$/, '').trim();
  if (!s) return MSG.required;
  if (!/^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(s)) return PAY_MSG.fee;
  return Number(s) <= 100 ? null : PAY_MSG.fee;
}

/** An account name or a branch. */
export function checkName(v: string): string | null {
  return checkRequired(v, NAME_MAX);
}

/** A PayPal email: required and valid. */
export function checkPaypalEmail(v: string): string | null {
  return v.trim() ? checkEmail(v) : MSG.required;
}

/** The request body of a form: only its kind's fields, trimmed (numbers as digits); the kind
 * itself only on create (it cannot change). */
export function accountBody(v: AccountValues, creating: boolean): StoreChannelInput {
  const body: StoreChannelInput = creating ? { channelType: v.channelType } : {};
  for (const f of FIELDS[v.channelType]) {
    const raw = (v[f] ?? '').trim();
    if (f === 'accNo') body.accNo = digitsOf(raw);
    else if (f === 'fee') body.fee = raw.replace(/%$/, '').trim();
    else if (f === 'country') body.country = raw.toUpperCase();
    else body[f] = raw;
  }
  body.status = v.active ? 'active' : 'inactive';
  return body;
}

/** The form's values of a saved account. */
export function accountValues(row: { channel: { type: string }; credential: Required<AccountFields>; status: string }): AccountValues {
  const kind = kindOf(row.channel.type) ?? 'bank';
  const values: AccountValues = { channelType: kind, active: row.status === 'active' };
  for (const f of FIELDS[kind]) values[f] = row.credential[f];
  return values;
}

/** An account number as people read it: a ten-digit bank account 123-4-56789-0, a mobile
 * number 081-234-5678, an id 1-2345-67890-12-1; others as they are. */
export function formatAccountNo(kind: string, no: string): string {
  if (kind === 'promptpay' && /^0[0-9]{9}$/.test(no)) return `${no.slice(0, 3)}-${no.slice(3, 6)}-${no.slice(6)}`;
  if (/^[0-9]{13}$/.test(no)) return `${no[0]}-${no.slice(1, 5)}-${no.slice(5, 10)}-${no.slice(10, 12)}-${no[12]}`;
  if ((kind === 'bank' || kind === 'cod') && /^[0-9]{10}$/.test(no)) return `${no.slice(0, 3)}-${no[3]}-${no.slice(4, 9)}-${no[9]}`;
  return no;
}

/** A PayPal fee as a list shows it: "4.40%". */
export function feeLabel(fee: string): string {
  const n = Number(fee);
  return Number.isFinite(n) ? `${n.toFixed(2)}%` : fee;
}

/** How a dialog names an account: its number, or its email for PayPal. */
export function accountLabel(row: { channel: { type: string }; credential: { accName: string; accNo: string; email: string } }): string {
  if (row.channel.type === 'paypal') return row.credential.email;
  return `${row.credential.accName} (${formatAccountNo(row.channel.type, row.credential.accNo)})`;
}

/** The accounts by kind, each in the list's order. */
export function byKind<T extends { channel: { type: string } }>(rows: T[]): Record<Kind, T[]> {
  const out: Record<Kind, T[]> = { bank: [], promptpay: [], paypal: [], cod: [] };
  for (const r of rows) {
    const k = kindOf(r.channel.type);
    if (k) out[k].push(r);
  }
  return out;
}

/** The duplicate account number belongs under the number, with SPEC §8's message. */
export const ACCOUNT_ERRORS: ServerErrorOptions = {
  ns: 'payments',
  codes: { account_number_duplicate: { field: 'accNo', message: 'payments:errors.account_number_duplicate' } },
};

