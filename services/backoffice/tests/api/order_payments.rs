//! Payments of orders through the API and the buyer's bill page (SPEC §2 bill link and
//! payment review, §3 payment, §4 Payment state, §7, §8 payment confirmation): the page
//! without sign-in (the shop, lines, totals, address, accounts, a PromptPay QR for the exact
//! amount, its weight), a slip that makes the payment pending, staff payments with their
//! attachments, confirmation and its refusals, cancel and void, permissions and isolation.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::orders::{create, main_warehouse, order, post_channel, stock_up, two_skus};
use crate::photos::png;

/// The store's accounts: a PromptPay one and a bank one; their ids.
pub(crate) async fn accounts(app: &TestApp, t: &str) -> (i64, i64) {
    let (s, pp) = app
        .post(
            "/payments/store-channels",
            t,
            json!({"channel_type": "promptpay", "acc_name": "ร้านดีดี", "acc_no": "0812345678"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{pp}");
    let (s, bank) = app
        .post(
            "/payments/store-channels",
            t,
            json!({"channel_type": "bank", "country": "TH", "bank_code": "004", "acc_name": "ร้านดีดี",
                "acc_no": "1234567890", "branch": "สีลม"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{bank}");
    (pp["id"].as_i64().unwrap(), bank["id"].as_i64().unwrap())
}

/// GET of the buyer's page, without a token: (status, headers, body).
async fn page(app: &TestApp, path: &str, lang: Option<&str>) -> (StatusCode, reqwest::header::HeaderMap, String) {
    let mut req = app.client.get(format!("{}{path}", app.root()));
    if let Some(l) = lang {
        req = req.header("accept-language", l);
    }
    let r = req.send().await.unwrap();
    (r.status(), r.headers().clone(), r.text().await.unwrap())
}

/// Posts a slip on the buyer's page (no redirect followed): (status, location, body).
pub(crate) async fn send_slip(
    app: &TestApp,
    token: &str,
    file: Vec<u8>,
    name: &str,
    channel: i64,
) -> (StatusCode, String, String) {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let form = Form::new()
        .text("lang", "en")
        .text("store_channel_id", channel.to_string())
        .part("file", Part::bytes(file).file_name(name.to_string()));
    let r = client.post(format!("{}/bill/{token}/slip", app.root())).multipart(form).send().await.unwrap();
    let location = r.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    (r.status(), location, r.text().await.unwrap())
}

/// Keeps an attachment through the API; its name.
pub(crate) async fn attachment(app: &TestApp, t: &str, file: Vec<u8>) -> (StatusCode, Value) {
    let form = Form::new().text("type", "slip").part("file", Part::bytes(file).file_name("slip.png"));
    let r = app
        .client
        .post(format!("{}/orders/attachment/upload", app.base))
        .bearer_auth(t)
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap_or(Value::Null))
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

async fn the_bill_page_shows_the_bill_and_takes_a_slip(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "BP1", w).await;
    stock_up(app, &t, w, red, 10).await;
    let (pp, _bank) = accounts(app, &t).await;
    let mut body = order(w, json!([{"sku_id": red, "quantity": 2}]));
    body["shipping_charge"] = json!("40");
    let o = create(app, &t, body).await;
    let id = o["id"].as_i64().unwrap();
    let token = o["bills"][0]["token"].as_str().unwrap().to_string();
    let total = o["total"].as_str().unwrap().to_string();
    assert_eq!(o["bills"][0]["amount"], total.as_str());

    // The page, in Thai by default and in English when the browser asks.
    let (s, headers, html) = page(app, &format!("/bill/{token}"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/html"));
    assert_eq!(headers["cache-control"], "private, no-store");
    assert!(headers["content-security-policy"].to_str().unwrap().contains("default-src 'none'"));
    assert!(html.contains("<html lang=\"th\">"), "Thai first");
    assert!(html.contains("ยอดที่ต้องชำระ") && html.contains(&format!("฿{total}")), "the amount to pay");
    assert!(html.contains(o["order_no"].as_str().unwrap()));
    assert!(html.contains("เสื้อยืดคอกลม") && html.contains("2 × ฿199.00") && html.contains("฿398.00"), "the lines");
    assert!(html.contains("สมหญิง รักดี") && html.contains("50200"), "the address");
    assert!(html.contains("data-testid=\"bill-qr\"") && html.contains("<svg"), "a PromptPay QR");
    assert!(html.contains("1234567890") && html.contains("ธนาคารกสิกรไทย"), "the bank account");
    assert!(!html.contains("120.00") && !html.to_lowercase().contains("cost"), "never a cost");
    // Light: one document, nothing else to fetch, small enough for a slow connection.
    assert!(html.len() < 40_000, "the page weighs {} bytes", html.len());
    assert!(!html.contains("<script") && !html.contains("<link"), "no script and no stylesheet to fetch");
    let (_, _, en) = page(app, &format!("/bill/{token}"), Some("en-US,en;q=0.9")).await;
    assert!(en.contains("<html lang=\"en\">") && en.contains("Amount to pay") && en.contains("Kasikornbank"));
    let (_, _, th) = page(app, &format!("/bill/{token}?lang=th"), Some("en-US")).await;
    assert!(th.contains("<html lang=\"th\">"), "the page's switch wins over the browser");

    // Unknown and malformed tokens find nothing, the same way.
    for bad in ["0123456789abcdef0123456789abcdef", "x", "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ", "%3Cscript%3E"] {
        let (s, _, html) = page(app, &format!("/bill/{bad}"), None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{bad}");
        assert!(html.contains("ไม่พบบิลนี้"), "{bad}");
    }

    // A file that is not a picture is refused on the page; nothing is made.
    let (s, _, html) = send_slip(app, &token, b"not a picture".to_vec(), "slip.png", pp).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{html}");
    assert!(html.contains("The slip must be a .jpg, .jpeg or .png file"), "{html}");
    let (s, _, html) = send_slip(app, &token, png(8, 8), "slip.png", 999_999).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(html.contains("Please choose an account from the list"));
    let (_, v) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!((v["payment_state"].as_str(), v["payments"].as_array().map(Vec::len)), (Some("unpaid"), Some(0)));

    // A slip: the bill's payment waits for the shop.
    let (s, location, _) = send_slip(app, &token, png(40, 60), "slip.png", pp).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    assert_eq!(location, format!("/bill/{token}?lang=en&sent=1"));
    let (_, _, html) = page(app, &location, None).await;
    assert!(html.contains("Your slip was received"));
    let (_, v) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(v["payment_state"], "pending");
    let p = &v["payments"][0];
    assert_eq!(
        (p["state"].as_str(), p["source"].as_str(), p["channel_type"].as_str()),
        (Some("pending"), Some("buyer"), Some("promptpay"))
    );
    assert_eq!(
        (p["amount"].as_str(), p["has_attachment"].as_bool(), p["store_channel_id"].as_i64()),
        (Some(total.as_str()), Some(true), Some(pp))
    );
    assert!(v["events"].as_array().unwrap().iter().any(|e| e["action"] == "payment_slip"));
    let (_, _, html) = page(app, &format!("/bill/{token}?lang=en"), None).await;
    assert!(html.contains("Waiting for the shop to confirm your payment"), "pending, and another slip may be sent");
    assert!(html.contains("bill-slip-form"));
    // The list filters by payment state.
    let (_, l) = app.get("/orders?payment-state=pending", &t).await;
    assert_eq!(l["total"], 1);

    // The slip, to the store's staff only.
    let pay = p["id"].as_i64().unwrap();
    let r = app
        .client
        .get(format!("{}/orders/{id}/payments/{pay}/attachment", app.base))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "image/png");
    let slip = r.bytes().await.unwrap();
    assert_eq!(image::load_from_memory(&slip).unwrap().width(), 40, "kept as the picture it was");
    let (_, other) = app.other_owner("slip-other@example.com").await;
    let (s, _) = app.get(&format!("/orders/{id}/payments/{pay}/attachment"), &other).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let r = app.client.get(format!("{}/orders/{id}/payments/{pay}/attachment", app.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    // The owner confirms; the page says paid and takes no more slips.
    let inv = p["bill_id"].as_i64().unwrap();
    let (s, v) = app.post(&format!("/orders/{id}/invoices/{inv}/payments/{pay}/confirm"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["payment_state"].as_str(), v["payments"][0]["state"].as_str()), (Some("paid"), Some("paid")));
    let (_, _, html) = page(app, &format!("/bill/{token}?lang=en"), None).await;
    assert!(html.contains("Paid. Thank you!") && !html.contains("bill-slip-form"));
    let (s, _, html) = send_slip(app, &token, png(8, 8), "slip.png", 0).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(html.contains("This bill is already paid"));
}

async fn staff_payments_and_the_rules_of_confirmation(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "SP1", w).await;
    stock_up(app, &t, w, red, 20).await;
    let (pp, bank) = accounts(app, &t).await;
    let new_order =
        || async { create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await["id"].as_i64().unwrap() };

    // Made without a slip: unpaid, and not confirmable; one live payment per bill.
    let a = new_order().await;
    let (s, v) = app.post(&format!("/orders/{a}/pay"), &t, json!({"store_channel_id": bank, "note": "โอนแล้ว"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let p = v["payments"][0].clone();
    assert_eq!(
        (p["state"].as_str(), p["source"].as_str(), p["channel_type"].as_str()),
        (Some("unpaid"), Some("staff"), Some("bank"))
    );
    let (pay, inv) = (p["id"].as_i64().unwrap(), p["bill_id"].as_i64().unwrap());
    let (s, v) = app.post(&format!("/orders/{a}/pay"), &t, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_exists"));
    let base = format!("/orders/{a}/invoices/{inv}/payments/{pay}");
    let (s, v) = app.post(&format!("{base}/confirm"), &t, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_attachment_required"));
    // Wrong input is refused on its field.
    let (s, v) = app.post(&format!("/orders/{a}/pay"), &t, json!({"store_channel_id": 987654})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"]["fields"][0]["code"], "validation.payment_channel_unknown");
    let (s, v) = app.post(&format!("{base}/pay"), &t, json!({"attachment": "nothing-here.png"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["fields"][0]["code"], "validation.attachment_unknown");
    let (s, v) = attachment(app, &t, b"GIF89a".to_vec()).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"]["fields"][0]["code"], "validation.photo_type");

    // A slip kept, then attached: pending; confirmed by whoever may approve.
    let (s, kept) = attachment(app, &t, png(20, 20)).await;
    assert_eq!(s, StatusCode::CREATED, "{kept}");
    let (s, v) =
        app.post(&format!("{base}/pay"), &t, json!({"attachment": kept["name"], "store_channel_id": pp})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["payment_state"].as_str(), v["payments"][0]["channel_type"].as_str()),
        (Some("pending"), Some("promptpay"))
    );
    assert_eq!(v["payments"][0]["note"], "โอนแล้ว", "the note stays");
    let reader =
        app.member_with(app.demo_store, "pay-reader@example.com", &["order.order.read", "payment.payment.read"]).await;
    let (s, _) = app.post(&format!("{base}/confirm"), &reader, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let approver = app.member_with(app.demo_store, "pay-approver@example.com", &["payment.payment.approve"]).await;
    let (s, v) = app.post(&format!("{base}/confirm"), &approver, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["payment_state"], "paid");
    assert!(v["payments"][0]["confirmed_at"].is_string());
    // Paid: the order's amounts cannot change under the payment, its note can.
    let (s, v) = app.patch(&format!("/orders/{a}"), &t, order(w, json!([{"sku_id": red, "quantity": 3}]))).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "order_payment_made"), "{v}");
    let mut same = order(w, json!([{"sku_id": red, "quantity": 1}]));
    same["note"] = json!("ห่อของขวัญ");
    let (s, v) = app.patch(&format!("/orders/{a}"), &t, same).await;
    assert_eq!(
        (s, v["payment_state"].as_str(), v["note"].as_str()),
        (StatusCode::OK, Some("paid"), Some("ห่อของขวัญ")),
        "{v}"
    );
    let (s, v) = app.post(&format!("{base}/confirm"), &t, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_already_confirmed"));
    let (s, v) = app.post(&format!("{base}/cancel"), &t, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_already_processed"));
    // Voiding a confirmed payment.
    let (s, v) = app.post(&format!("{base}/void"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["payment_state"].as_str(), v["payments"][0]["state"].as_str()), (Some("voided"), Some("voided")));
    // The bill takes a new payment after a void.
    let (s, v) = app.post(&format!("/orders/{a}/pay"), &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!((v["payments"].as_array().unwrap().len(), v["payment_state"].as_str()), (2, Some("unpaid")));

    // Voiding a pending payment makes it paid (SPEC §4).
    let b = new_order().await;
    let (_, kept) = attachment(app, &t, png(20, 20)).await;
    let (s, v) = app.post(&format!("/orders/{b}/pay"), &t, json!({"attachment": kept["name"]})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["payment_state"], "pending");
    let p = &v["payments"][0];
    let base_b = format!("/orders/{b}/invoices/{}/payments/{}", p["bill_id"], p["id"]);
    // That takes the right to approve as well as the right to void: money is taken as
    // paid only by someone who may approve it, whatever the path.
    let voider = app.member_with(app.demo_store, "pay-voider@example.com", &["payment.payment.delete"]).await;
    let (s, v) = app.post(&format!("{base_b}/void"), &voider, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "forbidden"), "{v}");
    let (_, v) = app.get(&format!("/orders/{b}"), &t).await;
    assert_eq!(v["payment_state"], "pending", "nothing changed");
    let both = app
        .member_with(app.demo_store, "pay-both@example.com", &["payment.payment.delete", "payment.payment.approve"])
        .await;
    let (s, v) = app.post(&format!("{base_b}/void"), &both, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["payment_state"], "paid");

    // A cancelled payment is not confirmed.
    let c = new_order().await;
    let (_, v) = app.post(&format!("/orders/{c}/pay"), &t, json!({})).await;
    let p = &v["payments"][0];
    let base_c = format!("/orders/{c}/invoices/{}/payments/{}", p["bill_id"], p["id"]);
    let (s, v) = app.post(&format!("{base_c}/cancel"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["payment_state"], "cancelled");
    let (s, v) = app.post(&format!("{base_c}/confirm"), &t, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_cancelled"));
    let (s, _) = app.post(&format!("{base_c}/explode"), &t, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // The path must name the payment's own bill.
    let (s, _) = app.post(&format!("/orders/{c}/invoices/{inv}/payments/{}/confirm", p["id"]), &t, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Cash on delivery: no slip, and confirmed only once shipped.
    let cod_channel = post_channel(app, &t, w, true).await;
    let mut body = order(w, json!([{"sku_id": red, "quantity": 1}]));
    body["logistic_store_channel_id"] = json!(cod_channel);
    body["cod"] = json!(true);
    let d = create(app, &t, body).await;
    let (d, token) = (d["id"].as_i64().unwrap(), d["bills"][0]["token"].as_str().unwrap().to_string());
    let (_, v) = app.post(&format!("/orders/{d}/pay"), &t, json!({})).await;
    let p = &v["payments"][0];
    let (s, v) =
        app.post(&format!("/orders/{d}/invoices/{}/payments/{}/confirm", p["bill_id"], p["id"]), &t, json!({})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_cod_not_shipped"));
    let (_, _, html) = page(app, &format!("/bill/{token}?lang=en"), None).await;
    assert!(html.contains("Cash on delivery") && !html.contains("bill-slip-form"));

    // Who may: making needs payment.payment.create; another store sees nothing.
    let (s, _) = app.post(&format!("/orders/{c}/pay"), &reader, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, other) = app.other_owner("pay-other@example.com").await;
    let (s, _) = app.post(&format!("/orders/{c}/pay"), &other, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.post(&format!("{base_c}/cancel"), &other, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = app.post(&format!("/orders/{c}/pay"), &t, json!({"attachment": "../../etc/passwd"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
}

/// The open bills pointing at a payment account, once the payments service has heard of
/// every bill event it waits for (`want`), or what it says after about ten seconds.
async fn open_bills_of(app: &TestApp, t: &str, account: i64, want: i64) -> i64 {
    let mut seen = -1;
    for _ in 0..200 {
        let (s, v) = app.get(&format!("/payments/store-channels/{account}"), t).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        seen = v["open_bills"].as_i64().unwrap();
        if seen == want {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    seen
}

/// SPEC §8: a payment account that an open bill shows the buyer cannot be deleted; once the
/// bill is paid or its order cancelled, it can. The orders service tells the payments service
/// when bills open and close.
async fn a_payment_account_of_an_open_bill_is_kept(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "KP1", w).await;
    stock_up(app, &t, w, red, 20).await;
    let (pp, bank) = accounts(app, &t).await;
    let (s, idle) = app
        .post(
            "/payments/store-channels",
            &t,
            json!({"channel_type": "bank", "country": "TH", "bank_code": "014", "acc_name": "ร้านดีดี",
                "acc_no": "5555555555", "branch": "สยาม", "status": "inactive"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{idle}");
    let idle = idle["id"].as_i64().unwrap();

    // Two open bills: each account their pages show is held by both.
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await["id"].as_i64().unwrap();
    let b = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await["id"].as_i64().unwrap();
    assert_eq!(open_bills_of(app, &t, bank, 2).await, 2);
    assert_eq!(open_bills_of(app, &t, pp, 2).await, 2);
    let (s, v) = app.delete(&format!("/payments/store-channels/{bank}"), &t).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "payment_channel_in_use"), "{v}");
    assert_eq!(
        v["error"]["message"],
        "Open bills still point at this account; it cannot be deleted until they are paid or closed"
    );
    // An inactive account is on no bill's page.
    assert_eq!(open_bills_of(app, &t, idle, 0).await, 0);
    let (s, v) = app.delete(&format!("/payments/store-channels/{idle}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");

    // One bill paid (a confirmed payment), the other order cancelled: the account is free.
    let (s, kept) = attachment(app, &t, png(20, 20)).await;
    assert_eq!(s, StatusCode::CREATED, "{kept}");
    let (s, v) =
        app.post(&format!("/orders/{a}/pay"), &t, json!({"attachment": kept["name"], "store_channel_id": bank})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let p = &v["payments"][0];
    let (s, v) =
        app.post(&format!("/orders/{a}/invoices/{}/payments/{}/confirm", p["bill_id"], p["id"]), &t, json!({})).await;
    assert_eq!((s, v["payment_state"].as_str()), (StatusCode::OK, Some("paid")), "{v}");
    assert_eq!(open_bills_of(app, &t, bank, 1).await, 1, "a paid bill lets go");
    let (s, v) = app.post("/orders/cancel", &t, json!({"ids": [b]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(open_bills_of(app, &t, bank, 0).await, 0, "a cancelled order's bill lets go");
    let (s, v) = app.delete(&format!("/payments/store-channels/{bank}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
}

async fn bulk_confirmation_and_the_review_list(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "BK1", w).await;
    stock_up(app, &t, w, red, 20).await;
    let (pp, _) = accounts(app, &t).await;
    let mut ids = Vec::new();
    let mut tokens = Vec::new();
    for _ in 0..4 {
        let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
        ids.push(o["id"].as_i64().unwrap());
        tokens.push(o["bills"][0]["token"].as_str().unwrap().to_string());
    }
    // Two buyers send slips; one order has a payment without a slip; one has none.
    for token in &tokens[..2] {
        let (s, _, _) = send_slip(app, token, png(10, 10), "slip.png", pp).await;
        assert_eq!(s, StatusCode::SEE_OTHER);
    }
    let (s, _) = app.post(&format!("/orders/{}/pay", ids[2]), &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED);

    // The review lists what waits.
    let (s, l) = app.get("/orders/payments?state=pending", &t).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    assert_eq!(l["total"], 2);
    let listed: Vec<i64> = l["data"].as_array().unwrap().iter().map(|p| p["order_id"].as_i64().unwrap()).collect();
    assert!(listed.contains(&ids[0]) && listed.contains(&ids[1]), "{l}");
    assert_eq!(l["data"][0]["payment"]["state"], "pending");
    assert!(l["data"][0]["order_no"].as_str().unwrap().starts_with("SO"));
    let (_, all) = app.get("/orders/payments", &t).await;
    assert_eq!(all["total"], 3);
    let (s, v) = app.get("/orders/payments?state=lost", &t).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");

    // What would happen, then doing it: two confirmed, two named with their reasons.
    let (s, pre) = app.post("/orders/payments/pre-confirm", &t, json!({"ids": ids})).await;
    assert_eq!(s, StatusCode::OK, "{pre}");
    assert_eq!(pre["confirmable"], 2);
    let reasons: Vec<(i64, bool, String)> = pre["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["order_id"].as_i64().unwrap(), r["ok"].as_bool().unwrap(), r["reason"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(
        reasons,
        vec![
            (ids[0], true, String::new()),
            (ids[1], true, String::new()),
            (ids[2], false, "payment_attachment_required".to_string()),
            (ids[3], false, "payment_attachment_required".to_string()),
        ]
    );
    let (_, still) = app.get(&format!("/orders/{}", ids[0]), &t).await;
    assert_eq!(still["payment_state"], "pending", "a pre-confirm changes nothing");
    let reader = app.member_with(app.demo_store, "bulk-reader@example.com", &["payment.payment.read"]).await;
    let (s, _) = app.post("/orders/payments/confirm", &reader, json!({"ids": ids})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, done) = app.post("/orders/payments/confirm", &t, json!({"ids": ids})).await;
    assert_eq!(s, StatusCode::OK, "{done}");
    assert_eq!(done["confirmable"], 2);
    assert_eq!(done["amount"], pre["amount"]);
    for id in &ids[..2] {
        let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
        assert_eq!(o["payment_state"], "paid");
    }
    // Again: already confirmed.
    let (_, again) = app.post("/orders/payments/confirm", &t, json!({"ids": [ids[0]]})).await;
    assert_eq!(
        (again["data"][0]["ok"].as_bool(), again["data"][0]["reason"].as_str()),
        (Some(false), Some("payment_already_confirmed"))
    );
    // Bounded, and of this store only.
    let (s, v) = app.post("/orders/payments/confirm", &t, json!({"ids": []})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let many: Vec<i64> = (1..=501).collect();
    let (s, v) = app.post("/orders/payments/pre-confirm", &t, json!({"ids": many})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("order.too_many_selected"))
    );
    let (_, other) = app.other_owner("bulk-other@example.com").await;
    let (_, v) = app.post("/orders/payments/confirm", &other, json!({"ids": [ids[0]]})).await;
    assert_eq!(v["data"][0]["reason"], "order_not_found");
    let (_, l) = app.get("/orders/payments", &other).await;
    assert_eq!(l["total"], 0);
}

/// SPEC allows slips of up to 5 MB, on the buyer's page and through the API alike: a 4.9 MB
/// picture is taken, a 5.1 MB one refused with the page's and the API's own words.
async fn slips_up_to_five_megabytes_are_taken(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "SZ1", w).await;
    stock_up(app, &t, w, red, 10).await;
    let (pp, _) = accounts(app, &t).await;
    let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let token = o["bills"][0]["token"].as_str().unwrap().to_string();
    const MB: usize = 1024 * 1024;
    let (under, over) = (crate::photos::noise_png(1300, 1317), crate::photos::noise_png(1300, 1371));
    assert!(under.len() > 4 * MB + 8 * MB / 10 && under.len() < 5 * MB, "about 4.9 MB: {}", under.len());
    assert!(over.len() > 5 * MB && over.len() < 5 * MB + 2 * MB / 10, "about 5.1 MB: {}", over.len());

    // Refused as the file streams past 5 MB (or, should one chunk carry it past the form's
    // bound at once, as too large a body).
    let (s, v) = attachment(app, &t, over.clone()).await;
    let too_large = v["error"]["fields"][0]["code"] == "photo_too_large" || code(&v) == "payload_too_large";
    assert!(matches!(s.as_u16(), 413 | 422) && too_large, "{s} {v}");
    let (s, v) = attachment(app, &t, under.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");

    let (s, _, html) = send_slip(app, &token, over, "slip.png", pp).await;
    assert!(matches!(s.as_u16(), 413 | 422), "{s}");
    assert!(html.contains("file must be at most 5 MB"), "the page says why: {html}");
    let (s, location, _) = send_slip(app, &token, under, "slip.png", pp).await;
    assert_eq!(s, StatusCode::SEE_OTHER, "taken: {location}");
    assert!(location.ends_with("sent=1"), "{location}");
}

/// The width of a payment's slip through the API (`slip` 0: its newest).
async fn slip_width(app: &TestApp, t: &str, order: i64, pay: i64, slip: i64) -> u32 {
    let q = if slip > 0 { format!("?slip={slip}") } else { String::new() };
    let r = app
        .client
        .get(format!("{}/orders/{order}/payments/{pay}/attachment{q}", app.base))
        .bearer_auth(t)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    image::load_from_memory(&r.bytes().await.unwrap()).unwrap().width()
}

/// Every slip a buyer sends is kept (a forwarded link cannot erase the first); a bill takes
/// ten; the order's timeline is cut to its newest entries; the page shows who the buyer is
/// only while the bill may be paid; the shop gives a bill a new link and the old one ends.
async fn the_bill_link_keeps_evidence_and_forgets_the_buyer(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "BL7", w).await;
    stock_up(app, &t, w, red, 10).await;
    let (pp, _) = accounts(app, &t).await;
    let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let id = o["id"].as_i64().unwrap();
    let token = o["bills"][0]["token"].as_str().unwrap().to_string();

    // The buyer's slip, then another from whoever holds the link: both kept.
    let (s, _, _) = send_slip(app, &token, png(40, 60), "slip.png", pp).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    let (s, _, _) = send_slip(app, &token, png(20, 20), "other.png", pp).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    let (_, v) = app.get(&format!("/orders/{id}"), &t).await;
    let p = &v["payments"][0];
    let pay = p["id"].as_i64().unwrap();
    let slips = p["slips"].as_array().unwrap();
    assert_eq!(slips.len(), 2, "{p}");
    assert!(slips.iter().all(|s| s["source"] == "buyer" && s["created_by"] == 0));
    let (first, second) = (slips[0]["id"].as_i64().unwrap(), slips[1]["id"].as_i64().unwrap());
    assert_eq!(slip_width(app, &t, id, pay, first).await, 40, "the first slip is still there");
    assert_eq!(slip_width(app, &t, id, pay, second).await, 20);
    assert_eq!(slip_width(app, &t, id, pay, 0).await, 20, "the newest is the payment's attachment");
    let (s, _) = app.get(&format!("/orders/{id}/payments/{pay}/attachment?slip=999999"), &t).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (other_store, other) = app.other_owner("slips-other@example.com").await;
    assert_ne!(other_store, app.demo_store);
    let (s, _) = app.get(&format!("/orders/{id}/payments/{pay}/attachment?slip={first}"), &other).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "another store's slip is not found");

    // Ten slips a bill: the eleventh is refused, translated, and nothing is kept of it.
    for _ in 2..10 {
        let (s, _, _) = send_slip(app, &token, png(8, 8), "slip.png", pp).await;
        assert_eq!(s, StatusCode::SEE_OTHER);
    }
    let (s, _, html) = send_slip(app, &token, png(8, 8), "slip.png", pp).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert!(html.contains("This bill has taken as many slips as it can"), "{html}");
    let (_, v) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(v["payments"][0]["slips"].as_array().unwrap().len(), 10);
    assert_eq!(app.staged_uploads().await, 0, "the refused slip is not left staged");

    // The timeline: its newest entries and how many there are.
    let db = bo_kit::db::Db::connect(&app.orders_db_url).await.unwrap();
    for _ in 0..4 {
        let values: Vec<String> = (0..100)
            .map(|_| {
                format!("({}, {id}, 'payment_slip', 'new', 'new', 0, '', {})", app.demo_store, bo_kit::time::now_ms())
            })
            .collect();
        sqlx::query(&format!(
            "INSERT INTO order_events (store_id, order_id, action, from_state, to_state, user_id, detail, created_at) \
             VALUES {}",
            values.join(", ")
        ))
        .execute(db.pool())
        .await
        .unwrap();
    }
    db.close().await;
    let (_, v) = app.get(&format!("/orders/{id}"), &t).await;
    let total = v["events_total"].as_i64().unwrap();
    assert!(total > 410, "{total}");
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), 300);
    assert!(events.windows(2).all(|w| w[0]["id"].as_i64() < w[1]["id"].as_i64()), "oldest first");

    // While the bill may be paid the page shows where the order goes; once paid, not.
    let (_, _, html) = page(app, &format!("/bill/{token}?lang=en"), None).await;
    assert!(html.contains("bill-address") && html.contains("สมหญิง รักดี"));
    let (s, v) =
        app.post(&format!("/orders/{id}/invoices/{}/payments/{pay}/confirm", p["bill_id"]), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, _, html) = page(app, &format!("/bill/{token}?lang=en"), None).await;
    assert!(html.contains("Paid. Thank you!"));
    assert!(
        !html.contains("bill-address") && !html.contains("สมหญิง") && !html.contains("0891112233"),
        "no personal data: {html}"
    );

    // A cancelled order's bill says so, without the buyer.
    let c = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let c_token = c["bills"][0]["token"].as_str().unwrap().to_string();
    let (s, _) = app.post(&format!("/orders/{}/cancel", c["id"]), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, _, html) = page(app, &format!("/bill/{c_token}?lang=en"), None).await;
    assert!(html.contains("This order was cancelled."));
    assert!(!html.contains("bill-address") && !html.contains("สมหญิง"), "{html}");

    // A new link: the old one finds nothing, the new one the bill; on the timeline.
    let n = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let (nid, inv) = (n["id"].as_i64().unwrap(), n["bills"][0]["id"].as_i64().unwrap());
    let old = n["bills"][0]["token"].as_str().unwrap().to_string();
    let reader = app.member_with(app.demo_store, "link-reader@example.com", &["order.order.read"]).await;
    let (s, _) = app.post(&format!("/orders/{nid}/invoices/{inv}/new-link"), &reader, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post(&format!("/orders/{nid}/invoices/{inv}/new-link"), &other, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "another store's order");
    let (s, v) = app.post(&format!("/orders/{nid}/invoices/{inv}/new-link"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let new = v["bills"][0]["token"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    let (s, _, html) = page(app, &format!("/bill/{old}"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(html.contains("ไม่พบบิลนี้"));
    let (s, _, _) = send_slip(app, &old, png(8, 8), "slip.png", pp).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _, _) = page(app, &format!("/bill/{new}"), None).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = app.get(&format!("/orders/{nid}"), &t).await;
    assert!(v["events"].as_array().unwrap().iter().any(|e| e["action"] == "bill_link_renewed"));
}

/// Slips per address and per bill a minute, on the page, translated.
async fn slips_are_limited_per_address() {
    let app = TestApp::start_with(crate::helpers::Stack::Embedded, |cfg| cfg.auth.slips_per_minute = 3).await.unwrap();
    let t = app.owner().await;
    let w = main_warehouse(&app, &t).await;
    let (red, _) = two_skus(&app, &t, "BLR", w).await;
    stock_up(&app, &t, w, red, 10).await;
    let (pp, _) = accounts(&app, &t).await;
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let o = create(&app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
        tokens.push(o["bills"][0]["token"].as_str().unwrap().to_string());
    }
    for i in 0..3 {
        let (s, _, _) = send_slip(&app, &tokens[i % 2], png(8, 8), "slip.png", pp).await;
        assert_eq!(s, StatusCode::SEE_OTHER, "slip {i}");
    }
    let (s, _, html) = send_slip(&app, &tokens[1], png(8, 8), "slip.png", pp).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert!(html.contains("มีการส่งสลิปจากที่นี่บ่อยเกินไป"), "in the page's language: {html}");
    assert!(html.contains("bill-slip-form"), "the page is still there to try again later");
    app.stop().await;
}

#[tokio::test]
async fn slips_are_limited_per_address_embedded() {
    slips_are_limited_per_address().await;
}

on_every_stack!(
    the_bill_link_keeps_evidence_and_forgets_the_buyer,
    slips_up_to_five_megabytes_are_taken,
    the_bill_page_shows_the_bill_and_takes_a_slip,
    a_payment_account_of_an_open_bill_is_kept,
    staff_payments_and_the_rules_of_confirmation,
    bulk_confirmation_and_the_review_list,
);
