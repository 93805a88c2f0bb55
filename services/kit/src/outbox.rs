//! The transactional outbox: a service writes its change and its event in one
//! transaction; the relay publishes unsent rows with `Nats-Msg-Id` = event id and marks
//! them sent. A relay that dies between publishing and marking publishes the row again
//! later; the bus drops the repeat and consumers' inboxes skip it.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use bo_proto::events::v1::Envelope;
use prost::Message as _;
use sqlx::Row;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::bus::{subject_for, OutMessage, SharedBus};
use crate::db::{Db, Tx};
use crate::time::{ms_to_timestamp, now_ms};

/// Sent rows older than this are purged.
const KEEP_SENT_MS: i64 = 7 * 24 * 3600 * 1000;

/// Writes an event into the outbox inside the caller's transaction; returns its id.
/// `event_type` is `<svc>.<aggregate>.<event>`, e.g. `stores.customer.created`.
pub async fn enqueue<M: prost::Message>(
    tx: &mut Tx,
    event_type: &str,
    store_id: i64,
    actor_user_id: i64,
    event: &M,
) -> crate::Result<String> {
    let event_id = crate::new_event_id();
    let now = now_ms();
    let envelope = Envelope {
        event_id: event_id.clone(),
        r#type: event_type.to_string(),
        store_id,
        occur_time: Some(ms_to_timestamp(now)),
        actor_user_id,
        payload: event.encode_to_vec(),
    };
    // The trace of the request that caused the event travels with it to the consumers.
    let mut trace = Vec::new();
    crate::telemetry::inject_pairs(&mut trace);
    let trace = serde_json::to_string(&trace).unwrap_or_default();
    sqlx::query(
        "INSERT INTO outbox (event_id, event_type, store_id, envelope, trace_context, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&event_id)
    .bind(event_type)
    .bind(store_id)
    .bind(envelope.encode_to_vec())
    .bind(trace)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(event_id)
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

    /// The oldest unsent rows.
    pub async fn pending(&self, limit: i64) -> anyhow::Result<Vec<OutboxRow>> {
        let rows = sqlx::query(
            "SELECT id, event_id, event_type, envelope, trace_context FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT $1",
        )
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
            })
            .collect())
    }

    /// Publishes one row (not yet marked sent).
    pub async fn publish(&self, row: &OutboxRow) -> anyhow::Result<()> {
        self.bus
            .publish(OutMessage {
                subject: subject_for(self.bus.prefix(), &row.event_type),
                payload: row.envelope.clone().into(),
                msg_id: row.event_id.clone(),
                headers: row.trace_context.clone(),
            })
            .await
    }

    /// Marks one row sent.
    pub async fn mark_sent(&self, row: &OutboxRow) -> anyhow::Result<()> {
        sqlx::query("UPDATE outbox SET sent_at = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(row.id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Publishes and marks one batch; returns how many rows it sent.
    pub async fn relay_once(&self) -> anyhow::Result<usize> {
        let rows = self.pending(100).await?;
        for row in &rows {
            self.publish(row).await.with_context(|| format!("publishing event {}", row.event_id))?;
            self.mark_sent(row).await?;
        }
        Ok(rows.len())
    }

    /// Deletes sent rows older than a week.
    pub async fn purge(&self) -> anyhow::Result<u64> {
        let r = sqlx::query("DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < $1")
            .bind(now_ms() - KEEP_SENT_MS)
            .execute(self.db.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// Relays until cancelled: on every wake-up and at least every second, backing off
    /// while the bus fails. Drains what is pending before it stops.
    pub async fn run(self, cancel: CancellationToken) {
        let mut backoff = Duration::from_millis(100);
        let mut last_purge = std::time::Instant::now();
        loop {
            match self.relay_once().await {
                Ok(n) => {
                    backoff = Duration::from_millis(100);
                    if n == 100 {
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
            if last_purge.elapsed() > Duration::from_secs(3600) {
                last_purge = std::time::Instant::now();
                if let Err(e) = self.purge().await {
                    tracing::warn!(error = %e, "outbox purge failed");
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
