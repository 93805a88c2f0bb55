//! Lazada's buyers' returns: `/reverse/getreverseordersforseller` for the reverse orders of
//! type RETURN and ONLY_REFUND whose lines changed in a window (milliseconds), a page at a
//! time by number while `total` says more wait. The list wraps its answer in `result`; a
//! reverse order's status, reason, refund (in satang: Lazada's cents) and return tracking
//! number are on its lines, one line per unit.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::Value;

use super::{seconds_of, text_of, Lazada, Session};
use crate::adapters::returns::{merged, MarketReturn, ReturnLine, Returns, ReturnsPage};
use crate::adapters::{clip, ChannelError};
use crate::domain::returns::stage_of_lines;
use crate::domain::Marketplace;

/// The longest window of one query (Lazada says none; a week keeps pages short).
const WINDOW_S: i64 = 7 * 24 * 3600;
/// Reverse orders per page.
const PAGE_SIZE: i64 = 50;

#[derive(Deserialize, Default)]
#[serde(default)]
struct Reverse {
    reverse_order_id: Value,
    trade_order_id: Value,
    request_type: String,
    reverse_order_lines: Vec<Line>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Line {
    reverse_status: String,
    refund_amount: Value,
    reason_text: String,
    tracking_number: String,
    seller_sku_id: String,
    platform_sku_id: Value,
    product: Product,
    return_order_line_gmt_modified: Value,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Product {
    product_id: Value,
}

/// A reverse order in our words.
fn read(r: Reverse) -> Result<MarketReturn, ChannelError> {
    let id = text_of(&r.reverse_order_id);
    let mut refund = 0i64;
    for l in &r.reverse_order_lines {
        // Cents (satang in Thailand) as a whole number, or as text as Lazada's samples write it.
        let cents = text_of(&l.refund_amount);
        let cents = cents.trim();
        if !cents.is_empty() {
            refund += cents
                .parse::<i64>()
                .map_err(|_| ChannelError::Malformed(format!("lazada: return {id}: refund_amount {}", clip(cents))))?;
        }
    }
    let statuses: Vec<&str> = r.reverse_order_lines.iter().map(|l| l.reverse_status.as_str()).collect();
    let mut words: Vec<&str> = statuses.clone();
    words.sort_unstable();
    words.dedup();
    let updated_at_s =
        r.reverse_order_lines.iter().filter_map(|l| seconds_of(&l.return_order_line_gmt_modified)).max().unwrap_or(0);
    let first = |f: fn(&Line) -> &str| {
        r.reverse_order_lines.iter().map(f).map(str::trim).find(|s| !s.is_empty()).unwrap_or_default().to_string()
    };
    Ok(MarketReturn {
        stage: stage_of_lines(Marketplace::Lazada, statuses.iter().copied()),
        status: words.join(" "),
        refund_only: r.request_type.eq_ignore_ascii_case("ONLY_REFUND"),
        reason: first(|l| &l.reason_text),
        refund_satang: refund,
        tracking_no: first(|l| &l.tracking_number),
        updated_at_s,
        lines: merged(
            r.reverse_order_lines
                .iter()
                .map(|l| ReturnLine {
                    item_id: text_of(&l.product.product_id).trim_start_matches('0').to_string(),
                    model_id: text_of(&l.platform_sku_id),
                    seller_sku: l.seller_sku_id.trim().to_string(),
                    name: String::new(),
                    quantity: 1,
                })
                .collect(),
        ),
        order_id: text_of(&r.trade_order_id),
        return_id: id,
    })
}

#[async_trait]
impl Returns for Lazada {
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
        let page_no: i64 = cursor.and_then(|c| c.parse().ok()).unwrap_or(1).max(1);
        let params = [
            ("page_size", PAGE_SIZE.to_string()),
            ("page_no", page_no.to_string()),
            ("request_type_list", r#"["RETURN","ONLY_REFUND"]"#.to_string()),
            ("ReverseOrderLineModifiedTimeRangeStart", (from_s * 1000).to_string()),
            ("ReverseOrderLineModifiedTimeRangeEnd", (to_s.min(from_s + WINDOW_S) * 1000 - 1).to_string()),
        ];
        let v = self
            .call(self.request(
                &self.config.api_url,
                "/reverse/getreverseordersforseller",
                Some(session.access),
                &params,
                false,
            ))
            .await?;
        let result = v.get("result").cloned().unwrap_or(Value::Null);
        let items: Vec<Reverse> = match result.get("items") {
            None | Some(Value::Null) => Vec::new(),
            Some(items) => serde_json::from_value(items.clone())
                .map_err(|e| ChannelError::Malformed(format!("lazada: reverse orders: {}", clip(&e.to_string()))))?,
        };
        let total: i64 = text_of(result.get("total").unwrap_or(&Value::Null)).parse().unwrap_or(0);
        let returns = items.into_iter().map(read).collect::<Result<Vec<_>, _>>()?;
        let next = (!returns.is_empty() && page_no * PAGE_SIZE < total).then(|| (page_no + 1).to_string());
        Ok(ReturnsPage { returns, next })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::returns::ReturnStage;
    use serde_json::json;

    /// The documentation's own item, every value a string as Lazada's samples write them,
    /// with a second unit of the same SKU on its way back.
    fn documented() -> Reverse {
        let line = |status: &str| {
            json!({"product":{"product_sku":"0","product_id":"0"},"return_order_line_gmt_create":"0",
                "platform_sku_id":"th-1001","trade_order_gmt_create":"0","is_need_refund":"true",
                "reason_text":"Out of stock","item_unit_price":"0","sla":"1741672453926",
                "return_order_line_gmt_modified":"1741672453000","trade_order_line_id":"0","ofc_status":"RETURN_CANCELED",
                "seller_sku_id":"th-1000","refund_payment_method":"Alipay","buyer":{"buyer_id":"0"},"reason_code":"123",
                "whqc_decision":"scrap","reverse_status":status,"refund_amount":"12300","tracking_number":"TH2404B29P6D",
                "is_dispute":"true","reverse_order_line_id":"0"})
        };
        serde_json::from_value(json!({"reverse_order_lines":[line("RTM_RECEIVE_ITEM"), line("RTM_SHIPPING_BACK")],
            "reverse_order_id":"658960600102006","request_type":"RETURN","is_rtm":"true","shipping_type":"DEFAULT",
            "trade_order_id":"416557324702006"}))
        .unwrap()
    }

    #[test]
    fn a_reverse_order_reads_into_our_words() {
        let r = read(documented()).unwrap();
        assert_eq!((r.return_id.as_str(), r.order_id.as_str()), ("658960600102006", "416557324702006"));
        assert_eq!(r.stage, Some(ReturnStage::ShippedBack), "the least advanced standing line");
        assert_eq!(r.status, "RTM_RECEIVE_ITEM RTM_SHIPPING_BACK");
        assert_eq!((r.refund_only, r.refund_satang), (false, 24_600), "cents are satang");
        assert_eq!((r.reason.as_str(), r.tracking_no.as_str()), ("Out of stock", "TH2404B29P6D"));
        assert_eq!(r.updated_at_s, 1741672453, "milliseconds read as seconds");
        assert_eq!(r.lines.len(), 1);
        let l = &r.lines[0];
        assert_eq!((l.model_id.as_str(), l.seller_sku.as_str(), l.quantity), ("th-1001", "th-1000", 2));
        assert_eq!(l.item_id, "", "a product id of 0 names none");
    }

    #[test]
    fn a_refund_only_request_and_numbers_as_numbers() {
        let r: Reverse = serde_json::from_value(json!({"reverse_order_id": 5, "trade_order_id": 7,
            "request_type": "ONLY_REFUND", "reverse_order_lines": [{"reverse_status": "REFUND_SUCCESS",
            "refund_amount": 9900, "platform_sku_id": 222, "seller_sku_id": "MUG", "product": {"product_id": 111},
            "return_order_line_gmt_modified": 1741672453}]}))
        .unwrap();
        let r = read(r).unwrap();
        assert_eq!((r.refund_only, r.stage, r.refund_satang), (true, Some(ReturnStage::Refunded), 9_900));
        assert_eq!((r.lines[0].item_id.as_str(), r.lines[0].model_id.as_str()), ("111", "222"));
        assert_eq!(r.updated_at_s, 1741672453);
    }
}
