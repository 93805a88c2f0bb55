//! Buyers' returns in the TikTok Shop sandbox: Search Returns (`POST
//! /return_refund/202309/returns/search`), `page_size` 10 to 50, `page_token` from the last
//! page's `next_page_token`, over `update_time_ge`..`update_time_lt` (seconds); a return's
//! lines are one per unit, naming the SKU and the seller's SKU, its refund text in baht.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

use super::{ok, refuse, Answer, ShopData, TiktokSandbox};
use crate::Return;

/// A return as TikTok Shop writes it.
fn return_json(r: &Return) -> Value {
    let mut lines = Vec::new();
    for (i, l) in r.lines.iter().enumerate() {
        for unit in 0..l.quantity {
            lines.push(json!({ "return_line_item_id": format!("{}{i}{unit}", r.id),
                "order_line_item_id": format!("{}{}{unit}", r.order_id, l.model_id), "sku_id": l.model_id,
                "sku_name": "", "product_name": l.name, "seller_sku": l.seller_sku,
                "product_image": { "url": "", "width": 200, "height": 200 },
                "refund_amount": { "currency": "THB", "refund_total": l.paid_price, "refund_subtotal": l.paid_price,
                    "refund_shipping_fee": "0", "refund_tax": "0" } }));
        }
    }
    json!({ "return_id": r.id, "order_id": r.order_id,
        "return_type": if r.refund_only { "REFUND" } else { "RETURN_AND_REFUND" }, "return_status": r.status,
        "arbitration_status": "", "role": "BUYER", "return_reason": "ecom_order_delivered_refund_and_return_reason_damaged",
        "return_reason_text": r.reason, "shipment_type": "PLATFORM", "handover_method": "DROP_OFF",
        "return_tracking_number": r.tracking, "return_provider_name": "Flash Express", "can_buyer_keep_item": false,
        "create_time": r.created_at, "update_time": r.updated_at, "return_line_items": lines,
        "refund_amount": { "currency": "THB", "refund_total": r.refund, "refund_subtotal": r.refund,
            "refund_shipping_fee": "0", "refund_tax": "0" },
        "return_method": "BUYER_SHIPPED", "is_combined_return": false })
}

/// Search Returns.
pub(super) fn search(shop: &ShopData, q: &BTreeMap<String, String>, body: &Value) -> Answer {
    let size: usize = match q.get("page_size") {
        None => 10,
        Some(p) => p.parse().unwrap_or(0),
    };
    if !(10..=50).contains(&size) {
        return refuse(StatusCode::OK, 25001001, "An invalid request parameter was passed: page_size must be 10-50.");
    }
    let ge = body["update_time_ge"].as_i64().unwrap_or(0);
    let lt = body["update_time_lt"].as_i64().unwrap_or(i64::MAX);
    let mut found: Vec<&Return> = shop.returns.values().filter(|r| r.updated_at >= ge && r.updated_at < lt).collect();
    found.sort_by(|a, b| (a.updated_at, &a.id).cmp(&(b.updated_at, &b.id)));
    let start: usize =
        q.get("page_token").and_then(|t| t.strip_prefix("rt_")).and_then(|t| t.parse().ok()).unwrap_or(0);
    let page: Vec<Value> = found.iter().skip(start).take(size).map(|r| return_json(r)).collect();
    let next = if start + page.len() < found.len() { format!("rt_{}", start + page.len()) } else { String::new() };
    ok(json!({ "return_orders": page, "total_count": found.len(), "next_page_token": next }))
}

impl TiktokSandbox {
    /// Puts a buyer's return of an order of `shop_id` (or replaces it).
    pub fn put_return(&self, shop_id: &str, r: Return) {
        self.state.lock().shops.entry(shop_id.into()).or_default().returns.insert(r.id.clone(), r);
    }

    /// Sends a return's status-change webhook (type 12) to `url`: the HTTP status it was
    /// answered with (0 when there is no such return).
    pub async fn push_return(&self, shop_id: &str, id: &str, url: &str) -> u16 {
        let (body, signature) = {
            let s = self.state.lock();
            let Some(r) = s.shops.get(shop_id).and_then(|x| x.returns.get(id)) else { return 0 };
            let body = json!({ "type": 12, "tts_notification_id": crate::token("", 8), "shop_id": shop_id,
                "timestamp": crate::now_s(), "data": { "order_id": r.order_id, "return_role": "BUYER",
                "return_type": if r.refund_only { "REFUND" } else { "RETURN_AND_REFUND" }, "return_status": r.status,
                "return_id": r.id, "create_time": r.created_at, "update_time": r.updated_at } })
            .to_string();
            let signature = crate::hmac_hex(s.app_secret.as_bytes(), format!("{}{body}", s.app_key).as_bytes());
            (body, signature)
        };
        crate::deliver(url, &[("authorization", signature)], body).await.0
    }

    /// Moves a return to `status`.
    pub fn move_return(&self, shop_id: &str, id: &str, status: &str) {
        if let Some(r) = self.state.lock().shops.get_mut(shop_id).and_then(|s| s.returns.get_mut(id)) {
            r.moved(status, "");
        }
    }
}
