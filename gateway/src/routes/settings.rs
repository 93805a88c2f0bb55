//! Store settings (SPEC §2 Settings, §3, §5, §7, §9): units of measurement and the
//! store-wide safety stock. Any member of the store may read them; changing them takes the
//! owner role or the `store.*` permission.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::stores::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{Body, Decimal, List, PageQuery, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_store_units, create_store_unit))
        .routes(routes!(update_store_unit, delete_store_unit))
        .routes(routes!(create_safety_stock_history))
        .routes(routes!(get_latest_safety_stock))
        .routes(routes!(bill_expire_types))
        .routes(routes!(get_bill_expire, set_bill_expire))
}

/// Reading settings: any member of the store.
const SETTINGS_READ: Access = Access { roles: &[], perms: &[] };
/// Changing settings: owner role, or the store.* permission.
const SETTINGS_EDIT: Access = Access { roles: &["owner"], perms: &[keys::STORE_ALL] };

/// A number as sent (form values are text); the stores service reads it.
fn as_text(d: Option<Decimal>) -> Option<String> {
    d.map(|d| match d {
        Decimal::Text(s) => s,
        Decimal::Number(n) => n.to_string(),
    })
}

/// A unit of measurement: `quantity` of `base_unit` under a name.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnitBody {
    /// Id.
    pub id: i64,
    /// Name, unique in the store (e.g. "แพ็ค 6").
    pub name: String,
    /// How many base units it holds.
    pub quantity: i64,
    /// The base unit: piece, dozen, pack, carton, box or sack.
    pub base_unit: String,
    /// The quantity in the smallest unit it converts to (a dozen is 12 pieces).
    pub converted_quantity: i64,
    /// The unit of `converted_quantity`.
    pub converted_unit: String,
    /// Who created it.
    pub created_by: i64,
    /// Who last changed it.
    pub updated_by: i64,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::UnitOfMeasurement> for UnitBody {
    fn from(u: pb::UnitOfMeasurement) -> Self {
        UnitBody {
            id: u.id,
            name: u.name,
            quantity: u.quantity,
            base_unit: u.base_unit,
            converted_quantity: u.converted_quantity,
            converted_unit: u.converted_unit,
            created_by: u.created_by,
            updated_by: u.updated_by,
            created_at: timestamp_to_rfc3339(u.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(u.update_time.as_ref()),
        }
    }
}

/// A new unit of measurement.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct UnitInput {
    /// Name (required, unique in the store).
    pub name: String,
    /// How many base units (required, a whole number from 1).
    pub quantity: Option<Decimal>,
    /// The base unit (required): piece, dozen, pack, carton, box or sack.
    pub base_unit: String,
}

/// Unit changes: only the fields given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct UnitPatchInput {
    /// Name.
    pub name: Option<String>,
    /// How many base units.
    pub quantity: Option<Decimal>,
    /// The base unit.
    pub base_unit: Option<String>,
}

/// A store-wide safety-stock setting.
#[derive(Debug, Serialize, ToSchema)]
pub struct SafetyStockBody {
    /// Id.
    pub id: i64,
    /// Safety stock in units.
    pub amount: i64,
    /// Who set it.
    pub created_by: i64,
    /// When it was set.
    pub created_at: String,
}

impl From<pb::SafetyStockHistory> for SafetyStockBody {
    fn from(h: pb::SafetyStockHistory) -> Self {
        SafetyStockBody {
            id: h.id,
            amount: h.amount,
            created_by: h.created_by,
            created_at: timestamp_to_rfc3339(h.create_time.as_ref()),
        }
    }
}

/// A new safety-stock setting.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct SafetyStockInput {
    /// Safety stock in units (required, a whole number from 0).
    pub amount: Option<Decimal>,
}

