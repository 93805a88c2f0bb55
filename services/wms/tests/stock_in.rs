//! Goods receipts, lots, transfers and pick lists through the gRPC interface, on SQLite and
//! (when TEST_DATABASE_URL is set) PostgreSQL. Every test ends with the ledger's and the
//! lots' invariants.

use bo_kit::db::Db;
use bo_kit::grpc::CallCtx;
use bo_kit::inbox::{Meta, On};
use bo_kit::Code;
use bo_proto::events::v1::{ProductSaved, SkuSnapshot};
use bo_proto::wms::v1 as pb;
use bo_proto::wms::v1::wms_service_server::WmsService;
use bo_proto::Wire as _;
use bo_wms::registry::Registry;
use bo_wms::store::Repo;
use bo_wms::Service;

const STORE: i64 = 1;
const DAY: i64 = 86_400_000;

async fn setup(db: &Db) -> (Service, i64) {
    let s = Service::open(db.clone(), bo_kit::testing::bus().await).await.unwrap();
    let mut tx = db.begin().await.unwrap();
    Repo::ensure_default_warehouse(&mut tx, STORE, "คลังหลัก").await.unwrap();
    let saved = ProductSaved {
        product_id: 1,
        name: "น้ำปลาแท้".into(),
        skus: [3, 5, 7]
            .iter()
            .map(|id| SkuSnapshot {
                id: *id,
                code: format!("FS-{id}"),
                barcode: "8850999320016".into(),
                ..Default::default()
            })
            .collect(),
        version: 1,
        ..Default::default()
    };
    Registry
        .on(&mut tx, &Meta { event_id: String::new(), store_id: STORE, actor_user_id: 0, occur_ms: 1 }, saved)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let w = s.grpc.list_warehouses(ctx().request(pb::ListWarehousesRequest {})).await.unwrap().into_inner();
    (s, w.warehouses[0].id)
}

fn ctx() -> CallCtx {
    CallCtx::new(STORE, 9)
}

fn code(e: tonic::Status) -> Code {
    bo_kit::Error::from(e).code
}

fn unit(quantity: i64) -> Option<pb::LineUnit> {
    Some(pb::LineUnit {
        unit_id: if quantity > 1 { 4 } else { 0 },
        name: if quantity > 1 { "ลัง".into() } else { String::new() },
        quantity,
    })
}

fn product_line(sku: i64, qty: i64, per: i64, cost: i64, expires: i64) -> pb::ReceiptLineInput {
    pb::ReceiptLineInput {
        sku_id: sku,
        cost,
        request_qty: qty,
        expires_at_ms: expires,
        unit: unit(per),
        ..Default::default()
    }
}

fn draft(w: i64, lines: Vec<pb::ReceiptLineInput>) -> pb::GoodsReceiptDraft {
    pb::GoodsReceiptDraft {
        r#type: "product".into(),
        warehouse_id: w,
        expected_received_at_ms: 1_795_000_000_000,
        note: "ล็อตแรก".into(),
        lines,
        ..Default::default()
    }
}

async fn create(s: &Service, d: pb::GoodsReceiptDraft) -> pb::GoodsReceipt {
    let r = s.grpc.create_goods_receipt(ctx().request(pb::CreateGoodsReceiptRequest { draft: Some(d) })).await;
    r.unwrap().into_inner().receipt.unwrap()
}

async fn send(s: &Service, id: i64) -> Result<pb::GoodsReceipt, tonic::Status> {
    Ok(s.grpc.send_goods_receipt(ctx().request(pb::GoodsReceiptRequest { id })).await?.into_inner().receipt.unwrap())
}

async fn approve(s: &Service, id: i64, lines: Vec<pb::LineCheck>) -> Result<pb::GoodsReceiptResponse, tonic::Status> {
    Ok(s.grpc.approve_goods_receipt(ctx().request(pb::CheckGoodsReceiptRequest { id, lines })).await?.into_inner())
}

