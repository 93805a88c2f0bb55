//! SQL of the catalog and its inventory view: one code path for SQLite and PostgreSQL.

use bo_kit::Code;
use std::collections::HashMap;

use bo_kit::db::{Db, Tx};
use bo_kit::error::is_unique_violation;
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::{Error, Result};
use bo_proto::events::v1 as ev;
use bo_proto::products::v1::ProductStatus;
use bo_proto::Wire;
use sqlx::FromRow;

use crate::domain::{self, Product, Sku, Status};
use crate::search;

mod photos;
mod skus;

/// A photo of a product (or its size chart).
#[derive(Debug, Clone, FromRow)]
pub struct PhotoRow {
    pub id: i64,
    pub product_id: i64,
    pub name: String,
    pub kind: String,
    pub position: i64,
    pub width: i64,
    pub height: i64,
}

/// Photo kinds.
pub const PHOTO: &str = "photo";
/// The size-chart image.
pub const SIZE_CHART: &str = "size_chart";

/// A product's row.
#[derive(Debug, Clone, FromRow)]
pub struct ProductRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub name_en: String,
    pub short_description: String,
    pub description: String,
    pub code: String,
    pub hs_code: String,
    pub brand: String,
    tags: String,
    pub category_id: i64,
    pub price: i64,
    pub cost: i64,
    pub vat: i64,
    pub weight_grams: i64,
    pub barcode: String,
    pub unit_id: i64,
    variants: String,
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
}

impl ProductRow {
    /// Its tags.
    pub fn tags(&self) -> Vec<String> {
        serde_json::from_str(&self.tags).unwrap_or_default()
    }

    /// Its variant dimensions.
    pub fn variants(&self) -> Vec<domain::Variant> {
        variants_of(&self.variants)
    }
}

/// Variant dimensions as kept (`[[name, [options]], ...]`).
fn variants_of(json: &str) -> Vec<domain::Variant> {
    serde_json::from_str::<Vec<(String, Vec<String>)>>(json)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, options)| domain::Variant { name, options })
        .collect()
}

/// A SKU's row.
#[derive(Debug, Clone, FromRow)]
pub struct SkuRow {
    pub id: i64,
    pub product_id: i64,
    pub code: String,
    pub cost: i64,
    pub price: i64,
    pub safety_stock: i64,
    pub barcode: String,
    pub status: String,
    pub option1: String,
    pub option2: String,
}

/// A SKU's stock in one warehouse, as wms last told it.
#[derive(Debug, Clone, FromRow)]
pub struct InventoryRow {
    pub sku_id: i64,
    pub warehouse_id: i64,
    pub on_hand: i64,
    pub reserved: i64,
    pub preorder: i64,
}

/// A SKU with its stock per warehouse.
#[derive(Debug, Clone)]
pub struct SkuRecord {
    pub row: SkuRow,
    pub inventories: Vec<InventoryRow>,
}

/// A product with its SKUs and photos (the size chart among them, by its kind).
#[derive(Debug, Clone)]
pub struct ProductRecord {
    pub row: ProductRow,
    pub skus: Vec<SkuRecord>,
    pub photos: Vec<PhotoRow>,
}

impl ProductRecord {
    /// What it is found by ([`search::search_text`]).
    fn search_text(&self) -> String {
        let r = &self.row;
        let own = [r.name.as_str(), &r.name_en, &r.code, &r.barcode];
        search::search_text(own.into_iter().chain(self.skus.iter().flat_map(|s| [s.row.code.as_str(), &s.row.barcode])))
    }
}

/// A category.
#[derive(Debug, Clone, FromRow)]
pub struct CategoryRow {
    pub id: i64,
    pub name: String,
    pub name_en: String,
}

/// A SKU with what an order line keeps of its product.
#[derive(Debug, Clone, FromRow)]
pub struct SkuDescribed {
    #[sqlx(flatten)]
    pub sku: SkuRow,
    pub product_name: String,
    pub product_code: String,
    pub hs_code: String,
    pub weight_grams: i64,
    variants: String,
    pub product_status: String,
    pub vat: i64,
}

impl SkuDescribed {
    /// The names of the product's variant dimensions.
    pub fn variant_names(&self) -> Vec<String> {
        variants_of(&self.variants).into_iter().map(|v| v.name).collect()
    }
}

