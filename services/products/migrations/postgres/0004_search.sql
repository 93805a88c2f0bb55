-- Product search through trigrams (see src/search.rs): each product's searchable text, and
-- its trigrams indexed by store and trigram. The service fills both for products saved
-- before this migration on start.
ALTER TABLE products ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
CREATE TABLE product_search_grams (
    store_id BIGINT NOT NULL,
    gram TEXT NOT NULL,
    product_id BIGINT NOT NULL,
    PRIMARY KEY (store_id, gram, product_id)
);
