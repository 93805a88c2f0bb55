//! Products and SKUs (SPEC §2 Products, §3 Product, §7 "Products").
//!
//! Money travels as baht text with two decimals ("199.50"; numbers are accepted on input),
//! weights as kilogram text. Variant names carry a one-character ordering prefix on the
//! wire: `variant1` is `"1สี"` for the variant named สี, `variant2` starts with `2`, and the
//! keys of each SKU's `variant_option` map carry the same prefix
//! (`{"1สี": "ขาว", "2ไซซ์": "M"}`). The app strips the prefix on load and adds it on save.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_kit::FieldError;
use bo_proto::products::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::idempotency::{self, Deferred};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::uploads::{FileForm, Staged};
use crate::wire::{baht, kilograms, Body, Decimal, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_products, create_product))
        .routes(routes!(count_products))
        .routes(routes!(list_categories))
        .routes(routes!(sku_inventories))
        .routes(routes!(update_all_safety_stock))
        .routes(routes!(summaries))
        .routes(routes!(search_products))
        .routes(routes!(unit_of_measurements))
        .routes(routes!(moving_transactions))
        .routes(routes!(get_product, update_product, patch_product, delete_product))
        .routes(routes!(add_photos).layer(axum::extract::DefaultBodyLimit::max(MAX_PHOTO_UPLOAD_BYTES)))
        .routes(routes!(reorder_photos))
        .routes(routes!(delete_photo))
        .routes(routes!(photo_rules))
        .routes(routes!(photo_file))
        .routes(routes!(import_products).layer(axum::extract::DefaultBodyLimit::max(MAX_IMPORT_BYTES + 64 * 1024)))
}

const READ: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_READ] };
const CREATE: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_CREATE] };
const EDIT: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_EDIT] };

/// Stock of a SKU in one warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct InventoryBody {
    /// Warehouse id.
    pub warehouse_id: i64,
    /// Units available (on hand minus reserved).
    pub available: i64,
    /// Units on pre-order.
    pub preorder: i64,
    /// Units on hand.
    pub quantity: i64,
    /// Units reserved for orders.
    pub reserve: i64,
}

impl From<pb::Inventory> for InventoryBody {
    fn from(i: pb::Inventory) -> Self {
        InventoryBody {
            warehouse_id: i.warehouse_id,
            available: i.available,
            preorder: i.preorder,
            quantity: i.on_hand,
            reserve: i.reserved,
        }
    }
}

/// A SKU.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkuBody {
    /// Id.
    pub id: i64,
    /// Code, unique in the store.
    pub code: String,
    /// Cost in baht.
    pub cost: String,
    /// Price in baht.
    pub price: String,
    /// Safety stock in units.
    pub safety_stock: i64,
    /// Barcode.
    pub barcode: String,
    /// active or inactive.
    pub status: String,
    /// Option per variant, keys prefixed ("1สี").
    pub variant_option: BTreeMap<String, String>,
    /// Stock per warehouse.
    pub inventories: Vec<InventoryBody>,
}

/// An image of a product.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotoBody {
    /// Photo id.
    pub id: i64,
    /// Where to load it; add `?size=N` for a square PNG of N pixels (N under 100 doubles).
    pub url: String,
    /// Width in pixels.
    pub width: i64,
    /// Height in pixels.
    pub height: i64,
}

impl From<pb::Photo> for PhotoBody {
    fn from(p: pb::Photo) -> Self {
        PhotoBody { id: p.id, url: format!("/api/products/photos/{}", p.name), width: p.width, height: p.height }
    }
}

