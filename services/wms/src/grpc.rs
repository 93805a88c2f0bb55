//! The tonic service: reads the call, checks the rules, calls the ledger, answers messages
//! (`convert` maps between them).

use bo_kit::outbox::Relay;
use bo_kit::time::timestamp_to_ms;
use bo_proto::wms::v1 as pb;
use bo_proto::wms::v1::wms_service_server::WmsService;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::convert;
use crate::domain::{self, Line};
use crate::store::receipts::ReceiptRecord;
use crate::store::{Actor, MovementFilter, Repo};

/// The wms service.
#[derive(Clone)]
pub struct WmsGrpc {
    repo: Repo,
    relay: Relay,
}

impl WmsGrpc {
    /// The service on `repo`, waking `relay` after writes.
    pub fn new(repo: Repo, relay: Relay) -> Self {
        Self { repo, relay }
    }
}

type Rpc<T> = Result<Response<T>, Status>;

fn receipt(r: ReceiptRecord, replayed: bool) -> Response<pb::GoodsReceiptResponse> {
    Response::new(pb::GoodsReceiptResponse { receipt: Some(convert::receipt(r)), replayed })
}

/// Names a refused line by its place in the request, not in the merged, sorted lines (the
/// first line sent of that SKU).
fn as_sent(mut e: bo_kit::Error, merged: &[Line], sent: &[pb::StockLine]) -> bo_kit::Error {
    for f in &mut e.fields {
        let Some(i) =
            f.field.strip_prefix("lines[").and_then(|s| s.split(']').next()).and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if let Some(at) = merged.get(i).and_then(|m| {
            sent.iter().position(|l| l.sku_id == m.sku_id && (l.warehouse_id == m.warehouse_id || l.warehouse_id == 0))
        }) {
            f.field = f.field.replacen(&format!("lines[{i}]"), &format!("lines[{at}]"), 1);
        }
    }
    e
}

fn lines(lines: &[pb::StockLine]) -> bo_kit::Result<Vec<Line>> {
    let raw: Vec<Line> = lines.iter().map(convert::line).collect();
    domain::merge_lines(&raw)
}

/// Holdings a page of [`WmsService::list_holdings_by_prefix`] carries.
const HOLDINGS_PAGE: usize = 5_000;

#[tonic::async_trait]
impl WmsService for WmsGrpc {
    type ListHoldingsByPrefixStream =
        futures::stream::Iter<std::vec::IntoIter<Result<pb::ListHoldingsByPrefixResponse, Status>>>;

    async fn get_rules(&self, _req: Request<pb::GetRulesRequest>) -> Rpc<pb::GetRulesResponse> {
        Ok(Response::new(pb::GetRulesResponse {
            packagings: domain::parcels::PACKAGINGS.iter().map(convert::packaging).collect(),
            max_labels: domain::receipt::MAX_LABELS,
        }))
    }

    async fn check_invariants(&self, req: Request<pb::CheckInvariantsRequest>) -> Rpc<pb::CheckInvariantsResponse> {
        bo_kit::grpc::service_only(&req)?;
        Ok(Response::new(pb::CheckInvariantsResponse { problems: self.repo.check_invariants().await? }))
    }

    async fn list_holdings_by_prefix(
        &self,
        req: Request<pb::ListHoldingsByPrefixRequest>,
    ) -> Rpc<Self::ListHoldingsByPrefixStream> {
        bo_kit::grpc::service_only(&req)?;
        let rows = self.repo.holdings_with_prefix(&req.into_inner().reference_prefix).await?;
        let pages: Vec<Result<pb::ListHoldingsByPrefixResponse, Status>> = rows
            .chunks(HOLDINGS_PAGE)
            .map(|page| {
                Ok(pb::ListHoldingsByPrefixResponse { holdings: page.iter().map(convert::store_holding).collect() })
            })
            .collect();
        Ok(Response::new(futures::stream::iter(pages)))
    }

    async fn list_warehouses(&self, req: Request<pb::ListWarehousesRequest>) -> Rpc<pb::ListWarehousesResponse> {
        let who = Actor::of(&req)?;
        let rows = self.repo.warehouses(who.store_id).await?;
        Ok(Response::new(pb::ListWarehousesResponse { warehouses: rows.iter().map(convert::warehouse).collect() }))
    }

