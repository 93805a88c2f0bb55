//! The logistics repository on both databases: one international channel per warehouse per
//! provider even under concurrent adds, the set number of channels, COD accounts, and the
//! active channels a parcel is priced with.

use bo_kit::db::Db;
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
            Err(e) => assert_eq!(e.code, "logistic_inter_duplicate"),
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
    assert_eq!(e.code, "cod_account_missing", "missing COD number");
    repo.save_provider(1, 1, None, "flash", "1234567890", true).await.unwrap();
    let e = repo.save_provider(1, 1, None, "flash", "1234567899", true).await.unwrap_err();
    assert_eq!(e.code, "cod_provider_duplicate");
    let changed = repo.save_provider(1, 1, None, "flash", "1234567899", false).await.unwrap();
    assert_eq!(changed.cod_account_no, "1234567899");
    repo.create(1, 1, &flash(10, true)).await.unwrap();
    repo.create(1, 1, &flash(10, false)).await.unwrap();
    let e = repo.create(1, 1, &flash(10, false)).await.unwrap_err();
    assert_eq!(e.code, "logistic_limit_reached", "exceeded the set number");
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

macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite { $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() {
            let t = bo_kit::testing::sqlite().await; super::$name(t.db.clone()).await;
        })* }
        mod postgres { $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() {
            if let Some(t) = bo_kit::testing::postgres().await { super::$name(t.db.clone()).await; }
        })* }
    };
}

on_both_databases!(one_international_channel_per_warehouse_and_provider, the_set_number_and_cod_accounts);

#[tokio::test]
async fn both_dialects_migrate_to_the_same_tables_and_columns() {
    let Some(pg) = bo_kit::testing::postgres().await else { return };
    let lite = bo_kit::testing::sqlite().await;
    for db in [&lite.db, &pg.db] {
        db.migrate(&bo_logistics::MIGRATIONS_SQLITE, &bo_logistics::MIGRATIONS_POSTGRES).await.unwrap();
    }
    assert_eq!(lite.db.schema().await.unwrap(), pg.db.schema().await.unwrap());
}
