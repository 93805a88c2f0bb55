-- Orders, their lines and timeline. Money is satang (BIGINT), times unix milliseconds,
-- flags 0/1, lists as JSON text. An order's stock is held in wms under `order:<id>`;
-- `stock_state` and `hold_revision` say where that stands (see docs/architecture.md).

CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    order_no TEXT NOT NULL,
    channel TEXT NOT NULL,
    reference TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    payment_state TEXT NOT NULL,
    problems TEXT NOT NULL DEFAULT '',
    failure_cause TEXT NOT NULL DEFAULT '',
    failure_reason TEXT NOT NULL DEFAULT '',
    warehouse_id BIGINT NOT NULL,
    customer_id BIGINT NOT NULL DEFAULT 0,
    customer_address_id BIGINT NOT NULL DEFAULT 0,
    ship_name TEXT NOT NULL DEFAULT '',
    ship_tel TEXT NOT NULL DEFAULT '',
    ship_address TEXT NOT NULL DEFAULT '',
    ship_sub_district TEXT NOT NULL DEFAULT '',
    ship_district TEXT NOT NULL DEFAULT '',
    ship_state_province TEXT NOT NULL DEFAULT '',
    ship_postcode TEXT NOT NULL DEFAULT '',
    ship_email TEXT NOT NULL DEFAULT '',
    ship_country TEXT NOT NULL DEFAULT 'TH',
    ship_city TEXT NOT NULL DEFAULT '',
    shipping_address_changed BIGINT NOT NULL DEFAULT 0,
    discount_type TEXT NOT NULL DEFAULT '',
    discount_value BIGINT NOT NULL DEFAULT 0,
    vat_included BIGINT NOT NULL DEFAULT 1,
    subtotal BIGINT NOT NULL,
    discount_amount BIGINT NOT NULL,
    net BIGINT NOT NULL,
    shipping_charge BIGINT NOT NULL,
    shipping_charge_inter BIGINT NOT NULL,
    additional_fee BIGINT NOT NULL,
    vat_amount BIGINT NOT NULL,
    total BIGINT NOT NULL,
    cost_total BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    profit BIGINT NOT NULL,
    logistic_store_channel_id BIGINT NOT NULL DEFAULT 0,
    shipping_name TEXT NOT NULL DEFAULT '',
    shipping_provider TEXT NOT NULL DEFAULT '',
    cod BIGINT NOT NULL DEFAULT 0,
    tracking_no TEXT NOT NULL DEFAULT '',
    estimated_weight_g BIGINT NOT NULL DEFAULT 0,
    imported BIGINT NOT NULL DEFAULT 0,
    bill_expire_at BIGINT NOT NULL DEFAULT 0,
    stock_state TEXT NOT NULL,
    stock_state_at BIGINT NOT NULL,
    hold_revision BIGINT NOT NULL DEFAULT 0,
    search_text TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    ready_at BIGINT NOT NULL DEFAULT 0,
    shipped_at BIGINT NOT NULL DEFAULT 0,
    cancelled_at BIGINT NOT NULL DEFAULT 0,
    closed_at BIGINT NOT NULL DEFAULT 0,
    failed_at BIGINT NOT NULL DEFAULT 0,
    voided_at BIGINT NOT NULL DEFAULT 0,
    UNIQUE (store_id, order_no)
);
-- One order per channel reference in a store ('duplicate order reference').
CREATE UNIQUE INDEX orders_reference ON orders (store_id, channel, reference) WHERE reference <> '';
-- The board: a store's orders of a state, newest first.
CREATE INDEX orders_state ON orders (store_id, state, id);
CREATE INDEX orders_store ON orders (store_id, id);
-- What the reconciler and the filler look for.
CREATE INDEX orders_stock ON orders (stock_state, stock_state_at);
CREATE INDEX orders_short ON orders (store_id, stock_state, id);

CREATE TABLE order_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    position BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    product_name TEXT NOT NULL,
    product_code TEXT NOT NULL,
    sku_code TEXT NOT NULL,
    variant TEXT NOT NULL DEFAULT '',
    price BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    hs_code TEXT NOT NULL DEFAULT '',
    packing_options TEXT NOT NULL DEFAULT '[]',
    note TEXT NOT NULL DEFAULT '',
    warehouse_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    weight_g BIGINT NOT NULL DEFAULT 0,
    line_total BIGINT NOT NULL
);
CREATE INDEX order_items_order ON order_items (order_id, position);
CREATE INDEX order_items_sku ON order_items (store_id, sku_id, warehouse_id);

-- Who did what to an order, and when.
CREATE TABLE order_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    from_state TEXT NOT NULL DEFAULT '',
    to_state TEXT NOT NULL DEFAULT '',
    user_id BIGINT NOT NULL DEFAULT 0,
    detail TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);

-- Gap-free order numbers per store and Buddhist-era year.
CREATE TABLE order_counters (
    store_id BIGINT NOT NULL,
    year BIGINT NOT NULL,
    last BIGINT NOT NULL,
    PRIMARY KEY (store_id, year)
);

-- Orders per store and state, written with every change (the board's counts).
CREATE TABLE order_counts (
    store_id BIGINT NOT NULL,
    state TEXT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (store_id, state)
);

-- SKUs that became available while orders of their store were short: the filler's work.
CREATE TABLE fill_queue (
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    queued_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, warehouse_id, sku_id)
);
