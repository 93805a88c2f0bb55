-- A connected marketplace shop of a store (one row per shop; a shop belongs to one store).
-- Tokens are sealed (vault: AES-256-GCM, bound to the row); the app never reads them.
CREATE TABLE store_channels (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    marketplace TEXT NOT NULL,
    shop_id TEXT NOT NULL,
    shop_name TEXT NOT NULL,
    region TEXT NOT NULL,
    cipher TEXT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    logistic_channel_id BIGINT NOT NULL,
    payment_channel_id BIGINT NOT NULL,
    status TEXT NOT NULL,
    token_expired BIGINT NOT NULL,
    access_token TEXT NOT NULL,
    refresh_token TEXT NOT NULL,
    access_expires_at BIGINT NOT NULL,
    refresh_expires_at BIGINT NOT NULL,
    orders_watermark BIGINT NOT NULL,
    last_order_sync_at BIGINT NOT NULL,
    last_stock_push_at BIGINT NOT NULL,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    version BIGINT NOT NULL,
    UNIQUE (marketplace, shop_id)
);
CREATE INDEX store_channels_store ON store_channels (store_id, marketplace);

-- The state a seller's authorize link carries: single use, bound to a store and a user.
CREATE TABLE auth_states (
    state TEXT PRIMARY KEY,
    store_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    marketplace TEXT NOT NULL,
    store_channel_id BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT NOT NULL
);
