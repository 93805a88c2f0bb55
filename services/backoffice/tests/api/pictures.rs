//! The store's logo and receipt pictures, the receipt text, and the owner's identity
//! verification with its two photos, which nobody but the owner ever reads.

use bo_kit::Code;
use reqwest::multipart::{Form, Part};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::photos::png;

async fn send_form(app: &TestApp, path: &str, token: &str, form: Form) -> (StatusCode, Value) {
    let res = app.client.post(format!("{}{path}", app.base)).bearer_auth(token).multipart(form).send().await.unwrap();
    let s = res.status();
    (s, res.json().await.unwrap_or(Value::Null))
}

fn picture(bytes: Vec<u8>, name: &str) -> Form {
    Form::new().part("file", Part::bytes(bytes).file_name(name.to_string()))
}

/// GET on the server's root (a picture's URL), with or without a token.
async fn fetch(app: &TestApp, url: &str, token: Option<&str>) -> (StatusCode, Option<String>, usize) {
    let mut req = app.client.get(format!("{}{url}", app.root()));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let s = res.status();
    let ct = res.headers().get("content-type").and_then(|v| v.to_str().ok()).map(str::to_string);
    let len = res.bytes().await.map(|b| b.len()).unwrap_or(0);
    (s, ct, len)
}

fn field_codes(v: &Value) -> Vec<(String, String)> {
    v["error"]["fields"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|f| (f["field"].as_str().unwrap().to_string(), f["code"].as_str().unwrap().to_string()))
        .collect()
}

async fn admin(app: &TestApp, email: &str) -> String {
    let svc = app.stores_service().await;
    svc.grpc.add_member(app.demo_store, email, "member-password", "admin", None).await.unwrap();
    svc.db.close().await;
    app.store_token(email, "member-password", app.demo_store).await
}

