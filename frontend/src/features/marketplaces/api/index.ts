// Hand-written side of the generated client: cache tags, re-exports and who may connect and
// change the store's marketplace shops.
import { apiError } from '@/app/api/errors';
import { isLive } from '@/app/realtime';
import type { Access } from '@/shared/perms';
import { enhancedApi, type ListMarketplaceBody, type ListMarketplaceChannelBody } from './endpoints.gen';

/** Connecting shops and changing them is the owner's (SPEC §2 Sale channels, §6), as the
 * gateway decides it. Any member may read the shops (staff see a lost connection). */
export const SALE_CHANNELS: Access = { roles: ['owner'] };

const CHANGED = [{ type: 'MarketplaceChannel' as const, id: 'LIST' }];

export const marketplacesApi = enhancedApi.enhanceEndpoints({ addTagTypes: ['MarketplaceChannel'] }).enhanceEndpoints({
  endpoints: {
    listMarketplaceChannels: { providesTags: [{ type: 'MarketplaceChannel', id: 'LIST' }] },
    getMarketplaceChannel: { providesTags: (_r, _e, a) => [{ type: 'MarketplaceChannel', id: a.id }] },
    updateMarketplaceChannel: { invalidatesTags: (_r, _e, a) => [...CHANGED, { type: 'MarketplaceChannel', id: a.id }] },
    unlinkMarketplaceChannel: { invalidatesTags: (_r, _e, a) => [...CHANGED, { type: 'MarketplaceChannel', id: a.id }] },
    connect: { invalidatesTags: [{ type: 'MarketplaceChannel' }] },
    reconnect: { invalidatesTags: [{ type: 'MarketplaceChannel' }] },
    // A link is good for one try: never served from the cache.
    authUrl: { keepUnusedDataFor: 0 },
  },
});

/** The token-expiry notice's own reading of the shops: never cached, and a failure says
 * nothing (the app's global error dialogs leave it alone). */
