//! Orders (SPEC §2 Orders, §3 Order, §4 Order state, §5, §6 `order.order.*`, §7 Orders, §8):
//! made, read, edited, moved one at a time or in bulk, their shipping address, and short
//! orders filled from what is available. Money travels as baht text ("199.50"); weights as
//! kilogram text. Costs and profit are shown only to those who may see costs (the owner and
//! whoever may read products, where costs are shown too).

use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_orders::domain as d;
use bo_proto::orders::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::routes::receipts::member_names;
use crate::state::AppState;
use crate::wire::{baht, kilograms, page_request, Body, Decimal, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_orders, create_order))
        .routes(routes!(count_orders))
        .routes(routes!(order_net))
        .routes(routes!(order_channels))
        .routes(routes!(order_countries))
        .routes(routes!(order_limits))
        .routes(routes!(get_order, update_order))
        .routes(routes!(change_order_state))
        .routes(routes!(bulk_ready_to_fulfillment))
        .routes(routes!(bulk_close))
        .routes(routes!(bulk_cancel))
        .routes(routes!(bulk_void))
        .routes(routes!(change_shipping_address))
        .routes(routes!(clear_shipping_address))
        .routes(routes!(renew_bill_expiry))
        .routes(routes!(handle_out_of_stock))
}

/// Reading orders.
pub(crate) const READ: Access = Access { roles: &[], perms: &[keys::ORDER_ORDER_READ] };
/// Making orders.
pub(crate) const CREATE: Access = Access { roles: &[], perms: &[keys::ORDER_ORDER_CREATE] };
/// Changing orders: their lines, address, state (prepare, close), parcels and shipping.
pub(crate) const EDIT: Access = Access { roles: &[], perms: &[keys::ORDER_ORDER_EDIT] };
/// Cancelling and voiding orders, and marking their fulfilment failed.
pub(crate) const CANCEL: Access = Access { roles: &[], perms: &[keys::ORDER_ORDER_CANCEL] };
/// Seeing costs and profit: the owner, or whoever may read products (costs show there).
pub(crate) const COSTS: Access = Access { roles: &["owner"], perms: &[keys::PRODUCT_SKU_READ] };

/// A shipping address.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default, Clone)]
#[serde(default)]
pub struct OrderAddressBody {
    pub name: String,
    /// 9 or 10 digits (6 to 15 abroad).
    pub tel: String,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    /// Province, or state abroad.
    pub state_province: String,
    pub postcode: String,
    pub email: String,
    /// ISO alpha-2 (TH when empty).
    pub country: String,
    /// City (abroad).
    pub city: String,
}

impl From<pb::Address> for OrderAddressBody {
    fn from(a: pb::Address) -> Self {
        OrderAddressBody {
            name: a.name,
            tel: a.tel,
            address: a.address,
            sub_district: a.sub_district,
            district: a.district,
            state_province: a.state_province,
            postcode: a.postcode,
            email: a.email,
            country: a.country,
            city: a.city,
        }
    }
}

impl OrderAddressBody {
    fn into_proto(self) -> pb::Address {
        pb::Address {
            name: self.name,
            tel: self.tel,
            address: self.address,
            sub_district: self.sub_district,
            district: self.district,
            state_province: self.state_province,
            postcode: self.postcode,
            email: self.email,
            country: self.country,
            city: self.city,
        }
    }
}

/// A line of an order.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderItemBody {
    pub id: i64,
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub product_code: String,
    pub sku_code: String,
    /// "สี: แดง / ไซซ์: M".
    pub variant: String,
    /// Baht.
    pub price: String,
    /// Baht (null without the right to see costs).
    pub cost: Option<String>,
    /// 6, 8 or 10 digits, or empty.
    pub hs_code: String,
    pub packing_options: Vec<String>,
    pub note: String,
    pub warehouse_id: i64,
    pub quantity: i64,
    /// One unit's weight, kg.
    pub weight: String,
    /// price × quantity, baht.
    pub line_total: String,
}

/// The discount.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderDiscountBody {
    /// fixed or percent ("" for none).
    pub r#type: String,
    /// Baht (fixed) or percent ("12.50").
    pub value: String,
    /// Baht taken off.
    pub amount: String,
}

/// What the goods cost and earn (for those who may see costs).
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderProfitBody {
    /// Σ cost × quantity, baht.
    pub cost_total: String,
    /// The goods without VAT, baht.
    pub net_ex_vat: String,
    /// Gross profit, baht.
    pub profit: String,
    /// Profit ÷ goods without VAT, percent with two decimals ("" when nothing is sold).
    pub margin: String,
}