/// A line of the stock overview: a SKU, its product's name and its stock in one warehouse.
#[derive(Debug, Clone)]
pub struct SkuStockRow {
    pub sku: SkuRow,
    pub product_name: String,
    pub inventory: InventoryRow,
}

/// The catalog's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summaries {
    pub products: i64,
    pub active: i64,
    pub skus: i64,
    pub out_of_stock: i64,
    pub below_safety_stock: i64,
}

const PRODUCT_COLUMNS: &str =
    "id, store_id, name, name_en, short_description, description, code, hs_code, brand, tags, \
    category_id, price, cost, vat, weight_grams, barcode, unit_id, variants, status, created_at, updated_at";
const SKU_COLUMNS: &str = "id, product_id, code, cost, price, safety_stock, barcode, status, option1, option2";

/// Who acts, where (the kit's, one for every service).
pub use bo_kit::grpc::Actor;

/// The catalog's storage.
#[derive(Clone)]
pub struct Repo {
    db: Db,
}

fn code_conflict(e: sqlx::Error) -> Error {
    if is_unique_violation(&e) {
        Error::conflict(Code::CodeTaken)
    } else {
        e.into()
    }
}

impl Repo {
    /// Storage on `db`.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Indexes for search the products saved before search was indexed (their search text
    /// is empty, as no product's can be: name and code are required). Returns how many.
    pub async fn index_unsearchable(&self) -> Result<usize> {
        let mut done = 0;
        loop {
            let batch: Vec<(i64, i64)> =
                sqlx::query_as("SELECT store_id, id FROM products WHERE search_text = '' ORDER BY id LIMIT 200")
                    .fetch_all(self.db.pool())
                    .await?;
            if batch.is_empty() {
                return Ok(done);
            }
            let mut tx = self.db.begin().await?;
            for (store_id, id) in batch {
                let p = fetch(&mut tx, store_id, id).await?;
                search::index(&mut tx, store_id, id, &p.search_text(), "").await?;
                done += 1;
            }
            tx.commit().await?;
        }
    }

