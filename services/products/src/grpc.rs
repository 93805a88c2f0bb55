//! The tonic service: reads the call, checks the rules, calls storage.

use bo_kit::grpc::{CallCtx, GrpcChannel};
use bo_kit::outbox::Relay;
use bo_kit::Code;
use bo_kit::Error;
use bo_proto::products::v1 as pb;
use bo_proto::products::v1::products_service_server::ProductsService;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use bo_proto::Wire;
use tonic::{Request, Response, Status};

use bo_kit::files::{Files, Key};

use crate::convert;
use crate::domain;
use crate::photos::{self, PhotoLimits};
use crate::store::{Actor, Repo, PHOTO, SIZE_CHART};

/// The most ids one bulk call may name.
pub const MAX_BULK: usize = 500;

/// The products service.
#[derive(Clone)]
pub struct ProductsGrpc {
    repo: Repo,
    relay: Relay,
    files: Files,
    limits: PhotoLimits,
    wms: WmsServiceClient<GrpcChannel>,
}

impl ProductsGrpc {
    /// The service on `repo`, keeping images in `files`, waking `relay` after writes, and
    /// asking the stock ledger (`wms`) before SKUs go.
    pub fn new(
        repo: Repo,
        relay: Relay,
        files: Files,
        limits: PhotoLimits,
        wms: WmsServiceClient<GrpcChannel>,
    ) -> Self {
        Self { repo, relay, files, limits, wms }
    }

    /// True when the stock ledger holds stock (on hand or reserved) of any of `sku_ids`.
    async fn holds_stock(&self, ctx: &CallCtx, sku_ids: Vec<i64>) -> Result<bool, Status> {
        Ok(!self.stocked_skus(ctx, sku_ids).await?.is_empty())
    }

    /// Which of `sku_ids` hold stock (on hand or reserved) in any warehouse, as wms says.
    async fn stocked_skus(&self, ctx: &CallCtx, sku_ids: Vec<i64>) -> Result<Vec<i64>, Status> {
        if sku_ids.is_empty() {
            return Ok(Vec::new());
        }
        let levels = self
            .wms
            .clone()
            .get_stock(ctx.request(bo_proto::wms::v1::GetStockRequest { sku_ids, warehouse_id: 0 }))
            .await?
            .into_inner()
            .levels;
        Ok(levels.iter().filter(|l| l.on_hand > 0 || l.reserved > 0).map(|l| l.sku_id).collect())
    }

    /// Removes the files of pictures that are gone (the original and its sizes).
    async fn forget_files(&self, names: &[String]) {
        for n in names {
            for k in photos::all_keys(n) {
                self.files.forget(&k).await;
            }
        }
    }

    /// Reads, cleans and keeps the pictures staged under `uploads`, one at a time (so at most
    /// one picture is in memory), then records them. On any refusal nothing is kept.
    async fn add_uploaded_photos(
        &self,
        who: Actor,
        product_id: i64,
        kind: &str,
        uploads: &[Key],
    ) -> Result<Vec<String>, Status> {
        let mut stored: Vec<(String, i64, i64, i64)> = Vec::with_capacity(uploads.len());
        let made: Result<(), Status> = async {
            for key in uploads {
                let bytes = self.files.read_upload(key, photos::MAX_BYTES as u64, "files", "photo_too_large").await?;
                let c = bo_kit::cpu::run(move || photos::clean(&bytes))
                    .await
                    .map_err(Error::internal)?
                    .map_err(photo_error)?;
                let name = photos::generated_name(who.store_id, c.format);
                let size = c.bytes.len() as i64;
                self.files
                    .put(&photos::key(&name).map_err(Error::internal)?, c.bytes)
                    .await
                    .map_err(Error::internal)?;
                stored.push((name, i64::from(c.width), i64::from(c.height), size));
            }
            Ok(())
        }
        .await;
        let recorded = match made {
            Ok(()) => self
                .repo
                .add_photos(who, product_id, kind, &stored, self.limits.max_per_product)
                .await
                .map_err(Status::from),
            Err(e) => Err(e),
        };
        match recorded {
            Ok(replaced) => Ok(replaced),
            Err(e) => {
                let names: Vec<String> = stored.into_iter().map(|s| s.0).collect();
                self.forget_files(&names).await;
                Err(e)
            }
        }
    }
}

