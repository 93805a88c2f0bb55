-- Listings: every variation of a connected shop's listings, linked or not (what was
-- `listing_links` holds the links learnt from orders and set by people). A listing is
-- linked to one of our SKUs (sku_id), or is a bundle of several (listing_parts), or waits
-- for a SKU (sku_id 0, linked_by ''). Its stock is computed when it is pushed, from the
-- levels the ledger told (sku_levels) and the shop's rule (stock_rules): wanted is the
-- quantity last computed, sent what the marketplace last took; due_at > 0 while a push is
-- due, and `changes` counts what made it due, so a push finished over a newer change leaves
-- it due. state is the marketplace's (active, inactive, deleted); seen_at the last import
-- that saw it; search its name, seller SKU and ids in lower case.
ALTER TABLE listing_links RENAME TO listings;
ALTER TABLE listings DROP COLUMN wanted_movement;
ALTER TABLE listings ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN options TEXT NOT NULL DEFAULT '[]';
ALTER TABLE listings ADD COLUMN price BIGINT NOT NULL DEFAULT 0;
ALTER TABLE listings ADD COLUMN platform_stock BIGINT NOT NULL DEFAULT -1;
ALTER TABLE listings ADD COLUMN image_url TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN state TEXT NOT NULL DEFAULT 'active';
ALTER TABLE listings ADD COLUMN listed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE listings ADD COLUMN seen_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE listings ADD COLUMN search TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN bundle BIGINT NOT NULL DEFAULT 0;
ALTER TABLE listings ADD COLUMN changes BIGINT NOT NULL DEFAULT 0;
UPDATE listings SET search = lower(seller_sku || ' ' || item_id || ' ' || model_id);
CREATE INDEX listings_shop ON listings (store_channel_id, sku_id, id);

-- The parts of a bundle listing: so many units of each SKU a set, and its share of the
-- set's price (basis points, adding up to 10,000).
CREATE TABLE listing_parts (
    listing_id BIGINT NOT NULL,
    store_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    cost_share BIGINT NOT NULL,
    PRIMARY KEY (listing_id, sku_id)
);
CREATE INDEX listing_parts_sku ON listing_parts (store_id, sku_id);

-- What the ledger last told of a SKU in a warehouse (on hand less reserved), by movement
-- id: an older movement never overwrites a newer one; a level read from the ledger is
-- movement 0.
CREATE TABLE sku_levels (
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    available BIGINT NOT NULL,
    movement BIGINT NOT NULL,
    PRIMARY KEY (store_id, warehouse_id, sku_id)
);

-- How much a shop's listings show (listing_id 0), or one listing's where a person set it:
-- percent of what is available plus fixed, rounded; below threshold only the priority shop
-- shows what is left; hold is kept back; increase_only pushes no decrease. warehouses is the
-- comma list pushed from ('' for the shop's own).
CREATE TABLE stock_rules (
    store_channel_id BIGINT NOT NULL,
    listing_id BIGINT NOT NULL,
    store_id BIGINT NOT NULL,
    percent BIGINT NOT NULL,
    fixed BIGINT NOT NULL,
    rounding TEXT NOT NULL,
    warehouses TEXT NOT NULL,
    threshold BIGINT NOT NULL,
    priority BIGINT NOT NULL,
    hold BIGINT NOT NULL,
    increase_only BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_channel_id, listing_id)
);

-- What a store's seller SKUs put around our codes (kind prefix or suffix), ignored when
-- listings are linked automatically.
CREATE TABLE match_rules (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (store_id, kind, text)
);

-- An import of a shop's listings (source api: through the marketplace's API, a page at a
-- time from cursor; file: the platform's spreadsheet, once per file by its digest), run in
-- the background by one worker at a time (claimed_until), with its counts; each listing's
-- outcome in import_rows.
CREATE TABLE listing_imports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    store_channel_id BIGINT NOT NULL,
    source TEXT NOT NULL,
    state TEXT NOT NULL,
    create_products BIGINT NOT NULL,
    category_id BIGINT NOT NULL,
    digest TEXT NOT NULL,
    file_name TEXT NOT NULL,
    cursor TEXT NOT NULL,
    pages BIGINT NOT NULL,
    total BIGINT NOT NULL,
    seen BIGINT NOT NULL,
    created BIGINT NOT NULL,
    linked BIGINT NOT NULL,
    unlinked BIGINT NOT NULL,
    failed BIGINT NOT NULL,
    error TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    claimed_until BIGINT NOT NULL,
    created_by BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT NOT NULL
);
CREATE INDEX listing_imports_shop ON listing_imports (store_id, store_channel_id, id);
CREATE INDEX listing_imports_running ON listing_imports (state, claimed_until);

CREATE TABLE import_rows (
    import_id BIGINT NOT NULL,
    n BIGINT NOT NULL,
    item_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    seller_sku TEXT NOT NULL,
    name TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    sku_id BIGINT NOT NULL,
    PRIMARY KEY (import_id, n)
);

-- A push of every listing of a shop ("push all", or a selection pushed now): how many are
-- due and how many were pushed, until it is finished.
CREATE TABLE stock_syncs (
    store_channel_id BIGINT PRIMARY KEY,
    store_id BIGINT NOT NULL,
    state TEXT NOT NULL,
    total BIGINT NOT NULL,
    done BIGINT NOT NULL,
    started_by BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT NOT NULL
);

ALTER TABLE stock_pushes ADD COLUMN listing_id BIGINT NOT NULL DEFAULT 0;