/// A shipping bill (parcel) of an order.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderParcelBody {
    pub id: i64,
    pub warehouse_id: i64,
    /// kg.
    pub weight: String,
    /// cm.
    pub width: i64,
    pub length: i64,
    pub height: i64,
    pub packaging_code: String,
    /// Baht.
    pub shipping_fee: String,
    pub cod_fee: String,
    pub packing_fee: String,
    /// shipping + COD + packing, baht.
    pub total: String,
    /// Cash to collect, baht.
    pub cod_amount: String,
    pub tracking_no: String,
    /// pending or shipped.
    pub state: String,
    pub provider: String,
    pub shipped_at: Option<String>,
    pub printed_at: Option<String>,
    /// What the carrier said (detail only): newest first.
    pub tracking: Vec<OrderTrackingBody>,
    /// The carrier's latest word (accepted, in_transit, delivered, ...), "" when unknown.
    pub progress: String,
}

/// One word of a carrier on a parcel.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderTrackingBody {
    pub status: String,
    pub description: String,
    pub location: String,
    pub at: String,
}

/// One change in an order's life.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderEventBody {
    pub id: i64,
    pub action: String,
    pub from_state: String,
    pub to_state: String,
    pub user_id: i64,
    /// Who ("" for the system).
    pub user_name: String,
    pub detail: String,
    pub created_at: String,
}

/// An order (SPEC §3).
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderBody {
    pub id: i64,
    /// SO2569-000001.
    pub order_no: String,
    pub channel: String,
    pub reference: String,
    pub note: String,
    /// new, ready_to_fulfillment, shipped, closed, failed or cancelled.
    pub state: String,
    /// unpaid, pending, paid, voided or cancelled.
    pub payment_state: String,
    /// stock_not_enough, address_incomplete or "".
    pub problem: String,
    pub problems: Vec<String>,
    pub failure_cause: String,
    pub failure_reason: String,
    pub warehouse_id: i64,
    pub customer_id: i64,
    pub customer_address_id: i64,
    pub shipping_address: OrderAddressBody,
    pub shipping_address_changed: bool,
    pub items: Vec<OrderItemBody>,
    pub discount: OrderDiscountBody,
    pub vat_included: bool,
    /// Baht: Σ lines.
    pub subtotal: String,
    /// Baht: the goods after the discount.
    pub net: String,
    pub shipping_charge: String,
    pub shipping_charge_inter: String,
    pub shipping_total: String,
    pub additional_fee: String,
    pub vat_amount: String,
    /// What the buyer pays.
    pub total: String,
    /// Null without the right to see costs.
    pub profit: Option<OrderProfitBody>,
    pub logistic_store_channel_id: i64,
    pub shipping_name: String,
    pub shipping_provider: String,
    pub cod: bool,
    pub tracking_no: String,
    /// kg.
    pub estimated_weight: String,
    pub imported: bool,
    /// When its first active bill expires (none: never).
    pub bill_expire_at: Option<String>,
    /// Its bills, one per warehouse (one order only).
    pub bills: Vec<OrderBillBody>,
    /// Its payments, oldest first (one order only).
    pub payments: Vec<crate::routes::order_payments::OrderPaymentBody>,
    /// held, short, pending, releasing, released, committing or committed.
    pub stock_state: String,
    pub parcels: Vec<OrderParcelBody>,
    pub created_by: i64,
    /// Who made it (with the timeline: "" in a create's answer and in lists).
    pub created_by_name: String,
    /// Send it back with an edit so another's change is not overwritten.
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    pub ready_to_fulfillment_at: Option<String>,
    pub shipped_at: Option<String>,
    pub cancelled_at: Option<String>,
    pub closed_at: Option<String>,
    pub failed_at: Option<String>,
    pub voided_at: Option<String>,
    /// The timeline, oldest first (one order only).
    pub events: Vec<OrderEventBody>,
}

/// A warehouse's bill of an order (SPEC §4 Bill).
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderBillBody {
    pub id: i64,
    pub warehouse_id: i64,
    /// Its share of the order's total, baht.
    pub amount: String,
    /// active or expired.
    pub state: String,
    /// The store's method when it was made: no_expiry, by_day, by_time or next_day.
    pub expiry_type: String,
    /// cancel_order or keep_new.
    pub on_expiry: String,
    /// None: never.
    pub expires_at: Option<String>,
    pub expired_at: Option<String>,
    pub renewed_at: Option<String>,
    /// The unguessable token of its public link.
    pub token: String,
    pub created_at: String,
}

