-- Bills: one per warehouse of an order, for its share of the order's total. The expiry
-- method and action are those of the store's setting when the bill was made; expires_at
-- is 0 for a bill that never expires. The token is the bill's public link.

CREATE TABLE order_bills (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    token TEXT NOT NULL,
    state TEXT NOT NULL,
    expiry_type TEXT NOT NULL,
    on_expiry TEXT NOT NULL,
    expires_at BIGINT NOT NULL DEFAULT 0,
    expired_at BIGINT NOT NULL DEFAULT 0,
    renewed_at BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (order_id, warehouse_id),
    UNIQUE (token)
);
CREATE INDEX order_bills_order ON order_bills (store_id, order_id);
-- What the expiry job looks for.
CREATE INDEX order_bills_due ON order_bills (state, expires_at) WHERE expires_at > 0;
