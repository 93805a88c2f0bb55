import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { currentStoreSet, loggedIn, storeEntered } from '@/app/session';
import { makeStore } from '@/app/store';
import JoinPage from './JoinPage';
import { auditLine } from '@/shared/audit/AuditTimeline';
import MemberEditPage from './MemberEditPage';
import TeamListPage from './TeamListPage';
import { invitationLink, rolesFor } from './team';
import { serveBy as serve } from '@/shared/testing/fakeApi';

// antd tables, modals and selects render slowly in jsdom.
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

// The session is kept in localStorage; every test starts signed out.
beforeEach(() => localStorage.clear());



const ROLES = {
  data: {
    roles: [
      { id: 1, name: 'owner', permissions: ['*'], built_in: true, member_count: 1 },
      { id: 2, name: 'admin', permissions: ['user.*'], built_in: true, member_count: 0 },
      { id: 3, name: 'cashier', permissions: [], built_in: true, member_count: 1 },
      { id: 4, name: 'หน้าร้าน', permissions: ['store.customer.read'], built_in: false, member_count: 0 },
    ],
  },
};

const member = (id: number, userId: number, permission: string, status = 'active', role = { id: 3, name: 'cashier', permissions: [] as string[] }) => ({
  id,
  permission,
  status,
  role,
  created_at: '2026-11-01T03:00:00Z',
  store: { id: 1, name: 'ร้าน' },
  user: { id: userId, email: `u${userId}@example.com`, first_name: 'สมหญิง', last_name: 'ขายดี', name: 'สมหญิง ขายดี', tel: '0812345678' },
});

