import { visibleEntries, visibleMenu, type MenuEntry, MENU, SETTINGS } from './menu';

describe('sidebar', () => {
  const settings: MenuEntry[] = [
    { key: 'store-edit', label: 'x', path: 'setting/store-edit', roles: ['owner'], permissions: ['store.*'] },
    { key: 'e-parcel-connecting', label: 'x', path: 'setting/e-parcel-connecting', hideKey: 'connect_e_parcel' },
    { key: 'user-list', label: 'x', path: 'setting/user-list', roles: ['owner'], permissions: ['user.*'] },
  ];

  it('hides what the store hides and what the member may not open', () => {
    const cashier = { permission: 'cashier', permissions: ['store.customer.read'] };
    expect(visibleEntries(settings, cashier, ['connect_e_parcel']).map((e) => e.key)).toEqual([]);
    expect(visibleEntries(settings, cashier, []).map((e) => e.key)).toEqual(['e-parcel-connecting']);
    const owner = { permission: 'owner', permissions: ['*'] };
    expect(visibleEntries(settings, owner, ['connect_e_parcel']).map((e) => e.key)).toEqual(['store-edit', 'user-list']);
  });

  it('drops groups left empty', () => {
    const noCustomers = { permission: 'cashier', permissions: ['product.sku.read'] };
    expect(visibleMenu(MENU, noCustomers, []).map((g) => g.key)).toEqual(['overviews', 'products', 'stock', 'settings']);
    const reader = { permission: 'cashier', permissions: ['store.customer.read'] };
    expect(visibleMenu(MENU, reader, []).map((g) => g.key)).toEqual(['overviews', 'customers', 'settings']);
    const owner = { permission: 'owner', permissions: ['*'] };
    expect(visibleMenu(MENU, owner, []).map((g) => g.key)).toEqual(['overviews', 'products', 'stock', 'customers', 'settings']);
  });

  it('lists the same settings on desktop and mobile; adding a unit takes the owner or store.*', () => {
    expect(MENU[MENU.length - 1]).toEqual({ key: 'settings', label: 'menu.settings', items: SETTINGS });
    const keys = (viewer: { permission: string; permissions: string[] }) => visibleEntries(SETTINGS, viewer, []).map((e) => e.key);
    expect(keys({ permission: 'cashier', permissions: ['store.customer.*'] })).toEqual(['safety-stock', 'unit-of-measurement']);
    expect(keys({ permission: 'admin', permissions: ['store.*'] })).toEqual(['safety-stock', 'unit-of-measurement', 'unit-of-measurement-create']);
    expect(keys({ permission: 'owner', permissions: [] })).toContain('unit-of-measurement-create');
  });
});
