//! The stock ledger through its gRPC interface, on SQLite and (when TEST_DATABASE_URL is set)
//! PostgreSQL: it cannot be oversold, every command is idempotent, and stock never drops
//! below what is reserved.

use bo_kit::Code;
use std::time::Duration;

use bo_kit::db::Db;
use bo_kit::grpc::CallCtx;
use bo_kit::inbox::{Meta, On};
use bo_proto::events::v1::{ProductSaved, ProductsDeleted, SkuSnapshot};
use bo_proto::wms::v1 as pb;
use bo_proto::wms::v1::wms_service_server::WmsService;
use bo_wms::registry::Registry;
use bo_wms::store::Repo;
use bo_wms::Service;
use tokio_util::sync::CancellationToken;

const STORE: i64 = 1;

async fn setup(db: &Db) -> (Service, i64) {
    let s = Service::open(db.clone(), bo_kit::testing::bus().await).await.unwrap();
    let mut tx = db.begin().await.unwrap();
    Repo::ensure_default_warehouse(&mut tx, STORE, "คลังหลัก").await.unwrap();
    // The SKUs the tests use, as the catalog's events would have announced them.
    let saved = ProductSaved {
        product_id: 1,
        skus: [3, 5, 7, 42]
            .iter()
            .map(|id| SkuSnapshot { id: *id, code: format!("S-{id}"), ..Default::default() })
            .collect(),
        version: 1,
        ..Default::default()
    };
    Registry.on(&mut tx, &meta(STORE, 1), saved).await.unwrap();
    tx.commit().await.unwrap();
    let w = s.grpc.list_warehouses(ctx().request(pb::ListWarehousesRequest {})).await.unwrap().into_inner();
    (s, w.warehouses[0].id)
}

fn meta(store_id: i64, occur_ms: i64) -> Meta {
    Meta { event_id: String::new(), store_id, actor_user_id: 0, occur_ms }
}

fn ctx() -> CallCtx {
    CallCtx::new(STORE, 9)
}

fn line(w: i64, sku: i64, quantity: i64) -> pb::StockLine {
    pb::StockLine { warehouse_id: w, sku_id: sku, quantity, ..Default::default() }
}

async fn receive(s: &Service, reference: &str, lines: Vec<pb::StockLine>) -> pb::ReceiveResponse {
    s.grpc.receive(ctx().request(pb::ReceiveRequest { reference: reference.into(), lines })).await.unwrap().into_inner()
}

async fn level(s: &Service, w: i64, sku: i64) -> pb::StockLevel {
    let r = s.grpc.get_stock(ctx().request(pb::GetStockRequest { sku_ids: vec![sku], warehouse_id: w })).await.unwrap();
    r.into_inner().levels.pop().unwrap_or_default()
}

async fn two_hundred_clients_cannot_oversell_five_units(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 42, 5)]).await;
    let tasks: Vec<_> = (0..200)
        .map(|i| {
            let grpc = s.grpc.clone();
            tokio::spawn(async move {
                grpc.reserve(
                    ctx().request(pb::ReserveRequest { reference: format!("order-{i}"), lines: vec![line(w, 42, 1)] }),
                )
                .await
            })
        })
        .collect();
    let mut ok = 0;
    let mut refused = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => ok += 1,
            Err(status) => {
                assert_eq!(bo_kit::Error::from(status).code, Code::InsufficientStock);
                refused += 1;
            }
        }
    }
    assert_eq!((ok, refused), (5, 195));
    let l = level(&s, w, 42).await;
    assert_eq!((l.on_hand, l.reserved, l.available), (5, 5, 0));
}

