//! Idempotency keys of writes (decision 0011): claimed with a lease, completed with the
//! answer to replay, abandoned on failure, purged after a day.

use super::*;

impl Repo {
    /// Claims `key` for a write with `fingerprint`, or says what was done with it.
    pub async fn begin_idempotent(&self, store_id: i64, key: &str, fingerprint: &str) -> Result<Idempotency> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let claimed = sqlx::query(
            "INSERT INTO idempotency_keys (store_id, idem_key, fingerprint, status, created_at, locked_until) \
             VALUES ($1, $2, $3, 0, $4, $5) ON CONFLICT (store_id, idem_key) DO NOTHING",
        )
        .bind(store_id)
        .bind(key)
        .bind(fingerprint)
        .bind(now)
        .bind(now + IDEMPOTENCY_LEASE_MS)
        .execute(&mut *tx)
        .await?;
        let outcome = if claimed.rows_affected() == 1 {
            Idempotency::Proceed
        } else {
            let (fp, status, body, created_at, locked_until): (String, i64, Option<Vec<u8>>, i64, i64) =
                sqlx::query_as(
                    "SELECT fingerprint, status, body, created_at, locked_until FROM idempotency_keys \
                     WHERE store_id = $1 AND idem_key = $2",
                )
                .bind(store_id)
                .bind(key)
                .fetch_one(&mut *tx)
                .await?;
            if created_at < now - IDEMPOTENCY_TTL_MS {
                // Expired but not yet purged: the key starts afresh.
                sqlx::query(
                    "UPDATE idempotency_keys SET fingerprint = $1, status = 0, body = NULL, created_at = $2, \
                     locked_until = $3 WHERE store_id = $4 AND idem_key = $5",
                )
                .bind(fingerprint)
                .bind(now)
                .bind(now + IDEMPOTENCY_LEASE_MS)
                .bind(store_id)
                .bind(key)
                .execute(&mut *tx)
                .await?;
                Idempotency::Proceed
            } else if fp != fingerprint {
                Idempotency::Mismatch
            } else if status != 0 {
                Idempotency::Replay { status: status as i32, body: body.unwrap_or_default() }
            } else if locked_until < now {
                // The first request died mid-way: its lease ran out, so this one takes over.
                sqlx::query(
                    "UPDATE idempotency_keys SET locked_until = $1 WHERE store_id = $2 AND idem_key = $3 \
                     AND status = 0",
                )
                .bind(now + IDEMPOTENCY_LEASE_MS)
                .bind(store_id)
                .bind(key)
                .execute(&mut *tx)
                .await?;
                Idempotency::Proceed
            } else {
                Idempotency::InProgress
            }
        };
        tx.commit().await?;
        Ok(outcome)
    }

    /// Deletes keys older than a day; returns how many (the module's scheduler calls it).
    pub async fn purge_idempotency_keys(&self) -> Result<u64> {
        let r = sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
            .bind(now_ms() - IDEMPOTENCY_TTL_MS)
            .execute(self.db.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// Saves the answer given under `key`.
    pub async fn complete_idempotent(&self, store_id: i64, key: &str, status: i32, body: &[u8]) -> Result<()> {
        sqlx::query("UPDATE idempotency_keys SET status = $1, body = $2 WHERE store_id = $3 AND idem_key = $4")
            .bind(i64::from(status))
            .bind(body.to_vec())
            .bind(store_id)
            .bind(key)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Frees `key` after a server-side failure, so the client may retry.
    pub async fn abandon_idempotent(&self, store_id: i64, key: &str) -> Result<()> {
        sqlx::query("DELETE FROM idempotency_keys WHERE store_id = $1 AND idem_key = $2 AND status = 0")
            .bind(store_id)
            .bind(key)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }
}
