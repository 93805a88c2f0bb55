-- The store's pictures (logo, receipt header and footer) by slot, the receipt's footer text,
-- and the owner's identity verification (pending, submitted, approved). Pictures are file
-- names in the file storage; identity photos are kept apart and served only to the owner.
CREATE TABLE store_pictures (
    store_id BIGINT NOT NULL REFERENCES stores (id),
    slot TEXT NOT NULL,
    name TEXT NOT NULL,
    updated_by BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, slot)
);

CREATE TABLE receipt_settings (
    store_id BIGINT PRIMARY KEY REFERENCES stores (id),
    footer_text TEXT NOT NULL DEFAULT '',
    updated_by BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE identity_verifications (
    store_id BIGINT PRIMARY KEY REFERENCES stores (id),
    status TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    tel TEXT NOT NULL,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    sub_district TEXT NOT NULL,
    district TEXT NOT NULL,
    state_province TEXT NOT NULL,
    postcode TEXT NOT NULL,
    id_card_photo TEXT NOT NULL,
    holding_photo TEXT NOT NULL,
    submitted_by BIGINT NOT NULL,
    submitted_at BIGINT NOT NULL,
    approved_at BIGINT NOT NULL DEFAULT 0
);
