//! The reports' storage on both databases: orders' changes applied in the inbox's
//! transaction, in any order and more than once, sum to the daily tables a dashboard reads
//! (the dialects' parity is `contracts.rs`'s, for every module).

// Days are written as their numbers are read: 2026_11_01 is 1 November 2026.
#![allow(clippy::inconsistent_digit_grouping)]

use bo_kit::db::Db;
use bo_reports::domain::{self, Change, Content, Line, Period, Place};
use bo_reports::fees::{self, Charge, FeeFigures};
use bo_reports::store::{Parts, Repo, SkuNames, SoldSort, Told};

fn content(lines: &[(i64, i64, i64)]) -> Content {
    let lines: Vec<Line> = lines
        .iter()
        .map(|&(sku_id, units, net)| Line { sku_id, units, net, net_ex_vat: net * 100 / 107, cost: net / 2 })
        .collect();
    Content {
        net: lines.iter().map(|l| l.net).sum(),
        total: lines.iter().map(|l| l.net).sum::<i64>() + 40_00,
        net_ex_vat: lines.iter().map(|l| l.net_ex_vat).sum(),
        cost: lines.iter().map(|l| l.cost).sum(),
        shipping: 40_00,
        lines,
        place: Place {
            province: "กรุงเทพมหานคร".into(),
            district: "บางรัก".into(),
            country: "TH".into(),
            city: String::new(),
        },
        customer: None,
        created_by: None,
        paid: 0,
    }
}

fn names(sku: i64) -> Vec<SkuNames> {
    vec![SkuNames {
        sku_id: sku,
        product_id: 1,
        product_name: "เสื้อ".into(),
        sku_code: format!("S-{sku}"),
        variant: "แดง".into(),
    }]
}

async fn apply(db: &Db, store: i64, order: i64, event: &str, change: Change) -> bool {
    let mut tx = db.begin().await.unwrap();
    let names = match &change {
        Change::Content { content, .. } => content.lines.iter().flat_map(|l| names(l.sku_id)).collect(),
        Change::State { .. } => Vec::new(),
    };
    let changed = Repo::apply(&mut tx, store, order, event, change, &names).await.unwrap();
    tx.commit().await.unwrap();
    changed
}

fn placed(day: i64, channel: &str, c: Content) -> Change {
    Change::Content { version: 1, channel: channel.into(), placed_day: day, placed_at: 0, content: c, placed: true }
}

/// `c` placed on `day` at `at` (any increasing number: it only orders a customer's orders)
/// by `customer` (0 for a guest).
fn placed_by(day: i64, at: i64, customer: i64, c: Content) -> Change {
    let content = Content { customer: Some(customer), ..c };
    Change::Content { version: 1, channel: "line".into(), placed_day: day, placed_at: at, content, placed: true }
}

fn moved(version: i64, state: &str, day: i64) -> Change {
    Change::State { version, channel: "line".into(), placed_day: 2026_11_02, state: state.into(), day }
}