fn photo_error(e: photos::PhotoError) -> Status {
    Error::invalid_field("files", e.code()).into()
}

type Rpc<T> = Result<Response<T>, Status>;

/// What became of one product of a bulk action: done, or why not (`refused`, else not found).
fn result_of(id: i64, done: bool, refused: Option<Code>) -> pb::ProductResult {
    let reason = if done { String::new() } else { refused.unwrap_or(Code::ProductNotFound).to_string() };
    pb::ProductResult { id, ok: done, reason }
}

fn bulk(ids: &[i64]) -> Result<(), Status> {
    if ids.is_empty() || ids.len() > MAX_BULK {
        return Err(Error::invalid_field("ids", "validation.bulk").into());
    }
    Ok(())
}

#[tonic::async_trait]
impl ProductsService for ProductsGrpc {
    async fn get_rules(&self, _req: Request<pb::GetRulesRequest>) -> Rpc<pb::GetRulesResponse> {
        Ok(Response::new(pb::GetRulesResponse {
            photos_per_upload: photos::MAX_PER_UPLOAD as i64,
            photo_max_bytes: photos::MAX_BYTES as i64,
            photos_min_per_product: self.limits.min_per_product as i64,
            photos_max_per_product: self.limits.max_per_product as i64,
        }))
    }

    async fn list_categories(&self, req: Request<pb::ListCategoriesRequest>) -> Rpc<pb::ListCategoriesResponse> {
        Actor::of(&req)?;
        let categories = self.repo.categories().await?.into_iter().map(convert::category).collect();
        Ok(Response::new(pb::ListCategoriesResponse { categories }))
    }

