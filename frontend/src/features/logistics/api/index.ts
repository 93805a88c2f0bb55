// Hand-written side of the generated client: cache tags, re-exports, the two calls the
// generated endpoints cannot make (a file upload and a file download), and who may change the
// store's shipping.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import { saveDownload } from './download';
import {
  enhancedApi,
  type CarrierBody,
  type ListLogisticChannelBody,
  type ListQuoteBody,
  type ListTrackingRangeBody,
  type RateTableBody,
  type StoreProviderBody,
} from './endpoints.gen';

/** The shipping screens and their changes: the owner role or logistic.storeChannel.* (SPEC
 * §2, §6), as the gateway decides it. Any member may read them (an order needs a carrier). */
export const LOGISTIC_EDIT: Access = { roles: ['owner'], permissions: [P.logisticStoreChannelAll] };

const CHANNELS = { type: 'LogisticChannel' as const, id: 'LIST' };
// The store's first shipping channel ticks a getting-started step ('Store').
const CHANGED = [CHANNELS, 'Store' as const];
const RATE_TABLE = { type: 'RateTable' as const, id: 'STORE' };
const RANGES = { type: 'TrackingRange' as const, id: 'LIST' };

export const logisticsApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['LogisticChannel', 'CodProvider', 'RateTable', 'TrackingRange', 'CarrierAccount'] })
  .enhanceEndpoints({
    endpoints: {
      listLogisticChannels: { providesTags: [CHANNELS] },
      warehouseChannels: { providesTags: [CHANNELS] },
      getLogisticChannel: { providesTags: (_r, _e, a) => [{ type: 'LogisticChannel', id: a.id }] },
      createLogisticChannel: { invalidatesTags: CHANGED },
      createInterChannel: { invalidatesTags: CHANGED },
      replaceLogisticChannel: { invalidatesTags: (_r, _e, a) => [CHANNELS, { type: 'LogisticChannel', id: a.id }] },
      updateLogisticChannel: { invalidatesTags: (_r, _e, a) => [CHANNELS, { type: 'LogisticChannel', id: a.id }] },
      deleteLogisticChannel: { invalidatesTags: CHANGED },
      // An international channel by its provider and warehouse: its id is not in the call.
      updateInterChannel: { invalidatesTags: [{ type: 'LogisticChannel' }] },
      deleteInterChannel: { invalidatesTags: [{ type: 'LogisticChannel' }, 'Store'] },
      setStatusByProvider: { invalidatesTags: [{ type: 'LogisticChannel' }] },
      listStoreProviders: { providesTags: ['CodProvider'] },
      createStoreProvider: { invalidatesTags: ['CodProvider'] },
      saveStoreProvider: { invalidatesTags: ['CodProvider'] },
      updateStoreProvider: { invalidatesTags: ['CodProvider'] },
      getRateTable: { providesTags: [RATE_TABLE] },
      loadSampleRateTable: { invalidatesTags: [RATE_TABLE] },
      listTrackingRanges: { providesTags: [RANGES] },
      addTrackingRange: { invalidatesTags: [RANGES] },
      reserveTrackingNumbers: { invalidatesTags: [RANGES] },
      getCarrierAccount: { providesTags: (_r, _e, a) => [{ type: 'CarrierAccount', id: a.carrier }] },
      connectCarrierAccount: { invalidatesTags: (_r, _e, a) => [{ type: 'CarrierAccount', id: a.carrier }] },
    },
  });

/** The rate table's file and its template: a multipart upload and a file download, which the
 * generated endpoints cannot carry (the template is saved where the browser saves files). */
const filesApi = logisticsApi.injectEndpoints({
  endpoints: (build) => ({
    uploadRateTableFile: build.mutation<RateTableBody, { file: File }>({
      query: ({ file }) => {
        const form = new FormData();
        form.append('file', file);
        return { url: '/logistics/shipping-rate/tables', method: 'POST', body: form };
      },
      invalidatesTags: [RATE_TABLE],
    }),
    downloadRateTableTemplate: build.mutation<null, void>({
      query: () => ({
        url: '/logistics/shipping-rate/template',
        responseHandler: async (res: Response) => {
          if (!res.ok) return res.json();
          saveDownload(await res.blob(), res.headers.get('content-disposition'), 'shipping-rates-template.xlsx');
          return null;
        },
      }),
    }),
  }),
});

export const { useUploadRateTableFileMutation, useDownloadRateTableTemplateMutation } = filesApi;

export const {
  useCatalogueQuery,
  useListLogisticChannelsQuery,
  useGetLogisticChannelQuery,
  useCreateLogisticChannelMutation,
  useCreateInterChannelMutation,
  useReplaceLogisticChannelMutation,
  useUpdateLogisticChannelMutation,
  useDeleteLogisticChannelMutation,
  useUpdateInterChannelMutation,
  useDeleteInterChannelMutation,
  useSetStatusByProviderMutation,
  useListStoreProvidersQuery,
  useCreateStoreProviderMutation,
  useUpdateStoreProviderMutation,
  useQuoteShippingMutation,
  useShippingRatesMutation,
  useGetRateTableQuery,
  useLoadSampleRateTableMutation,
  useListTrackingRangesQuery,
  useAddTrackingRangeMutation,
  useGetCarrierAccountQuery,
  useLazyGetCarrierAccountQuery,
  useConnectCarrierAccountMutation,
} = logisticsApi;

export type {
  CarrierAccountBody,
  CarrierBody,
  LogisticChannelBody,
  LogisticChannelInput,
  RateTableBody,
  RatesBody,
  ServiceRateBody,
  StoreProviderBody,
  StoreProviderInput,
  TrackingRangeBody,
  TrackingRangeInput,
} from './endpoints.gen';
/** A carrier of the catalogue. */
export type Carrier = CarrierBody;
/** A shipping channel of the store (SPEC §3 Logistic store channel). */
export type LogisticChannel = ListLogisticChannelBody['data'][number];
/** The store's COD account with a COD provider (SPEC §3 COD provider). */
export type CodProvider = StoreProviderBody;
/** One channel's price for a parcel. */
export type Quote = ListQuoteBody['data'][number];
/** One tracking-number range of the list. */
export type TrackingRangeRow = ListTrackingRangeBody['data'][number];
