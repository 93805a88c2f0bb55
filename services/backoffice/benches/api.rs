//! `make bench`: throughput and latency through the gateway, in `target=all` (SQLite,
//! in-process bus) and in the distributed setup (separate processes, PostgreSQL, NATS;
//! needs TEST_DATABASE_URL and TEST_NATS_URL, else that half is skipped and says so).
//!
//! - product list: GET /api/products (10,000 products, pages and searches)
//! - SKU inventory list: GET /api/products/sku-inventories
//! - stock reservation: wms Reserve (one unit, a new reference each) over gRPC on loopback
//! - approving a 500-line goods receipt
//! - orders: POST /api/orders (2 lines of 1 unit, holding stock) with 8 clients; the order
//!   list's page 1 with a state filter and a random deep page at 100,000 orders; bulk
//!   prepare and bulk cancel of 500 orders; the export of the 100,000 orders to a spreadsheet;
//!   an order import of 10,000 rows (5,000 orders) read, checked and previewed (.csv, .xlsx);
//!   a month-end statement of 5,000 lines matched against 50,000 open bills
//!   (`benches/api/orders.rs`)
//! - reports (embedded): a million orders, the read models' full rebuild, every dashboard
//!   call at a month and a year, an order's effect on the dashboard, the year's export
//!   (`benches/api/reports.rs`)
//! - sign-in under a 200-way flood of wrong passwords
//! - marketplaces (embedded, against the three sandboxes): 5,000 pushed orders, lost pushes
//!   recovered by polling, a flash sale, a re-assert of 10,000 listings
//!   (`benches/api/marketplaces.rs`; `BENCH_ONLY=marketplaces` runs it alone)
//! - webhooks out (embedded): 1,000 stock changes a second told to 10 endpoints beside one
//!   answering in 10 s; the integrator API's order create beside POST /orders
//!   (`benches/api/webhooks.rs`; `BENCH_ONLY=webhooks` runs it alone)
//!
//! 16 concurrent clients (8 for order creation), a fixed number of requests each; requests
//! per second and p50/p99.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bo_backoffice::config::Config;
use bo_kit::config::Secret;
use bo_kit::grpc::{self, CallCtx};
use bo_kit::testing::{self, Backend};
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use serde_json::{json, Value};
use tokio::process::{Child, Command};

#[path = "api/orders.rs"]
mod orders;
use orders::orders;
#[path = "api/marketplaces.rs"]
mod marketplaces;
#[path = "api/reports.rs"]
mod reports;
#[path = "api/webhooks.rs"]
mod webhooks;

const CLIENTS: usize = 16;
const PRODUCTS: usize = 10_000;
const REQUESTS_PER_CLIENT: usize = 200;

/// `BENCH_ONLY=orders` runs the order measurements (and sign-in under a flood) alone, on a
/// small catalog.
fn orders_only() -> bool {
    std::env::var("BENCH_ONLY").is_ok_and(|v| v == "orders")
}

/// `BENCH_ONLY=reports` runs the reports' measurements at a million orders alone (embedded),
/// on a small catalog.
fn reports_only() -> bool {
    std::env::var("BENCH_ONLY").is_ok_and(|v| v == "reports")
}

/// Products seeded: 10,000, or a few for the orders or the reports alone.
fn products() -> usize {
    if orders_only() || reports_only() {
        20
    } else {
        PRODUCTS
    }
}

struct Target {
    api: String,
    grpc: String,
    token: String,
    /// A call token for the services' port, as the gateway mints one per request.
    call: String,
    store_id: i64,
    user_id: i64,
    /// The products database to bring to a steady state after seeding (PostgreSQL: what
    /// autovacuum does to a table that just grew by half a million rows, done at once so it
    /// does not run during the measurements).
    settle: Option<String>,
    /// The stores database: its consumer of the catalog's events must be done too.
    stores_db: String,
    /// The orders database (seeded with 100,000 orders for the list).
    orders_db: String,
    /// The process's services and an identity to call them with (embedded: the reports'
    /// rebuild is measured there).
    services: Option<(bo_kit::module::Clients, bo_kit::grpc::ServiceIdentity)>,
}

