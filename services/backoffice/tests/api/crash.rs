//! `kill -9` while writes flow: stores are opened (each must get its default warehouse
//! from an event) and stock is adjusted (the products service's inventory view must follow
//! the ledger from events). After a restart, every acknowledged write has its
//! consequences. Orders are made and cancelled in bulk while the process dies: every
//! acknowledged order and cancel is kept and the stock invariants hold once what was in
//! flight has settled. Embedded (SQLite and the log bus) with several seeds; distributed
//! (services killed, PostgreSQL and NATS running on) when configured.

use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bo_kit::testing::{self, Backend};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::process::{Child, Command};

use crate::helpers::{free_port, wait_ready};

const SECRET: &str = "a-shared-secret-of-at-least-32-bytes!";

/// A small deterministic generator, so a failing seed can be run again.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }
}

/// How to start the processes of one stack.
struct Stack {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
    http: u16,
    /// The distributed stack's services process, killed instead of the gateway.
    services_http: Option<u16>,
    _pg: Vec<testing::PgGuard>,
}

impl Stack {
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_backoffice"));
        cmd.args(args)
            .current_dir(self.dir.path())
            .env("BO_DATA_DIR", self.dir.path())
            .env("RUST_LOG", "error")
            .env("BO_DEMO__ENABLED", "true")
            .env("BO_DEMO__CATALOG", "false")
            .env("BO_AUTH__LOGIN_ATTEMPTS_PER_MINUTE", "100000")
            .envs(module_secrets())
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        cmd
    }

    /// Starts the process that gets killed (all, or the services).
    fn start_victim(&self) -> Child {
        match self.services_http {
            None => self
                .command(&["--target", "all"])
                .env("BO_HTTP__ADDR", format!("127.0.0.1:{}", self.http))
                .spawn()
                .unwrap(),
            Some(port) => self
                .command(&["--target", &service_targets()])
                .env("BO_HTTP__ADDR", format!("127.0.0.1:{port}"))
                .spawn()
                .unwrap(),
        }
    }

    fn victim_ready_url(&self) -> String {
        format!("http://127.0.0.1:{}/readyz", self.services_http.unwrap_or(self.http))
    }
}

async fn sign_in(client: &reqwest::Client, api: &str, email: &str, password: &str, store: i64) -> String {
    let v: Value = client
        .post(format!("{api}/auth/login"))
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let user = v["token"].as_str().unwrap_or_else(|| panic!("signed in as {email}: {v}")).to_string();
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
    v["token"].as_str().unwrap().to_string()
}

/// Opens a store with the admin command; its id when the command succeeded.
async fn open_store(stack: &Stack, n: usize) -> Option<i64> {
    let out = stack
        .command(&["admin", "create-owner", "--email", &format!("crash{n}@example.com"), "--store-name", "ร้านทดสอบ"])
        .env("BO_OWNER_PASSWORD", "crash-password")
        .stdout(Stdio::piped())
        .output()
        .await
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.split("store id ").nth(1)?.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()
}

