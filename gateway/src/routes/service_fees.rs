//! The service-fee dashboard (SPEC §2 Dashboards `/dashboard/service-fee`, §7 Order reports
//! `service-fee-summaries`): what the warehouses charged the store in a period beside the
//! period before (orders shipped and goods receipts approved, shelving, goods receipt,
//! picking, packing, packaging, packaging material, additional, shipping and COD fees, VAT
//! and withholding tax excluded), per warehouse and over time, from the reports service's
//! daily fees. Owner only (SPEC §6).

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::routes::dashboards::{dates, period_word, updated, PeriodBody, PeriodQuery, SummaryUpdatedBody, OWNER};
use crate::state::AppState;
use crate::wire::{baht, word, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(service_fee_summaries))
        .routes(routes!(service_fee_summaries_updated))
        .routes(routes!(service_fee_summaries_total))
        .routes(routes!(service_fee_summaries_daily))
        .routes(routes!(service_fee_table))
        .routes(routes!(service_fee_chart))
}

/// Fees in baht, VAT and withholding tax excluded, and the documents charged.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeeTotalsBody {
    /// Orders shipped.
    pub orders: i64,
    /// Goods receipts approved.
    pub receipts: i64,
    /// Putting received units on the shelf.
    pub shelving: String,
    /// Receiving goods-receipt lines.
    pub goods_receipt: String,
    /// Picking orders' units.
    pub picking: String,
    /// Packing orders.
    pub packing: String,
    /// Catalogue boxes.
    pub packaging: String,
    /// Packaging material.
    pub material: String,
    /// Additional services.
    pub additional: String,
    pub shipping: String,
    pub cod: String,
    /// Every fee added up.
    pub total: String,
}

fn fees(f: Option<pb::FeeFigures>) -> FeeTotalsBody {
    let f = f.unwrap_or_default();
    let a = f.amounts.unwrap_or_default();
    FeeTotalsBody {
        orders: a.orders,
        receipts: a.receipts,
        shelving: baht(a.shelving),
        goods_receipt: baht(a.goods_receipt),
        picking: baht(a.picking),
        packing: baht(a.packing),
        packaging: baht(a.packaging),
        material: baht(a.material),
        additional: baht(a.additional),
        shipping: baht(a.shipping),
        cod: baht(a.cod),
        total: baht(f.total),
    }
}

/// One point of a period's fees.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeePointBody {
    /// Its first day, YYYY-MM-DD.
    pub start: String,
    pub fees: FeeTotalsBody,
}

/// One warehouse's fees in the period and the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarehouseFeesBody {
    pub warehouse_id: i64,
    /// Its name now (empty for a warehouse no longer listed).
    pub warehouse_name: String,
    pub current: FeeTotalsBody,
    pub previous: FeeTotalsBody,
}

/// A period's fees beside the period before's: in total, over time and per warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceFeeSummaryBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    pub current: FeeTotalsBody,
    pub previous: FeeTotalsBody,
    /// day or month: what one point covers.
    pub bucket: String,
    /// Every bucket of the period, in order.
    pub points: Vec<FeePointBody>,
    /// Every warehouse charged in either period, the period's largest total first.
    pub warehouses: Vec<WarehouseFeesBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

async fn summary(state: &AppState, auth: &StoreAuth, q: &PeriodQuery, daily: bool) -> ApiResult<ServiceFeeSummaryBody> {
    auth.require(OWNER)?;
    let period = q.period()?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_fee_summary(auth.ctx().request(pb::GetFeeSummaryRequest { period, date: q.date(), daily }))
        .await?
        .into_inner();
    let names: HashMap<i64, String> = if r.warehouses.is_empty() {
        HashMap::new()
    } else {
        crate::routes::stock_reports::warehouse_names(state, auth).await?
    };
    Ok(ServiceFeeSummaryBody {
        current: fees(r.current),
        previous: fees(r.previous),
        bucket: word::<pb::Bucket>(r.bucket),
        points: r.points.into_iter().map(|p| FeePointBody { start: p.start, fees: fees(p.figures) }).collect(),
        warehouses: r
            .warehouses
            .into_iter()
            .map(|w| WarehouseFeesBody {
                warehouse_id: w.warehouse_id,
                warehouse_name: names.get(&w.warehouse_id).cloned().unwrap_or_default(),
                current: fees(w.current),
                previous: fees(w.previous),
            })
            .collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
        dates: dates!(period_word(period), r),
    })
}

/// A period's service fees beside the period before's, in total, over time and per
/// warehouse (the service-fee dashboard's one call).
#[utoipa::path(get, path = "/order-reports/service-fee-summaries", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = ServiceFeeSummaryBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn service_fee_summaries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<ServiceFeeSummaryBody>> {
    Ok(Json(summary(&state, &auth, &q, false).await?))
}

/// When the store's figures last changed.
#[utoipa::path(get, path = "/order-reports/service-fee-summaries/lastest-updated", tag = "reports",
    responses((status = 200, body = SummaryUpdatedBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn service_fee_summaries_updated(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<SummaryUpdatedBody>> {
    updated(&state, &auth).await
}

/// A period's service fees in total, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeeTotalBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    pub current: FeeTotalsBody,
    pub previous: FeeTotalsBody,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// A period's service fees in total, beside the period before.
#[utoipa::path(get, path = "/order-reports/service-fee-summaries/total", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = FeeTotalBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn service_fee_summaries_total(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<FeeTotalBody>> {
    let s = summary(&state, &auth, &q, false).await?;
    Ok(Json(FeeTotalBody { dates: s.dates, current: s.current, previous: s.previous, updated_at: s.updated_at }))
}

/// A period's service fees over some points.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeeChartBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// day or month: what one point covers.
    pub bucket: String,
    pub points: Vec<FeePointBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

impl From<ServiceFeeSummaryBody> for FeeChartBody {
    fn from(s: ServiceFeeSummaryBody) -> Self {
        FeeChartBody { dates: s.dates, bucket: s.bucket, points: s.points, updated_at: s.updated_at }
    }
}

/// A period's service fees day by day (a year's 365 days).
#[utoipa::path(get, path = "/order-reports/service-fee-summaries/daily", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = FeeChartBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn service_fee_summaries_daily(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<FeeChartBody>> {
    Ok(Json(summary(&state, &auth, &q, true).await?.into()))
}

/// A period's service fees over time: a point per day, or per month for a quarter or a year.
#[utoipa::path(get, path = "/order-reports/service-fee-summaries/charts/fees", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = FeeChartBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn service_fee_chart(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<FeeChartBody>> {
    Ok(Json(summary(&state, &auth, &q, false).await?.into()))
}

/// A period's service fees per warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeeTableBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// The period's largest total first.
    pub rows: Vec<WarehouseFeesBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// A period's service fees per warehouse, beside the period before.
#[utoipa::path(get, path = "/order-reports/service-fee-summaries/table-lists/warehouses", tag = "reports",
    params(PeriodQuery),
    responses((status = 200, body = FeeTableBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn service_fee_table(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<FeeTableBody>> {
    let s = summary(&state, &auth, &q, false).await?;
    Ok(Json(FeeTableBody { dates: s.dates, rows: s.warehouses, updated_at: s.updated_at }))
}
