import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { DialogHost } from '@/shared/dialogs/DialogHost';
import RoleFormPage from './RoleFormPage';
import RoleListPage from './RoleListPage';
import { serveInTurn as serve, type Reply } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';


// antd forms render slowly in jsdom; checking pointer-events through antd's styles is slower still.
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });


const ADMIN_KEYS = ['product.sku.*', 'order.order.*', 'wms.*', 'store.customer.*', 'payment.payment.*', 'user.*'];
const ROLE_LIST = {
  data: {
    roles: [
      { id: 1, name: 'owner', permissions: ['*'], built_in: true, member_count: 1 },
      { id: 2, name: 'admin', permissions: ADMIN_KEYS, built_in: true, member_count: 0 },
      { id: 3, name: 'cashier', permissions: ['product.sku.read', 'order.order.read'], built_in: true, member_count: 2 },
      { id: 4, name: 'Packer', permissions: ['product.sku.read', 'order.order.all'], built_in: false, member_count: 0 },
      { id: 5, name: 'Accounts', permissions: ['payment.payment.all'], built_in: false, member_count: 3 },
    ],
  },
};
/** Answers by method and path (refetches after a change come in no fixed order) and
 * remembers what was sent. */
function serveBy(answer: (method: string, path: string) => Reply) {
  const sent: { url: string; method: string; body: string }[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    sent.push({ url: req.url, method: req.method, body: await req.text() });
    const r = answer(req.method, new URL(req.url).pathname);
    return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
  }) as jest.Mock;
  return sent;
}

