//! Scheduled jobs (purges, the orders reconciler, bill expiry, carriers' tracking). Each run
//! takes a lease in the module's own database, so when two replicas of a module run, only
//! one acts per period; a replica that dies mid-job lets its lease run out and another takes
//! over. A run longer than its period keeps its lease by renewing it a few times a period,
//! and a run whose lease was taken from it (its process stalled past the lease) is stopped at
//! its next step, so two runs of a job never overlap (jobs' writes are conditional besides,
//! so a write already under way when the lease went changes nothing twice). Schedules
//! survive restarts because the next run is decided by the lease's expiry, which is kept in
//! the database.

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
    every_as(db, name, holder_id(), Duration::from_secs(5), period, cancel, job).await
}

/// [`every`] for `holder`, its first run after `first`.
pub async fn every_as<F, Fut>(
    db: Db,
    name: &'static str,
    holder: &str,
    first: Duration,
    period: Duration,
    cancel: CancellationToken,
    job: F,
) where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send,
{
    let mut wait = first;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = cancel.cancelled() => return,
        }
        wait = period;
        match try_lease(&db, name, holder, period).await {
            Ok(true) => match held(&db, name, holder, period, job()).await {
                Some(Err(e)) => tracing::warn!(job = name, error = %format!("{e:#}"), "scheduled job failed"),
                Some(Ok(())) => {}
                None => tracing::warn!(job = name, "a scheduled run lost its lease and was stopped"),
            },
            Ok(false) => {}
            Err(e) => tracing::warn!(job = name, error = %format!("{e:#}"), "could not take a job's lease"),
        }
    }
}

/// Runs `work` while `holder` keeps the lease `name`, renewing it every third of `ttl`;
/// None, with the work stopped at its next step, when the lease was lost (another holder
/// has it, or it could not be renewed before it ran out).
pub async fn held<T>(db: &Db, name: &str, holder: &str, ttl: Duration, work: impl Future<Output = T>) -> Option<T> {
    let renew = async {
        let step = (ttl / 3).max(Duration::from_millis(10));
        let mut kept_until = tokio::time::Instant::now() + ttl;
        loop {
            tokio::time::sleep(step).await;
            match try_lease(db, name, holder, ttl).await {
                Ok(true) => kept_until = tokio::time::Instant::now() + ttl,
                Ok(false) => return,
                Err(e) => {
                    tracing::warn!(lease = name, error = %format!("{e:#}"), "could not renew a lease");
                    if tokio::time::Instant::now() >= kept_until {
                        return;
                    }
                }
            }
        }
    };
    tokio::select! {
        out = work => Some(out),
        _ = renew => None,
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

    /// Two replicas of a job whose runs last longer than its period: the holder renews its
    /// lease while it works, so the runs take turns and never overlap.
    async fn two_replicas_never_overlap(db: Db) {
        db.create_kit_tables().await.unwrap();
        /// A run: when it began and ended, and whose it was.
        type Run = (std::time::Instant, std::time::Instant, &'static str);
        let runs: std::sync::Arc<std::sync::Mutex<Vec<Run>>> = Default::default();
        let cancel = CancellationToken::new();
        let replica = |holder: &'static str| {
            let runs = runs.clone();
            every_as(
                db.clone(),
                "slow-job",
                holder,
                Duration::from_millis(10),
                Duration::from_millis(90),
                cancel.clone(),
                move || {
                    let runs = runs.clone();
                    async move {
                        let start = std::time::Instant::now();
                        tokio::time::sleep(Duration::from_millis(300)).await;
                        runs.lock().unwrap().push((start, std::time::Instant::now(), holder));
                        Ok(())
                    }
                },
            )
        };
        let (a, b) = (tokio::spawn(replica("a")), tokio::spawn(replica("b")));
        tokio::time::sleep(Duration::from_millis(2_000)).await;
        cancel.cancel();
        let _ = tokio::join!(a, b);
        let mut runs = runs.lock().unwrap().clone();
        runs.sort();
        assert!(runs.len() >= 3, "{} runs", runs.len());
        for w in runs.windows(2) {
            assert!(w[1].0 >= w[0].1, "a run of {} began before one of {} ended", w[1].2, w[0].2);
        }
    }

    #[tokio::test]
    async fn two_replicas_never_overlap_on_sqlite() {
        let t = crate::testing::sqlite().await;
        two_replicas_never_overlap(t.db.clone()).await;
    }

    #[tokio::test]
    async fn two_replicas_never_overlap_on_postgres() {
        if let Some(t) = crate::testing::postgres().await {
            two_replicas_never_overlap(t.db.clone()).await;
        }
    }

    /// A run whose lease is taken from it (its process stalled past the lease) stops.
    #[tokio::test]
    async fn a_run_that_lost_its_lease_stops() {
        let t = crate::testing::sqlite().await;
        t.db.create_kit_tables().await.unwrap();
        let ttl = Duration::from_millis(90);
        assert!(try_lease(&t.db, "job", "a", ttl).await.unwrap());
        let finished = std::sync::atomic::AtomicBool::new(false);
        let work = async {
            tokio::time::sleep(Duration::from_millis(600)).await;
            finished.store(true, std::sync::atomic::Ordering::SeqCst);
        };
        let steal = async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            sqlx::query("UPDATE leases SET holder = 'b', until_ms = $1 WHERE name = 'job'")
                .bind(now_ms() + 60_000)
                .execute(t.db.pool())
                .await
                .unwrap();
        };
        let (out, ()) = tokio::join!(held(&t.db, "job", "a", ttl, work), steal);
        assert!(out.is_none() && !finished.load(std::sync::atomic::Ordering::SeqCst));
    }
}