async fn a_month_sums_its_orders_whatever_the_order_of_their_events(db: Db) {
    db.migrate(&bo_reports::MIGRATIONS_SQLITE, &bo_reports::MIGRATIONS_POSTGRES).await.unwrap();
    let repo = Repo::new(db.clone());
    // Order 1: facebook on the 1st. Order 2: line on the 2nd, its cancellation (the 5th)
    // handled before its placing, and its placing delivered twice.
    assert!(apply(&db, 7, 1, "e1", placed(2026_11_01, "facebook", content(&[(10, 2, 200_00), (11, 1, 100_00)]))).await);
    assert!(apply(&db, 7, 2, "e2", moved(2, "cancelled", 2026_11_05)).await);
    assert!(apply(&db, 7, 2, "e3", placed(2026_11_02, "line", content(&[(10, 1, 100_00)]))).await);
    assert!(
        !apply(&db, 7, 2, "e3", placed(2026_11_02, "line", content(&[(10, 1, 100_00)]))).await,
        "a repeat changes nothing"
    );
    // Another store's order stays out of store 7's figures.
    apply(&db, 8, 1, "e4", placed(2026_11_01, "facebook", content(&[(10, 9, 900_00)]))).await;

    let span = domain::span(Period::Monthly, 2026_11_15).unwrap();
    let s = repo.summary(7, &span, 10, Parts::All).await.unwrap();
    assert_eq!((s.current.orders, s.current.cancelled, s.current.units), (2, 1, 3));
    assert_eq!(s.current.net, 300_00, "400.00 sold, 100.00 of it cancelled");
    assert_eq!(s.current.shipping, 40_00);
    assert_eq!(s.previous, domain::Figures::default());
    assert_eq!(
        s.channels.iter().map(|(c, f)| (c.as_str(), f.net)).collect::<Vec<_>>(),
        vec![("facebook", 300_00), ("line", 0)]
    );
    assert_eq!(s.series.len(), 30);
    let net_on = |d: i64| s.series.iter().find(|(b, _)| *b == d).unwrap().1.net;
    assert_eq!((net_on(2026_11_01), net_on(2026_11_02), net_on(2026_11_05)), (300_00, 100_00, -100_00));
    assert_eq!(
        s.top.iter().map(|t| (t.sku_id, t.units, t.net)).collect::<Vec<_>>(),
        vec![(10, 2, 200_00), (11, 1, 100_00)]
    );
    assert_eq!(s.top[0].product_name, "เสื้อ");
    assert_eq!(s.states, vec![("cancelled".to_string(), 1), ("new".to_string(), 1)]);
    assert!(s.updated_at.is_some());
    // Asked for less, the summary reads less: the same totals, nothing else.
    let totals = repo.summary(7, &span, 10, Parts::Totals).await.unwrap();
    assert_eq!((totals.current, totals.previous, totals.updated_at), (s.current, s.previous, s.updated_at));
    assert!(
        totals.channels.is_empty() && totals.series.is_empty() && totals.top.is_empty() && totals.states.is_empty()
    );
    let channels = repo.summary(7, &span, 10, Parts::Channels).await.unwrap();
    assert_eq!((channels.current, &channels.channels), (s.current, &s.channels));
    assert!(channels.series.is_empty() && channels.top.is_empty());

    // The ledger's order rows sum to the daily sales.
    let (ledger_net, daily_net): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT CAST(COALESCE(SUM(net), 0) AS BIGINT) FROM sales_ledger WHERE store_id = 7 AND sku_id = 0), \
         (SELECT CAST(COALESCE(SUM(net), 0) AS BIGINT) FROM daily_sales WHERE store_id = 7)",
    )
    .fetch_one(db.pool())
    .await
    .unwrap();
    assert_eq!((ledger_net, daily_net), (300_00, 300_00));
    // The quarter and the year hold the month; the year is in months.
    let q = repo.summary(7, &domain::span(Period::Quarterly, 2026_11_15).unwrap(), 1, Parts::All).await.unwrap();
    assert_eq!((q.current.net, q.top.len()), (300_00, 1));
    let y = repo.summary(7, &domain::span(Period::Yearly, 2026_11_15).unwrap(), 10, Parts::All).await.unwrap();
    assert_eq!(y.series.len(), 12);
    assert_eq!(y.series[10].1.orders, 2);
    // A store without sales.
    let none = repo.summary(9, &span, 10, Parts::All).await.unwrap();
    assert_eq!((none.current.orders, none.updated_at, none.top.len()), (0, None, 0));
}

async fn an_edit_moves_the_figures_of_the_day_it_was_placed(db: Db) {
    db.migrate(&bo_reports::MIGRATIONS_SQLITE, &bo_reports::MIGRATIONS_POSTGRES).await.unwrap();
    let repo = Repo::new(db.clone());
    apply(&db, 7, 1, "e1", placed(2026_11_01, "line", content(&[(10, 1, 100_00)]))).await;
    let edit = Change::Content {
        version: 3,
        channel: "line".into(),
        placed_day: 2026_11_01,
        placed_at: 0,
        content: content(&[(12, 4, 480_00)]),
        placed: false,
    };
    assert!(apply(&db, 7, 1, "e2", edit).await);
    // An older edit arriving late changes nothing.
    let stale = Change::Content {
        version: 2,
        channel: "line".into(),
        placed_day: 2026_11_01,
        placed_at: 0,
        content: content(&[(10, 2, 200_00)]),
        placed: false,
    };
    assert!(!apply(&db, 7, 1, "e3", stale).await);
    let s = repo.summary(7, &domain::span(Period::Daily, 2026_11_01).unwrap(), 10, Parts::All).await.unwrap();
    assert_eq!((s.current.orders, s.current.units, s.current.net), (1, 4, 480_00));
    assert_eq!(s.top.iter().map(|t| (t.sku_id, t.units)).collect::<Vec<_>>(), vec![(12, 4)], "SKU 10 no longer sold");
}

