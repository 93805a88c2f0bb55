//! The owner's dashboards (SPEC §2 Dashboards, §7 Order reports `order-summaries`): a
//! period's sales beside the period before, per channel, over time, the orders' states now
//! and the best-selling SKUs, read from the reports service's daily totals. Owner only
//! (SPEC §6).

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
use crate::wire::{baht, enum_field, word, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(order_summaries)).routes(routes!(order_summaries_updated))
}

/// Dashboards: the owner only.
const OWNER: Access = Access { roles: &["owner"], perms: &[] };

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
    pub period: String,
    /// The period's first and last days, YYYY-MM-DD.
    pub date_from: String,
    pub date_to: String,
    /// The period before it.
    pub previous_from: String,
    pub previous_to: String,
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
        period,
        date_from: r.from,
        date_to: r.to,
        previous_from: r.previous_from,
        previous_to: r.previous_to,
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

/// When the store's sales figures last changed (the dashboards' "last updated").
#[utoipa::path(get, path = "/order-reports/order-summaries/lastest-updated", tag = "reports",
    responses((status = 200, body = SummaryUpdatedBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn order_summaries_updated(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<SummaryUpdatedBody>> {
    let q = SummaryQuery { period: Some("daily".into()), top: Some(1), ..Default::default() };
    let (_, r) = summary(&state, &auth, &q).await?;
    Ok(Json(SummaryUpdatedBody { updated_at: timestamp_to_rfc3339(r.update_time.as_ref()) }))
}
