-- Buyers' returns the platforms reported and that were handed to the orders service: the
-- newest change of each (unix seconds, as the platform dates it), its stage, the marketplace
-- order it returns and our order; a change no newer is not handed over again.
CREATE TABLE channel_returns (
    store_channel_id BIGINT NOT NULL,
    return_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    changed_at BIGINT NOT NULL,
    stage TEXT NOT NULL,
    our_order_id BIGINT NOT NULL,
    taken_at BIGINT NOT NULL,
    PRIMARY KEY (store_channel_id, return_id)
);
-- How far each shop's returns were read (unix seconds): the next poll goes on from there.
CREATE TABLE return_polls (
    store_channel_id BIGINT NOT NULL PRIMARY KEY,
    watermark BIGINT NOT NULL,
    polled_at BIGINT NOT NULL
);
