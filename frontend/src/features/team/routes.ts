// The team's screens (SPEC §2 Settings: user-list, user-edit/{id}, role-permission-list,
// -create, -edit/{roleId}) and the invitation link's page, which needs no sign-in.
import type { FeatureRoute } from '@/shared/routes';
import { ROLES, TEAM } from './api';

export const ROUTES: FeatureRoute[] = [
  {
    path: 'setting/user-list',
    layout: 'default',
    access: TEAM,
    menu: { group: 'settings', label: 'menu.userList', order: 80 },
    page: () => import('./TeamListPage'),
  },
  {
    path: 'setting/user-edit/:membershipId',
    layout: 'default',
    access: TEAM,
    page: () => import('./MemberEditPage'),
  },
  {
    path: 'setting/role-permission-list',
    layout: 'default',
    access: ROLES,
    menu: { group: 'settings', label: 'menu.rolePermissionList', order: 100 },
    page: () => import('./RoleListPage'),
  },
  {
    path: 'setting/role-permission-create',
    layout: 'default',
    access: ROLES,
    page: () => import('./RoleFormPage'),
  },
  {
    path: 'setting/role-permission-edit/:roleId',
    layout: 'default',
    access: ROLES,
    page: () => import('./RoleFormPage'),
  },
  {
    path: '/invitations/:key',
    layout: 'none',
    page: () => import('./JoinPage'),
  },
];
