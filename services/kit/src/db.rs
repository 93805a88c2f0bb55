//! The database: sqlx `Any` with one SQL code path for SQLite and PostgreSQL.
//!
//! SQLite runs in WAL mode with a busy timeout, and write transactions start with
//! `BEGIN IMMEDIATE` so two writers never deadlock upgrading a read lock. Flags are BIGINT
//! 0/1, JSON and UUIDs are TEXT, times are BIGINT milliseconds in both dialects.

use std::time::Duration;

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use anyhow::Context as _;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::Migrator;
use sqlx::AnyConnection;
use sqlx::{Any, AnyPool, Connection as _, Executor, Row, Transaction};
use tokio::sync::{Mutex, OwnedMutexGuard};

/// Which database a pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite (embedded).
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A service's database.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    /// SQLite: the one connection every write of this process runs on. SQLite drops a
    /// connection's page cache whenever another connection has written since its last
    /// transaction, so writes spread over the pool would each read their pages again; on
    /// one connection they find them cached. The same pool as `pool` on PostgreSQL.
    writes: AnyPool,
    dialect: Dialect,
    /// SQLite writes one transaction at a time: writers of this process queue here, in
    /// order, instead of in SQLite's busy handler, which sleeps in growing steps (up to
    /// 100 ms) and lets a queue of writers stretch each other's waits.
    writer: Arc<Mutex<()>>,
}

/// How often a SQLite file's log is synced to disk. With `synchronous = NORMAL` a commit is
/// safe from a crash at once but from a power cut only once the log (`-wal`) is synced,
/// which SQLite itself does only at a checkpoint: syncing the log every second bounds what
/// a power cut can take to about a second's commits, which the outbox's and the log bus's
/// replays on start make good (`kit::bus::log`). `FULL` would sync at every commit instead.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);

/// How long a PostgreSQL connection may sit idle before it is pinged on its next use.
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Syncs `wal` (a SQLite file's log) every [`SYNC_EVERY`] while `pool` is open: a frame
/// SQLite wrote at a commit is on disk within a second, and replayed from the log after a
/// power cut (its frames are checksummed).
async fn sync_every_second(pool: AnyPool, wal: std::path::PathBuf) {
    loop {
        tokio::time::sleep(SYNC_EVERY).await;
        if pool.is_closed() {
            return;
        }
        let wal = wal.clone();
        let synced = tokio::task::spawn_blocking(move || match std::fs::File::open(&wal) {
            Ok(f) => f.sync_data(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        })
        .await;
        if let Ok(Err(e)) = synced {
            tracing::debug!(error = %e, "syncing a SQLite file's log failed");
        }
    }
}

/// The file of a SQLite URL (None in memory).
fn sqlite_path(url: &str) -> Option<String> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split_once('?').map_or(rest, |(p, _)| p);
    (path != ":memory:" && !path.is_empty()).then(|| path.to_string())
}

/// A write statement run on its own: `sqlx::query(..).bind(..).write(&db)` is
/// [`Db::execute`], after this process's earlier writers on SQLite.
pub trait Write<'q> {
    /// Runs the statement as a write of `db`.
    fn write(self, db: &Db)
        -> impl std::future::Future<Output = Result<sqlx::any::AnyQueryResult, sqlx::Error>> + Send;
}

impl<'q> Write<'q> for sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    fn write(
        self,
        db: &Db,
    ) -> impl std::future::Future<Output = Result<sqlx::any::AnyQueryResult, sqlx::Error>> + Send {
        db.execute(self)
    }
}

/// A write transaction. It derefs to its connection (`&mut *tx` is an executor), and on
/// SQLite holds this process's writer turn until it commits, rolls back or is dropped.
pub struct Tx {
    inner: Transaction<'static, Any>,
    _turn: Option<OwnedMutexGuard<()>>,
    dialect: Dialect,
}

impl Tx {
    /// The dialect of the transaction's database.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// What a `SELECT` in this transaction ends with to lock the rows it reads until the
    /// transaction ends: ` FOR UPDATE` on PostgreSQL (READ COMMITTED lets two transactions
    /// read the same row and both act on what they read), nothing on SQLite (a write
    /// transaction there starts `BEGIN IMMEDIATE` and so is alone already).
    pub fn for_update(&self) -> &'static str {
        match self.dialect {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }

