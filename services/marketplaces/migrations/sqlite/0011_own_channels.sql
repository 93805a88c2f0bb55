-- A store's own channels: its Facebook page, LINE account, Instagram or website, sold
-- through by hand, with the warehouse, shipping channel and payment account an order typed
-- for one takes. No key and no webhook: nobody calls us for them.
CREATE TABLE own_channels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    channel TEXT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    logistic_channel_id BIGINT NOT NULL,
    payment_channel_id BIGINT NOT NULL,
    status TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    version BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX own_channels_store ON own_channels (store_id, id);
