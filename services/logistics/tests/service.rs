//! The logistics repository on both databases: one international channel per warehouse per
//! provider even under concurrent adds, the set number of channels, COD accounts, and the
//! active channels a parcel is priced with.

use bo_kit::db::Db;
use bo_kit::Code;
use bo_logistics::domain::{self, Bracket, Draft};
use bo_logistics::store::{Ref, Repo};

fn inter(warehouse_id: i64, provider: &str) -> domain::Channel {
    domain::validate(Draft {
        warehouse_id,
        logistic_type: "international".into(),
        name: "EMS World".into(),
        provider: provider.into(),
        price: 0,
        method: "weight".into(),
        brackets: vec![Bracket { max_weight_g: 2_000, price: 65_000 }],
        ..Default::default()
    })
    .unwrap()
}

fn flash(warehouse_id: i64, cod: bool) -> domain::Channel {
    domain::validate(Draft {
        warehouse_id,
        logistic_type: "domestic".into(),
        name: "Flash".into(),
        provider: "flash".into(),
        price: 3_500,
        method: "flat".into(),
        cod,
        ..Default::default()
    })
    .unwrap()
}

async fn open(db: &Db, max: i64) -> Repo {
    db.migrate(&bo_logistics::MIGRATIONS_SQLITE, &bo_logistics::MIGRATIONS_POSTGRES).await.unwrap();
    Repo::new(db.clone(), max)
}

async fn one_international_channel_per_warehouse_and_provider(db: Db) {
    let repo = open(&db, 100).await;
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let repo = repo.clone();
        tasks.push(tokio::spawn(async move { repo.create(1, 1, &inter(10, "ems_world_package")).await }));
    }
    let mut won = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => won += 1,
            Err(e) => assert_eq!(e.code, Code::LogisticInterDuplicate),
        }
    }
    assert_eq!(won, 1);
    // Another warehouse, another provider or another store may.
    repo.create(1, 1, &inter(11, "ems_world_package")).await.unwrap();
    repo.create(1, 1, &inter(10, "epacket")).await.unwrap();
    repo.create(2, 1, &inter(10, "ems_world_package")).await.unwrap();
    // Domestic channels are not limited that way.
    repo.create(1, 1, &flash(10, false)).await.unwrap();
    repo.create(1, 1, &flash(10, false)).await.unwrap();
    let found = repo.get(1, &Ref::Inter { provider: "ems_world_package".into(), warehouse_id: 10 }).await.unwrap();
    assert!(found.to_proto().international);
}

async fn the_set_number_and_cod_accounts(db: Db) {
    let repo = open(&db, 2).await;
    let e = repo.create(1, 1, &flash(10, true)).await.unwrap_err();
    assert_eq!(e.code, Code::CodAccountMissing, "missing COD number");
    repo.save_provider(1, 1, None, "flash", "1234567890", true).await.unwrap();
    let e = repo.save_provider(1, 1, None, "flash", "1234567899", true).await.unwrap_err();
    assert_eq!(e.code, Code::CodProviderDuplicate);
    let changed = repo.save_provider(1, 1, None, "flash", "1234567899", false).await.unwrap();
    assert_eq!(changed.cod_account_no, "1234567899");
    repo.create(1, 1, &flash(10, true)).await.unwrap();
    repo.create(1, 1, &flash(10, false)).await.unwrap();
    let e = repo.create(1, 1, &flash(10, false)).await.unwrap_err();
    assert_eq!(e.code, Code::LogisticLimitReached, "exceeded the set number");
    // Status by provider; only active channels are priced.
    assert_eq!(repo.set_status(1, 1, None, "flash", "inactive").await.unwrap(), 2);
    assert!(repo.active_in(1, 10).await.unwrap().is_empty());
    let events: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE event_type = 'logistics.store_channel.saved'")
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(events, 4, "two adds and two status changes");
}

async fn two_hundred_concurrent_reservations_never_share_a_number(db: Db) {
    let repo = open(&db, 100).await;
    // Two small ranges: 150 + 100 numbers for 200 callers, so the second range is reached.
    for (first, last) in [("00000001", "00000150"), ("00001001", "00001100")] {
        let r = domain::tracking::validate_range("thaipost", "EY", first, last).unwrap();
        repo.add_range(1, 1, &r).await.unwrap();
    }
    let overlap = domain::tracking::validate_range("thaipost", "EY", "00000150", "00000160").unwrap();
    assert_eq!(repo.add_range(1, 1, &overlap).await.unwrap_err().code, Code::TrackingRangeOverlap);
    let mut tasks = Vec::new();
    for i in 0..200 {
        let repo = repo.clone();
        // Every fourth caller names an order; those must get one number each.
        let reference = if i % 4 == 0 { format!("order-{i}") } else { String::new() };
        tasks.push(tokio::spawn(async move { repo.reserve_numbers(1, 1, "thaipost", 1, &reference).await }));
    }
    let mut numbers = Vec::new();
    for t in tasks {
        let (n, replayed) = t.await.unwrap().unwrap();
        assert!(!replayed);
        numbers.extend(n);
    }
    assert_eq!(numbers.len(), 200);
    assert!(numbers.iter().all(|n| domain::tracking::is_valid_s10(n)), "{numbers:?}");
    let mut unique = numbers.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 200, "no number handed out twice");
    // A repeated reference answers what it got; the ranges account for every number.
    let (again, replayed) = repo.reserve_numbers(1, 1, "thaipost", 1, "order-8").await.unwrap();
    assert!(replayed);
    assert!(numbers.contains(&again[0]));
    let left: i64 = repo.ranges(1, "thaipost").await.unwrap().iter().map(|r| r.to_proto().remaining).sum();
    assert_eq!(left, 50);
    // All or none: 51 asked, 50 left.
    assert_eq!(repo.reserve_numbers(1, 1, "thaipost", 51, "").await.unwrap_err().code, Code::TrackingNumbersExhausted);
    let (last, _) = repo.reserve_numbers(1, 1, "thaipost", 50, "").await.unwrap();
    assert_eq!(last.len(), 50);
    assert_eq!(repo.reserve_numbers(1, 1, "thaipost", 1, "").await.unwrap_err().code, Code::TrackingNumbersExhausted);
    let kept: i64 =
        sqlx::query_scalar("SELECT COUNT(DISTINCT number) FROM tracking_numbers").fetch_one(db.pool()).await.unwrap();
    assert_eq!(kept, 250);
}

bo_kit::on_both_databases!(
    one_international_channel_per_warehouse_and_provider,
    the_set_number_and_cod_accounts,
    two_hundred_concurrent_reservations_never_share_a_number
);
