//! The embedded target's bus: a log in a SQLite file (`<data_dir>/bus.db`) with durable
//! consumers, explicit acks, redelivery after the ack wait or a nak's delay, and
//! de-duplication by message id, as JetStream gives them.
//!
//! Why it survives a crash: a relay marks its outbox rows sent only after the log has
//! committed them, and a consumer's position (its ack floor, below which everything is
//! acked) is kept in the log. After a `kill -9`, unpublished rows are published again (the
//! log drops the repeats by message id), and everything above a consumer's floor is
//! delivered again (its inbox skips what it had already handled). A nak'd message keeps its
//! delivery count and due time in the log, so backoff and dead-lettering survive restarts.
//!
//! Why it survives a power cut too (SQLite files run `synchronous = NORMAL`: a commit is
//! safe from a crash at once, and from a power cut once its file's log is synced, which
//! [`crate::db`] does every second): the relay publishes again, on start, the rows it marked
//! sent in the last [`crate::outbox::RESEND_MS`] (the log drops what it kept), and a log
//! that was not closed cleanly delivers again the messages of the last [`REWIND_MS`] to
//! every consumer (their inboxes skip what they had handled and kept). So a mark of "sent"
//! that outlived the message, or an ack that outlived its consumer's effect, loses nothing.
//!
//! Messages are kept seven days, as the JetStream stream is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use async_trait::async_trait;
use bytes::Bytes;
use sqlx::Row;
use tokio::sync::{Mutex, Notify};

use super::{subject_matches, Acker, Bus, ConsumerConfig, Delivery, OutMessage, Subscription, Tail};
use crate::db::Db;
use crate::time::now_ms;

/// How long messages are kept (JetStream's `max_age` in distributed mode).
const MAX_AGE_MS: i64 = 7 * 24 * 3600 * 1000;
/// A message read from the log: sequence, subject, payload, headers.
type Logged = (i64, String, Bytes, Vec<(String, String)>);

/// How far back consumers are delivered again after a log that was not closed cleanly
/// (what a power cut may have taken from a consumer's database, a second's writes, with
/// room to spare).
pub const REWIND_MS: i64 = 10_000;

/// Messages read per query.
const PAGE: i64 = 100;
/// Messages a live follower may fall behind by before it skips ahead.
const LIVE_BACKLOG: usize = 4096;
/// Messages written per statement by [`Bus::publish_many`] (five values each, far below
/// SQLite's limit of bound values).
const PUBLISH_CHUNK: usize = 200;
/// Acks between writes of a consumer's floor (it is also written 200 ms after the last).
const FLOOR_EVERY: i64 = 50;

const SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS bus_messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        subject TEXT NOT NULL,
        msg_id TEXT NOT NULL UNIQUE,
        payload BLOB NOT NULL,
        headers TEXT NOT NULL,
        created_at BIGINT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS bus_messages_subject ON bus_messages (subject, seq)",
    "CREATE INDEX IF NOT EXISTS bus_messages_age ON bus_messages (created_at)",
    "CREATE TABLE IF NOT EXISTS bus_consumers (
        durable TEXT PRIMARY KEY,
        filter TEXT NOT NULL,
        ack_floor BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS bus_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS bus_redeliveries (
        durable TEXT NOT NULL,
        seq BIGINT NOT NULL,
        deliveries BIGINT NOT NULL,
        due_at BIGINT NOT NULL,
        PRIMARY KEY (durable, seq)
    )",
];

/// The log bus.
#[derive(Clone)]
pub struct LogBus {
    db: Db,
    prefix: String,
    notify: Arc<Notify>,
    /// The newest sequence this process wrote per subject: a subscription woken by a
    /// message of another subject reads nothing from the log (it still reads it once a
    /// second, for what another process might have written).
    latest: Arc<std::sync::Mutex<std::collections::HashMap<String, i64>>>,
    last_purge: Arc<std::sync::Mutex<i64>>,
    /// What this process publishes, to its live followers.
    live: tokio::sync::broadcast::Sender<(String, Bytes)>,
    _dir: Option<Arc<tempfile::TempDir>>,
}

impl LogBus {
    /// Opens (or creates) the log at `path`.
    pub async fn open(path: &Path, prefix: impl Into<String>) -> anyhow::Result<LogBus> {
        Self::open_in(path.to_path_buf(), prefix.into(), None).await
    }

