// Rules and wording of the store settings (SPEC §5, §9), mirroring the stores service's:
// a unit's quantity is a whole number from 1, a safety stock a whole number from 0, and the
// base unit one of the six types. Checks return message keys; `t` translates them.
import { MSG } from '@/shared/form/rules';
import type { ServerErrorOptions } from '@/shared/form/serverErrors';

/** The base unit types of SPEC §9, in the order the form offers them. */
export const BASE_UNITS = ['piece', 'dozen', 'pack', 'carton', 'box', 'sack'] as const;
export type BaseUnit = (typeof BASE_UNITS)[number];

export const NAME_MAX = 100;
export const QUANTITY_MAX = 1_000_000;
export const AMOUNT_MAX = 1_000_000_000;

function wholeNumber(v: string, min: number, max: number): string | null {
  const s = v.trim();
  if (!s) return MSG.required;
  const m = /^([\d,]+)(?:\.0*)?$/.exec(s);
  const digits = m ? m[1].replace(/,/g, '') : '';
  if (!digits) return 'validation.quantity';
  const n = Number(digits);
  return n >= min && n <= max ? null : 'validation.quantity';
}

/** The number a whole-number field holds once its thousands separators are gone
 * (`"1,000"` → 1000); NaN when it holds none. */
export function wholeNumberValue(v: string): number {
  const m = /^([\d,]+)(?:\.0*)?$/.exec(v.trim());
  return m ? Number(m[1].replace(/,/g, '')) : NaN;
}

/** A unit's quantity: required, a whole number from 1. */
export function checkQuantity(v: string): string | null {
  return wholeNumber(v, 1, QUANTITY_MAX);
}

/** A safety stock: required, a whole number from 0. */
export function checkAmount(v: string): string | null {
  return wholeNumber(v, 0, AMOUNT_MAX);
}

export function isBaseUnit(v: string): v is BaseUnit {
  return (BASE_UNITS as readonly string[]).includes(v);
}

/** The i18n key (namespace `settings`) of a base unit's name; unknown types show as sent. */
export function baseUnitKey(unit: string): string {
  return isBaseUnit(unit) ? `settings:baseUnits.${unit}` : unit;
}

/** How the settings forms show a server's refusals: a duplicate unit name under the name. */
export const UNIT_ERRORS: ServerErrorOptions = {
  ns: 'settings',
  codes: { unit_name_duplicate: { field: 'name', message: 'settings:errors.unit_name_duplicate' } },
};
