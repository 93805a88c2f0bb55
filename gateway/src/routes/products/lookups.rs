//! Safety stock for every SKU, the catalogue's summaries, search by any part of a name or
//! code, units of measurement, and a SKU's stock movements.

use super::*;
use bo_proto::Wire;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(update_all_safety_stock))
        .routes(routes!(summaries))
        .routes(routes!(search_products))
        .routes(routes!(unit_of_measurements))
        .routes(routes!(moving_transactions))
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
pub(super) async fn update_all_safety_stock(
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
pub(super) async fn summaries(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<SummariesBody>> {
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
pub(super) async fn search_products(
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
            status: pb::ProductStatus::Active.into(),
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
                    .filter(|s| s.status == pb::ProductStatus::Active.wire())
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
pub(super) async fn unit_of_measurements(
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
pub(super) async fn moving_transactions(
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
            ..Default::default()
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
