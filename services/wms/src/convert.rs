//! Between the contract and the service: a call's lines, receipt draft, counts, parcel and
//! lot filter become the rules' and storage's own types, and storage's rows become the
//! messages the calls answer. States are kept as their contract words and become enum
//! numbers here.

use bo_kit::paging::PageRequest;
use bo_kit::time::ms_to_timestamp;
use bo_proto::common::v1 as common;
use bo_proto::wms::v1 as pb;
use bo_proto::Wire as _;

use crate::domain::receipt::{Draft, LineCount, LineDraft, PackagingDraft};
use crate::domain::{parcels, Line};
use crate::store::holds::{HoldingRow, StoreHoldingRow};
use crate::store::lots::{LotFilter, LotRow, PickRow, SkuValuationRow, WarehouseValuationRow};
use crate::store::parcels::ParcelRow;
use crate::store::receipts::{LineRow, ReceiptRecord};
use crate::store::transfers::{InTransitRow, TransferLine, TransferRecord};
use crate::store::{LevelRow, MovementRecord, Take, WarehouseRow};

/// The page asked for (none: the first, at the default size).
pub fn page(p: Option<common::PageRequest>) -> PageRequest {
    p.map(|p| PageRequest::new(p.page, p.limit)).unwrap_or_default()
}

/// A line as sent.
pub fn line(l: &pb::StockLine) -> Line {
    Line { warehouse_id: l.warehouse_id, sku_id: l.sku_id, quantity: l.quantity }
}

/// A line in the warehouse the call names once for all its lines.
pub fn line_in(warehouse_id: i64, l: &pb::StockLine) -> Line {
    Line { warehouse_id, sku_id: l.sku_id, quantity: l.quantity }
}

/// A received line with the cost of one unit (none given: the moving average) and its
/// expiry (0 for none; a time before 1970 is none too).
pub fn received(l: &pb::StockLine) -> (Line, Option<i64>, i64) {
    (line(l), (l.unit_cost > 0).then_some(l.unit_cost), l.expires_at_ms.max(0))
}

/// A line as answered.
pub fn stock_line(l: &Line) -> pb::StockLine {
    pb::StockLine { warehouse_id: l.warehouse_id, sku_id: l.sku_id, quantity: l.quantity, ..Default::default() }
}

/// A packaging of the catalogue.
pub fn packaging(p: &parcels::Packaging) -> pb::ParcelPackaging {
    pb::ParcelPackaging {
        code: p.code.into(),
        name_th: p.name_th.into(),
        name_en: p.name_en.into(),
        width_cm: p.dims_cm[0],
        length_cm: p.dims_cm[1],
        height_cm: p.dims_cm[2],
        fee: p.fee,
    }
}

/// A warehouse.
pub fn warehouse(w: &WarehouseRow) -> pb::Warehouse {
    pb::Warehouse {
        id: w.id,
        store_id: w.store_id,
        name: w.name.clone(),
        code: w.code.clone(),
        is_default: w.is_default != 0,
        create_time: Some(ms_to_timestamp(w.created_at)),
        active: w.active != 0,
    }
}

/// A stock level (available is what is not reserved).
pub fn level(l: &LevelRow) -> pb::StockLevel {
    pb::StockLevel {
        warehouse_id: l.warehouse_id,
        sku_id: l.sku_id,
        on_hand: l.on_hand,
        reserved: l.reserved,
        available: l.available(),
        preorder: l.preorder,
    }
}

/// Units a movement took of a lot, or added to it.
pub fn lot_take(t: &Take) -> pb::LotTake {
    pb::LotTake { lot_id: t.lot_id, lot_code: t.lot_code.clone(), quantity: t.quantity, expires_at_ms: t.expires_at }
}

fn lot_takes(lots: &[Take]) -> Vec<pb::LotTake> {
    lots.iter().map(lot_take).collect()
}

