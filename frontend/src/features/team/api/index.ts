// Hand-written side of the generated client: cache tags and re-exports.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import { enhancedApi, type ListAuditBody } from './endpoints.gen';

/** Managing the team: the owner role or user.* (SPEC §2, §6), as the gateway decides it. */
export const TEAM: Access = { roles: ['owner'], permissions: [P.userAll] };
/** Managing roles: the owner role or store.role.*. */
export const ROLES: Access = { roles: ['owner'], permissions: [P.storeRoleAll] };

export const teamApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Member', 'Role', 'Invitation', 'Audit'] })
  .enhanceEndpoints({
    endpoints: {
      listMembers: { providesTags: [{ type: 'Member', id: 'LIST' }] },
      getMember: { providesTags: (_r, _e, a) => [{ type: 'Member', id: a.id }] },
      updateMember: { invalidatesTags: (_r, _e, a) => [{ type: 'Member', id: 'LIST' }, { type: 'Member', id: a.id }, 'Audit', { type: 'Role', id: 'LIST' }] },
      removeMember: { invalidatesTags: [{ type: 'Member', id: 'LIST' }, 'Audit', { type: 'Role', id: 'LIST' }] },
      listRoles: { providesTags: [{ type: 'Role', id: 'LIST' }] },
      getRole: { providesTags: (_r, _e, a) => [{ type: 'Role', id: a.roleId }] },
      createRole: { invalidatesTags: [{ type: 'Role', id: 'LIST' }, 'Audit'] },
      updateRole: { invalidatesTags: (_r, _e, a) => [{ type: 'Role', id: 'LIST' }, { type: 'Role', id: a.roleId }, 'Audit'] },
      deleteRole: { invalidatesTags: [{ type: 'Role', id: 'LIST' }, { type: 'Member', id: 'LIST' }, 'Audit'] },
      listInvitations: { providesTags: [{ type: 'Invitation', id: 'LIST' }] },
      createInvitation: { invalidatesTags: [{ type: 'Invitation', id: 'LIST' }, 'Audit'] },
      deleteInvitation: { invalidatesTags: [{ type: 'Invitation', id: 'LIST' }, 'Audit'] },
      listAudit: { providesTags: ['Audit'] },
    },
  });

export const {
  useListMembersQuery,
  useGetMemberQuery,
  useUpdateMemberMutation,
  useRemoveMemberMutation,
  useListRolesQuery,
  useGetRoleQuery,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
  useListInvitationsQuery,
  useCreateInvitationMutation,
  useDeleteInvitationMutation,
  usePreviewInvitationQuery,
  useAcceptInvitationMutation,
  useRegisterMutation,
  useListAuditQuery,
} = teamApi;
export type { InvitationBody, InvitationPreviewBody, StoreRoleBody, UserStoreBody } from './endpoints.gen';
/** One change of the store's audit trail. */
export type AuditBody = ListAuditBody['data'][number];
