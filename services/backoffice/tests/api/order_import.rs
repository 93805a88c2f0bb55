//! Order import through the API (SPEC §2 /order-import, §5 "Order import", §7 POST
//! /orders/excel/import): a file checked first with nothing saved, then imported; the rows
//! of one reference one order, made whole or not at all, holding stock as typed orders do;
//! the failed rows handed back with their reasons; the same file twice making nothing the
//! second time; wrong files, who may, and one store's SKUs and references kept from another.

use bo_kit::sheet;
use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::orders::{create, level, main_warehouse, order, stock_up, two_skus};

const HEADER: &str = "Order reference,Recipient name,Phone,Address,Sub-district,District,Province,Postcode,Email,\
                      SKU code,Quantity,Unit price,Shipping charge,Discount,Note";

fn row(reference: &str, sku: &str, qty: &str, price: &str) -> String {
    format!(
        "{reference},สมชาย ใจดี,0812345678,99/1 ถนนสุขุมวิท,คลองเตยเหนือ,วัฒนา,กรุงเทพมหานคร,10110,,{sku},{qty},{price},40,,"
    )
}

fn csv(rows: &[String]) -> Vec<u8> {
    let mut s = String::from("\u{FEFF}");
    s.push_str(HEADER);
    for r in rows {
        s.push_str("\r\n");
        s.push_str(r);
    }
    s.into_bytes()
}

async fn import(
    app: &TestApp,
    token: &str,
    file: Vec<u8>,
    name: &str,
    channel: &str,
    warehouse: i64,
    dry_run: bool,
) -> (StatusCode, Value) {
    let form = Form::new()
        .part("file", Part::bytes(file).file_name(name.to_string()))
        .text("channel", channel.to_string())
        .text("warehouse_id", warehouse.to_string())
        .text("dry_run", dry_run.to_string());
    app.post_form("/orders/excel/import", token, form).await
}

fn errors(v: &Value) -> Vec<(i64, String, String)> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["field"].as_str().unwrap().to_string(),
                e["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn field_code(v: &Value) -> (Option<&str>, Option<&str>) {
    (v["error"]["fields"][0]["field"].as_str(), v["error"]["fields"][0]["code"].as_str())
}