/// A movement of the ledger with its lots.
pub fn movement(m: MovementRecord) -> pb::Movement {
    let r = m.row;
    pb::Movement {
        id: r.id,
        warehouse_id: r.warehouse_id,
        sku_id: r.sku_id,
        kind: r.kind,
        on_hand_delta: r.on_hand_delta,
        reserved_delta: r.reserved_delta,
        reason: r.reason,
        reference: r.reference,
        actor_user_id: r.actor_user_id,
        create_time: Some(ms_to_timestamp(r.created_at)),
        lots: lot_takes(&m.lots),
    }
}

/// Which lots a list asks for.
pub fn lot_filter(r: &pb::ListStockLotsRequest) -> LotFilter {
    LotFilter {
        warehouse_id: r.warehouse_id,
        sku_ids: r.sku_ids.clone(),
        expiring_within_days: r.expiring_within_days,
        include_empty: r.include_empty,
    }
}

/// A lot.
pub fn stock_lot(l: &LotRow) -> pb::StockLot {
    pb::StockLot {
        id: l.id,
        warehouse_id: l.warehouse_id,
        sku_id: l.sku_id,
        code: l.code.clone(),
        goods_receipt_id: l.goods_receipt_id,
        unit_cost: l.unit_cost,
        expires_at_ms: l.expires_at,
        received_at_ms: l.received_at,
        quantity_in: l.quantity_in,
        on_hand: l.on_hand,
        reserved: l.reserved,
    }
}

/// A warehouse's stock value.
pub fn warehouse_valuation(v: &WarehouseValuationRow) -> pb::WarehouseValuation {
    pb::WarehouseValuation {
        warehouse_id: v.warehouse_id,
        on_hand: v.on_hand,
        average_value: v.average_value,
        fifo_value: v.fifo_value,
    }
}

/// A SKU's stock value in one warehouse.
pub fn sku_valuation(v: SkuValuationRow) -> pb::SkuValuation {
    pb::SkuValuation {
        average_value: v.average_value(),
        warehouse_id: v.warehouse_id,
        sku_id: v.sku_id,
        sku_code: v.sku_code,
        product_name: v.product_name,
        on_hand: v.on_hand,
        average_cost: v.average_cost,
        fifo_value: v.fifo_value,
    }
}

/// The lots to pick a SKU from.
pub fn pick(p: PickRow) -> pb::Pick {
    pb::Pick {
        sku_id: p.sku_id,
        sku_code: p.sku_code,
        product_name: p.product_name,
        quantity: p.quantity,
        short: p.short,
        lots: lot_takes(&p.lots),
        warehouse_id: p.warehouse_id,
    }
}

/// What a reference holds of a SKU.
pub fn holding(h: HoldingRow) -> pb::Holding {
    pb::Holding {
        state: pb::HoldingState::number(&h.state),
        reference: h.reference,
        warehouse_id: h.warehouse_id,
        sku_id: h.sku_id,
        quantity: h.quantity,
    }
}

/// What a reference of a store holds of a SKU.
pub fn store_holding(h: &StoreHoldingRow) -> pb::StoreHolding {
    pb::StoreHolding {
        store_id: h.store_id,
        reference: h.holding.reference.clone(),
        warehouse_id: h.holding.warehouse_id,
        sku_id: h.holding.sku_id,
        quantity: h.holding.quantity,
        state: pb::HoldingState::number(&h.holding.state),
    }
}

/// The units a reference gave back.
pub fn released((reference, units): (String, i64)) -> pb::Released {
    pb::Released { reference, units }
}

