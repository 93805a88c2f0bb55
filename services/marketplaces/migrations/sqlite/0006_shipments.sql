-- Marketplace orders shipped the platform's way: how each was handed to the platform's
-- carrier (pickup, dropoff, own_carrier), the tracking number the platform gave (empty until
-- it has one), when it was arranged and by whom, and when its label was last printed.
CREATE TABLE shipments (
    store_channel_id BIGINT NOT NULL,
    order_id TEXT NOT NULL,
    store_id BIGINT NOT NULL,
    our_order_id BIGINT NOT NULL,
    handover TEXT NOT NULL,
    tracking_no TEXT NOT NULL,
    arranged_at BIGINT NOT NULL,
    arranged_by BIGINT NOT NULL,
    label_at BIGINT NOT NULL,
    PRIMARY KEY (store_channel_id, order_id)
);
CREATE INDEX shipments_order ON shipments (store_id, our_order_id);
CREATE INDEX channel_orders_ours ON channel_orders (our_order_id);