/// A product.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductBody {
    /// Id.
    pub id: i64,
    /// Thai name.
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Short description.
    pub short_description: String,
    /// Description.
    pub description: String,
    /// Code.
    pub code: String,
    /// HS code.
    pub hs_code: String,
    /// Brand.
    pub brand: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Category id.
    pub category_id: i64,
    /// Price in baht.
    pub price: String,
    /// Cost in baht.
    pub cost: String,
    /// The price includes 7% VAT.
    pub vat: bool,
    /// The price without VAT, in baht.
    pub price_ex_vat: String,
    /// Weight per piece in kilograms.
    pub weight: String,
    /// Barcode.
    pub barcode: String,
    /// Unit of measurement id (0 for none).
    pub unit_id: i64,
    /// First variant's name, prefixed with "1" (null without variants).
    pub variant1: Option<String>,
    /// First variant's options.
    pub variant1_options: Vec<String>,
    /// Second variant's name, prefixed with "2".
    pub variant2: Option<String>,
    /// Second variant's options.
    pub variant2_options: Vec<String>,
    /// SKUs.
    pub skus: Vec<SkuBody>,
    /// Photos in display order.
    pub photos: Vec<PhotoBody>,
    /// The cover (the first photo), if any.
    pub cover_url: Option<String>,
    /// The size-chart image, if any.
    pub size_chart: Option<PhotoBody>,
    /// active or inactive.
    pub status: String,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

fn prefixed(i: usize, name: &str) -> String {
    format!("{}{name}", i + 1)
}

