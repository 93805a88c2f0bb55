//! Buyers' returns of orders, pure: the stages a marketplace reports in words common to
//! every platform, what a return line of the platform's is on the order ([`match_lines`]),
//! whether a return's goods may be received ([`receivable`]), what counting them must hold
//! ([`counts`]), and the one word that says where an order's returns stand ([`mark`]).
//!
//! | stage | goods may come back | the order's mark while not received |
//! |---|---|---|
//! | requested, accepted, shipped back, delivered back | yes | open |
//! | refunded | yes, unless refund only | open (refund only: refunded) |
//! | closed | no | closed |
//!
//! Goods received back mark the return received whatever its stage.

use std::collections::BTreeMap;

use bo_kit::{Code, Error, FieldError, Result};
use serde::{Deserialize, Serialize};

/// Where a return stands at its platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Asked for: the platform or the seller decides.
    Requested,
    /// Accepted: the buyer is to send the goods back.
    Accepted,
    /// The goods are on their way back.
    ShippedBack,
    /// The platform says the goods reached the seller.
    DeliveredBack,
    /// The buyer was refunded.
    Refunded,
    /// Rejected, withdrawn or cancelled.
    Closed,
}

impl Stage {
    /// Every stage.
    pub const ALL: [Stage; 6] =
        [Stage::Requested, Stage::Accepted, Stage::ShippedBack, Stage::DeliveredBack, Stage::Refunded, Stage::Closed];

    /// Its word in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Requested => "requested",
            Stage::Accepted => "accepted",
            Stage::ShippedBack => "shipped_back",
            Stage::DeliveredBack => "delivered_back",
            Stage::Refunded => "refunded",
            Stage::Closed => "closed",
        }
    }

    /// The stage of a stored word.
    pub fn parse(s: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// Where an order's returns stand, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// No return.
    None,
    /// Every return was rejected or withdrawn.
    Closed,
    /// Refunded without goods to receive.
    Refunded,
    /// Goods came back and were received.
    Received,
    /// A return waits: goods may come back.
    Open,
}

impl Mark {
    /// Its word in storage and in filters ("" for none).
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Closed => "closed",
            Mark::Refunded => "refunded",
            Mark::Received => "received",
            Mark::Open => "open",
        }
    }

    /// The mark of a word.
    pub fn parse(s: &str) -> Option<Mark> {
        [Mark::None, Mark::Closed, Mark::Refunded, Mark::Received, Mark::Open].into_iter().find(|m| m.as_str() == s)
    }
}

/// What decides a return's own mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// Its stage.
    pub stage: Stage,
    /// A refund without goods coming back.
    pub refund_only: bool,
    /// Its goods were received.
    pub received: bool,
}

/// One return's mark (the table at the top of this module).
pub fn mark_of(f: Facts) -> Mark {
    if f.received {
        return Mark::Received;
    }
    match f.stage {
        Stage::Closed => Mark::Closed,
        Stage::Refunded if f.refund_only => Mark::Refunded,
        _ => Mark::Open,
    }
}

/// An order's mark: an open return first, then goods received, a refund, a closed return.
pub fn mark(returns: impl IntoIterator<Item = Facts>) -> Mark {
    returns.into_iter().map(mark_of).max().unwrap_or(Mark::None)
}

/// A line of the order, as a return line is matched against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderLine {
    /// The line.
    pub item_id: i64,
    /// Its SKU (0 for a marketplace line without one).
    pub sku_id: i64,
    /// The listing it was sold as.
    pub listing: String,
    /// Units sold.
    pub quantity: i64,
    /// Product name and SKU code, as sold.
    pub name: String,
    pub sku_code: String,
}

/// A line of a return as the platform reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformLine {
    /// The listing.
    pub listing: String,
    /// The SKU its units are (0: by listing alone).
    pub sku_id: i64,
    /// Units.
    pub quantity: i64,
    /// What the buyer saw.
    pub name: String,
}

/// A return line on the order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The order's line (0: none matches).
    pub item_id: i64,
    /// Its SKU (0: none).
    pub sku_id: i64,
    /// As sold.
    pub name: String,
    pub sku_code: String,
    /// Units the buyer returns.
    pub quantity: i64,
    /// Units received back fit to sell, and defective.
    #[serde(default)]
    pub good: i64,
    #[serde(default)]
    pub defective: i64,
}

