-- Goods receipts, stock lots, transfers. Every unit on hand belongs to a lot; a stock row's
-- on_hand and reserved are the sums of its lots'. Stock that existed before lots gets one
-- opening lot per SKU and warehouse, holding what was reserved of it.

ALTER TABLE warehouses ADD COLUMN active BIGINT NOT NULL DEFAULT 1;
ALTER TABLE stock ADD COLUMN average_cost BIGINT NOT NULL DEFAULT 0;

-- What receipts and pick lists show of a SKU, kept from the catalog's events (the products
-- service announces every product once more at its next start, which fills older SKUs).
ALTER TABLE skus ADD COLUMN product_name TEXT NOT NULL DEFAULT '';
ALTER TABLE skus ADD COLUMN barcode TEXT NOT NULL DEFAULT '';
ALTER TABLE skus ADD COLUMN option1 TEXT NOT NULL DEFAULT '';
ALTER TABLE skus ADD COLUMN option2 TEXT NOT NULL DEFAULT '';

CREATE TABLE stock_lots (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    code TEXT NOT NULL,
    goods_receipt_id BIGINT NOT NULL DEFAULT 0,
    unit_cost BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL DEFAULT 0,
    received_at BIGINT NOT NULL,
    quantity_in BIGINT NOT NULL,
    on_hand BIGINT NOT NULL,
    reserved BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    CHECK (reserved >= 0 AND on_hand >= reserved)
);
CREATE INDEX stock_lots_take ON stock_lots (warehouse_id, sku_id, on_hand);
CREATE INDEX stock_lots_store ON stock_lots (store_id, expires_at);

-- Which lots an open reservation holds.
CREATE TABLE lot_allocations (
    store_id BIGINT NOT NULL,
    reference TEXT NOT NULL,
    lot_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    PRIMARY KEY (store_id, reference, lot_id)
);
CREATE INDEX lot_allocations_lot ON lot_allocations (lot_id);

-- Which lots a movement took from or added to.
CREATE TABLE movement_lots (
    movement_id BIGINT NOT NULL,
    lot_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    PRIMARY KEY (movement_id, lot_id)
);

-- Gap-free document numbers per store, kind and Buddhist-era year.
CREATE TABLE doc_counters (
    store_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    year BIGINT NOT NULL,
    last BIGINT NOT NULL,
    PRIMARY KEY (store_id, kind, year)
);

CREATE TABLE goods_receipts (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    code TEXT NOT NULL,
    type TEXT NOT NULL,
    state TEXT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    expected_received_at BIGINT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    is_pick_up BIGINT NOT NULL DEFAULT 0,
    pick_up_address TEXT NOT NULL DEFAULT '',
    pick_up_tel TEXT NOT NULL DEFAULT '',
    pick_up_at BIGINT NOT NULL DEFAULT 0,
    packagings TEXT NOT NULL DEFAULT '[]',
    options TEXT NOT NULL DEFAULT '[]',
    reject_reason TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL,
    printed_by BIGINT NOT NULL DEFAULT 0,
    checked_by BIGINT NOT NULL DEFAULT 0,
    decided_by BIGINT NOT NULL DEFAULT 0,
    decided_at BIGINT NOT NULL DEFAULT 0,
    line_count BIGINT NOT NULL DEFAULT 0,
    total_cost BIGINT NOT NULL DEFAULT 0,
    total_request_qty BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, code)
);
CREATE INDEX goods_receipts_board ON goods_receipts (store_id, state, id);

CREATE TABLE goods_receipt_lines (
    id BIGSERIAL PRIMARY KEY,
    receipt_id BIGINT NOT NULL,
    store_id BIGINT NOT NULL,
    position BIGINT NOT NULL,
    sku_id BIGINT NOT NULL DEFAULT 0,
    product_id BIGINT NOT NULL DEFAULT 0,
    product_name TEXT NOT NULL DEFAULT '',
    sku_code TEXT NOT NULL DEFAULT '',
    barcode TEXT NOT NULL DEFAULT '',
    option1 TEXT NOT NULL DEFAULT '',
    option2 TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    width_cm BIGINT NOT NULL DEFAULT 0,
    length_cm BIGINT NOT NULL DEFAULT 0,
    height_cm BIGINT NOT NULL DEFAULT 0,
    weight_g BIGINT NOT NULL DEFAULT 0,
    cost BIGINT NOT NULL DEFAULT 0,
    request_qty BIGINT NOT NULL,
    receive_qty BIGINT NOT NULL DEFAULT 0,
    defect_qty BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL DEFAULT 0,
    unit_id BIGINT NOT NULL DEFAULT 0,
    unit_name TEXT NOT NULL DEFAULT '',
    unit_quantity BIGINT NOT NULL DEFAULT 1,
    print_label BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT ''
);
CREATE INDEX goods_receipt_lines_receipt ON goods_receipt_lines (receipt_id, position);

CREATE TABLE transfers (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    code TEXT NOT NULL,
    reference TEXT NOT NULL,
    state TEXT NOT NULL,
    from_warehouse_id BIGINT NOT NULL,
    to_warehouse_id BIGINT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL,
    received_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL DEFAULT 0,
    UNIQUE (store_id, reference),
    UNIQUE (store_id, code)
);
CREATE INDEX transfers_list ON transfers (store_id, state, id);

-- The units of each lot a transfer carries, with the lot's cost, expiry and arrival.
CREATE TABLE transfer_lots (
    transfer_id BIGINT NOT NULL,
    store_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    lot_id BIGINT NOT NULL,
    code TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    unit_cost BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (transfer_id, lot_id)
);

INSERT INTO stock_lots (store_id, warehouse_id, sku_id, code, goods_receipt_id, unit_cost, expires_at, received_at,
    quantity_in, on_hand, reserved, created_at)
SELECT store_id, warehouse_id, sku_id, 'OPENING', 0, 0, 0, updated_at, on_hand, on_hand, reserved, updated_at
FROM stock WHERE on_hand > 0;

INSERT INTO lot_allocations (store_id, reference, lot_id, warehouse_id, sku_id, quantity)
SELECT r.store_id, r.reference, l.id, r.warehouse_id, r.sku_id, r.quantity
FROM reservation_lines r JOIN stock_lots l ON l.warehouse_id = r.warehouse_id AND l.sku_id = r.sku_id AND l.code = 'OPENING'
WHERE r.state = 'reserved';
