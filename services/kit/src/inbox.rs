//! The inbox: a consumer records each event id in `processed_events` in the same
//! transaction as its effect, so a repeated event has no second effect. Nothing is acked
//! before it is handled; after `max_deliver` failed deliveries the event goes to
//! `dead_letters` and is acked.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bo_proto::events::v1::Envelope;
use prost::Message as _;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use crate::bus::{ConsumerConfig, Delivery, SharedBus};
use crate::db::{Db, Tx};
use crate::time::now_ms;

/// What a consumer does with an event, inside the inbox transaction.
#[async_trait]
pub trait Handler: Send + Sync + 'static {
    /// Applies the event. An error rolls the transaction back and the event comes again.
    async fn handle(&self, tx: &mut Tx, event: &Envelope) -> anyhow::Result<()>;
}

/// What happened to one delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Handled and committed.
    Handled,
    /// Seen before: skipped.
    Duplicate,
    /// Failed; will come again.
    Retry,
    /// Failed too often, or unreadable: moved to dead letters.
    DeadLettered,
}

/// A durable consumer with an inbox.
#[derive(Clone)]
pub struct Consumer {
    db: Db,
    bus: SharedBus,
    cfg: ConsumerConfig,
    max_deliver: u64,
    handler: Arc<dyn Handler>,
}

impl Consumer {
    /// A consumer named `durable` for subjects matching `filter` (relative to the bus
    /// prefix, e.g. `orders.>`).
    pub fn new(db: Db, bus: SharedBus, durable: &str, filter: &str, handler: Arc<dyn Handler>) -> Self {
        let cfg = ConsumerConfig {
            durable: durable.to_string(),
            filter: format!("{}.{filter}", bus.prefix()),
            ack_wait: Duration::from_secs(30),
        };
        Self { db, bus, cfg, max_deliver: 5, handler }
    }

    /// Changes how long an unacked delivery waits before it comes again.
    pub fn with_ack_wait(mut self, d: Duration) -> Self {
        self.cfg.ack_wait = d;
        self
    }

    /// Changes how many deliveries a failing event gets before it is dead-lettered.
    pub fn with_max_deliver(mut self, n: u64) -> Self {
        self.max_deliver = n.max(1);
        self
    }

    /// Consumes until cancelled, resubscribing when the bus drops.
    pub async fn run(self, cancel: CancellationToken) {
        loop {
            let mut sub = match self.bus.subscribe(self.cfg.clone()).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(consumer = %self.cfg.durable, error = %format!("{e:#}"), "subscribe failed");
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_secs(2)) => continue,
                        _ = cancel.cancelled() => return,
                    }
                }
            };
            loop {
                let next = tokio::select! {
                    n = sub.next() => n,
                    _ = cancel.cancelled() => return,
                };
                match next {
                    Some(Ok(d)) => {
                        // Finish the event in hand even when asked to stop.
                        if let Err(e) = self.process(d).await {
                            tracing::warn!(consumer = %self.cfg.durable, error = %format!("{e:#}"), "consumer failed");
                        }
                    }
                    Some(Err(e)) => {
                        tracing::warn!(consumer = %self.cfg.durable, error = %format!("{e:#}"), "receive failed");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    None => break,
                }
            }
        }
    }

    /// Handles one delivery and acks or naks it.
    pub async fn process(&self, d: Delivery) -> anyhow::Result<Outcome> {
        let envelope = match Envelope::decode(d.payload.as_ref()) {
            Ok(e) => e,
            Err(e) => {
                self.dead_letter(&d, "", &format!("undecodable envelope: {e}")).await?;
                d.ack().await?;
                return Ok(Outcome::DeadLettered);
            }
        };
        let span = tracing::info_span!("consume", consumer = %self.cfg.durable, event = %envelope.r#type, event_id = %envelope.event_id);
        crate::telemetry::set_parent_from_pairs(&span, &d.headers);
        let result = self.apply(&envelope).instrument(span).await;
        match result {
            Ok(true) => {
                d.ack().await?;
                Ok(Outcome::Handled)
            }
            Ok(false) => {
                d.ack().await?;
                Ok(Outcome::Duplicate)
            }
            Err(e) if d.delivered >= self.max_deliver => {
                tracing::error!(consumer = %self.cfg.durable, event_id = %envelope.event_id, error = %format!("{e:#}"), "dead-lettering event");
                self.dead_letter(&d, &envelope.event_id, &format!("{e:#}")).await?;
                d.ack().await?;
                Ok(Outcome::DeadLettered)
            }
            Err(e) => {
                tracing::warn!(consumer = %self.cfg.durable, event_id = %envelope.event_id, delivered = d.delivered, error = %format!("{e:#}"), "event failed; will retry");
                d.nak().await?;
                Ok(Outcome::Retry)
            }
        }
    }

    /// Runs the handler once per event id; false when the event was seen before.
    async fn apply(&self, envelope: &Envelope) -> anyhow::Result<bool> {
        let mut tx = self.db.begin().await?;
        let claimed = sqlx::query(
            "INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ($1, $2, $3) \
             ON CONFLICT (consumer, event_id) DO NOTHING",
        )
        .bind(&self.cfg.durable)
        .bind(&envelope.event_id)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.handler.handle(&mut tx, envelope).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn dead_letter(&self, d: &Delivery, event_id: &str, error: &str) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO dead_letters (consumer, event_id, subject, envelope, error, deliveries, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&self.cfg.durable)
        .bind(event_id)
        .bind(&d.subject)
        .bind(d.payload.to_vec())
        .bind(error)
        .bind(d.delivered as i64)
        .bind(now_ms())
        .execute(self.db.pool())
        .await?;
        Ok(())
    }
}
