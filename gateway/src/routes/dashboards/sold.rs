//! The sold-item summaries: the SKUs a period sold, their totals, day by day and over time
//! (the products-sold dashboard).

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;
use crate::wire::{baht, enum_field, page_request, List, Query};

use super::orders::{chart, days_of, SalesChartBody};
use super::{dates, period_word, updated, PeriodBody, PeriodQuery, SummaryUpdatedBody, OWNER};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sold_item_summaries))
        .routes(routes!(sold_item_summaries_updated))
        .routes(routes!(sold_item_summaries_total))
        .routes(routes!(sold_item_summaries_daily))
        .routes(routes!(sold_item_chart))
        .routes(routes!(sold_item_table))
}

/// What a period's sold SKUs add up to.
#[derive(Debug, Serialize, ToSchema)]
pub struct SoldTotalsBody {
    /// SKUs sold.
    pub skus: i64,
    /// Units sold, less those cancelled.
    pub total_qty: i64,
    /// What they sold for.
    pub total_net: String,
    /// Net without VAT less cost.
    pub profit: String,
}

fn sold_totals(t: Option<pb::SoldTotals>) -> SoldTotalsBody {
    let t = t.unwrap_or_default();
    SoldTotalsBody { skus: t.skus, total_qty: t.quantity, total_net: baht(t.net), profit: baht(t.profit) }
}

/// The SKUs a period sold, in total, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct SoldItemSummaryBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    pub current: SoldTotalsBody,
    pub previous: SoldTotalsBody,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// Which sold SKUs, in which order.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(default, rename_all = "kebab-case")]
#[into_params(parameter_in = Query)]
pub struct SoldItemQuery {
    /// daily, monthly (default), quarterly or yearly.
    pub period: Option<String>,
    /// Any day of the period, YYYY-MM-DD in Thailand's time (default today).
    pub date: Option<String>,
    /// Words of the product's name or the SKU's code.
    pub search: Option<String>,
    /// net (default), quantity or profit: largest first.
    pub sort: Option<String>,
    /// Page number (clamped to 1..last).
    pub page: Option<i64>,
    /// Page size (10 by default).
    pub limit: Option<i64>,
}

async fn sold_items(
    state: &AppState,
    auth: &StoreAuth,
    q: &SoldItemQuery,
    totals_only: bool,
) -> ApiResult<(String, pb::ListSoldItemsResponse)> {
    auth.require(OWNER)?;
    let period = enum_field::<pb::Period>("period", q.period.as_deref(), "validation.invalid")?;
    let sort = enum_field::<pb::SoldItemSort>("sort", q.sort.as_deref(), "validation.invalid")?;
    let r = state
        .client(ReportsServiceClient::new)?
        .list_sold_items(auth.ctx().request(pb::ListSoldItemsRequest {
            period,
            date: q.date.clone().unwrap_or_default(),
            search: q.search.clone().unwrap_or_default(),
            sort,
            page: Some(page_request(q.page, q.limit)),
            totals_only,
        }))
        .await?
        .into_inner();
    Ok((period_word(period), r))
}

/// The SKUs a period sold, in total, beside the period before (the top of the
/// sold-products dashboard).
#[utoipa::path(get, path = "/order-reports/sold-item-summaries", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = SoldItemSummaryBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn sold_item_summaries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<SoldItemSummaryBody>> {
    let q = SoldItemQuery { period: q.period, date: q.date, ..Default::default() };
    let (period, r) = sold_items(&state, &auth, &q, true).await?;
    Ok(Json(SoldItemSummaryBody {
        dates: dates!(period, r),
        current: sold_totals(r.current),
        previous: sold_totals(r.previous),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    }))
}