/// The order's lines the platform's return lines are: each matched by its listing (and its
/// SKU where it names one, a bundle's parts being lines of one listing; a listing of one line
/// whatever SKU it is linked to now), at most as many
/// units as the line sold, the units of one line added up; a platform line that matches
/// none of the order's is kept by its name alone (it cannot be received).
pub fn match_lines(order: &[OrderLine], platform: &[PlatformLine]) -> Vec<Line> {
    let mut by_item: BTreeMap<i64, Line> = BTreeMap::new();
    let mut unmatched = Vec::new();
    for p in platform.iter().filter(|p| p.quantity > 0) {
        let of_listing: Vec<&OrderLine> = order.iter().filter(|o| same_listing(&o.listing, &p.listing)).collect();
        // By listing and SKU; a listing linked anew since the order still finds its one line.
        let found = of_listing
            .iter()
            .find(|o| p.sku_id <= 0 || o.sku_id == p.sku_id)
            .or_else(|| if of_listing.len() == 1 { of_listing.first() } else { None })
            .copied();
        match found {
            Some(o) => {
                let line = by_item.entry(o.item_id).or_insert_with(|| Line {
                    item_id: o.item_id,
                    sku_id: o.sku_id,
                    name: o.name.clone(),
                    sku_code: o.sku_code.clone(),
                    ..Default::default()
                });
                line.quantity = (line.quantity + p.quantity).min(o.quantity);
            }
            None => unmatched.push(Line { name: p.name.clone(), quantity: p.quantity, ..Default::default() }),
        }
    }
    let mut out: Vec<Line> = by_item.into_values().collect();
    out.extend(unmatched);
    out
}

/// True when a platform's listing is the order line's: the same, or, where the platform names
/// the variation only (`:model`, TikTok Shop's returns), the line's listing of that variation.
fn same_listing(line: &str, platform: &str) -> bool {
    !platform.is_empty()
        && (line == platform || (platform.starts_with(':') && platform.len() > 1 && line.ends_with(platform)))
}

/// True when a return's goods may be received into stock: the order's stock has left
/// (`stock_left`), they were not received before, and one of its lines is a SKU's.
pub fn receivable(stock_left: bool, received: bool, lines: &[Line]) -> bool {
    stock_left && !received && lines.iter().any(|l| l.sku_id > 0 && l.quantity > 0)
}

/// A line's goods counted as they came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// The order's line.
    pub item_id: i64,
    /// Fit to sell again.
    pub good: i64,
    /// Defective.
    pub defective: i64,
}

/// The return's lines with `counts` written on them, checked: each count names a line of
/// the return that is a SKU's, good and defective are not negative and together no more
/// than the line returns, and something came back. Every broken rule at once, named by the
/// count's place (`lines[i].good`).
pub fn counts(lines: &[Line], counts: &[Count]) -> Result<Vec<Line>> {
    let mut errs = Vec::new();
    let mut out: Vec<Line> = lines.to_vec();
    let mut seen = std::collections::BTreeSet::new();
    for (i, c) in counts.iter().enumerate() {
        let at = |f: &str| format!("lines[{i}].{f}");
        let Some(line) = out.iter_mut().find(|l| l.item_id == c.item_id && l.item_id > 0 && l.sku_id > 0) else {
            errs.push(FieldError::new(at("item_id"), "validation.invalid"));
            continue;
        };
        if !seen.insert(c.item_id) {
            errs.push(FieldError::new(at("item_id"), "validation.duplicate"));
            continue;
        }
        if c.good < 0 || c.defective < 0 || c.good.saturating_add(c.defective) > line.quantity {
            errs.push(FieldError::new(at("good"), "validation.quantity"));
            continue;
        }
        line.good = c.good;
        line.defective = c.defective;
    }
    if errs.is_empty() && out.iter().all(|l| l.good + l.defective == 0) {
        errs.push(FieldError::new("lines", "validation.required"));
    }
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    Ok(out)
}

