import { PERMISSION_KEYS, type PermissionKey } from '@/shared/permissions.gen';
import {
  ACTIONS,
  cellKeys,
  checkRoleName,
  fromKeys,
  grantable,
  groupState,
  impliedCells,
  MATRIX,
  RIGHTS_TOTAL,
  rightCount,
  rowById,
  ROWS,
  toggle,
  toggleGroup,
  toKeys,
  type Selection,
} from './matrix';

const tableKeys = ROWS.flatMap((r) => Object.values(r.keys));

/** Every subset of a list. */
function subsets<T>(xs: readonly T[]): T[][] {
  return xs.reduce<T[][]>((acc, x) => acc.concat(acc.map((s) => [...s, x])), [[]]);
}

/** A row's key sets as a role holds them: an `.all` key stands alone for its row. */
function canonicalSets(rowId: string): PermissionKey[][] {
  const r = rowById(rowId)!;
  const singles = r.actions.filter((a) => a !== 'all').map((a) => r.keys[a] as PermissionKey);
  return [...subsets(singles), ...(r.keys.all ? [[r.keys.all]] : [])];
}

const sorted = (keys: readonly string[]) => PERMISSION_KEYS.filter((k) => keys.includes(k));

describe('the matrix and the catalogue', () => {
  it('holds only catalogue keys, and every catalogue key once', () => {
    for (const k of tableKeys) expect(PERMISSION_KEYS).toContain(k);
    expect([...tableKeys].sort()).toEqual([...PERMISSION_KEYS].sort());
  });

  it('has the groups, rows and columns of SPEC §6', () => {
    expect(MATRIX.map((g) => [g.id, g.rows.map((r) => r.id)])).toEqual([
      ['product', ['products']],
      ['contacts', ['customers']],
      ['stock', ['goodsReceipt', 'goodsAdjust']],
      ['sales', ['orders']],
      ['accountant', ['payments']],
      ['administration', ['team', 'roles', 'storeSettings', 'paymentAccounts', 'logistics']],
    ]);
    expect(ACTIONS).toEqual(['all', 'read', 'create', 'edit', 'delete', 'cancel', 'approve', 'reject']);
    expect(rowById('products')!.actions).toEqual(['all', 'read', 'create', 'edit']);
    expect(rowById('goodsReceipt')!.actions).toEqual(['all', 'read', 'create', 'edit', 'delete', 'approve']);
    expect(rowById('goodsAdjust')!.actions).toEqual(['all', 'read', 'create']);
    expect(rowById('orders')!.actions).toEqual(['all', 'read', 'create', 'edit', 'cancel']);
    expect(rowById('payments')!.actions).toEqual(['all', 'read', 'create', 'edit', 'delete', 'approve', 'reject']);
    expect(rowById('team')!.keys).toEqual({ all: 'user.*' });
    expect(rowById('roles')!.keys).toEqual({ all: 'store.role.*' });
    expect(rowById('storeSettings')!.keys).toEqual({ all: 'store.*' });
    expect(rowById('paymentAccounts')!.keys).toEqual({ all: 'payment.storeChannel.*' });
    expect(rowById('logistics')!.keys).toEqual({ all: 'logistic.storeChannel.*' });
  });
});

describe('ticking', () => {
  it('"all" on a resource with an .all key gives that key instead of the single actions', () => {
    const sel = toggle({}, 'orders', 'all', true);
    expect(sel.orders).toEqual(['all', 'read', 'create', 'edit', 'cancel']);
    expect(toKeys(sel)).toEqual(['order.order.all']);
  });

  it('unticking one action while "all" is on turns "all" off and keeps the others', () => {
    const sel = toggle(toggle({}, 'orders', 'all', true), 'orders', 'read', false);
    expect(sel.orders).toEqual(['create', 'edit', 'cancel']);
    expect(toKeys(sel)).toEqual(['order.order.create', 'order.order.edit', 'order.order.cancel']);
    expect(toggle(sel, 'orders', 'create', false).orders).toEqual(['edit', 'cancel']);
  });

  it('ticking every single action does not make up an .all key', () => {
    let sel: Selection = {};
    for (const a of ['read', 'create', 'edit', 'cancel'] as const) sel = toggle(sel, 'orders', a, true);
    expect(sel.orders).toEqual(['read', 'create', 'edit', 'cancel']);
    expect(toKeys(sel)).toEqual(['order.order.read', 'order.order.create', 'order.order.edit', 'order.order.cancel']);
  });

  it('"all" on a resource without an .all key ticks, and gives, every action', () => {
    const sel = toggle({}, 'products', 'all', true);
    expect(sel.products).toEqual(['all', 'read', 'create', 'edit']);
    expect(toKeys(sel)).toEqual(['product.sku.read', 'product.sku.create', 'product.sku.edit']);
    expect(toggle(sel, 'products', 'edit', false).products).toEqual(['read', 'create']);
    // …and is ticked by itself once every action is.
    expect(toggle(toggle({}, 'goodsAdjust', 'read', true), 'goodsAdjust', 'create', true).goodsAdjust).toEqual(['all', 'read', 'create']);
    expect(cellKeys(rowById('goodsAdjust')!, 'all')).toEqual(['wms.goodsAdjust.read', 'wms.goodsAdjust.create']);
  });

  it('administration rows have one checkbox giving the pattern key', () => {
    const sel = toggle(toggle({}, 'roles', 'all', true), 'team', 'all', true);
    expect(toKeys(sel)).toEqual(['user.*', 'store.role.*']);
    expect(toggle(sel, 'roles', 'read', true)).toBe(sel);
    expect(toKeys(toggle(sel, 'roles', 'all', false))).toEqual(['user.*']);
  });

  it('sends keys in catalogue order, whatever the order of ticking', () => {
    let sel: Selection = {};
    for (const [r, a] of [['team', 'all'], ['payments', 'reject'], ['customers', 'read'], ['orders', 'all'], ['products', 'edit']] as const) sel = toggle(sel, r, a, true);
    expect(toKeys(sel)).toEqual(['product.sku.edit', 'order.order.all', 'store.customer.read', 'payment.payment.reject', 'user.*']);
  });

  it('ticks a whole group, and says whether a group is ticked', () => {
    const sel = toggleGroup({}, 'stock', true);
    expect(toKeys(sel)).toEqual(['wms.goodsReceipt.all', 'wms.goodsAdjust.read', 'wms.goodsAdjust.create']);
    expect(groupState(sel, 'stock')).toEqual({ all: true, some: true });
    expect(groupState(toggle(sel, 'goodsAdjust', 'read', false), 'stock')).toEqual({ all: false, some: true });
    expect(groupState(sel, 'sales')).toEqual({ all: false, some: false });
    expect(toggleGroup(sel, 'stock', false)).toEqual({});
    // Only what the member may tick.
    const mayRead = (_r: unknown, a: string) => a === 'read';
    expect(toKeys(toggleGroup({}, 'stock', true, mayRead))).toEqual(['wms.goodsReceipt.read', 'wms.goodsAdjust.read']);
  });
});

