-- Sales per store, month and place (the month's first day in `day`): the sums of daily_areas,
-- kept beside them in the same writes, so a month, a quarter or a year's top places sum a row
-- per place and month rather than per day.
CREATE TABLE monthly_areas (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    parent TEXT NOT NULL,
    orders BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    net BIGINT NOT NULL,
    PRIMARY KEY (store_id, kind, day, name, parent)
);
INSERT INTO monthly_areas (store_id, day, kind, name, parent, orders, cancelled, net)
SELECT store_id, day / 100 * 100 + 1, kind, name, parent, SUM(orders), SUM(cancelled), SUM(net)
FROM daily_areas GROUP BY store_id, day / 100 * 100 + 1, kind, name, parent;
