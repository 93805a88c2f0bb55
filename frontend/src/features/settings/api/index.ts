// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi, type IdentityBody, type ReceiptBody } from './endpoints.gen';

export const settingsApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Unit', 'SafetyStock', 'BillExpiry', 'Receipt', 'Identity'] })
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
      getReceipt: { providesTags: ['Receipt'] },
      setReceiptText: { invalidatesTags: ['Receipt'] },
      removeReceiptPicture: { invalidatesTags: ['Receipt'] },
      getIdentity: { providesTags: ['Identity'] },
    },
  });

/** The receipt's identity's pictures, as multipart (the generated endpoints cannot carry a
 * file), and an identity photo read with the owner's token into a URL the page shows. */
const filesApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    setReceiptPictureFile: build.mutation<ReceiptBody, { id: number; slot: 'header' | 'footer'; file: File }>({
      query: ({ id, slot, file }) => {
        const form = new FormData();
        form.append('file', file);
        return { url: `/stores/${id}/settings/receipt/${slot}`, method: 'POST', body: form };
      },
      invalidatesTags: ['Receipt'],
    }),
    submitIdentityForm: build.mutation<IdentityBody, { id: number; fields: Record<string, string>; idCard?: File; holding?: File }>({
      query: ({ id, fields, idCard, holding }) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        if (idCard) form.append('id_card_photo', idCard);
        if (holding) form.append('holding_photo', holding);
        return { url: `/stores/${id}/identify/submit`, method: 'POST', body: form };
      },
      invalidatesTags: ['Identity'],
    }),
    identityPhotoUrl: build.query<string, { id: number; kind: 'id_card' | 'holding'; version: string }>({
      query: ({ id, kind }) => ({
        url: `/stores/${id}/identify/photos/${kind}`,
        responseHandler: async (r: Response) => (r.ok ? URL.createObjectURL(await r.blob()) : r.json()),
      }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSetReceiptPictureFileMutation, useSubmitIdentityFormMutation, useIdentityPhotoUrlQuery } = filesApi;

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
  useGetReceiptQuery,
  useSetReceiptTextMutation,
  useRemoveReceiptPictureMutation,
  useGetIdentityQuery,
} = settingsApi;
export type { BillExpireBody, IdentityBody, ReceiptBody, SafetyStockBody, UnitBody } from './endpoints.gen';
