//! SQL of open-API channels' webhooks: messages written in the transaction of what caused
//! them (once per `once_key`), the linked SKUs whose stock is due, the heads of each ordering
//! key claimed by the one dispatcher, each attempt's outcome with the message's and the
//! endpoint's next state in one transaction, the delivery log, replays, and the purge.

use bo_kit::db::{Tx, Write as _};
use bo_kit::time::{ms_to_rfc3339, now_ms};
use bo_kit::{Code, Error, Result};
use serde_json::{json, Value};
use sqlx::FromRow;

use super::{marks, Repo};
use crate::domain::api_channel::Status;
use crate::domain::webhook::{self, Action, State, MOVES};

/// A message as kept.
#[derive(Debug, Clone, FromRow)]
pub struct MessageRow {
    pub id: i64,
    pub store_id: i64,
    pub api_channel_id: i64,
    pub message_id: String,
    pub event_type: String,
    pub ordering_key: String,
    pub seq: i64,
    pub payload: String,
    pub state: String,
    pub attempts: i64,
    pub next_at: i64,
    pub last_status: i64,
    pub last_error: String,
    pub created_at: i64,
    pub delivered_at: i64,
}

const MESSAGE_COLUMNS: &str = "id, store_id, api_channel_id, message_id, event_type, ordering_key, seq, payload, \
    state, attempts, next_at, last_status, last_error, created_at, delivered_at";

fn prefixed(alias: &str) -> String {
    MESSAGE_COLUMNS.split(", ").map(|c| format!("{alias}.{c}")).collect::<Vec<_>>().join(", ")
}

/// One attempt at a message.
#[derive(Debug, Clone, FromRow)]
pub struct AttemptRow {
    pub id: i64,
    pub at: i64,
    pub url: String,
    pub timestamp_s: i64,
    pub status: i64,
    pub duration_ms: i64,
    pub answer: String,
    pub error: String,
}

/// A message due to be sent, with where to.
#[derive(Debug, Clone)]
pub struct Due {
    pub message: MessageRow,
    pub url: String,
    /// The endpoint has been failing (its attempts go one at a time).
    pub failing: bool,
}

/// A message to write.
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub event_type: String,
    /// Its messages go out in order: `order:<id>`, `product:<id>`, `stock`, `key:<id>`, or
    /// a test's own.
    pub ordering_key: String,
    /// Its place among them (an order's version; 0: as written).
    pub seq: i64,
    /// Written once per channel under this.
    pub once_key: String,
    /// When it happened, ms.
    pub at: i64,
    pub data: Value,
}

/// What an attempt came to.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub at: i64,
    pub url: String,
    pub timestamp_s: i64,
    /// The answer's status (0: none).
    pub status: u16,
    pub duration_ms: i64,
    pub answer: String,
    pub error: String,
}

/// What recording an attempt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    Delivered,
    /// To be tried again at (ms).
    Retry(i64),
    GivenUp,
    /// The message was no longer this attempt's (replayed, purged): nothing recorded.
    Stale,
}

/// A page of the delivery log.
#[derive(Debug, Clone, Default)]
pub struct LogFilter {
    /// From, ms (0: any).
    pub from: i64,
    /// Until, ms (0: any).
    pub to: i64,
    /// pending, delivered or failed ("": any).
    pub state: String,
    /// One event type ("": any).
    pub event_type: String,
    pub page: i64,
    pub limit: i64,
}

fn not_found() -> Error {
    Error::not_found(Code::WebhookMessageNotFound)
}

/// The message body of `m` as signed and sent.
fn payload(m: &NewMessage) -> String {
    webhook::body(&m.event_type, &ms_to_rfc3339(m.at), m.data.clone())
}

/// The SQL that finds a channel whose webhook is sent `event` (bound at `$n`).
fn subscribed(n: usize) -> String {
    format!("c.status = '{}' AND c.webhook_url <> '' AND c.events LIKE '%\"' || ${n} || '\"%'", Status::Active.as_str())
}

