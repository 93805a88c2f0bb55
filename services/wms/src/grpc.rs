//! The tonic service: reads the call, checks the rules, calls the ledger, maps back.

use bo_kit::grpc::CallCtx;
use bo_kit::outbox::Relay;
use bo_proto::wms::v1 as pb;
use bo_proto::wms::v1::wms_service_server::WmsService;
use tonic::{Request, Response, Status};

use crate::domain::{self, Line};
use crate::store::{Actor, Repo};

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

fn actor<T>(req: &Request<T>) -> Result<Actor, Status> {
    let ctx = CallCtx::store_scoped(req)?;
    Ok(Actor { store_id: ctx.store_id, user_id: ctx.user_id })
}

fn lines(lines: &[pb::StockLine]) -> bo_kit::Result<Vec<Line>> {
    let raw: Vec<Line> =
        lines.iter().map(|l| Line { warehouse_id: l.warehouse_id, sku_id: l.sku_id, quantity: l.quantity }).collect();
    domain::merge_lines(&raw)
}

#[tonic::async_trait]
impl WmsService for WmsGrpc {
    async fn list_warehouses(&self, req: Request<pb::ListWarehousesRequest>) -> Rpc<pb::ListWarehousesResponse> {
        let who = actor(&req)?;
        let rows = self.repo.warehouses(who.store_id).await?;
        Ok(Response::new(pb::ListWarehousesResponse { warehouses: rows.iter().map(|w| w.to_proto()).collect() }))
    }

    async fn get_stock(&self, req: Request<pb::GetStockRequest>) -> Rpc<pb::GetStockResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        let levels = self.repo.levels(who.store_id, &r.sku_ids, r.warehouse_id).await?;
        Ok(Response::new(pb::GetStockResponse { levels }))
    }

    async fn reserve(&self, req: Request<pb::ReserveRequest>) -> Rpc<pb::ReserveResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let (levels, replayed) = self.repo.reserve(who, r.reference.trim(), &lines(&r.lines)?).await?;
        self.relay.wake();
        Ok(Response::new(pb::ReserveResponse { levels, replayed }))
    }

    async fn release(&self, req: Request<pb::ReleaseRequest>) -> Rpc<pb::ReleaseResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let released = self.repo.settle(who, r.reference.trim(), false).await?;
        self.relay.wake();
        Ok(Response::new(pb::ReleaseResponse { released }))
    }

    async fn commit(&self, req: Request<pb::CommitRequest>) -> Rpc<pb::CommitResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let committed = self.repo.settle(who, r.reference.trim(), true).await?;
        self.relay.wake();
        Ok(Response::new(pb::CommitResponse { committed }))
    }

    async fn receive(&self, req: Request<pb::ReceiveRequest>) -> Rpc<pb::ReceiveResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        let (levels, replayed) = self.repo.receive(who, r.reference.trim(), &lines(&r.lines)?).await?;
        self.relay.wake();
        Ok(Response::new(pb::ReceiveResponse { levels, replayed }))
    }

    async fn adjust(&self, req: Request<pb::AdjustRequest>) -> Rpc<pb::AdjustResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        domain::check_reference(&r.reference)?;
        domain::check_adjustment(r.delta, &r.reason)?;
        if r.warehouse_id <= 0 || r.sku_id <= 0 {
            return Err(bo_kit::Error::invalid_field("sku_id", "validation.required").into());
        }
        let (level, replayed) =
            self.repo.adjust(who, r.reference.trim(), r.warehouse_id, r.sku_id, r.delta, &r.reason).await?;
        self.relay.wake();
        Ok(Response::new(pb::AdjustResponse { level: Some(level), replayed }))
    }

    async fn list_movements(&self, req: Request<pb::ListMovementsRequest>) -> Rpc<pb::ListMovementsResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        let page = r.page.map(|p| bo_kit::paging::PageRequest::new(p.page, p.limit)).unwrap_or_default();
        let (movements, page) = self.repo.movements(who.store_id, &r.kind, r.sku_id, page).await?;
        Ok(Response::new(pb::ListMovementsResponse { movements, page: Some(page.into()) }))
    }
}
