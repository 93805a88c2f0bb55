// Permission keys `area.resource.action` with `*` wildcards (SPEC §6), matched as the
// gateway matches them: a route passes when its role check or its permission check passes;
// the owner passes everything; the action `all` grants every action of its resource.
export function covers(granted: string, required: string): boolean {
  const g = granted.split('.');
  const r = required.split('.');
  for (let i = 0; i < g.length; i++) {
    if (g[i] === '*') return true;
    if (i >= r.length || r[i] === '*') return false;
    const last = i === g.length - 1 && i === r.length - 1;
    if (g[i] !== r[i] && !(last && g[i] === 'all')) return false;
  }
  return g.length === r.length;
}

import type { PermissionKey } from './permissions.gen';

export interface Access {
  roles?: string[];
  /** Keys from the generated list, so a key the gateway does not know fails the type check. */
  permissions?: PermissionKey[];
}

export function allows(access: Access, role: string, granted: string[]): boolean {
  if (role === 'owner') return true;
  const roles = access.roles ?? [];
  const perms = access.permissions ?? [];
  if (roles.length === 0 && perms.length === 0) return true;
  return roles.includes(role) || perms.some((req) => granted.some((g) => covers(g, req)));
}
