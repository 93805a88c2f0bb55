//! Shopee's answer to a buyer's cancellation request: `handle_buyer_cancellation` with
//! `operation` ACCEPT or REJECT, valid only while the order is IN_CANCEL.

use async_trait::async_trait;
use serde_json::json;

use super::{Session, Shopee};
use crate::adapters::cancellations::Cancellations;
use crate::adapters::ChannelError;

/// The body of `handle_buyer_cancellation`.
fn body(order_sn: &str, accept: bool) -> serde_json::Value {
    json!({ "order_sn": order_sn, "operation": if accept { "ACCEPT" } else { "REJECT" } })
}

#[async_trait]
impl Cancellations for Shopee {
    async fn answer(&self, session: Session<'_>, order_id: &str, accept: bool) -> Result<(), ChannelError> {
        self.shop_post(session, "/api/v2/order/handle_buyer_cancellation", &body(order_id, accept)).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_shopees_operation_word() {
        assert_eq!(body("2612020101", true), json!({ "order_sn": "2612020101", "operation": "ACCEPT" }));
        assert_eq!(body("2612020101", false)["operation"], "REJECT");
    }
}
