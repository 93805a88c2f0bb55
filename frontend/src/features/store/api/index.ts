// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const storeApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    getStore: { providesTags: ['Store'] },
    gettingStarted: { providesTags: ['Store'] },
    menuHiding: { providesTags: ['Store'] },
    updateStore: { invalidatesTags: ['Store'] },
  },
});

export const {
  useGetStoreQuery,
  useLazyGetStoreQuery,
  useGettingStartedQuery,
  useMenuHidingQuery: useGetMenuHidingQuery,
  useLazyMenuHidingQuery: useLazyGetMenuHidingQuery,
  useMaintainingQuery: useGetMaintainingQuery,
  useUpdateStoreMutation,
} = storeApi;
export type { StoreBody } from './endpoints.gen';
