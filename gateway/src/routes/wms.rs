//! Warehouses (list, add, rename, deactivate) and stock adjustments with the lots they took.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::wms::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{Body, List, PageQuery, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_warehouses, create_warehouse))
        .routes(routes!(update_warehouse))
        .routes(routes!(store_warehouses))
        .routes(routes!(list_goods_adjust, create_goods_adjust))
        .routes(routes!(list_goods_adjust_slash))
}

const ADJUST_READ: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_ADJUST_READ] };
const ADJUST_CREATE: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_ADJUST_CREATE] };
/// Adding and changing warehouses: the owner, or store.*.
const WAREHOUSE_EDIT: Access = Access { roles: &["owner"], perms: &[keys::STORE_ALL] };

/// A warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarehouseBody {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Short code.
    pub code: String,
    /// The store's default warehouse.
    pub is_default: bool,
    /// Takes new stock (a deactivated warehouse keeps its stock and history).
    pub active: bool,
    /// Created.
    pub created_at: String,
}

impl From<pb::Warehouse> for WarehouseBody {
    fn from(w: pb::Warehouse) -> Self {
        WarehouseBody {
            id: w.id,
            name: w.name,
            code: w.code,
            is_default: w.is_default,
            active: w.active,
            created_at: timestamp_to_rfc3339(w.create_time.as_ref()),
        }
    }
}

async fn warehouses(state: &AppState, auth: &StoreAuth) -> ApiResult<Json<List<WarehouseBody>>> {
    let r = state.wms().list_warehouses(auth.ctx().request(pb::ListWarehousesRequest {})).await?.into_inner();
    Ok(Json(List::all(r.warehouses.into_iter().map(WarehouseBody::from).collect())))
}

/// The store's warehouses, the default first (every member may read them).
#[utoipa::path(get, path = "/wms/warehouses", tag = "wms",
    responses((status = 200, body = List<WarehouseBody>), (status = 401, body = ErrorBody)), security(("bearer" = [])))]
async fn list_warehouses(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<WarehouseBody>>> {
    warehouses(&state, &auth).await
}

/// A new warehouse.
#[derive(Debug, serde::Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct WarehouseInput {
    /// Name (required, up to 100 characters, unique in the store).
    pub name: String,
    /// Short code: capital letters, digits and dashes (made up when empty).
    pub code: String,
}

/// Adds a warehouse (owner, or store.*).
#[utoipa::path(post, path = "/wms/warehouses", tag = "wms", request_body = WarehouseInput,
    responses((status = 201, body = WarehouseBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "warehouse_name_taken, warehouse_code_taken, warehouse_limit_reached"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_warehouse(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<WarehouseInput>,
) -> ApiResult<(StatusCode, Json<WarehouseBody>)> {
    auth.require(WAREHOUSE_EDIT)?;
    let r = state
        .wms()
        .create_warehouse(auth.ctx().request(pb::CreateWarehouseRequest { name: input.name, code: input.code }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.warehouse.unwrap_or_default().into())))
}

/// A warehouse's change.
#[derive(Debug, serde::Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct WarehousePatch {
    /// New name (absent keeps it).
    pub name: Option<String>,
    /// Takes new stock (absent keeps it; the default warehouse stays active).
    pub active: Option<bool>,
}

/// Renames, deactivates or activates a warehouse (owner, or store.*).
#[utoipa::path(patch, path = "/wms/warehouses/{id}", tag = "wms", params(("id" = i64, Path)), request_body = WarehousePatch,
    responses((status = 200, body = WarehouseBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "warehouse_default, warehouse_name_taken"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_warehouse(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<WarehousePatch>,
) -> ApiResult<Json<WarehouseBody>> {
    auth.require(WAREHOUSE_EDIT)?;
    if input.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
        return Err(crate::error::ApiError::invalid_field("name", "validation.required"));
    }
    let r = state
        .wms()
        .update_warehouse(auth.ctx().request(pb::UpdateWarehouseRequest {
            id,
            name: input.name.unwrap_or_default(),
            active: input.active,
        }))
        .await?
        .into_inner();
    Ok(Json(r.warehouse.unwrap_or_default().into()))
}

/// The same list, under the store.
#[utoipa::path(get, path = "/stores/{id}/store-warehouses", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, body = List<WarehouseBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn store_warehouses(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<List<WarehouseBody>>> {
    auth.same_store(id)?;
    warehouses(&state, &auth).await
}

/// A stock adjustment.
#[derive(Debug, Serialize, ToSchema)]
pub struct GoodsAdjustBody {
    /// Ledger movement id.
    pub id: i64,
    /// Warehouse id.
    pub warehouse_id: i64,
    /// SKU id.
    pub sku_id: i64,
    /// SKU code.
    pub sku_code: String,
    /// Units added (positive) or removed (negative).
    pub quantity: i64,
    /// Why.
    pub reason: String,
    /// The adjustment's reference.
    pub reference: String,
    /// Who adjusted.
    pub created_by: i64,
    /// Their name.
    pub created_by_name: String,
    /// The lots it took units from (or the lot it made).
    pub lots: Vec<crate::routes::transfers::LotTakeBody>,
    /// When.
    pub created_at: String,
}