impl Repo {
    /// Writes `m` for channel `channel_id` of the store when it is active, has a webhook and
    /// chose `m`'s event (a test is sent whatever it chose); once per `once_key`. True when
    /// written.
    pub async fn enqueue_webhook(tx: &mut Tx, store_id: i64, channel_id: i64, m: &NewMessage) -> Result<bool> {
        let chosen =
            if m.event_type == webhook::TEST_EVENT { "c.webhook_url <> ''".to_string() } else { subscribed(11) };
        let sql = format!(
            "INSERT INTO webhook_messages (store_id, api_channel_id, message_id, event_type, ordering_key, seq, once_key, \
             payload, state, next_at, created_at) \
             SELECT $1, c.id, $3, $4, $5, $6, $7, $8, $9, $10, $10 FROM api_channels c \
             WHERE c.store_id = $1 AND c.id = $2 AND {chosen} \
             ON CONFLICT (api_channel_id, once_key) DO NOTHING"
        );
        let mut q = sqlx::query(&sql)
            .bind(store_id)
            .bind(channel_id)
            .bind(webhook::new_message_id())
            .bind(&m.event_type)
            .bind(&m.ordering_key)
            .bind(m.seq)
            .bind(&m.once_key)
            .bind(payload(m))
            .bind(State::Pending.as_str())
            .bind(now_ms());
        if m.event_type != webhook::TEST_EVENT {
            q = q.bind(&m.event_type);
        }
        Ok(q.execute(&mut **tx).await?.rows_affected() == 1)
    }

