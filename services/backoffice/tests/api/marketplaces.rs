//! Marketplace shops through the API (SPEC §7 Marketplaces), against the three sandboxes
//! (`bo-sandbox`), which check signatures, codes and tokens as the platforms do: the
//! marketplaces and whether they can be connected, the authorize link, spending the
//! redirect's code once, the shops and their settings, owner-only changes, isolation.

use bo_sandbox::lazada::LazadaSandbox;
use bo_sandbox::shopee::ShopeeSandbox;
use bo_sandbox::tiktok::TiktokSandbox;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};

pub(crate) struct Sandboxes {
    pub shopee: ShopeeSandbox,
    pub lazada: LazadaSandbox,
    pub tiktok: TiktokSandbox,
}

pub(crate) async fn sandboxes() -> Sandboxes {
    let shopee = ShopeeSandbox::start(2001887, "shopee-partner-key").await.unwrap();
    shopee.add_shop(14701711, "ร้านเสื้อ Shopee");
    shopee.add_shop(14701712, "ร้านที่สอง Shopee");
    let lazada = LazadaSandbox::start("123456", "lazada-app-secret").await.unwrap();
    lazada.add_shop("100200300", "ร้านเสื้อ Lazada");
    let tiktok = TiktokSandbox::start("29a39d", "tiktok-app-secret").await.unwrap();
    tiktok.add_shop("7494049642642441621", "ร้านเสื้อ TikTok");
    tiktok.register_redirect("https://bo.example/sale-channel-redirect");
    Sandboxes { shopee, lazada, tiktok }
}

pub(crate) async fn with_sandboxes(stack: Stack, sb: &Sandboxes) -> Option<TestApp> {
    let settings = |v: Value| figment::value::Value::serialize(v).unwrap();
    let shopee =
        settings(json!({"api_url": sb.shopee.base_url, "app_key": "2001887", "app_secret": "shopee-partner-key"}));
    let lazada = settings(
        json!({"api_url": format!("{}/rest", sb.lazada.base_url), "auth_url": format!("{}/rest", sb.lazada.base_url),
        "authorize_url": format!("{}/oauth/authorize", sb.lazada.base_url), "app_key": "123456", "app_secret": "lazada-app-secret"}),
    );
    let tiktok = settings(json!({"api_url": sb.tiktok.base_url, "auth_url": sb.tiktok.base_url,
        "authorize_url": format!("{}/open/authorize", sb.tiktok.base_url), "app_key": "29a39d", "app_secret": "tiktok-app-secret",
        "service_id": "7100"}));
    TestApp::start_with(stack, |cfg| {
        let s = &mut cfg.service("marketplaces").settings;
        s.insert("shopee".into(), shopee);
        s.insert("lazada".into(), lazada);
        s.insert("tiktok_shop".into(), tiktok);
        s.insert("public_url".into(), figment::value::Value::from("https://bo.example"));
        s.insert("timeout_ms".into(), figment::value::Value::from(5000));
        // Tests poll when they mean to (the scheduled poll would race them).
        s.insert("poll_every_ms".into(), figment::value::Value::from(3_600_000));
        s.insert("stock_push_every_ms".into(), figment::value::Value::from(100));
        // The sandboxes take any pace; the bench holds us to the platforms' limits.
        s.insert("stock_calls_per_second".into(), figment::value::Value::from(50));
    })
    .await
}

