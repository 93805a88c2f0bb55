//! The order summaries: a period's sales in total, per channel, over time and by the orders'
//! states now (the overview, statistics, sales-channel and orders dashboards, the sales report).

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::orders::v1::OrderState;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;
use crate::wire::{baht, enum_field, word, Query};

use super::{
    dates, period_word, totals, updated, PeriodBody, PeriodQuery, SalesTotalsBody, SummaryQuery, SummaryUpdatedBody,
    OWNER,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(order_summaries))
        .routes(routes!(order_summaries_updated))
        .routes(routes!(order_summaries_total))
        .routes(routes!(order_summaries_daily))
        .routes(routes!(channel_table))
        .routes(routes!(state_table))
        .routes(routes!(sales_chart))
        .routes(routes!(channels_chart))
}

/// One channel's sales.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelSalesBody {
    /// The channel's code (as `GET /orders/channels` lists them).
    pub channel: String,
    pub totals: SalesTotalsBody,
}

/// One point of the sales over time.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesPointBody {
    /// Its first day, YYYY-MM-DD.
    pub start: String,
    pub totals: SalesTotalsBody,
}

/// A best-selling SKU.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductSalesBody {
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub sku_code: String,
    pub variant: String,
    /// Units sold, less those cancelled.
    pub total_qty: i64,
    /// What they sold for.
    pub total_net: String,
    /// Net without VAT less cost.
    pub profit: String,
}

/// How many of the period's orders are in a state now.
#[derive(Debug, Serialize, ToSchema)]
pub struct StateCountBody {
    /// new, ready_to_fulfillment, shipped, closed, cancelled or failed.
    pub state: String,
    pub orders: i64,
}

/// A period's sales beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderSummaryBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    pub current: SalesTotalsBody,
    pub previous: SalesTotalsBody,
    /// Per channel, largest net first.
    pub channels: Vec<ChannelSalesBody>,
    /// day or month: what one point of `series` covers.
    pub bucket: String,
    /// Every bucket of the period, in order.
    pub series: Vec<SalesPointBody>,
    /// The best-selling SKUs, by net.
    pub products: Vec<ProductSalesBody>,
    /// The period's orders by their state now.
    pub states: Vec<StateCountBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

async fn summary(
    state: &AppState,
    auth: &StoreAuth,
    q: &SummaryQuery,
    parts: pb::SummaryParts,
) -> ApiResult<(String, pb::GetSalesSummaryResponse)> {
    auth.require(OWNER)?;
    let period = enum_field::<pb::Period>("period", q.period.as_deref(), "validation.invalid")?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_sales_summary(auth.ctx().request(pb::GetSalesSummaryRequest {
            period,
            date: q.date.clone().unwrap_or_default(),
            top: q.top.unwrap_or(0),
            parts: parts.into(),
        }))
        .await?
        .into_inner();
    let period = if period == 0 { "monthly".to_string() } else { word::<pb::Period>(period) };
    Ok((period, r))
}

