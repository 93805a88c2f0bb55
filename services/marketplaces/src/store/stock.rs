//! SQL of our stock out: the levels the ledger told (by movement id), the linked listings due
//! to be pushed (every movement of a SKU makes its listings due; the pusher computes what
//! each should show), the log of every push, the shops' and listings' stock rules and the
//! "push all" progress of a shop.

use std::collections::{BTreeMap, HashMap};

use bo_kit::db::{changed, Tx};
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::listings::{ListingRow, LISTING_COLUMNS};
use super::Repo;
use crate::domain::channel::Status;
use crate::domain::stock_rule::{Rounding, Rule};

/// How long the push log is kept, ms.
pub const STOCK_LOG_KEPT_MS: i64 = 30 * 24 * 3600 * 1000;

/// A shop's or a listing's stock rule as kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RuleRow {
    /// The rule.
    pub rule: Rule,
    /// The warehouses pushed from (empty: the shop's own).
    pub warehouses: Vec<i64>,
    pub updated_by: i64,
    pub updated_at: i64,
}

#[derive(FromRow)]
struct RuleColumns {
    listing_id: i64,
    percent: i64,
    fixed: i64,
    rounding: String,
    warehouses: String,
    threshold: i64,
    priority: i64,
    hold: i64,
    increase_only: i64,
    updated_by: i64,
    updated_at: i64,
}

impl From<RuleColumns> for RuleRow {
    fn from(c: RuleColumns) -> Self {
        RuleRow {
            rule: Rule {
                percent: c.percent,
                fixed: c.fixed,
                rounding: Rounding::parse(&c.rounding).unwrap_or_default(),
                threshold: c.threshold,
                priority: c.priority != 0,
                hold: c.hold,
                increase_only: c.increase_only != 0,
            },
            warehouses: c.warehouses.split(',').filter_map(|w| w.trim().parse().ok()).collect(),
            updated_by: c.updated_by,
            updated_at: c.updated_at,
        }
    }
}

/// A shop's "push all" as it stands.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct SyncRow {
    pub store_channel_id: i64,
    /// `running` or `finished`.
    pub state: String,
    pub total: i64,
    pub done: i64,
    pub started_by: i64,
    pub started_at: i64,
    pub finished_at: i64,
}

/// A SKU's level in the ledger after a movement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub sku_id: i64,
    /// On hand less reserved.
    pub available: i64,
    /// The ledger's movement that left it so (later movements are larger).
    pub movement: i64,
}

/// SKUs' levels written in one statement (three parameters each).
const LEVELS_AT_ONCE: usize = 300;

