//! The marketplace measurements of `make bench` (embedded, `BENCH_ONLY=marketplaces` alone),
//! against the three sandboxes: 5,000 orders pushed within a minute, taken in once each, and
//! how long from a push to the order being in the list; 1,000 more with 30% of their pushes
//! lost, all in after two polls; a flash sale of 300 buyers on three marketplaces and the
//! back-office for 100 units; a re-assert of 10,000 linked listings within the sandboxes'
//! rate limits; 100 people on the realtime socket hearing a push all of 3,500 listings;
//! an automatic link of 10,000 listings against 10,000 SKUs.

use std::collections::HashMap;

use futures::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use bo_sandbox::lazada::LazadaSandbox;
use bo_sandbox::shopee::ShopeeSandbox;
use bo_sandbox::tiktok::TiktokSandbox;
use bo_sandbox::{line, Order};

use super::*;

const SHOPEE_SHOP: i64 = 14701711;
const LAZADA_SHOP: &str = "100200300";
const TIKTOK_SHOP: &str = "7494049642642441621";
const PUBLIC: &str = "https://bo.example";

fn now_ms() -> i64 {
    bo_kit::time::now_ms()
}

/// The value of percentile `p` of sorted `v`.
fn pct(v: &[i64], p: f64) -> i64 {
    if v.is_empty() {
        return 0;
    }
    v[((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1]
}

struct Sandboxes {
    shopee: ShopeeSandbox,
    lazada: LazadaSandbox,
    tiktok: TiktokSandbox,
}

impl Sandboxes {
    /// Places an order of `sku` at marketplace `m` (0, 1, 2) on its sandbox.
    fn place(&self, m: usize, id: &str, sku: &str, quantity: i64) {
        let (item, model) = listing(sku);
        let status = ["READY_TO_SHIP", "pending", "AWAITING_SHIPMENT"][m.min(2)];
        let o = Order::new(id, status, vec![line(&item, &model, sku, sku, quantity, "100.00")]);
        match m {
            0 => self.shopee.put_order(SHOPEE_SHOP, o),
            1 => self.lazada.put_order(LAZADA_SHOP, o),
            _ => self.tiktok.put_order(TIKTOK_SHOP, o),
        }
    }

    /// Pushes an order to the back-office: the HTTP status it was answered with.
    async fn push(&self, m: usize, api: &str, id: &str) -> u16 {
        match m {
            0 => self.shopee.push_order(SHOPEE_SHOP, id, &format!("{api}/marketplaces/shopee/push")).await,
            1 => self.lazada.push_order(LAZADA_SHOP, id, &format!("{api}/marketplaces/lazada/push")).await,
            _ => self.tiktok.push_order(TIKTOK_SHOP, id, &format!("{api}/marketplaces/tiktok-shop/push")).await,
        }
    }

    /// What listing `sku` shows at marketplace `m`.
    fn shows(&self, m: usize, sku: &str) -> Option<i64> {
        let (item, model) = listing(sku);
        match m {
            0 => self.shopee.stock(SHOPEE_SHOP, item.parse().unwrap(), model.parse().unwrap()),
            1 => self.lazada.stock(LAZADA_SHOP, &item, &model),
            _ => self.tiktok.stock(TIKTOK_SHOP, &item, &model),
        }
    }
}

/// The listing (item, model) every marketplace sells `sku` as in this bench.
fn listing(sku: &str) -> (String, String) {
    let n: u64 = sku.bytes().fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))) % 1_000_000;
    (format!("{}", 5_000_000 + n), format!("{}", 9_000_000 + n))
}

/// The reference an order of marketplace `m` is kept under: the number its seller sees
/// (Lazada's sandbox numbers its orders `3<id>`).
fn reference(m: usize, id: &str) -> String {
    if m == 1 {
        format!("3{id}")
    } else {
        id.to_string()
    }
}

/// Orders the marketplaces made, by reference: when each was created (unix ms).
async fn channel_orders(orders_db: &bo_kit::db::Db) -> HashMap<String, i64> {
    sqlx::query_as::<_, (String, i64)>("SELECT reference, created_at FROM orders WHERE store_channel_id > 0")
        .fetch_all(orders_db.pool())
        .await
        .unwrap()
        .into_iter()
        .collect()
}