async fn logo_and_receipt_pictures_are_kept_served_and_replaced(app: &TestApp) {
    let store = app.demo_store;
    let t = app.owner().await;
    let logo = format!("/stores/{store}/logo");

    // Checked by content: a text file named .png is refused under the field.
    let (s, v) = send_form(app, &logo, &t, picture(b"not a picture".to_vec(), "logo.png")).await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, vec![("file".into(), "photo_type".into())]));
    let (s, v) = send_form(app, &logo, &t, Form::new().text("x", "y")).await;
    assert_eq!(field_codes(&v), vec![("file".into(), "validation.photo_required".into())], "{s}");

    let (s, v) = send_form(app, &logo, &t, picture(png(64, 64), "logo.png")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let url = v["logo_url"].as_str().unwrap().to_string();
    let (_, store_body) = app.get(&format!("/stores/{store}"), &t).await;
    assert_eq!(store_body["logo_url"], url.as_str());
    // Served without a token, as a receipt shows it.
    let (s, ct, len) = fetch(app, &url, None).await;
    assert_eq!((s, ct.as_deref()), (StatusCode::OK, Some("image/png")));
    assert!(len > 0);

    // The owner only: an admin may not change the logo.
    let a = admin(app, "pictures-admin@example.com").await;
    let (s, _) = send_form(app, &logo, &a, picture(png(8, 8), "x.png")).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.delete(&logo, &a).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // A new logo replaces the old, whose file goes.
    let (_, v) = send_form(app, &logo, &t, picture(png(32, 32), "logo2.png")).await;
    let second = v["logo_url"].as_str().unwrap().to_string();
    assert_ne!(second, url);
    assert_eq!(fetch(app, &url, None).await.0, StatusCode::NOT_FOUND);
    let (s, _) = app.delete(&logo, &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(fetch(app, &second, None).await.0, StatusCode::NOT_FOUND);
    let (_, store_body) = app.get(&format!("/stores/{store}"), &t).await;
    assert_eq!(store_body["logo_url"], "");

    // Receipt settings: any member reads; the owner or store.* changes.
    let receipt = format!("/stores/{store}/settings/receipt");
    let (s, v) = app.get(&receipt, &a).await;
    assert_eq!((s, v["footer_text"].as_str(), v["header_photo_url"].as_str()), (StatusCode::OK, Some(""), Some("")));
    let (s, _) = app.call(Method::PUT, &receipt, Some(&a), Some(json!({"footer_text": "x"}))).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = app.call(Method::PUT, &receipt, Some(&t), Some(json!({"footer_text": "a\n".repeat(11)}))).await;
    assert_eq!(
        (s, field_codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, vec![("footer_text".into(), "validation.footer_lines".into())])
    );
    let (s, v) =
        app.call(Method::PUT, &receipt, Some(&t), Some(json!({"footer_text": "ขอบคุณที่อุดหนุน\r\nแล้วพบกันใหม่ "}))).await;
    assert_eq!((s, v["footer_text"].as_str()), (StatusCode::OK, Some("ขอบคุณที่อุดหนุน\nแล้วพบกันใหม่")));
    let (s, v) = send_form(app, &format!("{receipt}/header"), &t, picture(png(120, 40), "head.png")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let header = v["header_photo_url"].as_str().unwrap().to_string();
    assert!(!header.is_empty());
    assert_eq!(v["footer_photo_url"], "");
    let (s, _) = send_form(app, &format!("{receipt}/header"), &a, picture(png(8, 8), "x.png")).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = send_form(app, &format!("{receipt}/middle"), &t, picture(png(8, 8), "x.png")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let manager = app.member_with(store, "receipt-manager@example.com", &["store.*"]).await;
    let (s, v) = send_form(app, &format!("{receipt}/footer"), &manager, picture(png(120, 40), "foot.png")).await;
    assert_eq!((s, v["header_photo_url"].as_str()), (StatusCode::OK, Some(header.as_str())));
    let (s, v) = app.delete(&format!("{receipt}/header"), &t).await;
    assert_eq!((s, v["header_photo_url"].as_str()), (StatusCode::OK, Some("")));
    assert_eq!(fetch(app, &header, None).await.0, StatusCode::NOT_FOUND);

    // Recorded in the audit trail.
    let (_, audit) = app.get(&format!("/stores/{store}/audit"), &t).await;
    let actions: Vec<&str> = audit["data"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert!(actions.contains(&"settings.receipt") && actions.contains(&"store.picture_set"), "{actions:?}");
}

fn identity_form(tel: &str, card: Option<Vec<u8>>, holding: Option<Vec<u8>>) -> Form {
    let mut f = Form::new()
        .text("first_name", "สมชาย")
        .text("last_name", "ใจดี")
        .text("tel", tel.to_string())
        .text("email", "somchai@example.com")
        .text("address", "1 ถนนสีลม")
        .text("sub_district", "สีลม")
        .text("district", "บางรัก")
        .text("state_province", "กรุงเทพมหานคร")
        .text("postcode", "10500");
    if let Some(b) = card {
        f = f.part("id_card_photo", Part::bytes(b).file_name("card.png"));
    }
    if let Some(b) = holding {
        f = f.part("holding_photo", Part::bytes(b).file_name("holding.png"));
    }
    f
}

async fn identity_is_submitted_by_the_owner_and_approved_by_the_operator(app: &TestApp) {
    let store = app.demo_store;
    let t = app.owner().await;
    let path = format!("/stores/{store}/identify");
    let submit = format!("{path}/submit");

    let (s, v) = app.get(&path, &t).await;
    assert_eq!(
        (s, v["status"].as_str(), v["has_id_card_photo"].as_bool()),
        (StatusCode::OK, Some("pending"), Some(false))
    );

    // A missing photo and a phone with dashes: each under its field, nothing kept.
    let (s, v) = send_form(app, &submit, &t, identity_form("0812345678", Some(png(40, 25)), None)).await;
    assert_eq!(
        (s, field_codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, vec![("holding_photo".into(), "validation.photo_required".into())])
    );
    let (_, v) = send_form(app, &submit, &t, identity_form("081-234-5678", Some(png(40, 25)), Some(png(30, 30)))).await;
    assert_eq!(field_codes(&v), vec![("tel".into(), "validation.phone_digits".into())]);
    let (_, v) =
        send_form(app, &submit, &t, identity_form("0812345678", Some(b"%PDF-1.4".to_vec()), Some(png(30, 30)))).await;
    assert_eq!(field_codes(&v), vec![("id_card_photo".into(), "photo_type".into())]);
    let (_, v) = app.get(&path, &t).await;
    assert_eq!(v["status"], "pending", "nothing saved");
    assert_eq!(app.staged_uploads().await, 0, "no upload left behind");

    let (s, v) = send_form(app, &submit, &t, identity_form("0812345678", Some(png(40, 25)), Some(png(30, 30)))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["status"].as_str(), v["has_id_card_photo"].as_bool(), v["has_holding_photo"].as_bool(), v["tel"].as_str()),
        (Some("submitted"), Some(true), Some(true), Some("0812345678"))
    );

    // The photos: to the owner's token only, never cached.
    for kind in ["id_card", "holding"] {
        let url = format!("/api/stores/{store}/identify/photos/{kind}");
        let (s, ct, _) = fetch(app, &url, Some(&t)).await;
        assert_eq!((s, ct.as_deref()), (StatusCode::OK, Some("image/png")), "{kind}");
        assert_eq!(fetch(app, &url, None).await.0, StatusCode::UNAUTHORIZED, "{kind}");
    }
    let a = admin(app, "identity-admin@example.com").await;
    for (m, p) in [(Method::GET, path.clone()), (Method::GET, format!("{path}/photos/id_card"))] {
        let (s, _) = app.call(m, &p, Some(&a), None).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{p}");
    }
    let (s, _) = send_form(app, &submit, &a, identity_form("0812345678", Some(png(4, 4)), Some(png(4, 4)))).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // A correction keeps the photos not sent again.
    let (s, v) = send_form(app, &submit, &t, identity_form("021234567", None, None)).await;
    assert_eq!(
        (s, v["tel"].as_str(), v["has_holding_photo"].as_bool()),
        (StatusCode::OK, Some("021234567"), Some(true))
    );

    // The operator approves; then it is settled.
    let svc = app.stores_service().await;
    let approved = svc.grpc.approve_identity(store).await.unwrap();
    assert_eq!(approved.status(), bo_proto::stores::v1::IdentityStatus::Approved);
    assert_eq!(svc.grpc.approve_identity(store).await.unwrap_err().code, Code::IdentityApproved);
    svc.db.close().await;
    let (_, v) = app.get(&path, &t).await;
    assert_eq!(v["status"], "approved");
    assert!(!v["approved_at"].as_str().unwrap().is_empty());
    let (s, v) = send_form(app, &submit, &t, identity_form("0812345678", None, None)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("identity_approved")));

    // The trail names the steps and none of the person's details.
    let (_, audit) = app.get(&format!("/stores/{store}/audit"), &t).await;
    let text = audit.to_string();
    assert!(text.contains("identity.approved") && text.contains("identity.submitted"));
    assert!(!text.contains("0812345678") && !text.contains("somchai@example.com"));
}

async fn another_store_never_sees_the_pictures_or_identity(app: &TestApp) {
    let store = app.demo_store;
    let (b_store, b) = app.other_owner("pictures-b@example.com").await;
    for (m, path) in [
        (Method::DELETE, format!("/stores/{store}/logo")),
        (Method::GET, format!("/stores/{store}/settings/receipt")),
        (Method::PUT, format!("/stores/{store}/settings/receipt")),
        (Method::DELETE, format!("/stores/{store}/settings/receipt/header")),
        (Method::GET, format!("/stores/{store}/identify")),
        (Method::GET, format!("/stores/{store}/identify/photos/id_card")),
    ] {
        let body = (m == Method::PUT).then(|| json!({"footer_text": "x"}));
        let (s, v) = app.call(m.clone(), &path, Some(&b), body).await;
        assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_mismatch")), "{m} {path}");
    }
    let (s, v) =
        send_form(app, &format!("/stores/{store}/identify/submit"), &b, identity_form("0812345678", None, None)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_mismatch")));
    for path in [format!("/stores/{store}/logo"), format!("/stores/{store}/settings/receipt/footer")] {
        let (s, v) = send_form(app, &path, &b, picture(png(8, 8), "x.png")).await;
        assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_mismatch")), "{path}");
    }
    // B's own identity is B's: pending, with no photos.
    let (_, v) = app.get(&format!("/stores/{b_store}/identify"), &b).await;
    assert_eq!(v["status"], "pending");
    let (s, _) = app.get(&format!("/stores/{b_store}/identify/photos/id_card"), &b).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A name that is not a picture's shape is nothing.
    for bad in ["x.png", "..%2F..%2Fidentity%2Fx.png", "abc.txt"] {
        let (s, _, _) = fetch(app, &format!("/api/stores/pictures/{store}/{bad}"), None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{bad}");
    }
}

on_every_stack!(
    logo_and_receipt_pictures_are_kept_served_and_replaced,
    identity_is_submitted_by_the_owner_and_approved_by_the_operator,
    another_store_never_sees_the_pictures_or_identity,
);
