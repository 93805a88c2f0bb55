import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';
import { composeMenu, GROUPS, hideKeyOf, visibleEntries, visibleMenu, type MenuEntry, MENU, SETTINGS } from './menu';

describe('sidebar', () => {
  const settings: MenuEntry[] = [
    { label: 'x', path: 'setting/store-edit', roles: ['owner'], permissions: [P.storeAll] },
    { label: 'x', path: 'setting/e-parcel-connecting', hideKey: 'connect_e_parcel' },
    { label: 'x', path: 'setting/user-list', roles: ['owner'], permissions: [P.userAll] },
  ];
  const paths = (entries: MenuEntry[]) => entries.map((e) => e.path);

  it('hides what the store hides and what the member may not open', () => {
    const cashier = { permission: 'cashier', permissions: [P.storeCustomerRead] };
    expect(paths(visibleEntries(settings, cashier, ['connect_e_parcel']))).toEqual([]);
    expect(paths(visibleEntries(settings, cashier, []))).toEqual(['setting/e-parcel-connecting']);
    const owner = { permission: 'owner', permissions: ['*'] };
    expect(paths(visibleEntries(settings, owner, ['connect_e_parcel']))).toEqual(['setting/store-edit', 'setting/user-list']);
  });

  it('hides any entry by its screen\'s key, as the operator names it', () => {
    expect(hideKeyOf({ path: 'setting/user-list' })).toBe('user_list');
    expect(hideKeyOf({ path: 'product-list/store' })).toBe('product_list');
    expect(hideKeyOf({ path: 'setting/e-parcel-connecting', hideKey: 'connect_e_parcel' })).toBe('connect_e_parcel');
    const owner = { permission: 'owner', permissions: ['*'] };
    expect(paths(visibleEntries(settings, owner, ['user_list']))).toEqual(['setting/store-edit', 'setting/e-parcel-connecting']);
    const keys = new Set(MENU.flatMap((g) => g.items.map(hideKeyOf)));
    expect(keys.size).toBe(MENU.flatMap((g) => g.items).length);
  });

  it('declares SPEC §2\'s groups in order, and shows none that has no screen yet', () => {
    expect(GROUPS.map((g) => g.key)).toEqual(['overviews', 'orders', 'products', 'salesChannels', 'stock', 'customers', 'settings']);
    const page = () => Promise.resolve({ default: () => null });
    const sales: FeatureRoute = { path: 'sale-channel', layout: 'default', menu: { group: 'salesChannels', label: 's', order: 10 }, page };
    expect(composeMenu([]).map((g) => g.key)).toEqual([]);
    expect(composeMenu([sales]).map((g) => g.key)).toEqual(['salesChannels']);
  });

  it('drops groups left empty', () => {
    const noCustomers = { permission: 'cashier', permissions: [P.productSkuRead] };
    expect(visibleMenu(MENU, noCustomers, []).map((g) => g.key)).toEqual(['overviews', 'products', 'stock', 'settings']);
    const reader = { permission: 'cashier', permissions: [P.storeCustomerRead] };
    expect(visibleMenu(MENU, reader, []).map((g) => g.key)).toEqual(['overviews', 'customers', 'settings']);
    const owner = { permission: 'owner', permissions: ['*'] };
    expect(visibleMenu(MENU, owner, []).map((g) => g.key)).toEqual(['overviews', 'orders', 'products', 'salesChannels', 'stock', 'customers', 'settings']);
    // Order management shows what the member may open: the list to readers, creating to makers.
    const orderReader = { permission: 'cashier', permissions: [P.orderOrderRead] };
    expect(visibleMenu(MENU, orderReader, []).find((g) => g.key === 'orders')?.items.map((e) => e.path)).toEqual(['order-list', 'order-payment-review']);
    const maker = { permission: 'admin', permissions: ['order.order.*'] };
    expect(visibleMenu(MENU, maker, []).find((g) => g.key === 'orders')?.items.map((e) => e.path)).toEqual(['order-list', 'order-create', 'order-payment-review']);
    // The payment review also opens to whoever reads payments, without orders.
    const accountant = { permission: 'cashier', permissions: [P.paymentPaymentRead] };
    expect(visibleMenu(MENU, accountant, []).find((g) => g.key === 'orders')?.items.map((e) => e.path)).toEqual(['order-payment-review']);
    // Reconciling a statement confirms payments: whoever approves them.
    const approver = { permission: 'cashier', permissions: [P.paymentPaymentRead, P.paymentPaymentApprove] };
    expect(visibleMenu(MENU, approver, []).find((g) => g.key === 'orders')?.items.map((e) => e.path)).toEqual(['order-payment-review', 'order-payment-reconcile']);
  });

  it('lists the same settings on desktop and mobile; adding a unit takes the owner or store.*', () => {
    expect(MENU[MENU.length - 1]).toEqual({ key: 'settings', label: 'menu.settings', items: SETTINGS });
    const keys = (viewer: { permission: string; permissions: string[] }) => paths(visibleEntries(SETTINGS, viewer, []));
    expect(keys({ permission: 'cashier', permissions: ['store.customer.*'] })).toEqual([
      'setting/store-detail',
      'setting/shipping-rate',
      'setting/safety-stock',
      'setting/unit-of-measurement',
      'setting/bill-expiry',
      'setting/receipt',
      'pos-setting',
    ]);
    // store.* covers every store.… key, roles included (as the gateway reads it).
    expect(keys({ permission: 'admin', permissions: [P.storeAll] })).toEqual([
      'setting/store-detail',
      'setting/shipping-rate',
      'setting/safety-stock',
      'setting/unit-of-measurement',
      'setting/unit-of-measurement-create',
      'setting/bill-expiry',
      'setting/receipt',
      'pos-setting',
      'setting/role-permission-list',
    ]);
    expect(keys({ permission: 'admin', permissions: [P.userAll] })).toEqual([
      'setting/store-detail',
      'setting/shipping-rate',
      'setting/safety-stock',
      'setting/unit-of-measurement',
      'setting/bill-expiry',
      'setting/receipt',
      'setting/user-list',
      'pos-setting',
    ]);
    expect(keys({ permission: 'owner', permissions: [] })).toContain('setting/unit-of-measurement-create');
    // Payment accounts and shipping: the owner, or their own permission (store.* is not it).
    expect(keys({ permission: 'owner', permissions: [] })).toEqual(expect.arrayContaining(['setting/payment-list', 'setting/logistic']));
    expect(keys({ permission: 'admin', permissions: [P.paymentStoreChannelAll] })).toEqual([
      'setting/store-detail',
      'setting/payment-list',
      'setting/shipping-rate',
      'setting/safety-stock',
      'setting/unit-of-measurement',
      'setting/bill-expiry',
      'setting/receipt',
      'pos-setting',
    ]);
    expect(keys({ permission: 'admin', permissions: [P.logisticStoreChannelAll] })).toContain('setting/logistic');
    expect(keys({ permission: 'admin', permissions: [P.logisticStoreChannelAll] })).not.toContain('setting/payment-list');
    // The calculator reads prices (any member); the carrier accounts are the shipping screens'.
    expect(keys({ permission: 'admin', permissions: [P.logisticStoreChannelAll] })).toEqual(expect.arrayContaining(['setting/shipping-rate', 'setting/e-parcel-connecting']));
    expect(keys({ permission: 'owner', permissions: [] })).toContain('setting/e-parcel-connecting');
    expect(paths(visibleEntries(SETTINGS, { permission: 'owner', permissions: [] }, ['connect_e_parcel']))).not.toContain('setting/e-parcel-connecting');
    // The identity is the owner's alone.
    expect(keys({ permission: 'owner', permissions: [] })).toContain('setting/additional-info-identity');
    expect(keys({ permission: 'admin', permissions: [P.storeAll, P.userAll] })).not.toContain('setting/additional-info-identity');
    // So are the warehouses' service fees: no permission opens them.
    expect(keys({ permission: 'owner', permissions: [] })).toContain('setting/warehouse-fee');
    expect(keys({ permission: 'admin', permissions: ['*'] })).not.toContain('setting/warehouse-fee');
  });

  it('is composed from the features\' routes, in SPEC order (§2)', () => {
    expect(MENU.map((g) => [g.key, g.label, g.items])).toEqual([
      [
        'overviews',
        'menu.overviews',
        [
          { label: 'menu.gettingStart', path: 'getting-start' },
          { label: 'menu.dashboard', path: 'dashboard', roles: ['owner'] },
          { label: 'menu.report', path: 'report', permissions: [P.orderOrderRead, P.productSkuRead] },
        ],
      ],
      [
        'orders',
        'menu.orders',
        [
          { label: 'menu.orderList', path: 'order-list', permissions: [P.orderOrderRead] },
          { label: 'menu.orderCreate', path: 'order-create', permissions: [P.orderOrderCreate] },
          { label: 'menu.paymentReview', path: 'order-payment-review', permissions: [P.orderOrderRead, P.paymentPaymentRead] },
          { label: 'menu.paymentReconcile', path: 'order-payment-reconcile', permissions: [P.paymentPaymentApprove] },
        ],
      ],
      ['products', 'menu.products', [{ label: 'menu.productList', path: 'product-list/store', permissions: [P.productSkuRead] }]],
      ['salesChannels', 'menu.salesChannels', [{ label: 'menu.saleChannelList', path: 'sale-channel-list', roles: ['owner'] }]],
      [
        'stock',
        'menu.stock',
        [
          { label: 'menu.stockOverview', path: 'stock-management-overview-list', permissions: [P.productSkuRead] },
          { label: 'menu.goodsReceipt', path: 'stock-management-goods-receipt/draft', permissions: [P.wmsGoodsReceiptRead] },
          { label: 'menu.transfer', path: 'stock-management-transfer', permissions: [P.wmsGoodsAdjustRead] },
          { label: 'menu.goodsAdjust', path: 'stock-management-goods-adjust', permissions: [P.wmsGoodsAdjustRead] },
          { label: 'menu.warehouses', path: 'stock-management-warehouses', permissions: [P.productSkuRead] },
        ],
      ],
      ['customers', 'menu.customers', [{ label: 'menu.customerList', path: 'customer-list', permissions: [P.storeCustomerRead] }]],
      [
        'settings',
        'menu.settings',
        [
          { label: 'menu.storeDetail', path: 'setting/store-detail' },
          { label: 'menu.paymentList', path: 'setting/payment-list', roles: ['owner'], permissions: [P.paymentStoreChannelAll] },
          { label: 'menu.logistic', path: 'setting/logistic', roles: ['owner'], permissions: [P.logisticStoreChannelAll] },
          { label: 'menu.warehouseFee', path: 'setting/warehouse-fee', roles: ['owner'], permissions: [] },
          { label: 'menu.shippingRate', path: 'setting/shipping-rate' },
          { label: 'menu.eParcelConnecting', path: 'setting/e-parcel-connecting', hideKey: 'connect_e_parcel', roles: ['owner'], permissions: [P.logisticStoreChannelAll] },
          { label: 'menu.safetyStock', path: 'setting/safety-stock' },
          { label: 'menu.unitOfMeasurement', path: 'setting/unit-of-measurement' },
          { label: 'menu.unitOfMeasurementCreate', path: 'setting/unit-of-measurement-create', roles: ['owner'], permissions: [P.storeAll] },
          { label: 'menu.billExpiry', path: 'setting/bill-expiry' },
          { label: 'menu.receipt', path: 'setting/receipt' },
          { label: 'menu.userList', path: 'setting/user-list', roles: ['owner'], permissions: [P.userAll] },
          { label: 'menu.additionalInfoIdentity', path: 'setting/additional-info-identity', roles: ['owner'], permissions: [] },
          { label: 'menu.posSetting', path: 'pos-setting' },
          { label: 'menu.rolePermissionList', path: 'setting/role-permission-list', roles: ['owner'], permissions: [P.storeRoleAll] },
        ],
      ],
    ]);
  });

  it('orders entries by their order, not by where the features list them, and keeps the hiding key', () => {
    const page = () => Promise.resolve({ default: () => null });
    const routes: FeatureRoute[] = [
      { path: 'setting/e-parcel-connecting', layout: 'default', menu: { group: 'settings', label: 'b', order: 110, hideKey: 'connect_e_parcel' }, page },
      { path: 'report/:kind?', layout: 'default', menu: { group: 'overviews', label: 'r', order: 30, to: 'report/order' }, page },
      { path: 'setting/store-edit', layout: 'default', access: { roles: ['owner'], permissions: [P.storeAll] }, menu: { group: 'settings', label: 'a', order: 20 }, page },
      { path: 'setting/hidden', layout: 'default', page },
    ];
    expect(composeMenu(routes)).toEqual([
      { key: 'overviews', label: 'menu.overviews', items: [{ label: 'r', path: 'report/order' }] },
      {
        key: 'settings',
        label: 'menu.settings',
        items: [
          { label: 'a', path: 'setting/store-edit', roles: ['owner'], permissions: [P.storeAll] },
          { label: 'b', path: 'setting/e-parcel-connecting', hideKey: 'connect_e_parcel' },
        ],
      },
    ]);
  });
});
