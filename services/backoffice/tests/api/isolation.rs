//! A token for store A gets nothing of store B from any catalog, stock or settings route.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

async fn catalog_stock_and_settings_routes_keep_stores_apart(app: &TestApp) {
    let a = app.owner().await;
    let (b_store, b) = app.other_owner("iso-b@example.com").await;
    // B's own records.
    let (s, p) = app
        .post(
            "/products",
            &b,
            json!({"name": "ของร้านบี", "short_description": "x", "code": "B-1", "category_id": 1,
            "price": "10", "cost": "5", "tags": ["b"], "skus": [{}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let (pid, sku) = (p["id"].as_i64().unwrap(), p["skus"][0]["id"].as_i64().unwrap());
    let (_, unit) = app
        .post(
            &format!("/stores/{b_store}/store-unit-of-measurements"),
            &b,
            json!({"name": "แพ็ค 6", "quantity": "6", "base_unit": "piece"}),
        )
        .await;
    let unit_id = unit["id"].as_i64().unwrap_or(0);
    let mut b_warehouse = 0;
    for _ in 0..100 {
        let (_, w) = app.get("/wms/warehouses", &b).await;
        if let Some(id) = w["data"][0]["id"].as_i64() {
            b_warehouse = id;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    // A's token on B's records: not found, never B's data.
    let not_found: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, format!("/products/{pid}"), None),
        (
            Method::PUT,
            format!("/products/{pid}"),
            Some(
                json!({"name": "x", "short_description": "x", "code": "B-1", "category_id": 1, "price": "1", "cost": "1", "tags": ["x"], "skus": [{}]}),
            ),
        ),
        (Method::PATCH, format!("/products/{pid}"), Some(json!({"status": "inactive"}))),
        (Method::DELETE, format!("/products/{pid}"), None),
        (Method::PUT, format!("/products/{pid}/photos/order"), Some(json!({"ids": []}))),
        (Method::DELETE, format!("/products/{pid}/photos/1"), None),
    ];
    for (m, path, body) in &not_found {
        let (s, v) = app.call(m.clone(), path, Some(&a), body.clone()).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{m} {path}: {v}");
    }
    // B's SKU and warehouse are unknown to A's stock commands.
    let (s, _) = app
        .post(
            "/wms/goods-adjust",
            &a,
            json!({"warehouse_id": b_warehouse, "sku_id": sku, "quantity": 5, "reason": "x"}),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Lists answer with A's rows only.
    for path in ["/products", "/products/sku-inventories", "/wms/goods-adjust/", "/products/search?search=B-1"] {
        let (s, v) = app.get(path, &a).await;
        assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(0)), "{path}: {v}");
    }
    let (_, sums) = app.get("/products/summaries", &a).await;
    assert_eq!(sums["products"], 0);
    let (_, moves) = app.get(&format!("/products/sku-inventories/moving-transactions?sku-id={sku}"), &a).await;
    assert_eq!(moves["total"], 0);
    // Paths under B's store: refused outright.
    for (m, path) in [
        (Method::GET, format!("/stores/{b_store}/store-warehouses")),
        (Method::GET, format!("/stores/{b_store}/store-unit-of-measurements")),
        (Method::PATCH, format!("/stores/{b_store}/store-unit-of-measurements/{unit_id}")),
        (Method::DELETE, format!("/stores/{b_store}/store-unit-of-measurements/{unit_id}")),
        (Method::GET, format!("/stores/{b_store}/store-safety-stock-histories/lastest")),
    ] {
        let body = if m == Method::PATCH { Some(json!({"name": "x"})) } else { None };
        let (s, v) = app.call(m.clone(), &path, Some(&a), body).await;
        assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_mismatch")), "{m} {path}");
    }
    // A store-wide safety stock touches only A's SKUs.
    let (_, v) = app.post("/products/sku/update-all-safety-stock", &a, json!({"amount": 7})).await;
    assert_eq!(v["updated"], 0);
    let (_, mine) = app.get(&format!("/products/{pid}"), &b).await;
    assert_eq!(mine["skus"][0]["safety_stock"], 0);
}

on_every_stack!(catalog_stock_and_settings_routes_keep_stores_apart);