    /// Commits.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await
    }

    /// Rolls back.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        self.inner.rollback().await
    }
}

impl Deref for Tx {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        &self.inner
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.inner
    }
}

impl std::fmt::Debug for Tx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tx").finish_non_exhaustive()
    }
}

/// Tables every service has: the outbox, the inbox and dead letters. Created before the
/// service's own migrations, idempotently, in both dialects.
const KIT_TABLES: &[(&str, &str)] = &[
    (
        "CREATE TABLE IF NOT EXISTS outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL UNIQUE,
            event_type TEXT NOT NULL,
            store_id BIGINT NOT NULL,
            envelope BLOB NOT NULL,
            trace_context TEXT NOT NULL DEFAULT '',
            created_at BIGINT NOT NULL,
            sent_at BIGINT,
            attempts BIGINT NOT NULL DEFAULT 0,
            next_attempt_at BIGINT NOT NULL DEFAULT 0,
            last_error TEXT NOT NULL DEFAULT '',
            set_aside_at BIGINT
        )",
        "CREATE TABLE IF NOT EXISTS outbox (
            id BIGSERIAL PRIMARY KEY,
            event_id TEXT NOT NULL UNIQUE,
            event_type TEXT NOT NULL,
            store_id BIGINT NOT NULL,
            envelope BYTEA NOT NULL,
            trace_context TEXT NOT NULL DEFAULT '',
            created_at BIGINT NOT NULL,
            sent_at BIGINT,
            attempts BIGINT NOT NULL DEFAULT 0,
            next_attempt_at BIGINT NOT NULL DEFAULT 0,
            last_error TEXT NOT NULL DEFAULT '',
            set_aside_at BIGINT
        )",
    ),
    (
        "CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox (sent_at, id)",
        "CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox (sent_at, id)",
    ),
    (
        "CREATE TABLE IF NOT EXISTS processed_events (
            consumer TEXT NOT NULL,
            event_id TEXT NOT NULL,
            processed_at BIGINT NOT NULL,
            PRIMARY KEY (consumer, event_id)
        )",
        "CREATE TABLE IF NOT EXISTS processed_events (
            consumer TEXT NOT NULL,
            event_id TEXT NOT NULL,
            processed_at BIGINT NOT NULL,
            PRIMARY KEY (consumer, event_id)
        )",
    ),
    (
        "CREATE TABLE IF NOT EXISTS dead_letters (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            consumer TEXT NOT NULL,
            event_id TEXT NOT NULL,
            subject TEXT NOT NULL,
            envelope BLOB NOT NULL,
            error TEXT NOT NULL,
            deliveries BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            replay_requested_at BIGINT,
            replayed_at BIGINT
        )",
        "CREATE TABLE IF NOT EXISTS dead_letters (
            id BIGSERIAL PRIMARY KEY,
            consumer TEXT NOT NULL,
            event_id TEXT NOT NULL,
            subject TEXT NOT NULL,
            envelope BYTEA NOT NULL,
            error TEXT NOT NULL,
            deliveries BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            replay_requested_at BIGINT,
            replayed_at BIGINT
        )",
    ),
    (
        "CREATE INDEX IF NOT EXISTS processed_events_age ON processed_events (processed_at)",
        "CREATE INDEX IF NOT EXISTS processed_events_age ON processed_events (processed_at)",
    ),
    (
        "CREATE TABLE IF NOT EXISTS leases (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            until_ms BIGINT NOT NULL
        )",
        "CREATE TABLE IF NOT EXISTS leases (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            until_ms BIGINT NOT NULL
        )",
    ),
];

/// Columns added to the kit's tables after their first version: (table, column, type and
/// default), added to databases made before them.
const KIT_COLUMNS: &[(&str, &str, &str)] = &[
    ("outbox", "attempts", "BIGINT NOT NULL DEFAULT 0"),
    ("outbox", "next_attempt_at", "BIGINT NOT NULL DEFAULT 0"),
    ("outbox", "last_error", "TEXT NOT NULL DEFAULT ''"),
    ("outbox", "set_aside_at", "BIGINT"),
    ("dead_letters", "replay_requested_at", "BIGINT"),
    ("dead_letters", "replayed_at", "BIGINT"),
];

