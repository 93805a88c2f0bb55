//! SQL of orders coming in: the inbox of pushes (kept once per body, claimed by one handler
//! at a time, retried with a growing wait), the marketplace orders taken in with the newest
//! change of each, and the shops' poll marks.

use bo_kit::db::changed;
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::{ChannelRow, Repo, COLUMNS};
use crate::domain::channel::Status;
use crate::domain::Marketplace;

/// A kept push.
#[derive(Debug, Clone, FromRow)]
pub struct PushRow {
    pub id: i64,
    pub marketplace: String,
    pub shop_id: String,
    pub kind: String,
    /// The push as read (JSON of [`crate::adapters::Push`]).
    pub body: String,
    pub attempts: i64,
    pub received_at: i64,
}

/// What became of a push.
pub mod outcome {
    /// Handled.
    pub const DONE: &str = "done";
    /// About a shop no store has connected (or has turned off): nothing to do.
    pub const NO_SHOP: &str = "no_shop";
    /// Failed for good (the shop's authorization ended, or too many attempts).
    pub const GAVE_UP: &str = "gave_up";
}

/// How long a handler keeps a claimed push before another may take it, ms.
pub const CLAIM_MS: i64 = 60_000;

/// How long handled pushes are kept, ms (a repeat within it is still known).
pub const PUSHES_KEPT_MS: i64 = 14 * 24 * 3600 * 1000;

impl Repo {
    /// Keeps a push unless the same one (`digest`) was kept before: true when new.
    pub async fn keep_push(
        &self,
        marketplace: Marketplace,
        digest: &str,
        shop_id: &str,
        kind: &str,
        body: &str,
    ) -> Result<bool> {
        let now = now_ms();
        let kept = sqlx::query(
            "INSERT INTO pushes (marketplace, digest, shop_id, kind, body, received_at, attempts, next_at, claimed_until, \
             handled_at, outcome) VALUES ($1, $2, $3, $4, $5, $6, 0, $6, 0, 0, '') ON CONFLICT (digest) DO NOTHING",
        )
        .bind(marketplace.code())
        .bind(digest)
        .bind(shop_id)
        .bind(kind)
        .bind(body)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        if changed(&kept) && !shop_id.is_empty() {
            sqlx::query("UPDATE store_channels SET last_push_at = $1 WHERE marketplace = $2 AND shop_id = $3")
                .bind(now)
                .bind(marketplace.code())
                .bind(shop_id)
                .execute(self.db.pool())
                .await?;
        }
        Ok(changed(&kept))
    }

    /// Claims up to `limit` pushes due now, oldest first, for `CLAIM_MS`.
    pub async fn claim_pushes(&self, limit: i64) -> Result<Vec<PushRow>> {
        let now = now_ms();
        let due: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, claimed_until FROM pushes WHERE handled_at = 0 AND next_at <= $1 AND claimed_until < $1 \
             ORDER BY id LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::with_capacity(due.len());
        for (id, was) in due {
            // Conditional on the claim read: a push another handler took in between is skipped.
            let claimed = sqlx::query(
                "UPDATE pushes SET claimed_until = $1, attempts = attempts + 1 WHERE id = $2 AND claimed_until = $3 \
                 AND handled_at = 0",
            )
            .bind(now + CLAIM_MS)
            .bind(id)
            .bind(was)
            .execute(self.db.pool())
            .await?;
            if changed(&claimed) {
                out.extend(
                    sqlx::query_as::<_, PushRow>(
                        "SELECT id, marketplace, shop_id, kind, body, attempts, received_at FROM pushes WHERE id = $1",
                    )
                    .bind(id)
                    .fetch_optional(self.db.pool())
                    .await?,
                );
            }
        }
        Ok(out)
    }

