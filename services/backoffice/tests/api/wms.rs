use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::TestApp;
use crate::on_every_stack;

/// Warehouses appear once wms has handled the store's creation event.
async fn warehouses_of(app: &TestApp, path: &str, token: &str) -> Value {
    for _ in 0..100 {
        let (s, v) = app.get(path, token).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if v["total"].as_i64() > Some(0) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no warehouse appeared at {path}");
}

async fn every_new_store_gets_a_default_warehouse(app: &TestApp) {
    let a = app.owner().await;
    let v = warehouses_of(app, "/wms/warehouses", &a).await;
    assert_eq!(v["total"], 1);
    assert_eq!((v["data"][0]["is_default"].as_bool(), v["data"][0]["code"].as_str()), (Some(true), Some("MAIN")));
    let same = warehouses_of(app, &format!("/stores/{}/store-warehouses", app.demo_store), &a).await;
    assert_eq!(same["data"], v["data"]);

    let (b_store, b) = app.other_owner("wms-b@example.com").await;
    let bv = warehouses_of(app, "/wms/warehouses", &b).await;
    assert_ne!(bv["data"][0]["id"], v["data"][0]["id"], "each store has its own");
    let (s, e) = app.get(&format!("/stores/{b_store}/store-warehouses"), &a).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_mismatch")));
}

on_every_stack!(every_new_store_gets_a_default_warehouse);
