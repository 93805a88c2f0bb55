// The {channel} segment of product routes for the store's own catalog (see
// docs/decisions/0005-store-channel-in-product-routes.md). Marketplace channels
// (shopee, lazada, tiktok_shop) join with the sales-channel screens.
export const STORE_CHANNEL = 'store';

/** The {storeChannelId} of the store's own channel in the import wizard's routes. */
export const STORE_CHANNEL_ID = 0;