fn bill_body(b: pb::Bill) -> OrderBillBody {
    OrderBillBody {
        id: b.id,
        warehouse_id: b.warehouse_id,
        amount: baht(b.amount),
        state: b.state,
        expiry_type: b.expiry_type,
        on_expiry: b.on_expiry,
        expires_at: when(b.expires_at_ms),
        expired_at: when(b.expired_at_ms),
        renewed_at: when(b.renewed_at_ms),
        token: b.token,
        created_at: timestamp_to_rfc3339(b.create_time.as_ref()),
    }
}

fn when(ms: i64) -> Option<String> {
    (ms > 0).then(|| ms_to_rfc3339(ms))
}

fn margin(profit: i64, base: i64) -> String {
    if base <= 0 {
        return String::new();
    }
    // Hundredths of a percent, half away from zero.
    let n = i128::from(profit).abs() * 10_000;
    let d = i128::from(base);
    let q = (2 * n + d) / (2 * d);
    let sign = if profit < 0 && q != 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", q / 100, q % 100)
}

/// An order as the app shows it.
pub(crate) fn order_body(o: pb::Order, costs: bool, names: &HashMap<i64, String>) -> OrderBody {
    let t = o.totals.unwrap_or_default();
    let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
    OrderBody {
        id: o.id,
        order_no: o.order_no,
        channel: o.channel,
        reference: o.reference,
        note: o.note,
        state: o.state,
        payment_state: o.payment_state,
        problem: o.problem,
        problems: o.problems,
        failure_cause: o.failure_cause,
        failure_reason: o.failure_reason,
        warehouse_id: o.warehouse_id,
        customer_id: o.customer_id,
        customer_address_id: o.customer_address_id,
        shipping_address: o.shipping_address.unwrap_or_default().into(),
        shipping_address_changed: o.shipping_address_changed,
        items: o
            .items
            .into_iter()
            .map(|i| OrderItemBody {
                id: i.id,
                sku_id: i.sku_id,
                product_id: i.product_id,
                product_name: i.product_name,
                product_code: i.product_code,
                sku_code: i.sku_code,
                variant: i.variant,
                price: baht(i.price),
                cost: costs.then(|| baht(i.cost)),
                hs_code: i.hs_code,
                packing_options: i.packing_options,
                note: i.note,
                warehouse_id: i.warehouse_id,
                quantity: i.quantity,
                weight: kilograms(i.weight_g),
                line_total: baht(i.line_total),
            })
            .collect(),
        discount: OrderDiscountBody {
            value: match o.discount_type.as_str() {
                d::draft::FIXED => baht(o.discount_value),
                d::draft::PERCENT => baht(o.discount_value),
                _ => String::new(),
            },
            r#type: o.discount_type,
            amount: baht(t.discount_amount),
        },
        vat_included: o.vat_included,
        subtotal: baht(t.subtotal),
        net: baht(t.net),
        shipping_charge: baht(t.shipping_charge),
        shipping_charge_inter: baht(t.shipping_charge_inter),
        shipping_total: baht(t.shipping_total),
        additional_fee: baht(t.additional_fee),
        vat_amount: baht(t.vat_amount),
        total: baht(t.total),
        profit: costs.then(|| OrderProfitBody {
            cost_total: baht(t.cost_total),
            net_ex_vat: baht(t.net_ex_vat),
            profit: baht(t.profit),
            margin: margin(t.profit, t.net_ex_vat),
        }),
        logistic_store_channel_id: o.logistic_store_channel_id,
        shipping_name: o.shipping_name,
        shipping_provider: o.shipping_provider,
        cod: o.cod,
        tracking_no: o.tracking_no,
        estimated_weight: kilograms(o.estimated_weight_g),
        imported: o.imported,
        bill_expire_at: when(o.bill_expire_at_ms),
        bills: o.bills.into_iter().map(bill_body).collect(),
        payments: o.payments.into_iter().map(crate::routes::order_payments::payment_body).collect(),
        stock_state: o.stock_state,
        parcels: o.parcels.into_iter().map(parcel_body).collect(),
        created_by: o.created_by,
        created_by_name: name(o.created_by),
        version: o.version,
        created_at: timestamp_to_rfc3339(o.create_time.as_ref()),
        updated_at: timestamp_to_rfc3339(o.update_time.as_ref()),
        ready_to_fulfillment_at: when(o.ready_to_fulfillment_at_ms),
        shipped_at: when(o.shipped_at_ms),
        cancelled_at: when(o.cancelled_at_ms),
        closed_at: when(o.closed_at_ms),
        failed_at: when(o.failed_at_ms),
        voided_at: when(o.voided_at_ms),
        events: Vec::new(),
    }
}

