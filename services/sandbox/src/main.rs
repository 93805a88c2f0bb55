//! `channels-sandbox`: the three marketplace sandboxes on fixed ports, with a Thai shop each
//! (listings and a few orders), for a person to click through connecting shops in the
//! back-office (`make channels-sandbox` starts both). Prints the settings that point a
//! back-office at them.

use bo_sandbox::lazada::LazadaSandbox;
use bo_sandbox::shopee::ShopeeSandbox;
use bo_sandbox::tiktok::TiktokSandbox;
use bo_sandbox::{line, Listing, Order};

/// The apps' keys the sandboxes take (not secrets: sandboxes only).
const SHOPEE: (i64, &str) = (2001887, "sandbox-shopee-partner-key");
const LAZADA: (&str, &str) = ("100001", "sandbox-lazada-app-secret");
const TIKTOK: (&str, &str) = ("6a1b2c", "sandbox-tiktok-app-secret");

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

    println!(
        "Marketplace sandboxes: Shopee {}, Lazada {}, TikTok Shop {}",
        shopee.base_url, lazada.base_url, tiktok.base_url
    );
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
