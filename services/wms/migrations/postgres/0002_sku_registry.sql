-- The SKUs wms knows of, kept from the products service's events: a stock command names
-- SKUs of its own store only. `version` is the product's save time, so an older event
-- never overwrites a newer one; deleted SKUs stay as tombstones.
CREATE TABLE skus (
    sku_id BIGINT PRIMARY KEY,
    store_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    code TEXT NOT NULL,
    deleted BIGINT NOT NULL DEFAULT 0,
    version BIGINT NOT NULL
);
CREATE INDEX skus_product ON skus (store_id, product_id);
