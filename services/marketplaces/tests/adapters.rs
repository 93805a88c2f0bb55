//! The marketplace adapters over real HTTP against the sandboxes (`bo-sandbox`), which check
//! signatures, timestamps, tokens and shops the way the platforms do.

use std::time::Duration;

use bo_marketplaces::adapters::lazada::Lazada;
use bo_marketplaces::adapters::shipping::Handover;
use bo_marketplaces::adapters::shopee::Shopee;
use bo_marketplaces::adapters::tiktok::TiktokShop;
use bo_marketplaces::adapters::{
    http_client, Adapter, AppConfig, ChannelError, Grant, Push, Secret, Session, StockLevel,
};
use bo_marketplaces::domain::status::Stage;
use bo_sandbox::lazada::LazadaSandbox;
use bo_sandbox::shopee::ShopeeSandbox;
use bo_sandbox::tiktok::TiktokSandbox;
use bo_sandbox::{line, now_s, Order};

fn client() -> reqwest::Client {
    http_client(Duration::from_secs(5)).expect("a client")
}

fn app(base: &str, key: &str, secret: &str) -> AppConfig {
    AppConfig {
        api_url: base.into(),
        auth_url: base.into(),
        authorize_url: base.into(),
        app_key: key.into(),
        app_secret: Secret::new(secret),
        service_id: "7000".into(),
    }
}

fn level(item: &str, model: &str, quantity: i64) -> StockLevel {
    StockLevel { item_id: item.into(), model_id: model.into(), quantity }
}

#[tokio::test]
async fn shopee_connect_orders_stock_and_tokens() {
    let sb = ShopeeSandbox::start(2001887, "partner-key-0123").await.unwrap();
    sb.add_shop(14701711, "ร้านทดสอบ Shopee");
    sb.add_listing(14701711, 1001, 501, 10);
    sb.add_listing(14701711, 1001, 502, 10);
    let shopee = Shopee::new(client(), app(&sb.base_url, "2001887", "partner-key-0123"));

    // The authorize link is signed and lands on the sandbox's page.
    let link = shopee.authorize_url("https://bo.example/sale-channel-redirect?mp=shopee", "st4te", now_s()).unwrap();
    let page = reqwest::get(&link).await.unwrap();
    assert_eq!(page.status(), 200, "{link}");
    assert!(page.text().await.unwrap().contains("ร้านทดสอบ Shopee"));
    assert!(link.contains("state%3Dst4te"), "the state rides in the redirect: {link}");

    // A code is spent once.
    let code = sb.authorize(14701711);
    let grant = Grant { code: code.clone(), shop_id: "14701711".into() };
    let auth = shopee.connect(&grant).await.unwrap();
    assert_eq!(auth.shops[0].name, "ร้านทดสอบ Shopee");
    assert_eq!(auth.shops[0].shop_id, "14701711");
    assert!(auth.tokens.access_expires_at_s > now_s() + 3 * 3600);
    assert!(matches!(shopee.connect(&grant).await, Err(ChannelError::AuthorizationEnded(_))), "a code is single use");

    // Orders changed in a window, then their details.
    let shop = auth.shops[0].clone();
    let mut o =
        Order::new("2611280001ABCD", "READY_TO_SHIP", vec![line("1001", "501", "TEE-RED-L", "เสื้อยืด", 2, "199.00")]);
    o.updated_at = now_s() - 60;
    sb.put_order(14701711, o);
    let s = Session { shop: &shop, access: &auth.tokens.access };
    let page = shopee.changed_orders(s, now_s() - 3600, now_s(), None).await.unwrap();
    assert_eq!(page.orders.iter().map(|c| c.order_id.as_str()).collect::<Vec<_>>(), vec!["2611280001ABCD"]);
    assert_eq!(page.next, None);
    let orders = shopee.orders(s, &["2611280001ABCD".to_string()]).await.unwrap();
    assert_eq!(orders[0].stage, Some(Stage::Paid));
    assert_eq!((orders[0].lines[0].seller_sku.as_str(), orders[0].lines[0].quantity), ("TEE-RED-L", 2));
    assert_eq!(orders[0].total_satang, 2 * 19_900 + 4_000);
    // A window over Shopee's 15 days is cut to 15 (the sandbox refuses more).
    assert!(shopee.changed_orders(s, now_s() - 20 * 86400, now_s(), None).await.is_ok());

    // Stock: the absolute level per model; an unknown model is refused alone.
    let out = shopee.set_stock(s, &[level("1001", "501", 7), level("1001", "599", 3)]).await.unwrap();
    assert_eq!(out[0].refused, None);
    assert!(out[1].refused.is_some());
    assert_eq!(sb.stock(14701711, 1001, 501), Some(7));

    // A refresh token is spent by its use.
    let fresh = shopee.refresh(&shop, &auth.tokens.refresh).await.unwrap();
    assert!(matches!(shopee.refresh(&shop, &auth.tokens.refresh).await, Err(ChannelError::AuthorizationEnded(_))));
    let s2 = Session { shop: &shop, access: &fresh.access };
    assert!(shopee.changed_orders(s2, now_s() - 3600, now_s(), None).await.is_ok());

    // An expired access token is refused: refresh it.
    sb.expire_access(14701711);
    assert!(matches!(
        shopee.changed_orders(s2, now_s() - 3600, now_s(), None).await,
        Err(ChannelError::TokenRefused(_))
    ));

    // A wrong partner key is our configuration's fault.
    let wrong = Shopee::new(client(), app(&sb.base_url, "2001887", "not-the-key"));
    assert!(matches!(wrong.refresh(&shop, &fresh.refresh).await, Err(ChannelError::AppRefused(_))));

    // Throttling is told apart from refusals.
    sb.throttle(1);
    let mut throttled = false;
    for _ in 0..5 {
        if let Err(ChannelError::Throttled { .. }) = shopee.lost_pushes().await {
            throttled = true;
        }
    }
    assert!(throttled);
    sb.throttle(0);
}