    /// Tells the other services of every product once (`products.product.saved`), so a
    /// registry that starts after products were made (wms's SKU registry) learns of them.
    /// Runs at start; a row in `backfills` keeps it from running twice.
    pub async fn announce_all_once(&self, name: &str) -> Result<usize> {
        let mut tx = self.db.begin().await?;
        let claimed =
            sqlx::query("INSERT INTO backfills (name, done_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
        if claimed.rows_affected() == 0 {
            return Ok(0);
        }
        let ids: Vec<(i64, i64)> =
            sqlx::query_as("SELECT store_id, id FROM products ORDER BY id").fetch_all(&mut *tx).await?;
        for (store_id, id) in &ids {
            let p = fetch(&mut tx, *store_id, *id).await?;
            outbox::enqueue(&mut tx, *store_id, 0, &saved(&p)).await?;
        }
        tx.commit().await?;
        Ok(ids.len())
    }

    /// The kept counts of a store next to a recount of the rows (they must be equal): the
    /// invariant tests check after they act.
    pub async fn counts_and_recount(&self, store_id: i64) -> Result<((i64, i64, i64, i64), (i64, i64, i64, i64))> {
        let kept: (i64, i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM product_counts WHERE store_id = $1), \
             COALESCE((SELECT skus FROM sku_counts WHERE store_id = $1), 0), \
             COALESCE((SELECT stocked FROM sku_counts WHERE store_id = $1), 0), \
             COALESCE((SELECT held FROM sku_counts WHERE store_id = $1), 0)",
        )
        .bind(store_id)
        .fetch_one(self.db.pool())
        .await?;
        let actual: (i64, i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM products WHERE store_id = $1), \
             (SELECT COUNT(*) FROM skus WHERE store_id = $1), \
             (SELECT COUNT(DISTINCT i.sku_id) FROM inventory i JOIN skus s ON s.id = i.sku_id WHERE s.store_id = $1), \
             (SELECT COUNT(*) FROM inventory i JOIN skus s ON s.id = i.sku_id WHERE s.store_id = $1)",
        )
        .bind(store_id)
        .fetch_one(self.db.pool())
        .await?;
        Ok((kept, actual))
    }

    /// Every category, in order.
    pub async fn categories(&self) -> Result<Vec<CategoryRow>> {
        let rows: Vec<(i64, String, String)> =
            sqlx::query_as("SELECT id, name, name_en FROM categories ORDER BY position, id")
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows.into_iter().map(|(id, name, name_en)| CategoryRow { id, name, name_en }).collect())
    }

    /// Products matching the filters, newest first, paged in the database, with SKUs and stock.
    pub async fn list(
        &self,
        store_id: i64,
        search: &str,
        category_id: i64,
        status: &str,
        page: PageRequest,
    ) -> Result<(Vec<ProductRecord>, Page)> {
        let term = search::normalize(search);
        let Some(grams) = search::rarest_first(&self.db, store_id, &term).await? else {
            return Ok((Vec::new(), page.resolve(0)));
        };
        // Only the filters asked for appear, so the usual list (no filter) walks the
        // (store_id, id) index alone; a filtered one walks its own index.
        let mut binds: Vec<Bind> = vec![Bind::Int(store_id)];
        let mut filter = String::from("p.store_id = $1");
        if category_id > 0 {
            binds.push(Bind::Int(category_id));
            filter.push_str(&format!(" AND p.category_id = ${}", binds.len()));
        }
        if !status.is_empty() {
            binds.push(Bind::Text(status.to_string()));
            filter.push_str(&format!(" AND p.status = ${}", binds.len()));
        }
        let found = search::Condition::new(&term, &grams, binds.len() + 1, |like| {
            format!("p.search_text LIKE {like} ESCAPE '\\'")
        });
        if !term.is_empty() {
            filter.push_str(&format!(" AND {}", found.sql));
            binds.extend(found.binds.iter().cloned().map(Bind::Text));
        }
        let total: i64 = if term.is_empty() {
            // The kept counts answer without touching the products.
            sqlx::query_scalar(
                "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM product_counts WHERE store_id = $1 \
                 AND ($2 = 0 OR category_id = $2) AND ($3 = '' OR status = $3)",
            )
            .bind(store_id)
            .bind(category_id)
            .bind(status)
            .fetch_one(self.db.pool())
            .await?
        } else {
            let sql = format!("SELECT COUNT(*) FROM products p WHERE {filter}");
            bind_all(sqlx::query_scalar(&sql), &binds).fetch_one(self.db.pool()).await?
        };
        let page = page.resolve(total);
        if page.fetch == 0 || total == 0 {
            return Ok((Vec::new(), page));
        }
        // The page's ids first (an index walk, however deep the page), then its rows by id.
        let at = binds.len() + 1;
        let sql = format!(
            "SELECT {PRODUCT_COLUMNS} FROM products WHERE store_id = $1 AND id IN \
             (SELECT p.id FROM products p WHERE {filter} ORDER BY p.id DESC LIMIT ${at} OFFSET ${}) ORDER BY id DESC",
            at + 1
        );
        let mut q = sqlx::query_as::<_, ProductRow>(&sql);
        for b in &binds {
            q = match b {
                Bind::Int(v) => q.bind(*v),
                Bind::Text(v) => q.bind(v.as_str()),
            };
        }
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?;
        let mut conn = self.db.pool().acquire().await?;
        let products = with_skus(&mut conn, store_id, rows).await?;
        Ok((products, page))
    }

    /// Number of products (of a status, or all).
    pub async fn count(&self, store_id: i64, status: &str) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM product_counts WHERE store_id = $1 \
             AND ($2 = '' OR status = $2)",
        )
        .bind(store_id)
        .bind(status)
        .fetch_one(self.db.pool())
        .await?)
    }

    /// One product with SKUs and stock.
    pub async fn get(&self, store_id: i64, id: i64) -> Result<ProductRecord> {
        let mut conn = self.db.pool().acquire().await?;
        fetch(&mut conn, store_id, id).await
    }

    /// Creates a validated product.
    pub async fn create(&self, who: Actor, p: &Product) -> Result<ProductRecord> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO products (store_id, name, name_en, short_description, description, code, hs_code, brand, tags, \
             category_id, price, cost, vat, weight_grams, barcode, unit_id, variants, status, created_by, updated_by, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
             $18, $19, $19, $20, $20) RETURNING id",
        )
        .bind(who.store_id)
        .bind(&p.name)
        .bind(&p.name_en)
        .bind(&p.short_description)
        .bind(&p.description)
        .bind(&p.code)
        .bind(&p.hs_code)
        .bind(&p.brand)
        .bind(json_tags(p))
        .bind(p.category_id)
        .bind(p.price)
        .bind(p.cost)
        .bind(i64::from(p.vat))
        .bind(p.weight_grams)
        .bind(&p.barcode)
        .bind(p.unit_id)
        .bind(json_variants(p))
        .bind(p.status.word())
        .bind(who.user_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(code_conflict)?;
        for s in &p.skus {
            insert_sku(&mut tx, who.store_id, id, s, now).await?;
        }
        let saved = fetch(&mut tx, who.store_id, id).await?;
        search::index(&mut tx, who.store_id, id, &saved.search_text(), "").await?;
        saved_event(&mut tx, who, &saved).await?;
        // The store's counters last: on PostgreSQL their rows are locked until the commit,
        // so saves of one store queue on them for as short a time as possible.
        count_product(&mut tx, who.store_id, p.status.word(), p.category_id, 1).await?;
        count_skus(&mut tx, who.store_id, p.skus.len() as i64, 0, 0).await?;
        tx.commit().await?;
        Ok(saved)
    }

    /// Replaces a validated product; SKUs are matched by id, new ones added, missing ones
    /// removed unless they hold stock.
    pub async fn update(&self, who: Actor, p: &Product) -> Result<ProductRecord> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let current = fetch(&mut tx, who.store_id, p.id).await?;
        sqlx::query(
            "UPDATE products SET name = $1, name_en = $2, short_description = $3, description = $4, code = $5, \
             hs_code = $6, brand = $7, tags = $8, category_id = $9, price = $10, cost = $11, vat = $12, \
             weight_grams = $13, barcode = $14, unit_id = $15, variants = $16, status = $17, updated_by = $18, \
             updated_at = $19 WHERE store_id = $20 AND id = $21",
        )
        .bind(&p.name)
        .bind(&p.name_en)
        .bind(&p.short_description)
        .bind(&p.description)
        .bind(&p.code)
        .bind(&p.hs_code)
        .bind(&p.brand)
        .bind(json_tags(p))
        .bind(p.category_id)
        .bind(p.price)
        .bind(p.cost)
        .bind(i64::from(p.vat))
        .bind(p.weight_grams)
        .bind(&p.barcode)
        .bind(p.unit_id)
        .bind(json_variants(p))
        .bind(p.status.word())
        .bind(who.user_id)
        .bind(now)
        .bind(who.store_id)
        .bind(p.id)
        .execute(&mut *tx)
        .await
        .map_err(code_conflict)?;
        let keep: Vec<i64> = p.skus.iter().map(|s| s.id).filter(|id| *id > 0).collect();
        if (current.row.status.as_str(), current.row.category_id) != (p.status.word(), p.category_id) {
            count_product(&mut tx, who.store_id, &current.row.status, current.row.category_id, -1).await?;
            count_product(&mut tx, who.store_id, p.status.word(), p.category_id, 1).await?;
        }
        // The caller has asked the stock ledger that removed SKUs hold no stock.
        for old in &current.skus {
            if !keep.contains(&old.row.id) {
                delete_sku(&mut tx, who.store_id, old.row.id).await?;
            }
        }
        let mut added = 0;
        for s in &p.skus {
            if s.id > 0 {
                if !current.skus.iter().any(|c| c.row.id == s.id) {
                    return Err(Error::not_found(Code::SkuNotFound));
                }
                sqlx::query(
                    "UPDATE skus SET code = $1, cost = $2, price = $3, safety_stock = $4, barcode = $5, status = $6, \
                     option1 = $7, option2 = $8, updated_at = $9 WHERE id = $10",
                )
                .bind(&s.code)
                .bind(s.cost)
                .bind(s.price)
                .bind(s.safety_stock)
                .bind(&s.barcode)
                .bind(s.status.word())
                .bind(&s.option1)
                .bind(&s.option2)
                .bind(now)
                .bind(s.id)
                .execute(&mut *tx)
                .await
                .map_err(code_conflict)?;
            } else {
                insert_sku(&mut tx, who.store_id, p.id, s, now).await?;
                added += 1;
            }
        }
        let saved = fetch(&mut tx, who.store_id, p.id).await?;
        let previous = search::stored_text(&mut tx, who.store_id, p.id).await?;
        search::index(&mut tx, who.store_id, p.id, &saved.search_text(), &previous).await?;
        saved_event(&mut tx, who, &saved).await?;
        if added > 0 {
            count_skus(&mut tx, who.store_id, added, 0, 0).await?;
        }
        tx.commit().await?;
        Ok(saved)
    }

    /// Sets the status of products; returns how many changed.
    pub async fn set_status(&self, who: Actor, ids: &[i64], status: Status) -> Result<Vec<i64>> {
        let status = status.word();
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let mut changed = Vec::new();
        for id in ids {
            let before: Option<(String, i64)> =
                sqlx::query_as("SELECT status, category_id FROM products WHERE store_id = $1 AND id = $2")
                    .bind(who.store_id)
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            if let Some((old, category)) = &before {
                if old != status {
                    count_product(&mut tx, who.store_id, old, *category, -1).await?;
                    count_product(&mut tx, who.store_id, status, *category, 1).await?;
                }
            }
            let r = sqlx::query(
                "UPDATE products SET status = $1, updated_by = $2, updated_at = $3 WHERE store_id = $4 AND id = $5",
            )
            .bind(status)
            .bind(who.user_id)
            .bind(now)
            .bind(who.store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if r.rows_affected() > 0 {
                changed.push(*id);
                let saved = fetch(&mut tx, who.store_id, *id).await?;
                saved_event(&mut tx, who, &saved).await?;
            }
        }
        tx.commit().await?;
        Ok(changed)
    }

    /// The SKUs of each of `ids` (products of this store; one of another store or none lists
    /// none).
    pub async fn sku_ids_by_product(&self, store_id: i64, ids: &[i64]) -> Result<Vec<(i64, Vec<i64>)>> {
        let mut out = Vec::new();
        for id in ids {
            let skus: Vec<i64> = sqlx::query_scalar(
                "SELECT s.id FROM products p JOIN skus s ON s.product_id = p.id \
                     WHERE p.store_id = $1 AND p.id = $2 ORDER BY s.id",
            )
            .bind(store_id)
            .bind(id)
            .fetch_all(self.db.pool())
            .await?;
            out.push((*id, skus));
        }
        Ok(out)
    }

    /// Deletes products (the caller has asked the stock ledger that they hold no stock).
    /// Returns how many went and the names of their photo files.
    pub async fn delete(&self, who: Actor, ids: &[i64]) -> Result<(Vec<i64>, Vec<String>)> {
        let mut tx = self.db.begin().await?;
        let mut deleted = Vec::new();
        let mut files = Vec::new();
        for id in ids {
            let Ok(p) = fetch(&mut tx, who.store_id, *id).await else { continue };
            files.extend(p.photos.iter().map(|ph| ph.name.clone()));
            search::forget(&mut tx, who.store_id, *id).await?;
            sqlx::query("DELETE FROM product_photos WHERE product_id = $1").bind(id).execute(&mut *tx).await?;
            for sku in &p.skus {
                delete_sku(&mut tx, who.store_id, sku.row.id).await?;
            }
            count_product(&mut tx, who.store_id, &p.row.status, p.row.category_id, -1).await?;
            sqlx::query("DELETE FROM products WHERE store_id = $1 AND id = $2")
                .bind(who.store_id)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            deleted.push(*id);
        }
        if !deleted.is_empty() {
            outbox::enqueue(&mut tx, who.store_id, who.user_id, &ev::ProductsDeleted { product_ids: deleted.clone() })
                .await?;
        }
        tx.commit().await?;
        Ok((deleted, files))
    }

    /// Sets every SKU's safety stock; returns how many changed.
    pub async fn update_all_safety_stock(&self, store_id: i64, amount: i64) -> Result<i64> {
        let r = sqlx::query("UPDATE skus SET safety_stock = $1, updated_at = $2 WHERE store_id = $3")
            .bind(amount)
            .bind(now_ms())
            .bind(store_id)
            .execute(self.db.pool())
            .await?;
        Ok(r.rows_affected() as i64)
    }

    /// Gives every SKU of the store `amount` as its safety stock, in the caller's
    /// transaction (the store's setting, from its event).
    pub async fn apply_safety_stock(tx: &mut Tx, store_id: i64, amount: i64) -> Result<i64> {
        let r = sqlx::query("UPDATE skus SET safety_stock = $1, updated_at = $2 WHERE store_id = $3")
            .bind(amount)
            .bind(now_ms())
            .bind(store_id)
            .execute(&mut **tx)
            .await?;
        Ok(r.rows_affected() as i64)
    }

    /// Counts for the catalog's summary.
    pub async fn summaries(&self, store_id: i64) -> Result<Summaries> {
        let (products, active): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END), 0) FROM products WHERE store_id = $1",
        )
        .bind(store_id)
        .fetch_one(self.db.pool())
        .await?;
        let (skus, out_of_stock, below): (i64, i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), \
             COALESCE(SUM(CASE WHEN COALESCE(a.available, 0) <= 0 THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN COALESCE(a.available, 0) <= s.safety_stock THEN 1 ELSE 0 END), 0) \
             FROM skus s LEFT JOIN (SELECT sku_id, SUM(on_hand - reserved) AS available FROM inventory \
             WHERE store_id = $1 GROUP BY sku_id) a ON a.sku_id = s.id WHERE s.store_id = $1",
        )
        .bind(store_id)
        .fetch_one(self.db.pool())
        .await?;
        Ok(Summaries { products, active, skus, out_of_stock, below_safety_stock: below })
    }
}

