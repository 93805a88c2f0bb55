//! SQL of the integrators' orders and links: an order is kept once per channel and reference
//! (and per Idempotency-Key where one was sent) with a digest of its request; a link names
//! our SKU for an integrator's product id.

use bo_kit::db::Write as _;
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::{marks, Repo};

/// An order an integrator made.
#[derive(Debug, Clone, FromRow)]
pub struct ApiOrderRow {
    pub id: i64,
    pub reference: String,
    pub idempotency_key: String,
    pub request_hash: String,
    pub our_order_id: i64,
}

const COLUMNS: &str = "id, reference, idempotency_key, request_hash, our_order_id";

/// What keeping an integrator's order found.
#[derive(Debug, Clone)]
pub enum Kept {
    /// Kept now.
    New,
    /// Kept before by the same reference or key (the row kept).
    Before(ApiOrderRow),
}

impl Repo {
    /// The channel's order made with `idempotency_key`, or with `reference`.
    pub async fn api_order_of(
        &self,
        channel_id: i64,
        idempotency_key: &str,
        reference: &str,
    ) -> Result<Option<ApiOrderRow>> {
        if !idempotency_key.is_empty() {
            let by_key = sqlx::query_as::<_, ApiOrderRow>(&format!(
                "SELECT {COLUMNS} FROM api_orders WHERE api_channel_id = $1 AND idempotency_key <> '' \
                 AND idempotency_key = $2"
            ))
            .bind(channel_id)
            .bind(idempotency_key)
            .fetch_optional(self.db.pool())
            .await?;
            if by_key.is_some() {
                return Ok(by_key);
            }
        }
        Ok(sqlx::query_as::<_, ApiOrderRow>(&format!(
            "SELECT {COLUMNS} FROM api_orders WHERE api_channel_id = $1 AND reference = $2"
        ))
        .bind(channel_id)
        .bind(reference)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Keeps an integrator's order, unless one of the channel's has its reference or key.
    pub async fn keep_api_order(
        &self,
        store_id: i64,
        channel_id: i64,
        reference: &str,
        idempotency_key: &str,
        request_hash: &str,
        our_order_id: i64,
    ) -> Result<Kept> {
        let kept = sqlx::query(
            "INSERT INTO api_orders (store_id, api_channel_id, reference, idempotency_key, request_hash, our_order_id, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
        )
        .bind(store_id)
        .bind(channel_id)
        .bind(reference)
        .bind(idempotency_key)
        .bind(request_hash)
        .bind(our_order_id)
        .bind(now_ms())
        // After this process's other writers, not in SQLite's busy handler.
        .write(&self.db)
        .await?;
        if kept.rows_affected() == 1 {
            return Ok(Kept::New);
        }
        match self.api_order_of(channel_id, idempotency_key, reference).await? {
            Some(row) => Ok(Kept::Before(row)),
            None => Ok(Kept::New),
        }
    }

    /// Whether our order `order_id` is one the channel's integrator made.
    pub async fn is_api_order(&self, channel_id: i64, order_id: i64) -> Result<bool> {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM api_orders WHERE api_channel_id = $1 AND our_order_id = $2")
                .bind(channel_id)
                .bind(order_id)
                .fetch_one(self.db.pool())
                .await?;
        Ok(n > 0)
    }

    /// A page of the channel's orders after `after` (a row id), oldest first: (row id, our
    /// order id).
    pub async fn api_orders_page(&self, channel_id: i64, after: i64, limit: i64) -> Result<Vec<(i64, i64)>> {
        Ok(sqlx::query_as(
            "SELECT id, our_order_id FROM api_orders WHERE api_channel_id = $1 AND id > $2 ORDER BY id LIMIT $3",
        )
        .bind(channel_id)
        .bind(after)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Links (or, with `sku_id` 0, unlinks) an integrator's product id.
    pub async fn set_api_link(&self, store_id: i64, channel_id: i64, external_id: &str, sku_id: i64) -> Result<()> {
        if sku_id <= 0 {
            sqlx::query("DELETE FROM api_links WHERE api_channel_id = $1 AND external_id = $2")
                .bind(channel_id)
                .bind(external_id)
                .execute(self.db.pool())
                .await?;
            return Ok(());
        }
        let now = now_ms();
        sqlx::query(
            "INSERT INTO api_links (api_channel_id, external_id, store_id, sku_id, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (api_channel_id, external_id) DO UPDATE SET \
             sku_id = excluded.sku_id, updated_at = excluded.updated_at",
        )
        .bind(channel_id)
        .bind(external_id)
        .bind(store_id)
        .bind(sku_id)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The SKUs the channel's integrator's ids are linked to: (external id, SKU).
    pub async fn api_links_of(&self, channel_id: i64, external_ids: &[String]) -> Result<Vec<(String, i64)>> {
        if external_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT external_id, sku_id FROM api_links WHERE api_channel_id = $1 AND external_id IN ({})",
            marks(2, external_ids.len())
        );
        let mut q = sqlx::query_as(&sql).bind(channel_id);
        for id in external_ids {
            q = q.bind(id);
        }
        Ok(q.fetch_all(self.db.pool()).await?)
    }

    /// The channel's ids linked to `sku_ids`: (SKU, external id).
    pub async fn api_links_to(&self, channel_id: i64, sku_ids: &[i64]) -> Result<Vec<(i64, String)>> {
        if sku_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT sku_id, external_id FROM api_links WHERE api_channel_id = $1 AND sku_id IN ({}) ORDER BY external_id",
            marks(2, sku_ids.len())
        );
        let mut q = sqlx::query_as(&sql).bind(channel_id);
        for id in sku_ids {
            q = q.bind(id);
        }
        Ok(q.fetch_all(self.db.pool()).await?)
    }

    /// A page of the channel's links after the external id `after`, in id order:
    /// (external id, SKU).
    pub async fn api_links_page(&self, channel_id: i64, after: &str, limit: i64) -> Result<Vec<(String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT external_id, sku_id FROM api_links WHERE api_channel_id = $1 AND external_id > $2 \
             ORDER BY external_id LIMIT $3",
        )
        .bind(channel_id)
        .bind(after)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }
}
