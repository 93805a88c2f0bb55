//! `channels-sandbox`: the three marketplace sandboxes on fixed ports, with a Thai shop each
//! (listings and a few orders), and a Magento 2 shop (products of the demo store's catalogue,
//! a few orders, fixed integration credentials), for a person to click through connecting
//! shops in the back-office (`make channels-sandbox` starts both). Prints the settings that
//! point a back-office at them and what to type in the Magento channel's form.

use bo_sandbox::lazada::LazadaSandbox;
use bo_sandbox::magento::{magento_line, Integration, Magento, MagentoLine, MagentoOrder};
use bo_sandbox::shopee::ShopeeSandbox;
use bo_sandbox::tiktok::TiktokSandbox;
use bo_sandbox::{line, Listing, Order};

/// The apps' keys the sandboxes take (not secrets: sandboxes only).
const SHOPEE: (i64, &str) = (2001887, "sandbox-shopee-partner-key");
const LAZADA: (&str, &str) = ("100001", "sandbox-lazada-app-secret");
const TIKTOK: (&str, &str) = ("6a1b2c", "sandbox-tiktok-app-secret");
/// The Magento shop's integration (not secrets: the sandbox only). Magento's consumer keys
/// and tokens are 32 characters, and its OAuth check refuses another length.
const MAGENTO_CONSUMER_KEY: &str = "sandboxmagentoconsumerkey0000001";
const MAGENTO_CONSUMER_SECRET: &str = "sandboxmagentoconsumersecret0001";
const MAGENTO_ACCESS_TOKEN: &str = "sandboxmagentoaccesstoken0000001";
const MAGENTO_ACCESS_TOKEN_SECRET: &str = "sandboxmagentotokensecret0000001";

/// `hours` before now in UTC, as Magento writes a time (`YYYY-MM-DD HH:MM:SS`).
fn magento_time(hours: f64) -> String {
    let at = time::OffsetDateTime::now_utc() - time::Duration::seconds_f64(hours * 3600.0);
    at.format(&time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]")).expect("a time")
}