/// The most connections a service's PostgreSQL pool opens unless its section says.
pub const PG_POOL: u32 = 16;

impl Db {
    /// Connects to `url` (`sqlite://path` or `postgres://...`). A SQLite file and its folder
    /// are created when missing.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        Self::connect_pooled(url, None).await
    }

    /// Like [`Db::connect`], with at most `pool` PostgreSQL connections (default
    /// [`PG_POOL`]); SQLite keeps its own small pool.
    pub async fn connect_pooled(url: &str, pool: Option<u32>) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let pg_pool = pool.unwrap_or(PG_POOL).max(1);
        let dialect = if url.starts_with("sqlite:") {
            Dialect::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Dialect::Postgres
        } else {
            anyhow::bail!("unsupported database URL scheme (use sqlite:// or postgres://)");
        };
        let (pool, writes) = match dialect {
            Dialect::Sqlite => {
                sqlite_settings();
                let (path, _) = url
                    .trim_start_matches("sqlite://")
                    .trim_start_matches("sqlite:")
                    .split_once('?')
                    .unwrap_or((url.trim_start_matches("sqlite://").trim_start_matches("sqlite:"), ""));
                if path != ":memory:" {
                    if let Some(parent) = std::path::Path::new(path).parent() {
                        if !parent.as_os_str().is_empty() {
                            crate::files::private_dir(parent)?;
                        }
                    }
                    // The file exists before SQLite opens it, readable by its owner only;
                    // SQLite gives its -wal and -shm files the same permissions.
                    crate::files::private_file(std::path::Path::new(path))?;
                }
                let url = if url.contains('?') { url.to_string() } else { format!("{url}?mode=rwc") };
                let reads =
                    sqlite_pool(7, READ_CACHE_KIB).connect(&url).await.context("opening the SQLite database")?;
                let writes =
                    sqlite_pool(1, WRITE_CACHE_KIB).connect(&url).await.context("opening the SQLite database")?;
                (reads, writes)
            }
            Dialect::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(pg_pool)
                    .acquire_timeout(Duration::from_secs(30))
                    // A connection back in use within a moment of its last use is not pinged first
                    // (a round trip for each statement's connection otherwise); one that sat idle
                    // is, and is replaced when the server has hung up on it.
                    .test_before_acquire(false)
                    .before_acquire(|conn, meta| {
                        Box::pin(async move {
                            if meta.idle_for >= PING_AFTER_IDLE {
                                conn.ping().await?;
                            }
                            Ok(true)
                        })
                    })
                    .connect(url)
                    .await
                    .with_context(|| format!("connecting to {}", crate::config::redact_url(url)))?;
                (pool.clone(), pool)
            }
        };
        if let Some(wal) = sqlite_path(url).filter(|_| dialect == Dialect::Sqlite) {
            tokio::spawn(sync_every_second(pool.clone(), std::path::PathBuf::from(format!("{wal}-wal"))));
        }
        Ok(Db { pool, writes, dialect, writer: Arc::new(Mutex::new(())) })
    }

    /// Creates the kit's tables, then runs the service's migrations for this dialect.
    pub async fn migrate(&self, sqlite: &Migrator, postgres: &Migrator) -> anyhow::Result<()> {
        self.create_kit_tables().await?;
        let migrator = match self.dialect {
            Dialect::Sqlite => sqlite,
            Dialect::Postgres => postgres,
        };
        migrator.run(&self.pool).await.context("running migrations")?;
        Ok(())
    }

    /// Creates the outbox, inbox and dead-letter tables if missing.
    pub async fn create_kit_tables(&self) -> anyhow::Result<()> {
        for (lite, pg) in KIT_TABLES {
            let sql = match self.dialect {
                Dialect::Sqlite => *lite,
                Dialect::Postgres => *pg,
            };
            self.pool.execute(sql).await.context("creating kit tables")?;
        }
        for (table, column, ddl) in KIT_COLUMNS {
            let exists: i64 = match self.dialect {
                Dialect::Sqlite => {
                    sqlx::query_scalar("SELECT COUNT(*) FROM pragma_table_info($1) WHERE name = $2")
                        .bind(*table)
                        .bind(*column)
                        .fetch_one(&self.pool)
                        .await?
                }
                Dialect::Postgres => {
                    sqlx::query_scalar(
                        "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() \
                     AND table_name = $1 AND column_name = $2",
                    )
                    .bind(*table)
                    .bind(*column)
                    .fetch_one(&self.pool)
                    .await?
                }
            };
            if exists == 0 {
                self.pool
                    .execute(format!("ALTER TABLE {table} ADD COLUMN {column} {ddl}").as_str())
                    .await
                    .with_context(|| format!("adding {table}.{column}"))?;
            }
        }
        Ok(())
    }

    /// Starts a write transaction (`BEGIN IMMEDIATE` on SQLite, after this process's
    /// earlier writers).
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        match self.dialect {
            Dialect::Sqlite => {
                let turn = self.writer.clone().lock_owned().await;
                let inner = self.writes.begin_with("BEGIN IMMEDIATE").await?;
                Ok(Tx { inner, _turn: Some(turn), dialect: Dialect::Sqlite })
            }
            Dialect::Postgres => Ok(Tx { inner: self.pool.begin().await?, _turn: None, dialect: Dialect::Postgres }),
        }
    }

    /// Runs one write statement on its own (autocommit): on SQLite after this process's
    /// earlier writers, like [`Db::begin`], so it never meets a transaction in SQLite's busy
    /// handler (which sleeps a millisecond and more each time it does).
    pub async fn execute<'q>(
        &self,
        query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    ) -> Result<sqlx::any::AnyQueryResult, sqlx::Error> {
        let _turn = match self.dialect {
            Dialect::Sqlite => Some(self.writer.lock().await),
            Dialect::Postgres => None,
        };
        query.execute(&self.writes).await
    }

    /// Runs one write statement that answers rows (`RETURNING`) on its own (autocommit),
    /// after this process's earlier writers on SQLite, as [`Db::execute`].
    pub async fn fetch_all_write<'q>(
        &self,
        query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    ) -> Result<Vec<AnyRow>, sqlx::Error> {
        let _turn = match self.dialect {
            Dialect::Sqlite => Some(self.writer.lock().await),
            Dialect::Postgres => None,
        };
        query.fetch_all(&self.writes).await
    }

    /// The pool, for reads.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Answers when the database answers a trivial query.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await.is_ok()
    }

    /// Every table and its columns (name, normalised type), sorted: used to prove the two
    /// dialects' migrations agree.
    pub async fn schema(&self) -> anyhow::Result<Vec<(String, Vec<String>)>> {
        let tables: Vec<String> = match self.dialect {
            Dialect::Sqlite => sqlx::query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                 AND name <> '_sqlx_migrations' ORDER BY name",
            )
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r: &AnyRow| r.get::<String, _>(0))
            .collect(),
            Dialect::Postgres => sqlx::query(
                "SELECT table_name::TEXT FROM information_schema.tables WHERE table_schema = current_schema() \
                 AND table_name <> '_sqlx_migrations' ORDER BY table_name",
            )
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r: &AnyRow| r.get::<String, _>(0))
            .collect(),
        };
        let mut out = Vec::new();
        for t in tables {
            let mut cols: Vec<String> = match self.dialect {
                Dialect::Sqlite => sqlx::query(&format!("SELECT name, type FROM pragma_table_info('{t}')"))
                    .fetch_all(&self.pool)
                    .await?
                    .iter()
                    .map(|r| format!("{}:{}", r.get::<String, _>(0), normalise_type(&r.get::<String, _>(1))))
                    .collect(),
                Dialect::Postgres => sqlx::query(
                    "SELECT column_name::TEXT, data_type::TEXT FROM information_schema.columns \
                     WHERE table_schema = current_schema() AND table_name = $1",
                )
                .bind(&t)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| format!("{}:{}", r.get::<String, _>(0), normalise_type(&r.get::<String, _>(1))))
                .collect(),
            };
            cols.sort();
            out.push((t, cols));
        }
        Ok(out)
    }

    /// Closes the pools, waiting for connections to return.
    pub async fn close(&self) {
        self.writes.close().await;
        self.pool.close().await;
    }
}

