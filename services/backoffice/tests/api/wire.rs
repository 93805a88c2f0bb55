use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::{Stack, TestApp};

#[tokio::test]
async fn forms_with_bracket_keys_create_customers() {
    let app = TestApp::start(Stack::Embedded).await.unwrap();
    let t = app.owner().await;
    let form = "name=%E0%B8%97%E0%B8%94%E0%B8%AA%E0%B8%AD%E0%B8%9A+%E0%B8%9F%E0%B8%AD%E0%B8%A3%E0%B9%8C%E0%B8%A1&tel=0812223333\
&address=1+%E0%B8%96%E0%B8%99%E0%B8%99&sub_district=%E0%B8%AA%E0%B8%B5%E0%B8%A5%E0%B8%A1&district=%E0%B8%9A%E0%B8%B2%E0%B8%87%E0%B8%A3%E0%B8%B1%E0%B8%81\
&state_province=%E0%B8%81%E0%B8%A3%E0%B8%B8%E0%B8%87%E0%B9%80%E0%B8%97%E0%B8%9E&postcode=10500";
    let res = app
        .client
        .post(format!("{}/stores/{}/customers", app.base, app.demo_store))
        .bearer_auth(&t)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["name"], "ทดสอบ ฟอร์ม");
    assert_eq!(v["district"], "บางรัก");

    let res = app
        .client
        .post(format!("{}/stores/{}/customers", app.base, app.demo_store))
        .bearer_auth(&t)
        .header("content-type", "text/plain")
        .body("hello")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    app.stop().await;
}

#[tokio::test]
async fn unknown_routes_and_bad_ids_are_not_mistaken_for_missing_records() {
    let app = TestApp::start(Stack::Embedded).await.unwrap();
    let t = app.owner().await;
    let (s, v) = app.get("/no/such/route", &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("route_not_found")));
    let (s, v) = app.call(Method::GET, "/stores/1/customerz", None, None).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("route_not_found")));
    let (s, v) = app.get(&format!("/stores/{}/customers/abc", app.demo_store), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_path")));
    let (s, v) = app.call(Method::PUT, &format!("/stores/{}/customers", app.demo_store), Some(&t), None).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::METHOD_NOT_ALLOWED, Some("method_not_allowed")));
    let (s, v) = app.get(&format!("/stores/{}/customers?page=abc", app.demo_store), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_query")));
    app.stop().await;
}

#[tokio::test]
async fn openapi_health_and_maintenance() {
    let app = TestApp::start(Stack::Embedded).await.unwrap();
    let (s, doc) = app.call(Method::GET, "/openapi.json", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/auth/login",
        "/auth/logout",
        "/stores/auth/token",
        "/users/{user_id}/user-stores",
        "/users/user-stores/{id}",
        "/stores/{id}",
        "/stores/getting-started",
        "/stores/{id}/settings/get-menu-hiding",
        "/statuses/services/maintaining",
        "/stores/{id}/customers",
        "/stores/{id}/customers/{customer_id}",
        "/stores/{id}/customers/{customer_id}/addresses",
        "/stores/{id}/customers/{customer_id}/addresses/{address_id}",
        "/stores/{id}/customers/{customer_id}/addresses/{address_id}/set-default-address",
    ] {
        assert!(paths.contains_key(p), "{p} missing from the OpenAPI document");
    }
    assert!(doc["components"]["schemas"]["CustomerBody"].is_object());
    let (s, v) = app.call(Method::GET, "/statuses/services/maintaining", None, None).await;
    assert_eq!((s, v["maintaining"].as_bool()), (StatusCode::OK, Some(false)));
    for probe in ["/healthz", "/readyz"] {
        let res = app.client.get(format!("{}{probe}", app.root())).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{probe}");
    }
    app.stop().await;
}
