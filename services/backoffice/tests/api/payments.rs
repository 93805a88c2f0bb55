//! Payments through the API: the lists the forms pick from, payment accounts of every kind
//! with their rules, the PromptPay QR, who may change them, and one store's accounts kept
//! from another.

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

fn kbank(acc_no: &str) -> Value {
    json!({"channel_type": "bank", "country": "TH", "bank_code": "004", "acc_name": "ร้านดีดี",
        "acc_no": acc_no, "branch": "สีลม"})
}

async fn payment_accounts_end_to_end(app: &TestApp) {
    let t = app.owner().await;

    // What the forms pick from.
    let (_, kinds) = app.get("/payments/channels", &t).await;
    let kinds: Vec<&str> = kinds["data"].as_array().unwrap().iter().map(|k| k["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["bank", "paypal", "promptpay", "cod"]);
    let (_, countries) = app.get("/payments/countries", &t).await;
    assert_eq!(countries["data"][0]["code"], "TH");
    let (s, banks) = app.get("/payments/", &t).await;
    assert_eq!(s, StatusCode::OK);
    let kb = banks["data"].as_array().unwrap().iter().find(|b| b["code"] == "004").unwrap().clone();
    assert_eq!((kb["short"].as_str(), kb["name_th"].as_str()), (Some("KBANK"), Some("ธนาคารกสิกรไทย")));

    // Every field of the kind is required, under its field; nothing saved.
    let (s, v) = app.post("/payments/store-channels", &t, json!({"channel_type": "bank"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        field_codes(&v),
        pairs(&[
            ("country", "validation.required"),
            ("bank_code", "validation.required"),
            ("acc_name", "validation.required"),
            ("acc_no", "validation.required"),
            ("branch", "validation.required"),
        ])
    );
    let (_, v) = app.post("/payments/store-channels", &t, kbank("12345abcde")).await;
    assert_eq!(field_codes(&v), pairs(&[("acc_no", "validation.account_number")]));

    // A bank account, as the app posts it (a form).
    let res = app
        .client
        .post(format!("{}/payments/store-channels", app.base))
        .bearer_auth(&t)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("channel_type=bank&country=TH&bank_code=004&acc_name=%E0%B8%A3%E0%B9%89%E0%B8%B2%E0%B8%99&acc_no=123-4-56789-0&branch=Silom")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let bank: Value = res.json().await.unwrap();
    assert_eq!(bank["channel"]["type"], "bank");
    assert_eq!(
        (bank["credential"]["acc_no"].as_str(), bank["credential"]["acc_name"].as_str()),
        (Some("1234567890"), Some("ร้าน"))
    );
    assert_eq!((bank["bank"]["short"].as_str(), bank["status"].as_str()), (Some("KBANK"), Some("active")));
    let bank_id = bank["id"].as_i64().unwrap();

    // Account numbers are unique in the store ('Account Number has already existed.').
    let (s, v) = app.post("/payments/store-channels", &t, kbank("1234567890")).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("account_number_duplicate")));
    assert_eq!(v["error"]["message"], "Account Number has already existed.");
    let (s, v) = app
        .post("/payments/store-channels", &t, json!({"channel_type": "cod", "acc_name": "COD", "acc_no": "1234567890"}))
        .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("account_number_duplicate")),
        "across kinds"
    );

    // PromptPay: a mobile number or a checked 13-digit id; its QR.
    let (_, v) = app
        .post(
            "/payments/store-channels",
            &t,
            json!({"channel_type": "promptpay", "acc_name": "ร้าน", "acc_no": "1234567890122"}),
        )
        .await;
    assert_eq!(field_codes(&v), pairs(&[("acc_no", "validation.promptpay_id")]));
    let (s, pp) = app
        .post(
            "/payments/store-channels",
            &t,
            json!({"channel_type": "promptpay", "acc_name": "ร้าน", "acc_no": "080-123-4567"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{pp}");
    let pp_id = pp["id"].as_i64().unwrap();
    let (s, qr) = app.get(&format!("/payments/store-channels/{pp_id}/promptpay-qr"), &t).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(qr["payload"], "00020101021129370016A000000677010111011300668012345675802TH530376463046197");
    assert!(qr["svg"].as_str().unwrap().starts_with("<?xml"), "{}", qr["svg"]);
    assert_eq!((qr["masked_id"].as_str(), qr["amount"].as_str()), (Some("xxxxxx4567"), Some("")));
    let (_, qr) = app.get(&format!("/payments/store-channels/{pp_id}/promptpay-qr?amount=1250.5"), &t).await;
    assert!(qr["payload"].as_str().unwrap().contains("54071250.50"), "{qr}");
    assert_eq!(qr["amount"], "1250.50");
    let (s, v) = app.get(&format!("/payments/store-channels/{pp_id}/promptpay-qr?amount=1.234"), &t).await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("amount", "validation.amount")])));
    let (s, v) = app.get(&format!("/payments/store-channels/{bank_id}/promptpay-qr"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("payment_channel_not_promptpay")));

    // PayPal: an email and a fee in percent.
    let (s, v) = app
        .post("/payments/store-channels", &t, json!({"channel_type": "paypal", "email": "pay@shop.th", "fee": 4.4}))
        .await;
    assert_eq!((s, v["credential"]["fee"].as_str()), (StatusCode::CREATED, Some("4.40")), "{v}");
    let paypal_id = v["id"].as_i64().unwrap();
    // A change keeps what it does not name; the kind stays.
    let (s, v) = app.patch(&format!("/payments/store-channels/{paypal_id}"), &t, json!({"fee": "3.9"})).await;
    assert_eq!(
        (s, v["credential"]["fee"].as_str(), v["credential"]["email"].as_str()),
        (StatusCode::OK, Some("3.90"), Some("pay@shop.th"))
    );
    let (s, v) = app.patch(&format!("/payments/store-channels/{paypal_id}"), &t, json!({"channel_type": "bank"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");

    // COD accounts, their lookup and status by kind.
    let (s, _) = app
        .post(
            "/payments/store-channels",
            &t,
            json!({"channel_type": "cod", "acc_name": "เก็บเงินปลายทาง", "acc_no": "2222222222"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (_, v) =
        app.get("/payments/store-channels?channel-type=cod&acc-name=%E0%B9%80%E0%B8%81%E0%B9%87%E0%B8%9A", &t).await;
    assert_eq!((v["total"].as_i64(), v["limit"].as_i64()), (Some(1), Some(-1)), "{v}");
    let (_, v) = app.get("/payments/store-channels?acc-no=123-4567890", &t).await;
    assert_eq!(v["data"][0]["id"].as_i64(), Some(bank_id), "lookup by account number");
    let (_, v) = app.get("/payments/store-channels?channel-type=bank", &t).await;
    assert_eq!(v["total"], 1);
    let (s, v) = app.patch("/payments/store-channels?channel.type=cod", &t, json!({"status": "inactive"})).await;
    assert_eq!((s, v["changed"].as_i64()), (StatusCode::OK, Some(1)), "{v}");
    let (_, v) = app.get("/payments/store-channels?status=inactive", &t).await;
    assert_eq!(v["data"][0]["channel"]["type"], "cod");
    let (s, v) = app.patch("/payments/store-channels", &t, json!({"status": "inactive"})).await;
    assert_eq!(
        (s, field_codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("channel.type", "validation.required")]))
    );
    let (s, v) = app.patch(&format!("/payments/store-channels/{bank_id}"), &t, json!({"status": "inactive"})).await;
    assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("inactive")));

    // Deleting.
    let (s, _) = app.delete(&format!("/payments/store-channels/{paypal_id}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.get(&format!("/payments/store-channels/{paypal_id}"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("payment_channel_not_found")));

    // Getting started ticks payment once the stores service hears of it.
    let mut started = Value::Null;
    for _ in 0..100 {
        started = app.get("/stores/getting-started", &t).await.1;
        if started["payment"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(started["payment"], true, "{started}");
}

async fn payment_accounts_need_the_owner_or_the_permission(app: &TestApp) {
    let store = app.demo_store;
    let owner = app.owner().await;
    let (_, acc) = app.post("/payments/store-channels", &owner, kbank("3333333333")).await;
    let id = acc["id"].as_i64().unwrap();
    let clerk = app.member_with(store, "clerk-pay@example.com", &["order.order.read"]).await;
    // Any member reads (an order says where to pay) ...
    let (s, v) = app.get("/payments/store-channels", &clerk).await;
    assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(1)));
    // ... but only the owner or payment.storeChannel.* changes.
    let writes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::POST, "/payments/store-channels".into(), Some(kbank("4444444444"))),
        (Method::PATCH, format!("/payments/store-channels/{id}"), Some(json!({"status": "inactive"}))),
        (Method::PATCH, "/payments/store-channels?channel.type=bank".into(), Some(json!({"status": "inactive"}))),
        (Method::DELETE, format!("/payments/store-channels/{id}"), None),
    ];
    for (m, path, body) in &writes {
        let (s, _) = app.call(m.clone(), path, Some(&clerk), body.clone()).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{m} {path}");
    }
    let keeper = app.member_with(store, "keeper-pay@example.com", &["payment.storeChannel.*"]).await;
    let (s, v) = app.post("/payments/store-channels", &keeper, kbank("4444444444")).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, _) = app.delete(&format!("/payments/store-channels/{id}"), &keeper).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = app.get("/payments/store-channels", "not-a-token").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

async fn payment_accounts_stay_in_their_store(app: &TestApp) {
    let a = app.owner().await;
    let (_, b) = app.other_owner("pay-b@example.com").await;
    let (_, acc) = app
        .post(
            "/payments/store-channels",
            &b,
            json!({"channel_type": "promptpay", "acc_name": "B", "acc_no": "0899999999"}),
        )
        .await;
    let id = acc["id"].as_i64().unwrap();
    for (m, path, body) in [
        (Method::GET, format!("/payments/store-channels/{id}"), None),
        (Method::PATCH, format!("/payments/store-channels/{id}"), Some(json!({"acc_name": "A"}))),
        (Method::DELETE, format!("/payments/store-channels/{id}"), None),
        (Method::GET, format!("/payments/store-channels/{id}/promptpay-qr"), None),
    ] {
        let (s, v) = app.call(m.clone(), &path, Some(&a), body).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{m} {path}: {v}");
    }
    let (_, v) = app.get("/payments/store-channels", &a).await;
    assert_eq!(v["total"], 0);
    // The same number is free in another store.
    let (s, _) = app
        .post(
            "/payments/store-channels",
            &a,
            json!({"channel_type": "promptpay", "acc_name": "A", "acc_no": "0899999999"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (_, v) = app.get(&format!("/payments/store-channels/{id}"), &b).await;
    assert_eq!(v["credential"]["acc_name"], "B", "B's account is untouched");
}

on_every_stack!(
    payment_accounts_end_to_end,
    payment_accounts_need_the_owner_or_the_permission,
    payment_accounts_stay_in_their_store
);
