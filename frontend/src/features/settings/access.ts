// Who may change store settings, as the gateway decides it: the owner role or the store.*
// permission (SPEC §2, §6). Any member of the store may read them.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';

export const SETTINGS_EDIT: Access = { roles: ['owner'], permissions: [P.storeAll] };