    async fn list_products(&self, req: Request<pb::ListProductsRequest>) -> Rpc<pb::ListProductsResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let status = pb::ProductStatus::word_of(r.status);
        let (products, p) = self.repo.list(who.store_id, &r.search, r.category_id, status, r.page.into()).await?;
        let products = products.into_iter().map(convert::product).collect();
        Ok(Response::new(pb::ListProductsResponse { products, page: Some(p.into()) }))
    }

    async fn count_products(&self, req: Request<pb::CountProductsRequest>) -> Rpc<pb::CountProductsResponse> {
        let who = Actor::of(&req)?;
        let count = self.repo.count(who.store_id, pb::ProductStatus::word_of(req.into_inner().status)).await?;
        Ok(Response::new(pb::CountProductsResponse { count }))
    }

    async fn get_product(&self, req: Request<pb::GetProductRequest>) -> Rpc<pb::GetProductResponse> {
        let who = Actor::of(&req)?;
        let product = self.repo.get(who.store_id, req.into_inner().id).await?;
        Ok(Response::new(pb::GetProductResponse { product: Some(convert::product(product)) }))
    }

    async fn create_product(&self, req: Request<pb::CreateProductRequest>) -> Rpc<pb::CreateProductResponse> {
        let who = Actor::of(&req)?;
        let p = domain::validate(convert::draft(req.into_inner().product.unwrap_or_default()))?;
        self.check_category(p.category_id).await?;
        let saved = self.repo.create(who, &p).await?;
        self.relay.wake();
        Ok(Response::new(pb::CreateProductResponse { product: Some(convert::product(saved)) }))
    }

    async fn update_product(&self, req: Request<pb::UpdateProductRequest>) -> Rpc<pb::UpdateProductResponse> {
        let who = Actor::of(&req)?;
        let ctx = CallCtx::of(&req);
        let p = domain::validate(convert::draft(req.into_inner().product.unwrap_or_default()))?;
        self.check_category(p.category_id).await?;
        let current = self.repo.get(who.store_id, p.id).await?;
        let removed: Vec<i64> =
            current.skus.iter().map(|s| s.row.id).filter(|id| !p.skus.iter().any(|n| n.id == *id)).collect();
        if self.holds_stock(&ctx, removed).await? {
            return Err(Error::failed_precondition(Code::SkuHasStock).into());
        }
        let saved = self.repo.update(who, &p).await?;
        self.relay.wake();
        Ok(Response::new(pb::UpdateProductResponse { product: Some(convert::product(saved)) }))
    }

    async fn set_product_status(&self, req: Request<pb::SetProductStatusRequest>) -> Rpc<pb::SetProductStatusResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        bulk(&r.ids)?;
        // Setting a status names one: unspecified is refused here.
        let status = match convert::status(r.status) {
            s @ (domain::Status::Active | domain::Status::Inactive) if r.status != 0 => s,
            _ => return Err(Error::invalid_field("status", "validation.status").into()),
        };
        let changed = self.repo.set_status(who, &r.ids, status).await?;
        self.relay.wake();
        let results = r.ids.iter().map(|id| result_of(*id, changed.contains(id), None)).collect();
        Ok(Response::new(pb::SetProductStatusResponse { changed: changed.len() as i64, results }))
    }

    async fn delete_products(&self, req: Request<pb::DeleteProductsRequest>) -> Rpc<pb::DeleteProductsResponse> {
        let who = Actor::of(&req)?;
        let ctx = CallCtx::of(&req);
        let r = req.into_inner();
        bulk(&r.ids)?;
        // The stock ledger answers, not this service's eventually consistent view: a product
        // any of whose SKUs holds stock stays, the others go.
        let by_product = self.repo.sku_ids_by_product(who.store_id, &r.ids).await?;
        let stocked = self.stocked_skus(&ctx, by_product.iter().flat_map(|(_, s)| s.clone()).collect()).await?;
        let free: Vec<i64> = by_product
            .iter()
            .filter(|(_, skus)| !skus.iter().any(|s| stocked.contains(s)))
            .map(|(id, _)| *id)
            .collect();
        let (deleted, files) = self.repo.delete(who, &free).await?;
        self.forget_files(&files).await;
        self.relay.wake();
        let results = r
            .ids
            .iter()
            .map(|id| {
                let has_stock = !free.contains(id) && by_product.iter().any(|(p, s)| p == id && !s.is_empty());
                result_of(*id, deleted.contains(id), has_stock.then_some(Code::ProductHasStock))
            })
            .collect();
        Ok(Response::new(pb::DeleteProductsResponse { deleted: deleted.len() as i64, results }))
    }

    async fn get_skus(&self, req: Request<pb::GetSkusRequest>) -> Rpc<pb::GetSkusResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        bulk(&r.ids)?;
        let skus =
            self.repo.skus(who.store_id, &r.ids).await?.into_iter().map(|s| convert::sku(s, Vec::new())).collect();
        Ok(Response::new(pb::GetSkusResponse { skus }))
    }

    async fn update_all_safety_stock(
        &self,
        req: Request<pb::UpdateAllSafetyStockRequest>,
    ) -> Rpc<pb::UpdateAllSafetyStockResponse> {
        let who = Actor::of(&req)?;
        let amount = req.into_inner().amount;
        if !(0..=1_000_000_000).contains(&amount) {
            return Err(Error::invalid_field("amount", "validation.quantity").into());
        }
        let updated = self.repo.update_all_safety_stock(who.store_id, amount).await?;
        Ok(Response::new(pb::UpdateAllSafetyStockResponse { updated }))
    }

    async fn get_summaries(&self, req: Request<pb::GetSummariesRequest>) -> Rpc<pb::GetSummariesResponse> {
        let who = Actor::of(&req)?;
        Ok(Response::new(convert::summaries(self.repo.summaries(who.store_id).await?)))
    }

    async fn add_photos(&self, req: Request<pb::AddPhotosRequest>) -> Rpc<pb::AddPhotosResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let uploads = Key::uploads_of(who.store_id, &r.uploads, "files")?;
        // The call consumes its uploads, whatever it answers.
        let added = async {
            let kind = if r.kind.is_empty() { PHOTO } else { r.kind.as_str() };
            if kind != PHOTO && kind != SIZE_CHART {
                return Err(Error::invalid_field("kind", "validation.photo_kind").into());
            }
            if uploads.is_empty() || (kind == SIZE_CHART && uploads.len() != 1) {
                return Err(Error::invalid_field("files", "validation.required").into());
            }
            if kind == PHOTO {
                photos::check_count(0, uploads.len(), self.limits).map_err(photo_error)?;
            }
            self.add_uploaded_photos(who, r.product_id, kind, &uploads).await
        }
        .await;
        for k in &uploads {
            self.files.forget(k).await;
        }
        let replaced = added?;
        self.forget_files(&replaced).await;
        self.relay.wake();
        let p = convert::product(self.repo.get(who.store_id, r.product_id).await?);
        Ok(Response::new(pb::AddPhotosResponse { photos: p.photos, size_chart: p.size_chart }))
    }

    async fn reorder_photos(&self, req: Request<pb::ReorderPhotosRequest>) -> Rpc<pb::ReorderPhotosResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let p = convert::product(self.repo.reorder_photos(who, r.product_id, &r.ids).await?);
        self.relay.wake();
        Ok(Response::new(pb::ReorderPhotosResponse { photos: p.photos }))
    }

    async fn delete_photo(&self, req: Request<pb::DeletePhotoRequest>) -> Rpc<pb::DeletePhotoResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let name = self.repo.delete_photo(who, r.product_id, r.id, self.limits.min_per_product).await?;
        self.forget_files(&[name]).await;
        self.relay.wake();
        Ok(Response::new(pb::DeletePhotoResponse {}))
    }

    async fn get_photo_rules(&self, _req: Request<pb::GetPhotoRulesRequest>) -> Rpc<pb::GetPhotoRulesResponse> {
        Ok(Response::new(pb::GetPhotoRulesResponse {
            min_per_product: self.limits.min_per_product as i64,
            max_per_product: self.limits.max_per_product as i64,
            max_bytes: photos::MAX_BYTES as i64,
            max_per_upload: photos::MAX_PER_UPLOAD as i64,
        }))
    }

    async fn get_photo_file(&self, req: Request<pb::GetPhotoFileRequest>) -> Rpc<pb::GetPhotoFileResponse> {
        let r = req.into_inner();
        if !photos::valid_name(&r.name) || !self.repo.photo_exists(&r.name).await? {
            return Err(Error::not_found(Code::PhotoNotFound).into());
        }
        let original = photos::key(&r.name).map_err(Error::internal)?;
        if r.size == 0 {
            let content_type = if r.name.ends_with(".png") { "image/png" } else { "image/jpeg" };
            return Ok(Response::new(pb::GetPhotoFileResponse {
                key: original.to_string(),
                content_type: content_type.into(),
            }));
        }
        // One of the few served sizes, made on first request and kept.
        let size = photos::served_size(Some(r.size));
        let sized = photos::sized_key(&r.name, size).map_err(Error::internal)?;
        if !self.files.exists(&sized).await.map_err(Error::internal)? {
            let data = self
                .files
                .read(&original, photos::MAX_BYTES as u64 * 4)
                .await
                .map_err(|e| Error::internal(anyhow::Error::from(e)))?
                .ok_or_else(|| Error::not_found(Code::PhotoNotFound))?;
            let resized = bo_kit::cpu::run(move || photos::resize_square_png(&data, Some(size)))
                .await
                .map_err(Error::internal)?
                .map_err(photo_error)?;
            self.files.put(&sized, resized).await.map_err(Error::internal)?;
        }
        Ok(Response::new(pb::GetPhotoFileResponse { key: sized.to_string(), content_type: "image/png".into() }))
    }

    async fn describe_skus(&self, req: Request<pb::DescribeSkusRequest>) -> Rpc<pb::DescribeSkusResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        if r.codes.len() > MAX_BULK {
            return Err(Error::invalid_field("codes", "validation.bulk").into());
        }
        if r.codes.is_empty() || !r.ids.is_empty() {
            bulk(&r.ids)?;
        }
        // A marketplace order's lines may be some linked by id and some matched by code.
        let mut skus = if r.codes.is_empty() {
            Vec::new()
        } else {
            self.repo.describe_skus_by_code(who.store_id, &r.codes).await?
        };
        let ids: Vec<i64> = r.ids.iter().copied().filter(|id| !skus.iter().any(|d| d.sku.id == *id)).collect();
        if !ids.is_empty() {
            skus.extend(self.repo.describe_skus(who.store_id, &ids).await?);
        }
        Ok(Response::new(pb::DescribeSkusResponse { skus: skus.into_iter().map(convert::described).collect() }))
    }

    async fn import_products(&self, req: Request<pb::ImportProductsRequest>) -> Rpc<pb::ImportProductsResponse> {
        let who = Actor::of(&req)?;
        Ok(Response::new(self.import(who, req.into_inner()).await?))
    }

    async fn list_sku_inventories(
        &self,
        req: Request<pb::ListSkuInventoriesRequest>,
    ) -> Rpc<pb::ListSkuInventoriesResponse> {
        let who = Actor::of(&req)?;
        let r = req.into_inner();
        let (rows, p) = self
            .repo
            .sku_inventories(who.store_id, &r.search, r.warehouse_id, r.below_safety_stock, r.page.into())
            .await?;
        let rows = rows.into_iter().map(convert::sku_stock).collect();
        Ok(Response::new(pb::ListSkuInventoriesResponse { rows, page: Some(p.into()) }))
    }
}

