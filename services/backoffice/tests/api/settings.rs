//! Store settings: units of measurement and the store-wide safety stock.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

fn units(store: i64) -> String {
    format!("/stores/{store}/store-unit-of-measurements")
}

fn latest(store: i64) -> String {
    format!("/stores/{store}/store-safety-stock-histories/lastest")
}

const SAFETY: &str = "/stores/store-safety-stock-histories";

/// POSTs a form body, as the app sends it.
async fn post_form(app: &TestApp, path: &str, token: &str, form: &str) -> (StatusCode, Value) {
    let res = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(token)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form.to_string())
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

fn field_codes(v: &Value) -> Vec<(String, String)> {
    v["error"]["fields"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|f| (f["field"].as_str().unwrap().to_string(), f["code"].as_str().unwrap().to_string()))
        .collect()
}

async fn units_end_to_end(app: &TestApp) {
    let t = app.owner().await;
    let base = units(app.demo_store);

    let (s, v) = app.get(&base, &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"data": [], "total": 0, "limit": 10, "page": 1, "pages": 1}));

    // Name, quantity and base unit are required; quantity is a whole number from 1.
    let (s, v) = app.post(&base, &t, json!({})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("validation_failed")));
    assert_eq!(
        field_codes(&v),
        [("name", "validation.required"), ("quantity", "validation.required"), ("base_unit", "validation.required")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    for bad in [json!("abc"), json!(0), json!(-6), json!(1.5), json!("")] {
        let (s, v) = app.post(&base, &t, json!({"name": "x", "quantity": bad, "base_unit": "piece"})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {v}");
        assert_eq!(v["error"]["fields"][0]["field"], "quantity", "{bad}");
    }
    let (_, v) = app.post(&base, &t, json!({"name": "x", "quantity": 1, "base_unit": "litre"})).await;
    assert_eq!(field_codes(&v), vec![("base_unit".to_string(), "validation.unit_type".to_string())]);

    // A pack of six pieces (JSON), a dozen (a form, numbers as text).
    let (s, pack) = app.post(&base, &t, json!({"name": "แพ็ค 6", "quantity": 6, "base_unit": "piece"})).await;
    assert_eq!(s, StatusCode::CREATED, "{pack}");
    assert_eq!(
        (pack["name"].as_str(), pack["quantity"].as_i64(), pack["base_unit"].as_str()),
        (Some("แพ็ค 6"), Some(6), Some("piece"))
    );
    let pack_id = pack["id"].as_i64().unwrap();
    let (s, dozen) = post_form(app, &base, &t, "name=Dozen+box&quantity=2&base_unit=dozen").await;
    assert_eq!(s, StatusCode::CREATED, "{dozen}");
    assert_eq!((dozen["converted_quantity"].as_i64(), dozen["converted_unit"].as_str()), (Some(24), Some("piece")));

    // A name already in the store, whatever its spacing or case.
    let (s, v) = app.post(&base, &t, json!({"name": "  แพ็ค   6 ", "quantity": "12", "base_unit": "piece"})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(v["error"]["code"], "unit_name_duplicate");
    assert_eq!(v["error"]["message"], "This unit name already exists in the store");
    let (s, _) = app.post(&base, &t, json!({"name": "DOZEN BOX", "quantity": 1, "base_unit": "box"})).await;
    assert_eq!(s, StatusCode::CONFLICT);

    // Paged, newest first.
    for i in 0..10 {
        let (s, v) =
            app.post(&base, &t, json!({"name": format!("ลัง {i}"), "quantity": 24, "base_unit": "carton"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (_, v) = app.get(&base, &t).await;
    assert_eq!(
        (v["total"].as_i64(), v["pages"].as_i64(), v["data"].as_array().unwrap().len()),
        (Some(12), Some(2), 10)
    );
    assert_eq!(v["data"][0]["name"], "ลัง 9");
    let (_, v) = app.get(&format!("{base}?page=99&limit=5"), &t).await;
    assert_eq!((v["page"].as_i64(), v["limit"].as_i64(), v["data"].as_array().unwrap().len()), (Some(3), Some(5), 2));
    assert_eq!(v["data"][1]["id"], pack_id, "oldest last");
    let (_, v) = app.get(&format!("{base}?limit=-1"), &t).await;
    assert_eq!(v["data"].as_array().unwrap().len(), 12);

    // Edit: only the fields given change.
    let one = format!("{base}/{pack_id}");
    let (s, v) = app.patch(&one, &t, json!({"quantity": "12"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["name"].as_str(), v["quantity"].as_i64()), (Some("แพ็ค 6"), Some(12)));
    let (s, v) = app.patch(&one, &t, json!({"name": "แพ็ค 12", "base_unit": "pack"})).await;
    assert_eq!((s, v["name"].as_str(), v["base_unit"].as_str()), (StatusCode::OK, Some("แพ็ค 12"), Some("pack")));
    let (s, v) = app.patch(&one, &t, json!({"name": " "})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_codes(&v), vec![("name".to_string(), "validation.required".to_string())]);
    let (s, v) = app.patch(&one, &t, json!({"name": "dozen box"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("unit_name_duplicate")));

    // Delete.
    let (s, _) = app.delete(&one, &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.delete(&one, &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("unit_not_found")));
    let (s, v) = app.patch(&one, &t, json!({"quantity": 1})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("unit_not_found")));
    let (_, v) = app.get(&base, &t).await;
    assert_eq!(v["total"], 11);
}

async fn safety_stock_is_recorded_and_the_latest_read(app: &TestApp) {
    let t = app.owner().await;
    let (s, v) = app.get(&latest(app.demo_store), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("safety_stock_not_set")));

    let (s, v) = app.post(SAFETY, &t, json!({})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_codes(&v), vec![("amount".to_string(), "validation.required".to_string())]);
    for bad in [json!(-1), json!("ten"), json!(2.5)] {
        let (s, v) = app.post(SAFETY, &t, json!({ "amount": bad })).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert_eq!(field_codes(&v), vec![("amount".to_string(), "validation.quantity".to_string())]);
    }

    let (s, first) = app.post(SAFETY, &t, json!({"amount": 15})).await;
    assert_eq!(s, StatusCode::CREATED, "{first}");
    assert_eq!(first["amount"], 15);
    assert!(first["created_by"].as_i64().unwrap() > 0);
    assert!(first["created_at"].as_str().unwrap().ends_with('Z'));
    let (s, second) = post_form(app, SAFETY, &t, "amount=20").await;
    assert_eq!(s, StatusCode::CREATED, "{second}");

    let (s, v) = app.get(&latest(app.demo_store), &t).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!((v["amount"].as_i64(), &v["id"]), (Some(20), &second["id"]));
    let (s, _) = app.post(SAFETY, &t, json!({"amount": "0"})).await;
    assert_eq!(s, StatusCode::CREATED, "zero is a setting too");
    let (_, v) = app.get(&latest(app.demo_store), &t).await;
    assert_eq!(v["amount"], 0);

    // Another store has its own history.
    let (b_store, b) = app.other_owner("safety-b@example.com").await;
    let (s, _) = app.get(&latest(b_store), &b).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    app.post(SAFETY, &b, json!({"amount": 7})).await;
    let (_, v) = app.get(&latest(b_store), &b).await;
    assert_eq!(v["amount"], 7);
    let (_, v) = app.get(&latest(app.demo_store), &t).await;
    assert_eq!(v["amount"], 0);
}

/// The getting-started flags follow what the store does elsewhere: its first product sets
/// the product step, from the catalog's event.
async fn the_first_product_ticks_getting_started(app: &TestApp) {
    let t = app.owner().await;
    let (s, v) = app.get("/stores/getting-started", &t).await;
    assert_eq!((s, &v["product"]), (StatusCode::OK, &json!(false)), "{v}");
    let (s, _) = app
        .post(
            "/products",
            &t,
            json!({"name": "เทียนหอม", "short_description": "x", "code": "GS-1", "category_id": 1, "price": "10",
                "cost": "5", "tags": ["x"], "skus": [{}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let mut v = serde_json::Value::Null;
    for _ in 0..100 {
        v = app.get("/stores/getting-started", &t).await.1;
        if v["product"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(v["product"], true, "{v}");
    assert_eq!((&v["payment"], &v["logistic"], &v["goods_receipt"]), (&json!(false), &json!(false), &json!(false)));
}

/// Setting the store's safety stock is one command: the store records it, and every SKU of
/// the store (and no other store's) takes it from the store's event.
async fn every_sku_takes_the_store_safety_stock(app: &TestApp) {
    let t = app.owner().await;
    let product = |code: &str| {
        json!({"name": "สบู่", "short_description": "x", "code": code, "category_id": 1, "price": "10",
            "cost": "5", "tags": ["x"], "skus": [{}]})
    };
    let (s, p) = app.post("/products", &t, product("SS-1")).await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let (b_store, b) = app.other_owner("safety-sku-b@example.com").await;
    let (_, q) = app.post("/products", &b, product("SS-B")).await;
    let (s, _) = app.post(SAFETY, &t, json!({"amount": 1000})).await;
    assert_eq!(s, StatusCode::CREATED);
    let mut sku = serde_json::Value::Null;
    for _ in 0..100 {
        sku = app.get(&format!("/products/{}", p["id"]), &t).await.1["skus"][0].clone();
        if sku["safety_stock"] == 1000 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(sku["safety_stock"], 1000, "{sku}");
    let (_, other) = app.get(&format!("/products/{}", q["id"]), &b).await;
    assert_eq!(other["skus"][0]["safety_stock"], 0, "store {b_store} keeps its own");
}

async fn a_token_for_one_store_gets_no_settings_of_another(app: &TestApp) {
    let a = app.owner().await;
    let (b_store, b) = app.other_owner("units-b@example.com").await;
    let (s, unit) =
        app.post(&units(app.demo_store), &a, json!({"name": "แพ็ค 6", "quantity": 6, "base_unit": "piece"})).await;
    assert_eq!(s, StatusCode::CREATED);
    let uid = unit["id"].as_i64().unwrap();
    app.post(SAFETY, &a, json!({"amount": 5})).await;

    // B's token on A's paths: refused before anything is read.
    let a_units = units(app.demo_store);
    let calls = [
        ("GET", a_units.clone()),
        ("POST", a_units.clone()),
        ("PATCH", format!("{a_units}/{uid}")),
        ("DELETE", format!("{a_units}/{uid}")),
        ("GET", latest(app.demo_store)),
    ];
    for (m, path) in &calls {
        let body = if *m == "GET" || *m == "DELETE" {
            None
        } else {
            Some(json!({"name": "x", "quantity": 1, "base_unit": "box"}))
        };
        let (s, v) = app.call(m.parse().unwrap(), path, Some(&b), body).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{m} {path}: {v}");
        assert_eq!(v["error"]["code"], "store_mismatch", "{m} {path}");
    }
    // B's token on B's paths with A's unit id: not found.
    let b_units = units(b_store);
    let (s, _) = app.patch(&format!("{b_units}/{uid}"), &b, json!({"quantity": 2})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.delete(&format!("{b_units}/{uid}"), &b).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, v) = app.get(&b_units, &b).await;
    assert_eq!(v["total"], 0);
    // A's unit is untouched.
    let (_, v) = app.get(&a_units, &a).await;
    assert_eq!((v["total"].as_i64(), v["data"][0]["quantity"].as_i64()), (Some(1), Some(6)));
    // B's safety stock POST writes B's history, never A's.
    app.post(SAFETY, &b, json!({"amount": 99})).await;
    let (_, v) = app.get(&latest(app.demo_store), &a).await;
    assert_eq!(v["amount"], 5);
}

async fn members_read_settings_and_only_store_managers_change_them(app: &TestApp) {
    let store = app.demo_store;
    let owner = app.owner().await;
    let base = units(store);
    let (_, unit) = app.post(&base, &owner, json!({"name": "กล่อง", "quantity": 10, "base_unit": "box"})).await;
    let one = format!("{base}/{}", unit["id"]);
    app.post(SAFETY, &owner, json!({"amount": 3})).await;

    // A cashier without store.*: reads, but cannot change.
    let cashier = app.member_with(store, "cashier@example.com", &["store.customer.*", "product.sku.read"]).await;
    let (s, v) = app.get(&base, &cashier).await;
    assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(1)));
    let (s, v) = app.get(&latest(store), &cashier).await;
    assert_eq!((s, v["amount"].as_i64()), (StatusCode::OK, Some(3)));
    let (s, v) = app.post(&base, &cashier, json!({"name": "ห้าม", "quantity": 1, "base_unit": "box"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")));
    let (s, _) = app.patch(&one, &cashier, json!({"quantity": 2})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.delete(&one, &cashier).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = app.post(SAFETY, &cashier, json!({"amount": 100})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")));

    // A member with no rights at all still reads settings.
    let bare = app.member_with(store, "bare@example.com", &[]).await;
    let (s, _) = app.get(&base, &bare).await;
    assert_eq!(s, StatusCode::OK);

    // store.* may change them.
    let manager = app.member_with(store, "manager@example.com", &["store.*"]).await;
    let (s, v) = app.post(&base, &manager, json!({"name": "กระสอบ", "quantity": 1, "base_unit": "sack"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, _) = app.patch(&one, &manager, json!({"quantity": 20})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = app.post(SAFETY, &manager, json!({"amount": 8})).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _) = app.delete(&one, &manager).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, v) = app.get(&latest(store), &cashier).await;
    assert_eq!(v["amount"], 8);
}

/// Bill expiry (SPEC §4 Bill, §9): the four methods, the action on expiry, refusals under
/// their fields, history kept so earlier bills keep their setting, managers only, stores apart.
async fn bill_expiry_is_chosen_and_kept_as_history(app: &TestApp) {
    const PATH: &str = "/stores/settings/bill-expire";
    let owner = app.owner().await;
    let (s, types) = app.get("/stores/bill-expire/types", &owner).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(types["types"], json!(["no_expiry", "by_day", "by_time", "next_day"]));
    assert_eq!(types["actions"], json!(["cancel_order", "keep_new"]));

    let (_, v) = app.get(PATH, &owner).await;
    assert_eq!(
        (v["current"]["expiry_type"].as_str(), v["current"]["id"].as_i64()),
        (Some("no_expiry"), Some(0)),
        "the default"
    );
    assert_eq!(v["history"], json!([]));

    let (s, v) = app
        .post(
            PATH,
            &owner,
            json!({"expiry_type": "by_time", "hours": "0", "minutes": "0", "on_expiry": "cancel_order"}),
        )
        .await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("minutes")));
    let (s, v) =
        app.post(PATH, &owner, json!({"expiry_type": "by_day", "days": "ten", "on_expiry": "cancel_order"})).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("days")));
    let (s, v) = app.post(PATH, &owner, json!({"expiry_type": "weekly", "on_expiry": "delete"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"]["fields"].as_array().unwrap().len(), 2);

    let (s, first) = app
        .post(PATH, &owner, json!({"expiry_type": "by_day", "days": 3, "hours": 5, "on_expiry": "cancel_order"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{first}");
    assert_eq!((first["days"].as_i64(), first["hours"].as_i64()), (Some(3), Some(0)), "what by_day does not use is 0");
    let (s, second) = app
        .post(PATH, &owner, json!({"expiry_type": "by_time", "hours": 2, "minutes": 30, "on_expiry": "keep_new"}))
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (_, v) = app.get(PATH, &owner).await;
    assert_eq!(v["current"]["id"], second["id"]);
    let ids: Vec<i64> = v["history"].as_array().unwrap().iter().map(|h| h["id"].as_i64().unwrap()).collect();
    assert_eq!(
        ids,
        vec![second["id"].as_i64().unwrap(), first["id"].as_i64().unwrap()],
        "newest first, the earlier kept"
    );

    // Reading is for every member; choosing is the owner's or store.*'s.
    let cashier = app.member_with(app.demo_store, "bill-cashier@example.com", &["store.customer.read"]).await;
    let (s, v) = app.get(PATH, &cashier).await;
    assert_eq!((s, v["current"]["expiry_type"].as_str()), (StatusCode::OK, Some("by_time")));
    let (s, _) = app.post(PATH, &cashier, json!({"expiry_type": "no_expiry", "on_expiry": "keep_new"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // Another store has its own.
    let (_, b) = app.other_owner("bill-b@example.com").await;
    let (_, v) = app.get(PATH, &b).await;
    assert_eq!((v["current"]["id"].as_i64(), v["history"].as_array().map(Vec::len)), (Some(0), Some(0)));

    // The choice is in the store's audit trail.
    let (_, audit) = app.get(&format!("/stores/{}/audit", app.demo_store), &owner).await;
    assert_eq!(audit["data"][0]["action"], "settings.bill_expiry");
    assert_eq!(audit["data"][0]["detail"]["on_expiry"], "keep_new");
}

on_every_stack!(
    bill_expiry_is_chosen_and_kept_as_history,
    units_end_to_end,
    safety_stock_is_recorded_and_the_latest_read,
    every_sku_takes_the_store_safety_stock,
    the_first_product_ticks_getting_started,
    a_token_for_one_store_gets_no_settings_of_another,
    members_read_settings_and_only_store_managers_change_them,
);
