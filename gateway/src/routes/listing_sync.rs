//! Bringing a shop's listings in and our stock out to them (SPEC §7 Products): importing
//! the listings through the marketplace's API (`POST /products/marketplace/{mp}/import`, in
//! the background, followed by its progress and each listing's outcome), the shop's stock
//! rule and a listing's own, and pushing stock now (`POST /products/marketplace/{mp}/update-stock`:
//! a selection, or every linked listing of the shop) with the push all's progress (SPEC §4
//! "Stock sync"). Imports need `product.sku.create`, pushes `product.sku.edit`; a shop's
//! stock rules are the owner's (sale-channel management).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{enum_field, page_request, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import_listings))
        .routes(routes!(import_listing_file).layer(axum::extract::DefaultBodyLimit::max(FILE_MAX_BYTES + 64 * 1024)))
        .routes(routes!(list_listing_imports))
        .routes(routes!(get_listing_import))
        .routes(routes!(imported_listings))
        .routes(routes!(get_shop_stock_rule, set_shop_stock_rule))
        .routes(routes!(get_listing_stock_rule, set_listing_stock_rule, delete_listing_stock_rule))
        .routes(routes!(update_stock))
        .routes(routes!(stock_sync))
}

pub(crate) const READ: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_READ] };
const EDIT: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_EDIT] };
const CREATE: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_CREATE] };
const OWNER: Access = Access { roles: &["owner"], perms: &[] };

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

/// The shop of the store a call names, checked to be of the marketplace of the path.
async fn shop_of(state: &AppState, auth: &StoreAuth, mp: &str, id: i64) -> ApiResult<pb::StoreChannel> {
    let shop = client(state)?
        .get_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { id }))
        .await?
        .into_inner()
        .channel
        .unwrap_or_default();
    if word::<pb::Marketplace>(shop.marketplace).replace('_', "-") != mp.trim().replace('_', "-") {
        return Err(ApiError::new(StatusCode::NOT_FOUND, bo_kit::Code::MarketplaceChannelNotFound));
    }
    Ok(shop)
}

/// A listing import and its counts.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListingImportBody {
    pub id: i64,
    pub store_channel_id: i64,
    /// api or file.
    pub source: String,
    /// running, done or failed.
    pub state: String,
    pub create_products: bool,
    pub category_id: Option<i64>,
    pub file_name: String,
    /// Pages read, and listings the marketplace says the shop has.
    pub pages: i64,
    pub total: i64,
    /// Variations seen, made into products, linked, left waiting and failed.
    pub seen: i64,
    pub created: i64,
    pub linked: i64,
    pub unlinked: i64,
    pub failed: i64,
    /// Why it stopped, when it failed.
    pub error: String,
    pub started_at: String,
    pub finished_at: String,
}

impl From<pb::ListingImport> for ListingImportBody {
    fn from(i: pb::ListingImport) -> Self {
        ListingImportBody {
            id: i.id,
            store_channel_id: i.store_channel_id,
            source: word::<pb::ImportSource>(i.source),
            state: word::<pb::ImportState>(i.state),
            create_products: i.create_products,
            category_id: (i.category_id > 0).then_some(i.category_id),
            file_name: i.file_name,
            pages: i.pages,
            total: i.total,
            seen: i.seen,
            created: i.created,
            linked: i.linked,
            unlinked: i.unlinked,
            failed: i.failed,
            error: i.error,
            started_at: timestamp_to_rfc3339(i.start_time.as_ref()),
            finished_at: timestamp_to_rfc3339(i.finish_time.as_ref()),
        }
    }
}

/// What to import.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ImportListingsInput {
    /// The shop.
    pub store_channel_id: i64,
    /// Make products and SKUs for listings no SKU's code matches.
    pub create_products: bool,
    /// The category they are filed under (required when making products).
    pub category_id: Option<i64>,
}

