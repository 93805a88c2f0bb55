//! SQL of a shop's listings: every variation as the marketplace last showed it (imports and
//! the shop's orders put them here), what it is linked to (one of our SKUs, a bundle of
//! several, or nothing yet), searched and paged in the database.

use std::collections::HashMap;

use bo_kit::db::{changed, Tx};
use bo_kit::paging::PageRequest;
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::Repo;
use crate::adapters::{ListingState, MarketListing};
use crate::domain::bundle::Part;

/// A listing as kept.
#[derive(Debug, Clone, FromRow)]
pub struct ListingRow {
    pub id: i64,
    pub store_id: i64,
    pub store_channel_id: i64,
    pub item_id: String,
    pub model_id: String,
    pub seller_sku: String,
    /// The SKU it is (0: none, or a bundle).
    pub sku_id: i64,
    /// Who linked it ([`linked_by`]; empty while it waits for a SKU).
    pub linked_by: String,
    pub name: String,
    /// Its variation's options, JSON `[[name, value], …]`.
    pub options: String,
    pub price: i64,
    pub platform_stock: i64,
    pub image_url: String,
    pub state: String,
    pub listed_at: i64,
    pub seen_at: i64,
    /// 1 when it is a bundle of the SKUs of `listing_parts`.
    pub bundle: i64,
    /// The quantity last computed for it (-1: to be pushed whatever it comes to).
    pub wanted: i64,
    /// What the marketplace last took (-1: never).
    pub sent: i64,
    pub sent_at: i64,
    pub due_at: i64,
    pub attempts: i64,
    pub last_answer: String,
    pub changes: i64,
    pub updated_at: i64,
    /// When its stock was last read back from the marketplace (0: never).
    pub stock_checked_at: i64,
}

impl ListingRow {
    /// True when it is linked: to one SKU or as a bundle.
    pub fn is_linked(&self) -> bool {
        self.sku_id > 0 || self.bundle != 0
    }

    /// Its variation's options.
    pub fn options(&self) -> Vec<(String, String)> {
        serde_json::from_str(&self.options).unwrap_or_default()
    }

    /// True when the marketplace shows another quantity than the one it last took (what
    /// [`STOCK_DIFFERS`] finds in SQL).
    pub fn stock_differs(&self) -> bool {
        self.is_linked()
            && self.state != "deleted"
            && self.sent >= 0
            && self.platform_stock >= 0
            && self.platform_stock != self.sent
    }

    /// The marketplace's state of it.
    pub fn state(&self) -> ListingState {
        ListingState::parse(&self.state).unwrap_or(ListingState::Active)
    }
}

pub(crate) const LISTING_COLUMNS: &str = "id, store_id, store_channel_id, item_id, model_id, seller_sku, sku_id, \
    linked_by, name, options, price, platform_stock, image_url, state, listed_at, seen_at, bundle, wanted, sent, \
    sent_at, due_at, attempts, last_answer, changes, updated_at, stock_checked_at";

/// The listings whose marketplace stock is not what the marketplace last took (as
/// [`ListingRow::stock_differs`] says of one).
pub(crate) const STOCK_DIFFERS: &str = "(sku_id > 0 OR bundle = 1) AND state <> 'deleted' AND sent >= 0 \
    AND platform_stock >= 0 AND platform_stock <> sent";

/// Who linked a listing.
pub mod linked_by {
    /// Learnt from an order whose line's seller SKU is our SKU's code.
    pub const ORDER: &str = "order";
    /// Chosen by a person (never replaced by an order, an import or an automatic link).
    pub const PERSON: &str = "person";
    /// Linked by seller SKU or name when a person asked for it.
    pub const AUTO: &str = "auto";
    /// Linked (or made) by an import.
    pub const IMPORT: &str = "import";
    /// Unlinked by a person: it waits for a person's link, never an automatic one.
    pub const UNLINKED: &str = "unlinked";
    /// Links nothing replaces but a person.
    pub const KEPT: [&str; 2] = [PERSON, UNLINKED];
}

/// A listing an order sold as one of our SKUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learnt {
    pub item_id: String,
    pub model_id: String,
    pub seller_sku: String,
    pub sku_id: i64,
}

/// What a listing of an order stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Linked {
    /// One of our SKUs.
    Sku(i64),
    /// A set of ours.
    Bundle(Vec<Part>),
}

