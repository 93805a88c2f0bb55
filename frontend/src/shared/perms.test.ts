import { allows, covers, type Access } from './perms';
import { P, PERMISSION_KEYS } from './permissions.gen';

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
    const a: Access = { roles: ['admin'], permissions: [P.storeCustomerCreate] };
    expect(allows(a, 'owner', [])).toBe(true);
    expect(allows(a, 'admin', [])).toBe(true);
    expect(allows(a, 'cashier', ['store.customer.*'])).toBe(true);
    expect(allows(a, 'cashier', ['store.customer.read'])).toBe(false);
    expect(allows({}, 'cashier', [])).toBe(true);
  });

  it('uses the gateway\'s keys, each once', () => {
    expect(new Set(PERMISSION_KEYS).size).toBe(PERMISSION_KEYS.length);
    expect(PERMISSION_KEYS).toContain('store.customer.read');
    expect(Object.values(P)).toEqual([...PERMISSION_KEYS]);
    // A key the gateway does not know fails the type check.
    // @ts-expect-error 'store.customer.raed' is no permission key
    const typo: Access = { permissions: ['store.customer.raed'] };
    expect(typo.permissions).toHaveLength(1);
  });
});
