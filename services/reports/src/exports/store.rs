//! Exports' SQL: the export records and a builder's claim on one.

use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use serde::{Deserialize, Serialize};
use sqlx::FromRow;

use bo_kit::db::Tx;
use bo_proto::reports::v1 as pb;
use bo_proto::Wire as _;

use super::domain::{self as export, ExportEvent};
use crate::store::Repo;

const EXPORT_COLUMNS: &str =
    "id, store_id, kind, scope, file_name, lang, state, total, done, file_key, file_size, error, claimed_by, \
    claimed_at, created_by, created_at, finished_at, expires_at";

/// What an export covers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scope {
    /// From (unix ms, inclusive) and before (exclusive).
    pub from_ms: i64,
    pub to_ms: i64,
    /// Orders: their states (none: every state).
    pub order_states: Vec<String>,
    /// The table of a summary.
    pub table: String,
    /// Stock movements: the kind, SKU and warehouse ('' and 0 for all).
    pub movement_kind: String,
    pub sku_id: i64,
    pub warehouse_id: i64,
    /// A summary's period (daily, monthly, quarterly, yearly) and the day asked.
    pub period: String,
    pub date: String,
}

/// An export record.
#[derive(Debug, Clone, FromRow)]
pub struct ExportRow {
    pub id: i64,
    pub store_id: i64,
    pub kind: String,
    pub scope: String,
    pub file_name: String,
    pub lang: String,
    pub state: String,
    pub total: i64,
    pub done: i64,
    pub file_key: String,
    pub file_size: i64,
    pub error: String,
    pub claimed_by: String,
    pub claimed_at: i64,
    pub created_by: i64,
    pub created_at: i64,
    pub finished_at: i64,
    pub expires_at: i64,
}

impl ExportRow {
    /// What it covers.
    pub fn scope(&self) -> Scope {
        serde_json::from_str(&self.scope).unwrap_or_default()
    }
}

/// A kinds filter: `kind IN (...)` from `$first` on, or nothing for every kind.
fn kinds_clause(kinds: &[&str], first: usize) -> String {
    if kinds.is_empty() {
        return String::new();
    }
    let list: Vec<String> = (0..kinds.len()).map(|i| format!("${}", first + i)).collect();
    format!(" AND kind IN ({})", list.join(", "))
}

/// Tells of an export's change in the transaction that made it (`reports.export.changed`:
/// the app follows the progress over the realtime socket).
async fn changed(tx: &mut Tx, id: i64) -> Result<()> {
    let e = sqlx::query_as::<_, ExportRow>(&format!("SELECT {EXPORT_COLUMNS} FROM report_exports WHERE id = $1"))
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    let event = bo_proto::events::v1::ExportChanged {
        export_id: e.id,
        kind: pb::ExportKind::number(&e.kind),
        state: pb::ExportState::number(&e.state),
        done: e.done,
        total: e.total,
        created_by: e.created_by,
    };
    bo_kit::outbox::enqueue(tx, e.store_id, e.created_by, &event).await?;
    Ok(())
}

impl Repo {
    /// Records an export to build.
    #[allow(clippy::too_many_arguments)]
    pub async fn insert_export(
        &self,
        store_id: i64,
        user_id: i64,
        kind: export::Kind,
        scope: &Scope,
        file_name: &str,
        lang: &str,
        total: i64,
    ) -> Result<ExportRow> {
        let scope = serde_json::to_string(scope).map_err(Error::internal)?;
        let mut tx = self.db().begin().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO report_exports (store_id, kind, scope, file_name, lang, state, total, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(store_id)
        .bind(kind.word())
        .bind(scope)
        .bind(file_name)
        .bind(lang)
        .bind(export::EXPORTING)
        .bind(total)
        .bind(user_id)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        changed(&mut tx, id).await?;
        tx.commit().await?;
        self.export(store_id, id, &[]).await
    }

    /// One export of the store, among `kinds` (none: every kind).
    pub async fn export(&self, store_id: i64, id: i64, kinds: &[&str]) -> Result<ExportRow> {
        let sql = format!(
            "SELECT {EXPORT_COLUMNS} FROM report_exports WHERE store_id = $1 AND id = $2{}",
            kinds_clause(kinds, 3)
        );
        let mut q = sqlx::query_as::<_, ExportRow>(&sql).bind(store_id).bind(id);
        for k in kinds {
            q = q.bind(*k);
        }
        q.fetch_optional(self.db().pool()).await?.ok_or_else(|| Error::not_found(Code::ExportNotFound))
    }

    /// The store's exports of `kinds` (none: every kind), newest first, paged.
    pub async fn exports(&self, store_id: i64, kinds: &[&str], page: PageRequest) -> Result<(Vec<ExportRow>, Page)> {
        let filter = format!("store_id = $1{}", kinds_clause(kinds, 2));
        let count_sql = format!("SELECT COUNT(*) FROM report_exports WHERE {filter}");
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id);
        for k in kinds {
            count = count.bind(*k);
        }
        let page = page.resolve(count.fetch_one(self.db().pool()).await?);
        let n = kinds.len() + 2;
        let sql = format!(
            "SELECT {EXPORT_COLUMNS} FROM report_exports WHERE {filter} ORDER BY id DESC LIMIT ${n} OFFSET ${}",
            n + 1
        );
        let mut q = sqlx::query_as::<_, ExportRow>(&sql).bind(store_id);
        for k in kinds {
            q = q.bind(*k);
        }
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(self.db().pool()).await?;
        Ok((rows, page))
    }

