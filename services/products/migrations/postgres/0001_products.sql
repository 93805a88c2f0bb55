-- The catalog and its inventory view. Money is BIGINT satang; weights BIGINT grams; times
-- BIGINT milliseconds; JSON (tags, variants) as TEXT.

CREATE TABLE categories (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    position BIGINT NOT NULL
);
INSERT INTO categories (name, name_en, position) VALUES
    ('เสื้อผ้าแฟชั่น', 'Fashion', 1),
    ('กระเป๋าและรองเท้า', 'Bags and shoes', 2),
    ('ความงามและของใช้ส่วนตัว', 'Beauty and personal care', 3),
    ('อาหารและเครื่องดื่ม', 'Food and drinks', 4),
    ('สุขภาพ', 'Health', 5),
    ('แม่และเด็ก', 'Mother and baby', 6),
    ('บ้านและสวน', 'Home and garden', 7),
    ('มือถือและอุปกรณ์', 'Phones and accessories', 8),
    ('คอมพิวเตอร์และอิเล็กทรอนิกส์', 'Computers and electronics', 9),
    ('กีฬาและกิจกรรมกลางแจ้ง', 'Sports and outdoors', 10),
    ('สัตว์เลี้ยง', 'Pets', 11),
    ('หนังสือและเครื่องเขียน', 'Books and stationery', 12),
    ('ของเล่นและเกม', 'Toys and games', 13),
    ('อื่น ๆ', 'Others', 14);

CREATE TABLE products (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL DEFAULT '',
    short_description TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    code TEXT NOT NULL,
    hs_code TEXT NOT NULL DEFAULT '',
    brand TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]',
    category_id BIGINT NOT NULL REFERENCES categories (id),
    price BIGINT NOT NULL,
    cost BIGINT NOT NULL,
    vat BIGINT NOT NULL DEFAULT 1,
    weight_grams BIGINT NOT NULL DEFAULT 0,
    barcode TEXT NOT NULL DEFAULT '',
    unit_id BIGINT NOT NULL DEFAULT 0,
    variants TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL,
    created_by BIGINT NOT NULL DEFAULT 0,
    updated_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, code)
);
CREATE INDEX products_store ON products (store_id, id);

CREATE TABLE skus (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    cost BIGINT NOT NULL,
    price BIGINT NOT NULL,
    safety_stock BIGINT NOT NULL DEFAULT 0,
    barcode TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    option1 TEXT NOT NULL DEFAULT '',
    option2 TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, code)
);
CREATE INDEX skus_product ON skus (product_id, id);

-- The inventory view, kept current from wms.stock.moved events.
CREATE TABLE inventory (
    store_id BIGINT NOT NULL,
    sku_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    on_hand BIGINT NOT NULL,
    reserved BIGINT NOT NULL,
    preorder BIGINT NOT NULL,
    movement_id BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (sku_id, warehouse_id)
);
CREATE INDEX inventory_store ON inventory (store_id, sku_id);
