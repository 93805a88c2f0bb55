-- Pushes the marketplaces sent (the inbox): kept, once per body, before they are answered,
-- and handled after; a push whose handling failed comes back after a growing wait. A
-- handler claims a push until claimed_until, so two replicas never handle one at once.
CREATE TABLE pushes (
    id BIGSERIAL PRIMARY KEY,
    marketplace TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    shop_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    next_at BIGINT NOT NULL,
    claimed_until BIGINT NOT NULL,
    handled_at BIGINT NOT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX pushes_due ON pushes (handled_at, next_at);

-- The marketplace orders taken in: the newest change of each handed to the orders service
-- (unix seconds, as the marketplace dates it) and the order it made.
CREATE TABLE channel_orders (
    store_channel_id BIGINT NOT NULL,
    order_id TEXT NOT NULL,
    changed_at BIGINT NOT NULL,
    stage TEXT NOT NULL,
    our_order_id BIGINT NOT NULL,
    taken_at BIGINT NOT NULL,
    PRIMARY KEY (store_channel_id, order_id)
);

-- When a shop last sent a push and was last polled (unix ms).
ALTER TABLE store_channels ADD COLUMN last_push_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE store_channels ADD COLUMN polled_at BIGINT NOT NULL DEFAULT 0;
