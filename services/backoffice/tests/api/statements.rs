//! Automatic reconciliation through the API (decision 0022): a bank statement matched to
//! the store's open bills, every line with its reasons; the confident ones confirmed in one
//! step, an ambiguous one by choosing its bill; a statement uploaded again knows its used
//! lines; a COD report read by tracking number; wrong files, who may, and one store's bills
//! kept from another.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::orders::{create, main_warehouse, order, stock_up, two_skus};

pub(crate) async fn reconcile(
    app: &TestApp,
    t: &str,
    file: &str,
    dry_run: bool,
    choices: Value,
) -> (StatusCode, Value) {
    let form = Form::new()
        .part("file", Part::bytes(file.as_bytes().to_vec()).file_name("statement.csv"))
        .text("dry_run", dry_run.to_string())
        .text("choices", choices.to_string());
    app.post_form("/orders/payments/reconcile", t, form).await
}

/// Now in Thailand as a statement writes it, a few minutes on.
fn thai_now(minutes: i64) -> (String, String) {
    let now =
        ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7)) + ::time::Duration::minutes(minutes);
    (
        format!("{:02}/{:02}/{}", now.day(), u8::from(now.month()), now.year() + 543),
        format!("{:02}:{:02}", now.hour(), now.minute()),
    )
}

pub(crate) fn statement(lines: &[(&str, &str)]) -> String {
    let mut s = String::from("\u{FEFF}วันที่,เวลา,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ,รายละเอียด\n");
    for (i, (amount, text)) in lines.iter().enumerate() {
        let (d, t) = thai_now(1 + i as i64);
        s.push_str(&format!("{d},{t},รับโอนเงิน,,\"{amount}\",,{text}\n"));
    }
    s
}

fn statuses(v: &Value) -> Vec<String> {
    v["data"]["lines"].as_array().unwrap().iter().map(|l| l["status"].as_str().unwrap().to_string()).collect()
}

fn reasons(line: &Value) -> Vec<String> {
    line["reasons"].as_array().unwrap().iter().map(|r| r["code"].as_str().unwrap().to_string()).collect()
}

async fn payment_state(app: &TestApp, t: &str, id: &Value) -> String {
    let (_, o) = app.get(&format!("/orders/{id}"), t).await;
    o["payment_state"].as_str().unwrap().to_string()
}

async fn a_statement_confirms_what_it_surely_pays(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "RC1", w).await;
    stock_up(app, &t, w, red, 20).await;
    stock_up(app, &t, w, blue, 20).await;
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let b = create(app, &t, order(w, json!([{"sku_id": blue, "quantity": 1}]))).await;
    let (a_total, b_total) = (a["total"].as_str().unwrap().to_string(), b["total"].as_str().unwrap().to_string());
    assert_ne!(a_total, b_total);
    let file = statement(&[
        (&a_total, &format!("โอนค่าสินค้า {}", a["order_no"].as_str().unwrap())),
        (&b_total, "จาก น.ส. สมหญิง รักดี"),
        ("999.00", "จาก นาย ไม่รู้จัก"),
    ]);

    // Matched first, nothing confirmed: two confident, the third explained.
    let (s, v) = reconcile(app, &t, &file, true, json!([])).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["kind"], "bank");
    assert_eq!(statuses(&v), vec!["confident", "confident", "unmatched"]);
    let lines = v["data"]["lines"].as_array().unwrap();
    assert_eq!(reasons(&lines[0]), vec!["amount_in_time", "order_no"]);
    assert_eq!(lines[0]["candidates"][0]["order_id"], a["id"]);
    assert_eq!(lines[0]["amount"], a_total.as_str());
    assert_eq!(reasons(&lines[1]), vec!["amount_in_time", "name"]);
    assert_eq!(reasons(&lines[2]), vec!["no_bill_of_amount"]);
    assert_eq!(lines[2]["reasons"][0]["values"]["amount"], "999.00");
    assert_eq!(payment_state(app, &t, &a["id"]).await, "unpaid");

    // The confident ones in one step.
    let (s, v) = reconcile(app, &t, &file, false, json!([])).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["confirmed"], 2);
    assert_eq!(payment_state(app, &t, &a["id"]).await, "paid");
    assert_eq!(payment_state(app, &t, &b["id"]).await, "paid");
    let (_, o) = app.get(&format!("/orders/{}", a["id"]), &t).await;
    let p = &o["payments"][0];
    assert_eq!((p["state"].as_str(), p["channel_type"].as_str()), (Some("paid"), Some("bank")));
    assert!(p["note"].as_str().unwrap().starts_with("Statement "), "{p}");

    // Uploaded again: its lines are known as used, nothing is confirmed twice.
    let (s, v) = reconcile(app, &t, &file, false, json!([])).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(statuses(&v), vec!["used", "used", "unmatched"]);
    assert_eq!(v["data"]["confirmed"], 0);
    assert_eq!(v["data"]["lines"][0]["reasons"][0]["values"]["order_no"], a["order_no"]);
}

