//! Webhooks out of open-API channels: what the house's events make ([`WebhookEvents`]: an
//! order of the channel made, moved, paid; a product with linked SKUs saved; stock made due in
//! the ledger event's transaction, see `Repo::apply_level`) and the dispatcher that sends it
//! ([`Intake::run_webhooks`]).
//!
//! One replica dispatches at a time, under a lease it renews; starting, it frees the claims of
//! whoever dispatched before. Each round it makes the `stock.changed` message of every channel
//! with SKUs due and none on its way, tells keys about to expire, then takes the messages due
//! that are first of their ordering key and sends each on its own task: at most
//! `webhook_concurrency` in flight in all and `webhook_per_endpoint` to one endpoint (one while
//! it is failing), so a slow or dead endpoint holds only its own slots and never delays
//! another's messages. An attempt's outcome is written with the message's next state; a
//! process killed mid-attempt leaves its messages pending, sent again (same `webhook-id`) by
//! the next dispatcher.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bo_kit::db::Tx;
use bo_kit::inbox::{Meta, On};
use bo_kit::time::{ms_to_rfc3339, now_ms};
use bo_proto::events::v1::{OrderPaid, OrderPlaced, OrderStateChanged, ProductSaved};
use bo_proto::orders::v1 as opb;
use bo_proto::products::v1 as ppb;
use bo_proto::Wire as _;
use serde_json::json;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::Intake;
use crate::domain::webhook;
use crate::domain::Marketplace;
use crate::store::webhooks::{Due, NewMessage, Outcome, Recorded};
use crate::store::Repo;

/// The lease of the one dispatcher.
const LEASE: &str = "marketplaces.webhooks";
/// How long the dispatcher's lease lasts unrenewed.
const LEASE_TTL: Duration = Duration::from_secs(6);
/// Messages looked at per round.
const ROUND: i64 = 512;
/// How often keys about to expire are looked for.
const KEYS_EVERY: Duration = Duration::from_secs(60);

/// Whether an order of `channel` through `store_channel_id` came through an open-API channel
/// (a marketplace's came through a shop).
fn through_api(channel: &str, store_channel_id: i64) -> bool {
    store_channel_id > 0 && Marketplace::parse(channel).is_none()
}

/// An order's message: ordered by the order's version, then by its kind at that version.
fn order_message(
    event_type: &str,
    order_id: i64,
    version: i64,
    rank: i64,
    at: i64,
    data: serde_json::Value,
) -> NewMessage {
    NewMessage {
        event_type: event_type.into(),
        ordering_key: format!("order:{order_id}"),
        seq: version * 10 + rank,
        once_key: format!("order:{order_id}:v{version}:{event_type}"),
        at,
        data,
    }
}

/// Writes the webhook messages the house's events make, in the inbox's transaction.
pub struct WebhookEvents {
    /// Woken when a message is written.
    pub intake: Intake,
}

#[async_trait]
impl On<OrderPlaced> for WebhookEvents {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: OrderPlaced) -> anyhow::Result<()> {
        if !through_api(&e.channel, e.store_channel_id) {
            return Ok(());
        }
        let m = created_message(e.order_id, &e.order_no, &e.reference, e.total, meta.occur_ms);
        if Repo::enqueue_webhook(tx, meta.store_id, e.store_channel_id, &m).await? {
            self.intake.wake_webhooks();
        }
        Ok(())
    }
}

/// An order's `order.created`. Events of different kinds may be read out of the order they
/// were made in (an order placed paid: its OrderPaid before its OrderPlaced), so a later
/// message of an order writes this first where it is not written yet; the one written first
/// stays (once per order), and nothing of the order goes before it.
fn created_message(order_id: i64, order_no: &str, reference: &str, total: i64, at: i64) -> NewMessage {
    let data = json!({
        "order_id": order_id,
        "order_no": order_no,
        "reference": reference,
        "state": opb::OrderState::New.wire(),
        "total": total,
        "version": 1,
    });
    order_message("order.created", order_id, 1, 0, at, data)
}

#[async_trait]
impl On<OrderStateChanged> for WebhookEvents {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: OrderStateChanged) -> anyhow::Result<()> {
        if !through_api(&e.channel, e.store_channel_id) {
            return Ok(());
        }
        let to = opb::OrderState::word_of(e.to_state);
        let created = created_message(e.order_id, &e.order_no, &e.reference, e.total, meta.occur_ms);
        let mut wrote = Repo::enqueue_webhook(tx, meta.store_id, e.store_channel_id, &created).await?;
        for (rank, event_type) in webhook::order_events(to).into_iter().enumerate() {
            let mut data = json!({
                "order_id": e.order_id,
                "order_no": e.order_no,
                "reference": e.reference,
                "from_state": opb::OrderState::word_of(e.from_state),
                "state": to,
                "version": e.version,
            });
            if to == opb::OrderState::Shipped.wire() {
                data["tracking_no"] = json!(e.tracking_no);
            }
            let m = order_message(event_type, e.order_id, e.version, 1 + rank as i64, meta.occur_ms, data);
            wrote |= Repo::enqueue_webhook(tx, meta.store_id, e.store_channel_id, &m).await?;
        }
        if wrote {
            self.intake.wake_webhooks();
        }
        Ok(())
    }
}

