//! What a marketplace order's status means for our order: one table per marketplace from
//! its words to a [`Stage`], and one from a stage to our order's state and whether the buyer
//! has paid ([`Stage::order`]).
//!
//! | stage | our order | paid | to prepare |
//! |---|---|---|---|
//! | unpaid | new | no | no |
//! | on hold (TikTok's first hour) | new | yes | no |
//! | cancel asked (Shopee's `IN_CANCEL`) | new | yes | no |
//! | paid | new | yes | yes |
//! | packed | ready_to_fulfillment | yes | yes |
//! | shipped | shipped | yes | no |
//! | delivered | closed | yes | no |
//! | cancelled | cancelled | as it was | no |
//! | failed (returned, lost, delivery failed) | failed | yes | no |

use serde::{Deserialize, Serialize};

use super::Marketplace;

/// Where a marketplace order stands, in words common to every marketplace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Placed, not paid (COD orders skip this).
    Unpaid,
    /// Paid, in the marketplace's hold period: must not be fulfilled yet.
    OnHold,
    /// Paid (or COD confirmed), waiting for the seller.
    Paid,
    /// The buyer asked to cancel; the seller answers on the marketplace.
    CancelAsked,
    /// Packed or arranged for pick-up, not yet with the carrier.
    Packed,
    /// With the carrier.
    Shipped,
    /// Received by the buyer, or completed.
    Delivered,
    /// Cancelled.
    Cancelled,
    /// Returned, lost or failed delivery.
    Failed,
}

/// Our order's state for a stage (the orders service's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderState {
    /// Waiting to be prepared.
    New,
    /// Being prepared.
    ReadyToFulfillment,
    /// Gone with the carrier.
    Shipped,
    /// Done.
    Closed,
    /// Cancelled: its stock goes back.
    Cancelled,
    /// Fulfilment failed.
    Failed,
}

/// What a stage means for our order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meaning {
    /// Our order's state.
    pub state: OrderState,
    /// The buyer has paid (`None`: as it was, for a cancellation).
    pub paid: Option<bool>,
    /// The warehouse may prepare it.
    pub to_prepare: bool,
}

impl Stage {
    /// What the stage means for our order (the table at the top of this module).
    pub fn order(self) -> Meaning {
        use OrderState as S;
        let (state, paid, to_prepare) = match self {
            Stage::Unpaid => (S::New, Some(false), false),
            Stage::OnHold | Stage::CancelAsked => (S::New, Some(true), false),
            Stage::Paid => (S::New, Some(true), true),
            Stage::Packed => (S::ReadyToFulfillment, Some(true), true),
            Stage::Shipped => (S::Shipped, Some(true), false),
            Stage::Delivered => (S::Closed, Some(true), false),
            Stage::Cancelled => (S::Cancelled, None, false),
            Stage::Failed => (S::Failed, Some(true), false),
        };
        Meaning { state, paid, to_prepare }
    }
}

/// Shopee's order statuses (`order_status`, push code 3's `status`).
pub const SHOPEE: &[(&str, Stage)] = &[
    ("UNPAID", Stage::Unpaid),
    ("PENDING", Stage::Unpaid),
    ("READY_TO_SHIP", Stage::Paid),
    ("INVOICE_PENDING", Stage::Paid),
    ("IN_CANCEL", Stage::CancelAsked),
    ("PROCESSED", Stage::Packed),
    ("RETRY_SHIP", Stage::Packed),
    ("SHIPPED", Stage::Shipped),
    ("TO_CONFIRM_RECEIVE", Stage::Shipped),
    ("COMPLETED", Stage::Delivered),
    ("CANCELLED", Stage::Cancelled),
    ("TO_RETURN", Stage::Failed),
];

/// Lazada's order statuses (an order's `statuses`, one per item; pushes' `order_status`).
pub const LAZADA: &[(&str, Stage)] = &[
    ("unpaid", Stage::Unpaid),
    ("pending", Stage::Paid),
    ("topack", Stage::Paid),
    ("packed", Stage::Packed),
    ("repacked", Stage::Packed),
    ("toship", Stage::Packed),
    ("ready_to_ship", Stage::Packed),
    ("ready_to_ship_pending", Stage::Packed),
    ("shipping", Stage::Shipped),
    ("shipped", Stage::Shipped),
    ("delivered", Stage::Delivered),
    ("confirmed", Stage::Delivered),
    ("canceled", Stage::Cancelled),
    ("returned", Stage::Failed),
    ("failed", Stage::Failed),
    ("failed_delivery", Stage::Failed),
    ("lost", Stage::Failed),
    ("damaged", Stage::Failed),
];

