//! TikTok Shop's buyers' returns: Search Returns over their update time (seconds), a page at
//! a time by `page_token` (10 to 50 a page). A return's lines name the SKU sold and the
//! seller's SKU, one line per unit (no product id, no quantity); its refund is text in baht.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{Session, TiktokShop};
use crate::adapters::returns::{merged, MarketReturn, ReturnLine, Returns, ReturnsPage};
use crate::adapters::{clip, ChannelError};
use crate::domain::money::satang_of_text;
use crate::domain::returns::stage;
use crate::domain::Marketplace;

/// The longest window of one query (TikTok says none; a week keeps pages short).
const WINDOW_S: i64 = 7 * 24 * 3600;
/// Returns per page (TikTok's most).
const PAGE_SIZE: i64 = 50;

#[derive(Deserialize, Default)]
#[serde(default)]
struct Found {
    return_id: String,
    order_id: String,
    return_type: String,
    return_status: String,
    return_reason_text: String,
    return_reason: String,
    return_tracking_number: String,
    update_time: i64,
    refund_amount: Refund,
    return_line_items: Vec<Item>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Refund {
    refund_total: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Item {
    sku_id: String,
    seller_sku: String,
    product_name: String,
    sku_name: String,
}

/// A found return in our words.
fn read(r: Found) -> Result<MarketReturn, ChannelError> {
    let refund_satang = if r.refund_amount.refund_total.trim().is_empty() {
        0
    } else {
        satang_of_text(&r.refund_amount.refund_total).map_err(|e| {
            ChannelError::Malformed(format!("tiktok_shop: return {}: refund: {}", r.return_id, clip(&e.to_string())))
        })?
    };
    Ok(MarketReturn {
        stage: stage(Marketplace::TiktokShop, &r.return_status),
        status: r.return_status,
        refund_only: r.return_type.eq_ignore_ascii_case("REFUND"),
        reason: if r.return_reason_text.trim().is_empty() { r.return_reason } else { r.return_reason_text },
        refund_satang,
        tracking_no: r.return_tracking_number,
        updated_at_s: r.update_time,
        lines: merged(
            r.return_line_items
                .into_iter()
                .map(|i| ReturnLine {
                    item_id: String::new(),
                    model_id: i.sku_id,
                    seller_sku: i.seller_sku.trim().to_string(),
                    name: if i.sku_name.is_empty() {
                        i.product_name
                    } else {
                        format!("{} ({})", i.product_name, i.sku_name)
                    },
                    quantity: 1,
                })
                .collect(),
        ),
        return_id: r.return_id,
        order_id: r.order_id,
    })
}

#[async_trait]
impl Returns for TiktokShop {
    fn window_s(&self) -> i64 {
        WINDOW_S
    }

    async fn changed_returns(
        &self,
        session: Session<'_>,
        from_s: i64,
        to_s: i64,
        cursor: Option<&str>,
    ) -> Result<ReturnsPage, ChannelError> {
        let mut query = vec![
            ("page_size", PAGE_SIZE.to_string()),
            ("sort_field", "update_time".to_string()),
            ("sort_order", "ASC".to_string()),
        ];
        if let Some(c) = cursor.filter(|c| !c.is_empty()) {
            query.push(("page_token", c.to_string()));
        }
        let body = json!({ "update_time_ge": from_s, "update_time_lt": to_s.min(from_s + WINDOW_S) });
        let data = self.call(Some(session), "/return_refund/202309/returns/search", &query, Some(&body)).await?;
        let found: Vec<Found> = match data.get("return_orders") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| ChannelError::Malformed(format!("tiktok_shop: returns: {}", clip(&e.to_string()))))?,
        };
        let next = data.get("next_page_token").and_then(Value::as_str).unwrap_or_default().to_string();
        let returns = found.into_iter().map(read).collect::<Result<Vec<_>, _>>()?;
        Ok(ReturnsPage { next: (!next.is_empty() && !returns.is_empty()).then_some(next), returns })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::returns::ReturnStage;

    #[test]
    fn the_documented_return_reads_into_our_words() {
        // The documentation's sample (trimmed), in baht.
        let found: Found = serde_json::from_value(json!({"order_id":"577686530908261117","return_id":"4035318504086604100",
            "return_type":"RETURN_AND_REFUND","return_status":"BUYER_SHIPPED_ITEM","arbitration_status":"IN_PROGRESS",
            "role":"BUYER","return_reason":"ecom_order_to_ship_canceled_reason_created_by_mistakes",
            "return_reason_text":"Order created by mistake","shipment_type":"PLATFORM","handover_method":"DROP_OFF",
            "return_tracking_number":"213456789098765433456","update_time":1690453136,"create_time":1690451136,
            "return_line_items":[
                {"return_line_item_id":"1","order_line_item_id":"576473917261451851","sku_id":"2729382476852921560",
                 "sku_name":"1#, Standard","product_name":"NICE Tissue","seller_sku":"PUTIH 1 TALI",
                 "refund_amount":{"currency":"THB","refund_total":"61.50"}},
                {"return_line_item_id":"2","order_line_item_id":"576473917261451852","sku_id":"2729382476852921560",
                 "sku_name":"1#, Standard","product_name":"NICE Tissue","seller_sku":"PUTIH 1 TALI",
                 "refund_amount":{"currency":"THB","refund_total":"61.50"}}],
            "refund_amount":{"currency":"THB","refund_total":"123.00","refund_subtotal":"120","refund_shipping_fee":"3"},
            "is_combined_return":"true "}))
        .unwrap();
        let r = read(found).unwrap();
        assert_eq!((r.return_id.as_str(), r.order_id.as_str()), ("4035318504086604100", "577686530908261117"));
        assert_eq!((r.stage, r.refund_only, r.refund_satang), (Some(ReturnStage::ShippedBack), false, 12_300));
        assert_eq!((r.reason.as_str(), r.tracking_no.as_str()), ("Order created by mistake", "213456789098765433456"));
        let l = &r.lines[0];
        assert_eq!(
            (r.lines.len(), l.model_id.as_str(), l.seller_sku.as_str(), l.quantity),
            (1, "2729382476852921560", "PUTIH 1 TALI", 2)
        );
        assert_eq!(l.name, "NICE Tissue (1#, Standard)");
    }

    #[test]
    fn a_refund_without_return_and_a_word_we_do_not_know() {
        let found: Found = serde_json::from_value(json!({"return_id":"9","order_id":"8","return_type":"REFUND",
            "return_status":"SOMETHING_NEW","refund_amount":{"refund_total":""}}))
        .unwrap();
        let r = read(found).unwrap();
        assert_eq!((r.refund_only, r.stage, r.refund_satang), (true, None, 0));
    }
}