async fn lines_of_one_sku_are_judged_on_their_sum(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 7, 3)]).await;
    let refused = s
        .grpc
        .reserve(
            ctx().request(pb::ReserveRequest { reference: "o-1".into(), lines: vec![line(w, 7, 2), line(w, 7, 2)] }),
        )
        .await
        .unwrap_err();
    let e = bo_kit::Error::from(refused);
    assert_eq!((e.code, e.fields[0].code.as_str()), (Code::InsufficientStock, "stock.insufficient"));
    assert_eq!(level(&s, w, 7).await.reserved, 0, "nothing kept of a refused reservation");
    // A refused reference may be tried again once stock allows.
    s.grpc
        .reserve(
            ctx().request(pb::ReserveRequest { reference: "o-1".into(), lines: vec![line(w, 7, 1), line(w, 7, 2)] }),
        )
        .await
        .unwrap();
    assert_eq!(level(&s, w, 7).await.available, 0);
}

async fn every_command_acts_once_per_reference(db: Db) {
    let (s, w) = setup(&db).await;
    assert!(!receive(&s, "gr-1", vec![line(w, 5, 10)]).await.replayed);
    assert!(receive(&s, "gr-1", vec![line(w, 5, 10)]).await.replayed);
    assert_eq!(level(&s, w, 5).await.on_hand, 10);

    let reserve = || {
        s.grpc.reserve(ctx().request(pb::ReserveRequest { reference: "order-9".into(), lines: vec![line(w, 5, 4)] }))
    };
    assert!(!reserve().await.unwrap().into_inner().replayed);
    assert!(reserve().await.unwrap().into_inner().replayed);
    assert_eq!(level(&s, w, 5).await.reserved, 4);

    let adjust = || {
        s.grpc.adjust(ctx().request(pb::AdjustRequest {
            reference: "adj-1".into(),
            warehouse_id: w,
            sku_id: 5,
            delta: 2,
            reason: "นับสต็อกเจอเพิ่ม".into(),
        }))
    };
    assert!(!adjust().await.unwrap().into_inner().replayed);
    assert!(adjust().await.unwrap().into_inner().replayed);
    assert_eq!(level(&s, w, 5).await.on_hand, 12);

    let commit = || s.grpc.commit(ctx().request(pb::CommitRequest { reference: "order-9".into() }));
    assert_eq!(commit().await.unwrap().into_inner().committed, 4);
    assert_eq!(commit().await.unwrap().into_inner().committed, 0);
    let l = level(&s, w, 5).await;
    assert_eq!((l.on_hand, l.reserved, l.available), (8, 0, 8));
    let release = s.grpc.release(ctx().request(pb::ReleaseRequest { reference: "order-9".into() })).await.unwrap();
    assert_eq!(release.into_inner().released, 0, "a shipped order has nothing to release");
}

