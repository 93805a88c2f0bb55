//! The realtime socket (`GET /api/realtime`, SPEC §6 PRODUCT_SYNC_STOCK_ALL): authenticated by
//! the store token in its first message; a shop's "push all" status asked for and followed to
//! finished, new orders and an export's progress arriving unasked, each member seeing only
//! what they may read in their own store; bad tokens, bad messages and too many requests
//! refused.

use std::time::Duration;

use bo_sandbox::Listing;
use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::helpers::{Stack, TestApp};
use crate::listings::{imported, products, shopee};
use crate::marketplaces::{sandboxes, with_sandboxes};
use crate::orders::stock_up;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const SHOP: i64 = 14701711;

async fn open(app: &TestApp) -> Socket {
    let url = format!("{}/realtime", app.base.replacen("http", "ws", 1));
    tokio_tungstenite::connect_async(url).await.expect("the socket opens").0
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next text frame.
async fn next(ws: &mut Socket) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(15), ws.next())
            .await
            .expect("a frame within 15 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
        assert!(!m.is_close(), "closed: {m:?}");
    }
}

/// Frames until one of `event` that `want` accepts: all of them, that one last.
async fn until(ws: &mut Socket, event: &str, want: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let v = next(ws).await;
        let done = v["event"] == event && want(&v["data"]);
        seen.push(v);
        if done {
            return seen;
        }
    }
}

/// Signs a socket in: its store.
async fn signed_in(app: &TestApp, token: &str) -> (Socket, i64) {
    let mut ws = open(app).await;
    send(&mut ws, json!({"event": "AUTH", "token": token})).await;
    let hello = next(&mut ws).await;
    assert_eq!(hello["event"], "AUTH", "{hello}");
    (ws, hello["data"]["store_id"].as_i64().unwrap())
}

/// How the server closed the socket.
async fn closed(ws: &mut Socket) -> (u16, String) {
    loop {
        match tokio::time::timeout(Duration::from_secs(15), ws.next()).await.expect("closed within 15 s") {
            Some(Ok(Message::Close(Some(f)))) => return (u16::from(f.code), f.reason.to_string()),
            Some(Ok(Message::Close(None))) | None => return (0, String::new()),
            Some(Ok(_)) => {}
            Some(Err(e)) => panic!("{e}"),
        }
    }
}