fn json_tags(p: &Product) -> String {
    serde_json::to_string(&p.tags).unwrap_or_else(|_| "[]".into())
}

fn json_variants(p: &Product) -> String {
    let pairs: Vec<(&String, &Vec<String>)> = p.variants.iter().map(|v| (&v.name, &v.options)).collect();
    serde_json::to_string(&pairs).unwrap_or_else(|_| "[]".into())
}

/// A value bound to a statement built at run time.
#[derive(Debug, Clone)]
enum Bind {
    Int(i64),
    Text(String),
}

fn bind_all<'q, O>(
    mut q: sqlx::query::QueryScalar<'q, sqlx::Any, O, sqlx::any::AnyArguments<'q>>,
    binds: &'q [Bind],
) -> sqlx::query::QueryScalar<'q, sqlx::Any, O, sqlx::any::AnyArguments<'q>> {
    for b in binds {
        q = match b {
            Bind::Int(v) => q.bind(*v),
            Bind::Text(v) => q.bind(v.as_str()),
        };
    }
    q
}

/// Adds `delta` to the store's products of `status` in `category_id`.
async fn count_product(tx: &mut Tx, store_id: i64, status: &str, category_id: i64, delta: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO product_counts (store_id, status, category_id, n) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (store_id, status, category_id) DO UPDATE SET n = product_counts.n + excluded.n",
    )
    .bind(store_id)
    .bind(status)
    .bind(category_id)
    .bind(delta)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Adds to the store's SKU counters: SKUs, SKUs with stock rows, and stock rows.
