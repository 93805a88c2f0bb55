-- Bill expiry settings, kept as a history: each applies to bills made from its start on, so
-- an order can ask which setting held when its bill was made.
CREATE TABLE bill_expiry_settings (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    expiry_type TEXT NOT NULL,
    days BIGINT NOT NULL DEFAULT 0,
    hours BIGINT NOT NULL DEFAULT 0,
    minutes BIGINT NOT NULL DEFAULT 0,
    on_expiry TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX bill_expiry_settings_store ON bill_expiry_settings (store_id, created_at, id);