const withNotice = marketplacesApi.injectEndpoints({
  endpoints: (build) => ({
    marketplaceConnections: build.query<ListMarketplaceChannelBody, { status: 'active' }>({
      query: (arg) => ({ url: '/marketplaces/store-channels', params: arg }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyMarketplaceConnectionsQuery } = withNotice;

export const {
  useMarketplacesQuery,
  useListMarketplaceChannelsQuery,
  useGetMarketplaceChannelQuery,
  useUpdateMarketplaceChannelMutation,
  useUnlinkMarketplaceChannelMutation,
  useLazyAuthUrlQuery,
  useConnectMutation,
} = marketplacesApi;
export type { MarketplaceChannelBody } from './endpoints.gen';

// ---- Open-API channels: an integrator's app's connection, its keys and webhook.
const API_CHANNELS = { type: 'ApiChannel' as const, id: 'LIST' };
export const apiChannelsApi = marketplacesApi.enhanceEndpoints({ addTagTypes: ['ApiChannel', 'WebhookDelivery'] }).enhanceEndpoints({
  endpoints: {
    listApiChannels: { providesTags: [API_CHANNELS] },
    getApiChannel: { providesTags: (_r, _e, a) => [{ type: 'ApiChannel', id: a.id }] },
    createApiChannel: { invalidatesTags: [API_CHANNELS] },
    updateApiChannel: { invalidatesTags: (_r, _e, a) => [API_CHANNELS, { type: 'ApiChannel', id: a.id }] },
    rollApiKey: { invalidatesTags: (_r, e, a) => (e ? [] : [API_CHANNELS, { type: 'ApiChannel', id: a.id }]) },
    revokeApiKeys: { invalidatesTags: (_r, e, a) => (e ? [] : [API_CHANNELS, { type: 'ApiChannel', id: a.id }]) },
    resumeWebhook: { invalidatesTags: (_r, e, a) => (e ? [] : [API_CHANNELS, { type: 'ApiChannel', id: a.id }, { type: 'WebhookDelivery', id: a.id }]) },
    // The log is read often while something is on its way: a send or replay refreshes it.
    webhookDeliveries: { providesTags: (_r, _e, a) => [{ type: 'WebhookDelivery', id: a.id }] },
    webhookDelivery: { providesTags: (_r, _e, a) => [{ type: 'WebhookDelivery', id: a.id }] },
    sendTestWebhook: { invalidatesTags: (_r, e, a) => (e ? [] : [{ type: 'WebhookDelivery', id: a.id }]) },
    replayWebhookDelivery: { invalidatesTags: (_r, e, a) => (e ? [] : [{ type: 'WebhookDelivery', id: a.id }]) },
    replayWebhookDeliveries: { invalidatesTags: (_r, e, a) => (e ? [] : [{ type: 'WebhookDelivery', id: a.id }]) },
    pushApiStock: { invalidatesTags: (_r, e, a) => (e ? [] : [{ type: 'WebhookDelivery', id: a.id }]) },
  },
});
export const {
  useListApiChannelsQuery,
  useGetApiChannelQuery,
  useCreateApiChannelMutation,
  useUpdateApiChannelMutation,
  useGenerateApiKeyMutation,
  useRollApiKeyMutation,
  useRevokeApiKeysMutation,
  useOpenApiChannelsQuery,
  useWebhookEventsQuery,
  useWebhookDeliveriesQuery,
  useWebhookDeliveryQuery,
  useSendTestWebhookMutation,
  useReplayWebhookDeliveryMutation,
  useReplayWebhookDeliveriesMutation,
  useResumeWebhookMutation,
  usePushApiStockMutation,
} = apiChannelsApi;
export type { ApiChannelBody, ApiKeyBody, GeneratedKeyBody, WebhookDeliveryBody } from './endpoints.gen';
// ---- The store's own channels (social commerce and its website) and their defaults.
const OWN_CHANNELS = { type: 'OwnChannel' as const, id: 'LIST' };
export const ownChannelsApi = marketplacesApi.enhanceEndpoints({ addTagTypes: ['OwnChannel'] }).enhanceEndpoints({
  endpoints: {
    listOwnChannels: { providesTags: [OWN_CHANNELS] },
    getOwnChannel: { providesTags: (_r, _e, a) => [{ type: 'OwnChannel', id: a.id }] },
    createOwnChannel: { invalidatesTags: [OWN_CHANNELS] },
    updateOwnChannel: { invalidatesTags: (_r, _e, a) => [OWN_CHANNELS, { type: 'OwnChannel', id: a.id }] },
  },
});
export const { useListOwnChannelsQuery, useGetOwnChannelQuery, useCreateOwnChannelMutation, useUpdateOwnChannelMutation } = ownChannelsApi;
export type { OwnChannelBody } from './endpoints.gen';
// ---- Magento 2 shops: an open-API channel the back-office polls (ADR 0045). A create, an
// edit or a sync refreshes the list and the shop; a sync that took orders, the order list.
const MAGENTO_CHANNELS = { type: 'MagentoChannel' as const, id: 'LIST' };
export const magentoChannelsApi = marketplacesApi.enhanceEndpoints({ addTagTypes: ['MagentoChannel', 'Order'] }).enhanceEndpoints({
  endpoints: {
    listMagentoChannels: { providesTags: [MAGENTO_CHANNELS] },
    getMagentoChannel: { providesTags: (_r, _e, a) => [{ type: 'MagentoChannel', id: a.id }] },
    createMagentoChannel: { invalidatesTags: (_r, e) => (e ? [] : [MAGENTO_CHANNELS]) },
    // A refused edit leaves the form as typed, unless another's change was in the way.
    updateMagentoChannel: { invalidatesTags: (_r, e, a) => (e && apiError(e)?.code !== 'api_channel_changed' ? [] : [MAGENTO_CHANNELS, { type: 'MagentoChannel', id: a.id }]) },
    syncMagentoChannel: {
      invalidatesTags: (r, e, a) => (e ? [] : [MAGENTO_CHANNELS, { type: 'MagentoChannel', id: a.id }, ...(r && r.ordersTaken > 0 ? [{ type: 'Order' as const, id: 'LIST' }] : [])]),
    },
  },
});
export const {
  useListMagentoChannelsQuery,
  useGetMagentoChannelQuery,
  useCreateMagentoChannelMutation,
  useUpdateMagentoChannelMutation,
  useSyncMagentoChannelMutation,
  useGenerateStoreChannelKeyMutation,
} = magentoChannelsApi;
export type { MagentoChannelBody, MagentoChannelInput, MagentoSyncBody } from './endpoints.gen';
/** A marketplace of the connect screen. */
export type MarketplaceBody = ListMarketplaceBody['data'][number];
/** One connected shop of the list. */
export type MarketplaceShop = ListMarketplaceChannelBody['data'][number];

// ---- A shop's listings (the product list of a marketplace shop): links, imports, rules and
// pushes. Kept in one block.
import type {
  ListingListBody,
  ListingBody,
  ListingImportBody,
  StockRuleBody,
  StockSyncBody,
} from './endpoints.gen';
const LISTINGS = { type: 'Listing' as const, id: 'LIST' };
const IMPORTS = { type: 'ListingImport' as const, id: 'LIST' };

export const listingsApi = marketplacesApi
  .enhanceEndpoints({ addTagTypes: ['Listing', 'ListingImport', 'MatchRule', 'StockRule', 'StockSync'] })
  .enhanceEndpoints({
    endpoints: {
      listListings: { providesTags: [LISTINGS] },
      getListing: { providesTags: (_r, _e, a) => [{ type: 'Listing', id: a.id }] },
      linkListing: { invalidatesTags: (_r, _e, a) => [LISTINGS, { type: 'Listing', id: a.id }, { type: 'MarketplaceChannel', id: 'LINKS' }] },
      unlinkListing: { invalidatesTags: (_r, _e, a) => [LISTINGS, { type: 'Listing', id: a.ref }, { type: 'MarketplaceChannel', id: 'LINKS' }] },
      autoLinkListings: { invalidatesTags: [LISTINGS, { type: 'MarketplaceChannel', id: 'LINKS' }] },
      createProductsFromListings: { invalidatesTags: [LISTINGS, { type: 'MarketplaceChannel', id: 'LINKS' }] },
      listMatchRules: { providesTags: [{ type: 'MatchRule', id: 'LIST' }] },
      addMatchRule: { invalidatesTags: [{ type: 'MatchRule', id: 'LIST' }] },
      deleteMatchRule: { invalidatesTags: [{ type: 'MatchRule', id: 'LIST' }] },
      importListings: { invalidatesTags: [IMPORTS] },
      listListingImports: { providesTags: [IMPORTS] },
      getListingImport: { keepUnusedDataFor: 0 },
      importedListings: { keepUnusedDataFor: 0 },
      getShopStockRule: { providesTags: (_r, _e, a) => [{ type: 'StockRule', id: `shop-${a.id}` }] },
      setShopStockRule: { invalidatesTags: (_r, _e, a) => [{ type: 'StockRule', id: `shop-${a.id}` }, LISTINGS] },
      getListingStockRule: { providesTags: (_r, _e, a) => [{ type: 'StockRule', id: a.id }] },
      setListingStockRule: { invalidatesTags: (_r, _e, a) => [{ type: 'StockRule', id: a.id }, LISTINGS] },
      deleteListingStockRule: { invalidatesTags: (_r, _e, a) => [{ type: 'StockRule', id: a.id }, LISTINGS] },
      // The push's progress arrives over the realtime socket while it is open; without it the
      // screen reads it again (and polls while it runs).
      updateStock: {
        invalidatesTags: [LISTINGS],
        async onQueryStarted(a, { dispatch, queryFulfilled }) {
          try {
            await queryFulfilled;
          } catch {
            return;
          }
          if (!isLive()) dispatch(listingsApi.util.invalidateTags([{ type: 'StockSync', id: a.updateStockInput.storeChannelId }]));
        },
      },
      stockSync: { providesTags: (_r, _e, a) => [{ type: 'StockSync', id: a.id }] },
      skuLinks: { providesTags: [{ type: 'MarketplaceChannel', id: 'LINKS' }] },
    },
  });

export const {
  useListListingsQuery,
  useLinkListingMutation,
  useUnlinkListingMutation,
  useAutoLinkListingsMutation,
  useCreateProductsFromListingsMutation,
  useListMatchRulesQuery,
  useAddMatchRuleMutation,
  useDeleteMatchRuleMutation,
  useImportListingsMutation,
  useListListingImportsQuery,
  useGetListingImportQuery,
  useGetShopStockRuleQuery,
  useSetShopStockRuleMutation,
  useGetListingStockRuleQuery,
  useSetListingStockRuleMutation,
  useDeleteListingStockRuleMutation,
  useUpdateStockMutation,
  useStockSyncQuery,
  useSkuLinksQuery,
  useImportedListingsQuery,
} = listingsApi;
export type { ListingBody, ListingImportBody, StockRuleBody, StockSyncBody };

/** The listings and imports to read again: an import or a push finished in the background. */
export const listingsChanged = () => listingsApi.util.invalidateTags([LISTINGS, IMPORTS]);
export type ListingPage = ListingListBody;

/** The marketplaces' path words and how a shop's times read, for the product screens. */
export { ago, codeOf, pathOf, type MarketplacePath } from '../marketplaces';

// ---- A listing spreadsheet, as multipart (the generated endpoint cannot carry a file).
import type { MarketplacePath } from '../marketplaces';
import type { ListingFileBody } from './endpoints.gen';

const fileApi = listingsApi.injectEndpoints({
  endpoints: (build) => ({
    importListingSheet: build.mutation<
      ListingFileBody,
      { mp: MarketplacePath; storeChannelId: number; file: File; dryRun: boolean; createProducts?: boolean; categoryId?: number }
    >({
      query: ({ mp, storeChannelId, file, dryRun, createProducts, categoryId }) => {
        const form = new FormData();
        form.append('file', file);
        form.append('file_name', file.name);
        form.append('store_channel_id', String(storeChannelId));
        form.append('dry_run', String(dryRun));
        if (createProducts) form.append('create_products', 'true');
        if (categoryId) form.append('category_id', String(categoryId));
        return { url: `/products/marketplace/${mp}/import-file`, method: 'POST', body: form };
      },
      invalidatesTags: (_r, _e, a) => (a.dryRun ? [] : [LISTINGS, IMPORTS]),
    }),
  }),
});

export const { useImportListingSheetMutation } = fileApi;
export type { ListingFileBody };