/// Every daily table and the ledger's sums, for comparing two databases' read models.
async fn tables(db: &Db) -> Vec<String> {
    let mut out = Vec::new();
    for sql in [
        "SELECT store_id, day, channel, orders, cancelled, units, net, total, net_ex_vat, cost, shipping FROM daily_sales \
         WHERE orders <> 0 OR cancelled <> 0 OR units <> 0 OR net <> 0 OR total <> 0 ORDER BY store_id, day, channel",
        "SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM daily_skus \
         WHERE units <> 0 OR net <> 0 ORDER BY store_id, day, sku_id",
        "SELECT store_id, day, state, orders FROM daily_states WHERE orders <> 0 ORDER BY store_id, day, state",
        "SELECT store_id, day, kind, name, parent, orders, cancelled, net FROM daily_areas \
         WHERE orders <> 0 OR cancelled <> 0 OR net <> 0 ORDER BY store_id, day, kind, name, parent",
        "SELECT store_id, order_id, channel, placed_day, content_version, state, state_version, cancelled_day, \
         customer_id, placed_at, first_order FROM report_orders ORDER BY store_id, order_id",
        "SELECT store_id, day, kind, orders, cancelled, net FROM daily_customers \
         WHERE orders <> 0 OR cancelled <> 0 OR net <> 0 ORDER BY store_id, day, kind",
        "SELECT store_id, sku_id, product_name, sku_code FROM report_skus ORDER BY store_id, sku_id",
        "SELECT store_id, day, channel, sku_id, CAST(SUM(orders) AS BIGINT), CAST(SUM(units) AS BIGINT), \
         CAST(SUM(net) AS BIGINT) FROM sales_ledger GROUP BY store_id, day, channel, sku_id \
         HAVING SUM(orders) <> 0 OR SUM(units) <> 0 OR SUM(net) <> 0 ORDER BY store_id, day, channel, sku_id",
    ] {
        let rows = sqlx::query(sql).fetch_all(db.pool()).await.unwrap();
        for r in rows {
            use sqlx::Row;
            let cells: Vec<String> = (0..r.len())
                .map(|i| r.try_get::<i64, _>(i).map(|n| n.to_string()).or_else(|_| r.try_get::<Option<i64>, _>(i).map(|n| format!("{n:?}"))).unwrap_or_else(|_| r.try_get::<String, _>(i).unwrap()))
                .collect();
            out.push(cells.join("|"));
        }
    }
    out
}