    /// A log in a temporary folder, removed with the bus (tests and one-off commands).
    pub async fn temporary(prefix: impl Into<String>) -> anyhow::Result<LogBus> {
        let dir = tempfile::tempdir().context("creating a temporary folder for the bus")?;
        let path = dir.path().join("bus.db");
        Self::open_in(path, prefix.into(), Some(Arc::new(dir))).await
    }

    async fn open_in(path: PathBuf, prefix: String, dir: Option<Arc<tempfile::TempDir>>) -> anyhow::Result<LogBus> {
        let db = Db::connect(&format!("sqlite://{}", path.display())).await.context("opening the bus log")?;
        for sql in SCHEMA {
            sqlx::query(sql).execute(db.pool()).await.context("creating the bus log")?;
        }
        // Open and not closed: the process stopped short (a crash or a power cut). Every
        // consumer gets the last seconds again; its inbox skips what it kept.
        let open: Option<i64> = sqlx::query_scalar("SELECT value FROM bus_meta WHERE name = 'open'")
            .fetch_optional(db.pool())
            .await
            .context("reading the bus log")?;
        if open.unwrap_or(0) > 0 {
            let r = sqlx::query(
                "UPDATE bus_consumers SET ack_floor = (SELECT MIN(seq) - 1 FROM bus_messages WHERE created_at >= $1) \
                 WHERE ack_floor >= (SELECT MIN(seq) FROM bus_messages WHERE created_at >= $1)",
            )
            .bind(now_ms() - REWIND_MS)
            .execute(db.pool())
            .await
            .context("rewinding the bus log's consumers")?;
            if r.rows_affected() > 0 {
                tracing::info!(
                    consumers = r.rows_affected(),
                    "the bus log was not closed cleanly: its consumers get its last seconds again"
                );
            }
        }
        sqlx::query("INSERT INTO bus_meta (name, value) VALUES ('open', 1) ON CONFLICT (name) DO UPDATE SET value = 1")
            .execute(db.pool())
            .await
            .context("writing the bus log")?;
        Ok(LogBus {
            db,
            prefix,
            notify: Arc::new(Notify::new()),
            latest: Arc::new(std::sync::Mutex::new(std::collections::HashMap::new())),
            last_purge: Arc::new(std::sync::Mutex::new(0)),
            live: tokio::sync::broadcast::channel(LIVE_BACKLOG).0,
            _dir: dir,
        })
    }

    /// The log's database (tests look inside).
    #[cfg(test)]
    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// Closes the log's pool.
    pub async fn close(&self) {
        if let Err(e) = sqlx::query("UPDATE bus_meta SET value = 0 WHERE name = 'open'").execute(self.db.pool()).await {
            tracing::warn!(error = %e, "could not mark the bus log closed");
        }
        self.db.close().await;
    }

    /// Hands a message just written to the live followers (none may be listening).
    fn show(&self, msg: &OutMessage) {
        if self.live.receiver_count() > 0 {
            let _ = self.live.send((msg.subject.clone(), msg.payload.clone()));
        }
    }

    fn wrote(&self, subject: &str, seq: i64) {
        let mut latest = self.latest.lock().unwrap_or_else(|p| p.into_inner());
        let e = latest.entry(subject.to_string()).or_insert(seq);
        *e = (*e).max(seq);
    }

    /// True when this process wrote nothing of `subject` after `cursor` (nor anything of it
    /// at all since it opened the log: what was there before, or what another process
    /// writes, the once-a-second read finds).
    fn nothing_after(&self, subject: &str, cursor: i64) -> bool {
        self.latest.lock().unwrap_or_else(|p| p.into_inner()).get(subject).is_none_or(|s| *s <= cursor)
    }

    /// Drops messages older than seven days, at most once an hour.
    async fn maybe_purge(&self) {
        let now = now_ms();
        {
            let mut last = self.last_purge.lock().unwrap_or_else(|p| p.into_inner());
            if now - *last < 3_600_000 {
                return;
            }
            *last = now;
        }
        if let Err(e) = sqlx::query("DELETE FROM bus_messages WHERE created_at < $1")
            .bind(now - MAX_AGE_MS)
            .execute(self.db.pool())
            .await
        {
            tracing::warn!(error = %e, "purging the bus log failed");
        }
    }
}

