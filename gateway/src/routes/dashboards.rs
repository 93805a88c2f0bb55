//! The owner's dashboards (SPEC §2 Dashboards, §7 Order reports `order-summaries` and
//! `sold-item-summaries`, `customer-summaries`): a period's sales beside the period
//! before, per channel, over time, the orders' states now, the SKUs sold and the places the
//! orders went to, read from the reports service's daily totals. Owner only (SPEC §6).

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::orders::v1::OrderState;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{baht, enum_field, page_request, word, List, Query};

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
        .routes(routes!(sold_item_summaries))
        .routes(routes!(sold_item_summaries_updated))
        .routes(routes!(sold_item_summaries_total))
        .routes(routes!(sold_item_summaries_daily))
        .routes(routes!(sold_item_chart))
        .routes(routes!(sold_item_table))
        .routes(routes!(top_areas))
        .routes(routes!(customer_summaries))
        .routes(routes!(admin_performance))
        .routes(routes!(customer_summaries_updated))
}

/// Dashboards: the owner only.
pub(crate) const OWNER: Access = Access { roles: &["owner"], perms: &[] };

/// Which period.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(default, rename_all = "kebab-case")]
#[into_params(parameter_in = Query)]
pub struct SummaryQuery {
    /// daily, monthly (default), quarterly or yearly.
    pub period: Option<String>,
    /// Any day of the period, YYYY-MM-DD in Thailand's time (default today).
    pub date: Option<String>,
    /// Best-selling SKUs to list, 1 to 50 (default 10).
    pub top: Option<i32>,
}

/// A period and the one before it, as every dashboard's answer names them.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodBody {
    /// daily, monthly, quarterly or yearly.
    pub period: String,
    /// The period's first and last days, YYYY-MM-DD.
    pub date_from: String,
    pub date_to: String,
    /// The period before it.
    pub previous_from: String,
    pub previous_to: String,
}

/// The `PeriodBody` of a reports answer `$r` (its `from`, `to`, `previous_from` and
/// `previous_to` moved out) for the period named `$period`.
macro_rules! dates {
    ($period:expr, $r:ident) => {
        PeriodBody {
            period: $period,
            date_from: $r.from,
            date_to: $r.to,
            previous_from: $r.previous_from,
            previous_to: $r.previous_to,
        }
    };
}
pub(crate) use dates;

/// Sales over some days (baht). An order counts on the day it was placed; a cancelled one
/// also counts back on the day it was cancelled.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesTotalsBody {
    /// Orders placed.
    pub orders: i64,
    /// Orders cancelled.
    pub cancelled: i64,
    /// Units sold, less those cancelled.
    pub units: i64,
    /// What the goods sold for after discounts.
    pub net: String,
    /// What buyers pay, with shipping and VAT.
    pub total: String,
    /// The goods without VAT.
    pub net_ex_vat: String,
    /// Cost of the goods.
    pub cost: String,
    /// Net without VAT less cost.
    pub profit: String,
    /// Net per order placed.
    pub average: String,
    /// Shipping charged.
    pub shipping: String,
}

fn totals(t: Option<pb::SalesTotals>) -> SalesTotalsBody {
    let t = t.unwrap_or_default();
    SalesTotalsBody {
        orders: t.orders,
        cancelled: t.cancelled,
        units: t.units,
        net: baht(t.net),
        total: baht(t.total),
        net_ex_vat: baht(t.net_ex_vat),
        cost: baht(t.cost),
        profit: baht(t.profit),
        average: baht(t.average),
        shipping: baht(t.shipping),
    }
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
) -> ApiResult<(String, pb::GetSalesSummaryResponse)> {
    auth.require(OWNER)?;
    let period = enum_field::<pb::Period>("period", q.period.as_deref(), "validation.invalid")?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_sales_summary(auth.ctx().request(pb::GetSalesSummaryRequest {
            period,
            date: q.date.clone().unwrap_or_default(),
            top: q.top.unwrap_or(0),
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
    let (period, r) = summary(&state, &auth, &q).await?;
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

/// When the figures last changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct SummaryUpdatedBody {
    /// RFC 3339; empty when they never did.
    pub updated_at: String,
}

/// When the store's figures last changed (every dashboard's "last updated").
pub(crate) async fn updated(state: &AppState, auth: &StoreAuth) -> ApiResult<Json<SummaryUpdatedBody>> {
    auth.require(OWNER)?;
    let r = state
        .client(ReportsServiceClient::new)?
        .get_update_time(auth.ctx().request(pb::GetUpdateTimeRequest {}))
        .await?
        .into_inner();
    Ok(Json(SummaryUpdatedBody { updated_at: timestamp_to_rfc3339(r.update_time.as_ref()) }))
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
    let q = SummaryQuery { period: q.period, date: q.date, top: Some(1) };
    let (period, r) = summary(&state, &auth, &q).await?;
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
fn days_of(chart: SalesChartBody) -> (PeriodBody, Vec<(String, SalesTotalsBody)>, String) {
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

/// Which period (for the calls that list no best sellers).
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(default, rename_all = "kebab-case")]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// daily, monthly (default), quarterly or yearly.
    pub period: Option<String>,
    /// Any day of the period, YYYY-MM-DD in Thailand's time (default today).
    pub date: Option<String>,
}

impl PeriodQuery {
    pub(crate) fn period(&self) -> ApiResult<i32> {
        enum_field::<pb::Period>("period", self.period.as_deref(), "validation.invalid")
    }

    pub(crate) fn date(&self) -> String {
        self.date.clone().unwrap_or_default()
    }
}

pub(crate) fn period_word(period: i32) -> String {
    if period == 0 {
        "monthly".to_string()
    } else {
        word::<pb::Period>(period)
    }
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
    let summary_q = SummaryQuery { period: q.period.clone(), date: q.date.clone(), top: Some(1) };
    let (period, r) = summary(&state, &auth, &summary_q).await?;
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

/// The orders in one state now, and their net.
#[derive(Debug, Serialize, ToSchema)]
pub struct StateSalesBody {
    /// new, ready_to_fulfillment, shipped, closed, cancelled or failed.
    pub state: String,
    pub orders: i64,
    pub net: String,
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
        .map(|s| StateSalesBody { state: word::<OrderState>(s.state), orders: s.orders, net: baht(s.net) })
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

async fn chart(
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
        .get_sales_series(auth.ctx().request(pb::GetSalesSeriesRequest { period, date: q.date(), by_channel, daily }))
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
    let q = SoldItemQuery { period: q.period, date: q.date, limit: Some(1), ..Default::default() };
    let (period, r) = sold_items(&state, &auth, &q).await?;
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
    let (_, r) = sold_items(&state, &auth, &q).await?;
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
