-- Service fees: each warehouse's fee plan, and what each shipped order and approved goods
-- receipt was charged by it then (once per document).

CREATE TABLE fee_plans (
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    receipt_line BIGINT NOT NULL DEFAULT 0,
    shelving BIGINT NOT NULL DEFAULT 0,
    pick BIGINT NOT NULL DEFAULT 0,
    pack BIGINT NOT NULL DEFAULT 0,
    packaging BIGINT NOT NULL DEFAULT 0,
    material BIGINT NOT NULL DEFAULT 0,
    additional BIGINT NOT NULL DEFAULT 0,
    shipping BIGINT NOT NULL DEFAULT 0,
    cod_rate_bp BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, warehouse_id)
);

CREATE TABLE fee_charges (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    document TEXT NOT NULL,
    document_id BIGINT NOT NULL,
    charged_at BIGINT NOT NULL,
    orders BIGINT NOT NULL DEFAULT 0,
    receipts BIGINT NOT NULL DEFAULT 0,
    shelving BIGINT NOT NULL DEFAULT 0,
    goods_receipt BIGINT NOT NULL DEFAULT 0,
    picking BIGINT NOT NULL DEFAULT 0,
    packing BIGINT NOT NULL DEFAULT 0,
    packaging BIGINT NOT NULL DEFAULT 0,
    material BIGINT NOT NULL DEFAULT 0,
    additional BIGINT NOT NULL DEFAULT 0,
    shipping BIGINT NOT NULL DEFAULT 0,
    cod BIGINT NOT NULL DEFAULT 0,
    UNIQUE (store_id, document, document_id)
);