#[async_trait]
impl Bus for LogBus {
    async fn publish(&self, msg: OutMessage) -> anyhow::Result<()> {
        let seq: Option<i64> = sqlx::query_scalar(
            "INSERT INTO bus_messages (subject, msg_id, payload, headers, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (msg_id) DO NOTHING RETURNING seq",
        )
        .bind(&msg.subject)
        .bind(&msg.msg_id)
        .bind(msg.payload.to_vec())
        .bind(serde_json::to_string(&msg.headers).unwrap_or_else(|_| "[]".into()))
        .bind(now_ms())
        .fetch_optional(self.db.pool())
        .await
        .context("writing to the bus log")?;
        if let Some(seq) = seq {
            self.wrote(&msg.subject, seq);
            self.show(&msg);
        }
        self.notify.notify_waiters();
        self.maybe_purge().await;
        Ok(())
    }

    async fn publish_many(&self, msgs: Vec<OutMessage>) -> anyhow::Result<()> {
        if msgs.is_empty() {
            return Ok(());
        }
        // One statement for a chunk of the batch (a relay's round is one chunk): every
        // message a row, repeats of a kept id dropped, the new rows' sequences returned.
        let now = now_ms();
        let mut written: Vec<(i64, &OutMessage)> = Vec::with_capacity(msgs.len());
        for chunk in msgs.chunks(PUBLISH_CHUNK) {
            let rows = (0..chunk.len())
                .map(|i| format!("(${}, ${}, ${}, ${}, ${})", 5 * i + 1, 5 * i + 2, 5 * i + 3, 5 * i + 4, 5 * i + 5))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "INSERT INTO bus_messages (subject, msg_id, payload, headers, created_at) VALUES {rows} \
                 ON CONFLICT (msg_id) DO NOTHING RETURNING seq, msg_id"
            );
            let mut q = sqlx::query(&sql);
            for msg in chunk {
                q = q
                    .bind(&msg.subject)
                    .bind(&msg.msg_id)
                    .bind(msg.payload.to_vec())
                    .bind(serde_json::to_string(&msg.headers).unwrap_or_else(|_| "[]".into()))
                    .bind(now);
            }
            let kept = self.db.fetch_all_write(q).await.context("writing to the bus log")?;
            // A row kept is the first message of its id in the chunk.
            let mut by_id: std::collections::HashMap<&str, &OutMessage> = std::collections::HashMap::new();
            for msg in chunk.iter().rev() {
                by_id.insert(msg.msg_id.as_str(), msg);
            }
            for r in kept {
                let (seq, id): (i64, String) = (r.get(0), r.get(1));
                if let Some(msg) = by_id.get(id.as_str()) {
                    written.push((seq, *msg));
                }
            }
        }
        written.sort_by_key(|(seq, _)| *seq);
        for (seq, msg) in written {
            self.wrote(&msg.subject, seq);
            self.show(msg);
        }
        self.notify.notify_waiters();
        self.maybe_purge().await;
        Ok(())
    }

    async fn subscribe(&self, cfg: ConsumerConfig) -> anyhow::Result<Box<dyn Subscription>> {
        // A new consumer starts at the oldest kept message, as JetStream's DeliverPolicy::All.
        sqlx::query(
            "INSERT INTO bus_consumers (durable, filter, ack_floor) \
             VALUES ($1, $2, (SELECT COALESCE(MIN(seq), 1) - 1 FROM bus_messages)) \
             ON CONFLICT (durable) DO UPDATE SET filter = excluded.filter",
        )
        .bind(&cfg.durable)
        .bind(&cfg.filter)
        .execute(self.db.pool())
        .await?;
        let floor: i64 = sqlx::query_scalar("SELECT ack_floor FROM bus_consumers WHERE durable = $1")
            .bind(&cfg.durable)
            .fetch_one(self.db.pool())
            .await?;
        let rows = sqlx::query("SELECT seq, deliveries, due_at FROM bus_redeliveries WHERE durable = $1")
            .bind(&cfg.durable)
            .fetch_all(self.db.pool())
            .await?;
        let mut state = State { floor, saved_floor: floor, cursor: floor, ..Default::default() };
        for r in rows {
            let seq: i64 = r.get(0);
            state
                .pending
                .insert(seq, Pending { deliveries: r.get::<i64, _>(1) as u64, due: r.get(2), persisted: true });
        }
        Ok(Box::new(LogSubscription {
            bus: self.clone(),
            durable: cfg.durable.clone(),
            filter: cfg.filter.clone(),
            exact: !cfg.filter.contains(['*', '>']),
            ack_wait_ms: cfg.ack_wait.as_millis() as i64,
            state: Arc::new(Mutex::new(state)),
        }))
    }

    async fn tail(&self, filter: &str) -> anyhow::Result<Box<dyn Tail>> {
        Ok(Box::new(LogTail { live: self.live.subscribe(), filter: filter.to_string() }))
    }

    fn prefix(&self) -> &str {
        &self.prefix
    }

    async fn healthy(&self) -> bool {
        self.db.ping().await
    }
}