async fn imported_orders(app: &TestApp, t: &str) -> Vec<Value> {
    let (s, v) = app.get("/orders?limit=100", t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["data"].as_array().unwrap().iter().filter(|o| o["imported"] == true).cloned().collect()
}

async fn a_file_is_checked_then_imported_once(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "IM1", w).await;
    stock_up(app, &t, w, red, 10).await;
    let file = csv(&[
        row("FB-1", "IM1-R", "2", ""),
        "FB-1,,,,,,,,,IM1-B,1,300,,,".to_string(),
        row("FB-2", "IM1-R", "1", "150.50"),
        row("FB-3", "NOPE", "1", ""),
        row("FB-3", "IM1-R", "1", ""),
    ]);

    // The check: what would be made and why the rest would not; nothing is saved.
    let (s, v) = import(app, &t, file.clone(), "orders.csv", "facebook", w, true).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["data"]["rows"].as_i64(), v["data"]["created"].as_i64()), (Some(5), Some(0)));
    let orders = v["data"]["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 2);
    assert_eq!(orders[0]["reference"], "FB-1");
    assert_eq!(orders[0]["rows"], json!([2, 3]));
    // 2 × 199 + 1 × 300 + 40 shipping.
    assert_eq!((orders[0]["total"].as_str(), orders[0]["quantity"].as_i64()), (Some("738.00"), Some(3)));
    assert!(orders[0]["order_id"].is_null());
    assert_eq!(orders[1]["total"], "190.50");
    assert_eq!(
        errors(&v),
        vec![
            (5, "sku".into(), "order.sku_unknown".into()),
            (6, "reference".into(), "order.import_order_has_errors".into())
        ]
    );
    let failed = v["data"]["failed_rows"].as_array().unwrap();
    assert_eq!(failed.len(), 2);
    assert_eq!(v["data"]["header"][0], "Order reference");
    assert_eq!(failed[0]["row"], 5);
    assert_eq!(failed[0]["cells"][0], "FB-3");
    assert_eq!(failed[0]["cells"][9], "NOPE");
    assert!(imported_orders(app, &t).await.is_empty());
    assert_eq!(level(app, &t, w, red).await, (10, 0));

    // The import: the good orders made as typed ones, holding their stock (FB-1 is short of
    // blue and waits for it); the bad order's rows come back.
    let (s, v) = import(app, &t, file.clone(), "orders.csv", "facebook", w, false).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["created"], 2);
    assert_eq!(v["data"]["failed_rows"].as_array().unwrap().len(), 2);
    let made = &v["data"]["orders"][0];
    let id = made["order_id"].as_i64().unwrap();
    assert!(made["order_no"].is_string());
    let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(
        (o["reference"].as_str(), o["channel"].as_str(), o["imported"].as_bool()),
        (Some("FB-1"), Some("facebook"), Some(true))
    );
    assert_eq!(o["total"], "738.00");
    assert_eq!(o["items"][1]["price"], "300.00");
    assert_eq!(o["shipping_address"]["name"], "สมชาย ใจดี");
    assert!(o["problems"].as_array().unwrap().iter().any(|p| p == "stock_not_enough"), "{o}");
    assert_eq!(imported_orders(app, &t).await.len(), 2);
    // FB-2 holds its red; FB-1 holds nothing while short.
    assert_eq!(level(app, &t, w, red).await, (10, 1));
    assert_eq!(level(app, &t, w, blue).await, (0, 0));

    // The same file again makes nothing: every reference is a duplicate.
    let (s, v) = import(app, &t, file, "orders.csv", "facebook", w, false).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["created"], 0);
    assert!(v["data"]["orders"].as_array().unwrap().is_empty());
    let dup = errors(&v).into_iter().filter(|e| e.2 == "order.duplicate_reference").map(|e| e.0).collect::<Vec<_>>();
    assert_eq!(dup, vec![2, 3, 4]);
    assert_eq!(imported_orders(app, &t).await.len(), 2);
    // On another channel the references are free.
    let (s, v) = import(app, &t, csv(&[row("FB-2", "IM1-R", "1", "")]), "o.csv", "line", w, false).await;
    assert_eq!((s, v["data"]["created"].as_i64()), (StatusCode::OK, Some(1)), "{v}");
}

/// A file, its name, the channel, the warehouse, and the field and code it is refused with.
type WrongFile = (Vec<u8>, &'static str, &'static str, i64, &'static str, &'static str);

