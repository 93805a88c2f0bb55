// What the team's screens share: the invitation link, copying it, the refusals the server
// gives with their messages, and which roles go with which level.
import type { StoreRoleBody } from './api';

/** The link a new member opens (the app's own page, no sign-in needed). */
export function invitationLink(key: string, origin: string = typeof window !== 'undefined' ? window.location.origin : ''): string {
  return `${origin}/invitations/${key}`;
}

/** Copies text; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Refusals of team and invitation changes that the team's screens explain themselves (the
 * role screens have their own, in `matrix.ts`). */
const REFUSALS = [
  'team_own_rights',
  'team_owner_only',
  'team_last_owner',
  'team_role_level',
  'team_profile_own_only',
  'role_not_found',
  'role_beyond_own_rights',
  'invitation_not_found',
  'invitation_expired',
  'invitation_used',
  'invitation_deleted',
  'invitation_limit_reached',
  'already_member',
  'user_store_not_found',
  'user_email_taken',
] as const;

/** The message key of a refusal the team's screens explain, or null (the global dialogs
 * handle 401, 403 without a reason, and server failures). */
export function refusalKey(code: string | undefined): string | null {
  return code && (REFUSALS as readonly string[]).includes(code) ? `team:errors.${code}` : null;
}

export const STATUS_COLOR: Record<string, string> = { active: 'green', inactive: 'orange', deleted: 'default' };

/** The roles a member of `level` may hold: the level's built-in role, and custom roles for
 * admins and cashiers (an owner holds everything). */
export function rolesFor(level: string, roles: StoreRoleBody[]): StoreRoleBody[] {
  return roles.filter((r) => (r.builtIn ? r.name === level : level !== 'owner'));
}

/** A role's name as shown: built-in roles by their translated level. */
export function roleLabel(r: { name: string; builtIn?: boolean }, t: (k: string) => string): string {
  return r.builtIn ? t(`common:permission.${r.name}`) : r.name;
}
