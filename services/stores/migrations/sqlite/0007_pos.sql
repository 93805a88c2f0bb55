-- Point of sale: branches (five-digit numbers, the main branch 00000), POS units at a branch,
-- cashiers (store members at a till) and sellers. The warehouse ids are wms's; 0 on a POS unit
-- means it deducts from its branch's warehouse.
CREATE TABLE branches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    branch_no TEXT NOT NULL,
    name TEXT NOT NULL,
    tax_id TEXT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    address TEXT NOT NULL,
    sub_district TEXT NOT NULL,
    district TEXT NOT NULL,
    state_province TEXT NOT NULL,
    postcode TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, branch_no)
);

CREATE TABLE pos_units (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    pos_no TEXT NOT NULL,
    pos_no_key TEXT NOT NULL,
    branch_id BIGINT NOT NULL REFERENCES branches (id),
    warehouse_id BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, pos_no_key)
);
CREATE INDEX pos_units_branch ON pos_units (branch_id);

CREATE TABLE cashiers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    user_id BIGINT NOT NULL REFERENCES users (id),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    branch_id BIGINT NOT NULL REFERENCES branches (id),
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, user_id)
);
CREATE INDEX cashiers_branch ON cashiers (branch_id);

CREATE TABLE sellers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    branch_id BIGINT NOT NULL REFERENCES branches (id),
    tel TEXT NOT NULL DEFAULT '',
    code TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    created_by BIGINT NOT NULL,
    updated_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (store_id, email)
);
CREATE INDEX sellers_branch ON sellers (branch_id);
