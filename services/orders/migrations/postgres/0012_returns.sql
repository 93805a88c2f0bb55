-- Buyers' returns of orders, as their marketplace reports them: one per order and platform
-- return number, moved along by newer changes only (changed_at, ms). Its lines (JSON: the
-- order's line, SKU, units returned, and the units received back good and defective) and
-- the goods receipts (wms) that put the goods back in stock (JSON: id, code, warehouse),
-- written once when the goods are received. orders.return_mark says in one word where an
-- order's returns stand (domain::returns::Mark), for the lists and their filter.
CREATE TABLE order_returns (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    reference TEXT NOT NULL,
    stage TEXT NOT NULL,
    status_word TEXT NOT NULL DEFAULT '',
    refund_only BIGINT NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    refund_amount BIGINT NOT NULL DEFAULT 0,
    tracking_no TEXT NOT NULL DEFAULT '',
    lines TEXT NOT NULL DEFAULT '[]',
    receipts TEXT NOT NULL DEFAULT '[]',
    changed_at BIGINT NOT NULL DEFAULT 0,
    received_at BIGINT NOT NULL DEFAULT 0,
    received_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, order_id, reference)
);
ALTER TABLE orders ADD COLUMN return_mark TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_return_mark ON orders (store_id, return_mark, id) WHERE return_mark <> '';
