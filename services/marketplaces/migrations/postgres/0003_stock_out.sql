-- A marketplace listing (item and variation) linked to one of our SKUs: learnt from the
-- orders it sold in (by seller SKU), or set by a person (never replaced by what an order
-- says). Its stock is pushed as the absolute quantity available in the shop's warehouse:
-- wanted is the newest the ledger told (by its movement id), sent what the marketplace
-- last took; a push is due from due_at (0: nothing due), so a burst of changes is one push.
CREATE TABLE listing_links (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    store_channel_id BIGINT NOT NULL,
    item_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    seller_sku TEXT NOT NULL,
    sku_id BIGINT NOT NULL,
    linked_by TEXT NOT NULL,
    wanted BIGINT NOT NULL,
    wanted_movement BIGINT NOT NULL,
    sent BIGINT NOT NULL,
    sent_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    last_answer TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_channel_id, item_id, model_id)
);
CREATE INDEX listing_links_sku ON listing_links (store_id, sku_id);
CREATE INDEX listing_links_due ON listing_links (due_at);

-- Every stock push per SKU: what was sent to which listing, when, and what the marketplace
-- answered (kept 30 days).
CREATE TABLE stock_pushes (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    store_channel_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    item_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    outcome TEXT NOT NULL,
    answer TEXT NOT NULL,
    sent_at BIGINT NOT NULL
);
CREATE INDEX stock_pushes_sku ON stock_pushes (store_id, sku_id, id);
CREATE INDEX stock_pushes_sent ON stock_pushes (sent_at);
