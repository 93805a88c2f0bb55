// The {channel} segment of product routes for the store's own catalog (see
// docs/decisions/0005-store-channel-in-product-routes.md). Marketplace channels
// (shopee, lazada, tiktok_shop) join with the sales-channel screens.
export const STORE_CHANNEL = 'store';
