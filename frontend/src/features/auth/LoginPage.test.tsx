import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { makeStore } from '@/app/store';
import { refusal, serveBy as serve } from '@/shared/testing/fakeApi';
import LoginPage from './LoginPage';

jest.setTimeout(30_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

async function signIn() {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/choose-store" element={<p>stores</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  fireEvent.change(screen.getByTestId('login-email'), { target: { value: 'owner@example.com' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'wrong-password' } });
  await userEvent.click(screen.getByTestId('login-submit'));
}

describe('signing in', () => {
  it('says a wrong password, too many tries, and too many people signing in at once apart', async () => {
    for (const [reply, message] of [
      [refusal(401, 'invalid_credentials'), 'The email or password is incorrect'],
      [refusal(429, 'too_many_attempts'), 'Too many sign-in attempts, please wait a minute'],
      [refusal(503, 'sign_in_busy'), 'Too many people are signing in right now, please try again in a moment'],
    ] as const) {
      serve(() => reply);
      await signIn();
      expect(await screen.findByTestId('login-error')).toHaveTextContent(message);
      cleanup();
    }
  });

  it('shows the device token it was given at the next sign-in of that account', async () => {
    const user = { id: 1, email: 'owner@example.com', name: 'เจ้าของ', phone: '', created_at: '2026-11-01T00:00:00Z' };
    const sent = serve(() => ({ status: 200, body: { token: 't', expires_at: '2026-11-28T00:00:00Z', user, device: 'device-1' } }));
    await signIn();
    expect(await screen.findByText('stores')).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(sent[0].body))).not.toHaveProperty('device');
    cleanup();
    await signIn();
    expect(await screen.findByText('stores')).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(sent[1].body))).toMatchObject({ email: 'owner@example.com', device: 'device-1' });
  });
});