    async fn get_stock(&self, req: Request<pb::GetStockRequest>) -> Rpc<pb::GetStockResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let levels = self.repo.levels(who.store_id, &r.sku_ids, r.warehouse_id).await?;
        Ok(Response::new(pb::GetStockResponse { levels: levels.iter().map(convert::level).collect() }))
    }

    async fn reserve(&self, req: Request<pb::ReserveRequest>) -> Rpc<pb::ReserveResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let merged = lines(&r.lines)?;
        let (levels, replayed) =
            self.repo.reserve(who, r.reference.trim(), &merged).await.map_err(|e| as_sent(e, &merged, &r.lines))?;
        self.relay.wake();
        Ok(Response::new(pb::ReserveResponse { levels: levels.iter().map(convert::level).collect(), replayed }))
    }

    async fn release(&self, req: Request<pb::ReleaseRequest>) -> Rpc<pb::ReleaseResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let released = self.repo.settle(who, r.reference.trim(), false).await?;
        self.relay.wake();
        Ok(Response::new(pb::ReleaseResponse { released }))
    }

    async fn commit(&self, req: Request<pb::CommitRequest>) -> Rpc<pb::CommitResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let committed = self.repo.settle(who, r.reference.trim(), true).await?;
        self.relay.wake();
        Ok(Response::new(pb::CommitResponse { committed }))
    }

    async fn receive(&self, req: Request<pb::ReceiveRequest>) -> Rpc<pb::ReceiveResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        // Checked as a whole (bounds, SKUs); kept line by line, as each may be its own lot.
        lines(&r.lines)?;
        let each: Vec<(Line, Option<i64>, i64)> = r.lines.iter().map(convert::received).collect();
        let (levels, replayed) = self.repo.receive(who, r.reference.trim(), &each).await?;
        self.relay.wake();
        Ok(Response::new(pb::ReceiveResponse { levels: levels.iter().map(convert::level).collect(), replayed }))
    }

    async fn adjust(&self, req: Request<pb::AdjustRequest>) -> Rpc<pb::AdjustResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        domain::check_adjustment(r.delta, &r.reason)?;
        if r.warehouse_id <= 0 || r.sku_id <= 0 {
            return Err(bo_kit::Error::invalid_field("sku_id", "validation.required").into());
        }
        let (level, replayed) =
            self.repo.adjust(who, r.reference.trim(), r.warehouse_id, r.sku_id, r.delta, &r.reason).await?;
        self.relay.wake();
        Ok(Response::new(pb::AdjustResponse { level: Some(convert::level(&level)), replayed }))
    }

    async fn list_movements(&self, req: Request<pb::ListMovementsRequest>) -> Rpc<pb::ListMovementsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let kind = r.kind.trim();
        if !kind.is_empty() && !domain::kind::ALL.contains(&kind) {
            return Err(bo_kit::Error::invalid_field("kind", "validation.invalid").into());
        }
        let filter = MovementFilter {
            kind: kind.to_string(),
            sku_id: r.sku_id,
            warehouse_id: r.warehouse_id,
            from_ms: r.from_time.as_ref().map_or(i64::MIN, timestamp_to_ms),
            to_ms: r.to_time.as_ref().map_or(i64::MAX, timestamp_to_ms),
            before_id: r.before_id.max(0),
            no_total: r.no_total,
        };
        let (movements, page) = self.repo.movements(who.store_id, &filter, convert::page(r.page)).await?;
        Ok(Response::new(pb::ListMovementsResponse {
            movements: movements.into_iter().map(convert::movement).collect(),
            page: Some(page.into()),
        }))
    }

    async fn create_warehouse(&self, req: Request<pb::CreateWarehouseRequest>) -> Rpc<pb::WarehouseResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let w = self.repo.create_warehouse(who, &r.name, &r.code).await?;
        self.relay.wake();
        Ok(Response::new(pb::WarehouseResponse { warehouse: Some(convert::warehouse(&w)) }))
    }

    async fn update_warehouse(&self, req: Request<pb::UpdateWarehouseRequest>) -> Rpc<pb::WarehouseResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let w = self.repo.update_warehouse(who, r.id, &r.name, r.active).await?;
        self.relay.wake();
        Ok(Response::new(pb::WarehouseResponse { warehouse: Some(convert::warehouse(&w)) }))
    }

    async fn list_goods_receipts(
        &self,
        req: Request<pb::ListGoodsReceiptsRequest>,
    ) -> Rpc<pb::ListGoodsReceiptsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let (receipts, page, counts) =
            self.repo.goods_receipts(who.store_id, &r.group, &r.search, &r.r#type, convert::page(r.page)).await?;
        Ok(Response::new(pb::ListGoodsReceiptsResponse {
            receipts: receipts
                .into_iter()
                .map(|row| convert::receipt(ReceiptRecord { row, lines: Vec::new() }))
                .collect(),
            page: Some(page.into()),
            counts: counts.into_iter().collect(),
        }))
    }

    async fn get_goods_receipt(&self, req: Request<pb::GoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = self.repo.goods_receipt(who.store_id, req.into_inner().id).await?;
        Ok(receipt(r, false))
    }

    async fn create_goods_receipt(&self, req: Request<pb::CreateGoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let draft = convert::receipt_draft(req.into_inner().draft.unwrap_or_default());
        Ok(receipt(self.repo.create_goods_receipt(who, &draft).await?, false))
    }

    async fn update_goods_receipt(&self, req: Request<pb::UpdateGoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let draft = convert::receipt_draft(r.draft.unwrap_or_default());
        Ok(receipt(self.repo.update_goods_receipt(who, r.id, &draft).await?, false))
    }

    async fn delete_goods_receipt(&self, req: Request<pb::GoodsReceiptRequest>) -> Rpc<pb::DeleteGoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        self.repo.delete_goods_receipt(who, req.into_inner().id).await?;
        Ok(Response::new(pb::DeleteGoodsReceiptResponse {}))
    }

    async fn send_goods_receipt(&self, req: Request<pb::GoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        Ok(receipt(self.repo.send_goods_receipt(who, req.into_inner().id).await?, false))
    }

    async fn check_goods_receipt(&self, req: Request<pb::CheckGoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let counts: Vec<_> = r.lines.iter().map(convert::line_count).collect();
        Ok(receipt(self.repo.check_goods_receipt(who, r.id, &counts).await?, false))
    }

    async fn approve_goods_receipt(&self, req: Request<pb::CheckGoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let counts: Vec<_> = r.lines.iter().map(convert::line_count).collect();
        let (r, replayed) = self.repo.approve_goods_receipt(who, r.id, &counts).await?;
        self.relay.wake();
        Ok(receipt(r, replayed))
    }

    async fn reject_goods_receipt(&self, req: Request<pb::RejectGoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        Ok(receipt(self.repo.reject_goods_receipt(who, r.id, &r.reason).await?, false))
    }

    async fn shelve_goods_receipt(&self, req: Request<pb::ShelveGoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        Ok(receipt(self.repo.shelve_goods_receipt(who, r.id, r.state().wire()).await?, false))
    }

    async fn receive_returned_goods(
        &self,
        req: Request<pb::ReceiveReturnedGoodsRequest>,
    ) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let returned = domain::receipt::Returned {
            origin: r.origin,
            order_id: r.order_id,
            warehouse_id: r.warehouse_id,
            note: r.note,
            lines: r
                .lines
                .iter()
                .map(|l| domain::receipt::ReturnedLine {
                    sku_id: l.sku_id,
                    cost: l.cost,
                    good: l.good,
                    defective: l.defective,
                })
                .collect(),
        };
        let (r, replayed) = self.repo.receive_returned_goods(who, &returned).await?;
        self.relay.wake();
        Ok(receipt(r, replayed))
    }

    async fn mark_goods_receipt_printed(&self, req: Request<pb::GoodsReceiptRequest>) -> Rpc<pb::GoodsReceiptResponse> {
        let who = Actor::of(&req)?;
        Ok(receipt(self.repo.mark_goods_receipt_printed(who, req.into_inner().id).await?, false))
    }

    async fn list_stock_lots(&self, req: Request<pb::ListStockLotsRequest>) -> Rpc<pb::ListStockLotsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let filter = convert::lot_filter(&r);
        let (lots, page) =
            crate::store::lots::list(self.repo.pool(), who.store_id, &filter, convert::page(r.page)).await?;
        Ok(Response::new(pb::ListStockLotsResponse {
            lots: lots.iter().map(convert::stock_lot).collect(),
            page: Some(page.into()),
        }))
    }

    async fn get_valuation(&self, req: Request<pb::GetValuationRequest>) -> Rpc<pb::GetValuationResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let (warehouses, skus, page) =
            crate::store::lots::valuation(self.repo.pool(), who.store_id, r.warehouse_id, convert::page(r.page))
                .await?;
        Ok(Response::new(pb::GetValuationResponse {
            warehouses: warehouses.iter().map(convert::warehouse_valuation).collect(),
            skus: skus.into_iter().map(convert::sku_valuation).collect(),
            page: Some(page.into()),
        }))
    }

    async fn list_stock_at(&self, req: Request<pb::ListStockAtRequest>) -> Rpc<pb::ListStockAtResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let at = r.at.as_ref().map_or_else(bo_kit::time::now_ms, timestamp_to_ms);
        let (rows, page, (on_hand, reserved, value)) =
            crate::store::lots::stock_at(self.repo.pool(), who.store_id, r.warehouse_id, at, convert::page(r.page))
                .await?;
        Ok(Response::new(pb::ListStockAtResponse {
            rows: rows
                .into_iter()
                .map(|s| pb::StockAt {
                    warehouse_id: s.warehouse_id,
                    sku_id: s.sku_id,
                    sku_code: s.sku_code,
                    product_name: s.product_name,
                    on_hand: s.on_hand,
                    reserved: s.reserved,
                    value: s.value,
                })
                .collect(),
            page: Some(page.into()),
            on_hand,
            reserved,
            value,
        }))
    }

    async fn create_transfer(&self, req: Request<pb::CreateTransferRequest>) -> Rpc<pb::TransferResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        if r.from_warehouse_id <= 0 || r.to_warehouse_id <= 0 {
            let field = if r.from_warehouse_id <= 0 { "from_warehouse_id" } else { "to_warehouse_id" };
            return Err(bo_kit::Error::invalid_field(field, "validation.required").into());
        }
        let raw: Vec<Line> = r.lines.iter().map(|l| convert::line_in(r.from_warehouse_id, l)).collect();
        let merged = domain::merge_lines(&raw)?;
        let (transfer, replayed) = self
            .repo
            .create_transfer(who, r.reference.trim(), r.from_warehouse_id, r.to_warehouse_id, &r.note, &merged)
            .await
            .map_err(|e| as_sent(e, &merged, &r.lines))?;
        self.relay.wake();
        Ok(Response::new(pb::TransferResponse { transfer: Some(convert::transfer(transfer)), replayed }))
    }

    async fn receive_transfer(&self, req: Request<pb::TransferRequest>) -> Rpc<pb::TransferResponse> {
        let who = Actor::of(&req)?;
        let (transfer, replayed) = self.repo.receive_transfer(who, req.into_inner().id).await?;
        self.relay.wake();
        Ok(Response::new(pb::TransferResponse { transfer: Some(convert::transfer(transfer)), replayed }))
    }

    async fn get_transfer(&self, req: Request<pb::TransferRequest>) -> Rpc<pb::TransferResponse> {
        let who = Actor::of(&req)?;
        let transfer = self.repo.transfer(who.store_id, req.into_inner().id).await?;
        Ok(Response::new(pb::TransferResponse { transfer: Some(convert::transfer(transfer)), replayed: false }))
    }

    async fn list_transfers(&self, req: Request<pb::ListTransfersRequest>) -> Rpc<pb::ListTransfersResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let (transfers, page) = self.repo.transfers(who.store_id, r.state().wire(), convert::page(r.page)).await?;
        Ok(Response::new(pb::ListTransfersResponse {
            transfers: transfers.into_iter().map(convert::transfer).collect(),
            page: Some(page.into()),
        }))
    }

    async fn list_in_transit(&self, req: Request<pb::ListInTransitRequest>) -> Rpc<pb::ListInTransitResponse> {
        let who = Actor::of(&req)?;
        let items = self.repo.in_transit(who.store_id, &req.into_inner().sku_ids).await?;
        Ok(Response::new(pb::ListInTransitResponse { items: items.iter().map(convert::in_transit).collect() }))
    }

    async fn pick_lots(&self, req: Request<pb::PickLotsRequest>) -> Rpc<pb::PickLotsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let picks = if !r.references.is_empty() {
            if r.references.len() > 2000 {
                return Err(bo_kit::Error::invalid_field("references", "validation.too_many").into());
            }
            crate::store::lots::pick_references(self.repo.pool(), who.store_id, &r.references).await?
        } else {
            let raw: Vec<Line> = r.lines.iter().map(|l| convert::line_in(r.warehouse_id.max(1), l)).collect();
            let merged = domain::merge_lines(&raw)?;
            let wanted: Vec<(i64, i64)> = merged.iter().map(|l| (l.sku_id, l.quantity)).collect();
            crate::store::lots::pick_lines(self.repo.pool(), who.store_id, r.warehouse_id, &wanted).await?
        };
        Ok(Response::new(pb::PickLotsResponse { picks: picks.into_iter().map(convert::pick).collect() }))
    }

    async fn hold(&self, req: Request<pb::HoldRequest>) -> Rpc<pb::HoldResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        if r.revision <= 0 {
            return Err(bo_kit::Error::invalid_field("revision", "validation.required").into());
        }
        let merged = if r.lines.is_empty() { Vec::new() } else { lines(&r.lines)? };
        let done = self
            .repo
            .hold(who, r.reference.trim(), r.revision, &merged)
            .await
            .map_err(|e| as_sent(e, &merged, &r.lines))?;
        if !done.replayed {
            self.relay.wake();
        }
        Ok(Response::new(pb::HoldResponse {
            held: done.held.iter().map(convert::stock_line).collect(),
            revision: done.revision,
            replayed: done.replayed,
        }))
    }

    async fn release_many(&self, req: Request<pb::ReleaseManyRequest>) -> Rpc<pb::ReleaseManyResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        if r.references.len() > 2000 {
            return Err(bo_kit::Error::invalid_field("references", "validation.too_many").into());
        }
        for reference in &r.references {
            domain::check_reference(reference)?;
        }
        let refs: Vec<String> = r.references.iter().map(|s| s.trim().to_string()).collect();
        let released = self.repo.release_many(who, &refs, r.r#final).await?;
        self.relay.wake();
        Ok(Response::new(pb::ReleaseManyResponse { released: released.into_iter().map(convert::released).collect() }))
    }

    async fn list_holdings(&self, req: Request<pb::ListHoldingsRequest>) -> Rpc<pb::ListHoldingsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        if r.references.len() > 1000 {
            return Err(bo_kit::Error::invalid_field("references", "validation.too_many").into());
        }
        let (holdings, revisions) = self.repo.holdings(who.store_id, &r.references).await?;
        Ok(Response::new(pb::ListHoldingsResponse {
            holdings: holdings.into_iter().map(convert::holding).collect(),
            revisions,
        }))
    }

    async fn save_parcel(&self, req: Request<pb::SaveParcelRequest>) -> Rpc<pb::ParcelResponse> {
        let who = Actor::of(&req)?;
        let p = convert::parcel_of(req.into_inner().parcel.unwrap_or_default());
        let saved = self.repo.save_parcel(who, &p).await?;
        Ok(Response::new(pb::ParcelResponse { parcel: Some(convert::parcel(&saved)) }))
    }

    async fn delete_parcel(&self, req: Request<pb::DeleteParcelRequest>) -> Rpc<pb::DeleteParcelResponse> {
        let who = Actor::of(&req)?;
        let parcel = self.repo.delete_parcel(who, req.into_inner().id).await?;
        Ok(Response::new(pb::DeleteParcelResponse { parcel: Some(convert::parcel(&parcel)) }))
    }

    async fn list_parcels(&self, req: Request<pb::ListParcelsRequest>) -> Rpc<pb::ListParcelsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        if r.order_ids.len() > 1000 || r.ids.len() > 1000 {
            return Err(bo_kit::Error::invalid_field("order_ids", "validation.too_many").into());
        }
        Ok(Response::new(pb::ListParcelsResponse {
            parcels: self.repo.parcels(who.store_id, &r.order_ids, &r.ids).await?.iter().map(convert::parcel).collect(),
        }))
    }

    async fn mark_parcels_printed(
        &self,
        req: Request<pb::MarkParcelsPrintedRequest>,
    ) -> Rpc<pb::MarkParcelsPrintedResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        if r.ids.len() > 1000 {
            return Err(bo_kit::Error::invalid_field("ids", "validation.too_many").into());
        }
        self.repo.mark_parcels_printed(who.store_id, &r.ids).await?;
        Ok(Response::new(pb::MarkParcelsPrintedResponse {}))
    }

    async fn get_fee_plans(&self, req: Request<pb::GetFeePlansRequest>) -> Rpc<pb::GetFeePlansResponse> {
        let who = Actor::of(&req)?;
        let plans = self.repo.fee_plans(who.store_id).await?;
        Ok(Response::new(pb::GetFeePlansResponse { plans: plans.iter().map(convert::fee_plan).collect() }))
    }

    async fn save_fee_plan(&self, req: Request<pb::SaveFeePlanRequest>) -> Rpc<pb::SaveFeePlanResponse> {
        let who = Actor::of(&req)?;
        let p = req.into_inner().plan.unwrap_or_default();
        let plan = convert::plan_of(&p);
        let row = self.repo.save_fee_plan(who, p.warehouse_id, &plan).await?;
        Ok(Response::new(pb::SaveFeePlanResponse { plan: Some(convert::fee_plan(&row)) }))
    }

    async fn list_fee_charges(&self, req: Request<pb::ListFeeChargesRequest>) -> Rpc<pb::ListFeeChargesResponse> {
        bo_kit::grpc::service_only(&req)?;
        let r = req.into_inner();
        let rows = self.repo.fee_charges(r.after_id, i64::from(r.limit.clamp(1, 1_000))).await?;
        Ok(Response::new(pb::ListFeeChargesResponse {
            charges: rows
                .iter()
                .map(|c| pb::FeeChargeEntry {
                    id: c.id,
                    store_id: c.store_id,
                    charge: Some(crate::store::fees::fee_charge(
                        c.warehouse_id,
                        &c.document,
                        c.document_id,
                        c.charged_at,
                        &c.amounts,
                    )),
                })
                .collect(),
        }))
    }

    async fn ship_order(&self, req: Request<pb::ShipOrderRequest>) -> Rpc<pb::ShipOrderResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let (parcels, committed, replayed) =
            self.repo.ship_order(who, r.order_id, r.reference.trim(), r.by_channel).await?;
        if !replayed {
            self.relay.wake();
        }
        Ok(Response::new(pb::ShipOrderResponse {
            parcels: parcels.iter().map(convert::parcel).collect(),
            committed,
            replayed,
        }))
    }
}

#[cfg(test)]
mod tests {
    use bo_proto::Wire;

    use super::*;
    use crate::domain::{parcels, receipt, state};
    use crate::store::transfers;

    fn words<E: Wire>() -> Vec<&'static str> {
        E::words().collect()
    }

    /// The states wms keeps in storage are the proto enums' words, one for one.
    #[test]
    fn the_domain_states_are_the_proto_enums() {
        assert_eq!(words::<pb::GoodsReceiptState>(), receipt::STATES.map(|s| s.as_str()));
        assert_eq!(words::<pb::TransferState>(), [transfers::IN_TRANSIT, transfers::RECEIVED]);
        assert_eq!(words::<pb::ParcelState>(), [parcels::PENDING, parcels::SHIPPED]);
        assert_eq!(words::<pb::HoldingState>(), [state::RESERVED, state::RELEASED, state::COMMITTED]);
        for (asked, counted) in [(24, 24), (24, 23), (24, 0), (24, 25)] {
            assert!(pb::LineOutcome::from_wire(receipt::line_status(asked, counted)).is_some());
        }
    }
}
