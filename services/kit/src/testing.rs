//! Helpers for tests in every crate: a fresh database per test on SQLite (always) and on
//! PostgreSQL (when `TEST_DATABASE_URL` is set), the NATS URL (`TEST_NATS_URL`), and a bucket
//! on an S3-compatible server (`TEST_S3_URL`). Under
//! `CI=true` a missing backend is a failure, never a skip.

use crate::db::Db;

/// A backend a test may need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL, from `TEST_DATABASE_URL`.
    Postgres,
    /// NATS JetStream, from `TEST_NATS_URL`.
    Nats,
    /// An S3-compatible server (`http://127.0.0.1:5000`), from `TEST_S3_URL`.
    S3,
}

impl Backend {
    fn var(self) -> &'static str {
        match self {
            Backend::Postgres => "TEST_DATABASE_URL",
            Backend::Nats => "TEST_NATS_URL",
            Backend::S3 => "TEST_S3_URL",
        }
    }
}

/// The backend's URL, or `None` (with a note) when it is not configured. Panics under
/// `CI=true` when it is missing.
pub fn backend_url(b: Backend) -> Option<String> {
    match std::env::var(b.var()).ok().filter(|s| !s.is_empty()) {
        Some(url) => Some(url),
        None => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{} is not set, and CI=true: the {b:?} suites must run in CI", b.var());
            }
            eprintln!("skipped: {b:?} suite ({} is not set)", b.var());
            None
        }
    }
}

/// A database that lives as long as the test.
pub struct TestDb {
    /// The database.
    pub db: Db,
    /// Its URL.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    pg_drop: Option<(String, String)>,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.pg_drop.take() {
            drop_pg_database(admin_url, name);
        }
    }
}

/// Drops a test database from a separate thread: Drop cannot be async.
fn drop_pg_database(admin_url: String, name: String) {
    let _ = std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
            return;
        };
        rt.block_on(async {
            sqlx::any::install_default_drivers();
            if let Ok(pool) = sqlx::AnyPool::connect(&admin_url).await {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&pool).await;
                pool.close().await;
            }
        });
    })
    .join();
}

/// A fresh, empty SQLite database in a temporary folder.
pub async fn sqlite() -> TestDb {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let db = Db::connect(&url).await.expect("open sqlite");
    TestDb { db, url, _dir: Some(dir), pg_drop: None }
}

/// A URL for a fresh PostgreSQL database created on the `TEST_DATABASE_URL` server, or
/// `None` when it is not configured; the database is dropped with the guard.
pub async fn postgres_url() -> Option<(String, PgGuard)> {
    let admin_url = backend_url(Backend::Postgres)?;
    sqlx::any::install_default_drivers();
    let name = format!("bo_test_{}", uuid::Uuid::new_v4().simple());
    let pool = sqlx::AnyPool::connect(&admin_url).await.expect("connect to TEST_DATABASE_URL");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&pool).await.expect("create test database");
    pool.close().await;
    let url = match admin_url.rfind('/') {
        Some(i) if admin_url[..i].contains("://") && i > admin_url.find("://").unwrap_or(0) + 2 => {
            let rest = &admin_url[i + 1..];
            let query = rest.find('?').map(|q| &rest[q..]).unwrap_or("");
            format!("{}/{name}{query}", &admin_url[..i])
        }
        _ => format!("{admin_url}/{name}"),
    };
    Some((url, PgGuard(Some((admin_url, name)))))
}

/// Drops a test PostgreSQL database when dropped.
pub struct PgGuard(Option<(String, String)>);

impl Drop for PgGuard {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.0.take() {
            drop_pg_database(admin_url, name);
        }
    }
}

/// A fresh PostgreSQL database, or `None` when `TEST_DATABASE_URL` is not set.
pub async fn postgres() -> Option<TestDb> {
    let (url, mut guard) = postgres_url().await?;
    let db = Db::connect(&url).await.expect("open test postgres");
    Some(TestDb { db, url, _dir: None, pg_drop: guard.0.take() })
}

