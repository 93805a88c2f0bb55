//! The catalogue: products listed, counted, read, made, changed, switched and deleted;
//! categories and the SKU inventory list.

use super::*;
use bo_kit::Code;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_products, create_product))
        .routes(routes!(count_products))
        .routes(routes!(list_categories))
        .routes(routes!(sku_inventories))
        .routes(routes!(get_product, update_product, patch_product, delete_product))
        .routes(routes!(bulk_product_status))
        .routes(routes!(bulk_delete_products))
}

/// Product filters.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct ProductQuery {
    /// Part of a name, a product code or a SKU code.
    pub search: Option<String>,
    /// Only this category.
    pub category_id: Option<i64>,
    /// active or inactive.
    pub status: Option<String>,
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all.
    pub limit: Option<i64>,
}

pub(super) fn page(page: Option<i64>, limit: Option<i64>) -> Option<pb::PageRequest> {
    Some(crate::wire::page_request(page, limit))
}

/// Products, searched, filtered and paged.
#[utoipa::path(get, path = "/products", tag = "products", params(ProductQuery),
    responses((status = 200, body = List<ProductBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn list_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<ProductQuery>,
) -> ApiResult<Json<List<ProductBody>>> {
    auth.require(READ)?;
    let r = state
        .products()
        .list_products(auth.ctx().request(pb::ListProductsRequest {
            search: q.search.unwrap_or_default(),
            category_id: q.category_id.unwrap_or(0),
            status: enum_field::<pb::ProductStatus>("status", q.status.as_deref(), "validation.status")?,
            page: page(q.page, q.limit),
        }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.products.into_iter().map(ProductBody::from).collect(), r.page)))
}

/// Creates a product with its SKUs.
#[utoipa::path(post, path = "/products", tag = "products", request_body = ProductInput,
    responses((status = 201, body = ProductBody), (status = 409, body = ErrorBody, description = "code_taken"),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn create_product(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<ProductInput>,
) -> ApiResult<(StatusCode, Json<ProductBody>)> {
    auth.require(CREATE)?;
    let product = input.into_proto(0)?;
    let r = state
        .products()
        .create_product(auth.ctx().request(pb::CreateProductRequest { product: Some(product) }))
        .await?;
    Ok((StatusCode::CREATED, Json(r.into_inner().product.unwrap_or_default().into())))
}

/// Status filter for counting.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct CountQuery {
    /// active or inactive (all when absent).
    pub status: Option<String>,
}

/// A count.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountBody {
    /// How many.
    pub count: i64,
}

/// Number of products.
#[utoipa::path(get, path = "/products/count", tag = "products", params(CountQuery),
    responses((status = 200, body = CountBody)), security(("bearer" = [])))]
pub(super) async fn count_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<CountQuery>,
) -> ApiResult<Json<CountBody>> {
    auth.require(READ)?;
    let r = state
        .products()
        .count_products(auth.ctx().request(pb::CountProductsRequest {
            status: enum_field::<pb::ProductStatus>("status", q.status.as_deref(), "validation.status")?,
        }))
        .await?;
    Ok(Json(CountBody { count: r.into_inner().count }))
}

/// A category.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryBody {
    /// Id.
    pub id: i64,
    /// Thai name.
    pub name: String,
    /// English name.
    pub name_en: String,
}

/// Categories a product may be filed under.
#[utoipa::path(get, path = "/products/categories", tag = "products",
    responses((status = 200, body = List<CategoryBody>)), security(("bearer" = [])))]
pub(super) async fn list_categories(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<CategoryBody>>> {
    auth.require(READ)?;
    let r = state.products().list_categories(auth.ctx().request(pb::ListCategoriesRequest {})).await?.into_inner();
    let data: Vec<CategoryBody> =
        r.categories.into_iter().map(|c| CategoryBody { id: c.id, name: c.name, name_en: c.name_en }).collect();
    Ok(Json(List::all(data)))
}

/// Stock overview filters.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct InventoryQuery {
    /// Part of a product name or a SKU code.
    pub search: Option<String>,
    /// Only this warehouse.
    pub warehouse_id: Option<i64>,
    /// Only SKUs at or under their safety stock.
    pub below_safety_stock: Option<bool>,
    /// Page number (default 1).
    pub page: Option<i64>,
    /// Page size (default 10; -1 for all).
    pub limit: Option<i64>,
}

/// One row of the stock overview.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkuInventoryBody {
    /// SKU id.
    pub sku_id: i64,
    /// SKU code.
    pub sku_code: String,
    /// Product id.
    pub product_id: i64,
    /// Product name.
    pub product_name: String,
    /// Option of variant 1.
    pub option1: String,
    /// Option of variant 2.
    pub option2: String,
    /// Safety stock.
    pub safety_stock: i64,
    /// Stock in the warehouse (warehouse_id 0 when never stocked).
    pub inventory: InventoryBody,
}

/// Stock per SKU per warehouse, paged (page 1, 10 per page by default).
#[utoipa::path(get, path = "/products/sku-inventories", tag = "products", params(InventoryQuery),
    responses((status = 200, body = List<SkuInventoryBody>)), security(("bearer" = [])))]