/// A period's sales: totals beside the period before, per channel, over time, the orders'
/// states and the best-selling SKUs (the overview dashboard).
#[utoipa::path(get, path = "/order-reports/order-summaries", tag = "reports", params(SummaryQuery),
    responses((status = 200, body = OrderSummaryBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn order_summaries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<SummaryQuery>,
) -> ApiResult<Json<OrderSummaryBody>> {
    let (period, r) = summary(&state, &auth, &q, pb::SummaryParts::Unspecified).await?;
    Ok(Json(OrderSummaryBody {
        dates: dates!(period, r),
        current: totals(r.current),
        previous: totals(r.previous),
        channels: r
            .channels
            .into_iter()
            .map(|c| ChannelSalesBody { channel: c.channel, totals: totals(c.totals) })
            .collect(),
        bucket: word::<pb::Bucket>(r.bucket),
        series: r.series.into_iter().map(|p| SalesPointBody { start: p.start, totals: totals(p.totals) }).collect(),
        products: r
            .top_products
            .into_iter()
            .map(|p| ProductSalesBody {
                sku_id: p.sku_id,
                product_id: p.product_id,
                product_name: p.product_name,
                sku_code: p.sku_code,
                variant: p.variant,
                total_qty: p.quantity,
                total_net: baht(p.net),
                profit: baht(p.profit),
            })
            .collect(),
        states: r
            .states
            .into_iter()
            .map(|s| StateCountBody { state: word::<OrderState>(s.state), orders: s.orders })
            .collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    }))
}

/// When the store's sales figures last changed.
#[utoipa::path(get, path = "/order-reports/order-summaries/lastest-updated", tag = "reports",
    responses((status = 200, body = SummaryUpdatedBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn order_summaries_updated(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<SummaryUpdatedBody>> {
    updated(&state, &auth).await
}

/// A period's sales in total, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderTotalBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    pub current: SalesTotalsBody,
    pub previous: SalesTotalsBody,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// A period's sales in total, beside the period before.
#[utoipa::path(get, path = "/order-reports/order-summaries/total", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = OrderTotalBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn order_summaries_total(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<OrderTotalBody>> {
    let q = SummaryQuery { period: q.period, date: q.date, top: None };
    let (period, r) = summary(&state, &auth, &q, pb::SummaryParts::Totals).await?;
    Ok(Json(OrderTotalBody {
        dates: dates!(period, r),
        current: totals(r.current),
        previous: totals(r.previous),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    }))
}

/// A period's sales day by day.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderDailyBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// Every day of the period, in order.
    pub days: Vec<SalesPointBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// The period's days, each one's sales in total (a chart's single "channel").
pub(super) fn days_of(chart: SalesChartBody) -> (PeriodBody, Vec<(String, SalesTotalsBody)>, String) {
    let days = chart
        .points
        .into_iter()
        .map(|p| (p.start, p.current.into_iter().next().map_or_else(|| totals(None), |c| c.totals)))
        .collect();
    (chart.dates, days, chart.updated_at)
}

/// A period's sales day by day (a year's 365 days).
#[utoipa::path(get, path = "/order-reports/order-summaries/daily", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = OrderDailyBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn order_summaries_daily(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<OrderDailyBody>> {
    let (dates, days, updated_at) = days_of(chart(&state, &auth, &q, false, true).await?);
    let days = days.into_iter().map(|(start, totals)| SalesPointBody { start, totals }).collect();
    Ok(Json(OrderDailyBody { dates, days, updated_at }))
}

/// A channel's sales in the period and in the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelRowBody {
    /// The channel's code (as `GET /orders/channels` lists them).
    pub channel: String,
    pub current: SalesTotalsBody,
    pub previous: SalesTotalsBody,
}

/// Every channel's sales in a period beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelTableBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// The period's totals.
    pub current: SalesTotalsBody,
    pub previous: SalesTotalsBody,
    /// Channels with sales in either period: the period's largest net first, then those
    /// that sold only before.
    pub channels: Vec<ChannelRowBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// Every channel's sales in a period beside the period before (the sales-channel
/// dashboard's table).
#[utoipa::path(get, path = "/order-reports/order-summaries/table-lists/channels", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = ChannelTableBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn channel_table(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<ChannelTableBody>> {
    let summary_q = SummaryQuery { period: q.period.clone(), date: q.date.clone(), top: None };
    let (period, r) = summary(&state, &auth, &summary_q, pb::SummaryParts::Channels).await?;
    let mut before: Vec<pb::ChannelSales> = r.previous_channels;
    let mut channels: Vec<ChannelRowBody> = r
        .channels
        .into_iter()
        .map(|c| {
            let previous = before.iter().position(|b| b.channel == c.channel).map(|i| before.remove(i).totals);
            ChannelRowBody { channel: c.channel, current: totals(c.totals), previous: totals(previous.flatten()) }
        })
        .collect();
    channels.extend(before.into_iter().map(|b| ChannelRowBody {
        channel: b.channel,
        current: totals(None),
        previous: totals(b.totals),
    }));
    Ok(Json(ChannelTableBody {
        dates: dates!(period, r),
        current: totals(r.current),
        previous: totals(r.previous),
        channels,
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    }))
}

/// The orders in one state now: their net, what their buyers pay, what of it is paid and
/// what is still owed (baht).
#[derive(Debug, Serialize, ToSchema)]
pub struct StateSalesBody {
    /// new, ready_to_fulfillment, shipped, closed, cancelled or failed.
    pub state: String,
    pub orders: i64,
    pub net: String,
    pub total: String,
    pub paid: String,
    /// total less paid.
    pub balance: String,
}

/// One day (or month) of the sales report: the orders placed then, by their state now.
#[derive(Debug, Serialize, ToSchema)]
pub struct StateRowBody {
    /// Its first day, YYYY-MM-DD.
    pub date: String,
    pub states: Vec<StateSalesBody>,
}

