-- A marketplace order whose marketplace ships it (its pick-up or drop-off arranged with the
-- platform, its label the platform's): 1. Such an order is prepared, shipped and cancelled
-- on the platform first and follows what the platform then says; staff cannot move it there
-- by hand. Set by the marketplaces service with every change it hands over.
ALTER TABLE orders ADD COLUMN platform_ships BIGINT NOT NULL DEFAULT 0;
