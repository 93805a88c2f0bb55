-- After a push the stock of a sample of the listings it set is read back from the
-- marketplace into platform_stock; stock_checked_at is when (0: never read back). A linked
-- listing whose platform_stock is not what the marketplace last took (sent) differs.
ALTER TABLE listings ADD COLUMN stock_checked_at BIGINT NOT NULL DEFAULT 0;
