-- The buyer's reason while a cancellation the buyer asked for waits for the seller's answer
-- (empty otherwise), as the marketplace last gave the order.
ALTER TABLE channel_orders ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';
