//! The e-parcel account and tracking pushes through the API, against a sandbox of the
//! postal provider's tracking API that checks keys and tokens as the real one does; Flash
//! Express bookings, labels and routes against Flash's sandbox, alone and for an order.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};

#[path = "../../../logistics/tests/sandbox/mod.rs"]
mod sandbox;

async fn with_sandbox(stack: Stack, base_url: &str) -> Option<TestApp> {
    with_sandboxes(stack, base_url, "http://127.0.0.1:9").await
}

async fn with_sandboxes(stack: Stack, thaipost: &str, flash: &str) -> Option<TestApp> {
    let carriers = figment::value::Value::serialize(
        json!({"thaipost_base_url": thaipost, "flash_base_url": flash, "timeout_ms": 3000}),
    )
    .unwrap();
    TestApp::start_with(stack, |cfg| {
        cfg.service("logistics").settings.insert("carriers".into(), carriers);
    })
    .await
}

async fn the_e_parcel_account_and_tracking_pushes(stack: Stack) {
    let post = sandbox::thaipost::ThaiPostSandbox::start("tp-key-0123456789").await;
    let Some(app) = with_sandbox(stack, &post.base_url).await else { return };
    let t = app.owner().await;
    let path = "/logistics/account-management-channels/thaipost";

    let (s, v) = app.get(path, &t).await;
    assert_eq!((s, v["connected"].as_bool()), (StatusCode::OK, Some(false)));
    // A key the postal provider refuses is not kept.
    let (s, v) = app.post(path, &t, json!({"api_key": "wrong-key"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["fields"][0], json!({"field": "api_key", "code": "carrier_auth_failed"}));
    assert!(!v.to_string().contains("wrong-key"), "the key never comes back");
    let (_, v) = app.get(path, &t).await;
    assert_eq!(v["connected"], false);
    // The right one is, masked.
    let (s, v) = app.post(path, &t, json!({"api_key": "tp-key-0123456789"})).await;
    assert_eq!(
        (s, v["status"].as_str(), v["masked_key"].as_str()),
        (StatusCode::OK, Some("working"), Some("•••••••••••••6789"))
    );
    let hook = v["webhook_path"].as_str().unwrap().to_string();
    assert!(hook.starts_with("/logistics/webhooks/thaipost/") && hook.len() > 60, "{hook}");
    let (_, v) = app.get(&format!("{path}?check=true"), &t).await;
    assert_eq!(v["status"], "working");
    // While the provider is down the key is kept and the screen says it cannot tell.
    post.down(true);
    let (_, v) = app.get(&format!("{path}?check=true"), &t).await;
    assert_eq!((v["connected"].as_bool(), v["status"].as_str()), (Some(true), Some("unreachable")));
    let (s, v) = app.post(path, &t, json!({"api_key": "tp-key-0123456789"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("carrier_unreachable")));
    post.down(false);

    // A followed parcel moves with the provider's pushes.
    let (s, v) =
        app.post("/logistics/shipments", &t, json!({"carrier": "thaipost", "tracking_no": "EY123456784TH"})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.tracking_number"))
    );
    let (s, v) = app
        .post(
            "/logistics/shipments",
            &t,
            json!({"carrier": "thaipost", "tracking_no": "ey123456785th", "reference": "order-7"}),
        )
        .await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("pending")), "{v}");
    let push = |items: Vec<serde_json::Value>| json!({"status": true, "message": "successful", "items": items, "track_datetime": "20/07/2566 09:00:00+07:00"});
    let accepted =
        sandbox::thaipost::item("EY123456785TH", "103", "รับฝาก", "19/07/2566 18:12:26+07:00", "ปณ.บางรัก", "10500");
    let stranger =
        sandbox::thaipost::item("EE999999995TH", "103", "รับฝาก", "19/07/2566 18:12:26+07:00", "ปณ.บางรัก", "10500");
    let (s, v) = app.call(reqwest::Method::POST, &hook, None, Some(push(vec![accepted.clone(), stranger]))).await;
    assert_eq!((s, v["applied"].as_i64(), v["unknown"].as_i64()), (StatusCode::OK, Some(1), Some(1)), "{v}");
    let (_, v) = app.call(reqwest::Method::POST, &hook, None, Some(push(vec![accepted]))).await;
    assert_eq!(v["applied"], 0, "a repeated push records nothing twice");
    let delivered =
        sandbox::thaipost::item("EY123456785TH", "501", "นำจ่ายสำเร็จ", "21/07/2566 10:30:00+07:00", "ปณ.สีลม", "10500");
    app.call(reqwest::Method::POST, &hook, None, Some(push(vec![delivered]))).await;
    let (s, v) = app.get("/logistics/shipments/thaipost/EY123456785TH", &t).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!((v["state"].as_str(), v["progress"].as_str()), (Some("shipped"), Some("delivered")), "{v}");
    assert_eq!(v["events"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["events"][0]["at"], "2023-07-19T11:12:26.000Z", "Buddhist-era Bangkok time, stored in UTC");
    // A wrong token or a malformed push is refused.
    let (s, _) =
        app.call(reqwest::Method::POST, "/logistics/webhooks/thaipost/not-a-token", None, Some(push(vec![]))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.call(reqwest::Method::POST, &hook, None, Some(json!({"items": "nope"}))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);

    // Only the owner or logistic.storeChannel.* sees or sets the account; another store never.
    let clerk = app.member_with(app.demo_store, "clerk-tp@example.com", &["order.order.read"]).await;
    let (s, _) = app.get(path, &clerk).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, b) = app.other_owner("tp-b@example.com").await;
    let (_, v) = app.get(path, &b).await;
    assert_eq!(v["connected"], false);
    let (s, _) = app.get("/logistics/shipments/thaipost/EY123456785TH", &b).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    app.stop().await;
}

fn address(name: &str) -> serde_json::Value {
    json!({"name": name, "phone": "0812345678", "province": "กรุงเทพมหานคร", "district": "บางรัก",
        "sub_district": "สีลม", "postcode": "10500", "detail": "99 ถนนพระราม 4"})
}

async fn flash_bookings_cancels_and_labels(stack: Stack) {
    let flash = sandbox::flash::FlashSandbox::start("MCH001", "flash-secret-key-0001").await;
    let Some(app) = with_sandboxes(stack, "http://127.0.0.1:9", &flash.base_url).await else { return };
    let t = app.owner().await;
    let booking = json!({"reference": "order-42", "sender": address("ร้านดีดี"), "receiver": address("คุณสมชาย"),
        "weight": "1.25", "cod": "350.50"});
    // No account yet.
    let (s, v) = app.post("/logistics/shipments/flash", &t, booking.clone()).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("carrier_account_missing")), "{v}");
    // A wrong key or an unknown merchant fails the signature and is not kept.
    let path = "/logistics/account-management-channels/flash";
    for (merchant, key) in [("MCH001", "wrong"), ("MCH999", "flash-secret-key-0001")] {
        let (s, v) = app.post(path, &t, json!({"account_id": merchant, "api_key": key})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["error"]["fields"][0], json!({"field": "api_key", "code": "carrier_auth_failed"}));
    }
    let (s, v) = app.post(path, &t, json!({"account_id": "MCH-001", "api_key": "flash-secret-key-0001"})).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("account_id")));
    let (_, v) = app.get(path, &t).await;
    assert_eq!(v["connected"], false);
    let (s, v) = app.post(path, &t, json!({"account_id": "MCH001", "api_key": "flash-secret-key-0001"})).await;
    assert_eq!(
        (s, v["status"].as_str(), v["account_id"].as_str()),
        (StatusCode::OK, Some("working"), Some("MCH001")),
        "{v}"
    );

    // Missing fields are named before the carrier is asked.
    let (s, v) = app.post("/logistics/shipments/flash", &t, json!({"reference": "x", "weight": "1"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"]["fields"][0], json!({"field": "sender.name", "code": "validation.required"}));
    assert_eq!(flash.orders(), 0);
    // Booked: weight in grams and COD in satang reach the carrier; a repeat books nothing twice.
    let (s, v) = app.post("/logistics/shipments/flash", &t, booking.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let pno = v["tracking_no"].as_str().unwrap().to_string();
    assert_eq!((v["state"].as_str(), v["reference"].as_str()), (Some("pending"), Some("order-42")));
    assert_eq!(
        (flash.field(&pno, "weight").as_deref(), flash.field(&pno, "codAmount").as_deref()),
        (Some("1250"), Some("35050"))
    );
    let (_, again) = app.post("/logistics/shipments/flash", &t, booking).await;
    assert_eq!((again["tracking_no"].as_str(), flash.orders()), (Some(pno.as_str()), 1));
    // Its label is a PDF.
    let res = app
        .client
        .get(format!("{}/logistics/shipments/flash/{pno}/label", app.base))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!((res.status(), res.headers()["content-type"].to_str().unwrap()), (StatusCode::OK, "application/pdf"));
    assert!(res.bytes().await.unwrap().starts_with(b"%PDF"));
    // Cancelled with the carrier.
    let (s, v) = app.post(&format!("/logistics/shipments/flash/{pno}/cancel"), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("cancelled")), "{v}");
    // The carrier down: a translated refusal, nothing booked.
    flash.down(true);
    let mut other =
        json!({"reference": "order-43", "sender": address("ร้านดีดี"), "receiver": address("คุณสมหญิง"), "weight": "1"});
    let (s, v) = app.post("/logistics/shipments/flash", &t, other.clone()).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("carrier_unreachable")));
    flash.down(false);
    other["reference"] = json!("order-44");
    let (s, _) = app.post("/logistics/shipments/flash", &t, other).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(flash.orders(), 2);
    let clerk = app.member_with(app.demo_store, "clerk-flash@example.com", &["order.order.read"]).await;
    let (s, _) = app.post(&format!("/logistics/shipments/flash/{pno}/cancel"), &clerk, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    app.stop().await;
}

/// An order shipped with Flash Express: its parcel is booked with the carrier (the tracking
/// number is Flash's), removing a parcel cancels its booking, and the routes Flash reports
/// after shipping show on the order.
async fn an_order_shipped_with_flash_shows_its_routes(stack: Stack) {
    use crate::orders::{create, level, main_warehouse, order, stock_up, two_skus};
    let flash = sandbox::flash::FlashSandbox::start("MCH001", "flash-secret-key-0001").await;
    let carriers = figment::value::Value::serialize(
        json!({"thaipost_base_url": "http://127.0.0.1:9", "flash_base_url": flash.base_url, "timeout_ms": 3000}),
    )
    .unwrap();
    let Some(app) = TestApp::start_with(stack, |cfg| {
        let section = &mut cfg.service("logistics").settings;
        section.insert("carriers".into(), carriers);
        section.insert("follow_flash_secs".into(), figment::value::Value::serialize(1).unwrap());
    })
    .await
    else {
        return;
    };
    let t = app.owner().await;
    let (s, v) = app
        .call(
            reqwest::Method::PUT,
            &format!("/stores/{}", app.demo_store),
            Some(&t),
            Some(json!({"address": "12 ถนนนิมมานเหมินท์", "sub_district": "สุเทพ", "district": "เมืองเชียงใหม่",
                "province": "เชียงใหม่", "postcode": "50200", "tel": "0531234567"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, _) = app
        .post(
            "/logistics/account-management-channels/flash",
            &t,
            json!({"account_id": "MCH001", "api_key": "flash-secret-key-0001"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let w = main_warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "FL1", w).await;
    stock_up(&app, &t, w, red, 3).await;
    let (s, ch) = app
        .post(
            "/logistics/store-channels",
            &t,
            json!({"warehouse_id": w, "logistic_type": "domestic", "name": "แฟลช", "provider_name": "flash",
                "pricing_method": "flat", "price": "35"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{ch}");
    let mut body = order(w, json!([{"sku_id": red, "quantity": 1}]));
    body["logistic_store_channel_id"] = ch["id"].clone();
    let o = create(&app, &t, body).await;
    let id = o["id"].as_i64().unwrap();
    app.post(&format!("/orders/{id}/ready-to-fulfillment"), &t, json!({})).await;
    // A parcel added and removed: booked, then the booking cancelled with the carrier.
    let (s, v) = app.post("/wms/parcels/in-store", &t, json!({"order_id": id, "weight": "0.4"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let first = v["parcels"][0].clone();
    let pno = first["tracking_no"].as_str().unwrap().to_string();
    assert!(!pno.is_empty() && flash.orders() == 1, "booked with Flash: {first}");
    assert_eq!(flash.field(&pno, "weight").as_deref(), Some("400"));
    let (s, _) = app.delete(&format!("/wms/parcels/{}", first["id"]), &t).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app.post("/wms/parcels/in-store", &t, json!({"order_id": id, "weight": "0.5"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let pno = v["parcels"][0]["tracking_no"].as_str().unwrap().to_string();
    assert_eq!(flash.orders(), 2);
    let (_, shipped) = app.post("/wms/parcels/ship/in-store", &t, json!({"order_ids": [id]})).await;
    assert_eq!(shipped["succeeded"], 1, "{shipped}");
    assert_eq!(level(&app, &t, w, red).await, (2, 0));
    // The courier picks it up and delivers it; the order shows what Flash says.
    let now = bo_kit::time::now_ms() / 1000;
    flash.route(&pno, 1, "RECEIVED", "รับพัสดุเข้าระบบแล้ว", now - 120);
    flash.route(&pno, 5, "DELIVERY_CONFIRM", "นำส่งสำเร็จ", now - 60);
    let mut parcel = Value::Null;
    for _ in 0..150 {
        let (_, d) = app.get(&format!("/orders/{id}"), &t).await;
        parcel = d["parcels"][0].clone();
        if parcel["progress"] == "delivered" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(parcel["progress"], "delivered", "{parcel}");
    assert_eq!(parcel["tracking"][0]["description"], "นำส่งสำเร็จ", "newest first: {parcel}");
    assert_eq!(parcel["tracking"].as_array().map(|e| e.len()), Some(2));
    app.check_stock().await;
    app.stop().await;
}

#[tokio::test]
async fn an_order_shipped_with_flash_shows_its_routes_embedded() {
    an_order_shipped_with_flash_shows_its_routes(Stack::Embedded).await;
}

#[tokio::test]
async fn an_order_shipped_with_flash_shows_its_routes_postgres_nats() {
    an_order_shipped_with_flash_shows_its_routes(Stack::Postgres).await;
}

#[tokio::test]
async fn flash_bookings_cancels_and_labels_embedded() {
    flash_bookings_cancels_and_labels(Stack::Embedded).await;
}

#[tokio::test]
async fn flash_bookings_cancels_and_labels_postgres_nats() {
    flash_bookings_cancels_and_labels(Stack::Postgres).await;
}

#[tokio::test]
async fn the_e_parcel_account_and_tracking_pushes_embedded() {
    the_e_parcel_account_and_tracking_pushes(Stack::Embedded).await;
}

#[tokio::test]
async fn the_e_parcel_account_and_tracking_pushes_postgres_nats() {
    the_e_parcel_account_and_tracking_pushes(Stack::Postgres).await;
}