/// What became of a listing in a push round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pushed<'a> {
    /// The marketplace took `quantity`.
    Set(i64),
    /// The marketplace refused `quantity`, for this reason (tried again when the level moves).
    Refused(i64, &'a str),
    /// Nothing was sent: the marketplace shows it already, or takes only increases.
    Left(i64, &'a str),
}

impl Repo {
    /// The ledger's level of a SKU in a warehouse after movement `movement`, unless a newer
    /// one is kept: [`Repo::apply_levels`] of one.
    pub async fn apply_level(
        tx: &mut Tx,
        store_id: i64,
        warehouse_id: i64,
        sku_id: i64,
        available: i64,
        movement: i64,
    ) -> Result<u64> {
        Repo::apply_levels(tx, store_id, warehouse_id, &[Level { sku_id, available, movement }]).await
    }

    /// The ledger's levels of SKUs in a warehouse, each after its movement, unless a newer one
    /// is kept (of several of a SKU, the newest); the store's listings of the SKUs that moved
    /// (alone or in a bundle) become due, so a burst of changes is one push of the newest,
    /// and so does their stock for the open-API channels and Magento shops told it. A handful
    /// of statements for the lot, in the inbox's transaction. Answers the listings made due.
    pub async fn apply_levels(tx: &mut Tx, store_id: i64, warehouse_id: i64, levels: &[Level]) -> Result<u64> {
        let mut newest: BTreeMap<i64, Level> = BTreeMap::new();
        for l in levels {
            let kept = newest.entry(l.sku_id).or_insert(*l);
            if l.movement > kept.movement {
                *kept = *l;
            }
        }
        let newest: Vec<Level> = newest.into_values().collect();
        let mut moved: Vec<i64> = Vec::with_capacity(newest.len());
        for chunk in newest.chunks(LEVELS_AT_ONCE) {
            let rows: Vec<String> =
                (0..chunk.len()).map(|i| format!("($1, $2, ${}, ${}, ${})", 3 + 3 * i, 4 + 3 * i, 5 + 3 * i)).collect();
            let sql = format!(
                "INSERT INTO sku_levels (store_id, warehouse_id, sku_id, available, movement) VALUES {} \
                 ON CONFLICT (store_id, warehouse_id, sku_id) DO UPDATE SET available = excluded.available, \
                 movement = excluded.movement WHERE sku_levels.movement < excluded.movement RETURNING sku_id",
                rows.join(", ")
            );
            let mut q = sqlx::query_scalar::<_, i64>(&sql).bind(store_id).bind(warehouse_id);
            for l in chunk {
                q = q.bind(l.sku_id).bind(l.available).bind(l.movement);
            }
            moved.extend(q.fetch_all(&mut **tx).await?);
        }
        if moved.is_empty() {
            return Ok(0);
        }
        Repo::mark_api_stock_due(tx, store_id, warehouse_id, &moved).await?;
        Repo::mark_magento_stock_due(tx, store_id, warehouse_id, &moved).await?;
        let skus = super::marks(3, moved.len());
        let sql = format!(
            "UPDATE listings SET changes = changes + 1, due_at = CASE WHEN due_at = 0 THEN $1 ELSE due_at END \
             WHERE store_id = $2 AND state <> 'deleted' AND (sku_id IN ({skus}) OR (bundle = 1 AND id IN \
             (SELECT listing_id FROM listing_parts WHERE store_id = $2 AND sku_id IN ({skus}))))"
        );
        let mut q = sqlx::query(&sql).bind(now_ms()).bind(store_id);
        for id in &moved {
            q = q.bind(*id);
        }
        Ok(q.execute(&mut **tx).await?.rows_affected())
    }

    /// The kept levels of `sku_ids` in `warehouses`: (warehouse, SKU) → available.
    pub async fn levels(&self, store_id: i64, warehouses: &[i64], sku_ids: &[i64]) -> Result<HashMap<(i64, i64), i64>> {
        let mut out = HashMap::new();
        if warehouses.is_empty() {
            return Ok(out);
        }
        for chunk in sku_ids.chunks(200) {
            let (w, s) = (super::marks(2, warehouses.len()), super::marks(2 + warehouses.len(), chunk.len()));
            let sql = format!(
                "SELECT warehouse_id, sku_id, available FROM sku_levels WHERE store_id = $1 AND warehouse_id IN ({w}) \
                 AND sku_id IN ({s})"
            );
            let mut q = sqlx::query_as::<_, (i64, i64, i64)>(&sql).bind(store_id);
            for id in warehouses.iter().chain(chunk) {
                q = q.bind(id);
            }
            for (w, s, a) in q.fetch_all(self.db.pool()).await? {
                out.insert((w, s), a);
            }
        }
        Ok(out)
    }

    /// Keeps levels read from the ledger where no movement has told one (a reading is never
    /// newer than an event applied).
    pub async fn save_read_levels(&self, store_id: i64, levels: &[(i64, i64, i64)]) -> Result<()> {
        let mut tx = self.db.begin().await?;
        for (warehouse, sku, available) in levels {
            sqlx::query(
                "INSERT INTO sku_levels (store_id, warehouse_id, sku_id, available, movement) VALUES ($1, $2, $3, $4, 0) \
                 ON CONFLICT (store_id, warehouse_id, sku_id) DO NOTHING",
            )
            .bind(store_id)
            .bind(warehouse)
            .bind(sku)
            .bind(available)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Up to `limit` linked listings due now, of active, connected shops, longest waiting
    /// first.
    pub async fn due_listings(&self, limit: i64) -> Result<Vec<ListingRow>> {
        Ok(sqlx::query_as::<_, ListingRow>(&format!(
            "SELECT {LISTING_COLUMNS} FROM listings WHERE due_at > 0 AND due_at <= $1 AND (sku_id > 0 OR bundle = 1) \
             AND state <> 'deleted' AND store_channel_id IN \
             (SELECT id FROM store_channels WHERE status = $2 AND token_expired = 0) ORDER BY due_at, id LIMIT $3"
        ))
        .bind(now_ms())
        .bind(Status::Active.as_str())
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Records what became of a listing's push (`read` is its `changes` when it was read):
    /// it stays due when the ledger moved meanwhile; a push or a refusal is logged.
    pub async fn pushed(&self, l: &ListingRow, what: Pushed<'_>, read: i64) -> Result<()> {
        let now = now_ms();
        let (wanted, sent, answer, log) = match what {
            Pushed::Set(q) => (q, q, "", Some("set")),
            Pushed::Refused(q, why) => (q, l.sent, why, Some("refused")),
            Pushed::Left(q, why) => (q, l.sent, why, if why.is_empty() { None } else { Some("left") }),
        };
        let mut tx = self.db.begin().await?;
        // What the marketplace took is its stock now.
        sqlx::query(
            "UPDATE listings SET wanted = $1, sent = $2, sent_at = CASE WHEN $3 = 1 THEN $4 ELSE sent_at END, attempts = 0, \
             last_answer = $5, due_at = CASE WHEN changes = $6 THEN 0 ELSE due_at END, \
             platform_stock = CASE WHEN $5 = '' AND $3 = 1 THEN $2 ELSE platform_stock END WHERE id = $7",
        )
        .bind(wanted)
        .bind(sent)
        .bind(i64::from(log.is_some()))
        .bind(now)
        .bind(answer)
        .bind(read)
        .bind(l.id)
        .execute(&mut *tx)
        .await?;
        if let Some(outcome) = log {
            sqlx::query(
                "INSERT INTO stock_pushes (store_id, store_channel_id, sku_id, item_id, model_id, quantity, outcome, answer, \
                 sent_at, listing_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(l.store_id)
            .bind(l.store_channel_id)
            .bind(l.sku_id)
            .bind(&l.item_id)
            .bind(&l.model_id)
            .bind(wanted)
            .bind(outcome)
            .bind(answer)
            .bind(now)
            .bind(l.id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE store_channels SET last_stock_push_at = $1 WHERE id = $2")
                .bind(now)
                .bind(l.store_channel_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Keeps the stock the marketplace showed of a listing read back after a push of `pushed`
    /// (unless a newer push has set it since).
    pub async fn read_back(&self, id: i64, pushed: i64, shown: i64, now: i64) -> Result<()> {
        sqlx::query("UPDATE listings SET platform_stock = $1, stock_checked_at = $2 WHERE id = $3 AND sent = $4")
            .bind(shown)
            .bind(now)
            .bind(id)
            .bind(pushed)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Puts listings' pushes off by `wait_ms` (the marketplace throttled us or could not be
    /// reached), with why.
    pub async fn push_later(&self, ids: &[i64], wait_ms: i64, why: &str) -> Result<()> {
        let at = now_ms() + wait_ms.max(1);
        let mut tx = self.db.begin().await?;
        for id in ids {
            sqlx::query(
                "UPDATE listings SET due_at = $1, attempts = attempts + 1, last_answer = $2 WHERE id = $3 AND due_at > 0",
            )
            .bind(at)
            .bind(why)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Leaves listings' pushes (their shop has no warehouse set): nothing is due until it has.
    pub async fn push_none(&self, ids: &[i64], why: &str) -> Result<()> {
        let mut tx = self.db.begin().await?;
        for id in ids {
            sqlx::query("UPDATE listings SET due_at = 0, last_answer = $1 WHERE id = $2")
                .bind(why)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Makes linked listings due to be pushed whatever they come to: every one of a shop (or
    /// of every shop with 0), or those of `ids`. How many.
    pub async fn reassert(&self, store_channel_id: i64) -> Result<u64> {
        let r = sqlx::query(
            "UPDATE listings SET wanted = -1, changes = changes + 1, due_at = CASE WHEN due_at = 0 THEN $1 ELSE due_at END \
             WHERE (sku_id > 0 OR bundle = 1) AND state <> 'deleted' AND ($2 = 0 OR store_channel_id = $2)",
        )
        .bind(now_ms())
        .bind(store_channel_id)
        .execute(self.db.pool())
        .await?;
        Ok(r.rows_affected())
    }

    /// Makes the linked listings of `ids` in a shop due now, whatever they come to: how many.
    pub async fn push_now(&self, store_channel_id: i64, ids: &[i64]) -> Result<u64> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let mut n = 0;
        for id in ids {
            let r = sqlx::query(
                "UPDATE listings SET wanted = -1, changes = changes + 1, due_at = CASE WHEN due_at = 0 THEN $1 ELSE due_at END \
                 WHERE id = $2 AND store_channel_id = $3 AND (sku_id > 0 OR bundle = 1) AND state <> 'deleted'",
            )
            .bind(now)
            .bind(id)
            .bind(store_channel_id)
            .execute(&mut *tx)
            .await?;
            n += r.rows_affected();
        }
        tx.commit().await?;
        Ok(n)
    }

    /// The newest pushes of a SKU's listings, newest first: (shop, item, variation, quantity,
    /// outcome, answer, when).
    pub async fn stock_log(
        &self,
        store_id: i64,
        sku_id: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, String, i64, String, String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT store_channel_id, item_id, model_id, quantity, outcome, answer, sent_at FROM stock_pushes \
             WHERE store_id = $1 AND sku_id = $2 ORDER BY id DESC LIMIT $3",
        )
        .bind(store_id)
        .bind(sku_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Drops push log entries older than `older_than_ms`: how many.
    pub async fn purge_stock_log(&self, older_than_ms: i64) -> Result<u64> {
        let r = sqlx::query("DELETE FROM stock_pushes WHERE sent_at < $1")
            .bind(now_ms() - older_than_ms)
            .execute(self.db.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// A shop's rule (listing 0) or a listing's own, where one is kept.
    pub async fn rule(&self, store_channel_id: i64, listing_id: i64) -> Result<Option<RuleRow>> {
        let row: Option<RuleColumns> = sqlx::query_as(
            "SELECT listing_id, percent, fixed, rounding, warehouses, threshold, priority, hold, increase_only, updated_by, \
             updated_at FROM stock_rules WHERE store_channel_id = $1 AND listing_id = $2",
        )
        .bind(store_channel_id)
        .bind(listing_id)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(row.map(RuleRow::from))
    }

    /// Every rule of a shop: its own (listing 0) and its listings', by listing.
    pub async fn rules(&self, store_channel_id: i64) -> Result<HashMap<i64, RuleRow>> {
        let rows: Vec<RuleColumns> = sqlx::query_as(
            "SELECT listing_id, percent, fixed, rounding, warehouses, threshold, priority, hold, increase_only, updated_by, \
             updated_at FROM stock_rules WHERE store_channel_id = $1",
        )
        .bind(store_channel_id)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.into_iter().map(|r| (r.listing_id, RuleRow::from(r))).collect())
    }

    /// Sets a shop's rule (listing 0) or a listing's own; a shop chosen to keep what is left
    /// when nearly sold out is the store's only one. Every linked listing of the shop (or the
    /// listing) is due to be pushed by the new rule.
    pub async fn save_rule(
        &self,
        store_id: i64,
        store_channel_id: i64,
        listing_id: i64,
        rule: &RuleRow,
        user_id: i64,
    ) -> Result<()> {
        let now = now_ms();
        let r = &rule.rule;
        let warehouses: Vec<String> = rule.warehouses.iter().map(i64::to_string).collect();
        let mut tx = self.db.begin().await?;
        sqlx::query(
            "INSERT INTO stock_rules (store_channel_id, listing_id, store_id, percent, fixed, rounding, warehouses, threshold, \
             priority, hold, increase_only, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
             ON CONFLICT (store_channel_id, listing_id) DO UPDATE SET percent = excluded.percent, fixed = excluded.fixed, \
             rounding = excluded.rounding, warehouses = excluded.warehouses, threshold = excluded.threshold, \
             priority = excluded.priority, hold = excluded.hold, increase_only = excluded.increase_only, \
             updated_by = excluded.updated_by, updated_at = excluded.updated_at",
        )
        .bind(store_channel_id)
        .bind(listing_id)
        .bind(store_id)
        .bind(r.percent)
        .bind(r.fixed)
        .bind(r.rounding.as_str())
        .bind(warehouses.join(","))
        .bind(r.threshold)
        .bind(i64::from(r.priority))
        .bind(r.hold)
        .bind(i64::from(r.increase_only))
        .bind(user_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if r.priority && listing_id == 0 {
            // The other shops of the store give up the choice; their listings are pushed again.
            let others: Vec<i64> = sqlx::query_scalar(
                "SELECT store_channel_id FROM stock_rules WHERE store_id = $1 AND listing_id = 0 AND priority = 1 \
                 AND store_channel_id <> $2",
            )
            .bind(store_id)
            .bind(store_channel_id)
            .fetch_all(&mut *tx)
            .await?;
            for other in others {
                sqlx::query("UPDATE stock_rules SET priority = 0 WHERE store_channel_id = $1 AND listing_id = 0")
                    .bind(other)
                    .execute(&mut *tx)
                    .await?;
                Self::due_in(&mut tx, other, 0, now).await?;
            }
        }
        Self::due_in(&mut tx, store_channel_id, listing_id, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Drops a listing's own rule (its shop's applies again): false when it had none.
    pub async fn drop_rule(&self, store_channel_id: i64, listing_id: i64) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let gone =
            sqlx::query("DELETE FROM stock_rules WHERE store_channel_id = $1 AND listing_id = $2 AND listing_id > 0")
                .bind(store_channel_id)
                .bind(listing_id)
                .execute(&mut *tx)
                .await?;
        if changed(&gone) {
            Self::due_in(&mut tx, store_channel_id, listing_id, now_ms()).await?;
        }
        tx.commit().await?;
        Ok(changed(&gone))
    }

    /// Makes a shop's linked listings (or one of them) due to be computed again.
    async fn due_in(tx: &mut Tx, store_channel_id: i64, listing_id: i64, now: i64) -> Result<()> {
        sqlx::query(
            "UPDATE listings SET changes = changes + 1, due_at = CASE WHEN due_at = 0 THEN $1 ELSE due_at END \
             WHERE store_channel_id = $2 AND ($3 = 0 OR id = $3) AND (sku_id > 0 OR bundle = 1) AND state <> 'deleted'",
        )
        .bind(now)
        .bind(store_channel_id)
        .bind(listing_id)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Starts a shop's "push all": every linked listing is due whatever it comes to; its
    /// progress is the listings still due. A push all already running is left running.
    pub async fn start_sync(&self, store_id: i64, store_channel_id: i64, user_id: i64) -> Result<SyncRow> {
        let now = now_ms();
        let total = self.reassert(store_channel_id).await? as i64;
        let mut tx = self.db.begin().await?;
        let r = sqlx::query(
            "INSERT INTO stock_syncs (store_channel_id, store_id, state, total, done, started_by, started_at, finished_at) \
             VALUES ($1, $2, 'running', $3, 0, $4, $5, 0) ON CONFLICT (store_channel_id) DO UPDATE SET state = 'running', \
             total = excluded.total, done = 0, started_by = excluded.started_by, started_at = excluded.started_at, \
             finished_at = 0 WHERE stock_syncs.state <> 'running'",
        )
        .bind(store_channel_id)
        .bind(store_id)
        .bind(total)
        .bind(user_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let row = sync_row(&mut tx, store_channel_id).await?.expect("just written");
        if r.rows_affected() > 0 {
            told(&mut tx, store_id, &row).await?;
        }
        tx.commit().await?;
        Ok(row)
    }

    /// A shop's "push all" as it stands now: a running one counts the listings no longer
    /// due and is finished once nothing of the shop is due; each step is told
    /// (`marketplaces.stock_sync.changed`) in the transaction that makes it.
    pub async fn sync(&self, store_channel_id: i64) -> Result<Option<SyncRow>> {
        let mut tx = self.db.begin().await?;
        let Some(row) = sync_row(&mut tx, store_channel_id).await? else { return Ok(None) };
        if row.state != "running" {
            return Ok(Some(row));
        }
        let due: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM listings WHERE store_channel_id = $1 AND due_at > 0 AND (sku_id > 0 OR bundle = 1) \
             AND state <> 'deleted'",
        )
        .bind(store_channel_id)
        .fetch_one(&mut *tx)
        .await?;
        let done = (row.total - due).max(row.done);
        let finished = due == 0;
        if done == row.done && !finished {
            return Ok(Some(row));
        }
        let now = now_ms();
        sqlx::query(
            "UPDATE stock_syncs SET done = $1, state = CASE WHEN $2 = 1 THEN 'finished' ELSE state END, \
             finished_at = CASE WHEN $2 = 1 THEN $3 ELSE finished_at END WHERE store_channel_id = $4 AND state = 'running'",
        )
        .bind(done)
        .bind(i64::from(finished))
        .bind(now)
        .bind(store_channel_id)
        .execute(&mut *tx)
        .await?;
        let row = sync_row(&mut tx, store_channel_id).await?.expect("just read");
        let store_id: i64 = sqlx::query_scalar("SELECT store_id FROM stock_syncs WHERE store_channel_id = $1")
            .bind(store_channel_id)
            .fetch_one(&mut *tx)
            .await?;
        told(&mut tx, store_id, &row).await?;
        tx.commit().await?;
        Ok(Some(row))
    }

    /// The last "push all" of each shop of the store (a shop never pushed all has none).
    pub async fn syncs(&self, store_id: i64) -> Result<Vec<SyncRow>> {
        Ok(sqlx::query_as(
            "SELECT store_channel_id, state, total, done, started_by, started_at, finished_at FROM stock_syncs \
             WHERE store_id = $1 ORDER BY store_channel_id",
        )
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The shops of `ids` whose "push all" is running.
    pub async fn running_syncs(&self) -> Result<Vec<(i64, i64)>> {
        Ok(sqlx::query_as("SELECT store_channel_id, store_id FROM stock_syncs WHERE state = 'running'")
            .fetch_all(self.db.pool())
            .await?)
    }
}

/// A shop's "push all" row.
async fn sync_row(tx: &mut Tx, store_channel_id: i64) -> Result<Option<SyncRow>> {
    Ok(sqlx::query_as(
        "SELECT store_channel_id, state, total, done, started_by, started_at, finished_at FROM stock_syncs \
         WHERE store_channel_id = $1",
    )
    .bind(store_channel_id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Tells of a step of a shop's "push all".
async fn told(tx: &mut Tx, store_id: i64, row: &SyncRow) -> Result<()> {
    let event = bo_proto::events::v1::StockSyncChanged { sync: Some(row.to_proto()) };
    bo_kit::outbox::enqueue(tx, store_id, row.started_by, &event).await?;
    Ok(())
}

impl SyncRow {
    /// As the contract shows it.
    pub fn to_proto(&self) -> bo_proto::marketplaces::v1::StockSync {
        let at = |ms: i64| (ms > 0).then(|| bo_kit::time::ms_to_timestamp(ms));
        bo_proto::marketplaces::v1::StockSync {
            store_channel_id: self.store_channel_id,
            running: self.state == "running",
            total: self.total,
            done: self.done,
            start_time: at(self.started_at),
            finish_time: at(self.finished_at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::{ListingState, MarketListing, Secret, Shop, Tokens};
    use crate::domain::bundle::Part;
    use crate::domain::Marketplace;
    use crate::store::{linked_by, Learnt, ListingFilter, Settings};
    use crate::vault::Vault;
    use bo_kit::db::Db;
    use bo_kit::paging::PageRequest;

    fn market(item: &str, model: &str, sku: &str) -> MarketListing {
        MarketListing {
            item_id: item.into(),
            model_id: model.into(),
            name: format!("สินค้า {item}"),
            options: vec![("สี".into(), "แดง".into())],
            seller_sku: sku.into(),
            price_satang: 9_900,
            stock: 4,
            image_url: String::new(),
            state: ListingState::Active,
            updated_at_s: 1,
        }
    }

    async fn level(r: &Repo, sku: i64, available: i64, movement: i64) -> u64 {
        let mut tx = r.db.begin().await.unwrap();
        let n = Repo::apply_level(&mut tx, 1, 3, sku, available, movement).await.unwrap();
        tx.commit().await.unwrap();
        n
    }

    async fn shop(r: &Repo, id: &str) -> i64 {
        let tokens = Tokens {
            access: Secret::new("a"),
            refresh: Secret::new("r"),
            access_expires_at_s: i64::MAX / 2,
            refresh_expires_at_s: i64::MAX / 2,
        };
        let shop = Shop { shop_id: id.into(), name: "ร้าน".into(), region: "TH".into(), cipher: String::new() };
        let ch = r.connect(1, 9, Marketplace::Shopee, &shop, &tokens).await.unwrap();
        let s = Settings { warehouse_id: 3, logistic_channel_id: 0, payment_channel_id: 0, status: Status::Active };
        r.update_settings(1, ch.id, 9, &s).await.unwrap();
        ch.id
    }

    fn due_ids(rows: &[ListingRow]) -> Vec<(String, String)> {
        rows.iter().map(|l| (l.item_id.clone(), l.model_id.clone())).collect()
    }

    /// Listings kept and linked by each way there is, due as the ledger moves, pushed once per
    /// burst, never pushed unlinked; a person's link and unlink stand.
    async fn listings_are_linked_and_pushed_as_the_ledger_moves(db: Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let r = Repo::new(db, Vault::new(&Vault::generate_key(), &[]).unwrap());
        let ch = shop(&r, "55").await;
        let kept = r
            .save_listings(1, ch, &[market("A", "1", "S-7"), market("A", "2", "S-8"), market("B", "", "SET")], 1_000)
            .await
            .unwrap();
        assert_eq!(kept.len(), 3);
        assert!(kept.iter().all(|l| !l.is_linked() && l.due_at == 0), "waiting listings are never due");
        assert_eq!(kept[0].options(), vec![("สี".to_string(), "แดง".to_string())]);
        assert!(r.due_listings(10).await.unwrap().is_empty());

        // Learnt from an order once; a person's link replaces nothing automatic takes back.
        let learnt = |model: &str, sku| Learnt {
            item_id: "A".into(),
            model_id: model.into(),
            seller_sku: String::new(),
            sku_id: sku,
        };
        assert_eq!(r.learn_links(1, ch, &[learnt("1", 7)]).await.unwrap().len(), 1);
        assert!(r.learn_links(1, ch, &[learnt("1", 9)]).await.unwrap().is_empty(), "an order never relinks");
        assert!(r.link(1, kept[1].id, 8, linked_by::PERSON).await.unwrap());
        assert!(r.learn_links(1, ch, &[learnt("2", 9)]).await.unwrap().is_empty());
        assert!(!r.link(1, kept[1].id, 9, linked_by::AUTO).await.unwrap(), "nothing automatic replaces a person");
        assert!(!r.link(2, kept[1].id, 9, linked_by::PERSON).await.unwrap(), "another store's listing");
        let due = r.due_listings(10).await.unwrap();
        assert_eq!(due_ids(&due), vec![("A".into(), "1".into()), ("A".into(), "2".into())]);
        assert!(due.iter().all(|l| l.wanted == -1), "pushed whatever they come to");

        // Pushed; the ledger moves twice: due again once; an older movement changes nothing.
        for l in &due {
            r.pushed(l, Pushed::Set(5), l.changes).await.unwrap();
        }
        assert!(r.due_listings(10).await.unwrap().is_empty());
        assert_eq!(level(&r, 7, 4, 10).await, 1);
        assert_eq!(level(&r, 7, 2, 11).await, 1);
        assert_eq!(level(&r, 7, 9, 9).await, 0, "older than what it holds");
        assert_eq!(r.levels(1, &[3], &[7]).await.unwrap().get(&(3, 7)), Some(&2));
        r.save_read_levels(1, &[(3, 7, 50), (3, 8, 6)]).await.unwrap();
        let levels = r.levels(1, &[3], &[7, 8]).await.unwrap();
        assert_eq!((levels[&(3, 7)], levels[&(3, 8)]), (2, 6), "a reading never overwrites a movement");
        // The ledger moves while a push is in flight: it stays due.
        let due = r.due_listings(10).await.unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(level(&r, 7, 1, 12).await, 1);
        r.pushed(&due[0], Pushed::Set(2), due[0].changes).await.unwrap();
        let again = r.due_listings(10).await.unwrap();
        assert_eq!((again.len(), again[0].sent, again[0].wanted), (1, 2, 2));
        // A refusal is logged and not tried again until the level changes; nothing sent is not logged.
        r.pushed(&again[0], Pushed::Refused(1, "item deleted"), again[0].changes).await.unwrap();
        assert!(r.due_listings(10).await.unwrap().is_empty());
        assert_eq!(r.stock_log(1, 7, 10).await.unwrap().len(), 3);
        level(&r, 7, 1, 13).await;
        let d = r.due_listings(10).await.unwrap().remove(0);
        r.pushed(&d, Pushed::Left(2, ""), d.changes).await.unwrap();
        assert_eq!(r.stock_log(1, 7, 10).await.unwrap().len(), 3);

        // A bundle is due when any of its parts moves.
        let parts = [Part { sku_id: 7, per_set: 2, share_bp: 5_000 }, Part { sku_id: 20, per_set: 1, share_bp: 5_000 }];
        assert!(r.link_bundle(1, kept[2].id, &parts).await.unwrap());
        let d = r.due_listings(10).await.unwrap().remove(0);
        r.pushed(&d, Pushed::Set(0), d.changes).await.unwrap();
        assert_eq!(level(&r, 20, 3, 14).await, 1);
        assert_eq!(r.due_listings(10).await.unwrap()[0].id, kept[2].id);
        assert_eq!(r.parts(&[kept[2].id]).await.unwrap()[&kept[2].id].len(), 2);
        assert_eq!(r.links_of_skus(1, &[20, 8]).await.unwrap(), vec![(8, ch, kept[1].id), (20, ch, kept[2].id)]);

        // Unlinked by a person: never due, never relinked but by a person.
        assert!(r.unlink_listing(1, kept[2].id).await.unwrap());
        assert!(r.due_listings(10).await.unwrap().is_empty());
        assert_eq!(level(&r, 20, 2, 15).await, 0, "an unlinked listing is not made due");
        assert_eq!(r.link_many(1, &[(kept[2].id, 7)], linked_by::AUTO).await.unwrap(), 0);
        assert!(r.waiting(1, ch).await.unwrap().is_empty(), "an automatic link does not take it");

        // A whole import that did not see a listing: deleted, its link gone.
        let seen = r.save_listings(1, ch, &[market("A", "2", "S-8")], 2_000).await.unwrap();
        assert!(seen[0].is_linked());
        assert_eq!(r.expire_unseen(ch, 2_000).await.unwrap(), 2);
        let gone = r.listing(1, kept[0].id).await.unwrap().unwrap();
        assert_eq!((gone.state.as_str(), gone.is_linked()), ("deleted", false));
        // The import read 4 on it where the marketplace took 5: it differs.
        let (waiting, linked, differs) = r.listing_counts(ch).await.unwrap();
        assert_eq!((waiting, linked, differs), (0, 1, 1));
    }

    /// Rules are kept per shop and per listing; one shop of a store keeps what is left when
    /// nearly sold out; a push all is finished once nothing it made due waits.
    async fn rules_and_push_all(db: Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let r = Repo::new(db, Vault::new(&Vault::generate_key(), &[]).unwrap());
        let (a, b) = (shop(&r, "1").await, shop(&r, "2").await);
        let kept = r.save_listings(1, a, &[market("X", "", "S-1")], 1).await.unwrap();
        r.link(1, kept[0].id, 1, linked_by::PERSON).await.unwrap();
        let chosen = RuleRow {
            rule: Rule { percent: 50, threshold: 3, priority: true, ..Rule::default() },
            warehouses: vec![3, 4],
            ..Default::default()
        };
        r.save_rule(1, a, 0, &chosen, 9).await.unwrap();
        r.save_rule(1, b, 0, &chosen, 9).await.unwrap();
        assert!(!r.rule(a, 0).await.unwrap().unwrap().rule.priority, "the store's one chosen shop is b now");
        assert_eq!(r.rule(b, 0).await.unwrap().unwrap().warehouses, vec![3, 4]);
        r.save_rule(1, a, kept[0].id, &RuleRow::default(), 9).await.unwrap();
        assert_eq!(r.rules(a).await.unwrap().len(), 2);
        assert!(r.drop_rule(a, kept[0].id).await.unwrap());
        assert!(!r.drop_rule(a, 0).await.unwrap(), "a shop's rule is set, never dropped");

        let s = r.start_sync(1, a, 9).await.unwrap();
        assert_eq!((s.state.as_str(), s.total), ("running", 1));
        let d = r.due_listings(10).await.unwrap().remove(0);
        r.pushed(&d, Pushed::Set(0), d.changes).await.unwrap();
        let s = r.sync(a).await.unwrap().unwrap();
        assert_eq!((s.state.as_str(), s.done), ("finished", 1));
        assert!(s.finished_at > 0);
        assert!(r.sync(b).await.unwrap().is_none());
    }

    /// A shop `id` whose two listings are linked to SKUs 7 and 8 and pushed 5 each: the
    /// repo, the shop and the listings.
    async fn two_listings_pushed(db: Db, id: &str) -> (Repo, i64, Vec<ListingRow>) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let r = Repo::new(db, Vault::new(&Vault::generate_key(), &[]).unwrap());
        let ch = shop(&r, id).await;
        let kept = r.save_listings(1, ch, &[market("A", "1", "S-7"), market("A", "2", "S-8")], 1_000).await.unwrap();
        for (l, sku) in kept.iter().zip([7, 8]) {
            assert!(r.link(1, l.id, sku, linked_by::PERSON).await.unwrap());
        }
        for l in r.due_listings(10).await.unwrap() {
            r.pushed(&l, Pushed::Set(5), l.changes).await.unwrap();
        }
        (r, ch, kept)
    }

    /// A read-back that shows another stock than the marketplace took flags the listing (in
    /// the counts and the filter) until one shows them equal; a read of an older push is
    /// dropped.
    async fn a_read_back_flags_what_differs(db: Db) {
        let (r, ch, kept) = two_listings_pushed(db, "56").await;
        let differing = |r: &Repo| {
            let r = r.clone();
            async move {
                let f = ListingFilter { stock_differs: true, ..Default::default() };
                let (rows, _) = r.listings(1, ch, &f, PageRequest::default()).await.unwrap();
                (r.listing_counts(ch).await.unwrap().2, rows.iter().map(|l| l.id).collect::<Vec<_>>())
            }
        };
        assert_eq!(differing(&r).await, (0, vec![]), "a push is taken as shown");
        r.read_back(kept[0].id, 5, 3, 2_000).await.unwrap();
        r.read_back(kept[1].id, 5, 5, 2_000).await.unwrap();
        r.read_back(kept[1].id, 4, 9, 2_000).await.unwrap();
        assert_eq!(differing(&r).await, (1, vec![kept[0].id]));
        let l = r.listing(1, kept[0].id).await.unwrap().unwrap();
        assert_eq!((l.platform_stock, l.stock_checked_at, l.stock_differs()), (3, 2_000, true));
        assert!(!r.listing(1, kept[1].id).await.unwrap().unwrap().stock_differs(), "a read of another push");
        r.read_back(kept[0].id, 5, 5, 3_000).await.unwrap();
        assert_eq!(differing(&r).await, (0, vec![]));
    }

    /// Levels that arrive together: of a SKU's, the newest is kept whatever their order, one
    /// no newer than what is kept changes nothing, and only the SKUs that moved make their
    /// listings due.
    async fn levels_arriving_together_keep_the_newest(db: Db) {
        let (r, ..) = two_listings_pushed(db, "77").await;
        let apply = |warehouse: i64, levels: Vec<(i64, i64, i64)>| {
            let r = r.clone();
            async move {
                let levels: Vec<Level> = levels
                    .into_iter()
                    .map(|(sku_id, available, movement)| Level { sku_id, available, movement })
                    .collect();
                let mut tx = r.db.begin().await.unwrap();
                let n = Repo::apply_levels(&mut tx, 1, warehouse, &levels).await.unwrap();
                tx.commit().await.unwrap();
                n
            }
        };
        let n = apply(3, vec![(7, 4, 21), (7, 2, 22), (7, 9, 20), (9, 1, 23)]).await;
        assert_eq!(n, 1, "SKU 7's listing (SKU 9 has none)");
        let levels = r.levels(1, &[3], &[7, 8, 9]).await.unwrap();
        assert_eq!((levels.get(&(3, 7)), levels.get(&(3, 8)), levels.get(&(3, 9))), (Some(&2), None, Some(&1)));
        let due = r.due_listings(10).await.unwrap();
        assert_eq!(due_ids(&due), vec![("A".into(), "1".into())]);
        assert_eq!(apply(3, vec![(7, 5, 22), (9, 0, 23), (7, 6, 1)]).await, 0, "none newer than what is kept");
        assert_eq!(r.levels(1, &[3], &[7]).await.unwrap()[&(3, 7)], 2);
        assert_eq!(r.due_listings(10).await.unwrap()[0].changes, due[0].changes, "not moved again");
        // Another warehouse keeps its own.
        apply(4, vec![(7, 6, 5)]).await;
        let levels = r.levels(1, &[3, 4], &[7]).await.unwrap();
        assert_eq!((levels[&(3, 7)], levels[&(4, 7)]), (2, 6));
    }

    bo_kit::on_both_databases!(
        listings_are_linked_and_pushed_as_the_ledger_moves,
        rules_and_push_all,
        a_read_back_flags_what_differs,
        levels_arriving_together_keep_the_newest
    );
}
