// Hand-written side of the logistics client: the endpoints with their cache tags, the types
// of a shipping channel, and who may change the store's shipping.
//
// The endpoints are written here rather than taken from `endpoints.gen.ts` (whose types are
// imported, never its code): the gateway's OpenAPI document gives the logistics channel
// operations the payments ones' names (listStoreChannels, getStoreChannel, ...) and the
// payments account's schemas (StoreChannelBody, StoreChannelInput), so injecting the generated
// module would leave one feature calling the other's URLs, whichever loaded second.
import { baseApi } from '@/app/api/baseApi';
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import type { CarrierBody, ListCarrierBody, ListStoreProviderBody, StoreProviderBody, StoreProviderInput } from './endpoints.gen';

/** The shipping screens and their changes: the owner role or logistic.storeChannel.* (SPEC
 * §2, §6), as the gateway decides it. Any member may read them (an order needs a carrier). */
export const LOGISTIC_EDIT: Access = { roles: ['owner'], permissions: [P.logisticStoreChannelAll] };

export type Carrier = CarrierBody;
export type CodProvider = StoreProviderBody;
export type { StoreProviderInput };

/** A weight bracket as the API answers it. */
export interface BracketBody {
  /** Upper weight, kilograms with three decimals ("1.000"). */
  maxWeight: string;
  maxWeightG: number;
  /** Baht ("40.00"). */
  price: string;
}

/** A shipping channel of the store (SPEC §3 Logistic store channel). */
export interface LogisticChannel {
  id: number;
  warehouseId: number;
  /** domestic or international. */
  logisticType: string;
  name: string;
  providerName: string;
  provider?: Carrier | null;
  /** flat, weight or free_over. */
  pricingMethod: string;
  /** Baht: the flat price, or the price below the threshold for free_over. */
  price: string;
  brackets: BracketBody[];
  /** Baht: free from this order total up (free_over). */
  freeOver: string;
  cod: boolean;
  international: boolean;
  /** active or inactive. */
  status: string;
  createdAt: string;
  updatedAt: string;
}

/** A channel as sent: every field on create and replace; only some on a status change. */
export interface LogisticChannelInput {
  warehouseId?: number;
  logisticType?: string;
  name?: string;
  providerName?: string;
  pricingMethod?: string;
  price?: string;
  brackets?: { maxWeight: string; price: string }[];
  freeOver?: string;
  cod?: boolean;
  status?: string;
}

export interface ListOf<T> {
  data: T[];
  total: number;
  limit: number;
  page: number;
  pages: number;
}

/** One channel's price for a parcel. */
export interface Quote {
  storeChannel: LogisticChannel;
  available: boolean;
  price: string;
  /** Why not, as a message key (shipping.over_weight, ...). */
  reason: string;
  chargeableWeight: string;
}

export interface QuoteInput {
  warehouseId: number;
  weight: string;
  orderTotal?: string;
  country?: string;
  cod?: boolean;
}

export interface ChannelFilter {
  warehouseId?: number;
  providerName?: string;
  logisticType?: string;
  status?: string;
}

const CHANNELS = { type: 'LogisticChannel' as const, id: 'LIST' };
// The store's first shipping channel ticks a getting-started step ('Store').
const CHANGED = [CHANNELS, 'Store' as const];

