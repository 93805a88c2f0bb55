//! Marketplace orders in, through the API against the sandboxes: a signed push is answered
//! the marketplace's way and its order appears, matched to our SKUs by seller SKU (a line that
//! matches none is taken with the problem `sku_not_linked` and holds nothing); status changes
//! move it and hold, ship or release its stock once; a repeated or older change changes
//! nothing; an order whose push was lost comes in by the poll; a refused authorization turns
//! the shop to "token expired"; unsigned pushes are refused; another store sees none of it.

use std::time::Duration;

use bo_proto::orders::v1 as opb;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_sandbox::{line, Order};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};
use crate::marketplaces::{sandboxes, with_sandboxes};
use crate::orders::{level, level_becomes, stock_up, two_skus};

/// Connects a marketplace's shop through its sandbox and sets its warehouse: its id.
pub(crate) async fn connect(app: &TestApp, t: &str, mp: &str, code: String, shop_id: &str, w: i64) -> i64 {
    let (_, v) = app.get(&format!("/marketplaces/{mp}/auth-url"), t).await;
    let state = v["state"].as_str().unwrap().to_string();
    let (s, v) = app
        .post(&format!("/marketplaces/{mp}/connect"), t, json!({"state": state, "code": code, "shop_id": shop_id}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["data"][0]["id"].as_i64().unwrap();
    let (s, v) = app.patch(&format!("/marketplaces/store-channels/{id}"), t, json!({"warehouse_id": w})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    id
}

/// The store's order of a marketplace number, once it has come in (and `until` holds of it).
pub(crate) async fn order_of(
    app: &TestApp,
    t: &str,
    channel: &str,
    number: &str,
    until: impl Fn(&Value) -> bool,
) -> Value {
    let mut last = Value::Null;
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (_, v) = app.get(&format!("/orders?channel={channel}&search={number}"), t).await;
        if let Some(id) =
            v["data"].as_array().and_then(|d| d.iter().find(|o| o["reference"] == number)).map(|o| o["id"].clone())
        {
            let (_, o) = app.get(&format!("/orders/{id}"), t).await;
            if until(&o) {
                return o;
            }
            last = o;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the {channel} order {number} never came in as expected: {last}");
}

/// Waits until a sandbox's listing shows `quantity`.
async fn shows(what: &str, quantity: i64, read: impl Fn() -> Option<i64>) {
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        if read() == Some(quantity) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what} shows {:?}, not {quantity}", read());
}

pub(crate) fn state_is(state: &'static str) -> impl Fn(&Value) -> bool {
    move |o: &Value| o["state"] == state
}

async fn orders_come_in_once_and_follow_their_marketplace(stack: Stack) {
    let sb = sandboxes().await;
    sb.shopee.register_callback("https://bo.example/api/marketplaces/shopee/push");
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, blue) = two_skus(&app, &t, "MKP", w).await;
    stock_up(&app, &t, w, red, 10).await;
    stock_up(&app, &t, w, blue, 5).await;
    let shopee = connect(&app, &t, "shopee", sb.shopee.authorize(14701711), "14701711", w).await;
    let push_url = format!("{}/marketplaces/shopee/push", app.base);
    sb.shopee.add_listing(14701711, 1001, 2001, 50);
    sb.shopee.add_listing(14701711, 1003, 2003, 50);
    sb.shopee.add_listing(14701711, 1002, 0, 50);

    // A paid Shopee order: one line of ours, one listing that matches none of our SKUs.
    sb.shopee.put_order(
        14701711,
        Order::new(
            "2611280001",
            "READY_TO_SHIP",
            vec![
                line("1001", "2001", "MKP-R", "เสื้อยืด (แดง)", 2, "199.00"),
                line("1002", "0", "GIFT-9", "ของแถม", 1, "10.00"),
            ],
        ),
    );
    assert_eq!(sb.shopee.push_order(14701711, "2611280001", &push_url).await, 204, "Shopee is answered 204");
    let o = order_of(&app, &t, "shopee", "2611280001", |_| true).await;
    assert_eq!((o["state"].as_str(), o["payment_state"].as_str()), (Some("new"), Some("paid")), "{o}");
    assert_eq!((o["store_channel_id"].as_i64(), o["channel_shop"].as_str()), (Some(shopee), Some("ร้านเสื้อ Shopee")));
    let items = o["items"].as_array().unwrap();
    assert_eq!((items[0]["sku_id"].as_i64(), items[0]["listing"].as_str()), (Some(red), Some("1001:2001")));
    assert_eq!((items[1]["sku_id"].as_i64(), items[1]["sku_code"].as_str()), (Some(0), Some("GIFT-9")));
    assert!(o["problems"].as_array().unwrap().contains(&json!("sku_not_linked")), "{o}");
    assert_eq!(o["total"], "448.00", "2 × 199 + 10 + 40 shipping: {o}");
    assert!(o["bills"].as_array().unwrap().is_empty(), "the buyer paid the marketplace");
    // Only the matched line holds stock.
    level_becomes(&app, &t, w, red, (10, 2)).await;
    // The listing it sold as is linked to our SKU: it shows what is available, absolutely.
    shows("Shopee 1001:2001", 8, || sb.shopee.stock(14701711, 1001, 2001)).await;
    let id = o["id"].as_i64().unwrap();
    let (_, v) = app.get("/orders?problem=sku_not_linked", &t).await;
    assert_eq!(v["data"][0]["id"].as_i64(), Some(id), "{v}");

    // The same push again, and the same change handed over again: nothing changes. (The
    // order as it stands now, its hold settled: it was first read as soon as it was made.)
    let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(sb.shopee.push_order(14701711, "2611280001", &push_url).await, 204);
    let mut orders = OrdersServiceClient::new(app.clients().channel("orders").unwrap());
    let token = app.keys().service_token("marketplaces", app.demo_store, 0).unwrap();
    let ctx = bo_kit::grpc::CallCtx::with_token(app.demo_store, 0, token);
    let take = |changed_at_ms: i64, state: opb::OrderState| opb::TakeChannelOrderRequest {
        store_channel_id: shopee,
        channel: "shopee".into(),
        reference: "2611280001".into(),
        changed_at_ms,
        state: state as i32,
        lines: vec![opb::ChannelLine {
            seller_sku: "MKP-R".into(),
            quantity: 2,
            unit_price: 19_900,
            ..Default::default()
        }],
        ..Default::default()
    };
    let events_before = o["events"].as_array().unwrap().len();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, again) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!((&again["version"], again["events"].as_array().unwrap().len()), (&o["version"], events_before));
    // An older change (a push that overtook another) is ignored.
    let r = orders.take_channel_order(ctx.request(take(1_000, opb::OrderState::Cancelled))).await.unwrap().into_inner();
    assert_eq!((r.order_id, r.outcome()), (id, opb::ChannelTake::Stale));
    assert_eq!(level(&app, &t, w, red).await, (10, 2), "a stale change releases nothing");

    // Someone gives the unlinked line our blue SKU: it holds its stock at once, and the
    // listing is linked for the shop's next orders (and shows our stock).
    let gift = items[1]["id"].as_i64().unwrap();
    let (s, v) = app.post(&format!("/orders/{id}/items/{}/sku", items[0]["id"]), &t, json!({"sku_id": blue})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("item_id")),
        "a linked line"
    );
    let (s, v) = app.post(&format!("/orders/{id}/items/{gift}/sku"), &t, json!({"sku_id": 987654})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("order.sku_unknown"))
    );
    let (s, v) = app.post(&format!("/orders/{id}/items/{gift}/sku"), &t, json!({"sku_id": blue})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["items"][1]["sku_id"].as_i64(), v["items"][1]["sku_code"].as_str()), (Some(blue), Some("MKP-B")));
    assert!(v["problems"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!((v["stock_state"].as_str(), v["total"].as_str()), (Some("held"), Some("448.00")), "the price stays");
    level_becomes(&app, &t, w, blue, (5, 1)).await;
    shows("Shopee 1002", 4, || sb.shopee.stock(14701711, 1002, 0)).await;
    let (s, _) = app.post(&format!("/orders/{id}/items/{gift}/sku"), &t, json!({"sku_id": blue})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "linked once");

    // Packed at Shopee: prepared here; shipped: its stock leaves, without parcels of ours.
    sb.shopee.set_status(14701711, "2611280001", "PROCESSED");
    assert_eq!(sb.shopee.push_order(14701711, "2611280001", &push_url).await, 204);
    order_of(&app, &t, "shopee", "2611280001", state_is("ready_to_fulfillment")).await;
    sb.shopee.set_status(14701711, "2611280001", "SHIPPED");
    assert_eq!(sb.shopee.push_order(14701711, "2611280001", &push_url).await, 204);
    let o = order_of(&app, &t, "shopee", "2611280001", state_is("shipped")).await;
    assert_eq!(o["stock_state"], "committed", "{o}");
    level_becomes(&app, &t, w, red, (8, 0)).await;
    level_becomes(&app, &t, w, blue, (4, 0)).await;
    sb.shopee.set_status(14701711, "2611280001", "COMPLETED");
    assert_eq!(sb.shopee.push_order(14701711, "2611280001", &push_url).await, 204);
    order_of(&app, &t, "shopee", "2611280001", state_is("closed")).await;

    // A cancellation gives the stock back, once, however often it is told.
    sb.shopee.put_order(
        14701711,
        Order::new("2611280002", "READY_TO_SHIP", vec![line("1003", "2003", "MKP-B", "เสื้อยืด (น้ำเงิน)", 3, "350.50")]),
    );
    assert_eq!(sb.shopee.push_order(14701711, "2611280002", &push_url).await, 204);
    order_of(&app, &t, "shopee", "2611280002", |o| o["stock_state"] == "held").await;
    level_becomes(&app, &t, w, blue, (4, 3)).await;
    sb.shopee.set_status(14701711, "2611280002", "CANCELLED");
    for _ in 0..3 {
        assert_eq!(sb.shopee.push_order(14701711, "2611280002", &push_url).await, 204);
    }
    order_of(&app, &t, "shopee", "2611280002", |o| o["state"] == "cancelled" && o["stock_state"] == "released").await;
    level_becomes(&app, &t, w, blue, (4, 0)).await;

    // The linked listing's next order comes as our SKU, whatever its seller SKU says.
    sb.shopee.put_order(
        14701711,
        Order::new("2611280003", "READY_TO_SHIP", vec![line("1002", "0", "GIFT-9", "ของแถม", 1, "10.00")]),
    );
    assert_eq!(sb.shopee.push_order(14701711, "2611280003", &push_url).await, 204);
    let o = order_of(&app, &t, "shopee", "2611280003", |o| o["stock_state"] == "held").await;
    assert_eq!((o["items"][0]["sku_id"].as_i64(), o["problems"].as_array().unwrap().len()), (Some(blue), 0), "{o}");

    // A push Shopee could not deliver is kept on its lost-push list: taken from there and
    // confirmed.
    sb.shopee.put_order(
        14701711,
        Order::new("2611280004", "READY_TO_SHIP", vec![line("1003", "2003", "MKP-B", "เสื้อ", 1, "350.50")]),
    );
    sb.shopee.drop_order_push(14701711, "2611280004");
    assert_eq!(sb.shopee.lost_pending(), 1);
    app.post("/orders/produce-missing-mkp-order-after-token-expire", &t, json!({"store_channel_id": shopee})).await;
    order_of(&app, &t, "shopee", "2611280004", |_| true).await;
    assert_eq!(sb.shopee.lost_pending(), 0, "confirmed");

    // A push that is not Shopee's is refused before anything reads it.
    let res =
        app.client.post(&push_url).header("authorization", "0".repeat(64)).body(r#"{"code":3}"#).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = app.client.post(format!("{}/marketplaces/ebay/push", app.base)).body("{}").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Lazada: a push that never arrived; the poll takes the order in.
    let lazada = connect(&app, &t, "lazada", sb.lazada.authorize("100200300"), "", w).await;
    sb.lazada.add_listing("100200300", "501", "601", 50);
    sb.lazada
        .put_order("100200300", Order::new("880001", "pending", vec![line("501", "601", "MKP-B", "เสื้อ", 1, "350.50")]));
    // A poll reads whole seconds up to the current one (its next round looks again at it).
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (s, v) =
        app.post("/orders/produce-missing-mkp-order-after-token-expire", &t, json!({"store_channel_id": lazada})).await;
    assert_eq!((s, v["shops"].as_i64(), v["orders"].as_i64()), (StatusCode::OK, Some(1), Some(1)), "{v}");
    // Kept under the number the seller sees (Lazada's order_number, not its id).
    let o = order_of(&app, &t, "lazada", "3880001", |_| true).await;
    assert_eq!((o["state"].as_str(), o["channel_shop"].as_str()), (Some("new"), Some("ร้านเสื้อ Lazada")));
    // Polled again: nothing new to take.
    let (_, v) = app.post("/orders/produce-missing-mkp-order-after-token-expire", &t, json!({})).await;
    assert_eq!(v["orders"], 0, "{v}");

    // TikTok Shop pushes are answered 200.
    let tiktok = connect(&app, &t, "tiktok-shop", sb.tiktok.authorize("seller"), "", w).await;
    sb.tiktok.add_listing("7494049642642441621", "1729", "1730", 50);
    sb.tiktok.put_order(
        "7494049642642441621",
        Order::new("579000111", "AWAITING_SHIPMENT", vec![line("1729", "1730", "MKP-R", "เสื้อ", 1, "199.00")]),
    );
    let status = sb
        .tiktok
        .push_order("7494049642642441621", "579000111", &format!("{}/marketplaces/tiktok-shop/push", app.base))
        .await;
    assert_eq!(status, 200);
    let o = order_of(&app, &t, "tiktok_shop", "579000111", |_| true).await;
    assert_eq!(o["store_channel_id"].as_i64(), Some(tiktok));
    // One ledger: the TikTok sale lowers what Shopee shows too, and a count reaches both.
    shows("TikTok 1729:1730", 7, || sb.tiktok.stock("7494049642642441621", "1729", "1730")).await;
    shows("Shopee 1001:2001", 7, || sb.shopee.stock(14701711, 1001, 2001)).await;
    stock_up(&app, &t, w, red, 5).await;
    shows("Shopee 1001:2001", 12, || sb.shopee.stock(14701711, 1001, 2001)).await;
    shows("TikTok 1729:1730", 12, || sb.tiktok.stock("7494049642642441621", "1729", "1730")).await;

    // An authorization Lazada no longer honours: the shop turns to "token expired".
    sb.lazada.expire_access("100200300");
    sb.lazada.end_authorization("100200300");
    let (_, v) = app.post("/orders/produce-missing-mkp-order-after-token-expire", &t, json!({})).await;
    assert_eq!(v["failed_store_channel_ids"], json!([lazada]), "{v}");
    let (_, v) = app.get("/marketplaces/store-channels?is-token-expire=true", &t).await;
    assert_eq!(v["data"][0]["id"].as_i64(), Some(lazada), "{v}");

    // Orders made while it was lost, and a listing changed at Lazada meanwhile: the owner
    // connects the shop again, the missed order is taken in and the listing shows our stock.
    sb.lazada
        .put_order("100200300", Order::new("880002", "pending", vec![line("501", "601", "MKP-B", "เสื้อ", 1, "350.50")]));
    sb.lazada.add_listing("100200300", "501", "601", 99);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (_, v) = app.get(&format!("/marketplaces/lazada/auth-url?store-channel-id={lazada}"), &t).await;
    let state = v["state"].as_str().unwrap().to_string();
    let (s, v) = app
        .post("/marketplaces/lazada/reconnect", &t, json!({"state": state, "code": sb.lazada.authorize("100200300")}))
        .await;
    assert_eq!((s, v["data"][0]["is_token_expire"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
    let (_, v) =
        app.post("/orders/produce-missing-mkp-order-after-token-expire", &t, json!({"store_channel_id": lazada})).await;
    assert_eq!(v["orders"], 1, "{v}");
    order_of(&app, &t, "lazada", "3880002", |o| o["stock_state"] == "held").await;
    let (on_hand, reserved) = level(&app, &t, w, blue).await;
    shows("Lazada 501:601", on_hand - reserved, || sb.lazada.stock("100200300", "501", "601")).await;

    // Staff may not ask for a sync; another store sees none of these orders nor shops.
    let staff = app.member_with(app.demo_store, "mkp-orders-staff@example.com", &["order.order.all"]).await;
    let (s, _) = app.post("/orders/produce-missing-mkp-order-after-token-expire", &staff, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, other) = app.other_owner("mkp-orders-other@example.com").await;
    let (_, v) = app.get("/orders?channel=shopee", &other).await;
    assert_eq!(v["total"], 0);
    let (s, _) = app
        .post("/orders/produce-missing-mkp-order-after-token-expire", &other, json!({"store_channel_id": shopee}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    app.check_stock().await;
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn orders_come_in_once_and_follow_their_marketplace() {
        super::orders_come_in_once_and_follow_their_marketplace(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn orders_come_in_once_and_follow_their_marketplace() {
        super::orders_come_in_once_and_follow_their_marketplace(Stack::Postgres).await;
    }
}
