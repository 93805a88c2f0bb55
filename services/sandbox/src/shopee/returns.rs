//! Buyers' returns in the Shopee sandbox: `get_return_list` (paged by `page_no` from 0 and
//! `page_size` up to 100, over `update_time_from`/`update_time_to` at most 15 days apart,
//! `more` while more wait; the list carries no parcel status) and `get_return_detail`, which
//! adds where the return parcel is (`reverse_logistic_status`). Amounts are numbers in baht,
//! as Shopee writes them.

use std::collections::HashMap;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use serde_json::{json, Value};

use super::{check, ok, refuse, Answer, Inner, ShopeeSandbox};
use crate::{Return, Shared};

/// The longest window of one list, seconds.
const WINDOW_S: i64 = 15 * 24 * 3600;

/// A return as Shopee lists it (with the parcel's status when `detail`).
fn item(r: &Return, detail: bool) -> Value {
    let items: Vec<Value> = r
        .lines
        .iter()
        .map(|l| {
            json!({ "item_id": l.item_id.parse::<i64>().unwrap_or(0), "model_id": l.model_id.parse::<i64>().unwrap_or(0),
                "name": l.name, "images": [], "amount": l.quantity, "item_price": crate::satang(&l.paid_price) as f64 / 100.0,
                "is_add_on_deal": false, "is_main_item": false, "add_on_deal_id": 0, "item_sku": "", "variation_sku": l.seller_sku })
        })
        .collect();
    let mut v = json!({ "return_sn": r.id, "order_sn": r.order_id, "status": r.status, "reason": r.reason,
        "text_reason": "", "image": [], "refund_amount": crate::satang(&r.refund) as f64 / 100.0, "currency": "THB",
        "amount_before_discount": crate::satang(&r.refund) as f64 / 100.0, "create_time": r.created_at,
        "update_time": r.updated_at, "due_date": r.updated_at + 3 * 24 * 3600, "tracking_number": r.tracking,
        "needs_logistics": !r.refund_only, "return_solution": i64::from(r.refund_only), "item": items,
        "negotiation_status": "TERMINATED", "return_refund_type": "RRAOC", "return_refund_request_type": 0,
        "validation_type": "seller_validation" });
    if detail {
        v["reverse_logistic_status"] = json!(r.logistics);
        v["logistics_status"] = json!(r.logistics);
    }
    v
}

impl ShopeeSandbox {
    /// Puts a buyer's return of an order of `shop_id` (or replaces it).
    pub fn put_return(&self, shop_id: i64, r: Return) {
        self.state.lock().shops.entry(shop_id).or_default().returns.insert(r.id.clone(), r);
    }

    /// Moves a return to `status`, its parcel to `logistics` (a reverse logistics status).
    pub fn move_return(&self, shop_id: i64, return_sn: &str, status: &str, logistics: &str) {
        if let Some(r) = self.state.lock().shops.get_mut(&shop_id).and_then(|s| s.returns.get_mut(return_sn)) {
            r.moved(status, logistics);
        }
    }

    /// How many return calls were taken (lists and details).
    pub fn return_calls(&self) -> u64 {
        self.state.lock().return_calls
    }
}

pub(super) async fn return_list(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/returns/get_return_list", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    s.return_calls += 1;
    let num = |k: &str| q.get(k).and_then(|v| v.parse::<i64>().ok());
    let (Some(page_no), Some(size)) = (num("page_no"), num("page_size")) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: page_no and page_size are required.",
        );
    };
    if page_no < 0 || !(1..=100).contains(&size) {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: page_size should be 1-100.");
    }
    let (from, to) = (num("update_time_from"), num("update_time_to"));
    if let (Some(f), Some(t)) = (from, to) {
        if t < f || t - f > WINDOW_S {
            return refuse(
                StatusCode::BAD_REQUEST,
                "error_param",
                "The period between update_time_from and update_time_to must not more than 15 days.",
            );
        }
    }
    let mut returns: Vec<&Return> = s
        .shops
        .get(&shop_id)
        .map(|x| {
            x.returns
                .values()
                .filter(|r| from.is_none_or(|f| r.updated_at >= f) && to.is_none_or(|t| r.updated_at <= t))
                .collect()
        })
        .unwrap_or_default();
    returns.sort_by(|a, b| (a.updated_at, &a.id).cmp(&(b.updated_at, &b.id)));
    let start = (page_no * size) as usize;
    let page: Vec<Value> = returns.iter().skip(start).take(size as usize).map(|r| item(r, false)).collect();
    let more = start + page.len() < returns.len();
    ok(json!({ "response": { "more": more, "return": page } }))
}

pub(super) async fn return_detail(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/returns/get_return_detail", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    s.return_calls += 1;
    let sn = q.get("return_sn").cloned().unwrap_or_default();
    match s.shops.get(&shop_id).and_then(|x| x.returns.get(&sn)) {
        Some(r) => ok(json!({ "response": item(r, true) })),
        None => refuse(StatusCode::BAD_REQUEST, "error_data", "The return you queried doesn't exist."),
    }
}

/// A return put or moved by a person (or an end-to-end test).
#[derive(Debug, serde::Deserialize)]
pub(super) struct ControlReturn {
    shop_id: i64,
    return_sn: String,
    /// The order it returns (when it is new: all of its lines come back).
    #[serde(default)]
    order_sn: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    logistics: String,
    #[serde(default)]
    refund_only: bool,
}

/// Puts a return of an order, or moves one.
pub(super) async fn control_return(State(state): State<Shared<Inner>>, Json(c): Json<ControlReturn>) -> Answer {
    let mut s = state.lock();
    let shop = s.shops.entry(c.shop_id).or_default();
    let status = if c.status.is_empty() { "REQUESTED" } else { c.status.as_str() };
    if let Some(r) = shop.returns.get_mut(&c.return_sn) {
        r.moved(status, &c.logistics);
        return Json(json!({"return_sn": c.return_sn, "status": r.status})).into_response();
    }
    let Some(order) = shop.orders.get(&c.order_sn) else {
        return (StatusCode::NOT_FOUND, Json(json!({"error": "no such order"}))).into_response();
    };
    let mut r = Return::new(&c.return_sn, &c.order_sn, status, order.lines.clone());
    r.refund_only = c.refund_only;
    if !c.logistics.is_empty() {
        r.moved(status, &c.logistics);
    }
    shop.returns.insert(c.return_sn.clone(), r);
    Json(json!({"return_sn": c.return_sn, "status": status})).into_response()
}