impl From<pb::Product> for ProductBody {
    fn from(p: pb::Product) -> Self {
        let v = |i: usize| p.variants.get(i).map(|v| prefixed(i, &v.name));
        let opts = |i: usize| p.variants.get(i).map(|v| v.options.clone()).unwrap_or_default();
        let skus = p
            .skus
            .iter()
            .map(|s| {
                let mut variant_option = BTreeMap::new();
                for (i, value) in [&s.option1, &s.option2].into_iter().enumerate() {
                    if let Some(var) = p.variants.get(i) {
                        variant_option.insert(prefixed(i, &var.name), value.clone());
                    }
                }
                SkuBody {
                    id: s.id,
                    code: s.code.clone(),
                    cost: baht(s.cost),
                    price: baht(s.price),
                    safety_stock: s.safety_stock,
                    barcode: s.barcode.clone(),
                    status: s.status.clone(),
                    variant_option,
                    inventories: s.inventories.iter().copied().map(InventoryBody::from).collect(),
                }
            })
            .collect();
        let photos: Vec<PhotoBody> = p.photos.iter().cloned().map(PhotoBody::from).collect();
        ProductBody {
            id: p.id,
            cover_url: photos.first().map(|ph| ph.url.clone()),
            photos,
            size_chart: p.size_chart.map(PhotoBody::from),
            variant1: v(0),
            variant1_options: opts(0),
            variant2: v(1),
            variant2_options: opts(1),
            name: p.name,
            name_en: p.name_en,
            short_description: p.short_description,
            description: p.description,
            code: p.code,
            hs_code: p.hs_code,
            brand: p.brand,
            tags: p.tags,
            category_id: p.category_id,
            price: baht(p.price),
            cost: baht(p.cost),
            vat: p.vat,
            price_ex_vat: baht(p.price_ex_vat),
            weight: kilograms(p.weight_grams),
            barcode: p.barcode,
            unit_id: p.unit_id,
            skus,
            status: p.status,
            created_at: timestamp_to_rfc3339(p.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(p.update_time.as_ref()),
        }
    }
}

/// A SKU as written.
#[derive(Debug, Deserialize, Serialize, ToSchema, Default)]
#[serde(default)]
pub struct SkuInput {
    /// Id of an existing SKU (absent for a new one).
    pub id: Option<i64>,
    /// Code (defaults to the product's code for a product without variants).
    pub code: String,
    /// Cost in baht.
    pub cost: Option<Decimal>,
    /// Price in baht.
    pub price: Option<Decimal>,
    /// Safety stock in units.
    pub safety_stock: i64,
    /// Barcode.
    pub barcode: String,
    /// active (default) or inactive.
    pub status: String,
    /// Option per variant, keys prefixed ("1สี": "ขาว").
    pub variant_option: BTreeMap<String, String>,
}

/// A product as written (create and full replace).
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ProductInput {
    /// Thai name (required).
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Short description (required).
    pub short_description: String,
    /// Description.
    pub description: String,
    /// Code (required, unique in the store).
    pub code: String,
    /// HS code: 6, 8 or 10 digits.
    pub hs_code: String,
    /// Brand.
    pub brand: String,
    /// Tags: at least one, none repeated.
    pub tags: Vec<String>,
    /// Category id (required).
    pub category_id: i64,
    /// Price in baht (required).
    pub price: Option<Decimal>,
    /// Cost in baht (required).
    pub cost: Option<Decimal>,
    /// The price includes 7% VAT (default true).
    pub vat: Option<bool>,
    /// Weight per piece in kilograms.
    pub weight: Option<Decimal>,
    /// Barcode.
    pub barcode: String,
    /// Unit of measurement id.
    pub unit_id: i64,
    /// First variant's name, prefixed with "1".
    pub variant1: Option<String>,
    /// First variant's options.
    pub variant1_options: Vec<String>,
    /// Second variant's name, prefixed with "2".
    pub variant2: Option<String>,
    /// Second variant's options.
    pub variant2_options: Vec<String>,
    /// SKUs: one without variants, one per option combination with them.
    pub skus: Vec<SkuInput>,
    /// active (default) or inactive.
    pub status: String,
}

fn money(field: &str, v: &Option<Decimal>, errs: &mut Vec<FieldError>) -> i64 {
    match v {
        None => {
            errs.push(FieldError::new(field, "validation.required"));
            0
        }
        Some(d) => d.satang().unwrap_or_else(|| {
            errs.push(FieldError::new(field, "validation.money"));
            0
        }),
    }
}

fn unprefix(i: usize, name: &str, errs: &mut Vec<FieldError>) -> String {
    let want = char::from(b'1' + i as u8);
    match name.strip_prefix(want) {
        Some(rest) => rest.to_string(),
        None => {
            errs.push(FieldError::new(format!("variant{}", i + 1), "validation.variant_prefix"));
            name.to_string()
        }
    }
}

impl ProductInput {
    /// The service's message, with wire-level errors (money, prefixes) gathered first.
    fn into_proto(self, id: i64) -> Result<pb::Product, ApiError> {
        let mut errs = Vec::new();
        let mut variants = Vec::new();
        for (i, (name, options)) in
            [(self.variant1, self.variant1_options), (self.variant2, self.variant2_options)].into_iter().enumerate()
        {
            if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
                variants.push(pb::Variant { name: unprefix(i, name.trim(), &mut errs), options });
            }
        }
        let price = money("price", &self.price, &mut errs);
        let cost = money("cost", &self.cost, &mut errs);
        let weight_grams = match &self.weight {
            None => 0,
            Some(w) => w.grams().unwrap_or_else(|| {
                errs.push(FieldError::new("weight", "validation.weight"));
                0
            }),
        };
        let mut skus = Vec::new();
        for (i, s) in self.skus.into_iter().enumerate() {
            let mut options = [String::new(), String::new()];
            for (key, value) in &s.variant_option {
                let slot = variants.iter().enumerate().find(|(n, v)| *key == prefixed(*n, &v.name)).map(|(n, _)| n);
                match slot {
                    Some(n) => options[n] = value.clone(),
                    None => {
                        errs.push(FieldError::new(format!("skus[{i}].variant_option"), "validation.variant_option"))
                    }
                }
            }
            let [option1, option2] = options;
            skus.push(pb::Sku {
                id: s.id.unwrap_or(0),
                product_id: id,
                code: s.code,
                cost: s.cost.as_ref().map(|_| money(&format!("skus[{i}].cost"), &s.cost, &mut errs)).unwrap_or(cost),
                price: s
                    .price
                    .as_ref()
                    .map(|_| money(&format!("skus[{i}].price"), &s.price, &mut errs))
                    .unwrap_or(price),
                safety_stock: s.safety_stock,
                barcode: s.barcode,
                status: s.status,
                option1,
                option2,
                inventories: Vec::new(),
            });
        }
        if !errs.is_empty() {
            return Err(bo_kit::Error::invalid(errs).into());
        }
        Ok(pb::Product {
            id,
            name: self.name,
            name_en: self.name_en,
            short_description: self.short_description,
            description: self.description,
            code: self.code,
            hs_code: self.hs_code,
            brand: self.brand,
            tags: self.tags,
            category_id: self.category_id,
            price,
            cost,
            vat: self.vat.unwrap_or(true),
            weight_grams,
            barcode: self.barcode,
            unit_id: self.unit_id,
            variants,
            skus,
            status: self.status,
            ..Default::default()
        })
    }
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

fn page(page: Option<i64>, limit: Option<i64>) -> Option<pb::PageRequest> {
    Some(crate::wire::page_request(page, limit))
}

/// Products, searched, filtered and paged.
#[utoipa::path(get, path = "/products", tag = "products", params(ProductQuery),
    responses((status = 200, body = List<ProductBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_products(
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
            status: q.status.unwrap_or_default(),
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
async fn create_product(
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
async fn count_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<CountQuery>,
) -> ApiResult<Json<CountBody>> {
    auth.require(READ)?;
    let r = state
        .products()
        .count_products(auth.ctx().request(pb::CountProductsRequest { status: q.status.unwrap_or_default() }))
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
async fn list_categories(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<CategoryBody>>> {
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
async fn sku_inventories(
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
async fn get_product(
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
async fn update_product(
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
async fn patch_product(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<StatusInput>,
) -> ApiResult<Json<ProductBody>> {
    auth.require(EDIT)?;
    let changed = state
        .products()
        .set_product_status(auth.ctx().request(pb::SetProductStatusRequest { ids: vec![id], status: input.status }))
        .await?
        .into_inner()
        .changed;
    if changed == 0 {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "product_not_found"));
    }
    let r = state.products().get_product(auth.ctx().request(pb::GetProductRequest { id })).await?;
    Ok(Json(r.into_inner().product.unwrap_or_default().into()))
}

/// Deletes a product that holds no stock.
#[utoipa::path(delete, path = "/products/{id}", tag = "products", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "product_has_stock")),
    security(("bearer" = [])))]
async fn delete_product(State(state): State<AppState>, auth: StoreAuth, Path(id): Path<i64>) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    let deleted =
        state.products().delete_products(auth.ctx().request(pb::DeleteProductsRequest { ids: vec![id] })).await?;
    if deleted.into_inner().deleted == 0 {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "product_not_found"));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The largest spreadsheet accepted (SPEC §5 allows 1 to 100 items; files stay small).
pub const MAX_IMPORT_BYTES: usize = 5 * 1024 * 1024;

/// One row read from the spreadsheet.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportedRowBody {
    /// Spreadsheet row number.
    pub row: i64,
    /// Product code (product_id).
    pub code: String,
    /// Product name (product_name).
    pub name: String,
    /// SKU code (seller_sku, else sku_id).
    pub sku_code: String,
    /// Variant (variation_value).
    pub variant: String,
    /// Price in baht.
    pub price: String,
}

/// A problem with one row.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportRowErrorBody {
    /// Spreadsheet row number.
    pub row: i64,
    /// Column or field.
    pub field: String,
    /// Message key.
    pub code: String,
}

/// What an import read and did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportData {
    /// Rows read without problems.
    pub rows: Vec<ImportedRowBody>,
    /// Products the file holds.
    pub products: i64,
    /// Products created (0 on a dry run).
    pub created: i64,
    /// Products skipped because the store already has their code.
    pub skipped: i64,
}

/// An import's answer: `data` and per-row `errors` (SPEC §3 "Import results carry data and errors").
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportBody {
    /// What was read and done.
    pub data: ImportData,
    /// Problems per row.
    pub errors: Vec<ImportRowErrorBody>,
}

/// The multipart form of an import.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ImportForm {
    /// The .xlsx file (at most 5 MB, 1 to 100 items).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// Category for every imported product (required unless dry_run).
    pub category_id: Option<i64>,
    /// The sheet to read (default: the first).
    pub sheet: Option<String>,
    /// Only read and check.
    pub dry_run: Option<bool>,
}

/// Imports products from an .xlsx file (multipart: file, category_id, sheet, dry_run).
/// Rows of one product_id become one product with a variant per row; products whose code
/// the store already has are skipped, so the same file twice creates nothing new. A wrong
/// template answers 422 with `import_wrong_template` ('Wrong file, please upload valid file').
#[utoipa::path(post, path = "/products/excel/import", tag = "products",
    request_body(content = ImportForm, content_type = "multipart/form-data"),
    responses((status = 200, body = ImportBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn import_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(CREATE)?;
    let f = FileForm::read(
        state.files.clone(),
        auth.store_id,
        &mut form,
        MAX_IMPORT_BYTES as u64,
        "import_too_large",
        &[],
        &["category_id", "sheet"],
    )
    .await?;
    let (category_id, sheet, dry_run) = (f.number("category_id"), f.text("sheet"), f.dry_run);
    let mut staged = f.staged;
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .products()
            .import_products(auth.ctx().request(pb::ImportProductsRequest { upload, sheet, category_id, dry_run }))
            .await?
            .into_inner();
        Ok(Json(import_body(r)))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

fn import_body(r: pb::ImportProductsResponse) -> ImportBody {
    ImportBody {
        data: ImportData {
            rows: r
                .rows
                .into_iter()
                .map(|x| ImportedRowBody {
                    row: x.row,
                    code: x.code,
                    name: x.name,
                    sku_code: x.sku_code,
                    variant: x.variant,
                    price: baht(x.price),
                })
                .collect(),
            products: r.products,
            created: r.created,
            skipped: r.skipped,
        },
        errors: r.errors.into_iter().map(|e| ImportRowErrorBody { row: e.row, field: e.field, code: e.code }).collect(),
    }
}

/// A store-wide safety stock.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AllSafetyStockInput {
    /// Units every SKU keeps in reserve (0 or more).
    pub amount: i64,
}

/// How many SKUs changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct UpdatedBody {
    /// SKUs changed.
    pub updated: i64,
}

/// Sets the safety stock of every SKU of the store (the settings screen also records it in
/// the store's safety-stock history).
#[utoipa::path(post, path = "/products/sku/update-all-safety-stock", tag = "products", request_body = AllSafetyStockInput,
    responses((status = 200, body = UpdatedBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_all_safety_stock(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<AllSafetyStockInput>,
) -> ApiResult<Json<UpdatedBody>> {
    auth.require(Access { roles: &["owner"], perms: &[keys::STORE_ALL] })?;
    let r = state
        .products()
        .update_all_safety_stock(auth.ctx().request(pb::UpdateAllSafetyStockRequest { amount: input.amount }))
        .await?;
    Ok(Json(UpdatedBody { updated: r.into_inner().updated }))
}

/// The catalog in numbers.
#[derive(Debug, Serialize, ToSchema)]
pub struct SummariesBody {
    /// Products.
    pub products: i64,
    /// Products on sale.
    pub active: i64,
    /// Products off sale.
    pub inactive: i64,
    /// SKUs.
    pub skus: i64,
    /// SKUs with nothing available.
    pub out_of_stock: i64,
    /// SKUs at or under their safety stock.
    pub below_safety_stock: i64,
}

/// Counts of products and SKUs, and of SKUs running out.
#[utoipa::path(get, path = "/products/summaries", tag = "products",
    responses((status = 200, body = SummariesBody)), security(("bearer" = [])))]
async fn summaries(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<SummariesBody>> {
    auth.require(READ)?;
    let s = state.products().get_summaries(auth.ctx().request(pb::GetSummariesRequest {})).await?.into_inner();
    Ok(Json(SummariesBody {
        products: s.products,
        active: s.active,
        inactive: s.inactive,
        skus: s.skus,
        out_of_stock: s.out_of_stock,
        below_safety_stock: s.below_safety_stock,
    }))
}

/// A quick search.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// Part of a name, a product code or a SKU code.
    pub search: Option<String>,
    /// At most this many products (default 20, at most 50).
    pub limit: Option<i64>,
}

/// A SKU found by a quick search.
#[derive(Debug, Serialize, ToSchema)]
pub struct FoundSku {
    /// SKU id.
    pub id: i64,
    /// SKU code.
    pub code: String,
    /// Price in baht.
    pub price: String,
    /// Option per variant, keys prefixed.
    pub variant_option: BTreeMap<String, String>,
    /// Units available in all warehouses.
    pub available: i64,
}

/// A product found by a quick search.
#[derive(Debug, Serialize, ToSchema)]
pub struct FoundProduct {
    /// Product id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Code.
    pub code: String,
    /// Its SKUs.
    pub skus: Vec<FoundSku>,
}

/// Products on sale matching a search, for pickers (orders, adjustments).
#[utoipa::path(get, path = "/products/search", tag = "products", params(SearchQuery),
    responses((status = 200, body = List<FoundProduct>)), security(("bearer" = [])))]
