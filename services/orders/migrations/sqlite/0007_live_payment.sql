-- A bill has at most one live payment (unpaid, pending or paid): the database refuses a
-- second even if two requests both found none (PostgreSQL reads committed rows only).
CREATE UNIQUE INDEX order_payments_live ON order_payments (bill_id) WHERE state IN ('unpaid', 'pending', 'paid');
