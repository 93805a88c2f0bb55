use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

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

/// The movements report: every movement with its document and who made it, filtered by
/// day, warehouse, kind and SKU code, newest first and paged; readers of the stock only; one
/// store's movements kept from another's; bad filters refused with their field.
async fn the_movements_report_filters_and_pages_the_ledger(app: &TestApp) {
    let t = app.owner().await;
    let w = crate::orders::main_warehouse(app, &t).await;
    let (red, blue) = crate::orders::two_skus(app, &t, "MV1", w).await;
    crate::orders::stock_up(app, &t, w, red, 10).await;
    crate::orders::stock_up(app, &t, w, blue, 4).await;
    let (s, v) = app
        .post("/wms/goods-adjust", &t, json!({"warehouse_id": w, "sku_id": red, "quantity": -2, "reason": "แตกเสียหาย"}))
        .await;
    assert!(s.is_success(), "{v}");
    // An order reserves one red.
    crate::orders::create(app, &t, crate::orders::order(w, json!([{"sku_id": red, "quantity": 1}]))).await;

    let report = |query: &str| {
        let path = format!("/reports/stock-movement/histories{query}");
        let tok = t.clone();
        async move {
            let (s, v) = app.get(&path, &tok).await;
            assert_eq!(s, StatusCode::OK, "{path}: {v}");
            v
        }
    };
    let all = report("").await;
    assert_eq!((all["total"].as_i64(), all["limit"].as_i64()), (Some(4), Some(20)), "{all}");
    let first = &all["data"][0];
    assert_eq!(
        (first["kind"].as_str(), first["sku_code"].as_str(), first["reserved"].as_i64()),
        (Some("reserve"), Some("MV1-R"), Some(1)),
        "{all}"
    );
    assert!(first["reference"].as_str().is_some_and(|r| !r.is_empty()), "the order that reserved it: {first}");
    let adjusted = report("?kind=adjust&sku-code=MV1-R").await;
    let rows = adjusted["data"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["on_hand"].as_i64().unwrap()).collect::<Vec<_>>(), vec![-2, 10], "{adjusted}");
    assert_eq!((rows[0]["reason"].as_str(), rows[0]["product_name"].as_str()), (Some("แตกเสียหาย"), Some("เสื้อยืดคอกลม")));
    assert_eq!(rows[0]["variant"], "แดง");
    assert_eq!(rows[0]["created_by_name"].as_str().map(str::is_empty), Some(false), "{adjusted}");
    assert!(!rows[0]["warehouse_name"].as_str().unwrap().is_empty());
    // Paged: two per page, the second page holds the oldest two.
    let second = report("?limit=2&page=2").await;
    assert_eq!(
        (second["pages"].as_i64(), second["data"][1]["sku_code"].as_str()),
        (Some(2), Some("MV1-R")),
        "{second}"
    );
    assert_eq!(second["data"][1]["on_hand"], 10);
    // Today holds them all; yesterday none; another warehouse none; an unknown SKU none.
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    let day = |d: ::time::OffsetDateTime| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
    let today = day(now);
    let yesterday = day(now - ::time::Duration::days(1));
    assert_eq!(report(&format!("?date-from={today}&date-to={today}")).await["total"], 4);
    assert_eq!(report(&format!("?date-from={yesterday}&date-to={yesterday}")).await["total"], 0);
    assert_eq!(report(&format!("?warehouse-id={}", w + 1000)).await["total"], 0);
    assert_eq!(report("?sku-code=NO-SUCH").await["total"], 0);

    // Bad filters, each with its field.
    for (query, field) in [
        ("?date-from=2026-02-30", "date_from"),
        (&format!("?date-from={today}&date-to={yesterday}"), "date_to"),
        ("?kind=teleport", "kind"),
        ("?limit=101", "limit"),
        ("?limit=-1", "limit"),
    ] {
        let (s, v) = app.get(&format!("/reports/stock-movement/histories{query}"), &t).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {v}");
        assert_eq!(v["error"]["fields"][0]["field"], field, "{query}: {v}");
    }
    // Readers of the stock only; another store sees none of these.
    let clerk = app.member_with(app.demo_store, "clerk-mv@example.com", &["store.customer.read"]).await;
    let (s, _) = app.get("/reports/stock-movement/histories", &clerk).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let reader = app.member_with(app.demo_store, "reader-mv@example.com", &["product.sku.read"]).await;
    let (s, v) = app.get("/reports/stock-movement/histories?kind=adjust", &reader).await;
    assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(3)), "{v}");
    let (_, other) = app.other_owner("other-mv@example.com").await;
    let (s, v) = app.get("/reports/stock-movement/histories", &other).await;
    assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(0)), "{v}");
}