/// The store's default warehouse, once wms has made it.
pub(crate) async fn warehouse(app: &TestApp, token: &str) -> i64 {
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (_, w) = app.get("/wms/warehouses", token).await;
        if let Some(id) = w["data"][0]["id"].as_i64() {
            return id;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no warehouse");
}

/// An authorize link's state, checked for its shape.
async fn link(app: &TestApp, token: &str, mp: &str) -> (String, String) {
    let (s, v) = app.get(&format!("/marketplaces/{mp}/auth-url"), token).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    (v["url"].as_str().unwrap().to_string(), v["state"].as_str().unwrap().to_string())
}

async fn shops_connect_once_and_are_the_owners(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;

    let (_, v) = app.get("/marketplaces/channels", &t).await;
    let listed: Vec<(&str, &str, bool)> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["marketplace"].as_str().unwrap(), m["path"].as_str().unwrap(), m["configured"].as_bool().unwrap()))
        .collect();
    assert_eq!(listed, [("shopee", "shopee", true), ("lazada", "lazada", true), ("tiktok_shop", "tiktok-shop", true)]);

    // Shopee: the link is signed and lands on the platform's page.
    let (url, state) = link(&app, &t, "shopee").await;
    assert!(state.starts_with(&format!("{}.shopee.", app.demo_store)), "{state}");
    let page = reqwest::get(&url).await.unwrap();
    assert_eq!(page.status(), 200, "{url}");
    assert!(page.text().await.unwrap().contains("ร้านเสื้อ Shopee"));
    assert!(url.contains(&urlencode("https://bo.example/sale-channel-redirect?state=")), "{url}");

    // A code the platform never gave is refused, and the state is spent with it.
    let (s, v) = app
        .post("/marketplaces/shopee/connect", &t, json!({"state": state, "code": "made-up", "shop_id": "14701711"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_token_expired")), "{v}");
    let code = sb.shopee.authorize(14701711);
    let (s, v) = app
        .post("/marketplaces/shopee/connect", &t, json!({"state": state, "code": code, "shop_id": "14701711"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_state_invalid")), "{v}");

    let (_, state) = link(&app, &t, "shopee").await;
    let (s, v) = app
        .post("/marketplaces/shopee/connect", &t, json!({"state": state, "code": code, "shop_id": "14701711"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let shopee = &v["data"][0];
    assert_eq!((shopee["shop_name"].as_str(), shopee["status"].as_str()), (Some("ร้านเสื้อ Shopee"), Some("active")));
    assert_eq!(shopee["is_token_expire"], false);
    assert!(!shopee["token_expire_at"].as_str().unwrap().is_empty());
    let shopee_id = shopee["id"].as_i64().unwrap();

    // Lazada and TikTok Shop (whose path is tiktok-shop).
    let (url, state) = link(&app, &t, "lazada").await;
    assert!(url.starts_with(&format!("{}/oauth/authorize?", sb.lazada.base_url)), "{url}");
    let code = sb.lazada.authorize("100200300");
    let (s, v) = app.post("/marketplaces/lazada/connect", &t, json!({"state": state, "code": code})).await;
    assert_eq!((s, v["data"][0]["shop_name"].as_str()), (StatusCode::CREATED, Some("ร้านเสื้อ Lazada")), "{v}");
    let (_, state) = link(&app, &t, "tiktok-shop").await;
    let code = sb.tiktok.authorize("seller");
    let (s, v) = app.post("/marketplaces/tiktok-shop/connect", &t, json!({"state": state, "code": code})).await;
    assert_eq!((s, v["data"][0]["marketplace"].as_str()), (StatusCode::CREATED, Some("tiktok_shop")), "{v}");
    let (s, _) = app.get("/marketplaces/tiktok_shopx/auth-url", &t).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // The list and its filters; no token ever comes back.
    let (_, v) = app.get("/marketplaces/store-channels", &t).await;
    assert_eq!(v["total"], 3);
    assert!(!v.to_string().contains("access_token") && !v.to_string().contains("TTP_"), "{v}");
    let (_, v) = app.get("/marketplaces/store-channels?marketplace=lazada", &t).await;
    assert_eq!(v["data"][0]["shop_id"], "100200300");
    let (_, v) = app.get("/marketplaces/store-channels?is-token-expire=true&status=active", &t).await;
    assert_eq!(v["total"], 0);
    let (s, _) = app.get("/marketplaces/store-channels?status=gone", &t).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);

    // Connecting a shop again keeps its row.
    let (_, state) = link(&app, &t, "shopee").await;
    let code = sb.shopee.authorize(14701711);
    let (s, v) = app
        .post("/marketplaces/shopee/reconnect", &t, json!({"state": state, "code": code, "shop_id": "14701711"}))
        .await;
    assert_eq!((s, v["data"][0]["id"].as_i64()), (StatusCode::OK, Some(shopee_id)), "{v}");

    // Settings: checked against the store's warehouses, shipping channels and accounts.
    let wh = warehouse(&app, &t).await;
    let path = format!("/marketplaces/store-channels/{shopee_id}");
    let (s, v) = app.patch(&path, &t, json!({"warehouse_id": wh + 1000})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.warehouse_unknown"))
    );
    let (s, v) = app.patch(&path, &t, json!({"logistic_channel_id": 987654})).await;
    assert_eq!(v["error"]["fields"][0]["code"], "validation.logistic_channel_unknown", "{s} {v}");
    let (s, v) = app.patch(&path, &t, json!({"payment_channel_id": 987654})).await;
    assert_eq!(v["error"]["fields"][0]["code"], "validation.payment_channel_unknown", "{s} {v}");
    let (s, v) = app.patch(&path, &t, json!({"status": "paused"})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.status"))
    );
    let (_, pay) = app
        .post("/payments/store-channels", &t, json!({"channel_type": "cod", "acc_name": "COD", "acc_no": "1234567890"}))
        .await;
    let (_, ship) = app
        .post(
            "/logistics/store-channels",
            &t,
            json!({"warehouse_id": wh, "logistic_type": "domestic", "name": "Flash", "provider_name": "flash", "pricing_method": "flat", "price": "30"}),
        )
        .await;
    let (s, v) = app
        .patch(&path, &t, json!({"warehouse_id": wh, "logistic_channel_id": ship["id"], "payment_channel_id": pay["id"], "status": "inactive"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["warehouse_id"].as_i64(), v["status"].as_str()), (Some(wh), Some("inactive")));
    assert_eq!(v["logistic_channel_id"], ship["id"]);
    let (_, v) = app.get(&path, &t).await;
    assert_eq!(v["payment_channel_id"], pay["id"]);

    // Staff read the shops (for the lost-connection notice) but change nothing.
    let staff = app.member_with(app.demo_store, "mkp-staff@example.com", &["order.order.all"]).await;
    let (s, _) = app.get("/marketplaces/store-channels", &staff).await;
    assert_eq!(s, StatusCode::OK);
    for (s, what) in [
        (app.get("/marketplaces/shopee/auth-url", &staff).await.0, "auth-url"),
        (app.patch(&path, &staff, json!({"status": "active"})).await.0, "patch"),
        (app.post("/marketplaces/shopee/connect", &staff, json!({"state": "x", "code": "y"})).await.0, "connect"),
    ] {
        assert_eq!(s, StatusCode::FORBIDDEN, "{what}");
    }

    // Another store sees none of it, cannot spend this store's link, nor take its shop.
    let (_, other) = app.other_owner("mkp-other@example.com").await;
    let (s, _) = app.get(&path, &other).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, v) = app.get("/marketplaces/store-channels", &other).await;
    assert_eq!(v["total"], 0);
    let (_, ours) = link(&app, &t, "shopee").await;
    let code = sb.shopee.authorize(14701712);
    let (s, v) = app
        .post("/marketplaces/shopee/connect", &other, json!({"state": ours, "code": code, "shop_id": "14701712"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_state_invalid")));
    let (_, theirs) = link(&app, &other, "shopee").await;
    let code = sb.shopee.authorize(14701711);
    let (s, v) = app
        .post("/marketplaces/shopee/connect", &other, json!({"state": theirs, "code": code, "shop_id": "14701711"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_shop_taken")), "{v}");

    // Unlinking is the owner's, in the store's own shops only; the shop is then gone.
    let (_, v) = app.get("/marketplaces/store-channels?marketplace=lazada", &t).await;
    let lazada = format!("/marketplaces/store-channels/{}", v["data"][0]["id"]);
    assert_eq!(app.delete(&lazada, &staff).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.delete(&lazada, &other).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.delete(&lazada, &t).await.0, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&lazada, &t).await.0, StatusCode::NOT_FOUND);
    let (_, v) = app.get("/marketplaces/store-channels", &t).await;
    assert_eq!(v["total"], 2);
    app.stop().await;
}

fn urlencode(s: &str) -> String {
    reqwest::Url::parse_with_params("http://x/", &[("q", s)]).unwrap().query().unwrap()[2..].to_string()
}

async fn an_unregistered_app_says_what_to_set(stack: Stack) {
    let Some(app) = TestApp::start(stack).await else { return };
    let t = app.owner().await;
    let (_, v) = app.get("/marketplaces/channels", &t).await;
    assert_eq!(v["data"][0]["configured"], false);
    assert_eq!(
        v["data"][0]["missing_settings"],
        json!(["services.marketplaces.shopee.app_key", "services.marketplaces.shopee.app_secret"])
    );
    assert_eq!(v["data"][2]["missing_settings"].as_array().unwrap().len(), 3);
    let (s, v) = app.get("/marketplaces/shopee/auth-url", &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("marketplace_not_configured")));
    app.stop().await;
}

/// The sales channels an order can come from are the marketplaces service's catalogue; an
/// order of a channel it does not list is refused, one it lists is taken.
async fn the_order_channels_are_the_marketplaces_catalogue(stack: Stack) {
    let Some(app) = TestApp::start(stack).await else { return };
    let t = app.owner().await;
    let (s, v) = app.get("/orders/channels", &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let listed: Vec<(&str, &str)> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["code"].as_str().unwrap(), c["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("shopee", "marketplace"),
            ("lazada", "marketplace"),
            ("tiktok_shop", "marketplace"),
            ("facebook", "social_commerce"),
            ("line", "social_commerce"),
            ("instagram", "social_commerce"),
            ("website", "website"),
            ("open_api", "open_api"),
        ]
    );
    assert_eq!((v["data"][3]["name_th"].as_str(), v["data"][3]["name_en"].as_str()), (Some("เฟซบุ๊ก"), Some("Facebook")));
    let w = warehouse(&app, &t).await;
    let order = |channel: &str| {
        json!({"channel": channel, "warehouse_id": w, "shipping_address": {"name": "มานี", "tel": "0891112233"},
            "items": [{"sku_id": 1, "quantity": 1}]})
    };
    let (s, v) = app.post("/orders", &t, order("myspace")).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["field"] == "channel" && f["code"] == "validation.channel_unknown"),
        "{v}"
    );
    let (_, v) = app.post("/orders", &t, order("instagram")).await;
    assert!(!v["error"]["fields"].as_array().into_iter().flatten().any(|f| f["field"] == "channel"), "{v}");
    app.stop().await;
}

async fn a_whitelisted_marketplace_is_open_to_its_stores_only(stack: Stack) {
    let sb = sandboxes().await;
    let settings = |v: Value| figment::value::Value::serialize(v).unwrap();
    let shopee =
        settings(json!({"api_url": sb.shopee.base_url, "app_key": "2001887", "app_secret": "shopee-partner-key"}));
    let Some(app) = TestApp::start_with(stack, |cfg| {
        let s = &mut cfg.service("marketplaces").settings;
        s.insert("shopee".into(), shopee);
        s.insert("whitelist".into(), settings(json!({"shopee": {"is_white_list": true, "store_ids": [999_999]}})));
    })
    .await
    else {
        return;
    };
    let t = app.owner().await;
    let (_, v) = app.get("/marketplaces/channels", &t).await;
    assert_eq!(
        (v["data"][0]["configured"].as_bool(), v["data"][0]["allowed"].as_bool()),
        (Some(true), Some(false)),
        "{v}"
    );
    assert_eq!(v["data"][1]["allowed"], true, "Lazada lists no whitelist: open to every store");
    let (s, v) = app.get("/marketplaces/shopee/auth-url", &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("marketplace_not_allowed")), "{v}");
    let code = sb.shopee.authorize(14701711);
    let (s, _) =
        app.post("/marketplaces/shopee/connect", &t, json!({"state": "x", "code": code, "shop_id": "14701711"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn a_whitelisted_marketplace_is_open_to_its_stores_only() {
        super::a_whitelisted_marketplace_is_open_to_its_stores_only(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn shops_connect_once_and_are_the_owners() {
        super::shops_connect_once_and_are_the_owners(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn an_unregistered_app_says_what_to_set() {
        super::an_unregistered_app_says_what_to_set(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn the_order_channels_are_the_marketplaces_catalogue() {
        super::the_order_channels_are_the_marketplaces_catalogue(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn a_whitelisted_marketplace_is_open_to_its_stores_only() {
        super::a_whitelisted_marketplace_is_open_to_its_stores_only(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn shops_connect_once_and_are_the_owners() {
        super::shops_connect_once_and_are_the_owners(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn an_unregistered_app_says_what_to_set() {
        super::an_unregistered_app_says_what_to_set(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn the_order_channels_are_the_marketplaces_catalogue() {
        super::the_order_channels_are_the_marketplaces_catalogue(Stack::Postgres).await;
    }
}