/// Events for three orders of two stores: placings, an edit, moves, a cancellation on a
/// later day, a repeat and a stale edit.
fn story() -> Vec<Told> {
    let told = |store, order, event: &str, change| Told {
        store_id: store,
        order_id: order,
        event_id: event.into(),
        names: match &change {
            Change::Content { content, .. } => content.lines.iter().flat_map(|l| names(l.sku_id)).collect(),
            Change::State { .. } => Vec::new(),
        },
        change,
    };
    // Order 2 was a guest's until its edit gave it customer 6.
    let edit = |version, lines: &[(i64, i64, i64)]| Change::Content {
        version,
        channel: "line".into(),
        placed_day: 2026_11_02,
        placed_at: 2,
        content: Content { customer: Some(6), ..content(lines) },
        placed: false,
    };
    // Customer 5's first order (3) arrives after their second (1).
    let mut first = placed(2026_11_01, "facebook", content(&[(10, 2, 200_00), (11, 1, 100_00)]));
    if let Change::Content { content, placed_at, .. } = &mut first {
        content.customer = Some(5);
        *placed_at = 10;
    }
    vec![
        told(7, 1, "a1", first),
        told(7, 2, "b2", moved(2, "ready_to_fulfillment", 2026_11_03)),
        told(7, 2, "b1", placed_by(2026_11_02, 2, 0, content(&[(10, 1, 100_00)]))),
        told(7, 2, "b3", edit(3, &[(10, 2, 200_00), (12, 5, 50_00)])),
        told(7, 3, "d1", placed_by(2026_10_31, 1, 5, content(&[(11, 1, 100_00)]))),
        told(8, 1, "c1", placed_by(2026_11_02, 3, 5, content(&[(10, 9, 900_00)]))),
        told(7, 2, "b4", moved(4, "cancelled", 2026_11_06)),
        told(7, 2, "b3", edit(3, &[(10, 2, 200_00), (12, 5, 50_00)])),
        told(7, 2, "b0", edit(2, &[(10, 7, 700_00)])),
        told(8, 1, "c2", moved(2, "shipped", 2026_11_04)),
    ]
}

async fn a_batch_of_events_leaves_what_they_leave_one_by_one(db: Db) {
    db.migrate(&bo_reports::MIGRATIONS_SQLITE, &bo_reports::MIGRATIONS_POSTGRES).await.unwrap();
    let told = story();
    // One by one, each in its own transaction.
    let mut one_by_one = Vec::new();
    for t in told.clone() {
        let mut tx = db.begin().await.unwrap();
        one_by_one.extend(Repo::apply_all(&mut tx, vec![t]).await.unwrap());
        tx.commit().await.unwrap();
    }
    assert_eq!(
        one_by_one,
        [true, true, true, true, true, true, true, false, false, true],
        "the repeat and the stale edit change nothing"
    );
    let by_one = tables(&db).await;
    assert!(
        by_one.iter().any(|r| r.starts_with("7|20261106|line|0|")),
        "the cancellation counts back on the 6th: {by_one:?}"
    );
    assert!(
        by_one.iter().any(|r| r == "7|20261106|district|บางรัก|กรุงเทพมหานคร|0|1|-25000"),
        "and its net comes back out of its district: {by_one:?}"
    );
    assert!(
        by_one.iter().any(|r| r == "7|20261031|new|1|0|10000")
            && by_one.iter().any(|r| r == "7|20261101|returning|1|0|30000"),
        "customer 5's earlier order is their first, though it came later: {by_one:?}"
    );
    assert!(
        by_one.iter().any(|r| r == "7|20261102|new|1|0|25000") && !by_one.iter().any(|r| r.contains("|guest|")),
        "the guest's order became customer 6's first: {by_one:?}"
    );
    // Emptied as a rebuild empties them, then all at once, in one transaction.
    Repo::new(db.clone()).clear().await.unwrap();
    assert_eq!(tables(&db).await, Vec::<String>::new());
    let mut tx = db.begin().await.unwrap();
    let together = Repo::apply_all(&mut tx, told).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(together, one_by_one);
    assert_eq!(tables(&db).await, by_one);
}

