//! The order list: filters, counts per state, sums, channels, countries and limits.

use super::*;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        // GET and POST /orders: the list here, making an order in `edit`.
        .routes(routes!(list_orders, create_order))
        .routes(routes!(count_orders))
        .routes(routes!(order_net))
        .routes(routes!(order_channels))
        .routes(routes!(order_countries))
        .routes(routes!(order_limits))
}

/// Filters of the order list, counts and sums.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct OrderListQuery {
    /// Page number.
    pub page: Option<i64>,
    /// Page size (10 by default).
    pub limit: Option<i64>,
    /// States, snake case, comma separated (new, ready_to_fulfillment, shipped, closed,
    /// cancelled, failed).
    pub order_state: Option<String>,
    /// Channel code.
    pub channel: Option<String>,
    /// Made on or after this day (YYYY-MM-DD, Thailand's time) or moment (RFC 3339).
    pub date_from: Option<String>,
    /// Made on or before this day (YYYY-MM-DD) or before this moment (RFC 3339).
    pub date_to: Option<String>,
    /// unpaid, pending, paid, voided or cancelled.
    pub payment_state: Option<String>,
    /// Warehouse.
    pub warehouse_id: Option<i64>,
    /// stock_not_enough, address_incomplete, or any.
    pub problem: Option<String>,
    /// Part of the order number, reference, receiver's name or phone.
    pub search: Option<String>,
    /// Customer.
    pub customer_id: Option<i64>,
    /// Country shipped to (ISO alpha-2).
    pub country: Option<String>,
    /// Orders with buyers' returns: any, open, received, refunded or closed.
    pub returns: Option<String>,
}

/// A day (Thailand's time) or a moment, as unix ms; `end` takes the day's end.
pub(crate) fn moment(field: &str, text: &str, end: bool) -> ApiResult<i64> {
    let t = text.trim();
    if let Ok(at) = ::time::OffsetDateTime::parse(t, &::time::format_description::well_known::Rfc3339) {
        return Ok((at.unix_timestamp_nanos() / 1_000_000) as i64);
    }
    let format = ::time::macros::format_description!("[year]-[month]-[day]");
    let day = ::time::Date::parse(t, format).map_err(|_| ApiError::invalid_field(field, "validation.date"))?;
    let day = if end { day.next_day().unwrap_or(day) } else { day };
    let midnight = day.midnight().assume_offset(::time::macros::offset!(+7));
    Ok(midnight.unix_timestamp() * 1000)
}

impl OrderListQuery {
    /// The filter as the orders service takes it, its states, payment state and problem
    /// checked against the service's own lists.
    fn filter(&self, rules: &pb::GetRulesResponse) -> ApiResult<pb::OrderFilter> {
        let states =
            enum_fields::<pb::OrderState>("order-state", self.order_state.as_deref(), "validation.order_state")
                .map_err(|_| ApiError::invalid_field("order-state", "validation.order_state"))?;
        let payment_state =
            enum_field::<pb::PaymentState>("payment-state", self.payment_state.as_deref(), "validation.payment_state")?;
        if let Some(p) = self.problem.as_deref().filter(|p| !p.is_empty()) {
            if p != "any" && !rules.problems.iter().any(|s| s == p) {
                return Err(ApiError::invalid_field("problem", "validation.problem"));
            }
        }
        let returns = self.returns.as_deref().map(str::trim).unwrap_or_default().to_string();
        if !returns.is_empty() && returns != "any" && <pb::ReturnMark as bo_proto::Wire>::from_wire(&returns).is_none()
        {
            return Err(ApiError::invalid_field("returns", "validation.choice"));
        }
        let from_ms = match self.date_from.as_deref().filter(|s| !s.trim().is_empty()) {
            Some(t) => moment("date-from", t, false)?,
            None => 0,
        };
        let to_ms = match self.date_to.as_deref().filter(|s| !s.trim().is_empty()) {
            Some(t) => moment("date-to", t, !t.contains('T'))?,
            None => 0,
        };
        Ok(pb::OrderFilter {
            states,
            channel: self.channel.clone().unwrap_or_default(),
            from_ms,
            to_ms,
            payment_state,
            warehouse_id: self.warehouse_id.unwrap_or(0),
            problem: self.problem.clone().unwrap_or_default(),
            search: self.search.clone().unwrap_or_default(),
            customer_id: self.customer_id.unwrap_or(0),
            country: self.country.clone().unwrap_or_default(),
            returns,
        })
    }
}