async fn stock_never_goes_below_what_is_reserved(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 3, 5)]).await;
    s.grpc
        .reserve(ctx().request(pb::ReserveRequest { reference: "o".into(), lines: vec![line(w, 3, 3)] }))
        .await
        .unwrap();
    let adjust = |reference: &str, delta| {
        s.grpc.adjust(ctx().request(pb::AdjustRequest {
            reference: reference.into(),
            warehouse_id: w,
            sku_id: 3,
            delta,
            reason: "ของเสียหาย".into(),
        }))
    };
    let e = bo_kit::Error::from(adjust("a-1", -3).await.unwrap_err());
    assert_eq!(e.code, Code::StockBelowReserved);
    let l = adjust("a-2", -2).await.unwrap().into_inner().level.unwrap();
    assert_eq!((l.on_hand, l.reserved, l.available), (3, 3, 0));
    let released = s.grpc.release(ctx().request(pb::ReleaseRequest { reference: "o".into() })).await.unwrap();
    assert_eq!(released.into_inner().released, 3);
    assert_eq!(level(&s, w, 3).await.available, 3);

    // Another store's warehouse cannot be used.
    let other = CallCtx::new(2, 9);
    let e = s
        .grpc
        .receive(other.request(pb::ReceiveRequest { reference: "x".into(), lines: vec![line(w, 3, 1)] }))
        .await
        .unwrap_err();
    assert_eq!(bo_kit::Error::from(e).code, Code::WarehouseNotFound);

    // The ledger holds every movement, newest first, and each one left its event.
    let m = s
        .grpc
        .list_movements(ctx().request(pb::ListMovementsRequest { sku_id: 3, ..Default::default() }))
        .await
        .unwrap()
        .into_inner();
    let kinds: Vec<&str> = m.movements.iter().map(|m| m.kind.as_str()).collect();
    assert_eq!(kinds, ["release", "adjust", "reserve", "receive"]);
    assert_eq!(m.movements[1].reason, "ของเสียหาย");
    // Filtered by warehouse, kind and time: another warehouse has none; the adjustment is
    // within its own time and not before it.
    let list = |r: pb::ListMovementsRequest| async {
        s.grpc.list_movements(ctx().request(r)).await.unwrap().into_inner().movements
    };
    assert!(list(pb::ListMovementsRequest { warehouse_id: w + 1000, ..Default::default() }).await.is_empty());
    assert_eq!(list(pb::ListMovementsRequest { warehouse_id: w, ..Default::default() }).await.len(), 4);
    let at = m.movements[1].create_time.unwrap();
    let after = bo_kit::time::ms_to_timestamp(bo_kit::time::timestamp_to_ms(&at) + 1);
    let adjusted = list(pb::ListMovementsRequest {
        kind: "adjust".into(),
        from_time: Some(at),
        to_time: Some(after),
        ..Default::default()
    })
    .await;
    assert_eq!(adjusted.iter().map(|m| m.id).collect::<Vec<_>>(), vec![m.movements[1].id]);
    assert!(list(pb::ListMovementsRequest { kind: "adjust".into(), from_time: Some(after), ..Default::default() })
        .await
        .is_empty());
    assert!(list(pb::ListMovementsRequest { to_time: Some(at), kind: "adjust".into(), ..Default::default() })
        .await
        .is_empty());
    // An export reads a page before the last id it saw, without counting.
    let before = list(pb::ListMovementsRequest {
        before_id: m.movements[1].id,
        no_total: true,
        page: Some(bo_proto::common::v1::PageRequest { page: 1, limit: 1 }),
        ..Default::default()
    })
    .await;
    assert_eq!(before.iter().map(|m| m.id).collect::<Vec<_>>(), vec![m.movements[2].id]);
    let paged = s
        .grpc
        .list_movements(ctx().request(pb::ListMovementsRequest {
            before_id: m.movements[0].id,
            no_total: true,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((paged.movements.len(), paged.page.unwrap().total), (3, 0), "the older three, uncounted");
    let events: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE event_type = 'wms.stock.moved'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(events, 4);
}

async fn new_stores_get_a_default_warehouse(db: Db) {
    let bus = bo_kit::testing::bus().await;
    let s = Service::open(db.clone(), bus.clone()).await.unwrap();
    let stop = CancellationToken::new();
    tokio::spawn(s.consumer.clone().run(stop.clone()));
    // What the stores service publishes when a store opens.
    let mut tx = db.begin().await.unwrap();
    bo_kit::outbox::enqueue(
        &mut tx,
        77,
        1,
        &bo_proto::events::v1::StoreCreated { store_id: 77, name: "ร้านใหม่".into(), owner_user_id: 1 },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    s.relay.relay_once().await.unwrap();
    let ctx77 = CallCtx::new(77, 1);
    let mut found = Vec::new();
    for _ in 0..100 {
        found =
            s.grpc.list_warehouses(ctx77.request(pb::ListWarehousesRequest {})).await.unwrap().into_inner().warehouses;
        if !found.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.cancel();
    assert_eq!(found.len(), 1);
    assert!(found[0].is_default);
    assert_eq!(found[0].name, bo_wms::DEFAULT_WAREHOUSE_NAME);
}

async fn stock_commands_name_only_known_skus_of_their_store(db: Db) {
    let (s, w) = setup(&db).await;
    let adjust = |sku: i64, reference: &str| pb::AdjustRequest {
        reference: reference.into(),
        warehouse_id: w,
        sku_id: sku,
        delta: 1,
        reason: "นับสต๊อก".into(),
    };
    // Unknown, and another store's.
    let e = s.grpc.adjust(ctx().request(adjust(99, "a-1"))).await.unwrap_err();
    assert_eq!(code(e), Code::SkuNotFound);
    let mut tx = db.begin().await.unwrap();
    let other = ProductSaved {
        product_id: 2,
        skus: vec![SkuSnapshot { id: 99, ..Default::default() }],
        version: 5,
        ..Default::default()
    };
    Registry.on(&mut tx, &meta(STORE + 1, 5), other).await.unwrap();
    tx.commit().await.unwrap();
    let e = s.grpc.adjust(ctx().request(adjust(99, "a-2"))).await.unwrap_err();
    assert_eq!(code(e), Code::SkuNotFound);
    let e = s
        .grpc
        .reserve(
            ctx().request(pb::ReserveRequest { reference: "o-x".into(), lines: vec![line(w, 3, 1), line(w, 99, 1)] }),
        )
        .await
        .unwrap_err();
    assert_eq!(code(e), Code::SkuNotFound, "one unknown SKU refuses the whole command");

    // A SKU dropped from its product goes; an older event does not bring it back.
    let mut tx = db.begin().await.unwrap();
    let newer = ProductSaved {
        product_id: 1,
        skus: [5, 7, 42].iter().map(|id| SkuSnapshot { id: *id, ..Default::default() }).collect(),
        version: 10,
        ..Default::default()
    };
    Registry.on(&mut tx, &meta(STORE, 10), newer).await.unwrap();
    let stale = ProductSaved {
        product_id: 1,
        skus: vec![SkuSnapshot { id: 3, ..Default::default() }],
        version: 2,
        ..Default::default()
    };
    Registry.on(&mut tx, &meta(STORE, 2), stale).await.unwrap();
    tx.commit().await.unwrap();
    let e = s.grpc.adjust(ctx().request(adjust(3, "a-3"))).await.unwrap_err();
    assert_eq!(code(e), Code::SkuNotFound);
    assert!(s.grpc.adjust(ctx().request(adjust(5, "a-4"))).await.is_ok());

    // A deleted product's SKUs go.
    let mut tx = db.begin().await.unwrap();
    Registry.on(&mut tx, &meta(STORE, 20), ProductsDeleted { product_ids: vec![1] }).await.unwrap();
    tx.commit().await.unwrap();
    let e = s.grpc.adjust(ctx().request(adjust(5, "a-5"))).await.unwrap_err();
    assert_eq!(code(e), Code::SkuNotFound);
}

/// Fifty clients settle one order at once (half ship it, half release it): exactly one acts,
/// and another order's reservation on the same SKU is untouched.
async fn fifty_concurrent_settles_of_one_order_act_once(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 42, 100)]).await;
    for order in ["order-a", "order-b"] {
        s.grpc
            .reserve(ctx().request(pb::ReserveRequest { reference: order.into(), lines: vec![line(w, 42, 10)] }))
            .await
            .unwrap();
    }
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let grpc = s.grpc.clone();
            tokio::spawn(async move {
                if i % 2 == 0 {
                    let r = grpc.commit(ctx().request(pb::CommitRequest { reference: "order-a".into() })).await;
                    (true, r.unwrap().into_inner().committed)
                } else {
                    let r = grpc.release(ctx().request(pb::ReleaseRequest { reference: "order-a".into() })).await;
                    (false, r.unwrap().into_inner().released)
                }
            })
        })
        .collect();
    let mut acted = Vec::new();
    for t in tasks {
        let (shipped, units) = t.await.unwrap();
        if units != 0 {
            acted.push((shipped, units));
        }
    }
    assert_eq!(acted.len(), 1, "one settle acts: {acted:?}");
    assert_eq!(acted[0].1, 10);
    let l = level(&s, w, 42).await;
    let on_hand = if acted[0].0 { 90 } else { 100 };
    assert_eq!((l.on_hand, l.reserved), (on_hand, 10), "order B still holds its 10 units");
    let b = s.grpc.commit(ctx().request(pb::CommitRequest { reference: "order-b".into() })).await.unwrap();
    assert_eq!(b.into_inner().committed, 10);
}

