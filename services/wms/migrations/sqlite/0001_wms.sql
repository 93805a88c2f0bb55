-- Warehouses and the stock ledger. Quantities are whole units (BIGINT); times are BIGINT
-- milliseconds; flags BIGINT 0/1.

CREATE TABLE warehouses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    code TEXT NOT NULL,
    is_default BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, code)
);

-- One row per SKU per warehouse; available is on_hand - reserved and never negative.
CREATE TABLE stock (
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL REFERENCES warehouses (id),
    sku_id BIGINT NOT NULL,
    on_hand BIGINT NOT NULL DEFAULT 0,
    reserved BIGINT NOT NULL DEFAULT 0,
    preorder BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (warehouse_id, sku_id),
    CHECK (reserved >= 0 AND on_hand >= reserved)
);
CREATE INDEX stock_store_sku ON stock (store_id, sku_id);

-- The append-only ledger.
CREATE TABLE movements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    on_hand_delta BIGINT NOT NULL,
    reserved_delta BIGINT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    reference TEXT NOT NULL,
    actor_user_id BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX movements_store ON movements (store_id, id);
CREATE INDEX movements_store_kind ON movements (store_id, kind, id);

-- Each stock command once per reference.
CREATE TABLE stock_ops (
    store_id BIGINT NOT NULL,
    op TEXT NOT NULL,
    reference TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, op, reference)
);

-- What a reference reserved, and what became of it.
CREATE TABLE reservation_lines (
    store_id BIGINT NOT NULL,
    reference TEXT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    state TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, reference, warehouse_id, sku_id)
);