/// What a list of listings is narrowed to.
#[derive(Debug, Clone, Default)]
pub struct ListingFilter {
    /// Linked ones only (`Some(true)`) or waiting ones only (`Some(false)`).
    pub linked: Option<bool>,
    /// One marketplace state (`active`, `inactive`, `deleted`).
    pub state: Option<String>,
    /// Words of its name, seller SKU or ids.
    pub search: String,
    /// Linked to this SKU (or to a bundle holding it).
    pub sku_id: i64,
    /// Only those whose marketplace stock differs from what it last took.
    pub stock_differs: bool,
}

/// What a listing's text search looks in, lower-cased.
pub fn search_text(
    name: &str,
    seller_sku: &str,
    item_id: &str,
    model_id: &str,
    options: &[(String, String)],
) -> String {
    let opts: Vec<&str> = options.iter().map(|(_, v)| v.as_str()).collect();
    format!("{name} {} {seller_sku} {item_id} {model_id}", opts.join(" ")).to_lowercase()
}

/// A new listing row (`$1` store, `$2` shop, `$3` item, `$4` variation, `$5` seller SKU, `$6`
/// SKU, `$7` who linked it, `$8` now), due at once when it is linked; what to do when the
/// listing is kept already follows.
const NEW_LISTING: &str = "INSERT INTO listings (store_id, store_channel_id, item_id, model_id, seller_sku, sku_id, \
    linked_by, wanted, sent, sent_at, due_at, attempts, last_answer, created_at, updated_at, search, changes) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, -1, -1, 0, CASE WHEN $6 > 0 THEN $8 ELSE 0 END, 0, '', $8, $8, \
    lower($5 || ' ' || $3 || ' ' || $4), 1) ON CONFLICT (store_channel_id, item_id, model_id)";

/// What marks a linked listing due to be pushed whatever its quantity comes to (`$1` now).
const DUE_NOW: &str = "wanted = -1, changes = changes + 1, due_at = CASE WHEN due_at = 0 THEN $1 ELSE due_at END";

