//! What a platform's words for a buyer's return mean: one table per marketplace from its
//! status words to a [`ReturnStage`] common to all of them (the orders service's stages).
//!
//! | stage | Shopee | Lazada (reverse line) | TikTok Shop |
//! |---|---|---|---|
//! | requested | REQUESTED, JUDGING, SELLER_DISPUTE | REQUEST_INITIATE, RTM_INIT, RTW_INIT, REFUND_INIT | RETURN_OR_REFUND_REQUEST_PENDING, AWAITING_BUYER_RESPONSE, REPLACEMENT_REQUEST_PENDING |
//! | accepted | PROCESSING | REFUND_PENDING | AWAITING_BUYER_SHIP |
//! | shipped back | (LOGISTICS_PICKUP_DONE) | RTM_SHIPPING_BACK, RTW_SHIPPING_BACK | BUYER_SHIPPED_ITEM |
//! | delivered back | (LOGISTICS_DELIVERY_DONE) | RTM_RECEIVE_ITEM | REJECT_RECEIVE_PACKAGE |
//! | refunded | ACCEPTED | RTW_REFUND_PENDING, REFUND_SUCCESS | RETURN_OR_REFUND_REQUEST_SUCCESS, RETURN_OR_REFUND_REQUEST_COMPLETE, REPLACEMENT_REQUEST_REFUND_SUCCESS, REPLACEMENT_REQUEST_COMPLETE |
//! | closed | CANCELLED, CLOSED | REQUEST_REJECT, REQUEST_CANCEL, RTM_CANCELED, RTW_CANCELED, RTW_REJECT, REFUND_REJECTED | REFUND_OR_RETURN_REQUEST_REJECT, RETURN_OR_REFUND_REQUEST_CANCEL, REPLACEMENT_REQUEST_REJECT, REPLACEMENT_REQUEST_CANCEL |
//!
//! Shopee's return statuses say nothing of the parcel: where the goods are comes from the
//! return's reverse logistics status (in brackets), which moves a return that is not yet
//! refunded or closed on ([`shopee_stage`]). TikTok Shop has no status for a parcel that
//! reached the seller; a package the seller inspected and rejected is one.

use serde::{Deserialize, Serialize};

use super::Marketplace;

/// Where a buyer's return stands, in words common to every marketplace; a later stage is
/// further along (closed is an end apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnStage {
    /// Asked for: the platform or the seller decides.
    Requested,
    /// Accepted: the buyer is to send the goods back.
    Accepted,
    /// The goods are on their way back.
    ShippedBack,
    /// The goods reached the seller.
    DeliveredBack,
    /// The buyer was refunded.
    Refunded,
    /// Rejected, withdrawn or cancelled.
    Closed,
}

/// Shopee's return statuses (`get_return_list`'s `status`).
pub const SHOPEE: &[(&str, ReturnStage)] = &[
    ("REQUESTED", ReturnStage::Requested),
    ("JUDGING", ReturnStage::Requested),
    ("SELLER_DISPUTE", ReturnStage::Requested),
    ("PROCESSING", ReturnStage::Accepted),
    ("ACCEPTED", ReturnStage::Refunded),
    ("CANCELLED", ReturnStage::Closed),
    ("CLOSED", ReturnStage::Closed),
];

/// Shopee's reverse logistics statuses that say where the goods are.
pub const SHOPEE_LOGISTICS: &[(&str, ReturnStage)] =
    &[("LOGISTICS_PICKUP_DONE", ReturnStage::ShippedBack), ("LOGISTICS_DELIVERY_DONE", ReturnStage::DeliveredBack)];

/// Lazada's reverse statuses (a reverse order line's `reverse_status`: the API's words and
/// the reverse push's).
pub const LAZADA: &[(&str, ReturnStage)] = &[
    ("REQUEST_INITIATE", ReturnStage::Requested),
    ("RTM_INIT", ReturnStage::Requested),
    ("RTW_INIT", ReturnStage::Requested),
    ("REFUND_INIT", ReturnStage::Requested),
    ("REFUND_PENDING", ReturnStage::Accepted),
    ("RTM_SHIPPING_BACK", ReturnStage::ShippedBack),
    ("RTW_SHIPPING_BACK", ReturnStage::ShippedBack),
    ("RTM_RECEIVE_ITEM", ReturnStage::DeliveredBack),
    ("RTW_REFUND_PENDING", ReturnStage::Refunded),
    ("REFUND_SUCCESS", ReturnStage::Refunded),
    ("REQUEST_REJECT", ReturnStage::Closed),
    ("REQUEST_CANCEL", ReturnStage::Closed),
    ("RTM_CANCELED", ReturnStage::Closed),
    ("RTW_CANCELED", ReturnStage::Closed),
    ("RTW_REJECT", ReturnStage::Closed),
    ("REFUND_REJECTED", ReturnStage::Closed),
];