async fn count_skus(tx: &mut Tx, store_id: i64, skus: i64, stocked: i64, held: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO sku_counts (store_id, skus, stocked, held) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (store_id) DO UPDATE SET skus = sku_counts.skus + excluded.skus, \
         stocked = sku_counts.stocked + excluded.stocked, held = sku_counts.held + excluded.held",
    )
    .bind(store_id)
    .bind(skus)
    .bind(stocked)
    .bind(held)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Removes a SKU with its rows of the inventory view.
async fn delete_sku(tx: &mut Tx, store_id: i64, sku_id: i64) -> Result<()> {
    let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM inventory WHERE sku_id = $1")
        .bind(sku_id)
        .fetch_one(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM inventory WHERE sku_id = $1").bind(sku_id).execute(&mut **tx).await?;
    let gone = sqlx::query("DELETE FROM skus WHERE store_id = $1 AND id = $2")
        .bind(store_id)
        .bind(sku_id)
        .execute(&mut **tx)
        .await?;
    if gone.rows_affected() > 0 {
        count_skus(tx, store_id, -1, -i64::from(held > 0), -held).await?;
    }
    Ok(())
}

/// Inserts a SKU; the caller adds it to the store's counters (last in its transaction).
async fn insert_sku(tx: &mut Tx, store_id: i64, product_id: i64, s: &Sku, now: i64) -> Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO skus (store_id, product_id, code, cost, price, safety_stock, barcode, status, option1, option2, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
    )
    .bind(store_id)
    .bind(product_id)
    .bind(&s.code)
    .bind(s.cost)
    .bind(s.price)
    .bind(s.safety_stock)
    .bind(&s.barcode)
    .bind(s.status.word())
    .bind(&s.option1)
    .bind(&s.option2)
    .bind(now)
    .fetch_one(&mut **tx)
    .await
    .map_err(code_conflict)
}

