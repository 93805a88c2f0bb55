// How the goods receipt screens say a server's refusal: under the form's fields when it
// belongs there, else in a notification; 401, 403 and failures have their global dialogs.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { notifyError } from '@/shared/dialogs/notify';
import { serverFieldErrors } from '@/shared/form/serverErrors';
import { fieldPath, FORM_CODES, refusalKey } from './receipts';

type AnyError = Parameters<typeof globalErrorKind>[0];

/** The message of a field rule (`validation.date`): the receipts' wording first, then common's. */
export function ruleMessage(code: string, t: TFunction): string {
  return t([`receipts:${code}`, `common:${code}`]);
}

/** Says a refused change in a notification: a known refusal in its words, else the first
 * broken rule, else that the change failed (unless a global dialog says it). */
export function notifyRefusal(e: unknown, t: TFunction): void {
  const body = apiError(e);
  const key = refusalKey(body?.code);
  if (key) notifyError(t(key));
  else if (body?.fields?.length) notifyError(ruleMessage(body.fields[0].code, t));
  else if (!globalErrorKind(e as AnyError)) notifyError(t('receipts:errors.save_failed'));
}

/** The form's top-level fields a refusal may name. */
const FORM_FIELDS = new Set(['warehouseId', 'expectedReceivedDate', 'expectedReceivedTime', 'note', 'isPickUp', 'pickUp', 'products', 'packagings', 'options']);

/** Puts a refused save on the draft form (paths such as `products[1].request_qty` under their
 * line's field); what belongs to no field is said in a notification. True when some of it
 * went on the form. */
export function showFormRefusal(e: unknown, form: FormInstance, t: TFunction): boolean {
  const errors = serverFieldErrors(e, t, { ns: 'receipts', codes: FORM_CODES })
    .map((f) => ({ name: fieldPath(f.name), errors: f.errors }))
    .filter((f) => FORM_FIELDS.has(String(f.name[0])));
  if (errors.length === 0) {
    notifyRefusal(e, t);
    return false;
  }
  form.setFields(errors);
  form.scrollToField(errors[0].name, { block: 'center' });
  return true;
}