/// TikTok Shop's return statuses (Search Returns' `return_status`).
pub const TIKTOK_SHOP: &[(&str, ReturnStage)] = &[
    ("RETURN_OR_REFUND_REQUEST_PENDING", ReturnStage::Requested),
    ("AWAITING_BUYER_RESPONSE", ReturnStage::Requested),
    ("REPLACEMENT_REQUEST_PENDING", ReturnStage::Requested),
    ("AWAITING_BUYER_SHIP", ReturnStage::Accepted),
    ("BUYER_SHIPPED_ITEM", ReturnStage::ShippedBack),
    ("REJECT_RECEIVE_PACKAGE", ReturnStage::DeliveredBack),
    ("RETURN_OR_REFUND_REQUEST_SUCCESS", ReturnStage::Refunded),
    ("RETURN_OR_REFUND_REQUEST_COMPLETE", ReturnStage::Refunded),
    ("REPLACEMENT_REQUEST_REFUND_SUCCESS", ReturnStage::Refunded),
    ("REPLACEMENT_REQUEST_COMPLETE", ReturnStage::Refunded),
    ("REFUND_OR_RETURN_REQUEST_REJECT", ReturnStage::Closed),
    ("RETURN_OR_REFUND_REQUEST_CANCEL", ReturnStage::Closed),
    ("REPLACEMENT_REQUEST_REJECT", ReturnStage::Closed),
    ("REPLACEMENT_REQUEST_CANCEL", ReturnStage::Closed),
];

/// The table of `marketplace`.
pub fn table(marketplace: Marketplace) -> &'static [(&'static str, ReturnStage)] {
    match marketplace {
        Marketplace::Shopee => SHOPEE,
        Marketplace::Lazada => LAZADA,
        Marketplace::TiktokShop => TIKTOK_SHOP,
    }
}

fn find(table: &[(&str, ReturnStage)], word: &str) -> Option<ReturnStage> {
    let word = word.trim();
    table.iter().find(|(w, _)| w.eq_ignore_ascii_case(word)).map(|(_, s)| *s)
}

/// The stage of a return status word of `marketplace`; `None` for a word we do not know (the
/// return is left as it was, and the word logged).
pub fn stage(marketplace: Marketplace, status: &str) -> Option<ReturnStage> {
    find(table(marketplace), status)
}

/// A Shopee return's stage: its status, moved on by where its parcel is while it is neither
/// refunded nor closed.
pub fn shopee_stage(status: &str, logistics: &str) -> Option<ReturnStage> {
    let by_status = find(SHOPEE, status)?;
    Some(match (by_status, find(SHOPEE_LOGISTICS, logistics)) {
        (ReturnStage::Refunded | ReturnStage::Closed, _) | (_, None) => by_status,
        (_, Some(parcel)) => by_status.max(parcel),
    })
}

