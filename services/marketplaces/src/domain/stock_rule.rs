//! How much of our stock a listing shows: the one place the quantity pushed to a marketplace
//! is computed. A listing is one of our SKUs or a bundle of several (a set of parts, each so
//! many units); what its parts have available in the warehouses the shop pushes from makes
//! a number of whole sets ([`sets`]), and the shop's rule (or the listing's own) turns that
//! into the quantity the marketplace should show ([`quantity`]):
//!
//! 1. a quantity held back for promotions is taken off first (`hold`);
//! 2. below the "nearly sold out" threshold only the shop chosen for it (`priority`) shows
//!    what is left, the others 0;
//! 3. otherwise `percent` of what is left is shown, rounded down, up or to the nearest whole
//!    unit, plus `fixed` (which may be negative);
//! 4. the quantity is never below 0 nor above what is left, so no rule can oversell;
//! 5. where the marketplace lets the API only raise a listing's stock (`increase_only`,
//!    Lazada Choice), a lower quantity than the one last sent is not pushed.

use serde::{Deserialize, Serialize};

/// How a percentage of a quantity is rounded to whole units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Down (the default: never more than the percentage).
    #[default]
    Down,
    /// Up.
    Up,
    /// To the nearest unit, halves up.
    Nearest,
}

impl Rounding {
    /// Its word in storage and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Rounding::Down => "down",
            Rounding::Up => "up",
            Rounding::Nearest => "nearest",
        }
    }

    /// The rounding of a word.
    pub fn parse(s: &str) -> Option<Rounding> {
        [Rounding::Down, Rounding::Up, Rounding::Nearest].into_iter().find(|r| r.as_str() == s)
    }
}

/// The most a rule's fixed part or hold may be, units.
pub const MAX_UNITS: i64 = 1_000_000;

/// A shop's stock rule (or a listing's, overriding its shop's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// The share of what is available shown, 0 to 100.
    pub percent: i64,
    /// Added after the share (negative keeps a margin back).
    pub fixed: i64,
    /// How the share is rounded.
    pub rounding: Rounding,
    /// Below this many sets the listing is "nearly sold out" (0: never).
    pub threshold: i64,
    /// This shop keeps showing what is left when nearly sold out; the others show 0.
    pub priority: bool,
    /// Units held back for promotions, never shown.
    pub hold: i64,
    /// The marketplace takes only increases through the API.
    pub increase_only: bool,
}

impl Default for Rule {
    /// All of what is available, as it is.
    fn default() -> Self {
        Rule {
            percent: 100,
            fixed: 0,
            rounding: Rounding::Down,
            threshold: 0,
            priority: false,
            hold: 0,
            increase_only: false,
        }
    }
}

impl Rule {
    /// The fields a rule breaks, with their codes (empty when it holds).
    pub fn broken(&self) -> Vec<(&'static str, &'static str)> {
        let mut out = Vec::new();
        if !(0..=100).contains(&self.percent) {
            out.push(("percent", "validation.percent"));
        }
        if !(-MAX_UNITS..=MAX_UNITS).contains(&self.fixed) {
            out.push(("fixed", "validation.quantity"));
        }
        if !(0..=MAX_UNITS).contains(&self.threshold) {
            out.push(("threshold", "validation.quantity"));
        }
        if !(0..=MAX_UNITS).contains(&self.hold) {
            out.push(("hold", "validation.quantity"));
        }
        out
    }
}

/// One part of a listing: what it has available in the shop's warehouses, and how many
/// units of it a set takes (1 for a listing that is one SKU).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// Units available (on hand less reserved), summed over the warehouses pushed from.
    pub available: i64,
    /// Units a set takes (at least 1).
    pub per_set: i64,
}

/// The whole sets the parts allow: the smallest of each part's available units over its units
/// per set (0 without parts; what is negative counts as 0).
pub fn sets(parts: &[Part]) -> i64 {
    parts.iter().map(|p| p.available.max(0) / p.per_set.max(1)).min().unwrap_or(0)
}

/// What to do with a listing's stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Push this quantity.
    Push(i64),
    /// Leave the marketplace's stock as it is: the quantity wanted is lower than the one
    /// last sent and the marketplace takes only increases.
    IncreaseOnly {
        /// What the rule would show.
        wanted: i64,
    },
}

impl Decision {
    /// The quantity the rule wants shown.
    pub fn wanted(self) -> i64 {
        match self {
            Decision::Push(q) | Decision::IncreaseOnly { wanted: q } => q,
        }
    }
}

/// `percent` of `n` rounded as asked (`n` and `percent` not negative).
fn share(n: i64, percent: i64, rounding: Rounding) -> i64 {
    let scaled = n * percent;
    match rounding {
        Rounding::Down => scaled / 100,
        Rounding::Up => (scaled + 99) / 100,
        Rounding::Nearest => (scaled + 50) / 100,
    }
}

