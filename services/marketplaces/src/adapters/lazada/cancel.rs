//! Lazada's answer to a buyer's cancellation request: the order's items carry
//! `need_cancel_confirm` and the request's `reverse_order_id`, answered with
//! `/order/reverse/cancel/seller/decide` (`agree_cancel` true or false).

use async_trait::async_trait;

use super::{text_of, ChannelError, Item, Lazada, Session};
use crate::adapters::cancellations::Cancellations;

/// The request waiting for the seller among an order's items.
fn waiting(items: &[Item]) -> Option<String> {
    items.iter().filter(|i| i.cancel_asked()).map(|i| text_of(&i.reverse_order_id)).find(|id| !id.is_empty())
}

#[async_trait]
impl Cancellations for Lazada {
    async fn answer(&self, session: Session<'_>, order_id: &str, accept: bool) -> Result<(), ChannelError> {
        let items = self.order_items(session, order_id).await?;
        let reverse = waiting(&items)
            .ok_or_else(|| ChannelError::rejected("131", "E0131: no decision for this reverse order"))?;
        let params = [("reverse_order_id", reverse), ("agree_cancel", accept.to_string())];
        self.call(self.request(
            &self.config.api_url,
            "/order/reverse/cancel/seller/decide",
            Some(session.access),
            &params,
            false,
        ))
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_request_is_the_reverse_order_of_an_item_waiting() {
        let item = |status: &str, confirm: serde_json::Value, reverse: serde_json::Value| Item {
            status: status.into(),
            need_cancel_confirm: confirm,
            reverse_order_id: reverse,
            ..Item::default()
        };
        assert_eq!(waiting(&[item("pending", json!(false), json!(""))]), None);
        assert_eq!(
            waiting(&[item("pending", json!(false), json!("")), item("pending", json!(true), json!(510018817003i64))]),
            Some("510018817003".to_string())
        );
        assert_eq!(waiting(&[item("pending", json!("true"), json!("7"))]), Some("7".to_string()));
        assert_eq!(waiting(&[item("canceled", json!(true), json!("7"))]), None, "already cancelled");
    }
}