/// Refuses receiving a return that is not receivable: already received, or the order's
/// stock has not left (`order_return_not_receivable`).
pub fn check_receivable(stock_left: bool, received: bool, lines: &[Line]) -> Result<()> {
    if receivable(stock_left, received, lines) {
        Ok(())
    } else {
        Err(Error::failed_precondition(Code::OrderReturnNotReceivable))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(stage: Stage, refund_only: bool, received: bool) -> Facts {
        Facts { stage, refund_only, received }
    }

    #[test]
    fn a_returns_mark_follows_its_stage_until_its_goods_are_received() {
        for stage in Stage::ALL {
            for refund_only in [false, true] {
                let expected = match (stage, refund_only) {
                    (Stage::Closed, _) => Mark::Closed,
                    (Stage::Refunded, true) => Mark::Refunded,
                    _ => Mark::Open,
                };
                assert_eq!(mark_of(facts(stage, refund_only, false)), expected, "{stage:?} {refund_only}");
                assert_eq!(mark_of(facts(stage, refund_only, true)), Mark::Received, "{stage:?} {refund_only}");
            }
        }
    }

    #[test]
    fn an_orders_mark_is_its_most_pressing_returns() {
        assert_eq!(mark([]), Mark::None);
        let closed = facts(Stage::Closed, false, false);
        let refunded = facts(Stage::Refunded, true, false);
        let received = facts(Stage::Refunded, false, true);
        let open = facts(Stage::ShippedBack, false, false);
        assert_eq!(mark([closed]), Mark::Closed);
        assert_eq!(mark([closed, refunded]), Mark::Refunded);
        assert_eq!(mark([refunded, received, closed]), Mark::Received);
        assert_eq!(mark([received, open, closed]), Mark::Open);
    }

    #[test]
    fn words_read_back() {
        for s in Stage::ALL {
            assert_eq!(Stage::parse(s.as_str()), Some(s));
        }
        assert_eq!(Stage::parse("lost"), None);
        for m in [Mark::None, Mark::Closed, Mark::Refunded, Mark::Received, Mark::Open] {
            assert_eq!(Mark::parse(m.as_str()), Some(m));
        }
    }

    fn order() -> Vec<OrderLine> {
        let line = |item_id, sku_id, listing: &str, quantity| OrderLine {
            item_id,
            sku_id,
            listing: listing.into(),
            quantity,
            name: format!("line {item_id}"),
            sku_code: format!("SKU-{sku_id}"),
        };
        // A plain listing, a bundle of two SKUs (one listing), an unlinked listing.
        vec![line(1, 10, "100:1", 3), line(2, 20, "200:2", 2), line(3, 30, "200:2", 4), line(4, 0, "300", 1)]
    }

    fn platform(listing: &str, sku_id: i64, quantity: i64) -> PlatformLine {
        PlatformLine { listing: listing.into(), sku_id, quantity, name: format!("listing {listing}") }
    }

    #[test]
    fn return_lines_are_the_orders_lines_of_their_listings() {
        let got = match_lines(
            &order(),
            &[
                platform("100:1", 0, 2),
                platform("200:2", 20, 1),
                platform("200:2", 30, 2),
                platform("300", 0, 1),
                platform("999", 0, 1),
                platform("100:1", 0, 0),
            ],
        );
        let seen: Vec<(i64, i64, i64)> = got.iter().map(|l| (l.item_id, l.sku_id, l.quantity)).collect();
        assert_eq!(seen, vec![(1, 10, 2), (2, 20, 1), (3, 30, 2), (4, 0, 1), (0, 0, 1)]);
        assert_eq!(got[0].name, "line 1", "named as sold");
        assert_eq!(got[4].name, "listing 999", "a line matching none keeps the platform's name");
    }

    #[test]
    fn a_variation_named_alone_finds_its_line() {
        let got = match_lines(&order(), &[platform(":1", 0, 1), platform(":", 0, 1), platform("00:1", 0, 1)]);
        let seen: Vec<(i64, i64)> = got.iter().map(|l| (l.item_id, l.quantity)).collect();
        assert_eq!(seen, vec![(1, 1), (0, 1), (0, 1)]);
    }

    #[test]
    fn a_listing_linked_anew_still_finds_its_one_line() {
        let got = match_lines(&order(), &[platform("100:1", 99, 1), platform("200:2", 99, 1)]);
        let seen: Vec<(i64, i64)> = got.iter().map(|l| (l.item_id, l.quantity)).collect();
        assert_eq!(seen, vec![(1, 1), (0, 1)], "a bundle's listing of two lines is not guessed");
    }

    #[test]
    fn a_return_never_takes_more_than_was_sold() {
        let got = match_lines(&order(), &[platform("100:1", 0, 2), platform("100:1", 0, 5)]);
        assert_eq!((got[0].item_id, got[0].quantity), (1, 3));
    }

    #[test]
    fn goods_are_received_once_after_the_stock_left() {
        let lines = match_lines(&order(), &[platform("100:1", 0, 2)]);
        assert!(receivable(true, false, &lines));
        assert!(!receivable(false, false, &lines), "the order still holds its stock");
        assert!(!receivable(true, true, &lines), "received before");
        let unlinked = match_lines(&order(), &[platform("300", 0, 1)]);
        assert!(!receivable(true, false, &unlinked), "no line is a SKU's");
        let e = check_receivable(true, true, &lines).unwrap_err();
        assert_eq!(e.code, Code::OrderReturnNotReceivable);
    }

    #[test]
    fn counts_are_checked_line_by_line() {
        let lines = match_lines(&order(), &[platform("100:1", 0, 2), platform("200:2", 20, 1), platform("300", 0, 1)]);
        let ok = counts(&lines, &[Count { item_id: 1, good: 1, defective: 1 }]).unwrap();
        assert_eq!((ok[0].good, ok[0].defective, ok[1].good), (1, 1, 0));
        let fields = |c: &[Count]| -> Vec<String> {
            counts(&lines, c).unwrap_err().fields.into_iter().map(|f| f.field).collect()
        };
        assert_eq!(
            fields(&[
                Count { item_id: 1, good: 2, defective: 1 },
                Count { item_id: 4, good: 1, defective: 0 },
                Count { item_id: 9, good: 1, defective: 0 },
                Count { item_id: 2, good: -1, defective: 1 },
            ]),
            vec!["lines[0].good", "lines[1].item_id", "lines[2].item_id", "lines[3].good"]
        );
        assert_eq!(
            fields(&[Count { item_id: 2, good: 1, defective: 0 }, Count { item_id: 2, good: 1, defective: 0 }]),
            vec!["lines[1].item_id"]
        );
        assert_eq!(fields(&[Count { item_id: 1, good: 0, defective: 0 }]), vec!["lines"]);
        assert_eq!(fields(&[]), vec!["lines"]);
    }
}
