import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';

import { baseApi } from './api/baseApi';
import { setAfterLogout } from './globalErrors';
import { currentStoreSet, loggedIn, storeEntered } from './session';
import { makeStore } from './store';
import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { DialogHost } from '@/shared/dialogs/DialogHost';

const api = baseApi.injectEndpoints({
  endpoints: (b) => ({ probe: b.query<unknown, number>({ query: (n) => `/probe/${n}` }) }),
});

function answer(status: number, body: unknown) {
  global.fetch = jest.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

function setup() {
  const store = makeStore();
  store.dispatch(loggedIn({ token: 'tok', user: { id: 1, email: 'a@b.co', name: 'A' } }));
  render(
    <Provider store={store}>
      <DialogHost />
    </Provider>,
  );
  return store;
}

let n = 0;
const call = async (store: ReturnType<typeof makeStore>) => {
  await act(async () => {
    await store.dispatch(api.endpoints.probe.initiate(++n));
  });
};

afterEach(() => act(() => closeAllDialogs()));

describe('errors every screen shares (SPEC §8)', () => {
  it('401: session expired, then logout', async () => {
    const after = jest.fn();
    setAfterLogout(after);
    const store = setup();
    answer(401, { error: { code: 'unauthenticated', message_key: 'error.unauthenticated', message: 'x' } });
    await call(store);
    expect(await screen.findByText('Your session expired, please log in again')).toBeInTheDocument();
    expect(store.getState().session.userToken).toBe('tok');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(store.getState().session.userToken).toBeNull();
    expect(after).toHaveBeenCalled();
  });

  it('403: no right', async () => {
    const store = setup();
    answer(403, { error: { code: 'forbidden', message_key: 'error.forbidden', message: 'x' } });
    await call(store);
    expect(await screen.findByText('You have no right, contact the shop owner')).toBeInTheDocument();
    expect(screen.getByText('Access rights are insufficient')).toBeInTheDocument();
    expect(store.getState().session.userToken).toBe('tok');
  });

  it('no answer: cannot fetch data, titled something went wrong', async () => {
    const store = setup();
    global.fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await call(store);
    expect(await screen.findByText('Cannot fetch data')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
  });

  it('a server failure too', async () => {
    const store = setup();
    answer(500, { error: { code: 'internal', message_key: 'error.internal', message: 'x' } });
    await call(store);
    expect(await screen.findByText('Cannot fetch data')).toBeInTheDocument();
  });

  it('a refused form is left to its screen', async () => {
    const store = setup();
    answer(422, { error: { code: 'validation_failed', message_key: 'x', message: 'x', fields: [{ field: 'tel', code: 'validation.phone_digits' }] } });
    await call(store);
    expect(screen.queryByTestId('dialog-ok')).not.toBeInTheDocument();
  });

  it('sends the token and converts keys both ways', async () => {
    const store = setup();
    const fetchMock = jest.fn(async (_req: Request) => new Response(JSON.stringify({ menu_hiding_list: ['a'] }), { status: 200, headers: { 'content-type': 'application/json' } }));
    global.fetch = fetchMock as unknown as typeof fetch;
    let result: unknown;
    await act(async () => {
      result = (await store.dispatch(api.endpoints.probe.initiate(++n))).data;
    });
    expect(result).toEqual({ menuHidingList: ['a'] });
    const req = fetchMock.mock.calls[0][0];
    expect(req.headers.get('authorization')).toBe('Bearer tok');
  });

  describe('a membership changed since the store token was issued', () => {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const inStore = () => {
      const store = setup();
      store.dispatch(
        storeEntered({ storeId: 7, login: { token: 'old', permission: 'cashier', permissions: ['a.b.read'], roleName: 'r', expiresAt: '' } }),
      );
      store.dispatch(currentStoreSet(7));
      return store;
    };
    const changed = { error: { code: 'membership_changed', message_key: 'x', message: 'x' } };

    it('renews the store token once for calls refused together and repeats them', async () => {
      const store = inStore();
      let exchanges = 0;
      const fetchMock = jest.fn(async (req: Request) => {
        if (req.url.endsWith('/stores/auth/token')) {
          exchanges += 1;
          expect(req.headers.get('authorization')).toBe('Bearer tok');
          return json(200, { token: 'new', expires_at: 'later', store_id: 7, permission: 'cashier', role: { id: 3, name: 'r2', permissions: ['a.c.read'] } });
        }
        return req.headers.get('authorization') === 'Bearer new' ? json(200, { ok: true }) : json(401, changed);
      });
      global.fetch = fetchMock as unknown as typeof fetch;
      let results: unknown[] = [];
      await act(async () => {
        results = await Promise.all([store.dispatch(api.endpoints.probe.initiate(++n)), store.dispatch(api.endpoints.probe.initiate(++n))]);
      });
      expect(results.map((r) => (r as { data: unknown }).data)).toEqual([{ ok: true }, { ok: true }]);
      expect(exchanges).toBe(1);
      expect(store.getState().session.stores['7']).toMatchObject({ token: 'new', permissions: ['a.c.read'], roleName: 'r2' });
      expect(screen.queryByTestId('dialog-ok')).not.toBeInTheDocument();
    });

    it('forgets the store and says so when the user no longer belongs to it', async () => {
      const store = inStore();
      global.fetch = jest.fn(async (req: Request) =>
        req.url.endsWith('/stores/auth/token') ? json(403, { error: { code: 'forbidden', message_key: 'x', message: 'x' } }) : json(401, changed),
      ) as unknown as typeof fetch;
      await call(store);
      expect(await screen.findByText('Your access to this store has ended; choose another store or contact the shop owner')).toBeInTheDocument();
      expect(store.getState().session.stores['7']).toBeUndefined();
      expect(store.getState().session.userToken).toBe('tok');
    });
  });
});
