//! Buyers' returns of marketplace orders, through the API against the sandboxes: each
//! platform's return read with the shop's poll and shown on its order (its stage moving on as
//! the platform moves it, a repeat changing nothing), the order list's mark and filter, and
//! the goods received back into stock once through an approved goods receipt (good units on
//! hand, defective ones counted); refused before the order's stock has left and a second
//! time; rights, another store, and the stock invariants after.

use bo_sandbox::{line, Order, Return};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};
use crate::marketplace_orders::{connect, order_of, state_is};
use crate::marketplaces::{sandboxes, with_sandboxes};
use crate::orders::{level, level_becomes, stock_up, two_skus};

const SHOP: i64 = 14701733;
const SELLER: &str = "100200377";
const TIKTOK_SHOP: &str = "7494049642642441621";

/// Asks the shop's poll now (orders, then returns), after the second in which the sandbox
/// dated its last change has passed.
async fn sync(app: &TestApp, t: &str, shop: i64) {
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    let (s, v) =
        app.post("/orders/produce-missing-mkp-order-after-token-expire", t, json!({"store_channel_id": shop})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// The order once its first return is at `stage`.
async fn return_at(app: &TestApp, t: &str, id: i64, stage: &str) -> Value {
    let started = std::time::Instant::now();
    let mut last = Value::Null;
    while crate::helpers::patient(started) {
        let (_, o) = app.get(&format!("/orders/{id}"), t).await;
        if o["returns"][0]["stage"] == stage {
            return o;
        }
        last = o;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the order's return never reached {stage}: {last}");
}

fn ids(v: &Value) -> Vec<i64> {
    v["data"].as_array().unwrap().iter().map(|o| o["id"].as_i64().unwrap()).collect()
}

async fn a_shopee_return_marks_its_order_and_its_goods_come_back_once(stack: Stack) {
    let sb = sandboxes().await;
    sb.shopee.register_callback("https://bo.example/api/marketplaces/shopee/push");
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, blue) = two_skus(&app, &t, "RTN", w).await;
    stock_up(&app, &t, w, red, 10).await;
    stock_up(&app, &t, w, blue, 10).await;
    let shop = connect(&app, &t, "shopee", sb.shopee.authorize(SHOP), &SHOP.to_string(), w).await;
    let push_url = format!("{}/marketplaces/shopee/push", app.base);
    sb.shopee.add_listing(SHOP, 1001, 2001, 50);
    sb.shopee.add_listing(SHOP, 1001, 2002, 50);
    let lines = || {
        vec![
            line("1001", "2001", "RTN-R", "เสื้อยืด (แดง)", 2, "199.00"),
            line("1001", "2002", "RTN-B", "เสื้อยืด (น้ำเงิน)", 1, "199.00"),
        ]
    };
    for sn in ["2612060101", "2612060102"] {
        sb.shopee.put_order(SHOP, Order::new(sn, "READY_TO_SHIP", lines()));
        assert_eq!(sb.shopee.push_order(SHOP, sn, &push_url).await, 204);
    }
    let id = order_of(&app, &t, "shopee", "2612060101", state_is("new")).await["id"].as_i64().unwrap();
    let waiting = order_of(&app, &t, "shopee", "2612060102", state_is("new")).await["id"].as_i64().unwrap();
    level_becomes(&app, &t, w, red, (10, 4)).await;
    // The first leaves with Shopee's carrier and is received: its stock is gone.
    sb.shopee.set_status(SHOP, "2612060101", "SHIPPED");
    assert_eq!(sb.shopee.push_order(SHOP, "2612060101", &push_url).await, 204);
    order_of(&app, &t, "shopee", "2612060101", state_is("shipped")).await;
    level_becomes(&app, &t, w, red, (8, 2)).await;
    sb.shopee.set_status(SHOP, "2612060101", "COMPLETED");
    assert_eq!(sb.shopee.push_order(SHOP, "2612060101", &push_url).await, 204);
    order_of(&app, &t, "shopee", "2612060101", state_is("closed")).await;

    // The buyer asks to return one red shirt; the other order's buyer, everything.
    let mut r =
        Return::new("RT-1", "2612060101", "REQUESTED", vec![line("1001", "2001", "RTN-R", "เสื้อยืด (แดง)", 1, "199.00")]);
    r.reason = "ITEM_DAMAGED".into();
    sb.shopee.put_return(SHOP, r);
    sb.shopee.put_return(SHOP, Return::new("RT-2", "2612060102", "REQUESTED", lines()));
    // A return of an order never taken in is left alone.
    sb.shopee.put_return(SHOP, Return::new("RT-9", "2612069999", "REQUESTED", lines()));
    sync(&app, &t, shop).await;
    let o = return_at(&app, &t, id, "requested").await;
    assert_eq!(o["return_mark"], "open", "{o}");
    let ret = &o["returns"][0];
    assert_eq!(
        (
            ret["reference"].as_str(),
            ret["refund_only"].as_bool(),
            ret["refund_amount"].as_str(),
            ret["reason"].as_str()
        ),
        (Some("RT-1"), Some(false), Some("199.00"), Some("ITEM_DAMAGED")),
        "{ret}"
    );
    let red_line = o["items"].as_array().unwrap().iter().find(|i| i["sku_id"] == red).unwrap()["id"].as_i64().unwrap();
    assert_eq!(
        ret["lines"],
        json!([{"item_id": red_line, "sku_id": red, "name": ret["lines"][0]["name"], "sku_code": ret["lines"][0]["sku_code"], "quantity": 1, "good": 0, "defective": 0}])
    );
    assert_eq!(ret["receivable"], true, "its stock has left");
    assert!(o["events"].as_array().unwrap().iter().any(|e| e["action"] == "return_reported"), "{o}");
    let other = return_at(&app, &t, waiting, "requested").await;
    assert_eq!(other["returns"][0]["lines"].as_array().map(Vec::len), Some(2));
    assert_eq!(other["returns"][0]["receivable"], false, "its stock is still held");

    // The list marks them and finds them by their mark.
    let (_, v) = app.get("/orders?returns=open", &t).await;
    let mut found = ids(&v);
    found.sort_unstable();
    assert_eq!(found, vec![id.min(waiting), id.max(waiting)], "{v}");
    let (_, v) = app.get("/orders?returns=received", &t).await;
    assert_eq!(ids(&v), Vec::<i64>::new());
    let (s, e) = app.get("/orders?returns=lost", &t).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("returns")));

    // The buyer ships it back: the stage moves on; the same poll again changes nothing.
    sb.shopee.move_return(SHOP, "RT-1", "PROCESSING", "LOGISTICS_PICKUP_DONE");
    sync(&app, &t, shop).await;
    let o = return_at(&app, &t, id, "shipped_back").await;
    assert!(!o["returns"][0]["tracking_no"].as_str().unwrap_or_default().is_empty(), "{o}");
    let events = o["events_total"].as_i64().unwrap();
    sync(&app, &t, shop).await;
    let (_, again) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(again["events_total"].as_i64(), Some(events), "a repeat changes nothing");

    // Who may receive: order editors who may approve goods receipts, of this store.
    let receive = format!("/orders/{id}/returns/{}/receive", o["returns"][0]["id"]);
    let good_one = json!({"lines": [{"item_id": red_line, "good": 1, "defective": 0}], "note": "กล่องบุบ"});
    let reader = app.member_with(app.demo_store, "rtn-reader@example.com", &["order.order.read"]).await;
    assert_eq!(app.get(&format!("/orders/{id}"), &reader).await.1["returns"][0]["stage"], "shipped_back");
    let editor =
        app.member_with(app.demo_store, "rtn-editor@example.com", &["order.order.read", "order.order.edit"]).await;
    for who in [&reader, &editor] {
        let (s, _) = app.post(&receive, who, good_one.clone()).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
    }
    let (_, other_store) = app.other_owner("rtn-other@example.com").await;
    let (s, _) = app.post(&receive, &other_store, good_one.clone()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = app.post(&format!("/orders/{id}/returns/999999/receive"), &t, good_one.clone()).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("order_return_not_found")));

    // Bad counts are named line by line and receive nothing.
    let (s, e) = app.post(&receive, &t, json!({"lines": [{"item_id": red_line, "good": 1, "defective": 1}]})).await;
    assert_eq!(
        (s, e["error"]["fields"][0]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("lines[0].good")),
        "{e}"
    );
    let (s, e) = app.post(&receive, &t, json!({"lines": []})).await;
    assert_eq!(
        (s, e["error"]["fields"][0]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("lines")),
        "{e}"
    );
    let (s, e) =
        app.post(&receive, &t, json!({"lines": [{"item_id": red_line, "good": 1}], "note": "x".repeat(301)})).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("note")), "{e}");
    assert_eq!(level(&app, &t, w, red).await, (8, 2));

    // Received: an approved goods receipt puts the good unit back on hand, once.
    let both = app
        .member_with(
            app.demo_store,
            "rtn-keeper@example.com",
            &["order.order.read", "order.order.edit", "wms.goodsReceipt.approve", "wms.goodsReceipt.read"],
        )
        .await;
    let (s, o) = app.post(&receive, &both, good_one.clone()).await;
    assert_eq!(s, StatusCode::OK, "{o}");
    let ret = &o["returns"][0];
    assert_eq!((ret["receivable"].as_bool(), ret["lines"][0]["good"].as_i64()), (Some(false), Some(1)), "{ret}");
    assert!(ret["received_at"].is_string(), "{ret}");
    assert_eq!(o["return_mark"], "received");
    let receipt = &ret["receipts"][0];
    assert!(receipt["code"].as_str().unwrap().starts_with("GR"), "{receipt}");
    level_becomes(&app, &t, w, red, (9, 2)).await;
    let (s, gr) = app.get(&format!("/wms/goods-receipts/{}", receipt["goods_receipt_id"]), &both).await;
    assert_eq!(s, StatusCode::OK, "{gr}");
    assert_eq!((gr["state"].as_str(), gr["order_id"].as_i64()), (Some("approved"), Some(id)), "{gr}");
    assert!(gr["note"].as_str().unwrap().contains("RT-1") && gr["note"].as_str().unwrap().contains("กล่องบุบ"), "{gr}");
    assert_eq!((gr["items"][0]["receive_qty"].as_i64(), gr["items"][0]["defect_qty"].as_i64()), (Some(1), Some(0)));
    assert!(o["events"].as_array().unwrap().iter().any(|e| e["action"] == "return_received"), "{o}");
    let (s, e) = app.post(&receive, &t, good_one.clone()).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("order_return_not_receivable")));
    assert_eq!(level(&app, &t, w, red).await, (9, 2), "received once");
    let (_, v) = app.get("/orders?returns=received", &t).await;
    assert_eq!(ids(&v), vec![id]);

    // Shopee refunds it later: the return says so, its goods stay received.
    sb.shopee.move_return(SHOP, "RT-1", "ACCEPTED", "LOGISTICS_DELIVERY_DONE");
    sync(&app, &t, shop).await;
    let o = return_at(&app, &t, id, "refunded").await;
    assert_eq!((o["return_mark"].as_str(), o["returns"][0]["lines"][0]["good"].as_i64()), (Some("received"), Some(1)));

    // An order whose stock is still held cannot take goods back.
    let other_ret = format!("/orders/{waiting}/returns/{}/receive", other["returns"][0]["id"]);
    let blue_line =
        other["items"].as_array().unwrap().iter().find(|i| i["sku_id"] == blue).unwrap()["id"].as_i64().unwrap();
    let (s, e) = app.post(&other_ret, &t, json!({"lines": [{"item_id": blue_line, "good": 1}]})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("order_return_not_receivable")));
    app.check_stock().await;
    app.stop().await;
}