async fn level(s: &Service, w: i64, sku: i64) -> pb::StockLevel {
    let r = s.grpc.get_stock(ctx().request(pb::GetStockRequest { sku_ids: vec![sku], warehouse_id: w })).await.unwrap();
    r.into_inner().levels.pop().unwrap_or_default()
}

async fn lots(s: &Service, w: i64, sku: i64) -> Vec<pb::StockLot> {
    let r = s
        .grpc
        .list_stock_lots(ctx().request(pb::ListStockLotsRequest {
            warehouse_id: w,
            sku_ids: vec![sku],
            ..Default::default()
        }))
        .await
        .unwrap();
    r.into_inner().lots
}

async fn a_receipt_goes_from_draft_to_lots(db: Db) {
    let (s, w) = setup(&db).await;
    // Two lines: 2 cartons of 12 at 120 baht a carton, and 5 pieces at 9.50.
    let r =
        create(&s, draft(w, vec![product_line(3, 2, 12, 12_000, 0), product_line(5, 5, 1, 950, 1_800_000_000_000)]))
            .await;
    assert_eq!(r.state().wire(), "draft");
    assert!(r.code.starts_with("GR25") && r.code.ends_with("-000001"), "{}", r.code);
    assert_eq!((r.line_count, r.total_cost, r.total_request_qty), (2, 2 * 12_000 + 5 * 950, 29));
    assert_eq!(r.lines[0].product_name, "น้ำปลาแท้");
    assert_eq!(r.lines[0].request_base_qty, 24);
    // Nothing on hand yet, and QC before sending is refused.
    assert_eq!(level(&s, w, 3).await.on_hand, 0);
    let e = s.grpc.check_goods_receipt(ctx().request(pb::CheckGoodsReceiptRequest { id: r.id, lines: vec![] })).await;
    assert_eq!(code(e.unwrap_err()), Code::GoodsReceiptState);
    let sent = send(&s, r.id).await.unwrap();
    assert_eq!(sent.state().wire(), "pending");
    // Editing after sending is refused.
    let e = s
        .grpc
        .update_goods_receipt(ctx().request(pb::UpdateGoodsReceiptRequest {
            id: r.id,
            draft: Some(draft(w, vec![product_line(3, 1, 1, 1, 0)])),
        }))
        .await;
    assert_eq!(code(e.unwrap_err()), Code::GoodsReceiptState);
    // QC: one carton line fully in with one defective piece; four of five pieces.
    let checks = vec![
        pb::LineCheck { line_id: r.lines[0].id, receive_qty: 24, defect_qty: 1 },
        pb::LineCheck { line_id: r.lines[1].id, receive_qty: 4, defect_qty: 0 },
    ];
    let checked = s
        .grpc
        .check_goods_receipt(ctx().request(pb::CheckGoodsReceiptRequest { id: r.id, lines: checks }))
        .await
        .unwrap();
    let checked = checked.into_inner().receipt.unwrap();
    assert_eq!(checked.state().wire(), "received");
    assert_eq!((checked.lines[0].status().wire(), checked.lines[1].status().wire()), ("complete", "incomplete"));
    let done = approve(&s, r.id, vec![]).await.unwrap();
    assert!(!done.replayed);
    assert_eq!(done.receipt.unwrap().state().wire(), "approved");
    let l3 = level(&s, w, 3).await;
    assert_eq!((l3.on_hand, l3.available), (23, 23));
    assert_eq!(level(&s, w, 5).await.on_hand, 4);
    let lot = &lots(&s, w, 3).await[0];
    assert_eq!(
        (lot.code.as_str(), lot.unit_cost, lot.on_hand, lot.goods_receipt_id),
        (r.code.as_str(), 1_000, 23, r.id)
    );
    assert_eq!(lots(&s, w, 5).await[0].expires_at_ms, 1_800_000_000_000);
    // Approving again adds nothing.
    let again = approve(&s, r.id, vec![]).await.unwrap();
    assert!(again.replayed);
    assert_eq!(level(&s, w, 3).await.on_hand, 23);
    // Put-away.
    for (to, want) in [("shelving", "shelving"), ("shelved", "shelved")] {
        let x = s
            .grpc
            .shelve_goods_receipt(
                ctx().request(pb::ShelveGoodsReceiptRequest { id: r.id, state: pb::GoodsReceiptState::number(to) }),
            )
            .await;
        assert_eq!(x.unwrap().into_inner().receipt.unwrap().state().wire(), want);
    }
    let del = s.grpc.delete_goods_receipt(ctx().request(pb::GoodsReceiptRequest { id: r.id })).await;
    assert_eq!(code(del.unwrap_err()), Code::GoodsReceiptState);
}

