//! The order measurements of `make bench`: creation, the list at 100,000 orders, bulk
//! actions, the export, the import preview, and a month-end reconciliation.

use super::*;

/// An order written straight into the orders database (seeding the list and the open
/// bills), its money as given: subtotal, discount, net, shipping, international shipping,
/// additional fee, VAT, total, cost, net before VAT, profit (satang).
struct Seeded<'a> {
    no: &'a str,
    channel: &'a str,
    state: &'a str,
    stock: &'a str,
    name: &'a str,
    money: [i64; 11],
    at: i64,
    search: &'a str,
}

impl Seeded<'_> {
    async fn insert(&self, tx: &mut bo_kit::db::Tx, store_id: i64, warehouse: i64) -> i64 {
        let mut q = sqlx::query_scalar(
            "INSERT INTO orders (store_id, order_no, channel, reference, state, payment_state, warehouse_id, ship_name, \
             ship_tel, ship_address, ship_sub_district, ship_district, ship_state_province, ship_postcode, subtotal, \
             discount_amount, net, shipping_charge, shipping_charge_inter, additional_fee, vat_amount, total, cost_total, \
             net_ex_vat, profit, stock_state, stock_state_at, hold_revision, search_text, created_at, updated_at) \
             VALUES ($1, $2, $3, '', $4, 'unpaid', $5, $6, '0812345678', '1 ถนนพระราม 9', 'ห้วยขวาง', 'ห้วยขวาง', \
             'กรุงเทพมหานคร', '10310', $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, 1, $20, $19, $19) \
             RETURNING id",
        )
        .bind(store_id)
        .bind(self.no)
        .bind(self.channel)
        .bind(self.state)
        .bind(warehouse)
        .bind(self.name);
        for m in self.money {
            q = q.bind(m);
        }
        q.bind(self.stock).bind(self.at).bind(self.search).fetch_one(&mut **tx).await.unwrap()
    }
}

/// Orders: creation (2 lines of 1 unit each, holding stock) with 8 clients, then the list at
/// 100,000 orders, then bulk prepare and bulk cancel of 500.
pub(super) async fn orders(t: &Target, client: &reqwest::Client, warehouse: i64) {
    const CREATORS: usize = 8;
    let products: Value = get_json(t, client, "/products?limit=2&page=3").await;
    let skus: Vec<i64> =
        products["data"].as_array().unwrap().iter().map(|p| p["skus"][0]["id"].as_i64().unwrap()).collect();
    for (i, sku) in skus.iter().enumerate() {
        let r = client
            .post(format!("{}/wms/goods-adjust", t.api))
            .bearer_auth(&t.token)
            .header("Idempotency-Key", format!("bench-order-stock-{i}"))
            .json(&json!({"warehouse_id": warehouse, "sku_id": sku, "quantity": 1_000_000, "reason": "bench"}))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "stock for orders: {}", r.status());
    }
    let body = json!({"channel": "facebook", "warehouse_id": warehouse,
        "shipping_address": {"name": "สมชาย ใจดี", "tel": "0812345678", "address": "99/1 ถนนสุขุมวิท",
            "sub_district": "คลองเตยเหนือ", "district": "วัฒนา", "state_province": "กรุงเทพมหานคร", "postcode": "10110"},
        "items": [{"sku_id": skus[0], "quantity": 1}, {"sku_id": skus[1], "quantity": 1}]});
    let created = Arc::new(std::sync::Mutex::new(Vec::new()));
    let make = {
        let (api, token, client, created) = (t.api.clone(), t.token.clone(), client.clone(), created.clone());
        move |_c: usize, _i: usize| {
            let (api, token, client, body, created) =
                (api.clone(), token.clone(), client.clone(), body.clone(), created.clone());
            async move {
                let Ok(r) = client.post(format!("{api}/orders")).bearer_auth(token).json(&body).send().await else {
                    return false;
                };
                if r.status() != reqwest::StatusCode::CREATED {
                    return false;
                }
                let v: Value = r.json().await.unwrap_or_default();
                let held = v["stock_state"] == "held";
                if let Some(id) = v["id"].as_i64() {
                    created.lock().unwrap().push(id);
                }
                held
            }
        }
    };
    println!("{}", run_with(CREATORS, make).await.line("POST /orders (2 lines, 8 clients)"));

    // The list at 100,000 orders: the rest are written straight into the database.
    let made = created.lock().unwrap().len();
    let seeded = seed_orders(&t.orders_db, t.store_id, warehouse, 100_000usize.saturating_sub(made)).await;
    println!("{:<34} {:>9} orders   ({} made through the API)", "seed: orders for the list", made + seeded, made);
    let get = |path: &str| getter(t, client, path, 2_000);
    println!("{}", run(get("/orders?order-state=new&page=1")).await.line("GET /orders?order-state=new p1"));
    println!("{}", run(get("/orders?order-state=new&page={n}")).await.line("GET /orders state, random deep page"));
    println!("{}", run(get("/orders?page={n}")).await.line("GET /orders random deep page"));
    println!("{}", run(get("/orders/count")).await.line("GET /orders/count"));
    export_orders(t, client).await;
    reconcile_month(t, client, warehouse).await;
    preview_order_import(t, client, warehouse).await;

    // Bulk: 500 of the orders made through the API, prepared, then cancelled.
    let ids: Vec<i64> = created.lock().unwrap().iter().take(500).copied().collect();
    for (label, path) in
        [("POST /orders/ready-to-fulfillment", "ready-to-fulfillment"), ("POST /orders/cancel", "cancel")]
    {
        let start = Instant::now();
        let r = client
            .post(format!("{}/orders/{path}", t.api))
            .bearer_auth(&t.token)
            .json(&json!({"ids": ids}))
            .send()
            .await
            .unwrap();
        let took = start.elapsed();
        let v: Value = r.json().await.unwrap_or_default();
        println!(
            "{:<34} {:>9.0} ms   ({} orders, {} moved)",
            format!("{label} (bulk)"),
            took.as_secs_f64() * 1000.0,
            ids.len(),
            v["succeeded"]
        );
    }
}

