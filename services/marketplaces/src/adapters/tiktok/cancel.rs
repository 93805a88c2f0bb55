//! TikTok Shop's answer to a buyer's cancellation request (202309 return and refund calls):
//! the order's pending request is found with Search Cancellations, then approved, or
//! rejected with a reason TikTok offers for it (`reject_reasons`). Each answer carries an
//! idempotency key, so an answer sent twice is taken once.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{ChannelError, Session, TiktokShop};
use crate::adapters::cancellations::Cancellations;

const CANCELLATIONS: &str = "/return_refund/202309/cancellations";
const PENDING: &str = "CANCELLATION_REQUEST_PENDING";

#[derive(Deserialize, Default)]
#[serde(default)]
struct Cancellation {
    cancel_id: String,
    order_id: String,
    cancel_status: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Reason {
    name: String,
}

/// The pending request of `order_id` among those found.
fn pending(data: &Value, order_id: &str) -> Option<String> {
    let found: Vec<Cancellation> = serde_json::from_value(data.get("cancellations").cloned()?).ok()?;
    found.into_iter().find(|c| c.order_id == order_id && c.cancel_status == PENDING).map(|c| c.cancel_id)
}

#[async_trait]
impl Cancellations for TiktokShop {
    async fn answer(&self, session: Session<'_>, order_id: &str, accept: bool) -> Result<(), ChannelError> {
        let asked = json!({ "order_ids": [order_id], "cancel_status": [PENDING] });
        let found = self
            .call(Some(session), &format!("{CANCELLATIONS}/search"), &[("page_size", "10".to_string())], Some(&asked))
            .await?;
        let id = pending(&found, order_id)
            .ok_or_else(|| ChannelError::rejected("25011012", "reverse status cannot approve application"))?;
        let key = [("idempotency_key", format!("{id}-{}", if accept { "approve" } else { "reject" }))];
        if accept {
            self.call(Some(session), &format!("{CANCELLATIONS}/{id}/approve"), &key, Some(&json!({}))).await?;
            return Ok(());
        }
        let reasons = self
            .call(Some(session), "/return_refund/202309/reject_reasons", &[("return_or_cancel_id", id.clone())], None)
            .await?;
        let reasons: Vec<Reason> = serde_json::from_value(reasons.get("reasons").cloned().unwrap_or_default())
            .map_err(|e| {
                ChannelError::Malformed(format!(
                    "tiktok_shop: reject reasons: {}",
                    crate::adapters::clip(&e.to_string())
                ))
            })?;
        let reason =
            reasons.into_iter().map(|r| r.name).find(|n| !n.is_empty()).ok_or_else(|| {
                ChannelError::rejected("25001014", "TikTok Shop offers no reason to reject this request")
            })?;
        self.call(
            Some(session),
            &format!("{CANCELLATIONS}/{id}/reject"),
            &key,
            Some(&json!({ "reject_reason": reason })),
        )
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orders_pending_request_is_the_one_answered() {
        let data = json!({ "cancellations": [
            { "cancel_id": "4035", "order_id": "577087614418520388", "cancel_status": "CANCELLATION_REQUEST_CANCELLED" },
            { "cancel_id": "4036", "order_id": "577087614418520388", "cancel_status": "CANCELLATION_REQUEST_PENDING",
              "cancel_reason_text": "Order created by mistake" },
            { "cancel_id": "4037", "order_id": "1", "cancel_status": "CANCELLATION_REQUEST_PENDING" }
        ], "total_count": 3 });
        assert_eq!(pending(&data, "577087614418520388").as_deref(), Some("4036"));
        assert_eq!(pending(&data, "2"), None);
        assert_eq!(pending(&json!({}), "1"), None);
    }
}