async fn an_ambiguous_line_pays_the_bill_chosen(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "RC2", w).await;
    stock_up(app, &t, w, red, 20).await;
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await);
    }
    let total = made[0]["total"].as_str().unwrap().to_string();
    let file = statement(&[(&total, "รับโอนเงิน")]);
    let (s, v) = reconcile(app, &t, &file, true, json!([])).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(statuses(&v), vec!["ambiguous"]);
    let line = &v["data"]["lines"][0];
    assert_eq!(reasons(line), vec!["many_bills"]);
    assert_eq!(line["reasons"][0]["values"]["count"], "3");
    let bills: Vec<i64> =
        line["candidates"].as_array().unwrap().iter().map(|c| c["bill_id"].as_i64().unwrap()).collect();
    assert_eq!(bills.len(), 3);
    // Nothing chosen: nothing confirmed.
    let (_, v) = reconcile(app, &t, &file, false, json!([])).await;
    assert_eq!(v["data"]["confirmed"], 0);
    // The second order's bill chosen.
    let row = line["row"].as_i64().unwrap();
    let (s, v) = reconcile(app, &t, &file, false, json!([{"row": row, "bill_id": bills[1]}])).await;
    assert_eq!((s, v["data"]["confirmed"].as_i64()), (StatusCode::OK, Some(1)), "{v}");
    let paid: Vec<String> = futures::future::join_all(made.iter().map(|o| payment_state(app, &t, &o["id"]))).await;
    assert_eq!(paid.iter().filter(|p| *p == "paid").count(), 1);
    // A bill that is not the line's is refused.
    let (_, v) = reconcile(app, &t, &statement(&[("1.00", "")]), false, json!([{"row": 2, "bill_id": bills[0]}])).await;
    assert_eq!(v["data"]["lines"][0]["refused"], "reconcile_not_a_candidate");
}

async fn wrong_files_cod_reports_who_may_and_stores_apart(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "RC3", w).await;
    stock_up(app, &t, w, red, 5).await;
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let file = statement(&[(a["total"].as_str().unwrap(), "")]);
    for (body, code) in [("name,phone\nA,1", "statement_columns_not_found"), ("Date,Amount\n", "import_empty")] {
        let (s, v) = reconcile(app, &t, body, true, json!([])).await;
        assert_eq!(
            (s, v["error"]["fields"][0]["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(code)),
            "{v}"
        );
    }
    // A COD report names parcels.
    let (d, _) = thai_now(0);
    let (s, v) = reconcile(app, &t, &format!("วันที่โอน,เลขพัสดุ,ยอด COD\n{d},TH000NOPE,199.00\n"), true, json!([])).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["data"]["kind"].as_str(), statuses(&v)), (Some("cod"), vec!["unmatched".to_string()]));
    assert_eq!(reasons(&v["data"]["lines"][0]), vec!["no_parcel"]);

    // Who may: confirming payments.
    let reader =
        app.member_with(app.demo_store, "rec-reader@example.com", &["payment.payment.read", "order.order.read"]).await;
    let (s, _) = reconcile(app, &reader, &file, true, json!([])).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let approver = app.member_with(app.demo_store, "rec-approver@example.com", &["payment.payment.approve"]).await;
    let (s, v) = reconcile(app, &approver, &file, true, json!([])).await;
    assert_eq!((s, statuses(&v)), (StatusCode::OK, vec!["confident".to_string()]));
    // Another store's statement sees none of these bills, and cannot pay them.
    let (_, other) = app.other_owner("rec-other@example.com").await;
    let (s, v) = reconcile(app, &other, &file, false, json!([])).await;
    assert_eq!((s, statuses(&v)), (StatusCode::OK, vec!["unmatched".to_string()]));
    let (_, v) = reconcile(app, &other, &file, false, json!([{"row": 2, "bill_id": a["bills"][0]["id"]}])).await;
    assert_eq!(v["data"]["confirmed"], 0);
    assert_eq!(payment_state(app, &t, &a["id"]).await, "unpaid");
}

on_every_stack!(
    a_statement_confirms_what_it_surely_pays,
    an_ambiguous_line_pays_the_bill_chosen,
    wrong_files_cod_reports_who_may_and_stores_apart
);