#[tokio::test]
async fn shopee_pushes_and_lost_pushes() {
    let sb = ShopeeSandbox::start(10090, "k3y").await.unwrap();
    sb.add_shop(5, "S");
    sb.put_order(5, Order::new("A1", "UNPAID", vec![]));
    sb.put_order(5, Order::new("A2", "UNPAID", vec![]));
    let shopee = Shopee::new(client(), app(&sb.base_url, "10090", "k3y"));
    let url = "https://bo.example/api/webhooks/shopee";
    let body = sb.order_push_body(5, "A1").unwrap();
    let mut headers = http::HeaderMap::new();
    headers.insert(http::header::AUTHORIZATION, sb.push_signature(url, &body).parse().unwrap());
    match &shopee.read_push(url, &headers, body.as_bytes()).unwrap()[..] {
        [Push::OrderChanged { shop_id, order_id, status, .. }] => {
            assert_eq!((shop_id.as_str(), order_id.as_str(), status.as_str()), ("5", "A1", "UNPAID"))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(shopee.push_answer(), (204, ""));

    // Dropped pushes come back from get_lost_push_message until confirmed.
    assert_eq!(shopee.lost_pushes().await.unwrap(), None);
    sb.drop_order_push(5, "A1");
    sb.drop_order_push(5, "A2");
    let (pushes, last, more) = shopee.lost_pushes().await.unwrap().unwrap();
    assert_eq!(pushes.len(), 2);
    assert!(!more);
    shopee.confirm_lost_pushes(last).await.unwrap();
    assert_eq!(sb.lost_pending(), 0);
    assert_eq!(shopee.lost_pushes().await.unwrap(), None);
}

#[tokio::test]
async fn lazada_connect_orders_stock_and_tokens() {
    let sb = LazadaSandbox::start("123456", "lazada-secret").await.unwrap();
    sb.add_shop("100200300", "ร้านทดสอบ Lazada");
    sb.add_listing("100200300", "3001", "666", 5);
    let lazada = Lazada::new(client(), app(&sb.base_url, "123456", "lazada-secret"));
    let mut cfg = app(&format!("{}/rest", sb.base_url), "123456", "lazada-secret");
    cfg.authorize_url = format!("{}/oauth/authorize", sb.base_url);
    let lazada_rest = Lazada::new(client(), cfg);

    let link = lazada_rest.authorize_url("https://bo.example/sale-channel-redirect", "st4te", now_s()).unwrap();
    let page = reqwest::get(&link).await.unwrap();
    assert_eq!(page.status(), 200, "{link}");
    assert!(page.text().await.unwrap().contains("ร้านทดสอบ Lazada"));

    let code = sb.authorize("100200300");
    let auth = lazada_rest.connect(&Grant { code: code.clone(), shop_id: String::new() }).await.unwrap();
    assert_eq!((auth.shops[0].shop_id.as_str(), auth.shops[0].name.as_str()), ("100200300", "ร้านทดสอบ Lazada"));
    assert!(auth.tokens.refresh_expires_at_s > now_s() + 100 * 86400);
    assert!(matches!(
        lazada.connect(&Grant { code, shop_id: String::new() }).await,
        Err(ChannelError::AuthorizationEnded(_))
    ));

    let shop = auth.shops[0].clone();
    let s = Session { shop: &shop, access: &auth.tokens.access };
    let mut o = Order::new("32793", "pending", vec![line("3001", "666", "MUG-01", "แก้ว", 3, "89.00")]);
    o.updated_at = now_s() - 30;
    sb.put_order("100200300", o);
    let page = lazada.changed_orders(s, now_s() - 3600, now_s() + 60, None).await.unwrap();
    assert_eq!(page.orders.len(), 1);
    assert_eq!(page.orders[0].order_id, "32793");
    let orders = lazada.orders(s, &["32793".to_string()]).await.unwrap();
    assert_eq!(orders[0].lines.len(), 1, "three units are one line");
    assert_eq!((orders[0].lines[0].quantity, orders[0].lines[0].seller_sku.as_str()), (3, "MUG-01"));
    assert_eq!(orders[0].total_satang, 3 * 8_900 + 4_000);
    assert_eq!(orders[0].stage, Some(Stage::Paid));
    assert_eq!(orders[0].order_number, "332793");

    let out = lazada.set_stock(s, &[level("3001", "666", 0), level("3001", "999", 1)]).await.unwrap();
    assert_eq!(out[0].refused, None);
    assert!(out[1].refused.as_deref().unwrap_or_default().contains("SKU not found"));
    assert_eq!(sb.stock("100200300", "3001", "666"), Some(0));

    let fresh = lazada.refresh(&shop, &auth.tokens.refresh).await.unwrap();
    assert_ne!(fresh.access.expose(), auth.tokens.access.expose());
    sb.expire_access("100200300");
    let s2 = Session { shop: &shop, access: &fresh.access };
    assert!(matches!(lazada.orders(s2, &["32793".to_string()]).await, Err(ChannelError::TokenRefused(_))));
    sb.end_authorization("100200300");
    assert!(matches!(lazada.refresh(&shop, &fresh.refresh).await, Err(ChannelError::AuthorizationEnded(_))));
    let wrong = Lazada::new(client(), app(&sb.base_url, "123456", "wrong"));
    assert!(matches!(wrong.refresh(&shop, &fresh.refresh).await, Err(ChannelError::AppRefused(_))));

    // A signed push, read.
    let (body, signature) = sb.order_push("100200300", "32793").unwrap();
    let mut headers = http::HeaderMap::new();
    headers.insert(http::header::AUTHORIZATION, signature.parse().unwrap());
    assert!(matches!(&lazada.read_push("", &headers, body.as_bytes()).unwrap()[..], [Push::OrderChanged { .. }]));
}

#[tokio::test]
async fn tiktok_connect_orders_stock_and_tokens() {
    let sb = TiktokSandbox::start("29a39d", "e59af819cc").await.unwrap();
    sb.add_shop("7494049642642441621", "ร้านทดสอบ TikTok");
    sb.add_listing("7494049642642441621", "1729582718312380123", "2729382476852921560", 9);
    sb.register_redirect("https://bo.example/sale-channel-redirect?mp=tiktok-shop");
    let mut cfg = app(&sb.base_url, "29a39d", "e59af819cc");
    cfg.authorize_url = format!("{}/open/authorize", sb.base_url);
    let tt = TiktokShop::new(client(), cfg);

    let link = tt.authorize_url("", "st4te", now_s()).unwrap();
    let text = reqwest::get(&link).await.unwrap().text().await.unwrap();
    assert!(text.contains("ร้านทดสอบ TikTok") && text.contains("st4te"), "{text}");

    let code = sb.authorize("seller");
    let auth = tt.connect(&Grant { code: code.clone(), shop_id: String::new() }).await.unwrap();
    assert_eq!(auth.shops.len(), 1);
    assert!(auth.shops[0].cipher.starts_with("ROW_"));
    assert!(auth.tokens.access_expires_at_s > now_s() + 6 * 86400, "absolute expiry times are read as they are");
    assert!(matches!(
        tt.connect(&Grant { code, shop_id: String::new() }).await,
        Err(ChannelError::AuthorizationEnded(_))
    ));

    let shop = auth.shops[0].clone();
    let s = Session { shop: &shop, access: &auth.tokens.access };
    let mut o = Order::new(
        "576461413038785752",
        "AWAITING_SHIPMENT",
        vec![line("1729582718312380123", "2729382476852921560", "MUG-01", "แก้ว", 2, "179")],
    );
    o.updated_at = now_s() - 10;
    sb.put_order("7494049642642441621", o);
    let page = tt.changed_orders(s, now_s() - 3600, now_s() + 60, None).await.unwrap();
    assert_eq!(page.orders.len(), 1);
    let orders = tt.orders(s, &["576461413038785752".to_string()]).await.unwrap();
    assert_eq!((orders[0].lines[0].quantity, orders[0].total_satang), (2, 2 * 17_900 + 4_000));
    assert_eq!(orders[0].stage, Some(Stage::Paid));

    let out = tt
        .set_stock(s, &[level("1729582718312380123", "2729382476852921560", 0), level("1729582718312380123", "1", 5)])
        .await
        .unwrap();
    assert_eq!(out[0].refused, None);
    assert!(out[1].refused.is_some());
    assert_eq!(sb.stock("7494049642642441621", "1729582718312380123", "2729382476852921560"), Some(0));

    sb.expire_access();
    assert!(matches!(tt.orders(s, &["576461413038785752".to_string()]).await, Err(ChannelError::TokenRefused(_))));
    let fresh = tt.refresh(&shop, &auth.tokens.refresh).await.unwrap();
    let s2 = Session { shop: &shop, access: &fresh.access };
    assert!(tt.orders(s2, &["576461413038785752".to_string()]).await.is_ok());
    sb.end_authorization();
    assert!(matches!(tt.refresh(&shop, &fresh.refresh).await, Err(ChannelError::AuthorizationEnded(_))));

    sb.set_status("7494049642642441621", "576461413038785752", "CANCELLED");
    let (body, signature) = sb.order_push("7494049642642441621", "576461413038785752").unwrap();
    let mut headers = http::HeaderMap::new();
    headers.insert(http::header::AUTHORIZATION, signature.parse().unwrap());
    match &tt.read_push("", &headers, body.as_bytes()).unwrap()[..] {
        [Push::OrderChanged { status, .. }] => assert_eq!(status, "CANCEL"),
        other => panic!("{other:?}"),
    }

    let wrong = TiktokShop::new(client(), app(&sb.base_url, "29a39d", "wrong"));
    assert!(matches!(wrong.orders(s2, &["1".to_string()]).await, Err(ChannelError::AppRefused(_))));
    sb.throttle(1);
    let mut throttled = false;
    for _ in 0..4 {
        if let Err(ChannelError::Throttled { .. }) = tt.orders(s2, &["1".to_string()]).await {
            throttled = true;
        }
    }
    assert!(throttled);
}

/// Every page of a shop's listings, from the first.
async fn all_listings(a: &dyn Adapter, s: Session<'_>) -> Vec<bo_marketplaces::adapters::MarketListing> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let page = a.listings(s, cursor.as_deref()).await.unwrap();
        out.extend(page.listings);
        match page.next {
            Some(next) => cursor = Some(next),
            None => return out,
        }
    }
    panic!("listings never end");
}

fn shirt(item: &str, model: &str, sku: &str, colour: &str, size: &str) -> bo_sandbox::Listing {
    bo_sandbox::Listing::new(item, model, "เสื้อยืดคอกลม", sku, "199.50").option("สี", colour).option("ไซซ์", size)
}

#[tokio::test]
async fn listings_come_with_their_variations_prices_stock_and_state() {
    use bo_marketplaces::adapters::ListingState;
    // Shopee: an item with two models and one without, over three pages of 50 items.
    let sb = ShopeeSandbox::start(2001887, "partner-key-0123").await.unwrap();
    sb.add_shop(7, "S");
    sb.put_listing(7, shirt("1001", "501", "TEE-RED-M", "แดง", "M"), 4);
    sb.put_listing(7, shirt("1001", "502", "TEE-RED-L", "แดง", "L"), 6);
    sb.put_listing(7, bo_sandbox::Listing::new("1002", "", "ถุงผ้า", "BAG", "59"), 9);
    for i in 0..110 {
        sb.add_listing(7, 2000 + i, 0, 1);
    }
    sb.delete_item(7, 1002);
    let shopee = Shopee::new(client(), app(&sb.base_url, "2001887", "partner-key-0123"));
    let auth = shopee.connect(&Grant { code: sb.authorize(7), shop_id: "7".into() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    let got = all_listings(&shopee, s).await;
    assert_eq!(got.len(), 113);
    let red_l = got.iter().find(|l| l.model_id == "502").unwrap();
    assert_eq!(
        (red_l.item_id.as_str(), red_l.seller_sku.as_str(), red_l.price_satang, red_l.stock, red_l.state),
        ("1001", "TEE-RED-L", 19_950, 6, ListingState::Active)
    );
    assert_eq!(red_l.options, vec![("สี".to_string(), "แดง".to_string()), ("ไซซ์".to_string(), "L".to_string())]);
    let bag = got.iter().find(|l| l.item_id == "1002").unwrap();
    assert_eq!((bag.model_id.as_str(), bag.seller_sku.as_str(), bag.state), ("", "BAG", ListingState::Deleted));

    // Lazada: SKUs with their sale properties; deleted products come after the rest.
    let lz = LazadaSandbox::start("123456", "lazada-secret").await.unwrap();
    lz.add_shop("100", "L");
    lz.put_listing("100", shirt("3001", "666", "TEE-BLUE-L", "น้ำเงิน", "L"), 5);
    lz.put_listing("100", bo_sandbox::Listing::new("3002", "777", "แก้วมัค", "MUG", "159.00"), 2);
    lz.delete_item("100", "3002");
    let lazada = Lazada::new(client(), app(&format!("{}/rest", lz.base_url), "123456", "lazada-secret"));
    let auth = lazada.connect(&Grant { code: lz.authorize("100"), shop_id: String::new() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    let got = all_listings(&lazada, s).await;
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].model_id.as_str(), got[0].price_satang, got[0].stock), ("666", 19_950, 5));
    assert_eq!(got[0].options.len(), 2);
    assert_eq!((got[1].item_id.as_str(), got[1].state), ("3002", ListingState::Deleted));

    // TikTok Shop: a product's variations come from its detail.
    let tt = TiktokSandbox::start("29a39d", "tiktok-secret").await.unwrap();
    tt.add_shop("749", "T");
    tt.register_redirect("https://bo.example/sale-channel-redirect");
    tt.put_listing("749", shirt("1729", "11", "TEE-W-S", "ขาว", "S"), 3);
    tt.put_listing("749", shirt("1729", "12", "TEE-W-M", "ขาว", "M"), 8);
    let mut off = bo_sandbox::Listing::new("1730", "21", "หมวก", "CAP", "99");
    off.status = "SELLER_DEACTIVATED".into();
    tt.put_listing("749", off, 0);
    let tiktok = TiktokShop::new(client(), app(&tt.base_url, "29a39d", "tiktok-secret"));
    let auth = tiktok.connect(&Grant { code: tt.authorize("seller"), shop_id: String::new() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    let got = all_listings(&tiktok, s).await;
    assert_eq!(got.len(), 3);
    let m = got.iter().find(|l| l.model_id == "12").unwrap();
    assert_eq!((m.seller_sku.as_str(), m.stock, m.price_satang), ("TEE-W-M", 8, 19_950));
    assert_eq!(m.options[1], ("ไซซ์".to_string(), "M".to_string()));
    assert_eq!(got.iter().find(|l| l.item_id == "1730").unwrap().state, ListingState::Inactive);
}

/// A Shopee order arranged for pick-up at the shop's address in an offered slot, its carrier's
/// tracking number once it has one, and its air waybill as a PDF; what the platform refuses
/// is said in its words.
#[tokio::test]
async fn shopee_arranges_a_pickup_and_prints_its_label() {
    let sb = ShopeeSandbox::start(2001887, "partner-key-0123").await.unwrap();
    sb.add_shop(14701711, "ร้านทดสอบ Shopee");
    sb.put_order(
        14701711,
        Order::new("2612020001", "READY_TO_SHIP", vec![line("1001", "501", "TEE-R", "เสื้อยืด", 1, "199.00")]),
    );
    sb.put_order(
        14701711,
        Order::new("2612020002", "IN_CANCEL", vec![line("1001", "501", "TEE-R", "เสื้อยืด", 1, "199.00")]),
    );
    let shopee = Shopee::new(client(), app(&sb.base_url, "2001887", "partner-key-0123"));
    let auth = shopee.connect(&Grant { code: sb.authorize(14701711), shop_id: "14701711".into() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    let ship = shopee.shipping().expect("Shopee ships its own way");

    let options = ship.ship_options(s, "2612020001").await.unwrap();
    assert!(options.dropoff && !options.own_carrier);
    let address = &options.pickup[0];
    assert!(address.default && address.address.contains("10110"), "{address:?}");
    assert_eq!(address.slots.len(), 2);
    assert!(matches!(
        ship.ship_options(s, "2612020002").await,
        Err(ChannelError::Rejected { code, .. }) if code == "error_status"
    ));
    // A slot it did not offer is refused; one it offered is taken once.
    let wrong = Handover::Pickup { address_id: address.id.clone(), slot_id: "1".into() };
    assert!(matches!(
        ship.arrange(s, "2612020001", &wrong).await,
        Err(ChannelError::Rejected { code, .. }) if code == "logistics.ship_order_pickup_time_invalid"
    ));
    let how = Handover::Pickup { address_id: address.id.clone(), slot_id: address.slots[0].id.clone() };
    // No label before it is arranged.
    assert!(matches!(ship.label(s, "2612020001", "").await, Err(ChannelError::Rejected { .. })));
    ship.arrange(s, "2612020001", &how).await.unwrap();
    assert!(matches!(
        ship.arrange(s, "2612020001", &how).await,
        Err(ChannelError::Rejected { code, .. }) if code == "logistics.package_already_shipped"
    ));
    // The carrier's number comes a moment later.
    assert_eq!(ship.tracking_no(s, "2612020001").await.unwrap(), None);
    let tracking = ship.tracking_no(s, "2612020001").await.unwrap().expect("a tracking number");
    assert_eq!(sb.shipment(14701711, "2612020001"), Some(("pickup".into(), tracking.clone())));
    assert!(matches!(
        ship.label(s, "2612020001", "TH0000000000000").await,
        Err(ChannelError::Rejected { code, .. }) if code == "logistics.tracking_number_invalid"
    ));
    let pdf = ship.label(s, "2612020001", &tracking).await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    if let Some(text) = bo_pdf::testing::pdftotext(&pdf) {
        assert!(text.contains(&tracking) && text.contains("2612020001"), "{text}");
    }
    // Its own carrier's number rides with an order shipped outside the platform's carriers.
    sb.put_order(
        14701711,
        Order::new("2612020003", "READY_TO_SHIP", vec![line("1001", "501", "TEE-R", "เสื้อยืด", 1, "199.00")]),
    );
    let own = Handover::OwnCarrier { tracking_no: "KEX0000001".into() };
    ship.arrange(s, "2612020003", &own).await.unwrap();
    assert_eq!(ship.tracking_no(s, "2612020003").await.unwrap().as_deref(), Some("KEX0000001"));
}

/// Every return a platform lists changed in `[from, to)`, page after page.
async fn every_return(
    r: &dyn bo_marketplaces::adapters::returns::Returns,
    s: Session<'_>,
    from: i64,
    to: i64,
) -> (Vec<bo_marketplaces::adapters::returns::MarketReturn>, usize) {
    let (mut all, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let page = r.changed_returns(s, from, to, cursor.as_deref()).await.unwrap();
        pages += 1;
        all.extend(page.returns);
        match page.next {
            Some(next) => cursor = Some(next),
            None => return (all, pages),
        }
    }
}

#[tokio::test]
async fn returns_are_read_a_page_at_a_time_on_every_platform() {
    use bo_marketplaces::domain::returns::ReturnStage;
    use bo_sandbox::Return;
    let tee = |n| vec![line("1001", "501", "TEE-RED-L", "เสื้อยืด", n, "99.00")];
    let put = |n: i64, status: &str, lines| {
        let mut r = Return::new(&format!("9{n:04}"), &format!("8{n:04}"), status, lines);
        r.updated_at = now_s() - 600 + n;
        r
    };

    // Shopee: 130 returns over two pages of 100, none missed or twice; an open one is read
    // again in detail for where its parcel is.
    let sp = ShopeeSandbox::start(2001887, "partner-key-0123").await.unwrap();
    sp.add_shop(7, "S");
    let shopee = Shopee::new(client(), app(&sp.base_url, "2001887", "partner-key-0123"));
    let auth = shopee.connect(&Grant { code: sp.authorize(7), shop_id: "7".into() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    for n in 0..130 {
        sp.put_return(7, put(n, "CLOSED", tee(1)));
    }
    sp.move_return(7, "90007", "PROCESSING", "LOGISTICS_DELIVERY_DONE");
    let calls = sp.return_calls();
    let (all, pages) = every_return(shopee.returns().unwrap(), s, now_s() - 3600, now_s() + 1).await;
    let mut ids: Vec<&str> = all.iter().map(|r| r.return_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!((ids.len(), all.len(), pages), (130, 130, 2));
    assert_eq!(sp.return_calls() - calls, 3, "two lists and one detail");
    let open = all.iter().find(|r| r.return_id == "90007").unwrap();
    assert_eq!(
        (open.stage, open.order_id.as_str(), open.refund_satang),
        (Some(ReturnStage::DeliveredBack), "80007", 9_900)
    );
    assert_eq!((open.lines[0].item_id.as_str(), open.lines[0].model_id.as_str()), ("1001", "501"));
    let (none, _) = every_return(shopee.returns().unwrap(), s, now_s() - 7200, now_s() - 3600).await;
    assert!(none.is_empty(), "outside the window");

    // Lazada: 60 reverse orders over two pages of 50; a line's two units add up.
    let lz = LazadaSandbox::start("123456", "lazada-secret").await.unwrap();
    lz.add_shop("100", "L");
    let lazada = Lazada::new(client(), app(&lz.base_url, "123456", "lazada-secret"));
    let auth = lazada.connect(&Grant { code: lz.authorize("100"), shop_id: String::new() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    for n in 0..60 {
        lz.put_return("100", put(n, "RTM_INIT", tee(2)));
    }
    lz.move_return("100", "90003", "RTM_SHIPPING_BACK");
    let (all, pages) = every_return(lazada.returns().unwrap(), s, now_s() - 3600, now_s() + 1).await;
    assert_eq!((all.len(), pages), (60, 2));
    let shipped = all.iter().find(|r| r.return_id == "90003").unwrap();
    assert_eq!(
        (shipped.stage, shipped.lines[0].quantity, shipped.refund_satang),
        (Some(ReturnStage::ShippedBack), 2, 19_800)
    );
    assert_eq!((shipped.lines[0].item_id.as_str(), shipped.lines[0].model_id.as_str()), ("1001", "501"));

    // TikTok Shop: 60 returns over two pages of 50, naming their SKU only.
    let tt = TiktokSandbox::start("29a39d", "e59af819cc").await.unwrap();
    tt.add_shop("7494049642642441621", "T");
    let tiktok = TiktokShop::new(client(), app(&tt.base_url, "29a39d", "e59af819cc"));
    let auth = tiktok.connect(&Grant { code: tt.authorize("seller"), shop_id: String::new() }).await.unwrap();
    let s = Session { shop: &auth.shops[0], access: &auth.tokens.access };
    for n in 0..60 {
        tt.put_return("7494049642642441621", put(n, "RETURN_OR_REFUND_REQUEST_PENDING", tee(1)));
    }
    let (all, pages) = every_return(tiktok.returns().unwrap(), s, now_s() - 3600, now_s() + 1).await;
    assert_eq!((all.len(), pages), (60, 2));
    assert_eq!(
        (all[0].stage, all[0].lines[0].item_id.as_str(), all[0].lines[0].model_id.as_str()),
        (Some(ReturnStage::Requested), "", "501")
    );
}
