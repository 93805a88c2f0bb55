import { configureStore } from '@reduxjs/toolkit';

import { baseApi } from './api/baseApi';
import { globalErrors } from './globalErrors';
import sessionReducer, { saveSession } from './session';
import storeReducer from './storeSlice';

export function makeStore() {
  const store = configureStore({
    reducer: { session: sessionReducer, store: storeReducer, [baseApi.reducerPath]: baseApi.reducer },
    middleware: (getDefault) => getDefault().prepend(globalErrors.middleware).concat(baseApi.middleware),
  });
  let last = store.getState().session;
  store.subscribe(() => {
    const s = store.getState().session;
    if (s !== last) {
      last = s;
      saveSession(s);
    }
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
