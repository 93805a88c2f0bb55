use bo_backoffice::app::{self, Launched};
use bo_backoffice::config::Config;
use bo_kit::config::Secret;
use bo_kit::testing::{self, Backend};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

pub const OWNER_EMAIL: &str = "owner@example.com";
pub const OWNER_PASSWORD: &str = "demo-password-1";

/// Which backends a test runs on.
#[derive(Debug, Clone, Copy)]
pub enum Stack {
    /// SQLite and the in-process bus.
    Embedded,
    /// PostgreSQL and NATS (same process).
    Postgres,
}

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub db_url: String,
    /// The orders database (tests that move bills' times read it).
    pub orders_db_url: String,
    /// The reports database (tests that put a difference into a read model write it).
    pub reports_db_url: String,
    pub demo_store: i64,
    /// The app's file storage.
    pub files: bo_kit::files::Files,
    launched: Option<Launched>,
    _dir: tempfile::TempDir,
    _pg: Vec<testing::PgGuard>,
}

/// The tests' configuration: everything in `dir`, any free port, the demo store on (tests
/// sign in as its owner).
pub fn config_in(dir: &tempfile::TempDir) -> Config {
    Config {
        data_dir: dir.path().to_path_buf(),
        http: bo_backoffice::config::HttpConfig { addr: "127.0.0.1:0".into(), ..Default::default() },
        demo: bo_backoffice::config::DemoConfig { enabled: true, ..Default::default() },
        ..Default::default()
    }
}

impl TestApp {
    /// Starts every module; `None` when the stack's backends are not configured.
    pub async fn start(stack: Stack) -> Option<TestApp> {
        Self::start_with(stack, |_| {}).await
    }

    /// Starts every module with the configuration changed by `tune` (e.g. a carrier's
    /// sandbox address); `None` when the stack's backends are not configured.
    pub async fn start_with(stack: Stack, tune: impl FnOnce(&mut Config)) -> Option<TestApp> {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config_in(&dir);
        cfg.demo.email = OWNER_EMAIL.into();
        cfg.demo.password = Secret::new(OWNER_PASSWORD);
        // Tests count products; the demo catalog is checked on its own.
        cfg.demo.catalog = false;
        cfg.auth.login_attempts_per_minute = 1000;
        cfg.auth.slips_per_minute = 1000;
        let mut pg = Vec::new();
        match stack {
            Stack::Embedded => {}
            Stack::Postgres => {
                let nats = testing::backend_url(Backend::Nats)?;
                // A database of its own for every module that keeps one.
                for m in bo_backoffice::modules().iter().filter(|m| m.has_database()) {
                    let (url, guard) = testing::postgres_url().await?;
                    cfg.service(m.name()).database_url = Some(Secret::new(url));
                    // Tests run side by side on one server of 100 connections: a few each.
                    cfg.service(m.name()).database_pool = Some(4);
                    pg.push(guard);
                }
                cfg.bus.nats_url = Some(nats);
                cfg.bus.prefix = testing::unique_prefix();
                // Files in a bucket, as a distributed installation keeps them.
                if let Some((files, _bucket)) = testing::s3_bucket().await {
                    cfg.files = files;
                }
            }
        }
        tune(&mut cfg);
        let db_url = cfg.database_url("stores");
        Some(Self::launch(cfg, dir, pg, db_url, None).await)
    }

    pub async fn launch(
        cfg: Config,
        dir: tempfile::TempDir,
        pg: Vec<testing::PgGuard>,
        db_url: String,
        modules: Option<Vec<&'static str>>,
    ) -> TestApp {
        let modules = modules.unwrap_or_else(|| bo_backoffice::resolve("all").unwrap());
        let files = bo_kit::files::Files::open(&cfg.files, &cfg.data_dir).unwrap();
        let orders_db_url = cfg.database_url("orders");
        let reports_db_url = cfg.database_url("reports");
        let launched = app::launch(cfg, modules).await.expect("launch");
        let base = format!("http://{}/api", launched.http_addr);
        let demo_store = launched.demo.as_ref().map(|d| d.store_id).unwrap_or(0);
        TestApp {
            base,
            client: reqwest::Client::new(),
            db_url,
            orders_db_url,
            reports_db_url,
            demo_store,
            files,
            launched: Some(launched),
            _dir: dir,
            _pg: pg,
        }
    }

    /// How many staged uploads are left in the file storage, once the removals a finished
    /// request started have had a moment.
    pub async fn staged_uploads(&self) -> usize {
        let mut n = 0;
        for _ in 0..50 {
            n = self.files.list("uploads").await.unwrap().len();
            if n == 0 {
                return 0;
            }
            tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        }
        n
    }

