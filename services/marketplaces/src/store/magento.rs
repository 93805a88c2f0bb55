//! SQL of Magento shops: each an open-API channel with a `magento_channels` row (its
//! credentials sealed by the [`Vault`](crate::vault::Vault), opened only here), the orders
//! taken in from it, and the SKUs whose stock it is due to be told.

use std::collections::HashMap;

use bo_kit::db::Tx;
use bo_kit::time::now_ms;
use bo_kit::{Code, Error, Result};
use sqlx::FromRow;

use super::api_channels::ApiChannelRow;
use super::{marks, Repo};
use crate::domain::api_channel::{self, Status};
use crate::domain::magento::{self, Credentials, Watermark};

/// A Magento shop's connection as kept (its credentials sealed).
#[derive(Debug, Clone, FromRow)]
pub struct MagentoRow {
    pub api_channel_id: i64,
    pub store_id: i64,
    pub url: String,
    pub store_code: String,
    pub auth: String,
    pub credentials: String,
    pub source_code: String,
    pub watermark_at: i64,
    pub watermark_id: i64,
    pub polled_at: i64,
    pub poll_error: String,
    pub orders_taken: i64,
    pub stock_pushed_at: i64,
    pub stock_error: String,
}

impl MagentoRow {
    /// How its integration is let in.
    pub fn auth(&self) -> magento::Auth {
        magento::Auth::parse(&self.auth).unwrap_or(magento::Auth::Bearer)
    }
}

const COLUMNS: &str = "api_channel_id, store_id, url, store_code, auth, credentials, source_code, watermark_at, \
    watermark_id, polled_at, poll_error, orders_taken, stock_pushed_at, stock_error";

fn binding(id: i64) -> String {
    format!("magento:{id}:credentials")
}

fn not_found() -> Error {
    Error::not_found(Code::MagentoChannelNotFound)
}

/// The open-API form a Magento shop's channel is kept by.
fn channel_form(f: &magento::Form) -> api_channel::Form {
    api_channel::Form {
        name: f.name.clone(),
        channel: magento::SALE_CHANNEL.into(),
        warehouse_id: f.warehouse_id,
        logistic_channel_id: f.logistic_channel_id,
        payment_channel_id: f.payment_channel_id,
        webhook_url: String::new(),
        events: Vec::new(),
        status: f.status.clone(),
    }
}

