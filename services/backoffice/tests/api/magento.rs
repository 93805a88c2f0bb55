//! Magento 2 shops, on both stacks, against the Magento sandbox (`bo-sandbox`), which checks
//! bearer tokens and OAuth 1.0a signatures as Magento does and answers in its shapes: the
//! connection tried before a shop is saved (a bearer token Magento 2.4.4 refuses, a shop that
//! cannot be reached, an unknown store view or inventory source: 'Magento cannot connect'
//! with the field at fault, nothing saved), a shop connected by OAuth 1.0a, its orders polled
//! over their watermark (more than a page in one second and after it, one paid while the poll
//! reads: none missed, none twice), a cancellation followed, the SKUs it sold linked and their stock written to its
//! single stock, then to its inventory source; staff and another store refused.

use std::time::Duration;

use bo_sandbox::magento::{magento_line, Magento, MagentoOrder};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};
use crate::integrator::defaults;
use crate::marketplace_orders::{order_of, state_is};
use crate::orders::{level_becomes, stock_up, two_skus};

async fn app_for(stack: Stack) -> Option<TestApp> {
    TestApp::start_with(stack, |cfg| {
        let s = &mut cfg.service("marketplaces").settings;
        // Tests poll when they mean to; the scheduled poll only races them harmlessly.
        s.insert("poll_every_ms".into(), figment::value::Value::from(3_600_000));
        s.insert("stock_push_every_ms".into(), figment::value::Value::from(100));
        s.insert("timeout_ms".into(), figment::value::Value::from(5000));
    })
    .await
}

