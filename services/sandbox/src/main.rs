//! `channels-sandbox`: the three marketplace sandboxes on fixed ports, with a Thai shop each
//! (listings and a few orders), for a person to click through connecting shops in the
//! back-office (`make channels-sandbox` starts both). Prints the settings that point a
//! back-office at them.

use bo_sandbox::lazada::LazadaSandbox;
use bo_sandbox::shopee::ShopeeSandbox;
use bo_sandbox::tiktok::TiktokSandbox;
use bo_sandbox::{line, Order};

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
    shopee.add_listing(14701711, 1001, 501, 25);
    shopee.add_listing(14701711, 1001, 502, 25);
    shopee.put_order(
        14701711,
        Order::new(
            "2611280001SHP",
            "READY_TO_SHIP",
            vec![line("1001", "501", "TEE-RED-M", "เสื้อยืดสีแดง M", 2, "199.00")],
        ),
    );

    let lazada = LazadaSandbox::start_on(&format!("{host}:{}", port("LAZADA_PORT", 18082)), LAZADA.0, LAZADA.1).await?;
    lazada.add_shop("100200300", "ร้านเสื้อผ้าใจดี (Lazada)");
    lazada.add_listing("100200300", "3001", "666", 25);
    lazada.put_order(
        "100200300",
        Order::new("32793", "pending", vec![line("3001", "666", "TEE-BLUE-L", "เสื้อยืดสีน้ำเงิน L", 1, "219.00")]),
    );

    let tiktok = TiktokSandbox::start_on(&format!("{host}:{}", port("TIKTOK_PORT", 18083)), TIKTOK.0, TIKTOK.1).await?;
    tiktok.add_shop("7494049642642441621", "ร้านเสื้อผ้าใจดี (TikTok Shop)");
    tiktok.add_listing("7494049642642441621", "1729582718312380123", "2729382476852921560", 25);
    tiktok.register_redirect(&format!("{}/sale-channel-redirect", public.trim_end_matches('/')));
    tiktok.put_order(
        "7494049642642441621",
        Order::new(
            "576461413038785752",
            "AWAITING_SHIPMENT",
            vec![line("1729582718312380123", "2729382476852921560", "MUG-WHITE", "แก้วมัคสีขาว", 1, "159")],
        ),
    );

    println!(
        "Marketplace sandboxes: Shopee {}, Lazada {}, TikTok Shop {}",
        shopee.base_url, lazada.base_url, tiktok.base_url
    );
    println!("Place a Shopee order and push it to the back-office:");
    println!(
        "  curl -X POST {}/sandbox/shopee/orders -H 'content-type: application/json' -d '{{\"shop_id\": 14701711, \"order_sn\": \"2611280002SHP\", \"item_id\": \"1001\", \"model_id\": \"502\", \"seller_sku\": \"TEE-RED-L\", \"name\": \"เสื้อยืดสีแดง L\", \"quantity\": 1, \"price\": \"199.00\"}}'",
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
