//! Order exports' SQL: the export records, a builder's claim on one, and the orders they
//! read, a page at a time by id (never the whole range at once).

use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use sqlx::FromRow;

use super::{OrderRow, Repo, ORDER_COLUMNS};
use crate::domain::export::{self, ExportEvent};

const EXPORT_COLUMNS: &str =
    "id, store_id, file_name, lang, state, date_from, date_to, states, total, done, file_key, \
    file_size, error, claimed_by, claimed_at, created_by, created_at, finished_at, expires_at";

/// An export record.
#[derive(Debug, Clone, FromRow)]
pub struct ExportRow {
    pub id: i64,
    pub store_id: i64,
    pub file_name: String,
    pub lang: String,
    pub state: String,
    pub date_from: i64,
    pub date_to: i64,
    pub states: String,
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
    /// The order states it covers ('' every state).
    pub fn state_list(&self) -> Vec<String> {
        self.states.split(',').filter(|s| !s.is_empty()).map(String::from).collect()
    }
}

/// The filter of an export's orders.
fn where_clause(states: &[String]) -> String {
    let mut sql = "store_id = $1 AND created_at >= $2 AND created_at < $3".to_string();
    if !states.is_empty() {
        let list: Vec<String> = (0..states.len()).map(|i| format!("${}", i + 4)).collect();
        sql.push_str(&format!(" AND state IN ({})", list.join(", ")));
    }
    sql
}

impl Repo {
    /// How many orders of the store a range and states hold.
    pub async fn count_for_export(&self, store_id: i64, from: i64, to: i64, states: &[String]) -> Result<i64> {
        let sql = format!("SELECT COUNT(*) FROM orders WHERE {}", where_clause(states));
        let mut q = sqlx::query_scalar(&sql).bind(store_id).bind(from).bind(to);
        for s in states {
            q = q.bind(s);
        }
        Ok(q.fetch_one(self.pool()).await?)
    }

