//! Webhooks out at load (issue 28), embedded. 1,000 stock changes a second for ten seconds
//! (wms Reserve of one unit of two of 2,000 SKUs per call), every SKU linked in ten open-API
//! channels whose endpoints are told `stock.changed`, and an eleventh endpoint answering in
//! 10 s: for each change and each of the ten endpoints, the time from the change's call
//! returning to the endpoint holding a level at or past it (p50, p95, p99, the slowest, and
//! any never told). Then, once every endpoint is told, the integrator API's order create
//! (8 clients, 2 lines) beside POST /orders in the same process (the thousands of orders'
//! events would otherwise still be taken in while the fan-out is measured).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bo_backoffice::config::Config;
use bo_kit::config::Secret;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use serde_json::{json, Value};

use super::{run_with, sign_in};

const ENDPOINTS: usize = 10;
const SKUS: usize = 2_000;
const RATE: usize = 1_000;
const SECONDS: usize = 10;
const SLOW: Duration = Duration::from_secs(10);
const UNITS: i64 = 1_000_000;

/// What an endpoint was told: when, and each SKU's level.
type Told = Arc<Mutex<Vec<(Instant, Vec<(i64, i64)>)>>>;

/// An endpoint on a port of its own that answers 200 after `delay`, keeping what it was told.
async fn endpoint(delay: Duration) -> (String, Told) {
    let told: Told = Arc::default();
    let keep = told.clone();
    let app = axum::Router::new().route(
        "/",
        axum::routing::post(move |body: axum::body::Bytes| {
            let keep = keep.clone();
            async move {
                let at = Instant::now();
                if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                    if v["type"] == "stock.changed" {
                        let items = v["data"]["items"]
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .map(|i| (i["sku_id"].as_i64().unwrap_or(0), i["available"].as_i64().unwrap_or(0)))
                                    .collect()
                            })
                            .unwrap_or_default();
                        keep.lock().unwrap().push((at, items));
                    }
                }
                tokio::time::sleep(delay).await;
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://127.0.0.1:{}/", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, told)
}

fn pct(v: &[Duration], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let i = ((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1;
    v[i].as_secs_f64() * 1e3
}

pub async fn webhooks() {
    println!("\n== webhooks out, target=all (SQLite, log bus): {ENDPOINTS} endpoints and one answering in 10 s");
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        data_dir: dir.path().to_path_buf(),
        http: bo_backoffice::config::HttpConfig { addr: "127.0.0.1:0".into(), ..Default::default() },
        demo: bo_backoffice::config::DemoConfig {
            enabled: true,
            email: "bench@example.com".into(),
            password: Secret::new("bench-password"),
            catalog: false,
            ..Default::default()
        },
        auth: bo_backoffice::config::AuthConfig {
            login_attempts_per_minute: 1000,
            api_requests_per_minute: 10_000_000,
            ..Default::default()
        },
        ..Default::default()
    };
    let launched = bo_backoffice::app::launch(cfg, bo_backoffice::resolve("all").unwrap()).await.unwrap();
    let api = format!("http://{}/api", launched.http_addr);
    let store_id = launched.demo.as_ref().unwrap().store_id;
    let client = reqwest::Client::builder().pool_max_idle_per_host(64).build().unwrap();
    let (token, user_id) = sign_in(&api, &client, "bench@example.com", "bench-password", store_id).await;
    let call = |method: reqwest::Method, path: String, bearer: String, body: Value| {
        let req = client.request(method, format!("{api}{path}")).bearer_auth(bearer).json(&body);
        async move {
            let r = req.send().await.unwrap();
            let s = r.status();
            (s, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let mut w = None;
    for _ in 0..150 {
        w = call(reqwest::Method::GET, "/wms/warehouses".into(), token.clone(), Value::Null).await.1["data"][0]["id"]
            .as_i64();
        if w.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let w = w.expect("a warehouse");

    // 2,000 SKUs with plenty of stock.
    let (_, cats) = call(reqwest::Method::GET, "/products/categories".into(), token.clone(), Value::Null).await;
    let category = cats["data"][0]["id"].clone();
    let made = Arc::new(Mutex::new(HashMap::new()));
    let tasks: Vec<_> = (0..16)
        .map(|c| {
            let (client, api, token, category, made) =
                (client.clone(), api.clone(), token.clone(), category.clone(), made.clone());
            tokio::spawn(async move {
                for i in (c..SKUS + 2).step_by(16) {
                    let code = format!("WH-{i}");
                    let body = json!({"code": code, "name": code, "short_description": code, "category_id": category,
                        "price": "100", "cost": "50", "tags": ["bench"], "skus": [{"code": code}]});
                    let p: Value = client
                        .post(format!("{api}/products"))
                        .bearer_auth(&token)
                        .json(&body)
                        .send()
                        .await
                        .unwrap()
                        .json()
                        .await
                        .unwrap();
                    made.lock().unwrap().insert(i, p["skus"][0]["id"].as_i64().expect("a SKU"));
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let skus: Vec<i64> = {
        let m = made.lock().unwrap();
        (0..SKUS + 2).map(|i| m[&i]).collect()
    };
    let ctx = launched.identity().acting(store_id, user_id);
    let mut wms: WmsServiceClient<_> = launched.clients.client(WmsServiceClient::new).unwrap();
    for chunk in skus.chunks(500) {
        let lines = chunk
            .iter()
            .map(|s| wpb::StockLine { warehouse_id: w, sku_id: *s, quantity: UNITS, ..Default::default() })
            .collect();
        // The ledger learns of new SKUs from the catalog's events: try until it knows them.
        let mut tries = 0;
        while let Err(e) = wms
            .receive(ctx.request(wpb::ReceiveRequest {
                reference: format!("wh-stock-{}", chunk[0]),
                lines: Vec::clone(&lines),
            }))
            .await
        {
            tries += 1;
            assert!(tries < 300, "stock for the webhooks: {e}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    let (_, pay) = call(
        reqwest::Method::POST,
        "/payments/store-channels".into(),
        token.clone(),
        json!({"channel_type": "cod", "acc_name": "COD", "acc_no": "1234567890"}),
    )
    .await;
    let (_, ship) = call(
        reqwest::Method::POST,
        "/logistics/store-channels".into(),
        token.clone(),
        json!({"warehouse_id": w, "logistic_type": "domestic", "name": "Flash", "provider_name": "flash", "pricing_method": "flat", "price": "30"}),
    )
    .await;
    // Eleven channels, each its endpoint, every SKU linked in each.
    let mut told = Vec::new();
    let mut keys = Vec::new();
    for e in 0..=ENDPOINTS {
        let (url, seen) = endpoint(if e == ENDPOINTS { SLOW } else { Duration::ZERO }).await;
        let (_, key) =
            call(reqwest::Method::POST, "/open-api/store-channels/generate-key".into(), token.clone(), json!({})).await;
        let (s, ch) = call(
            reqwest::Method::POST,
            "/open-api/store-channels".into(),
            token.clone(),
            json!({"name": format!("ปลายทาง {e}"), "channel": "website", "warehouse_id": w, "logistic_channel_id": ship["id"],
                "payment_channel_id": pay["id"], "key_id": key["key_id"], "webhook_url": url, "events": ["stock.changed"]}),
        )
        .await;
        assert!(s.is_success(), "{ch}");
        let key = key["key"].as_str().unwrap().to_string();
        for chunk in (0..SKUS).collect::<Vec<_>>().chunks(500) {
            let links: Vec<Value> =
                chunk.iter().map(|i| json!({"external_id": format!("ext-{i}"), "sku_id": skus[*i]})).collect();
            let (s, v) =
                call(reqwest::Method::POST, "/open-api/v1/sku-links".into(), key.clone(), json!({"links": links}))
                    .await;
            assert!(s.is_success(), "{v}");
        }
        told.push(seen);
        keys.push(key);
    }

    // 1,000 changes a second: a call every 2 ms reserving one unit of two SKUs, 16 callers.
    let calls = RATE * SECONDS / 2;
    let changes: Arc<Mutex<Vec<(i64, i64, Instant)>>> = Arc::new(Mutex::new(Vec::with_capacity(RATE * SECONDS)));
    let start = Instant::now() + Duration::from_millis(200);
    let tasks: Vec<_> = (0..16)
        .map(|c| {
            let (wms, ctx, skus, changes) = (wms.clone(), ctx.clone(), skus.clone(), changes.clone());
            tokio::spawn(async move {
                let mut wms = wms;
                for k in (c..calls).step_by(16) {
                    tokio::time::sleep_until((start + Duration::from_micros(2_000 * k as u64)).into()).await;
                    let (a, b) = ((2 * k) % SKUS, (2 * k + 1) % SKUS);
                    let lines = [a, b]
                        .iter()
                        .map(|i| wpb::StockLine {
                            warehouse_id: w,
                            sku_id: skus[*i],
                            quantity: 1,
                            ..Default::default()
                        })
                        .collect();
                    let r = wms.reserve(ctx.request(wpb::ReserveRequest { reference: format!("wh-{k}"), lines })).await;
                    let done = Instant::now();
                    if r.is_ok() {
                        // Each SKU is reserved once a round of 2,000 changes: its level after this one.
                        let level = UNITS - ((2 * k) / SKUS) as i64 - 1;
                        let mut ch = changes.lock().unwrap();
                        ch.push((skus[a], level, done));
                        ch.push((skus[b], level, done));
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let made_in = start.elapsed();
    let changes = changes.lock().unwrap().clone();
    // Every endpoint told every change (or 60 s gone).
    let deadline = Instant::now() + Duration::from_secs(60);
    let latencies = loop {
        let mut lat = Vec::with_capacity(changes.len() * ENDPOINTS);
        let mut missing = 0usize;
        for seen in told.iter().take(ENDPOINTS) {
            // Per SKU, each time it was told and the level.
            let mut by_sku: HashMap<i64, Vec<(Instant, i64)>> = HashMap::new();
            for (at, items) in seen.lock().unwrap().iter() {
                for (sku, level) in items {
                    by_sku.entry(*sku).or_default().push((*at, *level));
                }
            }
            for (sku, level, done) in &changes {
                match by_sku.get(sku).and_then(|v| v.iter().filter(|(_, l)| l <= level).map(|(at, _)| *at).min()) {
                    Some(at) => lat.push(at.saturating_duration_since(*done)),
                    None => missing += 1,
                }
            }
        }
        if missing == 0 || Instant::now() > deadline {
            break (lat, missing);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let (mut lat, missing) = latencies;
    lat.sort();
    let messages: usize = told.iter().take(ENDPOINTS).map(|t| t.lock().unwrap().len()).sum();
    let slow_messages = told[ENDPOINTS].lock().unwrap().len();
    println!(
        "stock.changed fan-out             {} changes in {:.1} s ({:.0}/s) to {ENDPOINTS} endpoints: change to endpoint p50 {:.0} ms, \
         p95 {:.0} ms, p99 {:.0} ms, slowest {:.0} ms, never told {missing}; {messages} messages ({:.0} SKUs each); \
         the 10 s endpoint was sent {slow_messages} meanwhile",
        changes.len(),
        made_in.as_secs_f64(),
        changes.len() as f64 / made_in.as_secs_f64(),
        pct(&lat, 0.50),
        pct(&lat, 0.95),
        pct(&lat, 0.99),
        lat.last().map(|d| d.as_secs_f64() * 1e3).unwrap_or(0.0),
        (changes.len() * ENDPOINTS) as f64 / messages.max(1) as f64,
    );

    // The integrator API's order create beside the back-office's own, once the fan-out is
    // told: a channel of its own without a webhook.
    let (_, key) =
        call(reqwest::Method::POST, "/open-api/store-channels/generate-key".into(), token.clone(), json!({})).await;
    let (s, _) = call(
        reqwest::Method::POST,
        "/open-api/store-channels".into(),
        token.clone(),
        json!({"name": "คำสั่งซื้อ", "channel": "website", "warehouse_id": w, "logistic_channel_id": ship["id"],
            "payment_channel_id": pay["id"], "key_id": key["key_id"]}),
    )
    .await;
    assert!(s.is_success());
    let order_key = key["key"].as_str().unwrap().to_string();
    let lines = |api_side: bool| {
        if api_side {
            json!([{"sku_code": format!("WH-{SKUS}"), "quantity": 1, "unit_price_satang": 10_000},
                {"sku_code": format!("WH-{}", SKUS + 1), "quantity": 1, "unit_price_satang": 10_000}])
        } else {
            // Two SKUs of their own: the fan-out below reads the others' levels.
            json!([{"sku_id": skus[SKUS], "quantity": 1}, {"sku_id": skus[SKUS + 1], "quantity": 1}])
        }
    };
    let address = json!({"name": "สมชาย ใจดี", "tel": "0812345678", "address": "99/1 ถนนสุขุมวิท",
        "sub_district": "คลองเตยเหนือ", "district": "วัฒนา", "state_province": "กรุงเทพมหานคร", "postcode": "10110"});
    let own = {
        let body = json!({"channel": "facebook", "warehouse_id": w, "shipping_address": address.clone(), "items": lines(false)});
        let (client, api, token) = (client.clone(), api.clone(), token.clone());
        move |_c: usize, _i: usize| {
            let req = client.post(format!("{api}/orders")).bearer_auth(&token).json(&body);
            async move { req.send().await.is_ok_and(|r| r.status() == reqwest::StatusCode::CREATED) }
        }
    };
    super::quiet("the fan-out").await;
    println!("{}", run_with(8, own).await.line("POST /orders (2 lines, 8 clients)"));
    super::quiet("POST /orders").await;
    let integrator = {
        let (client, api, key) = (client.clone(), api.clone(), order_key.clone());
        let lines = lines(true);
        move |c: usize, i: usize| {
            let body = json!({"reference": format!("B-{c}-{i}"), "cod": true, "address": address.clone(), "lines": lines.clone()});
            let req = client.post(format!("{api}/open-api/v1/orders")).bearer_auth(&key).json(&body);
            async move { req.send().await.is_ok_and(|r| r.status() == reqwest::StatusCode::CREATED) }
        }
    };
    println!("{}", run_with(8, integrator).await.line("POST /open-api/v1/orders (2 lines, 8)"));

    launched.stop().await;
}
