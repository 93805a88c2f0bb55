-- A key whose request died mid-way is taken over once its lease runs out, instead of being
-- refused until it expires.
ALTER TABLE idempotency_keys ADD COLUMN locked_until BIGINT NOT NULL DEFAULT 0;
