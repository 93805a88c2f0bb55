-- Reconciliation: a payment confirmed by a line of a bank statement or a COD remittance
-- keeps that line's fingerprint as its proof; a line confirms one payment, ever.
ALTER TABLE order_payments ADD COLUMN proof TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX order_payments_proof ON order_payments (store_id, proof) WHERE proof <> '';
CREATE INDEX order_bills_store_created ON order_bills (store_id, created_at);