/// The stable code of a refusal.
fn code(e: tonic::Status) -> Code {
    bo_kit::Error::from(e).code
}

fn hold(reference: &str, revision: i64, lines: Vec<pb::StockLine>) -> pb::HoldRequest {
    pb::HoldRequest { reference: reference.into(), revision, lines }
}

/// An order's hold moves by the difference, all lines or none; revisions only move
/// forward; a final release ends it.
async fn holds_move_by_the_difference(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 42, 10), line(w, 7, 5)]).await;
    let r = s.grpc.hold(ctx().request(hold("order:1", 1, vec![line(w, 42, 3)]))).await.unwrap().into_inner();
    assert_eq!((r.revision, r.replayed), (1, false));
    assert_eq!(level(&s, w, 42).await.reserved, 3);
    s.grpc.hold(ctx().request(hold("order:1", 2, vec![line(w, 42, 5), line(w, 7, 2)]))).await.unwrap();
    assert_eq!((level(&s, w, 42).await.reserved, level(&s, w, 7).await.reserved), (5, 2));
    // A late or repeated revision changes nothing and answers what is held.
    let r = s.grpc.hold(ctx().request(hold("order:1", 1, vec![line(w, 42, 1)]))).await.unwrap().into_inner();
    assert_eq!((r.revision, r.replayed, r.held.len()), (2, true, 2));
    assert_eq!(level(&s, w, 42).await.reserved, 5);
    // More than there is: refused, the line named as sent, nothing changes.
    let e = s.grpc.hold(ctx().request(hold("order:1", 3, vec![line(w, 7, 1), line(w, 42, 20)]))).await.unwrap_err();
    let err = bo_kit::Error::from_status(&e);
    assert_eq!(err.code, Code::InsufficientStock);
    assert_eq!(err.fields[0].field, "lines[1].quantity");
    assert_eq!((level(&s, w, 42).await.reserved, level(&s, w, 7).await.reserved), (5, 2));
    // Dropping a SKU gives it back, lots and all.
    s.grpc.hold(ctx().request(hold("order:1", 4, vec![line(w, 7, 1)]))).await.unwrap();
    assert_eq!((level(&s, w, 42).await.reserved, level(&s, w, 7).await.reserved), (0, 1));
    let released = s
        .grpc
        .release_many(ctx().request(pb::ReleaseManyRequest { references: vec!["order:1".into()], r#final: true }))
        .await
        .unwrap()
        .into_inner()
        .released;
    assert_eq!(released[0].units, 1);
    let e = s.grpc.hold(ctx().request(hold("order:1", 5, vec![line(w, 7, 1)]))).await.unwrap_err();
    assert_eq!(code(e), Code::ReservationSettled);
    // A final release closes a reference that held nothing; a plain one does not.
    for (reference, last) in [("order:2", true), ("order:3", false)] {
        s.grpc
            .release_many(ctx().request(pb::ReleaseManyRequest { references: vec![reference.into()], r#final: last }))
            .await
            .unwrap();
        let held = s.grpc.hold(ctx().request(hold(reference, 1, vec![line(w, 7, 1)]))).await;
        assert_eq!(held.is_ok(), !last, "{reference}");
    }
}

/// Thirty orders hold one unit each of ten, at once: exactly ten hold it.
async fn thirty_concurrent_holds_of_ten_units_never_oversell(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 42, 10)]).await;
    let tasks: Vec<_> = (0..30)
        .map(|i| {
            let grpc = s.grpc.clone();
            tokio::spawn(
                async move { grpc.hold(ctx().request(hold(&format!("order:{i}"), 1, vec![line(w, 42, 1)]))).await },
            )
        })
        .collect();
    let mut held = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => held += 1,
            Err(e) => assert_eq!(code(e), Code::InsufficientStock),
        }
    }
    assert_eq!(held, 10);
    assert_eq!(level(&s, w, 42).await.reserved, 10);
}