fn normalise_type(t: &str) -> &'static str {
    let t = t.to_ascii_lowercase();
    if t.contains("int") || t.contains("serial") {
        "integer"
    } else if t.contains("char") || t.contains("text") {
        "text"
    } else if t.contains("blob") || t.contains("bytea") {
        "bytes"
    } else if t.contains("real") || t.contains("double") || t.contains("float") || t.contains("numeric") {
        "real"
    } else {
        "other"
    }
}

/// The VALUES list of a multi-row statement: `rows` rows of `cols` parameters each,
/// numbered from `$1` ("($1, $2), ($3, $4)" for 2 × 2).
pub fn values(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| format!("({})", (1..=cols).map(|c| format!("${}", r * cols + c)).collect::<Vec<_>>().join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The most parameters [`insert_rows`] puts in one statement. SQLite allows 32,766 and
/// PostgreSQL 65,535, but SQLite finds a parameter's name by walking the statement's list of
/// them, so binding a statement takes time in the square of its parameters: at 16,000 a
/// million-order rebuild of the reports spent most of its time there. A thousand keeps that
/// negligible and still writes hundreds of rows per round trip.
pub const MAX_PARAMS: usize = 1_000;

/// A query on the Any driver, as [`insert_rows`] binds it.
pub type AnyQuery<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>;

/// Writes `rows` with `head VALUES (…), (…) tail`, `cols` parameters a row bound by `bind`,
/// in as few statements as the parameter limit allows, in the rows' order.
pub async fn insert_rows<R>(
    tx: &mut Tx,
    head: &str,
    tail: &str,
    cols: usize,
    rows: &[R],
    bind: impl for<'q> Fn(AnyQuery<'q>, &'q R) -> AnyQuery<'q>,
) -> Result<(), sqlx::Error> {
    for chunk in rows.chunks((MAX_PARAMS / cols.max(1)).max(1)) {
        let sql = format!("{head} VALUES {} {tail}", values(chunk.len(), cols));
        let mut q = sqlx::query(&sql);
        for r in chunk {
            q = bind(q, r);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// `?`-free helper: true when a statement changed at least one row.
pub fn changed(r: &sqlx::any::AnyQueryResult) -> bool {
    r.rows_affected() > 0
}

/// The page cache of a SQLite read connection, in KiB (SQLite's default).
const READ_CACHE_KIB: u32 = 2_000;
/// The page cache of the SQLite write connection, in KiB: it keeps its pages between
/// transactions (see [`Db`]), so it holds more of them.
const WRITE_CACHE_KIB: u32 = 8_000;

/// Options of a SQLite pool of `connections` connections with a page cache of `cache_kib`
/// KiB each: WAL, a busy timeout, `synchronous = NORMAL` (see [`SYNC_EVERY`]), foreign keys.
fn sqlite_pool(connections: u32, cache_kib: u32) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(connections)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(30))
        // A file does not hang up: no ping before each use.
        .test_before_acquire(false)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                conn.execute("PRAGMA journal_mode = WAL").await?;
                conn.execute("PRAGMA busy_timeout = 10000").await?;
                conn.execute("PRAGMA synchronous = NORMAL").await?;
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute(format!("PRAGMA cache_size = -{cache_kib}").as_str()).await?;
                Ok(())
            })
        })
}

