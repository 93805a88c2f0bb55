//! A connected shop's listings through the API against the sandboxes: 120 Shopee listings
//! imported through the marketplace's API in three pages, those whose seller SKU is one of our
//! codes linked and the rest left waiting; automatic links by seller SKU (with an ignored
//! prefix) and by name; a person's link, a bundle and an unlink; products made from listings;
//! a listing deleted at the marketplace losing its link; each stock rule pushing what it
//! says; an unlinked listing never pushed; permissions and isolation.

use std::time::Duration;

use bo_sandbox::Listing;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Stack, TestApp};
use crate::marketplaces::{sandboxes, with_sandboxes, Sandboxes};
use crate::orders::stock_up;

const SHOP: i64 = 14701711;

/// Connects the Shopee sandbox's shop and sets its warehouse: its id.
pub(crate) async fn shopee(app: &TestApp, t: &str, sb: &Sandboxes, w: i64) -> i64 {
    let (_, v) = app.get("/marketplaces/shopee/auth-url", t).await;
    let state = v["state"].as_str().unwrap().to_string();
    let code = sb.shopee.authorize(SHOP);
    let (s, v) = app
        .post("/marketplaces/shopee/connect", t, json!({"state": state, "code": code, "shop_id": SHOP.to_string()}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["data"][0]["id"].as_i64().unwrap();
    let (s, v) = app.patch(&format!("/marketplaces/store-channels/{id}"), t, json!({"warehouse_id": w})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    id
}

/// A product of one SKU per code: the SKUs' ids in order (and their products' beside).
pub(crate) async fn products(app: &TestApp, t: &str, w: i64, items: &[(&str, &str)]) -> Vec<i64> {
    products_of(app, t, w, items).await.into_iter().map(|(sku, _)| sku).collect()
}

async fn products_of(app: &TestApp, t: &str, w: i64, items: &[(&str, &str)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for (code, name) in items {
        let (s, p) = app
            .post(
                "/products",
                t,
                json!({"name": name, "short_description": name, "code": code, "category_id": 1, "price": "100",
                    "cost": "60", "tags": ["ทดสอบ"], "skus": [{"code": code, "price": "100", "cost": "60"}]}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{p}");
        let sku = p["skus"][0]["id"].as_i64().unwrap();
        crate::helpers::wait_until_stock_knows(app, t, w, sku).await;
        out.push((sku, p["id"].as_i64().unwrap()));
    }
    out
}

/// Waits until an import is done: its body.
pub(crate) async fn imported(app: &TestApp, t: &str, id: i64) -> Value {
    let mut last = Value::Null;
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (_, v) = app.get(&format!("/products/marketplace/imports/{id}"), t).await;
        if v["state"] != "running" {
            return v;
        }
        last = v;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the import never finished: {last}");
}

/// Waits until `read` gives `want`.
async fn until<T: PartialEq + std::fmt::Debug>(what: &str, want: T, read: impl Fn() -> T) {
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        if read() == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what}: {:?}, not {want:?}", read());
}

/// The listing of the shop with this item and model.
async fn listing_of(app: &TestApp, t: &str, shop: i64, search: &str) -> Value {
    let (s, v) = app.get(&format!("/marketplaces/store-channels/{shop}/listings?search={search}&limit=50"), t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["data"].as_array().unwrap().iter().find(|l| l["item_id"] == search).cloned().unwrap_or(Value::Null)
}

async fn a_shops_listings_are_imported_linked_and_left_for_a_person(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    // 120 listings: 40 carry our codes, 10 our codes behind a prefix, 10 our names only, the
    // rest nothing of ours; one of ours has two models.
    let ours: Vec<(String, String)> = (0..60).map(|i| (format!("TEE-{i:03}"), format!("เสื้อยืด รุ่น {i}"))).collect();
    let refs: Vec<(&str, &str)> = ours.iter().map(|(c, n)| (c.as_str(), n.as_str())).collect();
    let made = products_of(&app, &t, w, &refs).await;
    let skus: Vec<i64> = made.iter().map(|(s, _)| *s).collect();
    for i in 0..120i64 {
        let (sku, name) = match i {
            0..40 => (format!("TEE-{i:03}"), format!("เสื้อ {i}")),
            40..50 => (format!("PROMO-TEE-{i:03}"), format!("เสื้อ {i}")),
            50..60 => (String::new(), format!("เสื้อยืด  รุ่น {i}")),
            _ => (format!("OTHER-{i}"), format!("อื่น ๆ {i}")),
        };
        let item = (500_000 + i).to_string();
        sb.shopee.put_listing(SHOP, Listing::new(&item, "", &name, &sku, "159.00"), 7);
    }
    let shop = shopee(&app, &t, &sb, w).await;

    // The import: three pages of 50 items.
    let (s, v) = app
        .post("/products/marketplace/shopee/import", &t, json!({"store_channel_id": shop, "create_products": false}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let again = app.post("/products/marketplace/shopee/import", &t, json!({"store_channel_id": shop})).await.1;
    assert!(again["id"] == v["id"] || again["state"] != "running", "one import of a shop runs at a time: {again}");
    let done = imported(&app, &t, v["id"].as_i64().unwrap()).await;
    assert_eq!(
        (done["state"].as_str(), done["pages"].as_i64(), done["seen"].as_i64(), done["linked"].as_i64()),
        (Some("done"), Some(3), Some(120), Some(40)),
        "{done}"
    );
    assert_eq!((done["unlinked"].as_i64(), done["total"].as_i64()), (Some(80), Some(120)));
    let (_, rows) =
        app.get(&format!("/products/marketplace/imports/{}/listings?outcome=linked&limit=5", done["id"]), &t).await;
    assert_eq!((rows["total"].as_i64(), rows["data"][0]["outcome"].as_str()), (Some(40), Some("linked")), "{rows}");

    // The queue: those waiting first.
    let (_, page) = app.get(&format!("/marketplaces/store-channels/{shop}/listings?limit=10"), &t).await;
    assert_eq!(
        (page["waiting"].as_i64(), page["linked"].as_i64(), page["total"].as_i64()),
        (Some(80), Some(40), Some(120))
    );
    assert!(page["data"].as_array().unwrap().iter().all(|l| l["sku_id"].is_null()), "{page}");
    let (_, linked) = app.get(&format!("/marketplaces/store-channels/{shop}/listings?linked=true&limit=-1"), &t).await;
    assert_eq!(linked["total"], 40);
    assert_eq!(linked["data"][0]["linked_by"], "import");
    // A linked listing's stock goes out: 0 of ours on hand.
    until("500000 at Shopee", Some(0), || sb.shopee.stock(SHOP, 500_000, 0)).await;

    // Automatic links: the prefix ignored once the store says so, then names.
    let (_, r) = app.post(&format!("/marketplaces/store-channels/{shop}/listings/auto-link"), &t, json!({})).await;
    assert_eq!((r["by_seller_sku"].as_i64(), r["waiting"].as_i64()), (Some(0), Some(80)), "{r}");
    let (s, rule) = app.post("/marketplaces/match-rules", &t, json!({"kind": "prefix", "text": "PROMO-"})).await;
    assert_eq!(s, StatusCode::CREATED, "{rule}");
    let (_, r) = app
        .post(&format!("/marketplaces/store-channels/{shop}/listings/auto-link"), &t, json!({"by_name": true}))
        .await;
    assert_eq!(
        (r["by_seller_sku"].as_i64(), r["by_name"].as_i64(), r["waiting"].as_i64()),
        (Some(10), Some(10), Some(60)),
        "{r}"
    );
    let by_name = listing_of(&app, &t, shop, "500055").await;
    assert_eq!((by_name["sku_id"].as_i64(), by_name["linked_by"].as_str()), (Some(skus[55]), Some("auto")));

    // A person links one by hand; an automatic link never takes it back.
    let other = listing_of(&app, &t, shop, "500070").await;
    let (s, l) =
        app.post(&format!("/marketplaces/listings/{}/link", other["id"]), &t, json!({"sku_id": skus[1]})).await;
    assert_eq!((s, l["linked_by"].as_str()), (StatusCode::OK, Some("person")), "{l}");
    let (s, e) =
        app.post(&format!("/marketplaces/listings/{}/link", other["id"]), &t, json!({"sku_id": 999_999})).await;
    assert_eq!(
        (s, e["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.sku_unknown"))
    );
    stock_up(&app, &t, w, skus[1], 6).await;
    until("500070 at Shopee", Some(6), || sb.shopee.stock(SHOP, 500_070, 0)).await;
    until("500001 at Shopee", Some(6), || sb.shopee.stock(SHOP, 500_001, 0)).await;

    // Unlinked by a person (the SPEC's route, through its product): never pushed again.
    let product = made[1].1;
    let (s, u) = app.post(&format!("/products/{product}/shopee/{}/unlink", other["id"]), &t, json!({})).await;
    assert_eq!((s, u["linked_by"].as_str(), u["sku_id"].is_null()), (StatusCode::OK, Some("unlinked"), true), "{u}");
    let (s, _) = app.post(&format!("/products/{product}/lazada/{}/unlink", other["id"]), &t, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "the path names the wrong marketplace");
    stock_up(&app, &t, w, skus[1], 4).await;
    until("500001 at Shopee", Some(10), || sb.shopee.stock(SHOP, 500_001, 0)).await;
    assert_eq!(sb.shopee.stock(SHOP, 500_070, 0), Some(6), "an unlinked listing is never pushed");
    let (_, r) = app
        .post(&format!("/marketplaces/store-channels/{shop}/listings/auto-link"), &t, json!({"by_name": true}))
        .await;
    assert_eq!(r["by_seller_sku"], 0, "a person's unlink stands: {r}");

    // Products made from listings that match nothing: linked to their new SKUs.
    let waiting = listing_of(&app, &t, shop, "500080").await;
    let (s, made) = app
        .post(
            &format!("/marketplaces/store-channels/{shop}/listings/create-products"),
            &t,
            json!({"listing_ids": [waiting["id"]], "category_id": 1}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{made}");
    let sku = made["data"][0]["sku_id"].as_i64().unwrap_or_else(|| panic!("{made}"));
    let (_, p) = app.get("/products?search=OTHER-80", &t).await;
    assert_eq!(
        (p["data"][0]["code"].as_str(), p["data"][0]["skus"][0]["id"].as_i64()),
        (Some("OTHER-80"), Some(sku)),
        "{p}"
    );
    assert_eq!(listing_of(&app, &t, shop, "500080").await["sku_id"].as_i64(), Some(sku));

    // Deleted at the marketplace: the next import marks it and its link expires.
    sb.shopee.delete_item(SHOP, 500_000);
    let (_, v) = app.post("/products/marketplace/shopee/import", &t, json!({"store_channel_id": shop})).await;
    let done = imported(&app, &t, v["id"].as_i64().unwrap()).await;
    assert_eq!(done["state"], "done", "{done}");
    let gone = listing_of(&app, &t, shop, "500000").await;
    assert_eq!((gone["state"].as_str(), gone["sku_id"].is_null()), (Some("deleted"), true), "{gone}");

    // The catalog's links of a SKU.
    let (_, links) = app.get(&format!("/marketplaces/sku-links?sku-ids={},{}", skus[2], skus[0]), &t).await;
    assert_eq!(links["data"].as_array().unwrap().len(), 1, "SKU 0's listing was deleted: {links}");
    assert_eq!(
        (links["data"][0]["sku_id"].as_i64(), links["data"][0]["marketplace"].as_str()),
        (Some(skus[2]), Some("shopee"))
    );

    // Permissions and isolation.
    let reader = app.member_with(app.demo_store, "reader@example.com", &["product.sku.read"]).await;
    let (s, _) = app.get(&format!("/marketplaces/store-channels/{shop}/listings"), &reader).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) =
        app.post(&format!("/marketplaces/listings/{}/link", other["id"]), &reader, json!({"sku_id": skus[1]})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post("/products/marketplace/shopee/import", &reader, json!({"store_channel_id": shop})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, stranger) = app.other_owner("stranger@example.com").await;
    let (s, _) = app.get(&format!("/marketplaces/store-channels/{shop}/listings"), &stranger).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.get(&format!("/marketplaces/listings/{}", other["id"]), &stranger).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) =
        app.post(&format!("/marketplaces/listings/{}/link", other["id"]), &stranger, json!({"sku_id": skus[1]})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    app.check_stock().await;
    app.stop().await;
}

async fn stock_rules_and_bundles_push_what_they_say(stack: Stack) {
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    let skus = products(&app, &t, w, &[("CUP", "แก้ว"), ("LID", "ฝา")]).await;
    let (cup, lid) = (skus[0], skus[1]);
    stock_up(&app, &t, w, cup, 10).await;
    stock_up(&app, &t, w, lid, 3).await;
    sb.shopee.put_listing(SHOP, Listing::new("700", "", "แก้ว", "CUP", "59"), 0);
    sb.shopee.put_listing(SHOP, Listing::new("701", "", "ชุดแก้วพร้อมฝา", "SET", "99"), 0);
    sb.shopee.put_listing(SHOP, Listing::new("702", "", "ของไม่มีในร้าน", "NONE", "10"), 42);
    let shop = shopee(&app, &t, &sb, w).await;
    let (_, v) = app.post("/products/marketplace/shopee/import", &t, json!({"store_channel_id": shop})).await;
    imported(&app, &t, v["id"].as_i64().unwrap()).await;
    until("700", Some(10), || sb.shopee.stock(SHOP, 700, 0)).await;

    // A bundle of two cups and a lid: the sets the parts allow.
    let set = listing_of(&app, &t, shop, "701").await;
    let (s, l) = app
        .post(
            &format!("/marketplaces/listings/{}/link", set["id"]),
            &t,
            json!({"parts": [{"sku_id": cup, "quantity": 2, "cost_share": "70"}, {"sku_id": lid, "quantity": 1, "cost_share": "30"}]}),
        )
        .await;
    assert_eq!((s, l["parts"].as_array().map(Vec::len)), (StatusCode::OK, Some(2)), "{l}");
    until("701", Some(3), || sb.shopee.stock(SHOP, 701, 0)).await;
    let (s, e) = app
        .post(
            &format!("/marketplaces/listings/{}/link", set["id"]),
            &t,
            json!({"parts": [{"sku_id": cup, "quantity": 2, "cost_share": "70"}, {"sku_id": lid, "quantity": 1, "cost_share": "20"}]}),
        )
        .await;
    assert_eq!(
        (s, e["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.shares_sum"))
    );
    // An order of the bundle holds its parts, at prices that add up to what the buyer paid.
    let push_url = format!("{}/marketplaces/shopee/push", app.base);
    sb.shopee.register_callback("https://bo.example/api/marketplaces/shopee/push");
    sb.shopee.put_order(
        SHOP,
        bo_sandbox::Order::new(
            "2612010001",
            "READY_TO_SHIP",
            vec![bo_sandbox::line("701", "", "SET", "ชุดแก้วพร้อมฝา", 1, "99.00")],
        ),
    );
    assert_eq!(sb.shopee.push_order(SHOP, "2612010001", &push_url).await, 204);
    let mut order = Value::Null;
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (_, v) = app.get("/orders?channel=shopee&search=2612010001", &t).await;
        if let Some(id) = v["data"][0]["id"].as_i64() {
            order = app.get(&format!("/orders/{id}"), &t).await.1;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let lines: Vec<(i64, i64, String)> = order["items"]
        .as_array()
        .unwrap_or_else(|| panic!("the bundle's order never came in: {order}"))
        .iter()
        .map(|i| {
            (i["sku_id"].as_i64().unwrap(), i["quantity"].as_i64().unwrap(), i["price"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(lines, vec![(cup, 2, "34.65".to_string()), (lid, 1, "29.70".to_string())], "{order}");
    assert_eq!(order["total"], "139.00", "99 for the set and 40 shipping: {order}");
    // The order is written, then its stock held: the hold follows a moment later.
    let mut held = ((0, 0), (0, 0));
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        held = (crate::orders::level(&app, &t, w, cup).await, crate::orders::level(&app, &t, w, lid).await);
        if held.0 .1 > 0 && held.1 .1 > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(held, ((10, 2), (3, 1)), "the set's cups and lid are held");
    // 10 − 2 cups and 3 − 1 lids: 2 sets; 8 single cups.
    until("701 after the order", Some(2), || sb.shopee.stock(SHOP, 701, 0)).await;
    until("700 after the order", Some(8), || sb.shopee.stock(SHOP, 700, 0)).await;

    // The shop's rule: half, rounded up, less one; then a promotion hold.
    let rule =
        |body: Value| async { app.put(&format!("/marketplaces/store-channels/{shop}/stock-rule"), &t, body).await };
    let (s, r) = rule(json!({"percent": 50, "fixed": -1, "rounding": "up"})).await;
    assert_eq!((s, r["percent"].as_i64()), (StatusCode::OK, Some(50)), "{r}");
    until("700 at half", Some(3), || sb.shopee.stock(SHOP, 700, 0)).await; // 8 × 50% = 4, − 1
    until("701 at half", Some(0), || sb.shopee.stock(SHOP, 701, 0)).await; // 2 × 50% = 1, − 1
    rule(json!({"percent": 100, "hold": 4, "rounding": "down"})).await;
    until("700 held", Some(4), || sb.shopee.stock(SHOP, 700, 0)).await;
    // A listing's own rule over its shop's.
    let cup_listing = listing_of(&app, &t, shop, "700").await;
    let (s, own) = app
        .put(
            &format!("/marketplaces/listings/{}/stock-rule", cup_listing["id"]),
            &t,
            json!({"percent": 30, "rounding": "nearest"}),
        )
        .await;
    assert_eq!((s, own["own"].as_bool()), (StatusCode::OK, Some(true)), "{own}");
    until("700 own", Some(2), || sb.shopee.stock(SHOP, 700, 0)).await; // 8 × 30% = 2.4 → 2
    let (_, back) = app.delete(&format!("/marketplaces/listings/{}/stock-rule", cup_listing["id"]), &t).await;
    assert_eq!(back["own"], false);
    until("700 back to the shop's", Some(4), || sb.shopee.stock(SHOP, 700, 0)).await;
    // Nearly sold out: below 12 a shop not chosen shows 0; chosen, what is left.
    rule(json!({"percent": 100, "threshold": 12})).await;
    until("700 nearly sold out", Some(0), || sb.shopee.stock(SHOP, 700, 0)).await;
    rule(json!({"percent": 100, "threshold": 12, "priority": true})).await;
    until("700 chosen", Some(8), || sb.shopee.stock(SHOP, 700, 0)).await;
    // Increase only: a sale leaves the marketplace's count as it is.
    rule(json!({"percent": 100, "increase_only": true})).await;
    let (_, o) = app
        .post(
            "/orders",
            &t,
            json!({"channel": "line", "warehouse_id": w, "shipping_address": crate::orders::address(),
        "items": [{"sku_id": cup, "quantity": 4}]}),
        )
        .await;
    assert!(o["id"].is_i64(), "{o}");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sb.shopee.stock(SHOP, 700, 0), Some(8), "no decrease is pushed");
    let cup_listing = listing_of(&app, &t, shop, "700").await;
    assert_eq!(
        (cup_listing["available"].as_i64(), cup_listing["last_answer"].as_str()),
        (Some(4), Some("increase_only"))
    );
    stock_up(&app, &t, w, cup, 8).await;
    until("700 increased", Some(12), || sb.shopee.stock(SHOP, 700, 0)).await;
    // Bad rules are refused, field by field.
    let (s, e) = rule(json!({"percent": 101, "rounding": "sideways", "warehouse_ids": [999_999]})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let staff = app.member_with(app.demo_store, "staff@example.com", &["*"]).await;
    let (s, _) =
        app.put(&format!("/marketplaces/store-channels/{shop}/stock-rule"), &staff, json!({"percent": 10})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "a shop's rules are the owner's");

    // Push all: every linked listing again, followed to finished; the unlinked one untouched.
    let (s, p) = app.post("/products/marketplace/shopee/update-stock", &t, json!({"store_channel_id": shop})).await;
    assert_eq!((s, p["total"].as_i64()), (StatusCode::ACCEPTED, Some(2)), "{p}");
    let mut last = Value::Null;
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        let (_, v) = app.get(&format!("/marketplaces/store-channels/{shop}/stock-sync"), &t).await;
        if v["status"] == "finished" {
            last = v;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!((last["status"].as_str(), last["done"].as_i64()), (Some("finished"), Some(2)), "{last}");
    assert!(!last["finished_at"].as_str().unwrap_or_default().is_empty());
    assert_eq!(sb.shopee.stock(SHOP, 702, 0), Some(42), "an unlinked listing is never pushed");
    let (_, l) = app.get(&format!("/marketplaces/store-channels/{shop}/listings?stock-differs=true"), &t).await;
    assert_eq!((l["total"].as_i64(), l["stock_differs"].as_i64()), (Some(0), Some(0)), "what was pushed shows: {l}");

    // A promotion at the marketplace holds 10 cups: a push of 7 is taken, and the stock read
    // back after it shows 10, so the listing is flagged until the two agree again.
    rule(json!({"percent": 100})).await;
    sb.shopee.reserve_for_promotion(SHOP, 700, 0, 10);
    let (_, o) = app
        .post(
            "/orders",
            &t,
            json!({"channel": "line", "warehouse_id": w, "shipping_address": crate::orders::address(),
        "items": [{"sku_id": cup, "quantity": 5}]}),
        )
        .await;
    assert!(o["id"].is_i64(), "{o}");
    let flagged = || async {
        let (_, l) = app.get(&format!("/marketplaces/store-channels/{shop}/listings?stock-differs=true"), &t).await;
        l
    };
    let mut l = Value::Null;
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        l = flagged().await;
        if l["total"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let shown = &l["data"][0];
    assert_eq!(
        (
            shown["item_id"].as_str(),
            shown["pushed"].as_i64(),
            shown["platform_stock"].as_i64(),
            shown["stock_differs"].as_bool()
        ),
        (Some("700"), Some(7), Some(10), Some(true)),
        "{l}"
    );
    assert_eq!(l["stock_differs"], 1);
    assert!(!shown["stock_checked_at"].as_str().unwrap_or_default().is_empty(), "{shown}");
    // The promotion ends and the seller pushes the shop again: the two agree.
    sb.shopee.reserve_for_promotion(SHOP, 700, 0, 0);
    let (s, _) = app.post("/products/marketplace/shopee/update-stock", &t, json!({"store_channel_id": shop})).await;
    assert_eq!(s, StatusCode::ACCEPTED);
    until("700 after the promotion", Some(7), || sb.shopee.stock(SHOP, 700, 0)).await;
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        if flagged().await["total"] == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(flagged().await["stock_differs"], 0);
    app.check_stock().await;
    app.stop().await;
}

/// The platform's spreadsheet in the import template: read first, then kept and linked once.
async fn a_listing_spreadsheet_is_read_then_kept_once(stack: Stack) {
    use reqwest::multipart::{Form, Part};
    let sb = sandboxes().await;
    let Some(app) = with_sandboxes(stack, &sb).await else { return };
    let t = app.owner().await;
    let w = crate::marketplaces::warehouse(&app, &t).await;
    products(&app, &t, w, &[("TS-W", "เสื้อยืดคอกลม")]).await;
    let shop = shopee(&app, &t, &sb, w).await;
    let header =
        ["product_id", "product_name", "sku_id", "variation_value", "product_description", "price", "seller_sku"];
    let book = |rows: &[[&str; 7]], header: &[&str]| {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for (c, h) in header.iter().enumerate() {
            sheet.write_string(0, c as u16, *h).unwrap();
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                sheet.write_string(r as u32 + 1, c as u16, *v).unwrap();
            }
        }
        book.save_to_buffer().unwrap()
    };
    let rows = [
        ["1729001", "เสื้อยืดคอกลม", "5001", "ขาว", "ผ้าฝ้าย", "199", "TS-W"],
        ["1729001", "เสื้อยืดคอกลม", "5002", "ดำ", "ผ้าฝ้าย", "219.50", ""],
        ["1729002", "แก้วมัค", "5100", "", "", "1,299.00", "MUG"],
        ["1729003", "", "5200", "", "", "abc", ""],
    ];
    let send = |file: Vec<u8>, fields: &[(&str, String)]| {
        let mut form = Form::new()
            .part("file", Part::bytes(file).file_name("tiktok-export.xlsx"))
            .text("store_channel_id", shop.to_string());
        for (k, v) in fields {
            form = form.text(k.to_string(), v.clone());
        }
        let (client, url, token) =
            (app.client.clone(), format!("{}/products/marketplace/shopee/import-file", app.base), t.clone());
        async move {
            let res = client.post(url).bearer_auth(token).multipart(form).send().await.unwrap();
            let status = res.status();
            (status, res.json::<Value>().await.unwrap())
        }
    };
    let file = book(&rows, &header);
    let (s, v) = send(file.clone(), &[("dry_run", "true".into())]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["rows"].as_array().unwrap().len(), v["import"].is_null()), (3, true), "{v}");
    assert_eq!((v["rows"][1]["item_id"].as_str(), v["rows"][1]["model_id"].as_str()), (Some("1729001"), Some("5002")));
    assert_eq!(v["rows"][2]["price"], "1299.00");
    assert!(v["errors"].as_array().unwrap().iter().any(|e| e["row"] == 5), "the bad row is named: {v}");
    let (_, page) = app.get(&format!("/marketplaces/store-channels/{shop}/listings"), &t).await;
    assert_eq!(page["total"], 0, "a dry run keeps nothing");

    let (s, v) = send(book(&rows, &header[1..]), &[("dry_run", "true".into())]).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("import_wrong_template")),
        "{v}"
    );
    let (s, _) = send(file.clone(), &[("create_products", "true".into())]).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "making products needs a category");

    let (s, v) = send(file.clone(), &[]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let imp = &v["import"];
    assert_eq!(
        (
            imp["state"].as_str(),
            imp["source"].as_str(),
            imp["seen"].as_i64(),
            imp["linked"].as_i64(),
            imp["unlinked"].as_i64()
        ),
        (Some("done"), Some("file"), Some(3), Some(1), Some(2)),
        "{v}"
    );
    let (_, page) = app.get(&format!("/marketplaces/store-channels/{shop}/listings?linked=true"), &t).await;
    assert_eq!((page["total"].as_i64(), page["data"][0]["seller_sku"].as_str()), (Some(1), Some("TS-W")), "{page}");
    assert_eq!(page["data"][0]["options"][0]["value"], "ขาว");
    // The same file again is the import it was: nothing is kept or made twice.
    let (_, again) = send(file, &[("create_products", "true".into()), ("category_id", "1".into())]).await;
    assert_eq!(again["import"]["id"], v["import"]["id"], "{again}");
    let (_, page) = app.get(&format!("/marketplaces/store-channels/{shop}/listings"), &t).await;
    assert_eq!(page["total"], 3);
    let (_, p) = app.get("/products?search=MUG", &t).await;
    assert_eq!(p["total"], 0, "no product was made by the repeat");
    app.stop().await;
}

mod embedded {
    use super::*;

    #[tokio::test]
    async fn a_shops_listings_are_imported_linked_and_left_for_a_person() {
        super::a_shops_listings_are_imported_linked_and_left_for_a_person(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn stock_rules_and_bundles_push_what_they_say() {
        super::stock_rules_and_bundles_push_what_they_say(Stack::Embedded).await;
    }

    #[tokio::test]
    async fn a_listing_spreadsheet_is_read_then_kept_once() {
        super::a_listing_spreadsheet_is_read_then_kept_once(Stack::Embedded).await;
    }
}

mod postgres_nats {
    use super::*;

    #[tokio::test]
    async fn a_shops_listings_are_imported_linked_and_left_for_a_person() {
        super::a_shops_listings_are_imported_linked_and_left_for_a_person(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn stock_rules_and_bundles_push_what_they_say() {
        super::stock_rules_and_bundles_push_what_they_say(Stack::Postgres).await;
    }

    #[tokio::test]
    async fn a_listing_spreadsheet_is_read_then_kept_once() {
        super::a_listing_spreadsheet_is_read_then_kept_once(Stack::Postgres).await;
    }
}
