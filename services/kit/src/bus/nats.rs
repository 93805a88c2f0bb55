//! NATS JetStream: one stream for every subject under the prefix, durable pull consumers
//! with explicit ack, and `Nats-Msg-Id` set to the event id so a repeat is dropped.

use std::time::Duration;

use anyhow::Context as _;
use async_nats::jetstream::{self, consumer, stream, AckKind};
use async_trait::async_trait;
use futures::StreamExt;

use super::{Acker, Bus, ConsumerConfig, Delivery, OutMessage, Subscription, Tail};

/// JetStream behind the [`Bus`] interface.
pub struct NatsBus {
    client: async_nats::Client,
    js: jetstream::Context,
    stream: String,
    prefix: String,
}

impl NatsBus {
    /// Connects to `url` and creates the stream `<PREFIX>` over `<prefix>.>` if missing.
    pub async fn connect(url: &str, prefix: &str) -> anyhow::Result<NatsBus> {
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(Duration::from_secs(5))
            .connect(url)
            .await
            .with_context(|| format!("connecting to NATS at {}", crate::config::redact_url(url)))?;
        let js = jetstream::new(client.clone());
        let stream_name = prefix.replace(['.', '-', '*', '>'], "_").to_uppercase();
        js.get_or_create_stream(stream::Config {
            name: stream_name.clone(),
            subjects: vec![format!("{prefix}.>")],
            duplicate_window: Duration::from_secs(120),
            max_age: Duration::from_secs(7 * 24 * 3600),
            ..Default::default()
        })
        .await
        .context("creating the JetStream stream")?;
        Ok(NatsBus { client, js, stream: stream_name, prefix: prefix.to_string() })
    }
}

impl NatsBus {
    /// Deletes the stream and everything in it (tests clean up with this).
    pub async fn delete_stream(&self) -> anyhow::Result<()> {
        self.js.delete_stream(&self.stream).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    }
}

#[async_trait]
impl Bus for NatsBus {
    async fn publish(&self, msg: OutMessage) -> anyhow::Result<()> {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Nats-Msg-Id", msg.msg_id.as_str());
        for (k, v) in &msg.headers {
            headers.insert(k.as_str(), v.as_str());
        }
        let ack =
            self.js.publish_with_headers(msg.subject, headers, msg.payload).await.context("publishing to JetStream")?;
        ack.await.context("waiting for the JetStream ack")?;
        Ok(())
    }

    async fn publish_many(&self, msgs: Vec<OutMessage>) -> anyhow::Result<()> {
        // Send them all, then wait for the acks: one round trip for the batch.
        let mut acks = Vec::with_capacity(msgs.len());
        for msg in msgs {
            let mut headers = async_nats::HeaderMap::new();
            headers.insert("Nats-Msg-Id", msg.msg_id.as_str());
            for (k, v) in &msg.headers {
                headers.insert(k.as_str(), v.as_str());
            }
            acks.push(
                self.js
                    .publish_with_headers(msg.subject, headers, msg.payload)
                    .await
                    .context("publishing to JetStream")?,
            );
        }
        for ack in acks {
            ack.await.context("waiting for the JetStream ack")?;
        }
        Ok(())
    }

    async fn subscribe(&self, cfg: ConsumerConfig) -> anyhow::Result<Box<dyn Subscription>> {
        let stream = self.js.get_stream(&self.stream).await.context("opening the stream")?;
        let consumer: consumer::PullConsumer = stream
            .get_or_create_consumer(
                &cfg.durable,
                consumer::pull::Config {
                    durable_name: Some(cfg.durable.clone()),
                    filter_subject: cfg.filter.clone(),
                    ack_policy: consumer::AckPolicy::Explicit,
                    ack_wait: cfg.ack_wait,
                    deliver_policy: consumer::DeliverPolicy::All,
                    ..Default::default()
                },
            )
            .await
            .context("creating the durable consumer")?;
        let messages = consumer.messages().await.context("opening the consumer's messages")?;
        Ok(Box::new(NatsSubscription { messages }))
    }

    async fn tail(&self, filter: &str) -> anyhow::Result<Box<dyn Tail>> {
        // What JetStream keeps is published on core NATS first: a plain subscription sees it.
        let sub = self.client.subscribe(filter.to_string()).await.context("following the bus")?;
        Ok(Box::new(NatsTail { sub }))
    }

    fn prefix(&self) -> &str {
        &self.prefix
    }

    async fn healthy(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }
}

struct NatsTail {
    sub: async_nats::Subscriber,
}

#[async_trait]
impl Tail for NatsTail {
    async fn next(&mut self) -> Option<(String, bytes::Bytes)> {
        self.sub.next().await.map(|m| (m.subject.to_string(), m.payload))
    }
}

struct NatsSubscription {
    messages: consumer::pull::Stream,
}

#[async_trait]
impl Subscription for NatsSubscription {
    async fn next(&mut self) -> Option<anyhow::Result<Delivery>> {
        let msg = self.messages.next().await?;
        Some(delivery_of(msg))
    }

    async fn ready(&mut self) -> Option<anyhow::Result<Delivery>> {
        // The pull stream keeps what it fetched ahead; polled once, it answers one of those
        // or nothing, and leaves the rest in the stream.
        let msg = futures::FutureExt::now_or_never(self.messages.next()).flatten()?;
        Some(delivery_of(msg))
    }
}

fn delivery_of(msg: Result<jetstream::Message, consumer::pull::MessagesError>) -> anyhow::Result<Delivery> {
    let msg = msg.map_err(|e| anyhow::anyhow!("receiving from JetStream: {e}"))?;
    let delivered = msg.info().map(|i| i.delivered as u64).unwrap_or(1);
    let headers = msg
        .headers
        .as_ref()
        .map(|h| h.iter().filter_map(|(k, vs)| vs.first().map(|v| (k.to_string(), v.to_string()))).collect())
        .unwrap_or_default();
    let subject = msg.subject.to_string();
    let payload = msg.payload.clone();
    Ok(Delivery::new(subject, payload, headers, delivered, Box::new(NatsAcker { msg })))
}

struct NatsAcker {
    msg: jetstream::Message,
}

#[async_trait]
impl Acker for NatsAcker {
    async fn ack(&self) -> anyhow::Result<()> {
        self.msg.double_ack().await.map_err(|e| anyhow::anyhow!("ack: {e}"))
    }

    async fn nak(&self, delay: Duration) -> anyhow::Result<()> {
        self.msg.ack_with(AckKind::Nak(Some(delay))).await.map_err(|e| anyhow::anyhow!("nak: {e}"))
    }
}