    /// The owner's test message of a channel with a webhook: its id.
    pub async fn enqueue_test_webhook(&self, store_id: i64, channel_id: i64) -> Result<String> {
        let row = self.api_channel(store_id, channel_id).await?;
        if row.webhook_url.is_empty() {
            return Err(Error::invalid_field("webhook_url", "validation.required"));
        }
        let mut tx = self.db.begin().await?;
        let once = webhook::new_message_id();
        let m = NewMessage {
            event_type: webhook::TEST_EVENT.into(),
            ordering_key: format!("test:{once}"),
            seq: 0,
            once_key: format!("test:{once}"),
            at: now_ms(),
            data: json!({ "api_channel_id": channel_id, "name": row.name }),
        };
        Repo::enqueue_webhook(&mut tx, store_id, channel_id, &m).await?;
        let id: String =
            sqlx::query_scalar("SELECT message_id FROM webhook_messages WHERE api_channel_id = $1 AND once_key = $2")
                .bind(channel_id)
                .bind(&m.once_key)
                .fetch_one(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Makes the SKUs' stock due for every channel of the store that pushes from
    /// `warehouse_id`, has them linked and chose `stock.changed` (in the ledger events'
    /// transaction). Answers the (channel, SKU) pairs made due.
    pub async fn mark_api_stock_due(tx: &mut Tx, store_id: i64, warehouse_id: i64, sku_ids: &[i64]) -> Result<u64> {
        if sku_ids.is_empty() {
            return Ok(0);
        }
        let sql = format!(
            "INSERT INTO webhook_stock_due (api_channel_id, sku_id, store_id, changes, due_at) \
             SELECT DISTINCT c.id, l.sku_id, $1, 1, $3 FROM api_links l JOIN api_channels c ON c.id = l.api_channel_id \
             WHERE l.store_id = $1 AND c.warehouse_id = $2 AND {} AND l.sku_id IN ({}) \
             ON CONFLICT (api_channel_id, sku_id) DO UPDATE SET changes = webhook_stock_due.changes + 1",
            subscribed(4),
            marks(5, sku_ids.len())
        );
        let mut q = sqlx::query(&sql).bind(store_id).bind(warehouse_id).bind(now_ms()).bind("stock.changed");
        for id in sku_ids {
            q = q.bind(*id);
        }
        Ok(q.execute(&mut **tx).await?.rows_affected())
    }

    /// Makes the stock of channel `channel_id`'s linked SKUs (`sku_ids` of them, or every
    /// one) due whatever changed, when it chose `stock.changed` (the owner's "send stock
    /// now"). Answers how many SKUs were made due.
    pub async fn push_api_stock(&self, store_id: i64, channel_id: i64, sku_ids: &[i64]) -> Result<u64> {
        let row = self.api_channel(store_id, channel_id).await?;
        if row.webhook_url.is_empty() || !row.events().iter().any(|e| e == "stock.changed") {
            return Err(Error::invalid_field("events", "validation.stock_event_off"));
        }
        let only =
            if sku_ids.is_empty() { String::new() } else { format!(" AND sku_id IN ({})", marks(4, sku_ids.len())) };
        let sql = format!(
            "INSERT INTO webhook_stock_due (api_channel_id, sku_id, store_id, changes, due_at) \
             SELECT DISTINCT api_channel_id, sku_id, $2, 1, $3 FROM api_links WHERE api_channel_id = $1{only} \
             ON CONFLICT (api_channel_id, sku_id) DO UPDATE SET changes = webhook_stock_due.changes + 1"
        );
        let mut q = sqlx::query(&sql).bind(channel_id).bind(store_id).bind(now_ms());
        for id in sku_ids {
            q = q.bind(*id);
        }
        Ok(q.execute(self.db.pool()).await?.rows_affected())
    }

    /// The open-API channels' links of `sku_ids` in the store: (channel, SKU, the
    /// integrator's id).
    pub async fn api_links_of_skus(tx: &mut Tx, store_id: i64, sku_ids: &[i64]) -> Result<Vec<(i64, i64, String)>> {
        if sku_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT api_channel_id, sku_id, external_id FROM api_links WHERE store_id = $1 AND sku_id IN ({}) \
             ORDER BY api_channel_id, sku_id, external_id",
            marks(2, sku_ids.len())
        );
        let mut q = sqlx::query_as::<_, (i64, i64, String)>(&sql).bind(store_id);
        for id in sku_ids {
            q = q.bind(*id);
        }
        Ok(q.fetch_all(&mut **tx).await?)
    }

    /// The channels with stock due and none of their stock messages on its way.
    pub async fn stock_channels_due(&self) -> Result<Vec<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT DISTINCT d.api_channel_id FROM webhook_stock_due d WHERE NOT EXISTS (SELECT 1 FROM webhook_messages m \
             WHERE m.api_channel_id = d.api_channel_id AND m.ordering_key = 'stock' AND m.state = 'pending')",
        )
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Writes channel `channel_id`'s next `stock.changed` message from its SKUs due (the
    /// longest waiting first, at most [`webhook::STOCK_ITEMS_MAX`]) at their kept levels in
    /// its warehouse; a SKU changed again meanwhile stays due. None when nothing was due or
    /// the channel no longer takes them.
    pub async fn make_stock_message(&self, channel_id: i64) -> Result<Option<String>> {
        let mut tx = self.db.begin().await?;
        let ch: Option<(i64, i64, String, String, String)> = sqlx::query_as(
            "SELECT store_id, warehouse_id, status, webhook_url, events FROM api_channels WHERE id = $1",
        )
        .bind(channel_id)
        .fetch_optional(&mut *tx)
        .await?;
        // Locked until the message is written: a change meanwhile waits, then makes its SKU due
        // again (SQLite's writers take turns anyway).
        let lock = tx.for_update();
        let due: Vec<(i64, i64)> = sqlx::query_as(&format!(
            "SELECT sku_id, changes FROM webhook_stock_due WHERE api_channel_id = $1 ORDER BY due_at, sku_id LIMIT $2{lock}"
        ))
        .bind(channel_id)
        .bind(webhook::STOCK_ITEMS_MAX)
        .fetch_all(&mut *tx)
        .await?;
        let takes = ch.as_ref().is_some_and(|(_, _, status, url, events)| {
            status == Status::Active.as_str() && !url.is_empty() && events.contains("\"stock.changed\"")
        });
        let Some((store_id, warehouse_id, ..)) = ch.filter(|_| takes) else {
            // A channel gone, off, or no longer told its stock: nothing due stays.
            sqlx::query("DELETE FROM webhook_stock_due WHERE api_channel_id = $1")
                .bind(channel_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            return Ok(None);
        };
        if due.is_empty() {
            return Ok(None);
        }
        let sku_ids: Vec<i64> = due.iter().map(|(s, _)| *s).collect();
        let sql = format!(
            "SELECT sku_id, available FROM sku_levels WHERE store_id = $1 AND warehouse_id = $2 AND sku_id IN ({})",
            marks(3, sku_ids.len())
        );
        let mut q = sqlx::query_as::<_, (i64, i64)>(&sql).bind(store_id).bind(warehouse_id);
        for id in &sku_ids {
            q = q.bind(*id);
        }
        let levels: std::collections::HashMap<i64, i64> = q.fetch_all(&mut *tx).await?.into_iter().collect();
        let sql = format!(
            "SELECT sku_id, external_id FROM api_links WHERE api_channel_id = $1 AND sku_id IN ({}) \
             ORDER BY sku_id, external_id",
            marks(2, sku_ids.len())
        );
        let mut q = sqlx::query_as::<_, (i64, String)>(&sql).bind(channel_id);
        for id in &sku_ids {
            q = q.bind(*id);
        }
        let mut external: std::collections::BTreeMap<i64, Vec<String>> = Default::default();
        for (sku, ext) in q.fetch_all(&mut *tx).await? {
            external.entry(sku).or_default().push(ext);
        }
        let items: Vec<Value> = sku_ids
            .iter()
            .filter_map(|sku| {
                // A SKU unlinked since it was due is not told.
                let ids = external.get(sku)?;
                Some(json!({
                    "sku_id": sku,
                    "external_ids": ids,
                    "available": levels.get(sku).copied().unwrap_or(0).max(0),
                }))
            })
            .collect();
        // The rows read are locked: they go in one statement (one per row held the writer for
        // hundreds of round trips a message).
        let sql = format!(
            "DELETE FROM webhook_stock_due WHERE api_channel_id = $1 AND sku_id IN ({})",
            marks(2, sku_ids.len())
        );
        let mut q = sqlx::query(&sql).bind(channel_id);
        for id in &sku_ids {
            q = q.bind(*id);
        }
        q.execute(&mut *tx).await?;
        if items.is_empty() {
            tx.commit().await?;
            return Ok(None);
        }
        let once = webhook::new_message_id();
        let m = NewMessage {
            event_type: "stock.changed".into(),
            ordering_key: "stock".into(),
            seq: 0,
            once_key: format!("stock:{once}"),
            at: now_ms(),
            data: json!({ "warehouse_id": warehouse_id, "items": items }),
        };
        Repo::enqueue_webhook(&mut tx, store_id, channel_id, &m).await?;
        tx.commit().await?;
        Ok(Some(once))
    }

    /// The messages due now that are first of their ordering key, on endpoints that are on,
    /// unclaimed, the longest due first.
    pub async fn webhooks_due(&self, now: i64, limit: i64) -> Result<Vec<Due>> {
        let sql = format!(
            "SELECT {}, c.webhook_url, c.webhook_failing_since FROM webhook_messages m \
             JOIN api_channels c ON c.id = m.api_channel_id \
             WHERE m.state = 'pending' AND m.next_at <= $1 AND m.claimed_until < $1 \
             AND c.status = '{}' AND c.webhook_url <> '' AND c.webhook_disabled_at = 0 \
             AND NOT EXISTS (SELECT 1 FROM webhook_messages p WHERE p.api_channel_id = m.api_channel_id \
             AND p.ordering_key = m.ordering_key AND p.state = 'pending' \
             AND (p.seq < m.seq OR (p.seq = m.seq AND p.id < m.id))) \
             ORDER BY m.next_at, m.id LIMIT $2",
            prefixed("m"),
            Status::Active.as_str()
        );
        let rows = sqlx::query(&sql).bind(now).bind(limit).fetch_all(self.db.pool()).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            use sqlx::Row as _;
            out.push(Due {
                message: MessageRow::from_row(&r)?,
                url: r.try_get("webhook_url")?,
                failing: r.try_get::<i64, _>("webhook_failing_since")? > 0,
            });
        }
        Ok(out)
    }