async fn search_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<SearchQuery>,
) -> ApiResult<Json<List<FoundProduct>>> {
    auth.require(READ)?;
    let limit = q.limit.unwrap_or(20).clamp(1, 50);
    let r = state
        .products()
        .list_products(auth.ctx().request(pb::ListProductsRequest {
            search: q.search.unwrap_or_default(),
            category_id: 0,
            status: "active".into(),
            page: page(Some(1), Some(limit)),
        }))
        .await?
        .into_inner();
    let data = r
        .products
        .into_iter()
        .map(|p| {
            let body = ProductBody::from(p);
            FoundProduct {
                id: body.id,
                name: body.name,
                code: body.code,
                skus: body
                    .skus
                    .into_iter()
                    .filter(|s| s.status == "active")
                    .map(|s| FoundSku {
                        id: s.id,
                        available: s.inventories.iter().map(|i| i.available).sum(),
                        code: s.code,
                        price: s.price,
                        variant_option: s.variant_option,
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(Json(List::new(data, r.page)))
}

/// Units of measurement a product may be sold in (the store's units).
#[utoipa::path(get, path = "/products/unit-of-measurements", tag = "products",
    responses((status = 200, body = List<crate::routes::settings::UnitBody>)), security(("bearer" = [])))]
async fn unit_of_measurements(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<crate::routes::settings::UnitBody>>> {
    auth.require(READ)?;
    let r = state
        .stores()
        .list_units_of_measurement(auth.ctx().request(bo_proto::stores::v1::ListUnitsOfMeasurementRequest {
            page: Some(crate::wire::page_request(Some(1), Some(-1))),
        }))
        .await?
        .into_inner();
    let data: Vec<crate::routes::settings::UnitBody> = r.units.into_iter().map(Into::into).collect();
    Ok(Json(List::all(data)))
}

/// Movement filters.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct MovementQuery {
    /// Only this SKU.
    pub sku_id: Option<i64>,
    /// Only this kind: receive, adjust, reserve, release or commit.
    pub kind: Option<String>,
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all.
    pub limit: Option<i64>,
}

/// One movement of the stock ledger.
#[derive(Debug, Serialize, ToSchema)]
pub struct MovementBody {
    /// Movement id.
    pub id: i64,
    /// Warehouse id.
    pub warehouse_id: i64,
    /// SKU id.
    pub sku_id: i64,
    /// receive, adjust, reserve, release or commit.
    pub kind: String,
    /// Change to on hand.
    pub quantity: i64,
    /// Change to reserved.
    pub reserve: i64,
    /// Why.
    pub reason: String,
    /// The command's reference.
    pub reference: String,
    /// Who.
    pub created_by: i64,
    /// When.
    pub created_at: String,
}

/// The stock ledger's movements, newest first, paged.
#[utoipa::path(get, path = "/products/sku-inventories/moving-transactions", tag = "products", params(MovementQuery),
    responses((status = 200, body = List<MovementBody>)), security(("bearer" = [])))]
async fn moving_transactions(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<MovementQuery>,
) -> ApiResult<Json<List<MovementBody>>> {
    auth.require(READ)?;
    let r = state
        .wms()
        .list_movements(auth.ctx().request(bo_proto::wms::v1::ListMovementsRequest {
            kind: q.kind.unwrap_or_default(),
            sku_id: q.sku_id.unwrap_or(0),
            page: Some(crate::wire::page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    let page = r.page;
    let data = r
        .movements
        .into_iter()
        .map(|m| MovementBody {
            id: m.id,
            warehouse_id: m.warehouse_id,
            sku_id: m.sku_id,
            kind: m.kind,
            quantity: m.on_hand_delta,
            reserve: m.reserved_delta,
            reason: m.reason,
            reference: m.reference,
            created_by: m.actor_user_id,
            created_at: timestamp_to_rfc3339(m.create_time.as_ref()),
        })
        .collect();
    Ok(Json(List::new(data, page)))
}

/// The most one photo upload request may carry (the photo rules: 5 MB each, 200 at most).
pub const MAX_PHOTO_UPLOAD_BYTES: usize = 60 * 1024 * 1024;

/// The photos of a product after a change.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotosBody {
    /// Photos in display order.
    pub photos: Vec<PhotoBody>,
    /// The size-chart image, if any.
    pub size_chart: Option<PhotoBody>,
}

/// The multipart form of a photo upload.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct PhotoForm {
    /// One or more `files` (.jpg, .jpeg or .png by content, 5 MB each).
    #[schema(value_type = Vec<String>, format = Binary)]
    pub files: Vec<Vec<u8>>,
    /// photo (default) or size_chart (one file, replacing the current one).
    pub kind: Option<String>,
}

/// Adds photos to a product, or sets its size chart. Files are checked by content (JPEG or
/// PNG), at most 5 MB each, dimensions bounded, metadata stripped; a product holds at most 9
/// photos.
#[utoipa::path(post, path = "/products/{id}/photos", tag = "products", params(("id" = i64, Path)),
    request_body(content = PhotoForm, content_type = "multipart/form-data"),
    responses((status = 200, body = PhotosBody), (status = 409, body = ErrorBody, description = "photo_too_many"),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn add_photos(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(EDIT)?;
    let too_large = || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    let mut staged = Staged::new(state.files.clone());
    let mut kind = String::new();
    while let Some(field) = form.next_field().await.map_err(|_| too_large())? {
        match field.name().unwrap_or("") {
            "files" | "file" => {
                if staged.len() >= bo_products::photos::MAX_PER_UPLOAD {
                    return Err(ApiError::invalid_field("files", "photo_too_many"));
                }
                let max = bo_products::photos::MAX_BYTES as u64;
                staged.stage(auth.store_id, field, max, "files", "photo_too_large").await?;
            }
            "kind" => {
                kind = field.text().await.map_err(|_| ApiError::bad_request("invalid_body"))?;
                staged.text("kind", &kind);
            }
            _ => {}
        }
    }
    let form = staged.digest();
    let act = async {
        let uploads = staged.hand_over();
        let r = state
            .products()
            .add_photos(auth.ctx().request(pb::AddPhotosRequest { product_id: id, kind, uploads }))
            .await?
            .into_inner();
        Ok(Json(PhotosBody {
            photos: r.photos.into_iter().map(PhotoBody::from).collect(),
            size_chart: r.size_chart.map(PhotoBody::from),
        }))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

/// A new photo order.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PhotoOrderInput {
    /// Every photo id of the product, in the new order (the first is the cover).
    pub ids: Vec<i64>,
}

/// Puts a product's photos in a new order.
#[utoipa::path(put, path = "/products/{id}/photos/order", tag = "products", params(("id" = i64, Path)),
    request_body = PhotoOrderInput, responses((status = 200, body = PhotosBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn reorder_photos(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<PhotoOrderInput>,
) -> ApiResult<Json<PhotosBody>> {
    auth.require(EDIT)?;
    let r = state
        .products()
        .reorder_photos(auth.ctx().request(pb::ReorderPhotosRequest { product_id: id, ids: input.ids }))
        .await?
        .into_inner();
    Ok(Json(PhotosBody { photos: r.photos.into_iter().map(PhotoBody::from).collect(), size_chart: None }))
}

/// Removes a photo (or the size chart) of a product.
#[utoipa::path(delete, path = "/products/{id}/photos/{photo_id}", tag = "products",
    params(("id" = i64, Path), ("photo_id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "photo_too_few: the product would keep fewer than the minimum")),
    security(("bearer" = [])))]
async fn delete_photo(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, photo_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    state.products().delete_photo(auth.ctx().request(pb::DeletePhotoRequest { product_id: id, id: photo_id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The photo rules the products service applies.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotoRulesBody {
    /// Photos a product keeps at least once it has them (deleting under it is refused).
    pub min_per_product: i64,
    /// Photos a product may hold.
    pub max_per_product: i64,
    /// Largest file in bytes.
    pub max_bytes: i64,
    /// Most files in one upload.
    pub max_per_upload: i64,
}

/// The photo rules: counts per product and file sizes, for the app to check before upload.
#[utoipa::path(get, path = "/products/photo-rules", tag = "products",
    responses((status = 200, body = PhotoRulesBody)), security(("bearer" = [])))]
async fn photo_rules(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<PhotoRulesBody>> {
    auth.require(READ)?;
    let r = state.products().get_photo_rules(auth.ctx().request(pb::GetPhotoRulesRequest {})).await?.into_inner();
    Ok(Json(PhotoRulesBody {
        min_per_product: r.min_per_product,
        max_per_product: r.max_per_product,
        max_bytes: r.max_bytes,
        max_per_upload: r.max_per_upload,
    }))
}

/// Resize input.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct PhotoQuery {
    /// Square size in pixels (SPEC §9: fit-in PNG, 100 by default when resizing, doubled
    /// under 100); absent for the stored image.
    pub size: Option<u32>,
}

/// A product image. Names are unguessable and images are public, as on a shop's pages, so
/// `<img>` tags load them without a token.
#[utoipa::path(get, path = "/products/photos/{store}/{file}", tag = "products",
    params(("store" = i64, Path), ("file" = String, Path), PhotoQuery),
    responses((status = 200, description = "the image", content_type = "image/png"), (status = 404, body = ErrorBody)))]
async fn photo_file(
    State(state): State<AppState>,
    Path((store, file)): Path<(i64, String)>,
    Query(q): Query<PhotoQuery>,
) -> ApiResult<axum::response::Response> {
    let r = state
        .products()
        .get_photo_file(
            state
                .system()
                .request(pb::GetPhotoFileRequest { name: format!("{store}/{file}"), size: q.size.unwrap_or(0) }),
        )
        .await?
        .into_inner();
    crate::uploads::serve(
        &state.files,
        r.key,
        &r.content_type,
        "public, max-age=31536000, immutable",
        "photo_not_found",
    )
    .await
}
