import { allows, covers } from './perms';

describe('permission keys (same cases as the gateway)', () => {
  it.each([
    ['*', 'store.customer.read', true],
    ['store.*', 'store.customer.read', true],
    ['store.customer.*', 'store.customer.read', true],
    ['store.customer.read', 'store.customer.read', true],
    ['order.order.all', 'order.order.cancel', true],
    ['store.customer.read', 'store.customer.create', false],
    ['store.customer', 'store.customer.read', false],
    ['product.*', 'store.customer.read', false],
    ['store.customer.read', 'store.*', false],
    ['store.*', 'store.*', true],
    ['store.customer.all', 'store.role.read', false],
  ])('%s covers %s: %s', (g, r, want) => expect(covers(g, r)).toBe(want));

  it('passes on the role or the permission', () => {
    const a = { roles: ['admin'], permissions: ['store.customer.create'] };
    expect(allows(a, 'owner', [])).toBe(true);
    expect(allows(a, 'admin', [])).toBe(true);
    expect(allows(a, 'cashier', ['store.customer.*'])).toBe(true);
    expect(allows(a, 'cashier', ['store.customer.read'])).toBe(false);
    expect(allows({}, 'cashier', [])).toBe(true);
  });
});