    /// Records a push handled, with what became of it.
    pub async fn finish_push(&self, id: i64, outcome: &str) -> Result<()> {
        sqlx::query("UPDATE pushes SET handled_at = $1, claimed_until = 0, outcome = $2 WHERE id = $3")
            .bind(now_ms())
            .bind(outcome)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Puts a push back to be tried again in `wait_ms`, with why it failed.
    pub async fn retry_push(&self, id: i64, wait_ms: i64, why: &str) -> Result<()> {
        sqlx::query("UPDATE pushes SET next_at = $1, claimed_until = 0, outcome = $2 WHERE id = $3")
            .bind(now_ms() + wait_ms)
            .bind(why)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Drops pushes handled more than `older_than_ms` ago: how many.
    pub async fn purge_pushes(&self, older_than_ms: i64) -> Result<u64> {
        let r = sqlx::query("DELETE FROM pushes WHERE handled_at > 0 AND handled_at < $1")
            .bind(now_ms() - older_than_ms)
            .execute(self.db.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// Pushes not handled yet (for tests and the operator's view).
    pub async fn waiting_pushes(&self) -> Result<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM pushes WHERE handled_at = 0").fetch_one(self.db.pool()).await?)
    }

    /// The shop of a marketplace's id, whichever store holds it.
    pub async fn by_shop(&self, marketplace: Marketplace, shop_id: &str) -> Result<Option<ChannelRow>> {
        Ok(sqlx::query_as::<_, ChannelRow>(&format!(
            "SELECT {COLUMNS} FROM store_channels WHERE marketplace = $1 AND shop_id = $2"
        ))
        .bind(marketplace.code())
        .bind(shop_id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Any shop by id, whichever store holds it.
    pub async fn channel(&self, id: i64) -> Result<Option<ChannelRow>> {
        Ok(sqlx::query_as::<_, ChannelRow>(&format!("SELECT {COLUMNS} FROM store_channels WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// Active, connected shops last polled before `before` (ms), longest waiting first.
    pub async fn due_for_poll(&self, before: i64, limit: i64) -> Result<Vec<ChannelRow>> {
        Ok(sqlx::query_as::<_, ChannelRow>(&format!(
            "SELECT {COLUMNS} FROM store_channels WHERE status = $1 AND token_expired = 0 AND polled_at < $2 \
             ORDER BY polled_at, id LIMIT $3"
        ))
        .bind(Status::Active.as_str())
        .bind(before)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Connected shops (on or off) whose access token ends before `before_s`, soonest first.
    pub async fn access_ending(&self, before_s: i64, limit: i64) -> Result<Vec<ChannelRow>> {
        Ok(sqlx::query_as::<_, ChannelRow>(&format!(
            "SELECT {COLUMNS} FROM store_channels WHERE token_expired = 0 AND access_expires_at < $1 \
             ORDER BY access_expires_at, id LIMIT $2"
        ))
        .bind(before_s)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Records a finished poll of a shop: its orders are in up to `watermark` (unix seconds).
    pub async fn polled(&self, id: i64, watermark: i64) -> Result<()> {
        let now = now_ms();
        sqlx::query(
            "UPDATE store_channels SET polled_at = $1, last_order_sync_at = $1, \
             orders_watermark = CASE WHEN orders_watermark < $2 THEN $2 ELSE orders_watermark END WHERE id = $3",
        )
        .bind(now)
        .bind(watermark)
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Marks a poll tried now without moving the watermark (it failed; the next round tries again).
    pub async fn poll_tried(&self, id: i64) -> Result<()> {
        sqlx::query("UPDATE store_channels SET polled_at = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Of `order_ids` of a shop, the newest change taken in of each (unix seconds).
    pub async fn taken_changes(&self, store_channel_id: i64, order_ids: &[String]) -> Result<Vec<(String, i64)>> {
        let mut out = Vec::new();
        for chunk in order_ids.chunks(200) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT order_id, changed_at FROM channel_orders WHERE store_channel_id = $1 AND order_id IN ({})",
                marks.join(", ")
            );
            let mut q = sqlx::query_as::<_, (String, i64)>(&sql).bind(store_channel_id);
            for id in chunk {
                q = q.bind(id);
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(out)
    }

    /// Records a marketplace order's change taken in (only ever moving forward).
    pub async fn record_taken(
        &self,
        store_channel_id: i64,
        order_id: &str,
        changed_at: i64,
        stage: &str,
        cancel_reason: &str,
        our_order_id: i64,
    ) -> Result<()> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO channel_orders (store_channel_id, order_id, changed_at, stage, cancel_reason, our_order_id, taken_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (store_channel_id, order_id) DO UPDATE SET \
             changed_at = excluded.changed_at, stage = excluded.stage, cancel_reason = excluded.cancel_reason, \
             our_order_id = excluded.our_order_id, taken_at = excluded.taken_at \
             WHERE channel_orders.changed_at <= excluded.changed_at",
        )
        .bind(store_channel_id)
        .bind(order_id)
        .bind(changed_at)
        .bind(stage)
        .bind(cancel_reason)
        .bind(our_order_id)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        sqlx::query("UPDATE store_channels SET last_order_sync_at = $1 WHERE id = $2")
            .bind(now)
            .bind(store_channel_id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }
}
