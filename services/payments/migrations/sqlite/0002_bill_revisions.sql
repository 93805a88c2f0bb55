-- The newest revision of each bill the orders service told of (orders.bill.opened and
-- orders.bill.closed travel apart, so one may arrive after a newer one): an older telling
-- changes nothing.
CREATE TABLE bill_revisions (
    bill_id BIGINT PRIMARY KEY,
    store_id BIGINT NOT NULL,
    revision BIGINT NOT NULL
);