pub async fn marketplaces() {
    println!("\n== marketplaces, target=all (SQLite, log bus), against the three sandboxes");
    let sb = Sandboxes {
        shopee: ShopeeSandbox::start(2001887, "shopee-partner-key").await.unwrap(),
        lazada: LazadaSandbox::start("123456", "lazada-app-secret").await.unwrap(),
        tiktok: TiktokSandbox::start("29a39d", "tiktok-app-secret").await.unwrap(),
    };
    sb.shopee.add_shop(SHOPEE_SHOP, "ร้าน Shopee");
    sb.shopee.register_callback(&format!("{PUBLIC}/api/marketplaces/shopee/push"));
    sb.lazada.add_shop(LAZADA_SHOP, "ร้าน Lazada");
    sb.tiktok.add_shop(TIKTOK_SHOP, "ร้าน TikTok");
    sb.tiktok.register_redirect(&format!("{PUBLIC}/sale-channel-redirect"));

    let dir = tempfile::tempdir().unwrap();
    let mut cfg = Config {
        data_dir: dir.path().to_path_buf(),
        http: bo_backoffice::config::HttpConfig { addr: "127.0.0.1:0".into(), ..Default::default() },
        demo: bo_backoffice::config::DemoConfig {
            enabled: true,
            email: "bench@example.com".into(),
            password: Secret::new("bench-password"),
            catalog: false,
            ..Default::default()
        },
        auth: bo_backoffice::config::AuthConfig { login_attempts_per_minute: 1000, ..Default::default() },
        ..Default::default()
    };
    let value = |v: Value| figment::value::Value::serialize(v).unwrap();
    let s = &mut cfg.service("marketplaces").settings;
    s.insert(
        "shopee".into(),
        value(json!({"api_url": sb.shopee.base_url, "app_key": "2001887", "app_secret": "shopee-partner-key"})),
    );
    s.insert(
        "lazada".into(),
        value(json!({"api_url": format!("{}/rest", sb.lazada.base_url), "auth_url": format!("{}/rest", sb.lazada.base_url),
            "authorize_url": format!("{}/oauth/authorize", sb.lazada.base_url), "app_key": "123456", "app_secret": "lazada-app-secret"})),
    );
    s.insert(
        "tiktok_shop".into(),
        value(json!({"api_url": sb.tiktok.base_url, "auth_url": sb.tiktok.base_url,
            "authorize_url": format!("{}/open/authorize", sb.tiktok.base_url), "app_key": "29a39d",
            "app_secret": "tiktok-app-secret", "service_id": "7100"})),
    );
    s.insert("public_url".into(), figment::value::Value::from(PUBLIC));
    // The bench polls when it means to.
    s.insert("poll_every_ms".into(), figment::value::Value::from(3_600_000));
    s.insert("stock_push_every_ms".into(), figment::value::Value::from(200));
    let launched = bo_backoffice::app::launch(cfg, bo_backoffice::resolve("all").unwrap()).await.unwrap();
    let api = format!("http://{}/api", launched.http_addr);
    let store_id = launched.demo.as_ref().unwrap().store_id;
    let client = reqwest::Client::builder().pool_max_idle_per_host(64).build().unwrap();
    let (token, _) = sign_in(&api, &client, "bench@example.com", "bench-password", store_id).await;
    let call = |method: reqwest::Method, path: String, body: Option<Value>| {
        let mut req = client.request(method, format!("{api}{path}")).bearer_auth(&token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        async move {
            let r = req.send().await.unwrap();
            let status = r.status();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let mut warehouse = None;
    for _ in 0..150 {
        warehouse = call(reqwest::Method::GET, "/wms/warehouses".into(), None).await.1["data"][0]["id"].as_i64();
        if warehouse.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let w = warehouse.expect("a warehouse");

    // Our SKUs: two sold in bulk, one for the flash sale.
    let (_, cats) = call(reqwest::Method::GET, "/products/categories".into(), None).await;
    let category = cats["data"][0]["id"].clone();
    let mut skus = HashMap::new();
    for (code, units) in [("BULK-A", 1_000_000), ("BULK-B", 1_000_000), ("FLASH", 100)] {
        let (s, p) = call(
            reqwest::Method::POST,
            "/products".into(),
            Some(json!({"code": code, "name": code, "short_description": code, "category_id": category, "price": "100", "cost": "50", "tags": ["bench"], "skus": [{}]})),
        )
        .await;
        assert!(s.is_success(), "{p}");
        let sku = p["skus"][0]["id"].as_i64().unwrap();
        loop {
            let (s, _) = call(
                reqwest::Method::POST,
                "/wms/goods-adjust".into(),
                Some(json!({"warehouse_id": w, "sku_id": sku, "quantity": units, "reason": "bench"})),
            )
            .await;
            if s.is_success() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        skus.insert(code, sku);
        for m in 0..3 {
            let (item, model) = listing(code);
            match m {
                0 => sb.shopee.add_listing(SHOPEE_SHOP, item.parse().unwrap(), model.parse().unwrap(), 0),
                1 => sb.lazada.add_listing(LAZADA_SHOP, &item, &model, 0),
                _ => sb.tiktok.add_listing(TIKTOK_SHOP, &item, &model, 0),
            }
        }
    }

    // The three shops connected, taking from the warehouse.
    for (mp, code, shop) in [
        ("shopee", sb.shopee.authorize(SHOPEE_SHOP), SHOPEE_SHOP.to_string()),
        ("lazada", sb.lazada.authorize(LAZADA_SHOP), String::new()),
        ("tiktok-shop", sb.tiktok.authorize("seller"), String::new()),
    ] {
        let (_, v) = call(reqwest::Method::GET, format!("/marketplaces/{mp}/auth-url"), None).await;
        let state = v["state"].as_str().unwrap().to_string();
        let (s, v) = call(
            reqwest::Method::POST,
            format!("/marketplaces/{mp}/connect"),
            Some(json!({"state": state, "code": code, "shop_id": shop})),
        )
        .await;
        assert!(s.is_success(), "{v}");
        let id = v["data"][0]["id"].as_i64().unwrap();
        call(reqwest::Method::PATCH, format!("/marketplaces/store-channels/{id}"), Some(json!({"warehouse_id": w})))
            .await;
    }
    let orders_db =
        bo_kit::db::Db::connect(&format!("sqlite://{}", dir.path().join("orders.db").display())).await.unwrap();
    let sb = Arc::new(sb);

    // 5,000 orders pushed within a minute, the three marketplaces at once.
    const PUSHED: usize = 5_000;
    for n in 0..PUSHED {
        sb.place(n % 3, &format!("B{n:06}"), if n % 2 == 0 { "BULK-A" } else { "BULK-B" }, 1);
    }
    let sent_at: Arc<std::sync::Mutex<HashMap<String, i64>>> = Default::default();
    let started = Instant::now();
    let pushers: Vec<_> = (0..16)
        .map(|p| {
            let (sb, api, sent_at) = (sb.clone(), api.clone(), sent_at.clone());
            tokio::spawn(async move {
                let mut refused = 0;
                // Spread over about 50 seconds: 100 a second.
                for n in (p..PUSHED).step_by(16) {
                    let due = Duration::from_millis(n as u64 * 10);
                    if let Some(wait) = due.checked_sub(started.elapsed()) {
                        tokio::time::sleep(wait).await;
                    }
                    let id = format!("B{n:06}");
                    sent_at.lock().unwrap().insert(id.clone(), now_ms());
                    if !(200..300).contains(&sb.push(n % 3, &api, &id).await) {
                        refused += 1;
                    }
                }
                refused
            })
        })
        .collect();
    let mut refused = 0;
    for p in pushers {
        refused += p.await.unwrap();
    }
    let pushed_in = started.elapsed();
    let mut seen = HashMap::new();
    for _ in 0..1200 {
        seen = channel_orders(&orders_db).await;
        if seen.len() >= PUSHED {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let all_in = started.elapsed();
    let sent = sent_at.lock().unwrap().clone();
    let mut lag: Vec<i64> = sent
        .iter()
        .filter_map(|(id, at)| {
            let n: usize = id[1..].parse().unwrap();
            seen.get(&reference(n % 3, id)).map(|c| (c - at).max(0))
        })
        .collect();
    lag.sort_unstable();
    let (count, distinct): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), COUNT(DISTINCT reference) FROM orders WHERE store_channel_id > 0")
            .fetch_one(orders_db.pool())
            .await
            .unwrap();
    println!(
        "{:<34} {PUSHED} pushed in {:.1} s ({refused} refused), {} taken in after {:.1} s, {} twice; push to list ({} timed) p50 {} ms, p95 {} ms, p99 {} ms",
        "pushed orders",
        pushed_in.as_secs_f64(),
        seen.len(),
        all_in.as_secs_f64(),
        count - distinct,
        lag.len(),
        pct(&lag, 0.50),
        pct(&lag, 0.95),
        pct(&lag, 0.99)
    );

    // 1,000 more, 30% of their pushes lost: two polls take in the rest.
    const LOSSY: usize = 1_000;
    for n in 0..LOSSY {
        sb.place(n % 3, &format!("L{n:06}"), "BULK-A", 1);
    }
    let mut dropped = 0;
    for n in 0..LOSSY {
        if n % 10 < 3 {
            dropped += 1;
            if n % 3 == 0 {
                sb.shopee.drop_order_push(SHOPEE_SHOP, &format!("L{n:06}"));
            }
            continue;
        }
        sb.push(n % 3, &api, &format!("L{n:06}")).await;
    }
    // A poll reads whole seconds up to the current one.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let started = Instant::now();
    let mut rounds = Vec::new();
    for _ in 0..2 {
        let (_, v) =
            call(reqwest::Method::POST, "/orders/produce-missing-mkp-order-after-token-expire".into(), Some(json!({})))
                .await;
        rounds.push(v["orders"].as_i64().unwrap_or(0));
    }
    let seen = channel_orders(&orders_db).await;
    let lossy_in = (0..LOSSY).filter(|n| seen.contains_key(&reference(n % 3, &format!("L{n:06}")))).count();
    println!(
        "{:<34} {LOSSY} placed, {dropped} pushes lost; after two polls ({:?} taken, {:.1} s) {lossy_in} of {LOSSY} are in",
        "lost pushes, polled",
        rounds,
        started.elapsed().as_secs_f64()
    );

    // A flash sale: 300 buyers for 100 units, 75 on each marketplace and 75 in the back-office.
    let flash = skus["FLASH"];
    for m in 0..3 {
        for b in 0..75 {
            sb.place(m, &format!("F{m}{b:03}"), "FLASH", 1);
        }
    }
    let started = Instant::now();
    let mut buyers = Vec::new();
    for b in 0..75 {
        for m in 0..3 {
            let (sb, api) = (sb.clone(), api.clone());
            buyers.push(tokio::spawn(async move { sb.push(m, &api, &format!("F{m}{b:03}")).await }));
        }
        let (c, api, token) = (client.clone(), api.clone(), token.clone());
        buyers.push(tokio::spawn(async move {
            let body = json!({"channel": "facebook", "warehouse_id": w, "items": [{"sku_id": flash, "quantity": 1}]});
            c.post(format!("{api}/orders"))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .map(|r| r.status().as_u16())
                .unwrap_or(0)
        }));
    }
    for b in buyers {
        b.await.unwrap();
    }
    // Every marketplace order of the sale in, then the listings at 0.
    for _ in 0..600 {
        let seen = channel_orders(&orders_db).await;
        if (0..3).all(|m| (0..75).all(|b| seen.contains_key(&reference(m, &format!("F{m}{b:03}"))))) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let taken = started.elapsed();
    let mut zero_after = None;
    for _ in 0..600 {
        if (0..3).all(|m| sb.shows(m, "FLASH") == Some(0)) {
            zero_after = Some(started.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let (_, lots) =
        call(reqwest::Method::GET, format!("/wms/stock-lots?warehouse-id={w}&sku-ids={flash}&limit=-1"), None).await;
    let reserved: i64 = lots["data"].as_array().unwrap().iter().map(|l| l["reserved"].as_i64().unwrap()).sum();
    println!(
        "{:<34} 300 buyers for 100 units: {reserved} held; all orders in after {:.1} s; every marketplace reads 0 after {}",
        "flash sale",
        taken.as_secs_f64(),
        zero_after.map_or("never (60 s)".to_string(), |d| format!("{:.1} s", d.as_secs_f64()))
    );

    // A re-assert of 10,000 linked listings, each sandbox refusing more than 10 calls a second.
    let market =
        bo_kit::db::Db::connect(&format!("sqlite://{}", dir.path().join("marketplaces.db").display())).await.unwrap();
    let shops: Vec<(i64, String)> = sqlx::query_as("SELECT id, marketplace FROM store_channels ORDER BY id")
        .fetch_all(market.pool())
        .await
        .unwrap();
    let sku = skus["BULK-B"];
    let mut tx = market.begin().await.unwrap();
    let mut linked = 0;
    for (id, mp) in &shops {
        // Shopee: 70 items of 50 models; Lazada: 3,500 listings; TikTok Shop: 30 products of 100.
        let (items, models) = match mp.as_str() {
            "shopee" => (70, 50),
            "lazada" => (3_500, 1),
            _ => (30, 100),
        };
        for i in 0..items {
            for j in 0..models {
                let (item, model) = (format!("{}", 7_000_000 + i), format!("{}", 8_000_000 + i * 1_000 + j));
                match mp.as_str() {
                    "shopee" => sb.shopee.add_listing(SHOPEE_SHOP, item.parse().unwrap(), model.parse().unwrap(), 0),
                    "lazada" => sb.lazada.add_listing(LAZADA_SHOP, &item, &model, 0),
                    _ => sb.tiktok.add_listing(TIKTOK_SHOP, &item, &model, 0),
                }
                sqlx::query(
                    "INSERT INTO listings (store_id, store_channel_id, item_id, model_id, seller_sku, sku_id, linked_by, \
                     wanted, sent, sent_at, due_at, attempts, last_answer, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, 'BULK-B', $5, 'order', -1, -1, 0, 0, 0, '', 0, 0)",
                )
                .bind(store_id)
                .bind(id)
                .bind(&item)
                .bind(&model)
                .bind(sku)
                .execute(&mut *tx)
                .await
                .unwrap();
                linked += 1;
            }
        }
    }
    tx.commit().await.unwrap();
    let before = [sb.shopee.throttle(10), sb.lazada.throttle(10), sb.tiktok.throttle(10)];
    let calls_before = [sb.shopee.stock_calls(), sb.lazada.stock_calls(), sb.tiktok.stock_calls()];
    let started = Instant::now();
    sqlx::query("UPDATE listings SET due_at = $1, wanted = -1").bind(now_ms()).execute(market.pool()).await.unwrap();
    for _ in 0..6000 {
        let due: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM listings WHERE due_at > 0")
            .fetch_one(market.pool())
            .await
            .unwrap();
        if due == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let took = started.elapsed();
    let after = [sb.shopee.throttle(10), sb.lazada.throttle(10), sb.tiktok.throttle(10)];
    let calls = [sb.shopee.stock_calls(), sb.lazada.stock_calls(), sb.tiktok.stock_calls()];
    println!(
        "{:<34} {linked} listings in {:.1} s; stock calls (Shopee, Lazada, TikTok) {:?}; refused by the 10/s limits {:?}",
        "re-assert",
        took.as_secs_f64(),
        (0..3).map(|i| calls[i] - calls_before[i]).collect::<Vec<_>>(),
        (0..3).map(|i| after[i] - before[i]).collect::<Vec<_>>()
    );

    // 100 people on the realtime socket (a session each) while the Lazada shop's 3,500
    // listings are pushed all: how long the status takes to answer, and how long after the
    // first socket the last one hears the push's end.
    let lazada = shops.iter().find(|(_, mp)| mp == "lazada").unwrap().0;
    let mut sockets = Vec::new();
    for _ in 0..100 {
        let (token, _) = sign_in(&api, &client, "bench@example.com", "bench-password", store_id).await;
        let url = format!("{}/realtime", api.replacen("http", "ws", 1));
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("the socket opens");
        ws.send(Message::Text(json!({"event": "AUTH", "token": token}).to_string().into())).await.unwrap();
        frame(&mut ws).await;
        sockets.push(ws);
    }
    let mut asked = Vec::new();
    for ws in &mut sockets {
        let at = Instant::now();
        ws.send(Message::Text(json!({"event": "PRODUCT_SYNC_STOCK_ALL"}).to_string().into())).await.unwrap();
        while frame(ws).await["event"] != "PRODUCT_SYNC_STOCK_ALL" {}
        asked.push(at.elapsed().as_micros() as i64);
    }
    asked.sort_unstable();
    let started = Instant::now();
    let heard: Vec<_> = sockets
        .into_iter()
        .map(|mut ws| {
            tokio::spawn(async move {
                let mut steps = 0;
                loop {
                    let f = frame(&mut ws).await;
                    let Some(sync) =
                        f["data"].as_array().and_then(|d| d.iter().find(|s| s["store_channel_id"] == lazada))
                    else {
                        continue;
                    };
                    steps += 1;
                    if sync["status"] == "finished" && sync["total"].as_i64() > Some(0) {
                        return (Instant::now(), steps, sync["total"].as_i64().unwrap());
                    }
                }
            })
        })
        .collect();
    let (status, v) = call(
        reqwest::Method::POST,
        "/products/marketplace/lazada/update-stock".into(),
        Some(json!({"store_channel_id": lazada})),
    )
    .await;
    assert!(status.is_success(), "{v}");
    let mut ends = Vec::new();
    for h in heard {
        ends.push(
            tokio::time::timeout(Duration::from_secs(600), h).await.expect("the push's end within 10 min").unwrap(),
        );
    }
    let first = ends.iter().map(|e| e.0).min().unwrap();
    let mut spread: Vec<i64> = ends.iter().map(|e| (e.0 - first).as_millis() as i64).collect();
    spread.sort_unstable();
    println!(
        "{:<34} 100 sockets: status answered p50 {:.1} ms, p99 {:.1} ms; push all of {} listings finished after {:.1} s \
         ({} steps heard by each), the last socket {} ms after the first (p99 {} ms)",
        "realtime socket",
        pct(&asked, 0.50) as f64 / 1000.0,
        pct(&asked, 0.99) as f64 / 1000.0,
        ends[0].2,
        (first - started).as_secs_f64(),
        ends[0].1,
        spread.last().unwrap(),
        pct(&spread, 0.99)
    );

    // An automatic link of 10,000 listings waiting in one shop against 10,000 SKUs of ours:
    // 7,000 by seller SKU (written in other cases and spacing), 2,000 by name, 1,000 match
    // nothing.
    use futures::stream;
    let seeded = Instant::now();
    let refused: Vec<String> = stream::iter(0..10_000)
        .map(|n| {
            let body = json!({"code": format!("AL-{n:05}"), "name": format!("สินค้าอัตโนมัติ {n:05}"),
                "short_description": "bench", "category_id": category, "price": "100", "cost": "50", "tags": ["bench"], "skus": [{}]});
            let call = &call;
            async move {
                // A moment's refusal (busy, throttled) is asked again.
                let mut last = String::new();
                for _ in 0..5 {
                    let (status, v) = call(reqwest::Method::POST, "/products".into(), Some(body.clone())).await;
                    if status.is_success() {
                        return None;
                    }
                    last = format!("{status} {v}");
                    if status.is_client_error() && status != reqwest::StatusCode::TOO_MANY_REQUESTS {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Some(last)
            }
        })
        .buffer_unordered(16)
        .filter_map(|r| async move { r })
        .collect()
        .await;
    assert!(refused.is_empty(), "{} products refused, the first: {}", refused.len(), refused[0]);
    let products_took = seeded.elapsed();
    let tiktok = shops.iter().find(|(_, mp)| mp == "tiktok_shop").map_or(shops[0].0, |s| s.0);
    let mut tx = market.begin().await.unwrap();
    for n in 0..10_000 {
        let (seller_sku, name) = match n % 10 {
            0..=6 => (format!(" al-{n:05}  "), format!("ชื่อบนร้าน {n}")),
            7 | 8 => (String::new(), format!("สินค้าอัตโนมัติ   {n:05}")),
            _ => (format!("ZZ-{n}"), format!("อื่น {n}")),
        };
        sqlx::query(
            "INSERT INTO listings (store_id, store_channel_id, item_id, model_id, seller_sku, sku_id, linked_by, \
             wanted, sent, sent_at, due_at, attempts, last_answer, created_at, updated_at, name, search) \
             VALUES ($1, $2, $3, '', $4, 0, '', -1, -1, 0, 0, 0, '', 0, 0, $5, $6)",
        )
        .bind(store_id)
        .bind(tiktok)
        .bind(format!("{}", 9_000_000 + n))
        .bind(&seller_sku)
        .bind(&name)
        .bind(format!("{} {}", name.to_lowercase(), seller_sku.to_lowercase()))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    let started = Instant::now();
    let (status, v) = call(
        reqwest::Method::POST,
        format!("/marketplaces/store-channels/{tiktok}/listings/auto-link"),
        Some(json!({"by_name": true})),
    )
    .await;
    let took = started.elapsed();
    assert!(status.is_success(), "{v}");
    println!(
        "{:<34} 10,000 waiting listings against 10,000 SKUs (made in {:.1} s) in {:.2} s: {} by seller SKU, {} by name, {} waiting",
        "auto-link",
        products_took.as_secs_f64(),
        took.as_secs_f64(),
        v["by_seller_sku"],
        v["by_name"],
        v["waiting"]
    );
    launched.stop().await;
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The socket's next text frame.
async fn frame(ws: &mut Socket) -> Value {
    loop {
        match tokio::time::timeout(Duration::from_secs(600), ws.next()).await.expect("a frame").expect("open").unwrap()
        {
            Message::Text(t) => return serde_json::from_str(&t).unwrap(),
            m => assert!(!m.is_close(), "closed: {m:?}"),
        }
    }
}
