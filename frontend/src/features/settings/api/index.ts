// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const settingsApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Unit', 'SafetyStock'] })
  .enhanceEndpoints({
    endpoints: {
      listStoreUnits: { providesTags: [{ type: 'Unit', id: 'LIST' }] },
      createStoreUnit: { invalidatesTags: [{ type: 'Unit', id: 'LIST' }] },
      updateStoreUnit: { invalidatesTags: [{ type: 'Unit', id: 'LIST' }] },
      deleteStoreUnit: { invalidatesTags: [{ type: 'Unit', id: 'LIST' }] },
      getLatestSafetyStock: { providesTags: ['SafetyStock'] },
      createSafetyStockHistory: { invalidatesTags: ['SafetyStock'] },
    },
  });

export const {
  useListStoreUnitsQuery,
  useCreateStoreUnitMutation,
  useUpdateStoreUnitMutation,
  useDeleteStoreUnitMutation,
  useGetLatestSafetyStockQuery,
  useCreateSafetyStockHistoryMutation,
} = settingsApi;
export type { SafetyStockBody, UnitBody } from './endpoints.gen';