impl ProductsGrpc {
    /// Reads a spreadsheet and, unless it is a dry run, creates the products it holds.
    /// Rows are grouped into products by product code; a product whose code the store
    /// already has is skipped, so importing a file twice creates nothing new.
    pub async fn import(&self, who: Actor, r: pb::ImportProductsRequest) -> Result<pb::ImportProductsResponse, Status> {
        let upload = Key::uploads_of(who.store_id, std::slice::from_ref(&r.upload), "file")?.remove(0);
        let file =
            self.files.read_upload(&upload, crate::import::MAX_FILE_BYTES as u64, "file", "import_too_large").await;
        self.files.forget(&upload).await;
        let file = file?;
        let sheet = Some(r.sheet.trim()).filter(|s| !s.is_empty()).map(str::to_string);
        let parsed = bo_kit::cpu::run(move || crate::import::parse(&file, sheet.as_deref()))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", e.code()))?;
        let mut errors: Vec<pb::ImportRowError> = parsed
            .errors
            .iter()
            .map(|e| pb::ImportRowError { row: e.row as i64, field: e.field.clone(), code: e.code.clone() })
            .collect();
        let rows: Vec<pb::ImportedRow> = parsed
            .rows
            .iter()
            .map(|row| pb::ImportedRow {
                row: row.row as i64,
                code: row.product_id.clone(),
                name: row.product_name.clone(),
                sku_code: crate::import_plan::sku_code(row),
                variant: row.variation_value.clone(),
                price: row.price_satang,
                sku_id: row.sku_id.clone(),
                seller_sku: row.seller_sku.clone(),
                description: row.product_description.clone(),
            })
            .collect();
        if r.parse_only {
            let products = crate::import_plan::product_count(&parsed.rows);
            return Ok(pb::ImportProductsResponse { rows, errors, created: 0, skipped: 0, products });
        }
        // A dry run may come before a category is chosen: check the rest against any.
        let category = if r.dry_run && r.category_id <= 0 { 1 } else { r.category_id };
        let plan = crate::import_plan::plan(&parsed.rows, category);
        let mut created = 0;
        let mut skipped = 0;
        if !r.dry_run {
            self.check_category(r.category_id).await?;
        }
        for (product, row_numbers) in plan {
            let product = match domain::validate(product) {
                Ok(p) => p,
                Err(e) => {
                    for f in &e.fields {
                        errors.push(pb::ImportRowError {
                            row: row_numbers[0] as i64,
                            field: f.field.clone(),
                            code: f.code.clone(),
                        });
                    }
                    continue;
                }
            };
            if r.dry_run {
                continue;
            }
            match self.repo.create(who, &product).await {
                Ok(_) => created += 1,
                Err(e) if e.code == Code::CodeTaken => skipped += 1,
                Err(e) => return Err(e.into()),
            }
        }
        if created > 0 {
            self.relay.wake();
        }
        let products = crate::import_plan::product_count(&parsed.rows);
        Ok(pb::ImportProductsResponse { rows, errors, created, skipped, products })
    }

    async fn check_category(&self, id: i64) -> Result<(), Status> {
        if self.repo.categories().await?.iter().any(|c| c.id == id) {
            Ok(())
        } else {
            Err(Error::invalid_field("category_id", "validation.category").into())
        }
    }
}
