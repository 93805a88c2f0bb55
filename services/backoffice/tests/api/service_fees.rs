//! Service fees through the API (SPEC §2 `/dashboard/service-fee`, §7 `service-fee-summaries`
//! and `wms/warehouse-stores/pricing-plans/parcel-billing-by`): the owner sets a warehouse's
//! fee plan; a goods receipt approved and an order shipped are charged by it, once; the
//! dashboard's calls add the charges up as worked out by hand; who may; one store's plans and
//! fees kept from another's; bad input refused with its fields.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::orders::{create, main_warehouse, order, post_channel, stock_up, two_skus};

const PLANS: &str = "/wms/warehouse-stores/pricing-plans/parcel-billing-by";

fn today() -> String {
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    format!("{:04}-{:02}-{:02}", now.year(), u8::from(now.month()), now.day())
}

fn fields(v: &Value) -> Vec<(String, String)> {
    v["error"]["fields"]
        .as_array()
        .map(|f| f.iter().map(|f| (f["field"].as_str().unwrap().into(), f["code"].as_str().unwrap().into())).collect())
        .unwrap_or_default()
}

/// The day's fees once `done` holds of them (they follow wms's events within seconds).
async fn fees_when(app: &TestApp, t: &str, done: impl Fn(&Value) -> bool) -> Value {
    let path = format!("/order-reports/service-fee-summaries?period=daily&date={}", today());
    let mut last = Value::Null;
    for _ in 0..200 {
        let (s, v) = app.get(&path, t).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if done(&v) {
            return v;
        }
        last = v;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the fees never came to what was expected: {last}");
}

async fn a_plan_charges_receipts_and_shipped_orders_once(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    // No plan yet: every warehouse listed with zeros.
    let (s, v) = app.get(PLANS, &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mine = v["data"].as_array().unwrap().iter().find(|p| p["warehouse_id"] == w).cloned().unwrap();
    assert_eq!(
        (mine["pick"].as_str(), mine["cod_percent"].as_str(), mine["updated_at"].as_str()),
        (Some("0.00"), Some("0.00"), Some(""))
    );
    assert!(!mine["warehouse_name"].as_str().unwrap().is_empty());

    // Bad input names every field at once; a rate over 100% is refused by the rules.
    let bad = json!({"receipt_line": "abc", "shelving": "0.25", "pick": "-1", "pack": "10", "packaging": "0",
        "material": "2", "additional": "1.5", "shipping": "45.001", "cod_percent": "2.555"});
    let (s, v) = app.call(Method::PUT, &format!("{PLANS}/{w}"), Some(&t), Some(bad)).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(
        fields(&v),
        [
            ("receipt_line", "validation.fee"),
            ("pick", "validation.fee"),
            ("shipping", "validation.fee"),
            ("cod_percent", "validation.percent")
        ]
        .map(|(f, c)| (f.to_string(), c.to_string()))
    );
    let plan = json!({"receipt_line": "5", "shelving": "0.25", "pick": "3", "pack": "10", "packaging": "0",
        "material": "2", "additional": 1.5, "shipping": "45", "cod_percent": "2.5"});
    let mut over = plan.clone();
    over["cod_percent"] = json!("100.01");
    over["pack"] = json!("100000.01");
    let (s, v) = app.call(Method::PUT, &format!("{PLANS}/{w}"), Some(&t), Some(over)).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(
        fields(&v),
        [("pack", "validation.fee"), ("cod_percent", "validation.percent")]
            .map(|(f, c)| (f.to_string(), c.to_string()))
    );
    let (s, v) = app.call(Method::PUT, &format!("{PLANS}/{w}"), Some(&t), Some(plan.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["pick"].as_str(), v["additional"].as_str(), v["cod_percent"].as_str()),
        (Some("3.00"), Some("1.50"), Some("2.50"))
    );
    assert!(!v["updated_at"].as_str().unwrap().is_empty());
    let (_, v) = app.get(PLANS, &t).await;
    let mine = v["data"].as_array().unwrap().iter().find(|p| p["warehouse_id"] == w).cloned().unwrap();
    assert_eq!(mine["shipping"], "45.00");

    // A goods receipt of two lines, 10 and 4 units: 2 × 5.00 + 14 × 0.25 = 13.50.
    let (red, blue) = two_skus(app, &t, "SF1", w).await;
    let receipt = json!({"type": "product", "warehouse_id": w, "expected_received_date": "2026-12-01",
        "expected_received_time": "10:30", "products": [{"sku_id": red, "request_qty": 10}, {"sku_id": blue, "request_qty": 4}]});
    let (s, r) = app.post("/wms/goods-receipts", &t, receipt).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let id = r["id"].as_i64().unwrap();
    app.post(&format!("/wms/goods-receipts/{id}/ready-to-warehouse"), &t, json!({})).await;
    for _ in 0..2 {
        let (s, v) = app.post(&format!("/wms/goods-receipts/{id}/qc-approve/in-store"), &t, json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    stock_up(app, &t, w, red, 5).await;

    // An order of 2 red and 1 blue in a catalogue box C (13.00), by a channel that prices
    // 0.8 kg at 38.00: 3 × 3.00 picked, 10.00 packed, the box, 2.00 material, 1.50
    // additional, and the parcel's own 38.00 shipping rather than the plan's = 73.50.
    let channel = post_channel(app, &t, w, false).await;
    let mut body = order(w, json!([{"sku_id": red, "quantity": 2}, {"sku_id": blue, "quantity": 1}]));
    body["logistic_store_channel_id"] = json!(channel);
    let o = create(app, &t, body).await;
    let oid = o["id"].as_i64().unwrap();
    let (s, _) = app.post(&format!("/orders/{oid}/ready-to-fulfillment"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let parcel = json!({"order_id": oid, "weight": "0.8", "packaging_code": "box_c", "tracking_no": "SF0000001TH"});
    let (s, v) = app.post("/wms/parcels/in-store", &t, parcel).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    for _ in 0..2 {
        let (s, v) = app.post("/wms/parcels/ship/in-store", &t, json!({"order_ids": [oid]})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }

    let v = fees_when(app, &t, |v| v["current"]["orders"] == 1 && v["current"]["receipts"] == 1).await;
    let c = &v["current"];
    let got: Vec<&str> = [
        "goods_receipt",
        "shelving",
        "picking",
        "packing",
        "packaging",
        "material",
        "additional",
        "shipping",
        "cod",
        "total",
    ]
    .iter()
    .map(|k| c[*k].as_str().unwrap())
    .collect();
    assert_eq!(got, ["10.00", "3.50", "9.00", "10.00", "13.00", "2.00", "1.50", "38.00", "0.00", "87.00"], "{v}");
    assert_eq!((v["period"].as_str(), v["bucket"].as_str()), (Some("daily"), Some("day")));
    assert_eq!(v["points"].as_array().unwrap().len(), 1);
    assert_eq!(v["points"][0]["fees"]["total"], "87.00");
    assert_eq!(v["warehouses"][0]["warehouse_id"], w);
    assert!(!v["warehouses"][0]["warehouse_name"].as_str().unwrap().is_empty());
    assert_eq!(v["previous"]["total"], "0.00");
    assert!(!v["updated_at"].as_str().unwrap().is_empty());
    // The other calls say the same.
    let q = format!("?period=daily&date={}", today());
    let (_, total) = app.get(&format!("/order-reports/service-fee-summaries/total{q}"), &t).await;
    assert_eq!(total["current"]["total"], "87.00", "{total}");
    let (_, table) = app.get(&format!("/order-reports/service-fee-summaries/table-lists/warehouses{q}"), &t).await;
    assert_eq!(table["rows"][0]["current"]["picking"], "9.00", "{table}");
    let (_, chart) = app.get("/order-reports/service-fee-summaries/charts/fees?period=yearly", &t).await;
    assert_eq!((chart["bucket"].as_str(), chart["points"].as_array().unwrap().len()), (Some("month"), 12), "{chart}");
    let month: f64 = chart["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["fees"]["total"].as_str().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!(month >= 87.0, "{chart}");
    let (_, daily) = app.get("/order-reports/service-fee-summaries/daily?period=quarterly", &t).await;
    assert!(daily["points"].as_array().unwrap().len() >= 90, "a day per point: {daily}");
    // A difference injected into the read model is found; a rebuild from scratch puts back
    // what the live feed made. The order's move to shipped is counted first (its event travels
    // apart from the fees').
    app.check_reports().await;
    let db = bo_kit::db::Db::connect(&app.reports_db_url).await.unwrap();
    sqlx::query("UPDATE daily_fees SET picking = picking + 100 WHERE store_id = $1 AND warehouse_id = $2")
        .bind(app.demo_store)
        .bind(w)
        .execute(db.pool())
        .await
        .unwrap();
    db.close().await;
    let found = app.reports_differences().await;
    assert!(
        found.len() == 1 && found[0].contains(&format!("fees of warehouse {w}")) && found[0].contains("-100 satang"),
        "{found:?}"
    );
    assert!(app.rebuild_fees().await >= 2);
    assert_eq!(app.reports_differences().await, Vec::<String>::new());
    let (_, again) = app.get(&format!("/order-reports/service-fee-summaries{q}"), &t).await;
    assert_eq!((&again["current"], &again["warehouses"]), (&v["current"], &v["warehouses"]), "after the rebuild");
    let (s, u) = app.get("/order-reports/service-fee-summaries/lastest-updated", &t).await;
    assert_eq!(s, StatusCode::OK);
    assert!(!u["updated_at"].as_str().unwrap().is_empty());
}

async fn only_the_owner_sets_plans_and_sees_fees_of_their_store(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let plan = json!({"receipt_line": "1", "shelving": "1", "pick": "1", "pack": "1", "packaging": "1",
        "material": "1", "additional": "1", "shipping": "1", "cod_percent": "1"});
    let member = app.member_with(app.demo_store, "clerk-fees@example.com", &["*"]).await;
    assert_eq!(app.get(PLANS, &member).await.0, StatusCode::FORBIDDEN);
    let (s, _) = app.call(Method::PUT, &format!("{PLANS}/{w}"), Some(&member), Some(plan.clone())).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    for path in [
        "/order-reports/service-fee-summaries",
        "/order-reports/service-fee-summaries/lastest-updated",
        "/order-reports/service-fee-summaries/total",
        "/order-reports/service-fee-summaries/daily",
        "/order-reports/service-fee-summaries/table-lists/warehouses",
        "/order-reports/service-fee-summaries/charts/fees",
    ] {
        assert_eq!(app.get(path, &member).await.0, StatusCode::FORBIDDEN, "{path}");
    }
    // Another store's owner can neither set this store's warehouse nor see its fees.
    let (_, other) = app.other_owner("other-fees@example.com").await;
    let (s, v) = app.call(Method::PUT, &format!("{PLANS}/{w}"), Some(&other), Some(plan)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("warehouse_not_found")), "{v}");
    let (_, v) = app.get(PLANS, &other).await;
    assert!(v["data"].as_array().unwrap().iter().all(|p| p["warehouse_id"] != w), "{v}");
    let (_, v) = app.get("/order-reports/service-fee-summaries", &other).await;
    assert_eq!(
        (v["current"]["total"].as_str(), v["warehouses"].as_array().map(Vec::len)),
        (Some("0.00"), Some(0)),
        "{v}"
    );
    for (path, field) in [
        ("/order-reports/service-fee-summaries?period=weekly", "period"),
        ("/order-reports/service-fee-summaries/charts/fees?date=2026-02-30", "date"),
    ] {
        let (s, v) = app.get(path, &t).await;
        assert_eq!(
            (s, v["error"]["fields"][0]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field)),
            "{path}: {v}"
        );
    }
}

on_every_stack!(
    a_plan_charges_receipts_and_shipped_orders_once,
    only_the_owner_sets_plans_and_sees_fees_of_their_store
);
