//! Shipping a marketplace order the platform's way, through the API against the Shopee
//! sandbox: the ways the platform offers, a refusal that leaves our order as it was, the
//! arrangement (once) after which our order takes the platform's state, the carrier's
//! tracking number, the platform's labels of several orders in one PDF with the reason for
//! each one not printed, and the parcel leaving with the carrier; a buyer's request to cancel
//! accepted (once, releasing once) or rejected; permissions and another store.

use base64::Engine as _;
use bo_sandbox::{line, Order};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};

use crate::marketplace_orders::{connect, order_of, state_is};
use crate::marketplaces::{sandboxes, with_sandboxes};
use crate::orders::{level_becomes, stock_up, two_skus};

const SHOP: i64 = 14701711;

async fn a_shopee_order_is_arranged_labelled_and_shipped_as_the_platform_says(stack: Stack) {
    let sb = sandboxes().await;
    sb.shopee.register_callback("https://bo.example/api/marketplaces/shopee/push");
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "SHP", w).await;
    stock_up(&app, &t, w, red, 10).await;
    connect(&app, &t, "shopee", sb.shopee.authorize(SHOP), &SHOP.to_string(), w).await;
    let push_url = format!("{}/marketplaces/shopee/push", app.base);
    sb.shopee.add_listing(SHOP, 1001, 2001, 50);
    let lines = || vec![line("1001", "2001", "SHP-R", "เสื้อยืด (แดง)", 1, "199.00")];
    for sn in ["2612020101", "2612020102"] {
        sb.shopee.put_order(SHOP, Order::new(sn, "READY_TO_SHIP", lines()));
        assert_eq!(sb.shopee.push_order(SHOP, sn, &push_url).await, 204);
    }
    let (id, id2) = (taken(&app, &t, "shopee", "2612020101").await, taken(&app, &t, "shopee", "2612020102").await);
    level_becomes(&app, &t, w, red, (10, 2)).await;

    // Staff cannot prepare, ship or cancel it by hand: Shopee decides, ours follows.
    let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(o["platform_ships"], true, "{o}");
    let allowed: Vec<&str> = o["allowed_actions"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(!allowed.iter().any(|a| ["ready_to_fulfillment", "cancel", "ship"].contains(a)), "{allowed:?}");
    for (path, body) in [
        ("/orders/ready-to-fulfillment", json!({"ids": [id]})),
        ("/orders/cancel", json!({"ids": [id], "reason": "ลูกค้าขอยกเลิก"})),
    ] {
        let (s, v) = app.post(path, &t, body).await;
        assert_eq!(
            (s, v["data"][0]["reason"].as_str()),
            (StatusCode::OK, Some("channel_order_follows_platform")),
            "{v}"
        );
    }
    assert_eq!(app.get(&format!("/orders/{id}"), &t).await.1["state"], "new");

    // The ways Shopee offers: pick-up at the shop's address in two slots, or a drop-off.
    let shipping = format!("/orders/{id}/marketplace-shipping");
    let (s, v) = app.get(&shipping, &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["options"]["dropoff"].as_bool(), v["shipment"].clone()), (Some(true), Value::Null), "{v}");
    let address = &v["options"]["pickup"][0];
    assert_eq!((address["is_default"].as_bool(), address["slots"].as_array().map(Vec::len)), (Some(true), Some(2)));
    let (address_id, slot) =
        (address["id"].as_str().unwrap().to_string(), address["slots"][0]["id"].as_str().unwrap().to_string());

    // Who may: a reader reads, only an editor arranges; another store finds nothing.
    let reader = app.member_with(app.demo_store, "ship-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.get(&shipping, &reader).await;
    assert_eq!(s, StatusCode::OK);
    let pickup = json!({"handover": "pickup", "address_id": address_id, "slot_id": slot});
    let (s, _) = app.post(&shipping, &reader, pickup.clone()).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post("/orders/marketplace-labels", &reader, json!({"order_ids": [id]})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, other) = app.other_owner("ship-other@example.com").await;
    let (s, e) = app.get(&shipping, &other).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("channel_order_not_found")));
    let (s, _) = app.post(&shipping, &other, pickup.clone()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(sb.shopee.shipment(SHOP, "2612020101"), None);

    // Bad input is refused field by field; a slot Shopee did not offer is Shopee's refusal,
    // and our order stays as it was.
    let (s, e) = app.post(&shipping, &t, json!({"handover": "fly"})).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("handover")));
    let (s, e) = app.post(&shipping, &t, json!({"handover": "pickup", "address_id": address_id})).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("slot_id")));
    let (s, e) = app.post(&shipping, &t, json!({"handover": "pickup", "address_id": address_id, "slot_id": "1"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_rejected")), "{e}");
    assert_eq!(app.get(&format!("/orders/{id}"), &t).await.1["state"], "new");

    // Arranged with Shopee first; our order then takes the state Shopee gives it.
    let (s, v) = app.post(&shipping, &t, pickup.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["shipment"]["handover"], "pickup");
    assert_eq!(sb.shopee.shipment(SHOP, "2612020101").map(|s| s.0), Some("pickup".to_string()));
    assert_eq!(app.get(&format!("/orders/{id}"), &t).await.1["state"], "ready_to_fulfillment");
    // Arranged twice is arranged once.
    let (s, again) = app.post(&shipping, &t, json!({"handover": "dropoff"})).await;
    assert_eq!((s, again["shipment"]["handover"].as_str()), (StatusCode::OK, Some("pickup")));
    // The carrier's tracking number, once Shopee has it.
    let mut tracking = String::new();
    for _ in 0..5 {
        let (_, v) = app.get(&shipping, &t).await;
        tracking = v["shipment"]["tracking_no"].as_str().unwrap_or_default().to_string();
        if !tracking.is_empty() {
            break;
        }
    }
    assert_eq!(Some(tracking.clone()), sb.shopee.shipment(SHOP, "2612020101").map(|s| s.1));

    // The labels of three orders: the arranged one printed, the others with their reasons.
    let typed = crate::orders::create(&app, &t, crate::orders::order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!(typed["platform_ships"], false, "an order made here ships our way");
    let typed = typed["id"].as_i64().unwrap();
    let (s, v) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": [id, id2, typed]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["printed"], json!([id]));
    let failed: Vec<(i64, &str)> = v["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["order_id"].as_i64().unwrap(), f["code"].as_str().unwrap()))
        .collect();
    assert_eq!(failed, vec![(id2, "channel_shipment_not_arranged"), (typed, "channel_order_not_found")]);
    let pdf = base64::engine::general_purpose::STANDARD.decode(v["pdf"].as_str().unwrap()).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    if let Some(text) = bo_pdf::testing::pdftotext(&pdf) {
        assert!(text.contains(&tracking) && text.contains("2612020101"), "{text}");
    }
    let (_, v) = app.get(&shipping, &t).await;
    assert!(!v["shipment"]["label_printed_at"].as_str().unwrap_or_default().is_empty(), "{v}");
    // The second arranged too, from the list with the typed one (which has no platform) and
    // the first (arranged before): both labels in one PDF, in the order asked.
    let many = |ids: Vec<i64>, how: &str| json!({"order_ids": ids, "handover": how});
    let (s, _) = app.post("/orders/marketplace-shipping", &reader, many(vec![id2], "dropoff")).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, e) = app.post("/orders/marketplace-shipping", &t, many(vec![id2], "fly")).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("handover")));
    let (s, v) = app.post("/orders/marketplace-shipping", &t, many(vec![id2, typed, id], "dropoff")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["arranged"], json!([id2, id]), "{v}");
    assert_eq!(
        (v["failed"][0]["order_id"].as_i64(), v["failed"][0]["code"].as_str()),
        (Some(typed), Some("channel_order_not_found"))
    );
    assert_eq!(sb.shopee.shipment(SHOP, "2612020102").map(|s| s.0), Some("dropoff".to_string()));
    assert_eq!(app.get(&format!("/orders/{id2}"), &t).await.1["state"], "ready_to_fulfillment");
    let (_, v) = app.get(&format!("/orders/{id2}/marketplace-shipping"), &t).await;
    let tracking2 = v["shipment"]["tracking_no"].as_str().unwrap_or_default().to_string();
    assert!(!tracking2.is_empty(), "{v}");
    let (_, v) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": [id2, id]})).await;
    assert_eq!((v["printed"].clone(), v["failed"].as_array().map(Vec::len)), (json!([id2, id]), Some(0)), "{v}");
    let pdf = base64::engine::general_purpose::STANDARD.decode(v["pdf"].as_str().unwrap()).unwrap();
    if let Some(text) = bo_pdf::testing::pdftotext(&pdf) {
        let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s} missing:\n{text}"));
        assert!(at(&tracking2) < at(&tracking), "in the order asked");
    }
    let (s, e) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": []})).await;
    assert_eq!((s, e["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("order_ids")));
    let many: Vec<i64> = (1..=51).collect();
    let (s, _) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": many})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);

    // The carrier picks it up: Shopee says shipped, and the stock leaves the shelf once.
    sb.shopee.set_status(SHOP, "2612020101", "SHIPPED");
    assert_eq!(sb.shopee.push_order(SHOP, "2612020101", &push_url).await, 204);
    order_of(&app, &t, "shopee", "2612020101", state_is("shipped")).await;
    assert_eq!(sb.shopee.push_order(SHOP, "2612020101", &push_url).await, 204);
    // One unit left with the carrier; the second and the typed one hold.
    level_becomes(&app, &t, w, red, (9, 2)).await;

    // A cancelled order is not shipped: Shopee's words.
    sb.shopee.put_order(SHOP, Order::new("2612020103", "READY_TO_SHIP", lines()));
    assert_eq!(sb.shopee.push_order(SHOP, "2612020103", &push_url).await, 204);
    let third = taken(&app, &t, "shopee", "2612020103").await;
    sb.shopee.set_status(SHOP, "2612020103", "IN_CANCEL");
    let (s, e) = app.get(&format!("/orders/{third}/marketplace-shipping"), &t).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_rejected")), "{e}");
    // An order typed in the back-office has no marketplace shipping.
    let (s, e) = app.get(&format!("/orders/{typed}/marketplace-shipping"), &t).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("channel_order_not_found")));
    app.check_stock().await;
    app.stop().await;
}

const SELLER: &str = "100200300";

/// Lazada takes new orders in through the poll (its pushes are best effort): a poll reads
/// whole seconds up to the current one.
async fn lazada_poll(app: &TestApp, t: &str, shop: i64) {
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    let (s, v) =
        app.post("/orders/produce-missing-mkp-order-after-token-expire", t, json!({"store_channel_id": shop})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

async fn a_lazada_order_is_packed_and_set_ready_to_ship_as_the_shop_is_set_up(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "LZS", w).await;
    stock_up(&app, &t, w, red, 10).await;
    let shop = connect(&app, &t, "lazada", sb.lazada.authorize(SELLER), "", w).await;
    sb.lazada.add_listing(SELLER, "501", "601", 50);
    let lines = |n| vec![line("501", "601", "LZS-R", "เสื้อยืด (แดง)", n, "199.00")];
    sb.lazada.put_order(SELLER, Order::new("990001", "pending", lines(2)));
    sb.lazada.put_order(SELLER, Order::new("990002", "pending", lines(1)));
    lazada_poll(&app, &t, shop).await;
    // Kept under the number the seller sees.
    let (id, id2) = (taken(&app, &t, "lazada", "3990001").await, taken(&app, &t, "lazada", "3990002").await);
    level_becomes(&app, &t, w, red, (10, 3)).await;

    // Lazada offers no choice per order: its carrier picks up or is handed the parcel as the
    // shop is set up in Seller Center.
    let shipping = format!("/orders/{id}/marketplace-shipping");
    let (s, v) = app.get(&shipping, &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["options"], json!({"pickup": [], "dropoff": false, "own_carrier": false, "platform": true}), "{v}");
    let (s, e) = app.post(&shipping, &t, json!({"handover": "dropoff"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_rejected")), "{e}");
    assert_eq!(sb.lazada.package(SELLER, "990001"), None);
    let reader = app.member_with(app.demo_store, "lzs-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.post(&shipping, &reader, json!({"handover": "platform"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // Packed into one package with Lazada's tracking number, then set ready to ship; our
    // order follows Lazada.
    let (s, v) = app.post(&shipping, &t, json!({"handover": "platform"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (package, tracking) = sb.lazada.package(SELLER, "990001").expect("packed at Lazada");
    assert_eq!(sb.lazada.status(SELLER, "990001").as_deref(), Some("ready_to_ship"));
    assert_eq!(
        (v["shipment"]["handover"].as_str(), v["shipment"]["tracking_no"].as_str()),
        (Some("platform"), Some(tracking.as_str()))
    );
    assert_eq!(app.get(&format!("/orders/{id}"), &t).await.1["state"], "ready_to_fulfillment");
    let (s, again) = app.post(&shipping, &t, json!({"handover": "platform"})).await;
    assert_eq!((s, again["shipment"]["tracking_no"].as_str()), (StatusCode::OK, Some(tracking.as_str())), "once");
    assert_eq!(sb.lazada.package(SELLER, "990001").map(|p| p.0), Some(package));

    // The second from the list: "pick-up" for all goes Lazada's way for a Lazada order.
    let (s, v) = app.post("/orders/marketplace-shipping", &t, json!({"order_ids": [id2], "handover": "pickup"})).await;
    assert_eq!((s, v["arranged"].clone()), (StatusCode::OK, json!([id2])), "{v}");
    assert_eq!(sb.lazada.status(SELLER, "990002").as_deref(), Some("ready_to_ship"));
    let tracking2 = sb.lazada.package(SELLER, "990002").unwrap().1;

    // Both air waybills in one PDF, in the order asked.
    let (s, v) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": [id2, id]})).await;
    assert_eq!((s, v["printed"].clone()), (StatusCode::OK, json!([id2, id])), "{v}");
    let pdf = base64::engine::general_purpose::STANDARD.decode(v["pdf"].as_str().unwrap()).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    if let Some(text) = bo_pdf::testing::pdftotext(&pdf) {
        let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s} missing:\n{text}"));
        assert!(at(&tracking2) < at(&tracking) && text.contains("990001"), "{text}");
    }

    // An order the buyer cancelled at Lazada is not packed: Lazada's words.
    sb.lazada.put_order(SELLER, Order::new("990003", "pending", lines(1)));
    lazada_poll(&app, &t, shop).await;
    let third = taken(&app, &t, "lazada", "3990003").await;
    sb.lazada.set_status(SELLER, "990003", "canceled");
    let (s, e) = app.get(&format!("/orders/{third}/marketplace-shipping"), &t).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_rejected")), "{e}");
    app.check_stock().await;
    app.stop().await;
}

const TIKTOK_SHOP: &str = "7494049642642441621";

async fn a_tiktok_package_ships_as_the_warehouse_is_set_up_and_its_label_prints_until_collected(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "TTS", w).await;
    stock_up(&app, &t, w, red, 10).await;
    connect(&app, &t, "tiktok-shop", sb.tiktok.authorize("seller"), "", w).await;
    sb.tiktok.add_listing(TIKTOK_SHOP, "1729", "1730", 50);
    let push_url = format!("{}/marketplaces/tiktok-shop/push", app.base);
    let lines = || vec![line("1729", "1730", "TTS-R", "เสื้อยืด (แดง)", 1, "199.00")];
    for (n, status) in [("579100001", "AWAITING_SHIPMENT"), ("579100002", "ON_HOLD")] {
        sb.tiktok.put_order(TIKTOK_SHOP, Order::new(n, status, lines()));
        assert_eq!(sb.tiktok.push_order(TIKTOK_SHOP, n, &push_url).await, 200);
    }
    let (id, held) =
        (taken(&app, &t, "tiktok_shop", "579100001").await, taken(&app, &t, "tiktok_shop", "579100002").await);

    // In TikTok's hold period nothing is asked of TikTok; after it, the one way a Thai shop has.
    let (s, e) = app.get(&format!("/orders/{held}/marketplace-shipping"), &t).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("channel_order_on_hold")), "{e}");
    let shipping = format!("/orders/{id}/marketplace-shipping");
    let (s, v) = app.get(&shipping, &t).await;
    assert_eq!((s, v["options"]["platform"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
    let (s, e) = app.post(&shipping, &t, json!({"handover": "dropoff"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_rejected")), "{e}");
    assert_eq!(sb.tiktok.status(TIKTOK_SHOP, "579100001").as_deref(), Some("AWAITING_SHIPMENT"));

    // Shipped at TikTok; our order follows, with the carrier's number.
    let (s, v) = app.post(&shipping, &t, json!({"handover": "platform"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let tracking = sb.tiktok.tracking(TIKTOK_SHOP, "579100001").expect("shipped at TikTok");
    assert_eq!(v["shipment"]["tracking_no"].as_str(), Some(tracking.as_str()), "{v}");
    assert_eq!(app.get(&format!("/orders/{id}"), &t).await.1["state"], "ready_to_fulfillment");
    let (s, again) = app.post(&shipping, &t, json!({"handover": "platform"})).await;
    assert_eq!((s, again["shipment"]["tracking_no"].as_str()), (StatusCode::OK, Some(tracking.as_str())), "once");

    // Its label, then none once the carrier has the parcel: TikTok's words.
    let (s, v) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": [id]})).await;
    assert_eq!((s, v["printed"].clone()), (StatusCode::OK, json!([id])), "{v}");
    let pdf = base64::engine::general_purpose::STANDARD.decode(v["pdf"].as_str().unwrap()).unwrap();
    if let Some(text) = bo_pdf::testing::pdftotext(&pdf) {
        assert!(text.contains(&tracking) && text.contains("579100001"), "{text}");
    }
    sb.tiktok.set_status(TIKTOK_SHOP, "579100001", "IN_TRANSIT");
    assert_eq!(sb.tiktok.push_order(TIKTOK_SHOP, "579100001", &push_url).await, 200);
    order_of(&app, &t, "tiktok_shop", "579100001", state_is("shipped")).await;
    let (_, v) = app.post("/orders/marketplace-labels", &t, json!({"order_ids": [id]})).await;
    assert_eq!(
        (v["printed"].clone(), v["failed"][0]["code"].as_str()),
        (json!([]), Some("marketplace_rejected")),
        "{v}"
    );
    assert!(v["failed"][0]["message"].as_str().unwrap_or_default().starts_with("21042102"), "{v}");
    level_becomes(&app, &t, w, red, (9, 1)).await;
    app.check_stock().await;
    app.stop().await;
}

/// Lazada's and TikTok Shop's buyers' requests to cancel: shown with the buyer's reason where
/// the platform gives one, accepted (the platform cancels; ours follows, releasing once) or
/// rejected (the order goes on and may be shipped) on the platform first.
async fn lazada_and_tiktok_cancellation_requests_are_answered_on_their_platform(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "RVC", w).await;
    stock_up(&app, &t, w, red, 10).await;
    let lazada = connect(&app, &t, "lazada", sb.lazada.authorize(SELLER), "", w).await;
    connect(&app, &t, "tiktok-shop", sb.tiktok.authorize("seller"), "", w).await;
    sb.lazada.add_listing(SELLER, "501", "601", 50);
    sb.tiktok.add_listing(TIKTOK_SHOP, "1729", "1730", 50);
    let push_url = format!("{}/marketplaces/tiktok-shop/push", app.base);
    for n in ["990101", "990102"] {
        sb.lazada.put_order(SELLER, Order::new(n, "pending", vec![line("501", "601", "RVC-R", "เสื้อยืด", 1, "199.00")]));
    }
    sb.tiktok.put_order(
        TIKTOK_SHOP,
        Order::new("579200001", "AWAITING_SHIPMENT", vec![line("1729", "1730", "RVC-R", "เสื้อยืด", 1, "199.00")]),
    );
    assert_eq!(sb.tiktok.push_order(TIKTOK_SHOP, "579200001", &push_url).await, 200);
    lazada_poll(&app, &t, lazada).await;
    let (l1, l2) = (taken(&app, &t, "lazada", "3990101").await, taken(&app, &t, "lazada", "3990102").await);
    let tt = taken(&app, &t, "tiktok_shop", "579200001").await;
    level_becomes(&app, &t, w, red, (10, 3)).await;
    let answer = |id: i64| format!("/orders/{id}/marketplace-cancellation");

    // Lazada: the buyer asks to cancel the first; accepted on Lazada, ours is cancelled once.
    sb.lazada.ask_cancel(SELLER, "990101", "เปลี่ยนใจ").unwrap();
    lazada_poll(&app, &t, lazada).await;
    let v = cancel_request_shows(&app, &t, l1).await;
    assert_eq!((v["cancel_request"]["reason"].as_str(), &v["options"]), (Some("เปลี่ยนใจ"), &Value::Null), "{v}");
    let reader = app.member_with(app.demo_store, "rvc-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.post(&answer(l1), &reader, json!({"decision": "accept"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = app.post(&answer(l1), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, v["cancelled"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
    assert_eq!(sb.lazada.status(SELLER, "990101").as_deref(), Some("canceled"));
    assert_eq!(app.get(&format!("/orders/{l1}"), &t).await.1["state"], "cancelled");
    level_becomes(&app, &t, w, red, (10, 2)).await;
    let (s, e) = app.post(&answer(l1), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("channel_cancel_not_asked")), "{e}");

    // The second's request is rejected: it goes on, and may be shipped again.
    sb.lazada.ask_cancel(SELLER, "990102", "สั่งผิด").unwrap();
    lazada_poll(&app, &t, lazada).await;
    cancel_request_shows(&app, &t, l2).await;
    let (s, v) = app.post(&answer(l2), &t, json!({"decision": "reject"})).await;
    assert_eq!((s, v["cancelled"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
    assert_eq!(sb.lazada.status(SELLER, "990102").as_deref(), Some("pending"));
    let (_, v) = app.get(&format!("/orders/{l2}/marketplace-shipping"), &t).await;
    assert_eq!((v["cancel_request"].clone(), v["options"]["platform"].as_bool()), (Value::Null, Some(true)), "{v}");

    // TikTok Shop: rejected with a reason TikTok offers, then asked again and accepted.
    sb.tiktok.ask_cancel(TIKTOK_SHOP, "579200001", "Order created by mistake").unwrap();
    assert_eq!(sb.tiktok.push_order(TIKTOK_SHOP, "579200001", &push_url).await, 200);
    cancel_request_shows(&app, &t, tt).await;
    let (s, v) = app.post(&answer(tt), &t, json!({"decision": "reject"})).await;
    assert_eq!((s, v["cancelled"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
    assert_eq!(sb.tiktok.status(TIKTOK_SHOP, "579200001").as_deref(), Some("AWAITING_SHIPMENT"));
    sb.tiktok.ask_cancel(TIKTOK_SHOP, "579200001", "Order created by mistake").unwrap();
    assert_eq!(sb.tiktok.push_order(TIKTOK_SHOP, "579200001", &push_url).await, 200);
    cancel_request_shows(&app, &t, tt).await;
    let (s, v) = app.post(&answer(tt), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, v["cancelled"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
    assert_eq!(sb.tiktok.status(TIKTOK_SHOP, "579200001").as_deref(), Some("CANCELLED"));
    level_becomes(&app, &t, w, red, (10, 1)).await;
    // TikTok's webhook of the cancellation, twice, changes nothing.
    for _ in 0..2 {
        assert_eq!(sb.tiktok.push_order(TIKTOK_SHOP, "579200001", &push_url).await, 200);
    }
    assert_eq!(app.get(&format!("/orders/{tt}"), &t).await.1["state"], "cancelled");
    level_becomes(&app, &t, w, red, (10, 1)).await;
    app.check_stock().await;
    app.stop().await;
}

/// Our order of a marketplace number once the marketplaces service has recorded it as that
/// marketplace's order too (a moment after the orders service made it): its id.
async fn taken(app: &TestApp, t: &str, marketplace: &str, number: &str) -> i64 {
    let id = order_of(app, t, marketplace, number, state_is("new")).await["id"].as_i64().unwrap();
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (s, e) = app.get(&format!("/orders/{id}/marketplace-shipping"), t).await;
        if e["error"]["code"] != "channel_order_not_found" {
            assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{e}");
            return id;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the marketplaces service never recorded {number}");
}

/// Waits until the order's marketplace shipping shows the buyer's request to cancel (a push
/// is taken from the inbox a moment after it is answered): the request.
async fn cancel_request_shows(app: &TestApp, t: &str, id: i64) -> Value {
    let started = std::time::Instant::now();
    let mut last = Value::Null;
    while crate::helpers::patient(started) {
        let (s, v) = app.get(&format!("/orders/{id}/marketplace-shipping"), t).await;
        if s == StatusCode::OK && v["cancel_request"].is_object() {
            return v;
        }
        last = v;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no cancel request shows: {last}");
}

async fn a_cancellation_request_accepted_once_releases_once(stack: Stack) {
    let sb = sandboxes().await;
    sb.shopee.register_callback("https://bo.example/api/marketplaces/shopee/push");
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "CNL", w).await;
    stock_up(&app, &t, w, red, 10).await;
    connect(&app, &t, "shopee", sb.shopee.authorize(SHOP), &SHOP.to_string(), w).await;
    let push_url = format!("{}/marketplaces/shopee/push", app.base);
    sb.shopee.add_listing(SHOP, 1001, 2001, 50);
    let lines = || vec![line("1001", "2001", "CNL-R", "เสื้อยืด (แดง)", 1, "199.00")];
    let (a, b, c) = ("2612030101", "2612030102", "2612030103");
    let mut ours = Vec::new();
    for sn in [a, b, c] {
        sb.shopee.put_order(SHOP, Order::new(sn, "READY_TO_SHIP", lines()));
        assert_eq!(sb.shopee.push_order(SHOP, sn, &push_url).await, 204);
        ours.push(taken(&app, &t, "shopee", sn).await);
    }
    let (id_a, id_b, id_c) = (ours[0], ours[1], ours[2]);
    level_becomes(&app, &t, w, red, (10, 3)).await;
    let answer = |id: i64| format!("/orders/{id}/marketplace-cancellation");

    // No request waits: refused here, Shopee is not asked.
    let (s, e) = app.post(&answer(id_a), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("channel_cancel_not_asked")), "{e}");
    assert_eq!(sb.shopee.cancel_calls(), 0);

    // The buyer asks to cancel A: the order shows the request with the buyer's reason, and no
    // way of shipping while it waits.
    sb.shopee.ask_cancel(SHOP, a, "ต้องการเปลี่ยนที่อยู่จัดส่ง");
    assert_eq!(sb.shopee.push_order(SHOP, a, &push_url).await, 204);
    let v = cancel_request_shows(&app, &t, id_a).await;
    assert_eq!((v["cancel_request"]["reason"].as_str(), &v["options"]), (Some("ต้องการเปลี่ยนที่อยู่จัดส่ง"), &Value::Null));
    assert_eq!(app.get(&format!("/orders/{id_a}"), &t).await.1["state"], "new");

    // Who may answer: an editor only; another store finds nothing; a wrong word is refused.
    let reader = app.member_with(app.demo_store, "cancel-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.post(&answer(id_a), &reader, json!({"decision": "accept"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, other) = app.other_owner("cancel-other@example.com").await;
    let (s, e) = app.post(&answer(id_a), &other, json!({"decision": "accept"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("channel_order_not_found")));
    for (decision, code) in [("", "validation.required"), ("maybe", "validation.choice")] {
        let (s, e) = app.post(&answer(id_a), &t, json!({ "decision": decision })).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
        assert_eq!(
            (e["error"]["fields"][0]["field"].as_str(), e["error"]["fields"][0]["code"].as_str()),
            (Some("decision"), Some(code))
        );
    }
    assert_eq!((sb.shopee.cancel_calls(), sb.shopee.cancel_answer(SHOP, a)), (0, Some(String::new())));

    // Accepted: Shopee cancels it first, then ours is cancelled and its unit released.
    let (s, v) = app.post(&answer(id_a), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, v["cancelled"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
    assert_eq!(sb.shopee.cancel_answer(SHOP, a).as_deref(), Some("ACCEPT"));
    assert_eq!(app.get(&format!("/orders/{id_a}"), &t).await.1["state"], "cancelled");
    level_becomes(&app, &t, w, red, (10, 2)).await;
    // Accepted once: a second answer is refused without asking Shopee, and Shopee's push of
    // the cancellation (twice) changes nothing.
    let (s, e) = app.post(&answer(id_a), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("channel_cancel_not_asked")), "{e}");
    assert_eq!(sb.shopee.cancel_calls(), 1);
    for _ in 0..2 {
        assert_eq!(sb.shopee.push_order(SHOP, a, &push_url).await, 204);
    }

    // B's request is rejected: Shopee puts it back where it was, ours goes on holding its
    // unit and may be shipped again.
    sb.shopee.ask_cancel(SHOP, b, "สั่งผิด");
    assert_eq!(sb.shopee.push_order(SHOP, b, &push_url).await, 204);
    cancel_request_shows(&app, &t, id_b).await;
    let (s, v) = app.post(&answer(id_b), &t, json!({"decision": "reject"})).await;
    assert_eq!((s, v["cancelled"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
    assert_eq!(sb.shopee.cancel_answer(SHOP, b).as_deref(), Some("REJECT"));
    let (s, v) = app.get(&format!("/orders/{id_b}/marketplace-shipping"), &t).await;
    assert_eq!(
        (s, v["cancel_request"].clone(), v["options"]["dropoff"].as_bool()),
        (StatusCode::OK, Value::Null, Some(true)),
        "{v}"
    );
    assert_eq!(app.get(&format!("/orders/{id_b}"), &t).await.1["state"], "new");

    // C's buyer withdraws before the seller answers: Shopee refuses in its words, and the
    // order read back no longer shows a request.
    sb.shopee.ask_cancel(SHOP, c, "");
    assert_eq!(sb.shopee.push_order(SHOP, c, &push_url).await, 204);
    assert_eq!(cancel_request_shows(&app, &t, id_c).await["cancel_request"]["reason"], "");
    sb.shopee.set_status(SHOP, c, "READY_TO_SHIP");
    let (s, e) = app.post(&answer(id_c), &t, json!({"decision": "accept"})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_rejected")), "{e}");
    let (_, v) = app.get(&format!("/orders/{id_c}/marketplace-shipping"), &t).await;
    assert_eq!(v["cancel_request"], Value::Null, "{v}");

    // Released once: B and C hold, A released its unit once.
    level_becomes(&app, &t, w, red, (10, 2)).await;
    app.check_stock().await;
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn a_shopee_order_is_arranged_labelled_and_shipped_as_the_platform_says() {
        super::a_shopee_order_is_arranged_labelled_and_shipped_as_the_platform_says(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn a_cancellation_request_accepted_once_releases_once() {
        super::a_cancellation_request_accepted_once_releases_once(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn a_lazada_order_is_packed_and_set_ready_to_ship_as_the_shop_is_set_up() {
        super::a_lazada_order_is_packed_and_set_ready_to_ship_as_the_shop_is_set_up(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn lazada_and_tiktok_cancellation_requests_are_answered_on_their_platform() {
        super::lazada_and_tiktok_cancellation_requests_are_answered_on_their_platform(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn a_tiktok_package_ships_as_the_warehouse_is_set_up_and_its_label_prints_until_collected() {
        super::a_tiktok_package_ships_as_the_warehouse_is_set_up_and_its_label_prints_until_collected(Stack::Embedded)
            .await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn a_shopee_order_is_arranged_labelled_and_shipped_as_the_platform_says() {
        super::a_shopee_order_is_arranged_labelled_and_shipped_as_the_platform_says(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn a_cancellation_request_accepted_once_releases_once() {
        super::a_cancellation_request_accepted_once_releases_once(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn a_lazada_order_is_packed_and_set_ready_to_ship_as_the_shop_is_set_up() {
        super::a_lazada_order_is_packed_and_set_ready_to_ship_as_the_shop_is_set_up(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn lazada_and_tiktok_cancellation_requests_are_answered_on_their_platform() {
        super::lazada_and_tiktok_cancellation_requests_are_answered_on_their_platform(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn a_tiktok_package_ships_as_the_warehouse_is_set_up_and_its_label_prints_until_collected() {
        super::a_tiktok_package_ships_as_the_warehouse_is_set_up_and_its_label_prints_until_collected(Stack::Postgres)
            .await;
    }
}
