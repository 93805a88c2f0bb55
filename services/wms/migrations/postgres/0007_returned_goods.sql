-- Goods a buyer sent back, received against an order's return (the orders service asks):
-- what they came back for (`origin`, unique in the store, so a repeated call finds the
-- receipt made) and the order they were sold on.
ALTER TABLE goods_receipts ADD COLUMN origin TEXT NOT NULL DEFAULT '';
ALTER TABLE goods_receipts ADD COLUMN order_id BIGINT NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX goods_receipts_origin ON goods_receipts (store_id, origin) WHERE origin <> '';