async fn a_rejected_receipt_adds_nothing_and_drafts_can_be_deleted(db: Db) {
    let (s, w) = setup(&db).await;
    let r = create(&s, draft(w, vec![product_line(3, 10, 1, 500, 0)])).await;
    send(&s, r.id).await.unwrap();
    let no_reason = s
        .grpc
        .reject_goods_receipt(ctx().request(pb::RejectGoodsReceiptRequest { id: r.id, reason: " ".into() }))
        .await;
    assert_eq!(code(no_reason.unwrap_err()), Code::ValidationFailed);
    let rejected = s
        .grpc
        .reject_goods_receipt(ctx().request(pb::RejectGoodsReceiptRequest {
            id: r.id, reason: "สินค้าเปียกน้ำ".into()
        }))
        .await
        .unwrap()
        .into_inner()
        .receipt
        .unwrap();
    assert_eq!((rejected.state().wire(), rejected.reject_reason.as_str()), ("rejected", "สินค้าเปียกน้ำ"));
    assert_eq!(code(approve(&s, r.id, vec![]).await.unwrap_err()), Code::GoodsReceiptState);
    assert_eq!(level(&s, w, 3).await.on_hand, 0);
    let d = create(&s, draft(w, vec![product_line(3, 1, 1, 0, 0)])).await;
    assert!(d.code.ends_with("-000002"), "numbers go on: {}", d.code);
    s.grpc.delete_goods_receipt(ctx().request(pb::GoodsReceiptRequest { id: d.id })).await.unwrap();
    let gone = s.grpc.get_goods_receipt(ctx().request(pb::GoodsReceiptRequest { id: d.id })).await;
    assert_eq!(code(gone.unwrap_err()), Code::GoodsReceiptNotFound);
    // The board: counts per group.
    let list = s
        .grpc
        .list_goods_receipts(
            ctx().request(pb::ListGoodsReceiptsRequest { group: "rejected".into(), ..Default::default() }),
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.receipts.len(), 1);
    assert_eq!((list.counts["rejected"], list.counts["draft"], list.counts["pending"]), (1, 0, 0));
    // Another store sees none of it.
    let other = CallCtx::new(2, 9);
    let e = s.grpc.get_goods_receipt(other.request(pb::GoodsReceiptRequest { id: r.id })).await;
    assert_eq!(code(e.unwrap_err()), Code::GoodsReceiptNotFound);
}

async fn concurrent_approves_add_once(db: Db) {
    let (s, w) = setup(&db).await;
    let r = create(&s, draft(w, vec![product_line(7, 3, 12, 2_400, 0)])).await;
    send(&s, r.id).await.unwrap();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let grpc = s.grpc.clone();
            let id = r.id;
            tokio::spawn(async move {
                grpc.approve_goods_receipt(ctx().request(pb::CheckGoodsReceiptRequest { id, lines: vec![] })).await
            })
        })
        .collect();
    let mut fresh = 0;
    for t in tasks {
        if !t.await.unwrap().unwrap().into_inner().replayed {
            fresh += 1;
        }
    }
    assert_eq!(fresh, 1);
    assert_eq!(level(&s, w, 7).await.on_hand, 36);
    // Charged once, with no fee plan: the receipt counted, nothing to pay.
    let charges = Repo::new(db.clone()).fee_charges(0, 10).await.unwrap();
    assert_eq!(charges.len(), 1);
    assert_eq!(
        (charges[0].document.as_str(), charges[0].amounts.receipts, charges[0].amounts.goods_receipt),
        ("goods_receipt", 1, 0)
    );
}

