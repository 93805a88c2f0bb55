// A signed-in session for screen tests: the user, and their login to store 1.
import { currentStoreSet, loggedIn, storeEntered } from '@/app/session';
import { makeStore } from '@/app/store';

/** An app store signed in as user 1, in store 1 at `permission` with `permissions`. */
export function signedInStore(permission = 'owner', permissions: string[] = []): ReturnType<typeof makeStore> {
  const store = makeStore();
  store.dispatch(loggedIn({ token: 'user', user: { id: 1, email: 'a@b.co', name: 'A' } }));
  store.dispatch(storeEntered({ storeId: 1, login: { token: 'store', permission, permissions, roleName: permission, expiresAt: '' } }));
  store.dispatch(currentStoreSet(1));
  return store;
}
