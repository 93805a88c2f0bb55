//! The inbox: a consumer registers a handler per event type; it records each event id in
//! `processed_events` in the same transaction as the handler's effect, so a repeated event
//! has no second effect. Nothing is acked before it is handled. A failure comes back after a
//! backoff that doubles from about a second up to minutes; after `max_deliver` deliveries
//! the event goes to `dead_letters` and is acked. `backoffice admin dead-letters replay`
//! marks dead letters, and the running consumer handles them again. An event of a type the
//! consumer has no handler for is logged and acked, never dead-lettered.
//!
//! Events waiting together are handled together: rounds are kept a few milliseconds apart
//! while events keep coming ([`crate::pace`]), and what a subscription has ready when a round
//! starts (up to [`BATCH`]) is claimed in one statement and applied in one transaction, in
//! order, so a burst costs one commit instead of one each. If any of them fails, the whole
//! transaction rolls back and each is handled on its own, with its own retries. A handler
//! registered with [`Consumer::on_all`] is given each run of its events in the batch at once.

use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use async_trait::async_trait;
use bo_proto::events::v1::Envelope;
use bo_proto::Event;
use prost::Message as _;
use sqlx::Row;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use crate::bus::{subject_for, ConsumerConfig, Delivery, SharedBus};
use crate::db::{Db, Tx};
use crate::time::{now_ms, timestamp_to_ms};

/// Where an event came from.
#[derive(Debug, Clone)]
pub struct Meta {
    /// The event id.
    pub event_id: String,
    /// The store it is about.
    pub store_id: i64,
    /// Who caused it (0 for the system).
    pub actor_user_id: i64,
    /// When it happened (unix ms).
    pub occur_ms: i64,
}

/// What a consumer does with one type of event, inside the inbox transaction.
#[async_trait]
pub trait On<E: Event>: Send + Sync + 'static {
    /// Applies the event. An error rolls the transaction back and the event comes again.
    async fn on(&self, tx: &mut Tx, meta: &Meta, event: E) -> anyhow::Result<()>;
}

#[async_trait]
impl<E: Event, H: On<E>> On<E> for Arc<H> {
    async fn on(&self, tx: &mut Tx, meta: &Meta, event: E) -> anyhow::Result<()> {
        self.as_ref().on(tx, meta, event).await
    }
}

/// What a consumer does with the events of one type that arrived together, in their order,
/// inside the inbox transaction: for a consumer whose work for many events costs little more
/// than for one (one read and one write per table for the lot).
#[async_trait]
pub trait OnAll<E: Event>: Send + Sync + 'static {
    /// Applies the events, in order. An error rolls the transaction back and each event
    /// comes again on its own.
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, E)>) -> anyhow::Result<()>;
}

#[async_trait]
impl<E: Event, H: OnAll<E>> OnAll<E> for Arc<H> {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, E)>) -> anyhow::Result<()> {
        self.as_ref().on_all(tx, events).await
    }
}

#[async_trait]
trait Erased: Send + Sync {
    /// Applies a run of envelopes of the handler's type, in order.
    async fn handle(&self, tx: &mut Tx, envelopes: &[&Envelope]) -> anyhow::Result<()>;
}

fn decoded<E: Event>(envelope: &Envelope) -> anyhow::Result<(Meta, E)> {
    let event = E::decode(envelope.payload.as_slice()).with_context(|| format!("decoding {}", E::TYPE))?;
    let meta = Meta {
        event_id: envelope.event_id.clone(),
        store_id: envelope.store_id,
        actor_user_id: envelope.actor_user_id,
        occur_ms: envelope.occur_time.as_ref().map(timestamp_to_ms).unwrap_or(0),
    };
    Ok((meta, event))
}

struct Typed<E, H>(H, PhantomData<fn() -> E>);

#[async_trait]
impl<E: Event, H: On<E>> Erased for Typed<E, H> {
    async fn handle(&self, tx: &mut Tx, envelopes: &[&Envelope]) -> anyhow::Result<()> {
        for envelope in envelopes {
            let (meta, event) = decoded::<E>(envelope)?;
            self.0.on(tx, &meta, event).await?;
        }
        Ok(())
    }
}

struct TypedAll<E, H>(H, PhantomData<fn() -> E>);

#[async_trait]
impl<E: Event, H: OnAll<E>> Erased for TypedAll<E, H> {
    async fn handle(&self, tx: &mut Tx, envelopes: &[&Envelope]) -> anyhow::Result<()> {
        let events = envelopes.iter().map(|e| decoded::<E>(e)).collect::<anyhow::Result<Vec<_>>>()?;
        self.0.on_all(tx, events).await
    }
}

