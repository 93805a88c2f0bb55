// Who may open the dashboards, apart from the API client so the routes stay light.
import type { Access } from '@/shared/perms';

/** Dashboards are the owner's (SPEC §6), as the gateway decides it. */
export const DASHBOARDS: Access = { roles: ['owner'] };
