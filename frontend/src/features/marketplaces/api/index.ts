// Hand-written side of the generated client: cache tags, re-exports and who may connect and
// change the store's marketplace shops.
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
/** A marketplace of the connect screen. */
export type MarketplaceBody = ListMarketplaceBody['data'][number];
/** One connected shop of the list. */
export type MarketplaceShop = ListMarketplaceChannelBody['data'][number];