/// `n` pieces of `sku` come in through a goods receipt at `cost` baht, approved in store.
async fn receive(app: &TestApp, t: &str, w: i64, sku: i64, n: i64, cost: &str) {
    let body = json!({"type": "product", "warehouse_id": w, "expected_received_date": "2026-12-01",
        "expected_received_time": "10:30", "products": [{"sku_id": sku, "request_qty": n, "cost": cost}]});
    let (s, r) = app.post("/wms/goods-receipts", t, body).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let id = r["id"].as_i64().unwrap();
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let line = r["items"][0]["id"].as_i64().unwrap();
    let qc = json!({"items": [{"id": line, "receive_qty": n, "defect_qty": 0}]});
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-check"), t, qc).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// The stock report: every SKU's stock at the end of a day, its movements since taken back,
/// with the lots' value then (a receipt's lots at their cost; a count's at none); an earlier
/// day before any movement holds nothing.
async fn the_stock_report_takes_back_what_moved_since(app: &TestApp) {
    let t = app.owner().await;
    let w = crate::orders::main_warehouse(app, &t).await;
    let (red, blue) = crate::orders::two_skus(app, &t, "ST1", w).await;
    crate::orders::stock_up(app, &t, w, red, 10).await;
    receive(app, &t, w, blue, 4, "40.50").await;
    let (s, v) = app
        .post("/wms/goods-adjust", &t, json!({"warehouse_id": w, "sku_id": blue, "quantity": -1, "reason": "หาย"}))
        .await;
    assert!(s.is_success(), "{v}");
    let (s, v) = app
        .post("/wms/goods-adjust", &t, json!({"warehouse_id": w, "sku_id": red, "quantity": -2, "reason": "แตก"}))
        .await;
    assert!(s.is_success(), "{v}");
    crate::orders::create(app, &t, crate::orders::order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    let day = |d: ::time::OffsetDateTime| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
    let report = |query: String| {
        let tok = t.clone();
        async move {
            let (s, v) = app.get(&format!("/reports/stock{query}"), &tok).await;
            assert_eq!(s, StatusCode::OK, "{query}: {v}");
            v
        }
    };
    // Now: red 8 on hand, 1 reserved, counted in (no cost); blue 3 of the receipt's 4 at 40.50.
    let today = report(format!("?date={}", day(now))).await;
    let rows: Vec<(String, i64, i64, i64, String)> = today["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["sku_code"].as_str().unwrap().to_string(),
                r["on_hand"].as_i64().unwrap(),
                r["reserved"].as_i64().unwrap(),
                r["available"].as_i64().unwrap(),
                r["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![("ST1-B".to_string(), 3, 0, 3, "121.50".to_string()), ("ST1-R".to_string(), 8, 1, 7, "0.00".to_string())],
        "{today}"
    );
    assert_eq!(
        (today["on_hand"].as_i64(), today["available"].as_i64(), today["value"].as_str()),
        (Some(11), Some(10), Some("121.50"))
    );
    assert!(!today["data"][0]["warehouse_name"].as_str().unwrap().is_empty());
    assert_eq!(report(String::new()).await["value"], "121.50", "no day: now");
    // Yesterday nothing had come in yet.
    let before = report(format!("?date={}", day(now - ::time::Duration::days(1)))).await;
    assert_eq!((before["total"].as_i64(), before["value"].as_str()), (Some(0), Some("0.00")), "{before}");
    // Paged, and one warehouse.
    let page = report("?limit=1&page=2".into()).await;
    assert_eq!((page["pages"].as_i64(), page["data"][0]["sku_code"].as_str()), (Some(2), Some("ST1-R")));
    assert_eq!(report(format!("?warehouse-id={}", w + 1000)).await["total"], 0);
    for (query, field) in [("?date=2026-13-01", "date"), ("?limit=0", "limit")] {
        let (s, v) = app.get(&format!("/reports/stock{query}"), &t).await;
        assert_eq!(
            (s, v["error"]["fields"][0]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field)),
            "{v}"
        );
    }
    let clerk = app.member_with(app.demo_store, "clerk-st@example.com", &["store.customer.read"]).await;
    assert_eq!(app.get("/reports/stock", &clerk).await.0, StatusCode::FORBIDDEN);
}

on_every_stack!(
    every_new_store_gets_a_default_warehouse,
    the_movements_report_filters_and_pages_the_ledger,
    the_stock_report_takes_back_what_moved_since
);
