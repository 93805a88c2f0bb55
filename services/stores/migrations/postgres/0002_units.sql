-- Store settings: units of measurement (a name for a quantity of a base unit, unique per
-- store by name_key: trimmed, spaces collapsed, lower case) and the history of store-wide
-- safety-stock settings (the newest is the one in force). Times are BIGINT milliseconds.

CREATE TABLE store_unit_of_measurements (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    base_unit TEXT NOT NULL,
    created_by BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX store_unit_of_measurements_name ON store_unit_of_measurements (store_id, name_key);

CREATE TABLE store_safety_stock_histories (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    amount BIGINT NOT NULL CHECK (amount >= 0),
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX store_safety_stock_histories_store ON store_safety_stock_histories (store_id, id);
