-- Service fees, from wms's fee charges: each charge once (a document is charged once), and
-- their sums per store, day charged (Thailand's time) and warehouse.
CREATE TABLE report_fee_charges (
    store_id BIGINT NOT NULL,
    document TEXT NOT NULL,
    document_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    PRIMARY KEY (store_id, document, document_id)
);

CREATE TABLE daily_fees (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    orders BIGINT NOT NULL,
    receipts BIGINT NOT NULL,
    shelving BIGINT NOT NULL,
    goods_receipt BIGINT NOT NULL,
    picking BIGINT NOT NULL,
    packing BIGINT NOT NULL,
    packaging BIGINT NOT NULL,
    material BIGINT NOT NULL,
    additional BIGINT NOT NULL,
    shipping BIGINT NOT NULL,
    cod BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, warehouse_id)
);