/// The sales report: a period's orders by the day they were placed and their state now,
/// with their net, beside the period before.
#[derive(Debug, Serialize, ToSchema)]
pub struct StateTableBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// day or month: what one row covers.
    pub bucket: String,
    /// The period's orders by their state now.
    pub current: Vec<StateSalesBody>,
    pub previous: Vec<StateSalesBody>,
    /// Every bucket of the period, in order.
    pub rows: Vec<StateRowBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

fn state_sales(list: Vec<pb::StateSales>) -> Vec<StateSalesBody> {
    list.into_iter()
        .map(|s| StateSalesBody {
            state: word::<OrderState>(s.state),
            orders: s.orders,
            net: baht(s.net),
            total: baht(s.total),
            paid: baht(s.paid),
            balance: baht(s.balance),
        })
        .collect()
}

/// The sales report (owner only): the period's orders by the day they were placed and their
/// state now (open, sent, closed, cancelled), with their net, beside the period before.
#[utoipa::path(get, path = "/order-reports/order-summaries/table-lists/states", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = StateTableBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn state_table(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<StateTableBody>> {
    auth.require(OWNER)?;
    let period = q.period()?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_state_sales(auth.ctx().request(pb::GetStateSalesRequest { period, date: q.date() }))
        .await?
        .into_inner();
    Ok(Json(StateTableBody {
        bucket: word::<pb::Bucket>(r.bucket),
        current: state_sales(r.current),
        previous: state_sales(r.previous),
        rows: r.points.into_iter().map(|p| StateRowBody { date: p.start, states: state_sales(p.states) }).collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
        dates: dates!(period_word(period), r),
    }))
}

/// One channel's sales at one point (an empty channel in a chart of the total).
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelPointBody {
    pub channel: String,
    pub totals: SalesTotalsBody,
}

/// One point of a period's sales beside the period before's.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeriesPointBody {
    /// Its first day, YYYY-MM-DD.
    pub start: String,
    /// The first day of the period before's point beside it (empty when that period is shorter).
    pub previous_start: String,
    /// One entry per channel of the chart, in the chart's order.
    pub current: Vec<ChannelPointBody>,
    pub previous: Vec<ChannelPointBody>,
}

/// A period's sales over time beside the period before's.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesChartBody {
    #[serde(flatten)]
    pub dates: PeriodBody,
    /// day or month: what one point covers.
    pub bucket: String,
    /// The chart's channels, the period's largest net first (one empty channel for the total).
    pub channels: Vec<String>,
    pub points: Vec<SeriesPointBody>,
    /// When the store's figures last changed (RFC 3339; empty when they never did).
    pub updated_at: String,
}

/// A period's sales as points, one series in total or one per channel; `daily`: a point per
/// day whatever the period, of the period's own days only (what `days_of` reads).
pub(super) async fn chart(
    state: &AppState,
    auth: &StoreAuth,
    q: &PeriodQuery,
    by_channel: bool,
    daily: bool,
) -> ApiResult<SalesChartBody> {
    auth.require(OWNER)?;
    let period = q.period()?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_sales_series(auth.ctx().request(pb::GetSalesSeriesRequest {
            period,
            date: q.date(),
            by_channel,
            daily,
            current_only: daily,
        }))
        .await?
        .into_inner();
    let entries = |list: Vec<pb::ChannelSales>| {
        list.into_iter().map(|c| ChannelPointBody { channel: c.channel, totals: totals(c.totals) }).collect()
    };
    Ok(SalesChartBody {
        dates: dates!(period_word(period), r),
        bucket: word::<pb::Bucket>(r.bucket),
        channels: r.channels,
        points: r
            .points
            .into_iter()
            .map(|p| SeriesPointBody {
                start: p.start,
                previous_start: p.previous_start,
                current: entries(p.current),
                previous: entries(p.previous),
            })
            .collect(),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    })
}

/// A period's sales over time, in total, beside the period before's (the statistics
/// dashboard).
#[utoipa::path(get, path = "/order-reports/order-summaries/charts/sales", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = SalesChartBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn sales_chart(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<SalesChartBody>> {
    Ok(Json(chart(&state, &auth, &q, false, false).await?))
}

/// A period's sales over time per channel, beside the period before's (the sales-channel
/// dashboard's chart).
#[utoipa::path(get, path = "/order-reports/order-summaries/charts/channels", tag = "reports", params(PeriodQuery),
    responses((status = 200, body = SalesChartBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn channels_chart(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Json<SalesChartBody>> {
    Ok(Json(chart(&state, &auth, &q, true, false).await?))
}