/// A live follower of this process's log: what is written from now on (another process
/// writing the same log is not heard; the embedded target is one process).
struct LogTail {
    live: tokio::sync::broadcast::Receiver<(String, Bytes)>,
    filter: String,
}

#[async_trait]
impl Tail for LogTail {
    async fn next(&mut self) -> Option<(String, Bytes)> {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match self.live.recv().await {
                Ok((subject, payload)) if subject_matches(&self.filter, &subject) => return Some((subject, payload)),
                Ok(_) => {}
                Err(RecvError::Lagged(missed)) => tracing::debug!(missed, "a live follower of the bus skipped ahead"),
                Err(RecvError::Closed) => return None,
            }
        }
    }
}

/// A message delivered and not yet acked, or nak'd and waiting.
#[derive(Debug, Clone, Copy)]
struct Pending {
    deliveries: u64,
    /// When it may be delivered again (unix ms).
    due: i64,
    /// Kept in `bus_redeliveries` (it was nak'd).
    persisted: bool,
}

#[derive(Default)]
struct State {
    /// Everything at or below it is acked (kept in the log, lazily: see [`FLOOR_EVERY`]).
    floor: i64,
    /// The floor last written to the log.
    saved_floor: i64,
    /// When the floor was last written (unix ms).
    saved_at: i64,
    /// Messages read ahead of the cursor, in order.
    ahead: std::collections::VecDeque<Logged>,
    /// The highest sequence read from the log.
    cursor: i64,
    /// When the log was last read (unix ms).
    read_at: i64,
    pending: BTreeMap<i64, Pending>,
}

impl State {
    /// The new floor: just below the oldest unacked message, or the cursor.
    fn floor_now(&self) -> i64 {
        self.pending.keys().next().map(|s| s - 1).unwrap_or(self.cursor).max(self.floor)
    }
}

struct LogSubscription {
    bus: LogBus,
    durable: String,
    filter: String,
    exact: bool,
    ack_wait_ms: i64,
    state: Arc<Mutex<State>>,
}

impl LogSubscription {
    async fn load(&self, seq: i64) -> anyhow::Result<Option<(String, Bytes, Vec<(String, String)>)>> {
        let row = sqlx::query("SELECT subject, payload, headers FROM bus_messages WHERE seq = $1")
            .bind(seq)
            .fetch_optional(self.bus.db.pool())
            .await?;
        Ok(row.map(|r| {
            let payload: Vec<u8> = r.get(1);
            (r.get(0), Bytes::from(payload), serde_json::from_str(&r.get::<String, _>(2)).unwrap_or_default())
        }))
    }

    /// Up to a page of new messages after `cursor` that match the filter, in order.
    async fn read_ahead(&self, cursor: i64) -> anyhow::Result<Vec<Logged>> {
        let mut from = cursor;
        loop {
            let rows = if self.exact {
                sqlx::query(
                    "SELECT seq, subject, payload, headers FROM bus_messages WHERE subject = $1 AND seq > $2 \
                     ORDER BY seq LIMIT $3",
                )
                .bind(&self.filter)
                .bind(from)
                .bind(PAGE)
                .fetch_all(self.bus.db.pool())
                .await?
            } else {
                sqlx::query(
                    "SELECT seq, subject, payload, headers FROM bus_messages WHERE seq > $1 ORDER BY seq LIMIT $2",
                )
                .bind(from)
                .bind(PAGE)
                .fetch_all(self.bus.db.pool())
                .await?
            };
            if rows.is_empty() {
                return Ok(Vec::new());
            }
            let mut out = Vec::new();
            for r in &rows {
                let seq: i64 = r.get(0);
                let subject: String = r.get(1);
                from = seq;
                if subject_matches(&self.filter, &subject) {
                    let payload: Vec<u8> = r.get(2);
                    let headers = serde_json::from_str(&r.get::<String, _>(3)).unwrap_or_default();
                    out.push((seq, subject, Bytes::from(payload), headers));
                }
            }
            if !out.is_empty() || self.exact {
                return Ok(out);
            }
        }
    }