async fn sold_skus_page_search_and_sit_beside_the_month_before(db: Db) {
    db.migrate(&bo_reports::MIGRATIONS_SQLITE, &bo_reports::MIGRATIONS_POSTGRES).await.unwrap();
    let repo = Repo::new(db.clone());
    // October: SKU 10 sold 4 units. November: SKU 10 sold 1, 11 sold 3, 12 sold 2 and was
    // cancelled (nothing left of it).
    apply(&db, 7, 1, "o1", placed(2026_10_20, "line", content(&[(10, 4, 400_00)]))).await;
    apply(&db, 7, 2, "n1", placed(2026_11_03, "line", content(&[(10, 1, 100_00), (11, 3, 600_00)]))).await;
    apply(&db, 7, 3, "n2", placed(2026_11_04, "line", content(&[(12, 2, 50_00)]))).await;
    apply(
        &db,
        7,
        3,
        "n3",
        Change::State {
            version: 2,
            channel: "line".into(),
            placed_day: 2026_11_04,
            state: "cancelled".into(),
            day: 2026_11_05,
        },
    )
    .await;
    let span = domain::span(Period::Monthly, 2026_11_15).unwrap();
    let page = |n, limit| bo_kit::paging::PageRequest::new(n, limit);
    let s = repo.sold_items(7, &span, "", SoldSort::Net, page(1, 10)).await.unwrap();
    assert_eq!((s.current.skus, s.current.units, s.current.net), (2, 4, 700_00));
    assert_eq!((s.previous.skus, s.previous.units, s.previous.net), (1, 4, 400_00));
    let ids = |s: &bo_reports::store::SoldItems| {
        s.items.iter().map(|(c, p)| (c.sku_id, c.units, p.units)).collect::<Vec<_>>()
    };
    assert_eq!(ids(&s), vec![(11, 3, 0), (10, 1, 4)]);
    let totals = repo.sold_totals(7, &span).await.unwrap();
    assert_eq!((totals.current, totals.previous, totals.items.len(), totals.page), (s.current, s.previous, 0, None));
    let by_units = repo.sold_items(7, &span, "", SoldSort::Units, page(2, 1)).await.unwrap();
    assert_eq!((ids(&by_units), by_units.page.unwrap().pages), (vec![(10, 1, 4)], 2));
    let found = repo.sold_items(7, &span, "s-1", SoldSort::Profit, page(1, 10)).await.unwrap();
    assert_eq!(found.page.unwrap().total, 2, "S-10 and S-11");
    let found = repo.sold_items(7, &span, "S-11", SoldSort::Net, page(1, 10)).await.unwrap();
    assert_eq!(ids(&found), vec![(11, 3, 0)]);
    assert_eq!(found.items[0].0.sku_code, "S-11");
    let wild = repo.sold_items(7, &span, "S_1", SoldSort::Net, page(1, 10)).await.unwrap();
    assert_eq!(wild.page.unwrap().total, 0, "_ is a character, not a wildcard");
    assert_eq!(repo.sold_items(8, &span, "", SoldSort::Net, page(1, 10)).await.unwrap().items.len(), 0);
    // A month reads the monthly sums, a day the daily ones: the same figures; and the monthly
    // sums are their days' (the check says where they are not).
    let day = domain::span(Period::Daily, 2026_11_03).unwrap();
    let d = repo.sold_items(7, &day, "", SoldSort::Net, page(1, 10)).await.unwrap();
    assert_eq!((d.current.skus, d.current.units, d.current.net), (2, 4, 700_00));
    let year = domain::span(Period::Yearly, 2026_11_15).unwrap();
    let y = repo.sold_items(7, &year, "", SoldSort::Net, page(1, 10)).await.unwrap();
    assert_eq!((y.current.skus, y.current.units, y.current.net), (2, 8, 1_100_00));
    assert!(repo.rollup_problems().await.unwrap().is_empty());
    sqlx::query("UPDATE monthly_skus SET units = units + 1 WHERE store_id = 7 AND day = 20261101 AND sku_id = 11")
        .execute(db.pool())
        .await
        .unwrap();
    let problems = repo.rollup_problems().await.unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("SKU 11 in monthly_skus from 2026-11-01") && problems[0].contains("off by 1 units"));
}

