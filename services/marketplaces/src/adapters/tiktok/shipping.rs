//! TikTok Shop's fulfilment calls (202309). An order's package (`packages[].id` of Get Order
//! Detail) is shipped with `POST /fulfillment/202309/packages/{id}/ship`; for a Thai local
//! seller TikTok ignores the handover method since October 2024 and takes the one set for
//! the shop's warehouse in Seller Center, so the only way offered is the platform's. Whether
//! the package may ship now is asked of `handover_time_slots` (refused once shipped or
//! cancelled); the carrier's tracking number comes with Get Package Detail, and the A6 label
//! from `shipping_documents` as a link to a PDF (valid a day).

use async_trait::async_trait;
use serde_json::{json, Value};

use super::{answer, send, ChannelError, Order, Session, TiktokShop, WHO};
use crate::adapters::shipping::{is_pdf, may_fetch, Handover, ShipOptions, Shipping};

const PACKAGES: &str = "/fulfillment/202309/packages";

/// The text of a field TikTok writes as text (or a number).
fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

impl TiktokShop {
    /// The package of an order (an order not split has one; a split one ships package by
    /// package on the platform).
    async fn package_of(&self, session: Session<'_>, order_id: &str) -> Result<String, ChannelError> {
        let data = self.call(Some(session), "/order/202309/orders", &[("ids", order_id.to_string())], None).await?;
        let orders: Vec<Order> =
            serde_json::from_value(data.get("orders").cloned().unwrap_or_default()).map_err(|e| {
                ChannelError::Malformed(format!("tiktok_shop: orders: {}", crate::adapters::clip(&e.to_string())))
            })?;
        let order = orders
            .into_iter()
            .find(|o| o.id == order_id)
            .ok_or_else(|| ChannelError::rejected("21008111", "The order does not belong to the seller"))?;
        match order.packages.as_slice() {
            [one] if !one.id.is_empty() => Ok(one.id.clone()),
            [] => Err(ChannelError::rejected(
                "21023035",
                "Please arrange shipment before retrieving the shipping document.",
            )),
            _ => Err(ChannelError::rejected(
                "split",
                "The order is split into packages: ship them in TikTok Shop Seller Center",
            )),
        }
    }
}

#[async_trait]
impl Shipping for TiktokShop {
    async fn ship_options(&self, session: Session<'_>, order_id: &str) -> Result<ShipOptions, ChannelError> {
        let package = self.package_of(session, order_id).await?;
        self.call(Some(session), &format!("{PACKAGES}/{package}/handover_time_slots"), &[], None).await?;
        Ok(ShipOptions { platform: true, ..ShipOptions::default() })
    }

    async fn arrange(&self, session: Session<'_>, order_id: &str, how: &Handover) -> Result<(), ChannelError> {
        if *how != Handover::Platform {
            return Err(ChannelError::rejected(
                "handover",
                "TikTok Shop hands a Thai shop's parcels over as its warehouse is set up in Seller Center",
            ));
        }
        let package = self.package_of(session, order_id).await?;
        self.call(Some(session), &format!("{PACKAGES}/{package}/ship"), &[], Some(&json!({}))).await?;
        Ok(())
    }

    async fn tracking_no(&self, session: Session<'_>, order_id: &str) -> Result<Option<String>, ChannelError> {
        let package = self.package_of(session, order_id).await?;
        let data = self.call(Some(session), &format!("{PACKAGES}/{package}"), &[], None).await?;
        let number = text(data.get("tracking_number"));
        Ok((!number.is_empty()).then_some(number))
    }

    async fn label(&self, session: Session<'_>, order_id: &str, _tracking_no: &str) -> Result<Vec<u8>, ChannelError> {
        let package = self.package_of(session, order_id).await?;
        let query = [("document_type", "SHIPPING_LABEL".to_string()), ("document_size", "A6".to_string())];
        let data = self.call(Some(session), &format!("{PACKAGES}/{package}/shipping_documents"), &query, None).await?;
        let link = text(data.get("doc_url"));
        if !may_fetch(&link, &self.config.api_url) {
            return Err(ChannelError::Malformed("tiktok_shop: the label's link is not one to follow".into()));
        }
        let (_, bytes) = answer(WHO, send(WHO, self.http.get(link)).await?).await?;
        if !is_pdf(&bytes) {
            return Err(ChannelError::Malformed("tiktok_shop: the label is not a PDF".into()));
        }
        Ok(bytes.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_orders_packages_are_read_from_its_detail() {
        let o: Order = serde_json::from_value(json!({ "id": "576461413038785752", "status": "AWAITING_SHIPMENT",
            "packages": [{ "id": "1152321127278713123" }] }))
        .unwrap();
        assert_eq!(o.packages.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["1152321127278713123"]);
        assert_eq!(text(Some(&json!("752455325694 "))), "752455325694");
        assert_eq!(text(Some(&json!(7))), "7");
        assert_eq!(text(None), "");
    }
}