/// A unique subject prefix, so tests sharing one NATS server never see each other.
pub fn unique_prefix() -> String {
    format!("t{}", &uuid::Uuid::new_v4().simple().to_string()[..12])
}

/// A fresh embedded bus (a log in a temporary folder, removed with the last clone).
pub async fn bus() -> crate::bus::SharedBus {
    std::sync::Arc::new(crate::bus::log::LogBus::temporary("backoffice").await.expect("a temporary bus"))
}

/// The token key of tests that call services through channels.
pub fn keys() -> std::sync::Arc<crate::auth::Keys> {
    std::sync::Arc::new(crate::auth::Keys::new(b"the-test-key-of-at-least-32-bytes!", 60).expect("a valid key"))
}

/// A module acting in tests with [`keys`].
pub fn identity() -> crate::grpc::ServiceIdentity {
    crate::grpc::ServiceIdentity::new(keys(), "test")
}

/// The files settings of a fresh bucket on the `TEST_S3_URL` server, or `None` when it is
/// not configured. The bucket's name is returned beside them.
pub async fn s3_bucket() -> Option<(crate::files::FilesConfig, String)> {
    let endpoint = backend_url(Backend::S3)?.trim_end_matches('/').to_string();
    let bucket = format!("bo-test-{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
    let res = reqwest::Client::new()
        .put(format!("{endpoint}/{bucket}"))
        .send()
        .await
        .expect("reach the S3-compatible server at TEST_S3_URL");
    assert!(res.status().is_success(), "create bucket {bucket}: {}", res.status());
    let cfg = s3_config(&endpoint, &bucket);
    Some((cfg, bucket))
}

/// Files settings for `bucket` on the S3-compatible server at `endpoint`, with the test
/// server's credentials.
pub fn s3_config(endpoint: &str, bucket: &str) -> crate::files::FilesConfig {
    crate::files::FilesConfig {
        url: Some(format!("s3://{bucket}")),
        endpoint: Some(endpoint.to_string()),
        region: Some("us-east-1".into()),
        access_key_id: Some(crate::config::Secret::new("testing")),
        secret_access_key: Some(crate::config::Secret::new("testing-secret")),
        virtual_hosted_style: false,
    }
}

/// Runs each async test function `name(db: Db)` on a fresh SQLite database and, when
/// `TEST_DATABASE_URL` is set, on a fresh PostgreSQL one: `on_both_databases!(a, b)`, or
/// `on_both_databases!(checked by wrap; a, b)` to run each as `wrap(db, name(db))` (a check
/// after it acts).
#[macro_export]
macro_rules! on_both_databases {
    (checked by $wrap:path; $($name:ident),* $(,)?) => {
        mod sqlite { $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() {
            let t = $crate::testing::sqlite().await;
            $wrap(t.db.clone(), super::$name(t.db.clone())).await;
        })* }
        mod postgres { $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() {
            if let Some(t) = $crate::testing::postgres().await {
                $wrap(t.db.clone(), super::$name(t.db.clone())).await;
            }
        })* }
    };
    ($($name:ident),* $(,)?) => {
        mod sqlite { $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() {
            let t = $crate::testing::sqlite().await;
            super::$name(t.db.clone()).await;
        })* }
        mod postgres { $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() {
            if let Some(t) = $crate::testing::postgres().await { super::$name(t.db.clone()).await; }
        })* }
    };
}

/// Tables with their columns, as [`crate::db::Db::schema`] reads them.
pub type Schema = Vec<(String, Vec<String>)>;

/// The tables and columns `m` yields on a fresh SQLite database and on a fresh PostgreSQL
/// one (None without `TEST_DATABASE_URL`), normalised so both dialects compare equal when
/// they are kept in step.
pub async fn schemas_of(m: &crate::module::Migrations) -> anyhow::Result<Option<(Schema, Schema)>> {
    let Some(pg) = postgres().await else { return Ok(None) };
    let lite = sqlite().await;
    for db in [&lite.db, &pg.db] {
        db.migrate(m.sqlite, m.postgres).await?;
    }
    Ok(Some((lite.db.schema().await?, pg.db.schema().await?)))
}