/// The distributed run's shared token key.
const BENCH_SECRET: &str = "bench-Q7m2-Xv9k-Lp4w-Zr8t-Hn3c-Jd6y-Fb1s";

/// A call token of the installation's key for the owner.
fn call_token(secret: &[u8], user_id: i64, store_id: i64) -> String {
    let keys = bo_kit::auth::Keys::new(secret, 60).unwrap();
    keys.call_token(user_id, "bench", store_id, "owner", &[]).unwrap()
}

#[derive(Default)]
struct Stats {
    latencies: Vec<Duration>,
    elapsed: Duration,
    errors: usize,
}

impl Stats {
    fn line(&mut self, name: &str) -> String {
        self.latencies.sort();
        let pct = |p: f64| {
            let i = ((self.latencies.len() as f64 * p).ceil() as usize).clamp(1, self.latencies.len().max(1)) - 1;
            self.latencies.get(i).copied().unwrap_or_default()
        };
        let rps = self.latencies.len() as f64 / self.elapsed.as_secs_f64();
        format!(
            "{name:<34} {rps:>9.0} req/s   p50 {:>7.2} ms   p99 {:>7.2} ms   errors {}",
            pct(0.50).as_secs_f64() * 1e3,
            pct(0.99).as_secs_f64() * 1e3,
            self.errors
        )
    }
}

/// This process's CPU time so far (Linux; zero elsewhere), in clock ticks.
fn cpu_ticks() -> u64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
            let rest = s.rsplit_once(')')?.1.split_whitespace().collect::<Vec<_>>();
            Some(rest.get(11)?.parse::<u64>().ok()? + rest.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0)
}

/// Waits (up to a minute) until the services in this process are idle, under a tenth of a
/// core for half a second, so that one measurement does not share the cores with the
/// backlog of the one before (events still relayed and consumed). Says how long it took.
async fn quiet(after: &str) {
    let started = Instant::now();
    let mut before = cpu_ticks();
    while started.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = cpu_ticks();
        // 100 ticks a second: 5 in half a second is a tenth of a core.
        if now.saturating_sub(before) <= 5 {
            break;
        }
        before = now;
    }
    println!("settled: idle {:.1} s after {after}", started.elapsed().as_secs_f64());
}

async fn run<F, Fut>(make: F) -> Stats
where
    F: Fn(usize, usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    run_with(CLIENTS, make).await
}

async fn run_with<F, Fut>(clients: usize, make: F) -> Stats
where
    F: Fn(usize, usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let make = Arc::new(make);
    let start = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let make = make.clone();
            tokio::spawn(async move {
                let mut lat = Vec::with_capacity(REQUESTS_PER_CLIENT);
                let mut errors = 0;
                for i in 0..REQUESTS_PER_CLIENT {
                    let t = Instant::now();
                    if !make(c, i).await {
                        errors += 1;
                    }
                    lat.push(t.elapsed());
                }
                (lat, errors)
            })
        })
        .collect();
    let mut stats = Stats::default();
    for t in tasks {
        let (lat, errors) = t.await.unwrap();
        stats.latencies.extend(lat);
        stats.errors += errors;
    }
    stats.elapsed = start.elapsed();
    stats
}

