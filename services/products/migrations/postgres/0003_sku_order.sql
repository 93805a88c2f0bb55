-- The stock overview and SKU lists walk a store's SKUs newest first; without this index
-- every page sorted all of them.
CREATE INDEX skus_store_id ON skus (store_id, id);