    /// The next delivery ready now, or how long to wait for one.
    async fn poll(&self) -> anyhow::Result<Result<Delivery, Duration>> {
        let mut st = self.state.lock().await;
        let now = now_ms();
        // Redeliveries first, oldest first.
        let due = st.pending.iter().find(|(_, p)| p.due <= now).map(|(s, p)| (*s, *p));
        if let Some((seq, p)) = due {
            match self.load(seq).await? {
                Some((subject, payload, headers)) => {
                    let deliveries = p.deliveries + 1;
                    st.pending.insert(seq, Pending { deliveries, due: now + self.ack_wait_ms, persisted: p.persisted });
                    return Ok(Ok(self.delivery(seq, subject, payload, headers, deliveries)));
                }
                None => {
                    // Aged out of the log: nothing left to deliver.
                    st.pending.remove(&seq);
                    return Ok(Err(Duration::ZERO));
                }
            }
        }
        if st.ahead.is_empty() {
            let cursor = st.cursor;
            // Woken by another subject's message: nothing to read (but read once a second
            // anyway, for what another process may have written).
            let idle = self.exact && self.bus.nothing_after(&self.filter, cursor) && now - st.read_at < 1_000;
            if !idle {
                st.read_at = now;
                let read = self.read_ahead(cursor).await?;
                st.ahead.extend(read);
            }
        }
        if let Some((seq, subject, payload, headers)) = st.ahead.pop_front() {
            st.cursor = seq;
            if st.pending.contains_key(&seq) {
                // Nak'd before a restart and not yet due: it comes when due.
                return Ok(Err(Duration::ZERO));
            }
            st.pending.insert(seq, Pending { deliveries: 1, due: now + self.ack_wait_ms, persisted: false });
            return Ok(Ok(self.delivery(seq, subject, payload, headers, 1)));
        }
        let wait = st.pending.values().map(|p| p.due - now).min().unwrap_or(1000).clamp(1, 1000);
        Ok(Err(Duration::from_millis(wait as u64)))
    }

    fn delivery(&self, seq: i64, subject: String, payload: Bytes, headers: Vec<(String, String)>, n: u64) -> Delivery {
        Delivery::new(
            subject,
            payload,
            headers,
            n,
            Box::new(LogAcker { bus: self.bus.clone(), durable: self.durable.clone(), seq, state: self.state.clone() }),
        )
    }
}