    /// How many exports of the store wait to be built or are being built.
    pub async fn exports_waiting(&self, store_id: i64) -> Result<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM report_exports WHERE store_id = $1 AND state = $2")
            .bind(store_id)
            .bind(export::EXPORTING)
            .fetch_one(self.db().pool())
            .await?)
    }

    /// Claims an export waiting to be built (or whose builder went quiet before `stale`) for
    /// `holder`, taking the stores in turn: the store served longest ago first (one whose
    /// export is being built now waits for the others), its oldest export first. None when
    /// none waits.
    pub async fn claim_export(&self, holder: &str, stale: i64) -> Result<Option<ExportRow>> {
        let waiting: Option<(i64, i64)> = sqlx::query_as(
            "SELECT e.id, e.claimed_at FROM report_exports e WHERE e.state = $1 AND e.claimed_at < $2 \
             ORDER BY (SELECT COALESCE(MAX(x.claimed_at), 0) FROM report_exports x WHERE x.store_id = e.store_id), e.id \
             LIMIT 1",
        )
        .bind(export::EXPORTING)
        .bind(stale)
        .fetch_optional(self.db().pool())
        .await?;
        let Some((id, seen)) = waiting else { return Ok(None) };
        let r = sqlx::query(
            "UPDATE report_exports SET claimed_by = $1, claimed_at = $2, done = 0 \
             WHERE id = $3 AND state = $4 AND claimed_at = $5",
        )
        .bind(holder)
        .bind(now_ms())
        .bind(id)
        .bind(export::EXPORTING)
        .bind(seen)
        .execute(self.db().pool())
        .await?;
        if r.rows_affected() != 1 {
            return Ok(None);
        }
        let row = sqlx::query_as::<_, ExportRow>(&format!("SELECT {EXPORT_COLUMNS} FROM report_exports WHERE id = $1"))
            .bind(id)
            .fetch_one(self.db().pool())
            .await?;
        Ok(Some(row))
    }

    /// Records how far a builder got, renewing its claim; false when it lost the claim.
    pub async fn export_progress(&self, id: i64, holder: &str, done: i64) -> Result<bool> {
        let mut tx = self.db().begin().await?;
        let r = sqlx::query(
            "UPDATE report_exports SET done = $1, claimed_at = $2 WHERE id = $3 AND claimed_by = $4 AND state = $5",
        )
        .bind(done)
        .bind(now_ms())
        .bind(id)
        .bind(holder)
        .bind(export::EXPORTING)
        .execute(&mut *tx)
        .await?;
        let kept = r.rows_affected() == 1;
        if kept {
            changed(&mut tx, id).await?;
        }
        tx.commit().await?;
        Ok(kept)
    }

    /// Moves an export by `event` (its builder's, when `holder` is given): built with its
    /// file and the rows it holds, failed with why, or expired. False when it was not in the
    /// state to move.
    #[allow(clippy::too_many_arguments)]
    pub async fn finish_export(
        &self,
        id: i64,
        holder: Option<&str>,
        event: ExportEvent,
        file_key: &str,
        file_size: i64,
        rows: i64,
        error: &str,
    ) -> Result<bool> {
        let from = match event {
            ExportEvent::Built | ExportEvent::Fail => export::EXPORTING,
            ExportEvent::Expire => export::EXPORTED,
        };
        let Some(to) = export::next(from, event) else { return Ok(false) };
        let now = now_ms();
        let built = event == ExportEvent::Built;
        let expires = if built { now + export::KEEP_MS } else { 0 };
        let mut tx = self.db().begin().await?;
        let r = sqlx::query(
            "UPDATE report_exports SET state = $1, file_key = CASE WHEN $2 = '' THEN file_key ELSE $2 END, \
             file_size = CASE WHEN $3 > 0 THEN $3 ELSE file_size END, error = $4, \
             finished_at = CASE WHEN $5 = 1 THEN $6 ELSE finished_at END, \
             expires_at = CASE WHEN $7 > 0 THEN $7 ELSE expires_at END, \
             done = CASE WHEN $5 = 1 THEN $11 ELSE done END, total = CASE WHEN $5 = 1 THEN $11 ELSE total END \
             WHERE id = $8 AND state = $9 AND ($10 = '' OR claimed_by = $10)",
        )
        .bind(to)
        .bind(file_key)
        .bind(file_size)
        .bind(error)
        .bind(i64::from(built))
        .bind(now)
        .bind(expires)
        .bind(id)
        .bind(from)
        .bind(holder.unwrap_or(""))
        .bind(rows)
        .execute(&mut *tx)
        .await?;
        let moved = r.rows_affected() == 1;
        if moved {
            changed(&mut tx, id).await?;
        }
        tx.commit().await?;
        Ok(moved)
    }

    /// Exports whose files' time has passed.
    pub async fn expired_exports(&self, now: i64, limit: i64) -> Result<Vec<ExportRow>> {
        Ok(sqlx::query_as::<_, ExportRow>(&format!(
            "SELECT {EXPORT_COLUMNS} FROM report_exports WHERE state = $1 AND expires_at > 0 AND expires_at < $2 \
             ORDER BY id LIMIT $3"
        ))
        .bind(export::EXPORTED)
        .bind(now)
        .bind(limit)
        .fetch_all(self.db().pool())
        .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exports::domain::Kind;

    /// One store's queue of year-long exports does not hold up another store's: builders
    /// take the stores in turn.
    async fn stores_take_turns(db: bo_kit::db::Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let repo = Repo::new(db);
        let ask = |store: i64| {
            let repo = repo.clone();
            async move {
                let scope = Scope { from_ms: 1, to_ms: 2, ..Default::default() };
                repo.insert_export(store, 1, Kind::Orders, &scope, "orders.xlsx", "th", 10).await.unwrap().id
            }
        };
        let a: Vec<i64> = vec![ask(1).await, ask(1).await, ask(1).await];
        let b = ask(2).await;
        let c = ask(3).await;
        let mut order = Vec::new();
        while let Some(e) = repo.claim_export("builder", now_ms() - 60_000).await.unwrap() {
            order.push(e.id);
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        assert_eq!(order, vec![a[0], b, c, a[1], a[2]], "store 1's first, then each other store, then store 1's rest");
    }

    /// A builder that lost its claim moves nothing; the one holding it does, once.
    async fn only_the_holder_finishes(db: bo_kit::db::Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let repo = Repo::new(db);
        let scope = Scope { from_ms: 1, to_ms: 2, table: "daily".into(), ..Default::default() };
        let e = repo.insert_export(7, 1, Kind::ServiceFees, &scope, "fees.xlsx", "en", 0).await.unwrap();
        assert_eq!(e.scope(), scope);
        let claimed = repo.claim_export("a", now_ms() - 60_000).await.unwrap().unwrap();
        assert_eq!(claimed.id, e.id);
        assert!(!repo.finish_export(e.id, Some("b"), ExportEvent::Built, "k", 10, 3, "").await.unwrap());
        assert!(repo.export_progress(e.id, "a", 2).await.unwrap());
        assert!(repo.finish_export(e.id, Some("a"), ExportEvent::Built, "k", 10, 3, "").await.unwrap());
        assert!(!repo.finish_export(e.id, Some("a"), ExportEvent::Built, "k", 10, 3, "").await.unwrap());
        let done = repo.export(7, e.id, &[Kind::ServiceFees.word()]).await.unwrap();
        assert_eq!((done.state.as_str(), done.total, done.done, done.file_size), (export::EXPORTED, 3, 3, 10));
        assert!(repo.export(7, e.id, &[Kind::Orders.word()]).await.is_err(), "not among the kinds asked");
        assert!(repo.export(8, e.id, &[]).await.is_err(), "another store's");
        let (rows, page) =
            repo.exports(7, &[Kind::ServiceFees.word(), Kind::Orders.word()], PageRequest::new(1, 10)).await.unwrap();
        assert_eq!((rows.len(), page.total), (1, 1));
        let (rows, _) = repo.exports(7, &[Kind::Orders.word()], PageRequest::new(1, 10)).await.unwrap();
        assert!(rows.is_empty());
    }

    bo_kit::on_both_databases!(stores_take_turns, only_the_holder_finishes);
}