async fn sign_in(api: &str, client: &reqwest::Client, email: &str, password: &str, store: i64) -> (String, i64) {
    let v: Value = client
        .post(format!("{api}/auth/login"))
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let user = v["token"].as_str().expect("signed in").to_string();
    let user_id = v["user"]["id"].as_i64().unwrap();
    let v: Value = client
        .post(format!("{api}/stores/auth/token"))
        .bearer_auth(&user)
        .json(&json!({"id": store}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (v["token"].as_str().unwrap().to_string(), user_id)
}

/// A GET of `path` for the runner, `{n}` in it replaced by a page from 1 to `pages` that
/// differs by client and request.
/// The JSON answer of a GET through the gateway, as the bench's owner.
async fn get_json(t: &Target, client: &reqwest::Client, path: &str) -> Value {
    client.get(format!("{}{path}", t.api)).bearer_auth(&t.token).send().await.unwrap().json().await.unwrap()
}

fn getter(
    t: &Target,
    client: &reqwest::Client,
    path: &str,
    pages: usize,
) -> impl Fn(usize, usize) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>> + Send + Sync + 'static
{
    let (api, token, client, path) = (t.api.clone(), t.token.clone(), client.clone(), path.to_string());
    move |c: usize, i: usize| {
        let n = (c * 7919 + i * 104_729) % pages + 1;
        let url = format!("{api}{}", path.replace("{n}", &n.to_string()));
        let (token, client) = (token.clone(), client.clone());
        Box::pin(async move {
            client.get(url).bearer_auth(token).send().await.map(|r| r.status().is_success()).unwrap_or(false)
        })
    }
}

async fn seed(t: &Target, client: &reqwest::Client) -> (Duration, usize) {
    let start = Instant::now();
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (api, token, client, next) = (t.api.clone(), t.token.clone(), client.clone(), next.clone());
            tokio::spawn(async move {
                let mut failed = 0;
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= products() {
                        return failed;
                    }
                    let body = json!({
                        "name": format!("สินค้าทดสอบ {i}"), "short_description": "ทดสอบ", "code": format!("B-{i:05}"),
                        "category_id": 1 + (i % 14) as i64, "price": "199.00", "cost": "90.00", "tags": ["bench"],
                        "variant1": "1สี", "variant1_options": ["ขาว", "ดำ"],
                        "skus": [{"code": format!("B-{i:05}-W"), "variant_option": {"1สี": "ขาว"}},
                                 {"code": format!("B-{i:05}-B"), "variant_option": {"1สี": "ดำ"}}]
                    });
                    let ok = client
                        .post(format!("{api}/products"))
                        .bearer_auth(&token)
                        .json(&body)
                        .send()
                        .await
                        .map(|r| r.status().is_success())
                        .unwrap_or(false);
                    if !ok {
                        failed += 1;
                    }
                }
            })
        })
        .collect();
    let mut failed = 0;
    for t in tasks {
        failed += t.await.unwrap();
    }
    (start.elapsed(), failed)
}

