-- Orders hold their stock by revision (what a reference should hold moves forward only), and
-- wms keeps orders' parcels, so shipping takes the stock off the shelf and ships the parcels
-- in one transaction.

CREATE TABLE reservation_holds (
    store_id BIGINT NOT NULL,
    reference TEXT NOT NULL,
    revision BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, reference)
);

CREATE TABLE parcels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    logistic_store_channel_id BIGINT NOT NULL DEFAULT 0,
    provider TEXT NOT NULL DEFAULT '',
    weight_g BIGINT NOT NULL,
    width_cm BIGINT NOT NULL DEFAULT 0,
    length_cm BIGINT NOT NULL DEFAULT 0,
    height_cm BIGINT NOT NULL DEFAULT 0,
    packaging_code TEXT NOT NULL DEFAULT '',
    shipping_fee BIGINT NOT NULL DEFAULT 0,
    cod_amount BIGINT NOT NULL DEFAULT 0,
    cod_fee BIGINT NOT NULL DEFAULT 0,
    packing_fee BIGINT NOT NULL DEFAULT 0,
    tracking_no TEXT NOT NULL DEFAULT '',
    shipment_id BIGINT NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'pending',
    printed_at BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    shipped_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX parcels_order ON parcels (store_id, order_id);