async fn the_template_imports_and_wrong_files_are_refused(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    for (lang, first) in [("th", "เลขอ้างอิงคำสั่งซื้อ *"), ("en", "Order reference *")]
    {
        let r = app
            .client
            .get(format!("{}/orders/excel/template?lang={lang}", app.base))
            .bearer_auth(&t)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert!(r.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));
        let bytes = r.bytes().await.unwrap().to_vec();
        let cells = sheet::read(&bytes, 1 << 20, None, 10).unwrap();
        assert_eq!(sheet::text_of(cells.rows[&0].get(&0)).unwrap(), first);
        // The template as it comes is read; its example SKUs are not this store's.
        let (s, v) = import(app, &t, bytes, "template.xlsx", "facebook", w, true).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["data"]["rows"], 2);
        assert_eq!(errors(&v)[0].2, "order.sku_unknown");
    }

    let cases: [WrongFile; 7] = [
        (b"name,phone\nA,1".to_vec(), "x.csv", "facebook", w, "file", "import_wrong_template"),
        (csv(&[]), "x.csv", "facebook", w, "file", "import_empty"),
        (b"%PDF-1.4".to_vec(), "x.pdf", "facebook", w, "file", "import_wrong_file_type"),
        (b"PK\x03\x04junk".to_vec(), "x.xlsx", "facebook", w, "file", "import_wrong_file_type"),
        (csv(&[row("A", "S", "1", "")]), "x.csv", "", w, "channel", "validation.required"),
        (csv(&[row("A", "S", "1", "")]), "x.csv", "myspace", w, "channel", "validation.channel_unknown"),
        (csv(&[row("A", "S", "1", "")]), "x.csv", "facebook", 999_999, "warehouse_id", "validation.warehouse_unknown"),
    ];
    for (file, name, channel, warehouse, field, code) in cases {
        let (s, v) = import(app, &t, file, name, channel, warehouse, true).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{name} {channel}: {v}");
        assert_eq!(field_code(&v), (Some(field), Some(code)), "{name} {channel}: {v}");
    }
    let mut many = String::from(HEADER);
    for i in 0..10_001 {
        many.push_str(&format!("\nR{i},,,,,,,,,S,1,,,,"));
    }
    let (s, v) = import(app, &t, many.into_bytes(), "many.csv", "facebook", w, true).await;
    assert_eq!((s, field_code(&v)), (StatusCode::UNPROCESSABLE_ENTITY, (Some("file"), Some("import_too_many_rows"))));
    assert_eq!(app.staged_uploads().await, 0, "every staged file is removed");
}

async fn only_order_makers_import_and_stores_stay_apart(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    two_skus(app, &t, "IM2", w).await;
    let file = csv(&[row("SHARED-1", "IM2-R", "1", "")]);
    let reader = app.member_with(app.demo_store, "import-reader@example.com", &["order.order.read"]).await;
    let (s, _) = import(app, &reader, file.clone(), "o.csv", "facebook", w, true).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.get("/orders/excel/template", &reader).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let maker = app.member_with(app.demo_store, "import-maker@example.com", &["order.order.create"]).await;
    let (s, v) = import(app, &maker, file.clone(), "o.csv", "facebook", w, false).await;
    assert_eq!((s, v["data"]["created"].as_i64()), (StatusCode::OK, Some(1)), "{v}");

    // Another store: this store's warehouse and SKUs are not its own, its references are free.
    let (_, other) = app.other_owner("import-other@example.com").await;
    let (s, v) = import(app, &other, file.clone(), "o.csv", "facebook", w, true).await;
    assert_eq!(
        (s, field_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, (Some("warehouse_id"), Some("validation.warehouse_unknown")))
    );
    let ow = main_warehouse(app, &other).await;
    let (s, v) = import(app, &other, file, "o.csv", "facebook", ow, true).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(errors(&v), vec![(2, "sku".into(), "order.sku_unknown".into())]);
    two_skus(app, &other, "IM2", ow).await;
    let (s, v) = import(app, &other, csv(&[row("SHARED-1", "IM2-R", "1", "")]), "o.csv", "facebook", ow, false).await;
    assert_eq!((s, v["data"]["created"].as_i64()), (StatusCode::OK, Some(1)), "{v}");
    assert_eq!(imported_orders(app, &other).await.len(), 1);
}

async fn arrivals(app: &TestApp, t: &str, file: &str, warehouse: i64, dry_run: bool) -> (StatusCode, Value) {
    let form = Form::new()
        .part("file", Part::bytes(file.as_bytes().to_vec()).file_name("arrivals.csv"))
        .text("warehouse_id", warehouse.to_string())
        .text("dry_run", dry_run.to_string());
    app.post_form("/orders/inadequate-goods/import", t, form).await
}

