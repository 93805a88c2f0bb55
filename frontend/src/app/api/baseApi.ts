// One base API for every feature: the base URL, a request timeout, the store's token as the
// auth header, and the key conversions of SPEC §7. Features inject (or generate) endpoints.
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';

import { hasDataKeyedMap, toCamelKeys, toFormBody, toKebabQuery, toSnakeKeys } from './caseConvert';
import { storeEntered, storeLeft, type SessionState } from '../session';

export const REQUEST_TIMEOUT_MS = 30_000;

/** The token a call should carry: the store token for store paths, else the user token. */
export function tokenFor(url: string, session: SessionState): string | null {
  const storeId = storeOf(url, session);
  return storeId ? session.stores[storeId].token : session.userToken;
}

// An absolute base (same origin) so the same code runs in the browser and in tests.
const API_BASE = typeof window !== 'undefined' && window.location ? `${window.location.origin}/api` : '/api';
const raw = fetchBaseQuery({ baseUrl: API_BASE, timeout: REQUEST_TIMEOUT_MS });

/** The store whose token a call to `url` carries, if any. */
export function storeOf(url: string, session: SessionState): string | null {
  const m = /^\/?stores\/(\d+)(\/|$)/.exec(url);
  const storeId = m ? m[1] : session.currentStoreId !== null ? String(session.currentStoreId) : null;
  return storeId && session.stores[storeId] ? storeId : null;
}

type Api = Parameters<BaseQueryFn>[1];
type Extra = Parameters<BaseQueryFn>[2];

/** A membership changed since the store token was issued: the server said so. */
function membershipChanged(r: { error?: FetchBaseQueryError }): boolean {
  const data = r.error?.data as { error?: { code?: string } } | undefined;
  return r.error?.status === 401 && data?.error?.code === 'membership_changed';
}

// One renewal per store at a time, however many calls were refused together.
const renewing = new Map<string, Promise<'renewed' | 'ended' | 'failed'>>();

/** Exchanges the user token for a new store token (the membership's current role and rights);
 * forgets the store's login when the user no longer belongs to it. */
function renewStoreLogin(storeId: string, api: Api, extra: Extra): Promise<'renewed' | 'ended' | 'failed'> {
  const running = renewing.get(storeId);
  if (running) return running;
  const run = (async () => {
    const session = (api.getState() as { session: SessionState }).session;
    if (!session.userToken) return 'failed' as const;
    const r = await raw(
      { url: '/stores/auth/token', method: 'POST', body: { id: Number(storeId) }, headers: { authorization: `Bearer ${session.userToken}` } },
      api,
      extra,
    );
    if (r.error) {
      if (r.error.status === 403) {
        api.dispatch(storeLeft(Number(storeId)));
        return 'ended' as const;
      }
      return 'failed' as const;
    }
    const t = toCamelKeys(r.data) as { token: string; expiresAt: string; permission: string; role: { name: string; permissions: string[] } };
    api.dispatch(
      storeEntered({
        storeId: Number(storeId),
        login: { token: t.token, permission: t.permission, permissions: t.role.permissions, roleName: t.role.name, expiresAt: t.expiresAt },
      }),
    );
    return 'renewed' as const;
  })().finally(() => renewing.delete(storeId));
  renewing.set(storeId, run);
  return run;
}

/** A call; when the store token's membership has changed (another role, other rights), the
 * token is renewed and the call made once more. A refused call did nothing, so repeating it
 * is safe. When the user has left the store, the call fails with `membership_ended`. */
export const wireBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const url = typeof args === 'string' ? args : args.url;
  const storeId = storeOf(url, (api.getState() as { session: SessionState }).session);
  const first = await callOnce(args, api, extra);
  if (!storeId || !membershipChanged(first)) return first;
  const renewed = await renewStoreLogin(storeId, api, extra);
  if (renewed === 'renewed') return callOnce(args, api, extra);
  if (renewed === 'ended') {
    return { error: { status: 403, data: { error: { code: 'membership_ended', messageKey: 'error.membership_ended', message: '' } } } };
  }
  return first;
};

const callOnce: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const a: FetchArgs = typeof args === 'string' ? { url: args } : { ...args };
  const session = (api.getState() as { session: SessionState }).session;
  const headers = new Headers(a.headers as HeadersInit | undefined);
  const token = tokenFor(a.url, session);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const method = (a.method ?? 'GET').toUpperCase();
  if (a.body !== undefined && !(a.body instanceof FormData)) {
    if (method === 'POST' && !hasDataKeyedMap(a.body)) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      a.body = toFormBody(a.body);
    } else {
      headers.set('content-type', 'application/json');
      a.body = JSON.stringify(toSnakeKeys(a.body));
    }
  }
  if (a.params) {
    const q = toKebabQuery(a.params as Record<string, unknown>);
    a.url = q ? `${a.url}${a.url.includes('?') ? '&' : '?'}${q}` : a.url;
    delete a.params;
  }
  a.headers = headers;
  const result = await raw(a, api, extra);
  if (result.error) {
    const err = result.error;
    if (typeof err.status === 'number') return { error: { status: err.status, data: toCamelKeys(err.data) } };
    return result;
  }
  return { data: toCamelKeys(result.data), meta: result.meta };
};

export const TAGS = ['Customer', 'Address', 'Store', 'UserStore'] as const;

export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: wireBaseQuery,
  tagTypes: TAGS,
  endpoints: () => ({}),
});
