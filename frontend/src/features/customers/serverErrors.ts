import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';

import { apiError, fieldErrors } from '@/app/api/errors';

/** Puts a server refusal on the form: field rules under their fields, a duplicate phone
 * under the phone with its own message. Returns false when the error is not the form's. */
export function showServerErrors(err: unknown, form: FormInstance, t: TFunction): boolean {
  const body = apiError(err);
  if (!body) return false;
  if (body.code === 'customer_phone_duplicate') {
    form.setFields([{ name: 'tel', errors: [t('customers:errors.customer_phone_duplicate')] }]);
    return true;
  }
  const fields = fieldErrors(err);
  const entries = Object.entries(fields);
  if (entries.length === 0) return false;
  form.setFields(entries.map(([name, code]) => ({ name, errors: [t(`common:${code}`)] })));
  return true;
}
