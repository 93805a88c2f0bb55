//! Buyers' returns as a platform reports them: the returns of a shop that changed in a time
//! window, a page at a time, each with the marketplace order it returns, its status word and
//! what it means, whether goods come back, the refund and what the buyer sends back.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{ChannelError, Session};
use crate::domain::returns::ReturnStage;

/// A buyer's return as the rest of the service sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketReturn {
    /// The platform's return id (Shopee's `return_sn`, Lazada's `reverse_order_id`, TikTok's
    /// `return_id`).
    pub return_id: String,
    /// The marketplace order it returns (as [`super::MarketOrder::order_id`]).
    pub order_id: String,
    /// The platform's status word (Lazada: its lines' words, joined).
    pub status: String,
    /// What it means, when we know the word.
    pub stage: Option<ReturnStage>,
    /// A refund without goods coming back.
    pub refund_only: bool,
    /// The buyer's reason, in the platform's words.
    pub reason: String,
    /// What the buyer is refunded, satang.
    pub refund_satang: i64,
    /// The return parcel's tracking number.
    pub tracking_no: String,
    /// When it changed last, unix seconds.
    pub updated_at_s: i64,
    /// What comes back.
    pub lines: Vec<ReturnLine>,
}

/// A listing's units a return sends back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReturnLine {
    /// The listing, where the platform names it (TikTok Shop's returns name the SKU only).
    pub item_id: String,
    /// The variation (Shopee's `model_id`, Lazada's SKU id, TikTok's `sku_id`).
    pub model_id: String,
    /// The seller's SKU code on it.
    pub seller_sku: String,
    /// What the buyer saw.
    pub name: String,
    /// Units.
    pub quantity: i64,
}

/// One page of changed returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnsPage {
    /// The returns.
    pub returns: Vec<MarketReturn>,
    /// The cursor of the next page, if there is one.
    pub next: Option<String>,
}

/// A marketplace's buyers' returns.
#[async_trait]
pub trait Returns: Send + Sync {
    /// The longest window of one query, seconds.
    fn window_s(&self) -> i64;

    /// The shop's returns changed in `[from_s, to_s)` (at most [`Returns::window_s`] long), a
    /// page at a time from `cursor`.
    async fn changed_returns(
        &self,
        session: Session<'_>,
        from_s: i64,
        to_s: i64,
        cursor: Option<&str>,
    ) -> Result<ReturnsPage, ChannelError>;
}

/// Lines of one listing added up, in the order first seen (Lazada and TikTok Shop send one
/// line per unit).
pub(crate) fn merged(lines: Vec<ReturnLine>) -> Vec<ReturnLine> {
    let mut out: Vec<ReturnLine> = Vec::new();
    for l in lines {
        match out
            .iter_mut()
            .find(|o| o.item_id == l.item_id && o.model_id == l.model_id && o.seller_sku == l.seller_sku)
        {
            Some(o) => o.quantity += l.quantity,
            None => out.push(l),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_of_one_listing_add_up() {
        let unit = |model: &str| ReturnLine { model_id: model.into(), quantity: 1, ..Default::default() };
        let got = merged(vec![unit("1"), unit("2"), unit("1")]);
        assert_eq!(got.iter().map(|l| (l.model_id.as_str(), l.quantity)).collect::<Vec<_>>(), vec![("1", 2), ("2", 1)]);
    }
}
