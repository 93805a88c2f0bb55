//! SQL of listing imports: a shop's listings brought in through the marketplace's API (a page
//! at a time, from where the last page ended, so an import cut short goes on where it was)
//! or from the platform's spreadsheet (once per file), each listing's outcome kept.

use bo_kit::db::changed;
use bo_kit::paging::PageRequest;
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::Repo;

/// Where an import's listings come from.
pub mod source {
    /// The marketplace's API.
    pub const API: &str = "api";
    /// The platform's spreadsheet.
    pub const FILE: &str = "file";
}

/// An import's states.
pub mod state {
    /// Pages are still being read.
    pub const RUNNING: &str = "running";
    /// Every page was read.
    pub const DONE: &str = "done";
    /// It stopped: the marketplace refused it, or the shop's connection is lost.
    pub const FAILED: &str = "failed";
}

/// What became of one listing in an import.
pub mod outcome {
    /// A product and SKU were made for it, and it was linked to them.
    pub const CREATED: &str = "created";
    /// It was linked to the SKU whose code is its seller SKU.
    pub const LINKED: &str = "linked";
    /// It was linked already, and stays so.
    pub const KEPT: &str = "kept";
    /// No SKU matches it: it waits for a person.
    pub const UNLINKED: &str = "unlinked";
    /// The marketplace deleted it: its link expired.
    pub const DELETED: &str = "deleted";
    /// It could not be made or linked (the detail says why).
    pub const FAILED: &str = "failed";
    /// Every outcome.
    pub const ALL: [&str; 6] = [CREATED, LINKED, KEPT, UNLINKED, DELETED, FAILED];
}

/// An import as kept.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct ImportRow {
    pub id: i64,
    pub store_id: i64,
    pub store_channel_id: i64,
    pub source: String,
    pub state: String,
    pub create_products: i64,
    pub category_id: i64,
    pub file_name: String,
    pub cursor: String,
    pub pages: i64,
    pub total: i64,
    pub seen: i64,
    pub created: i64,
    pub linked: i64,
    pub unlinked: i64,
    pub failed: i64,
    pub error: String,
    pub attempts: i64,
    pub created_by: i64,
    pub started_at: i64,
    pub finished_at: i64,
}

const IMPORT_COLUMNS: &str = "id, store_id, store_channel_id, source, state, create_products, category_id, file_name, \
    cursor, pages, total, seen, created, linked, unlinked, failed, error, attempts, created_by, started_at, finished_at";

/// One listing's outcome.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct RowOutcome {
    pub n: i64,
    pub item_id: String,
    pub model_id: String,
    pub seller_sku: String,
    pub name: String,
    pub outcome: String,
    pub detail: String,
    pub sku_id: i64,
}

/// What an import asks for.
#[derive(Debug, Clone, Default)]
pub struct NewImport<'a> {
    pub store_id: i64,
    pub store_channel_id: i64,
    pub source: &'a str,
    pub create_products: bool,
    pub category_id: i64,
    /// A file's digest (a file imported twice is the import it was).
    pub digest: &'a str,
    pub file_name: &'a str,
    pub user_id: i64,
}

impl Repo {
    /// Starts an import, unless the same is under way (an API import of the shop that is
    /// running) or was done (the same file, by its digest): then that one. The import, and
    /// whether it is new.
    pub async fn start_import(&self, n: &NewImport<'_>) -> Result<(ImportRow, bool)> {
        let same: Option<ImportRow> = sqlx::query_as(&format!(
            "SELECT {IMPORT_COLUMNS} FROM listing_imports WHERE store_id = $1 AND store_channel_id = $2 AND source = $3 \
             AND ((source = 'api' AND state = 'running') OR (source = 'file' AND digest = $4 AND state <> 'failed')) \
             ORDER BY id DESC LIMIT 1"
        ))
        .bind(n.store_id)
        .bind(n.store_channel_id)
        .bind(n.source)
        .bind(n.digest)
        .fetch_optional(self.db.pool())
        .await?;
        if let Some(same) = same {
            return Ok((same, false));
        }
        let row = sqlx::query_as(&format!(
            "INSERT INTO listing_imports (store_id, store_channel_id, source, state, create_products, category_id, digest, \
             file_name, cursor, pages, total, seen, created, linked, unlinked, failed, error, attempts, claimed_until, \
             created_by, started_at, finished_at) VALUES ($1, $2, $3, 'running', $4, $5, $6, $7, '', 0, 0, 0, 0, 0, 0, 0, '', \
             0, 0, $8, $9, 0) RETURNING {IMPORT_COLUMNS}"
        ))
        .bind(n.store_id)
        .bind(n.store_channel_id)
        .bind(n.source)
        .bind(i64::from(n.create_products))
        .bind(n.category_id)
        .bind(n.digest)
        .bind(n.file_name)
        .bind(n.user_id)
        .bind(now_ms())
        .fetch_one(self.db.pool())
        .await?;
        Ok((row, true))
    }

