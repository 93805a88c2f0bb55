import { decide, type GuardInput, type RouteMeta } from './guard';
import type { StoreLogin } from './session';
import { P } from '@/shared/permissions.gen';

const cashier: StoreLogin = { token: 't', permission: 'cashier', permissions: [P.storeCustomerRead], roleName: 'cashier', expiresAt: '' };
const owner: StoreLogin = { token: 't', permission: 'owner', permissions: ['*'], roleName: 'owner', expiresAt: '' };
const customerList: RouteMeta = { store: true, permissions: [P.storeCustomerRead] };
const customerCreate: RouteMeta = { store: true, permissions: [P.storeCustomerCreate] };
const dashboard: RouteMeta = { store: true, roles: ['owner'] };
const settingsStoreEdit: RouteMeta = { store: true, roles: ['owner'], permissions: [P.storeAll] };
const gettingStart: RouteMeta = { store: true };

const none = { userToken: null, stores: {} };
const user = { userToken: 'u', stores: {} };
const withCashier = { userToken: 'u', stores: { '7': cashier } };
const withOwner = { userToken: 'u', stores: { '7': owner } };

type Case = [string, GuardInput, ReturnType<typeof decide>];

const cases: Case[] = [
  ['a store id must be numeric', { pathname: '/abc/customer-list', storeIdParam: 'abc', route: customerList, session: withOwner }, { kind: 'notFound' }],
  ['no stored login and no authentication: store picker', { pathname: '/7/customer-list', storeIdParam: '7', route: customerList, session: none }, { kind: 'redirect', to: '/choose-store' }],
  [
    'signed in but no stored login for this store: picker, then back',
    { pathname: '/7/customer-list', storeIdParam: '7', route: customerList, session: user },
    { kind: 'redirect', to: '/choose-store?next=%2F7%2Fcustomer-list' },
  ],
  ['a login for another store does not open this one', { pathname: '/8/customer-list', storeIdParam: '8', route: customerList, session: withCashier }, { kind: 'redirect', to: '/choose-store?next=%2F8%2Fcustomer-list' }],
  ['prepare-login while signed in: getting-start', { pathname: '/7/prepare-login', storeIdParam: '7', route: gettingStart, session: withCashier }, { kind: 'redirect', to: '/7/getting-start' }],
  ['prepare-login while signed in without a store login', { pathname: '/7/prepare-login', storeIdParam: '7', route: gettingStart, session: user }, { kind: 'redirect', to: '/7/getting-start' }],
  ['permission held: allowed', { pathname: '/7/customer-list', storeIdParam: '7', route: customerList, session: withCashier }, { kind: 'allow', storeId: 7 }],
  [
    'permission missing: access denied with the path',
    { pathname: '/7/customer-create', storeIdParam: '7', route: customerCreate, session: withCashier },
    { kind: 'redirect', to: '/7/access-denied?pathName=%2F7%2Fcustomer-create' },
  ],
  ['owner-only screens refuse staff', { pathname: '/7/dashboard', storeIdParam: '7', route: dashboard, session: withCashier }, { kind: 'redirect', to: '/7/access-denied?pathName=%2F7%2Fdashboard' }],
  ['the owner passes every check', { pathname: '/7/customer-create', storeIdParam: '7', route: customerCreate, session: withOwner }, { kind: 'allow', storeId: 7 }],
  [
    'role or permission: store.* passes an owner-or-store.* route',
    { pathname: '/7/setting/store-edit', storeIdParam: '7', route: settingsStoreEdit, session: { userToken: 'u', stores: { '7': { ...cashier, permissions: [P.storeAll] } } } },
    { kind: 'allow', storeId: 7 },
  ],
  ['screens without rules open for any member', { pathname: '/7/getting-start', storeIdParam: '7', route: gettingStart, session: withCashier }, { kind: 'allow', storeId: 7 }],
  ['the store picker needs a signed-in user', { pathname: '/choose-store', route: { store: false, user: true }, session: none }, { kind: 'redirect', to: '/login' }],
  ['a signed-in user skips the sign-in screen', { pathname: '/login', route: { store: false, guestOnly: true }, session: user }, { kind: 'redirect', to: '/choose-store' }],
  ['public screens always open', { pathname: '/maintain-system', route: { store: false }, session: none }, { kind: 'allow' }],
];

describe('route guard (SPEC §2)', () => {
  it.each(cases)('%s', (_name, input, want) => {
    expect(decide(input)).toEqual(want);
  });
});
