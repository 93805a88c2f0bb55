//! The owner's dashboards (SPEC §2 Dashboards, §7 Order reports `order-summaries` and
//! `sold-item-summaries`, `customer-summaries`, `admin-performance-summaries`): a period's
//! sales beside the period before, per channel, over time, the orders' states now, the SKUs
//! sold, the places the orders went to, who bought and who sold, read from the reports
//! service's daily totals. Owner only (SPEC §6). What every dashboard shares is here: who may,
//! the period asked and answered, the sales' totals and when the figures last changed.

mod customers;
mod orders;
mod sold;

use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::auth::StoreAuth;
use crate::error::ApiResult;
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{baht, enum_field, word};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().merge(orders::router()).merge(sold::router()).merge(customers::router())
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
