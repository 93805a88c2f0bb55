// How the goods receipt screens say a server's refusal: under the form's fields when it
// belongs there, else in a notification; 401, 403 and failures have their global dialogs.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';

import { serverFieldErrors } from '@/shared/form/serverErrors';
import { notifyRefusal as notify } from '@/shared/refusal';
import { fieldPath, FORM_CODES } from './receipts';

/** The message of a field rule (`validation.date`): the receipts' wording first, then common's. */
export function ruleMessage(code: string, t: TFunction): string {
  return t([`receipts:${code}`, `common:${code}`]);
}

/** Says a refused change in a notification: the first broken rule, else the refusal in its
 * words (unless a global dialog says it). */
export function notifyRefusal(e: unknown, t: TFunction): void {
  notify(e, t, 'receipts', { rule: (code) => ruleMessage(code, t) });
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