describe('keys → selection → keys', () => {
  it.each(ROWS.map((r) => r.id))('keeps every key set of row %s', (rowId) => {
    for (const keys of canonicalSets(rowId)) expect(toKeys(fromKeys(keys))).toEqual(sorted(keys));
  });

  it('keeps key sets across rows, and the whole catalogue less the .all keys', () => {
    // A seeded walk over the catalogue: one canonical set per row, combined.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 300; i++) {
      const keys = ROWS.flatMap((r) => {
        const sets = canonicalSets(r.id);
        return sets[next() % sets.length];
      });
      expect(toKeys(fromKeys(keys))).toEqual(sorted(keys));
    }
    const singles = PERMISSION_KEYS.filter((k) => !k.endsWith('.all'));
    expect(toKeys(fromKeys(singles))).toEqual(singles);
  });

  it('gives a held .all key alone even when its single actions come with it', () => {
    expect(toKeys(fromKeys(['order.order.read', 'order.order.all']))).toEqual(['order.order.all']);
  });

  it('shows the built-in roles\' wildcards as the cells they cover', () => {
    const admin = fromKeys(['product.sku.*', 'order.order.*', 'wms.*', 'store.customer.*', 'payment.payment.*', 'user.*']);
    expect(toKeys(admin)).toEqual([
      'product.sku.read',
      'product.sku.create',
      'product.sku.edit',
      'order.order.all',
      'wms.goodsReceipt.all',
      'wms.goodsAdjust.read',
      'wms.goodsAdjust.create',
      'store.customer.read',
      'store.customer.create',
      'store.customer.edit',
      'payment.payment.all',
      'user.*',
    ]);
    const owner = fromKeys(['*']);
    for (const r of ROWS) expect(owner[r.id]).toEqual(r.actions);
    expect(fromKeys(['nothing.known'])).toEqual({});
  });
});

describe('what the matrix shows besides', () => {
  it('store.* covers the customers and the roles too', () => {
    const sel = toggle({}, 'storeSettings', 'all', true);
    const implied = impliedCells(sel);
    expect([...implied].sort()).toEqual(['customers:all', 'customers:create', 'customers:edit', 'customers:read', 'roles:all']);
    expect(impliedCells(toggle({}, 'orders', 'all', true)).size).toBe(0);
  });

  it('a member may tick only what they hold; an owner anything', () => {
    const orders = rowById('orders')!;
    const products = rowById('products')!;
    expect(grantable(orders, 'all', 'owner', [])).toBe(true);
    expect(grantable(orders, 'read', 'admin', ['order.order.*'])).toBe(true);
    expect(grantable(orders, 'all', 'admin', ['order.order.all'])).toBe(true);
    expect(grantable(orders, 'all', 'admin', ['order.order.read'])).toBe(false);
    expect(grantable(products, 'all', 'admin', ['product.sku.read', 'product.sku.create'])).toBe(false);
    expect(grantable(products, 'read', 'admin', ['product.sku.read'])).toBe(true);
    expect(grantable(rowById('roles')!, 'all', 'admin', ['store.*'])).toBe(true);
  });

  it('counts rights as the matrix shows them', () => {
    expect(RIGHTS_TOTAL).toBe(28);
    expect(rightCount(['*'])).toBe(28);
    expect(rightCount(['product.sku.*', 'order.order.*', 'wms.*', 'store.customer.*', 'payment.payment.*', 'user.*'])).toBe(24);
    expect(rightCount(['order.order.all'])).toBe(4);
    expect(rightCount(['store.customer.read', 'user.*'])).toBe(2);
    expect(rightCount([])).toBe(0);
  });

  it('checks a role name as the server does', () => {
    expect(checkRoleName('')).toBe('validation.required');
    expect(checkRoleName('  ')).toBe('validation.required');
    expect(checkRoleName('ก'.repeat(50))).toBeNull();
    expect(checkRoleName('ก'.repeat(51))).toBe('validation.too_long');
    expect(checkRoleName(' Admin ')).toBe('roles:validation.role_name_reserved');
    expect(checkRoleName('พนักงานแพ็คของ')).toBeNull();
  });
});
