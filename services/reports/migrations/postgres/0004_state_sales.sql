-- Orders and their net per store, placing day and state now (the sales report: of the
-- orders placed on a day, how many are open, sent, closed or cancelled, and for how much).
CREATE TABLE daily_state_sales (
    store_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    state TEXT NOT NULL,
    orders BIGINT NOT NULL,
    net BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, state)
);
