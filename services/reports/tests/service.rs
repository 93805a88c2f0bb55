//! The reports' storage on both databases: orders' changes applied in the inbox's
//! transaction, in any order and more than once, sum to the daily tables a dashboard reads
//! (the dialects' parity is `contracts.rs`'s, for every module).

// Days are written as their numbers are read: 2026_11_01 is 1 November 2026.
#![allow(clippy::inconsistent_digit_grouping)]

use bo_kit::db::Db;
use bo_reports::domain::{self, Change, Content, Line, Period};
use bo_reports::store::{Repo, SkuNames};

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
        Change::Content { content, .. } => content.lines.first().map(|l| names(l.sku_id)).unwrap_or_default(),
        Change::State { .. } => Vec::new(),
    };
    let changed = Repo::apply(&mut tx, store, order, event, change, &names).await.unwrap();
    tx.commit().await.unwrap();
    changed
}

fn placed(day: i64, channel: &str, c: Content) -> Change {
    Change::Content { version: 1, channel: channel.into(), placed_day: day, content: c, placed: true }
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
    let s = repo.summary(7, &span, 10).await.unwrap();
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
    let q = repo.summary(7, &domain::span(Period::Quarterly, 2026_11_15).unwrap(), 1).await.unwrap();
    assert_eq!((q.current.net, q.top.len()), (300_00, 1));
    let y = repo.summary(7, &domain::span(Period::Yearly, 2026_11_15).unwrap(), 10).await.unwrap();
    assert_eq!(y.series.len(), 12);
    assert_eq!(y.series[10].1.orders, 2);
    // A store without sales.
    let none = repo.summary(9, &span, 10).await.unwrap();
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
        content: content(&[(12, 4, 480_00)]),
        placed: false,
    };
    assert!(apply(&db, 7, 1, "e2", edit).await);
    // An older edit arriving late changes nothing.
    let stale = Change::Content {
        version: 2,
        channel: "line".into(),
        placed_day: 2026_11_01,
        content: content(&[(10, 2, 200_00)]),
        placed: false,
    };
    assert!(!apply(&db, 7, 1, "e3", stale).await);
    let s = repo.summary(7, &domain::span(Period::Daily, 2026_11_01).unwrap(), 10).await.unwrap();
    assert_eq!((s.current.orders, s.current.units, s.current.net), (1, 4, 480_00));
    assert_eq!(s.top.iter().map(|t| (t.sku_id, t.units)).collect::<Vec<_>>(), vec![(12, 4)], "SKU 10 no longer sold");
}

bo_kit::on_both_databases!(
    a_month_sums_its_orders_whatever_the_order_of_their_events,
    an_edit_moves_the_figures_of_the_day_it_was_placed
);