/// The Magento shop: the integration above, integration tokens refused as bearer tokens (as
/// Magento 2.4.4 and later by default: OAuth 1.0a it is), products of the demo store's
/// catalogue, and three orders placed within the last day.
fn magento_shop() -> Magento {
    let shop = Magento::with_integration(Integration {
        consumer_key: MAGENTO_CONSUMER_KEY.into(),
        consumer_secret: MAGENTO_CONSUMER_SECRET.into(),
        access_token: MAGENTO_ACCESS_TOKEN.into(),
        access_token_secret: MAGENTO_ACCESS_TOKEN_SECRET.into(),
    });
    shop.allow_bearer(false);
    for (sku, qty) in [("TS-001-1", 20), ("TS-001-2", 20), ("CF-250-2", 10), ("BG-030-1", 15), ("FD-011", 30)] {
        shop.add_product(sku, qty);
    }
    let tee = MagentoLine {
        configurable: true,
        ..magento_line("TS-001-1", "เสื้อยืดคอกลม Cotton 100% (ขาว)", 2, "199.00")
    };
    let mut paid = MagentoOrder::new(
        101,
        "processing",
        &magento_time(5.0),
        vec![tee, magento_line("FD-011", "น้ำพริกเผา สูตรโบราณ 200 กรัม", 1, "89.00")],
    );
    paid.customer_firstname = "สมหญิง".into();
    paid.customer_lastname = "รักไทย".into();
    paid.customer_email = "somying@example.co.th".into();
    paid.telephone = "0891234567".into();
    paid.street = vec!["55/2 ถนนนิมมานเหมินท์".into(), "ตำบลสุเทพ".into()];
    paid.city = "อำเภอเมืองเชียงใหม่".into();
    paid.region = "เชียงใหม่".into();
    paid.postcode = "50200".into();
    paid.payment_method = "banktransfer".into();
    paid.shipping_amount = "50.00".into();
    shop.put_order(paid);
    // The default customer: Bangkok, check / money order, not paid yet.
    shop.put_order(MagentoOrder::new(
        102,
        "pending_payment",
        &magento_time(2.0),
        vec![magento_line("CF-250-2", "กาแฟดอยช้าง คั่วกลาง 250 กรัม (บด)", 1, "280.00")],
    ));
    let mut cod = MagentoOrder::new(
        103,
        "processing",
        &magento_time(0.5),
        vec![magento_line("BG-030-1", "กระเป๋าผ้าแคนวาส ใบใหญ่ (ครีม)", 1, "159.00")],
    );
    cod.customer_firstname = "วิภาวดี".into();
    cod.customer_lastname = "ศรีสุข".into();
    cod.customer_email = "wipawadee@example.co.th".into();
    cod.telephone = "0867654321".into();
    cod.street = vec!["123 หมู่ 4 ถนนมิตรภาพ".into(), "ตำบลในเมือง".into()];
    cod.city = "อำเภอเมืองขอนแก่น".into();
    cod.region = "ขอนแก่น".into();
    cod.postcode = "40000".into();
    cod.payment_method = "cashondelivery".into();
    cod.discount_amount = "-10.00".into();
    shop.put_order(cod);
    shop
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let host = std::env::var("SANDBOX_HOST").unwrap_or_else(|_| "127.0.0.1".into());
    let port = |name: &str, default: u16| std::env::var(name).ok().and_then(|p| p.parse().ok()).unwrap_or(default);
    let public =
        std::env::var("BO_SERVICES__MARKETPLACES__PUBLIC_URL").unwrap_or_else(|_| "http://localhost:8080".into());

    let shopee = ShopeeSandbox::start_on(&format!("{host}:{}", port("SHOPEE_PORT", 18081)), SHOPEE.0, SHOPEE.1).await?;
    shopee.add_shop(14701711, "ร้านเสื้อผ้าใจดี (Shopee)");
    // Shopee signs its pushes over the callback URL the partner registered.
    shopee.register_callback(&format!("{}/api/marketplaces/shopee/push", public.trim_end_matches('/')));
    // The demo store's catalogue as a Shopee seller lists it: codes that match, one behind a
    // shop prefix, one only by its name, a set, and one the store does not have.
    let tee = |model: &str, code: &str, colour: &str| {
        Listing::new("1001", model, "เสื้อยืดคอกลม Cotton 100%", code, "199.00").option("สี", colour)
    };
    shopee.put_listing(14701711, tee("501", "TS-001-1", "ขาว"), 25);
    shopee.put_listing(14701711, tee("502", "TS-001-2", "ดำ"), 25);
    shopee.put_listing(14701711, tee("503", "TS-001-3", "กรม"), 25);
    let coffee = |model: &str, code: &str, kind: &str| {
        Listing::new("1002", model, "กาแฟดอยช้าง คั่วกลาง 250 กรัม", code, "289.00").option("แบบ", kind)
    };
    shopee.put_listing(14701711, coffee("601", "CF-250-1", "เมล็ด"), 12);
    shopee.put_listing(14701711, coffee("602", "CF-250-2", "บด"), 12);
    shopee.put_listing(
        14701711,
        Listing::new("1003", "", "ครีมกันแดด SPF50 PA+++ (โปรโมชัน)", "PROMO-SK-050", "350.00"),
        8,
    );
    shopee.put_listing(14701711, Listing::new("1004", "", "หมอนอิงลายช้าง", "", "259.00"), 30);
    shopee.put_listing(14701711, Listing::new("1005", "", "ชุดเสื้อยืด + กระเป๋าผ้า", "SET-TEE-BAG", "459.00"), 5);
    shopee.put_listing(14701711, Listing::new("1006", "", "พวงกุญแจช้างไม้แกะสลัก", "KEY-ELE-01", "89.00"), 40);
    shopee.put_order(
        14701711,
        Order::new(
            "2611280001SHP",
            "READY_TO_SHIP",
            vec![line("1001", "501", "TS-001-1", "เสื้อยืดคอกลม Cotton 100% (ขาว)", 2, "199.00")],
        ),
    );

    let lazada = LazadaSandbox::start_on(&format!("{host}:{}", port("LAZADA_PORT", 18082)), LAZADA.0, LAZADA.1).await?;
    lazada.add_shop("100200300", "ร้านเสื้อผ้าใจดี (Lazada)");
    for (sku, size) in [("661", "28"), ("662", "30"), ("663", "32"), ("664", "34")] {
        let code = format!("JN-010-{}", ["28", "30", "32", "34"].iter().position(|s| *s == size).unwrap_or(0) + 1);
        let jeans = Listing::new("3001", sku, "กางเกงยีนส์ขากระบอก", &code, "590.00").option("size", size);
        lazada.put_listing("100200300", jeans, 10);
    }
    lazada.put_listing("100200300", Listing::new("3002", "771", "น้ำพริกเผา สูตรโบราณ 200 กรัม", "FD-011", "85.00"), 20);
    lazada.put_order(
        "100200300",
        Order::new("32793", "pending", vec![line("3001", "662", "JN-010-2", "กางเกงยีนส์ขากระบอก (30)", 1, "590.00")]),
    );

    let tiktok = TiktokSandbox::start_on(&format!("{host}:{}", port("TIKTOK_PORT", 18083)), TIKTOK.0, TIKTOK.1).await?;
    tiktok.add_shop("7494049642642441621", "ร้านเสื้อผ้าใจดี (TikTok Shop)");
    let tumbler = |sku: &str, code: &str, colour: &str| {
        Listing::new("1729582718312380123", sku, "แก้วเก็บความเย็น 20 ออนซ์", code, "259").option("สี", colour)
    };
    tiktok.put_listing("7494049642642441621", tumbler("2729382476852921560", "TB-020-1", "ชมพู"), 25);
    tiktok.put_listing("7494049642642441621", tumbler("2729382476852921561", "TB-020-2", "เขียวมิ้นต์"), 25);
    tiktok.register_redirect(&format!("{}/sale-channel-redirect", public.trim_end_matches('/')));
    tiktok.put_order(
        "7494049642642441621",
        Order::new(
            "576461413038785752",
            "AWAITING_SHIPMENT",
            vec![line(
                "1729582718312380123",
                "2729382476852921560",
                "TB-020-1",
                "แก้วเก็บความเย็น 20 ออนซ์ (ชมพู)",
                1,
                "259",
            )],
        ),
    );

    let magento = magento_shop();
    let magento_server =
        bo_sandbox::serve_on(&format!("{host}:{}", port("MAGENTO_PORT", 18084)), magento.router()).await?;

    println!(
        "Marketplace sandboxes: Shopee {}, Lazada {}, TikTok Shop {}",
        shopee.base_url, lazada.base_url, tiktok.base_url
    );
    // What the owner types in the Magento channel's form (sale channels › add a Magento
    // channel): OAuth 1.0a, since the shop refuses integration tokens as bearer tokens.
    println!("Magento 2 sandbox shop (OAuth 1.0a; bearer tokens refused, as 2.4.4 and later by default):");
    println!("  MAGENTO_URL={}", magento_server.base_url);
    println!("  MAGENTO_STORE_CODE=default");
    println!("  MAGENTO_CONSUMER_KEY={MAGENTO_CONSUMER_KEY}");
    println!("  MAGENTO_CONSUMER_SECRET={MAGENTO_CONSUMER_SECRET}");
    println!("  MAGENTO_ACCESS_TOKEN={MAGENTO_ACCESS_TOKEN}");
    println!("  MAGENTO_ACCESS_TOKEN_SECRET={MAGENTO_ACCESS_TOKEN_SECRET}");
    println!("  orders 000000101 (processing), 000000102 (pending_payment), 000000103 (processing)");
    println!("Place a Shopee order and push it to the back-office:");
    println!(
        "  curl -X POST {}/sandbox/shopee/orders -H 'content-type: application/json' -d '{{\"shop_id\": 14701711, \"order_sn\": \"2611280002SHP\", \"item_id\": \"1001\", \"model_id\": \"502\", \"seller_sku\": \"TS-001-2\", \"name\": \"เสื้อยืดคอกลม (ดำ)\", \"quantity\": 1, \"price\": \"199.00\"}}'",
        shopee.base_url
    );
    println!("Point a back-office at them with:");
    let env = |k: &str, v: &str| println!("  export BO_SERVICES__MARKETPLACES__{k}={v}");
    env("SHOPEE__API_URL", &shopee.base_url);
    env("SHOPEE__APP_KEY", &SHOPEE.0.to_string());
    env("SHOPEE__APP_SECRET", SHOPEE.1);
    env("LAZADA__API_URL", &format!("{}/rest", lazada.base_url));
    env("LAZADA__AUTH_URL", &format!("{}/rest", lazada.base_url));
    env("LAZADA__AUTHORIZE_URL", &format!("{}/oauth/authorize", lazada.base_url));
    env("LAZADA__APP_KEY", LAZADA.0);
    env("LAZADA__APP_SECRET", LAZADA.1);
    env("TIKTOK_SHOP__API_URL", &tiktok.base_url);
    env("TIKTOK_SHOP__AUTH_URL", &tiktok.base_url);
    env("TIKTOK_SHOP__AUTHORIZE_URL", &format!("{}/open/authorize", tiktok.base_url));
    env("TIKTOK_SHOP__APP_KEY", TIKTOK.0);
    env("TIKTOK_SHOP__APP_SECRET", TIKTOK.1);
    env("TIKTOK_SHOP__SERVICE_ID", "7100");
    env("PUBLIC_URL", &public);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
