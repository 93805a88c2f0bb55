//! Buyers' returns of orders: taken in from the marketplaces service as each platform reports
//! them (matched to the order's lines), shown on the order, and their goods received back
//! into stock through a goods receipt of wms per warehouse, once per return.

use super::*;
use crate::domain::returns::{self as rules, Count, Line, OrderLine, PlatformLine};
use crate::store::{Kept, ReceiptRef, Reported, ReturnRow};

/// The longest texts a return brings.
const REFERENCE_MAX: usize = 100;
const STATUS_MAX: usize = 100;
const REASON_MAX: usize = 500;
const TRACKING_MAX: usize = 100;
/// The longest note of a receipt of returned goods (wms' limit), and of what staff add.
const NOTE_MAX: usize = 500;
const STAFF_NOTE_MAX: usize = 300;

fn clip(s: &str, max: usize) -> String {
    s.trim().chars().take(max).collect()
}

impl Orders {
    /// Takes in a buyer's return of a marketplace order: kept the first time, moved along by
    /// a newer change; a return of an order that is not that channel's is not found.
    pub async fn take_channel_return(
        &self,
        ctx: &CallCtx,
        r: pb::TakeChannelReturnRequest,
    ) -> Result<pb::TakeChannelReturnResponse> {
        let mut errs = Vec::new();
        let channel = r.channel.trim().to_string();
        if !marketplace_channel(&channel) {
            errs.push(FieldError::new("channel", "validation.channel_unknown"));
        }
        if r.order_id <= 0 {
            errs.push(FieldError::new("order_id", "validation.required"));
        }
        if r.reference.trim().is_empty() {
            errs.push(FieldError::new("reference", "validation.required"));
        } else if r.reference.trim().chars().count() > REFERENCE_MAX {
            errs.push(FieldError::new("reference", "validation.too_long"));
        }
        let stage = crate::convert::stage_of(r.stage());
        if stage.is_none() {
            errs.push(FieldError::new("stage", "validation.invalid"));
        }
        if r.lines.len() > draft::MAX_ITEMS {
            errs.push(FieldError::new("lines", "validation.too_many"));
        }
        for (i, l) in r.lines.iter().enumerate() {
            if l.quantity <= 0 || l.quantity > draft::MAX_QUANTITY {
                errs.push(FieldError::new(format!("lines[{i}].quantity"), "validation.quantity"));
            }
        }
        if !(0..=draft::MAX_CHARGE).contains(&r.refund_amount) {
            errs.push(FieldError::new("refund_amount", "validation.price"));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let order = self.repo.order(ctx.store_id, r.order_id).await?;
        if order.store_channel_id <= 0 || order.channel != channel {
            return Err(Error::not_found(Code::OrderNotFound));
        }
        let items = self.repo.items(&[order.id]).await?.remove(&order.id).unwrap_or_default();
        let platform: Vec<PlatformLine> = r
            .lines
            .iter()
            .map(|l| PlatformLine {
                listing: l.listing.trim().to_string(),
                sku_id: l.sku_id,
                quantity: l.quantity,
                name: clip(&l.name, 300),
            })
            .collect();
        let reported = Reported {
            reference: r.reference.trim().to_string(),
            stage: stage.unwrap_or(rules::Stage::Requested),
            status_word: clip(&r.status_word, STATUS_MAX),
            refund_only: r.refund_only,
            reason: clip(&r.reason, REASON_MAX),
            refund_amount: r.refund_amount,
            tracking_no: clip(&r.tracking_no, TRACKING_MAX),
            lines: rules::match_lines(&order_lines(&items), &platform),
            changed_at: r.changed_at_ms.max(0),
        };
        let (return_id, kept) = self.repo.keep_return(Self::actor(ctx), order.id, &reported).await?;
        let outcome = match kept {
            Kept::Created => pb::ChannelTake::Created,
            Kept::Updated => pb::ChannelTake::Updated,
            Kept::Unchanged => pb::ChannelTake::Unchanged,
            Kept::Stale => pb::ChannelTake::Stale,
        };
        Ok(pb::TakeChannelReturnResponse { order_id: order.id, return_id, outcome: outcome as i32 })
    }

    /// Receives a return's goods back into stock as counted: a goods receipt of wms per
    /// warehouse of the lines (good units on hand, defective ones counted), then the counts
    /// and receipts kept on the return. Refused once received, and before the order's stock
    /// has left; a call that died half way is finished by the next (wms makes each receipt
    /// once per return and warehouse).
    pub async fn receive_return(&self, ctx: &CallCtx, r: pb::ReceiveReturnRequest) -> Result<View> {
        let row = self.repo.order(ctx.store_id, r.order_id).await?;
        let ret = self.repo.return_of(ctx.store_id, row.id, r.return_id).await?;
        let lines = ret.lines();
        rules::check_receivable(row.stock_state == stock::COMMITTED, ret.received_at > 0, &lines)?;
        let counts: Vec<Count> =
            r.lines.iter().map(|c| Count { item_id: c.item_id, good: c.good, defective: c.defective }).collect();
        let counted = rules::counts(&lines, &counts)?;
        if r.note.trim().chars().count() > STAFF_NOTE_MAX {
            return Err(Error::invalid_field("note", "validation.too_long"));
        }
        let items = self.repo.items(&[row.id]).await?.remove(&row.id).unwrap_or_default();
        // One receipt per warehouse, one line per SKU.
        let mut by_warehouse: BTreeMap<i64, BTreeMap<i64, wpb::ReturnedLine>> = BTreeMap::new();
        for l in counted.iter().filter(|l| l.good + l.defective > 0) {
            let Some(item) = items.iter().find(|i| i.id == l.item_id) else { continue };
            let line = by_warehouse
                .entry(item.warehouse_id)
                .or_default()
                .entry(l.sku_id)
                .or_insert(wpb::ReturnedLine { sku_id: l.sku_id, cost: item.cost, good: 0, defective: 0 });
            line.good += l.good;
            line.defective += l.defective;
        }
        let mut note = format!("{} · {} {}", row.order_no, row.channel, ret.reference);
        if !r.note.trim().is_empty() {
            note = format!("{note} · {}", r.note.trim());
        }
        let mut receipts = Vec::new();
        let mut wms = self.clients()?.wms.clone();
        for (warehouse_id, lines) in by_warehouse {
            let answer = wms
                .receive_returned_goods(ctx.request(wpb::ReceiveReturnedGoodsRequest {
                    origin: format!("return:{}:{warehouse_id}", ret.id),
                    order_id: row.id,
                    warehouse_id,
                    note: clip(&note, NOTE_MAX),
                    lines: lines.into_values().collect(),
                }))
                .await
                .map_err(Error::from)?
                .into_inner();
            let receipt = answer.receipt.unwrap_or_default();
            receipts.push(ReceiptRef { goods_receipt_id: receipt.id, code: receipt.code, warehouse_id });
        }
        self.repo.record_received(Self::actor(ctx), row.id, ret.id, &counted, &receipts).await?;
        self.load(ctx, row.id).await
    }

    /// An order's returns as the contract shows them.
    pub(super) async fn returns_view(&self, ctx: &CallCtx, row: &OrderRow) -> Result<Vec<pb::OrderReturn>> {
        if row.return_mark.is_empty() {
            return Ok(Vec::new());
        }
        let stock_left = row.stock_state == stock::COMMITTED;
        Ok(self.repo.returns_of(ctx.store_id, row.id).await?.iter().map(|r| return_message(r, stock_left)).collect())
    }
}

/// The order's lines as a return's lines are matched against them.
fn order_lines(items: &[ItemRow]) -> Vec<OrderLine> {
    items
        .iter()
        .map(|i| OrderLine {
            item_id: i.id,
            sku_id: i.sku_id,
            listing: i.listing.clone(),
            quantity: i.quantity,
            name: i.product_name.clone(),
            sku_code: i.sku_code.clone(),
        })
        .collect()
}

fn return_message(r: &ReturnRow, stock_left: bool) -> pb::OrderReturn {
    let lines: Vec<Line> = r.lines();
    pb::OrderReturn {
        id: r.id,
        reference: r.reference.clone(),
        stage: crate::convert::return_stage(r.stage()) as i32,
        status_word: r.status_word.clone(),
        refund_only: r.refund_only != 0,
        reason: r.reason.clone(),
        refund_amount: r.refund_amount,
        tracking_no: r.tracking_no.clone(),
        receivable: rules::receivable(stock_left, r.received_at > 0, &lines),
        lines: lines
            .into_iter()
            .map(|l| pb::ReturnLine {
                item_id: l.item_id,
                sku_id: l.sku_id,
                name: l.name,
                sku_code: l.sku_code,
                quantity: l.quantity,
                good: l.good,
                defective: l.defective,
            })
            .collect(),
        receipts: r
            .receipts()
            .into_iter()
            .map(|x| pb::ReturnReceipt {
                goods_receipt_id: x.goods_receipt_id,
                code: x.code,
                warehouse_id: x.warehouse_id,
            })
            .collect(),
        received_at_ms: r.received_at,
        received_by: r.received_by,
        create_time: Some(bo_kit::time::ms_to_timestamp(r.created_at)),
        update_time: Some(bo_kit::time::ms_to_timestamp(r.updated_at)),
    }
}
