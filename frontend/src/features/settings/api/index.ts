// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const settingsApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Unit', 'SafetyStock', 'BillExpiry'] })
  .enhanceEndpoints({
    endpoints: {
      listStoreUnits: { providesTags: [{ type: 'Unit', id: 'LIST' }] },
      createStoreUnit: { invalidatesTags: [{ type: 'Unit', id: 'LIST' }] },
      updateStoreUnit: { invalidatesTags: [{ type: 'Unit', id: 'LIST' }] },
      deleteStoreUnit: { invalidatesTags: [{ type: 'Unit', id: 'LIST' }] },
      getLatestSafetyStock: { providesTags: ['SafetyStock'] },
      createSafetyStockHistory: { invalidatesTags: ['SafetyStock'] },
      getBillExpire: { providesTags: ['BillExpiry'] },
      setBillExpire: { invalidatesTags: ['BillExpiry'] },
    },
  });

export const {
  useListStoreUnitsQuery,
  useCreateStoreUnitMutation,
  useUpdateStoreUnitMutation,
  useDeleteStoreUnitMutation,
  useGetLatestSafetyStockQuery,
  useCreateSafetyStockHistoryMutation,
  useBillExpireTypesQuery,
  useGetBillExpireQuery,
  useSetBillExpireMutation,
} = settingsApi;
export type { BillExpireBody, SafetyStockBody, UnitBody } from './endpoints.gen';
