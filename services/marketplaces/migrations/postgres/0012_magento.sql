-- Magento 2 shops: each is an open-API channel (its name, defaults, status and generated
-- key) with the shop's address, the store view its calls name, how the integration is let
-- in and its credentials (sealed like the marketplaces' tokens), the inventory source our
-- stock is written to (empty: the single stock), and where the order poll has read to
-- (the last order read, by when it changed and its id).
CREATE TABLE magento_channels (
    api_channel_id BIGINT PRIMARY KEY,
    store_id BIGINT NOT NULL,
    url TEXT NOT NULL,
    store_code TEXT NOT NULL,
    auth TEXT NOT NULL,
    credentials TEXT NOT NULL,
    source_code TEXT NOT NULL DEFAULT '',
    watermark_at BIGINT NOT NULL DEFAULT 0,
    watermark_id BIGINT NOT NULL DEFAULT 0,
    polled_at BIGINT NOT NULL DEFAULT 0,
    poll_error TEXT NOT NULL DEFAULT '',
    orders_taken BIGINT NOT NULL DEFAULT 0,
    stock_pushed_at BIGINT NOT NULL DEFAULT 0,
    stock_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX magento_channels_store ON magento_channels (store_id);
-- The Magento orders taken in: when each changed last as taken, so a poll's overlap takes
-- none twice.
CREATE TABLE magento_orders (
    api_channel_id BIGINT NOT NULL,
    entity_id BIGINT NOT NULL,
    increment_id TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    state TEXT NOT NULL,
    our_order_id BIGINT NOT NULL,
    PRIMARY KEY (api_channel_id, entity_id)
);
-- The SKUs whose stock a Magento shop is due to be told: a change counter (a push removes
-- the row only when no change came while it was sent) and when to try again.
CREATE TABLE magento_stock_due (
    api_channel_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    store_id BIGINT NOT NULL,
    changes BIGINT NOT NULL DEFAULT 1,
    attempts BIGINT NOT NULL DEFAULT 0,
    due_at BIGINT NOT NULL,
    PRIMARY KEY (api_channel_id, sku_id)
);
CREATE INDEX magento_stock_due_at ON magento_stock_due (due_at);
