-- The sales tables the dashboards read most are kept in their key's order (WITHOUT ROWID):
-- a store's rows of a period are read in one pass, not an index entry and a row lookup
-- each, and a write changes one b-tree instead of two. (PostgreSQL keeps them as they are.)
CREATE TABLE daily_sales_clustered (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    channel TEXT NOT NULL,
    orders BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    total BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    shipping BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, channel)
) WITHOUT ROWID;
INSERT INTO daily_sales_clustered (store_id, day, channel, orders, cancelled, units, net, total, net_ex_vat, cost, shipping)
SELECT store_id, day, channel, orders, cancelled, units, net, total, net_ex_vat, cost, shipping FROM daily_sales;
DROP TABLE daily_sales;
ALTER TABLE daily_sales_clustered RENAME TO daily_sales;

CREATE TABLE daily_skus_clustered (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, sku_id)
) WITHOUT ROWID;
INSERT INTO daily_skus_clustered (store_id, day, sku_id, units, net, net_ex_vat, cost)
SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM daily_skus;
DROP TABLE daily_skus;
ALTER TABLE daily_skus_clustered RENAME TO daily_skus;

CREATE TABLE monthly_skus_clustered (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, sku_id)
) WITHOUT ROWID;
INSERT INTO monthly_skus_clustered (store_id, day, sku_id, units, net, net_ex_vat, cost)
SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM monthly_skus;
DROP TABLE monthly_skus;
ALTER TABLE monthly_skus_clustered RENAME TO monthly_skus;

CREATE TABLE yearly_skus_clustered (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, sku_id)
) WITHOUT ROWID;
INSERT INTO yearly_skus_clustered (store_id, day, sku_id, units, net, net_ex_vat, cost)
SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM yearly_skus;
DROP TABLE yearly_skus;
ALTER TABLE yearly_skus_clustered RENAME TO yearly_skus;
