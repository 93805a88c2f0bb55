-- A store's account with a carrier's API (the e-parcel account of the postal provider): its
-- key, whether the carrier took it when last asked, and the unguessable token of the URL the
-- carrier pushes tracking to.
CREATE TABLE carrier_accounts (
    store_id BIGINT NOT NULL,
    carrier TEXT NOT NULL,
    account_id TEXT NOT NULL,
    secret TEXT NOT NULL,
    webhook_token TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    checked_at BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (store_id, carrier)
);

-- Parcels a carrier carries for the store, and what the carrier said of them.
CREATE TABLE shipments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    carrier TEXT NOT NULL,
    tracking_no TEXT NOT NULL,
    reference TEXT NOT NULL,
    state TEXT NOT NULL,
    progress TEXT NOT NULL,
    last_event_at BIGINT NOT NULL,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, carrier, tracking_no)
);

CREATE TABLE shipment_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    shipment_id BIGINT NOT NULL,
    status TEXT NOT NULL,
    description TEXT NOT NULL,
    location TEXT NOT NULL,
    progress TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    UNIQUE (shipment_id, status, at_ms)
);