/// The store's units of measurement, newest first, paged.
#[utoipa::path(get, path = "/stores/{id}/store-unit-of-measurements", tag = "settings", params(("id" = i64, Path), PageQuery),
    responses((status = 200, body = List<UnitBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_store_units(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<UnitBody>>> {
    auth.require_in(id, SETTINGS_READ)?;
    let r = state
        .stores()
        .list_units_of_measurement(
            auth.ctx().request(pb::ListUnitsOfMeasurementRequest { page: Some(page.to_proto()) }),
        )
        .await?
        .into_inner();
    Ok(Json(List::new(r.units.into_iter().map(UnitBody::from).collect(), r.page)))
}

/// Creates a unit of measurement (owner, or store.*).
#[utoipa::path(post, path = "/stores/{id}/store-unit-of-measurements", tag = "settings", params(("id" = i64, Path)),
    request_body = UnitInput,
    responses((status = 201, body = UnitBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "unit_name_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_store_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(u): Body<UnitInput>,
) -> ApiResult<(StatusCode, Json<UnitBody>)> {
    auth.require_in(id, SETTINGS_EDIT)?;
    let r = state
        .stores()
        .create_unit_of_measurement(auth.ctx().request(pb::CreateUnitOfMeasurementRequest {
            name: u.name,
            quantity: as_text(u.quantity).unwrap_or_default(),
            base_unit: u.base_unit,
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.unit.unwrap_or_default().into())))
}

/// Changes a unit of measurement (owner, or store.*).
#[utoipa::path(patch, path = "/stores/{id}/store-unit-of-measurements/{unit_id}", tag = "settings",
    params(("id" = i64, Path), ("unit_id" = i64, Path)), request_body = UnitPatchInput,
    responses((status = 200, body = UnitBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "unit_name_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_store_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, unit_id)): Path<(i64, i64)>,
    Body(p): Body<UnitPatchInput>,
) -> ApiResult<Json<UnitBody>> {
    auth.require_in(id, SETTINGS_EDIT)?;
    let r = state
        .stores()
        .update_unit_of_measurement(auth.ctx().request(pb::UpdateUnitOfMeasurementRequest {
            id: unit_id,
            name: p.name,
            quantity: as_text(p.quantity),
            base_unit: p.base_unit,
        }))
        .await?
        .into_inner();
    Ok(Json(r.unit.unwrap_or_default().into()))
}

/// Deletes a unit of measurement (owner, or store.*).
#[utoipa::path(delete, path = "/stores/{id}/store-unit-of-measurements/{unit_id}", tag = "settings",
    params(("id" = i64, Path), ("unit_id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn delete_store_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, unit_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, SETTINGS_EDIT)?;
    state
        .stores()
        .delete_unit_of_measurement(auth.ctx().request(pb::DeleteUnitOfMeasurementRequest { id: unit_id }))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Records a new store-wide safety stock for the token's store (owner, or store.*). Applying
/// it to every SKU is the products service's `POST /products/sku/update-all-safety-stock`.
#[utoipa::path(post, path = "/stores/store-safety-stock-histories", tag = "settings", request_body = SafetyStockInput,
    responses((status = 201, body = SafetyStockBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_safety_stock_history(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<SafetyStockInput>,
) -> ApiResult<(StatusCode, Json<SafetyStockBody>)> {
    auth.require(SETTINGS_EDIT)?;
    let r = state
        .stores()
        .create_safety_stock_history(
            auth.ctx()
                .request(pb::CreateSafetyStockHistoryRequest { amount: as_text(input.amount).unwrap_or_default() }),
        )
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.history.unwrap_or_default().into())))
}

/// The store's newest safety-stock setting ("lastest" is the contract's spelling).
#[utoipa::path(get, path = "/stores/{id}/store-safety-stock-histories/lastest", tag = "settings",
    params(("id" = i64, Path)),
    responses((status = 200, body = SafetyStockBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "safety_stock_not_set")),
    security(("bearer" = [])))]
async fn get_latest_safety_stock(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<SafetyStockBody>> {
    auth.require_in(id, SETTINGS_READ)?;
    let r = state
        .stores()
        .get_latest_safety_stock(auth.ctx().request(pb::GetLatestSafetyStockRequest {}))
        .await?
        .into_inner();
    Ok(Json(r.history.unwrap_or_default().into()))
}

/// The bill expiry methods and the actions on expiry, in the order the screen lists them.
#[derive(Debug, Serialize, ToSchema)]
pub struct BillExpireTypesBody {
    /// no_expiry, by_day, by_time, next_day (24 hours after the bill is made).
    pub types: Vec<String>,
    /// cancel_order (its stock is released) or keep_new.
    pub actions: Vec<String>,
    /// Most days by_day allows.
    pub max_days: i64,
    /// Most hours by_time allows.
    pub max_hours: i64,
}

/// The bill expiry methods (SPEC §9).
#[utoipa::path(get, path = "/stores/bill-expire/types", tag = "settings",
    responses((status = 200, body = BillExpireTypesBody)), security(("bearer" = [])))]
async fn bill_expire_types(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<BillExpireTypesBody>> {
    auth.require(SETTINGS_READ)?;
    let rules = state.store_rules().await?;
    Ok(Json(BillExpireTypesBody {
        types: rules.bill_expiry_types.clone(),
        actions: rules.bill_expiry_actions.clone(),
        max_days: rules.bill_expiry_max_days,
        max_hours: rules.bill_expiry_max_hours,
    }))
}

/// A bill expiry setting.
#[derive(Debug, Serialize, ToSchema)]
pub struct BillExpireBody {
    /// Id (0: the store has not chosen; bills never expire).
    pub id: i64,
    /// no_expiry, by_day, by_time or next_day.
    pub expiry_type: String,
    /// Days, for by_day.
    pub days: i64,
    /// Hours, for by_time.
    pub hours: i64,
    /// Minutes, for by_time.
    pub minutes: i64,
    /// cancel_order or keep_new.
    pub on_expiry: String,
    /// Who chose it.
    pub created_by: i64,
    /// From when it applies (empty for the default).
    pub started_at: String,
}

impl From<pb::BillExpirySetting> for BillExpireBody {
    fn from(s: pb::BillExpirySetting) -> Self {
        BillExpireBody {
            id: s.id,
            expiry_type: s.expiry_type,
            days: s.days,
            hours: s.hours,
            minutes: s.minutes,
            on_expiry: s.on_expiry,
            created_by: s.created_by,
            started_at: if s.id == 0 { String::new() } else { timestamp_to_rfc3339(s.start_time.as_ref()) },
        }
    }
}

/// The current setting and the earlier ones.
#[derive(Debug, Serialize, ToSchema)]
pub struct BillExpireSettingsBody {
    /// The setting for bills made now.
    pub current: BillExpireBody,
    /// Every setting, newest first (at most 20): each applied to the bills made while it held.
    pub history: Vec<BillExpireBody>,
}

/// The store's bill expiry: the setting for bills made now, and the earlier ones.
#[utoipa::path(get, path = "/stores/settings/bill-expire", tag = "settings",
    responses((status = 200, body = BillExpireSettingsBody)), security(("bearer" = [])))]
async fn get_bill_expire(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<BillExpireSettingsBody>> {
    auth.require(SETTINGS_READ)?;
    let r = state
        .stores()
        .get_bill_expiry(auth.ctx().request(pb::GetBillExpiryRequest { at_ms: 0, with_history: true }))
        .await?
        .into_inner();
    Ok(Json(BillExpireSettingsBody {
        current: r.setting.unwrap_or_default().into(),
        history: r.history.into_iter().map(BillExpireBody::from).collect(),
    }))
}

/// A new bill expiry setting.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct BillExpireInput {
    /// no_expiry, by_day, by_time or next_day.
    pub expiry_type: String,
    /// Days, for by_day (1 to 30).
    pub days: Option<Decimal>,
    /// Hours, for by_time (0 to 72).
    pub hours: Option<Decimal>,
    /// Minutes, for by_time (0 to 59).
    pub minutes: Option<Decimal>,
    /// cancel_order or keep_new.
    pub on_expiry: String,
}

/// A whole number given as a number or text; `None` reads as 0, anything else is refused on
/// its field.
fn whole(field: &str, d: Option<Decimal>) -> Result<i64, crate::error::ApiError> {
    match d {
        None => Ok(0),
        Some(Decimal::Text(t)) if t.trim().is_empty() => Ok(0),
        Some(d) => d.whole().ok_or_else(|| crate::error::ApiError::invalid_field(field, "validation.quantity")),
    }
}

/// Chooses the bill expiry for bills made from now on (owner, or store.*); bills made before
/// keep theirs.
#[utoipa::path(post, path = "/stores/settings/bill-expire", tag = "settings", request_body = BillExpireInput,
    responses((status = 201, body = BillExpireBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_bill_expire(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<BillExpireInput>,
) -> ApiResult<(StatusCode, Json<BillExpireBody>)> {
    auth.require(SETTINGS_EDIT)?;
    let r = state
        .stores()
        .set_bill_expiry(auth.ctx().request(pb::SetBillExpiryRequest {
            expiry_type: input.expiry_type,
            days: whole("days", input.days)?,
            hours: whole("hours", input.hours)?,
            minutes: whole("minutes", input.minutes)?,
            on_expiry: input.on_expiry,
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.setting.unwrap_or_default().into())))
}
