// How the shipping screens say a server's refusal: under the form's fields when it belongs
// there, else in a notification; 401, 403 and failures have their global dialogs.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { notifyError } from '@/shared/dialogs/notify';
import { showServerErrors, type ServerErrorOptions } from '@/shared/form/serverErrors';
import { refusalKey } from './logistics';

type AnyError = Parameters<typeof globalErrorKind>[0];

/** Puts a refused save on the form, or says it in a notification. */
export function showSaveRefusal(e: unknown, form: FormInstance, t: TFunction, opts: ServerErrorOptions): void {
  if (showServerErrors(e, form, t, opts)) return;
  notifyRefusal(e, t);
}

/** Says a refused change that is not a form's (a status, a delete) in a notification. */
export function notifyRefusal(e: unknown, t: TFunction): void {
  const key = refusalKey(apiError(e)?.code);
  if (key) notifyError(t(key));
  else if (!globalErrorKind(e as AnyError)) notifyError(t('logistics:errors.save_failed'));
}
