//! Point of sale: branches, POS units, cashiers and sellers through the API, their rules,
//! who may change them, and one store's setup kept from another.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

fn field_codes(v: &Value) -> Vec<(String, String)> {
    v["error"]["fields"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|f| (f["field"].as_str().unwrap().to_string(), f["code"].as_str().unwrap().to_string()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// The store's default warehouse, once wms has made it.
async fn warehouse(app: &TestApp, token: &str) -> i64 {
    for _ in 0..200 {
        let (_, w) = app.get("/wms/warehouses", token).await;
        if let Some(id) = w["data"][0]["id"].as_i64() {
            return id;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no warehouse");
}

fn branch(no: &str, warehouse: i64) -> Value {
    json!({
        "branch_no": no, "name": format!("สาขา {no}"), "tax_id": "1234567890121", "warehouse_id": warehouse,
        "address": "99 ถนนพระราม 4", "sub_district": "สีลม", "district": "บางรัก",
        "state_province": "กรุงเทพมหานคร", "postcode": "10500",
    })
}

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

async fn point_of_sale_end_to_end(app: &TestApp) {
    let store = app.demo_store;
    let t = app.owner().await;
    let wh = warehouse(app, &t).await;
    let branches = format!("/stores/{store}/branches");

    // Lists answer everything by default.
    let (s, v) = app.get(&branches, &t).await;
    assert_eq!((s, v["limit"].as_i64(), v["total"].as_i64()), (StatusCode::OK, Some(-1), Some(0)), "{v}");

    // Every broken rule under its field, nothing saved.
    let (s, v) = app.post(&branches, &t, json!({})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let fields: Vec<String> = field_codes(&v).into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        fields,
        [
            "branch_no",
            "name",
            "tax_id",
            "warehouse_id",
            "address",
            "sub_district",
            "district",
            "state_province",
            "postcode"
        ]
    );
    for (no, main, code) in [("123", None, "validation.branch_number"), ("00001", Some(true), "validation.branch_main")]
    {
        let mut b = branch(no, wh);
        if let Some(m) = main {
            b["is_main"] = json!(m);
        }
        let (s, v) = app.post(&branches, &t, b).await;
        assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("branch_no", code)])), "{no}");
    }
    let mut bad_tax = branch("00000", wh);
    bad_tax["tax_id"] = json!("1234567890122");
    let (_, v) = app.post(&branches, &t, bad_tax).await;
    assert_eq!(field_codes(&v), pairs(&[("tax_id", "validation.tax_id")]));
    let (_, v) = app.post(&branches, &t, branch("00000", wh + 1000)).await;
    assert_eq!(field_codes(&v), pairs(&[("warehouse_id", "validation.warehouse_unknown")]));
    let (_, v) = app.get(&branches, &t).await;
    assert_eq!(v["total"], 0, "nothing saved");

    // The main branch, as the app sends it (a form, numbers as text, a dashed tax id).
    let form = format!(
        "branch_no=00000&is_main=true&name=%E0%B8%AA%E0%B8%B3%E0%B8%99%E0%B8%B1%E0%B8%81%E0%B8%87%E0%B8%B2%E0%B8%99%E0%B9%83%E0%B8%AB%E0%B8%8D%E0%B9%88\
         &tax_id=1-2345-67890-12-1&warehouse_id={wh}&address=1&sub_district=a&district=b&state_province=c&postcode=10500"
    );
    let (s, main) = post_form(app, &branches, &t, &form).await;
    assert_eq!(s, StatusCode::CREATED, "{main}");
    assert_eq!(
        (main["is_main"].as_bool(), main["tax_id"].as_str(), main["name"].as_str()),
        (Some(true), Some("1234567890121"), Some("สำนักงานใหญ่"))
    );
    let main_id = main["id"].as_i64().unwrap();
    let (s, v) = app.post(&branches, &t, branch("00000", wh)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("branch_number_duplicate")));
    let (s, second) = app.post(&branches, &t, branch("00001", wh)).await;
    assert_eq!(s, StatusCode::CREATED, "{second}");
    let second_id = second["id"].as_i64().unwrap();
    // A change keeps what it does not name.
    let (s, v) = app.patch(&format!("{branches}/{second_id}"), &t, json!({"name": "สาขาสีลม"})).await;
    assert_eq!((s, v["name"].as_str(), v["branch_no"].as_str()), (StatusCode::OK, Some("สาขาสีลม"), Some("00001")));
    let (s, v) = app.patch(&format!("{branches}/{second_id}"), &t, json!({"branch_no": "00000"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("branch_number_duplicate")));

    // A POS unit at the branch deducts from the branch's warehouse.
    let units = format!("/stores/{store}/pos-units");
    let (s, v) = app.post(&units, &t, json!({})).await;
    assert_eq!(
        (s, field_codes(&v)),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            pairs(&[("pos_no", "validation.required"), ("branch_id", "validation.required")])
        )
    );
    let (s, till) = app.post(&units, &t, json!({"pos_no": "POS-01", "branch_id": second_id})).await;
    assert_eq!(s, StatusCode::CREATED, "{till}");
    assert_eq!((till["effective_warehouse_id"].as_i64(), till["branch_name"].as_str()), (Some(wh), Some("สาขาสีลม")));
    let (s, v) = app.post(&units, &t, json!({"pos_no": "pos-01", "branch_id": main_id})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("pos_number_duplicate")));
    let (s, v) =
        app.post(&units, &t, json!({"pos_no": "POS-02", "branch_id": main_id, "warehouse_id": wh + 1000})).await;
    assert_eq!(
        (s, field_codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("warehouse_id", "validation.warehouse_unknown")]))
    );

    // The owner works a till too; a seller needs a real email.
    let (_, owner_id) = app.login(crate::helpers::OWNER_EMAIL, crate::helpers::OWNER_PASSWORD).await;
    let cashiers = format!("/stores/{store}/cashiers");
    let (s, c) = app
        .post(
            &cashiers,
            &t,
            json!({"user_id": owner_id, "first_name": "สมหญิง", "last_name": "ใจดี", "email": "owner@example.com", "branch_id": main_id}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    assert_eq!((c["name"].as_str(), c["status"].as_str()), (Some("สมหญิง ใจดี"), Some("active")));
    let (_, members) = app.get(&format!("/stores/{store}/cashier-members"), &t).await;
    let me = members["data"].as_array().unwrap().iter().find(|m| m["user_id"] == owner_id).unwrap().clone();
    assert_eq!((me["is_cashier"].as_bool(), me["permission"].as_str()), (Some(true), Some("owner")));
    let sellers = format!("/stores/{store}/sellers");
    let (s, v) = app
        .post(
            &sellers,
            &t,
            json!({"first_name": "ก", "last_name": "ข", "email": "not-an-email", "branch_id": second_id}),
        )
        .await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("email", "validation.email")])));
    let (s, seller) = app
        .post(&sellers, &t, json!({"first_name": "สมชาย", "last_name": "ขายเก่ง", "email": "somchai@example.com", "branch_id": second_id}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seller}");
    assert_eq!(
        (seller["status"].as_str(), seller["tel"].as_str(), seller["code"].as_str()),
        (Some("active"), Some(""), Some(""))
    );
    let one_seller = format!("{sellers}/{}", seller["id"]);
    let (s, v) = app.patch(&one_seller, &t, json!({"tel": "081-234-5678", "code": "S01", "status": "inactive"})).await;
    assert_eq!(
        (s, v["tel"].as_str(), v["code"].as_str(), v["status"].as_str(), v["email"].as_str()),
        (StatusCode::OK, Some("0812345678"), Some("S01"), Some("inactive"), Some("somchai@example.com"))
    );
    let (s, v) = app.get(&sellers, &t).await;
    assert_eq!((s, v["total"].as_i64(), v["limit"].as_i64()), (StatusCode::OK, Some(1), Some(-1)));

    // A branch in use stays.
    let (s, v) = app.delete(&format!("{branches}/{second_id}"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("branch_in_use")));
    for path in [format!("{units}/{}", till["id"]), one_seller] {
        let (s, _) = app.delete(&path, &t).await;
        assert_eq!(s, StatusCode::NO_CONTENT, "{path}");
    }
    let (s, _) = app.delete(&format!("{branches}/{second_id}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = app.get(&format!("{branches}/{second_id}"), &t).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Recorded in the store's audit trail.
    let (_, audit) = app.get(&format!("/stores/{store}/audit"), &t).await;
    assert_eq!(audit["data"][0]["action"], "pos.branch.delete");
}

async fn members_read_the_setup_and_only_store_managers_change_it(app: &TestApp) {
    let store = app.demo_store;
    let owner = app.owner().await;
    let wh = warehouse(app, &owner).await;
    let (_, main) = app.post(&format!("/stores/{store}/branches"), &owner, branch("00000", wh)).await;
    let main_id = main["id"].as_i64().unwrap();

    // An admin (the built-in role) and a cashier with no store.*: they read, never change.
    let svc = app.stores_service().await;
    svc.grpc.add_member(store, "pos-admin@example.com", "member-password", "admin", None).await.unwrap();
    svc.db.close().await;
    let admin = app.store_token("pos-admin@example.com", "member-password", store).await;
    let bare = app.member_with(store, "pos-bare@example.com", &[]).await;
    let writes: Vec<(Method, String, Value)> = vec![
        (Method::POST, format!("/stores/{store}/branches"), branch("00001", wh)),
        (Method::PATCH, format!("/stores/{store}/branches/{main_id}"), json!({"name": "x"})),
        (Method::DELETE, format!("/stores/{store}/branches/{main_id}"), Value::Null),
        (Method::POST, format!("/stores/{store}/pos-units"), json!({"pos_no": "P1", "branch_id": main_id})),
        (Method::PATCH, format!("/stores/{store}/pos-units/1"), json!({"pos_no": "P2"})),
        (Method::DELETE, format!("/stores/{store}/pos-units/1"), Value::Null),
        (Method::POST, format!("/stores/{store}/cashiers"), json!({"first_name": "x"})),
        (Method::PATCH, format!("/stores/{store}/cashiers/1"), json!({"first_name": "x"})),
        (Method::DELETE, format!("/stores/{store}/cashiers/1"), Value::Null),
        (Method::POST, format!("/stores/{store}/sellers"), json!({"first_name": "x"})),
        (Method::PATCH, format!("/stores/{store}/sellers/1"), json!({"first_name": "x"})),
        (Method::DELETE, format!("/stores/{store}/sellers/1"), Value::Null),
    ];
    for token in [&admin, &bare] {
        for what in ["branches", "pos-units", "cashiers", "sellers"] {
            let (s, v) = app.get(&format!("/stores/{store}/{what}"), token).await;
            assert_eq!(s, StatusCode::OK, "{what}: {v}");
        }
        let (s, _) = app.get(&format!("/stores/{store}/branches/{main_id}"), token).await;
        assert_eq!(s, StatusCode::OK);
        for (m, path, body) in &writes {
            let body = (!body.is_null()).then(|| body.clone());
            let (s, v) = app.call(m.clone(), path, Some(token), body).await;
            assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")), "{m} {path}");
        }
    }

    for token in [&admin, &bare] {
        let (s, _) = app.get(&format!("/stores/{store}/cashier-members"), token).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
    }

    // store.* may, and may pick a new cashier among the active members without user.*.
    let manager = app.member_with(store, "pos-manager@example.com", &["store.*"]).await;
    let (s, v) = app.get(&format!("/stores/{store}/cashier-members"), &manager).await;
    assert_eq!((s, v["limit"].as_i64()), (StatusCode::OK, Some(-1)), "{v}");
    let emails: Vec<&str> = v["data"].as_array().unwrap().iter().map(|m| m["email"].as_str().unwrap()).collect();
    assert!(emails.contains(&"pos-admin@example.com") && emails.contains(&crate::helpers::OWNER_EMAIL), "{emails:?}");
    let (_, team) = app.get("/user", &manager).await;
    assert_eq!(team["error"]["code"], "forbidden", "the team list stays user.*'s");
    let (s, v) =
        app.post(&format!("/stores/{store}/pos-units"), &manager, json!({"pos_no": "P1", "branch_id": main_id})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

async fn one_store_never_reaches_another_stores_point_of_sale(app: &TestApp) {
    let a = app.owner().await;
    let (b_store, b) = app.other_owner("pos-b@example.com").await;
    let store = app.demo_store;
    let wh = warehouse(app, &a).await;
    let (_, main) = app.post(&format!("/stores/{store}/branches"), &a, branch("00000", wh)).await;
    let main_id = main["id"].as_i64().unwrap();
    let (_, till) =
        app.post(&format!("/stores/{store}/pos-units"), &a, json!({"pos_no": "A1", "branch_id": main_id})).await;
    let (_, seller) = app
        .post(
            &format!("/stores/{store}/sellers"),
            &a,
            json!({"first_name": "ก", "last_name": "ข", "email": "a-seller@example.com", "branch_id": main_id}),
        )
        .await;

    // B's token on A's paths: refused before anything is read.
    for (m, path) in [
        (Method::GET, format!("/stores/{store}/branches")),
        (Method::POST, format!("/stores/{store}/branches")),
        (Method::GET, format!("/stores/{store}/branches/{main_id}")),
        (Method::PATCH, format!("/stores/{store}/branches/{main_id}")),
        (Method::DELETE, format!("/stores/{store}/branches/{main_id}")),
        (Method::GET, format!("/stores/{store}/pos-units")),
        (Method::DELETE, format!("/stores/{store}/pos-units/{}", till["id"])),
        (Method::GET, format!("/stores/{store}/cashiers")),
        (Method::GET, format!("/stores/{store}/sellers")),
        (Method::PATCH, format!("/stores/{store}/sellers/{}", seller["id"])),
    ] {
        let body = (m == Method::POST || m == Method::PATCH).then(|| json!({"name": "x"}));
        let (s, v) = app.call(m.clone(), &path, Some(&b), body).await;
        assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_mismatch")), "{m} {path}");
    }
    // B's token on B's paths with A's ids: not found; A's branch and warehouse are not B's.
    for path in [
        format!("/stores/{b_store}/branches/{main_id}"),
        format!("/stores/{b_store}/pos-units/{}", till["id"]),
        format!("/stores/{b_store}/sellers/{}", seller["id"]),
    ] {
        let (s, _) = app.get(&path, &b).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
        let (s, _) = app.delete(&path, &b).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
    }
    let (_, v) =
        app.post(&format!("/stores/{b_store}/pos-units"), &b, json!({"pos_no": "B1", "branch_id": main_id})).await;
    assert_eq!(field_codes(&v), pairs(&[("branch_id", "validation.branch_unknown")]));
    let (_, v) = app.post(&format!("/stores/{b_store}/branches"), &b, branch("00000", wh)).await;
    assert_eq!(field_codes(&v), pairs(&[("warehouse_id", "validation.warehouse_unknown")]));
    let (_, v) = app.get(&format!("/stores/{b_store}/branches"), &b).await;
    assert_eq!(v["total"], 0);
}

on_every_stack!(
    point_of_sale_end_to_end,
    members_read_the_setup_and_only_store_managers_change_it,
    one_store_never_reaches_another_stores_point_of_sale,
);