pub(crate) fn parcel_body(p: pb::OrderParcel) -> OrderParcelBody {
    OrderParcelBody {
        id: p.id,
        warehouse_id: p.warehouse_id,
        weight: kilograms(p.weight_g),
        width: p.width_cm,
        length: p.length_cm,
        height: p.height_cm,
        packaging_code: p.packaging_code,
        total: baht(p.shipping_fee + p.cod_fee + p.packing_fee),
        shipping_fee: baht(p.shipping_fee),
        cod_fee: baht(p.cod_fee),
        packing_fee: baht(p.packing_fee),
        cod_amount: baht(p.cod_amount),
        tracking_no: p.tracking_no,
        state: p.state,
        provider: p.provider,
        shipped_at: when(p.shipped_at_ms),
        printed_at: when(p.printed_at_ms),
        tracking: Vec::new(),
        progress: String::new(),
    }
}

/// One order for its caller, with names, and (detail) the timeline and carriers' tracking.
pub(crate) async fn one_order(state: &AppState, auth: &StoreAuth, r: pb::OrderResponse) -> ApiResult<OrderBody> {
    // Names are the timeline's (a new order's answer carries none).
    let names = if r.events.is_empty() { HashMap::new() } else { member_names(state, auth).await? };
    let order = r.order.unwrap_or_default();
    let carriers: Vec<(String, String)> = order
        .parcels
        .iter()
        .map(|p| (if p.provider == "flash" { "flash" } else { "thaipost" }.to_string(), p.tracking_no.clone()))
        .collect();
    let mut body = order_body(order, auth_can(auth, COSTS), &names);
    body.events = r
        .events
        .into_iter()
        .map(|e| OrderEventBody {
            id: e.id,
            user_name: names.get(&e.user_id).cloned().unwrap_or_default(),
            action: e.action,
            from_state: e.from_state,
            to_state: e.to_state,
            user_id: e.user_id,
            detail: e.detail,
            created_at: timestamp_to_rfc3339(e.create_time.as_ref()),
        })
        .collect();
    for (p, (carrier, no)) in body.parcels.iter_mut().zip(carriers) {
        if no.is_empty() || p.state != "shipped" && p.provider != "flash" {
            continue;
        }
        let found = state
            .logistics()
            .get_shipment(auth.ctx().request(bo_proto::logistics::v1::GetShipmentRequest { carrier, tracking_no: no }))
            .await;
        if let Ok(s) = found {
            let s = s.into_inner().shipment.unwrap_or_default();
            p.progress = s.progress;
            let mut events: Vec<OrderTrackingBody> = s
                .events
                .into_iter()
                .map(|e| OrderTrackingBody {
                    status: e.status,
                    description: e.description,
                    location: e.location,
                    at: ms_to_rfc3339(e.at_ms),
                })
                .collect();
            events.sort_by(|a, b| b.at.cmp(&a.at));
            p.tracking = events;
        }
    }
    Ok(body)
}

/// Does the caller pass `access` (without acting on a replay)?
pub(crate) fn auth_can(auth: &StoreAuth, access: Access) -> bool {
    access.allows(&auth.permission, &auth.perms)
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
    fn filter(&self) -> ApiResult<pb::OrderFilter> {
        let states: Vec<String> = self
            .order_state
            .as_deref()
            .unwrap_or("")
            .split(',')
            .map(|s| s.trim().replace('-', "_"))
            .filter(|s| !s.is_empty())
            .collect();
        if let Some(bad) = states.iter().find(|s| !d::state::STATES.contains(&s.as_str())) {
            tracing::debug!(state = %bad, "an unknown order state");
            return Err(ApiError::invalid_field("order-state", "validation.order_state"));
        }
        if let Some(p) = self.payment_state.as_deref().filter(|p| !p.is_empty()) {
            if !d::payment::STATES.contains(&p) {
                return Err(ApiError::invalid_field("payment-state", "validation.payment_state"));
            }
        }
        if let Some(p) = self.problem.as_deref().filter(|p| !p.is_empty()) {
            if p != "any" && !d::problem::ALL.contains(&p) {
                return Err(ApiError::invalid_field("problem", "validation.problem"));
            }
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
            payment_state: self.payment_state.clone().unwrap_or_default(),
            warehouse_id: self.warehouse_id.unwrap_or(0),
            problem: self.problem.clone().unwrap_or_default(),
            search: self.search.clone().unwrap_or_default(),
            customer_id: self.customer_id.unwrap_or(0),
            country: self.country.clone().unwrap_or_default(),
        })
    }
}

