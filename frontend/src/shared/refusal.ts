// How every screen says a server's refusal: under the form's fields when it belongs there,
// else in a notification with the code's message (the feature's own wording,
// `<ns>:errors.<code>`, when it has one, else the code's in the `codes` namespace, which
// has every code the API answers with). 401, 403, 413 and failures have their global
// dialogs, so nothing more is said of them here.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import i18n from 'i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { notifyError } from '@/shared/dialogs/notify';
import { ERROR_CODES, type ErrorCode } from '@/shared/errorCodes.gen';
import { showServerErrors, type ServerErrorOptions } from '@/shared/form/serverErrors';

type AnyError = Parameters<typeof globalErrorKind>[0];

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `code` is one the API answers with. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && CODES.has(code);
}

/** The message key of a refusal's code: the feature's wording (`<ns>:errors.<code>`) when it
 * has one, else the code's own (`codes:<code>`); null for no code or one the API lacks. */
export function refusalKey(code: string | null | undefined, ns?: string): string | null {
  if (!isErrorCode(code)) return null;
  const own = ns ? `${ns}:errors.${code}` : null;
  return own && i18n.exists(own) ? own : `codes:${code}`;
}

export interface RefusalOptions {
  /** The message when the refusal has no code of its own (default `<ns>:errors.save_failed`). */
  fallback?: string;
  /** Says the first broken rule of a refusal with field errors (the form is not shown). */
  rule?: (code: string) => string;
}

/** Says a refused change that is not a form's (a status, a delete) in a notification. */
export function notifyRefusal(e: unknown, t: TFunction, ns: string, opts: RefusalOptions = {}): void {
  if (globalErrorKind(e as AnyError)) return;
  const body = apiError(e);
  if (opts.rule && body?.fields?.length) {
    notifyError(opts.rule(body.fields[0].code));
    return;
  }
  notifyError(t(refusalKey(body?.code, ns) ?? opts.fallback ?? `${ns}:errors.save_failed`));
}

/** Puts a refused save on the form (`opts.ns` names the feature), or says it in a
 * notification. */
export function showSaveRefusal(e: unknown, form: FormInstance, t: TFunction, opts: ServerErrorOptions): void {
  if (showServerErrors(e, form, t, opts)) return;
  notifyRefusal(e, t, opts.ns ?? 'common', { fallback: opts.ns ? undefined : 'common:errors.tryLater' });
}
