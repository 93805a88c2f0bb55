-- Webhooks out of open-API channels (Standard Webhooks). A message is written in the
-- transaction of what caused it (an order's event, a product saved, a key about to expire,
-- the owner's test) or, for stock, made from the SKUs due when none of the channel's is on
-- its way; it is sent in order behind the messages of its ordering key (one order, one
-- product, the channel's stock), tried again with backoff, and kept with its attempts 30 days.
CREATE TABLE webhook_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    api_channel_id BIGINT NOT NULL,
    message_id TEXT NOT NULL UNIQUE,
    event_type TEXT NOT NULL,
    ordering_key TEXT NOT NULL,
    seq BIGINT NOT NULL DEFAULT 0,
    once_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    claimed_until BIGINT NOT NULL DEFAULT 0,
    last_status BIGINT NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    delivered_at BIGINT NOT NULL DEFAULT 0,
    UNIQUE (api_channel_id, once_key)
);
CREATE INDEX webhook_messages_due ON webhook_messages (state, next_at);
CREATE INDEX webhook_messages_key ON webhook_messages (api_channel_id, ordering_key, state, seq, id);
CREATE INDEX webhook_messages_log ON webhook_messages (store_id, api_channel_id, created_at);
-- Each attempt: when, to where, the answer's status (0: none), how long it took, what it
-- said (clipped) or why it failed.
CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_row BIGINT NOT NULL,
    at BIGINT NOT NULL,
    url TEXT NOT NULL,
    timestamp_s BIGINT NOT NULL,
    status BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    answer TEXT NOT NULL,
    error TEXT NOT NULL
);
CREATE INDEX webhook_attempts_message ON webhook_attempts (message_row, id);
-- The linked SKUs a channel is due to be told the stock of: a burst of changes is one
-- message of the newest levels.
CREATE TABLE webhook_stock_due (
    api_channel_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    store_id BIGINT NOT NULL,
    changes BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    PRIMARY KEY (api_channel_id, sku_id)
);
-- An endpoint failing since (0: answering), turned off at (0: on) after days of failures,
-- and its last delivery.
ALTER TABLE api_channels ADD COLUMN webhook_failing_since BIGINT NOT NULL DEFAULT 0;
ALTER TABLE api_channels ADD COLUMN webhook_disabled_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE api_channels ADD COLUMN webhook_delivered_at BIGINT NOT NULL DEFAULT 0;
-- A key that stops working soon was told to its channel's webhook at (0: not yet).
ALTER TABLE api_keys ADD COLUMN expiry_told_at BIGINT NOT NULL DEFAULT 0;