fn fields(e: &Value) -> Vec<(String, String)> {
    e["error"]["fields"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .map(|f| (f["field"].as_str().unwrap_or("").to_string(), f["code"].as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until `read` gives `want`.
async fn shows<T: PartialEq + std::fmt::Debug>(what: &str, want: T, read: impl Fn() -> T) {
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        if read() == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what} is {:?}, not {want:?}", read());
}

/// The store's orders of the website channel: (reference, id) by reference.
async fn website_orders(app: &TestApp, t: &str) -> Vec<(String, i64)> {
    let (_, v) = app.get("/orders?channel=website&limit=100", t).await;
    let mut out: Vec<(String, i64)> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["reference"].as_str().unwrap_or("").to_string(), o["id"].as_i64().unwrap()))
        .collect();
    out.sort();
    out
}

async fn a_magento_shop_is_connected_polled_and_told_its_stock(stack: Stack) {
    let shop = Magento::new();
    let sandbox = shop.serve().await.unwrap();
    let Some(app) = app_for(stack).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let (ship, pay) = defaults(&app, &t, w).await;
    let (red, blue) = two_skus(&app, &t, "MGT", w).await;
    stock_up(&app, &t, w, red, 10).await;
    stock_up(&app, &t, w, blue, 5).await;
    shop.add_product("MGT-R", 0);
    shop.add_product("MGT-B", 0);
    let creds = shop.integration();

    // Every rule of the form at once.
    let (s, e) = app.post("/marketplaces/magento-channels", &t, json!({"url": "ftp://x", "auth": "oauth1"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let got = fields(&e);
    for (f, code) in [
        ("name", "validation.required"),
        ("warehouse_id", "validation.required"),
        ("logistic_channel_id", "validation.required"),
        ("payment_channel_id", "validation.required"),
        ("url", "validation.magento_url"),
        ("access_token", "validation.required"),
        ("consumer_key", "validation.required"),
    ] {
        assert!(got.contains(&(f.to_string(), code.to_string())), "{f} {code} in {got:?}");
    }
    let (s, key) = app.post("/marketplaces/store-channels/generate-key", &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{key}");
    let form = |url: &str, auth: &str, store: &str, source: &str| {
        json!({"name": "ร้าน Magento", "url": url, "store_code": store, "auth": auth,
            "access_token": creds.access_token, "access_token_secret": creds.access_token_secret,
            "consumer_key": creds.consumer_key, "consumer_secret": creds.consumer_secret, "source_code": source,
            "warehouse_id": w, "logistic_channel_id": ship, "payment_channel_id": pay, "key_id": key["key_id"]})
    };

    // Magento 2.4.4 and later refuse an integration token as a bearer by default; an address
    // that answers nothing; a store view the shop does not have: each named, nothing saved.
    shop.allow_bearer(false);
    for (body, field, code) in [
        (form(&sandbox.base_url, "bearer", "", ""), "access_token", "magento.bearer_refused"),
        (form("http://127.0.0.1:9", "oauth1", "", ""), "url", "magento.unreachable"),
        (form(&sandbox.base_url, "oauth1", "nowhere", ""), "store_code", "magento.store_unknown"),
        (form(&sandbox.base_url, "oauth1", "", "th_wh"), "source_code", "magento.no_msi"),
    ] {
        let (s, e) = app.post("/marketplaces/magento-channels", &t, body).await;
        assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("magento_cannot_connect")), "{e}");
        assert_eq!(fields(&e), vec![(field.to_string(), code.to_string())]);
    }
    let (_, none) = app.get("/marketplaces/magento-channels", &t).await;
    assert_eq!(none["data"].as_array().map(Vec::len), Some(0), "nothing was saved: {none}");

    // Connected by OAuth 1.0a; its credentials never come back; its token works once given.
    let (s, ch) = app.post("/marketplaces/magento-channels", &t, form(&sandbox.base_url, "oauth1", "", "")).await;
    assert_eq!(s, StatusCode::CREATED, "{ch}");
    let id = ch["id"].as_i64().unwrap();
    assert_eq!((ch["auth"].as_str(), ch["store_code"].as_str()), (Some("oauth1"), Some("default")));
    assert_eq!(ch["keys"][0]["working"], true, "{ch}");
    for secret in [&creds.access_token, &creds.access_token_secret, &creds.consumer_secret] {
        assert!(!ch.to_string().contains(secret.as_str()), "a credential came back: {ch}");
    }
    let (_, open_api) = app.get("/open-api/store-channels", &t).await;
    assert_eq!(open_api["data"].as_array().map(Vec::len), Some(0), "it is listed as a Magento shop only");
    let (s, e) = app.post("/marketplaces/store-channels/generate-key", &t, json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{e}");

    // Orders: 60 changed in one second (more than a page of 50), two later, one of ours.
    let second = "2026-12-06 10:00:00";
    for n in 1..=60 {
        shop.put_order(MagentoOrder::new(n, "pending_payment", second, vec![magento_line("MUG-X", "แก้ว", 1, "99.00")]));
    }
    let mut ours = MagentoOrder::new(
        61,
        "processing",
        "2026-12-06 10:00:05",
        vec![magento_line("MGT-R", "เสื้อยืด แดง", 2, "199.00"), magento_line("MUG-X", "แก้ว", 1, "99.00")],
    );
    ours.lines[0].configurable = true;
    ours.shipping_amount = "40.00".into();
    ours.discount_amount = "-10.00".into();
    shop.put_order(ours);
    shop.put_order(MagentoOrder::new(
        62,
        "canceled",
        "2026-12-06 10:00:05",
        vec![magento_line("MUG-X", "แก้ว", 1, "99.00")],
    ));
    // The buyer of order 5 pays while the poll reads: it moves from the first page to after
    // the last (a poll by page number would then skip the order that moved up into its place).
    shop.change_while_polled(2, 5, "processing", "2026-12-06 10:00:08");
    let path = format!("/marketplaces/magento-channels/{id}");
    let (s, v) = app.post(&format!("{path}/sync"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["poll_error"], "", "{v}");
    let listed = website_orders(&app, &t).await;
    assert_eq!(listed.len(), 62, "every order once, none missed at a page boundary");
    let calls = shop.calls();
    assert!(
        calls.iter().all(|c| !c.contains("currentPage%5D=2") && !c.contains("currentPage]=2")),
        "never by page number"
    );
    // The order paid mid-poll was taken in again at its new change.
    let paid = |o: &Value| o["payment_state"] == "paid";
    order_of(&app, &t, "website", "000000005", paid).await;

    // Polled again: nothing new, nothing twice.
    let (_, again) = app.post(&format!("{path}/sync"), &t, json!({})).await;
    assert_eq!(again["orders_taken"], 0, "{again}");
    assert_eq!(website_orders(&app, &t).await.len(), 62);

    // Ours: paid, its child line left out, at what the buyer pays, holding our stock.
    let o = order_of(&app, &t, "website", "000000061", |_| true).await;
    assert_eq!((o["state"].as_str(), o["payment_state"].as_str()), (Some("new"), Some("paid")), "{o}");
    let items = o["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{o}");
    assert_eq!((items[0]["sku_id"].as_i64(), items[0]["quantity"].as_i64()), (Some(red), Some(2)));
    assert_eq!(o["total"], "527.00", "2 × 199 + 99 + 40 − 10: {o}");
    assert_eq!(o["store_channel_id"].as_i64(), Some(id));
    level_becomes(&app, &t, w, red, (10, 2)).await;
    let cancelled = order_of(&app, &t, "website", "000000062", |_| true).await;
    assert_eq!(cancelled["state"], "cancelled", "{cancelled}");

    // The SKU it sold is linked: its single stock is told what is free.
    shows("MGT-R in Magento", Some((8.0, true)), || shop.stock("MGT-R")).await;
    assert_eq!(shop.stock("MGT-B"), Some((0.0, false)), "an SKU it never sold is not linked, so not told");

    // The shop cancels our paid order: it follows, its stock comes back and is told.
    shop.set_state(61, "canceled", "2026-12-06 10:07:00");
    app.post(&format!("{path}/sync"), &t, json!({})).await;
    order_of(&app, &t, "website", "000000061", state_is("cancelled")).await;
    level_becomes(&app, &t, w, red, (10, 0)).await;
    shows("MGT-R in Magento", Some((10.0, true)), || shop.stock("MGT-R")).await;

    // Multi-source inventory: an unknown source is refused, a known one is written to.
    shop.use_msi(&["default", "th_wh"]);
    let edit = |source: &str, version: &Value| {
        json!({"name": "ร้าน Magento", "url": sandbox.base_url, "auth": "oauth1", "source_code": source,
            "warehouse_id": w, "logistic_channel_id": ship, "payment_channel_id": pay, "version": version})
    };
    let (_, now) = app.get(&path, &t).await;
    let (s, e) = app.patch(&path, &t, edit("bkk", &now["version"])).await;
    assert_eq!((s, fields(&e)), (StatusCode::CONFLICT, vec![("source_code".into(), "magento.source_unknown".into())]));
    let (s, v) = app.patch(&path, &t, edit("th_wh", &now["version"])).await;
    assert_eq!((s, v["source_code"].as_str()), (StatusCode::OK, Some("th_wh")), "credentials left empty are kept: {v}");
    stock_up(&app, &t, w, red, 1).await;
    shows("MGT-R at th_wh", Some((11.0, 1)), || shop.source_item("MGT-R", "th_wh")).await;

    // Staff read but change nothing; another store sees none of it.
    let staff = app.member_with(app.demo_store, "magento-staff@example.com", &["order.order.all"]).await;
    assert_eq!(app.get(&path, &staff).await.0, StatusCode::OK);
    assert_eq!(app.post(&format!("{path}/sync"), &staff, json!({})).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.patch(&path, &staff, edit("th_wh", &json!(0))).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post("/marketplaces/store-channels/generate-key", &staff, json!({})).await.0, StatusCode::FORBIDDEN);
    let (_, other) = app.other_owner("magento-other@example.com").await;
    let (s, e) = app.get(&path, &other).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("magento_channel_not_found")));
    assert_eq!(app.post(&format!("{path}/sync"), &other, json!({})).await.0, StatusCode::NOT_FOUND);
    let (_, v) = app.get("/marketplaces/magento-channels", &other).await;
    assert_eq!(v["data"].as_array().map(Vec::len), Some(0));
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn a_magento_shop_is_connected_polled_and_told_its_stock() {
        super::a_magento_shop_is_connected_polled_and_told_its_stock(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn a_magento_shop_is_connected_polled_and_told_its_stock() {
        super::a_magento_shop_is_connected_polled_and_told_its_stock(Stack::Postgres).await;
    }
}
