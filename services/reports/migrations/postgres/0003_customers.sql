-- Who placed each order: its customer (0 for a guest), when it was placed (epoch ms) and
-- whether it is its customer's first order (1) — the earliest placed, the lower id first on
-- a tie — which the reports settle across the customer's orders as their events arrive.
ALTER TABLE report_orders ADD COLUMN customer_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE report_orders ADD COLUMN placed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE report_orders ADD COLUMN first_order BIGINT NOT NULL DEFAULT 0;
CREATE INDEX report_orders_customer ON report_orders (store_id, customer_id, placed_at, order_id)
    WHERE customer_id <> 0;

-- Sales per store, day and kind of customer: a customer's first order (new), a later one
-- (returning), an order with no customer (guest). An order counts on the day it was placed;
-- a cancelled one counts back its net on the day it was cancelled.
CREATE TABLE daily_customers (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    kind TEXT NOT NULL,
    orders BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    net BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, kind)
);
