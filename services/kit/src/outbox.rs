//! The transactional outbox: a service writes its change and its event in one
//! transaction; the relay publishes unsent rows with `Nats-Msg-Id` = event id and marks
//! them sent in batches. A relay that dies between publishing and marking publishes the
//! rows again later; the bus drops the repeats and consumers' inboxes skip them.
//!
//! A row the bus keeps refusing while it is otherwise healthy (say, an event too large for
//! it) is retried with backoff and set aside after [`MAX_ATTEMPTS`], so it never blocks the
//! rows behind it; `backoffice admin outbox list|retry` shows and requeues set-aside rows.
//! When the bus itself is down, nothing is counted against the rows: the relay waits.

use crate::Code;
use std::sync::Arc;
use std::time::Duration;

use bo_proto::events::v1::Envelope;
use bo_proto::Event;
use prost::Message as _;
use sqlx::Row;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::bus::{subject_for, OutMessage, SharedBus};
use crate::db::{Db, Tx};
use crate::time::{ms_to_timestamp, now_ms};

/// Sent rows older than this are purged (by the module's scheduler).
pub const KEEP_SENT_MS: i64 = 7 * 24 * 3600 * 1000;
/// Failed publications of one row before it is set aside.
pub const MAX_ATTEMPTS: i64 = 10;
/// Rows read per round.
const BATCH: i64 = 100;

/// Writes an event into the outbox inside the caller's transaction; returns its id.
pub async fn enqueue<E: Event>(tx: &mut Tx, store_id: i64, actor_user_id: i64, event: &E) -> crate::Result<String> {
    let mut ids = enqueue_all(tx, store_id, actor_user_id, std::iter::once(event)).await?;
    Ok(ids.pop().unwrap_or_default())
}

/// Writes events into the outbox inside the caller's transaction, in one statement; returns
/// their ids in order.
pub async fn enqueue_all<'a, E: Event>(
    tx: &mut Tx,
    store_id: i64,
    actor_user_id: i64,
    events: impl IntoIterator<Item = &'a E>,
) -> crate::Result<Vec<String>> {
    let mut batch = Batch::new(store_id);
    let mut ids = Vec::new();
    for event in events {
        ids.push(batch.add(actor_user_id, event)?);
    }
    batch.write(tx).await?;
    Ok(ids)
}

/// Events of any types for the outbox, written in one statement inside the caller's
/// transaction, in the order added (a write that announces several things at once).
pub struct Batch {
    store_id: i64,
    now: i64,
    /// Type, id and envelope of each event.
    rows: Vec<(&'static str, String, Vec<u8>)>,
}

impl Batch {
    /// An empty batch of the store's events.
    pub fn new(store_id: i64) -> Batch {
        Batch { store_id, now: now_ms(), rows: Vec::new() }
    }

    /// The store whose events these are.
    pub fn store_id(&self) -> i64 {
        self.store_id
    }

    /// Adds an event caused by `actor_user_id` (0: the system); returns its id. An event the
    /// bus would refuse never reaches the outbox, where it would only be retried and set
    /// aside: the write that caused it is refused.
    pub fn add<E: Event>(&mut self, actor_user_id: i64, event: &E) -> crate::Result<String> {
        let size = event.encoded_len();
        if size > MAX_EVENT_BYTES {
            tracing::warn!(event = E::TYPE, bytes = size, "refused a write whose event would be too large for the bus");
            return Err(crate::Error::new(crate::error::Kind::Invalid, Code::EventTooLarge));
        }
        let event_id = crate::new_event_id();
        let envelope = Envelope {
            event_id: event_id.clone(),
            r#type: E::TYPE.to_string(),
            store_id: self.store_id,
            occur_time: Some(ms_to_timestamp(self.now)),
            actor_user_id,
            payload: event.encode_to_vec(),
        };
        self.rows.push((E::TYPE, event_id.clone(), envelope.encode_to_vec()));
        Ok(event_id)
    }

