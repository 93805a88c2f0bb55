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
//!   an order import of 10,000 rows (5,000 orders) read, checked and previewed (.csv, .xlsx)
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

const CLIENTS: usize = 16;
const PRODUCTS: usize = 10_000;
const REQUESTS_PER_CLIENT: usize = 200;

/// `BENCH_ONLY=orders` runs the order measurements (and sign-in under a flood) alone, on a
/// small catalog.
fn orders_only() -> bool {
    std::env::var("BENCH_ONLY").is_ok_and(|v| v == "orders")
}

/// Products seeded: 10,000, or a few for the orders alone.
fn products() -> usize {
    if orders_only() {
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

/// Orders: creation (2 lines of 1 unit each, holding stock) with 8 clients, then the list at
/// 100,000 orders, then bulk prepare and bulk cancel of 500.
async fn orders(t: &Target, client: &reqwest::Client, warehouse: i64) {
    const CREATORS: usize = 8;
    let products: Value = get_json(t, client, "/products?limit=2&page=3").await;
    let skus: Vec<i64> =
        products["data"].as_array().unwrap().iter().map(|p| p["skus"][0]["id"].as_i64().unwrap()).collect();
    for (i, sku) in skus.iter().enumerate() {
        let r = client
            .post(format!("{}/wms/goods-adjust", t.api))
            .bearer_auth(&t.token)
            .header("Idempotency-Key", format!("bench-order-stock-{i}"))
            .json(&json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": 1_000_000, "reason": "bench"}))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "stock for orders: {}", r.status());
    }
    let body = json!({"channel": "facebook", "warehouse_id": warehouse,
        "shipping_address": {"name": "สมชาย ใจดี", "tel": "0812345678", "address": "99/1 ถนนสุขุมวิท",
            "sub_district": "คลองเตยเหนือ", "district": "วัฒนา", "state_province": "กรุงเทพมหานคร", "postcode": "10110"},
        "items": [{"sku_id": skus[0], "quantity": 1}, {"sku_id": skus[1], "quantity": 1}]});
    let created = Arc::new(std::sync::Mutex::new(Vec::new()));
    let make = {
        let (api, token, client, created) = (t.api.clone(), t.token.clone(), client.clone(), created.clone());
        move |_c: usize, _i: usize| {
            let (api, token, client, body, created) =
                (api.clone(), token.clone(), client.clone(), body.clone(), created.clone());
            async move {
                let Ok(r) = client.post(format!("{api}/orders")).bearer_auth(token).json(&body).send().await else {
                    return false;
                };
                if r.status() != reqwest::StatusCode::CREATED {
                    return false;
                }
                let v: Value = r.json().await.unwrap_or_default();
                let held = v["stock_state"] == "held";
                if let Some(id) = v["id"].as_i64() {
                    created.lock().unwrap().push(id);
                }
                held
            }
        }
    };
    println!("{}", run_with(CREATORS, make).await.line("POST /orders (2 lines, 8 clients)"));

    // The list at 100,000 orders: the rest are written straight into the database.
    let made = created.lock().unwrap().len();
    let seeded = seed_orders(&t.orders_db, t.store_id, warehouse, 100_000usize.saturating_sub(made)).await;
    println!("{:<34} {:>9} orders   ({} made through the API)", "seed: orders for the list", made + seeded, made);
    let get = |path: &str| getter(t, client, path, 2_000);
    println!("{}", run(get("/orders?order-state=new&page=1")).await.line("GET /orders?order-state=new p1"));
    println!("{}", run(get("/orders?order-state=new&page={n}")).await.line("GET /orders state, random deep page"));
    println!("{}", run(get("/orders?page={n}")).await.line("GET /orders random deep page"));
    println!("{}", run(get("/orders/count")).await.line("GET /orders/count"));
    export_orders(t, client).await;
    reconcile_month(t, client, warehouse).await;
    preview_order_import(t, client, warehouse).await;

    // Bulk: 500 of the orders made through the API, prepared, then cancelled.
    let ids: Vec<i64> = created.lock().unwrap().iter().take(500).copied().collect();
    for (label, path) in
        [("POST /orders/ready-to-fulfillment", "ready-to-fulfillment"), ("POST /orders/cancel", "cancel")]
    {
        let start = Instant::now();
        let r = client
            .post(format!("{}/orders/{path}", t.api))
            .bearer_auth(&t.token)
            .json(&json!({"ids": ids}))
            .send()
            .await
            .unwrap();
        let took = start.elapsed();
        let v: Value = r.json().await.unwrap_or_default();
        println!(
            "{:<34} {:>9.0} ms   ({} orders, {} moved)",
            format!("{label} (bulk)"),
            took.as_secs_f64() * 1000.0,
            ids.len(),
            v["succeeded"]
        );
    }
}

/// The resident memory of this process, kB (Linux; 0 elsewhere).
fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// An export of every order (100,000) of the last year: from the request until its file is
/// kept, and (embedded, where the services run in this process) how far the resident
/// memory rose while it was built.
async fn export_orders(t: &Target, client: &reqwest::Client) {
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    let day = |d: ::time::OffsetDateTime| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
    let embedded = t.orders_db.starts_with("sqlite");
    let before = rss_kb();
    let start = Instant::now();
    let r: Value = client
        .post(format!("{}/orders/reports/produce-order-report", t.api))
        .bearer_auth(&t.token)
        .json(&json!({"date_from": day(now - ::time::Duration::days(365)), "date_to": day(now)}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = r["id"].as_i64().unwrap_or_else(|| panic!("an export: {r}"));
    let mut peak = before;
    let mut last = Value::Null;
    while start.elapsed() < Duration::from_secs(300) {
        peak = peak.max(rss_kb());
        let l: Value = get_json(t, client, "/orders/reports?limit=5").await;
        if let Some(e) = l["data"].as_array().and_then(|d| d.iter().find(|e| e["id"] == id)) {
            last = e.clone();
            if e["state"] != "exporting" {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let took = start.elapsed();
    let memory =
        if embedded { format!("; memory rose {} MB", peak.saturating_sub(before) / 1024) } else { String::new() };
    println!(
        "{:<34} {:>9.1} s    ({} orders, {}, {} MB file{memory})",
        "POST produce-order-report → file",
        took.as_secs_f64(),
        last["total"],
        last["state"].as_str().unwrap_or("?"),
        last["file_size"].as_i64().unwrap_or(0) / (1024 * 1024),
    );
}

/// An order file of 10,000 rows (5,000 orders of two lines, each SKU its own code) read,
/// checked against the catalog and the store's references, and previewed: the dry run the
/// import screen sends, as .csv and as .xlsx.
async fn preview_order_import(t: &Target, client: &reqwest::Client, warehouse: i64) {
    let products: Value = get_json(t, client, "/products?limit=20").await;
    let codes: Vec<String> = products["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["skus"][0]["code"].as_str().unwrap().to_string())
        .collect();
    // The template's English headers, in its order.
    let header: Vec<&str> = bo_orders::import::COLUMNS.iter().map(|c| c.en).collect();
    let rows: Vec<[String; 15]> = (0..10_000)
        .map(|i| {
            let s = |v: &str| v.to_string();
            [
                format!("BENCH-IMP-{}", i / 2),
                s("สมชาย ใจดี"),
                s("0812345678"),
                s("99/1 ถนนสุขุมวิท"),
                s("คลองเตยเหนือ"),
                s("วัฒนา"),
                s("กรุงเทพมหานคร"),
                s("10110"),
                String::new(),
                codes[i % codes.len()].clone(),
                format!("{}", 1 + i % 3),
                s("199.00"),
                s("40"),
                String::new(),
                s("ส่งด่วน"),
            ]
        })
        .collect();
    let mut csv = header.join(",");
    for r in &rows {
        csv.push('\n');
        csv.push_str(&r.join(","));
    }
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet.write_string(r as u32 + 1, c as u16, v).unwrap();
            }
        }
    }
    let xlsx = book.save_to_buffer().unwrap();
    for (name, bytes) in [("orders.csv", csv.into_bytes()), ("orders.xlsx", xlsx)] {
        let mut took = Vec::new();
        let mut last = Value::Null;
        for _ in 0..3 {
            let form = reqwest::multipart::Form::new()
                .part("file", reqwest::multipart::Part::bytes(bytes.clone()).file_name(name))
                .text("channel", "facebook")
                .text("warehouse_id", warehouse.to_string())
                .text("dry_run", "true");
            let start = Instant::now();
            let r = client
                .post(format!("{}/orders/excel/import", t.api))
                .bearer_auth(&t.token)
                .multipart(form)
                .send()
                .await
                .unwrap();
            last = r.json().await.unwrap_or_default();
            took.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        took.sort_by(|a, b| a.total_cmp(b));
        println!(
            "{:<34} {:>9.0} ms   (best of 3, worst {:.0} ms; {} rows, {} orders, {} problems, {} KB)",
            format!("import preview 10,000 rows ({})", name.rsplit('.').next().unwrap_or("")),
            took[0],
            took[2],
            last["data"]["rows"],
            last["data"]["orders"].as_array().map(|o| o.len()).unwrap_or(0),
            last["errors"].as_array().map(|e| e.len()).unwrap_or(0),
            bytes.len() / 1024,
        );
    }
}

/// Writes `n` orders of the store straight into the orders database, spread over the states
/// as a shop's history is (mostly closed), each with two lines, in batches.
async fn seed_orders(url: &str, store_id: i64, warehouse: i64, n: usize) -> usize {
    let db = bo_kit::db::Db::connect(url).await.unwrap();
    let states = ["closed", "closed", "closed", "shipped", "new", "ready_to_fulfillment", "cancelled", "closed"];
    let stock = |s: &str| match s {
        "new" | "ready_to_fulfillment" => "held",
        "cancelled" => "released",
        _ => "committed",
    };
    let now = bo_kit::time::now_ms();
    let mut counts = std::collections::HashMap::new();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let mut tx = db.begin().await.unwrap();
        for &i in chunk {
            let st = states[i % states.len()];
            *counts.entry(st).or_insert(0i64) += 1;
            let at = now - 60_000 * (n - i) as i64;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO orders (store_id, order_no, channel, reference, state, payment_state, warehouse_id, ship_name, \
                 ship_tel, ship_address, ship_sub_district, ship_district, ship_state_province, ship_postcode, subtotal, \
                 discount_amount, net, shipping_charge, shipping_charge_inter, additional_fee, vat_amount, total, cost_total, \
                 net_ex_vat, profit, stock_state, stock_state_at, hold_revision, search_text, created_at, updated_at) \
                 VALUES ($1, $2, 'facebook', '', $3, 'unpaid', $4, 'ลูกค้า', '0812345678', '1 ถนนพระราม 9', 'ห้วยขวาง', \
                 'ห้วยขวาง', 'กรุงเทพมหานคร', '10310', 39800, 0, 39800, 4000, 0, 0, 2866, 43800, 24000, 37196, 13196, $5, $6, 1, \
                 $7, $6, $6) RETURNING id",
            )
            .bind(store_id)
            .bind(format!("SOB-{i:06}"))
            .bind(st)
            .bind(warehouse)
            .bind(stock(st))
            .bind(at)
            .bind(format!("sob-{i:06} ลูกค้า 0812345678"))
            .fetch_one(&mut *tx)
            .await
            .unwrap();
            for (k, sku) in [(0, 1_000_000 + i as i64), (1, 2_000_000 + i as i64)] {
                sqlx::query(
                    "INSERT INTO order_items (store_id, order_id, position, sku_id, product_id, product_name, product_code, \
                     sku_code, price, cost, warehouse_id, quantity, line_total) \
                     VALUES ($1, $2, $3, $4, 1, 'สินค้าทดสอบ', 'B', 'B-1', 19900, 12000, $5, 1, 19900)",
                )
                .bind(store_id)
                .bind(id)
                .bind(k)
                .bind(sku)
                .bind(warehouse)
                .execute(&mut *tx)
                .await
                .unwrap();
            }
        }
        tx.commit().await.unwrap();
    }
    for (st, c) in counts {
        sqlx::query(
            "INSERT INTO order_counts (store_id, state, n) VALUES ($1, $2, $3) \
             ON CONFLICT (store_id, state) DO UPDATE SET n = order_counts.n + excluded.n",
        )
        .bind(store_id)
        .bind(st)
        .bind(c)
        .execute(db.pool())
        .await
        .unwrap();
    }
    if db.dialect() == bo_kit::db::Dialect::Postgres {
        sqlx::query("VACUUM ANALYZE").execute(db.pool()).await.unwrap();
    } else {
        sqlx::query("ANALYZE").execute(db.pool()).await.unwrap();
    }
    db.close().await;
    n
}

/// A month-end bank statement of 5,000 transfers matched against 50,000 open bills (250
/// prices, so a line's amount has about 200 bills; a third of the lines name their order),
/// with `/healthz` asked every 20 ms meanwhile: the slowest answer is what everyone else
/// waits while the matching runs.
async fn reconcile_month(t: &Target, client: &reqwest::Client, warehouse: i64) {
    const BILLS: usize = 50_000;
    const LINES: usize = 5_000;
    let now = bo_kit::time::now_ms();
    let db = bo_kit::db::Db::connect(&t.orders_db).await.unwrap();
    let mut bills: Vec<(String, i64, i64)> = Vec::with_capacity(BILLS);
    for chunk in (0..BILLS).collect::<Vec<_>>().chunks(500) {
        let mut tx = db.begin().await.unwrap();
        for &i in chunk {
            let amount = 9_900 + 1_000 * (i % 250) as i64;
            let at = now - 86_400_000 * 10 + 17_000 * i as i64;
            let no = format!("SOR-{i:06}");
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO orders (store_id, order_no, channel, reference, state, payment_state, warehouse_id, ship_name, \
                 ship_tel, ship_address, ship_sub_district, ship_district, ship_state_province, ship_postcode, subtotal, \
                 discount_amount, net, shipping_charge, shipping_charge_inter, additional_fee, vat_amount, total, cost_total, \
                 net_ex_vat, profit, stock_state, stock_state_at, hold_revision, search_text, created_at, updated_at) \
                 VALUES ($1, $2, 'line', '', 'new', 'unpaid', $3, 'ลูกค้า ทดสอบ', '0812345678', '1 ถนนพระราม 9', \
                 'ห้วยขวาง', 'ห้วยขวาง', 'กรุงเทพมหานคร', '10310', $4, 0, $4, 0, 0, 0, 0, $4, 0, $4, 0, 'held', $5, 1, $2, \
                 $5, $5) RETURNING id",
            )
            .bind(t.store_id)
            .bind(&no)
            .bind(warehouse)
            .bind(amount)
            .bind(at)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
            sqlx::query(
                "INSERT INTO order_bills (store_id, order_id, warehouse_id, amount, token, state, expiry_type, on_expiry, \
                 created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'active', 'no_expiry', 'keep_new', $6, $6)",
            )
            .bind(t.store_id)
            .bind(id)
            .bind(warehouse)
            .bind(amount)
            .bind(format!("{:032x}", 0xbe00_0000_0000u64 + i as u64))
            .bind(at)
            .execute(&mut *tx)
            .await
            .unwrap();
            bills.push((no, amount, at));
        }
        tx.commit().await.unwrap();
    }
    db.close().await;
    let mut csv = String::from("\u{FEFF}วันที่,เวลา,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ,รายละเอียด\n");
    for i in 0..LINES {
        let (no, amount, at) = &bills[i * (BILLS / LINES)];
        let when = ::time::OffsetDateTime::from_unix_timestamp((at + 300_000) / 1000)
            .unwrap()
            .to_offset(::time::macros::offset!(+7));
        let text = if i % 3 == 0 {
            format!("โอนค่าสินค้า {no}")
        } else {
            format!("จาก ลูกค้า {i}")
        };
        csv.push_str(&format!(
            "{:02}/{:02}/{},{:02}:{:02},รับโอนเงิน,,{}.{:02},,{text}\n",
            when.day(),
            u8::from(when.month()),
            when.year() + 543,
            when.hour(),
            when.minute(),
            amount / 100,
            amount % 100
        ));
    }
    let root = t.api.trim_end_matches("/api").to_string();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = {
        let (done, client, root) = (done.clone(), client.clone(), root.clone());
        tokio::spawn(async move {
            let mut worst = Duration::ZERO;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let start = Instant::now();
                let r = client.get(format!("{root}/healthz")).send().await.unwrap();
                assert!(r.status().is_success());
                worst = worst.max(start.elapsed());
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            worst
        })
    };
    let start = Instant::now();
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(csv.into_bytes()).file_name("statement.csv"))
        .text("dry_run", "true")
        .text("choices", "[]");
    let r = client
        .post(format!("{}/orders/payments/reconcile", t.api))
        .bearer_auth(&t.token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let bytes = r.bytes().await.unwrap();
    let took = start.elapsed();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let worst = watch.await.unwrap();
    assert!(status.is_success(), "{status}: {}", String::from_utf8_lossy(&bytes[..bytes.len().min(500)]));
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let lines = v["data"]["lines"].as_array().map_or(0, Vec::len);
    let count = |st: &str| v["data"]["lines"].as_array().unwrap().iter().filter(|l| l["status"] == st).count();
    println!(
        "{:<34} {:>9.2} s     ({lines} lines × {BILLS} bills: {} confident, {} ambiguous; answer {} KB; \
         slowest /healthz meanwhile {} ms)",
        "POST /orders/payments/reconcile",
        took.as_secs_f64(),
        count("confident"),
        count("ambiguous"),
        bytes.len() / 1024,
        worst.as_millis()
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
        // Payments and logistics keep their SQLite files under the data folder: the bench only
        // reaches them through orders, but the gateway needs every service.
        .args(["--target", "stores,wms,products,payments,logistics,orders"])
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
    rt.block_on(async {
        println!(
            "{CLIENTS} concurrent clients, {REQUESTS_PER_CLIENT} requests each; {PRODUCTS} products with 2 SKUs each"
        );
        embedded().await;
        distributed().await;
    });
}
