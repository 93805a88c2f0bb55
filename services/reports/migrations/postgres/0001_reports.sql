-- What the reports know of each order, kept from orders' events (domain::Order): its
-- channel and placing day (YYYYMMDD, Thailand's time), what it sells at content_version
-- (JSON of domain::Content), its state at state_version, and the day it was cancelled.
CREATE TABLE report_orders (
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    channel TEXT NOT NULL,
    placed_day BIGINT NOT NULL,
    content TEXT,
    content_version BIGINT NOT NULL,
    state TEXT NOT NULL,
    state_version BIGINT NOT NULL,
    cancelled_day BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, order_id)
);

-- The sales ledger: append only, one row per change an event made to the daily sales of a
-- day and channel (sku_id 0) or of a day and SKU, with the event that made it.
CREATE TABLE sales_ledger (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    day BIGINT NOT NULL,
    channel TEXT NOT NULL,
    sku_id BIGINT NOT NULL,
    orders BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    total BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    shipping BIGINT NOT NULL,
    recorded_at BIGINT NOT NULL
);
CREATE INDEX sales_ledger_order ON sales_ledger (store_id, order_id);

-- Daily sales per store, day and channel: the sums of the ledger's order rows.
CREATE TABLE daily_sales (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    channel TEXT NOT NULL,
    orders BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    total BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    shipping BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, channel)
);

-- Daily sales per store, day and SKU: the sums of the ledger's SKU rows.
CREATE TABLE daily_skus (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, sku_id)
);

-- How many orders placed on a day are in each state now.
CREATE TABLE daily_states (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    state TEXT NOT NULL,
    orders BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, state)
);

-- A SKU's names as its newest order sold it.
CREATE TABLE report_skus (
    store_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    product_name TEXT NOT NULL,
    sku_code TEXT NOT NULL,
    variant TEXT NOT NULL,
    PRIMARY KEY (store_id, sku_id)
);

-- When each store's figures last changed; its row is also what serialises a store's
-- writers, which every event of the store updates first.
CREATE TABLE report_stores (
    store_id BIGINT PRIMARY KEY,
    updated_at BIGINT NOT NULL
);