/// The resident memory of this process, kB (Linux; 0 elsewhere).
pub(super) fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// An export of every order (100,000) of the last year: from the request until its file is
/// kept, and (embedded, where the services run in this process) how far the resident
/// memory rose while it was built.
pub(super) async fn export_orders(t: &Target, client: &reqwest::Client) {
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    let day = |d: ::time::OffsetDateTime| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
    let embedded = t.orders_db.starts_with("sqlite");
    let before = rss_kb();
    let start = Instant::now();
    let r: Value = client
        .post(format!("{}/orders/reports/produce-order-report", t.api))
        .bearer_auth(&t.token)
        .json(&json!({"date_from": day(now - ::time::Duration::days(365)), "date_to": day(now)}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = r["id"].as_i64().unwrap_or_else(|| panic!("an export: {r}"));
    let mut peak = before;
    let mut last = Value::Null;
    while start.elapsed() < Duration::from_secs(300) {
        peak = peak.max(rss_kb());
        let l: Value = get_json(t, client, "/orders/reports?limit=5").await;
        if let Some(e) = l["data"].as_array().and_then(|d| d.iter().find(|e| e["id"] == id)) {
            last = e.clone();
            if e["state"] != "exporting" {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let took = start.elapsed();
    let memory =
        if embedded { format!("; memory rose {} MB", peak.saturating_sub(before) / 1024) } else { String::new() };
    println!(
        "{:<34} {:>9.1} s    ({} orders, {}, {} MB file{memory})",
        "POST produce-order-report → file",
        took.as_secs_f64(),
        last["total"],
        last["state"].as_str().unwrap_or("?"),
        last["file_size"].as_i64().unwrap_or(0) / (1024 * 1024),
    );
}

/// An order file of 10,000 rows (5,000 orders of two lines, each SKU its own code) read,
/// checked against the catalog and the store's references, and previewed: the dry run the
/// import screen sends, as .csv and as .xlsx.
async fn preview_order_import(t: &Target, client: &reqwest::Client, warehouse: i64) {
    let products: Value = get_json(t, client, "/products?limit=20").await;
    let codes: Vec<String> = products["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["skus"][0]["code"].as_str().unwrap().to_string())
        .collect();
    // The template's English headers, in its order.
    let header: Vec<&str> = bo_orders::import::COLUMNS.iter().map(|c| c.en).collect();
    let rows: Vec<[String; 15]> = (0..10_000)
        .map(|i| {
            let s = |v: &str| v.to_string();
            [
                format!("BENCH-IMP-{}", i / 2),
                s("สมชาย ใจดี"),
                s("0812345678"),
                s("99/1 ถนนสุขุมวิท"),
                s("คลองเตยเหนือ"),
                s("วัฒนา"),
                s("กรุงเทพมหานคร"),
                s("10110"),
                String::new(),
                codes[i % codes.len()].clone(),
                format!("{}", 1 + i % 3),
                s("199.00"),
                s("40"),
                String::new(),
                s("ส่งด่วน"),
            ]
        })
        .collect();
    let mut csv = header.join(",");
    for r in &rows {
        csv.push('\n');
        csv.push_str(&r.join(","));
    }
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet.write_string(r as u32 + 1, c as u16, v).unwrap();
            }
        }
    }
    let xlsx = book.save_to_buffer().unwrap();
    for (name, bytes) in [("orders.csv", csv.into_bytes()), ("orders.xlsx", xlsx)] {
        let mut took = Vec::new();
        let mut last = Value::Null;
        for _ in 0..3 {
            let form = reqwest::multipart::Form::new()
                .part("file", reqwest::multipart::Part::bytes(bytes.clone()).file_name(name))
                .text("channel", "facebook")
                .text("warehouse_id", warehouse.to_string())
                .text("dry_run", "true");
            let start = Instant::now();
            let r = client
                .post(format!("{}/orders/excel/import", t.api))
                .bearer_auth(&t.token)
                .multipart(form)
                .send()
                .await
                .unwrap();
            last = r.json().await.unwrap_or_default();
            took.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        took.sort_by(|a, b| a.total_cmp(b));
        println!(
            "{:<34} {:>9.0} ms   (best of 3, worst {:.0} ms; {} rows, {} orders, {} problems, {} KB)",
            format!("import preview 10,000 rows ({})", name.rsplit('.').next().unwrap_or("")),
            took[0],
            took[2],
            last["data"]["rows"],
            last["data"]["orders"].as_array().map(|o| o.len()).unwrap_or(0),
            last["errors"].as_array().map(|e| e.len()).unwrap_or(0),
            bytes.len() / 1024,
        );
    }
}

/// Writes `n` orders of the store straight into the orders database, spread over the states
/// as a shop's history is (mostly closed), each with two lines, in batches.
async fn seed_orders(url: &str, store_id: i64, warehouse: i64, n: usize) -> usize {
    let db = bo_kit::db::Db::connect(url).await.unwrap();
    let states = ["closed", "closed", "closed", "shipped", "new", "ready_to_fulfillment", "cancelled", "closed"];
    let stock = |s: &str| match s {
        "new" | "ready_to_fulfillment" => "held",
        "cancelled" => "released",
        _ => "committed",
    };
    let now = bo_kit::time::now_ms();
    let mut counts = std::collections::HashMap::new();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let mut tx = db.begin().await.unwrap();
        for &i in chunk {
            let st = states[i % states.len()];
            *counts.entry(st).or_insert(0i64) += 1;
            let at = now - 60_000 * (n - i) as i64;
            let (no, search) = (format!("SOB-{i:06}"), format!("sob-{i:06} ลูกค้า 0812345678"));
            let order = Seeded {
                no: &no,
                channel: "facebook",
                state: st,
                stock: stock(st),
                name: "ลูกค้า",
                money: [39_800, 0, 39_800, 4_000, 0, 0, 2_866, 43_800, 24_000, 37_196, 13_196],
                at,
                search: &search,
            };
            let id = order.insert(&mut tx, store_id, warehouse).await;
            for (k, sku) in [(0, 1_000_000 + i as i64), (1, 2_000_000 + i as i64)] {
                sqlx::query(
                    "INSERT INTO order_items (store_id, order_id, position, sku_id, product_id, product_name, product_code, \
                     sku_code, price, cost, warehouse_id, quantity, line_total) \
                     VALUES ($1, $2, $3, $4, 1, 'สินค้าทดสอบ', 'B', 'B-1', 19900, 12000, $5, 1, 19900)",
                )
                .bind(store_id)
                .bind(id)
                .bind(k)
                .bind(sku)
                .bind(warehouse)
                .execute(&mut *tx)
                .await
                .unwrap();
            }
        }
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
        sqlx::query("VACUUM ANALYZE").execute(db.pool()).await.unwrap();
    } else {
        sqlx::query("ANALYZE").execute(db.pool()).await.unwrap();
    }
    db.close().await;
    n
}

/// A month-end bank statement of 5,000 transfers matched against 50,000 open bills (250
/// prices, so a line's amount has about 200 bills; a third of the lines name their order),
/// with `/healthz` asked every 20 ms meanwhile: the slowest answer is what everyone else
/// waits while the matching runs.
async fn reconcile_month(t: &Target, client: &reqwest::Client, warehouse: i64) {
    const BILLS: usize = 50_000;
    const LINES: usize = 5_000;
    let now = bo_kit::time::now_ms();
    let db = bo_kit::db::Db::connect(&t.orders_db).await.unwrap();
    let mut bills: Vec<(String, i64, i64)> = Vec::with_capacity(BILLS);
    for chunk in (0..BILLS).collect::<Vec<_>>().chunks(500) {
        let mut tx = db.begin().await.unwrap();
        for &i in chunk {
            let amount = 9_900 + 1_000 * (i % 250) as i64;
            let at = now - 86_400_000 * 10 + 17_000 * i as i64;
            let no = format!("SOR-{i:06}");
            let order = Seeded {
                no: &no,
                channel: "line",
                state: "new",
                stock: "held",
                name: "ลูกค้า ทดสอบ",
                money: [amount, 0, amount, 0, 0, 0, 0, amount, 0, amount, 0],
                at,
                search: &no,
            };
            let id = order.insert(&mut tx, t.store_id, warehouse).await;
            sqlx::query(
                "INSERT INTO order_bills (store_id, order_id, warehouse_id, amount, token, state, expiry_type, on_expiry, \
                 created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'active', 'no_expiry', 'keep_new', $6, $6)",
            )
            .bind(t.store_id)
            .bind(id)
            .bind(warehouse)
            .bind(amount)
            .bind(format!("{:032x}", 0xbe00_0000_0000u64 + i as u64))
            .bind(at)
            .execute(&mut *tx)
            .await
            .unwrap();
            bills.push((no, amount, at));
        }
        tx.commit().await.unwrap();
    }
    db.close().await;
    let mut csv = String::from("\u{FEFF}วันที่,เวลา,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ,รายละเอียด\n");
    for i in 0..LINES {
        let (no, amount, at) = &bills[i * (BILLS / LINES)];
        let when = ::time::OffsetDateTime::from_unix_timestamp((at + 300_000) / 1000)
            .unwrap()
            .to_offset(::time::macros::offset!(+7));
        let text = if i % 3 == 0 {
            format!("โอนค่าสินค้า {no}")
        } else {
            format!("จาก ลูกค้า {i}")
        };
        csv.push_str(&format!(
            "{:02}/{:02}/{},{:02}:{:02},รับโอนเงิน,,{}.{:02},,{text}\n",
            when.day(),
            u8::from(when.month()),
            when.year() + 543,
            when.hour(),
            when.minute(),
            amount / 100,
            amount % 100
        ));
    }
    let root = t.api.trim_end_matches("/api").to_string();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = {
        let (done, client, root) = (done.clone(), client.clone(), root.clone());
        tokio::spawn(async move {
            let mut worst = Duration::ZERO;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let start = Instant::now();
                let r = client.get(format!("{root}/healthz")).send().await.unwrap();
                assert!(r.status().is_success());
                worst = worst.max(start.elapsed());
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            worst
        })
    };
    let start = Instant::now();
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(csv.into_bytes()).file_name("statement.csv"))
        .text("dry_run", "true")
        .text("choices", "[]");
    let r = client
        .post(format!("{}/orders/payments/reconcile", t.api))
        .bearer_auth(&t.token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let bytes = r.bytes().await.unwrap();
    let took = start.elapsed();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let worst = watch.await.unwrap();
    assert!(status.is_success(), "{status}: {}", String::from_utf8_lossy(&bytes[..bytes.len().min(500)]));
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let lines = v["data"]["lines"].as_array().map_or(0, Vec::len);
    let count = |st: &str| v["data"]["lines"].as_array().unwrap().iter().filter(|l| l["status"] == st).count();
    println!(
        "{:<34} {:>9.2} s     ({lines} lines × {BILLS} bills: {} confident, {} ambiguous; answer {} KB; \
         slowest /healthz meanwhile {} ms)",
        "POST /orders/payments/reconcile",
        took.as_secs_f64(),
        count("confident"),
        count("ambiguous"),
        bytes.len() / 1024,
        worst.as_millis()
    );
}
