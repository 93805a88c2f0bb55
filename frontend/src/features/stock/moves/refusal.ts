// How the moves tabs say a server's refusal that is not a form field's: the stock namespace's
// message for its code in a notification; 401, 403 and failures have their global dialogs.
import type { TFunction } from 'i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { notifyError } from '@/shared/dialogs/notify';

type AnyError = Parameters<typeof globalErrorKind>[0];

/** The stock namespace's key for a refusal's code (`stock:errors.<code>`), if it has one. */
export function refusalKey(code: string | undefined, t: TFunction): string | null {
  if (!code) return null;
  const key = `stock:errors.${code}`;
  return t(key, { defaultValue: '' }) ? key : null;
}

/** Says a refusal in a notification (nothing when a global dialog says it). */
export function notifyRefusal(e: unknown, t: TFunction): void {
  const key = refusalKey(apiError(e)?.code, t);
  if (key) notifyError(t(key));
  else if (!globalErrorKind(e as AnyError)) notifyError(t('stock:errors.save_failed'));
}