/// The quantity a listing with `sets` whole sets available shows under `rule`, given what it
/// was last sent (None: never).
pub fn quantity(rule: &Rule, sets: i64, last_sent: Option<i64>) -> Decision {
    let left = (sets.max(0) - rule.hold.max(0)).max(0);
    let wanted = if rule.threshold > 0 && left < rule.threshold {
        if rule.priority {
            left
        } else {
            0
        }
    } else {
        (share(left, rule.percent.clamp(0, 100), rule.rounding) + rule.fixed).clamp(0, left)
    };
    match last_sent {
        Some(sent) if rule.increase_only && wanted < sent => Decision::IncreaseOnly { wanted },
        _ => Decision::Push(wanted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(percent: i64, fixed: i64, rounding: Rounding) -> Rule {
        Rule { percent, fixed, rounding, ..Rule::default() }
    }

    #[test]
    fn sets_are_what_the_scarcest_part_allows() {
        let p = |available, per_set| Part { available, per_set };
        assert_eq!(sets(&[p(10, 1)]), 10);
        assert_eq!(sets(&[p(10, 2), p(7, 1)]), 5);
        assert_eq!(sets(&[p(10, 3), p(100, 1)]), 3, "whole sets only");
        assert_eq!(sets(&[p(10, 2), p(1, 2)]), 0);
        assert_eq!(sets(&[p(-4, 1), p(5, 1)]), 0, "a part in deficit allows none");
        assert_eq!(sets(&[p(6, 0)]), 6, "a part takes at least one unit");
        assert_eq!(sets(&[]), 0);
    }

    #[test]
    fn all_of_it_by_default() {
        for n in [0, 1, 7, 1000] {
            assert_eq!(quantity(&Rule::default(), n, None), Decision::Push(n));
        }
        assert_eq!(quantity(&Rule::default(), -3, None), Decision::Push(0));
    }

    #[test]
    fn a_percentage_rounds_as_asked_then_adds_the_fixed_part() {
        // 7 × 50% = 3.5
        assert_eq!(quantity(&rule(50, 0, Rounding::Down), 7, None), Decision::Push(3));
        assert_eq!(quantity(&rule(50, 0, Rounding::Up), 7, None), Decision::Push(4));
        assert_eq!(quantity(&rule(50, 0, Rounding::Nearest), 7, None), Decision::Push(4));
        // 7 × 30% = 2.1
        assert_eq!(quantity(&rule(30, 0, Rounding::Nearest), 7, None), Decision::Push(2));
        assert_eq!(quantity(&rule(30, 0, Rounding::Up), 7, None), Decision::Push(3));
        assert_eq!(quantity(&rule(80, 2, Rounding::Down), 10, None), Decision::Push(10));
        assert_eq!(quantity(&rule(100, -2, Rounding::Down), 10, None), Decision::Push(8));
        assert_eq!(quantity(&rule(0, 0, Rounding::Up), 10, None), Decision::Push(0));
    }

    #[test]
    fn no_rule_shows_more_than_there_is_nor_less_than_none() {
        assert_eq!(quantity(&rule(100, 5, Rounding::Up), 3, None), Decision::Push(3));
        assert_eq!(quantity(&rule(100, -5, Rounding::Down), 3, None), Decision::Push(0));
        assert_eq!(quantity(&rule(100, 5, Rounding::Up), 0, None), Decision::Push(0));
    }

    #[test]
    fn a_promotion_hold_is_never_shown() {
        let r = Rule { hold: 4, ..Rule::default() };
        assert_eq!(quantity(&r, 10, None), Decision::Push(6));
        assert_eq!(quantity(&r, 3, None), Decision::Push(0));
        let half = Rule { hold: 4, percent: 50, ..Rule::default() };
        assert_eq!(quantity(&half, 10, None), Decision::Push(3), "the share is of what is left");
    }

    #[test]
    fn nearly_sold_out_only_the_chosen_shop_shows_what_is_left() {
        let other = Rule { threshold: 5, percent: 50, ..Rule::default() };
        let chosen = Rule { priority: true, ..other.clone() };
        assert_eq!(quantity(&other, 4, None), Decision::Push(0));
        assert_eq!(quantity(&chosen, 4, None), Decision::Push(4), "all of it, whatever the share");
        assert_eq!(quantity(&other, 5, None), Decision::Push(2), "at the threshold the rule applies again");
        assert_eq!(quantity(&chosen, 5, None), Decision::Push(2));
        let held = Rule { hold: 2, ..chosen };
        assert_eq!(quantity(&held, 6, None), Decision::Push(4), "the hold comes off first");
    }

    #[test]
    fn increase_only_leaves_a_lower_quantity_unpushed() {
        let r = Rule { increase_only: true, ..Rule::default() };
        assert_eq!(quantity(&r, 8, Some(5)), Decision::Push(8));
        assert_eq!(quantity(&r, 5, Some(5)), Decision::Push(5));
        assert_eq!(quantity(&r, 3, Some(5)), Decision::IncreaseOnly { wanted: 3 });
        assert_eq!(quantity(&r, 3, None), Decision::Push(3), "the first push sets it");
        assert_eq!(quantity(&Rule::default(), 3, Some(5)), Decision::Push(3));
        assert_eq!(Decision::IncreaseOnly { wanted: 3 }.wanted(), 3);
    }

    #[test]
    fn broken_rules_name_their_fields() {
        assert!(Rule::default().broken().is_empty());
        let r = Rule { percent: 101, fixed: MAX_UNITS + 1, threshold: -1, hold: -1, ..Rule::default() };
        assert_eq!(
            r.broken(),
            vec![
                ("percent", "validation.percent"),
                ("fixed", "validation.quantity"),
                ("threshold", "validation.quantity"),
                ("hold", "validation.quantity"),
            ]
        );
        assert_eq!(Rounding::parse("nearest"), Some(Rounding::Nearest));
        assert_eq!(Rounding::parse("sideways"), None);
    }
}