    /// Writes what was added (nothing when empty), in one statement.
    pub async fn write(self, tx: &mut Tx) -> crate::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        // The trace of the request that caused the events travels with them to the consumers.
        let mut trace = Vec::new();
        crate::telemetry::inject_pairs(&mut trace);
        let trace = serde_json::to_string(&trace).unwrap_or_default();
        let values = (0..self.rows.len())
            .map(|i| format!("(${}, ${}, $1, ${}, $2, $3)", 4 + 3 * i, 5 + 3 * i, 6 + 3 * i))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "INSERT INTO outbox (event_id, event_type, store_id, envelope, trace_context, created_at) VALUES {values}"
        );
        let mut q = sqlx::query(&sql).bind(self.store_id).bind(trace).bind(self.now);
        for (event_type, event_id, envelope) in &self.rows {
            q = q.bind(event_id.as_str()).bind(*event_type).bind(envelope.as_slice());
        }
        q.execute(&mut **tx).await?;
        Ok(())
    }
}

/// The largest event payload written: NATS refuses messages over 1 MiB by default, and the
/// envelope and headers need room beside the payload.
pub const MAX_EVENT_BYTES: usize = 768 * 1024;

/// How far back the relay sends its rows again on start (a power cut may have taken a
/// second's messages from the bus's file after they were marked sent here).
pub const RESEND_MS: i64 = 10_000;

/// Deletes sent rows older than [`KEEP_SENT_MS`]; returns how many.
pub async fn purge_sent(db: &Db) -> anyhow::Result<u64> {
    let r = sqlx::query("DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < $1")
        .bind(now_ms() - KEEP_SENT_MS)
        .execute(db.pool())
        .await?;
    Ok(r.rows_affected())
}

/// One unsent outbox row.
#[derive(Debug, Clone)]
pub struct OutboxRow {
    /// Row id.
    pub id: i64,
    /// Event id.
    pub event_id: String,
    /// Event type.
    pub event_type: String,
    /// The encoded envelope.
    pub envelope: Vec<u8>,
    /// Trace context headers of the transaction that wrote it.
    pub trace_context: Vec<(String, String)>,
    /// Failed publications so far.
    pub attempts: i64,
}

/// A set-aside row, for the admin command.
#[derive(Debug, Clone)]
pub struct SetAside {
    /// Row id.
    pub id: i64,
    /// Event id.
    pub event_id: String,
    /// Event type.
    pub event_type: String,
    /// Failed publications.
    pub attempts: i64,
    /// The last error.
    pub last_error: String,
    /// When it was written (unix ms).
    pub created_at: i64,
}

/// The delay before retrying a row that failed `attempts` times: 1 s doubling, at most 5 min.
pub fn retry_delay(attempts: i64) -> Duration {
    let exp = attempts.clamp(1, 20) as u32 - 1;
    Duration::from_secs(1u64.saturating_mul(1 << exp).min(300))
}

/// Publishes what the outbox holds.
#[derive(Clone)]
pub struct Relay {
    db: Db,
    bus: SharedBus,
    wake: Arc<Notify>,
}

impl Relay {
    /// A relay for `db`'s outbox onto `bus`.
    pub fn new(db: Db, bus: SharedBus) -> Self {
        Self { db, bus, wake: Arc::new(Notify::new()) }
    }