async fn saved_event(tx: &mut Tx, who: Actor, p: &ProductRecord) -> Result<()> {
    outbox::enqueue(tx, who.store_id, who.user_id, &saved(p)).await?;
    Ok(())
}

/// The `products.product.saved` event of a product.
fn saved(p: &ProductRecord) -> ev::ProductSaved {
    ev::ProductSaved {
        product_id: p.row.id,
        code: p.row.code.clone(),
        name: p.row.name.clone(),
        status: ProductStatus::number(&p.row.status),
        skus: p
            .skus
            .iter()
            .map(|s| ev::SkuSnapshot {
                id: s.row.id,
                code: s.row.code.clone(),
                barcode: s.row.barcode.clone(),
                status: ProductStatus::number(&s.row.status),
                option1: s.row.option1.clone(),
                option2: s.row.option2.clone(),
                price: s.row.price,
                cost: s.row.cost,
            })
            .collect(),
        version: p.row.updated_at,
    }
}

async fn fetch(conn: &mut sqlx::AnyConnection, store_id: i64, id: i64) -> Result<ProductRecord> {
    let row = sqlx::query_as::<_, ProductRow>(&format!(
        "SELECT {PRODUCT_COLUMNS} FROM products WHERE store_id = $1 AND id = $2"
    ))
    .bind(store_id)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found(Code::ProductNotFound))?;
    Ok(with_skus(conn, store_id, vec![row]).await?.remove(0))
}

