-- Tracking-number ranges a store registers from its carriers, and every number handed out.
-- A number is handed out by a conditional update of next_serial, so two callers never get
-- the same serial; tracking_numbers keeps each once (unique), with what it was for.
CREATE TABLE tracking_ranges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    provider TEXT NOT NULL,
    prefix TEXT NOT NULL,
    first_serial BIGINT NOT NULL,
    last_serial BIGINT NOT NULL,
    next_serial BIGINT NOT NULL,
    width BIGINT NOT NULL,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX tracking_ranges_provider ON tracking_ranges (store_id, provider);

CREATE TABLE tracking_numbers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    range_id BIGINT NOT NULL,
    provider TEXT NOT NULL,
    number TEXT NOT NULL,
    reference TEXT NOT NULL,
    reserved_by BIGINT NOT NULL,
    reserved_at BIGINT NOT NULL,
    UNIQUE (store_id, provider, number)
);
CREATE INDEX tracking_numbers_reference ON tracking_numbers (store_id, provider, reference);

-- A reference reserves once: its row is taken before any number, so a repeat (even a
-- concurrent one) answers the numbers the first got.
CREATE TABLE tracking_reservations (
    store_id BIGINT NOT NULL,
    provider TEXT NOT NULL,
    reference TEXT NOT NULL,
    PRIMARY KEY (store_id, provider, reference)
);
