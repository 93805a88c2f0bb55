//! SQL of buyers' returns coming in: how far each shop's returns were read, and the newest
//! change of each return handed to the orders service.

use bo_kit::time::now_ms;
use bo_kit::Result;

use super::Repo;

impl Repo {
    /// How far a shop's returns were read (unix seconds; 0 never).
    pub async fn returns_watermark(&self, store_channel_id: i64) -> Result<i64> {
        let w: Option<i64> = sqlx::query_scalar("SELECT watermark FROM return_polls WHERE store_channel_id = $1")
            .bind(store_channel_id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(w.unwrap_or(0))
    }

    /// Records that a shop's returns were read up to `watermark` (never back).
    pub async fn returns_polled(&self, store_channel_id: i64, watermark: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO return_polls (store_channel_id, watermark, polled_at) VALUES ($1, $2, $3) \
             ON CONFLICT (store_channel_id) DO UPDATE SET polled_at = excluded.polled_at, \
             watermark = CASE WHEN return_polls.watermark < excluded.watermark THEN excluded.watermark \
             ELSE return_polls.watermark END",
        )
        .bind(store_channel_id)
        .bind(watermark)
        .bind(now_ms())
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The newest change of a return handed over (unix seconds), if any.
    pub async fn return_taken_at(&self, store_channel_id: i64, return_id: &str) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT changed_at FROM channel_returns WHERE store_channel_id = $1 AND return_id = $2")
            .bind(store_channel_id)
            .bind(return_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// Our order a marketplace order of a shop became (None: never taken in).
    pub async fn our_order(&self, store_channel_id: i64, order_id: &str) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT our_order_id FROM channel_orders WHERE store_channel_id = $1 AND order_id = $2 AND our_order_id > 0",
        )
        .bind(store_channel_id)
        .bind(order_id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Records a return's change handed to the orders service (a newer one only).
    pub async fn record_return(
        &self,
        store_channel_id: i64,
        return_id: &str,
        order_id: &str,
        changed_at: i64,
        stage: &str,
        our_order_id: i64,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO channel_returns (store_channel_id, return_id, order_id, changed_at, stage, our_order_id, taken_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (store_channel_id, return_id) DO UPDATE SET \
             changed_at = excluded.changed_at, stage = excluded.stage, taken_at = excluded.taken_at \
             WHERE channel_returns.changed_at <= excluded.changed_at",
        )
        .bind(store_channel_id)
        .bind(return_id)
        .bind(order_id)
        .bind(changed_at)
        .bind(stage)
        .bind(our_order_id)
        .bind(now_ms())
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The listing of a shop a return's line names: by item and variation, by the variation
    /// alone (TikTok Shop's returns name no item), or by the seller's SKU where exactly one
    /// listing carries it (Lazada names its SKUs in more than one way); None when none is.
    pub async fn return_listing(
        &self,
        store_channel_id: i64,
        item_id: &str,
        model_id: &str,
        seller_sku: &str,
    ) -> Result<Option<(String, String)>> {
        let pool = self.db.pool();
        let found: Vec<(String, String)> = if !item_id.is_empty() {
            sqlx::query_as(
                "SELECT item_id, model_id FROM listings WHERE store_channel_id = $1 AND item_id = $2 AND model_id = $3",
            )
            .bind(store_channel_id)
            .bind(item_id)
            .bind(model_id)
            .fetch_all(pool)
            .await?
        } else if !model_id.is_empty() {
            sqlx::query_as(
                "SELECT item_id, model_id FROM listings WHERE store_channel_id = $1 AND model_id = $2 LIMIT 2",
            )
            .bind(store_channel_id)
            .bind(model_id)
            .fetch_all(pool)
            .await?
        } else {
            Vec::new()
        };
        if found.len() == 1 {
            return Ok(found.into_iter().next());
        }
        if seller_sku.trim().is_empty() {
            return Ok(None);
        }
        let by_sku: Vec<(String, String)> = sqlx::query_as(
            "SELECT item_id, model_id FROM listings WHERE store_channel_id = $1 AND seller_sku = $2 AND state <> 'deleted' LIMIT 2",
        )
        .bind(store_channel_id)
        .bind(seller_sku.trim())
        .fetch_all(pool)
        .await?;
        Ok(if by_sku.len() == 1 { by_sku.into_iter().next() } else { None })
    }
}
