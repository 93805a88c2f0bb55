import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { loggedIn, storeEntered } from './session';
import { makeStore } from './store';
import { StoreShell } from './StoreGate';
import { closeAllDialogs } from '@/shared/dialogs/dialogs';

function answers(...replies: Array<[number, unknown]>) {
  const queue = [...replies];
  global.fetch = jest.fn(async () => {
    const [status, body] = queue.length > 1 ? queue.shift()! : queue[0];
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
}

function setup() {
  const store = makeStore();
  store.dispatch(loggedIn({ token: 'tok', user: { id: 1, email: 'a@b.co', name: 'A' } }));
  store.dispatch(
    storeEntered({ storeId: 1, login: { token: 's', permission: 'owner', permissions: [], roleName: '', expiresAt: '' } }),
  );
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/1/getting-start']}>
        <Routes>
          <Route path="/:storeId" element={<StoreShell />}>
            <Route path="getting-start" element={<p>inside the store</p>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

afterEach(() => act(() => closeAllDialogs()));

describe('the store loader', () => {
  it('shows a failed load with a retry instead of spinning forever, and the retry opens the store', async () => {
    answers([503, { error: { code: 'service_unavailable', message_key: 'x', message: 'x' } }], [200, { id: 1, name: 'ร้าน' }]);
    setup();
    expect(await screen.findByTestId('store-load-failed')).toBeInTheDocument();
    expect(screen.getByText('The store could not be loaded')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('store-load-retry'));
    expect(await screen.findByText('inside the store', {}, { timeout: 3000 })).toBeInTheDocument();
  });
});