/// When the store's sold-SKU figures last changed.
#[utoipa::path(get, path = "/order-reports/sold-item-summaries/lastest-updated", tag = "reports",
    responses((status = 200, body = SummaryUpdatedBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn sold_item_summaries_updated(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<SummaryUpdatedBody>> {
    updated(&state, &auth).await
}

/// The SKUs a period sold, in total, beside the period before.
#[utoipa::path(get, path = "/order-reports/sold-item-summaries/total", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = SoldItemSummaryBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn sold_item_summaries_total(
    state: State<AppState>,
    auth: StoreAuth,
    q: Query<PeriodQuery>,
) -> ApiResult<Json<SoldItemSummaryBody>> {
    sold_item_summaries(state, auth, q).await
}

/// The units and net the period's SKUs sold over time, beside the period before's (one
/// total series; the sold-products dashboard's chart).
#[utoipa::path(get, path = "/order-reports/sold-item-summaries/charts/sales", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = SalesChartBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn sold_item_chart(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<SalesChartBody>> {
    Ok(Json(chart(&state, &auth, &q, false, false).await?))
}

/// What the SKUs sold on one day add up to.
#[derive(Debug, Serialize, ToSchema)]
pub struct SoldDayBody {
    /// YYYY-MM-DD.
    pub date: String,
    /// Units sold, less those cancelled.
    pub total_qty: i64,
    /// What they sold for.
    pub total_net: String,
    /// Net without VAT less cost.
    pub profit: String,
}

/// The SKUs a period sold, day by day.
#[derive(Debug, Serialize, ToSchema)]
pub struct SoldDailyBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// Every day of the period, in order.
    pub days: Vec<SoldDayBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// What the SKUs a period sold add up to, day by day (a year's 365 days).
#[utoipa::path(get, path = "/order-reports/sold-item-summaries/daily", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = SoldDailyBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn sold_item_summaries_daily(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<SoldDailyBody>> {
    let (dates, days, updated_at) = days_of(chart(&state, &auth, &q, false, true).await?);
    let days = days
        .into_iter()
        .map(|(date, t)| SoldDayBody { date, total_qty: t.units, total_net: t.net, profit: t.profit })
        .collect();
    Ok(Json(SoldDailyBody { dates, days, updated_at }))
}

/// A SKU's sales in the period, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct SoldItemBody {
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub sku_code: String,
    pub variant: String,
    /// Units sold, less those cancelled.
    pub total_qty: i64,
    /// What they sold for.
    pub total_net: String,
    /// The net without VAT.
    pub net_ex_vat: String,
    /// What the goods cost.
    pub cost: String,
    /// Net without VAT less cost.
    pub profit: String,
    /// The period before's units.
    pub previous_qty: i64,
    /// The period before's net.
    pub previous_net: String,
    /// The period before's gross profit.
    pub previous_profit: String,
}

/// The SKUs a period sold, a page of them, searched and sorted, each beside the period
/// before (the sold-products dashboard's table).
#[utoipa::path(get, path = "/order-reports/sold-item-summaries/table-lists/skus", tag = "reports", params(SoldItemQuery),
    responses((status = 200, body = List<SoldItemBody>), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn sold_item_table(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<SoldItemQuery>,
) -> ApiResult<Json<List<SoldItemBody>>> {
    let (_, r) = sold_items(&state, &auth, &q, false).await?;
    let data = r
        .items
        .into_iter()
        .map(|i| {
            let now = i.current.unwrap_or_default();
            let before = i.previous.unwrap_or_default();
            SoldItemBody {
                sku_id: now.sku_id,
                product_id: now.product_id,
                product_name: now.product_name,
                sku_code: now.sku_code,
                variant: now.variant,
                total_qty: now.quantity,
                total_net: baht(now.net),
                net_ex_vat: baht(i.net_ex_vat),
                cost: baht(i.cost),
                profit: baht(now.profit),
                previous_qty: before.quantity,
                previous_net: baht(before.net),
                previous_profit: baht(before.profit),
            }
        })
        .collect();
    Ok(Json(List::new(data, r.page)))
}