/// An envelope with the trace headers it came with.
type Traced<'a> = (&'a Envelope, &'a [(String, String)]);

/// Deliveries handled in one transaction at most.
pub const BATCH: usize = 64;

/// What happened to one delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Handled and committed.
    Handled,
    /// Seen before: skipped.
    Duplicate,
    /// No handler for its type: acked and skipped.
    Unknown,
    /// Failed; will come again after a backoff.
    Retry,
    /// Failed too often, or unreadable: moved to dead letters.
    DeadLettered,
}

/// How failures are retried.
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    /// The first delay.
    pub first: Duration,
    /// The longest delay.
    pub max: Duration,
    /// Deliveries before an event is dead-lettered.
    pub max_deliver: u64,
}

impl Default for Retry {
    /// 1 s doubling up to 5 min, 15 deliveries: about half an hour of retries.
    fn default() -> Self {
        Self { first: Duration::from_secs(1), max: Duration::from_secs(300), max_deliver: 15 }
    }
}

impl Retry {
    /// The delay after the `delivered`-th failed delivery.
    pub fn delay(&self, delivered: u64) -> Duration {
        let exp = delivered.clamp(1, 30) as u32 - 1;
        self.first.saturating_mul(1u32 << exp.min(20)).min(self.max)
    }
}

/// A dead letter, for the admin command.
#[derive(Debug, Clone)]
pub struct DeadLetter {
    /// Row id.
    pub id: i64,
    /// The consumer.
    pub consumer: String,
    /// The event id.
    pub event_id: String,
    /// The subject it came on.
    pub subject: String,
    /// The last error.
    pub error: String,
    /// Deliveries it had.
    pub deliveries: i64,
    /// When it was dead-lettered (unix ms).
    pub created_at: i64,
    /// A replay was asked and has not run yet.
    pub replay_requested: bool,
    /// Handled by a replay (unix ms).
    pub replayed_at: Option<i64>,
}

/// A durable consumer with an inbox.
#[derive(Clone)]
pub struct Consumer {
    db: Db,
    bus: SharedBus,
    durable: String,
    ack_wait: Duration,
    retry: Retry,
    handlers: HashMap<&'static str, Arc<dyn Erased>>,
}

impl Consumer {
    /// A consumer named `durable` (also its inbox's name); add handlers with [`Consumer::on`].
    pub fn new(db: Db, bus: SharedBus, durable: &str) -> Self {
        Self {
            db,
            bus,
            durable: durable.to_string(),
            ack_wait: Duration::from_secs(30),
            retry: Retry::default(),
            handlers: HashMap::new(),
        }
    }

    /// Handles events of type `E` with `handler`.
    pub fn on<E: Event, H: On<E>>(mut self, handler: H) -> Self {
        self.handlers.insert(E::TYPE, Arc::new(Typed::<E, H>(handler, PhantomData)));
        self
    }

    /// Handles events of type `E` with `handler`, all those that arrive together at once.
    pub fn on_all<E: Event, H: OnAll<E>>(mut self, handler: H) -> Self {
        self.handlers.insert(E::TYPE, Arc::new(TypedAll::<E, H>(handler, PhantomData)));
        self
    }

    /// Changes how long an unacked delivery waits before it comes again.
    pub fn with_ack_wait(mut self, d: Duration) -> Self {
        self.ack_wait = d;
        self
    }

    /// Changes how failures are retried.
    pub fn with_retry(mut self, retry: Retry) -> Self {
        self.retry = Retry { max_deliver: retry.max_deliver.max(1), ..retry };
        self
    }

    /// The consumer's name.
    pub fn name(&self) -> &str {
        &self.durable
    }

