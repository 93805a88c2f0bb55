// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi, type LogoBody } from './endpoints.gen';

export const storeApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    getStore: { providesTags: ['Store'] },
    gettingStarted: { providesTags: ['Store'] },
    menuHiding: { providesTags: ['Store'] },
    updateStore: { invalidatesTags: ['Store'] },
    removeLogo: { invalidatesTags: ['Store'] },
  },
});

/** The logo upload, as multipart (the generated endpoint cannot carry a file). */
const logoApi = storeApi.injectEndpoints({
  endpoints: (build) => ({
    setLogoFile: build.mutation<LogoBody, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('file', file);
        return { url: `/stores/${id}/logo`, method: 'POST', body: form };
      },
      invalidatesTags: ['Store'],
    }),
  }),
});

export const { useSetLogoFileMutation } = logoApi;

export const {
  useGetStoreQuery,
  useLazyGetStoreQuery,
  useGettingStartedQuery,
  useMenuHidingQuery: useGetMenuHidingQuery,
  useLazyMenuHidingQuery: useLazyGetMenuHidingQuery,
  useMaintainingQuery: useGetMaintainingQuery,
  useUpdateStoreMutation,
  useRemoveLogoMutation,
} = storeApi;
export type { StoreBody } from './endpoints.gen';