#[async_trait]
impl On<OrderPaid> for WebhookEvents {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: OrderPaid) -> anyhow::Result<()> {
        if !through_api(&e.channel, e.store_channel_id) {
            return Ok(());
        }
        let data = json!({
            "order_id": e.order_id,
            "order_no": e.order_no,
            "reference": e.reference,
            "total": e.total,
            "version": e.version,
        });
        let created = created_message(e.order_id, &e.order_no, &e.reference, e.total, meta.occur_ms);
        let wrote = Repo::enqueue_webhook(tx, meta.store_id, e.store_channel_id, &created).await?;
        let m = order_message("order.paid", e.order_id, e.version, 5, meta.occur_ms, data);
        if Repo::enqueue_webhook(tx, meta.store_id, e.store_channel_id, &m).await? || wrote {
            self.intake.wake_webhooks();
        }
        Ok(())
    }
}

#[async_trait]
impl On<ProductSaved> for WebhookEvents {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: ProductSaved) -> anyhow::Result<()> {
        let sku_ids: Vec<i64> = e.skus.iter().map(|s| s.id).collect();
        let linked = Repo::api_links_of_skus(tx, meta.store_id, &sku_ids).await?;
        if linked.is_empty() {
            return Ok(());
        }
        let mut by_channel: HashMap<i64, HashMap<i64, Vec<String>>> = HashMap::new();
        for (channel, sku, external) in linked {
            by_channel.entry(channel).or_default().entry(sku).or_default().push(external);
        }
        let mut wrote = false;
        for (channel, externals) in by_channel {
            let skus: Vec<serde_json::Value> = e
                .skus
                .iter()
                .map(|s| {
                    json!({
                        "sku_id": s.id,
                        "code": s.code,
                        "barcode": s.barcode,
                        "option1": s.option1,
                        "option2": s.option2,
                        "price": s.price,
                        "status": ppb::ProductStatus::word_of(s.status),
                        "external_ids": externals.get(&s.id).cloned().unwrap_or_default(),
                    })
                })
                .collect();
            let m = NewMessage {
                event_type: "product.changed".into(),
                ordering_key: format!("product:{}", e.product_id),
                seq: e.version,
                once_key: format!("product:{}:v{}", e.product_id, e.version),
                at: meta.occur_ms,
                data: json!({
                    "product_id": e.product_id,
                    "code": e.code,
                    "name": e.name,
                    "status": ppb::ProductStatus::word_of(e.status),
                    "skus": skus,
                    "version": e.version,
                }),
            };
            wrote |= Repo::enqueue_webhook(tx, meta.store_id, channel, &m).await?;
        }
        if wrote {
            self.intake.wake_webhooks();
        }
        Ok(())
    }
}

/// What is in flight: the messages, and how many to each channel.
#[derive(Default)]
struct InFlight {
    ids: HashSet<i64>,
    per_channel: HashMap<i64, usize>,
}

impl InFlight {
    fn start(&mut self, id: i64, channel: i64) {
        self.ids.insert(id);
        *self.per_channel.entry(channel).or_default() += 1;
    }

    fn end(&mut self, id: i64, channel: i64) {
        self.ids.remove(&id);
        if let Some(n) = self.per_channel.get_mut(&channel) {
            *n = n.saturating_sub(1);
        }
    }
}

impl Intake {
    /// Wakes the dispatcher (a message was written or made due).
    pub fn wake_webhooks(&self) {
        self.inner.wake_webhooks.notify_one();
    }

