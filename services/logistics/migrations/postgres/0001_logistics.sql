-- Shipping channels of a store. brackets is JSON ([{"max_weight_g":…,"price":…}]).
-- inter_key is "<warehouse>:<provider>" for international channels and NULL otherwise, so a
-- warehouse has at most one international channel per provider.
CREATE TABLE store_channels (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    logistic_type TEXT NOT NULL,
    name TEXT NOT NULL,
    provider TEXT NOT NULL,
    pricing_method TEXT NOT NULL,
    price BIGINT NOT NULL,
    brackets TEXT NOT NULL,
    free_over BIGINT NOT NULL,
    cod BIGINT NOT NULL,
    status TEXT NOT NULL,
    inter_key TEXT,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, inter_key)
);
CREATE INDEX store_channels_warehouse ON store_channels (store_id, warehouse_id);

-- The store's COD account with each COD provider.
CREATE TABLE store_providers (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    provider TEXT NOT NULL,
    cod_account_no TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, provider)
);
