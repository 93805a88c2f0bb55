-- Lists' totals without counting every row: products per store, status and category, and
-- the stock overview's rows per store (every SKU once per warehouse holding it, and once at
-- zero when none does: skus - stocked + held). Kept in the same transaction as every change.
DELETE FROM inventory WHERE sku_id NOT IN (SELECT id FROM skus);

CREATE TABLE product_counts (
    store_id BIGINT NOT NULL,
    status TEXT NOT NULL,
    category_id BIGINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (store_id, status, category_id)
);
INSERT INTO product_counts (store_id, status, category_id, n)
SELECT store_id, status, category_id, COUNT(*) FROM products GROUP BY store_id, status, category_id;

CREATE TABLE sku_counts (
    store_id BIGINT PRIMARY KEY,
    skus BIGINT NOT NULL,
    stocked BIGINT NOT NULL,
    held BIGINT NOT NULL
);
INSERT INTO sku_counts (store_id, skus, stocked, held)
SELECT s.store_id, COUNT(*),
       COALESCE(SUM(CASE WHEN i.n > 0 THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(COALESCE(i.n, 0)), 0)
FROM skus s LEFT JOIN (SELECT sku_id, COUNT(*) AS n FROM inventory GROUP BY sku_id) i ON i.sku_id = s.id
GROUP BY s.store_id;

-- Filtered lists walk their own index in id order.
CREATE INDEX products_store_status ON products (store_id, status, id);
CREATE INDEX products_store_category ON products (store_id, category_id, id);
-- Public photo requests find their row by name.
CREATE INDEX product_photos_name ON product_photos (name);
