//! The event bus: one interface, two implementations. [`nats::NatsBus`] is JetStream
//! (stream created if missing, durable pull consumers, explicit ack, `Nats-Msg-Id`
//! de-duplication); [`log::LogBus`] gives the same guarantees inside one process for the
//! embedded `all` target, on a SQLite log file that survives a crash.

pub mod log;
pub mod nats;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;

/// A message to publish.
#[derive(Debug, Clone)]
pub struct OutMessage {
    /// Full subject, e.g. `backoffice.stores.customer.created.v1`.
    pub subject: String,
    /// The encoded envelope.
    pub payload: Bytes,
    /// The de-duplication id (the event id).
    pub msg_id: String,
    /// Extra headers (trace context).
    pub headers: Vec<(String, String)>,
}

/// A message handed to a consumer. It must be acked, or it comes back.
pub struct Delivery {
    /// Subject it was published on.
    pub subject: String,
    /// The encoded envelope.
    pub payload: Bytes,
    /// Headers (trace context).
    pub headers: Vec<(String, String)>,
    /// How many times it has been delivered, this time included.
    pub delivered: u64,
    acker: Box<dyn Acker>,
}

impl Delivery {
    /// Builds a delivery (for bus implementations).
    pub fn new(
        subject: String,
        payload: Bytes,
        headers: Vec<(String, String)>,
        delivered: u64,
        acker: Box<dyn Acker>,
    ) -> Self {
        Self { subject, payload, headers, delivered, acker }
    }
    /// Handled: never deliver again.
    pub async fn ack(self) -> anyhow::Result<()> {
        self.acker.ack().await
    }
    /// Not handled: deliver again after `delay`.
    pub async fn nak(self, delay: Duration) -> anyhow::Result<()> {
        self.acker.nak(delay).await
    }
}

/// Acknowledges one delivery.
#[async_trait]
pub trait Acker: Send + Sync {
    /// Positive acknowledgement.
    async fn ack(&self) -> anyhow::Result<()>;
    /// Negative acknowledgement: redeliver after `delay`.
    async fn nak(&self, delay: Duration) -> anyhow::Result<()>;
}

/// A durable consumer's stream of deliveries.
#[async_trait]
pub trait Subscription: Send {
    /// The next delivery; `None` when the bus has closed.
    async fn next(&mut self) -> Option<anyhow::Result<Delivery>>;
    /// The next delivery if one is ready now, without waiting for one; `None` when none is.
    async fn ready(&mut self) -> Option<anyhow::Result<Delivery>>;
}

/// A live view of what is published from now on: nothing is kept for it, acked or delivered
/// again, and what was published while nobody followed is not seen (screens follow progress
/// with it; what must not be lost goes to a durable consumer).
#[async_trait]
pub trait Tail: Send {
    /// The next message's subject and payload; `None` when the bus has closed. A follower
    /// too slow to keep up skips what it missed.
    async fn next(&mut self) -> Option<(String, Bytes)>;
}

/// Settings of a durable consumer.
#[derive(Debug, Clone)]
pub struct ConsumerConfig {
    /// Durable name; a second subscription with the same name continues where the first
    /// stopped, and gets what it left unacked.
    pub durable: String,
    /// Subject filter with `*` and `>` wildcards.
    pub filter: String,
    /// How long an unacked delivery waits before it is delivered again.
    pub ack_wait: Duration,
}

/// The bus.
#[async_trait]
pub trait Bus: Send + Sync + 'static {
    /// Publishes; a repeat of a `msg_id` seen within the de-duplication window is dropped.
    async fn publish(&self, msg: OutMessage) -> anyhow::Result<()>;
    /// Publishes several messages, in order; an error means some may not have gone (the
    /// caller publishes them again, and repeats are dropped).
    async fn publish_many(&self, msgs: Vec<OutMessage>) -> anyhow::Result<()> {
        for m in msgs {
            self.publish(m).await?;
        }
        Ok(())
    }
    /// Opens (or resumes) a durable consumer.
    async fn subscribe(&self, cfg: ConsumerConfig) -> anyhow::Result<Box<dyn Subscription>>;
    /// Follows what is published under `filter` (with `*` and `>`) from now on, every
    /// follower seeing every message: each replica of the gateway follows the bus this way
    /// and so hears what any replica's services published.
    async fn tail(&self, filter: &str) -> anyhow::Result<Box<dyn Tail>>;
    /// The subject prefix (`backoffice` unless configured otherwise).
    fn prefix(&self) -> &str;
    /// True when the bus is connected.
    async fn healthy(&self) -> bool;
}

/// A shared bus.
pub type SharedBus = Arc<dyn Bus>;

/// The subject for an event type: `stores.customer.created` becomes
/// `<prefix>.stores.customer.created.v1`.
pub fn subject_for(prefix: &str, event_type: &str) -> String {
    format!("{prefix}.{event_type}.v1")
}

/// NATS subject matching with `*` (one token) and `>` (the rest).
pub fn subject_matches(filter: &str, subject: &str) -> bool {
    let mut f = filter.split('.');
    let mut s = subject.split('.');
    loop {
        match (f.next(), s.next()) {
            (Some(">"), Some(_)) => return true,
            (Some("*"), Some(_)) => {}
            (Some(a), Some(b)) if a == b => {}
            (None, None) => return true,
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_wildcards() {
        assert!(subject_matches("backoffice.>", "backoffice.stores.customer.created.v1"));
        assert!(subject_matches("backoffice.stores.*.created.v1", "backoffice.stores.customer.created.v1"));
        assert!(!subject_matches("backoffice.orders.>", "backoffice.stores.customer.created.v1"));
        assert!(!subject_matches("backoffice.>", "backoffice"));
        assert!(subject_matches("a.b", "a.b"));
        assert!(!subject_matches("a.b", "a.b.c"));
    }

    #[test]
    fn names_subjects() {
        assert_eq!(subject_for("backoffice", "stores.customer.created"), "backoffice.stores.customer.created.v1");
    }
}