async fn lazada_and_tiktok_returns_come_back_as_their_platforms_report_them(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "RTL", w).await;
    stock_up(&app, &t, w, red, 10).await;

    // Lazada: a return of two units (one reverse line each), and a refund without return.
    let lz = connect(&app, &t, "lazada", sb.lazada.authorize(SELLER), "", w).await;
    sb.lazada.add_listing(SELLER, "501", "601", 50);
    let lines = |n| vec![line("501", "601", "RTL-R", "เสื้อยืด (แดง)", n, "199.00")];
    for (n, q) in [("880001", 2), ("880002", 1)] {
        sb.lazada.put_order(SELLER, Order::new(n, "delivered", lines(q)));
    }
    sync(&app, &t, lz).await;
    let id = order_of(&app, &t, "lazada", "3880001", state_is("closed")).await["id"].as_i64().unwrap();
    let refunded = order_of(&app, &t, "lazada", "3880002", state_is("closed")).await["id"].as_i64().unwrap();
    sb.lazada.put_return(SELLER, Return::new("7001", "880001", "RTM_SHIPPING_BACK", lines(2)));
    let mut only = Return::new("7002", "880002", "REFUND_SUCCESS", lines(1));
    only.refund_only = true;
    sb.lazada.put_return(SELLER, only);
    sync(&app, &t, lz).await;
    let o = return_at(&app, &t, id, "shipped_back").await;
    assert_eq!(
        (o["returns"][0]["lines"][0]["quantity"].as_i64(), o["returns"][0]["refund_amount"].as_str()),
        (Some(2), Some("398.00")),
        "{o}"
    );
    let r = return_at(&app, &t, refunded, "refunded").await;
    assert_eq!(
        (r["return_mark"].as_str(), r["returns"][0]["refund_only"].as_bool()),
        (Some("refunded"), Some(true)),
        "{r}"
    );
    sb.lazada.move_return(SELLER, "7001", "RTM_RECEIVE_ITEM");
    sync(&app, &t, lz).await;
    let o = return_at(&app, &t, id, "delivered_back").await;
    // One back fit to sell, one damaged: only the first goes on hand.
    let (before, _) = level(&app, &t, w, red).await;
    let item = o["returns"][0]["lines"][0]["item_id"].as_i64().unwrap();
    let (s, o) = app
        .post(
            &format!("/orders/{id}/returns/{}/receive", o["returns"][0]["id"]),
            &t,
            json!({"lines": [{"item_id": item, "good": 1, "defective": 1}]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{o}");
    assert_eq!(level(&app, &t, w, red).await.0, before + 1);
    let (_, gr) =
        app.get(&format!("/wms/goods-receipts/{}", o["returns"][0]["receipts"][0]["goods_receipt_id"]), &t).await;
    assert_eq!(
        (gr["items"][0]["receive_qty"].as_i64(), gr["items"][0]["defect_qty"].as_i64()),
        (Some(2), Some(1)),
        "{gr}"
    );

    // TikTok Shop: a return naming the SKU only finds its line.
    let tt = connect(&app, &t, "tiktok-shop", sb.tiktok.authorize("seller"), "", w).await;
    sb.tiktok.add_listing(TIKTOK_SHOP, "1729", "1730", 50);
    let tlines = || vec![line("1729", "1730", "RTL-R", "เสื้อยืด (แดง)", 1, "159.00")];
    sb.tiktok.put_order(TIKTOK_SHOP, Order::new("579200001", "DELIVERED", tlines()));
    sync(&app, &t, tt).await;
    let tid = order_of(&app, &t, "tiktok_shop", "579200001", state_is("closed")).await["id"].as_i64().unwrap();
    sb.tiktok.put_return(TIKTOK_SHOP, Return::new("4035001", "579200001", "AWAITING_BUYER_SHIP", tlines()));
    sync(&app, &t, tt).await;
    let o = return_at(&app, &t, tid, "accepted").await;
    assert_eq!(
        (o["returns"][0]["lines"][0]["sku_id"].as_i64(), o["returns"][0]["receivable"].as_bool()),
        (Some(red), Some(true)),
        "{o}"
    );
    // Withdrawn by the buyer: TikTok's webhook brings it without waiting for the poll.
    sb.tiktok.move_return(TIKTOK_SHOP, "4035001", "RETURN_OR_REFUND_REQUEST_CANCEL");
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    let push_url = format!("{}/marketplaces/tiktok-shop/push", app.base);
    assert_eq!(sb.tiktok.push_return(TIKTOK_SHOP, "4035001", &push_url).await, 200);
    return_at(&app, &t, tid, "closed").await;
    // Read again: the order and its returns are two reads, and the one above may have fallen
    // between them while the return was closed.
    let (_, o) = app.get(&format!("/orders/{tid}"), &t).await;
    assert_eq!(o["return_mark"], "closed", "{o}");
    app.check_stock().await;
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn a_shopee_return_marks_its_order_and_its_goods_come_back_once() {
        super::a_shopee_return_marks_its_order_and_its_goods_come_back_once(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn lazada_and_tiktok_returns_come_back_as_their_platforms_report_them() {
        super::lazada_and_tiktok_returns_come_back_as_their_platforms_report_them(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn a_shopee_return_marks_its_order_and_its_goods_come_back_once() {
        super::a_shopee_return_marks_its_order_and_its_goods_come_back_once(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn lazada_and_tiktok_returns_come_back_as_their_platforms_report_them() {
        super::lazada_and_tiktok_returns_come_back_as_their_platforms_report_them(Stack::Postgres).await;
    }
}
