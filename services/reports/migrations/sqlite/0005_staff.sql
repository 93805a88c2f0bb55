-- Sales per store, day and member who made the orders (user 0 when no person did: an
-- import from a channel, the system). An order counts on the day it was placed; a cancelled
-- one counts back its net on the day it was cancelled.
CREATE TABLE daily_staff (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    orders BIGINT NOT NULL,
    cancelled BIGINT NOT NULL,
    net BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, user_id)
);
