//! The in-process bus of the embedded target: an in-memory log with durable consumers,
//! explicit acks, redelivery after the ack wait, and de-duplication by message id.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;
use tokio::sync::Notify;

use super::{subject_matches, Acker, Bus, ConsumerConfig, Delivery, OutMessage, Subscription};

/// How long a message id is remembered for de-duplication (JetStream's default window).
const DEDUP_WINDOW: Duration = Duration::from_secs(120);
/// Messages kept once every consumer is past them, for consumers that attach late.
const RETAIN: usize = 10_000;

struct Stored {
    subject: String,
    payload: Bytes,
    headers: Vec<(String, String)>,
}

struct Pending {
    due: Instant,
    delivered: u64,
}

struct ConsumerState {
    filter: String,
    ack_wait: Duration,
    next_seq: u64,
    pending: BTreeMap<u64, Pending>,
}

#[derive(Default)]
struct Inner {
    first_seq: u64,
    log: VecDeque<Stored>,
    seen: HashMap<String, Instant>,
    seen_order: VecDeque<(Instant, String)>,
    consumers: HashMap<String, ConsumerState>,
}

/// The in-process bus.
#[derive(Clone)]
pub struct InProcBus {
    inner: Arc<Mutex<Inner>>,
    notify: Arc<Notify>,
    prefix: String,
}

impl InProcBus {
    /// A new, empty bus.
    pub fn new(prefix: impl Into<String>) -> Self {
        Self {
            inner: Arc::new(Mutex::new(Inner { first_seq: 1, ..Default::default() })),
            notify: Arc::new(Notify::new()),
            prefix: prefix.into(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Inner {
    fn end_seq(&self) -> u64 {
        self.first_seq + self.log.len() as u64
    }

    fn trim(&mut self) {
        if self.log.len() <= RETAIN {
            return;
        }
        let floor = self
            .consumers
            .values()
            .map(|c| c.pending.keys().next().copied().unwrap_or(c.next_seq).min(c.next_seq))
            .min()
            .unwrap_or(u64::MAX);
        while self.log.len() > RETAIN && self.first_seq < floor {
            self.log.pop_front();
            self.first_seq += 1;
        }
    }
}

#[async_trait]
impl Bus for InProcBus {
    async fn publish(&self, msg: OutMessage) -> anyhow::Result<()> {
        {
            let mut inner = self.lock();
            let now = Instant::now();
            while let Some((t, _)) = inner.seen_order.front() {
                if now.duration_since(*t) < DEDUP_WINDOW {
                    break;
                }
                let (_, id) = inner.seen_order.pop_front().expect("front exists");
                inner.seen.remove(&id);
            }
            if inner.seen.contains_key(&msg.msg_id) {
                return Ok(());
            }
            inner.seen.insert(msg.msg_id.clone(), now);
            inner.seen_order.push_back((now, msg.msg_id));
            inner.log.push_back(Stored { subject: msg.subject, payload: msg.payload, headers: msg.headers });
            inner.trim();
        }
        self.notify.notify_waiters();
        Ok(())
    }

    async fn subscribe(&self, cfg: ConsumerConfig) -> anyhow::Result<Box<dyn Subscription>> {
        {
            let mut inner = self.lock();
            let start = inner.first_seq;
            let state = inner.consumers.entry(cfg.durable.clone()).or_insert(ConsumerState {
                filter: cfg.filter.clone(),
                ack_wait: cfg.ack_wait,
                next_seq: start,
                pending: BTreeMap::new(),
            });
            state.filter = cfg.filter.clone();
            state.ack_wait = cfg.ack_wait;
        }
        Ok(Box::new(InProcSubscription { bus: self.clone(), durable: cfg.durable }))
    }

    fn prefix(&self) -> &str {
        &self.prefix
    }

    async fn healthy(&self) -> bool {
        true
    }
}

struct InProcSubscription {
    bus: InProcBus,
    durable: String,
}

impl InProcSubscription {
    /// The next delivery ready now, or how long until one may be.
    fn poll(&self) -> Result<Delivery, Duration> {
        let mut inner = self.bus.lock();
        let now = Instant::now();
        let first = inner.first_seq;
        let end = inner.end_seq();
        let Inner { consumers, log, .. } = &mut *inner;
        let Some(c) = consumers.get_mut(&self.durable) else {
            return Err(Duration::from_millis(100));
        };
        // Redeliveries first, oldest first.
        let due = c.pending.iter().find(|(_, p)| p.due <= now).map(|(s, _)| *s);
        let seq = match due {
            Some(seq) => Some(seq),
            None => {
                let mut found = None;
                while c.next_seq < end {
                    let seq = c.next_seq;
                    c.next_seq += 1;
                    if seq < first {
                        continue;
                    }
                    if subject_matches(&c.filter, &log[(seq - first) as usize].subject) {
                        found = Some(seq);
                        break;
                    }
                }
                found
            }
        };
        match seq {
            Some(seq) if seq >= first => {
                let entry = c.pending.entry(seq).or_insert(Pending { due: now, delivered: 0 });
                entry.delivered += 1;
                entry.due = now + c.ack_wait;
                let delivered = entry.delivered;
                let stored = &log[(seq - first) as usize];
                Ok(Delivery::new(
                    stored.subject.clone(),
                    stored.payload.clone(),
                    stored.headers.clone(),
                    delivered,
                    Box::new(InProcAcker { bus: self.bus.clone(), durable: self.durable.clone(), seq }),
                ))
            }
            Some(seq) => {
                // Trimmed away: forget it.
                c.pending.remove(&seq);
                Err(Duration::ZERO)
            }
            None => {
                let wait = c
                    .pending
                    .values()
                    .map(|p| p.due.saturating_duration_since(now))
                    .min()
                    .unwrap_or(Duration::from_secs(1));
                Err(wait.min(Duration::from_secs(1)))
            }
        }
    }
}

#[async_trait]
impl Subscription for InProcSubscription {
    async fn next(&mut self) -> Option<anyhow::Result<Delivery>> {
        loop {
            let notified = self.bus.notify.notified();
            match self.poll() {
                Ok(d) => return Some(Ok(d)),
                Err(wait) if wait.is_zero() => continue,
                Err(wait) => {
                    let _ = tokio::time::timeout(wait, notified).await;
                }
            }
        }
    }
}

struct InProcAcker {
    bus: InProcBus,
    durable: String,
    seq: u64,
}

#[async_trait]
impl Acker for InProcAcker {
    async fn ack(&self) -> anyhow::Result<()> {
        let mut inner = self.bus.lock();
        if let Some(c) = inner.consumers.get_mut(&self.durable) {
            c.pending.remove(&self.seq);
        }
        Ok(())
    }

    async fn nak(&self) -> anyhow::Result<()> {
        {
            let mut inner = self.bus.lock();
            if let Some(c) = inner.consumers.get_mut(&self.durable) {
                if let Some(p) = c.pending.get_mut(&self.seq) {
                    p.due = Instant::now();
                }
            }
        }
        self.bus.notify.notify_waiters();
        Ok(())
    }
}