/// The parcel a call saves: its draft as the rules check it, codes trimmed.
pub fn parcel_of(p: pb::Parcel) -> parcels::Parcel {
    parcels::Parcel {
        id: p.id,
        order_id: p.order_id,
        warehouse_id: p.warehouse_id,
        logistic_store_channel_id: p.logistic_store_channel_id,
        provider: p.provider,
        shipment_id: p.shipment_id,
        draft: parcels::ParcelDraft {
            weight_g: p.weight_g,
            dims_cm: [p.width_cm, p.length_cm, p.height_cm],
            packaging_code: p.packaging_code.trim().to_string(),
            shipping_fee: p.shipping_fee,
            cod_amount: p.cod_amount,
            cod_fee: p.cod_fee,
            packing_fee: p.packing_fee,
            tracking_no: p.tracking_no.trim().to_string(),
        },
    }
}

/// A parcel.
pub fn parcel(p: &ParcelRow) -> pb::Parcel {
    pb::Parcel {
        id: p.id,
        order_id: p.order_id,
        warehouse_id: p.warehouse_id,
        logistic_store_channel_id: p.logistic_store_channel_id,
        provider: p.provider.clone(),
        weight_g: p.weight_g,
        width_cm: p.width_cm,
        length_cm: p.length_cm,
        height_cm: p.height_cm,
        packaging_code: p.packaging_code.clone(),
        shipping_fee: p.shipping_fee,
        cod_amount: p.cod_amount,
        cod_fee: p.cod_fee,
        packing_fee: p.packing_fee,
        tracking_no: p.tracking_no.clone(),
        state: pb::ParcelState::number(&p.state),
        printed_at_ms: p.printed_at,
        created_by: p.created_by,
        create_time: Some(ms_to_timestamp(p.created_at)),
        shipped_at_ms: p.shipped_at,
        shipment_id: p.shipment_id,
    }
}

/// cm, cm, cm, g (none: zeros).
fn dims(d: &Option<pb::Dimension>) -> [i64; 4] {
    d.map(|d| [d.width_cm, d.length_cm, d.height_cm, d.weight_g]).unwrap_or_default()
}

fn dimension([width_cm, length_cm, height_cm, weight_g]: [i64; 4]) -> pb::Dimension {
    pb::Dimension { width_cm, length_cm, height_cm, weight_g }
}

/// The draft a call writes, for the rules to check (a line without a unit is in base
/// units, one each).
pub fn receipt_draft(d: pb::GoodsReceiptDraft) -> Draft {
    let pick = d.pick_up.unwrap_or_default();
    Draft {
        kind: d.r#type,
        warehouse_id: d.warehouse_id,
        expected_received_at_ms: d.expected_received_at_ms,
        note: d.note,
        is_pick_up: d.is_pick_up,
        pick_up_address: pick.address,
        pick_up_tel: pick.tel,
        pick_up_at_ms: pick.expected_picked_up_at_ms,
        lines: d
            .lines
            .into_iter()
            .map(|l| {
                let unit = l.unit.unwrap_or(pb::LineUnit { unit_id: 0, name: String::new(), quantity: 1 });
                LineDraft {
                    sku_id: l.sku_id,
                    name: l.name,
                    dimension: dims(&l.dimension),
                    cost: l.cost,
                    request_qty: l.request_qty,
                    expires_at_ms: l.expires_at_ms,
                    unit_id: unit.unit_id,
                    unit_name: unit.name,
                    unit_quantity: unit.quantity,
                    print_label: l.print_label,
                }
            })
            .collect(),
        packagings: d
            .packagings
            .into_iter()
            .map(|p| PackagingDraft { name: p.name, quantity: p.quantity, dimension: dims(&p.dimension) })
            .collect(),
        options: d.options,
    }
}

/// QC counts of a line.
pub fn line_count(c: &pb::LineCheck) -> LineCount {
    LineCount { line_id: c.line_id, receive_qty: c.receive_qty, defect_qty: c.defect_qty }
}

