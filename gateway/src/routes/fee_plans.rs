//! The warehouses' fee plans (SPEC §7 `GET wms/warehouse-stores/pricing-plans/
//! parcel-billing-by`): what each warehouse charges the store per goods-receipt line, unit
//! shelved, unit picked, order packed, box, material, additional service, parcel shipped and
//! COD collected, that the service-fee dashboard's figures are charged by. The owner reads
//! and sets them (SPEC §6); a change applies to what is charged from then on.

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_kit::FieldError;
use bo_proto::wms::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::routes::dashboards::OWNER;
use crate::state::AppState;
use crate::wire::{baht, Body, Decimal, Path};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(fee_plans)).routes(routes!(save_fee_plan))
}

/// A warehouse's fee plan: prices in baht, VAT and withholding tax excluded.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeePlanBody {
    pub warehouse_id: i64,
    pub warehouse_name: String,
    /// Per goods-receipt line approved.
    pub receipt_line: String,
    /// Per unit a goods receipt puts on the shelf.
    pub shelving: String,
    /// Per unit picked for an order.
    pub pick: String,
    /// Per order packed.
    pub pack: String,
    /// Per parcel in a catalogue box ("0.00": the box's catalogue price).
    pub packaging: String,
    /// Packaging material per parcel.
    pub material: String,
    /// Additional service per order.
    pub additional: String,
    /// Per parcel whose own shipping fee is not set.
    pub shipping: String,
    /// Percent of the cash collected, for parcels whose own COD fee is not set ("2.50").
    pub cod_percent: String,
    /// When it was last set (RFC 3339; empty when never).
    pub updated_at: String,
}

fn body(p: pb::FeePlan, warehouse_name: String) -> FeePlanBody {
    FeePlanBody {
        warehouse_id: p.warehouse_id,
        warehouse_name,
        receipt_line: baht(p.receipt_line),
        shelving: baht(p.shelving),
        pick: baht(p.pick),
        pack: baht(p.pack),
        packaging: baht(p.packaging),
        material: baht(p.material),
        additional: baht(p.additional),
        shipping: baht(p.shipping),
        // Basis points read as a percent with two decimals, as baht are read from satang.
        cod_percent: baht(p.cod_rate_bp),
        updated_at: timestamp_to_rfc3339(p.update_time.as_ref()),
    }
}

/// Every warehouse's plan.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeePlanList {
    /// One per warehouse of the store, in the order they were added.
    pub data: Vec<FeePlanBody>,
}

/// Every warehouse of the store with its fee plan (zeros where none was set).
#[utoipa::path(get, path = "/wms/warehouse-stores/pricing-plans/parcel-billing-by", tag = "wms",
    responses((status = 200, body = FeePlanList), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn fee_plans(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<FeePlanList>> {
    auth.require(OWNER)?;
    let plans = state.wms().get_fee_plans(auth.ctx().request(pb::GetFeePlansRequest {})).await?.into_inner().plans;
    let names = crate::routes::stock_reports::warehouse_names(&state, &auth).await?;
    Ok(Json(FeePlanList {
        data: plans
            .into_iter()
            .map(|p| {
                let name = names.get(&p.warehouse_id).cloned().unwrap_or_default();
                body(p, name)
            })
            .collect(),
    }))
}

/// A warehouse's new plan: baht with at most two decimals (0 to 100,000) and the COD percent
/// (0 to 100, at most two decimals).
#[derive(Debug, Deserialize, ToSchema)]
pub struct FeePlanInput {
    pub receipt_line: Decimal,
    pub shelving: Decimal,
    pub pick: Decimal,
    pub pack: Decimal,
    pub packaging: Decimal,
    pub material: Decimal,
    pub additional: Decimal,
    pub shipping: Decimal,
    pub cod_percent: Decimal,
}

impl FeePlanInput {
    /// The plan in satang and basis points; every unreadable field named at once.
    fn plan(&self, warehouse_id: i64) -> ApiResult<pb::FeePlan> {
        let mut errs = Vec::new();
        let mut read = |name: &str, v: &Decimal, code: &str| {
            v.satang().filter(|s| *s >= 0).unwrap_or_else(|| {
                errs.push(FieldError::new(name, code));
                0
            })
        };
        let plan = pb::FeePlan {
            warehouse_id,
            receipt_line: read("receipt_line", &self.receipt_line, "validation.fee"),
            shelving: read("shelving", &self.shelving, "validation.fee"),
            pick: read("pick", &self.pick, "validation.fee"),
            pack: read("pack", &self.pack, "validation.fee"),
            packaging: read("packaging", &self.packaging, "validation.fee"),
            material: read("material", &self.material, "validation.fee"),
            additional: read("additional", &self.additional, "validation.fee"),
            shipping: read("shipping", &self.shipping, "validation.fee"),
            cod_rate_bp: read("cod_percent", &self.cod_percent, "validation.percent"),
            ..Default::default()
        };
        if errs.is_empty() {
            Ok(plan)
        } else {
            Err(ApiError::from(bo_kit::Error::invalid(errs)))
        }
    }
}

/// Sets a warehouse's fee plan from now on (fees already charged keep their amounts).
#[utoipa::path(put, path = "/wms/warehouse-stores/pricing-plans/parcel-billing-by/{warehouse_id}", tag = "wms",
    params(("warehouse_id" = i64, Path)), request_body = FeePlanInput,
    responses((status = 200, body = FeePlanBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn save_fee_plan(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(warehouse_id): Path<i64>,
    Body(input): Body<FeePlanInput>,
) -> ApiResult<Json<FeePlanBody>> {
    auth.require(OWNER)?;
    let plan = input.plan(warehouse_id)?;
    let r = state.wms().save_fee_plan(auth.ctx().request(pb::SaveFeePlanRequest { plan: Some(plan) })).await?;
    let plan = r.into_inner().plan.unwrap_or_default();
    let names = crate::routes::stock_reports::warehouse_names(&state, &auth).await?;
    let name = names.get(&plan.warehouse_id).cloned().unwrap_or_default();
    Ok(Json(body(plan, name)))
}
