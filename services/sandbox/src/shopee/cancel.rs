//! A buyer's cancellation request in the Shopee sandbox: the buyer asks (the order goes to
//! IN_CANCEL with the buyer's reason, which `get_order_detail` gives as
//! `buyer_cancel_reason`), and the seller answers with `handle_buyer_cancellation`: ACCEPT
//! cancels the order, REJECT puts it back where it was. Only an order in IN_CANCEL can be
//! answered; Shopee's words otherwise.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use serde_json::{json, Value};

use super::{check, ok, refuse, Answer, Inner, ShopeeSandbox};
use crate::{now_s, Shared};

const PATH: &str = "/api/v2/order/handle_buyer_cancellation";

/// A cancellation the buyer asked for.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The order's status before the buyer asked (where a rejection puts it back).
    pub before: String,
    /// The buyer's reason.
    pub reason: String,
    /// The seller's answer: "" while it waits, ACCEPT or REJECT.
    pub answer: String,
}

/// The buyer of `order_sn` asks to cancel it, for `reason`: false when there is no such order.
pub(super) fn ask(shop: &mut super::ShopData, order_sn: &str, reason: &str) -> bool {
    let Some(o) = shop.orders.get_mut(order_sn) else { return false };
    let before = std::mem::replace(&mut o.status, "IN_CANCEL".into());
    o.updated_at = now_s().max(o.updated_at + 1);
    shop.cancels.insert(order_sn.into(), Request { before, reason: reason.into(), answer: String::new() });
    true
}

impl ShopeeSandbox {
    /// The buyer of `order_sn` asks to cancel it, for `reason`.
    pub fn ask_cancel(&self, shop_id: i64, order_sn: &str, reason: &str) {
        if let Some(shop) = self.state.lock().shops.get_mut(&shop_id) {
            ask(shop, order_sn, reason);
        }
    }

    /// How the seller answered the buyer's request (`None`: no request; "" while unanswered).
    pub fn cancel_answer(&self, shop_id: i64, order_sn: &str) -> Option<String> {
        let s = self.state.lock();
        s.shops.get(&shop_id)?.cancels.get(order_sn).map(|r| r.answer.clone())
    }

    /// How many times the seller answered a request (refused answers included).
    pub fn cancel_calls(&self) -> u64 {
        self.state.lock().cancel_calls
    }
}

pub(super) async fn handle_buyer_cancellation(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, PATH, &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    s.cancel_calls += 1;
    let Ok(b) = serde_json::from_slice::<Value>(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: parse data failed.");
    };
    let sn = b["order_sn"].as_str().unwrap_or_default();
    if sn.is_empty() {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: order_sn is a required field.",
        );
    }
    let operation = b["operation"].as_str().unwrap_or_default();
    if !matches!(operation, "ACCEPT" | "REJECT") {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: operation should be ACCEPT or REJECT.",
        );
    }
    let shop = s.shops.entry(shop_id).or_default();
    let Some(o) = shop.orders.get_mut(sn) else {
        return refuse(StatusCode::BAD_REQUEST, "error_not_found", "Wrong parameters, detail: the order is not found.");
    };
    let Some(request) = shop.cancels.get_mut(sn).filter(|_| o.status == "IN_CANCEL") else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "order.cancel_order_invalid_status",
            "Invalid order_status.The order status should be IN_CANCEL.",
        );
    };
    o.status = if operation == "ACCEPT" { "CANCELLED".into() } else { request.before.clone() };
    o.updated_at = now_s().max(o.updated_at + 1);
    request.answer = operation.into();
    ok(json!({ "response": { "update_time": o.updated_at } }))
}
