//! Where the orders went and who bought and sold them: the top places, new, returning and
//! guest customers, and the sales per employee.

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
use crate::wire::{baht, enum_field, word, Query};

use super::{dates, period_word, updated, PeriodBody, PeriodQuery, SummaryUpdatedBody, OWNER};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(top_areas))
        .routes(routes!(customer_summaries))
        .routes(routes!(admin_performance))
        .routes(routes!(customer_summaries_updated))
}

/// Which places.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(default, rename_all = "kebab-case")]
#[into_params(parameter_in = Query)]
pub struct AreaQuery {
    /// daily, monthly (default), quarterly or yearly.
    pub period: Option<String>,
    /// Any day of the period, YYYY-MM-DD in Thailand's time (default today).
    pub date: Option<String>,
    /// province (default), district, country or city.
    pub kind: Option<String>,
    /// How many places, 1 to 50 (default 10).
    pub top: Option<i32>,
}

/// What the places of a kind add up to in a period.
#[derive(Debug, Serialize, ToSchema)]
pub struct AreaTotalsBody {
    /// Places with orders.
    pub areas: i64,
    pub orders: i64,
    pub cancelled: i64,
    /// Net less what was cancelled.
    pub net: String,
}

/// One place's sales in the period, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct AreaRowBody {
    /// A province, a district, a country (ISO 3166 alpha-2) or a city.
    pub name: String,
    /// The place it lies in: a district's province, a city's country; empty otherwise.
    pub parent: String,
    pub orders: i64,
    pub cancelled: i64,
    /// Net less what was cancelled.
    pub net: String,
    /// The period before's orders.
    pub previous_orders: i64,
    /// The period before's net.
    pub previous_net: String,
}

/// Where a period's orders went.
#[derive(Debug, Serialize, ToSchema)]
pub struct TopAreasBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// province, district, country or city.
    pub kind: String,
    pub current: AreaTotalsBody,
    pub previous: AreaTotalsBody,
    /// Largest net first.
    pub areas: Vec<AreaRowBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

async fn areas(state: &AppState, auth: &StoreAuth, q: &AreaQuery) -> ApiResult<(String, pb::GetTopAreasResponse)> {
    auth.require(OWNER)?;
    let period = enum_field::<pb::Period>("period", q.period.as_deref(), "validation.invalid")?;
    let kind = enum_field::<pb::AreaKind>("kind", q.kind.as_deref(), "validation.invalid")?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_top_areas(auth.ctx().request(pb::GetTopAreasRequest {
            period,
            date: q.date.clone().unwrap_or_default(),
            kind,
            top: q.top.unwrap_or(0),
        }))
        .await?
        .into_inner();
    Ok((period_word(period), r))
}

fn area_totals(t: Option<pb::AreaTotals>) -> AreaTotalsBody {
    let t = t.unwrap_or_default();
    let f = t.figures.unwrap_or_default();
    AreaTotalsBody { areas: t.areas, orders: f.orders, cancelled: f.cancelled, net: baht(f.net) }
}

/// The places a period's orders went to, the top ones by net (the customer-area
/// dashboard): provinces, districts, countries or cities.
#[utoipa::path(get, path = "/order-reports/customer-summaries/locations/top-sales", tag = "reports", params(AreaQuery),
    responses((status = 200, body = TopAreasBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn top_areas(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<AreaQuery>,
) -> ApiResult<Json<TopAreasBody>> {
    let (period, r) = areas(&state, &auth, &q).await?;
    Ok(Json(TopAreasBody {
        dates: dates!(period, r),
        kind: word::<pb::AreaKind>(r.kind),
        current: area_totals(r.current),
        previous: area_totals(r.previous),
        areas: r
            .areas
            .into_iter()
            .map(|a| {
                let now = a.current.unwrap_or_default();
                let before = a.previous.unwrap_or_default();
                AreaRowBody {
                    name: a.name,
                    parent: a.parent,
                    orders: now.orders,
                    cancelled: now.cancelled,
                    net: baht(now.net),
                    previous_orders: before.orders,
                    previous_net: baht(before.net),
                }
            })
            .collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    }))
}

/// The orders of one kind of customer: placed, cancelled, and their net less what was
/// cancelled.
#[derive(Debug, Serialize, ToSchema, Default)]
pub struct CustomerCountBody {
    pub orders: i64,
    pub cancelled: i64,
    pub net: String,
}

/// One kind of customer in the period, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomerKindBody {
    #[serde(flatten)]
    pub current: CustomerCountBody,
    pub previous_orders: i64,
    pub previous_cancelled: i64,
    pub previous_net: String,
}

/// One day or month of the period.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomerPointBody {
    /// Its first day, YYYY-MM-DD.
    pub date: String,
    pub new_customer: CustomerCountBody,
    pub old_customer: CustomerCountBody,
    pub guest: CustomerCountBody,
}