async fn customers_are_new_returning_or_guests_whatever_the_order_of_their_events(db: Db) {
    db.migrate(&bo_reports::MIGRATIONS_SQLITE, &bo_reports::MIGRATIONS_POSTGRES).await.unwrap();
    let repo = Repo::new(db.clone());
    let one = |sku, net| content(&[(sku, 1, net)]);
    // October: customer 7's first order.
    apply(&db, 7, 20, "g", placed_by(2026_10_20, 100, 7, one(10, 50_00))).await;
    // November: customer 5's order of the 3rd arrives before their order of the 1st.
    apply(&db, 7, 1, "a", placed_by(2026_11_03, 300, 5, one(10, 100_00))).await;
    apply(&db, 7, 2, "b", placed_by(2026_11_01, 200, 5, one(10, 200_00))).await;
    // A guest; customer 5 again, cancelled on the 6th; customer 7 back.
    apply(&db, 7, 3, "c", placed_by(2026_11_02, 250, 0, one(10, 40_00))).await;
    apply(&db, 7, 4, "d", placed_by(2026_11_05, 500, 5, one(10, 10_00))).await;
    apply(&db, 7, 4, "d2", moved(2, "cancelled", 2026_11_06)).await;
    apply(&db, 7, 21, "h", placed_by(2026_11_04, 400, 7, one(10, 70_00))).await;
    // Customer 9's two orders placed at the same moment: the lower id is the first.
    apply(&db, 7, 31, "i", placed_by(2026_11_07, 700, 9, one(10, 1_00))).await;
    apply(&db, 7, 30, "j", placed_by(2026_11_07, 700, 9, one(10, 2_00))).await;
    // Another store's order of customer 5 is that store's new customer.
    apply(&db, 8, 1, "k", placed_by(2026_11_03, 50, 5, one(10, 900_00))).await;

    let month = domain::span(Period::Monthly, 2026_11_15).unwrap();
    let s = repo.customers(7, &month).await.unwrap();
    let f = |m: &std::collections::BTreeMap<String, domain::AreaFigures>, k: &str| {
        m.get(k).map(|f| (f.orders, f.cancelled, f.net)).unwrap_or_default()
    };
    assert_eq!(f(&s.current, "new"), (2, 0, 202_00), "customer 5's order of the 1st, customer 9's order 30");
    assert_eq!(f(&s.current, "returning"), (4, 1, 171_00), "orders 1, 4 (cancelled), 21 and 31");
    assert_eq!(f(&s.current, "guest"), (1, 0, 40_00));
    assert_eq!(f(&s.previous, "new"), (1, 0, 50_00));
    assert_eq!(s.series.len(), 30);
    let on = |day: i64, k: &str| f(&s.series.iter().find(|(d, _)| *d == day).unwrap().1, k);
    assert_eq!((on(2026_11_01, "new"), on(2026_11_03, "returning")), ((1, 0, 200_00), (1, 0, 100_00)));
    assert_eq!(on(2026_11_06, "returning"), (0, 1, -10_00), "the cancellation counts back on its day");
    assert_eq!(f(&repo.customers(8, &month).await.unwrap().current, "new"), (1, 0, 900_00));
    // A year sums the same per month: November holds the month's figures, October the
    // month before's.
    let year = domain::span(Period::Yearly, 2026_11_15).unwrap();
    let y = repo.customers(7, &year).await.unwrap();
    assert_eq!((f(&y.current, "new"), f(&y.current, "returning")), ((3, 0, 252_00), (4, 1, 171_00)));
    assert_eq!(y.series.len(), 12);
    let in_month = |day: i64, k: &str| f(&y.series.iter().find(|(d, _)| *d == day).unwrap().1, k);
    assert_eq!((in_month(2026_11_01, "new"), in_month(2026_10_01, "new")), ((2, 0, 202_00), (1, 0, 50_00)));

    // An edit that gives order 2 to customer 8: it is 8's first, and customer 5's first is now
    // order 1.
    let edit = Change::Content {
        version: 2,
        channel: "line".into(),
        placed_day: 2026_11_01,
        placed_at: 200,
        content: Content { customer: Some(8), ..one(10, 200_00) },
        placed: false,
    };
    assert!(apply(&db, 7, 2, "b2", edit).await);
    let s = repo.customers(7, &month).await.unwrap();
    assert_eq!(f(&s.current, "new"), (3, 0, 302_00));
    assert_eq!(f(&s.current, "returning"), (3, 1, 71_00));
    let firsts: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT customer_id, order_id FROM report_orders WHERE store_id = 7 AND first_order = 1 ORDER BY customer_id",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    assert_eq!(firsts, vec![(5, 1), (7, 20), (8, 2), (9, 30)], "one first order per customer");
    // Every order counts under exactly one kind.
    let (kinds, orders): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT CAST(SUM(orders) AS BIGINT) FROM daily_customers WHERE store_id = 7), \
         (SELECT CAST(SUM(orders) AS BIGINT) FROM daily_sales WHERE store_id = 7)",
    )
    .fetch_one(db.pool())
    .await
    .unwrap();
    assert_eq!(kinds, orders);
}

