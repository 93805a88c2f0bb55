// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const authApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    listUserStores: { providesTags: ['UserStore'] },
    getUserStore: { providesTags: ['UserStore'] },
    login: { invalidatesTags: ['UserStore'] },
  },
});

export const { useLoginMutation, useLogoutMutation, useStoreTokenMutation, useListUserStoresQuery, useGetUserStoreQuery } = authApi;
export type { LoginOutput, StoreTokenOutput, UserStoreBody } from './endpoints.gen';
