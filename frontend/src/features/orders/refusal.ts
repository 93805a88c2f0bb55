// How the order screens say a server's refusal (SPEC §8): an action on an order that failed
// says 'there was a problem while …', why, and 'please check your order detail' (cancel and
// void also say to contact customer support); a form's refusal goes under its fields; a bulk
// action lists each order that did not move with its reason. 401, 403 and failures have their
// global dialogs.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import i18n from 'i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError } from '@/shared/dialogs/notify';
import { namePath, serverFieldErrors } from '@/shared/form/serverErrors';
import { isErrorCode } from '@/shared/refusal';

type AnyError = Parameters<typeof globalErrorKind>[0];

/** The message key of why an order did not move or change, as the API says it (a 409's code,
 * or a bulk result's reason): the order screens' wording (`orders:reasons.<code>`) when they
 * have one, else the code's own; an unknown one reads as 'the order could not be changed'. */
export function reasonKey(code: string | undefined | null): string {
  if (code && i18n.exists(`orders:reasons.${code}`)) return `orders:reasons.${code}`;
  return isErrorCode(code) ? `codes:${code}` : 'orders:reasons.unknown';
}

/** What was being done when a refusal came. */
export type Doing = 'prepare' | 'close' | 'cancel' | 'void' | 'fail' | 'ship' | 'save' | 'address' | 'parcel' | 'print' | 'fill' | 'renew' | 'payment_create' | 'payment_edit' | 'payment_confirm' | 'payment_cancel' | 'payment_void';

/** The action of a state path. */
export const DOING_OF: Record<string, Doing> = {
  'ready-to-fulfillment': 'prepare',
  close: 'close',
  cancel: 'cancel',
  void: 'void',
  fail: 'fail',
};

/** SPEC §8: cancel and void also say to contact customer support. */
export const SUPPORT: readonly Doing[] = ['cancel', 'void'];

/** The dialog of a refused action: its title ('there was a problem while …') and message
 * (why, and 'please check your order detail'; for cancel and void, also customer support),
 * as keys with their values. */
export function failureDialog(doing: Doing, code: string | undefined | null, t: TFunction) {
  return {
    kind: 'error' as const,
    title: `orders:failure.${doing}`,
    message: SUPPORT.includes(doing) ? 'orders:failure.checkDetailSupport' : 'orders:failure.checkDetail',
    values: { reason: t(reasonKey(code)) },
    cancel: false,
  };
}

/** Says a refused action on an order (not a form's): in the action's failure dialog when the
 * API gave a reason, else the first broken rule, else nothing (a global dialog says it). */
export function showRefusal(e: unknown, doing: Doing, t: TFunction): void {
  const body = apiError(e);
  if (body?.fields?.length) {
    const f = body.fields[0];
    notifyError(t([`orders:${f.code}`, `common:${f.code}`, 'orders:reasons.unknown']));
    return;
  }
  if (body) {
    void showDialog(failureDialog(doing, body.code, t));
    return;
  }
  if (!globalErrorKind(e as AnyError)) void showDialog(failureDialog(doing, null, t));
}

/** Refusals of a save that belong under one field of the order form. */
export const FORM_CODES = {
  duplicate_order_reference: { field: 'reference', message: 'orders:reasons.duplicate_order_reference' },
  order_value_exceeds_limit: { field: 'items', message: 'orders:form.overLimit' },
};

/** The form's top-level fields a refusal may name (the API's names, camelCased). */
const FORM_FIELDS = new Set([
  'channel',
  'reference',
  'note',
  'warehouseId',
  'customerId',
  'customerAddressId',
  'shippingAddress',
  'items',
  'discountType',
  'discountValue',
  'vatIncluded',
  'logisticStoreChannelId',
  'shippingCharge',
  'additionalFee',
  'cod',
]);

/** The refusal's errors as the order form's, by name path (`items[0].sku_id` under the first
 * line's SKU). */
export function formErrors(e: unknown, t: TFunction): { name: (string | number)[]; errors: string[] }[] {
  return serverFieldErrors(e, t, { ns: 'orders', codes: FORM_CODES })
    .map((f) => ({ name: namePath(f.name), errors: f.errors }))
    .filter((f) => FORM_FIELDS.has(String(f.name[0])));
}

/** Puts a refused save on the order form; what belongs to no field is said in its failure
 * dialog (an order changed by someone else, no longer editable). True when some of it went
 * on the form. */
export function showFormRefusal(e: unknown, form: FormInstance, t: TFunction): boolean {
  const errors = formErrors(e, t);
  if (errors.length === 0) {
    showRefusal(e, 'save', t);
    return false;
  }
  form.setFields(errors);
  form.scrollToField(errors[0].name, { block: 'center' });
  return true;
}