/// TikTok Shop's order statuses (202309; webhooks also write `CANCEL`).
pub const TIKTOK_SHOP: &[(&str, Stage)] = &[
    ("UNPAID", Stage::Unpaid),
    ("ON_HOLD", Stage::OnHold),
    ("AWAITING_SHIPMENT", Stage::Paid),
    ("PARTIALLY_SHIPPING", Stage::Packed),
    ("AWAITING_COLLECTION", Stage::Packed),
    ("IN_TRANSIT", Stage::Shipped),
    ("DELIVERED", Stage::Delivered),
    ("COMPLETED", Stage::Delivered),
    ("CANCELLED", Stage::Cancelled),
    ("CANCEL", Stage::Cancelled),
];

/// The table of `marketplace`.
pub fn table(marketplace: Marketplace) -> &'static [(&'static str, Stage)] {
    match marketplace {
        Marketplace::Shopee => SHOPEE,
        Marketplace::Lazada => LAZADA,
        Marketplace::TiktokShop => TIKTOK_SHOP,
    }
}

/// The stage of a status word of `marketplace`; `None` for a word we do not know (the
/// order keeps the stage it had, and the word is logged).
pub fn stage(marketplace: Marketplace, status: &str) -> Option<Stage> {
    let status = status.trim();
    table(marketplace).iter().find(|(word, _)| word.eq_ignore_ascii_case(status)).map(|(_, s)| *s)
}

/// The stage of an order whose items each have a status (Lazada): the items still standing
/// decide, the least advanced of them (an order ships when its last item does); an order
/// whose every item is cancelled is cancelled. `None` when no word is known.
pub fn stage_of_items<'a>(marketplace: Marketplace, statuses: impl IntoIterator<Item = &'a str>) -> Option<Stage> {
    let stages: Vec<Stage> = statuses.into_iter().filter_map(|s| stage(marketplace, s)).collect();
    let standing = stages.iter().copied().filter(|s| *s != Stage::Cancelled);
    standing.min().or_else(|| stages.first().copied())
}

