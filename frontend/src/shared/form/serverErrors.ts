// One way to put a server's refusal on a form, for every form: field rules under their
// fields (the server's snake_case names turned into the form's camelCase), refusals that
// belong to one field under it with their own message, the rest left to the screen.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';

import { apiError } from '@/app/api/errors';

export interface ServerErrorOptions {
  /** Refusals that belong under one field, with their own message key:
   * `{ code_taken: { field: 'code', message: 'products:errors.code_taken' } }`. */
  codes?: Record<string, { field: string; message: string }>;
  /** Server field names (camelCased) renamed to the form's: `{ delta: 'quantity' }`. */
  rename?: Record<string, string>;
  /** The form's own fields; errors of other fields are left to the screen. */
  only?: string[];
  /** The feature's namespace: its message for a code is tried before `common`'s; a refusal's
   * code under a field (`api_key: carrier_auth_failed`) also as one of its `errors`. */
  ns?: string;
}

export interface FormFieldError {
  /** The form's field name. */
  name: string;
  /** The translated messages. */
  errors: string[];
}

/** Server field names (snake_case) as the form's (camelCase). */
export function formField(field: string): string {
  return field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A server field with a path (`items[1].sku_id`, `shipping_address.tel`) as a form's name
 * path: `['items', 1, 'skuId']`, `['shippingAddress', 'tel']`; a name it cannot read stays
 * whole (camelCased). */
export function namePath(field: string): (string | number)[] {
  const camel = formField(field);
  const path: (string | number)[] = [];
  for (const part of camel.split('.')) {
    const m = /^([A-Za-z0-9]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [camel];
    path.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) path.push(Number(idx[1]));
  }
  return path;
}

/** The refusal's errors for the form's fields, one per field (the first); empty when none is
 * the form's. */
export function serverFieldErrors(err: unknown, t: TFunction, opts: ServerErrorOptions = {}): FormFieldError[] {
  const body = apiError(err);
  if (!body) return [];
  const own = opts.codes?.[body.code];
  if (own) return [{ name: own.field, errors: [t(own.message)] }];
  const seen = new Set<string>();
  const out: FormFieldError[] = [];
  for (const f of body.fields ?? []) {
    const camel = formField(f.field);
    const name = opts.rename?.[camel] ?? camel;
    if (seen.has(name) || (opts.only && !opts.only.includes(name))) continue;
    seen.add(name);
    const refusal = f.code.includes('.') ? [] : [`${opts.ns}:errors.${f.code}`];
    const keys = opts.ns ? [`${opts.ns}:${f.code}`, ...refusal, `common:${f.code}`] : [`common:${f.code}`];
    out.push({ name, errors: [t(keys)] });
  }
  return out;
}

/** Puts a server's refusal on `form`; false when nothing of it belongs to the form (the
 * screen then says it another way). */
export function showServerErrors(err: unknown, form: FormInstance, t: TFunction, opts: ServerErrorOptions = {}): boolean {
  const errors = serverFieldErrors(err, t, opts);
  if (errors.length === 0) return false;
  form.setFields(errors);
  return true;
}