/// A receipt's line (the base units asked for are the units asked for times the unit's).
pub fn receipt_line(l: &LineRow) -> pb::ReceiptLine {
    pb::ReceiptLine {
        id: l.id,
        sku_id: l.sku_id,
        product_id: l.product_id,
        product_name: l.product_name.clone(),
        sku_code: l.sku_code.clone(),
        barcode: l.barcode.clone(),
        option1: l.option1.clone(),
        option2: l.option2.clone(),
        name: l.name.clone(),
        dimension: Some(dimension([l.width_cm, l.length_cm, l.height_cm, l.weight_g])),
        cost: l.cost,
        request_qty: l.request_qty,
        receive_qty: l.receive_qty,
        defect_qty: l.defect_qty,
        expires_at_ms: l.expires_at,
        unit: Some(pb::LineUnit { unit_id: l.unit_id, name: l.unit_name.clone(), quantity: l.unit_quantity }),
        print_label: l.print_label != 0,
        status: pb::LineOutcome::number(&l.status),
        request_base_qty: l.request_qty * l.unit_quantity,
    }
}

/// A receipt with its lines; its draft is what was written, the lines as asked.
pub fn receipt(r: ReceiptRecord) -> pb::GoodsReceipt {
    let lines: Vec<pb::ReceiptLine> = r.lines.iter().map(receipt_line).collect();
    let row = r.row;
    let inputs = lines
        .iter()
        .map(|l| pb::ReceiptLineInput {
            sku_id: l.sku_id,
            name: l.name.clone(),
            dimension: l.dimension,
            cost: l.cost,
            request_qty: l.request_qty,
            expires_at_ms: l.expires_at_ms,
            unit: l.unit.clone(),
            print_label: l.print_label,
        })
        .collect();
    let packagings = row
        .packagings()
        .into_iter()
        .map(|p| pb::Packaging {
            name: p.name,
            quantity: p.quantity,
            dimension: Some(dimension([p.width_cm, p.length_cm, p.height_cm, p.weight_g])),
        })
        .collect();
    let options = row.options();
    let is_pick_up = row.is_pick_up != 0;
    pb::GoodsReceipt {
        id: row.id,
        store_id: row.store_id,
        state: pb::GoodsReceiptState::number(&row.state),
        create_time: Some(ms_to_timestamp(row.created_at)),
        update_time: Some(ms_to_timestamp(row.updated_at)),
        draft: Some(pb::GoodsReceiptDraft {
            r#type: row.kind,
            warehouse_id: row.warehouse_id,
            expected_received_at_ms: row.expected_received_at,
            note: row.note,
            is_pick_up,
            pick_up: is_pick_up.then_some(pb::PickUpDetail {
                address: row.pick_up_address,
                tel: row.pick_up_tel,
                expected_picked_up_at_ms: row.pick_up_at,
            }),
            lines: inputs,
            packagings,
            options,
        }),
        code: row.code,
        lines,
        created_by: row.created_by,
        printed_by: row.printed_by,
        reject_reason: row.reject_reason,
        checked_by: row.checked_by,
        decided_by: row.decided_by,
        decided_at_ms: row.decided_at,
        line_count: row.line_count,
        total_cost: row.total_cost,
        total_request_qty: row.total_request_qty,
        warehouse_name: row.warehouse_name,
        order_id: row.order_id,
    }
}

fn transfer_line(l: TransferLine) -> pb::TransferLine {
    pb::TransferLine {
        sku_id: l.sku_id,
        sku_code: l.sku_code,
        product_name: l.product_name,
        quantity: l.quantity,
        lots: lot_takes(&l.lots),
    }
}

/// A transfer with its lines and the lots they carry.
pub fn transfer(t: TransferRecord) -> pb::Transfer {
    let r = t.row;
    pb::Transfer {
        id: r.id,
        code: r.code,
        state: pb::TransferState::number(&r.state),
        from_warehouse_id: r.from_warehouse_id,
        to_warehouse_id: r.to_warehouse_id,
        note: r.note,
        lines: t.lines.into_iter().map(transfer_line).collect(),
        created_by: r.created_by,
        received_by: r.received_by,
        create_time: Some(ms_to_timestamp(r.created_at)),
        received_at_ms: r.received_at,
    }
}

