-- A store's international rate table (one per store, replaced whole by an upload): which
-- zone each country is in per service, and each zone's price up to each weight.
CREATE TABLE rate_tables (
    store_id BIGINT PRIMARY KEY,
    label TEXT NOT NULL,
    is_sample BIGINT NOT NULL,
    uploaded_by BIGINT NOT NULL,
    uploaded_at BIGINT NOT NULL
);

CREATE TABLE rate_countries (
    store_id BIGINT NOT NULL,
    position BIGINT NOT NULL,
    country TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (store_id, country)
);

CREATE TABLE rate_zones (
    store_id BIGINT NOT NULL,
    service TEXT NOT NULL,
    country TEXT NOT NULL,
    zone TEXT NOT NULL,
    PRIMARY KEY (store_id, service, country)
);

CREATE TABLE rate_prices (
    store_id BIGINT NOT NULL,
    service TEXT NOT NULL,
    zone TEXT NOT NULL,
    max_weight_g BIGINT NOT NULL,
    price BIGINT NOT NULL,
    PRIMARY KEY (store_id, service, zone, max_weight_g)
);
