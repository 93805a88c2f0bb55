//! A store's own channels (social commerce and its website), on both stacks: every rule of
//! the form at once, a warehouse, shipping channel or account not the store's refused, made,
//! listed (all, or the active ones an order's form offers), edited to the version read; any
//! member reads them, only the owner makes or changes them; another store sees none.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Stack, TestApp};
use crate::integrator::defaults;

async fn own_channels_are_made_by_the_owner_and_read_by_the_staff(stack: Stack) {
    let Some(app) = TestApp::start(stack).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (ship, pay) = defaults(&app, &t, w).await;

    // Every broken rule at once; a marketplace or the open API is not sold through by hand.
    let (s, e) = app.post("/marketplaces/own-channels", &t, json!({"channel": "open_api", "status": "paused"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let fields: Vec<(&str, &str)> = e["error"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["field"].as_str().unwrap(), f["code"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fields,
        vec![("status", "validation.status")],
        "a word the contract does not know is refused before the service"
    );
    let (s, e) = app.post("/marketplaces/own-channels", &t, json!({"channel": "shopee"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let fields: Vec<&str> =
        e["error"]["fields"].as_array().unwrap().iter().filter_map(|f| f["field"].as_str()).collect();
    assert_eq!(fields, vec!["name", "channel", "warehouse_id", "logistic_channel_id", "payment_channel_id"]);
    assert_eq!(e["error"]["fields"][1]["code"], "validation.channel_unknown");
    let form = |w: i64, ship: i64, pay: i64| json!({"name": "ร้านไลน์", "channel": "line", "warehouse_id": w, "logistic_channel_id": ship, "payment_channel_id": pay});
    for (body, field, code) in [
        (form(987_654, ship, pay), "warehouse_id", "validation.warehouse_unknown"),
        (form(w, 987_654, pay), "logistic_channel_id", "validation.logistic_channel_unknown"),
        (form(w, ship, 987_654), "payment_channel_id", "validation.payment_channel_unknown"),
    ] {
        let (s, e) = app.post("/marketplaces/own-channels", &t, body).await;
        assert_eq!(
            (s, e["error"]["fields"][0]["field"].as_str(), e["error"]["fields"][0]["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field), Some(code)),
            "{e}"
        );
    }

    // Made; a second one for Facebook; both listed, oldest first.
    let (s, line) = app.post("/marketplaces/own-channels", &t, form(w, ship, pay)).await;
    assert_eq!(s, StatusCode::CREATED, "{line}");
    assert_eq!(
        (line["channel"].as_str(), line["status"].as_str(), line["warehouse_id"].as_i64()),
        (Some("line"), Some("active"), Some(w))
    );
    let id = line["id"].as_i64().unwrap();
    let (s, fb) = app
        .post(
            "/marketplaces/own-channels",
            &t,
            json!({"name": " เพจเฟซบุ๊ก ", "channel": "facebook", "warehouse_id": w, "logistic_channel_id": ship,
                "payment_channel_id": pay, "status": "inactive"}),
        )
        .await;
    assert_eq!(
        (s, fb["name"].as_str(), fb["status"].as_str()),
        (StatusCode::CREATED, Some("เพจเฟซบุ๊ก"), Some("inactive"))
    );
    let names = |v: &serde_json::Value| -> Vec<String> {
        v["data"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect()
    };
    let (_, all) = app.get("/marketplaces/own-channels", &t).await;
    assert_eq!(names(&all), vec!["ร้านไลน์", "เพจเฟซบุ๊ก"]);
    let (_, active) = app.get("/marketplaces/own-channels?status=active", &t).await;
    assert_eq!(names(&active), vec!["ร้านไลน์"]);
    let (_, off) = app.get("/marketplaces/own-channels?status=inactive", &t).await;
    assert_eq!(names(&off), vec!["เพจเฟซบุ๊ก"]);
    let (s, e) = app.get("/marketplaces/own-channels?status=maybe", &t).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");

    // An edit keeps to the version read; a stale one is refused and loses nothing.
    let path = format!("/marketplaces/own-channels/{id}");
    let edit = json!({"name": "LINE OA ร้าน", "channel": "line", "warehouse_id": w, "logistic_channel_id": ship,
        "payment_channel_id": pay, "status": "inactive", "version": line["version"]});
    let (s, v) = app.patch(&path, &t, edit.clone()).await;
    assert_eq!(
        (s, v["name"].as_str(), v["status"].as_str()),
        (StatusCode::OK, Some("LINE OA ร้าน"), Some("inactive")),
        "{v}"
    );
    let (s, e) = app.patch(&path, &t, edit).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("api_channel_changed")));
    let (_, now) = app.get(&path, &t).await;
    assert_eq!(now["version"], v["version"]);
    let (s, e) = app.patch(&path, &t, json!({"name": "", "channel": "line", "warehouse_id": w})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let (_, still) = app.get(&path, &t).await;
    assert_eq!(still["name"], "LINE OA ร้าน", "a refused edit changes nothing");

    // Staff read them (an order's form offers them) but make and change none.
    let staff = app.member_with(app.demo_store, "own-staff@example.com", &["order.order.all"]).await;
    let (s, v) = app.get("/marketplaces/own-channels", &staff).await;
    assert_eq!((s, names(&v).len()), (StatusCode::OK, 2));
    assert_eq!(app.get(&path, &staff).await.0, StatusCode::OK);
    assert_eq!(app.post("/marketplaces/own-channels", &staff, form(w, ship, pay)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.patch(&path, &staff, json!({"name": "x"})).await.0, StatusCode::FORBIDDEN);

    // Another store: none of them.
    let (_, other) = app.other_owner("own-other@example.com").await;
    let (s, e) = app.get(&path, &other).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("own_channel_not_found")));
    let (s, e) = app.patch(&path, &other, json!({"name": "x", "version": 0})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    let (_, v) = app.get("/marketplaces/own-channels", &other).await;
    assert_eq!(v["data"].as_array().map(Vec::len), Some(0));
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn own_channels_are_made_by_the_owner_and_read_by_the_staff() {
        super::own_channels_are_made_by_the_owner_and_read_by_the_staff(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn own_channels_are_made_by_the_owner_and_read_by_the_staff() {
        super::own_channels_are_made_by_the_owner_and_read_by_the_staff(Stack::Postgres).await;
    }
}