/// SQLite's process-wide settings, made once before its first connection. Memory
/// statistics are off: with them on, every allocation of every connection takes one
/// global mutex, and the connections' threads queue on it (turning them off took listing
/// orders from about 900 to about 1,550 requests a second; docs/bench.md).
fn sqlite_settings() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: sqlite3_config is called before SQLite is initialised by a connection
        // (the Once runs ahead of every pool this process opens); if something else has
        // initialised it already, SQLite answers SQLITE_MISUSE and changes nothing.
        let rc = unsafe { libsqlite3_sys::sqlite3_config(libsqlite3_sys::SQLITE_CONFIG_MEMSTATUS, 0i32) };
        if rc != libsqlite3_sys::SQLITE_OK {
            tracing::debug!(rc, "SQLite was initialised before its settings could be made");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connections the server hung up on while they sat idle are pinged on their next use
    /// and replaced, so the statement still runs.
    #[tokio::test]
    async fn connections_the_server_ended_are_replaced_after_a_rest() {
        let Some(t) = crate::testing::postgres().await else { return };
        let one: i32 = sqlx::query_scalar("SELECT 1").fetch_one(t.db.pool()).await.unwrap();
        assert_eq!(one, 1);
        let admin = sqlx::AnyPool::connect(&t.url).await.unwrap();
        let ended = sqlx::query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .fetch_all(&admin)
        .await
        .unwrap();
        assert!(!ended.is_empty(), "the pool had a connection to end");
        admin.close().await;
        tokio::time::sleep(PING_AFTER_IDLE + Duration::from_millis(300)).await;
        let two: i32 = sqlx::query_scalar("SELECT 2").fetch_one(t.db.pool()).await.unwrap();
        assert_eq!(two, 2);
    }

    #[test]
    fn values_number_every_parameter_once_row_by_row() {
        assert_eq!(values(2, 2), "($1, $2), ($3, $4)");
        assert_eq!(values(1, 3), "($1, $2, $3)");
        assert_eq!(values(0, 3), "");
    }

    /// Rows past one statement's parameter limit are written by several, all of them, in order.
    /// Every write of a SQLite database runs on its one write connection (so that
    /// connection's page cache outlives each transaction), and a read runs beside a write
    /// transaction on another connection, without waiting for it.
    #[tokio::test]
    async fn sqlite_writes_share_one_connection_and_reads_run_beside_them() {
        let t = crate::testing::sqlite().await;
        // A temporary table lives on the connection that made it only.
        t.db.execute(sqlx::query("CREATE TEMP TABLE mine (x BIGINT)")).await.unwrap();
        for round in 0..3i64 {
            let mut tx = t.db.begin().await.unwrap();
            sqlx::query("INSERT INTO mine (x) VALUES ($1)").bind(round).execute(&mut *tx).await.unwrap();
            let read = tokio::time::timeout(
                Duration::from_secs(5),
                sqlx::query("SELECT COUNT(*) FROM mine").fetch_one(t.db.pool()),
            )
            .await
            .expect("a read does not wait for the write transaction");
            assert!(read.is_err(), "a read connection is not the write connection");
            tx.commit().await.unwrap();
        }
        let rows = t.db.fetch_all_write(sqlx::query("DELETE FROM mine RETURNING x")).await.unwrap();
        assert_eq!(rows.len(), 3);
    }

    #[tokio::test]
    async fn insert_rows_splits_what_one_statement_cannot_hold() {
        let t = crate::testing::sqlite().await;
        let mut tx = t.db.begin().await.unwrap();
        sqlx::query("CREATE TABLE many (a BIGINT NOT NULL, b TEXT NOT NULL)").execute(&mut *tx).await.unwrap();
        let rows: Vec<(i64, String)> = (0..(MAX_PARAMS as i64)).map(|i| (i, format!("r{i}"))).collect();
        insert_rows(&mut tx, "INSERT INTO many (a, b)", "", 2, &rows, |q, r| q.bind(r.0).bind(r.1.as_str()))
            .await
            .unwrap();
        let (n, sum): (i64, i64) =
            sqlx::query_as("SELECT COUNT(*), SUM(a) FROM many").fetch_one(&mut *tx).await.unwrap();
        let want = MAX_PARAMS as i64;
        assert_eq!((n, sum), (want, want * (want - 1) / 2));
        let last: String =
            sqlx::query_scalar("SELECT b FROM many ORDER BY rowid DESC LIMIT 1").fetch_one(&mut *tx).await.unwrap();
        assert_eq!(last, format!("r{}", want - 1));
    }
}
