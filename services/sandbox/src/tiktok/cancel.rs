//! TikTok Shop's buyer cancellation requests in the sandbox (202309 return and refund): a
//! request waits as CANCELLATION_REQUEST_PENDING and marks its order
//! `is_buyer_request_cancel`; Search Cancellations finds it by order; Approve cancels the
//! order (CANCELLATION_REQUEST_SUCCESS); Reject, with one of the reasons `reject_reasons`
//! offers, closes the request and the order goes on. An answer repeated with the same
//! idempotency key is answered as the first was.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

use super::{ok, refuse, Answer, ShopData};
use crate::now_s;

pub const PENDING: &str = "CANCELLATION_REQUEST_PENDING";
/// The reasons a seller may reject a request with.
const REASONS: [(&str, &str); 2] = [
    ("seller_reject_apply_product_has_been_packed", "Product has been packed"),
    ("seller_reject_apply_buyer_agreed_to_keep_order", "Buyer agreed to keep the order"),
];

/// A buyer's request to cancel an order.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    pub id: String,
    pub status: String,
    pub reason_text: String,
    pub create_time: i64,
}

/// The order's request that waits, if one does.
pub(super) fn waiting(shop: &ShopData, order_id: &str) -> bool {
    shop.cancellations.get(order_id).is_some_and(|c| c.status == PENDING)
}

fn json_of(order_id: &str, c: &Cancel) -> Value {
    json!({ "cancel_id": c.id, "order_id": order_id, "cancel_type": "BUYER_CANCEL", "cancel_status": c.status, "role": "BUYER",
        "cancel_reason": "ecom_order_to_ship_canceled_reason_created_by_mistakes", "cancel_reason_text": c.reason_text,
        "create_time": c.create_time, "update_time": c.create_time,
        "seller_next_action_response": [{ "action": "SELLER_RESPOND_CANCEL", "deadline": c.create_time + 48 * 3600 }] })
}

/// A call under `/return_refund/202309/`: `rest` is what follows.
pub(super) fn calls(shop: &mut ShopData, post: bool, rest: &str, q: &BTreeMap<String, String>, body: &Value) -> Answer {
    let order_of =
        |shop: &ShopData, id: &str| shop.cancellations.iter().find(|(_, c)| c.id == id).map(|(o, _)| o.clone());
    match (post, rest) {
        (true, "cancellations/search") => {
            let size: usize = q.get("page_size").and_then(|p| p.parse().ok()).unwrap_or(10);
            if !(1..=50).contains(&size) {
                return refuse(StatusCode::OK, 25001001, "invalid param: page_size");
            }
            let orders: Vec<&str> =
                body["order_ids"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let statuses: Vec<&str> =
                body["cancel_status"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let found: Vec<Value> = shop
                .cancellations
                .iter()
                .filter(|(o, c)| {
                    (orders.is_empty() || orders.contains(&o.as_str()))
                        && (statuses.is_empty() || statuses.contains(&c.status.as_str()))
                })
                .take(size)
                .map(|(o, c)| json_of(o, c))
                .collect();
            ok(json!({ "total_count": found.len(), "next_page_token": "", "cancellations": found }))
        }
        (false, "reject_reasons") => {
            let id = q.get("return_or_cancel_id").cloned().unwrap_or_default();
            if order_of(shop, &id).is_none() {
                return refuse(StatusCode::OK, 25007006, "Order not found.");
            }
            ok(
                json!({ "reasons": REASONS.iter().map(|(name, text)| json!({ "name": name, "text": text })).collect::<Vec<_>>() }),
            )
        }
        (true, r) if r.starts_with("cancellations/") => {
            let (id, action) = r.trim_start_matches("cancellations/").split_once('/').unwrap_or(("", ""));
            let Some(order) = order_of(shop, id) else {
                return refuse(StatusCode::OK, 25007006, "Order not found.");
            };
            let key = q.get("idempotency_key").cloned().unwrap_or_default();
            if !key.is_empty() && shop.answered.contains(&key) {
                return ok(json!({}));
            }
            let c = shop.cancellations.get_mut(&order).expect("found above");
            if c.status != PENDING {
                let code = if action == "approve" { 25011012 } else { 25011011 };
                return refuse(StatusCode::OK, code, "reverse status cannot process application");
            }
            match action {
                "approve" => {
                    c.status = "CANCELLATION_REQUEST_SUCCESS".into();
                    if let Some(o) = shop.orders.get_mut(&order) {
                        o.status = "CANCELLED".into();
                        o.updated_at = now_s().max(o.updated_at + 1);
                    }
                }
                "reject" => {
                    let reason = body["reject_reason"].as_str().unwrap_or_default();
                    if !REASONS.iter().any(|(name, _)| *name == reason) {
                        return refuse(
                            StatusCode::OK,
                            25001014,
                            "Unknown return reason. Please ensure you are passing a valid return reason.",
                        );
                    }
                    // The request is closed; which word a rejected request reads is not
                    // documented: the closed one.
                    c.status = "CANCELLATION_REQUEST_COMPLETE".into();
                    if let Some(o) = shop.orders.get_mut(&order) {
                        o.updated_at = now_s().max(o.updated_at + 1);
                    }
                }
                _ => return refuse(StatusCode::NOT_FOUND, 36009009, "Invalid path"),
            }
            if !key.is_empty() {
                shop.answered.insert(key);
            }
            ok(json!({}))
        }
        _ => refuse(StatusCode::NOT_FOUND, 36009009, "Invalid path"),
    }
}
