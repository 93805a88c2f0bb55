use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

fn shirt(code: &str) -> Value {
    json!({
        "name": "เสื้อยืดคอกลม",
        "short_description": "ผ้าฝ้าย 100%",
        "code": code,
        "category_id": 1,
        "price": "199.00",
        "cost": 90,
        "weight": "0.25",
        "tags": ["เสื้อ", "cotton"],
        "variant1": "1สี",
        "variant1_options": ["ขาว", "ดำ"],
        "variant2": "2ไซซ์",
        "variant2_options": ["M"],
        "skus": [
            {"code": format!("{code}-W-M"), "variant_option": {"1สี": "ขาว", "2ไซซ์": "M"}},
            {"code": format!("{code}-B-M"), "price": "219.50", "variant_option": {"1สี": "ดำ", "2ไซซ์": "M"}}
        ]
    })
}

async fn eventually(app: &TestApp, path: &str, token: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    // The demo store is written through several services and events (its photos resized).
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (s, v) = app.get(path, token).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if ok(&v) {
            return v;
        }
        last = v;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{path} never reached the expected state: {last}");
}

async fn a_catalog_with_variants_over_the_wire(app: &TestApp) {
    let t = app.owner().await;
    let (s, p) = app.post("/products", &t, shirt("TS-01")).await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    assert_eq!(
        (p["price"].as_str(), p["price_ex_vat"].as_str(), p["weight"].as_str()),
        (Some("199.00"), Some("185.98"), Some("0.250"))
    );
    assert_eq!((p["variant1"].as_str(), p["variant2"].as_str()), (Some("1สี"), Some("2ไซซ์")));
    assert_eq!(p["skus"][0]["variant_option"], json!({"1สี": "ขาว", "2ไซซ์": "M"}));
    assert_eq!((p["skus"][0]["price"].as_str(), p["skus"][1]["price"].as_str()), (Some("199.00"), Some("219.50")));
    let id = p["id"].as_i64().unwrap();

    let mut bad = shirt("TS-02");
    bad["variant1"] = json!("สี");
    bad["price"] = json!("1.234");
    bad["tags"] = json!(["a", "a"]);
    let (s, v) = app.post("/products", &t, bad).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let fields = v["error"]["fields"].as_array().unwrap();
    assert!(fields.contains(&json!({"field": "variant1", "code": "validation.variant_prefix"})), "{v}");
    assert!(fields.contains(&json!({"field": "price", "code": "validation.money"})), "{v}");
    let mut bad = shirt("TS-02");
    bad["tags"] = json!(["a", "a"]);
    let (_, v) = app.post("/products", &t, bad).await;
    assert_eq!(v["error"]["fields"], json!([{"field": "tags", "code": "validation.duplicated"}]));
    let (s, v) = app.post("/products", &t, shirt("TS-01")).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("code_taken")));

    let (_, v) = app.get("/products?search=ts-01-b", &t).await;
    assert_eq!(v["total"], 1);
    let (_, v) = app.get("/products/count", &t).await;
    assert_eq!(v["count"], 1);
    let (_, v) = app.get("/products/categories", &t).await;
    assert!(v["total"].as_i64().unwrap() >= 10);

    let mut edit = shirt("TS-01");
    edit["name"] = json!("เสื้อยืดคอวี");
    edit["skus"][0]["id"] = p["skus"][0]["id"].clone();
    edit["skus"] = json!([edit["skus"][0].clone()]);
    let (s, v) = app.call(reqwest::Method::PUT, &format!("/products/{id}"), Some(&t), Some(edit)).await;
    assert_eq!((s, v["skus"].as_array().map(Vec::len)), (StatusCode::OK, Some(1)), "{v}");
    let (s, v) = app.patch(&format!("/products/{id}"), &t, json!({"status": "inactive"})).await;
    assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("inactive")));

    // Another store sees nothing of it; a reader may not write.
    let (_, b) = app.other_owner("products-b@example.com").await;
    let (s, _) = app.get(&format!("/products/{id}"), &b).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, v) = app.get("/products", &b).await;
    assert_eq!(v["total"], 0);
    let reader = app.member_with(app.demo_store, "catalog-reader@example.com", &["product.sku.read"]).await;
    assert_eq!(app.get("/products", &reader).await.0, StatusCode::OK);
    assert_eq!(app.post("/products", &reader, shirt("TS-09")).await.0, StatusCode::FORBIDDEN);

    let (s, _) = app.delete(&format!("/products/{id}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
}

async fn goods_adjust_moves_stock_and_the_view_follows(app: &TestApp) {
    let t = app.owner().await;
    let (_, p) = app.post("/products", &t, shirt("TS-05")).await;
    let sku = p["skus"][0]["id"].as_i64().unwrap();
    let w = eventually(app, "/wms/warehouses", &t, |v| v["total"] == 1).await["data"][0]["id"].as_i64().unwrap();
    crate::helpers::wait_until_stock_knows(app, &t, w, sku).await;

    let adjust = |qty: i64, key: &str| {
        app.client
            .post(format!("{}/wms/goods-adjust", app.base))
            .bearer_auth(&t)
            .header("Idempotency-Key", key)
            .json(&json!({"warehouse_id": w, "sku_id": sku, "quantity": qty, "reason": "นับสต็อกต้นงวด"}))
            .send()
    };
    let r = adjust(10, "k-1").await.unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let v: Value = r.json().await.unwrap();
    assert_eq!((v["quantity"].as_i64(), v["available"].as_i64()), (Some(10), Some(10)));
    assert_eq!(adjust(10, "k-1").await.unwrap().status(), StatusCode::CREATED, "replayed");
    let r = adjust(-20, "k-2").await.unwrap();
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["code"], "stock_below_reserved");

    let (s, v) = app
        .post("/wms/goods-adjust", &t, json!({"warehouse_id": w, "sku_id": 999999, "quantity": 1, "reason": "x"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("sku_not_found")));
    let (s, v) = app
        .post("/wms/goods-adjust", &t, json!({"warehouse_id": w, "sku_id": sku, "quantity": 1, "reason": " "}))
        .await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("reason")));

    let (_, list) = app.get("/wms/goods-adjust/", &t).await;
    assert_eq!(list["total"], 1, "one adjustment, not two");
    assert_eq!(
        (list["data"][0]["sku_code"].as_str(), list["data"][0]["quantity"].as_i64()),
        (Some("TS-05-W-M"), Some(10))
    );

    let product =
        eventually(app, &format!("/products/{}", p["id"]), &t, |v| v["skus"][0]["inventories"][0]["available"] == 10)
            .await;
    assert_eq!(product["skus"][0]["inventories"][0]["warehouse_id"], w);
    let (_, overview) = app.get("/products/sku-inventories?search=TS-05", &t).await;
    assert_eq!((overview["total"].as_i64(), overview["limit"].as_i64()), (Some(2), Some(10)));

    let (s, v) = app.delete(&format!("/products/{}", p["id"]), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("product_has_stock")));

    // The ledger's movements for the SKU, the quick search, the summaries.
    let (_, moves) = app.get(&format!("/products/sku-inventories/moving-transactions?sku-id={sku}"), &t).await;
    assert_eq!((moves["total"].as_i64(), moves["data"][0]["kind"].as_str()), (Some(1), Some("adjust")));
    let (_, found) = app.get("/products/search?search=ts-05", &t).await;
    assert_eq!(found["data"][0]["skus"][0]["available"], 10);
    let (_, sums) = app.get("/products/summaries", &t).await;
    assert_eq!(
        (sums["products"].as_i64(), sums["skus"].as_i64(), sums["out_of_stock"].as_i64()),
        (Some(1), Some(2), Some(1))
    );

    // A store-wide safety stock of 20 puts both SKUs under it.
    let (s, v) = app.post("/products/sku/update-all-safety-stock", &t, json!({"amount": 20})).await;
    assert_eq!((s, v["updated"].as_i64()), (StatusCode::OK, Some(2)));
    let (_, sums) = app.get("/products/summaries", &t).await;
    assert_eq!(sums["below_safety_stock"], 2);
    let (_, below) = app.get("/products/sku-inventories?below-safety-stock=true", &t).await;
    assert_eq!(below["total"], 2);
    let (s, _) = app.post("/products/sku/update-all-safety-stock", &t, json!({"amount": -1})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, units) = app.get("/products/unit-of-measurements", &t).await;
    assert_eq!(units["limit"], -1);

    // Bulk actions: one request for many products, each answered on its own.
    let (_, other) = app.post("/products", &t, shirt("TS-06")).await;
    let (stocked, free) = (p["id"].as_i64().unwrap(), other["id"].as_i64().unwrap());
    let (s, v) =
        app.post("/products/bulk/status", &t, json!({"ids": [stocked, free, 999_999], "status": "inactive"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["succeeded"].as_i64(), v["failed"].as_i64()), (Some(2), Some(1)));
    assert_eq!(v["data"][2], json!({"id": 999_999, "ok": false, "reason": "product_not_found"}));
    let (_, back) = app.get(&format!("/products/{free}"), &t).await;
    assert_eq!(back["status"], "inactive");
    let (s, v) = app.post("/products/bulk/status", &t, json!({"ids": [free], "status": "gone"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (s, v) = app.post("/products/bulk/delete", &t, json!({"ids": [stocked, free]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["data"],
        json!([{"id": stocked, "ok": false, "reason": "product_has_stock"}, {"id": free, "ok": true, "reason": ""}])
    );
    let (s, _) = app.get(&format!("/products/{free}"), &t).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.get(&format!("/products/{stocked}"), &t).await;
    assert_eq!(s, StatusCode::OK, "the product with stock stays");
    let (s, _) = app.post("/products/bulk/delete", &t, json!({"ids": []})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, other_owner) = app.other_owner("bulk-other@example.com").await;
    let (s, v) = app.post("/products/bulk/delete", &other_owner, json!({"ids": [stocked]})).await;
    assert_eq!((s, v["data"][0]["reason"].as_str()), (StatusCode::OK, Some("product_not_found")), "another store's");
}

on_every_stack!(a_catalog_with_variants_over_the_wire, goods_adjust_moves_stock_and_the_view_follows);

#[tokio::test]
async fn the_demo_store_starts_with_a_catalog_in_stock() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = crate::helpers::config_in(&dir);
    let db_url = cfg.database_url("stores");
    let app = TestApp::launch(cfg, dir, Vec::new(), db_url, None).await;
    let t = app.store_token("owner@example.com", "demo1234", app.demo_store).await;
    // 12 products, 27 SKUs; every SKU but the cushion's (sold out) gets stock.
    let list = eventually(&app, "/products/sku-inventories?limit=-1", &t, |v| {
        v["data"].as_array().is_some_and(|rows| {
            rows.len() == 27 && rows.iter().filter(|r| r["inventory"]["quantity"].as_i64() > Some(0)).count() == 26
        })
    })
    .await;
    assert!(list["data"].as_array().unwrap().iter().any(|r| r["product_name"] == "กาแฟดอยช้าง คั่วกลาง 250 กรัม"));
    let (_, count) = app.get("/products/count", &t).await;
    assert_eq!(count["count"], 12);
    // The last product (sold out, so no stock to wait for) gets its pictures last.
    let products = eventually(&app, "/products?limit=-1", &t, |v| {
        v["data"].as_array().is_some_and(|ps| ps.len() == 12 && ps.iter().all(|p| p["cover_url"].is_string()))
    })
    .await;
    let products = products["data"].as_array().unwrap().clone();
    let shirt = products.iter().find(|p| p["code"] == "TS-001").unwrap();
    assert_eq!(shirt["photos"].as_array().unwrap().len(), 3);
    assert!(shirt["size_chart"].is_object());
    let cover = app.client.get(format!("{}{}?size=200", app.root(), shirt["cover_url"].as_str().unwrap()));
    let res = cover.send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let img = image::load_from_memory(&res.bytes().await.unwrap()).unwrap();
    assert_eq!((img.width(), img.height()), (200, 200));
    app.stop().await;
}