function renderAt(path: string, opts: { signedIn?: boolean; permission?: string } = {}) {
  const store = makeStore();
  if (opts.signedIn !== false) {
    store.dispatch(loggedIn({ token: 'user', user: { id: 1, email: 'owner@example.com', name: 'O' } }));
    const permission = opts.permission ?? 'owner';
    store.dispatch(storeEntered({ storeId: 1, login: { token: 'store', permission, permissions: [], roleName: permission, expiresAt: '' } }));
    store.dispatch(currentStoreSet(1));
  }
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/setting/user-list" element={<TeamListPage />} />
          <Route path="/:storeId/setting/user-edit/:membershipId" element={<MemberEditPage />} />
          <Route path="/invitations/:key" element={<JoinPage />} />
          <Route path="/choose-store" element={<p>stores</p>} />
          <Route path="/login" element={<p>login</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('team helpers', () => {
  it('offers each level its roles and builds the link on the app', () => {
    const roles = ROLES.data.roles.map((r) => ({ ...r, builtIn: r.built_in, memberCount: r.member_count }));
    expect(rolesFor('cashier', roles).map((r) => r.id)).toEqual([3, 4]);
    expect(rolesFor('owner', roles).map((r) => r.id)).toEqual([1]);
    expect(invitationLink('abc', 'https://shop.example')).toBe('https://shop.example/invitations/abc');
  });

  it('tells an audit entry as a sentence, translated', () => {
    const t = (k: string, o?: Record<string, unknown>) => (o ? `${k}:${JSON.stringify(o)}` : k);
    const line = auditLine(
      { id: 1, action: 'member.updated', actorName: 'A', createdAt: '', detail: { status: ['active', 'inactive'] } },
      t,
    );
    expect(line).toContain('common:audit.change');
    expect(line).toContain('"from":"active","to":"inactive"');
  });
});

describe('user list', () => {
  it('lists the team and pending invitations, and makes a link for a custom role', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const sent = serve((method, path) => {
      if (path === '/user') return { status: 200, body: { data: [member(10, 1, 'owner', 'active', { id: 1, name: 'owner', permissions: ['*'] }), member(11, 2, 'cashier')], total: 2, limit: 10, page: 1, pages: 1 } };
      if (path === '/stores/1/invitations') return { status: 200, body: { data: [], total: 0, limit: -1, page: 1, pages: 1 } };
      if (path === '/stores/1/roles') return { status: 200, body: ROLES };
      if (method === 'POST' && path === '/stores/invitations') {
        return { status: 201, body: { id: 5, key: 'k'.repeat(64), permission: 'cashier', role: { id: 4, name: 'หน้าร้าน', permissions: [] }, created_by: 1, created_at: '2026-11-24T00:00:00Z', expired_at: '2026-12-01T00:00:00Z' } };
      }
      return { status: 404, body: {} };
    });
    renderAt('/1/setting/user-list');
    expect(await screen.findAllByText('สมหญิง ขายดี')).toHaveLength(2);
    expect(screen.getByText('No pending invitations')).toBeInTheDocument();
    expect(screen.getByTestId('member-edit-11').getAttribute('href')).toBe('/1/setting/user-edit/11?user=2');

    await userEvent.click(screen.getByTestId('invite-open'));
    const role = (await screen.findByTestId('invite-role')).closest('.ant-select') as HTMLElement;
    await userEvent.click(role.querySelector('[role="combobox"]') as HTMLElement);
    await userEvent.click(await screen.findByText('หน้าร้าน'));
    await userEvent.click(screen.getByTestId('invite-submit'));
    const link = (await screen.findByTestId('invite-link')) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/invitations/${'k'.repeat(64)}`);
    const post = sent.find((s) => s.method === 'POST')!;
    const body = new URLSearchParams(post.body);
    expect([body.get('permission'), body.get('role_id'), body.get('store_id')]).toEqual(['cashier', '4', '1']);
    await userEvent.click(screen.getByTestId('invite-copy'));
    expect(writeText).toHaveBeenCalledWith(link.value);
  });
});

describe('member edit', () => {
  it('sends only what changed and explains a refusal', async () => {
    const sent = serve((method, path) => {
      if (path === '/users/2/user-stores/11' && method === 'GET') return { status: 200, body: member(11, 2, 'cashier') };
      if (path === '/users/2/user-stores/11') return { status: 409, body: { error: { code: 'team_last_owner', message_key: 'x', message: 'x' } } };
      if (path === '/stores/1/roles') return { status: 200, body: ROLES };
      if (path === '/stores/1/audit') return { status: 200, body: { data: [], total: 0, limit: 20, page: 1, pages: 1 } };
      return { status: 404, body: {} };
    });
    renderAt('/1/setting/user-edit/11?user=2');
    expect(await screen.findByDisplayValue('สมหญิง')).toBeDisabled();
    const status = screen.getByTestId('member-status-select').closest('.ant-select') as HTMLElement;
    await userEvent.click(status.querySelector('[role="combobox"]') as HTMLElement);
    await userEvent.click(await screen.findByText('Inactive'));
    await userEvent.click(screen.getByTestId('member-save'));
    expect(await screen.findByTestId('member-error')).toHaveTextContent('The store must keep at least one active owner');
    const patch = sent.find((s) => s.method === 'PATCH')!;
    expect(JSON.parse(patch.body)).toEqual({ status: 'inactive' });
  });

  it('lets a member change their own name and phone, not their rights', async () => {
    const sent = serve((method, path) => {
      if (path === '/users/1/user-stores/10' && method === 'GET') return { status: 200, body: member(10, 1, 'cashier') };
      if (path === '/users/1/user-stores/10') return { status: 422, body: { error: { code: 'validation_failed', message_key: 'x', message: 'x', fields: [{ field: 'tel', code: 'validation.phone_digits' }] } } };
      if (path === '/stores/1/roles') return { status: 200, body: ROLES };
      return { status: 200, body: { data: [], total: 0, limit: 20, page: 1, pages: 1 } };
    });
    renderAt('/1/setting/user-edit/10?user=1', { permission: 'cashier' });
    const tel = await screen.findByTestId('member-tel');
    expect(tel).not.toBeDisabled();
    expect(screen.getByTestId('member-permission').closest('.ant-select')).toHaveClass('ant-select-disabled');
    expect(screen.queryByTestId('member-remove')).not.toBeInTheDocument();
    fireEvent.change(tel, { target: { value: '0812' } });
    await userEvent.click(screen.getByTestId('member-save'));
    expect(await screen.findByText('A phone number has 9 or 10 digits')).toBeInTheDocument();
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')!.body)).toEqual({ tel: '0812' });
  });

  it('says so when the link lacks the member', async () => {
    serve(() => ({ status: 200, body: ROLES }));
    renderAt('/1/setting/user-edit/10');
    expect(await screen.findByText('This member was not found')).toBeInTheDocument();
  });
});

describe('the invitation link', () => {
  const preview = { state: 'valid', store_id: 1, store_name: 'ร้านดี', permission: 'cashier', role_name: 'cashier', inviter_name: 'เจ้าของ', expired_at: '2026-12-01T00:00:00Z' };

  it('lets a new person create an account and join', async () => {
    const sent = serve((method, path) => {
      if (path.startsWith('/invitations/')) return { status: 200, body: preview };
      if (path === '/auth/register') return { status: 200, body: { token: 'new', expires_at: 'x', user: { id: 9, email: 'n@example.com', name: 'น ใหม่' } } };
      return { status: 404, body: {} };
    });
    const store = renderAt(`/invitations/${'a'.repeat(64)}`, { signedIn: false });
    expect(await screen.findByTestId('join-store')).toHaveTextContent('ร้านดี');
    expect(screen.getByTestId('join-login').getAttribute('href')).toBe(`/login?next=${encodeURIComponent(`/invitations/${'a'.repeat(64)}`)}`);
    fireEvent.change(screen.getByTestId('join-first-name'), { target: { value: 'น' } });
    fireEvent.change(screen.getByTestId('join-last-name'), { target: { value: 'ใหม่' } });
    fireEvent.change(screen.getByTestId('join-email'), { target: { value: 'n@example.com' } });
    fireEvent.change(screen.getByTestId('join-password'), { target: { value: 'password-1' } });
    await userEvent.click(screen.getByTestId('join-register'));
    expect(await screen.findByText('stores')).toBeInTheDocument();
    expect(store.getState().session.userToken).toBe('new');
    const body = new URLSearchParams(sent.find((s) => s.method === 'POST')!.body);
    expect([body.get('invitation_key'), body.get('email'), body.get('first_name')]).toEqual(['a'.repeat(64), 'n@example.com', 'น']);
  });

  it('joins with one click when signed in, and explains a link already used', async () => {
    let used = false;
    serve((method) => {
      if (method === 'POST') {
        used = true;
        return { status: 409, body: { error: { code: 'invitation_used', message_key: 'x', message: 'x' } } };
      }
      return { status: 200, body: preview };
    });
    renderAt(`/invitations/${'b'.repeat(64)}`);
    await userEvent.click(await screen.findByTestId('join-accept'));
    expect(await screen.findByTestId('join-error')).toHaveTextContent('This invitation link has already been used');
    expect(used).toBe(true);
  });

  it('says when a link has expired', async () => {
    serve(() => ({ status: 200, body: { ...preview, state: 'expired' } }));
    renderAt(`/invitations/${'c'.repeat(64)}`, { signedIn: false });
    await waitFor(() => expect(screen.getByTestId('join-state')).toHaveTextContent('This invitation link has expired; ask the shop for a new one'));
  });
});
