// One base API for every feature: the base URL, a request timeout, the store's token as the
// auth header, and the key conversions of SPEC §7. Features inject (or generate) endpoints.
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';

import { hasDataKeyedMap, toCamelKeys, toFormBody, toKebabQuery, toSnakeKeys } from './caseConvert';
import type { SessionState } from '../session';

export const REQUEST_TIMEOUT_MS = 30_000;

/** The token a call should carry: the store token for store paths, else the user token. */
export function tokenFor(url: string, session: SessionState): string | null {
  const m = /^\/?stores\/(\d+)(\/|$)/.exec(url);
  const storeId = m ? m[1] : session.currentStoreId !== null ? String(session.currentStoreId) : null;
  if (storeId && session.stores[storeId]) return session.stores[storeId].token;
  return session.userToken;
}

// An absolute base (same origin) so the same code runs in the browser and in tests.
const API_BASE = typeof window !== 'undefined' && window.location ? `${window.location.origin}/api` : '/api';
const raw = fetchBaseQuery({ baseUrl: API_BASE, timeout: REQUEST_TIMEOUT_MS });

export const wireBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
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