    /// Dispatches webhook messages while this replica holds the lease, until cancelled.
    pub async fn run_webhooks(self, cancel: CancellationToken) {
        let db = self.inner.repo.db().clone();
        let holder = bo_kit::schedule::holder_id();
        loop {
            match bo_kit::schedule::try_lease(&db, LEASE, holder, LEASE_TTL).await {
                Ok(true) => {
                    let cancelled = cancel.clone();
                    let work = self.dispatch(cancelled);
                    if bo_kit::schedule::held(&db, LEASE, holder, LEASE_TTL, work).await.is_none() {
                        tracing::warn!("the webhook dispatcher lost its lease and stopped");
                    }
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %format!("{e:#}"), "could not take the webhook dispatcher's lease"),
            }
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(LEASE_TTL / 3) => {}
            }
        }
    }

    /// The dispatcher's rounds, until cancelled.
    async fn dispatch(&self, cancel: CancellationToken) {
        let repo = &self.inner.repo;
        let s = &self.inner.settings;
        match repo.release_webhook_claims().await {
            Ok(n) if n > 0 => tracing::info!(messages = n, "took over webhook messages claimed before"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not free the webhook claims"),
        }
        let slots = Arc::new(Semaphore::new(s.webhook_concurrency.max(1)));
        let flight = Arc::new(Mutex::new(InFlight::default()));
        let secrets: Arc<Mutex<HashMap<i64, Vec<u8>>>> = Arc::default();
        let mut keys_at = Instant::now() - KEYS_EVERY;
        let poll = Duration::from_millis(s.webhook_poll_ms.max(10));
        loop {
            if cancel.is_cancelled() {
                return;
            }
            if let Err(e) = self.round(&slots, &flight, &secrets, &mut keys_at).await {
                tracing::warn!(error = %e, "a webhook round failed");
            }
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = self.inner.wake_webhooks.notified() => {}
                _ = tokio::time::sleep(poll) => {}
            }
        }
    }

    /// One round: stock messages made, keys told, due messages sent.
    async fn round(
        &self,
        slots: &Arc<Semaphore>,
        flight: &Arc<Mutex<InFlight>>,
        secrets: &Arc<Mutex<HashMap<i64, Vec<u8>>>>,
        keys_at: &mut Instant,
    ) -> bo_kit::Result<()> {
        let repo = &self.inner.repo;
        let s = &self.inner.settings;
        for channel in repo.stock_channels_due().await? {
            repo.make_stock_message(channel).await?;
        }
        if keys_at.elapsed() >= KEYS_EVERY {
            *keys_at = Instant::now();
            self.tell_keys_expiring().await?;
        }
        let now = now_ms();
        let per_endpoint = s.webhook_per_endpoint.max(1);
        // The round's picks, each counted in flight (its slot and its endpoint's) until sent
        // or not claimed.
        let mut picked = Vec::new();
        for due in repo.webhooks_due(now, ROUND).await? {
            let channel = due.message.api_channel_id;
            {
                let f = flight.lock().expect("in-flight");
                let cap = if due.failing { 1 } else { per_endpoint };
                if f.ids.contains(&due.message.id) || f.per_channel.get(&channel).copied().unwrap_or(0) >= cap {
                    continue;
                }
            }
            let Ok(permit) = slots.clone().try_acquire_owned() else { break };
            let key = match self.signing_key(secrets, due.message.store_id, channel).await {
                Ok(k) => k,
                Err(e) => {
                    tracing::warn!(api_channel = channel, error = %e, "a channel's webhook secret does not open");
                    continue;
                }
            };
            flight.lock().expect("in-flight").start(due.message.id, channel);
            picked.push((due, key, permit));
        }
        if picked.is_empty() {
            return Ok(());
        }
        // Claimed in one statement: the writer is taken once a round, not once a message.
        let until = now + s.webhook_timeout_ms as i64 + 30_000;
        let ids: Vec<i64> = picked.iter().map(|(due, ..)| due.message.id).collect();
        let claimed: HashSet<i64> = match repo.claim_webhooks(&ids, now, until).await {
            Ok(claimed) => claimed.into_iter().collect(),
            Err(e) => {
                let mut f = flight.lock().expect("in-flight");
                for (due, ..) in &picked {
                    f.end(due.message.id, due.message.api_channel_id);
                }
                return Err(e);
            }
        };
        for (due, key, permit) in picked {
            let (id, channel) = (due.message.id, due.message.api_channel_id);
            if !claimed.contains(&id) {
                flight.lock().expect("in-flight").end(id, channel);
                continue;
            }
            let this = self.clone();
            let flight = flight.clone();
            tokio::spawn(async move {
                this.attempt(&key, due).await;
                flight.lock().expect("in-flight").end(id, channel);
                drop(permit);
                this.wake_webhooks();
            });
        }
        Ok(())
    }

    /// The key channel `channel`'s messages are signed with (kept once opened).
    async fn signing_key(
        &self,
        cache: &Mutex<HashMap<i64, Vec<u8>>>,
        store_id: i64,
        channel: i64,
    ) -> bo_kit::Result<Vec<u8>> {
        if let Some(k) = cache.lock().expect("secrets").get(&channel) {
            return Ok(k.clone());
        }
        let secret = self.inner.repo.webhook_secret(store_id, channel).await?;
        let key = webhook::key_of(secret.expose()).ok_or_else(|| {
            bo_kit::Error::internal(anyhow::anyhow!("webhook secret of channel {channel} unreadable"))
        })?;
        cache.lock().expect("secrets").insert(channel, key.clone());
        Ok(key)
    }

    /// Sends one message and records what came of it.
    async fn attempt(&self, key: &[u8], due: Due) {
        let s = &self.inner.settings;
        let m = &due.message;
        let at = now_ms();
        let timestamp_s = at / 1000;
        let signature = webhook::signature(key, &m.message_id, timestamp_s, &m.payload);
        let started = Instant::now();
        let sent = self
            .inner
            .hooks_http
            .post(&due.url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("webhook-id", &m.message_id)
            .header("webhook-timestamp", timestamp_s.to_string())
            .header("webhook-signature", signature)
            .body(m.payload.clone())
            .send()
            .await;
        let (status, answer, error) = match sent {
            Ok(res) => {
                let status = res.status().as_u16();
                match bo_kit::outbound::read_bounded("webhook", res, webhook::ANSWER_READ).await {
                    Ok(body) => (status, String::from_utf8_lossy(&body).into_owned(), String::new()),
                    Err(bo_kit::outbound::Unread::TooBig(n)) => {
                        (status, String::new(), format!("answer over {n} bytes"))
                    }
                    Err(bo_kit::outbound::Unread::Transport(t)) => (status, String::new(), t),
                }
            }
            Err(e) => (0, String::new(), bo_kit::outbound::describe("webhook", &e.without_url())),
        };
        let outcome = Outcome {
            at,
            url: due.url.clone(),
            timestamp_s,
            status,
            duration_ms: started.elapsed().as_millis() as i64,
            answer,
            error,
        };
        let schedule: &[u64] = if s.webhook_retry_ms.is_empty() { &webhook::BACKOFF_MS } else { &s.webhook_retry_ms };
        match self.inner.repo.record_webhook_attempt(m, &outcome, schedule, s.webhook_disable_after_ms).await {
            Ok(Recorded::GivenUp) => {
                tracing::warn!(api_channel = m.api_channel_id, message = %m.message_id, "a webhook message was given up")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(message = %m.message_id, error = %e, "could not record a webhook attempt"),
        }
    }

    /// Writes `channel.key_expiring` for every key that stops working within a day (each
    /// once): looked for every minute, and at once after a key is rolled.
    pub async fn tell_keys_expiring(&self) -> bo_kit::Result<()> {
        let repo = &self.inner.repo;
        for (key_id, store_id, channel, prefix, expires_at) in
            repo.keys_expiring(now_ms(), webhook::KEY_EXPIRY_NOTICE_MS).await?
        {
            let m = NewMessage {
                event_type: "channel.key_expiring".into(),
                ordering_key: format!("key:{key_id}"),
                seq: 0,
                once_key: format!("key:{key_id}:expiring"),
                at: now_ms(),
                data: json!({
                    "api_channel_id": channel,
                    "key": crate::domain::api_channel::shown(&prefix),
                    "expires_at": ms_to_rfc3339(expires_at),
                }),
            };
            repo.tell_key_expiring(key_id, store_id, channel, &m).await?;
            self.wake_webhooks();
        }
        Ok(())
    }

    /// Makes channel `channel_id`'s linked SKUs' stock (`sku_ids` of them, or every one)
    /// due now: how many SKUs.
    pub async fn push_api_stock(&self, store_id: i64, channel_id: i64, sku_ids: &[i64]) -> bo_kit::Result<u64> {
        let n = self.inner.repo.push_api_stock(store_id, channel_id, sku_ids).await?;
        if n > 0 {
            self.wake_webhooks();
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_open_api_orders_are_told() {
        assert!(through_api("website", 3));
        assert!(through_api("line", 3));
        assert!(!through_api("website", 0), "an order made here");
        assert!(!through_api("shopee", 3), "a marketplace shop's");
        assert!(!through_api("tiktok_shop", 3));
    }

    #[test]
    fn an_orders_messages_go_by_version_then_kind() {
        let created = order_message("order.created", 7, 1, 0, 0, json!({}));
        let paid = order_message("order.paid", 7, 1, 5, 0, json!({}));
        let moved = order_message("order.state_changed", 7, 2, 1, 0, json!({}));
        let shipped = order_message("order.shipped", 7, 2, 2, 0, json!({}));
        assert!(created.seq < paid.seq && paid.seq < moved.seq && moved.seq < shipped.seq);
        assert_eq!(created.ordering_key, shipped.ordering_key);
        assert_ne!(moved.once_key, shipped.once_key);
    }
}
