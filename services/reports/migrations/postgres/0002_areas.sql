-- Sales per store, day and place an order goes to: its country, province and district at
-- home, its city abroad. `parent` is the place it lies in (a district's province, a city's
-- country; empty otherwise). An order counts on the day it was placed; a cancelled one
-- counts back its net on the day it was cancelled.
CREATE TABLE daily_areas (
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