/// The stage of an order whose platform says apart from its status that the buyer asked to
/// cancel and the seller must answer (Lazada's `need_cancel_confirm` on an item, TikTok
/// Shop's `is_buyer_request_cancel`): an order waiting for the seller or packed waits for the
/// answer; any other stage stays (a shipped order is no longer the seller's to cancel).
pub fn with_cancel_request(stage: Option<Stage>, asked: bool) -> Option<Stage> {
    match stage {
        Some(Stage::Paid | Stage::Packed) if asked => Some(Stage::CancelAsked),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderState as S;

    #[test]
    fn a_buyers_request_waits_for_the_seller_only_before_shipping() {
        for (stage, asked, after) in [
            (Some(Stage::Paid), true, Some(Stage::CancelAsked)),
            (Some(Stage::Packed), true, Some(Stage::CancelAsked)),
            (Some(Stage::Paid), false, Some(Stage::Paid)),
            (Some(Stage::Unpaid), true, Some(Stage::Unpaid)),
            (Some(Stage::OnHold), true, Some(Stage::OnHold)),
            (Some(Stage::Shipped), true, Some(Stage::Shipped)),
            (Some(Stage::Cancelled), true, Some(Stage::Cancelled)),
            (None, true, None),
        ] {
            assert_eq!(with_cancel_request(stage, asked), after, "{stage:?} asked {asked}");
        }
    }

    /// Every row of every table, as the issue asks: a test per row.
    fn expect(marketplace: Marketplace, rows: &[(&str, Stage, OrderState, Option<bool>)]) {
        assert_eq!(rows.len(), table(marketplace).len(), "every row of {marketplace:?} is checked");
        for (word, stage_, state, paid) in rows {
            let got = stage(marketplace, word).unwrap_or_else(|| panic!("{marketplace:?} {word}"));
            assert_eq!(got, *stage_, "{marketplace:?} {word}");
            let m = got.order();
            assert_eq!((m.state, m.paid), (*state, *paid), "{marketplace:?} {word}");
        }
    }

    #[test]
    fn shopee_statuses() {
        expect(
            Marketplace::Shopee,
            &[
                ("UNPAID", Stage::Unpaid, S::New, Some(false)),
                ("PENDING", Stage::Unpaid, S::New, Some(false)),
                ("READY_TO_SHIP", Stage::Paid, S::New, Some(true)),
                ("INVOICE_PENDING", Stage::Paid, S::New, Some(true)),
                ("IN_CANCEL", Stage::CancelAsked, S::New, Some(true)),
                ("PROCESSED", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("RETRY_SHIP", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("SHIPPED", Stage::Shipped, S::Shipped, Some(true)),
                ("TO_CONFIRM_RECEIVE", Stage::Shipped, S::Shipped, Some(true)),
                ("COMPLETED", Stage::Delivered, S::Closed, Some(true)),
                ("CANCELLED", Stage::Cancelled, S::Cancelled, None),
                ("TO_RETURN", Stage::Failed, S::Failed, Some(true)),
            ],
        );
    }

    #[test]
    fn lazada_statuses() {
        expect(
            Marketplace::Lazada,
            &[
                ("unpaid", Stage::Unpaid, S::New, Some(false)),
                ("pending", Stage::Paid, S::New, Some(true)),
                ("topack", Stage::Paid, S::New, Some(true)),
                ("packed", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("repacked", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("toship", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("ready_to_ship", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("ready_to_ship_pending", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("shipping", Stage::Shipped, S::Shipped, Some(true)),
                ("shipped", Stage::Shipped, S::Shipped, Some(true)),
                ("delivered", Stage::Delivered, S::Closed, Some(true)),
                ("confirmed", Stage::Delivered, S::Closed, Some(true)),
                ("canceled", Stage::Cancelled, S::Cancelled, None),
                ("returned", Stage::Failed, S::Failed, Some(true)),
                ("failed", Stage::Failed, S::Failed, Some(true)),
                ("failed_delivery", Stage::Failed, S::Failed, Some(true)),
                ("lost", Stage::Failed, S::Failed, Some(true)),
                ("damaged", Stage::Failed, S::Failed, Some(true)),
            ],
        );
    }

    #[test]
    fn tiktok_shop_statuses() {
        expect(
            Marketplace::TiktokShop,
            &[
                ("UNPAID", Stage::Unpaid, S::New, Some(false)),
                ("ON_HOLD", Stage::OnHold, S::New, Some(true)),
                ("AWAITING_SHIPMENT", Stage::Paid, S::New, Some(true)),
                ("PARTIALLY_SHIPPING", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("AWAITING_COLLECTION", Stage::Packed, S::ReadyToFulfillment, Some(true)),
                ("IN_TRANSIT", Stage::Shipped, S::Shipped, Some(true)),
                ("DELIVERED", Stage::Delivered, S::Closed, Some(true)),
                ("COMPLETED", Stage::Delivered, S::Closed, Some(true)),
                ("CANCELLED", Stage::Cancelled, S::Cancelled, None),
                ("CANCEL", Stage::Cancelled, S::Cancelled, None),
            ],
        );
    }

    #[test]
    fn only_paid_and_packed_orders_are_prepared() {
        let prepared: Vec<Stage> = [
            Stage::Unpaid,
            Stage::OnHold,
            Stage::Paid,
            Stage::CancelAsked,
            Stage::Packed,
            Stage::Shipped,
            Stage::Delivered,
            Stage::Cancelled,
            Stage::Failed,
        ]
        .into_iter()
        .filter(|s| s.order().to_prepare)
        .collect();
        assert_eq!(prepared, vec![Stage::Paid, Stage::Packed]);
    }

    #[test]
    fn unknown_words_change_nothing() {
        assert_eq!(stage(Marketplace::Shopee, "SOMETHING_NEW"), None);
        assert_eq!(stage(Marketplace::Lazada, ""), None);
        assert_eq!(stage(Marketplace::Shopee, " ready_to_ship "), Some(Stage::Paid), "case and spaces are ignored");
    }

    #[test]
    fn an_order_of_items_stands_where_its_least_advanced_standing_item_is() {
        let lz = Marketplace::Lazada;
        assert_eq!(stage_of_items(lz, ["shipped", "packed"]), Some(Stage::Packed));
        assert_eq!(
            stage_of_items(lz, ["canceled", "shipped"]),
            Some(Stage::Shipped),
            "a cancelled item does not hold it back"
        );
        assert_eq!(stage_of_items(lz, ["canceled", "canceled"]), Some(Stage::Cancelled));
        assert_eq!(stage_of_items(lz, ["delivered", "unknown_word"]), Some(Stage::Delivered));
        assert_eq!(stage_of_items(lz, ["unknown_word"]), None);
        assert_eq!(stage_of_items(lz, Vec::<&str>::new()), None);
    }
}