async fn measure(label: &str, t: Target) {
    let client = reqwest::Client::builder().pool_max_idle_per_host(CLIENTS).build().unwrap();
    println!("\n== {label}");
    let (took, failed) = seed(&t, &client).await;
    println!(
        "{:<34} {:>9.0} req/s   ({} products in {:.1} s, {failed} failed)",
        "seed: POST /products",
        products() as f64 / took.as_secs_f64(),
        products(),
        took.as_secs_f64()
    );
    // Wait until the events of the seeding are consumed (wms learns every SKU from them, in
    // order), so the measurements do not share the cores with that backlog.
    let started = Instant::now();
    let newest: Value = get_json(&t, &client, "/products?limit=1").await;
    let sku = newest["data"][0]["skus"][0]["id"].as_i64().unwrap();
    // The store's first warehouse is made when wms hears of the store (at once embedded, a
    // moment later over NATS).
    let mut warehouse = None;
    for _ in 0..150 {
        let warehouses: Value = get_json(&t, &client, "/wms/warehouses").await;
        warehouse = warehouses["data"][0]["id"].as_i64();
        if warehouse.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let warehouse = warehouse.expect("the store's first warehouse within 30 s");
    loop {
        let probe = json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": -1, "reason": "probe"});
        let r = client.post(format!("{}/wms/goods-adjust", t.api)).bearer_auth(&t.token).json(&probe).send().await;
        if r.is_ok_and(|r| r.status() != reqwest::StatusCode::NOT_FOUND) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Every consumer of the seeding's events is done, not only the stock ledger: the stores
    // service records each product event it handled (getting-started flags).
    let stores = bo_kit::db::Db::connect(&t.stores_db).await.unwrap();
    for _ in 0..600 {
        let handled: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM processed_events").fetch_one(stores.pool()).await.unwrap_or(0);
        if handled >= products() as i64 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stores.close().await;
    println!("settled: the seeding's events consumed {:.1} s after the last write", started.elapsed().as_secs_f64());
    if let Some(url) = &t.settle {
        let db = bo_kit::db::Db::connect(url).await.unwrap();
        sqlx::query("VACUUM ANALYZE").execute(db.pool()).await.unwrap();
        println!("settled: VACUUM ANALYZE of the products database");
    }

    if orders_only() {
        orders(&t, &client, warehouse).await;
        sign_in_flood(&t).await;
        return;
    }
    if reports_only() {
        measure_reports(&t, &client, warehouse).await;
        return;
    }
    let get = |path: &str| getter(&t, &client, path, 1000);
    println!("{}", run(get("/products?page=1&limit=10")).await.line("GET /products page 1"));
    println!("{}", run(get("/products?page={n}&limit=10")).await.line("GET /products random deep page"));
    println!("{}", run(get("/products?search=B-0{n}&limit=10")).await.line("GET /products?search="));
    println!("{}", run(get("/products/sku-inventories?page=1")).await.line("GET /products/sku-inventories p1"));
    println!("{}", run(get("/products/sku-inventories?page={n}")).await.line("GET /products/sku-inventories deep"));

    // Reservations: one SKU with plenty of stock, a new reference per call.
    let channel = grpc::remote(&t.grpc).unwrap();
    let mut wms = WmsServiceClient::new(channel.clone());
    // A call token, as the gateway forwards one.
    let ctx = CallCtx::with_token(t.store_id, t.user_id, t.call.clone());
    let mut warehouse = 0;
    for _ in 0..100 {
        if let Some(w) = wms
            .list_warehouses(ctx.request(wpb::ListWarehousesRequest {}))
            .await
            .unwrap()
            .into_inner()
            .warehouses
            .first()
        {
            warehouse = w.id;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let products: Value = get_json(&t, &client, "/products?limit=1").await;
    let sku = products["data"][0]["skus"][0]["id"].as_i64().unwrap();
    wms.receive(ctx.request(wpb::ReceiveRequest {
        reference: "bench-stock".into(),
        lines: vec![wpb::StockLine { warehouse_id: warehouse, sku_id: sku, quantity: 1_000_000, ..Default::default() }],
    }))
    .await
    .unwrap();
    let reserve = move |c: usize, i: usize| {
        let mut wms = WmsServiceClient::new(channel.clone());
        let req = ctx.request(wpb::ReserveRequest {
            reference: format!("bench-{c}-{i}"),
            lines: vec![wpb::StockLine { warehouse_id: warehouse, sku_id: sku, quantity: 1, ..Default::default() }],
        });
        async move { wms.reserve(req).await.is_ok() }
    };
    println!("{}", run(reserve).await.line("wms Reserve (gRPC, 1 unit)"));

    approve_receipts(&t, &client, warehouse).await;
    orders(&t, &client, warehouse).await;
    sign_in_flood(&t).await;
    measure_reports(&t, &client, warehouse).await;
}

/// Sign-in under a flood: 200 clients send wrong passwords for 200 accounts without pause for
/// three seconds (the bench allows 1,000 failures a minute per address, so the limiter lets
/// them through to the password check); meanwhile the bench's owner signs in every 300 ms,
/// again after 50 ms when told the sign-in is busy. The worst time a real sign-in took, and
/// what the flood was answered.
async fn sign_in_flood(t: &Target) {
    const FLOOD: usize = 200;
    let client = reqwest::Client::builder().pool_max_idle_per_host(FLOOD).build().unwrap();
    // The owner signed in on this device before: the device token it was given then.
    let first: Value = client
        .post(format!("{}/auth/login", t.api))
        .json(&json!({"email": "bench@example.com", "password": "bench-password"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut device = first["device"].as_str().expect("a device token").to_string();
    let until = Instant::now() + Duration::from_secs(3);
    let flood: Vec<_> = (0..FLOOD)
        .map(|i| {
            let (client, url) = (client.clone(), format!("{}/auth/login", t.api));
            tokio::spawn(async move {
                let mut answers: std::collections::BTreeMap<u16, usize> = Default::default();
                while Instant::now() < until {
                    let body = json!({"email": format!("flood-{i}@example.com"), "password": "wrong-password"});
                    if let Ok(r) = client.post(&url).json(&body).send().await {
                        *answers.entry(r.status().as_u16()).or_default() += 1;
                    }
                }
                answers
            })
        })
        .collect();
    let mut worst = Duration::ZERO;
    let mut signed_in = 0;
    let mut busy = 0;
    while Instant::now() < until {
        let start = Instant::now();
        loop {
            let r = client
                .post(format!("{}/auth/login", t.api))
                .json(&json!({"email": "bench@example.com", "password": "bench-password", "device": device}))
                .send()
                .await
                .unwrap();
            match r.status().as_u16() {
                200 => {
                    let v: Value = r.json().await.unwrap();
                    device = v["device"].as_str().unwrap().to_string();
                    break;
                }
                503 => {
                    busy += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                s => panic!("a real sign-in during the flood was answered {s}"),
            }
        }
        worst = worst.max(start.elapsed());
        signed_in += 1;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let mut answers: std::collections::BTreeMap<u16, usize> = Default::default();
    for f in flood {
        for (status, n) in f.await.unwrap() {
            *answers.entry(status).or_default() += n;
        }
    }
    let answers: Vec<String> = answers.iter().map(|(s, n)| format!("{n}×{s}")).collect();
    println!(
        "{:<34} {:>9.0} ms   (worst of {signed_in} real sign-ins from a known device, {busy} told busy first; the flood: {})",
        "sign-in under a 200-way flood",
        worst.as_secs_f64() * 1000.0,
        answers.join(", ")
    );
}

/// Approving a goods receipt of 500 lines (500 SKUs, each a new lot): three receipts, each
/// timed on its own through the API.
async fn approve_receipts(t: &Target, client: &reqwest::Client, warehouse: i64) {
    const LINES: usize = 500;
    let mut skus = Vec::new();
    for page in 1.. {
        let v: Value = get_json(t, client, &format!("/products?page={page}&limit=100")).await;
        let rows = v["data"].as_array().cloned().unwrap_or_default();
        skus.extend(
            rows.iter()
                .flat_map(|p| p["skus"].as_array().cloned().unwrap_or_default())
                .filter_map(|s| s["id"].as_i64()),
        );
        if skus.len() >= LINES || rows.is_empty() {
            break;
        }
    }
    skus.truncate(LINES);
    let lines: Vec<Value> = skus
        .iter()
        .enumerate()
        .map(|(i, s)| json!({"sku_id": s, "request_qty": 1 + i % 5, "cost": "12.50", "expired_at": "2027-12-31"}))
        .collect();
    let mut times = Vec::new();
    for _ in 0..3 {
        let body = json!({"type": "product", "warehouse_id": warehouse, "expected_received_date": "2026-12-01",
            "products": lines});
        let r: Value = client
            .post(format!("{}/wms/goods-receipts", t.api))
            .bearer_auth(&t.token)
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = r["id"].as_i64().expect("a receipt");
        let sent = client
            .post(format!("{}/wms/goods-receipts/{id}/ready-to-warehouse", t.api))
            .bearer_auth(&t.token)
            .send()
            .await
            .unwrap();
        assert!(sent.status().is_success());
        let start = Instant::now();
        let done = client
            .post(format!("{}/wms/goods-receipts/{id}/qc-approve/in-store", t.api))
            .bearer_auth(&t.token)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        times.push(start.elapsed());
        assert!(done.status().is_success(), "approve: {}", done.status());
    }
    times.sort();
    println!(
        "{:<34} {:>9.0} ms   (median of 3; slowest {:.0} ms; {} lines)",
        "POST qc-approve (500-line receipt)",
        times[1].as_secs_f64() * 1000.0,
        times[2].as_secs_f64() * 1000.0,
        skus.len()
    );
}

/// The reports at a million orders, where the services run in this process.
async fn measure_reports(t: &Target, client: &reqwest::Client, warehouse: i64) {
    let Some((clients, identity)) = t.services.clone() else {
        println!("reports: measured embedded only (their rebuild runs in this process)");
        return;
    };
    reports::reports(t, client, warehouse, || async move {
        bo_backoffice::checks::rebuild_reports(&clients, &identity).await.unwrap().orders
    })
    .await;
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn embedded() {
    let dir = tempfile::tempdir().unwrap();
    let grpc_port = free_port();
    let cfg = Config {
        data_dir: dir.path().to_path_buf(),
        http: bo_backoffice::config::HttpConfig { addr: "127.0.0.1:0".into(), ..Default::default() },
        grpc: bo_backoffice::config::GrpcConfig { addr: format!("127.0.0.1:{grpc_port}"), serve: Some(true) },
        demo: bo_backoffice::config::DemoConfig {
            enabled: true,
            email: "bench@example.com".into(),
            password: Secret::new("bench-password"),
            catalog: false,
            ..Default::default()
        },
        auth: bo_backoffice::config::AuthConfig { login_attempts_per_minute: 1000, ..Default::default() },
        ..Default::default()
    };
    let launched = bo_backoffice::app::launch(cfg, bo_backoffice::resolve("all").unwrap()).await.unwrap();
    let api = format!("http://{}/api", launched.http_addr);
    let store_id = launched.demo.as_ref().unwrap().store_id;
    let (token, user_id) =
        sign_in(&api, &reqwest::Client::new(), "bench@example.com", "bench-password", store_id).await;
    measure(
        "target=all (SQLite, log bus)",
        Target {
            api,
            grpc: format!("http://127.0.0.1:{grpc_port}"),
            call: call_token(&bo_kit::auth::load_or_create_key(dir.path()).unwrap(), user_id, store_id),
            token,
            store_id,
            user_id,
            settle: None,
            stores_db: format!("sqlite://{}", dir.path().join("stores.db").display()),
            orders_db: format!("sqlite://{}", dir.path().join("orders.db").display()),
            services: Some((launched.clients.clone(), launched.identity())),
        },
    )
    .await;
    launched.stop().await;
}

async fn wait_ready(url: &str, child: &mut Child) {
    for _ in 0..300 {
        if let Ok(Some(s)) = child.try_wait() {
            panic!("exited early: {s}");
        }
        if reqwest::get(url).await.map(|r| r.status().is_success()).unwrap_or(false) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} never became ready");
}

async fn distributed() {
    let (Some(_), Some(nats)) = (std::env::var("TEST_DATABASE_URL").ok(), std::env::var("TEST_NATS_URL").ok()) else {
        println!("\n== distributed: skipped (set TEST_DATABASE_URL and TEST_NATS_URL)");
        return;
    };
    let _ = testing::backend_url(Backend::Postgres);
    let (stores_db, _g1) = testing::postgres_url().await.unwrap();
    let (wms_db, _g2) = testing::postgres_url().await.unwrap();
    let (products_db, _g3) = testing::postgres_url().await.unwrap();
    let (orders_db, _g4) = testing::postgres_url().await.unwrap();
    let prefix = testing::unique_prefix();
    let dir = tempfile::tempdir().unwrap();
    let bin = std::env::var("BACKOFFICE_BIN").unwrap_or_else(|_| {
        let target = std::env::var("CARGO_TARGET_DIR")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target").into());
        format!("{target}/release/backoffice")
    });
    let (grpc_port, svc_http, gw_http) = (free_port(), free_port(), free_port());
    let env = |c: &mut Command| {
        c.current_dir(dir.path())
            .env("BO_DATA_DIR", dir.path())
            .env("BO_BUS__NATS_URL", &nats)
            .env("BO_BUS__PREFIX", &prefix)
            .env("BO_AUTH__JWT_SECRET", BENCH_SECRET)
            .env("BO_AUTH__LOGIN_ATTEMPTS_PER_MINUTE", "1000")
            .env("BO_FILES__URL", format!("file://{}", dir.path().join("files").display()))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .kill_on_drop(true);
    };
    let mut services = Command::new(&bin);
    env(&mut services);
    let mut services = services
        // Payments, logistics, reports and marketplaces keep their SQLite files under the data
        // folder: the bench only reaches them through orders, but the gateway needs every
        // service.
        .args(["--target", "stores,wms,products,payments,logistics,orders,reports,marketplaces"])
        .env("BO_SERVICES__MARKETPLACES__TOKEN_KEY", "ef".repeat(32))
        .env("BO_SERVICES__ORDERS__DATABASE_URL", &orders_db)
        .env("BO_SERVICES__STORES__DATABASE_URL", &stores_db)
        .env("BO_SERVICES__WMS__DATABASE_URL", &wms_db)
        .env("BO_SERVICES__PRODUCTS__DATABASE_URL", &products_db)
        .env("BO_GRPC__ADDR", format!("127.0.0.1:{grpc_port}"))
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{svc_http}"))
        .spawn()
        .unwrap();
    wait_ready(&format!("http://127.0.0.1:{svc_http}/readyz"), &mut services).await;
    let out = Command::new(&bin)
        .args([
            "admin",
            "create-owner",
            "--email",
            "bench@example.com",
            "--password",
            "bench-password",
            "--store-name",
            "ร้านทดสอบ",
        ])
        .env("BO_SERVICES__STORES__DATABASE_URL", &stores_db)
        .env("BO_DATA_DIR", dir.path())
        .output()
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let store_id: i64 =
        text.split("store id ").nth(1).unwrap().trim_end_matches(|c: char| !c.is_ascii_digit()).parse().unwrap();
    let addr = format!("http://127.0.0.1:{grpc_port}");
    let mut gateway = Command::new(&bin);
    env(&mut gateway);
    let mut gateway = gateway
        .args(["--target", "gateway"])
        .env("BO_SERVICES__STORES__ADDR", &addr)
        .env("BO_SERVICES__WMS__ADDR", &addr)
        .env("BO_SERVICES__PRODUCTS__ADDR", &addr)
        .env("BO_SERVICES__PAYMENTS__ADDR", &addr)
        .env("BO_SERVICES__LOGISTICS__ADDR", &addr)
        .env("BO_SERVICES__ORDERS__ADDR", &addr)
        .env("BO_SERVICES__REPORTS__ADDR", &addr)
        .env("BO_SERVICES__MARKETPLACES__ADDR", &addr)
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{gw_http}"))
        .spawn()
        .unwrap();
    wait_ready(&format!("http://127.0.0.1:{gw_http}/readyz"), &mut gateway).await;
    let api = format!("http://127.0.0.1:{gw_http}/api");
    let (token, user_id) =
        sign_in(&api, &reqwest::Client::new(), "bench@example.com", "bench-password", store_id).await;
    measure(
        "distributed (gateway | stores,wms,products,orders; PostgreSQL, NATS)",
        Target {
            api,
            grpc: addr,
            call: call_token(BENCH_SECRET.as_bytes(), user_id, store_id),
            token,
            store_id,
            user_id,
            settle: Some(products_db.clone()),
            stores_db: stores_db.clone(),
            orders_db: orders_db.clone(),
            services: None,
        },
    )
    .await;
    let _ = gateway.kill().await;
    let _ = services.kill().await;
    if let Ok(bus) = bo_kit::bus::nats::NatsBus::connect(&nats, &prefix).await {
        let _ = bus.delete_stream().await;
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    // RUST_LOG=… shows the services' logs (none by default: they would cost the measurements).
    let _logs = std::env::var("RUST_LOG").is_ok().then(|| bo_kit::telemetry::init("bench", false).ok());
    rt.block_on(async {
        println!(
            "{CLIENTS} concurrent clients, {REQUESTS_PER_CLIENT} requests each; {PRODUCTS} products with 2 SKUs each"
        );
        if std::env::var("BENCH_ONLY").is_ok_and(|v| v == "marketplaces") {
            marketplaces::marketplaces().await;
            return;
        }
        if std::env::var("BENCH_ONLY").is_ok_and(|v| v == "webhooks") {
            webhooks::webhooks().await;
            return;
        }
        embedded().await;
        marketplaces::marketplaces().await;
        webhooks::webhooks().await;
        distributed().await;
    });
}
