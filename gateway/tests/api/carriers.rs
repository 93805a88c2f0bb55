//! The e-parcel account and tracking pushes through the API, against a sandbox of the
//! postal provider's tracking API that checks keys and tokens as the real one does.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Stack, TestApp};

#[path = "../../../services/logistics/tests/sandbox/mod.rs"]
mod sandbox;

async fn with_sandbox(stack: Stack, base_url: &str) -> Option<TestApp> {
    let carriers =
        figment::value::Value::serialize(json!({"thaipost_base_url": base_url, "timeout_ms": 3000})).unwrap();
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

#[tokio::test]
async fn the_e_parcel_account_and_tracking_pushes_embedded() {
    the_e_parcel_account_and_tracking_pushes(Stack::Embedded).await;
}

#[tokio::test]
async fn the_e_parcel_account_and_tracking_pushes_postgres_nats() {
    the_e_parcel_account_and_tracking_pushes(Stack::Postgres).await;
}
