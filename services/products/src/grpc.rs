//! The tonic service: reads the call, checks the rules, calls storage.

use bo_kit::grpc::CallCtx;
use bo_kit::outbox::Relay;
use bo_kit::paging::PageRequest;
use bo_kit::Error;
use bo_proto::products::v1 as pb;
use bo_proto::products::v1::products_service_server::ProductsService;
use tonic::{Request, Response, Status};

use crate::domain;
use crate::store::{Actor, Repo};

/// The most ids one bulk call may name.
pub const MAX_BULK: usize = 500;

/// The products service.
#[derive(Clone)]
pub struct ProductsGrpc {
    repo: Repo,
    relay: Relay,
}

impl ProductsGrpc {
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

fn page(p: Option<pb::PageRequest>) -> PageRequest {
    p.map(|p| PageRequest::new(p.page, p.limit)).unwrap_or_default()
}

fn info(p: bo_kit::paging::Page) -> pb::PageInfo {
    pb::PageInfo { total: p.total, limit: p.limit, page: p.page, pages: p.pages }
}

fn bulk(ids: &[i64]) -> Result<(), Status> {
    if ids.is_empty() || ids.len() > MAX_BULK {
        return Err(Error::invalid_field("ids", "validation.bulk").into());
    }
    Ok(())
}

#[tonic::async_trait]
impl ProductsService for ProductsGrpc {
    async fn list_categories(&self, req: Request<pb::ListCategoriesRequest>) -> Rpc<pb::ListCategoriesResponse> {
        actor(&req)?;
        Ok(Response::new(pb::ListCategoriesResponse { categories: self.repo.categories().await? }))
    }

    async fn list_products(&self, req: Request<pb::ListProductsRequest>) -> Rpc<pb::ListProductsResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        let (products, p) = self.repo.list(who.store_id, &r.search, r.category_id, &r.status, page(r.page)).await?;
        Ok(Response::new(pb::ListProductsResponse { products, page: Some(info(p)) }))
    }

    async fn count_products(&self, req: Request<pb::CountProductsRequest>) -> Rpc<pb::CountProductsResponse> {
        let who = actor(&req)?;
        let count = self.repo.count(who.store_id, &req.into_inner().status).await?;
        Ok(Response::new(pb::CountProductsResponse { count }))
    }

    async fn get_product(&self, req: Request<pb::GetProductRequest>) -> Rpc<pb::GetProductResponse> {
        let who = actor(&req)?;
        let product = self.repo.get(who.store_id, req.into_inner().id).await?;
        Ok(Response::new(pb::GetProductResponse { product: Some(product) }))
    }

    async fn create_product(&self, req: Request<pb::CreateProductRequest>) -> Rpc<pb::CreateProductResponse> {
        let who = actor(&req)?;
        let p = domain::validate(req.into_inner().product.unwrap_or_default())?;
        self.check_category(p.category_id).await?;
        let saved = self.repo.create(who, &p).await?;
        self.relay.wake();
        Ok(Response::new(pb::CreateProductResponse { product: Some(saved) }))
    }

    async fn update_product(&self, req: Request<pb::UpdateProductRequest>) -> Rpc<pb::UpdateProductResponse> {
        let who = actor(&req)?;
        let p = domain::validate(req.into_inner().product.unwrap_or_default())?;
        self.check_category(p.category_id).await?;
        let saved = self.repo.update(who, &p).await?;
        self.relay.wake();
        Ok(Response::new(pb::UpdateProductResponse { product: Some(saved) }))
    }

    async fn set_product_status(&self, req: Request<pb::SetProductStatusRequest>) -> Rpc<pb::SetProductStatusResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        bulk(&r.ids)?;
        if !domain::status::valid(&r.status) {
            return Err(Error::invalid_field("status", "validation.status").into());
        }
        let changed = self.repo.set_status(who, &r.ids, &r.status).await?;
        self.relay.wake();
        Ok(Response::new(pb::SetProductStatusResponse { changed }))
    }

    async fn delete_products(&self, req: Request<pb::DeleteProductsRequest>) -> Rpc<pb::DeleteProductsResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        bulk(&r.ids)?;
        let deleted = self.repo.delete(who, &r.ids).await?;
        self.relay.wake();
        Ok(Response::new(pb::DeleteProductsResponse { deleted }))
    }

    async fn get_skus(&self, req: Request<pb::GetSkusRequest>) -> Rpc<pb::GetSkusResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        bulk(&r.ids)?;
        Ok(Response::new(pb::GetSkusResponse { skus: self.repo.skus(who.store_id, &r.ids).await? }))
    }

    async fn list_sku_inventories(
        &self,
        req: Request<pb::ListSkuInventoriesRequest>,
    ) -> Rpc<pb::ListSkuInventoriesResponse> {
        let who = actor(&req)?;
        let r = req.into_inner();
        let (rows, p) = self
            .repo
            .sku_inventories(who.store_id, &r.search, r.warehouse_id, r.below_safety_stock, page(r.page))
            .await?;
        Ok(Response::new(pb::ListSkuInventoriesResponse { rows, page: Some(info(p)) }))
    }
}

impl ProductsGrpc {
    async fn check_category(&self, id: i64) -> Result<(), Status> {
        if self.repo.categories().await?.iter().any(|c| c.id == id) {
            Ok(())
        } else {
            Err(Error::invalid_field("category_id", "validation.category").into())
        }
    }
}