async fn reservations_take_lots_first_expiry_first(db: Db) {
    let (s, w) = setup(&db).await;
    // Three lots: no expiry, expiring in 90 days, expiring in 10 days.
    for (i, exp) in [0, 90, 10].iter().enumerate() {
        let expires = if *exp == 0 { 0 } else { 1_900_000_000_000 + exp * DAY };
        let r = create(&s, draft(w, vec![product_line(3, 4, 1, 100 * (i as i64 + 1), expires)])).await;
        send(&s, r.id).await.unwrap();
        approve(&s, r.id, vec![]).await.unwrap();
    }
    let pick = s
        .grpc
        .pick_lots(ctx().request(pb::PickLotsRequest {
            warehouse_id: w,
            lines: vec![pb::StockLine { sku_id: 3, quantity: 6, ..Default::default() }],
            references: vec![],
        }))
        .await
        .unwrap()
        .into_inner();
    let p = &pick.picks[0];
    assert_eq!((p.sku_code.as_str(), p.product_name.as_str(), p.short), ("FS-3", "น้ำปลาแท้", 0));
    let exp: Vec<i64> = p.lots.iter().map(|l| (l.expires_at_ms - 1_900_000_000_000) / DAY).collect();
    assert_eq!((exp, p.lots[1].quantity), (vec![10, 90], 2), "the 10-day lot first, then the 90-day one");
    // A reservation holds the same lots.
    s.grpc
        .reserve(ctx().request(pb::ReserveRequest {
            reference: "order-1".into(),
            lines: vec![pb::StockLine { warehouse_id: w, sku_id: 3, quantity: 6, ..Default::default() }],
        }))
        .await
        .unwrap();
    let held = s
        .grpc
        .pick_lots(ctx().request(pb::PickLotsRequest { references: vec!["order-1".into()], ..Default::default() }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(held.picks[0].lots.iter().map(|l| l.quantity).collect::<Vec<_>>(), vec![4, 2]);
    // Taking stock out by hand takes the free units of the soonest lot first: the 90-day lot's 2.
    s.grpc
        .adjust(ctx().request(pb::AdjustRequest {
            reference: "adj-1".into(),
            warehouse_id: w,
            sku_id: 3,
            delta: -3,
            reason: "แตก".into(),
        }))
        .await
        .unwrap();
    let m = s
        .grpc
        .list_movements(ctx().request(pb::ListMovementsRequest { kind: "adjust".into(), ..Default::default() }))
        .await
        .unwrap()
        .into_inner();
    let taken: Vec<(bool, i64)> = m.movements[0].lots.iter().map(|l| (l.expires_at_ms > 0, l.quantity)).collect();
    assert!(taken.contains(&(true, 2)) && taken.contains(&(false, 1)) && taken.len() == 2, "{taken:?}");
    // Shipping the order takes its own lots.
    s.grpc.commit(ctx().request(pb::CommitRequest { reference: "order-1".into() })).await.unwrap();
    let left = lots(&s, w, 3).await;
    assert_eq!(left.iter().map(|l| l.on_hand).sum::<i64>(), 3);
    // Valuation: what is left is the no-expiry lot at 1.00 baht: 3 units.
    let v = s.grpc.get_valuation(ctx().request(pb::GetValuationRequest { warehouse_id: w, page: None })).await.unwrap();
    let v = v.into_inner();
    assert_eq!((v.warehouses[0].on_hand, v.warehouses[0].fifo_value), (3, 300));
    assert_eq!(v.warehouses[0].average_value, 3 * 200, "the moving average of 100, 200, 300");
}

async fn transfers_move_lots_all_or_nothing(db: Db) {
    let (s, main) = setup(&db).await;
    let second = s
        .grpc
        .create_warehouse(ctx().request(pb::CreateWarehouseRequest { name: "คลังสาขา".into(), code: String::new() }))
        .await
        .unwrap()
        .into_inner()
        .warehouse
        .unwrap();
    assert_eq!(second.code, "WH1");
    let r =
        create(&s, draft(main, vec![product_line(3, 10, 1, 700, 1_900_000_000_000), product_line(5, 2, 1, 100, 0)]))
            .await;
    send(&s, r.id).await.unwrap();
    approve(&s, r.id, vec![]).await.unwrap();
    // One line short: nothing moves.
    let short = s
        .grpc
        .create_transfer(ctx().request(pb::CreateTransferRequest {
            reference: "tf-1".into(),
            from_warehouse_id: main,
            to_warehouse_id: second.id,
            note: String::new(),
            lines: vec![
                pb::StockLine { sku_id: 3, quantity: 5, ..Default::default() },
                pb::StockLine { sku_id: 5, quantity: 3, ..Default::default() },
            ],
        }))
        .await;
    assert_eq!(code(short.unwrap_err()), Code::InsufficientStock);
    assert_eq!(level(&s, main, 3).await.on_hand, 10);
    // The refused line is named as it was sent, whatever order the ledger takes them in.
    let named = s
        .grpc
        .create_transfer(ctx().request(pb::CreateTransferRequest {
            reference: "tf-1b".into(),
            from_warehouse_id: main,
            to_warehouse_id: second.id,
            note: String::new(),
            lines: vec![
                pb::StockLine { sku_id: 5, quantity: 3, ..Default::default() },
                pb::StockLine { sku_id: 3, quantity: 1, ..Default::default() },
            ],
        }))
        .await
        .unwrap_err();
    assert_eq!(bo_kit::Error::from(named).fields[0].field, "lines[0].quantity");
    let req = || pb::CreateTransferRequest {
        reference: "tf-2".into(),
        from_warehouse_id: main,
        to_warehouse_id: second.id,
        note: "ไปสาขา".into(),
        lines: vec![pb::StockLine { sku_id: 3, quantity: 5, ..Default::default() }],
    };
    let t = s.grpc.create_transfer(ctx().request(req())).await.unwrap().into_inner();
    let again = s.grpc.create_transfer(ctx().request(req())).await.unwrap().into_inner();
    assert!(again.replayed && !t.replayed);
    let t = t.transfer.unwrap();
    assert_eq!(t.state().wire(), "in_transit");
    assert_eq!(level(&s, main, 3).await.on_hand, 5);
    let transit = s
        .grpc
        .list_in_transit(ctx().request(pb::ListInTransitRequest { sku_ids: vec![3] }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((transit.items[0].warehouse_id, transit.items[0].quantity), (second.id, 5));
    let got = s.grpc.receive_transfer(ctx().request(pb::TransferRequest { id: t.id })).await.unwrap().into_inner();
    assert_eq!(got.transfer.unwrap().state().wire(), "received");
    let there = lots(&s, second.id, 3).await;
    assert_eq!(
        (there[0].code.as_str(), there[0].unit_cost, there[0].expires_at_ms),
        (r.code.as_str(), 700, 1_900_000_000_000)
    );
    assert_eq!(level(&s, second.id, 3).await.on_hand, 5);
    let twice = s.grpc.receive_transfer(ctx().request(pb::TransferRequest { id: t.id })).await.unwrap().into_inner();
    assert!(twice.replayed);
    assert_eq!(level(&s, second.id, 3).await.on_hand, 5);
    // A deactivated warehouse takes no new stock, and the default one cannot be deactivated.
    s.grpc
        .update_warehouse(ctx().request(pb::UpdateWarehouseRequest {
            id: second.id,
            name: String::new(),
            active: Some(false),
        }))
        .await
        .unwrap();
    let d = draft(second.id, vec![product_line(3, 1, 1, 0, 0)]);
    let e = s.grpc.create_goods_receipt(ctx().request(pb::CreateGoodsReceiptRequest { draft: Some(d) })).await;
    assert_eq!(code(e.unwrap_err()), Code::WarehouseInactive);
    let e = s
        .grpc
        .update_warehouse(ctx().request(pb::UpdateWarehouseRequest {
            id: main,
            name: String::new(),
            active: Some(false),
        }))
        .await;
    assert_eq!(code(e.unwrap_err()), Code::WarehouseDefault);
}

async fn a_transfer_racing_reservations_never_oversells(db: Db) {
    let (s, main) = setup(&db).await;
    let second = s
        .grpc
        .create_warehouse(ctx().request(pb::CreateWarehouseRequest { name: "B".into(), code: "B".into() }))
        .await
        .unwrap()
        .into_inner()
        .warehouse
        .unwrap();
    let r = create(&s, draft(main, vec![product_line(5, 10, 1, 100, 0)])).await;
    send(&s, r.id).await.unwrap();
    approve(&s, r.id, vec![]).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..10 {
        let grpc = s.grpc.clone();
        tasks.push(tokio::spawn(async move {
            grpc.reserve(ctx().request(pb::ReserveRequest {
                reference: format!("o-{i}"),
                lines: vec![pb::StockLine { warehouse_id: main, sku_id: 5, quantity: 1, ..Default::default() }],
            }))
            .await
            .map(|_| 1)
        }));
    }
    let grpc = s.grpc.clone();
    let transfer = tokio::spawn(async move {
        grpc.create_transfer(ctx().request(pb::CreateTransferRequest {
            reference: "race".into(),
            from_warehouse_id: main,
            to_warehouse_id: second.id,
            note: String::new(),
            lines: vec![pb::StockLine { sku_id: 5, quantity: 5, ..Default::default() }],
        }))
        .await
        .map(|_| 5)
    });
    let mut out = 0;
    for t in tasks {
        out += t.await.unwrap().unwrap_or(0);
    }
    out += transfer.await.unwrap().unwrap_or(0);
    assert_eq!(out, 10, "exactly the ten units left: reserved or in transit");
    let l = level(&s, main, 5).await;
    assert!(l.available == 0 && l.on_hand >= l.reserved);
}

/// Twelve orders hold one unit each at once while the soonest lot has two: each hold reads
/// its lots before it locks the stock row, so most read the soonest lot while others take it;
/// those find it gone and choose again under the lock. The soonest lot ends with exactly its
/// two units held, the next one with the other ten, and every order holds one unit of a lot.
async fn holds_racing_for_the_soonest_lot_choose_again(db: Db) {
    let (s, w) = setup(&db).await;
    for (i, (qty, days)) in [(2, 10), (20, 90)].iter().enumerate() {
        let r =
            create(&s, draft(w, vec![product_line(3, *qty, 1, 100 * (i as i64 + 1), 1_900_000_000_000 + days * DAY)]))
                .await;
        send(&s, r.id).await.unwrap();
        approve(&s, r.id, vec![]).await.unwrap();
    }
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let grpc = s.grpc.clone();
            tokio::spawn(async move {
                grpc.hold(ctx().request(pb::HoldRequest {
                    reference: format!("order:{i}"),
                    revision: 1,
                    lines: vec![pb::StockLine { warehouse_id: w, sku_id: 3, quantity: 1, ..Default::default() }],
                }))
                .await
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let held: Vec<(i64, i64)> =
        lots(&s, w, 3).await.iter().map(|l| ((l.expires_at_ms - 1_900_000_000_000) / DAY, l.reserved)).collect();
    let mut held = held;
    held.sort();
    assert_eq!(held, vec![(10, 2), (90, 10)], "the soonest lot's two units, then the next lot's");
    assert_eq!(level(&s, w, 3).await.reserved, 12);
    let picks = s
        .grpc
        .pick_lots(ctx().request(pb::PickLotsRequest {
            references: (0..12).map(|i| format!("order:{i}")).collect(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let units: i64 = picks.picks.iter().flat_map(|p| p.lots.iter().map(|l| l.quantity)).sum();
    assert_eq!(units, 12, "every order holds its unit of a lot");
}

/// Lots chosen before the stock row is locked are taken only if they still have the units:
/// when another hold took them in between, nothing of them is taken and the hold chooses again.
async fn a_lot_chosen_early_that_lost_its_units_is_not_taken(db: Db) {
    use bo_wms::store::lots;
    let (s, w) = setup(&db).await;
    let r = create(&s, draft(w, vec![product_line(3, 2, 1, 100, 1_900_000_000_000)])).await;
    send(&s, r.id).await.unwrap();
    approve(&s, r.id, vec![]).await.unwrap();
    let mut tx = db.begin().await.unwrap();
    let chosen = lots::choose_early(&mut tx, &[(w, 3, 2)]).await.unwrap().remove(&(w, 3)).expect("two free units");
    assert!(lots::choose_early(&mut tx, &[(w, 3, 3)]).await.unwrap().is_empty(), "three are short");
    // Several asked at once: each answered on its own, a SKU without lots (or of another
    // warehouse) left out, and a SKU's lots never given to another.
    let several = lots::choose_early(&mut tx, &[(w, 3, 2), (w, 4, 1), (w + 1, 3, 1)]).await.unwrap();
    assert_eq!(several.keys().copied().collect::<Vec<_>>(), vec![(w, 3)]);
    assert_eq!(several[&(w, 3)], chosen);
    tx.rollback().await.unwrap();
    // Meanwhile an order holds one of the two.
    let line = pb::StockLine { warehouse_id: w, sku_id: 3, quantity: 1, ..Default::default() };
    s.grpc
        .hold(ctx().request(pb::HoldRequest { reference: "order:1".into(), revision: 1, lines: vec![line] }))
        .await
        .unwrap();
    let mut tx = db.begin().await.unwrap();
    assert!(!lots::reserve_chosen(&mut tx, &chosen).await.unwrap(), "the lot has one unit free, not two");
    tx.rollback().await.unwrap();
    let mut tx = db.begin().await.unwrap();
    let one = lots::choose_early(&mut tx, &[(w, 3, 1)]).await.unwrap().remove(&(w, 3)).unwrap();
    assert!(lots::reserve_chosen(&mut tx, &one).await.unwrap(), "the one left can be taken");
    tx.rollback().await.unwrap();
    assert_eq!(lots(&s, w, 3).await[0].reserved, 1);
}

/// Every test ends by checking the ledger's and the lots' invariants on what it left.
async fn checked(db: Db, test: impl std::future::Future<Output = ()>) {
    test.await;
    let broken = Repo::new(db).check_invariants().await.unwrap();
    assert!(broken.is_empty(), "the invariants: {broken:#?}");
}

bo_kit::on_both_databases!(checked by super::checked; a_receipt_goes_from_draft_to_lots,
    a_rejected_receipt_adds_nothing_and_drafts_can_be_deleted,
    concurrent_approves_add_once,
    reservations_take_lots_first_expiry_first,
    holds_racing_for_the_soonest_lot_choose_again,
    a_lot_chosen_early_that_lost_its_units_is_not_taken,
    transfers_move_lots_all_or_nothing,
    a_transfer_racing_reservations_never_oversells
);
