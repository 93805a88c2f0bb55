//! Marketplace orders' own writes: found by their channel and number, paid at the
//! marketplace, and the newest change of the marketplace's they follow.

use super::*;

impl Repo {
    /// The store's order of a channel's reference (None when it has none).
    pub async fn by_reference(&self, store_id: i64, channel: &str, reference: &str) -> Result<Option<OrderRow>> {
        Ok(sqlx::query_as::<_, OrderRow>(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE store_id = $1 AND channel = $2 AND reference = $3"
        ))
        .bind(store_id)
        .bind(channel)
        .bind(reference)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// A marketplace order the buyer paid at the marketplace: paid, once (it has no bills).
    pub async fn mark_paid_at_channel(&self, who: Actor, id: i64, detail: &str) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let r = sqlx::query(
            "UPDATE orders SET payment_state = $1, updated_at = $2, updated_by = $3, version = version + 1 \
             WHERE store_id = $4 AND id = $5 AND store_channel_id > 0 AND payment_state = $6",
        )
        .bind(payment::PAID)
        .bind(now_ms())
        .bind(who.user_id)
        .bind(who.store_id)
        .bind(id)
        .bind(payment::UNPAID)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        let row = order_in(&mut tx, who.store_id, id).await?;
        event(&mut tx, who, id, "paid_at_channel", &row.state, &row.state, detail).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Records that the order follows the marketplace's change of `changed_at` (ms) and
    /// what its status said; false when a newer one was recorded first.
    pub async fn follow_channel(&self, who: Actor, id: i64, changed_at: i64, detail: &str) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let r = sqlx::query(
            "UPDATE orders SET channel_changed_at = $1 WHERE store_id = $2 AND id = $3 AND channel_changed_at < $1",
        )
        .bind(changed_at)
        .bind(who.store_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        let row = order_in(&mut tx, who.store_id, id).await?;
        event(&mut tx, who, id, "channel_changed", &row.state, &row.state, detail).await?;
        tx.commit().await?;
        Ok(true)
    }
}
