//! Buyers' returns in the Lazada sandbox: `/reverse/getreverseordersforseller` lists reverse
//! orders (RETURN or ONLY_REFUND; `request_type_list` a JSON array) whose lines changed in
//! `ReverseOrderLineModifiedTimeRangeStart`..`End` (milliseconds), `page_no` from 1 and
//! `page_size` required, with `total`; each line is one unit, with its status, its refund in
//! cents and the return parcel's tracking number, and the answer is wrapped in `result`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{ok, refuse, Answer, LazadaSandbox, ShopData};
use crate::Return;

/// A reverse order as Lazada lists it.
fn reverse(r: &Return) -> Value {
    let mut lines = Vec::new();
    for (i, l) in r.lines.iter().enumerate() {
        for unit in 0..l.quantity {
            lines.push(json!({
                "reverse_order_line_id": format!("{}{:02}{:02}", r.id, i, unit),
                "trade_order_line_id": format!("{}{:02}{:02}", r.order_id, i, unit),
                "reverse_status": r.status, "ofc_status": "INITIAL", "is_need_refund": true,
                "refund_amount": crate::satang(&l.paid_price), "item_unit_price": crate::satang(&l.price),
                "reason_code": 10_001, "reason_text": r.reason, "tracking_number": r.tracking,
                "seller_sku_id": l.seller_sku, "platform_sku_id": l.model_id,
                "product": { "product_id": l.item_id, "product_sku": l.seller_sku }, "buyer": { "buyer_id": 1 },
                "trade_order_gmt_create": r.created_at * 1000, "return_order_line_gmt_create": r.created_at * 1000,
                "return_order_line_gmt_modified": r.updated_at * 1000, "sla": (r.updated_at + 2 * 24 * 3600) * 1000,
                "refund_payment_method": "LAZADA_WALLET", "whqc_decision": "", "is_dispute": false
            }));
        }
    }
    json!({ "reverse_order_id": r.id, "trade_order_id": r.order_id,
        "request_type": if r.refund_only { "ONLY_REFUND" } else { "RETURN" }, "is_rtm": true,
        "shipping_type": "DROP_OFF", "reverse_order_lines": lines })
}

/// `/reverse/getreverseordersforseller`.
pub(super) fn reverse_orders(shop: &ShopData, p: &BTreeMap<String, String>) -> Answer {
    let num = |k: &str| p.get(k).and_then(|v| v.trim().parse::<i64>().ok());
    for k in ["page_size", "page_no"] {
        if !p.contains_key(k) {
            return refuse(
                "MissingParameter",
                &format!("The input parameter \"{k}\" that is mandatory for processing this request is not supplied"),
            );
        }
    }
    let (Some(size), Some(page_no)) = (num("page_size"), num("page_no")) else {
        return refuse("InvalidParameter", "page_size and page_no must be numbers");
    };
    if size < 1 || page_no < 1 {
        return refuse("InvalidParameter", "page_size and page_no must be at least 1");
    }
    let types: Vec<String> = match p.get("request_type_list") {
        None => Vec::new(),
        Some(t) => match serde_json::from_str(t) {
            Ok(v) => v,
            Err(_) => return refuse("InvalidParameter", "request_type_list must be a JSON array"),
        },
    };
    let (from, to) = (num("ReverseOrderLineModifiedTimeRangeStart"), num("ReverseOrderLineModifiedTimeRangeEnd"));
    let mut found: Vec<&Return> = shop
        .returns
        .values()
        .filter(|r| {
            let kind = if r.refund_only { "ONLY_REFUND" } else { "RETURN" };
            let at = r.updated_at * 1000;
            (types.is_empty() || types.iter().any(|t| t == kind))
                && from.is_none_or(|f| at >= f)
                && to.is_none_or(|t| at <= t)
        })
        .collect();
    found.sort_by(|a, b| (a.updated_at, &a.id).cmp(&(b.updated_at, &b.id)));
    let items: Vec<Value> =
        found.iter().skip(((page_no - 1) * size) as usize).take(size as usize).map(|r| reverse(r)).collect();
    ok(
        json!({ "result": { "success": true, "page_no": page_no, "page_size": size, "total": found.len(), "items": items } }),
    )
}

impl LazadaSandbox {
    /// Puts a buyer's return of an order of `seller` (or replaces it).
    pub fn put_return(&self, seller: &str, r: Return) {
        self.state.lock().shops.entry(seller.into()).or_default().returns.insert(r.id.clone(), r);
    }

    /// Moves every line of a return to `status` (a reverse status).
    pub fn move_return(&self, seller: &str, id: &str, status: &str) {
        if let Some(r) = self.state.lock().shops.get_mut(seller).and_then(|s| s.returns.get_mut(id)) {
            r.moved(status, "");
        }
    }
}