/// Imports a shop's listings through the marketplace's API, in the background: every
/// variation is kept, linked to the SKU its seller SKU names, made into a product when asked,
/// or left waiting for a person; listings the marketplace deleted lose their links. An
/// import of the shop already running is answered instead of a second.
#[utoipa::path(post, path = "/products/marketplace/{mp}/import", tag = "marketplaces", params(("mp" = String, Path)),
    request_body = ImportListingsInput,
    responses((status = 202, body = ListingImportBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "marketplace_token_expired, marketplace_not_configured"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn import_listings(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    Body(b): Body<ImportListingsInput>,
) -> ApiResult<(StatusCode, Json<ListingImportBody>)> {
    auth.require(CREATE)?;
    let shop = shop_of(&state, &auth, &mp, b.store_channel_id).await?;
    let r = client(&state)?
        .import_listings(auth.ctx().request(pb::ImportListingsRequest {
            store_channel_id: shop.id,
            create_products: b.create_products,
            category_id: b.category_id.unwrap_or(0),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::ACCEPTED, Json(r.import.unwrap_or_default().into())))
}

/// The largest listing spreadsheet (SPEC §5: 1 to 100 items; such files stay small).
const FILE_MAX_BYTES: usize = 5 * 1024 * 1024;

/// The multipart form of a listing spreadsheet.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ListingFileForm {
    /// The platform's .xlsx export in the import template (at most 5 MB, 1 to 100 items).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// The shop.
    pub store_channel_id: i64,
    /// Make products for listings no SKU matches.
    pub create_products: Option<bool>,
    /// Their category (required when making products).
    pub category_id: Option<i64>,
    /// Only read the file and show its rows.
    pub dry_run: Option<bool>,
}

/// A row of the spreadsheet as read.
#[derive(Debug, Serialize, ToSchema)]
pub struct FileListingBody {
    pub row: i64,
    /// The listing (product_id) and its variation (sku_id).
    pub item_id: String,
    pub model_id: String,
    pub name: String,
    pub variation: String,
    pub seller_sku: String,
    /// Baht.
    pub price: String,
}

/// A problem with one row.
#[derive(Debug, Serialize, ToSchema)]
pub struct FileRowErrorBody {
    pub row: i64,
    pub field: String,
    pub code: String,
}

/// What a listing spreadsheet gave: its rows and their problems, and the import once it ran.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListingFileBody {
    pub import: Option<ListingImportBody>,
    pub rows: Vec<FileListingBody>,
    pub errors: Vec<FileRowErrorBody>,
}

/// Imports a shop's listings from the platform's spreadsheet (SPEC §2 `/product-import/...`,
/// §5: .xlsx only, 1 to 100 items, columns sku_id, product_name, product_id,
/// variation_value, product_description, price, seller_sku; a wrong template answers 422
/// `import_wrong_template`, 'Wrong file, please upload valid file'). A dry run reads it; a
/// run keeps and links its listings like an API import, once per file: the same rows again
/// are the import they were.
#[utoipa::path(post, path = "/products/marketplace/{mp}/import-file", tag = "marketplaces", params(("mp" = String, Path)),
    request_body(content = ListingFileForm, content_type = "multipart/form-data"),
    responses((status = 200, body = ListingFileBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn import_listing_file(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    key: Option<axum::Extension<crate::idempotency::Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(CREATE)?;
    let f = crate::uploads::FileForm::read(
        state.files.clone(),
        auth.store_id,
        &mut form,
        FILE_MAX_BYTES as u64,
        "import_too_large",
        &[".xlsx"],
        &["store_channel_id", "create_products", "category_id", "file_name"],
    )
    .await?;
    let shop = shop_of(&state, &auth, &mp, f.number("store_channel_id")).await?;
    let (create, category_id, dry_run) =
        (matches!(f.text("create_products").as_str(), "true" | "1"), f.number("category_id"), f.dry_run);
    let file_name = f.text("file_name");
    let mut staged = f.staged;
    let fingerprint = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = client(&state)?
            .import_listing_file(auth.ctx().request(pb::ImportListingFileRequest {
                store_channel_id: shop.id,
                upload,
                file_name,
                create_products: create,
                category_id,
                dry_run,
            }))
            .await?
            .into_inner();
        Ok(Json(ListingFileBody {
            import: r.import.map(ListingImportBody::from),
            rows: r
                .rows
                .into_iter()
                .map(|x| FileListingBody {
                    row: x.row,
                    item_id: x.item_id,
                    model_id: x.model_id,
                    name: x.name,
                    variation: x.variation,
                    seller_sku: x.seller_sku,
                    price: crate::wire::baht(x.price),
                })
                .collect(),
            errors: r
                .errors
                .into_iter()
                .map(|e| FileRowErrorBody { row: e.row, field: e.field, code: e.code })
                .collect(),
        }))
    };
    Ok(crate::idempotency::deferred(&state, &auth, key.map(|k| k.0), &fingerprint, act).await)
}

/// A shop whose imports to list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct ImportsQuery {
    pub store_channel_id: i64,
}

/// A shop's listing imports, newest first (the last twenty).
#[utoipa::path(get, path = "/products/marketplace/{mp}/imports", tag = "marketplaces", params(("mp" = String, Path), ImportsQuery),
    responses((status = 200, body = List<ListingImportBody>), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn list_listing_imports(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    Query(q): Query<ImportsQuery>,
) -> ApiResult<Json<List<ListingImportBody>>> {
    auth.require(READ)?;
    let shop = shop_of(&state, &auth, &mp, q.store_channel_id).await?;
    let r = client(&state)?
        .list_listing_imports(auth.ctx().request(pb::ListListingImportsRequest { store_channel_id: shop.id }))
        .await?
        .into_inner();
    Ok(Json(List::all(r.imports.into_iter().map(ListingImportBody::from).collect())))
}

/// One listing import, as far as it got.
#[utoipa::path(get, path = "/products/marketplace/imports/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = ListingImportBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_listing_import(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ListingImportBody>> {
    auth.require(READ)?;
    let r =
        client(&state)?.get_listing_import(auth.ctx().request(pb::GetListingImportRequest { id })).await?.into_inner();
    Ok(Json(r.import.unwrap_or_default().into()))
}

/// Which outcomes of an import to read.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct ImportedQuery {
    pub page: Option<i64>,
    pub limit: Option<i64>,
    /// created, linked, kept, unlinked, deleted or failed.
    pub outcome: Option<String>,
}

