-- Order report exports: one spreadsheet of a store's orders of a date range and states,
-- built in the background. A builder claims an export (claimed_by, claimed_at, renewed as it
-- goes); one whose claim went stale is taken over. The file lives in file storage under
-- file_key until expires_at. Times are unix milliseconds.

CREATE TABLE order_exports (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    file_name TEXT NOT NULL,
    lang TEXT NOT NULL DEFAULT 'th',
    state TEXT NOT NULL,
    date_from BIGINT NOT NULL,
    date_to BIGINT NOT NULL,
    states TEXT NOT NULL DEFAULT '',
    total BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0,
    file_key TEXT NOT NULL DEFAULT '',
    file_size BIGINT NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    claimed_by TEXT NOT NULL DEFAULT '',
    claimed_at BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    finished_at BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX order_exports_store ON order_exports (store_id, id);
CREATE INDEX order_exports_work ON order_exports (state, claimed_at);
-- The export's rows: a store's orders by creation time.
CREATE INDEX orders_created ON orders (store_id, created_at, id);