/// Units on their way to a warehouse.
pub fn in_transit(r: &InTransitRow) -> pb::InTransit {
    pb::InTransit { warehouse_id: r.warehouse_id, sku_id: r.sku_id, quantity: r.quantity }
}

/// A warehouse's fee plan.
pub fn fee_plan(p: &crate::store::fees::PlanRow) -> pb::FeePlan {
    let f = &p.plan;
    pb::FeePlan {
        warehouse_id: p.warehouse_id,
        receipt_line: f.receipt_line,
        shelving: f.shelving,
        pick: f.pick,
        pack: f.pack,
        packaging: f.packaging,
        material: f.material,
        additional: f.additional,
        shipping: f.shipping,
        cod_rate_bp: f.cod_rate_bp,
        update_time: (p.updated_at > 0).then(|| bo_kit::time::ms_to_timestamp(p.updated_at)),
        updated_by: p.updated_by,
    }
}

/// The plan a fee plan of the contract asks for.
pub fn plan_of(p: &pb::FeePlan) -> crate::domain::fees::Plan {
    crate::domain::fees::Plan {
        receipt_line: p.receipt_line,
        shelving: p.shelving,
        pick: p.pick,
        pack: p.pack,
        packaging: p.packaging,
        material: p.material,
        additional: p.additional,
        shipping: p.shipping,
        cod_rate_bp: p.cod_rate_bp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::receipt::{line_status, STATES};
    use crate::domain::state;
    use crate::store::receipts::ReceiptRow;
    use crate::store::transfers::{TransferRow, IN_TRANSIT, RECEIVED};

    #[test]
    fn available_is_what_is_not_reserved() {
        let l = level(&LevelRow { warehouse_id: 1, sku_id: 7, on_hand: 10, reserved: 4, preorder: 2 });
        assert_eq!((l.warehouse_id, l.sku_id, l.on_hand, l.reserved, l.available, l.preorder), (1, 7, 10, 4, 6, 2));
        let v = sku_valuation(SkuValuationRow { on_hand: 3, average_cost: 250, ..Default::default() });
        assert_eq!(v.average_value, 750);
        let v = sku_valuation(SkuValuationRow { on_hand: i64::MAX, average_cost: 2, ..Default::default() });
        assert_eq!(v.average_value, i64::MAX, "saturates, never wraps");
    }

    /// Every state word storage keeps answers as a known enum number, never unspecified.
    #[test]
    fn every_stored_state_is_a_known_enum_number() {
        for s in [state::RESERVED, state::RELEASED, state::COMMITTED] {
            let h = HoldingRow { state: s.into(), ..Default::default() };
            assert_ne!(store_holding(&StoreHoldingRow { store_id: 1, holding: h.clone() }).state, 0, "{s}");
            assert_ne!(holding(h).state, 0, "{s}");
        }
        for s in [parcels::PENDING, parcels::SHIPPED] {
            assert_ne!(parcel(&ParcelRow { state: s.into(), ..Default::default() }).state, 0, "{s}");
        }
        for s in [IN_TRANSIT, RECEIVED] {
            let t = TransferRecord { row: TransferRow { state: s.into(), ..Default::default() }, lines: Vec::new() };
            assert_ne!(transfer(t).state, 0, "{s}");
        }
        for s in STATES {
            let row = ReceiptRow { state: s.as_str().into(), ..Default::default() };
            assert_ne!(receipt(ReceiptRecord { row, lines: Vec::new() }).state, 0, "{s:?}");
        }
        for (asked, counted) in [(24, 24), (24, 23), (24, 0), (24, 25)] {
            let l = LineRow { status: line_status(asked, counted).into(), ..Default::default() };
            assert_ne!(receipt_line(&l).status, 0, "{asked} {counted}");
        }
        // A line not counted yet has no outcome.
        assert_eq!(receipt_line(&LineRow::default()).status, 0);
    }

    #[test]
    fn a_received_line_without_a_cost_takes_the_average() {
        let l = pb::StockLine { warehouse_id: 1, sku_id: 7, quantity: 3, unit_cost: 0, expires_at_ms: -5 };
        assert_eq!(received(&l), (Line { warehouse_id: 1, sku_id: 7, quantity: 3 }, None, 0));
        let l = pb::StockLine { unit_cost: 250, expires_at_ms: 99, ..l };
        assert_eq!(received(&l), (Line { warehouse_id: 1, sku_id: 7, quantity: 3 }, Some(250), 99));
        assert_eq!(line_in(4, &l), Line { warehouse_id: 4, sku_id: 7, quantity: 3 });
    }

    #[test]
    fn a_receipt_line_without_a_unit_is_in_base_units() {
        let d = receipt_draft(pb::GoodsReceiptDraft {
            lines: vec![
                pb::ReceiptLineInput { sku_id: 7, request_qty: 2, ..Default::default() },
                pb::ReceiptLineInput {
                    sku_id: 8,
                    unit: Some(pb::LineUnit { unit_id: 3, name: "ลัง".into(), quantity: 12 }),
                    print_label: true,
                    ..Default::default()
                },
            ],
            ..Default::default()
        });
        let units: Vec<_> =
            d.lines.iter().map(|l| (l.unit_id, l.unit_name.as_str(), l.unit_quantity, l.print_label)).collect();
        assert_eq!(units, [(0, "", 1, false), (3, "ลัง", 12, true)]);
        assert_eq!(d.lines[0].dimension, [0; 4]);
    }

    #[test]
    fn a_receipt_answers_its_draft_as_written() {
        let row = ReceiptRow {
            state: "draft".into(),
            kind: "product".into(),
            packagings: r#"[{"name":"กล่อง","quantity":2,"width_cm":30}]"#.into(),
            options: r#"["repack"]"#.into(),
            pick_up_address: "kept but not picked up".into(),
            ..Default::default()
        };
        let line = LineRow { sku_id: 7, request_qty: 2, unit_quantity: 12, print_label: 1, ..Default::default() };
        let r = receipt(ReceiptRecord { row, lines: vec![line] });
        let d = r.draft.unwrap();
        assert_eq!((d.r#type.as_str(), d.pick_up, d.options), ("product", None, vec!["repack".to_string()]));
        assert_eq!((d.packagings[0].quantity, d.packagings[0].dimension.unwrap().width_cm), (2, 30));
        assert_eq!(
            (d.lines[0].sku_id, d.lines[0].unit.as_ref().unwrap().quantity, d.lines[0].print_label),
            (7, 12, true)
        );
        assert_eq!(r.lines[0].request_base_qty, 24);
        let broken = ReceiptRow { packagings: "not json".into(), options: String::new(), ..Default::default() };
        let d = receipt(ReceiptRecord { row: broken, lines: Vec::new() }).draft.unwrap();
        assert!(d.packagings.is_empty() && d.options.is_empty());
    }

    #[test]
    fn a_saved_parcel_keeps_its_codes_trimmed() {
        let p = parcel_of(pb::Parcel {
            order_id: 9,
            provider: " flash ".into(),
            width_cm: 20,
            length_cm: 30,
            height_cm: 11,
            packaging_code: " box_c ".into(),
            tracking_no: " EF123456785TH ".into(),
            ..Default::default()
        });
        assert_eq!((p.order_id, p.provider.as_str()), (9, " flash "), "storage trims the provider as it writes it");
        assert_eq!(p.draft.dims_cm, [20, 30, 11]);
        assert_eq!((p.draft.packaging_code.as_str(), p.draft.tracking_no.as_str()), ("box_c", "EF123456785TH"));
    }
}
