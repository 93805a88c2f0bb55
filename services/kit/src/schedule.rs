//! Scheduled jobs (purges now; bill expiry and export clean-up later). Each run takes a
//! lease in the module's own database, so when two replicas of a module run, only one acts
//! per period; a replica that dies mid-job lets its lease run out and another takes over.
//! Schedules survive restarts because the next run is decided by the lease's expiry, which
//! is kept in the database.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::db::Db;
use crate::time::now_ms;

/// Takes (or renews) the lease `name` for `holder` until `ttl` from now; false when another
/// holder has it.
pub async fn try_lease(db: &Db, name: &str, holder: &str, ttl: Duration) -> anyhow::Result<bool> {
    let now = now_ms();
    let r = sqlx::query(
        "INSERT INTO leases (name, holder, until_ms) VALUES ($1, $2, $3) \
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms \
         WHERE leases.until_ms < $4 OR leases.holder = excluded.holder",
    )
    .bind(name)
    .bind(holder)
    .bind(now + ttl.as_millis() as i64)
    .bind(now)
    .execute(db.pool())
    .await?;
    Ok(r.rows_affected() == 1)
}

/// A process-wide id for lease holders.
pub fn holder_id() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| uuid::Uuid::now_v7().to_string())
}

/// Runs `job` about every `period` until cancelled, on whichever replica holds the lease
/// `name` for that period. The first run comes soon after start.
pub async fn every<F, Fut>(db: Db, name: &'static str, period: Duration, cancel: CancellationToken, job: F)
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send,
{
    let mut wait = Duration::from_secs(5);
    loop {
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = cancel.cancelled() => return,
        }
        wait = period;
        match try_lease(&db, name, holder_id(), period).await {
            Ok(true) => {
                if let Err(e) = job().await {
                    tracing::warn!(job = name, error = %format!("{e:#}"), "scheduled job failed");
                }
            }
            Ok(false) => {}
            Err(e) => tracing::warn!(job = name, error = %format!("{e:#}"), "could not take a job's lease"),
        }
    }
}

/// The kit's own housekeeping for a module: sent outbox rows and old inbox records are
/// purged once an hour (inbox records are kept 14 days, twice the bus's retention).
pub async fn housekeeping(db: Db, module: &'static str, cancel: CancellationToken) {
    const KEEP_PROCESSED_MS: i64 = 14 * 24 * 3600 * 1000;
    let name: &'static str = Box::leak(format!("{module}.housekeeping").into_boxed_str());
    let job_db = db.clone();
    every(db, name, Duration::from_secs(3600), cancel, move || {
        let db = job_db.clone();
        async move {
            let sent = crate::outbox::purge_sent(&db).await?;
            let processed = crate::inbox::purge_processed(&db, KEEP_PROCESSED_MS).await?;
            if sent + processed > 0 {
                tracing::info!(sent, processed, "purged old outbox and inbox rows");
            }
            Ok(())
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_holder_at_a_time() {
        let t = crate::testing::sqlite().await;
        t.db.create_kit_tables().await.unwrap();
        let ttl = Duration::from_millis(200);
        assert!(try_lease(&t.db, "job", "a", ttl).await.unwrap());
        assert!(!try_lease(&t.db, "job", "b", ttl).await.unwrap());
        assert!(try_lease(&t.db, "job", "a", ttl).await.unwrap(), "the holder renews");
        assert!(try_lease(&t.db, "other", "b", ttl).await.unwrap());
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(try_lease(&t.db, "job", "b", ttl).await.unwrap(), "an expired lease is taken over");
    }
}