    /// The next page of an export's orders after id `after`, oldest first.
    pub async fn export_page(&self, e: &ExportRow, after: i64, limit: i64) -> Result<Vec<OrderRow>> {
        let states = e.state_list();
        let n = states.len() + 4;
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE {} AND id > ${n} ORDER BY id LIMIT ${}",
            where_clause(&states),
            n + 1
        );
        let mut q = sqlx::query_as::<_, OrderRow>(&sql).bind(e.store_id).bind(e.date_from).bind(e.date_to);
        for s in &states {
            q = q.bind(s);
        }
        Ok(q.bind(after).bind(limit).fetch_all(self.pool()).await?)
    }

    /// Records an export to build.
    #[allow(clippy::too_many_arguments)]
    pub async fn insert_export(
        &self,
        store_id: i64,
        user_id: i64,
        file_name: &str,
        lang: &str,
        from: i64,
        to: i64,
        states: &[String],
        total: i64,
    ) -> Result<ExportRow> {
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO order_exports (store_id, file_name, lang, state, date_from, date_to, states, total, created_by, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(store_id)
        .bind(file_name)
        .bind(lang)
        .bind(export::EXPORTING)
        .bind(from)
        .bind(to)
        .bind(states.join(","))
        .bind(total)
        .bind(user_id)
        .bind(now)
        .fetch_one(self.pool())
        .await?;
        self.export(store_id, id).await
    }

    /// One export of the store.
    pub async fn export(&self, store_id: i64, id: i64) -> Result<ExportRow> {
        sqlx::query_as::<_, ExportRow>(&format!(
            "SELECT {EXPORT_COLUMNS} FROM order_exports WHERE store_id = $1 AND id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::ExportNotFound))
    }

    /// The store's exports, newest first, paged.
    pub async fn exports(
        &self,
        store_id: i64,
        page: bo_kit::paging::PageRequest,
    ) -> Result<(Vec<ExportRow>, bo_kit::paging::Page)> {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM order_exports WHERE store_id = $1")
            .bind(store_id)
            .fetch_one(self.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, ExportRow>(&format!(
            "SELECT {EXPORT_COLUMNS} FROM order_exports WHERE store_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(store_id)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.pool())
        .await?;
        Ok((rows, page))
    }

    /// How many exports of the store wait to be built or are being built.
    pub async fn exports_waiting(&self, store_id: i64) -> Result<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM order_exports WHERE store_id = $1 AND state = $2")
            .bind(store_id)
            .bind(export::EXPORTING)
            .fetch_one(self.pool())
            .await?)
    }

    /// Claims an export waiting to be built (or whose builder went quiet before `stale`) for
    /// `holder`, taking the stores in turn: the store served longest ago first (one whose
    /// export is being built now waits for the others), its oldest export first. None when
    /// none waits.
    pub async fn claim_export(&self, holder: &str, stale: i64) -> Result<Option<ExportRow>> {
        let waiting: Option<(i64, i64)> = sqlx::query_as(
            "SELECT e.id, e.claimed_at FROM order_exports e WHERE e.state = $1 AND e.claimed_at < $2 \
             ORDER BY (SELECT COALESCE(MAX(x.claimed_at), 0) FROM order_exports x WHERE x.store_id = e.store_id), e.id \
             LIMIT 1",
        )
        .bind(export::EXPORTING)
        .bind(stale)
        .fetch_optional(self.pool())
        .await?;
        let Some((id, seen)) = waiting else { return Ok(None) };
        let now = now_ms();
        let r = sqlx::query(
            "UPDATE order_exports SET claimed_by = $1, claimed_at = $2, done = 0 WHERE id = $3 AND state = $4 AND claimed_at = $5",
        )
        .bind(holder)
        .bind(now)
        .bind(id)
        .bind(export::EXPORTING)
        .bind(seen)
        .execute(self.pool())
        .await?;
        if r.rows_affected() != 1 {
            return Ok(None);
        }
        let row = sqlx::query_as::<_, ExportRow>(&format!("SELECT {EXPORT_COLUMNS} FROM order_exports WHERE id = $1"))
            .bind(id)
            .fetch_one(self.pool())
            .await?;
        Ok(Some(row))
    }

    /// Records how far a builder got, renewing its claim; false when it lost the claim.
    pub async fn export_progress(&self, id: i64, holder: &str, done: i64) -> Result<bool> {
        let r = sqlx::query(
            "UPDATE order_exports SET done = $1, claimed_at = $2 WHERE id = $3 AND claimed_by = $4 AND state = $5",
        )
        .bind(done)
        .bind(now_ms())
        .bind(id)
        .bind(holder)
        .bind(export::EXPORTING)
        .execute(self.pool())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Moves an export by `event` (its builder's, when `holder` is given): built with its
    /// file, failed with why, or expired. False when it was not in the state to move.
    pub async fn finish_export(
        &self,
        id: i64,
        holder: Option<&str>,
        event: ExportEvent,
        file_key: &str,
        file_size: i64,
        error: &str,
    ) -> Result<bool> {
        let from = match event {
            ExportEvent::Built | ExportEvent::Fail => export::EXPORTING,
            ExportEvent::Expire => export::EXPORTED,
        };
        let Some(to) = export::next(from, event) else { return Ok(false) };
        let now = now_ms();
        let expires = if event == ExportEvent::Built { now + export::KEEP_MS } else { 0 };
        let r = sqlx::query(
            "UPDATE order_exports SET state = $1, file_key = CASE WHEN $2 = '' THEN file_key ELSE $2 END, \
             file_size = CASE WHEN $3 > 0 THEN $3 ELSE file_size END, error = $4, \
             finished_at = CASE WHEN $5 = 1 THEN $6 ELSE finished_at END, \
             expires_at = CASE WHEN $7 > 0 THEN $7 ELSE expires_at END, done = CASE WHEN $5 = 1 THEN total ELSE done END \
             WHERE id = $8 AND state = $9 AND ($10 = '' OR claimed_by = $10)",
        )
        .bind(to)
        .bind(file_key)
        .bind(file_size)
        .bind(error)
        .bind(i64::from(event == ExportEvent::Built))
        .bind(now)
        .bind(expires)
        .bind(id)
        .bind(from)
        .bind(holder.unwrap_or(""))
        .execute(self.pool())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Exports whose files' time has passed.
    pub async fn expired_exports(&self, now: i64, limit: i64) -> Result<Vec<ExportRow>> {
        Ok(sqlx::query_as::<_, ExportRow>(&format!(
            "SELECT {EXPORT_COLUMNS} FROM order_exports WHERE state = $1 AND expires_at > 0 AND expires_at < $2 ORDER BY id LIMIT $3"
        ))
        .bind(export::EXPORTED)
        .bind(now)
        .bind(limit)
        .fetch_all(self.pool())
        .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One store's queue of year-long exports does not hold up another store's: builders
    /// take the stores in turn.
    async fn stores_take_turns(db: bo_kit::db::Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let repo = Repo::new(db);
        let ask = |store: i64| {
            let repo = repo.clone();
            async move { repo.insert_export(store, 1, "orders.xlsx", "th", 1, 2, &[], 10).await.unwrap().id }
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

    #[tokio::test]
    async fn stores_take_turns_on_sqlite() {
        let t = bo_kit::testing::sqlite().await;
        stores_take_turns(t.db.clone()).await;
    }

    #[tokio::test]
    async fn stores_take_turns_on_postgres() {
        if let Some(t) = bo_kit::testing::postgres().await {
            stores_take_turns(t.db.clone()).await;
        }
    }
}