async fn the_socket_carries_sync_status_orders_and_exports(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let skus = products(&app, &t, w, &[("RT-1", "เสื้อกล้าม"), ("RT-2", "กางเกงขาสั้น")]).await;
    for sku in &skus {
        stock_up(&app, &t, w, *sku, 6).await;
    }
    sb.shopee.put_listing(SHOP, Listing::new("880001", "", "เสื้อกล้าม", "RT-1", "99.00"), 0);
    sb.shopee.put_listing(SHOP, Listing::new("880002", "", "กางเกงขาสั้น", "RT-2", "129.00"), 0);
    let shop = shopee(&app, &t, &sb, w).await;
    let (_, imp) = app.post("/products/marketplace/shopee/import", &t, json!({"store_channel_id": shop})).await;
    assert_eq!(imported(&app, &t, imp["id"].as_i64().unwrap()).await["linked"], 2);

    // The owner's socket, a member who reads orders only, and another store's owner.
    let (mut owner, store) = signed_in(&app, &t).await;
    assert_eq!(store, app.demo_store);
    let orders_only = app.member_with(app.demo_store, "orders@example.com", &["order.order.read"]).await;
    let (mut member, _) = signed_in(&app, &orders_only).await;
    let (other_store, other) = app.other_owner("other@example.com").await;
    let (mut stranger, seen) = signed_in(&app, &other).await;
    assert_eq!(seen, other_store);

    // Asked before any push all: none yet. The member may not read the shops' stock.
    send(&mut owner, json!({"event": "PRODUCT_SYNC_STOCK_ALL"})).await;
    let v = next(&mut owner).await;
    assert_eq!(
        (v["event"].as_str(), v["data"].as_array().map(Vec::len)),
        (Some("PRODUCT_SYNC_STOCK_ALL"), Some(0)),
        "{v}"
    );
    send(&mut member, json!({"event": "PRODUCT_SYNC_STOCK_ALL"})).await;
    let v = next(&mut member).await;
    assert_eq!((v["event"].as_str(), v["code"].as_str()), (Some("ERROR"), Some("forbidden")), "{v}");

    // Push all: its steps arrive unasked, to finished; asking again says so.
    let (s, p) = app.post("/products/marketplace/shopee/update-stock", &t, json!({"store_channel_id": shop})).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{p}");
    let steps = until(&mut owner, "PRODUCT_SYNC_STOCK_ALL", |d| d[0]["status"] == "finished").await;
    let last = &steps.last().unwrap()["data"][0];
    assert_eq!(
        (last["store_channel_id"].as_i64(), last["done"].as_i64(), last["total"].as_i64()),
        (Some(shop), Some(2), Some(2))
    );
    assert!(!last["finished_at"].as_str().unwrap().is_empty());
    assert_eq!(sb.shopee.stock(SHOP, 880001, 0), Some(6));
    send(&mut owner, json!({"event": "PRODUCT_SYNC_STOCK_ALL"})).await;
    let asked = until(&mut owner, "PRODUCT_SYNC_STOCK_ALL", |_| true).await;
    assert_eq!(asked.last().unwrap()["data"][0]["status"], "finished");

    // A new order reaches both members of the store; the member saw no stock sync before it.
    let o = crate::orders::create(&app, &t, crate::orders::order(w, json!([{"sku_id": skus[0], "quantity": 1}]))).await;
    let order_no = o["order_no"].as_str().unwrap().to_string();
    until(&mut owner, "ORDER_CREATED", |d| d["order_no"] == order_no.as_str()).await;
    let frames = until(&mut member, "ORDER_CREATED", |d| d["order_no"] == order_no.as_str()).await;
    assert!(frames.iter().all(|f| f["event"] != "PRODUCT_SYNC_STOCK_ALL"), "{frames:?}");

    // An export's progress, to built.
    // The store's day, in Bangkok.
    let today = time::OffsetDateTime::now_utc().to_offset(time::macros::offset!(+7)).date().to_string();
    let (s, e) =
        app.post("/orders/reports/produce-order-report", &t, json!({"date_from": today, "date_to": today})).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    let id = e["id"].as_i64().unwrap();
    let steps = until(&mut owner, "REPORT_EXPORT", |d| d["id"] == id && d["state"] == "exported").await;
    assert!(steps.iter().any(|f| f["event"] == "REPORT_EXPORT" && f["data"]["kind"] == "orders"), "{steps:?}");
    until(&mut member, "REPORT_EXPORT", |d| d["id"] == id && d["state"] == "exported").await;

    // The other store heard nothing of it: its first frame is the answer to its ping.
    send(&mut stranger, json!({"event": "PING"})).await;
    assert_eq!(next(&mut stranger).await["event"], "PONG");

    // A message it does not know is answered, and the socket stays open.
    send(&mut owner, json!({"event": "DROP_TABLES"})).await;
    let v = until(&mut owner, "ERROR", |_| true).await.pop().unwrap();
    assert_eq!(v["code"], "realtime_request_invalid");
    owner.send(Message::Text("not json".into())).await.unwrap();
    assert_eq!(until(&mut owner, "ERROR", |_| true).await.pop().unwrap()["code"], "realtime_request_invalid");

    // Too many requests close it.
    for _ in 0..25 {
        if owner.send(Message::Text(json!({"event": "PING"}).to_string().into())).await.is_err() {
            break;
        }
    }
    assert_eq!(closed(&mut owner).await, (4429, "realtime_too_many".to_string()));

    // Tokens that do not hold, and a first message that is not one.
    let mut bad = open(&app).await;
    send(&mut bad, json!({"event": "AUTH", "token": "nonsense"})).await;
    assert_eq!(closed(&mut bad).await.0, 4401);
    let (user, _) = app.login(crate::helpers::OWNER_EMAIL, crate::helpers::OWNER_PASSWORD).await;
    let mut bad = open(&app).await;
    send(&mut bad, json!({"event": "AUTH", "token": user})).await;
    assert_eq!(closed(&mut bad).await, (4401, "store_token_required".to_string()), "a user token chose no store");
    let mut bad = open(&app).await;
    send(&mut bad, json!({"event": "PRODUCT_SYNC_STOCK_ALL"})).await;
    assert_eq!(closed(&mut bad).await, (4401, "unauthenticated".to_string()));
    // A plain GET is no socket.
    let (s, _) = app.get("/realtime", &t).await;
    assert!(s.is_client_error(), "{s}");
    app.stop().await;
}

mod embedded {
    #[tokio::test]
    async fn the_socket_carries_sync_status_orders_and_exports() {
        super::the_socket_carries_sync_status_orders_and_exports(crate::helpers::Stack::Embedded).await;
    }
}

mod postgres_nats {
    #[tokio::test]
    async fn the_socket_carries_sync_status_orders_and_exports() {
        super::the_socket_carries_sync_status_orders_and_exports(crate::helpers::Stack::Postgres).await;
    }
}
