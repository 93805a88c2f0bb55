// The store whose screens are open: loaded on first entry and when the id changes; its
// hiding-menu list is loaded when empty (SPEC §2).
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface LoadedStore {
  id: number;
  name: string;
}

export interface StoreState {
  loaded: LoadedStore | null;
  menuHidingList: string[] | null;
}

const initialState: StoreState = { loaded: null, menuHidingList: null };

const slice = createSlice({
  name: 'store',
  initialState,
  reducers: {
    storeLoaded(state, action: PayloadAction<LoadedStore>) {
      if (state.loaded?.id !== action.payload.id) state.menuHidingList = null;
      state.loaded = action.payload;
    },
    menuHidingLoaded(state, action: PayloadAction<string[]>) {
      state.menuHidingList = action.payload;
    },
    storeLeft() {
      return initialState;
    },
  },
});

export const { storeLoaded, menuHidingLoaded, storeLeft } = slice.actions;
export default slice.reducer;