/// Loads the SKUs of `rows` and their stock in two queries.
async fn with_skus(conn: &mut sqlx::AnyConnection, store_id: i64, rows: Vec<ProductRow>) -> Result<Vec<ProductRecord>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.to_string()).collect();
    // Ids are integers from the database, so they can be inlined safely.
    // SKUs with their stock in one statement (a SKU never stocked comes once, without). The
    // products are the store's, so their SKUs are too: filtering on the store as well would
    // let SQLite walk every SKU of the store by (store_id, id) instead of the products' few.
    #[derive(FromRow)]
    struct SkuStock {
        #[sqlx(flatten)]
        sku: SkuRow,
        warehouse_id: Option<i64>,
        on_hand: Option<i64>,
        reserved: Option<i64>,
        preorder: Option<i64>,
    }
    let rows_of = sqlx::query_as::<_, SkuStock>(&format!(
        "SELECT s.id, s.product_id, s.code, s.cost, s.price, s.safety_stock, s.barcode, s.status, s.option1, \
         s.option2, i.warehouse_id, i.on_hand, i.reserved, i.preorder FROM skus s \
         LEFT JOIN inventory i ON i.sku_id = s.id \
         WHERE s.product_id IN ({}) ORDER BY s.product_id, s.id, i.warehouse_id",
        ids.join(", ")
    ))
    .fetch_all(&mut *conn)
    .await?;
    let mut by_product: HashMap<i64, Vec<SkuRecord>> = HashMap::new();
    for r in rows_of {
        let skus = by_product.entry(r.sku.product_id).or_default();
        if skus.last().map(|s| s.row.id) != Some(r.sku.id) {
            skus.push(SkuRecord { row: r.sku.clone(), inventories: Vec::new() });
        }
        if let (Some(warehouse_id), Some(sku)) = (r.warehouse_id, skus.last_mut()) {
            sku.inventories.push(InventoryRow {
                sku_id: r.sku.id,
                warehouse_id,
                on_hand: r.on_hand.unwrap_or(0),
                reserved: r.reserved.unwrap_or(0),
                preorder: r.preorder.unwrap_or(0),
            });
        }
    }
    let photos = sqlx::query_as::<_, PhotoRow>(&format!(
        "SELECT id, product_id, name, kind, position, width, height FROM product_photos WHERE store_id = $1 \
         AND product_id IN ({}) ORDER BY product_id, position, id",
        ids.join(", ")
    ))
    .bind(store_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut photos_of: HashMap<i64, Vec<PhotoRow>> = HashMap::new();
    for p in photos {
        photos_of.entry(p.product_id).or_default().push(p);
    }
    Ok(rows
        .into_iter()
        .map(|row| ProductRecord {
            skus: by_product.remove(&row.id).unwrap_or_default(),
            photos: photos_of.remove(&row.id).unwrap_or_default(),
            row,
        })
        .collect())
}

/// How SKUs are asked for.
#[derive(Clone, Copy)]
enum SkuKeys<'a> {
    Ids(&'a [i64]),
    Codes(&'a [String]),
}