    /// Tells the relay a transaction with events has committed.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The oldest unsent rows that are due.
    pub async fn pending(&self, limit: i64) -> anyhow::Result<Vec<OutboxRow>> {
        let rows = sqlx::query(
            "SELECT id, event_id, event_type, envelope, trace_context, attempts FROM outbox \
             WHERE sent_at IS NULL AND set_aside_at IS NULL AND next_attempt_at <= $1 ORDER BY id LIMIT $2",
        )
        .bind(now_ms())
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| OutboxRow {
                id: r.get(0),
                event_id: r.get(1),
                event_type: r.get(2),
                envelope: r.get(3),
                trace_context: serde_json::from_str(&r.get::<String, _>(4)).unwrap_or_default(),
                attempts: r.get(5),
            })
            .collect())
    }

    fn message(&self, row: &OutboxRow) -> OutMessage {
        OutMessage {
            subject: subject_for(self.bus.prefix(), &row.event_type),
            payload: row.envelope.clone().into(),
            msg_id: row.event_id.clone(),
            headers: row.trace_context.clone(),
        }
    }

    /// Publishes one row (not yet marked sent).
    pub async fn publish(&self, row: &OutboxRow) -> anyhow::Result<()> {
        self.bus.publish(self.message(row)).await
    }

    /// Marks rows sent, in one statement.
    pub async fn mark_sent(&self, ids: &[i64]) -> anyhow::Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        // Ids are integers from the database, so they can be inlined safely.
        let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        sqlx::query(&format!("UPDATE outbox SET sent_at = $1 WHERE id IN ({list})"))
            .bind(now_ms())
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    async fn record_failure(&self, row: &OutboxRow, error: &str) -> anyhow::Result<bool> {
        let attempts = row.attempts + 1;
        let now = now_ms();
        let set_aside = attempts >= MAX_ATTEMPTS;
        sqlx::query(
            "UPDATE outbox SET attempts = $1, last_error = $2, next_attempt_at = $3, set_aside_at = $4 WHERE id = $5",
        )
        .bind(attempts)
        .bind(error.chars().take(2000).collect::<String>())
        .bind(now + retry_delay(attempts).as_millis() as i64)
        .bind(if set_aside { Some(now) } else { None })
        .bind(row.id)
        .execute(self.db.pool())
        .await?;
        Ok(set_aside)
    }

    /// Publishes one batch and marks what went out; returns how many rows were read. A row
    /// that fails while the bus is healthy is counted and skipped; when the bus is down the
    /// round stops without counting.
    pub async fn relay_once(&self) -> anyhow::Result<usize> {
        let rows = self.pending(BATCH).await?;
        if rows.is_empty() {
            return Ok(0);
        }
        // The whole batch at once; row by row only when that fails, to find the row at fault.
        if self.bus.publish_many(rows.iter().map(|r| self.message(r)).collect()).await.is_ok() {
            self.mark_sent(&rows.iter().map(|r| r.id).collect::<Vec<_>>()).await?;
            return Ok(rows.len());
        }
        let mut sent = Vec::with_capacity(rows.len());
        let mut outcome = Ok(rows.len());
        for row in &rows {
            match self.publish(row).await {
                Ok(()) => sent.push(row.id),
                Err(e) if self.bus.healthy().await => {
                    let error = format!("{e:#}");
                    let set_aside = self.record_failure(row, &error).await?;
                    if set_aside {
                        tracing::error!(event_id = %row.event_id, event = %row.event_type, error = %error,
                            "outbox row set aside after repeated failures; `backoffice admin outbox retry` requeues it");
                    } else {
                        tracing::warn!(event_id = %row.event_id, event = %row.event_type, error = %error,
                            "publishing an outbox row failed; will retry");
                    }
                }
                Err(e) => {
                    outcome = Err(e.context(format!("publishing event {}", row.event_id)));
                    break;
                }
            }
        }
        self.mark_sent(&sent).await?;
        outcome
    }

    /// Rows set aside after repeated failures.
    pub async fn set_aside(db: &Db) -> anyhow::Result<Vec<SetAside>> {
        let rows = sqlx::query(
            "SELECT id, event_id, event_type, attempts, last_error, created_at FROM outbox \
             WHERE sent_at IS NULL AND set_aside_at IS NOT NULL ORDER BY id",
        )
        .fetch_all(db.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| SetAside {
                id: r.get(0),
                event_id: r.get(1),
                event_type: r.get(2),
                attempts: r.get(3),
                last_error: r.get(4),
                created_at: r.get(5),
            })
            .collect())
    }

    /// Requeues set-aside rows (one, or all when `id` is `None`); returns how many.
    pub async fn retry_set_aside(db: &Db, id: Option<i64>) -> anyhow::Result<u64> {
        let r = sqlx::query(
            "UPDATE outbox SET set_aside_at = NULL, attempts = 0, next_attempt_at = 0 \
             WHERE sent_at IS NULL AND set_aside_at IS NOT NULL AND ($1 = 0 OR id = $1)",
        )
        .bind(id.unwrap_or(0))
        .execute(db.pool())
        .await?;
        Ok(r.rows_affected())
    }

    /// Marks the rows sent in the last [`RESEND_MS`] unsent, so they are published again
    /// (the bus drops repeats by message id): a power cut may have taken a message from the
    /// bus after its row here was marked sent. Answers how many.
    pub async fn resend_recent(&self) -> anyhow::Result<u64> {
        let r = self
            .db
            .execute(
                sqlx::query("UPDATE outbox SET sent_at = NULL WHERE sent_at IS NOT NULL AND sent_at >= $1")
                    .bind(now_ms() - RESEND_MS),
            )
            .await?;
        Ok(r.rows_affected())
    }

    /// Relays until cancelled: on every wake-up and at least every second, rounds kept
    /// [`crate::pace::ROUND_EVERY`] apart while they keep coming, backing off while the bus is
    /// down. Drains what is pending before it stops. It starts by sending
    /// the last seconds' rows again ([`Relay::resend_recent`]).
    pub async fn run(self, cancel: CancellationToken) {
        match self.resend_recent().await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(rows = n, "sending the last seconds' events again, in case the bus lost them"),
            Err(e) => tracing::warn!(error = %format!("{e:#}"), "could not mark recent outbox rows to send again"),
        }
        let mut backoff = Duration::from_millis(100);
        let mut pace = crate::pace::Pace::default();
        loop {
            pace.wait().await;
            match self.relay_once().await {
                Ok(n) => {
                    backoff = Duration::from_millis(100);
                    if n as i64 == BATCH {
                        continue;
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %format!("{e:#}"), "outbox relay failed; retrying");
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {}
                        _ = cancel.cancelled() => return,
                    }
                    backoff = (backoff * 2).min(Duration::from_secs(10));
                    continue;
                }
            }
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = cancel.cancelled() => {
                    let _ = self.relay_once().await;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_to_five_minutes() {
        assert_eq!(retry_delay(1), Duration::from_secs(1));
        assert_eq!(retry_delay(2), Duration::from_secs(2));
        assert_eq!(retry_delay(5), Duration::from_secs(16));
        assert_eq!(retry_delay(9), Duration::from_secs(256));
        assert_eq!(retry_delay(10), Duration::from_secs(300));
        assert_eq!(retry_delay(1000), Duration::from_secs(300));
    }

    #[tokio::test]
    async fn several_events_go_in_one_statement_in_order() {
        use prost::Message as _;
        let t = crate::testing::sqlite().await;
        t.db.create_kit_tables().await.unwrap();
        let mut tx = t.db.begin().await.unwrap();
        let names = ["ก", "ข", "ค"];
        let events: Vec<_> = names
            .iter()
            .map(|n| bo_proto::events::v1::StoreCreated { name: n.to_string(), ..Default::default() })
            .collect();
        let ids = enqueue_all(&mut tx, 7, 3, &events).await.unwrap();
        assert_eq!(enqueue_all::<bo_proto::events::v1::StoreCreated>(&mut tx, 7, 3, &[]).await.unwrap().len(), 0);
        tx.commit().await.unwrap();
        let rows: Vec<(String, i64, Vec<u8>)> =
            sqlx::query_as("SELECT event_id, store_id, envelope FROM outbox ORDER BY id")
                .fetch_all(t.db.pool())
                .await
                .unwrap();
        assert_eq!(rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(), ids);
        assert_eq!(ids.iter().collect::<std::collections::HashSet<_>>().len(), 3);
        for ((_, store, envelope), name) in rows.iter().zip(names) {
            assert_eq!(*store, 7);
            let e = Envelope::decode(envelope.as_slice()).unwrap();
            let created = bo_proto::events::v1::StoreCreated::decode(e.payload.as_slice()).unwrap();
            assert_eq!((created.name.as_str(), e.actor_user_id), (name, 3));
        }
    }

    /// Events of different types and actors, added to one batch, go in as one statement in
    /// the order added, each with its own type and actor.
    #[tokio::test]
    async fn a_batch_mixes_types_and_actors_in_order() {
        use bo_proto::events::v1::{SafetyStockSet, StoreCreated};
        use prost::Message as _;
        let t = crate::testing::sqlite().await;
        t.db.create_kit_tables().await.unwrap();
        let mut tx = t.db.begin().await.unwrap();
        let mut batch = Batch::new(7);
        let ids = vec![
            batch.add(0, &SafetyStockSet { amount: 1, history_id: 0 }).unwrap(),
            batch.add(3, &StoreCreated { name: "ข".into(), ..Default::default() }).unwrap(),
            batch.add(0, &SafetyStockSet { amount: 3, history_id: 0 }).unwrap(),
        ];
        batch.write(&mut tx).await.unwrap();
        Batch::new(7).write(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
        let rows: Vec<(String, String, i64, Vec<u8>)> =
            sqlx::query_as("SELECT event_id, event_type, store_id, envelope FROM outbox ORDER BY id")
                .fetch_all(t.db.pool())
                .await
                .unwrap();
        assert_eq!(rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(), ids);
        let seen: Vec<(String, i64, String, i64)> = rows
            .iter()
            .map(|(_, event_type, store, envelope)| {
                let e = Envelope::decode(envelope.as_slice()).unwrap();
                assert_eq!(&e.r#type, event_type);
                let what = if event_type == StoreCreated::TYPE {
                    StoreCreated::decode(e.payload.as_slice()).unwrap().name
                } else {
                    SafetyStockSet::decode(e.payload.as_slice()).unwrap().amount.to_string()
                };
                (event_type.clone(), *store, what, e.actor_user_id)
            })
            .collect();
        let want = [(SafetyStockSet::TYPE, "1", 0), (StoreCreated::TYPE, "ข", 3), (SafetyStockSet::TYPE, "3", 0)]
            .map(|(ty, what, actor)| (ty.to_string(), 7, what.to_string(), actor));
        assert_eq!(seen, want);
    }

    /// On start the relay sends the last seconds' rows again (a power cut may have taken
    /// them from the bus after they were marked sent here); the bus drops what it kept.
    #[tokio::test]
    async fn the_last_seconds_are_sent_again_on_start() {
        let t = crate::testing::sqlite().await;
        t.db.create_kit_tables().await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let log = crate::bus::log::LogBus::open(&dir.path().join("bus.db"), "bo").await.unwrap();
        let bus: SharedBus = Arc::new(log.clone());
        let relay = Relay::new(t.db.clone(), bus.clone());
        let mut tx = t.db.begin().await.unwrap();
        let e = bo_proto::events::v1::StoreCreated { name: "ร้าน".into(), ..Default::default() };
        enqueue_all(&mut tx, 1, 1, &[e.clone(), e.clone()]).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(relay.relay_once().await.unwrap(), 2);
        // An old row is left alone; the recent ones go again.
        sqlx::query("UPDATE outbox SET sent_at = $1 WHERE id = (SELECT MIN(id) FROM outbox)")
            .bind(now_ms() - RESEND_MS - 60_000)
            .execute(t.db.pool())
            .await
            .unwrap();
        assert_eq!(relay.resend_recent().await.unwrap(), 1);
        assert_eq!(relay.relay_once().await.unwrap(), 1);
        let kept: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM bus_messages").fetch_one(log.db().pool()).await.unwrap();
        assert_eq!(kept, 2, "the bus kept each message once");
        log.close().await;
    }

    #[tokio::test]
    async fn an_event_too_large_for_the_bus_refuses_the_write() {
        let t = crate::testing::sqlite().await;
        t.db.create_kit_tables().await.unwrap();
        let mut tx = t.db.begin().await.unwrap();
        let big = bo_proto::events::v1::StoreCreated { name: "ก".repeat(MAX_EVENT_BYTES), ..Default::default() };
        let e = enqueue(&mut tx, 1, 1, &big).await.unwrap_err();
        assert_eq!(e.code, Code::EventTooLarge);
        let fits = bo_proto::events::v1::StoreCreated { name: "ร้าน".into(), ..Default::default() };
        enqueue(&mut tx, 1, 1, &fits).await.unwrap();
        tx.commit().await.unwrap();
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox").fetch_one(t.db.pool()).await.unwrap();
        assert_eq!(rows, 1);
    }
}