#[async_trait]
impl Subscription for LogSubscription {
    async fn next(&mut self) -> Option<anyhow::Result<Delivery>> {
        loop {
            let notified = self.bus.notify.notified();
            match self.poll().await {
                Ok(Ok(d)) => return Some(Ok(d)),
                Ok(Err(wait)) if wait.is_zero() => continue,
                Ok(Err(wait)) => {
                    let _ = tokio::time::timeout(wait, notified).await;
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }

    async fn ready(&mut self) -> Option<anyhow::Result<Delivery>> {
        match self.poll().await {
            Ok(Ok(d)) => Some(Ok(d)),
            Ok(Err(_)) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

struct LogAcker {
    bus: LogBus,
    durable: String,
    seq: i64,
    state: Arc<Mutex<State>>,
}

#[async_trait]
impl Acker for LogAcker {
    async fn ack(&self) -> anyhow::Result<()> {
        let mut st = self.state.lock().await;
        let Some(p) = st.pending.remove(&self.seq) else { return Ok(()) };
        if p.persisted {
            sqlx::query("DELETE FROM bus_redeliveries WHERE durable = $1 AND seq = $2")
                .bind(&self.durable)
                .bind(self.seq)
                .execute(self.bus.db.pool())
                .await?;
        }
        st.floor = st.floor_now();
        // The floor is written now and then, not on every ack: after a crash the messages
        // acked since are delivered again, and inboxes skip them.
        let now = now_ms();
        if st.floor != st.saved_floor && (st.floor - st.saved_floor >= FLOOR_EVERY || now - st.saved_at >= 200) {
            sqlx::query("UPDATE bus_consumers SET ack_floor = $1 WHERE durable = $2")
                .bind(st.floor)
                .bind(&self.durable)
                .execute(self.bus.db.pool())
                .await?;
            st.saved_floor = st.floor;
            st.saved_at = now;
        }
        Ok(())
    }

    async fn nak(&self, delay: Duration) -> anyhow::Result<()> {
        {
            let mut st = self.state.lock().await;
            let Some(p) = st.pending.get(&self.seq).copied() else { return Ok(()) };
            let due = now_ms() + delay.as_millis() as i64;
            sqlx::query(
                "INSERT INTO bus_redeliveries (durable, seq, deliveries, due_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (durable, seq) DO UPDATE SET deliveries = excluded.deliveries, due_at = excluded.due_at",
            )
            .bind(&self.durable)
            .bind(self.seq)
            .bind(p.deliveries as i64)
            .bind(due)
            .execute(self.bus.db.pool())
            .await?;
            st.pending.insert(self.seq, Pending { deliveries: p.deliveries, due, persisted: true });
        }
        self.bus.notify.notify_waiters();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(subject: &str, id: &str) -> OutMessage {
        OutMessage { subject: subject.into(), payload: Bytes::from(id.to_string()), msg_id: id.into(), headers: vec![] }
    }

    fn cfg(durable: &str, filter: &str) -> ConsumerConfig {
        ConsumerConfig { durable: durable.into(), filter: filter.into(), ack_wait: Duration::from_secs(30) }
    }

    async fn next(sub: &mut Box<dyn Subscription>) -> Delivery {
        tokio::time::timeout(Duration::from_secs(5), sub.next()).await.expect("a delivery").unwrap().unwrap()
    }

    #[tokio::test]
    async fn consumers_resume_after_a_reopen_and_repeats_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bus.db");
        let bus = LogBus::open(&path, "bo").await.unwrap();
        bus.publish(msg("bo.a.x.v1", "1")).await.unwrap();
        bus.publish(msg("bo.a.x.v1", "1")).await.unwrap();
        bus.publish(msg("bo.b.y.v1", "2")).await.unwrap();
        bus.publish(msg("bo.a.x.v1", "3")).await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        let d = next(&mut sub).await;
        assert_eq!(d.payload, Bytes::from("1"));
        d.ack().await.unwrap();
        let d = next(&mut sub).await;
        assert_eq!(d.payload, Bytes::from("3"));
        // Not acked: after a reopen (a crash) it comes again, and only it.
        drop(sub);
        bus.close().await;
        let bus = LogBus::open(&path, "bo").await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        let d = next(&mut sub).await;
        assert_eq!((d.payload.clone(), d.delivered), (Bytes::from("3"), 1));
        d.ack().await.unwrap();
        assert!(tokio::time::timeout(Duration::from_millis(300), sub.next()).await.is_err());
        // A wildcard consumer sees everything.
        let mut all = bus.subscribe(cfg("w", "bo.>")).await.unwrap();
        for want in ["1", "2", "3"] {
            let d = next(&mut all).await;
            assert_eq!(d.payload, Bytes::from(want));
            d.ack().await.unwrap();
        }
    }

    /// A relay's round goes in as one statement: in order, a repeat of a kept id (an earlier
    /// round's, or one of the same round) dropped, and a round larger than a statement's
    /// share split without a gap.
    #[tokio::test]
    async fn a_round_is_written_at_once_in_order_without_repeats() {
        let bus = LogBus::temporary("bo").await.unwrap();
        bus.publish(msg("bo.a.x.v1", "0")).await.unwrap();
        let mut round =
            vec![msg("bo.a.x.v1", "0"), msg("bo.a.x.v1", "1"), msg("bo.b.y.v1", "2"), msg("bo.a.x.v1", "1")];
        round.extend((3..PUBLISH_CHUNK + 10).map(|i| msg("bo.a.x.v1", &i.to_string())));
        bus.publish_many(round).await.unwrap();
        let kept: Vec<(String, String)> = sqlx::query_as("SELECT subject, msg_id FROM bus_messages ORDER BY seq")
            .fetch_all(bus.db().pool())
            .await
            .unwrap();
        let want: Vec<(String, String)> = std::iter::once(("bo.a.x.v1", 0))
            .chain([("bo.a.x.v1", 1), ("bo.b.y.v1", 2)])
            .chain((3..PUBLISH_CHUNK + 10).map(|i| ("bo.a.x.v1", i)))
            .map(|(s, i)| (s.to_string(), i.to_string()))
            .collect();
        assert_eq!(kept, want);
        // A consumer of one subject gets its messages once each, in order, woken by the round.
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        for (_, id) in want.iter().filter(|(s, _)| s == "bo.a.x.v1") {
            let d = next(&mut sub).await;
            assert_eq!(d.payload, Bytes::from(id.clone()));
            d.ack().await.unwrap();
        }
        assert!(tokio::time::timeout(Duration::from_millis(300), sub.next()).await.is_err());
    }

    /// A power cut (or a crash) leaves the log open: its consumers get the last seconds again,
    /// acked or not, so an ack that outlived its consumer's effect loses nothing; a clean
    /// close does not.
    #[tokio::test]
    async fn a_log_not_closed_cleanly_delivers_its_last_seconds_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bus.db");
        let bus = LogBus::open(&path, "bo").await.unwrap();
        bus.publish(msg("bo.a.x.v1", "1")).await.unwrap();
        bus.publish(msg("bo.a.x.v1", "2")).await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        for want in ["1", "2"] {
            let d = next(&mut sub).await;
            assert_eq!(d.payload, Bytes::from(want));
            // The floor is written at most every 200 ms.
            tokio::time::sleep(Duration::from_millis(250)).await;
            d.ack().await.unwrap();
        }
        let floor: i64 = sqlx::query_scalar("SELECT ack_floor FROM bus_consumers WHERE durable = 'c'")
            .fetch_one(bus.db.pool())
            .await
            .unwrap();
        assert_eq!(floor, 2, "both acked");
        // Cut: never closed.
        drop(sub);
        bus.db.close().await;
        let bus = LogBus::open(&path, "bo").await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        for want in ["1", "2"] {
            let d = next(&mut sub).await;
            assert_eq!(d.payload, Bytes::from(want), "delivered again after the cut");
            tokio::time::sleep(Duration::from_millis(250)).await;
            d.ack().await.unwrap();
        }
        drop(sub);
        // Closed cleanly this time: nothing comes again.
        bus.close().await;
        let bus = LogBus::open(&path, "bo").await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        assert!(tokio::time::timeout(Duration::from_millis(300), sub.next()).await.is_err());
        bus.close().await;
    }

    #[tokio::test]
    async fn a_nak_waits_its_delay_and_keeps_its_count_over_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bus.db");
        let bus = LogBus::open(&path, "bo").await.unwrap();
        bus.publish(msg("bo.a.x.v1", "1")).await.unwrap();
        bus.publish(msg("bo.a.x.v1", "2")).await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        let d = next(&mut sub).await;
        d.nak(Duration::from_millis(400)).await.unwrap();
        // The next message is not held up by the failing one.
        let d = next(&mut sub).await;
        assert_eq!(d.payload, Bytes::from("2"));
        d.ack().await.unwrap();
        drop(sub);
        bus.close().await;
        let bus = LogBus::open(&path, "bo").await.unwrap();
        let mut sub = bus.subscribe(cfg("c", "bo.a.x.v1")).await.unwrap();
        let started = std::time::Instant::now();
        // "2" was acked above the floor (held by the nak'd "1"): it comes again, and an inbox
        // skips it.
        let d = next(&mut sub).await;
        assert_eq!((d.payload.clone(), d.delivered), (Bytes::from("2"), 1));
        d.ack().await.unwrap();
        let d = next(&mut sub).await;
        assert_eq!((d.payload.clone(), d.delivered), (Bytes::from("1"), 2));
        assert!(started.elapsed() >= Duration::from_millis(200), "waited for the nak's delay");
        d.ack().await.unwrap();
        let floor: i64 = sqlx::query_scalar("SELECT ack_floor FROM bus_consumers WHERE durable = 'c'")
            .fetch_one(bus.db.pool())
            .await
            .unwrap();
        assert_eq!(floor, 2);
    }

    #[tokio::test]
    async fn an_unacked_delivery_comes_back_after_the_ack_wait() {
        let bus = LogBus::temporary("bo").await.unwrap();
        bus.publish(msg("bo.a.x.v1", "1")).await.unwrap();
        let mut sub = bus
            .subscribe(ConsumerConfig {
                durable: "c".into(),
                filter: "bo.a.x.v1".into(),
                ack_wait: Duration::from_millis(200),
            })
            .await
            .unwrap();
        let first = next(&mut sub).await;
        let again = next(&mut sub).await;
        assert_eq!(again.delivered, 2);
        first.ack().await.unwrap();
        again.ack().await.unwrap();
    }
}
