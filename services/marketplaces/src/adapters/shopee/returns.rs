//! Shopee's buyers' returns: `get_return_list` over their update time (15 days at most a
//! query, `page_no` from 0 while `more`), and for a return whose goods come back and that is
//! neither refunded nor closed, `get_return_detail`'s reverse logistics status, which says
//! whether the buyer sent the parcel and whether it arrived (the list does not).

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::Value;

use super::{Session, Shopee};
use crate::adapters::returns::{MarketReturn, ReturnLine, Returns, ReturnsPage};
use crate::adapters::{clip, ChannelError};
use crate::domain::returns::{shopee_stage, ReturnStage};

/// The longest window of one query (Shopee: 15 days).
const WINDOW_S: i64 = 15 * 24 * 3600;
/// Returns per page (Shopee's most).
const PAGE_SIZE: i64 = 100;

/// A return as `get_return_list` and `get_return_detail` give it.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Listed {
    return_sn: String,
    order_sn: String,
    status: String,
    /// 0: return and refund; 1: refund only.
    return_solution: i64,
    reason: String,
    text_reason: String,
    refund_amount: Value,
    tracking_number: String,
    update_time: i64,
    item: Vec<Item>,
    /// Detail only: where the return parcel is (the newer field, then the older one).
    reverse_logistic_status: String,
    logistics_status: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Item {
    item_id: i64,
    model_id: i64,
    item_sku: String,
    variation_sku: String,
    name: String,
    /// Units.
    amount: i64,
}

fn id(n: i64) -> String {
    if n == 0 {
        String::new()
    } else {
        n.to_string()
    }
}

/// A listed (or detailed) return in our words.
fn read(r: Listed) -> Result<MarketReturn, ChannelError> {
    let logistics = if r.reverse_logistic_status.is_empty() { &r.logistics_status } else { &r.reverse_logistic_status };
    let refund_satang = crate::domain::money::satang_of(&r.refund_amount)
        .map_err(|e| ChannelError::Malformed(format!("shopee: return {}: {}", r.return_sn, clip(&e.to_string()))))?;
    Ok(MarketReturn {
        stage: shopee_stage(&r.status, logistics),
        status: if logistics.is_empty() { r.status.clone() } else { format!("{} {logistics}", r.status) },
        refund_only: r.return_solution == 1,
        reason: if r.text_reason.trim().is_empty() {
            r.reason
        } else {
            format!("{}: {}", r.reason, r.text_reason.trim())
        },
        refund_satang,
        tracking_no: r.tracking_number,
        updated_at_s: r.update_time,
        lines: r
            .item
            .into_iter()
            .filter(|i| i.amount > 0)
            .map(|i| ReturnLine {
                item_id: id(i.item_id),
                model_id: id(i.model_id),
                seller_sku: if i.variation_sku.is_empty() { i.item_sku } else { i.variation_sku },
                name: i.name,
                quantity: i.amount,
            })
            .collect(),
        return_id: r.return_sn,
        order_id: r.order_sn,
    })
}

/// True when a return's parcel is worth asking after: its goods come back and it is neither
/// refunded nor closed.
fn parcel_matters(r: &MarketReturn) -> bool {
    !r.refund_only && matches!(r.stage, Some(s) if s < ReturnStage::Refunded)
}

impl Shopee {
    async fn return_detail(&self, session: Session<'_>, return_sn: &str) -> Result<MarketReturn, ChannelError> {
        let env = self
            .shop_get(session, "/api/v2/returns/get_return_detail", &[("return_sn", return_sn.to_string())])
            .await?;
        let r: Listed = serde_json::from_value(env.response)
            .map_err(|e| ChannelError::Malformed(format!("shopee: return detail: {}", clip(&e.to_string()))))?;
        read(r)
    }
}