/// Orders, newest first, filtered and paged.
#[utoipa::path(get, path = "/orders", tag = "orders", params(OrderListQuery),
    responses((status = 200, body = List<OrderBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn list_orders(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<List<OrderBody>>> {
    auth.require(READ)?;
    let filter = q.filter()?;
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
async fn count_orders(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<OrderCountBody>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .count_orders(auth.ctx().request(pb::CountOrdersRequest { filter: Some(q.filter()?) }))
        .await?
        .into_inner();
    let n = |s: &str| r.counts.get(s).copied().unwrap_or(0);
    Ok(Json(OrderCountBody {
        new: n(d::state::NEW),
        ready_to_fulfillment: n(d::state::READY),
        shipped: n(d::state::SHIPPED),
        closed: n(d::state::CLOSED),
        cancelled: n(d::state::CANCELLED),
        failed: n(d::state::FAILED),
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
async fn order_net(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<OrderNetBody>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .sum_orders(auth.ctx().request(pb::CountOrdersRequest { filter: Some(q.filter()?) }))
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

/// The channels an order can come from.
#[utoipa::path(get, path = "/orders/channels", tag = "orders",
    responses((status = 200, body = List<OrderChannelBody>)), security(("bearer" = [])))]
async fn order_channels(auth: StoreAuth) -> ApiResult<Json<List<OrderChannelBody>>> {
    auth.require(READ)?;
    Ok(Json(List::all(
        d::CHANNELS
            .iter()
            .map(|c| OrderChannelBody {
                code: c.code.into(),
                kind: c.kind.into(),
                name_th: c.name_th.into(),
                name_en: c.name_en.into(),
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
async fn order_countries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OrderListQuery>,
) -> ApiResult<Json<List<OrderCountryBody>>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .count_countries(auth.ctx().request(pb::CountOrdersRequest { filter: Some(q.filter()?) }))
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
async fn order_limits(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<OrderLimitsBody>> {
    auth.require(READ)?;
    Ok(Json(OrderLimitsBody {
        max_selection: state.order_selection_limit as i64,
        bill_limit: baht(d::money::BILL_LIMIT),
        max_items: d::draft::MAX_ITEMS as i64,
        vat_percent: baht(d::money::VAT_BP),
    }))
}

/// A line as sent.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderItemInput {
    pub sku_id: i64,
    pub quantity: i64,
    /// Baht; absent takes the SKU's price.
    pub price: Option<Decimal>,
    /// Absent or 0: the order's warehouse.
    pub warehouse_id: Option<i64>,
    pub packing_options: Vec<String>,
    pub note: String,
}

/// An order as sent (create, or a whole rewrite with `version`).
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderInput {
    /// Channel code (GET /orders/channels).
    pub channel: String,
    /// The channel's reference (unique per channel).
    pub reference: String,
    pub note: String,
    pub warehouse_id: i64,
    pub customer_id: i64,
    /// Ship to this address of the customer's book (instead of the typed one).
    pub customer_address_id: i64,
    pub shipping_address: OrderAddressBody,
    pub items: Vec<OrderItemInput>,
    /// fixed or percent ("" for none).
    pub discount_type: String,
    /// Baht (fixed) or percent (percent), at most two decimals.
    pub discount_value: Option<Decimal>,
    /// Prices include VAT (default true).
    pub vat_included: Option<bool>,
    /// Shipping channel (GET /logistics/store-channels).
    pub logistic_store_channel_id: i64,
    /// Baht; absent prices it with the channel.
    pub shipping_charge: Option<Decimal>,
    /// Baht.
    pub additional_fee: Option<Decimal>,
    /// Cash on delivery.
    pub cod: bool,
    /// The version read (edits only; 0 does not check).
    pub version: i64,
}

impl OrderInput {
    fn into_proto(self) -> ApiResult<pb::OrderDraft> {
        let mut errs = Vec::new();
        fn money(errs: &mut Vec<bo_kit::FieldError>, field: String, v: &Option<Decimal>) -> Option<i64> {
            let v = v.as_ref()?;
            let s = v.satang();
            if s.is_none() {
                errs.push(bo_kit::FieldError::new(field, "validation.price"));
            }
            s
        }
        let items: Vec<pb::ItemDraft> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| pb::ItemDraft {
                sku_id: it.sku_id,
                quantity: it.quantity,
                price: money(&mut errs, format!("items[{i}].price"), &it.price),
                warehouse_id: it.warehouse_id.unwrap_or(0),
                packing_options: it.packing_options.clone(),
                note: it.note.clone(),
            })
            .collect();
        let discount_value = if self.discount_type == d::draft::PERCENT {
            match &self.discount_value {
                None => 0,
                Some(v) => match v.satang() {
                    Some(bp) => bp,
                    None => {
                        errs.push(bo_kit::FieldError::new("discount_value", "validation.percent"));
                        0
                    }
                },
            }
        } else {
            money(&mut errs, "discount_value".into(), &self.discount_value).unwrap_or(0)
        };
        let shipping_charge = money(&mut errs, "shipping_charge".into(), &self.shipping_charge);
        let additional_fee = money(&mut errs, "additional_fee".into(), &self.additional_fee).unwrap_or(0);
        if !errs.is_empty() {
            return Err(bo_kit::Error::invalid(errs).into());
        }
        Ok(pb::OrderDraft {
            channel: self.channel,
            reference: self.reference,
            note: self.note,
            warehouse_id: self.warehouse_id,
            customer_id: self.customer_id,
            customer_address_id: self.customer_address_id,
            shipping_address: Some(self.shipping_address.into_proto()),
            items,
            discount_type: self.discount_type,
            discount_value,
            vat_included: self.vat_included.unwrap_or(true),
            logistic_store_channel_id: self.logistic_store_channel_id,
            shipping_charge,
            additional_fee,
            cod: self.cod,
            imported: false,
        })
    }
}

/// Makes an order. It holds its stock in its warehouse; when stock is short it is still
/// saved, as new with the problem stock_not_enough, and cannot be prepared until filled.
#[utoipa::path(post, path = "/orders", tag = "orders", request_body = OrderInput,
    responses((status = 201, body = OrderBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "duplicate_order_reference"),
        (status = 422, body = ErrorBody, description = "validation_failed, order_value_exceeds_limit")),
    security(("bearer" = [])))]
async fn create_order(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderInput>,
) -> ApiResult<(StatusCode, Json<OrderBody>)> {
    auth.require(CREATE)?;
    let draft = b.into_proto()?;
    let r = state
        .orders()
        .create_order(auth.ctx().request(pb::CreateOrderRequest { draft: Some(draft) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(one_order(&state, &auth, r).await?)))
}

/// One order with its lines, money, parcels, tracking and timeline.
#[utoipa::path(get, path = "/orders/{id}", tag = "orders", params(("id" = i64, Path)),
    responses((status = 200, body = OrderBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_order(State(state): State<AppState>, auth: StoreAuth, Path(id): Path<i64>) -> ApiResult<Json<OrderBody>> {
    auth.require(READ)?;
    let r =
        state.orders().get_order(auth.ctx().request(pb::GetOrderRequest { id, with_events: true })).await?.into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Rewrites a new order (its lines, address, discount, shipping). Its stock hold follows by
/// the difference; if a held order's new lines cannot be held, nothing changes and the
/// short lines are named (409 insufficient_stock).
#[utoipa::path(patch, path = "/orders/{id}", tag = "orders", params(("id" = i64, Path)), request_body = OrderInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable, order_changed, insufficient_stock, duplicate_order_reference"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_order(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<OrderInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let version = b.version;
    let draft = b.into_proto()?;
    let r = state
        .orders()
        .update_order(auth.ctx().request(pb::UpdateOrderRequest { id, draft: Some(draft), version }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// What a state action takes.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderStateInput {
    /// fail: fulfillment_failed or cancelled_by_warehouse.
    pub cause: String,
    /// Why (kept on the timeline).
    pub reason: String,
}

/// How one order of a bulk action fared.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderResultBody {
    pub id: i64,
    pub order_no: String,
    pub ok: bool,
    /// already_cancelled, already_ready_to_fulfillment, already_shipped, address_incomplete,
    /// insufficient_stock, incorrect_cod_account, not_shipped, order_busy, ...
    pub reason: String,
    /// Its state after.
    pub state: String,
}

/// A bulk action's answer: every order with its outcome.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderResultsBody {
    pub data: Vec<OrderResultBody>,
    /// Orders that moved.
    pub succeeded: i64,
    /// Orders that did not.
    pub failed: i64,
}

pub(crate) fn results_body(r: pb::ChangeStateResponse) -> OrderResultsBody {
    let data: Vec<OrderResultBody> = r
        .results
        .into_iter()
        .map(|x| OrderResultBody { id: x.id, order_no: x.order_no, ok: x.ok, reason: x.reason, state: x.state })
        .collect();
    let succeeded = data.iter().filter(|x| x.ok).count() as i64;
    OrderResultsBody { failed: data.len() as i64 - succeeded, succeeded, data }
}

fn access_of(action: d::state::Action) -> Access {
    use d::state::Action;
    match action {
        Action::Cancel | Action::Void | Action::Fail => CANCEL,
        _ => EDIT,
    }
}

async fn change(
    state: &AppState,
    auth: &StoreAuth,
    ids: Vec<i64>,
    action: d::state::Action,
    b: OrderStateInput,
) -> ApiResult<pb::ChangeStateResponse> {
    Ok(state
        .orders()
        .change_state(auth.ctx().request(pb::ChangeStateRequest {
            ids,
            action: action.name().into(),
            cause: b.cause,
            reason: b.reason,
        }))
        .await?
        .into_inner())
}

/// Moves one order: `ready-to-fulfillment` (prepare shipment), `close`, `cancel`, `void` or
/// `fail` (the action dash-separated). A refusal is 409 with its reason as the code.
#[utoipa::path(post, path = "/orders/{id}/{action}", tag = "orders",
    params(("id" = i64, Path), ("action" = String, Path, description = "ready-to-fulfillment, close, cancel, void or fail")),
    request_body = OrderStateInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the reason: already_cancelled, address_incomplete, insufficient_stock, ...")),
    security(("bearer" = [])))]
async fn change_order_state(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, action)): Path<(i64, String)>,
    Body(b): Body<OrderStateInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(d::state::Action::parse(&action).map_or(READ, access_of))?;
    let Some(act) = d::state::Action::parse(&action).filter(|a| *a != d::state::Action::Ship) else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "route_not_found"));
    };
    let r = change(&state, &auth, vec![id], act, b).await?;
    let first = r.results.into_iter().next().unwrap_or_default();
    if !first.ok {
        return Err(match first.reason.as_str() {
            "order_not_found" => ApiError::new(StatusCode::NOT_FOUND, "order_not_found"),
            reason => ApiError::new(StatusCode::CONFLICT, reason),
        });
    }
    let r =
        state.orders().get_order(auth.ctx().request(pb::GetOrderRequest { id, with_events: true })).await?.into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Orders for a bulk action.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderBulkInput {
    /// Orders (at most the selection limit: GET /orders/limits).
    pub ids: Vec<i64>,
    /// fail only.
    pub cause: String,
    /// Why (kept on each order's timeline).
    pub reason: String,
}

async fn bulk(
    state: &AppState,
    auth: &StoreAuth,
    b: OrderBulkInput,
    action: d::state::Action,
) -> ApiResult<Json<OrderResultsBody>> {
    if b.ids.len() > state.order_selection_limit {
        return Err(ApiError::invalid_field("ids", "order.too_many_selected"));
    }
    let r = change(state, auth, b.ids, action, OrderStateInput { cause: b.cause, reason: b.reason }).await?;
    Ok(Json(results_body(r)))
}

/// Prepares shipment of many orders: each moves or fails on its own with its reason
/// (already cancelled, already ready to fulfilment, incomplete address, insufficient stock,
/// incorrect COD account).
#[utoipa::path(post, path = "/orders/ready-to-fulfillment", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "order.too_many_selected")),
    security(("bearer" = [])))]
async fn bulk_ready_to_fulfillment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(EDIT)?;
    bulk(&state, &auth, b, d::state::Action::Prepare).await
}

/// Closes many shipped orders, each on its own.
#[utoipa::path(post, path = "/orders/close", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn bulk_close(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(EDIT)?;
    bulk(&state, &auth, b, d::state::Action::Close).await
}

/// Cancels many orders, each on its own; their stock comes back.
#[utoipa::path(post, path = "/orders/cancel", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn bulk_cancel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(CANCEL)?;
    bulk(&state, &auth, b, d::state::Action::Cancel).await
}

/// Voids many shipped or closed orders, each on its own.
#[utoipa::path(post, path = "/orders/void", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn bulk_void(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(CANCEL)?;
    bulk(&state, &auth, b, d::state::Action::Void).await
}

