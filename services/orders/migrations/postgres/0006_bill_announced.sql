-- How many times the payments service was told that this bill opened (orders.bill.opened)
-- or closed (orders.bill.closed), in turn: odd while it is open. Each telling carries the
-- new count, so payments can ignore an older one that arrives late.
ALTER TABLE order_bills ADD COLUMN announced BIGINT NOT NULL DEFAULT 0;