const list = (): Reply => ({ status: 200, body: ROLE_LIST });
const role = (i: number): Reply => ({ status: 200, body: ROLE_LIST.data.roles[i] });

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  const store = signedInStore(permission, permissions);
  render(
    <Provider store={store}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/setting/role-permission-list" element={<RoleListPage />} />
          <Route path="/:storeId/setting/role-permission-create" element={<RoleFormPage />} />
          <Route path="/:storeId/setting/role-permission-edit/:roleId" element={<RoleFormPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const box = (row: string, action: string) => screen.getByTestId(`perm-${row}-${action}`);

/** The permission keys of a form-encoded POST, in the order sent. */
const postedKeys = (body: string) =>
  [...new URLSearchParams(body).entries()].filter(([k]) => k.startsWith('permissions[')).map(([, v]) => v);

afterEach(() => act(() => closeAllDialogs()));

describe('role list', () => {
  it('shows each role with its members, its rights and whether it is built in; built-in roles are only viewed', async () => {
    serve(list());
    renderAt('/1/setting/role-permission-list');
    expect(await screen.findByText('Packer')).toBeInTheDocument();
    for (const name of ['Owner', 'Admin', 'Cashier', 'Accounts']) expect(screen.getByText(name)).toBeInTheDocument();
    for (const rid of [1, 2, 3]) {
      expect(screen.getByTestId(`role-built-in-${rid}`)).toHaveTextContent('Built-in');
      expect(screen.getByTestId(`role-view-${rid}`)).toBeInTheDocument();
      expect(screen.queryByTestId(`role-delete-${rid}`)).toBeNull();
    }
    expect(screen.queryByTestId('role-built-in-4')).toBeNull();
    expect(screen.getByTestId('role-rights-1')).toHaveTextContent('28 of 28');
    expect(screen.getByTestId('role-rights-2')).toHaveTextContent('24 of 28');
    // product.sku.read, and order.order.all's four actions.
    expect(screen.getByTestId('role-rights-4')).toHaveTextContent('5 of 28');
    expect(within(screen.getByTestId('role-table')).getByText('3')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('role-create'));
    expect(await screen.findByTestId('role-form')).toBeInTheDocument();
  });

  it('offers nothing to change without the right to manage roles', async () => {
    serve(list());
    renderAt('/1/setting/role-permission-list', 'admin', ['user.*']);
    expect(await screen.findByText('Packer')).toBeInTheDocument();
    expect(screen.queryByTestId('role-create')).toBeNull();
    expect(screen.queryByTestId('role-edit-4')).toBeNull();
    expect(screen.queryByTestId('role-delete-4')).toBeNull();
    expect(screen.getByTestId('role-view-4')).toBeInTheDocument();
  });

  it('deletes a role nobody holds after a confirmation', async () => {
    const sent = serve(list(), { status: 204 }, list());
    renderAt('/1/setting/role-permission-list');
    await userEvent.click(await screen.findByTestId('role-delete-4'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Delete the role "Packer"?');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    expect(await screen.findByText('Role deleted')).toBeInTheDocument();
    expect(sent[1].method).toBe('DELETE');
    expect(sent[1].url).toMatch(/\/api\/stores\/1\/roles\/4$/);
  });

  it('asks where the members of a held role go, and sends move-to', async () => {
    const sent = serve(list(), { status: 204 }, list());
    renderAt('/1/setting/role-permission-list');
    await userEvent.click(await screen.findByTestId('role-delete-5'));
    const dialog = await screen.findByTestId('role-move-dialog');
    expect(dialog).toHaveTextContent('3 members hold this role.');
    expect(screen.getByTestId('role-move-ok')).toBeDisabled();
    // (userEvent and getByRole are slow over antd's DOM in jsdom.)
    fireEvent.mouseDown(dialog.querySelector('[role="combobox"]') as HTMLElement);
    // Every other role but the owner's.
    await screen.findByText('Cashier', { selector: '.ant-select-item-option-content' });
    const options = [...document.querySelectorAll('.ant-select-item-option')];
    expect(options.map((o) => o.textContent)).toEqual(['Admin', 'Cashier', 'Packer']);
    await userEvent.click(options[2]);
    await userEvent.click(screen.getByTestId('role-move-ok'));
    expect(await screen.findByText('Role deleted')).toBeInTheDocument();
    expect(sent[1].method).toBe('DELETE');
    expect(sent[1].url).toMatch(/\/api\/stores\/1\/roles\/5\?move-to=4$/);
  });

  it('asks too when pending invitations hold the role', async () => {
    const sent = serve(list(), { status: 409, body: { error: { code: 'role_in_use', message_key: 'error.role_in_use', message: 'x' } } });
    renderAt('/1/setting/role-permission-list');
    await userEvent.click(await screen.findByTestId('role-delete-4'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    expect(await screen.findByTestId('role-move-dialog')).toHaveTextContent('Members and pending invitations holding the role "Packer"');
    expect(sent[1].url).toMatch(/\/roles\/4$/);
  });
});

describe('role form', () => {
  it('requires a name and a right, ticks "all" as the matrix says, and sends keys in catalogue order', async () => {
    const sent = serve({ status: 201, body: { id: 9, name: 'Packer', permissions: [], built_in: false, member_count: 0 } }, list());
    renderAt('/1/setting/role-permission-create');
    await userEvent.click(screen.getByTestId('role-save'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(await screen.findByText('Choose at least one right')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    fireEvent.change(screen.getByTestId('field-name'), { target: { value: ' Packer ' } });
    await userEvent.click(box('orders', 'all'));
    for (const a of ['read', 'create', 'edit', 'cancel']) expect(box('orders', a)).toBeChecked();
    await userEvent.click(box('orders', 'read'));
    expect(box('orders', 'all')).not.toBeChecked();
    expect(box('orders', 'create')).toBeChecked();
    await userEvent.click(box('products', 'all'));
    await userEvent.click(screen.getByTestId('perm-group-administration'));
    // store.* covers the customers and the roles: shown ticked, not sent.
    expect(box('customers', 'read')).toBeChecked();
    expect(box('customers', 'read')).toBeDisabled();
    await userEvent.click(screen.getByTestId('role-save'));

    expect(await screen.findByTestId('role-table')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ method: 'POST' });
    expect(sent[0].url).toMatch(/\/api\/stores\/1\/roles$/);
    expect(new URLSearchParams(sent[0].body).get('name')).toBe('Packer');
    expect(postedKeys(sent[0].body)).toEqual([
      'product.sku.read',
      'product.sku.create',
      'product.sku.edit',
      'order.order.create',
      'order.order.edit',
      'order.order.cancel',
      'store.*',
      'payment.storeChannel.*',
      'logistic.storeChannel.*',
      'user.*',
      'store.role.*',
    ]);
  });

  it('shows the server\'s refusals under the name and under the matrix', async () => {
    serve({
      status: 422,
      body: {
        error: {
          code: 'validation_failed',
          message_key: 'error.validation_failed',
          message: 'x',
          fields: [
            { field: 'name', code: 'validation.role_name_duplicate' },
            { field: 'permissions', code: 'validation.permission_unknown' },
          ],
        },
      },
    });
    renderAt('/1/setting/role-permission-create');
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'Packer' } });
    await userEvent.click(box('customers', 'read'));
    await userEvent.click(screen.getByTestId('role-save'));
    expect(await screen.findByText('A role with this name already exists in the store')).toBeInTheDocument();
    expect(await screen.findByText('A right is not known to the system')).toBeInTheDocument();
  });

  it('refuses a built-in role\'s name before asking the server', async () => {
    const sent = serve();
    renderAt('/1/setting/role-permission-create');
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'Cashier' } });
    await userEvent.click(box('customers', 'read'));
    await userEvent.click(screen.getByTestId('role-save'));
    expect(await screen.findByText('This is the name of a built-in role; choose another name')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('loads a custom role and saves its changes', async () => {
    const sent = serveBy((_m, path) => (path.endsWith('/roles') ? list() : role(3)));
    renderAt('/1/setting/role-permission-edit/4');
    expect(await screen.findByDisplayValue('Packer')).toBeInTheDocument();
    expect(screen.getByText('Edit role')).toBeInTheDocument();
    expect(box('orders', 'all')).toBeChecked();
    expect(box('orders', 'cancel')).toBeChecked();
    expect(box('products', 'read')).toBeChecked();
    expect(box('products', 'create')).not.toBeChecked();
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'Packers' } });
    await userEvent.click(box('products', 'create'));
    await userEvent.click(screen.getByTestId('role-save'));
    expect(await screen.findByTestId('role-table')).toBeInTheDocument();
    expect(sent[0].url).toMatch(/\/api\/stores\/1\/roles\/4$/);
    const patch = sent.filter((c) => c.method === 'PATCH');
    expect(patch).toHaveLength(1);
    expect(patch[0].url).toMatch(/\/api\/stores\/1\/roles\/4$/);
    expect(JSON.parse(patch[0].body)).toEqual({ name: 'Packers', permissions: ['product.sku.read', 'product.sku.create', 'order.order.all'] });
  });

  it('sends unchanged rights not at all', async () => {
    const sent = serveBy((_m, path) => (path.endsWith('/roles') ? list() : role(3)));
    renderAt('/1/setting/role-permission-edit/4');
    fireEvent.change(await screen.findByDisplayValue('Packer'), { target: { value: 'Packers' } });
    await userEvent.click(screen.getByTestId('role-save'));
    expect(await screen.findByTestId('role-table')).toBeInTheDocument();
    expect(JSON.parse(sent.find((c) => c.method === 'PATCH')!.body)).toEqual({ name: 'Packers' });
  });

  it('opens a built-in role read-only', async () => {
    const sent = serve(role(1));
    renderAt('/1/setting/role-permission-edit/2');
    expect(await screen.findByTestId('role-read-only')).toHaveTextContent('built-in role');
    expect(screen.getByDisplayValue('Admin')).toBeDisabled();
    expect(box('orders', 'all')).toBeChecked();
    expect(box('orders', 'all')).toBeDisabled();
    expect(box('goodsAdjust', 'create')).toBeChecked();
    expect(box('storeSettings', 'all')).not.toBeChecked();
    expect(screen.queryByTestId('role-save')).toBeNull();
    expect(screen.queryByTestId('perm-group-sales')).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('lets a member who is not the owner give only the rights they hold', async () => {
    serve();
    renderAt('/1/setting/role-permission-create', 'admin', ['store.role.*', 'order.order.*', 'product.sku.read']);
    expect(box('orders', 'all')).toBeEnabled();
    expect(box('products', 'read')).toBeEnabled();
    expect(box('products', 'all')).toBeDisabled();
    expect(box('payments', 'read')).toBeDisabled();
    await userEvent.click(screen.getByTestId('perm-group-product'));
    expect(box('products', 'read')).toBeChecked();
    expect(box('products', 'create')).not.toBeChecked();
  });

  it('says when the role does not exist', async () => {
    serve({ status: 404, body: { error: { code: 'role_not_found', message_key: 'error.role_not_found', message: 'x' } } });
    renderAt('/1/setting/role-permission-edit/99');
    expect(await screen.findByTestId('role-not-found')).toHaveTextContent('The role was not found');
  });
});