/// Shipping an order takes its hold off the shelf and ships its parcels, once; a parcel
/// without a tracking number, or no parcel at all, stops it.
async fn shipping_an_order_ships_its_parcels_once(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 42, 10)]).await;
    s.grpc.hold(ctx().request(hold("order:9", 1, vec![line(w, 42, 4)]))).await.unwrap();
    let ship = || pb::ShipOrderRequest { order_id: 9, reference: "order:9".into(), by_channel: false };
    let e = s.grpc.ship_order(ctx().request(ship())).await.unwrap_err();
    assert_eq!(code(e), Code::ParcelRequired);
    let parcel = pb::Parcel {
        order_id: 9,
        warehouse_id: w,
        weight_g: 800,
        packaging_code: "box_c".into(),
        shipping_fee: 6_550,
        ..Default::default()
    };
    let saved =
        s.grpc.save_parcel(ctx().request(pb::SaveParcelRequest { parcel: Some(parcel.clone()) })).await.unwrap();
    let saved = saved.into_inner().parcel.unwrap();
    assert_eq!((saved.packing_fee, saved.state()), (1_300, pb::ParcelState::Pending), "the packaging's fee");
    let e = s.grpc.ship_order(ctx().request(ship())).await.unwrap_err();
    assert_eq!(code(e), Code::ParcelTrackingMissing);
    assert_eq!(level(&s, w, 42).await.reserved, 4, "a refused ship changes nothing");
    // The warehouse's fee plan the shipping is charged by.
    let plan = pb::FeePlan {
        warehouse_id: w,
        pick: 300,
        pack: 1_000,
        material: 200,
        shipping: 4_500,
        cod_rate_bp: 250,
        ..Default::default()
    };
    let bad = pb::FeePlan { pick: -1, cod_rate_bp: 10_001, ..plan };
    let e = s.grpc.save_fee_plan(ctx().request(pb::SaveFeePlanRequest { plan: Some(bad) })).await.unwrap_err();
    assert_eq!(code(e), Code::ValidationFailed);
    let elsewhere = CallCtx::new(STORE + 1, 1).request(pb::SaveFeePlanRequest { plan: Some(plan) });
    assert_eq!(code(s.grpc.save_fee_plan(elsewhere).await.unwrap_err()), Code::WarehouseNotFound);
    let kept = s.grpc.save_fee_plan(ctx().request(pb::SaveFeePlanRequest { plan: Some(plan) })).await.unwrap();
    assert!(kept.into_inner().plan.unwrap().update_time.is_some());
    let plans = s.grpc.get_fee_plans(ctx().request(pb::GetFeePlansRequest {})).await.unwrap().into_inner().plans;
    assert_eq!((plans.len(), plans[0].pick, plans[0].updated_by), (1, 300, 9));
    let numbered = pb::Parcel { id: saved.id, tracking_no: "EY123456785TH".into(), ..parcel };
    s.grpc.save_parcel(ctx().request(pb::SaveParcelRequest { parcel: Some(numbered) })).await.unwrap();
    let r = s.grpc.ship_order(ctx().request(ship())).await.unwrap().into_inner();
    assert_eq!((r.committed, r.replayed, r.parcels[0].state()), (4, false, pb::ParcelState::Shipped));
    let l = level(&s, w, 42).await;
    assert_eq!((l.on_hand, l.reserved), (6, 0));
    let again = s.grpc.ship_order(ctx().request(ship())).await.unwrap().into_inner();
    assert_eq!((again.committed, again.replayed, again.parcels.len()), (0, true, 1));
    let e = s.grpc.delete_parcel(ctx().request(pb::DeleteParcelRequest { id: saved.id })).await.unwrap_err();
    assert_eq!(code(e), Code::ParcelShipped);
    // Charged once, at the plan: 4 units picked, the box at its catalogue price, the
    // parcel's own shipping fee, no COD.
    let charges = Repo::new(db.clone()).fee_charges(0, 10).await.unwrap();
    assert_eq!(charges.len(), 1, "a replayed ship charges nothing more");
    let c = &charges[0];
    assert_eq!((c.store_id, c.warehouse_id, c.document.as_str(), c.document_id), (STORE, w, "order", 9));
    assert_eq!(
        c.amounts,
        bo_wms::domain::fees::Amounts {
            orders: 1,
            picking: 1_200,
            packing: 1_000,
            packaging: 1_300,
            material: 200,
            shipping: 6_550,
            ..Default::default()
        }
    );
    let told: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE event_type = 'wms.fees.charged'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(told, 1);
    // Another store sees none of it.
    let other = CallCtx::new(STORE + 1, 1);
    let p =
        s.grpc.list_parcels(other.request(pb::ListParcelsRequest { order_ids: vec![9], ids: vec![] })).await.unwrap();
    assert!(p.into_inner().parcels.is_empty());
}

