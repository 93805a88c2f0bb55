// The route guard of SPEC §2 as a pure decision, so it can be tested as a table.
import { allows, type Access } from '@/shared/perms';
import type { SessionState } from './session';

export interface RouteMeta extends Access {
  /** Under /{storeId}/…: needs a stored login for the store. */
  store: boolean;
  /** Needs a signed-in user (the store picker). */
  user?: boolean;
  /** The sign-in screen: a signed-in user goes on to the store picker. */
  guestOnly?: boolean;
}

export type Decision = { kind: 'allow'; storeId?: number } | { kind: 'redirect'; to: string } | { kind: 'notFound' };

export interface GuardInput {
  pathname: string;
  storeIdParam?: string;
  route: RouteMeta;
  session: Pick<SessionState, 'userToken' | 'stores'>;
}

export function decide({ pathname, storeIdParam, route, session }: GuardInput): Decision {
  if (route.guestOnly) return session.userToken ? { kind: 'redirect', to: '/choose-store' } : { kind: 'allow' };
  if (!route.store) {
    if (route.user && !session.userToken) return { kind: 'redirect', to: '/login' };
    return { kind: 'allow' };
  }
  if (!storeIdParam || !/^\d+$/.test(storeIdParam)) return { kind: 'notFound' };
  const storeId = Number(storeIdParam);
  const login = session.stores[String(storeId)];
  const signedIn = Boolean(login || session.userToken);
  if (pathname.includes('prepare-login') && signedIn) return { kind: 'redirect', to: `/${storeId}/getting-start` };
  if (!login) {
    // No stored login for this store: pick (or re-enter) it; the picker asks for sign-in first.
    return { kind: 'redirect', to: session.userToken ? `/choose-store?next=${encodeURIComponent(pathname)}` : '/choose-store' };
  }
  if (!allows(route, login.permission, login.permissions)) {
    return { kind: 'redirect', to: `/${storeId}/access-denied?pathName=${encodeURIComponent(pathname)}` };
  }
  return { kind: 'allow', storeId };
}
