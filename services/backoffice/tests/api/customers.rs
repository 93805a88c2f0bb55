use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{thai_customer, TestApp};
use crate::on_every_stack;

async fn customers_and_addresses_end_to_end(app: &TestApp) {
    let t = app.owner().await;
    let base = format!("/stores/{}/customers", app.demo_store);

    // An 8-digit phone is refused with a translated rule.
    let (s, v) = app.post(&base, &t, thai_customer("มานี มีนา", "08123456")).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["code"], "validation_failed");
    assert_eq!(v["error"]["fields"], json!([{"field": "tel", "code": "validation.phone_digits"}]));

    let (s, v) = app.post(&base, &t, json!({})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let fields: Vec<&str> =
        v["error"]["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    for f in ["name", "tel", "address", "sub_district", "district", "state_province", "postcode"] {
        assert!(fields.contains(&f), "{f} in {fields:?}");
    }

    let (s, c) = app.post(&base, &t, thai_customer("มานี มีนา", "089-111-2233")).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    assert_eq!(c["tel"], "0891112233");
    assert_eq!(c["address_count"], 1);
    assert_eq!(c["country"], "TH");
    let id = c["id"].as_i64().unwrap();

    // A duplicate phone has its own code and message.
    let (s, v) = app.post(&base, &t, thai_customer("คนอื่น", "0891112233")).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(v["error"]["code"], "customer_phone_duplicate");
    assert_eq!(v["error"]["message"], "This phone number already exists, please edit");

    // Search by name or phone, paged in the database.
    let (s, v) = app.get(&format!("{base}?search=มานี"), &t).await;
    assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(1)));
    let (_, v) = app.get(&format!("{base}?search=089-111"), &t).await;
    assert_eq!(v["data"][0]["id"], id);
    let (_, v) = app.get(&format!("{base}?limit=2&page=99"), &t).await;
    assert_eq!((v["page"].as_i64(), v["limit"].as_i64(), v["data"].as_array().unwrap().len()), (Some(4), Some(2), 1));
    let (_, v) = app.get(&format!("{base}?limit=-1"), &t).await;
    assert_eq!(v["data"].as_array().unwrap().len(), 7);

    // Edit.
    let (s, v) =
        app.patch(&format!("{base}/{id}"), &t, json!({"email": "manee@example.com", "postcode": "10120"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["email"].as_str(), v["postcode"].as_str()), (Some("manee@example.com"), Some("10120")));
    let (s, v) = app.patch(&format!("{base}/{id}"), &t, json!({"email": "nope"})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.email"))
    );

    // The address book: add an international address, make it default, edit, delete.
    let book = format!("{base}/{id}/addresses");
    let (s, a) = app
        .post(
            &book,
            &t,
            json!({"address": "221B Baker Street", "city": "London", "state_province": "Greater London",
            "postcode": "NW1 6XE", "country": "GB", "tel": "+44 20 7946 0958"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    assert_eq!((a["is_default"].as_bool(), a["name"].as_str()), (Some(false), Some("มานี มีนา")));
    let (s, v) = app.post(&book, &t, json!({"address": "x", "country": "US"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"]["fields"], json!([{"field": "city", "code": "validation.required"}]));
    let aid = a["id"].as_i64().unwrap();
    let (s, v) = app.post(&format!("{book}/{aid}/set-default-address"), &t, json!({})).await;
    assert_eq!((s, v["is_default"].as_bool()), (StatusCode::OK, Some(true)));
    let (_, v) = app.get(&book, &t).await;
    assert_eq!(v["total"], 2);
    assert_eq!(v["data"][0]["id"], aid, "default first");
    assert_eq!(v["data"].as_array().unwrap().iter().filter(|a| a["is_default"] == true).count(), 1);
    let (_, v) = app.get(&format!("{base}/{id}"), &t).await;
    assert_eq!((v["city"].as_str(), v["default_address_id"].as_i64()), (Some("London"), Some(aid)));
    let (s, v) = app.patch(&format!("{book}/{aid}"), &t, json!({"city": "Manchester"})).await;
    assert_eq!((s, v["city"].as_str()), (StatusCode::OK, Some("Manchester")));
    let (s, v) = app.get(&format!("{book}/{aid}"), &t).await;
    assert_eq!((s, v["postcode"].as_str()), (StatusCode::OK, Some("NW1 6XE")));
    let (s, _) = app.delete(&format!("{book}/{aid}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, v) = app.get(&book, &t).await;
    assert_eq!((v["total"].as_i64(), v["data"][0]["is_default"].as_bool()), (Some(1), Some(true)));
    let last = v["data"][0]["id"].as_i64().unwrap();
    let (s, v) = app.delete(&format!("{book}/{last}"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("address_last_cannot_delete")));

    // Delete the customer.
    let (s, _) = app.delete(&format!("{base}/{id}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.get(&format!("{base}/{id}"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("customer_not_found")));
    let (s, _) = app.get(&book, &t).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

async fn a_token_for_one_store_gets_nothing_of_another(app: &TestApp) {
    let a = app.owner().await;
    let (b_store, b) = app.other_owner("b-owner@example.com").await;
    let (s, bc) = app.post(&format!("/stores/{b_store}/customers"), &b, thai_customer("ลูกค้า บี", "0822222222")).await;
    assert_eq!(s, StatusCode::CREATED);
    let bid = bc["id"].as_i64().unwrap();
    let baddr = bc["default_address_id"].as_i64().unwrap();

    // A's token on B's paths: refused before anything is read.
    let b_base = format!("/stores/{b_store}/customers");
    let calls = [
        ("GET", b_base.clone()),
        ("POST", b_base.clone()),
        ("GET", format!("{b_base}/{bid}")),
        ("PATCH", format!("{b_base}/{bid}")),
        ("DELETE", format!("{b_base}/{bid}")),
        ("GET", format!("{b_base}/{bid}/addresses")),
        ("POST", format!("{b_base}/{bid}/addresses")),
        ("GET", format!("{b_base}/{bid}/addresses/{baddr}")),
        ("PATCH", format!("{b_base}/{bid}/addresses/{baddr}")),
        ("DELETE", format!("{b_base}/{bid}/addresses/{baddr}")),
        ("POST", format!("{b_base}/{bid}/addresses/{baddr}/set-default-address")),
        ("GET", format!("/stores/{b_store}")),
        ("PUT", format!("/stores/{b_store}")),
        ("GET", format!("/stores/{b_store}/settings/get-menu-hiding")),
    ];
    for (m, path) in &calls {
        let body = if *m == "GET" || *m == "DELETE" { None } else { Some(thai_customer("x", "0833333333")) };
        let (s, v) = app.call(m.parse().unwrap(), path, Some(&a), body).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{m} {path}: {v}");
        assert_eq!(v["error"]["code"], "store_mismatch", "{m} {path}");
    }
    // A's token on A's paths with B's ids: not found, never B's data.
    let a_base = format!("/stores/{}/customers", app.demo_store);
    let own = [
        ("GET", format!("{a_base}/{bid}")),
        ("PATCH", format!("{a_base}/{bid}")),
        ("DELETE", format!("{a_base}/{bid}")),
        ("GET", format!("{a_base}/{bid}/addresses")),
        ("POST", format!("{a_base}/{bid}/addresses")),
        ("GET", format!("{a_base}/{bid}/addresses/{baddr}")),
        ("PATCH", format!("{a_base}/{bid}/addresses/{baddr}")),
        ("DELETE", format!("{a_base}/{bid}/addresses/{baddr}")),
        ("POST", format!("{a_base}/{bid}/addresses/{baddr}/set-default-address")),
    ];
    for (m, path) in &own {
        let body = if *m == "GET" || *m == "DELETE" { None } else { Some(json!({"name": "x"})) };
        let (s, v) = app.call(m.parse().unwrap(), path, Some(&a), body).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{m} {path}: {v}");
    }
    let (_, v) = app.get(&format!("{a_base}?search=0822222222"), &a).await;
    assert_eq!(v["total"], 0);
    // B's customer is untouched.
    let (s, v) = app.get(&format!("{b_base}/{bid}"), &b).await;
    assert_eq!((s, v["name"].as_str(), v["address_count"].as_i64()), (StatusCode::OK, Some("ลูกค้า บี"), Some(1)));
}

async fn permissions_gate_each_customer_action(app: &TestApp) {
    let store = app.demo_store;
    let base = format!("/stores/{store}/customers");
    let reader = app.member_with(store, "reader@example.com", &["store.customer.read"]).await;
    let (s, _) = app.get(&base, &reader).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app.post(&base, &reader, thai_customer("ห้าม สร้าง", "0844444444")).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")));
    let (_, list) = app.get(&base, &reader).await;
    let first = list["data"][0]["id"].as_i64().unwrap();
    let (s, _) = app.patch(&format!("{base}/{first}"), &reader, json!({"name": "x"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.delete(&format!("{base}/{first}"), &reader).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    let nobody = app.member_with(store, "nobody@example.com", &["product.sku.read"]).await;
    let (s, _) = app.get(&base, &nobody).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    let creator = app.member_with(store, "creator@example.com", &["store.customer.all"]).await;
    let (s, _) = app.post(&base, &creator, thai_customer("ได้ สร้าง", "0855555555")).await;
    assert_eq!(s, StatusCode::CREATED, "`all` grants every action");
}

async fn idempotency_keys_replay_and_refuse(app: &TestApp) {
    let t = app.owner().await;
    let url = format!("{}/stores/{}/customers", app.base, app.demo_store);
    let send = |body: serde_json::Value, key: &str| {
        app.client.post(&url).bearer_auth(&t).header("Idempotency-Key", key).json(&body).send()
    };
    let body = thai_customer("ซ้ำ ไม่ได้", "0866666666");
    let first = send(body.clone(), "key-1").await.unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    let first_body: serde_json::Value = first.json().await.unwrap();
    let again = send(body.clone(), "key-1").await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(again.headers().get("idempotent-replayed").unwrap(), "true");
    let again_body: serde_json::Value = again.json().await.unwrap();
    assert_eq!(again_body, first_body, "the first answer, replayed");
    let (_, v) = app.get(&format!("/stores/{}/customers?search=0866666666", app.demo_store), &t).await;
    assert_eq!(v["total"], 1, "acted once");

    let other = send(thai_customer("อื่น", "0877777777"), "key-1").await.unwrap();
    assert_eq!(other.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let v: serde_json::Value = other.json().await.unwrap();
    assert_eq!(v["error"]["code"], "idempotency_key_reused");

    // A refused write is an answer too: replayed, not retried.
    let bad = thai_customer("x", "123");
    assert_eq!(send(bad.clone(), "key-2").await.unwrap().status(), StatusCode::UNPROCESSABLE_ENTITY);
    let replay = send(bad, "key-2").await.unwrap();
    assert_eq!(replay.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(replay.headers().get("idempotent-replayed").is_some());

    // Keys are per store.
    let (b_store, b) = app.other_owner("idem-b@example.com").await;
    let res = app
        .client
        .post(format!("{}/stores/{b_store}/customers", app.base))
        .bearer_auth(&b)
        .header("Idempotency-Key", "key-1")
        .json(&thai_customer("ร้านบี", "0866666666"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert!(res.headers().get("idempotent-replayed").is_none());
}

/// SPEC §5: an address marked international needs a country; it is never taken for Thai.
async fn an_address_marked_abroad_needs_its_country(app: &TestApp) {
    let t = app.owner().await;
    let base = format!("/stores/{}/customers", app.demo_store);
    for country in ["", "TH", " th "] {
        let mut c = thai_customer("ลูกค้า ต่างประเทศ", "0899990001");
        c["international"] = json!(true);
        c["country"] = json!(country);
        let (s, v) = app.post(&base, &t, c).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{country:?}: {v}");
        assert_eq!(
            (v["error"]["fields"][0]["field"].as_str(), v["error"]["fields"][0]["code"].as_str()),
            (Some("country"), Some("validation.country"))
        );
    }
    let (s, created) = app.post(&base, &t, thai_customer("ลูกค้า ไทย", "0899990002")).await;
    assert_eq!(s, StatusCode::CREATED);
    let addresses = format!("{base}/{}/addresses", created["id"]);
    let (s, v) =
        app.post(&addresses, &t, json!({"address": "10 Downing St", "international": true, "city": "London"})).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("country")));
    let (s, v) = app
        .post(
            &addresses,
            &t,
            json!({"address": "10 Downing St", "international": true, "country": "GB", "city": "London"}),
        )
        .await;
    assert_eq!((s, v["country"].as_str()), (StatusCode::CREATED, Some("GB")), "{v}");
    let (s, _) = app.patch(&format!("{base}/{}", created["id"]), &t, json!({"international": true})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "marking abroad without a country");
}

on_every_stack!(
    an_address_marked_abroad_needs_its_country,
    customers_and_addresses_end_to_end,
    a_token_for_one_store_gets_nothing_of_another,
    permissions_gate_each_customer_action,
    idempotency_keys_replay_and_refuse,
);