pub(super) async fn sku_inventories(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<InventoryQuery>,
) -> ApiResult<Json<List<SkuInventoryBody>>> {
    auth.require(READ)?;
    let r = state
        .products()
        .list_sku_inventories(auth.ctx().request(pb::ListSkuInventoriesRequest {
            search: q.search.unwrap_or_default(),
            warehouse_id: q.warehouse_id.unwrap_or(0),
            below_safety_stock: q.below_safety_stock.unwrap_or(false),
            page: page(q.page, q.limit),
        }))
        .await?
        .into_inner();
    let data = r
        .rows
        .into_iter()
        .map(|row| {
            let sku = row.sku.unwrap_or_default();
            SkuInventoryBody {
                sku_id: sku.id,
                sku_code: sku.code,
                product_id: row.product_id,
                product_name: row.product_name,
                option1: sku.option1,
                option2: sku.option2,
                safety_stock: sku.safety_stock,
                inventory: row.inventory.unwrap_or_default().into(),
            }
        })
        .collect();
    Ok(Json(List::new(data, r.page)))
}

/// One product with its SKUs and their stock.
#[utoipa::path(get, path = "/products/{id}", tag = "products", params(("id" = i64, Path)),
    responses((status = 200, body = ProductBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn get_product(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ProductBody>> {
    auth.require(READ)?;
    let r = state.products().get_product(auth.ctx().request(pb::GetProductRequest { id })).await?;
    Ok(Json(r.into_inner().product.unwrap_or_default().into()))
}

/// Replaces a product and its SKUs (SKUs with an id are kept and changed, new ones added,
/// missing ones removed unless they hold stock).
#[utoipa::path(put, path = "/products/{id}", tag = "products", params(("id" = i64, Path)), request_body = ProductInput,
    responses((status = 200, body = ProductBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn update_product(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<ProductInput>,
) -> ApiResult<Json<ProductBody>> {
    auth.require(EDIT)?;
    let product = input.into_proto(id)?;
    let r = state
        .products()
        .update_product(auth.ctx().request(pb::UpdateProductRequest { product: Some(product) }))
        .await?;
    Ok(Json(r.into_inner().product.unwrap_or_default().into()))
}

/// A status change.
#[derive(Debug, Deserialize, ToSchema)]
pub struct StatusInput {
    /// active or inactive.
    pub status: String,
}

/// Changes a product's status.
#[utoipa::path(patch, path = "/products/{id}", tag = "products", params(("id" = i64, Path)), request_body = StatusInput,
    responses((status = 200, body = ProductBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn patch_product(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<StatusInput>,
) -> ApiResult<Json<ProductBody>> {
    auth.require(EDIT)?;
    let changed = state
        .products()
        .set_product_status(auth.ctx().request(pb::SetProductStatusRequest {
            ids: vec![id],
            status: enum_field::<pb::ProductStatus>("status", Some(&input.status), "validation.status")?,
        }))
        .await?
        .into_inner()
        .changed;
    if changed == 0 {
        return Err(ApiError::new(StatusCode::NOT_FOUND, Code::ProductNotFound));
    }
    let r = state.products().get_product(auth.ctx().request(pb::GetProductRequest { id })).await?;
    Ok(Json(r.into_inner().product.unwrap_or_default().into()))
}

/// Deletes a product that holds no stock.
#[utoipa::path(delete, path = "/products/{id}", tag = "products", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "product_has_stock")),
    security(("bearer" = [])))]
pub(super) async fn delete_product(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    let r = state.products().delete_products(auth.ctx().request(pb::DeleteProductsRequest { ids: vec![id] })).await?;
    match r.into_inner().results.into_iter().next() {
        Some(done) if done.ok => Ok(StatusCode::NO_CONTENT),
        Some(kept) => Err(ApiError::refused(&kept.reason, Code::ProductNotFound)),
        None => Err(ApiError::new(StatusCode::NOT_FOUND, Code::ProductNotFound)),
    }
}

/// Products for a bulk action.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ProductBulkInput {
    /// The products (1 to 500).
    pub ids: Vec<i64>,
    /// active or inactive (status only).
    pub status: String,
}

/// What became of one product of a bulk action.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductResultBody {
    pub id: i64,
    pub ok: bool,
    /// Why not: product_not_found or product_has_stock; empty when done.
    pub reason: String,
}

/// Each product's result, in the order sent, and how many were done.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductResultsBody {
    pub data: Vec<ProductResultBody>,
    pub succeeded: i64,
    pub failed: i64,
}

fn results_body(results: Vec<pb::ProductResult>) -> ProductResultsBody {
    let data: Vec<ProductResultBody> =
        results.into_iter().map(|r| ProductResultBody { id: r.id, ok: r.ok, reason: r.reason }).collect();
    let succeeded = data.iter().filter(|r| r.ok).count() as i64;
    ProductResultsBody { failed: data.len() as i64 - succeeded, succeeded, data }
}

/// Sets the status of many products in one request; each is answered on its own.
#[utoipa::path(post, path = "/products/bulk/status", tag = "products", request_body = ProductBulkInput,
    responses((status = 200, body = ProductResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn bulk_product_status(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ProductBulkInput>,
) -> ApiResult<Json<ProductResultsBody>> {
    auth.require(EDIT)?;
    let r = state
        .products()
        .set_product_status(auth.ctx().request(pb::SetProductStatusRequest {
            ids: b.ids,
            status: enum_field::<pb::ProductStatus>("status", Some(&b.status), "validation.status")?,
        }))
        .await?;
    Ok(Json(results_body(r.into_inner().results)))
}

/// Deletes many products in one request: those holding stock stay (product_has_stock), the
/// others go; each is answered on its own.
#[utoipa::path(post, path = "/products/bulk/delete", tag = "products", request_body = ProductBulkInput,
    responses((status = 200, body = ProductResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn bulk_delete_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ProductBulkInput>,
) -> ApiResult<Json<ProductResultsBody>> {
    auth.require(EDIT)?;
    let r = state.products().delete_products(auth.ctx().request(pb::DeleteProductsRequest { ids: b.ids })).await?;
    Ok(Json(results_body(r.into_inner().results)))
}