/// A fee charge of store 1 on a day.
fn charge(document: &str, id: i64, warehouse: i64, day: i64, fees: FeeFigures) -> (Charge, String) {
    let c = Charge { store_id: 1, document: document.into(), document_id: id, warehouse_id: warehouse, day, fees };
    (c, format!("ev-{document}-{id}"))
}

async fn a_charge_told_twice_or_in_a_rebuild_counts_once(db: Db) {
    db.migrate(&bo_reports::MIGRATIONS_SQLITE, &bo_reports::MIGRATIONS_POSTGRES).await.unwrap();
    let repo = Repo::new(db.clone());
    let order = |picking, cod| FeeFigures { orders: 1, picking, packing: 1_000, cod, ..FeeFigures::default() };
    let receipt = FeeFigures { receipts: 1, goods_receipt: 1_000, shelving: 500, ..FeeFigures::default() };
    let told = [
        charge("order", 10, 1, 2026_11_02, order(300, 0)),
        charge("order", 11, 1, 2026_11_02, order(600, 2_501)),
        charge("goods_receipt", 10, 2, 2026_11_20, receipt),
        // The month before.
        charge("order", 9, 1, 2026_10_31, order(900, 0)),
    ];
    let mut tx = db.begin().await.unwrap();
    assert_eq!(Repo::apply_fees(&mut tx, &told[..2]).await.unwrap(), 2);
    tx.commit().await.unwrap();
    // Every one again, with the first two: only the new ones count.
    let mut tx = db.begin().await.unwrap();
    assert_eq!(Repo::apply_fees(&mut tx, &told).await.unwrap(), 2);
    tx.commit().await.unwrap();
    let span = domain::span(Period::Monthly, 2026_11_15).unwrap();
    let s = repo.fee_summary(1, &span).await.unwrap();
    assert_eq!(
        s.current,
        FeeFigures {
            orders: 2,
            receipts: 1,
            picking: 900,
            packing: 2_000,
            cod: 2_501,
            goods_receipt: 1_000,
            shelving: 500,
            ..FeeFigures::default()
        }
    );
    assert_eq!(s.current.total(), 900 + 2_000 + 2_501 + 1_000 + 500);
    assert_eq!(s.previous, order(900, 0));
    assert_eq!(s.points.len(), 30);
    assert_eq!(s.points[1].1.orders, 2);
    assert_eq!(s.warehouses.iter().map(|w| w.0).collect::<Vec<_>>(), [1, 2]);
    assert!(s.updated_at.is_some());
    // Another store sees none of it.
    assert_eq!(repo.fee_summary(2, &span).await.unwrap().current, FeeFigures::default());
    // The tables are what the charges add up to; a rebuild from scratch leaves the same.
    let expected = fees::sums(told.iter().map(|(c, _)| c));
    assert_eq!(repo.fee_tables().await.unwrap(), expected);
    repo.clear().await.unwrap();
    assert!(repo.fee_tables().await.unwrap().is_empty());
    let rebuilt: Vec<_> = told.iter().map(|(c, _)| (c.clone(), "rebuild".to_string())).collect();
    let mut tx = db.begin().await.unwrap();
    assert_eq!(Repo::apply_fees(&mut tx, &rebuilt).await.unwrap(), 4);
    tx.commit().await.unwrap();
    assert_eq!(repo.fee_tables().await.unwrap(), expected);
    assert!(fees::differences(&expected, &repo.fee_tables().await.unwrap()).is_empty());
}

bo_kit::on_both_databases!(
    a_charge_told_twice_or_in_a_rebuild_counts_once,
    customers_are_new_returning_or_guests_whatever_the_order_of_their_events,
    a_month_sums_its_orders_whatever_the_order_of_their_events,
    an_edit_moves_the_figures_of_the_day_it_was_placed,
    a_batch_of_events_leaves_what_they_leave_one_by_one,
    sold_skus_page_search_and_sit_beside_the_month_before
);
