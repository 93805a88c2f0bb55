//! Report exports through the API (SPEC §3 report export record, §4 Report export, §7, §8 no
//! data for an export): the orders of a date range and states, built in the background with
//! its progress, downloaded as a spreadsheet whose rows are the orders asked, whose text that
//! looks like a formula stays text, refused when nothing matches; the dashboards' summaries,
//! the stock movements and the download link; who may, and one store's exports kept from
//! another.

use std::time::Duration;

use bo_kit::sheet::{self, Cell};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::orders::{create, main_warehouse, order, stock_up, two_skus};

fn today() -> String {
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    format!("{:04}-{:02}-{:02}", now.year(), u8::from(now.month()), now.day())
}

async fn exported(app: &TestApp, t: &str, id: i64) -> Value {
    let mut last = Value::Null;
    for _ in 0..300 {
        let (_, l) = app.get("/orders/reports", t).await;
        if let Some(e) = l["data"].as_array().and_then(|d| d.iter().find(|e| e["id"] == id)) {
            if e["state"] != "exporting" {
                return e.clone();
            }
            last = e.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("export {id} never finished: {last}");
}

fn text(v: Option<&Cell>) -> String {
    sheet::text_of(v).unwrap_or_default()
}

async fn an_export_of_new_orders_downloads_as_a_spreadsheet(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "EX1", w).await;
    stock_up(app, &t, w, red, 10).await;
    stock_up(app, &t, w, blue, 10).await;
    let mut a = order(w, json!([{"sku_id": red, "quantity": 2}, {"sku_id": blue, "quantity": 1}]));
    a["reference"] = json!("=HYPERLINK(\"http://evil.example\",\"click\")");
    a["note"] = json!("+66 ส่งก่อนเที่ยง");
    let a = create(app, &t, a).await;
    let b = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let c = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let (s, _) = app.post(&format!("/orders/{}/cancel", c["id"]), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);

    // Nothing matches: refused, nothing recorded.
    let (s, v) = app
        .post("/orders/reports/produce-order-report", &t, json!({"date_from": "2020-01-01", "date_to": "2020-01-31"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("no_data_for_export")), "{v}");
    for (body, field, code) in [
        (json!({"date_to": today()}), "date_from", "validation.required"),
        (json!({"date_from": "2026-13-01", "date_to": today()}), "date_from", "validation.date"),
        (json!({"date_from": today(), "date_to": "2020-01-01"}), "date_to", "validation.date_range"),
        (json!({"date_from": "2020-01-01", "date_to": today()}), "date_to", "validation.export_range"),
        (
            json!({"date_from": today(), "date_to": today(), "order_state": ["lost"]}),
            "order_states[0]",
            "validation.order_state",
        ),
    ] {
        let (s, v) = app.post("/orders/reports/produce-order-report", &t, body.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert_eq!(
            (v["error"]["fields"][0]["field"].as_str(), v["error"]["fields"][0]["code"].as_str()),
            (Some(field), Some(code)),
            "{body}"
        );
    }
    let (_, l) = app.get("/orders/reports", &t).await;
    assert_eq!(l["total"], 0);

    // Today's new orders, in English.
    let (s, e) = app
        .post(
            "/orders/reports/produce-order-report",
            &t,
            json!({"date_from": today(), "date_to": today(), "order_state": ["new"], "lang": "en"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    assert_eq!(
        (e["state"].as_str(), e["total"].as_i64(), e["order_states"].clone()),
        (Some("exporting"), Some(2), json!(["new"]))
    );
    assert!(
        e["file_name"].as_str().unwrap().starts_with("orders-") && e["file_name"].as_str().unwrap().ends_with(".xlsx")
    );
    assert!(!e["exporter"].as_str().unwrap().is_empty(), "who asked: {e}");
    let id = e["id"].as_i64().unwrap();
    let done = exported(app, &t, id).await;
    assert_eq!(
        (done["state"].as_str(), done["progress"].as_i64(), done["done"].as_i64()),
        (Some("exported"), Some(100), Some(2)),
        "{done}"
    );
    assert!(done["expires_at"].is_string() && done["file_size"].as_i64().unwrap() > 0);

    let r = app
        .client
        .post(format!("{}/orders/reports/{id}/files/1/download", app.base))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains(done["file_name"].as_str().unwrap()));
    let bytes = r.bytes().await.unwrap();
    let cells = sheet::read(&bytes, 10 << 20, Some("Orders"), 100).unwrap();
    assert_eq!(cells.non_empty.len(), 3, "the headers and two orders");
    let header = &cells.rows[&0];
    assert_eq!((text(header.get(&0)), text(header.get(&18))), ("Order no.".to_string(), "Total (THB)".to_string()));
    let rows: Vec<_> = (1..=2).map(|r| &cells.rows[&r]).collect();
    assert_eq!(text(rows[0].get(&0)), a["order_no"].as_str().unwrap());
    assert_eq!(text(rows[1].get(&0)), b["order_no"].as_str().unwrap());
    assert_eq!(text(rows[0].get(&4)), "New");
    assert_eq!(text(rows[0].get(&11)), "EX1-R × 2, EX1-B × 1");
    assert_eq!(text(rows[0].get(&12)), "3");
    assert_eq!(
        sheet::satang_of(rows[0].get(&18), i64::MAX).unwrap(),
        bo_kit::money::Satang::parse_baht(a["total"].as_str().unwrap()).unwrap().0
    );
    // A text that a spreadsheet would run is kept as the text it was.
    assert_eq!(rows[0].get(&3), Some(&Cell::Text("=HYPERLINK(\"http://evil.example\",\"click\")".into())));
    assert_eq!(rows[0].get(&20), Some(&Cell::Text("+66 ส่งก่อนเที่ยง".into())));

    // One file per export; of this store only; readers of orders only.
    let (s, _) = app.post(&format!("/orders/reports/{id}/files/2/download"), &t, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, other) = app.other_owner("export-other@example.com").await;
    let (s, _) = app.post(&format!("/orders/reports/{id}/files/1/download"), &other, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, l) = app.get("/orders/reports", &other).await;
    assert_eq!(l["total"], 0);
    let maker = app.member_with(app.demo_store, "export-maker@example.com", &["order.order.create"]).await;
    let (s, _) = app.get("/orders/reports", &maker).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app
        .post("/orders/reports/produce-order-report", &maker, json!({"date_from": today(), "date_to": today()}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // Every state, in Thai by default: the cancelled one too.
    let (s, e) =
        app.post("/orders/reports/produce-order-report", &t, json!({"date_from": today(), "date_to": today()})).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    let done = exported(app, &t, e["id"].as_i64().unwrap()).await;
    assert_eq!(done["done"], 3);
    let (_, l) = app.get("/orders/reports", &t).await;
    assert_eq!(l["total"], 2);
    assert_eq!(l["data"][0]["id"], e["id"], "newest first");
}

/// A store may have three exports waiting; a fourth is refused, translated, until one is
/// done (another store's are its own).
async fn a_store_queues_three_exports_at_most(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "EXQ", w).await;
    stock_up(app, &t, w, red, 5).await;
    create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    // Three being built by a builder that holds on to them (claimed in the future).
    let db = bo_kit::db::Db::connect(&app.reports_db_url).await.unwrap();
    for _ in 0..3 {
        sqlx::query(
            "INSERT INTO report_exports (store_id, kind, scope, file_name, state, claimed_by, claimed_at, created_at) \
             VALUES ($1, 'orders', '{}', 'orders.xlsx', 'exporting', 'elsewhere', $2, $2)",
        )
        .bind(app.demo_store)
        .bind(bo_kit::time::now_ms() + 3_600_000)
        .execute(db.pool())
        .await
        .unwrap();
    }
    let ask = json!({"date_from": today(), "date_to": today()});
    let (s, v) = app.post("/orders/reports/produce-order-report", &t, ask.clone()).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("export_queue_full")), "{v}");
    let (other_store, other) = app.other_owner("exports-other@example.com").await;
    assert_ne!(other_store, app.demo_store);
    let (s, v) = app.post("/orders/reports/produce-order-report", &other, ask.clone()).await;
    assert_eq!(v["error"]["code"], "no_data_for_export", "another store is not held up: {s} {v}");
    // One of them finishes: the store may ask again.
    sqlx::query("UPDATE report_exports SET state = 'failed' WHERE id = (SELECT MIN(id) FROM report_exports)")
        .execute(db.pool())
        .await
        .unwrap();
    db.close().await;
    let (s, v) = app.post("/orders/reports/produce-order-report", &t, ask).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

/// The spreadsheet at a download link the API gives, and its sheet's cells.
async fn by_link(app: &TestApp, t: &str, id: i64, sheet_name: &str) -> bo_kit::sheet::SheetCells {
    let (s, link) = app.get(&format!("/reports/exports/{id}/download-url"), t).await;
    assert_eq!(s, StatusCode::OK, "{link}");
    let url = link["url"].as_str().unwrap();
    assert!(url.starts_with(&format!("/reports/exports/{id}/file?token=")), "{url}");
    // No header: the link is the key.
    let r = app.client.get(format!("{}{url}", app.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains(link["file_name"].as_str().unwrap()));
    let bytes = r.bytes().await.unwrap();
    sheet::read(&bytes, 10 << 20, Some(sheet_name), 1000).unwrap()
}

/// The dashboards' summaries as spreadsheets: the days of the month, the channels, the
/// states, the SKUs sold and the sales per employee, figures as the dashboards count them;
/// the owner's only; a table a summary has not is refused; a link opens its own file only.
async fn the_summaries_export_what_the_dashboards_show(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "EXS", w).await;
    stock_up(app, &t, w, red, 10).await;
    stock_up(app, &t, w, blue, 10).await;
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 2}, {"sku_id": blue, "quantity": 1}]))).await;
    let b = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let (_, s) = app.get(&format!("/order-reports/order-summaries?period=monthly&date={}", today()), &t).await;
    // The figures follow the orders' events.
    let mut summary = s;
    for _ in 0..100 {
        if summary["current"]["orders"] == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        summary = app.get(&format!("/order-reports/order-summaries?period=monthly&date={}", today()), &t).await.1;
    }
    assert_eq!(summary["current"]["orders"], 2, "{summary}");
    let net = |o: &Value| bo_kit::money::Satang::parse_baht(o["net"].as_str().unwrap()).unwrap().0;
    let month = json!({"period": "monthly", "date": today(), "lang": "en"});

    // The days of the month: one row, today's, with both orders.
    let (s, e) = app.post("/order-reports/order-summaries/export-excel", &t, month.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    assert_eq!((e["kind"].as_str(), e["table"].as_str()), (Some("order_summary"), Some("daily")));
    let done = exported(app, &t, e["id"].as_i64().unwrap()).await;
    assert_eq!((done["state"].as_str(), done["done"].as_i64()), (Some("exported"), Some(1)), "{done}");
    let cells = by_link(app, &t, e["id"].as_i64().unwrap(), "Daily sales").await;
    assert_eq!(text(cells.rows[&0].get(&0)), "Day");
    let row = &cells.rows[&1];
    assert_eq!(text(row.get(&1)), "2", "orders");
    assert_eq!(sheet::satang_of(row.get(&4), i64::MAX).unwrap(), net(&a) + net(&b), "net sales");

    // The channels, in Thai by default, named as people call them.
    let (s, e) = app
        .post("/order-reports/order-summaries/export-excel/channels", &t, json!({"period": "monthly", "date": today()}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    exported(app, &t, e["id"].as_i64().unwrap()).await;
    let cells = by_link(app, &t, e["id"].as_i64().unwrap(), "ช่องทางขาย").await;
    assert_eq!(text(cells.rows[&0].get(&0)), "ช่องทางขาย");
    assert_eq!(cells.non_empty.len(), 2, "the headers and the one channel");

    // The states now.
    let (s, e) = app.post("/order-reports/order-summaries/export-excel/states", &t, month.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    exported(app, &t, e["id"].as_i64().unwrap()).await;
    let cells = by_link(app, &t, e["id"].as_i64().unwrap(), "Order states").await;
    assert_eq!((text(cells.rows[&1].get(&0)), text(cells.rows[&1].get(&1))), ("New".to_string(), "2".to_string()));

    // The SKUs sold, the largest net first.
    let (s, e) = app.post("/order-reports/sold-item-summaries/export-excel", &t, month.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    let done = exported(app, &t, e["id"].as_i64().unwrap()).await;
    assert_eq!(done["done"], 2);
    let cells = by_link(app, &t, e["id"].as_i64().unwrap(), "Sold items").await;
    assert_eq!((text(cells.rows[&1].get(&0)), text(cells.rows[&1].get(&3))), ("EXS-R".to_string(), "3".to_string()));

    // Who sold them: the owner.
    let (s, e) = app.post("/order-reports/admin-performance-summaries/export-excel", &t, month.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    exported(app, &t, e["id"].as_i64().unwrap()).await;
    let cells = by_link(app, &t, e["id"].as_i64().unwrap(), "Sales per employee").await;
    assert_eq!(text(cells.rows[&1].get(&1)), "2");
    assert_ne!(text(cells.rows[&1].get(&0)), "", "named");

    // Refused: a table the summary has not, a period with nothing, an admin, another
    // store's link; the link of one export opens no other.
    let (s, v) = app.post("/order-reports/sold-item-summaries/export-excel/channels", &t, month.clone()).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("table")),
        "{v}"
    );
    let (s, v) = app
        .post("/order-reports/service-fee-summaries/export-excel", &t, json!({"period": "daily", "date": "2020-01-01"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("no_data_for_export")));
    let admin = app.member_with(app.demo_store, "export-admin@example.com", &["order.order.read"]).await;
    let (s, _) = app.post("/order-reports/order-summaries/export-excel", &admin, month.clone()).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, l) = app.get("/orders/reports", &admin).await;
    assert!(
        l["data"].as_array().unwrap().iter().all(|e| e["kind"] == "orders"),
        "a reader of orders sees order exports only: {l}"
    );
    let (s, _) = app.get(&format!("/reports/exports/{}/download-url", e["id"]), &admin).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "not among the kinds they may read");
    let (_, link) = app.get(&format!("/reports/exports/{}/download-url", e["id"]), &t).await;
    let forged = link["url"]
        .as_str()
        .unwrap()
        .replace(&format!("/exports/{}/", e["id"]), &format!("/exports/{}/", e["id"].as_i64().unwrap() - 1));
    let r = app.client.get(format!("{}{forged}", app.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = app.client.get(format!("{}/reports/exports/{}/file?token=x", app.base, e["id"])).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let (_, other) = app.other_owner("export-summaries-other@example.com").await;
    let (s, _) = app.get(&format!("/reports/exports/{}/download-url", e["id"]), &other).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// The stock movements of a range as a spreadsheet, filtered as the report is, newest first,
/// across pages of the source; a reader of the stock may, a reader of orders may not.
async fn the_stock_movements_export_filtered(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "EXM", w).await;
    stock_up(app, &t, w, blue, 3).await;
    // More movements than the builder reads at once.
    for i in 0..520 {
        let (s, v) = app
            .post(
                "/wms/goods-adjust",
                &t,
                json!({"warehouse_id": w, "sku_id": red, "quantity": 1, "reason": format!("นับได้เกิน {i}")}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let ask = json!({"date_from": today(), "date_to": today(), "kind": "adjust", "sku_code": "EXM-R", "lang": "en"});
    let (s, e) = app.post("/reports/stock-movement", &t, ask.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    assert_eq!((e["kind"].as_str(), e["total"].as_i64()), (Some("stock_movements"), Some(520)));
    let done = exported(app, &t, e["id"].as_i64().unwrap()).await;
    assert_eq!((done["state"].as_str(), done["done"].as_i64()), (Some("exported"), Some(520)), "{done}");
    let cells = by_link(app, &t, e["id"].as_i64().unwrap(), "Stock movements").await;
    assert_eq!(cells.non_empty.len(), 521, "the headers and every adjustment of the red SKU");
    assert_eq!(text(cells.rows[&1].get(&8)), "นับได้เกิน 519", "newest first");
    assert_eq!(text(cells.rows[&520].get(&8)), "นับได้เกิน 0");
    assert_eq!(
        (text(cells.rows[&1].get(&2)), text(cells.rows[&1].get(&4))),
        ("EXM-R".to_string(), "Adjusted".to_string())
    );

    // Nothing of a SKU that is not, or of a kind that moved none.
    let (s, v) = app
        .post("/reports/stock-movement", &t, json!({"date_from": today(), "date_to": today(), "sku_code": "NONE"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("no_data_for_export")));
    let (s, v) = app
        .post("/reports/stock-movement", &t, json!({"date_from": today(), "date_to": today(), "kind": "lost"}))
        .await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("kind")), "{v}");
    let reader = app.member_with(app.demo_store, "export-stock@example.com", &["order.order.read"]).await;
    let (s, _) = app.post("/reports/stock-movement", &reader, ask.clone()).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let stock = app.member_with(app.demo_store, "export-stock-reader@example.com", &["product.sku.read"]).await;
    let (s, e) = app.post("/reports/stock-movement", &stock, ask).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    let (_, l) = app.get("/orders/reports", &stock).await;
    assert!(l["data"].as_array().unwrap().iter().all(|e| e["kind"] == "stock_movements"), "{l}");
}

on_every_stack!(
    an_export_of_new_orders_downloads_as_a_spreadsheet,
    a_store_queues_three_exports_at_most,
    the_summaries_export_what_the_dashboards_show,
    the_stock_movements_export_filtered
);