/// One listing's outcome in an import.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportedListingBody {
    pub n: i64,
    pub item_id: String,
    pub model_id: String,
    pub seller_sku: String,
    pub name: String,
    pub outcome: String,
    pub detail: String,
    pub sku_id: Option<i64>,
}

/// An import's listings with what became of each, a page at a time.
#[utoipa::path(get, path = "/products/marketplace/imports/{id}/listings", tag = "marketplaces",
    params(("id" = i64, Path), ImportedQuery),
    responses((status = 200, body = List<ImportedListingBody>), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn imported_listings(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<ImportedQuery>,
) -> ApiResult<Json<List<ImportedListingBody>>> {
    auth.require(READ)?;
    let r = client(&state)?
        .list_imported_listings(auth.ctx().request(pb::ListImportedListingsRequest {
            import_id: id,
            outcome: enum_field::<pb::ImportOutcome>("outcome", q.outcome.as_deref(), "validation.invalid")?,
            page: Some(page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    Ok(Json(List::new(
        r.listings
            .into_iter()
            .map(|l| ImportedListingBody {
                n: l.n,
                item_id: l.item_id,
                model_id: l.model_id,
                seller_sku: l.seller_sku,
                name: l.name,
                outcome: word::<pb::ImportOutcome>(l.outcome),
                detail: l.detail,
                sku_id: (l.sku_id > 0).then_some(l.sku_id),
            })
            .collect(),
        r.page,
    )))
}

/// How much of our stock a shop's listings show.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct StockRuleBody {
    /// The share of what is available shown, 0 to 100.
    pub percent: i64,
    /// Added after the share (negative keeps a margin back).
    pub fixed: i64,
    /// down, up or nearest.
    pub rounding: String,
    /// The warehouses pushed from (empty: the shop's own).
    pub warehouse_ids: Vec<i64>,
    /// Below this many, a listing is nearly sold out (0: never).
    pub threshold: i64,
    /// This shop keeps showing what is left when nearly sold out; the store's others show 0.
    pub priority: bool,
    /// Units held back for promotions.
    pub hold: i64,
    /// The marketplace takes only increases (Lazada Choice): a lower quantity is not pushed.
    pub increase_only: bool,
    /// True when it is the listing's own rule (false: its shop's applies).
    pub own: bool,
    pub updated_at: String,
}

impl Default for StockRuleBody {
    fn default() -> Self {
        StockRuleBody {
            percent: 100,
            fixed: 0,
            rounding: "down".into(),
            warehouse_ids: Vec::new(),
            threshold: 0,
            priority: false,
            hold: 0,
            increase_only: false,
            own: false,
            updated_at: String::new(),
        }
    }
}

fn rule_body(r: pb::StockRuleResponse) -> StockRuleBody {
    let rule = r.rule.unwrap_or_default();
    StockRuleBody {
        percent: rule.percent,
        fixed: rule.fixed,
        rounding: word::<pb::Rounding>(rule.rounding),
        warehouse_ids: rule.warehouse_ids,
        threshold: rule.threshold,
        priority: rule.priority,
        hold: rule.hold,
        increase_only: rule.increase_only,
        own: r.own,
        updated_at: timestamp_to_rfc3339(rule.update_time.as_ref()),
    }
}

async fn get_rule(state: &AppState, auth: &StoreAuth, shop: i64, listing: i64) -> ApiResult<StockRuleBody> {
    let r = client(state)?
        .get_stock_rule(auth.ctx().request(pb::GetStockRuleRequest { store_channel_id: shop, listing_id: listing }))
        .await?
        .into_inner();
    Ok(rule_body(r))
}

async fn set_rule(
    state: &AppState,
    auth: &StoreAuth,
    shop: i64,
    listing: i64,
    b: StockRuleBody,
) -> ApiResult<StockRuleBody> {
    let rounding = enum_field::<pb::Rounding>("rounding", Some(b.rounding.trim()), "validation.invalid")?;
    let r = client(state)?
        .set_stock_rule(auth.ctx().request(pb::SetStockRuleRequest {
            store_channel_id: shop,
            listing_id: listing,
            rule: Some(pb::StockRule {
                percent: b.percent,
                fixed: b.fixed,
                rounding,
                warehouse_ids: b.warehouse_ids,
                threshold: b.threshold,
                priority: b.priority,
                hold: b.hold,
                increase_only: b.increase_only,
                update_time: None,
            }),
        }))
        .await?
        .into_inner();
    Ok(rule_body(r))
}

/// A shop's stock rule (every listing without one of its own follows it).
#[utoipa::path(get, path = "/marketplaces/store-channels/{id}/stock-rule", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = StockRuleBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_shop_stock_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<StockRuleBody>> {
    auth.require(READ)?;
    Ok(Json(get_rule(&state, &auth, id, 0).await?))
}

/// Sets a shop's stock rule (owner); every linked listing of the shop is pushed by it.
#[utoipa::path(put, path = "/marketplaces/store-channels/{id}/stock-rule", tag = "marketplaces", params(("id" = i64, Path)),
    request_body = StockRuleBody,
    responses((status = 200, body = StockRuleBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_shop_stock_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<StockRuleBody>,
) -> ApiResult<Json<StockRuleBody>> {
    auth.require(OWNER)?;
    Ok(Json(set_rule(&state, &auth, id, 0, b).await?))
}

/// The rule a listing follows: its own, or its shop's (`own` says which).
#[utoipa::path(get, path = "/marketplaces/listings/{id}/stock-rule", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = StockRuleBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_listing_stock_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<StockRuleBody>> {
    auth.require(READ)?;
    let shop = listing_shop(&state, &auth, id).await?;
    Ok(Json(get_rule(&state, &auth, shop, id).await?))
}

/// Gives a listing a stock rule of its own, over its shop's (owner).
#[utoipa::path(put, path = "/marketplaces/listings/{id}/stock-rule", tag = "marketplaces", params(("id" = i64, Path)),
    request_body = StockRuleBody,
    responses((status = 200, body = StockRuleBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_listing_stock_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<StockRuleBody>,
) -> ApiResult<Json<StockRuleBody>> {
    auth.require(OWNER)?;
    let shop = listing_shop(&state, &auth, id).await?;
    Ok(Json(set_rule(&state, &auth, shop, id, b).await?))
}

/// Drops a listing's own rule: its shop's applies again (owner).
#[utoipa::path(delete, path = "/marketplaces/listings/{id}/stock-rule", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = StockRuleBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn delete_listing_stock_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<StockRuleBody>> {
    auth.require(OWNER)?;
    let shop = listing_shop(&state, &auth, id).await?;
    let r = client(&state)?
        .delete_stock_rule(auth.ctx().request(pb::GetStockRuleRequest { store_channel_id: shop, listing_id: id }))
        .await?
        .into_inner();
    Ok(Json(rule_body(r)))
}

async fn listing_shop(state: &AppState, auth: &StoreAuth, id: i64) -> ApiResult<i64> {
    let r = client(state)?.get_listing(auth.ctx().request(pb::GetListingRequest { id })).await?.into_inner();
    Ok(r.listing.unwrap_or_default().store_channel_id)
}

/// A shop's push all (or a selection pushed now), as far as it got.
#[derive(Debug, Serialize, ToSchema)]
pub struct StockSyncBody {
    pub store_channel_id: i64,
    /// in_progress while listings it made due are waiting, else finished.
    pub status: String,
    pub total: i64,
    pub done: i64,
    pub started_at: String,
    /// When it finished (the time the screen shows).
    pub finished_at: String,
}

pub(crate) fn sync_body(s: pb::StockSync) -> StockSyncBody {
    StockSyncBody {
        store_channel_id: s.store_channel_id,
        status: if s.running { "in_progress" } else { "finished" }.into(),
        total: s.total,
        done: s.done,
        started_at: timestamp_to_rfc3339(s.start_time.as_ref()),
        finished_at: timestamp_to_rfc3339(s.finish_time.as_ref()),
    }
}

/// What to push now.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct UpdateStockInput {
    /// The shop.
    pub store_channel_id: i64,
    /// The listings to push (at most 500); empty pushes every linked listing of the shop.
    pub listing_ids: Vec<i64>,
}

/// Pushes a shop's linked listings' stock now, by their rules (a selection, or every one: a
/// "push all"), in the background at the marketplace's pace; its progress follows.
#[utoipa::path(post, path = "/products/marketplace/{mp}/update-stock", tag = "marketplaces", params(("mp" = String, Path)),
    request_body = UpdateStockInput,
    responses((status = 202, body = StockSyncBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "marketplace_token_expired"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_stock(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    Body(b): Body<UpdateStockInput>,
) -> ApiResult<(StatusCode, Json<StockSyncBody>)> {
    auth.require(EDIT)?;
    let shop = shop_of(&state, &auth, &mp, b.store_channel_id).await?;
    let r = client(&state)?
        .push_stock(auth.ctx().request(pb::PushStockRequest { store_channel_id: shop.id, listing_ids: b.listing_ids }))
        .await?
        .into_inner();
    Ok((StatusCode::ACCEPTED, Json(sync_body(r.sync.unwrap_or_default()))))
}

/// A shop's push all as it stands (SPEC §4 "Stock sync": in progress, or finished with the
/// time).
#[utoipa::path(get, path = "/marketplaces/store-channels/{id}/stock-sync", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = StockSyncBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn stock_sync(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<StockSyncBody>> {
    auth.require(READ)?;
    let r = client(&state)?
        .get_stock_sync(auth.ctx().request(pb::GetStockSyncRequest { store_channel_id: id }))
        .await?
        .into_inner();
    Ok(Json(sync_body(r.sync.unwrap_or_default())))
}
