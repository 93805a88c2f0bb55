//! What a request that died half-way leaves behind is settled by the reconciler: an order
//! left waiting on wms (a create, an edit, a fill), releasing (a cancel) or committing (a
//! ship) is asked of wms again until wms holds what the order says. Each test makes the
//! half-done state by hand — the wms side done or not, the orders side recorded as in
//! flight — and waits for the reconciler (told to act at once) to finish it.

use std::time::Duration;

use bo_kit::grpc::CallCtx;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};
use crate::orders::{address, create, level, main_warehouse, order, post_channel, stock_up, two_skus};

async fn start(stack: Stack) -> Option<TestApp> {
    TestApp::start_with(stack, |cfg| {
        let now = figment::value::Value::serialize(0).unwrap();
        cfg.service("orders").settings.insert("reconcile_after_ms".into(), now);
    })
    .await
}

/// wms as the orders service calls it, for the store.
fn wms(app: &TestApp) -> (WmsServiceClient<bo_kit::grpc::GrpcChannel>, CallCtx) {
    let channel = app.clients().channel("wms").unwrap();
    let token = app.keys().service_token("orders", app.demo_store, 0).unwrap();
    (WmsServiceClient::new(channel), CallCtx::with_token(app.demo_store, 0, token))
}

/// Sets an order's row as a request that died would have left it.
async fn left_in_flight(app: &TestApp, id: i64, sql: &str) {
    let db = bo_kit::db::Db::connect(&app.orders_db_url).await.unwrap();
    let r = sqlx::query(&format!("UPDATE orders SET stock_state_at = 0, {sql} WHERE id = $1"))
        .bind(id)
        .execute(db.pool())
        .await
        .unwrap();
    assert_eq!(r.rows_affected(), 1);
    db.close().await;
}

async fn settled(app: &TestApp, t: &str, id: i64, stock_state: &str) -> Value {
    let mut last = Value::Null;
    for _ in 0..300 {
        let (_, o) = app.get(&format!("/orders/{id}"), t).await;
        if o["stock_state"] == stock_state {
            return o;
        }
        last = o;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("order {id} never became {stock_state}: {last}");
}

async fn finishes_what_requests_left_in_flight(stack: Stack) {
    let Some(app) = start(stack).await else { return };
    let t = app.owner().await;
    let w = main_warehouse(&app, &t).await;
    let (red, blue) = two_skus(&app, &t, "RC1", w).await;
    stock_up(&app, &t, w, red, 10).await;
    stock_up(&app, &t, w, blue, 1).await;
    let (mut client, ctx) = wms(&app);
    let line = |sku: i64, n: i64| wpb::StockLine { warehouse_id: w, sku_id: sku, quantity: n, ..Default::default() };

    // A create whose hold wms made, with the answer never recorded.
    let a = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let a_id = a["id"].as_i64().unwrap();
    left_in_flight(&app, a_id, "stock_state = 'pending'").await;
    // A create that died before it asked: wms knows nothing of it (made short, so wms kept
    // no trace), and the stock is there by the time the reconciler asks.
    let b = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 20}]))).await;
    let b_id = b["id"].as_i64().unwrap();
    assert_eq!(b["stock_state"], "short");
    left_in_flight(&app, b_id, "stock_state = 'pending', problems = ''").await;
    stock_up(&app, &t, w, red, 20).await;
    // An edit wms applied (2 → 5 red) whose order kept its old lines.
    let c = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let c_id = c["id"].as_i64().unwrap();
    client
        .hold(ctx.request(wpb::HoldRequest {
            reference: format!("order:{c_id}"),
            revision: 2,
            lines: vec![line(red, 5)],
        }))
        .await
        .unwrap();
    left_in_flight(&app, c_id, "stock_state = 'pending', hold_revision = 2").await;
    // A fill that died before it asked, with too little stock: it ends short again.
    let d = create(&app, &t, order(w, json!([{"sku_id": blue, "quantity": 5}]))).await;
    let d_id = d["id"].as_i64().unwrap();
    left_in_flight(&app, d_id, "stock_state = 'pending', problems = ''").await;

    assert_eq!(settled(&app, &t, a_id, "held").await["state"], "new");
    settled(&app, &t, b_id, "held").await;
    settled(&app, &t, c_id, "held").await;
    let d = settled(&app, &t, d_id, "short").await;
    assert_eq!(d["problem"], "stock_not_enough");
    // 2 + 20 + 2 red held, not the 5 the lost edit asked.
    assert_eq!(level(&app, &t, w, red).await, (30, 24));
    assert_eq!(level(&app, &t, w, blue).await, (1, 0));

    // A cancel that died before its release: the stock comes back.
    left_in_flight(&app, a_id, "state = 'cancelled', stock_state = 'releasing'").await;
    let a = settled(&app, &t, a_id, "released").await;
    assert_eq!(a["state"], "cancelled");
    assert_eq!(level(&app, &t, w, red).await, (30, 22));
    app.check_stock().await;
    app.stop().await;
}

async fn finishes_a_ship_that_wms_made(stack: Stack) {
    let Some(app) = start(stack).await else { return };
    let t = app.owner().await;
    let w = main_warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "RC2", w).await;
    stock_up(&app, &t, w, red, 5).await;
    let channel = post_channel(&app, &t, w, false).await;
    let mut body = order(w, json!([{"sku_id": red, "quantity": 2}]));
    body["logistic_store_channel_id"] = json!(channel);
    body["shipping_address"] = address();
    let o = create(&app, &t, body).await;
    let id = o["id"].as_i64().unwrap();
    let (s, _) = app.post(&format!("/orders/{id}/ready-to-fulfillment"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) =
        app.post("/wms/parcels/in-store", &t, json!({"order_id": id, "weight": "0.5", "tracking_no": "KEX0001"})).await;
    assert_eq!(s, StatusCode::CREATED);
    // wms shipped it; the order never heard.
    let (mut client, ctx) = wms(&app);
    client
        .ship_order(ctx.request(wpb::ShipOrderRequest {
            order_id: id,
            reference: format!("order:{id}"),
            by_channel: false,
        }))
        .await
        .unwrap();
    left_in_flight(&app, id, "stock_state = 'committing'").await;
    let o = settled(&app, &t, id, "committed").await;
    assert_eq!((o["state"].as_str(), o["tracking_no"].as_str()), (Some("shipped"), Some("KEX0001")));
    assert_eq!(level(&app, &t, w, red).await, (3, 0));
    app.check_stock().await;
    app.stop().await;
}

mod embedded {
    use crate::helpers::Stack;

    #[tokio::test]
    async fn finishes_what_requests_left_in_flight() {
        super::finishes_what_requests_left_in_flight(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn finishes_a_ship_that_wms_made() {
        super::finishes_a_ship_that_wms_made(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use crate::helpers::Stack;

    #[tokio::test]
    async fn finishes_what_requests_left_in_flight() {
        super::finishes_what_requests_left_in_flight(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn finishes_a_ship_that_wms_made() {
        super::finishes_a_ship_that_wms_made(Stack::Postgres).await;
    }
}
