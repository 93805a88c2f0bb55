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
use crate::wire::{baht, enum_field, enum_fields, kilograms, page_request, word, Body, Decimal, List, Path, Query};

mod edit;
mod list;
mod states;

use edit::*;
use states::*;

pub(crate) use list::moment;
pub(crate) use states::{results_body, within_selection, OrderResultsBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().merge(list::router()).merge(edit::router()).merge(states::router())
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
    /// The marketplace listing it was sold as (marketplace orders; `item:variation`). A line
    /// whose seller SKU matches none of ours has `sku_id` 0 and holds no stock.
    pub listing: String,
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
    /// What may be done to it in its state (the orders service's table): ready_to_fulfillment,
    /// ship, close, cancel, void, fail, edit, change_address. Rights are checked apart.
    pub allowed_actions: Vec<String>,
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
    /// The marketplace shop it came from (0 for orders made here), and that shop's name.
    pub store_channel_id: i64,
    pub channel_shop: String,
    /// Its marketplace ships it the platform's way (arranged there, never prepared, shipped or
    /// cancelled by hand here).
    pub platform_ships: bool,
    /// Where its buyers' returns stand: "" (none), open, received, refunded or closed.
    pub return_mark: String,
    /// Its buyers' returns, oldest first (one order only).
    pub returns: Vec<crate::routes::order_returns::OrderReturnBody>,
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
    /// The timeline, oldest first (one order only): its newest few hundred entries.
    pub events: Vec<OrderEventBody>,
    /// How many entries the whole timeline has (more than `events` when it was cut).
    pub events_total: i64,
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
        state: word::<pb::BillState>(b.state),
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
        state: word::<pb::OrderState>(o.state),
        allowed_actions: o.allowed_actions,
        payment_state: word::<pb::PaymentState>(o.payment_state),
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
                listing: i.listing,
            })
            .collect(),
        discount: OrderDiscountBody {
            value: match o.discount_type.as_str() {
                FIXED | PERCENT => baht(o.discount_value),
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
        store_channel_id: o.store_channel_id,
        channel_shop: o.channel_shop,
        platform_ships: o.platform_ships,
        return_mark: word::<pb::ReturnMark>(o.return_mark),
        returns: o.returns.into_iter().map(crate::routes::order_returns::return_body).collect(),
        bill_expire_at: when(o.bill_expire_at_ms),
        bills: o.bills.into_iter().map(bill_body).collect(),
        payments: o.payments.into_iter().map(crate::routes::order_payments::payment_body).collect(),
        stock_state: word::<pb::StockState>(o.stock_state),
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
        events_total: 0,
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
        state: word::<bo_proto::wms::v1::ParcelState>(p.state),
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
    body.events_total = r.events_total;
    body.events = r
        .events
        .into_iter()
        .map(|e| OrderEventBody {
            id: e.id,
            user_name: names.get(&e.user_id).cloned().unwrap_or_default(),
            action: e.action,
            from_state: word::<pb::OrderState>(e.from_state),
            to_state: word::<pb::OrderState>(e.to_state),
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
                    status: e.carrier_code,
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