/// Who placed a period's orders: new customers (each one's first order), returning
/// customers (their later orders) and guests (orders with no customer).
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomerSummaryBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// New customers: as many as their first orders.
    pub new_customer: CustomerKindBody,
    /// Returning customers' orders.
    pub old_customer: CustomerKindBody,
    /// Orders with no customer.
    pub guest: CustomerKindBody,
    /// day (daily, monthly, quarterly) or month (yearly).
    pub bucket: String,
    pub series: Vec<CustomerPointBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// The figures of each kind, in the contract's order (new, returning, guest).
fn customer_counts(kinds: &[pb::CustomerFigures]) -> [CustomerCountBody; 3] {
    let of = |k: pb::CustomerKind| {
        let f = kinds.iter().find(|c| c.kind == i32::from(k)).and_then(|c| c.figures).unwrap_or_default();
        CustomerCountBody { orders: f.orders, cancelled: f.cancelled, net: baht(f.net) }
    };
    [of(pb::CustomerKind::New), of(pb::CustomerKind::Returning), of(pb::CustomerKind::Guest)]
}

/// Who placed a period's orders (the customer dashboard): new, returning and guest, beside
/// the period before and over the period.
#[utoipa::path(get, path = "/order-reports/customer-summaries", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = CustomerSummaryBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn customer_summaries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<CustomerSummaryBody>> {
    auth.require(OWNER)?;
    let period = enum_field::<pb::Period>("period", q.period.as_deref(), "validation.invalid")?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_customer_summary(
            auth.ctx().request(pb::GetCustomerSummaryRequest { period, date: q.date.clone().unwrap_or_default() }),
        )
        .await?
        .into_inner();
    let [now_new, now_old, now_guest] = customer_counts(&r.current);
    let [was_new, was_old, was_guest] = customer_counts(&r.previous);
    let beside = |current: CustomerCountBody, before: CustomerCountBody| CustomerKindBody {
        current,
        previous_orders: before.orders,
        previous_cancelled: before.cancelled,
        previous_net: before.net,
    };
    Ok(Json(CustomerSummaryBody {
        new_customer: beside(now_new, was_new),
        old_customer: beside(now_old, was_old),
        guest: beside(now_guest, was_guest),
        bucket: word::<pb::Bucket>(r.bucket),
        series: r
            .series
            .into_iter()
            .map(|p| {
                let [new_customer, old_customer, guest] = customer_counts(&p.kinds);
                CustomerPointBody { date: p.start, new_customer, old_customer, guest }
            })
            .collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
        dates: dates!(period_word(period), r),
    }))
}

/// One member's sales in the period, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct StaffRowBody {
    /// The member (0: orders no person made, from a channel or the system).
    pub user_id: i64,
    /// Their name as the store's team lists them (empty for 0 or someone no longer there).
    pub name: String,
    pub orders: i64,
    pub cancelled: i64,
    /// Net less what was cancelled.
    pub net: String,
    pub previous_orders: i64,
    pub previous_net: String,
}

/// The sales per employee: who made the period's orders, and for how much.
#[derive(Debug, Serialize, ToSchema)]
pub struct StaffTableBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// Largest net first.
    pub staff: Vec<StaffRowBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// The sales per employee (owner only): the period's orders by the member who made them,
/// with their net, beside the period before.
#[utoipa::path(get, path = "/order-reports/admin-performance-summaries", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = StaffTableBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn admin_performance(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<StaffTableBody>> {
    auth.require(OWNER)?;
    let period = q.period()?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_staff_sales(auth.ctx().request(pb::GetStaffSalesRequest { period, date: q.date() }))
        .await?
        .into_inner();
    let names = crate::routes::receipts::member_names(&state, &auth).await?;
    Ok(Json(StaffTableBody {
        staff: r
            .staff
            .into_iter()
            .map(|s| {
                let now = s.current.unwrap_or_default();
                let before = s.previous.unwrap_or_default();
                StaffRowBody {
                    user_id: s.user_id,
                    name: names.get(&s.user_id).cloned().unwrap_or_default(),
                    orders: now.orders,
                    cancelled: now.cancelled,
                    net: baht(now.net),
                    previous_orders: before.orders,
                    previous_net: baht(before.net),
                }
            })
            .collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
        dates: dates!(period_word(period), r),
    }))
}

/// When the store's customer figures last changed.
#[utoipa::path(get, path = "/order-reports/customer-summaries/lastest-updated", tag = "reports",
    responses((status = 200, body = SummaryUpdatedBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn customer_summaries_updated(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<SummaryUpdatedBody>> {
    updated(&state, &auth).await
}
