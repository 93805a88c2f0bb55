-- Payment accounts (store channels): bank, paypal, promptpay and cod. acc_no_key is the
-- account number for the kinds that have one and NULL for PayPal, so numbers are unique in a
-- store across kinds while PayPal accounts never collide.
CREATE TABLE store_channels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    channel_type TEXT NOT NULL,
    country TEXT NOT NULL,
    bank_code TEXT NOT NULL,
    acc_name TEXT NOT NULL,
    acc_no TEXT NOT NULL,
    acc_no_key TEXT,
    branch TEXT NOT NULL,
    email TEXT NOT NULL,
    fee_bps BIGINT NOT NULL,
    status TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, acc_no_key)
);
CREATE INDEX store_channels_store_type ON store_channels (store_id, channel_type);

-- Which open bills point at which accounts, kept from the orders service's bill events; an
-- account with rows here cannot be deleted.
CREATE TABLE bill_channels (
    store_id BIGINT NOT NULL,
    bill_id BIGINT NOT NULL,
    store_channel_id BIGINT NOT NULL,
    PRIMARY KEY (bill_id, store_channel_id)
);
CREATE INDEX bill_channels_channel ON bill_channels (store_channel_id);