/// The stage of a return whose lines each have a status (Lazada): the lines still standing
/// decide, the least advanced of them; a return whose every line is closed is closed.
pub fn stage_of_lines<'a>(
    marketplace: Marketplace,
    statuses: impl IntoIterator<Item = &'a str>,
) -> Option<ReturnStage> {
    let stages: Vec<ReturnStage> = statuses.into_iter().filter_map(|s| stage(marketplace, s)).collect();
    stages.iter().copied().filter(|s| *s != ReturnStage::Closed).min().or_else(|| stages.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ReturnStage as R;

    /// Every row of every table, a test per row.
    fn expect(marketplace: Marketplace, rows: &[(&str, ReturnStage)]) {
        assert_eq!(rows.len(), table(marketplace).len(), "every row of {marketplace:?} is checked");
        for (word, stage_) in rows {
            assert_eq!(stage(marketplace, word), Some(*stage_), "{marketplace:?} {word}");
        }
    }

    #[test]
    fn shopee_return_statuses() {
        expect(
            Marketplace::Shopee,
            &[
                ("REQUESTED", R::Requested),
                ("JUDGING", R::Requested),
                ("SELLER_DISPUTE", R::Requested),
                ("PROCESSING", R::Accepted),
                ("ACCEPTED", R::Refunded),
                ("CANCELLED", R::Closed),
                ("CLOSED", R::Closed),
            ],
        );
    }

    #[test]
    fn lazada_reverse_statuses() {
        expect(
            Marketplace::Lazada,
            &[
                ("REQUEST_INITIATE", R::Requested),
                ("RTM_INIT", R::Requested),
                ("RTW_INIT", R::Requested),
                ("REFUND_INIT", R::Requested),
                ("REFUND_PENDING", R::Accepted),
                ("RTM_SHIPPING_BACK", R::ShippedBack),
                ("RTW_SHIPPING_BACK", R::ShippedBack),
                ("RTM_RECEIVE_ITEM", R::DeliveredBack),
                ("RTW_REFUND_PENDING", R::Refunded),
                ("REFUND_SUCCESS", R::Refunded),
                ("REQUEST_REJECT", R::Closed),
                ("REQUEST_CANCEL", R::Closed),
                ("RTM_CANCELED", R::Closed),
                ("RTW_CANCELED", R::Closed),
                ("RTW_REJECT", R::Closed),
                ("REFUND_REJECTED", R::Closed),
            ],
        );
    }

    #[test]
    fn tiktok_shop_return_statuses() {
        expect(
            Marketplace::TiktokShop,
            &[
                ("RETURN_OR_REFUND_REQUEST_PENDING", R::Requested),
                ("AWAITING_BUYER_RESPONSE", R::Requested),
                ("REPLACEMENT_REQUEST_PENDING", R::Requested),
                ("AWAITING_BUYER_SHIP", R::Accepted),
                ("BUYER_SHIPPED_ITEM", R::ShippedBack),
                ("REJECT_RECEIVE_PACKAGE", R::DeliveredBack),
                ("RETURN_OR_REFUND_REQUEST_SUCCESS", R::Refunded),
                ("RETURN_OR_REFUND_REQUEST_COMPLETE", R::Refunded),
                ("REPLACEMENT_REQUEST_REFUND_SUCCESS", R::Refunded),
                ("REPLACEMENT_REQUEST_COMPLETE", R::Refunded),
                ("REFUND_OR_RETURN_REQUEST_REJECT", R::Closed),
                ("RETURN_OR_REFUND_REQUEST_CANCEL", R::Closed),
                ("REPLACEMENT_REQUEST_REJECT", R::Closed),
                ("REPLACEMENT_REQUEST_CANCEL", R::Closed),
            ],
        );
    }

    #[test]
    fn a_shopee_returns_parcel_moves_it_on_until_it_is_refunded_or_closed() {
        for (status, logistics, expected) in [
            ("REQUESTED", "", Some(R::Requested)),
            ("REQUESTED", "LOGISTICS_PICKUP_DONE", Some(R::ShippedBack)),
            ("PROCESSING", "LOGISTICS_READY", Some(R::Accepted)),
            ("PROCESSING", "LOGISTICS_PICKUP_DONE", Some(R::ShippedBack)),
            ("PROCESSING", "LOGISTICS_DELIVERY_DONE", Some(R::DeliveredBack)),
            ("JUDGING", "LOGISTICS_DELIVERY_DONE", Some(R::DeliveredBack)),
            ("ACCEPTED", "LOGISTICS_DELIVERY_DONE", Some(R::Refunded)),
            ("CANCELLED", "LOGISTICS_PICKUP_DONE", Some(R::Closed)),
            ("SOMETHING_NEW", "LOGISTICS_PICKUP_DONE", None),
        ] {
            assert_eq!(shopee_stage(status, logistics), expected, "{status} {logistics}");
        }
    }

    #[test]
    fn a_return_of_lines_stands_where_its_least_advanced_standing_line_is() {
        let lz = Marketplace::Lazada;
        assert_eq!(stage_of_lines(lz, ["RTM_RECEIVE_ITEM", "RTM_SHIPPING_BACK"]), Some(R::ShippedBack));
        assert_eq!(stage_of_lines(lz, ["RTM_CANCELED", "RTM_RECEIVE_ITEM"]), Some(R::DeliveredBack));
        assert_eq!(stage_of_lines(lz, ["RTM_CANCELED", "REQUEST_REJECT"]), Some(R::Closed));
        assert_eq!(stage_of_lines(lz, ["unknown", "REFUND_SUCCESS"]), Some(R::Refunded));
        assert_eq!(stage_of_lines(lz, ["unknown"]), None);
        assert_eq!(stage(lz, " rtm_init "), Some(R::Requested), "case and spaces are ignored");
    }
}
