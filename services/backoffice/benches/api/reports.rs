//! The reports' measurements of `make bench` (`BENCH_ONLY=reports` runs them alone): a
//! million orders written straight into the orders database (a year of them, five channels,
//! 2,000 SKUs, 150,000 customers and guests, twenty provinces, one in eight cancelled), the
//! reports' read models built from them by a full rebuild (the path the check and
//! `backoffice admin reports rebuild` take: every order streamed from the orders service and
//! counted), then every dashboard call at a month and at a year, the overview's call, an
//! order's effect on the dashboard, and the export of the year's orders.

use super::orders::{export_orders, rss_kb};
use super::*;

/// Orders seeded.
pub(super) const ORDERS: usize = 1_000_000;
const SKUS: i64 = 2_000;
const CUSTOMERS: i64 = 150_000;
const CHANNELS: [&str; 5] = ["facebook", "line", "website", "shopee", "lazada"];
const PLACES: [(&str, &str); 20] = [
    ("กรุงเทพมหานคร", "บางรัก"),
    ("กรุงเทพมหานคร", "ห้วยขวาง"),
    ("กรุงเทพมหานคร", "จตุจักร"),
    ("เชียงใหม่", "เมืองเชียงใหม่"),
    ("เชียงใหม่", "สันทราย"),
    ("ขอนแก่น", "เมืองขอนแก่น"),
    ("นครราชสีมา", "เมืองนครราชสีมา"),
    ("ชลบุรี", "บางละมุง"),
    ("ชลบุรี", "ศรีราชา"),
    ("ภูเก็ต", "กะทู้"),
    ("สงขลา", "หาดใหญ่"),
    ("นนทบุรี", "ปากเกร็ด"),
    ("ปทุมธานี", "ธัญบุรี"),
    ("สมุทรปราการ", "บางพลี"),
    ("อุดรธานี", "เมืองอุดรธานี"),
    ("สุราษฎร์ธานี", "เกาะสมุย"),
    ("พิษณุโลก", "เมืองพิษณุโลก"),
    ("ตาก", "แม่สอด"),
    ("ระยอง", "เมืองระยอง"),
    ("อยุธยา", "พระนครศรีอยุธยา"),
];
const STATES: [&str; 8] =
    ["closed", "closed", "shipped", "closed", "new", "ready_to_fulfillment", "cancelled", "closed"];

/// A small deterministic mix (no two neighbours alike).
fn mix(i: usize, salt: u64) -> u64 {
    let mut x = (i as u64).wrapping_add(salt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 32)
}

struct Seed {
    id: i64,
    no: String,
    channel: &'static str,
    state: &'static str,
    province: &'static str,
    district: &'static str,
    customer: i64,
    created_by: i64,
    at: i64,
    cancelled_at: i64,
    /// (sku, units)
    lines: Vec<(i64, i64)>,
    /// subtotal, net, vat, total, cost, net ex VAT, profit
    money: [i64; 7],
}

const PRICE: i64 = 19_900;
const COST: i64 = 12_000;
const SHIPPING: i64 = 4_000;

fn seed_of(i: usize, id: i64, now: i64, owner: i64) -> Seed {
    let r = mix(i, 7);
    let n_lines = 1 + (r % 3) as usize;
    let lines: Vec<(i64, i64)> = (0..n_lines)
        .map(|k| (5_000_000 + (mix(i, 11 + k as u64) % SKUS as u64) as i64, 1 + (mix(i, 13 + k as u64) % 3) as i64))
        .collect();
    let mut skus_seen = std::collections::BTreeMap::new();
    for (s, q) in &lines {
        *skus_seen.entry(*s).or_insert(0) += q;
    }
    let lines: Vec<(i64, i64)> = skus_seen.into_iter().collect();
    let units: i64 = lines.iter().map(|l| l.1).sum();
    let subtotal = PRICE * units;
    let vat = (subtotal * 7 + 53) / 107;
    let net_ex_vat = subtotal - vat;
    let cost = COST * units;
    // A year of orders, newest last; the last day's too.
    let at = now - ((ORDERS - i) as i64 * 365 * 86_400_000 / ORDERS as i64);
    let state = STATES[(r >> 8) as usize % STATES.len()];
    let (province, district) = PLACES[(r >> 16) as usize % PLACES.len()];
    Seed {
        id,
        no: format!("SRP-{i:07}"),
        channel: CHANNELS[(r >> 24) as usize % CHANNELS.len()],
        state,
        province,
        district,
        customer: if (r >> 32) % 10 < 6 { 1 + (mix(i, 17) % CUSTOMERS as u64) as i64 } else { 0 },
        created_by: if (r >> 40).is_multiple_of(2) { owner } else { 0 },
        at,
        cancelled_at: if state == "cancelled" { (at + 86_400_000).min(now) } else { 0 },
        lines,
        money: [subtotal, subtotal, vat, subtotal + SHIPPING, cost, net_ex_vat, net_ex_vat - cost],
    }
}

