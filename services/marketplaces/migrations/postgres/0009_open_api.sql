-- Open-API channels: a store's connection for an integrator's app, selling as one of the
-- catalogue's channels, with the warehouse, shipping channel and payment account its orders
-- take, its webhook (URL, the events it is sent, its signing secret sealed like the
-- marketplaces' tokens) and whether it takes orders.
CREATE TABLE api_channels (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    channel TEXT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    logistic_channel_id BIGINT NOT NULL,
    payment_channel_id BIGINT NOT NULL,
    status TEXT NOT NULL,
    webhook_url TEXT NOT NULL DEFAULT '',
    events TEXT NOT NULL DEFAULT '[]',
    webhook_secret TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    version BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX api_channels_store ON api_channels (store_id, id);
-- Their keys: found by a prefix, proved by the SHA-256 of their secret (the key itself is
-- shown once and never kept). A generated key waits for its channel until expires_at
-- (api_channel_id 0); a rolled one works until expires_at (0: no end); a revoked one never.
CREATE TABLE api_keys (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    api_channel_id BIGINT NOT NULL DEFAULT 0,
    prefix TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    bound_at BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL DEFAULT 0,
    revoked_at BIGINT NOT NULL DEFAULT 0,
    last_used_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX api_keys_channel ON api_keys (store_id, api_channel_id, id);
-- The orders integrators made through a channel: by the integrator's reference (unique in
-- the channel) and, where it sent one, its Idempotency-Key, with a digest of the request
-- so that a repeat with another body is refused rather than answered as the first.
CREATE TABLE api_orders (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    api_channel_id BIGINT NOT NULL,
    reference TEXT NOT NULL,
    idempotency_key TEXT NOT NULL DEFAULT '',
    request_hash TEXT NOT NULL,
    our_order_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (api_channel_id, reference)
);
CREATE UNIQUE INDEX api_orders_idempotency ON api_orders (api_channel_id, idempotency_key) WHERE idempotency_key <> '';
CREATE INDEX api_orders_ours ON api_orders (our_order_id);
-- The integrator's product ids linked to our SKUs, per channel.
CREATE TABLE api_links (
    api_channel_id BIGINT NOT NULL,
    external_id TEXT NOT NULL,
    store_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_channel_id, external_id)
);
CREATE INDEX api_links_sku ON api_links (store_id, sku_id);
