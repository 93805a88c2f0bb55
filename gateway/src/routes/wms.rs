//! Warehouses (the stock ledger's screens arrive with the catalog).

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::wms::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;
use crate::wire::{List, Path};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_warehouses)).routes(routes!(store_warehouses))
}

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
            created_at: timestamp_to_rfc3339(w.create_time.as_ref()),
        }
    }
}

async fn warehouses(state: &AppState, auth: &StoreAuth) -> ApiResult<Json<List<WarehouseBody>>> {
    let r = state.wms().list_warehouses(auth.ctx().request(pb::ListWarehousesRequest {})).await?.into_inner();
    let n = r.warehouses.len() as i64;
    let data = r.warehouses.into_iter().map(WarehouseBody::from).collect();
    Ok(Json(List { data, total: n, limit: -1, page: 1, pages: 1 }))
}

/// The store's warehouses, the default first (every member may read them).
#[utoipa::path(get, path = "/wms/warehouses", tag = "wms",
    responses((status = 200, body = List<WarehouseBody>), (status = 401, body = ErrorBody)), security(("bearer" = [])))]
async fn list_warehouses(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<WarehouseBody>>> {
    warehouses(&state, &auth).await
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
