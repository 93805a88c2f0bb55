use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::TestApp;
use crate::on_every_stack;

const HEADER: [&str; 7] =
    ["product_id", "product_name", "sku_id", "variation_value", "product_description", "price", "seller_sku"];

fn workbook(rows: &[[&str; 7]], header: &[&str]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            sheet.write_string(r as u32 + 1, c as u16, *v).unwrap();
        }
    }
    book.save_to_buffer().unwrap()
}

async fn import(
    app: &TestApp,
    token: &str,
    file: Vec<u8>,
    category: Option<i64>,
    dry_run: bool,
) -> (StatusCode, Value) {
    let mut form =
        Form::new().part("file", Part::bytes(file).file_name("products.xlsx")).text("dry_run", dry_run.to_string());
    if let Some(c) = category {
        form = form.text("category_id", c.to_string());
    }
    let res = app
        .client
        .post(format!("{}/products/excel/import", app.base))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap())
}

async fn a_spreadsheet_becomes_products_once(app: &TestApp) {
    let t = app.owner().await;
    let rows = [
        ["P-100", "เสื้อยืดคอกลม", "9001", "ขาว", "ผ้าฝ้าย 100%", "199", "TS-W"],
        ["P-100", "เสื้อยืดคอกลม", "9002", "ดำ", "ผ้าฝ้าย 100%", "219.50", ""],
        ["P-200", "แก้วมัค", "9100", "", "เซรามิก", "1,299.00", "MUG"],
        ["P-300", "", "9200", "", "", "abc", ""],
    ];
    let file = workbook(&rows, &HEADER);

    let (s, v) = import(app, &t, file.clone(), None, true).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["data"]["products"].as_i64(), v["data"]["created"].as_i64()), (Some(2), Some(0)));
    assert_eq!(v["data"]["rows"][2]["price"], "1299.00");
    assert_eq!(v["data"]["rows"][1]["sku_code"], "9002", "seller_sku, else sku_id");
    let errs = v["errors"].as_array().unwrap();
    assert!(errs.iter().any(|e| e["row"] == 5 && e["field"] == "product_name"), "{v}");
    assert!(errs.iter().any(|e| e["row"] == 5 && e["field"] == "price"), "{v}");

    let (s, v) = import(app, &t, file.clone(), Some(1), false).await;
    assert_eq!((s, v["data"]["created"].as_i64()), (StatusCode::OK, Some(2)), "{v}");
    let (s, v) = import(app, &t, file, Some(1), false).await;
    assert_eq!((s, v["data"]["created"].as_i64(), v["data"]["skipped"].as_i64()), (StatusCode::OK, Some(0), Some(2)));
    let (_, list) = app.get("/products?search=P-100", &t).await;
    assert_eq!(list["total"], 1);
    assert_eq!(list["data"][0]["variant1_options"], serde_json::json!(["ขาว", "ดำ"]));

    let wrong = workbook(&rows, &HEADER[..6]);
    let (s, v) = import(app, &t, wrong, Some(1), false).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("import_wrong_template"))
    );
    let many: Vec<[&str; 7]> = (0..101).map(|_| ["P", "n", "1", "", "", "1", ""]).collect();
    let (s, v) = import(app, &t, workbook(&many, &HEADER), Some(1), true).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("import_too_many_rows"))
    );
    let (s, v) = import(app, &t, b"<html>not a spreadsheet</html>".to_vec(), Some(1), true).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("import_not_xlsx"))
    );

    let reader = app.member_with(app.demo_store, "import-reader@example.com", &["product.sku.read"]).await;
    let (s, _) = import(app, &reader, workbook(&rows, &HEADER), Some(1), true).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

on_every_stack!(a_spreadsheet_becomes_products_once);
