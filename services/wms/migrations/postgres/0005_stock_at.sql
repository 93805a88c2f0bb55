-- The stock report at a date takes back each SKU's movements since then, and each lot's.
CREATE INDEX movements_sku_time ON movements (store_id, warehouse_id, sku_id, created_at);
CREATE INDEX movement_lots_lot ON movement_lots (lot_id);
