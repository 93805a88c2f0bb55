// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const productsApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Product', 'Inventory'] })
  .enhanceEndpoints({
    endpoints: {
      listProducts: { providesTags: [{ type: 'Product', id: 'LIST' }] },
      countProducts: { providesTags: [{ type: 'Product', id: 'LIST' }] },
      getProduct: { providesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Inventory', id: 'LIST' }] },
      skuInventories: { providesTags: [{ type: 'Inventory', id: 'LIST' }] },
      createProduct: { invalidatesTags: [{ type: 'Product', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }] },
      updateProduct: { invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Product', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }] },
      patchProduct: { invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Product', id: 'LIST' }] },
      deleteProduct: { invalidatesTags: [{ type: 'Product', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }] },
      bulkProductStatus: { invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: 'LIST' }, ...(a.productBulkInput.ids ?? []).map((id) => ({ type: 'Product' as const, id }))] },
      bulkDeleteProducts: { invalidatesTags: [{ type: 'Product', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }] },
      reorderPhotos: { invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Product', id: 'LIST' }] },
      deletePhoto: { invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Product', id: 'LIST' }] },
      updateAllSafetyStock: { invalidatesTags: [{ type: 'Product', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }] },
    },
  });

/** The spreadsheet import, as multipart (the generated endpoint cannot carry a file). */
const importApi = productsApi.injectEndpoints({
  endpoints: (build) => ({
    importProductsFile: build.mutation<ImportBody, { file: File; categoryId?: number; dryRun: boolean }>({
      query: ({ file, categoryId, dryRun }) => {
        const form = new FormData();
        form.append('file', file);
        form.append('dry_run', String(dryRun));
        if (categoryId) form.append('category_id', String(categoryId));
        return { url: '/products/excel/import', method: 'POST', body: form };
      },
      invalidatesTags: (_r, _e, a) => (a.dryRun ? [] : [{ type: 'Product', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }]),
    }),
  }),
});

export const { useImportProductsFileMutation } = importApi;

/** Photo uploads, as multipart. */
const photosApi = productsApi.injectEndpoints({
  endpoints: (build) => ({
    addPhotoFiles: build.mutation<PhotosBody, { id: number; files: File[]; kind: 'photo' | 'size_chart' }>({
      query: ({ id, files, kind }) => {
        const form = new FormData();
        form.append('kind', kind);
        for (const f of files) form.append('files', f);
        return { url: `/products/${id}/photos`, method: 'POST', body: form };
      },
      invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Product', id: 'LIST' }],
    }),
  }),
});

export const { useAddPhotoFilesMutation } = photosApi;

export const {
  useListProductsQuery,
  useLazyListProductsQuery,
  useCountProductsQuery,
  useListCategoriesQuery,
  useSkuInventoriesQuery,
  useGetProductQuery,
  useLazyGetProductQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  usePatchProductMutation,
  useDeleteProductMutation,
  useBulkProductStatusMutation,
  useBulkDeleteProductsMutation,
  useUpdateAllSafetyStockMutation,
  useReorderPhotosMutation,
  useDeletePhotoMutation,
  usePhotoRulesQuery,
  useSummariesQuery,
} = productsApi;
export type { ProductBody, ProductInput, SkuBody, ImportBody, PhotoBody, PhotosBody } from './endpoints.gen';
import type { ImportBody, PhotosBody } from './endpoints.gen';
import type { ListCategoryBody, ListSkuInventoryBody } from './endpoints.gen';
export type SkuInventoryBody = ListSkuInventoryBody['data'][number];
export type CategoryBody = ListCategoryBody['data'][number];
