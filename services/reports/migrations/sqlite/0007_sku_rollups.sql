-- The SKUs' sales per month and per year (the period's first day in `day`): the sums of
-- daily_skus, kept beside them in the same writes, so a month, a quarter or a year sums a
-- row per SKU and month or year rather than per day.
CREATE TABLE monthly_skus (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, sku_id)
);
INSERT INTO monthly_skus (store_id, day, sku_id, units, net, net_ex_vat, cost)
SELECT store_id, day / 100 * 100 + 1, sku_id, SUM(units), SUM(net), SUM(net_ex_vat), SUM(cost)
FROM daily_skus GROUP BY store_id, day / 100 * 100 + 1, sku_id;

CREATE TABLE yearly_skus (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    units BIGINT NOT NULL,
    net BIGINT NOT NULL,
    net_ex_vat BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, sku_id)
);
INSERT INTO yearly_skus (store_id, day, sku_id, units, net, net_ex_vat, cost)
SELECT store_id, day / 10000 * 10000 + 101, sku_id, SUM(units), SUM(net), SUM(net_ex_vat), SUM(cost)
FROM daily_skus GROUP BY store_id, day / 10000 * 10000 + 101, sku_id;