impl Repo {
    /// Makes a Magento shop's channel of `form` (checked, its connection tried) with the
    /// generated key `key_id`: its id.
    pub async fn create_magento_channel(
        &self,
        store_id: i64,
        user_id: i64,
        form: &magento::Form,
        key_id: i64,
    ) -> Result<i64> {
        let mut tx = self.db.begin().await?;
        let id = self.insert_api_channel(&mut tx, store_id, user_id, &channel_form(form), key_id).await?;
        let sealed = self.seal_credentials(id, &form.credentials)?;
        sqlx::query(
            "INSERT INTO magento_channels (api_channel_id, store_id, url, store_code, auth, credentials, source_code) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(store_id)
        .bind(&form.url)
        .bind(&form.store_code)
        .bind(&form.auth)
        .bind(sealed)
        .bind(&form.source_code)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    fn seal_credentials(&self, id: i64, c: &Credentials) -> Result<String> {
        Ok(self.vault.seal(&binding(id), &serde_json::to_string(c).map_err(Error::internal)?))
    }

    /// A shop's credentials, opened.
    pub fn magento_credentials(&self, row: &MagentoRow) -> Result<Credentials> {
        let plain = self
            .vault
            .open(&binding(row.api_channel_id), &row.credentials)
            .map_err(|e| Error::internal(anyhow::anyhow!("{e}")))?;
        serde_json::from_str(plain.expose()).map_err(Error::internal)
    }

    /// The store's Magento shops, oldest first.
    pub async fn magento_channels(&self, store_id: i64) -> Result<Vec<MagentoRow>> {
        Ok(sqlx::query_as::<_, MagentoRow>(&format!(
            "SELECT {COLUMNS} FROM magento_channels WHERE store_id = $1 ORDER BY api_channel_id"
        ))
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// One Magento shop of the store.
    pub async fn magento_channel(&self, store_id: i64, id: i64) -> Result<MagentoRow> {
        sqlx::query_as::<_, MagentoRow>(&format!(
            "SELECT {COLUMNS} FROM magento_channels WHERE store_id = $1 AND api_channel_id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(not_found)
    }

    /// Rewrites a shop's form with `credentials` (merged); refused when its channel changed
    /// since `version` was read (0: as it is now). A new address, store view or way in starts
    /// its poll from where it was.
    pub async fn update_magento_channel(
        &self,
        store_id: i64,
        id: i64,
        form: &magento::Form,
        credentials: &Credentials,
        version: i64,
    ) -> Result<()> {
        let f = channel_form(form);
        let mut tx = self.db.begin().await?;
        let done = sqlx::query(
            "UPDATE api_channels SET name = $1, warehouse_id = $2, logistic_channel_id = $3, payment_channel_id = $4, \
             status = $5, updated_at = $6, version = version + 1 \
             WHERE store_id = $7 AND id = $8 AND ($9 = 0 OR version = $9)",
        )
        .bind(&f.name)
        .bind(f.warehouse_id)
        .bind(f.logistic_channel_id)
        .bind(f.payment_channel_id)
        .bind(&f.status)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .bind(version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            drop(tx);
            self.magento_channel(store_id, id).await?;
            return Err(Error::conflict(Code::ApiChannelChanged));
        }
        sqlx::query(
            "UPDATE magento_channels SET url = $1, store_code = $2, auth = $3, credentials = $4, source_code = $5, \
             poll_error = '', stock_error = '' WHERE store_id = $6 AND api_channel_id = $7",
        )
        .bind(&form.url)
        .bind(&form.store_code)
        .bind(&form.auth)
        .bind(self.seal_credentials(id, credentials)?)
        .bind(&form.source_code)
        .bind(store_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Active Magento shops not polled since `before` (ms), longest waiting first, with
    /// their channels.
    pub async fn magento_due_for_poll(&self, before: i64, limit: i64) -> Result<Vec<(ApiChannelRow, MagentoRow)>> {
        let ids: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT m.store_id, m.api_channel_id FROM magento_channels m JOIN api_channels c ON c.id = m.api_channel_id \
             WHERE c.status = $1 AND m.polled_at < $2 ORDER BY m.polled_at, m.api_channel_id LIMIT $3",
        )
        .bind(Status::Active.as_str())
        .bind(before)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::with_capacity(ids.len());
        for (store_id, id) in ids {
            out.push((self.api_channel(store_id, id).await?, self.magento_channel(store_id, id).await?));
        }
        Ok(out)
    }

    /// When each of `entity_ids` changed last as taken in from shop `id`.
    pub async fn magento_taken(&self, id: i64, entity_ids: &[i64]) -> Result<HashMap<i64, i64>> {
        if entity_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT entity_id, updated_at FROM magento_orders WHERE api_channel_id = $1 AND entity_id IN ({})",
            marks(2, entity_ids.len())
        );
        let mut q = sqlx::query_as::<_, (i64, i64)>(&sql).bind(id);
        for e in entity_ids {
            q = q.bind(*e);
        }
        Ok(q.fetch_all(self.db.pool()).await?.into_iter().collect())
    }

    /// Records a Magento order taken in at its change `updated_at` as our order `our_order_id`
    /// (a later change only moves it forward).
    pub async fn record_magento_order(
        &self,
        id: i64,
        entity_id: i64,
        increment_id: &str,
        updated_at: i64,
        state: &str,
        our_order_id: i64,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO magento_orders (api_channel_id, entity_id, increment_id, updated_at, state, our_order_id) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (api_channel_id, entity_id) DO UPDATE SET \
             updated_at = excluded.updated_at, state = excluded.state WHERE magento_orders.updated_at < excluded.updated_at",
        )
        .bind(id)
        .bind(entity_id)
        .bind(increment_id)
        .bind(updated_at)
        .bind(state)
        .bind(our_order_id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Records a poll of shop `id`: where it read to (never back), how many orders it took,
    /// and what went wrong (empty: nothing).
    pub async fn magento_polled(&self, id: i64, w: Watermark, taken: i64, error: &str) -> Result<()> {
        sqlx::query(
            "UPDATE magento_channels SET \
             watermark_id = CASE WHEN watermark_at < $1 OR (watermark_at = $1 AND watermark_id < $2) THEN $2 ELSE watermark_id END, \
             watermark_at = CASE WHEN watermark_at < $1 THEN $1 ELSE watermark_at END, \
             polled_at = $3, orders_taken = orders_taken + $4, poll_error = $5 WHERE api_channel_id = $6",
        )
        .bind(w.at)
        .bind(w.id)
        .bind(now_ms())
        .bind(taken)
        .bind(error)
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Makes the SKUs' stock due for every active Magento shop of the store that pushes from
    /// `warehouse_id` and has them linked (in the ledger events' transaction): how many.
    pub async fn mark_magento_stock_due(tx: &mut Tx, store_id: i64, warehouse_id: i64, sku_ids: &[i64]) -> Result<u64> {
        if sku_ids.is_empty() {
            return Ok(0);
        }
        let sql = format!(
            "INSERT INTO magento_stock_due (api_channel_id, sku_id, store_id, changes, due_at) \
             SELECT DISTINCT m.api_channel_id, l.sku_id, $1, 1, $3 FROM magento_channels m \
             JOIN api_channels c ON c.id = m.api_channel_id \
             JOIN api_links l ON l.api_channel_id = m.api_channel_id \
             WHERE m.store_id = $1 AND c.warehouse_id = $2 AND c.status = 'active' AND l.sku_id IN ({}) \
             ON CONFLICT (api_channel_id, sku_id) DO UPDATE SET changes = magento_stock_due.changes + 1, \
             due_at = CASE WHEN magento_stock_due.attempts = 0 THEN excluded.due_at ELSE magento_stock_due.due_at END",
            marks(4, sku_ids.len())
        );
        let mut q = sqlx::query(&sql).bind(store_id).bind(warehouse_id).bind(now_ms());
        for id in sku_ids {
            q = q.bind(*id);
        }
        Ok(q.execute(&mut **tx).await?.rows_affected())
    }

    /// Makes the SKUs shop `id` has linked due now (`sku_ids` of them, or every one: the
    /// owner's "push stock now"): how many.
    pub async fn push_magento_skus(&self, store_id: i64, id: i64, sku_ids: &[i64]) -> Result<u64> {
        let only =
            if sku_ids.is_empty() { String::new() } else { format!(" AND sku_id IN ({})", marks(4, sku_ids.len())) };
        let sql = format!(
            "INSERT INTO magento_stock_due (api_channel_id, sku_id, store_id, changes, due_at) \
             SELECT DISTINCT api_channel_id, sku_id, $2, 1, $3 FROM api_links WHERE api_channel_id = $1 AND sku_id > 0{only} \
             ON CONFLICT (api_channel_id, sku_id) DO UPDATE SET changes = magento_stock_due.changes + 1, \
             attempts = 0, due_at = excluded.due_at"
        );
        let mut q = sqlx::query(&sql).bind(id).bind(store_id).bind(now_ms());
        for s in sku_ids {
            q = q.bind(*s);
        }
        Ok(q.execute(self.db.pool()).await?.rows_affected())
    }

    /// The shops with stock due by `now`, and up to `limit` of each one's due SKUs: (SKU,
    /// changes, attempts).
    pub async fn magento_stock_due(&self, now: i64, limit: i64) -> Result<Vec<(i64, i64, Vec<(i64, i64, i64)>)>> {
        let shops: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT DISTINCT store_id, api_channel_id FROM magento_stock_due WHERE due_at <= $1 ORDER BY api_channel_id",
        )
        .bind(now)
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::with_capacity(shops.len());
        for (store_id, id) in shops {
            let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
                "SELECT sku_id, changes, attempts FROM magento_stock_due WHERE api_channel_id = $1 AND due_at <= $2 \
                 ORDER BY due_at, sku_id LIMIT $3",
            )
            .bind(id)
            .bind(now)
            .bind(limit)
            .fetch_all(self.db.pool())
            .await?;
            out.push((store_id, id, rows));
        }
        Ok(out)
    }

    /// Records the SKUs told to shop `id`: a row goes only when no change came while it was
    /// sent; `error` is what the shop refused (empty: nothing).
    pub async fn magento_stock_sent(&self, id: i64, sent: &[(i64, i64)], error: &str) -> Result<()> {
        let mut tx = self.db.begin().await?;
        for (sku, changes) in sent {
            sqlx::query("DELETE FROM magento_stock_due WHERE api_channel_id = $1 AND sku_id = $2 AND changes = $3")
                .bind(id)
                .bind(*sku)
                .bind(*changes)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE magento_channels SET stock_pushed_at = $1, stock_error = $2 WHERE api_channel_id = $3")
            .bind(now_ms())
            .bind(error)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Puts SKUs of shop `id` that could not be told off until `due_at`, counting the try,
    /// and keeps why.
    pub async fn magento_stock_retry(&self, id: i64, skus: &[i64], due_at: i64, error: &str) -> Result<()> {
        let mut tx = self.db.begin().await?;
        for sku in skus {
            sqlx::query(
                "UPDATE magento_stock_due SET attempts = attempts + 1, due_at = $1 WHERE api_channel_id = $2 AND sku_id = $3",
            )
            .bind(due_at)
            .bind(id)
            .bind(*sku)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE magento_channels SET stock_error = $1 WHERE api_channel_id = $2")
            .bind(error)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