    /// The event types it handles, sorted.
    pub fn types(&self) -> Vec<&'static str> {
        let mut t: Vec<&'static str> = self.handlers.keys().copied().collect();
        t.sort_unstable();
        t
    }

    /// The bus consumer of one event type.
    fn config_for(&self, event_type: &str) -> ConsumerConfig {
        ConsumerConfig {
            durable: format!("{}-{}", self.durable, event_type.replace('.', "_")),
            filter: subject_for(self.bus.prefix(), event_type),
            ack_wait: self.ack_wait,
        }
    }

    /// Consumes until cancelled: one durable subscription per event type, and the replays
    /// of dead letters the admin asked for. Returns when cancelled (or when every
    /// subscription loop has ended).
    pub async fn run(self, cancel: CancellationToken) {
        let mut loops = tokio::task::JoinSet::new();
        for t in self.types() {
            let cfg = self.config_for(t);
            loops.spawn(self.clone().run_one(cfg, cancel.clone()));
        }
        loops.spawn(self.clone().replay_loop(cancel.clone()));
        while loops.join_next().await.is_some() {}
    }

    async fn run_one(self, cfg: ConsumerConfig, cancel: CancellationToken) {
        loop {
            let mut sub = match self.bus.subscribe(cfg.clone()).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(consumer = %cfg.durable, error = %format!("{e:#}"), "subscribe failed");
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_secs(2)) => continue,
                        _ = cancel.cancelled() => return,
                    }
                }
            };
            let mut pace = crate::pace::Pace::default();
            loop {
                let next = tokio::select! {
                    n = sub.next() => n,
                    _ = cancel.cancelled() => return,
                };
                match next {
                    Some(Ok(d)) => {
                        // While events keep coming, what arrives in the pause joins this batch.
                        pace.wait().await;
                        let mut batch = vec![d];
                        while batch.len() < BATCH {
                            match sub.ready().await {
                                Some(Ok(d)) => batch.push(d),
                                Some(Err(e)) => {
                                    tracing::warn!(consumer = %cfg.durable, error = %format!("{e:#}"), "receive failed");
                                    break;
                                }
                                None => break,
                            }
                        }
                        // Finish the events in hand even when asked to stop.
                        if let Err(e) = self.process_all(batch).await {
                            tracing::warn!(consumer = %cfg.durable, error = %format!("{e:#}"), "consumer failed");
                        }
                    }
                    Some(Err(e)) => {
                        tracing::warn!(consumer = %cfg.durable, error = %format!("{e:#}"), "receive failed");
                        tokio::select! {
                            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                            _ = cancel.cancelled() => return,
                        }
                    }
                    None => break,
                }
            }
        }
    }

    async fn replay_loop(self, cancel: CancellationToken) {
        loop {
            if let Err(e) = self.replay_requested().await {
                tracing::warn!(consumer = %self.durable, error = %format!("{e:#}"), "replaying dead letters failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(2)) => {}
                _ = cancel.cancelled() => return,
            }
        }
    }

    /// Handles one delivery and acks or naks it.
    pub async fn process(&self, d: Delivery) -> anyhow::Result<Outcome> {
        let envelope = match Envelope::decode(d.payload.as_ref()) {
            Ok(e) => e,
            Err(e) => {
                self.dead_letter(&d.subject, "", &d.payload, &format!("undecodable envelope: {e}"), d.delivered)
                    .await?;
                d.ack().await?;
                return Ok(Outcome::DeadLettered);
            }
        };
        if !self.handlers.contains_key(envelope.r#type.as_str()) {
            tracing::info!(consumer = %self.durable, event = %envelope.r#type, "no handler for this event type; skipped");
            d.ack().await?;
            return Ok(Outcome::Unknown);
        }
        let result = self.apply_all(&[(&envelope, &d.headers)]).await.map(|a| a[0]);
        match result {
            Ok(true) => {
                d.ack().await?;
                Ok(Outcome::Handled)
            }
            Ok(false) => {
                d.ack().await?;
                Ok(Outcome::Duplicate)
            }
            Err(e) if d.delivered >= self.retry.max_deliver => {
                tracing::error!(consumer = %self.durable, event_id = %envelope.event_id, error = %format!("{e:#}"), "dead-lettering event");
                self.dead_letter(&d.subject, &envelope.event_id, &d.payload, &format!("{e:#}"), d.delivered).await?;
                d.ack().await?;
                Ok(Outcome::DeadLettered)
            }
            Err(e) => {
                let delay = self.retry.delay(d.delivered);
                tracing::warn!(consumer = %self.durable, event_id = %envelope.event_id, delivered = d.delivered,
                    retry_in_ms = delay.as_millis() as u64, error = %format!("{e:#}"), "event failed; will retry");
                d.nak(delay).await?;
                Ok(Outcome::Retry)
            }
        }
    }

    /// Handles deliveries that arrived together, in one transaction when every one of them
    /// succeeds, and each on its own (with its retries) when one does not; acks those
    /// handled. The outcomes are in the deliveries' order, except that unreadable ones and
    /// those of a type without a handler, which have no effect, come first.
    pub async fn process_all(&self, batch: Vec<Delivery>) -> anyhow::Result<Vec<Outcome>> {
        let mut outcomes = Vec::with_capacity(batch.len());
        let mut ready = Vec::with_capacity(batch.len());
        for d in batch {
            match Envelope::decode(d.payload.as_ref()) {
                Ok(env) if self.handlers.contains_key(env.r#type.as_str()) => ready.push((d, env)),
                // Nothing to apply: settled on its own.
                _ => outcomes.push(self.process(d).await?),
            }
        }
        if ready.len() <= 1 {
            for (d, _) in ready {
                outcomes.push(self.process(d).await?);
            }
            return Ok(outcomes);
        }
        let envelopes: Vec<(&Envelope, &[(String, String)])> =
            ready.iter().map(|(d, e)| (e, d.headers.as_slice())).collect();
        let span = tracing::info_span!("consume_batch", consumer = %self.durable, events = envelopes.len());
        match self.apply_all(&envelopes).instrument(span).await {
            Ok(applied) => {
                let acks = futures::future::join_all(ready.into_iter().map(|(d, _)| d.ack())).await;
                for (ack, applied) in acks.into_iter().zip(applied) {
                    ack?;
                    outcomes.push(if applied { Outcome::Handled } else { Outcome::Duplicate });
                }
            }
            Err(e) => {
                tracing::debug!(consumer = %self.durable, error = %format!("{e:#}"), "a batch failed; handling its events one by one");
                for (d, _) in ready {
                    outcomes.push(self.process(d).await?);
                }
            }
        }
        Ok(outcomes)
    }

    /// Runs the handlers of `envelopes` in order, in one transaction, each event once: the
    /// ids are claimed in one statement, and those claimed before (or twice in the batch)
    /// are skipped. Each handler runs in a span of the trace its event carries (`headers`).
    /// Answers per envelope whether it was applied now.
    async fn apply_all(&self, envelopes: &[Traced<'_>]) -> anyhow::Result<Vec<bool>> {
        let mut handlers = Vec::with_capacity(envelopes.len());
        for (e, _) in envelopes {
            let Some(h) = self.handlers.get(e.r#type.as_str()) else {
                anyhow::bail!("no handler for {}", e.r#type);
            };
            handlers.push(h);
        }
        let mut ids: Vec<&str> = Vec::with_capacity(envelopes.len());
        for (e, _) in envelopes {
            if !ids.contains(&e.event_id.as_str()) {
                ids.push(&e.event_id);
            }
        }
        let values = (0..ids.len()).map(|i| format!("($1, ${}, $2)", i + 3)).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "INSERT INTO processed_events (consumer, event_id, processed_at) VALUES {values} \
             ON CONFLICT (consumer, event_id) DO NOTHING RETURNING event_id"
        );
        let mut tx = self.db.begin().await?;
        let mut q = sqlx::query_scalar::<_, String>(&sql).bind(&self.durable).bind(now_ms());
        for id in &ids {
            q = q.bind(*id);
        }
        let mut claimed: HashSet<String> = q.fetch_all(&mut *tx).await?.into_iter().collect();
        if claimed.is_empty() {
            tx.rollback().await?;
            return Ok(vec![false; envelopes.len()]);
        }
        // Each claimed event once (taken out when applied, so a second copy in the batch is
        // skipped), in runs of one type handed to their handler together.
        let mut applied = Vec::with_capacity(envelopes.len());
        let mut runs: Vec<(&Arc<dyn Erased>, Vec<Traced>)> = Vec::new();
        for ((e, headers), handler) in envelopes.iter().zip(handlers) {
            let now = claimed.remove(&e.event_id);
            applied.push(now);
            if !now {
                continue;
            }
            match runs.last_mut() {
                Some((_, run)) if run[0].0.r#type == e.r#type => run.push((e, headers)),
                _ => runs.push((handler, vec![(e, headers)])),
            }
        }
        for (handler, run) in runs {
            let (first, headers) = run[0];
            let span = tracing::info_span!("consume", consumer = %self.durable, event = %first.r#type,
                event_id = %first.event_id, events = run.len());
            // The run is traced in the first event's trace.
            crate::telemetry::set_parent_from_pairs(&span, headers);
            let run: Vec<&Envelope> = run.iter().map(|(e, _)| *e).collect();
            handler.handle(&mut tx, &run).instrument(span).await?;
        }
        tx.commit().await?;
        Ok(applied)
    }

    async fn dead_letter(
        &self,
        subject: &str,
        event_id: &str,
        payload: &[u8],
        error: &str,
        deliveries: u64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO dead_letters (consumer, event_id, subject, envelope, error, deliveries, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&self.durable)
        .bind(event_id)
        .bind(subject)
        .bind(payload.to_vec())
        .bind(error)
        .bind(deliveries as i64)
        .bind(now_ms())
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Handles the dead letters whose replay was asked; returns how many succeeded. A
    /// failed replay keeps the dead letter with its new error.
    pub async fn replay_requested(&self) -> anyhow::Result<usize> {
        let rows = sqlx::query(
            "SELECT id, envelope FROM dead_letters WHERE consumer = $1 AND replay_requested_at IS NOT NULL \
             AND replayed_at IS NULL ORDER BY id LIMIT 100",
        )
        .bind(&self.durable)
        .fetch_all(self.db.pool())
        .await?;
        let mut done = 0;
        for r in rows {
            let id: i64 = r.get(0);
            let bytes: Vec<u8> = r.get(1);
            let outcome = match Envelope::decode(bytes.as_slice()) {
                Ok(env) if self.handlers.contains_key(env.r#type.as_str()) => {
                    self.apply_all(&[(&env, &[])]).await.map(|_| ())
                }
                Ok(env) => Err(anyhow::anyhow!("no handler for {}", env.r#type)),
                Err(e) => Err(anyhow::anyhow!("undecodable envelope: {e}")),
            };
            match outcome {
                Ok(()) => {
                    sqlx::query("UPDATE dead_letters SET replayed_at = $1, replay_requested_at = NULL WHERE id = $2")
                        .bind(now_ms())
                        .bind(id)
                        .execute(self.db.pool())
                        .await?;
                    tracing::info!(consumer = %self.durable, dead_letter = id, "dead letter replayed");
                    done += 1;
                }
                Err(e) => {
                    sqlx::query(
                        "UPDATE dead_letters SET error = $1, deliveries = deliveries + 1, replay_requested_at = NULL \
                         WHERE id = $2",
                    )
                    .bind(format!("{e:#}"))
                    .bind(id)
                    .execute(self.db.pool())
                    .await?;
                    tracing::warn!(consumer = %self.durable, dead_letter = id, error = %format!("{e:#}"), "dead letter replay failed");
                }
            }
        }
        Ok(done)
    }
}

/// The dead letters of a database, oldest first (replayed ones too, marked).
pub async fn dead_letters(db: &Db) -> anyhow::Result<Vec<DeadLetter>> {
    let rows = sqlx::query(
        "SELECT id, consumer, event_id, subject, error, deliveries, created_at, replay_requested_at, replayed_at \
         FROM dead_letters ORDER BY id",
    )
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .iter()
        .map(|r| DeadLetter {
            id: r.get(0),
            consumer: r.get(1),
            event_id: r.get(2),
            subject: r.get(3),
            error: r.get(4),
            deliveries: r.get(5),
            created_at: r.get(6),
            replay_requested: r.get::<Option<i64>, _>(7).is_some(),
            replayed_at: r.get(8),
        })
        .collect())
}

/// Asks the running consumers to handle dead letters again (one, or every one not yet
/// replayed when `id` is `None`); returns how many were marked.
pub async fn request_replay(db: &Db, id: Option<i64>) -> anyhow::Result<u64> {
    let r = sqlx::query(
        "UPDATE dead_letters SET replay_requested_at = $1 WHERE replayed_at IS NULL AND ($2 = 0 OR id = $2)",
    )
    .bind(now_ms())
    .bind(id.unwrap_or(0))
    .execute(db.pool())
    .await?;
    Ok(r.rows_affected())
}

/// Deletes inbox records older than `keep_ms`; returns how many.
pub async fn purge_processed(db: &Db, keep_ms: i64) -> anyhow::Result<u64> {
    let r = sqlx::query("DELETE FROM processed_events WHERE processed_at < $1")
        .bind(now_ms() - keep_ms)
        .execute(db.pool())
        .await?;
    Ok(r.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_its_cap() {
        let r = Retry::default();
        assert_eq!(r.delay(1), Duration::from_secs(1));
        assert_eq!(r.delay(2), Duration::from_secs(2));
        assert_eq!(r.delay(4), Duration::from_secs(8));
        assert_eq!(r.delay(9), Duration::from_secs(256));
        assert_eq!(r.delay(10), Duration::from_secs(300));
        assert_eq!(r.delay(100), Duration::from_secs(300));
        let total: Duration = (1..r.max_deliver).map(|n| r.delay(n)).sum();
        assert!(total > Duration::from_secs(20 * 60), "retries outlast a blip: {total:?}");
    }
}
