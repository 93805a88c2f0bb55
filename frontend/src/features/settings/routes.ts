// The settings children (SPEC §2, /setting/…) that exist today. Menu order follows the spec's
// list: store detail 10, store edit 20, payments 30, logistics 40, safety stock 50, units 60,
// bill expiry 70, users 80, additional info 90, roles 100, e-parcel 110.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { FeatureRoute } from '@/shared/routes';

/** Who may change store settings, as the gateway decides it: the owner role or store.*
 * (SPEC §2, §6). Any member of the store may read them. */
export const SETTINGS_EDIT: Access = { roles: ['owner'], permissions: [P.storeAll] };

/** The owner's identity is the owner's alone: only the owner role submits it or sees it. */
export const OWNER: Access = { roles: ['owner'], permissions: [] };

export const ROUTES: FeatureRoute[] = [
  {
    path: 'setting/safety-stock',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.safetyStock', order: 50 },
    page: () => import('./SafetyStockPage'),
  },
  {
    path: 'setting/unit-of-measurement',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.unitOfMeasurement', order: 60 },
    page: () => import('./UnitListPage'),
  },
  {
    path: 'setting/bill-expiry',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.billExpiry', order: 70 },
    page: () => import('./BillExpiryPage'),
  },
  {
    path: 'setting/receipt',
    layout: 'default',
    menu: { group: 'settings', label: 'menu.receipt', order: 75 },
    page: () => import('./ReceiptSettingsPage'),
  },
  {
    path: 'setting/additional-info-identity',
    layout: 'default',
    access: OWNER,
    menu: { group: 'settings', label: 'menu.additionalInfoIdentity', order: 90 },
    page: () => import('./IdentityPage'),
  },
  {
    path: 'setting/unit-of-measurement-create',
    layout: 'default',
    access: SETTINGS_EDIT,
    menu: { group: 'settings', label: 'menu.unitOfMeasurementCreate', order: 61 },
    page: () => import('./UnitFormPage'),
  },
];