/// Writes `n` orders straight into the orders database, ids after the newest there.
async fn seed_million(url: &str, store_id: i64, warehouse: i64, owner: i64, n: usize) -> Duration {
    let start = Instant::now();
    let db = bo_kit::db::Db::connect(url).await.unwrap();
    let first: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM orders")
        .fetch_one(db.pool())
        .await
        .unwrap();
    let now = bo_kit::time::now_ms();
    let mut counts = std::collections::HashMap::new();
    let mut i = 0;
    while i < n {
        let seeds: Vec<Seed> = (i..(i + 2_000).min(n)).map(|k| seed_of(k, first + 1 + k as i64, now, owner)).collect();
        i += seeds.len();
        for s in &seeds {
            *counts.entry(s.state).or_insert(0i64) += 1;
        }
        let mut tx = db.begin().await.unwrap();
        bo_kit::db::insert_rows(
            &mut tx,
            "INSERT INTO orders (id, store_id, order_no, channel, reference, state, payment_state, warehouse_id, \
             ship_name, ship_tel, ship_address, ship_sub_district, ship_district, ship_state_province, ship_postcode, \
             subtotal, discount_amount, net, shipping_charge, shipping_charge_inter, additional_fee, vat_amount, total, \
             cost_total, net_ex_vat, profit, stock_state, stock_state_at, hold_revision, search_text, customer_id, \
             created_by, cancelled_at, created_at, updated_at)",
            "",
            35,
            &seeds,
            |q, s| {
                let stock = match s.state {
                    "new" | "ready_to_fulfillment" => "held",
                    "cancelled" => "released",
                    _ => "committed",
                };
                q.bind(s.id)
                    .bind(store_id)
                    .bind(&s.no)
                    .bind(s.channel)
                    .bind("")
                    .bind(s.state)
                    .bind("unpaid")
                    .bind(warehouse)
                    .bind("ลูกค้า")
                    .bind("0812345678")
                    .bind("1 ถนนพระราม 9")
                    .bind("ตำบล")
                    .bind(s.district)
                    .bind(s.province)
                    .bind("10310")
                    .bind(s.money[0])
                    .bind(0i64)
                    .bind(s.money[1])
                    .bind(SHIPPING)
                    .bind(0i64)
                    .bind(0i64)
                    .bind(s.money[2])
                    .bind(s.money[3])
                    .bind(s.money[4])
                    .bind(s.money[5])
                    .bind(s.money[6])
                    .bind(stock)
                    .bind(s.at)
                    .bind(1i64)
                    .bind(&s.no)
                    .bind(s.customer)
                    .bind(s.created_by)
                    .bind(s.cancelled_at)
                    .bind(s.at)
                    .bind(s.at)
            },
        )
        .await
        .unwrap();
        let items: Vec<(i64, usize, i64, i64)> =
            seeds.iter().flat_map(|s| s.lines.iter().enumerate().map(|(k, (sku, q))| (s.id, k, *sku, *q))).collect();
        bo_kit::db::insert_rows(
            &mut tx,
            "INSERT INTO order_items (store_id, order_id, position, sku_id, product_id, product_name, product_code, \
             sku_code, price, cost, warehouse_id, quantity, line_total)",
            "",
            13,
            &items,
            |q, (order, k, sku, units)| {
                q.bind(store_id)
                    .bind(*order)
                    .bind(*k as i64)
                    .bind(*sku)
                    .bind(*sku)
                    .bind("สินค้าทดสอบ")
                    .bind("B")
                    .bind(format!("R-{sku}"))
                    .bind(PRICE)
                    .bind(COST)
                    .bind(warehouse)
                    .bind(*units)
                    .bind(PRICE * units)
            },
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }
    for (st, c) in counts {
        sqlx::query(
            "INSERT INTO order_counts (store_id, state, n) VALUES ($1, $2, $3) \
             ON CONFLICT (store_id, state) DO UPDATE SET n = order_counts.n + excluded.n",
        )
        .bind(store_id)
        .bind(st)
        .bind(c)
        .execute(db.pool())
        .await
        .unwrap();
    }
    if db.dialect() == bo_kit::db::Dialect::Postgres {
        sqlx::query("SELECT setval(pg_get_serial_sequence('orders', 'id'), (SELECT MAX(id) FROM orders))")
            .execute(db.pool())
            .await
            .unwrap();
        sqlx::query("VACUUM ANALYZE").execute(db.pool()).await.unwrap();
    } else {
        sqlx::query("ANALYZE").execute(db.pool()).await.unwrap();
    }
    db.close().await;
    start.elapsed()
}

/// The reports at a million orders. `rebuild` builds the read models afresh from the orders
/// (answering the orders counted).
pub(super) async fn reports<F, Fut>(t: &Target, client: &reqwest::Client, warehouse: i64, rebuild: F)
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = i64>,
{
    let took = seed_million(&t.orders_db, t.store_id, warehouse, t.user_id, ORDERS).await;
    println!(
        "{:<34} {:>9} orders   ({:.1} s, straight into the orders database)",
        "seed: a year of orders",
        ORDERS,
        took.as_secs_f64()
    );
    let before = rss_kb();
    let start = Instant::now();
    let counted = rebuild().await;
    println!(
        "{:<34} {:>9.1} s    ({counted} orders counted, {:.0} orders/s; memory rose {} MB)",
        "reports rebuild (read models)",
        start.elapsed().as_secs_f64(),
        counted as f64 / start.elapsed().as_secs_f64(),
        rss_kb().saturating_sub(before) / 1024
    );
    let year = get_json(t, client, "/order-reports/order-summaries?period=yearly").await;
    println!(
        "{:<34} {:>9} orders in the year's summary ({} cancelled)",
        "check: the year", year["current"]["orders"], year["current"]["cancelled"]
    );

    let get = |path: &str| getter(t, client, path, 1);
    for period in ["monthly", "yearly"] {
        for (label, path) in [
            ("order-summaries (overview)", "/order-reports/order-summaries"),
            ("order-summaries/total", "/order-reports/order-summaries/total"),
            ("order-summaries/daily", "/order-reports/order-summaries/daily"),
            ("table-lists/channels", "/order-reports/order-summaries/table-lists/channels"),
            ("table-lists/states", "/order-reports/order-summaries/table-lists/states"),
            ("charts/sales", "/order-reports/order-summaries/charts/sales"),
            ("charts/channels", "/order-reports/order-summaries/charts/channels"),
            ("sold-item-summaries", "/order-reports/sold-item-summaries"),
            ("sold-items table-lists/skus", "/order-reports/sold-item-summaries/table-lists/skus"),
            ("customer-summaries", "/order-reports/customer-summaries"),
            ("customers locations/top-sales", "/order-reports/customer-summaries/locations/top-sales"),
            ("admin-performance-summaries", "/order-reports/admin-performance-summaries"),
            ("service-fee-summaries", "/order-reports/service-fee-summaries"),
        ] {
            let sep = if path.contains('?') { '&' } else { '?' };
            let mut stats = run(get(&format!("{path}{sep}period={period}"))).await;
            println!("{}", stats.line(&format!("{label} ({period})")));
        }
    }

    // An order's effect: placed through the API, on the overview within how long.
    let product = client
        .post(format!("{}/products", t.api))
        .bearer_auth(&t.token)
        .json(&json!({"name": "สินค้าวัดผล", "short_description": "วัดผล", "code": "RPT-FRESH", "category_id": 1,
            "price": "100", "cost": "40", "tags": ["bench"], "skus": [{}]}))
        .send()
        .await
        .unwrap();
    let product: Value = product.json().await.unwrap();
    let sku = product["skus"][0]["id"].as_i64().unwrap();
    loop {
        let r = client
            .post(format!("{}/wms/goods-adjust", t.api))
            .bearer_auth(&t.token)
            .json(&json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": 100, "reason": "bench"}))
            .send()
            .await
            .unwrap();
        if r.status().is_success() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let orders_now = |v: &Value| v["current"]["orders"].as_i64().unwrap_or(0);
    let before = orders_now(&get_json(t, client, "/order-reports/order-summaries?period=daily").await);
    let body = json!({"channel": "line", "warehouse_id": warehouse, "items": [{"sku_id": sku, "quantity": 1}],
        "shipping_address": {"name": "สมชาย ใจดี", "tel": "0812345678", "address": "99/1 ถนนสุขุมวิท",
            "sub_district": "คลองเตยเหนือ", "district": "วัฒนา", "state_province": "กรุงเทพมหานคร", "postcode": "10110"}});
    let placed = Instant::now();
    let r = client.post(format!("{}/orders", t.api)).bearer_auth(&t.token).json(&body).send().await.unwrap();
    assert!(r.status().is_success(), "an order: {}", r.status());
    let seen = loop {
        if orders_now(&get_json(t, client, "/order-reports/order-summaries?period=daily").await) > before {
            break Some(placed.elapsed());
        }
        if placed.elapsed() > Duration::from_secs(30) {
            break None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    match seen {
        Some(d) => println!("{:<34} {:>9.0} ms", "an order on the dashboard after", d.as_secs_f64() * 1e3),
        None => println!("{:<34} not within 30 s", "an order on the dashboard after"),
    }

    // The year's orders exported.
    export_orders(t, client).await;
}
