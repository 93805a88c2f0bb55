// Rules of the point-of-sale setup (SPEC §3 Branch, POS unit, Cashier, Seller; §5), the same as
// the stores service's: a branch number is exactly five digits and the main branch (head office,
// สำนักงานใหญ่) is 00000; a tax id is 13 digits ending in the Thai check digit; a POS number is
// letters, digits and dashes. Checks return message keys of `common`; `t` translates them.
import { checkEmail, checkRequired, isThaiTaxId, MSG } from '@/shared/form/rules';
import type { ServerErrorOptions } from '@/shared/form/serverErrors';

/** The main branch's number. */
export const MAIN_BRANCH = '00000';
/** Longest name, sub-district, district and province, in characters. */
export const NAME_MAX = 200;
/** Longest POS number. */
export const POS_NO_MAX = 20;
/** Longest seller code. */
export const CODE_MAX = 20;

export const POS_MSG = {
  branchNumber: 'validation.branch_number',
  branchMain: 'validation.branch_main',
  taxId: 'validation.tax_id',
  posNumber: 'validation.pos_number',
} as const;

/** The tabs of /pos-setting, as `?tab=` names them. */
export const TABS = ['branches', 'pos-units', 'cashiers', 'sellers'] as const;
export type PosTab = (typeof TABS)[number];

export function tabOf(v: string | null): PosTab {
  return (TABS as readonly string[]).includes(v ?? '') ? (v as PosTab) : 'branches';
}

/** The list a form returns to, on its tab. */
export function listPath(storeId: number, tab: PosTab): string {
  return `/${storeId}/pos-setting?tab=${tab}`;
}

/** A branch number: five digits; 00000 when the branch is the main one, and only then. */
export function checkBranchNumber(v: string, isMain: boolean): string | null {
  const s = v.trim();
  if (!s) return MSG.required;
  if (!/^[0-9]{5}$/.test(s)) return POS_MSG.branchNumber;
  if (isMain !== (s === MAIN_BRANCH)) return POS_MSG.branchMain;
  return null;
}

/** A tax id as typed, without the spaces and dashes people group it with. */
export function cleanTaxId(v: string): string {
  return v.trim().replace(/[ -]/g, '');
}

/** A tax id: required, 13 digits with the check digit; dashes and spaces may group it. */
export function checkTaxId(v: string): string | null {
  const s = cleanTaxId(v);
  if (!s) return MSG.required;
  return isThaiTaxId(s) ? null : POS_MSG.taxId;
}

/** A tax id as it is printed: 1-2345-67890-12-1. */
export function formatTaxId(v: string): string {
  return /^[0-9]{13}$/.test(v) ? `${v[0]}-${v.slice(1, 5)}-${v.slice(5, 10)}-${v.slice(10, 12)}-${v[12]}` : v;
}

/** A POS number: required, at most 20 characters, letters, digits and dashes. */
export function checkPosNo(v: string): string | null {
  const s = v.trim();
  if (!s) return MSG.required;
  if ([...s].length > POS_NO_MAX) return MSG.tooLong;
  return /^[A-Za-z0-9-]+$/.test(s) ? null : POS_MSG.posNumber;
}

/** A first or last name, a branch's name. */
export function checkName(v: string): string | null {
  return checkRequired(v, NAME_MAX);
}

/** A cashier's or seller's email: required and valid. */
export function checkPersonEmail(v: string): string | null {
  return v.trim() ? checkEmail(v) : MSG.required;
}

/** A seller's code: optional, at most 20 characters. */
export function checkCode(v: string): string | null {
  return [...v.trim()].length > CODE_MAX ? MSG.tooLong : null;
}

/** A branch as lists and pickers name it: "00000 · สำนักงานใหญ่". */
export function branchLabel(b: { branchNo: string; name: string }): string {
  return `${b.branchNo} · ${b.name}`;
}

/** The branch of a POS unit, cashier or seller, as lists name it. */
export function branchOf(row: { branchNo: string; branchName: string }): string {
  return branchLabel({ branchNo: row.branchNo, name: row.branchName });
}

/** A Thai address on one line. */
export function addressLine(b: { address: string; subDistrict: string; district: string; stateProvince: string; postcode: string }): string {
  return [b.address, b.subDistrict, b.district, b.stateProvince, b.postcode].filter((s) => s && s.trim()).join(' ');
}

/** The refusals that belong under one field, per form; the rest are said by the screen. */
export const BRANCH_ERRORS: ServerErrorOptions = {
  ns: 'pos',
  codes: { branch_number_duplicate: { field: 'branchNo', message: 'pos:errors.branch_number_duplicate' } },
};
export const POS_UNIT_ERRORS: ServerErrorOptions = {
  ns: 'pos',
  codes: { pos_number_duplicate: { field: 'posNo', message: 'pos:errors.pos_number_duplicate' } },
};
export const CASHIER_ERRORS: ServerErrorOptions = {
  ns: 'pos',
  codes: { cashier_duplicate: { field: 'userId', message: 'pos:errors.cashier_duplicate' } },
};
export const SELLER_ERRORS: ServerErrorOptions = {
  ns: 'pos',
  codes: { seller_email_duplicate: { field: 'email', message: 'pos:errors.seller_email_duplicate' } },
};

export { isThaiTaxId };