    /// The token keys of the app (its generated key under the data folder).
    pub fn keys(&self) -> bo_kit::auth::Keys {
        let secret = bo_kit::auth::load_or_create_key(self._dir.path()).unwrap();
        bo_kit::auth::Keys::new(&secret, 60).unwrap()
    }

    /// The gRPC address, when the app serves it.
    pub fn grpc_addr(&self) -> Option<std::net::SocketAddr> {
        self.launched.as_ref().and_then(|l| l.grpc_addr)
    }

    /// The process's channels.
    pub fn clients(&self) -> bo_kit::module::Clients {
        self.launched.as_ref().expect("running").clients.clone()
    }

    pub fn root(&self) -> String {
        self.base.trim_end_matches("/api").to_string()
    }

    pub async fn stop(mut self) {
        if let Some(l) = self.launched.take() {
            l.stop().await;
        }
    }

    /// A request with an optional bearer token and JSON body.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let text = res.text().await.unwrap();
        let v = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::String(text)) };
        (status, v)
    }

    pub async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, Some(token), Some(body)).await
    }

    /// A multipart POST, and its answer as JSON.
    pub async fn post_form(&self, path: &str, token: &str, form: reqwest::multipart::Form) -> (StatusCode, Value) {
        let res =
            self.client.post(format!("{}{path}", self.base)).bearer_auth(token).multipart(form).send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn patch(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PATCH, path, Some(token), Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.call(Method::DELETE, path, Some(token), None).await
    }

    /// A sign-in's answer, whatever it is.
    pub async fn login_status(&self, email: &str, password: &str) -> (StatusCode, Value) {
        self.call(Method::POST, "/auth/login", None, Some(json!({"email": email, "password": password}))).await
    }

    /// Signs in; returns the user token and user id.
    pub async fn login(&self, email: &str, password: &str) -> (String, i64) {
        let (s, v) =
            self.call(Method::POST, "/auth/login", None, Some(json!({"email": email, "password": password}))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        (v["token"].as_str().unwrap().to_string(), v["user"]["id"].as_i64().unwrap())
    }

    /// Signs in and picks `store`; returns the store token.
    pub async fn store_token(&self, email: &str, password: &str, store: i64) -> String {
        let (user, _) = self.login(email, password).await;
        let (s, v) = self.post("/stores/auth/token", &user, json!({"id": store})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v["token"].as_str().unwrap().to_string()
    }

    /// The demo owner's store token.
    pub async fn owner(&self) -> String {
        self.store_token(OWNER_EMAIL, OWNER_PASSWORD, self.demo_store).await
    }

    /// A second owner with their own store, made through the stores service on the same
    /// database; returns (store id, store token).
    pub async fn other_owner(&self, email: &str) -> (i64, String) {
        let svc = self.stores_service().await;
        let r = svc
            .grpc
            .create_owner(bo_proto::stores::v1::CreateOwnerRequest {
                email: email.into(),
                password: "another-password".into(),
                first_name: "B".into(),
                last_name: "B".into(),
                store_name: "ร้านที่สอง".into(),
                only_if_first: false,
            })
            .await
            .unwrap();
        svc.db.close().await;
        let store = r.store.unwrap().id;
        (store, self.store_token(email, "another-password", store).await)
    }

    /// The stores service opened on the test's database (to arrange data).
    pub async fn stores_service(&self) -> bo_stores::Service {
        let db = bo_kit::db::Db::connect(&self.db_url).await.unwrap();
        let bus = bo_kit::testing::bus().await;
        bo_stores::Service::open(db, bus, 3_600_000).await.unwrap()
    }

    /// Fails the test when the stock invariants do not hold: the ledger's and the lots', and
    /// across orders and wms (reserved units belong to open orders; an open order holds its
    /// lines or is flagged short). No order may be left settling with wms.
    pub async fn check_stock(&self) {
        // Work a test's last step started (a release filling short orders) may still be
        // settling: the invariants must hold once it has.
        let mut broken = Vec::new();
        for _ in 0..60 {
            let launched = self.launched.as_ref().expect("running");
            broken = bo_backoffice::checks::invariants(&launched.clients, &launched.identity(), 0).await.unwrap();
            if broken.is_empty() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("the stock invariants: {broken:#?}");
    }

    /// Fails the test when the reports' figures differ from what the orders add up to, once
    /// the events in flight have been counted.
    pub async fn check_reports(&self) {
        let mut problems = Vec::new();
        for _ in 0..100 {
            problems = self.reports_differences().await;
            if problems.is_empty() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("the reports differ from the orders: {problems:#?}");
    }

    /// Where the reports' figures differ from the orders now (once, without waiting).
    pub async fn reports_differences(&self) -> Vec<String> {
        let launched = self.launched.as_ref().expect("running");
        bo_backoffice::checks::reports(&launched.clients, &launched.identity()).await.unwrap().problems
    }

    /// Rebuilds the reports' figures from the orders; answers how many orders it counted.
    pub async fn rebuild_reports(&self) -> i64 {
        let launched = self.launched.as_ref().expect("running");
        bo_backoffice::checks::rebuild_reports(&launched.clients, &launched.identity()).await.unwrap().orders
    }

    /// Rebuilds the reports' figures; answers how many fee charges it counted.
    pub async fn rebuild_fees(&self) -> i64 {
        let launched = self.launched.as_ref().expect("running");
        bo_backoffice::checks::rebuild_reports(&launched.clients, &launched.identity()).await.unwrap().fee_charges
    }

    /// What the invariants' check finds broken now (once, without waiting).
    pub async fn invariants(&self) -> Vec<String> {
        let launched = self.launched.as_ref().expect("running");
        bo_backoffice::checks::invariants(&launched.clients, &launched.identity(), 0).await.unwrap()
    }

    /// Adds a member to `store` whose role grants exactly `perms`; returns their store token.
    pub async fn member_with(&self, store: i64, email: &str, perms: &[&str]) -> String {
        let svc = self.stores_service().await;
        let perms: Vec<String> = perms.iter().map(|p| p.to_string()).collect();
        let role = format!("role-{email}");
        svc.grpc.add_member(store, email, "member-password", "cashier", Some((&role, perms))).await.unwrap();
        svc.db.close().await;
        self.store_token(email, "member-password", store).await
    }
}

/// Runs a test body on the embedded stack and, when configured, on PostgreSQL with NATS, then
/// checks the stock ledger's and the lots' invariants on what it left, and that the reports'
/// figures equal what its orders add up to.
#[macro_export]
macro_rules! on_every_stack {
    ($($name:ident),* $(,)?) => {
        mod embedded {
            $(#[tokio::test] async fn $name() {
                let app = $crate::helpers::TestApp::start($crate::helpers::Stack::Embedded).await.unwrap();
                super::$name(&app).await;
                app.check_stock().await;
                app.check_reports().await;
                app.stop().await;
            })*
        }
        mod postgres_nats {
            $(#[tokio::test] async fn $name() {
                if let Some(app) = $crate::helpers::TestApp::start($crate::helpers::Stack::Postgres).await {
                    super::$name(&app).await;
                    app.check_stock().await;
                    app.check_reports().await;
                    app.stop().await;
                }
            })*
        }
    };
}

/// What a hand-made store token grants.
pub fn grant(permission: &str, role: i64, perms: &[&str], version: i64) -> bo_kit::auth::StoreGrant {
    bo_kit::auth::StoreGrant {
        permission: permission.into(),
        role,
        perms: perms.iter().map(|p| p.to_string()).collect(),
        version,
    }
}

/// A Thai customer body.
pub fn thai_customer(name: &str, tel: &str) -> Value {
    json!({
        "name": name,
        "tel": tel,
        "email": "",
        "line": "@somchai",
        "address": "99/1 ถนนสุขุมวิท",
        "sub_district": "คลองเตยเหนือ",
        "district": "วัฒนา",
        "state_province": "กรุงเทพมหานคร",
        "postcode": "10110"
    })
}

/// Waits until the stock ledger knows `sku` (it learns of new SKUs from the catalog's
/// event). The probe takes a unit away from nothing, which the ledger refuses without a
/// trace: 404 while the SKU is unknown, 409 once it is known.
pub async fn wait_until_stock_knows(app: &TestApp, token: &str, warehouse: i64, sku: i64) {
    let probe = json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": -1, "reason": "probe"});
    for _ in 0..200 {
        let (s, _) = app.post("/wms/goods-adjust", token, probe.clone()).await;
        if s != StatusCode::NOT_FOUND {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the stock ledger never learnt of SKU {sku}");
}

/// How long a test waits for what follows an action a moment later (an event, a push taken
/// from the inbox, a read model): long, because CI runs every suite at once on two cores;
/// a test that passes returns as soon as it sees what it waits for.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// True until `PATIENCE` has passed since `started`: a polling loop's condition.
pub fn patient(started: std::time::Instant) -> bool {
    started.elapsed() < PATIENCE
}

/// A free loopback port for a process a test starts.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Waits (up to a minute) until a started process answers `url` with 200; fails if it exits.
pub async fn wait_ready(client: &reqwest::Client, url: &str, child: &mut tokio::process::Child) {
    for _ in 0..600 {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("process exited early: {status}");
        }
        if let Ok(r) = client.get(url).send().await {
            if r.status() == StatusCode::OK {
                return;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{url} never became ready");
}
