// Errors every screen shares (SPEC §8): 401 shows 'Your session expired, please log in
// again' and then logs out; 403 shows 'you have no right, contact the shop owner'; no answer
// or a server failure shows 'cannot fetch data' titled 'Something went wrong'. Screens show
// the rest (validation, duplicates) themselves.
import { createListenerMiddleware, isRejectedWithValue } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

import { globalErrorKind } from './api/errors';
import { loggedOut } from './session';
import { showDialogOnce } from '@/shared/dialogs/dialogs';

/** Endpoints whose errors their screen explains itself (the token-expiry notice's check
 * fails silently, SPEC §4). */
const SCREEN_HANDLED = new Set(['login', 'marketplaceConnections']);

export const globalErrors = createListenerMiddleware();

let onLoggedOut: () => void = () => {
  window.location.assign('/login');
};

/** Where to go after the session-expired dialog (the router sets it). */
export function setAfterLogout(fn: () => void): void {
  onLoggedOut = fn;
}

globalErrors.startListening({
  predicate: (action) => isRejectedWithValue(action),
  effect: async (action, api) => {
    const meta = (action as { meta?: { arg?: { endpointName?: string } } }).meta;
    if (meta?.arg?.endpointName && SCREEN_HANDLED.has(meta.arg.endpointName)) return;
    const kind = globalErrorKind((action as { payload?: FetchBaseQueryError }).payload);
    if (kind === 'sessionExpired') {
      const shown = showDialogOnce({ kind: 'error', title: 'errors.sessionExpiredTitle', message: 'errors.sessionExpired', cancel: false });
      if (shown) {
        await shown;
        api.dispatch(loggedOut());
        onLoggedOut();
      }
    } else if (kind === 'membershipEnded') {
      // The store's login is already dropped: the guard shows the store picker.
      void showDialogOnce({ kind: 'permission', title: 'errors.permissionTitle', message: 'errors.membershipEnded', cancel: false });
    } else if (kind === 'noRight') {
      void showDialogOnce({ kind: 'permission', title: 'errors.permissionTitle', message: 'errors.noRight', cancel: false });
    } else if (kind === 'tooLarge') {
      void showDialogOnce({ kind: 'error', title: 'errors.somethingWentWrong', message: 'errors.tooLarge', cancel: false });
    } else if (kind === 'cannotFetch') {
      void showDialogOnce({ kind: 'error', title: 'errors.somethingWentWrong', message: 'errors.cannotFetch', cancel: false });
    }
  },
});