/// An order a marketplace shipped with its own labels leaves without parcels of ours, once,
/// charged the warehouse's picking and packing (no parcel, no shipping fee).
async fn a_marketplace_ships_without_our_parcels(db: Db) {
    let (s, w) = setup(&db).await;
    receive(&s, "gr-1", vec![line(w, 42, 10)]).await;
    s.grpc.hold(ctx().request(hold("order:7", 1, vec![line(w, 42, 3)]))).await.unwrap();
    let plan = pb::FeePlan { warehouse_id: w, pick: 300, pack: 1_000, shipping: 4_500, ..Default::default() };
    s.grpc.save_fee_plan(ctx().request(pb::SaveFeePlanRequest { plan: Some(plan) })).await.unwrap();
    let ship = |by_channel| pb::ShipOrderRequest { order_id: 7, reference: "order:7".into(), by_channel };
    assert_eq!(code(s.grpc.ship_order(ctx().request(ship(false))).await.unwrap_err()), Code::ParcelRequired);
    let r = s.grpc.ship_order(ctx().request(ship(true))).await.unwrap().into_inner();
    assert_eq!((r.committed, r.replayed, r.parcels.len()), (3, false, 0));
    let l = level(&s, w, 42).await;
    assert_eq!((l.on_hand, l.reserved), (7, 0));
    let again = s.grpc.ship_order(ctx().request(ship(true))).await.unwrap().into_inner();
    assert_eq!((again.committed, again.replayed), (0, true));
    let charges = Repo::new(db.clone()).fee_charges(0, 10).await.unwrap();
    assert_eq!(charges.len(), 1);
    let a = &charges[0].amounts;
    assert_eq!((charges[0].warehouse_id, a.orders, a.picking, a.packing, a.shipping), (w, 1, 900, 1_000, 0));
    // Nothing held, nothing to ship.
    assert_eq!(
        code(
            s.grpc
                .ship_order(ctx().request(pb::ShipOrderRequest {
                    order_id: 8,
                    reference: "order:8".into(),
                    by_channel: true
                }))
                .await
                .unwrap_err()
        ),
        Code::NothingReserved
    );
}

/// Every test ends by checking the ledger's invariants on what it left.
async fn checked(db: Db, test: impl std::future::Future<Output = ()>) {
    test.await;
    let broken = Repo::new(db).check_invariants().await.unwrap();
    assert!(broken.is_empty(), "the ledger's invariants: {broken:#?}");
}

bo_kit::on_both_databases!(checked by super::checked; two_hundred_clients_cannot_oversell_five_units,
    lines_of_one_sku_are_judged_on_their_sum,
    every_command_acts_once_per_reference,
    stock_never_goes_below_what_is_reserved,
    fifty_concurrent_settles_of_one_order_act_once,
    new_stores_get_a_default_warehouse,
    stock_commands_name_only_known_skus_of_their_store,
    holds_move_by_the_difference,
    thirty_concurrent_holds_of_ten_units_never_oversell,
    shipping_an_order_ships_its_parcels_once,
    a_marketplace_ships_without_our_parcels
);
