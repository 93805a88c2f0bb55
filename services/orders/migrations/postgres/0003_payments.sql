-- Payments of orders: each against one bill, for its amount, to one of the store's accounts
-- (the payments service's store channel, with its kind as it was). A bill's live payment
-- is its newest; cancelled and voided ones stay as history. The attachment is the slip's
-- file name in file storage ('' none). Times are unix milliseconds.

CREATE TABLE order_payments (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    bill_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    state TEXT NOT NULL,
    store_channel_id BIGINT NOT NULL DEFAULT 0,
    channel_type TEXT NOT NULL DEFAULT '',
    attachment TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    confirmed_by BIGINT NOT NULL DEFAULT 0,
    confirmed_at BIGINT NOT NULL DEFAULT 0,
    slip_at BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX order_payments_order ON order_payments (store_id, order_id, id);
CREATE INDEX order_payments_bill ON order_payments (bill_id, id);
-- The review screen: a store's payments of a state, newest first.
CREATE INDEX order_payments_state ON order_payments (store_id, state, id);
