// Hand-written side of the generated client: cache tags, re-exports and who may change the
// point-of-sale setup.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import { enhancedApi, type ListBranchBody, type ListPosPersonBody, type ListPosUnitBody } from './endpoints.gen';

/** Changing branches, POS units, cashiers and sellers: the owner role or store.* (SPEC §2, §6),
 * as the gateway decides it. Any member of the store may read them. */
export const POS_EDIT: Access = { roles: ['owner'], permissions: [P.storeAll] };

// A branch's number and name show on its POS units, cashiers and sellers: changing or
// deleting a branch refreshes those lists too. Every change lands in the store's audit trail.
const BRANCH_USERS = [
  { type: 'Branch' as const, id: 'LIST' },
  { type: 'PosUnit' as const, id: 'LIST' },
  { type: 'Cashier' as const, id: 'LIST' },
  { type: 'Seller' as const, id: 'LIST' },
  'Audit' as const,
];

export const posApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Branch', 'PosUnit', 'Cashier', 'Seller', 'Audit'] })
  .enhanceEndpoints({
    endpoints: {
      listBranches: { providesTags: [{ type: 'Branch', id: 'LIST' }] },
      getBranch: { providesTags: (_r, _e, a) => [{ type: 'Branch', id: a.branchId }] },
      createBranch: { invalidatesTags: [{ type: 'Branch', id: 'LIST' }, 'Audit'] },
      updateBranch: { invalidatesTags: (_r, _e, a) => [...BRANCH_USERS, { type: 'Branch', id: a.branchId }] },
      deleteBranch: { invalidatesTags: BRANCH_USERS },
      listPosUnits: { providesTags: [{ type: 'PosUnit', id: 'LIST' }] },
      getPosUnit: { providesTags: (_r, _e, a) => [{ type: 'PosUnit', id: a.posUnitId }] },
      createPosUnit: { invalidatesTags: [{ type: 'PosUnit', id: 'LIST' }, 'Audit'] },
      updatePosUnit: { invalidatesTags: (_r, _e, a) => [{ type: 'PosUnit', id: 'LIST' }, { type: 'PosUnit', id: a.posUnitId }, 'Audit'] },
      deletePosUnit: { invalidatesTags: [{ type: 'PosUnit', id: 'LIST' }, 'Audit'] },
      listCashiers: { providesTags: [{ type: 'Cashier', id: 'LIST' }] },
      cashierMembers: { providesTags: [{ type: 'Cashier', id: 'LIST' }] },
      getCashier: { providesTags: (_r, _e, a) => [{ type: 'Cashier', id: a.cashierId }] },
      createCashier: { invalidatesTags: [{ type: 'Cashier', id: 'LIST' }, 'Audit'] },
      updateCashier: { invalidatesTags: (_r, _e, a) => [{ type: 'Cashier', id: 'LIST' }, { type: 'Cashier', id: a.cashierId }, 'Audit'] },
      deleteCashier: { invalidatesTags: [{ type: 'Cashier', id: 'LIST' }, 'Audit'] },
      listSellers: { providesTags: [{ type: 'Seller', id: 'LIST' }] },
      getSeller: { providesTags: (_r, _e, a) => [{ type: 'Seller', id: a.sellerId }] },
      createSeller: { invalidatesTags: [{ type: 'Seller', id: 'LIST' }, 'Audit'] },
      updateSeller: { invalidatesTags: (_r, _e, a) => [{ type: 'Seller', id: 'LIST' }, { type: 'Seller', id: a.sellerId }, 'Audit'] },
      deleteSeller: { invalidatesTags: [{ type: 'Seller', id: 'LIST' }, 'Audit'] },
    },
  });

export const {
  useListBranchesQuery,
  useGetBranchQuery,
  useCreateBranchMutation,
  useUpdateBranchMutation,
  useDeleteBranchMutation,
  useListPosUnitsQuery,
  useGetPosUnitQuery,
  useCreatePosUnitMutation,
  useUpdatePosUnitMutation,
  useDeletePosUnitMutation,
  useListCashiersQuery,
  useCashierMembersQuery,
  useGetCashierQuery,
  useCreateCashierMutation,
  useUpdateCashierMutation,
  useDeleteCashierMutation,
  useListSellersQuery,
  useGetSellerQuery,
  useCreateSellerMutation,
  useUpdateSellerMutation,
  useDeleteSellerMutation,
} = posApi;
export type { BranchBody, BranchInput, PosPersonBody, PosPersonInput, PosUnitBody, PosUnitInput } from './endpoints.gen';
/** One row of the branch list. */
export type BranchRow = ListBranchBody['data'][number];
/** One row of the POS unit list. */
export type PosUnitRow = ListPosUnitBody['data'][number];
/** One row of the cashier or seller list. */
export type PosPersonRow = ListPosPersonBody['data'][number];