export const logisticsApi = baseApi.enhanceEndpoints({ addTagTypes: ['LogisticChannel', 'CodProvider'] }).injectEndpoints({
  endpoints: (build) => ({
    carriers: build.query<ListCarrierBody, { shipmentType?: string }>({
      query: ({ shipmentType }) => ({ url: '/logistics/channels', params: { shipmentType } }),
    }),
    logisticChannels: build.query<ListOf<LogisticChannel>, ChannelFilter>({
      query: (filter) => ({ url: '/logistics/store-channels', params: { ...filter } }),
      providesTags: [CHANNELS],
    }),
    logisticChannel: build.query<LogisticChannel, { id: number }>({
      query: ({ id }) => ({ url: `/logistics/store-channels/${id}` }),
      providesTags: (_r, _e, a) => [{ type: 'LogisticChannel', id: a.id }],
    }),
    /** Domestic channels go to /store-channels, international ones to /store-channels/inter. */
    createLogisticChannel: build.mutation<LogisticChannel, LogisticChannelInput>({
      query: (body) => ({
        url: body.logisticType === 'international' ? '/logistics/store-channels/inter' : '/logistics/store-channels',
        method: 'POST',
        body,
      }),
      invalidatesTags: CHANGED,
    }),
    replaceLogisticChannel: build.mutation<LogisticChannel, { id: number; input: LogisticChannelInput }>({
      query: ({ id, input }) => ({ url: `/logistics/store-channels/${id}`, method: 'PUT', body: input }),
      invalidatesTags: (_r, _e, a) => [CHANNELS, { type: 'LogisticChannel', id: a.id }],
    }),
    setLogisticChannelStatus: build.mutation<LogisticChannel, { id: number; status: string }>({
      query: ({ id, status }) => ({ url: `/logistics/store-channels/${id}`, method: 'PATCH', body: { status } }),
      invalidatesTags: (_r, _e, a) => [CHANNELS, { type: 'LogisticChannel', id: a.id }],
    }),
    deleteLogisticChannel: build.mutation<unknown, { id: number }>({
      query: ({ id }) => ({ url: `/logistics/store-channels/${id}`, method: 'DELETE' }),
      invalidatesTags: CHANGED,
    }),
    /** An international channel by its provider and warehouse (one each). */
    setInterChannelStatus: build.mutation<LogisticChannel, { providerName: string; warehouseId: number; status: string }>({
      query: ({ providerName, warehouseId, status }) => ({
        url: `/logistics/store-channels/inter/${encodeURIComponent(providerName)}/${warehouseId}`,
        method: 'PATCH',
        body: { status },
      }),
      invalidatesTags: [{ type: 'LogisticChannel' }],
    }),
    deleteInterChannel: build.mutation<unknown, { providerName: string; warehouseId: number }>({
      query: ({ providerName, warehouseId }) => ({ url: `/logistics/store-channels/inter/${encodeURIComponent(providerName)}/${warehouseId}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'LogisticChannel' }, 'Store'],
    }),
    /** Every channel of a provider, in every warehouse, on or off. */
    setProviderStatus: build.mutation<{ changed: number }, { providerName: string; status: string }>({
      query: ({ providerName, status }) => ({ url: '/logistics/store-channels/', method: 'PATCH', params: { providerName }, body: { status } }),
      invalidatesTags: [{ type: 'LogisticChannel' }],
    }),
    codProviders: build.query<ListStoreProviderBody, void>({
      query: () => ({ url: '/logistics/store-providers' }),
      providesTags: ['CodProvider'],
    }),
    createCodProvider: build.mutation<StoreProviderBody, StoreProviderInput>({
      query: (body) => ({ url: '/logistics/store-providers', method: 'POST', body }),
      invalidatesTags: ['CodProvider'],
    }),
    updateCodProvider: build.mutation<StoreProviderBody, { id: number; input: StoreProviderInput }>({
      query: ({ id, input }) => ({ url: `/logistics/store-providers/${id}`, method: 'PATCH', body: input }),
      invalidatesTags: ['CodProvider'],
    }),
    /** Prices a parcel with every active channel of a warehouse. */
    quoteParcel: build.mutation<ListOf<Quote>, QuoteInput>({
      query: (body) => ({ url: '/logistics/shipping-price/quotes', method: 'POST', body }),
    }),
  }),
});

export const {
  useCarriersQuery,
  useLogisticChannelsQuery,
  useLogisticChannelQuery,
  useCreateLogisticChannelMutation,
  useReplaceLogisticChannelMutation,
  useSetLogisticChannelStatusMutation,
  useDeleteLogisticChannelMutation,
  useSetInterChannelStatusMutation,
  useDeleteInterChannelMutation,
  useSetProviderStatusMutation,
  useCodProvidersQuery,
  useCreateCodProviderMutation,
  useUpdateCodProviderMutation,
  useQuoteParcelMutation,
} = logisticsApi;
