-- Orders taken in from marketplace shops: the shop (marketplaces' store channel) and its
-- name, when the marketplace last changed the order (a change no newer is ignored), and how
-- many of its lines match none of our SKUs (the problem sku_not_linked; those lines hold no
-- stock). A line keeps the marketplace listing it was sold as.
ALTER TABLE orders ADD COLUMN store_channel_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN channel_shop TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN channel_changed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN unlinked_items BIGINT NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN listing TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_store_channel ON orders (store_id, store_channel_id, id);
