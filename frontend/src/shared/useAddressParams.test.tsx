import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';

import { shown, useAddressParams } from './useAddressParams';

const at = (path: string) =>
  function Router({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>;
  };

describe('a screen’s filters in the address', () => {
  it('build each change on the last one asked for, even before the screen follows', () => {
    const { result } = renderHook(() => useAddressParams(), { wrapper: at('/1/report/movement?kind=adjust&page=3') });
    // A filter and a page turned by one handler, before any render between them.
    act(() => {
      result.current.set({ 'sku-code': 'MV1-R' });
      result.current.set({ page: 2 });
    });
    expect(result.current.params.toString()).toBe('kind=adjust&sku-code=MV1-R&page=2');
  });

  it('go back to the first page on a filter, and drop a filter set to nothing', () => {
    const { result } = renderHook(() => useAddressParams(), { wrapper: at('/1/report/stock?warehouse-id=2&page=4') });
    act(() => result.current.set({ 'warehouse-id': undefined, date: '2026-11-20' }));
    expect(result.current.params.toString()).toBe('date=2026-11-20');
  });

  it('keep the last change asked for while the screen shows one asked before it', () => {
    const asked = ['kind=adjust', 'kind=adjust&sku-code=MV1-R'];
    // The kind shown after the SKU code was asked for: the SKU code is still the one to build on.
    expect(shown(asked, 'kind=adjust')).toEqual({ waiting: ['kind=adjust&sku-code=MV1-R'], caughtUp: false });
    expect(shown(asked, 'kind=adjust&sku-code=MV1-R')).toEqual({ waiting: [], caughtUp: true });
    // Somewhere never asked for (back, a link): taken as it is.
    expect(shown(asked, 'page=3')).toEqual({ waiting: [], caughtUp: true });
    expect(shown([], '')).toEqual({ waiting: [], caughtUp: true });
  });
});