/// A new shipping address: typed, or an entry of the customer's book.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ShippingAddressInput {
    /// The typed address.
    pub shipping_address: OrderAddressBody,
    /// Or this entry of the customer's book.
    pub customer_address_id: i64,
    /// The customer whose book it is (0: the order's).
    pub customer_id: i64,
}

/// Changes an open order's shipping address; the order is flagged as changed.
#[utoipa::path(post, path = "/orders/{id}/shipping-address/change", tag = "orders", params(("id" = i64, Path)),
    request_body = ShippingAddressInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn change_shipping_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ShippingAddressInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .change_shipping_address(auth.ctx().request(pb::ChangeShippingAddressRequest {
            id,
            address: Some(b.shipping_address.into_proto()),
            customer_address_id: b.customer_address_id,
            customer_id: b.customer_id,
        }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Empties an open order's shipping address (it then cannot be prepared until one is set).
#[utoipa::path(post, path = "/orders/{id}/shipping-address/clear", tag = "orders", params(("id" = i64, Path)),
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable")),
    security(("bearer" = [])))]
async fn clear_shipping_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .clear_shipping_address(auth.ctx().request(pb::GetOrderRequest { id, with_events: true }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// How long to renew a bill for.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct BillExpiryInput {
    /// Days from now (1 to 30).
    pub days: Option<Decimal>,
    /// The warehouse whose bill (none: every bill of the order).
    pub warehouse_id: Option<i64>,
}

/// Renews a new order's bills by a number of days from now: each becomes active again and
/// expires then (SPEC §4 Bill).
#[utoipa::path(patch, path = "/orders/{id}/bill-expiry", tag = "orders", params(("id" = i64, Path)),
    request_body = BillExpiryInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "bill_order_not_new, bill_paid or bill_never_expires"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn renew_bill_expiry(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<BillExpiryInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let days = match &b.days {
        Some(d) => d.whole().ok_or_else(|| ApiError::invalid_field("days", "validation.bill_renew_days"))?,
        None => return Err(ApiError::invalid_field("days", "validation.required")),
    };
    let r = state
        .orders()
        .renew_bill(auth.ctx().request(pb::RenewBillRequest { id, days, warehouse_id: b.warehouse_id.unwrap_or(0) }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Which warehouse's short orders to fill.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OutOfStockInput {
    /// One warehouse at a time (SPEC §5).
    pub warehouse_id: i64,
}

/// What filling short orders did.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutOfStockBody {
    /// Orders that now hold their stock.
    pub filled: Vec<i64>,
    /// Orders still short.
    pub short: Vec<i64>,
}

/// Fills the short orders of one warehouse, oldest first, from what is available now: each
/// takes all its lines or stays short.
#[utoipa::path(post, path = "/orders/handle-out-of-stock", tag = "orders", request_body = OutOfStockInput,
    responses((status = 200, body = OutOfStockBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn handle_out_of_stock(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OutOfStockInput>,
) -> ApiResult<Json<OutOfStockBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .handle_out_of_stock(auth.ctx().request(pb::HandleOutOfStockRequest { warehouse_id: b.warehouse_id }))
        .await?
        .into_inner();
    Ok(Json(OutOfStockBody { filled: r.filled, short: r.short }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_percent_with_two_decimals() {
        assert_eq!(margin(2_500, 10_000), "25.00");
        assert_eq!(margin(1, 3), "33.33");
        assert_eq!(margin(2, 3), "66.67");
        assert_eq!(margin(-2, 3), "-66.67");
        assert_eq!(margin(5, 0), "");
    }

    #[test]
    fn days_are_read_in_thailand() {
        // 2026-11-25 00:00 in Bangkok is 2026-11-24 17:00 UTC.
        assert_eq!(moment("d", "2026-11-25", false).unwrap(), 1_795_539_600_000);
        assert_eq!(moment("d", "2026-11-25", true).unwrap(), 1_795_539_600_000 + 86_400_000);
        assert!(moment("d", "25/11/2026", false).is_err());
        assert_eq!(moment("d", "2026-11-25T00:00:00Z", false).unwrap(), 1_795_564_800_000);
    }
}
