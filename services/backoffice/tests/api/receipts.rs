//! Stock in through the API (SPEC §7 Goods receipts): every call with its permission, store
//! isolation, the state table, approving once however often and however concurrently it is
//! asked, lots, transfers, warehouses and the printed documents. `on_every_stack` checks the
//! stock invariants after every test.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

async fn main_warehouse(app: &TestApp, t: &str) -> i64 {
    for _ in 0..100 {
        let (_, v) = app.get("/wms/warehouses", t).await;
        if let Some(id) = v["data"][0]["id"].as_i64() {
            return id;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no warehouse");
}

/// A product with two SKUs (variants); their ids once the ledger knows them.
async fn skus(app: &TestApp, t: &str, code: &str, w: i64) -> (i64, i64) {
    let (s, p) = app
        .post(
            "/products",
            t,
            json!({"name": "น้ำปลาแท้ ตราปลาหมึก", "short_description": "น้ำปลา", "code": code, "category_id": 1,
                "price": "35", "cost": "20", "tags": ["อาหาร"], "variant1": "1ขนาด", "variant1_options": ["เล็ก", "ใหญ่"],
                "skus": [{"code": format!("{code}-S"), "price": "35", "cost": "20", "barcode": "5901234123457",
                          "variant_option": {"1ขนาด": "เล็ก"}},
                         {"code": format!("{code}-L"), "price": "60", "cost": "40", "variant_option": {"1ขนาด": "ใหญ่"}}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let a = p["skus"][0]["id"].as_i64().unwrap();
    let b = p["skus"][1]["id"].as_i64().unwrap();
    crate::helpers::wait_until_stock_knows(app, t, w, a).await;
    crate::helpers::wait_until_stock_knows(app, t, w, b).await;
    (a, b)
}

async fn carton(app: &TestApp, t: &str) -> i64 {
    let (s, v) = app
        .post(
            &format!("/stores/{}/store-unit-of-measurements", app.demo_store),
            t,
            json!({"name": "ลัง 12", "quantity": 12, "base_unit": "piece"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["id"].as_i64().unwrap()
}

fn receipt(w: i64, lines: Value) -> Value {
    json!({"type": "product", "warehouse_id": w, "expected_received_date": "2026-12-01", "expected_received_time": "10:30",
           "note": "ล็อตปีใหม่", "products": lines})
}

async fn level(app: &TestApp, t: &str, w: i64, sku: i64) -> i64 {
    let (_, v) = app.get(&format!("/wms/stock-lots?warehouse-id={w}&sku-ids={sku}&limit=-1"), t).await;
    v["data"].as_array().unwrap().iter().map(|l| l["on_hand"].as_i64().unwrap()).sum()
}

async fn a_receipt_from_draft_to_stock(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (small, large) = skus(app, &t, "FS1", w).await;
    let ctn = carton(app, &t).await;
    // Required fields, all at once.
    let (s, v) = app.post("/wms/goods-receipts", &t, json!({"type": "product", "products": []})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let fields: Vec<&str> =
        v["error"]["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    for f in ["warehouse_id", "expected_received_date", "lines"] {
        assert!(fields.contains(&f), "{f}: {v}");
    }
    let (s, v) = app
        .post("/wms/goods-receipts", &t, receipt(w, json!([{"sku_id": small, "request_qty": 1, "unit_id": 999_999}])))
        .await;
    assert_eq!(
        (s, v["error"]["fields"][0]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("products[0].unit_id"))
    );
    // Two lines: two cartons of 12 at 120 baht, five pieces expiring.
    let body = receipt(
        w,
        json!([{"sku_id": small, "request_qty": 2, "unit_id": ctn, "cost": "120", "print_label": true},
               {"sku_id": large, "request_qty": 5, "cost": "40.50", "expired_at": "2027-06-30"}]),
    );
    let (s, r) = app.post("/wms/goods-receipts", &t, body.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let id = r["id"].as_i64().unwrap();
    assert_eq!((r["state"].as_str(), r["expected_received_date"].as_str()), (Some("draft"), Some("2026-12-01")));
    assert_eq!(
        (r["items"][0]["request_base_qty"].as_i64(), r["items"][0]["unit"]["name"].as_str()),
        (Some(24), Some("ลัง 12"))
    );
    assert_eq!((r["total_cost"].as_str(), r["total_request_qty"].as_i64()), (Some("442.50"), Some(29)));
    assert_eq!(r["items"][1]["expired_at"], "2027-06-30");
    // Edit while a draft; the board counts it.
    let mut edit = body.clone();
    edit["note"] = json!("แก้หมายเหตุ");
    let (s, v) =
        app.call(reqwest::Method::PUT, &format!("/wms/goods-receipts/{id}"), Some(&t), Some(edit.clone())).await;
    assert_eq!((s, v["note"].as_str()), (StatusCode::OK, Some("แก้หมายเหตุ")), "{v}");
    let (_, board) = app.get("/wms/goods-receipts?state=draft", &t).await;
    assert_eq!((board["counts"]["draft"].as_i64(), board["total"].as_i64()), (Some(1), Some(1)), "{board}");
    // Send; now it can no longer be edited or deleted.
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("pending")));
    let (s, v) = app.call(reqwest::Method::PUT, &format!("/wms/goods-receipts/{id}"), Some(&t), Some(edit)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("goods_receipt_state")));
    assert_eq!(app.delete(&format!("/wms/goods-receipts/{id}"), &t).await.0, StatusCode::CONFLICT);
    // QC: one defective piece; a defect above what came in is refused.
    let (_, r) = app.get(&format!("/wms/goods-receipts/{id}"), &t).await;
    let lines: Vec<i64> = r["items"].as_array().unwrap().iter().map(|l| l["id"].as_i64().unwrap()).collect();
    let (s, v) = app
        .post(
            &format!("/wms/goods-receipts/{id}/qc-check"),
            &t,
            json!({"items": [{"id": lines[0], "receive_qty": 2, "defect_qty": 3}]}),
        )
        .await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.defect_over_received"))
    );
    let qc = json!({"items": [{"id": lines[0], "receive_qty": 24, "defect_qty": 1}, {"id": lines[1], "receive_qty": 5, "defect_qty": 0}]});
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-check"), &t, qc.clone()).await;
    assert_eq!(
        (s, v["state"].as_str(), v["items"][0]["good_qty"].as_i64()),
        (StatusCode::OK, Some("received"), Some(23))
    );
    let (_, board) = app.get("/wms/goods-receipts?state=received", &t).await;
    assert_eq!(board["counts"]["pending"], 1, "received shows with pending");
    // Approve: the good pieces go on hand as lots; again changes nothing.
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("approved")), "{v}");
    assert!(v["decided_by_name"].as_str().is_some_and(|n| !n.is_empty()), "{v}");
    let (s, _) = app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!((level(app, &t, w, small).await, level(app, &t, w, large).await), (23, 5));
    let (_, lots) = app.get(&format!("/wms/stock-lots?sku-ids={small}"), &t).await;
    assert_eq!(
        (lots["data"][0]["unit_cost"].as_str(), lots["data"][0]["code"].as_str()),
        (Some("10.00"), r["code"].as_str())
    );
    let (_, soon) = app.get("/wms/stock-lots?expiring-within-days=100000", &t).await;
    assert_eq!((soon["total"].as_i64(), soon["data"][0]["expired_at"].as_str()), (Some(1), Some("2027-06-30")));
    // Stock value: 23 × 10 + 5 × 40.50.
    let (_, value) = app.get("/wms/stock-valuation", &t).await;
    assert_eq!(
        (value["warehouses"][0]["fifo_value"].as_str(), value["warehouses"][0]["average_value"].as_str()),
        (Some("432.50"), Some("432.50"))
    );
    // Put away.
    for step in ["shelving", "shelved"] {
        let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/shelve"), &t, json!({"state": step})).await;
        assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some(step)));
    }
    // Getting started ticks goods receipt, from wms' event.
    let mut gs = Value::Null;
    for _ in 0..100 {
        gs = app.get("/stores/getting-started", &t).await.1;
        if gs["goods_receipt"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(gs["goods_receipt"], true, "{gs}");
    // The printed receipt and the labels are PDFs.
    let r = app.client.get(format!("{}/wms/goods-receipts/{id}/print", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "application/pdf");
    assert!(r.bytes().await.unwrap().starts_with(b"%PDF-"));
    let r =
        app.client.get(format!("{}/wms/goods-receipts/{id}/labels", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let pdf = r.bytes().await.unwrap();
    assert_eq!(count_pages(&pdf), 23, "one label per good piece of the flagged line");
}

fn count_pages(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
}

async fn a_rejected_receipt_adds_nothing(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (small, _) = skus(app, &t, "FS2", w).await;
    let (_, r) = app.post("/wms/goods-receipts", &t, receipt(w, json!([{"sku_id": small, "request_qty": 7}]))).await;
    let id = r["id"].as_i64().unwrap();
    // Not sent yet: approving is refused.
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("goods_receipt_state")));
    app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &t, json!({})).await;
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-reject"), &t, json!({"reason": ""})).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("reason")));
    let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-reject"), &t, json!({"reason": "กล่องเปียกน้ำ"})).await;
    assert_eq!(
        (s, v["state"].as_str(), v["reject_reason"].as_str()),
        (StatusCode::OK, Some("rejected"), Some("กล่องเปียกน้ำ"))
    );
    let (s, _) = app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(level(app, &t, w, small).await, 0);
    let (_, board) = app.get("/wms/goods-receipts?state=rejected&search=ล็อต", &t).await;
    assert_eq!((board["total"].as_i64(), board["counts"]["rejected"].as_i64()), (Some(1), Some(1)));
    // A draft can be deleted.
    let (_, d) = app.post("/wms/goods-receipts", &t, receipt(w, json!([{"sku_id": small, "request_qty": 1}]))).await;
    assert_eq!(app.delete(&format!("/wms/goods-receipts/{}", d["id"]), &t).await.0, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&format!("/wms/goods-receipts/{}", d["id"]), &t).await.0, StatusCode::NOT_FOUND);
}

async fn concurrent_approves_add_once(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (small, _) = skus(app, &t, "FS3", w).await;
    let (_, r) = app.post("/wms/goods-receipts", &t, receipt(w, json!([{"sku_id": small, "request_qty": 10}]))).await;
    let id = r["id"].as_i64().unwrap();
    app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &t, json!({})).await;
    let calls: Vec<_> = (0..6)
        .map(|_| {
            app.client
                .post(format!("{}/wms/goods-receipts/{id}/qc-approve/in-store", app.base))
                .bearer_auth(&t)
                .json(&json!({}))
                .send()
        })
        .collect();
    for r in futures::future::join_all(calls).await {
        assert_eq!(r.unwrap().status(), StatusCode::OK);
    }
    assert_eq!(level(app, &t, w, small).await, 10);
}

async fn permissions_and_isolation(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (small, _) = skus(app, &t, "FS4", w).await;
    let (_, r) = app.post("/wms/goods-receipts", &t, receipt(w, json!([{"sku_id": small, "request_qty": 3}]))).await;
    let id = r["id"].as_i64().unwrap();
    let reader = app.member_with(app.demo_store, "gr-reader@example.com", &["wms.goodsReceipt.read"]).await;
    assert_eq!(app.get("/wms/goods-receipts", &reader).await.0, StatusCode::OK);
    assert_eq!(app.get(&format!("/wms/goods-receipts/{id}"), &reader).await.0, StatusCode::OK);
    for (method, path, body) in [
        (
            reqwest::Method::POST,
            "/wms/goods-receipts".to_string(),
            receipt(w, json!([{"sku_id": small, "request_qty": 1}])),
        ),
        (
            reqwest::Method::PUT,
            format!("/wms/goods-receipts/{id}"),
            receipt(w, json!([{"sku_id": small, "request_qty": 1}])),
        ),
        (reqwest::Method::DELETE, format!("/wms/goods-receipts/{id}"), json!({})),
        (reqwest::Method::POST, format!("/wms/goods-receipts/{id}/ready-to-warehouse"), json!({})),
        (reqwest::Method::POST, format!("/wms/goods-receipts/{id}/qc-check"), json!({})),
        (reqwest::Method::POST, format!("/wms/goods-receipts/{id}/qc-approve/in-store"), json!({})),
        (reqwest::Method::POST, format!("/wms/goods-receipts/{id}/qc-reject"), json!({"reason": "x"})),
        (reqwest::Method::POST, format!("/wms/goods-receipts/{id}/shelve"), json!({"state": "shelving"})),
        (reqwest::Method::POST, "/wms/warehouses".to_string(), json!({"name": "x"})),
        (reqwest::Method::POST, "/wms/transfers".to_string(), json!({})),
    ] {
        let (s, _) = app.call(method.clone(), &path, Some(&reader), Some(body)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{method} {path}");
    }
    // A creator may create and send, not approve; an approver approves.
    let clerk = app.member_with(app.demo_store, "gr-clerk@example.com", &["wms.goodsReceipt.create"]).await;
    let (s, mine) =
        app.post("/wms/goods-receipts", &clerk, receipt(w, json!([{"sku_id": small, "request_qty": 2}]))).await;
    assert_eq!(s, StatusCode::CREATED);
    let mine = mine["id"].as_i64().unwrap();
    assert_eq!(
        app.post(&format!("/wms/goods-receipts/{mine}/ready-to-warehouse"), &clerk, json!({})).await.0,
        StatusCode::OK
    );
    assert_eq!(
        app.post(&format!("/wms/goods-receipts/{mine}/qc-approve/in-store"), &clerk, json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    let qc = app.member_with(app.demo_store, "gr-qc@example.com", &["wms.goodsReceipt.all"]).await;
    assert_eq!(
        app.post(&format!("/wms/goods-receipts/{mine}/qc-approve/in-store"), &qc, json!({})).await.0,
        StatusCode::OK
    );
    // Another store sees none of it and cannot use this store's warehouse or SKUs.
    let (_, b) = app.other_owner("gr-b@example.com").await;
    assert_eq!(app.get(&format!("/wms/goods-receipts/{id}"), &b).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &b, json!({})).await.0,
        StatusCode::NOT_FOUND
    );
    let (_, list) = app.get("/wms/goods-receipts", &b).await;
    assert_eq!(list["total"], 0);
    let (s, v) = app.post("/wms/goods-receipts", &b, receipt(w, json!([{"sku_id": small, "request_qty": 1}]))).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("warehouse_not_found")));
    let bw = main_warehouse(app, &b).await;
    let (s, _) = app.post("/wms/goods-receipts", &b, receipt(bw, json!([{"sku_id": small, "request_qty": 1}]))).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "another store's SKU");
    let (_, lots) = app.get("/wms/stock-lots", &b).await;
    assert_eq!(lots["total"], 0);
}

async fn transfers_and_warehouses(app: &TestApp) {
    let t = app.owner().await;
    let main = main_warehouse(app, &t).await;
    let (small, large) = skus(app, &t, "FS5", main).await;
    let (_, r) = app
        .post(
            "/wms/goods-receipts",
            &t,
            receipt(
                main,
                json!([{"sku_id": small, "request_qty": 8, "cost": "10", "expired_at": "2027-01-31"},
                                 {"sku_id": small, "request_qty": 4, "cost": "12", "expired_at": "2026-12-31"},
                                 {"sku_id": large, "request_qty": 3, "cost": "30"}]),
            ),
        )
        .await;
    let id = r["id"].as_i64().unwrap();
    app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &t, json!({})).await;
    app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
    // A second warehouse; names are unique.
    let (s, second) = app.post("/wms/warehouses", &t, json!({"name": "คลังสาขาเชียงใหม่"})).await;
    assert_eq!(s, StatusCode::CREATED, "{second}");
    let to = second["id"].as_i64().unwrap();
    let (s, v) = app.post("/wms/warehouses", &t, json!({"name": "คลังสาขาเชียงใหม่"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("warehouse_name_taken")));
    // A transfer short on one line moves nothing.
    let (s, v) = app
        .post(
            "/wms/transfers",
            &t,
            json!({"from_warehouse_id": main, "to_warehouse_id": to,
            "items": [{"sku_id": small, "quantity": 5}, {"sku_id": large, "quantity": 4}]}),
        )
        .await;
    assert_eq!(
        (s, v["error"]["fields"][0]["field"].as_str()),
        (StatusCode::CONFLICT, Some("lines[1].quantity")),
        "{v}"
    );
    assert_eq!(level(app, &t, main, small).await, 12);
    let (s, v) = app
        .post(
            "/wms/transfers",
            &t,
            json!({"from_warehouse_id": main, "to_warehouse_id": main, "items": [{"sku_id": small, "quantity": 1}]}),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    // Five units: the four expiring first, then one of the later lot; retried, it moves once.
    let send = || {
        app.client
            .post(format!("{}/wms/transfers", app.base))
            .bearer_auth(&t)
            .header("Idempotency-Key", "tf-five")
            .json(&json!({"from_warehouse_id": main, "to_warehouse_id": to, "note": "ส่งของไปสาขา",
                "items": [{"sku_id": small, "quantity": 5}]}))
            .send()
    };
    let first: Value = send().await.unwrap().json().await.unwrap();
    let again = send().await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    let tf = first["id"].as_i64().unwrap();
    assert_eq!(first["state"], "in_transit");
    let lots: Vec<(Value, i64)> = first["items"][0]["lots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["expired_at"].clone(), l["quantity"].as_i64().unwrap()))
        .collect();
    assert_eq!(lots, vec![(json!("2026-12-31"), 4), (json!("2027-01-31"), 1)]);
    assert_eq!(level(app, &t, main, small).await, 7);
    let (_, transit) = app.get(&format!("/wms/in-transit?sku-ids={small}"), &t).await;
    assert_eq!(
        (transit["data"][0]["warehouse_id"].as_i64(), transit["data"][0]["quantity"].as_i64()),
        (Some(to), Some(5))
    );
    // The pick list is a PDF.
    let r = app.client.get(format!("{}/wms/transfers/{tf}/pick-list", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_eq!((r.status(), r.headers()["content-type"].to_str().unwrap()), (StatusCode::OK, "application/pdf"));
    // The other side confirms; the lots keep their expiry and cost.
    let (s, v) = app.post(&format!("/wms/transfers/{tf}/receive"), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("received")));
    let (_, there) = app.get(&format!("/wms/stock-lots?warehouse-id={to}&sku-ids={small}"), &t).await;
    let kept: Vec<(Value, Value, i64)> = there["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["expired_at"].clone(), l["unit_cost"].clone(), l["on_hand"].as_i64().unwrap()))
        .collect();
    assert_eq!(kept, vec![(json!("2026-12-31"), json!("12.00"), 4), (json!("2027-01-31"), json!("10.00"), 1)]);
    let (_, list) = app.get("/wms/transfers?state=received", &t).await;
    assert_eq!(list["total"], 1);
    // Picking 9 from the main warehouse: the 7 left, 2 short.
    let (_, pick) = app
        .post("/wms/pick-lots", &t, json!({"warehouse_id": main, "items": [{"sku_id": small, "quantity": 9}]}))
        .await;
    assert_eq!(
        (pick["data"][0]["short"].as_i64(), pick["data"][0]["lots"][0]["quantity"].as_i64()),
        (Some(2), Some(7))
    );
    // A deactivated warehouse keeps its stock but takes no new stock; the default stays active.
    let (s, v) =
        app.patch(&format!("/wms/warehouses/{to}"), &t, json!({"active": false, "name": "สาขาเชียงใหม่ (ปิด)"})).await;
    assert_eq!((s, v["active"].as_bool()), (StatusCode::OK, Some(false)));
    let (s, v) = app.post("/wms/goods-receipts", &t, receipt(to, json!([{"sku_id": small, "request_qty": 1}]))).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("warehouse_inactive")));
    let (s, _) = app
        .post(
            "/wms/transfers",
            &t,
            json!({"from_warehouse_id": main, "to_warehouse_id": to, "items": [{"sku_id": small, "quantity": 1}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(level(app, &t, to, small).await, 5);
    let (s, v) = app.patch(&format!("/wms/warehouses/{main}"), &t, json!({"active": false})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("warehouse_default")));
    // Goods adjust out takes lots first expiry first and says which, with who.
    let (s, _) = app
        .post(
            "/wms/goods-adjust",
            &t,
            json!({"warehouse_id": main, "sku_id": small, "quantity": -2, "reason": "ขวดแตก"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (_, adj) = app.get("/wms/goods-adjust/", &t).await;
    let last = &adj["data"][0];
    assert_eq!(
        (last["lots"][0]["expired_at"].as_str(), last["lots"][0]["quantity"].as_i64()),
        (Some("2027-01-31"), Some(2)),
        "{adj}"
    );
    assert!(last["created_by_name"].as_str().is_some_and(|n| !n.is_empty()));
}

async fn transfers_racing_for_the_last_units_never_oversell(app: &TestApp) {
    let t = app.owner().await;
    let main = main_warehouse(app, &t).await;
    let (small, _) = skus(app, &t, "FS6", main).await;
    let (_, second) = app.post("/wms/warehouses", &t, json!({"name": "B"})).await;
    let to = second["id"].as_i64().unwrap();
    let (_, r) =
        app.post("/wms/goods-receipts", &t, receipt(main, json!([{"sku_id": small, "request_qty": 10}]))).await;
    let id = r["id"].as_i64().unwrap();
    app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &t, json!({})).await;
    app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
    // Twelve requests for 3 units each and four adjustments of 1 out: ten units, no more.
    let transfers = (0..12).map(|_| {
        app.client
            .post(format!("{}/wms/transfers", app.base))
            .bearer_auth(&t)
            .json(
                &json!({"from_warehouse_id": main, "to_warehouse_id": to, "items": [{"sku_id": small, "quantity": 3}]}),
            )
            .send()
    });
    let adjusts = (0..4).map(|_| {
        app.client
            .post(format!("{}/wms/goods-adjust", app.base))
            .bearer_auth(&t)
            .json(&json!({"warehouse_id": main, "sku_id": small, "quantity": -1, "reason": "นับหาย"}))
            .send()
    });
    let (tr, ad) =
        futures::future::join(futures::future::join_all(transfers), futures::future::join_all(adjusts)).await;
    let moved = 3 * tr.iter().filter(|r| r.as_ref().unwrap().status() == StatusCode::CREATED).count() as i64;
    let taken = ad.iter().filter(|r| r.as_ref().unwrap().status() == StatusCode::CREATED).count() as i64;
    assert!(moved + taken <= 10 && moved + taken >= 8, "moved {moved}, taken {taken}");
    assert_eq!(level(app, &t, main, small).await, 10 - moved - taken);
}

on_every_stack!(
    a_receipt_from_draft_to_stock,
    a_rejected_receipt_adds_nothing,
    concurrent_approves_add_once,
    permissions_and_isolation,
    transfers_and_warehouses,
    transfers_racing_for_the_last_units_never_oversell
);
