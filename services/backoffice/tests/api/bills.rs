//! Bills through the API (SPEC §4 Bill, §7 `PATCH /orders/{id}/bill-expiry`, §8 renewal):
//! one bill per warehouse for its share of the total, with the store's expiry setting of
//! the moment it was made; renewal by days; and the expiry job, which cancels an order
//! (its stock back) or keeps it new, as the bill's setting says, and leaves alone the bills
//! of orders already being prepared.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};
use crate::on_every_stack;
use crate::orders::{create, level, main_warehouse, order, stock_up, two_skus};

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

fn ms(text: &Value) -> i64 {
    let t = ::time::OffsetDateTime::parse(text.as_str().unwrap(), &::time::format_description::well_known::Rfc3339)
        .unwrap();
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

fn field_code(v: &Value) -> (String, String) {
    let f = &v["error"]["fields"][0];
    (f["field"].as_str().unwrap_or_default().to_string(), f["code"].as_str().unwrap_or_default().to_string())
}

async fn set_expiry(app: &TestApp, t: &str, body: Value) {
    let (s, v) = app.post("/stores/settings/bill-expire", t, body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

async fn events(app: &TestApp, t: &str, id: i64) -> Vec<String> {
    let (_, o) = app.get(&format!("/orders/{id}"), t).await;
    o["events"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect()
}

async fn bills_follow_the_setting_of_their_moment_and_renew(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "BL1", w).await;
    stock_up(app, &t, w, red, 10).await;

    // Before the store chose a setting, a bill never expires, and cannot be renewed.
    let first = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let bills = first["bills"].as_array().unwrap();
    assert_eq!(bills.len(), 1, "{first}");
    assert_eq!(bills[0]["warehouse_id"], w);
    assert_eq!(bills[0]["amount"], first["total"], "one warehouse bills the whole total");
    assert_eq!((bills[0]["state"].as_str(), bills[0]["expiry_type"].as_str()), (Some("active"), Some("no_expiry")));
    assert!(bills[0]["expires_at"].is_null() && first["bill_expire_at"].is_null());
    let token = bills[0]["token"].as_str().unwrap().to_string();
    assert!(token.len() == 32 && token.chars().all(|c| c.is_ascii_hexdigit()), "{token}");
    let id1 = first["id"].as_i64().unwrap();
    let (s, v) = app.patch(&format!("/orders/{id1}/bill-expiry"), &t, json!({"days": 3})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("bill_never_expires")), "{v}");

    // Bills made after a setting follow it; earlier ones keep theirs.
    set_expiry(app, &t, json!({"expiry_type": "by_time", "hours": 2, "minutes": 30, "on_expiry": "cancel_order"}))
        .await;
    let second = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let id2 = second["id"].as_i64().unwrap();
    let bill = &second["bills"][0];
    assert_eq!((bill["expiry_type"].as_str(), bill["on_expiry"].as_str()), (Some("by_time"), Some("cancel_order")));
    let made = ms(&second["created_at"]);
    let expires = ms(&bill["expires_at"]);
    assert!((expires - made - 150 * MINUTE_MS).abs() < 5_000, "2 h 30 min after it was made: {bill}");
    assert_eq!(second["bill_expire_at"], bill["expires_at"]);
    let (_, again) = app.get(&format!("/orders/{id1}"), &t).await;
    assert_eq!(again["bills"][0]["expiry_type"], "no_expiry", "the earlier bill keeps its setting");
    assert_eq!(again["bills"][0]["token"], token.as_str(), "its link stays");

    // An edit moves the bill's amount with the total; its link and expiry stay.
    let mut edit = order(w, json!([{"sku_id": red, "quantity": 3}]));
    edit["version"] = second["version"].clone();
    let (s, edited) = app.patch(&format!("/orders/{id2}"), &t, edit).await;
    assert_eq!(s, StatusCode::OK, "{edited}");
    assert_eq!(edited["bills"][0]["amount"], edited["total"]);
    assert_ne!(edited["bills"][0]["amount"], bill["amount"]);
    assert_eq!(edited["bills"][0]["token"], bill["token"]);
    assert_eq!(edited["bills"][0]["expires_at"], bill["expires_at"]);

    // Renewal takes 1 to 30 whole days.
    let path = format!("/orders/{id2}/bill-expiry");
    for (body, code) in [
        (json!({}), "validation.required"),
        (json!({"days": 0}), "validation.bill_renew_days"),
        (json!({"days": 31}), "validation.bill_renew_days"),
        (json!({"days": "สาม"}), "validation.bill_renew_days"),
        (json!({"days": "1.5"}), "validation.bill_renew_days"),
    ] {
        let (s, v) = app.patch(&path, &t, body.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert_eq!(field_code(&v), ("days".to_string(), code.to_string()), "{body}");
    }
    let (s, renewed) = app.patch(&path, &t, json!({"days": "3"})).await;
    assert_eq!(s, StatusCode::OK, "{renewed}");
    let b = &renewed["bills"][0];
    assert_eq!(b["state"], "active");
    let now = bo_kit::time::now_ms();
    assert!((ms(&b["expires_at"]) - now - 3 * DAY_MS).abs() < 10_000, "three days from now: {b}");
    assert!(b["renewed_at"].is_string());
    assert_eq!(renewed["bill_expire_at"], b["expires_at"]);
    assert!(renewed["events"].as_array().unwrap().iter().any(|e| e["action"] == "bill_renewed" && e["detail"] == "3"));
    // A warehouse the order does not bill.
    let (s, v) = app.patch(&path, &t, json!({"days": 3, "warehouse_id": w + 999})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("bill_not_found")), "{v}");

    // Who may renew: order.order.edit; another store sees nothing.
    let reader = app.member_with(app.demo_store, "bill-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.patch(&path, &reader, json!({"days": 1})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, o) = app.get(&format!("/orders/{id2}"), &reader).await;
    assert_eq!(o["bills"][0]["state"], "active", "a reader sees the bills");
    let editor = app.member_with(app.demo_store, "bill-editor@example.com", &["order.order.edit"]).await;
    let (s, v) = app.patch(&path, &editor, json!({"days": 2})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, other) = app.other_owner("bill-other@example.com").await;
    let (s, _) = app.patch(&path, &other, json!({"days": 2})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // A cancelled order's bill is not renewed.
    let (s, _) = app.post(&format!("/orders/{id2}/cancel"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app.patch(&path, &t, json!({"days": 2})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("bill_order_not_new")), "{v}");
}

on_every_stack!(bills_follow_the_setting_of_their_moment_and_renew);

/// The app with the expiry job looking every 100 ms.
async fn start(stack: Stack) -> Option<TestApp> {
    TestApp::start_with(stack, |cfg| {
        let often = figment::value::Value::serialize(100).unwrap();
        cfg.service("orders").settings.insert("bill_expiry_every_ms".into(), often);
    })
    .await
}

/// Makes every bill of the orders' database due now (as time passing would).
async fn make_due(app: &TestApp, ids: &[i64]) {
    let db = bo_kit::db::Db::connect(&app.orders_db_url).await.unwrap();
    for id in ids {
        let r = sqlx::query("UPDATE order_bills SET expires_at = $1 WHERE order_id = $2")
            .bind(bo_kit::time::now_ms() - 1_000)
            .bind(id)
            .execute(db.pool())
            .await
            .unwrap();
        assert_eq!(r.rows_affected(), 1);
    }
    db.close().await;
}

async fn until(app: &TestApp, t: &str, id: i64, ok: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..300 {
        let (_, o) = app.get(&format!("/orders/{id}"), t).await;
        if ok(&o) {
            return o;
        }
        last = o;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("order {id} never got there: {last}");
}

async fn expired_bills_cancel_or_keep_their_orders(stack: Stack) {
    let Some(app) = start(stack).await else { return };
    let t = app.owner().await;
    let w = main_warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "BX1", w).await;
    stock_up(&app, &t, w, red, 10).await;

    set_expiry(&app, &t, json!({"expiry_type": "by_time", "hours": 0, "minutes": 1, "on_expiry": "cancel_order"}))
        .await;
    let cancelled = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await["id"].as_i64().unwrap();
    let prepared = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await["id"].as_i64().unwrap();
    let (s, v) = app.post(&format!("/orders/{prepared}/ready-to-fulfillment"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    set_expiry(&app, &t, json!({"expiry_type": "next_day", "on_expiry": "keep_new"})).await;
    let kept = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 3}]))).await["id"].as_i64().unwrap();
    assert_eq!(level(&app, &t, w, red).await, (10, 6));

    make_due(&app, &[cancelled, prepared, kept]).await;
    let c = until(&app, &t, cancelled, |o| o["state"] == "cancelled" && o["stock_state"] == "released").await;
    assert_eq!(c["bills"][0]["state"], "expired");
    assert!(c["bills"][0]["expired_at"].is_string());
    assert!(c["bill_expire_at"].is_null());
    let k = until(&app, &t, kept, |o| o["bills"][0]["state"] == "expired").await;
    assert_eq!((k["state"].as_str(), k["stock_state"].as_str()), (Some("new"), Some("held")), "kept new: {k}");
    // The cancelled order's units are back; the kept and the prepared ones still hold theirs.
    assert_eq!(level(&app, &t, w, red).await, (10, 4));

    // Several more rounds pass: each bill expired once, and the prepared order's bill waits.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let count = |actions: &[String], a: &str| actions.iter().filter(|x| x.as_str() == a).count();
    let ce = events(&app, &t, cancelled).await;
    assert_eq!((count(&ce, "bill_expired"), count(&ce, "cancelled")), (1, 1), "{ce:?}");
    let ke = events(&app, &t, kept).await;
    assert_eq!((count(&ke, "bill_expired"), count(&ke, "cancelled")), (1, 0), "{ke:?}");
    let (_, p) = app.get(&format!("/orders/{prepared}"), &t).await;
    assert_eq!((p["state"].as_str(), p["bills"][0]["state"].as_str()), (Some("ready_to_fulfillment"), Some("active")));

    // The kept order's expired bill is renewed and active again.
    let (s, r) = app.patch(&format!("/orders/{kept}/bill-expiry"), &t, json!({"days": 1})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["bills"][0]["state"], "active");
    assert!(r["bill_expire_at"].is_string());
    app.check_stock().await;
    app.stop().await;
}

#[tokio::test]
async fn expired_bills_cancel_or_keep_their_orders_embedded() {
    expired_bills_cancel_or_keep_their_orders(Stack::Embedded).await;
}

#[tokio::test]
async fn expired_bills_cancel_or_keep_their_orders_postgres_nats() {
    expired_bills_cancel_or_keep_their_orders(Stack::Postgres).await;
}

/// Slips sent as their bills expire (the expiry job every 100 ms): an order is cancelled by
/// its bill, or keeps the slip's payment, never both.
async fn slips_racing_expiry(stack: Stack) {
    let Some(app) = start(stack).await else { return };
    let t = app.owner().await;
    let w = main_warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "BXR", w).await;
    stock_up(&app, &t, w, red, 40).await;
    let (pp, _) = crate::order_payments::accounts(&app, &t).await;
    set_expiry(&app, &t, json!({"expiry_type": "by_time", "hours": 0, "minutes": 1, "on_expiry": "cancel_order"}))
        .await;
    let mut orders = Vec::new();
    for _ in 0..12 {
        let o = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
        orders.push((o["id"].as_i64().unwrap(), o["bills"][0]["token"].as_str().unwrap().to_string()));
    }
    let ids: Vec<i64> = orders.iter().map(|(id, _)| *id).collect();
    let slips = orders.iter().enumerate().map(|(i, (_, token))| {
        let app = &app;
        async move {
            // Spread over two expiry rounds.
            tokio::time::sleep(Duration::from_millis(17 * i as u64)).await;
            let (s, _, _) = crate::order_payments::send_slip(app, token, crate::photos::png(8, 8), "s.png", pp).await;
            s
        }
    });
    let (_, sent) = tokio::join!(make_due(&app, &ids), futures::future::join_all(slips));
    tokio::time::sleep(Duration::from_millis(600)).await;
    for ((id, _), s) in orders.iter().zip(&sent) {
        let o = until(&app, &t, *id, |o| o["stock_state"] != "releasing").await;
        let pending = o["payments"].as_array().unwrap().iter().any(|p| p["state"] == "pending");
        match o["state"].as_str() {
            Some("cancelled") => {
                assert!(!pending, "cancelled by its bill with a payment waiting: {o}");
                assert_ne!(*s, StatusCode::SEE_OTHER, "a slip taken for an order then cancelled: {o}");
            }
            Some("new") => {
                assert!(pending && *s == StatusCode::SEE_OTHER, "kept only by its slip: {s} {o}");
                assert_eq!(o["bills"][0]["state"], "active");
            }
            other => panic!("{other:?}: {o}"),
        }
    }
    assert!(app.invariants().await.is_empty());
    app.check_stock().await;
    app.stop().await;
}

#[tokio::test]
async fn slips_racing_expiry_embedded() {
    slips_racing_expiry(Stack::Embedded).await;
}

#[tokio::test]
async fn slips_racing_expiry_postgres_nats() {
    slips_racing_expiry(Stack::Postgres).await;
}