    /// Claims a running import nobody holds, for `hold_ms`: the oldest.
    pub async fn claim_import(&self, source: &str, hold_ms: i64) -> Result<Option<ImportRow>> {
        let now = now_ms();
        let candidate: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM listing_imports WHERE state = 'running' AND source = $1 AND claimed_until < $2 ORDER BY id LIMIT 1",
        )
        .bind(source)
        .bind(now)
        .fetch_optional(self.db.pool())
        .await?;
        let Some(id) = candidate else { return Ok(None) };
        let claimed = sqlx::query(
            "UPDATE listing_imports SET claimed_until = $1, attempts = attempts + 1 WHERE id = $2 AND claimed_until < $3",
        )
        .bind(now + hold_ms)
        .bind(id)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        if !changed(&claimed) {
            return Ok(None);
        }
        self.import_by_id(id).await
    }

    async fn import_by_id(&self, id: i64) -> Result<Option<ImportRow>> {
        Ok(sqlx::query_as(&format!("SELECT {IMPORT_COLUMNS} FROM listing_imports WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// Records a page of an import: its listings' outcomes, the counts they add, where the
    /// next page starts (`None`: it was the last); its claim is given back, so the next page
    /// is taken at once (by whichever replica claims it).
    pub async fn import_page(&self, id: i64, next: Option<&str>, total: i64, rows: &[RowOutcome]) -> Result<()> {
        let count = |o: &str| rows.iter().filter(|r| r.outcome == o).count() as i64;
        let mut tx = self.db.begin().await?;
        let base: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM import_rows WHERE import_id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        for (i, r) in rows.iter().enumerate() {
            sqlx::query(
                "INSERT INTO import_rows (import_id, n, item_id, model_id, seller_sku, name, outcome, detail, sku_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(id)
            .bind(base + i as i64 + 1)
            .bind(&r.item_id)
            .bind(&r.model_id)
            .bind(&r.seller_sku)
            .bind(&r.name)
            .bind(&r.outcome)
            .bind(&r.detail)
            .bind(r.sku_id)
            .execute(&mut *tx)
            .await?;
        }
        let now = now_ms();
        sqlx::query(
            "UPDATE listing_imports SET cursor = $1, pages = pages + 1, total = CASE WHEN $2 > 0 THEN $2 ELSE total END, \
             seen = seen + $3, created = created + $4, linked = linked + $5, unlinked = unlinked + $6, failed = failed + $7, \
             claimed_until = $8, attempts = 0, state = CASE WHEN $9 = 1 THEN 'done' ELSE state END, \
             finished_at = CASE WHEN $9 = 1 THEN $10 ELSE finished_at END WHERE id = $11",
        )
        .bind(next.unwrap_or_default())
        .bind(total)
        .bind(rows.len() as i64)
        .bind(count(outcome::CREATED))
        .bind(count(outcome::LINKED) + count(outcome::KEPT))
        .bind(count(outcome::UNLINKED))
        .bind(count(outcome::FAILED))
        .bind(0i64)
        .bind(i64::from(next.is_none()))
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ends an import that cannot go on, with why; its claim is given back.
    pub async fn fail_import(&self, id: i64, why: &str) -> Result<()> {
        sqlx::query(
            "UPDATE listing_imports SET state = 'failed', error = $1, finished_at = $2, claimed_until = 0 WHERE id = $3 \
             AND state = 'running'",
        )
        .bind(why)
        .bind(now_ms())
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Lets a claimed import be taken again after `wait_ms` (the marketplace could not be
    /// reached, or throttled us).
    pub async fn retry_import(&self, id: i64, wait_ms: i64, why: &str) -> Result<()> {
        sqlx::query("UPDATE listing_imports SET claimed_until = $1, error = $2 WHERE id = $3")
            .bind(now_ms() + wait_ms)
            .bind(why)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// An import of the store.
    pub async fn import(&self, store_id: i64, id: i64) -> Result<Option<ImportRow>> {
        Ok(sqlx::query_as(&format!("SELECT {IMPORT_COLUMNS} FROM listing_imports WHERE id = $1 AND store_id = $2"))
            .bind(id)
            .bind(store_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// A shop's imports, newest first.
    pub async fn imports(&self, store_id: i64, store_channel_id: i64, limit: i64) -> Result<Vec<ImportRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {IMPORT_COLUMNS} FROM listing_imports WHERE store_id = $1 AND store_channel_id = $2 \
             ORDER BY id DESC LIMIT $3"
        ))
        .bind(store_id)
        .bind(store_channel_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// An import's listings' outcomes (one outcome, or all with ''), a page at a time.
    pub async fn import_rows(
        &self,
        id: i64,
        outcome: &str,
        page: PageRequest,
    ) -> Result<(Vec<RowOutcome>, bo_kit::paging::Page)> {
        let total: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM import_rows WHERE import_id = $1 AND ($2 = '' OR outcome = $2)")
                .bind(id)
                .bind(outcome)
                .fetch_one(self.db.pool())
                .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as(
            "SELECT n, item_id, model_id, seller_sku, name, outcome, detail, sku_id FROM import_rows \
             WHERE import_id = $1 AND ($2 = '' OR outcome = $2) ORDER BY n LIMIT $3 OFFSET $4",
        )
        .bind(id)
        .bind(outcome)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page))
    }
}