async fn eventually<F: Fn(&Value) -> bool>(client: &reqwest::Client, url: &str, token: &str, ok: F) -> Value {
    let mut last = Value::Null;
    for _ in 0..300 {
        if let Ok(r) = client.get(url).bearer_auth(token).send().await {
            if r.status() == StatusCode::OK {
                last = r.json().await.unwrap_or(Value::Null);
                if ok(&last) {
                    return last;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} never became as expected; last answer {last}");
}

/// The units the ledger's movements put on hand (all SKUs, or those `filter` selects).
async fn on_hand_moved(client: &reqwest::Client, api: &str, token: &str, filter: &str) -> i64 {
    // "All" is answered a thousand at a time beyond a thousand: every page is read.
    let (mut sum, mut page, mut pages) = (0, 1, 1);
    while page <= pages {
        let moves: Value = client
            .get(format!("{api}/products/sku-inventories/moving-transactions?limit=-1&page={page}{filter}"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        sum += moves["data"].as_array().unwrap().iter().map(|m| m["quantity"].as_i64().unwrap()).sum::<i64>();
        pages = moves["pages"].as_i64().unwrap_or(1);
        page += 1;
    }
    sum
}

/// Starts the stack's processes: the one that gets killed, and (distributed) the gateway.
async fn start_processes(stack: &Stack, client: &reqwest::Client) -> (Child, Option<Child>) {
    let mut victim = stack.start_victim();
    wait_ready(client, &stack.victim_ready_url(), &mut victim).await;
    let gateway = match stack.services_http {
        Some(_) => {
            let mut g = stack
                .command(&["--target", "gateway"])
                .env("BO_HTTP__ADDR", format!("127.0.0.1:{}", stack.http))
                .spawn()
                .unwrap();
            wait_ready(client, &format!("http://127.0.0.1:{}/readyz", stack.http), &mut g).await;
            Some(g)
        }
        None => None,
    };
    (victim, gateway)
}

async fn crash_and_recover(stack: Stack, seed: u64) {
    let mut rng = Lcg(seed);
    let client = reqwest::Client::new();
    let api = format!("http://127.0.0.1:{}/api", stack.http);
    let (mut victim, mut gateway) = start_processes(&stack, &client).await;
    let first = open_store(&stack, 0).await.expect("the first store opens");
    let owner = sign_in(&client, &api, "crash0@example.com", "crash-password", first).await;
    let warehouse = eventually(&client, &format!("{api}/wms/warehouses"), &owner, |v| v["total"] == 1).await["data"][0]
        ["id"]
        .as_i64()
        .unwrap();
    // Three products whose SKUs the stock ledger knows of.
    let mut skus = Vec::new();
    for i in 0..3 {
        let body = json!({"name": format!("สินค้า {i}"), "short_description": "ทดสอบ", "code": format!("C-{i}"),
            "category_id": 1, "price": "10.00", "cost": "5.00", "tags": ["t"], "skus": [{}]});
        let p: Value = client
            .post(format!("{api}/products"))
            .bearer_auth(&owner)
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        skus.push(p["skus"][0]["id"].as_i64().unwrap());
    }
    for sku in &skus {
        let adjust = json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": 1, "reason": "เริ่มต้น"});
        for _ in 0..100 {
            let r =
                client.post(format!("{api}/wms/goods-adjust")).bearer_auth(&owner).json(&adjust).send().await.unwrap();
            if r.status() == StatusCode::CREATED {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    // Writes flow from two writers until the kill.
    let stop = Arc::new(AtomicBool::new(false));
    let stores_opened = Arc::new(Mutex::new(Vec::new()));
    let adjusted = Arc::new(Mutex::new(0usize));
    let stack = Arc::new(stack);
    let opener = {
        let (stop, opened, stack) = (stop.clone(), stores_opened.clone(), stack.clone());
        tokio::spawn(async move {
            let mut n = 1;
            while !stop.load(Ordering::SeqCst) {
                if let Some(id) = open_store(&stack, n).await {
                    opened.lock().unwrap().push((n, id));
                }
                n += 1;
            }
        })
    };
    let adjuster = {
        let (stop, adjusted, client, api, owner, skus) =
            (stop.clone(), adjusted.clone(), client.clone(), api.clone(), owner.clone(), skus.clone());
        tokio::spawn(async move {
            let mut i = 0usize;
            while !stop.load(Ordering::SeqCst) {
                let adjust = json!({"warehouse_id": warehouse, "sku_id": skus[i % skus.len()], "quantity": 1, "reason": "รับเพิ่ม"});
                let sent = client
                    .post(format!("{api}/wms/goods-adjust"))
                    .bearer_auth(&owner)
                    .header("Idempotency-Key", format!("crash-{seed}-{i}"))
                    .json(&adjust)
                    .send()
                    .await;
                if sent.is_ok_and(|r| r.status() == StatusCode::CREATED) {
                    *adjusted.lock().unwrap() += 1;
                }
                i += 1;
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(300 + rng.next(2200))).await;
    victim.start_kill().unwrap();
    let _ = victim.wait().await;
    stop.store(true, Ordering::SeqCst);
    let _ = opener.await;
    let _ = adjuster.await;

    // Restart and check every acknowledged write's consequences.
    let mut victim = stack.start_victim();
    wait_ready(&client, &stack.victim_ready_url(), &mut victim).await;
    let opened = stores_opened.lock().unwrap().clone();
    for (n, store) in &opened {
        let t = sign_in(&client, &api, &format!("crash{n}@example.com"), "crash-password", *store).await;
        eventually(&client, &format!("{api}/wms/warehouses"), &t, |v| {
            v["total"] == 1 && v["data"][0]["is_default"] == true
        })
        .await;
    }
    let acknowledged = *adjusted.lock().unwrap();
    // The ledger holds at least every acknowledged unit (a write may commit and lose its answer).
    let ledger = on_hand_moved(&client, &api, &owner, "").await;
    assert!(ledger >= (acknowledged + skus.len()) as i64, "ledger {ledger}, acknowledged {acknowledged}");
    // The inventory view equals the ledger, SKU by SKU.
    let mut per_sku = std::collections::HashMap::new();
    for sku in &skus {
        per_sku.insert(*sku, on_hand_moved(&client, &api, &owner, &format!("&sku-id={sku}")).await);
    }
    eventually(&client, &format!("{api}/products/sku-inventories?limit=-1"), &owner, |v| {
        v["data"].as_array().is_some_and(|rows| {
            per_sku.iter().all(|(sku, on_hand)| {
                rows.iter().any(|r| r["sku_id"] == *sku && r["inventory"]["quantity"].as_i64() == Some(*on_hand))
            })
        })
    })
    .await;
    eprintln!(
        "seed {seed}: {} stores and {acknowledged} adjustments acknowledged before the kill; all kept",
        opened.len()
    );
    let _ = victim.start_kill();
    if let Some(g) = gateway.as_mut() {
        let _ = g.start_kill();
    }
}

fn embedded() -> Stack {
    Stack {
        dir: tempfile::tempdir().unwrap(),
        env: Vec::new(),
        http: free_port(),
        services_http: None,
        _pg: Vec::new(),
    }
}

macro_rules! seeds {
    ($($name:ident = $seed:literal),* $(,)?) => {
        $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            crash_and_recover(embedded(), $seed).await;
        })*
    };
}

seeds!(
    kill_all_seed_1 = 1,
    kill_all_seed_2 = 2,
    kill_all_seed_3 = 3,
    kill_all_seed_4 = 4,
    kill_all_seed_5 = 5,
    kill_all_seed_6 = 6,
    kill_all_seed_7 = 7,
    kill_all_seed_8 = 8,
    kill_all_seed_9 = 9,
    kill_all_seed_10 = 10,
);

/// The distributed stack: every service in one process on PostgreSQL, the gateway in
/// another, NATS between them; None when they are not configured.
async fn distributed() -> Option<Stack> {
    let nats = testing::backend_url(Backend::Nats)?;
    let mut env = vec![
        ("BO_BUS__NATS_URL".to_string(), nats),
        ("BO_BUS__PREFIX".to_string(), testing::unique_prefix()),
        ("BO_AUTH__JWT_SECRET".to_string(), SECRET.to_string()),
    ];
    let files = tempfile::tempdir().unwrap();
    env.push(("BO_FILES__URL".into(), format!("file://{}", files.path().display())));
    let mut guards = Vec::new();
    for svc in service_modules() {
        let (url, guard) = testing::postgres_url().await?;
        env.push((format!("BO_SERVICES__{}__DATABASE_URL", svc.to_uppercase()), url));
        guards.push(guard);
    }
    let grpc = free_port();
    env.push(("BO_GRPC__ADDR".into(), format!("127.0.0.1:{grpc}")));
    for svc in service_modules().iter().map(|s| s.to_uppercase()) {
        env.push((format!("BO_SERVICES__{svc}__ADDR"), format!("http://127.0.0.1:{grpc}")));
    }
    Some(Stack {
        dir: tempfile::tempdir().unwrap(),
        env,
        http: free_port(),
        services_http: Some(free_port()),
        _pg: guards,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_the_services_while_nats_runs_on() {
    let Some(stack) = distributed().await else { return };
    crash_and_recover(stack, 42).await;
}

/// The stack's wms and orders databases (for the stock check after the kill).
/// The database URL of a service of the stack.
fn database(stack: &Stack, svc: &str) -> String {
    stack
        .env
        .iter()
        .find(|(k, _)| k == &format!("BO_SERVICES__{}__DATABASE_URL", svc.to_uppercase()))
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| format!("sqlite://{}", stack.dir.path().join(format!("{svc}.db")).display()))
}

/// `backoffice admin check-stock` on the stack's databases, asked again every half second
/// (up to `tries` times) while what was in flight settles: what it said was broken, or
/// nothing once the invariants hold.
async fn settled_stock(stack: &Stack, tries: usize) -> String {
    let mut said = String::new();
    for _ in 0..tries {
        let out = stack
            .command(&["admin", "check-stock"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .await
            .expect("backoffice admin check-stock runs");
        if out.status.success() {
            return String::new();
        }
        said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    said
}

/// `kill -9` in the middle of bulk cancels while orders are being made: after a restart
/// every acknowledged order exists, every acknowledged cancel is cancelled with its stock
/// back, and the stock invariants hold once the reconciler has settled what was in flight.
async fn kill_in_the_middle_of_bulk_actions(stack: Stack, seed: u64) {
    let mut rng = Lcg(seed);
    let client = reqwest::Client::new();
    let api = format!("http://127.0.0.1:{}/api", stack.http);
    let (mut victim, mut gateway) = start_processes(&stack, &client).await;
    let store = open_store(&stack, 0).await.expect("the store opens");
    let owner = sign_in(&client, &api, "crash0@example.com", "crash-password", store).await;
    let warehouse = eventually(&client, &format!("{api}/wms/warehouses"), &owner, |v| v["total"] == 1).await["data"][0]
        ["id"]
        .as_i64()
        .unwrap();
    let p: Value = client
        .post(format!("{api}/products"))
        .bearer_auth(&owner)
        .json(&json!({"name": "สินค้า", "short_description": "ทดสอบ", "code": "O-1", "category_id": 1, "price": "10.00",
            "cost": "5.00", "tags": ["t"], "skus": [{}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let sku = p["skus"][0]["id"].as_i64().unwrap();
    let adjust = json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": 1000, "reason": "เริ่มต้น"});
    for _ in 0..100 {
        let r = client.post(format!("{api}/wms/goods-adjust")).bearer_auth(&owner).json(&adjust).send().await.unwrap();
        if r.status() == StatusCode::CREATED {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let body = json!({"channel": "facebook", "warehouse_id": warehouse, "items": [{"sku_id": sku, "quantity": 1}],
        "shipping_address": {"name": "ก", "tel": "0812345678", "address": "1", "sub_district": "ก", "district": "ข",
            "state_province": "ค", "postcode": "10110"}});
    let create = |client: reqwest::Client, api: String, owner: String, body: Value| async move {
        let r = client.post(format!("{api}/orders")).bearer_auth(&owner).json(&body).send().await.ok()?;
        if r.status() != StatusCode::CREATED {
            return None;
        }
        r.json::<Value>().await.ok()?["id"].as_i64()
    };
    let mut first = Vec::new();
    for _ in 0..240 {
        first.push(create(client.clone(), api.clone(), owner.clone(), body.clone()).await.expect("an order"));
    }

    // Bulk cancels of 40 at a time, and new orders, until the kill.
    let stop = Arc::new(AtomicBool::new(false));
    let cancelled = Arc::new(Mutex::new(Vec::new()));
    let made = Arc::new(Mutex::new(Vec::new()));
    let canceller = {
        let (stop, cancelled, client, api, owner, ids) =
            (stop.clone(), cancelled.clone(), client.clone(), api.clone(), owner.clone(), first.clone());
        tokio::spawn(async move {
            for chunk in ids.chunks(40) {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(r) = client
                    .post(format!("{api}/orders/cancel"))
                    .bearer_auth(&owner)
                    .json(&json!({"ids": chunk}))
                    .send()
                    .await
                else {
                    break;
                };
                let Ok(v) = r.json::<Value>().await else { break };
                for row in v["data"].as_array().cloned().unwrap_or_default() {
                    if row["ok"] == true {
                        cancelled.lock().unwrap().push(row["id"].as_i64().unwrap());
                    }
                }
            }
        })
    };
    let maker = {
        let (stop, made, client, api, owner, body) =
            (stop.clone(), made.clone(), client.clone(), api.clone(), owner.clone(), body.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                if let Some(id) = create(client.clone(), api.clone(), owner.clone(), body.clone()).await {
                    made.lock().unwrap().push(id);
                }
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(20 + rng.next(400))).await;
    victim.start_kill().unwrap();
    let _ = victim.wait().await;
    stop.store(true, Ordering::SeqCst);
    let _ = canceller.await;
    let _ = maker.await;

    let mut victim = stack.start_victim();
    wait_ready(&client, &stack.victim_ready_url(), &mut victim).await;
    let cancelled = cancelled.lock().unwrap().clone();
    let made = made.lock().unwrap().clone();
    for id in &cancelled {
        eventually(&client, &format!("{api}/orders/{id}"), &owner, |v| v["state"] == "cancelled").await;
    }
    for id in &made {
        eventually(&client, &format!("{api}/orders/{id}"), &owner, |v| v["id"] == *id).await;
    }
    // What was in flight settles (the reconciler asks wms again after a few seconds), and
    // then the ledger and the orders agree.
    let broken = settled_stock(&stack, 60).await;
    assert!(broken.is_empty(), "seed {seed}: {broken}");
    eprintln!(
        "seed {seed}: {} cancels and {} new orders acknowledged before the kill; all kept, stock consistent",
        cancelled.len(),
        made.len()
    );
    let _ = victim.start_kill();
    if let Some(g) = gateway.as_mut() {
        let _ = g.start_kill();
    }
}

macro_rules! bulk_seeds {
    ($($name:ident = $seed:literal),* $(,)?) => {
        $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            kill_in_the_middle_of_bulk_actions(embedded(), $seed).await;
        })*
    };
}

bulk_seeds!(kill_mid_bulk_seed_1 = 1, kill_mid_bulk_seed_2 = 2, kill_mid_bulk_seed_3 = 3);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_the_orders_service_mid_bulk_while_nats_runs_on() {
    let Some(stack) = distributed().await else { return };
    kill_in_the_middle_of_bulk_actions(stack, 7).await;
}

/// A value for every module's own secret setting (a module running apart refuses to start
/// without it): 64 hex digits.
fn module_secrets() -> Vec<(String, String)> {
    bo_backoffice::modules()
        .iter()
        .flat_map(|m| m.secrets().into_iter().map(move |k| (m.name(), k)))
        .map(|(m, k)| (format!("BO_SERVICES__{}__{}", m.to_uppercase(), k.to_uppercase()), "ab".repeat(32)))
        .collect()
}

/// Every service module (all but the gateway).
fn service_modules() -> Vec<&'static str> {
    bo_backoffice::modules().iter().map(|m| m.name()).filter(|n| *n != "gateway").collect()
}

/// Every service module, as a `--target` list.
fn service_targets() -> String {
    service_targets_but("")
}

/// Every service module but `except`, as a `--target` list.
fn service_targets_but(except: &str) -> String {
    service_modules().into_iter().filter(|n| *n != except).collect::<Vec<_>>().join(",")
}

/// Sets a command to find the services in `services` and orders in `orders`, with the bill
/// expiry looking every 100 ms.
fn neighbours(cmd: &mut Command, services: u16, orders: u16) -> &mut Command {
    for svc in service_modules().into_iter().filter(|n| *n != "orders") {
        cmd.env(format!("BO_SERVICES__{}__ADDR", svc.to_uppercase()), format!("http://127.0.0.1:{services}"));
    }
    cmd.env("BO_SERVICES__ORDERS__ADDR", format!("http://127.0.0.1:{orders}"))
        .env("BO_SERVICES__ORDERS__BILL_EXPIRY_EVERY_MS", "100")
}

/// Two orders processes on one orders database, both running the bill expiry every 100 ms
/// (their lease lasts as long, so they take turns and sometimes overlap): every due bill
/// expires once, its order is cancelled once, and its stock comes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bills_expire_once_with_two_orders_processes() {
    let Some(stack) = distributed().await else { return };
    let client = reqwest::Client::new();
    let api = format!("http://127.0.0.1:{}/api", stack.http);
    let (services, first, second) = (free_port(), free_port(), free_port());
    let mut others = neighbours(&mut stack.command(&["--target", &service_targets_but("orders")]), services, first)
        .env("BO_GRPC__ADDR", format!("127.0.0.1:{services}"))
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{}", stack.services_http.unwrap()))
        .spawn()
        .unwrap();
    wait_ready(&client, &stack.victim_ready_url(), &mut others).await;
    let mut replicas = Vec::new();
    for grpc in [first, second] {
        let http = free_port();
        let mut p = neighbours(&mut stack.command(&["--target", "orders"]), services, grpc)
            .env("BO_GRPC__ADDR", format!("127.0.0.1:{grpc}"))
            .env("BO_HTTP__ADDR", format!("127.0.0.1:{http}"))
            .spawn()
            .unwrap();
        wait_ready(&client, &format!("http://127.0.0.1:{http}/readyz"), &mut p).await;
        replicas.push(p);
    }
    let mut gateway = neighbours(&mut stack.command(&["--target", "gateway"]), services, first)
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{}", stack.http))
        .spawn()
        .unwrap();
    wait_ready(&client, &format!("http://127.0.0.1:{}/readyz", stack.http), &mut gateway).await;

    let store = open_store(&stack, 9).await.expect("the store opens");
    let owner = sign_in(&client, &api, "crash9@example.com", "crash-password", store).await;
    let warehouse = eventually(&client, &format!("{api}/wms/warehouses"), &owner, |v| v["total"] == 1).await["data"][0]
        ["id"]
        .as_i64()
        .unwrap();
    let post = |path: &str, body: Value| {
        let r = client.post(format!("{api}{path}")).bearer_auth(&owner).json(&body).send();
        async move {
            let r = r.await.unwrap();
            let s = r.status();
            (s, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (s, p) = post(
        "/products",
        json!({"name": "สินค้า", "short_description": "ทดสอบ", "code": "E-1", "category_id": 1, "price": "10.00",
            "cost": "5.00", "tags": ["t"], "skus": [{}]}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let sku = p["skus"][0]["id"].as_i64().unwrap();
    let adjust = json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": 100, "reason": "เริ่มต้น"});
    for _ in 0..100 {
        if post("/wms/goods-adjust", adjust.clone()).await.0 == StatusCode::CREATED {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (s, v) = post(
        "/stores/settings/bill-expire",
        json!({"expiry_type": "by_time", "hours": 0, "minutes": 1, "on_expiry": "cancel_order"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let body = json!({"channel": "facebook", "warehouse_id": warehouse, "items": [{"sku_id": sku, "quantity": 2}],
        "shipping_address": {"name": "ก", "tel": "0812345678", "address": "1", "sub_district": "ก", "district": "ข",
            "state_province": "ค", "postcode": "10110"}});
    let mut ids = Vec::new();
    for _ in 0..30 {
        let (s, o) = post("/orders", body.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{o}");
        ids.push(o["id"].as_i64().unwrap());
    }
    // Time passes for every bill at once.
    let orders_db = database(&stack, "orders");
    let db = bo_kit::db::Db::connect(&orders_db).await.unwrap();
    sqlx::query("UPDATE order_bills SET expires_at = $1")
        .bind(bo_kit::time::now_ms() - 1_000)
        .execute(db.pool())
        .await
        .unwrap();
    for id in &ids {
        eventually(&client, &format!("{api}/orders/{id}"), &owner, |v| {
            v["state"] == "cancelled" && v["stock_state"] == "released"
        })
        .await;
    }
    // More rounds of both replicas pass; then each order shows one expiry and one cancel.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT action, COUNT(*) FROM order_events WHERE action IN ('bill_expired', 'cancelled') GROUP BY action ORDER BY action",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    assert_eq!(rows, vec![("bill_expired".to_string(), 30), ("cancelled".to_string(), 30)]);
    let per_order: Vec<(i64,)> = sqlx::query_as(
        "SELECT COUNT(*) FROM order_events WHERE action = 'bill_expired' GROUP BY order_id HAVING COUNT(*) > 1",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    assert!(per_order.is_empty(), "an order's bill expired twice: {per_order:?}");
    db.close().await;
    let broken = settled_stock(&stack, 20).await;
    assert!(broken.is_empty(), "{broken}");
    let moved = on_hand_moved(&client, &api, &owner, "").await;
    assert_eq!(moved, 100, "nothing left the shelf");
    let lots =
        eventually(&client, &format!("{api}/wms/stock-lots?limit=-1"), &owner, |v| v["total"].as_i64() > Some(0)).await;
    let reserved: i64 = lots["data"].as_array().unwrap().iter().map(|l| l["reserved"].as_i64().unwrap()).sum();
    assert_eq!(reserved, 0, "every unit came back: {lots}");
    for mut p in replicas {
        let _ = p.start_kill();
    }
    let _ = others.start_kill();
    let _ = gateway.start_kill();
}

/// `kill -9` while an open-API channel's webhooks go out (its endpoint slow, so deliveries
/// are mid-flight when the process dies): after the restart, every order the integrator was
/// told was made reaches the endpoint, verified by `standardwebhooks`, under one webhook-id
/// (an attempt the kill cut short is sent again with the same id, never as another message).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_while_webhooks_go_out() {
    let Some(rx) = crate::webhooks::Receiver::start().await else { return };
    let mut stack = embedded();
    stack.env.push(("BO_SERVICES__MARKETPLACES__WEBHOOK_POLL_MS".into(), "50".into()));
    let client = reqwest::Client::new();
    let api = format!("http://127.0.0.1:{}/api", stack.http);
    let (mut victim, _) = start_processes(&stack, &client).await;
    let store = open_store(&stack, 0).await.expect("the store opens");
    let owner = sign_in(&client, &api, "crash0@example.com", "crash-password", store).await;
    let w = eventually(&client, &format!("{api}/wms/warehouses"), &owner, |v| v["total"] == 1).await["data"][0]["id"]
        .as_i64()
        .unwrap();
    let post = |path: &str, token: &str, body: Value| {
        let r = client.post(format!("{api}{path}")).bearer_auth(token).json(&body).send();
        async move {
            let r = r.await.unwrap();
            let s = r.status();
            (s, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let body = json!({"name": "สินค้า", "short_description": "ทดสอบ", "code": "HOOK-K", "category_id": 1,
        "price": "10.00", "cost": "5.00", "tags": ["t"], "skus": [{"code": "HOOK-K1"}]});
    let (s, p) = post("/products", &owner, body).await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let sku = p["skus"][0]["id"].as_i64().unwrap();
    let adjust = json!({"warehouse_id": w, "sku_id": sku, "quantity": 1000, "reason": "เริ่มต้น"});
    for _ in 0..100 {
        if post("/wms/goods-adjust", &owner, adjust.clone()).await.0 == StatusCode::CREATED {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, pay) = post(
        "/payments/store-channels",
        &owner,
        json!({"channel_type": "cod", "acc_name": "COD", "acc_no": "1234567890"}),
    )
    .await;
    let (_, ship) = post(
        "/logistics/store-channels",
        &owner,
        json!({"warehouse_id": w, "logistic_type": "domestic", "name": "Flash", "provider_name": "flash", "pricing_method": "flat", "price": "30"}),
    )
    .await;
    let (_, key) = post("/open-api/store-channels/generate-key", &owner, json!({})).await;
    let (s, ch) = post(
        "/open-api/store-channels",
        &owner,
        json!({"name": "เว็บไซต์", "channel": "website", "warehouse_id": w, "logistic_channel_id": ship["id"],
            "payment_channel_id": pay["id"], "key_id": key["key_id"], "webhook_url": rx.url("k"), "events": ["order.created"]}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{ch}");
    let whole: Value = client
        .get(format!("{api}/open-api/store-channels/{}", ch["id"]))
        .bearer_auth(&owner)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    rx.control("k", json!({"secret": whole["webhook_secret"], "delay": 0.2})).await;
    let key = key["key"].as_str().unwrap().to_string();

    // Orders flow in through the integrator's API; the process dies in the middle.
    let made = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (made, stop, client, api, key) = (made.clone(), stop.clone(), client.clone(), api.clone(), key.clone());
        tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::SeqCst) {
                n += 1;
                let r = client
                    .post(format!("{api}/open-api/v1/orders"))
                    .bearer_auth(&key)
                    .json(&json!({"reference": format!("K-{n}"), "cod": true, "address": crate::orders::address(),
                        "lines": [{"sku_code": "HOOK-K1", "quantity": 1, "unit_price_satang": 1000}]}))
                    .send()
                    .await;
                if let Ok(r) = r {
                    if r.status() == StatusCode::CREATED {
                        if let Ok(o) = r.json::<Value>().await {
                            made.lock().unwrap().push(o["id"].as_i64().unwrap());
                        }
                    }
                }
            }
        })
    };
    let started = std::time::Instant::now();
    while made.lock().unwrap().len() < 20 && started.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    victim.start_kill().unwrap();
    let _ = victim.wait().await;
    stop.store(true, Ordering::SeqCst);
    writer.await.unwrap();
    let made: Vec<i64> = made.lock().unwrap().clone();
    assert!(made.len() >= 20, "only {} orders were made before the kill", made.len());
    let before = rx.received("k").await.0.len();
    assert!(before < made.len(), "every order was told before the kill ({before}): nothing was in flight");

    let (mut victim, _) = start_processes(&stack, &client).await;
    let seen = rx
        .until("k", "every order made", |s| {
            made.iter().all(|id| s.iter().any(|m| m["data"]["order_id"].as_i64() == Some(*id)))
        })
        .await;
    let mut ids_of: std::collections::HashMap<i64, std::collections::HashSet<String>> = Default::default();
    for m in &seen {
        ids_of.entry(m["data"]["order_id"].as_i64().unwrap()).or_default().insert(m["id"].as_str().unwrap().into());
    }
    assert!(ids_of.values().all(|ids| ids.len() == 1), "an order was told under two webhook-ids: {ids_of:?}");
    assert_eq!(rx.received("k").await.1, 0, "a delivery failed its signature");
    let _ = victim.start_kill();
}