async fn inadequate_goods_come_in_and_fill_short_orders(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "IN1", w).await;
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let b = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}, {"sku_id": blue, "quantity": 1}]))).await;
    assert_eq!((a["stock_state"].as_str(), b["stock_state"].as_str()), (Some("short"), Some("short")));

    // What the short orders wait for, by SKU code.
    let (s, v) = app.get(&format!("/orders/inadequate-goods?warehouse-id={w}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let list: Vec<(String, i64, i64, i64, i64)> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["sku_code"].as_str().unwrap().to_string(),
                x["needed"].as_i64().unwrap(),
                x["available"].as_i64().unwrap(),
                x["missing"].as_i64().unwrap(),
                x["orders"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(list, vec![("IN1-B".into(), 1, 0, 1, 1), ("IN1-R".into(), 3, 0, 3, 2)]);

    // The list back with what arrived: checked first, nothing received.
    let file = "\u{FEFF}รหัส SKU,สินค้า,ต้องการ,มีอยู่,ขาด,จำนวนที่เข้า\nIN1-R,เสื้อ,3,0,3,3\nIN1-B,เสื้อ,1,0,1,\nNOPE,x,,,,1\n";
    let (s, v) = arrivals(app, &t, file, w, true).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["lines"].as_array().unwrap().len(), 1);
    assert_eq!(
        (v["data"]["lines"][0]["shortage"]["sku_code"].as_str(), v["data"]["lines"][0]["quantity"].as_i64()),
        (Some("IN1-R"), Some(3))
    );
    assert_eq!(errors(&v), vec![(4, "sku".into(), "order.arrival_not_short".into())]);
    assert_eq!(level(app, &t, w, red).await, (0, 0));

    // Received: the oldest short order is filled; the other still waits for blue.
    let (s, v) = arrivals(app, &t, file, w, false).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["data"]["filled"].clone(), v["data"]["short"].clone(), v["data"]["replayed"].as_bool()),
        (json!([a["id"]]), json!([b["id"]]), Some(false))
    );
    assert_eq!(level(app, &t, w, red).await, (3, 2));
    // The filler (woken by the stock's event) may still be trying the short order: wait
    // until it is settled, short, before asking again.
    for _ in 0..100 {
        let (_, o) = app.get(&format!("/orders/{}", b["id"]), &t).await;
        if o["stock_state"] == "short" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // The same file again adds nothing.
    let (s, v) = arrivals(app, &t, file, w, false).await;
    assert_eq!((s, v["data"]["replayed"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
    assert_eq!(level(app, &t, w, red).await.0, 3);

    // Who may: reading orders shows the list; receiving takes changing orders and adjusting stock.
    let reader = app.member_with(app.demo_store, "inadequate-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.get(&format!("/orders/inadequate-goods?warehouse-id={w}"), &reader).await;
    assert_eq!(s, StatusCode::OK);
    let editor = app.member_with(app.demo_store, "inadequate-editor@example.com", &["order.order.edit"]).await;
    let (s, _) = arrivals(app, &editor, "sku,arriving\nIN1-B,1", w, false).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, other) = app.other_owner("inadequate-other@example.com").await;
    let (s, v) = app.get(&format!("/orders/inadequate-goods?warehouse-id={w}"), &other).await;
    assert_eq!(
        (s, field_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, (Some("warehouse_id"), Some("validation.warehouse_unknown")))
    );

    // Blue arrives: the last short order is filled, and none is left.
    let (s, v) = arrivals(app, &t, "SKU code,Arriving quantity\nIN1-B,1", w, false).await;
    assert_eq!((s, v["data"]["filled"].clone()), (StatusCode::OK, json!([b["id"]])), "{v}");
    let (_, v) = app.get(&format!("/orders/inadequate-goods?warehouse-id={w}"), &t).await;
    assert_eq!(v["data"], json!([]));
    let (s, v) = arrivals(app, &t, "sku,arriving\nIN1-B,1", w, false).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("inadequate_goods_not_found")), "{v}");
    assert_eq!(level(app, &t, w, blue).await, (1, 1));
}

on_every_stack!(
    inadequate_goods_come_in_and_fill_short_orders,
    a_file_is_checked_then_imported_once,
    the_template_imports_and_wrong_files_are_refused,
    only_order_makers_import_and_stores_stay_apart
);