impl Repo {
    /// Keeps what a page of an import saw of a shop's listings, as seen at `seen_at` (ms): new
    /// ones waiting for a SKU, known ones updated (a listing the marketplace deleted loses its
    /// link). The rows, in the order given.
    pub async fn save_listings(
        &self,
        store_id: i64,
        store_channel_id: i64,
        listings: &[MarketListing],
        seen_at: i64,
    ) -> Result<Vec<ListingRow>> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let mut out = Vec::with_capacity(listings.len());
        for l in listings {
            let options = serde_json::to_string(&l.options).unwrap_or_else(|_| "[]".into());
            let search = search_text(&l.name, &l.seller_sku, &l.item_id, &l.model_id, &l.options);
            let row: ListingRow = sqlx::query_as(&format!(
                "{NEW_LISTING} DO UPDATE SET seller_sku = excluded.seller_sku, updated_at = excluded.updated_at \
                 RETURNING {LISTING_COLUMNS}"
            ))
            .bind(store_id)
            .bind(store_channel_id)
            .bind(&l.item_id)
            .bind(&l.model_id)
            .bind(&l.seller_sku)
            .bind(0i64)
            .bind("")
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            let row: ListingRow = sqlx::query_as(&format!(
                "UPDATE listings SET name = $1, options = $2, price = $3, platform_stock = $4, image_url = $5, state = $6, \
                 listed_at = $7, seen_at = $8, search = $9 WHERE id = $10 RETURNING {LISTING_COLUMNS}"
            ))
            .bind(&l.name)
            .bind(&options)
            .bind(l.price_satang)
            .bind(l.stock)
            .bind(&l.image_url)
            .bind(l.state.as_str())
            .bind(l.updated_at_s)
            .bind(seen_at)
            .bind(&search)
            .bind(row.id)
            .fetch_one(&mut *tx)
            .await?;
            let row = if l.state == ListingState::Deleted && row.is_linked() {
                Self::drop_link(&mut tx, row.id, "").await?;
                Self::listing_in(&mut tx, row.id).await?
            } else {
                row
            };
            out.push(row);
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Marks deleted the listings of a shop a whole import did not see (seen before
    /// `seen_at`): the marketplace no longer lists them, and their links expire. How many.
    pub async fn expire_unseen(&self, store_channel_id: i64, seen_at: i64) -> Result<u64> {
        let mut tx = self.db.begin().await?;
        let ids: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM listings WHERE store_channel_id = $1 AND seen_at < $2 AND state <> 'deleted'",
        )
        .bind(store_channel_id)
        .bind(seen_at)
        .fetch_all(&mut *tx)
        .await?;
        for id in &ids {
            sqlx::query("UPDATE listings SET state = 'deleted', updated_at = $1 WHERE id = $2")
                .bind(now_ms())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            Self::drop_link(&mut tx, *id, "").await?;
        }
        tx.commit().await?;
        Ok(ids.len() as u64)
    }

    async fn listing_in(tx: &mut Tx, id: i64) -> Result<ListingRow> {
        Ok(sqlx::query_as(&format!("SELECT {LISTING_COLUMNS} FROM listings WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut **tx)
            .await?)
    }

    /// Takes a listing's link away (its parts too), marking who did (`''` for a link that
    /// expired, [`linked_by::UNLINKED`] for a person): nothing is pushed to it any more.
    async fn drop_link(tx: &mut Tx, id: i64, by: &str) -> Result<()> {
        sqlx::query(
            "UPDATE listings SET sku_id = 0, bundle = 0, linked_by = $1, due_at = 0, wanted = -1, updated_at = $2 WHERE id = $3",
        )
        .bind(by)
        .bind(now_ms())
        .bind(id)
        .execute(&mut **tx)
        .await?;
        sqlx::query("DELETE FROM listing_parts WHERE listing_id = $1").bind(id).execute(&mut **tx).await?;
        Ok(())
    }

    /// A listing of the store.
    pub async fn listing(&self, store_id: i64, id: i64) -> Result<Option<ListingRow>> {
        Ok(sqlx::query_as(&format!("SELECT {LISTING_COLUMNS} FROM listings WHERE id = $1 AND store_id = $2"))
            .bind(id)
            .bind(store_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// A shop's listings narrowed by `f`, those waiting for a SKU first, a page at a time;
    /// with how many there are in all.
    pub async fn listings(
        &self,
        store_id: i64,
        store_channel_id: i64,
        f: &ListingFilter,
        page: PageRequest,
    ) -> Result<(Vec<ListingRow>, bo_kit::paging::Page)> {
        let search = format!("%{}%", f.search.trim().to_lowercase());
        let linked = match f.linked {
            None => -1i64,
            Some(false) => 0,
            Some(true) => 1,
        };
        let state = f.state.clone().unwrap_or_default();
        let differs = if f.stock_differs { format!(" AND {STOCK_DIFFERS}") } else { String::new() };
        let filter = format!(
            "store_id = $1 AND store_channel_id = $2 \
            AND ($3 = -1 OR ($3 = 1 AND (sku_id > 0 OR bundle = 1)) OR ($3 = 0 AND sku_id = 0 AND bundle = 0)) \
            AND ($4 = '' OR state = $4) AND search LIKE $5 \
            AND ($6 = 0 OR sku_id = $6 OR id IN (SELECT listing_id FROM listing_parts WHERE store_id = $1 AND sku_id = $6)){differs}"
        );
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM listings WHERE {filter}"))
            .bind(store_id)
            .bind(store_channel_id)
            .bind(linked)
            .bind(&state)
            .bind(&search)
            .bind(f.sku_id)
            .fetch_one(self.db.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as(&format!(
            "SELECT {LISTING_COLUMNS} FROM listings WHERE {filter} \
             ORDER BY CASE WHEN sku_id = 0 AND bundle = 0 AND state <> 'deleted' THEN 0 ELSE 1 END, id LIMIT $7 OFFSET $8"
        ))
        .bind(store_id)
        .bind(store_channel_id)
        .bind(linked)
        .bind(&state)
        .bind(&search)
        .bind(f.sku_id)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page))
    }

    /// How many listings of a shop wait for a SKU, how many are linked (deleted ones apart),
    /// and how many show another stock than the marketplace last took.
    pub async fn listing_counts(&self, store_channel_id: i64) -> Result<(i64, i64, i64)> {
        let counts: (i64, i64, i64) = sqlx::query_as(&format!(
            "SELECT COALESCE(SUM(CASE WHEN sku_id = 0 AND bundle = 0 THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN sku_id > 0 OR bundle = 1 THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN {STOCK_DIFFERS} THEN 1 ELSE 0 END), 0) \
             FROM listings WHERE store_channel_id = $1 AND state <> 'deleted'"
        ))
        .bind(store_channel_id)
        .fetch_one(self.db.pool())
        .await?;
        Ok(counts)
    }

    /// Links a listing of the store to one of our SKUs as `by` linked it (a person's link and
    /// a person's unlink are replaced only by a person), due to be pushed. False when it is
    /// not the store's, is deleted, or is kept as a person left it.
    pub async fn link(&self, store_id: i64, id: i64, sku_id: i64, by: &str) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let done = sqlx::query(&format!(
            "UPDATE listings SET sku_id = $2, bundle = 0, linked_by = $3, updated_at = $1, {DUE_NOW} \
             WHERE id = $4 AND store_id = $5 AND state <> 'deleted' AND ($3 = '{person}' OR linked_by NOT IN ('{person}', '{unlinked}'))",
            person = linked_by::PERSON,
            unlinked = linked_by::UNLINKED,
        ))
        .bind(now_ms())
        .bind(sku_id)
        .bind(by)
        .bind(id)
        .bind(store_id)
        .execute(&mut *tx)
        .await?;
        if changed(&done) {
            sqlx::query("DELETE FROM listing_parts WHERE listing_id = $1").bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(changed(&done))
    }

    /// Makes a listing of the store a bundle of `parts`, as a person set it, due to be pushed.
    pub async fn link_bundle(&self, store_id: i64, id: i64, parts: &[Part]) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let done = sqlx::query(&format!(
            "UPDATE listings SET sku_id = 0, bundle = 1, linked_by = $2, updated_at = $1, {DUE_NOW} \
             WHERE id = $3 AND store_id = $4 AND state <> 'deleted'"
        ))
        .bind(now_ms())
        .bind(linked_by::PERSON)
        .bind(id)
        .bind(store_id)
        .execute(&mut *tx)
        .await?;
        if changed(&done) {
            sqlx::query("DELETE FROM listing_parts WHERE listing_id = $1").bind(id).execute(&mut *tx).await?;
            for p in parts {
                sqlx::query(
                    "INSERT INTO listing_parts (listing_id, store_id, sku_id, quantity, cost_share) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(id)
                .bind(store_id)
                .bind(p.sku_id)
                .bind(p.per_set)
                .bind(p.share_bp)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(changed(&done))
    }

    /// Unlinks a listing of the store as a person asked: it waits for a person's link again
    /// and is never pushed meanwhile. False when it is not the store's.
    pub async fn unlink_listing(&self, store_id: i64, id: i64) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let found: Option<i64> = sqlx::query_scalar("SELECT id FROM listings WHERE id = $1 AND store_id = $2")
            .bind(id)
            .bind(store_id)
            .fetch_optional(&mut *tx)
            .await?;
        if found.is_none() {
            return Ok(false);
        }
        Self::drop_link(&mut tx, id, linked_by::UNLINKED).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The parts of bundle listings, by listing.
    pub async fn parts(&self, listing_ids: &[i64]) -> Result<HashMap<i64, Vec<Part>>> {
        let mut out: HashMap<i64, Vec<Part>> = HashMap::new();
        for chunk in listing_ids.chunks(200) {
            let marks = super::marks(1, chunk.len());
            let sql = format!(
                "SELECT listing_id, sku_id, quantity, cost_share FROM listing_parts WHERE listing_id IN ({marks}) \
                 ORDER BY listing_id, sku_id"
            );
            let mut q = sqlx::query_as::<_, (i64, i64, i64, i64)>(&sql);
            for id in chunk {
                q = q.bind(id);
            }
            for (listing, sku_id, per_set, share_bp) in q.fetch_all(self.db.pool()).await? {
                out.entry(listing).or_default().push(Part { sku_id, per_set, share_bp });
            }
        }
        Ok(out)
    }

    /// Links listings an order sold to our SKUs where nothing links them yet (one an import
    /// kept waiting included; one a person unlinked never): the ids of those linked now.
    pub async fn learn_links(&self, store_id: i64, store_channel_id: i64, learnt: &[Learnt]) -> Result<Vec<i64>> {
        let now = now_ms();
        let mut out = Vec::new();
        for l in learnt.iter().filter(|l| l.sku_id > 0 && !l.item_id.is_empty()) {
            let id: Option<i64> = sqlx::query_scalar(&format!(
                "{NEW_LISTING} DO UPDATE SET sku_id = excluded.sku_id, linked_by = excluded.linked_by, \
                 seller_sku = excluded.seller_sku, wanted = -1, changes = listings.changes + 1, \
                 due_at = excluded.due_at, updated_at = excluded.updated_at \
                 WHERE listings.sku_id = 0 AND listings.bundle = 0 AND listings.linked_by = '' \
                 AND listings.state <> 'deleted' RETURNING id"
            ))
            .bind(store_id)
            .bind(store_channel_id)
            .bind(&l.item_id)
            .bind(&l.model_id)
            .bind(&l.seller_sku)
            .bind(l.sku_id)
            .bind(linked_by::ORDER)
            .bind(now)
            .fetch_optional(self.db.pool())
            .await?;
            out.extend(id);
        }
        Ok(out)
    }

    /// Links a shop's listing (by the marketplace's ids) to our SKU as a person chose it on an
    /// order's page, making the listing if it is not kept yet; due to be pushed.
    pub async fn link_by_person(&self, store_id: i64, store_channel_id: i64, l: &Learnt) -> Result<()> {
        let now = now_ms();
        let id: i64 =
            sqlx::query_scalar(&format!("{NEW_LISTING} DO UPDATE SET seller_sku = excluded.seller_sku RETURNING id"))
                .bind(store_id)
                .bind(store_channel_id)
                .bind(&l.item_id)
                .bind(&l.model_id)
                .bind(&l.seller_sku)
                .bind(0i64)
                .bind("")
                .bind(now)
                .fetch_one(self.db.pool())
                .await?;
        self.link(store_id, id, l.sku_id, linked_by::PERSON).await?;
        Ok(())
    }

    /// What the shop's listings named (by the marketplace's ids) stand for, where linked.
    pub async fn linked(
        &self,
        store_channel_id: i64,
        listings: &[(String, String)],
    ) -> Result<Vec<((String, String), Linked)>> {
        let mut out = Vec::new();
        for (item, model) in listings {
            let row: Option<(i64, i64, i64)> = sqlx::query_as(
                "SELECT id, sku_id, bundle FROM listings WHERE store_channel_id = $1 AND item_id = $2 AND model_id = $3 \
                 AND state <> 'deleted'",
            )
            .bind(store_channel_id)
            .bind(item)
            .bind(model)
            .fetch_optional(self.db.pool())
            .await?;
            match row {
                Some((_, sku, 0)) if sku > 0 => out.push(((item.clone(), model.clone()), Linked::Sku(sku))),
                Some((id, _, b)) if b != 0 => {
                    let parts = self.parts(&[id]).await?.remove(&id).unwrap_or_default();
                    if !parts.is_empty() {
                        out.push(((item.clone(), model.clone()), Linked::Bundle(parts)));
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// The listings of a store (one shop, or every shop with 0) waiting for a SKU that an
    /// automatic link may link: (id, seller SKU, name, options).
    pub async fn waiting(&self, store_id: i64, store_channel_id: i64) -> Result<Vec<ListingRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {LISTING_COLUMNS} FROM listings WHERE store_id = $1 AND ($2 = 0 OR store_channel_id = $2) \
             AND sku_id = 0 AND bundle = 0 AND linked_by = '' AND state <> 'deleted' ORDER BY id"
        ))
        .bind(store_id)
        .bind(store_channel_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Links many listings at once, each as `by` (the automatic link's): how many were linked.
    pub async fn link_many(&self, store_id: i64, links: &[(i64, i64)], by: &str) -> Result<u64> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let mut n = 0;
        for (id, sku) in links {
            let done = sqlx::query(&format!(
                "UPDATE listings SET sku_id = $2, linked_by = $3, updated_at = $1, {DUE_NOW} \
                 WHERE id = $4 AND store_id = $5 AND sku_id = 0 AND bundle = 0 AND linked_by = '' AND state <> 'deleted'"
            ))
            .bind(now)
            .bind(sku)
            .bind(by)
            .bind(id)
            .bind(store_id)
            .execute(&mut *tx)
            .await?;
            n += done.rows_affected();
        }
        tx.commit().await?;
        Ok(n)
    }

    /// The shops (and listings) each of the SKUs named is linked to, alone or in a bundle:
    /// (SKU, shop, listing).
    pub async fn links_of_skus(&self, store_id: i64, sku_ids: &[i64]) -> Result<Vec<(i64, i64, i64)>> {
        let mut out = Vec::new();
        for chunk in sku_ids.chunks(200) {
            let marks = super::marks(2, chunk.len());
            let sql = format!(
                "SELECT sku_id, store_channel_id, id FROM listings WHERE store_id = $1 AND state <> 'deleted' \
                 AND sku_id IN ({marks}) UNION ALL SELECT p.sku_id, l.store_channel_id, l.id FROM listing_parts p \
                 JOIN listings l ON l.id = p.listing_id WHERE p.store_id = $1 AND l.state <> 'deleted' AND p.sku_id IN ({marks})"
            );
            let mut q = sqlx::query_as::<_, (i64, i64, i64)>(&sql).bind(store_id);
            for id in chunk {
                q = q.bind(id);
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}
