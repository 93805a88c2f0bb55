-- Users, sessions, stores, roles, memberships, customers and their addresses,
-- idempotency keys and history. Flags are BIGINT 0/1; times are BIGINT milliseconds.

CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    tel TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    ended_at BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE stores (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    sub_district TEXT NOT NULL DEFAULT '',
    district TEXT NOT NULL DEFAULT '',
    province TEXT NOT NULL DEFAULT '',
    postcode TEXT NOT NULL DEFAULT '',
    tel TEXT NOT NULL DEFAULT '',
    vat_included BIGINT NOT NULL DEFAULT 0,
    menu_hiding_list TEXT NOT NULL DEFAULT '[]',
    gs_payment BIGINT NOT NULL DEFAULT 0,
    gs_logistic BIGINT NOT NULL DEFAULT 0,
    gs_product BIGINT NOT NULL DEFAULT 0,
    gs_goods_receipt BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE roles (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    name TEXT NOT NULL,
    permissions TEXT NOT NULL,
    built_in BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, name)
);

CREATE TABLE memberships (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    store_id BIGINT NOT NULL REFERENCES stores (id),
    permission TEXT NOT NULL,
    role_id BIGINT NOT NULL REFERENCES roles (id),
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (user_id, store_id)
);

CREATE TABLE customers (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    name TEXT NOT NULL,
    tel TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    facebook TEXT NOT NULL DEFAULT '',
    line TEXT NOT NULL DEFAULT '',
    order_count BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX customers_store_tel ON customers (store_id, tel);
CREATE INDEX customers_store_id ON customers (store_id, id);

CREATE TABLE customer_addresses (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    customer_id BIGINT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    tel TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL,
    sub_district TEXT NOT NULL DEFAULT '',
    district TEXT NOT NULL DEFAULT '',
    state_province TEXT NOT NULL DEFAULT '',
    postcode TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT 'TH',
    city TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    is_default BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX customer_addresses_customer ON customer_addresses (customer_id, id);
CREATE UNIQUE INDEX customer_addresses_one_default ON customer_addresses (customer_id) WHERE is_default = 1;

CREATE TABLE customer_history (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    customer_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    actor_user_id BIGINT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX customer_history_customer ON customer_history (store_id, customer_id, id);

CREATE TABLE idempotency_keys (
    store_id BIGINT NOT NULL,
    idem_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status BIGINT NOT NULL DEFAULT 0,
    body BYTEA,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
