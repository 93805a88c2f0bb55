-- Product photos and size charts: the files live in a photo store; rows keep their order.
CREATE TABLE product_photos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    position BIGINT NOT NULL,
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    bytes BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX product_photos_product ON product_photos (product_id, kind, position);
