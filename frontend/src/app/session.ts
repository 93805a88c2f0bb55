// Who is signed in, and the stored login (store token) of each store they entered. Kept in
// localStorage so a reload keeps the session.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface StoreLogin {
  token: string;
  permission: string;
  permissions: string[];
  roleName: string;
  expiresAt: string;
}

export interface SessionUser {
  id: number;
  email: string;
  name: string;
}

export interface SessionState {
  userToken: string | null;
  user: SessionUser | null;
  stores: Record<string, StoreLogin>;
  /** The store whose screens are open (its token is used for store-wide calls). */
  currentStoreId: number | null;
}

const KEY = 'bo.session';

export function loadSession(): SessionState {
  const empty: SessionState = { userToken: null, user: null, stores: {}, currentStoreId: null };
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
    if (!raw) return empty;
    const parsed = JSON.parse(raw) as Partial<SessionState>;
    return { ...empty, ...parsed, currentStoreId: null };
  } catch {
    return empty;
  }
}

export function saveSession(s: SessionState): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ userToken: s.userToken, user: s.user, stores: s.stores }));
  } catch {
    /* storage full or disabled: the session lives in memory only */
  }
}

const session = createSlice({
  name: 'session',
  initialState: loadSession,
  reducers: {
    loggedIn(state, action: PayloadAction<{ token: string; user: SessionUser }>) {
      state.userToken = action.payload.token;
      state.user = action.payload.user;
      state.stores = {};
    },
    storeEntered(state, action: PayloadAction<{ storeId: number; login: StoreLogin }>) {
      state.stores[String(action.payload.storeId)] = action.payload.login;
    },
    /** The user no longer belongs to the store: its login is dropped (the guard sends them
     * to the store picker). */
    storeLeft(state, action: PayloadAction<number>) {
      delete state.stores[String(action.payload)];
    },
    currentStoreSet(state, action: PayloadAction<number | null>) {
      state.currentStoreId = action.payload;
    },
    loggedOut() {
      return { userToken: null, user: null, stores: {}, currentStoreId: null };
    },
  },
});

export const { loggedIn, storeEntered, storeLeft, currentStoreSet, loggedOut } = session.actions;
export default session.reducer;