/// A new adjustment.
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct GoodsAdjustInput {
    /// Warehouse id.
    pub warehouse_id: i64,
    /// SKU id.
    pub sku_id: i64,
    /// Units to add (positive) or remove (negative); never below what is reserved.
    pub quantity: i64,
    /// Why (required).
    #[serde(default)]
    pub reason: String,
}

async fn adjustments(state: &AppState, auth: &StoreAuth, page: PageQuery) -> ApiResult<Json<List<GoodsAdjustBody>>> {
    auth.require(ADJUST_READ)?;
    let r = state
        .wms()
        .list_movements(auth.ctx().request(pb::ListMovementsRequest {
            kind: "adjust".into(),
            page: Some(page.to_proto()),
            ..Default::default()
        }))
        .await?
        .into_inner();
    let mut ids: Vec<i64> = r.movements.iter().map(|m| m.sku_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let codes: std::collections::HashMap<i64, String> = if ids.is_empty() {
        Default::default()
    } else {
        state
            .products()
            .get_skus(auth.ctx().request(bo_proto::products::v1::GetSkusRequest { ids }))
            .await?
            .into_inner()
            .skus
            .into_iter()
            .map(|s| (s.id, s.code))
            .collect()
    };
    let names = crate::routes::receipts::member_names(state, auth).await?;
    let page = r.page;
    let data = r
        .movements
        .into_iter()
        .map(|m| GoodsAdjustBody {
            id: m.id,
            warehouse_id: m.warehouse_id,
            sku_id: m.sku_id,
            sku_code: codes.get(&m.sku_id).cloned().unwrap_or_default(),
            quantity: m.on_hand_delta,
            reason: m.reason,
            reference: m.reference,
            created_by: m.actor_user_id,
            created_by_name: names.get(&m.actor_user_id).cloned().unwrap_or_default(),
            lots: m.lots.into_iter().map(crate::routes::transfers::take_body).collect(),
            created_at: timestamp_to_rfc3339(m.create_time.as_ref()),
        })
        .collect();
    Ok(Json(List::new(data, page)))
}

/// Stock adjustments, newest first, paged.
#[utoipa::path(get, path = "/wms/goods-adjust", tag = "wms", params(PageQuery),
    responses((status = 200, body = List<GoodsAdjustBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_goods_adjust(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PageQuery>,
) -> ApiResult<Json<List<GoodsAdjustBody>>> {
    adjustments(&state, &auth, q).await
}

/// The same list at the address SPEC §7 gives (with a trailing slash).
#[utoipa::path(get, path = "/wms/goods-adjust/", tag = "wms", params(PageQuery),
    responses((status = 200, body = List<GoodsAdjustBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_goods_adjust_slash(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PageQuery>,
) -> ApiResult<Json<List<GoodsAdjustBody>>> {
    adjustments(&state, &auth, q).await
}

/// Adjusts stock of a SKU in a warehouse with a reason. With an `Idempotency-Key`, the
/// adjustment's reference is made of the user, the key and the request's fingerprint, so a
/// retry never adjusts twice and a different body under the same key is never swallowed.
#[utoipa::path(post, path = "/wms/goods-adjust", tag = "wms", request_body = GoodsAdjustInput,
    responses((status = 201, body = crate::routes::products::InventoryBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "stock_below_reserved"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_goods_adjust(
    State(state): State<AppState>,
    auth: StoreAuth,
    proceeding: Option<axum::Extension<crate::idempotency::Proceeding>>,
    Body(input): Body<GoodsAdjustInput>,
) -> ApiResult<(StatusCode, Json<crate::routes::products::InventoryBody>)> {
    auth.require(ADJUST_CREATE)?;
    // wms knows the store's SKUs itself and answers sku_not_found for any other.
    let reference = match proceeding {
        Some(axum::Extension(p)) => p.reference("adjust"),
        None => format!("adjust:{}", uuid::Uuid::now_v7()),
    };
    let r = state
        .wms()
        .adjust(auth.ctx().request(pb::AdjustRequest {
            reference,
            warehouse_id: input.warehouse_id,
            sku_id: input.sku_id,
            delta: input.quantity,
            reason: input.reason,
        }))
        .await?
        .into_inner();
    let l = r.level.unwrap_or_default();
    Ok((
        StatusCode::CREATED,
        Json(crate::routes::products::InventoryBody {
            warehouse_id: l.warehouse_id,
            available: l.available,
            preorder: l.preorder,
            quantity: l.on_hand,
            reserve: l.reserved,
        }),
    ))
}