#[async_trait]
impl Returns for Shopee {
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
        let page_no: i64 = cursor.and_then(|c| c.parse().ok()).unwrap_or(0);
        let query = [
            ("page_no", page_no.to_string()),
            ("page_size", PAGE_SIZE.to_string()),
            ("update_time_from", from_s.to_string()),
            ("update_time_to", to_s.min(from_s + WINDOW_S).to_string()),
        ];
        let env = self.shop_get(session, "/api/v2/returns/get_return_list", &query).await?;
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct List {
            more: bool,
            #[serde(rename = "return")]
            returns: Vec<Listed>,
        }
        let list: List = if env.response.is_null() {
            List::default()
        } else {
            serde_json::from_value(env.response)
                .map_err(|e| ChannelError::Malformed(format!("shopee: return list: {}", clip(&e.to_string()))))?
        };
        let mut returns = Vec::with_capacity(list.returns.len());
        for listed in list.returns {
            let r = read(listed)?;
            returns.push(if parcel_matters(&r) { self.return_detail(session, &r.return_id).await? } else { r });
        }
        let next = (list.more && !returns.is_empty()).then(|| (page_no + 1).to_string());
        Ok(ReturnsPage { returns, next })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The documentation's own list item (SGD there; the shape is the same in baht).
    fn documented() -> Listed {
        serde_json::from_value(json!({
            "image":["https://cf.shopee.sg/file/166f23cbfb31bd882f51cfe7f90d3826"],
            "reason":"PHYSICAL_DMG","text_reason":"return reason","return_sn":"200203171852695",
            "refund_amount":1409,"currency":"SGD","create_time":1580721513,"update_time":1580729377,
            "status":"REQUESTED","due_date":1580721513,"tracking_number":"RNSHS00177569",
            "dispute_reason":["UNKNOWN"],"dispute_text_reason":["reason"],"needs_logistics":true,
            "amount_before_discount":1409,
            "item":[{"model_id":0,"name":"agsabdmnambd","images":[],"amount":1,"item_price":1409.9,
                     "is_add_on_deal":false,"is_main_item":false,"add_on_deal_id":0,
                     "item_id":2147533133_i64,"item_sku":"USB","variation_sku":"RED"}],
            "order_sn":"200203C6W0AR27","return_solution":0,"return_refund_request_type":0
        }))
        .unwrap()
    }

    #[test]
    fn a_listed_return_reads_into_our_words() {
        let r = read(documented()).unwrap();
        assert_eq!((r.return_id.as_str(), r.order_id.as_str()), ("200203171852695", "200203C6W0AR27"));
        assert_eq!((r.stage, r.refund_only, r.refund_satang), (Some(ReturnStage::Requested), false, 140_900));
        assert_eq!(r.reason, "PHYSICAL_DMG: return reason");
        assert_eq!((r.tracking_no.as_str(), r.updated_at_s), ("RNSHS00177569", 1580729377));
        let l = &r.lines[0];
        assert_eq!(
            (l.item_id.as_str(), l.model_id.as_str(), l.seller_sku.as_str(), l.quantity),
            ("2147533133", "", "RED", 1),
            "an item without models names no model"
        );
        assert!(parcel_matters(&r));
    }

    #[test]
    fn the_parcel_of_a_detailed_return_says_where_the_goods_are() {
        let mut d = documented();
        d.status = "PROCESSING".into();
        d.reverse_logistic_status = "LOGISTICS_DELIVERY_DONE".into();
        let r = read(d).unwrap();
        assert_eq!(r.stage, Some(ReturnStage::DeliveredBack));
        assert_eq!(r.status, "PROCESSING LOGISTICS_DELIVERY_DONE");
        let mut refund = documented();
        refund.return_solution = 1;
        refund.status = "ACCEPTED".into();
        let r = read(refund).unwrap();
        assert_eq!((r.refund_only, r.stage), (true, Some(ReturnStage::Refunded)));
        assert!(!parcel_matters(&r), "nothing comes back");
    }

    #[test]
    fn an_amount_we_cannot_hold_is_refused() {
        let mut d = documented();
        d.refund_amount = json!(12.345);
        assert!(matches!(read(d), Err(ChannelError::Malformed(_))));
    }
}
