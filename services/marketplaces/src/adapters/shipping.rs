//! Shipping a marketplace order the platform's way: how the platform lets the seller hand a
//! parcel to its carrier (a pick-up at one of the shop's addresses in a time slot, a drop-off
//! at a branch, or the seller's own carrier with its tracking number), arranging it, the
//! tracking number the platform's carrier gives, and the platform's own label (air waybill)
//! as a PDF. The shapes are the platform's; the service sees these types only.

use async_trait::async_trait;

use super::{ChannelError, Session};

/// A pick-up time the platform offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickupSlot {
    /// The platform's id of it.
    pub id: String,
    /// Its day, seconds.
    pub date_s: i64,
    /// How the platform words it ("" when it gives only the date).
    pub text: String,
}

/// A shop address the platform's carrier picks up from, with its times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickupAddress {
    pub id: String,
    /// One line: address, district, province, postcode.
    pub address: String,
    /// The shop's default pick-up address.
    pub default: bool,
    pub slots: Vec<PickupSlot>,
}

/// How an order may be handed over, as the platform answers for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShipOptions {
    /// Pick-up addresses (empty: no pick-up offered).
    pub pickup: Vec<PickupAddress>,
    /// The seller may drop the parcel at a branch of the carrier.
    pub dropoff: bool,
    /// The seller may ship with a carrier of their own, giving its tracking number.
    pub own_carrier: bool,
    /// The platform's carrier takes it as the shop is set up on the platform (picked up or
    /// dropped off, which the seller chose there, not per order).
    pub platform: bool,
}

/// The seller's choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handover {
    Pickup {
        address_id: String,
        slot_id: String,
    },
    Dropoff,
    OwnCarrier {
        tracking_no: String,
    },
    /// The platform's carrier, as the shop is set up on the platform.
    Platform,
}

/// A marketplace's shipping calls.
#[async_trait]
pub trait Shipping: Send + Sync {
    /// How the order may be handed over now (refused when the platform will not ship it:
    /// not ready, cancelled, on hold).
    async fn ship_options(&self, session: Session<'_>, order_id: &str) -> Result<ShipOptions, ChannelError>;

    /// Arranges the shipment as chosen.
    async fn arrange(&self, session: Session<'_>, order_id: &str, how: &Handover) -> Result<(), ChannelError>;

    /// The tracking number the platform's carrier gave (`None` while it has given none yet).
    async fn tracking_no(&self, session: Session<'_>, order_id: &str) -> Result<Option<String>, ChannelError>;

    /// The platform's label of an arranged order, A6 thermal where it offers it: a PDF.
    async fn label(&self, session: Session<'_>, order_id: &str, tracking_no: &str) -> Result<Vec<u8>, ChannelError>;
}

/// True when `bytes` is a PDF file.
pub fn is_pdf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"%PDF-")
}

/// Whether a link a platform gives for a file (a label) may be followed: over https, or to
/// the configured API host itself (`api_url`; how the sandboxes serve them).
pub fn may_fetch(link: &str, api_url: &str) -> bool {
    let (Ok(link), Ok(api)) = (reqwest::Url::parse(link), reqwest::Url::parse(api_url)) else {
        return false;
    };
    link.scheme() == "https"
        || (link.scheme() == api.scheme() && link.host() == api.host() && link.port() == api.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_link_is_followed_over_https_or_to_the_api_host_only() {
        let api = "http://127.0.0.1:4000/rest";
        assert!(may_fetch("https://sellercenter.lazada.co.th/oss/proxy/a.pdf?Expires=1", api));
        assert!(may_fetch("http://127.0.0.1:4000/sandbox/lazada/awb/FP1.pdf", api));
        assert!(!may_fetch("http://127.0.0.1:5432/", api));
        assert!(!may_fetch("file:///etc/passwd", api));
        assert!(!may_fetch("", api));
        assert!(is_pdf(b"%PDF-1.7") && !is_pdf(b"<html>"));
    }
}
