-- The sales report's balances: what the orders of a placing day and state now come to
-- (what their buyers pay) and what of it is paid. The totals are summed from what each
-- order's content kept; what was paid before the reports counted payments is 0 until a
-- rebuild reads it from the orders.
ALTER TABLE daily_state_sales ADD COLUMN total BIGINT NOT NULL DEFAULT 0;
ALTER TABLE daily_state_sales ADD COLUMN paid BIGINT NOT NULL DEFAULT 0;
UPDATE daily_state_sales SET total = s.total
FROM (
    SELECT store_id, placed_day, state, SUM(CAST(json_extract(content, '$.total') AS INTEGER)) AS total
    FROM report_orders
    WHERE content IS NOT NULL AND state <> '' AND placed_day <> 0
    GROUP BY store_id, placed_day, state
) s
WHERE daily_state_sales.store_id = s.store_id AND daily_state_sales.day = s.placed_day
    AND daily_state_sales.state = s.state;
