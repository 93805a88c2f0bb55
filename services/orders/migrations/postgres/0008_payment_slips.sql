-- Every slip a bill's payment was sent, by the buyer or the staff, kept as evidence: a new
-- slip never replaces an earlier one (the payment's attachment is its newest). A bill takes
-- a bounded number of them.
CREATE TABLE order_payment_slips (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    bill_id BIGINT NOT NULL,
    payment_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    created_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX order_payment_slips_payment ON order_payment_slips (payment_id, id);
CREATE INDEX order_payment_slips_bill ON order_payment_slips (bill_id);
INSERT INTO order_payment_slips (store_id, order_id, bill_id, payment_id, name, source, created_by, created_at)
SELECT store_id, order_id, bill_id, id, attachment, source, created_by,
       CASE WHEN slip_at > 0 THEN slip_at ELSE created_at END
FROM order_payments WHERE attachment <> '';
