// What the API's errors look like to the app, and which ones a dialog handles for every
// screen (SPEC §8): 401 session expired, 403 no right, no answer or a server failure.
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import type { ErrorCode } from '@/shared/errorCodes.gen';

export interface FieldError {
  field: string;
  code: string;
}

/** A code the app gives an error itself: the member has left the store (`baseApi`). */
export type AppErrorCode = 'membership_ended';

export interface ApiErrorBody {
  error: { code: ErrorCode | AppErrorCode; messageKey: string; message: string; fields?: FieldError[] };
}

export type GlobalErrorKind = 'sessionExpired' | 'noRight' | 'membershipEnded' | 'tooLarge' | 'cannotFetch';

export function apiError(err: unknown): ApiErrorBody['error'] | null {
  const e = err as FetchBaseQueryError | undefined;
  if (e && typeof e.status === 'number' && e.data && typeof e.data === 'object' && 'error' in e.data) {
    return (e.data as ApiErrorBody).error;
  }
  return null;
}

/** Refusals for want of a right that the screen explains in its own words (the team's rules),
 * instead of the generic 'you have no right' dialog. */
const EXPLAINED_403: ReadonlySet<string> = new Set<ErrorCode>(['team_own_rights', 'team_owner_only', 'team_profile_own_only', 'role_beyond_own_rights']);

/** Failures that the screen explains in its own words (a carrier that cannot be reached,
 * too many sign-ins at once), instead of the generic 'cannot fetch data' dialog. */
const EXPLAINED_5XX: ReadonlySet<string> = new Set<ErrorCode>(['carrier_unreachable', 'sign_in_busy']);

/** Which global dialog, if any, an error calls for. */
export function globalErrorKind(err: FetchBaseQueryError | SerializedError | undefined): GlobalErrorKind | null {
  if (!err || !('status' in err)) return null;
  const status = err.status;
  if (status === 401) return 'sessionExpired';
  if (status === 403) {
    const code = ((err as FetchBaseQueryError).data as { error?: { code?: string } } | undefined)?.error?.code;
    if (code && EXPLAINED_403.has(code)) return null;
    return code === 'membership_ended' ? 'membershipEnded' : 'noRight';
  }
  if (status === 413) return 'tooLarge';
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR' || status === 'PARSING_ERROR') return 'cannotFetch';
  if (typeof status === 'number' && status >= 500) {
    const code = ((err as FetchBaseQueryError).data as { error?: { code?: string } } | undefined)?.error?.code;
    return code && EXPLAINED_5XX.has(code) ? null : 'cannotFetch';
  }
  return null;
}

/** Field errors keyed by camelCase field name, as message keys. */
export function fieldErrors(err: unknown): Record<string, string> {
  const body = apiError(err);
  const out: Record<string, string> = {};
  for (const f of body?.fields ?? []) {
    const name = f.field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    if (!out[name]) out[name] = f.code;
  }
  return out;
}