    /// Claims messages for an attempt until `until` (ms): those of `ids` no other has.
    pub async fn claim_webhooks(&self, ids: &[i64], now: i64, until: i64) -> Result<Vec<i64>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "UPDATE webhook_messages SET claimed_until = $1 WHERE id IN ({}) AND state = 'pending' \
             AND claimed_until < $2 RETURNING id",
            marks(3, ids.len())
        );
        let mut q = sqlx::query_scalar::<_, i64>(&sql).bind(until).bind(now);
        for id in ids {
            q = q.bind(*id);
        }
        // In a transaction: after this process's other writers, not in SQLite's busy handler.
        let mut tx = self.db.begin().await?;
        let claimed = q.fetch_all(&mut *tx).await?;
        tx.commit().await?;
        Ok(claimed)
    }

    /// Frees every claim (the dispatcher starting: whoever claimed them before is gone).
    pub async fn release_webhook_claims(&self) -> Result<u64> {
        let r =
            sqlx::query("UPDATE webhook_messages SET claimed_until = 0 WHERE state = 'pending' AND claimed_until > 0")
                .write(&self.db)
                .await?;
        Ok(r.rows_affected())
    }

    /// Records an attempt at `m` (claimed at `attempts` attempts) and what follows: delivered;
    /// or tried again after `schedule`'s wait, or given up; the endpoint's failing time, its
    /// last delivery, and its turning off after `disable_after` ms of failures. A delivery
    /// after failures brings the endpoint's waiting messages forward.
    pub async fn record_webhook_attempt(
        &self,
        m: &MessageRow,
        o: &Outcome,
        schedule: &[u64],
        disable_after: u64,
    ) -> Result<Recorded> {
        let mut tx = self.db.begin().await?;
        let attempts = m.attempts + 1;
        let ok = webhook::delivered(o.status);
        let (action, next_at) = if ok {
            (Action::Deliver, 0)
        } else {
            match webhook::retry_after_ms(schedule, attempts) {
                Some(wait) => (Action::Retry, o.at + wait as i64),
                None => (Action::GiveUp, 0),
            }
        };
        let to = MOVES.next(State::Pending, action).ok_or_else(|| Error::internal(anyhow::anyhow!("no move")))?;
        let done = sqlx::query(
            "UPDATE webhook_messages SET state = $1, attempts = $2, next_at = $3, claimed_until = 0, last_status = $4, \
             last_error = $5, delivered_at = $6 WHERE id = $7 AND state = 'pending' AND attempts = $8",
        )
        .bind(to.as_str())
        .bind(attempts)
        .bind(next_at)
        .bind(i64::from(o.status))
        .bind(&o.error)
        .bind(if ok { o.at } else { 0 })
        .bind(m.id)
        .bind(m.attempts)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(Recorded::Stale);
        }
        sqlx::query(
            "INSERT INTO webhook_attempts (message_row, at, url, timestamp_s, status, duration_ms, answer, error) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(m.id)
        .bind(o.at)
        .bind(&o.url)
        .bind(o.timestamp_s)
        .bind(i64::from(o.status))
        .bind(o.duration_ms)
        .bind(webhook::clip_answer(&o.answer))
        .bind(webhook::clip_answer(&o.error))
        .execute(&mut *tx)
        .await?;
        if ok {
            let was_failing: i64 = sqlx::query_scalar("SELECT webhook_failing_since FROM api_channels WHERE id = $1")
                .bind(m.api_channel_id)
                .fetch_optional(&mut *tx)
                .await?
                .unwrap_or(0);
            sqlx::query("UPDATE api_channels SET webhook_failing_since = 0, webhook_delivered_at = $1 WHERE id = $2")
                .bind(o.at)
                .bind(m.api_channel_id)
                .execute(&mut *tx)
                .await?;
            if was_failing > 0 {
                // The endpoint is back: what waited for a retry goes now, in its order.
                sqlx::query(
                    "UPDATE webhook_messages SET next_at = $1 WHERE api_channel_id = $2 AND state = 'pending' \
                     AND next_at > $1",
                )
                .bind(o.at)
                .bind(m.api_channel_id)
                .execute(&mut *tx)
                .await?;
            }
        } else {
            sqlx::query(
                "UPDATE api_channels SET webhook_failing_since = $1 WHERE id = $2 AND webhook_failing_since = 0",
            )
            .bind(o.at)
            .bind(m.api_channel_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE api_channels SET webhook_disabled_at = $1 WHERE id = $2 AND webhook_disabled_at = 0 \
                 AND webhook_failing_since > 0 AND webhook_failing_since <= $3",
            )
            .bind(o.at)
            .bind(m.api_channel_id)
            .bind(o.at - disable_after as i64)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(match action {
            Action::Deliver => Recorded::Delivered,
            Action::Retry => Recorded::Retry(next_at),
            _ => Recorded::GivenUp,
        })
    }

    /// A page of a channel's delivery log, newest first, and how many there are.
    pub async fn webhook_log(&self, store_id: i64, channel_id: i64, f: &LogFilter) -> Result<(Vec<MessageRow>, i64)> {
        self.api_channel(store_id, channel_id).await?;
        let mut wh = String::from("store_id = $1 AND api_channel_id = $2 AND created_at >= $3 AND created_at <= $4");
        let mut n = 4;
        let state = !f.state.is_empty();
        let event = !f.event_type.is_empty();
        if state {
            n += 1;
            wh.push_str(&format!(" AND state = ${n}"));
        }
        if event {
            n += 1;
            wh.push_str(&format!(" AND event_type = ${n}"));
        }
        let to = if f.to > 0 { f.to } else { i64::MAX };
        let count_sql = format!("SELECT COUNT(*) FROM webhook_messages WHERE {wh}");
        let mut cq = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id).bind(channel_id).bind(f.from).bind(to);
        let page_sql = format!(
            "SELECT {MESSAGE_COLUMNS} FROM webhook_messages WHERE {wh} ORDER BY created_at DESC, id DESC LIMIT ${} OFFSET ${}",
            n + 1,
            n + 2
        );
        let mut pq = sqlx::query_as::<_, MessageRow>(&page_sql).bind(store_id).bind(channel_id).bind(f.from).bind(to);
        if state {
            cq = cq.bind(&f.state);
            pq = pq.bind(&f.state);
        }
        if event {
            cq = cq.bind(&f.event_type);
            pq = pq.bind(&f.event_type);
        }
        let total = cq.fetch_one(self.db.pool()).await?;
        let rows = pq.bind(f.limit).bind((f.page - 1).max(0) * f.limit).fetch_all(self.db.pool()).await?;
        Ok((rows, total))
    }

    /// One message of a channel with its attempts, oldest first.
    pub async fn webhook_message(
        &self,
        store_id: i64,
        channel_id: i64,
        message_id: &str,
    ) -> Result<(MessageRow, Vec<AttemptRow>)> {
        let m = sqlx::query_as::<_, MessageRow>(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM webhook_messages WHERE store_id = $1 AND api_channel_id = $2 AND message_id = $3"
        ))
        .bind(store_id)
        .bind(channel_id)
        .bind(message_id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(not_found)?;
        let attempts = sqlx::query_as::<_, AttemptRow>(
            "SELECT id, at, url, timestamp_s, status, duration_ms, answer, error FROM webhook_attempts \
             WHERE message_row = $1 ORDER BY id",
        )
        .bind(m.id)
        .fetch_all(self.db.pool())
        .await?;
        Ok((m, attempts))
    }

    /// Sends a delivered or given-up message again (same id, a new round of attempts);
    /// refused while it is on its way.
    pub async fn replay_webhook(&self, store_id: i64, channel_id: i64, message_id: &str) -> Result<()> {
        let (m, _) = self.webhook_message(store_id, channel_id, message_id).await?;
        let from = State::parse(&m.state).unwrap_or(State::Pending);
        if !MOVES.allows(from, Action::Replay) {
            return Err(Error::failed_precondition(Code::WebhookMessagePending));
        }
        let r = sqlx::query(
            "UPDATE webhook_messages SET state = 'pending', attempts = 0, next_at = $1, claimed_until = 0 \
             WHERE id = $2 AND state = $3",
        )
        .bind(now_ms())
        .bind(m.id)
        .bind(&m.state)
        .execute(self.db.pool())
        .await?;
        if r.rows_affected() != 1 {
            return Err(Error::failed_precondition(Code::WebhookMessagePending));
        }
        Ok(())
    }

    /// Sends again the channel's messages made between `from` and `to` (ms) that are
    /// delivered or given up (only given-up ones with `failed_only`), at most
    /// [`webhook::REPLAY_MAX`]; answers how many.
    pub async fn replay_webhooks(
        &self,
        store_id: i64,
        channel_id: i64,
        from: i64,
        to: i64,
        failed_only: bool,
    ) -> Result<i64> {
        self.api_channel(store_id, channel_id).await?;
        let states = if failed_only { "('failed')" } else { "('failed', 'delivered')" };
        let mut tx = self.db.begin().await?;
        let n: i64 = sqlx::query_scalar(&format!(
            "SELECT COUNT(*) FROM webhook_messages WHERE store_id = $1 AND api_channel_id = $2 AND created_at >= $3 \
             AND created_at <= $4 AND state IN {states}"
        ))
        .bind(store_id)
        .bind(channel_id)
        .bind(from)
        .bind(to)
        .fetch_one(&mut *tx)
        .await?;
        if n > webhook::REPLAY_MAX {
            return Err(Error::invalid_field("to", "validation.replay_too_many"));
        }
        let r = sqlx::query(&format!(
            "UPDATE webhook_messages SET state = 'pending', attempts = 0, next_at = $5, claimed_until = 0 \
             WHERE store_id = $1 AND api_channel_id = $2 AND created_at >= $3 AND created_at <= $4 AND state IN {states}"
        ))
        .bind(store_id)
        .bind(channel_id)
        .bind(from)
        .bind(to)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(r.rows_affected() as i64)
    }

    /// Turns a channel's webhook back on after it was turned off: its waiting messages go now.
    pub async fn resume_webhook(&self, store_id: i64, channel_id: i64) -> Result<()> {
        self.api_channel(store_id, channel_id).await?;
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        sqlx::query(
            "UPDATE api_channels SET webhook_disabled_at = 0, webhook_failing_since = 0, updated_at = $1, \
             version = version + 1 WHERE store_id = $2 AND id = $3",
        )
        .bind(now)
        .bind(store_id)
        .bind(channel_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE webhook_messages SET next_at = $1 WHERE api_channel_id = $2 AND state = 'pending'")
            .bind(now)
            .bind(channel_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The keys of channels that stop working within `within` ms and were not told yet:
    /// (key id, store, channel, prefix, expires at).
    pub async fn keys_expiring(&self, now: i64, within: i64) -> Result<Vec<(i64, i64, i64, String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT id, store_id, api_channel_id, prefix, expires_at FROM api_keys WHERE api_channel_id > 0 \
             AND revoked_at = 0 AND expires_at > $1 AND expires_at <= $2 AND expiry_told_at = 0",
        )
        .bind(now)
        .bind(now + within)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Writes `channel.key_expiring` for a key and notes it told, once.
    pub async fn tell_key_expiring(&self, key_id: i64, store_id: i64, channel_id: i64, m: &NewMessage) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let r = sqlx::query("UPDATE api_keys SET expiry_told_at = $1 WHERE id = $2 AND expiry_told_at = 0")
            .bind(now_ms())
            .bind(key_id)
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() == 1 {
            Repo::enqueue_webhook(&mut tx, store_id, channel_id, m).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Forgets messages (and their attempts) made more than `kept_ms` ago; answers how many.
    pub async fn purge_webhooks(&self, kept_ms: i64) -> Result<u64> {
        let before = now_ms() - kept_ms;
        let mut tx = self.db.begin().await?;
        sqlx::query(
            "DELETE FROM webhook_attempts WHERE message_row IN (SELECT id FROM webhook_messages WHERE created_at < $1)",
        )
        .bind(before)
        .execute(&mut *tx)
        .await?;
        let r =
            sqlx::query("DELETE FROM webhook_messages WHERE created_at < $1").bind(before).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(r.rows_affected())
    }

    /// The webhook state of a channel: (failing since, turned off at, last delivered at), ms.
    pub async fn webhook_health(&self, store_id: i64, channel_id: i64) -> Result<(i64, i64, i64)> {
        sqlx::query_as(
            "SELECT webhook_failing_since, webhook_disabled_at, webhook_delivered_at FROM api_channels \
             WHERE store_id = $1 AND id = $2",
        )
        .bind(store_id)
        .bind(channel_id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::ApiChannelNotFound))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::api_channel::Form;
    use crate::vault::Vault;
    use bo_kit::db::Db;

    /// A round's messages are claimed in one statement: each by one dispatcher only, and
    /// again once the claims are freed.
    async fn a_rounds_messages_are_claimed_once(db: Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let r = Repo::new(db, Vault::new(&Vault::generate_key(), &[]).unwrap());
        let (_, key_id) = r.generate_api_key(1, 9).await.unwrap();
        let form = Form {
            name: "เว็บไซต์".into(),
            channel: "website".into(),
            warehouse_id: 3,
            logistic_channel_id: 1,
            payment_channel_id: 1,
            webhook_url: "http://localhost:9/hook".into(),
            events: vec!["order.created".into()],
            status: Status::Active.as_str().into(),
        };
        let ch = r.create_api_channel(1, 9, &form, key_id).await.unwrap();
        let mut tx = r.db.begin().await.unwrap();
        for i in 0..3 {
            let m = NewMessage {
                event_type: "order.created".into(),
                ordering_key: format!("order:{i}"),
                seq: 10,
                once_key: format!("order:{i}:v1:order.created"),
                at: 1,
                data: json!({ "order_id": i }),
            };
            assert!(Repo::enqueue_webhook(&mut tx, 1, ch.id, &m).await.unwrap());
        }
        tx.commit().await.unwrap();
        let now = now_ms();
        let mut ids: Vec<i64> = r.webhooks_due(now, 10).await.unwrap().iter().map(|d| d.message.id).collect();
        ids.sort_unstable();
        assert_eq!(ids.len(), 3);
        let until = now + 60_000;
        let mut claimed = r.claim_webhooks(&[ids[0], ids[1], ids[2] + 1_000], now, until).await.unwrap();
        claimed.sort_unstable();
        assert_eq!(claimed, vec![ids[0], ids[1]], "an unknown message is not claimed");
        assert_eq!(r.claim_webhooks(&ids, now, until).await.unwrap(), vec![ids[2]], "the others are held");
        assert!(r.webhooks_due(now, 10).await.unwrap().is_empty());
        assert!(r.claim_webhooks(&[], now, until).await.unwrap().is_empty());
        assert_eq!(r.release_webhook_claims().await.unwrap(), 3);
        assert_eq!(r.claim_webhooks(&ids, now, until).await.unwrap().len(), 3, "freed, claimed again");
    }

    bo_kit::on_both_databases!(a_rounds_messages_are_claimed_once);
}