/// Orders, newest first, filtered and paged.
#[utoipa::path(get, path = "/orders", tag = "orders", params(OrderListQuery),
    responses((status = 200, body = List<OrderBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn list_orders(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<List<OrderBody>>> {
    auth.require(READ)?;
    let filter = q.filter(&*state.order_rules().await?)?;
    let r = state
        .orders()
        .list_orders(
            auth.ctx()
                .request(pb::ListOrdersRequest { filter: Some(filter), page: Some(page_request(q.page, q.limit)) }),
        )
        .await?
        .into_inner();
    let costs = auth_can(&auth, COSTS);
    let names = HashMap::new();
    Ok(Json(List::new(r.orders.into_iter().map(|o| order_body(o, costs, &names)).collect(), r.page)))
}

/// Orders per state (the board's columns), with the list's other filters.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderCountBody {
    pub new: i64,
    pub ready_to_fulfillment: i64,
    pub shipped: i64,
    pub closed: i64,
    pub cancelled: i64,
    pub failed: i64,
    /// All of them.
    pub all: i64,
}

/// How many orders each column holds.
#[utoipa::path(get, path = "/orders/count", tag = "orders", params(OrderListQuery),
    responses((status = 200, body = OrderCountBody), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn count_orders(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<OrderCountBody>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .count_orders(
            auth.ctx().request(pb::CountOrdersRequest { filter: Some(q.filter(&*state.order_rules().await?)?) }),
        )
        .await?
        .into_inner();
    let n = |s: &str| r.counts.get(s).copied().unwrap_or(0);
    Ok(Json(OrderCountBody {
        new: n("new"),
        ready_to_fulfillment: n("ready_to_fulfillment"),
        shipped: n("shipped"),
        closed: n("closed"),
        cancelled: n("cancelled"),
        failed: n("failed"),
        all: r.total,
    }))
}

/// What the filtered orders come to.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderNetBody {
    pub orders: i64,
    /// Σ goods after discounts, baht.
    pub net: String,
    /// Σ totals, baht.
    pub total: String,
    /// Σ shipping charged, baht.
    pub shipping: String,
    /// Σ gross profit, baht (null without the right to see costs).
    pub profit: Option<String>,
}

/// The sums of the filtered orders.
#[utoipa::path(get, path = "/orders/net", tag = "orders", params(OrderListQuery),
    responses((status = 200, body = OrderNetBody), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn order_net(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<OrderNetBody>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .sum_orders(
            auth.ctx().request(pb::CountOrdersRequest { filter: Some(q.filter(&*state.order_rules().await?)?) }),
        )
        .await?
        .into_inner();
    Ok(Json(OrderNetBody {
        orders: r.count,
        net: baht(r.net),
        total: baht(r.total),
        shipping: baht(r.shipping),
        profit: auth_can(&auth, COSTS).then(|| baht(r.profit)),
    }))
}

/// A sales channel an order comes from.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderChannelBody {
    pub code: String,
    /// marketplace, social_commerce, website or open_api.
    pub kind: String,
    pub name_th: String,
    pub name_en: String,
}

/// The channels an order can come from (the marketplaces service's catalogue).
#[utoipa::path(get, path = "/orders/channels", tag = "orders",
    responses((status = 200, body = List<OrderChannelBody>)), security(("bearer" = [])))]
pub(super) async fn order_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<OrderChannelBody>>> {
    use bo_proto::marketplaces::v1 as mpb;
    auth.require(READ)?;
    let catalogue = state.sale_channels().await?;
    Ok(Json(List::all(
        catalogue
            .channels
            .iter()
            .map(|c| OrderChannelBody {
                code: word::<mpb::SaleChannel>(c.channel),
                kind: word::<mpb::ChannelKind>(c.kind),
                name_th: c.name_th.clone(),
                name_en: c.name_en.clone(),
            })
            .collect(),
    )))
}

/// A country orders ship to.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderCountryBody {
    /// ISO alpha-2.
    pub code: String,
    pub orders: i64,
}

/// The countries the filtered orders ship to, most orders first.
#[utoipa::path(get, path = "/orders/countries", tag = "orders", params(OrderListQuery),
    responses((status = 200, body = List<OrderCountryBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn order_countries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<List<OrderCountryBody>>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .count_countries(
            auth.ctx().request(pb::CountOrdersRequest { filter: Some(q.filter(&*state.order_rules().await?)?) }),
        )
        .await?
        .into_inner();
    Ok(Json(List::all(
        r.countries.into_iter().map(|c| OrderCountryBody { code: c.country, orders: c.orders }).collect(),
    )))
}

/// The order rules the app checks before it sends.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderLimitsBody {
    /// The most orders one bulk action takes.
    pub max_selection: i64,
    /// The most a warehouse bill's goods may come to, baht.
    pub bill_limit: String,
    /// The most lines of an order.
    pub max_items: i64,
    /// VAT, percent.
    pub vat_percent: String,
}

/// The selection limit and the bill limit.
#[utoipa::path(get, path = "/orders/limits", tag = "orders",
    responses((status = 200, body = OrderLimitsBody)), security(("bearer" = [])))]
pub(super) async fn order_limits(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<OrderLimitsBody>> {
    auth.require(READ)?;
    let rules = state.order_rules().await?;
    Ok(Json(OrderLimitsBody {
        max_selection: rules.max_selection,
        bill_limit: baht(rules.bill_limit),
        max_items: rules.max_items,
        vat_percent: baht(rules.vat_bp),
    }))
}
