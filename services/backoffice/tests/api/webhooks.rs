//! Open-API channels' webhooks out, on both stacks, received by endpoints that verify every
//! signature with the `standardwebhooks` library (PyPI), never by our code: an order made,
//! paid, moved and cancelled through the integrator's API, stock of a linked SKU and a
//! product saved, each told once and signed; the owner's test send; an endpoint down for a
//! while receiving every event in order once it is back; the delivery log with each
//! attempt's request headers and answer; a delivery and a time range sent again with the
//! same `webhook-id`; an endpoint failing past the limit turned off, the owner told on the
//! channel, and turned back on; a slow endpoint delaying no other; the owner's alone.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{patient, Stack, TestApp};
use crate::integrator::defaults;
use crate::orders::{address, stock_up, two_skus};

/// The endpoints of one test, served by `webhook_receiver.py`.
pub(crate) struct Receiver {
    pub port: u16,
    client: reqwest::Client,
    _child: tokio::process::Child,
}

impl Receiver {
    /// Starts the receiver; `None` where Python or `standardwebhooks` is missing (a failure
    /// under `CI=true`).
    pub async fn start() -> Option<Receiver> {
        let have = tokio::process::Command::new("python3")
            .args(["-c", "import standardwebhooks"])
            .status()
            .await
            .is_ok_and(|s| s.success());
        if !have {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "standardwebhooks is not installed and CI=true (pip install standardwebhooks)"
            );
            eprintln!("SKIPPED: webhooks verified by standardwebhooks (pip install standardwebhooks)");
            return None;
        }
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/api/webhook_receiver.py");
        let mut child = tokio::process::Command::new("python3")
            .arg(&script)
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        use tokio::io::AsyncBufReadExt as _;
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let port: u16 = lines.next_line().await.unwrap().expect("the receiver's port").trim().parse().unwrap();
        Some(Receiver { port, client: reqwest::Client::new(), _child: child })
    }

    pub fn url(&self, endpoint: &str) -> String {
        format!("http://127.0.0.1:{}/hook/{endpoint}", self.port)
    }

    /// Sets an endpoint's secret, mode (`ok` or `down`) and delay (seconds).
    pub async fn control(&self, endpoint: &str, change: Value) {
        let mut body = change;
        body["endpoint"] = json!(endpoint);
        let r = self.client.post(format!("http://127.0.0.1:{}/control", self.port)).json(&body).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
    }

    /// What an endpoint verified, in the order it came, and how many it refused.
    pub async fn received(&self, endpoint: &str) -> (Vec<Value>, i64) {
        let v: Value = self
            .client
            .get(format!("http://127.0.0.1:{}/received/{endpoint}", self.port))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        (v["received"].as_array().cloned().unwrap_or_default(), v["refused"].as_i64().unwrap_or(0))
    }

    /// Waits until what an endpoint verified passes `ok`.
    pub async fn until(&self, endpoint: &str, what: &str, ok: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let started = Instant::now();
        let mut seen = Vec::new();
        while patient(started) {
            seen = self.received(endpoint).await.0;
            if ok(&seen) {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{endpoint} never received {what}; it has {}", Value::Array(seen));
    }
}

fn types_of(seen: &[Value], order_id: i64) -> Vec<String> {
    seen.iter()
        .filter(|m| m["data"]["order_id"].as_i64() == Some(order_id))
        .map(|m| m["type"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn count_type(seen: &[Value], t: &str) -> usize {
    seen.iter().filter(|m| m["type"] == t).count()
}

/// The marketplaces settings that make retries and the turning off quick enough to watch.
fn quick(cfg: &mut bo_backoffice::config::Config, disable_after_ms: u64) {
    let s = &mut cfg.service("marketplaces").settings;
    let waits: Vec<figment::value::Value> =
        [300u64, 600, 1_200, 2_400, 4_800, 9_600].into_iter().map(figment::value::Value::from).collect();
    s.insert("webhook_retry_ms".into(), figment::value::Value::from(waits));
    s.insert("webhook_disable_after_ms".into(), figment::value::Value::from(disable_after_ms));
    s.insert("webhook_poll_ms".into(), figment::value::Value::from(50u64));
}

/// A channel with a webhook to `url` for `events`: (its id, its key, its signing secret).
async fn hooked_channel(
    app: &TestApp,
    t: &str,
    (w, ship, pay): (i64, i64, i64),
    name: &str,
    url: &str,
    events: &[&str],
) -> (i64, String, String) {
    let (s, key) = app.post("/open-api/store-channels/generate-key", t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{key}");
    let (s, ch) = app
        .post(
            "/open-api/store-channels",
            t,
            json!({"name": name, "channel": "website", "warehouse_id": w, "logistic_channel_id": ship,
                "payment_channel_id": pay, "key_id": key["key_id"], "webhook_url": url, "events": events}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{ch}");
    let id = ch["id"].as_i64().unwrap();
    let (_, whole) = app.get(&format!("/open-api/store-channels/{id}"), t).await;
    let secret = whole["webhook_secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_"), "{whole}");
    (id, key["key"].as_str().unwrap().to_string(), secret)
}

/// A call of the integrator's API with `key`.
async fn integrator(app: &TestApp, key: &str, method: reqwest::Method, path: &str, body: Value) -> (StatusCode, Value) {
    let r = app
        .client
        .request(method, format!("{}/api/open-api/v1{path}", app.root()))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .unwrap();
    let s = r.status();
    (s, r.json().await.unwrap_or(Value::Null))
}

async fn api_order(app: &TestApp, key: &str, reference: &str, external: &str, paid: bool) -> i64 {
    let (s, o) = integrator(
        app,
        key,
        reqwest::Method::POST,
        "/orders",
        json!({"reference": reference, "address": address(), "paid": paid, "cod": !paid,
            "lines": [{"external_id": external, "quantity": 1, "unit_price_satang": 19_900}]}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{o}");
    o["id"].as_i64().unwrap()
}

/// The delivery log of a channel as the owner reads it.
async fn log(app: &TestApp, t: &str, channel: i64, query: &str) -> Value {
    let (s, v) = app.get(&format!("/open-api/store-channels/{channel}/webhook-deliveries?limit=100{query}"), t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// Waits until none of a channel's deliveries is on its way.
async fn settled(app: &TestApp, t: &str, channel: i64) {
    let started = Instant::now();
    loop {
        let pending = log(app, t, channel, "&state=pending").await;
        if pending["total"] == 0 {
            return;
        }
        assert!(patient(started), "deliveries stayed pending: {pending}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn webhooks_are_signed_told_in_order_and_sent_again(stack: Stack) {
    let Some(rx) = Receiver::start().await else { return };
    let Some(app) = TestApp::start_with(stack, |cfg| quick(cfg, 3 * 24 * 3_600_000)).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "HOOK", w).await;
    stock_up(&app, &t, w, red, 50).await;
    let events = [
        "order.created",
        "order.state_changed",
        "order.paid",
        "order.cancelled",
        "stock.changed",
        "product.changed",
        "channel.key_expiring",
    ];
    let (ship, pay) = defaults(&app, &t, w).await;
    let (ch, key, secret) = hooked_channel(&app, &t, (w, ship, pay), "เว็บไซต์ร้าน", &rx.url("a"), &events).await;
    rx.control("a", json!({"secret": secret})).await;
    let started_ms = bo_kit::time::now_ms() - 1_000;

    // The owner's test send, whatever the events chosen, shows in the log.
    let (s, test) = app.post(&format!("/open-api/store-channels/{ch}/webhook-test"), &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{test}");
    let test_id = test["message_id"].as_str().unwrap().to_string();
    assert!(test_id.starts_with("msg_"), "{test}");
    let seen = rx.until("a", "the test", |s| count_type(s, "webhook.test") == 1).await;
    assert_eq!(seen[0]["id"], test_id.as_str());

    // A linked SKU: its stock, then an order made paid, told in their order.
    let (s, v) = integrator(
        &app,
        &key,
        reqwest::Method::POST,
        "/sku-links",
        json!({"links": [{"external_id": "P-RED", "sku_code": "HOOK-R"}]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    stock_up(&app, &t, w, red, 5).await;
    let seen = rx
        .until("a", "the stock of 55", |s| {
            s.iter().any(|m| m["type"] == "stock.changed" && m["data"]["items"][0]["available"] == 55)
        })
        .await;
    let stock = seen.iter().rev().find(|m| m["type"] == "stock.changed").unwrap();
    assert_eq!(stock["data"]["items"][0]["external_ids"], json!(["P-RED"]), "{stock}");
    assert_eq!(stock["data"]["warehouse_id"], w);
    let paid = api_order(&app, &key, "WEB-1", "P-RED", true).await;
    let seen = rx.until("a", "the paid order", |s| types_of(s, paid).len() == 2).await;
    assert_eq!(types_of(&seen, paid), ["order.created", "order.paid"]);
    let created = seen.iter().find(|m| m["type"] == "order.created" && m["data"]["order_id"] == paid).unwrap();
    assert_eq!(created["data"]["reference"], "WEB-1");
    assert_eq!(created["data"]["state"], "new");
    assert_eq!(created["data"]["total"], 19_900);
    // The order held a unit: the SKU's stock is told again.
    rx.until("a", "the stock of 54", |s| {
        s.iter().any(|m| m["type"] == "stock.changed" && m["data"]["items"][0]["available"] == 54)
    })
    .await;
    // The endpoint goes down: orders made and cancelled meanwhile wait, in their order.
    rx.control("a", json!({"mode": "down"})).await;
    let mut orders = Vec::new();
    for i in 0..3 {
        orders.push(api_order(&app, &key, &format!("WEB-DOWN-{i}"), "P-RED", false).await);
    }
    let (s, v) = integrator(
        &app,
        &key,
        reqwest::Method::POST,
        &format!("/orders/{}/cancel", orders[1]),
        json!({"reason": "ลูกค้ายกเลิก"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let started = Instant::now();
    let failing = loop {
        let (_, c) = app.get(&format!("/open-api/store-channels/{ch}"), &t).await;
        if c["webhook_failing_since"].is_string() {
            break c;
        }
        assert!(patient(started), "the channel never showed its webhook failing: {c}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(failing["webhook_disabled_at"].is_null(), "{failing}");
    // A delivery still on its way is not sent again by hand.
    let pending = log(&app, &t, ch, "&state=pending").await;
    let first_pending = pending["data"][0]["message_id"].as_str().expect("a pending delivery").to_string();
    let (s, e) = app
        .post(&format!("/open-api/store-channels/{ch}/webhook-deliveries/{first_pending}/replay"), &t, json!({}))
        .await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("webhook_message_pending")), "{e}");
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    rx.control("a", json!({"mode": "ok"})).await;
    let seen = rx
        .until("a", "every order's events", |s| {
            types_of(s, orders[0]).len() == 1 && types_of(s, orders[1]).len() == 3 && types_of(s, orders[2]).len() == 1
        })
        .await;
    assert_eq!(types_of(&seen, orders[1]), ["order.created", "order.state_changed", "order.cancelled"]);
    let cancelled = seen.iter().find(|m| m["type"] == "order.cancelled").unwrap();
    assert_eq!(
        (cancelled["data"]["from_state"].as_str(), cancelled["data"]["state"].as_str()),
        (Some("new"), Some("cancelled"))
    );
    let (_, c) = app.get(&format!("/open-api/store-channels/{ch}"), &t).await;
    assert!(c["webhook_failing_since"].is_null() && c["webhook_delivered_at"].is_string(), "{c}");
    settled(&app, &t, ch).await;
    // Nothing twice, nothing refused by the library.
    let (seen, refused) = rx.received("a").await;
    let mut ids: Vec<&str> = seen.iter().filter_map(|m| m["id"].as_str()).collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!((ids.len(), refused), (n, 0), "a message came twice or failed its signature");

    // The log: every delivery delivered, one with its failed attempts and the headers sent.
    let all = log(&app, &t, ch, "").await;
    assert_eq!(all["total"].as_i64(), Some(n as i64), "{all}");
    assert!(all["data"].as_array().unwrap().iter().all(|d| d["state"] == "delivered"), "{all}");
    let created_down =
        seen.iter().find(|m| m["type"] == "order.created" && m["data"]["order_id"] == orders[0]).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
    let (s, d) = app.get(&format!("/open-api/store-channels/{ch}/webhook-deliveries/{created_down}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{d}");
    let attempts = d["attempt_log"].as_array().unwrap();
    assert!(attempts.len() >= 2, "{d}");
    assert_eq!(attempts[0]["status"], 503);
    assert!(attempts[0]["answer"].as_str().unwrap().contains("down for maintenance"), "{d}");
    assert_eq!(attempts.last().unwrap()["status"], 200);
    assert!(attempts.iter().all(|a| a["webhook_signature"].as_str().unwrap().starts_with("v1,")), "{d}");
    let body: Value = serde_json::from_str(d["payload"].as_str().unwrap()).unwrap();
    assert_eq!(body["type"], "order.created");
    let (s, v) = app.get(&format!("/open-api/store-channels/{ch}/webhook-deliveries?state=sent"), &t).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("state")));
    let (s, v) = app.get(&format!("/open-api/store-channels/{ch}/webhook-deliveries/msg_nothing"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("webhook_message_not_found")));

    // One delivery sent again: the same webhook-id, once more.
    let (s, d) =
        app.post(&format!("/open-api/store-channels/{ch}/webhook-deliveries/{test_id}/replay"), &t, json!({})).await;
    assert_eq!((s, d["state"].as_str()), (StatusCode::OK, Some("pending")), "{d}");
    rx.until("a", "the test again", |s| s.iter().filter(|m| m["id"] == test_id.as_str()).count() == 2).await;
    // A time range sent again: each of them once more, every order still in its order.
    let before = rx.received("a").await.0.len();
    let (s, v) = app
        .post(
            &format!("/open-api/store-channels/{ch}/webhook-deliveries/replay"),
            &t,
            json!({"from": bo_kit::time::ms_to_rfc3339(started_ms), "to": bo_kit::time::ms_to_rfc3339(bo_kit::time::now_ms())}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let replayed = v["replayed"].as_i64().unwrap() as usize;
    assert_eq!(replayed, n, "every delivery of the range: {v}");
    let seen = rx.until("a", "the range again", |s| s.len() == before + replayed).await;
    let again = &seen[before..];
    assert_eq!(types_of(again, orders[1]), ["order.created", "order.state_changed", "order.cancelled"]);
    let (s, v) = app
        .post(&format!("/open-api/store-channels/{ch}/webhook-deliveries/replay"), &t, json!({"to": "2026-01-01"}))
        .await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("from")), "{v}");

    // "Send stock now": every linked SKU, whatever changed.
    let before = count_type(&rx.received("a").await.0, "stock.changed");
    let (s, v) = app.post(&format!("/products/open-api/{ch}/update-stock"), &t, json!({})).await;
    assert_eq!((s, v["pushed"].as_i64()), (StatusCode::ACCEPTED, Some(1)), "{v}");
    rx.until("a", "the stock sent now", |s| count_type(s, "stock.changed") == before + 1).await;

    // A product saved with a linked SKU.
    let (_, products) = app.get("/products?search=HOOK", &t).await;
    let product = products["data"][0]["id"].as_i64().unwrap();
    let (s, v) = app.patch(&format!("/products/{product}"), &t, json!({"status": "inactive"})).await;
    assert!(s.is_success(), "{v}");
    let seen = rx.until("a", "the product", |s| count_type(s, "product.changed") >= 1).await;
    let p = seen.iter().find(|m| m["type"] == "product.changed").unwrap();
    assert_eq!(
        (p["data"]["status"].as_str(), p["data"]["product_id"].as_i64()),
        (Some("inactive"), Some(product)),
        "{p}"
    );
    let red_sku = p["data"]["skus"].as_array().unwrap().iter().find(|s| s["sku_id"] == red).unwrap();
    assert_eq!(red_sku["external_ids"], json!(["P-RED"]));

    // A key rolled with an hour's grace: the app is told its old key ends, once.
    let (_, fresh) = app.post("/open-api/store-channels/generate-key", &t, json!({})).await;
    let (s, v) = app
        .post(
            &format!("/open-api/store-channels/{ch}/roll-key"),
            &t,
            json!({"key_id": fresh["key_id"], "grace_hours": 1}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let seen = rx.until("a", "the key's end", |s| count_type(s, "channel.key_expiring") == 1).await;
    let told = seen.iter().find(|m| m["type"] == "channel.key_expiring").unwrap();
    assert_eq!(told["data"]["key"].as_str(), Some(format!("{}…", &key[..21]).as_str()), "{told}");
    assert!(told["data"]["expires_at"].is_string(), "{told}");

    // The owner's alone: staff and another store are refused.
    let staff =
        app.member_with(app.demo_store, "hooks-staff@example.com", &["order.order.all", "product.sku.read"]).await;
    let path = format!("/open-api/store-channels/{ch}/webhook-deliveries");
    assert_eq!(app.get(&path, &staff).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        app.post(&format!("/open-api/store-channels/{ch}/webhook-test"), &staff, json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    let (_, other) = app.other_owner("hooks-other@example.com").await;
    let (s, e) = app.get(&path, &other).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("api_channel_not_found")));
    let (s, _) = app
        .post(&format!("/open-api/store-channels/{ch}/webhook-deliveries/{test_id}/replay"), &other, json!({}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    app.check_stock().await;
    app.stop().await;
}

async fn a_failing_endpoint_is_turned_off_and_a_slow_one_delays_no_other(stack: Stack) {
    let Some(rx) = Receiver::start().await else { return };
    let Some(app) = TestApp::start_with(stack, |cfg| quick(cfg, 2_000)).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "SLOW", w).await;
    stock_up(&app, &t, w, red, 20).await;
    let (ship, pay) = defaults(&app, &t, w).await;
    let at = (w, ship, pay);
    let (fast, _, fast_secret) = hooked_channel(&app, &t, at, "เร็ว", &rx.url("fast"), &["order.created"]).await;
    let (slow, _, slow_secret) = hooked_channel(&app, &t, at, "ช้า", &rx.url("slow"), &["order.created"]).await;
    let (dead, _, dead_secret) = hooked_channel(&app, &t, at, "ล่ม", &rx.url("dead"), &["order.created"]).await;
    rx.control("fast", json!({"secret": fast_secret})).await;
    rx.control("slow", json!({"secret": slow_secret, "delay": 4.0})).await;
    rx.control("dead", json!({"secret": dead_secret, "mode": "down"})).await;
    let mut sent_at = HashMap::new();
    for ch in [fast, slow, dead] {
        let (s, d) = app.post(&format!("/open-api/store-channels/{ch}/webhook-test"), &t, json!({})).await;
        assert_eq!(s, StatusCode::CREATED, "{d}");
        sent_at.insert(ch, Instant::now());
    }
    // The fast endpoint hears its message while the slow one is still answering.
    rx.until("fast", "its test", |s| s.len() == 1).await;
    assert!(sent_at[&fast].elapsed() < Duration::from_secs(3), "the fast endpoint waited for the slow one");
    assert_eq!(rx.received("slow").await.0.len(), 0, "the slow endpoint answered already?");
    // A second message to the fast one goes while the slow one is still answering.
    let (s, _) = app.post(&format!("/open-api/store-channels/{fast}/webhook-test"), &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED);
    rx.until("fast", "its second test", |s| s.len() == 2).await;
    rx.until("slow", "its test, late", |s| s.len() == 1).await;

    // The dead endpoint fails past the limit: turned off, and the owner told on the channel.
    let started = Instant::now();
    let off = loop {
        let (_, c) = app.get(&format!("/open-api/store-channels/{dead}"), &t).await;
        if c["webhook_disabled_at"].is_string() {
            break c;
        }
        assert!(patient(started), "the dead endpoint was never turned off: {c}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(off["webhook_failing_since"].is_string(), "{off}");
    let (_, list) = app.get("/open-api/store-channels", &t).await;
    let listed = list["data"].as_array().unwrap().iter().find(|c| c["id"] == dead).unwrap().clone();
    assert!(listed["webhook_disabled_at"].is_string(), "the list tells it too: {listed}");
    // Turned off, nothing is tried; back on, what waited is delivered.
    let tries = |d: &Value| d["data"][0]["attempts"].as_i64().unwrap_or(0);
    let before = tries(&log(&app, &t, dead, "").await);
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(tries(&log(&app, &t, dead, "").await), before, "an endpoint turned off was tried");
    rx.control("dead", json!({"mode": "ok"})).await;
    let (s, c) = app.post(&format!("/open-api/store-channels/{dead}/webhook-resume"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert!(c["webhook_disabled_at"].is_null() && c["webhook_failing_since"].is_null(), "{c}");
    rx.until("dead", "its test once back", |s| s.len() == 1).await;
    let (s, e) = app.post(&format!("/open-api/store-channels/{fast}/webhook-test"), &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    // A channel without a webhook has nothing to send.
    let (_, key) = app.post("/open-api/store-channels/generate-key", &t, json!({})).await;
    let (_, none) = app
        .post(
            "/open-api/store-channels",
            &t,
            json!({"name": "ไม่มี webhook", "channel": "line", "warehouse_id": w, "logistic_channel_id": ship,
                "payment_channel_id": pay, "key_id": key["key_id"]}),
        )
        .await;
    let (s, e) = app.post(&format!("/open-api/store-channels/{}/webhook-test", none["id"]), &t, json!({})).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("webhook_url")));
    let (s, e) = app.post(&format!("/products/open-api/{}/update-stock", none["id"]), &t, json!({})).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("events")));
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn webhooks_are_signed_told_in_order_and_sent_again() {
        super::webhooks_are_signed_told_in_order_and_sent_again(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn a_failing_endpoint_is_turned_off_and_a_slow_one_delays_no_other() {
        super::a_failing_endpoint_is_turned_off_and_a_slow_one_delays_no_other(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn webhooks_are_signed_told_in_order_and_sent_again() {
        super::webhooks_are_signed_told_in_order_and_sent_again(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn a_failing_endpoint_is_turned_off_and_a_slow_one_delays_no_other() {
        super::a_failing_endpoint_is_turned_off_and_a_slow_one_delays_no_other(Stack::Postgres).await;
    }
}
