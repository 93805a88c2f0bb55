//! Lots, pure: which lots to take first, what a unit costs, how documents are numbered.
//!
//! Every unit on hand belongs to a lot. Units leave lots first-expiry-first-out (FEFO): the
//! lot expiring soonest first, lots without an expiry after every dated one, and among equals
//! the oldest arrival first, then the oldest lot. The SQL that lists lots for taking orders
//! them by [`FEFO_ORDER`]; [`take`] then walks that order.

/// `ORDER BY` of lots for taking, as [`take`] expects them (columns of `stock_lots`).
pub const FEFO_ORDER: &str = "CASE WHEN expires_at = 0 THEN 1 ELSE 0 END, expires_at, received_at, id";

/// A lot as [`take`] sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Free {
    /// Lot id.
    pub lot_id: i64,
    /// Units that may be taken from it.
    pub units: i64,
}

/// What [`take`] decided.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Taken {
    /// (lot id, units), in the order given.
    pub takes: Vec<(i64, i64)>,
    /// Units no lot had.
    pub short: i64,
}

/// Takes `quantity` units from `lots` (already in FEFO order), never more than a lot has.
pub fn take(lots: &[Free], quantity: i64) -> Taken {
    let mut left = quantity.max(0);
    let mut takes = Vec::new();
    for l in lots {
        if left == 0 {
            break;
        }
        let n = l.units.min(left);
        if n > 0 {
            takes.push((l.lot_id, n));
            left -= n;
        }
    }
    Taken { takes, short: left }
}

/// Cost of one base unit when `cost` (satang) buys `per` base units, rounded half up.
pub fn unit_cost(cost: i64, per: i64) -> i64 {
    if per <= 1 {
        return cost;
    }
    ((i128::from(cost) * 2 + i128::from(per)) / (i128::from(per) * 2)) as i64
}

/// The moving average cost after `in_qty` units at `in_cost` join `old_qty` units at
/// `old_avg`, rounded half up. Outflows leave the average as it is.
pub fn average_after(old_qty: i64, old_avg: i64, in_qty: i64, in_cost: i64) -> i64 {
    let old_qty = old_qty.max(0);
    if in_qty <= 0 {
        return old_avg;
    }
    if old_qty == 0 {
        return in_cost;
    }
    let total = i128::from(old_qty) * i128::from(old_avg) + i128::from(in_qty) * i128::from(in_cost);
    let n = i128::from(old_qty) + i128::from(in_qty);
    ((total * 2 + n) / (n * 2)) as i64
}

/// The Buddhist-era year of a moment in Thailand (UTC+7).
pub fn buddhist_year(ms: i64) -> i64 {
    bo_kit::time::buddhist_year(ms)
}

/// A document code: prefix, Buddhist-era year, a dash and the number of the year, six digits
/// (`GR2569-000001`).
pub fn doc_code(prefix: &str, be_year: i64, n: i64) -> String {
    format!("{prefix}{be_year}-{n:06}")
}

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_in_the_order_given_and_never_more_than_a_lot_has() {
        let lots = [Free { lot_id: 4, units: 3 }, Free { lot_id: 1, units: 0 }, Free { lot_id: 2, units: 10 }];
        assert_eq!(take(&lots, 5), Taken { takes: vec![(4, 3), (2, 2)], short: 0 });
        assert_eq!(take(&lots, 3), Taken { takes: vec![(4, 3)], short: 0 });
        assert_eq!(take(&lots, 20), Taken { takes: vec![(4, 3), (2, 10)], short: 7 });
        assert_eq!(take(&lots, 0), Taken::default());
        assert_eq!(take(&[], 2), Taken { takes: vec![], short: 2 });
    }

    #[test]
    fn unit_cost_rounds_half_up() {
        assert_eq!(unit_cost(12_000, 12), 1_000);
        assert_eq!(unit_cost(1_000, 3), 333);
        assert_eq!(unit_cost(1_000, 6), 167);
        assert_eq!(unit_cost(5, 2), 3);
        assert_eq!(unit_cost(750, 1), 750);
        assert_eq!(unit_cost(0, 24), 0);
    }

    #[test]
    fn moving_average() {
        assert_eq!(average_after(0, 0, 10, 500), 500);
        assert_eq!(average_after(10, 500, 10, 700), 600);
        assert_eq!(average_after(2, 100, 1, 101), 100);
        assert_eq!(average_after(1, 100, 2, 101), 101);
        assert_eq!(average_after(5, 300, 0, 999), 300);
        assert_eq!(average_after(-3, 300, 1, 90), 90);
        assert_eq!(average_after(i64::MAX / 4, 1_000_000, 1, 1), 1_000_000);
    }

    #[test]
    fn codes_use_the_buddhist_year_in_thailand() {
        // 2026-12-31T17:30:00Z is already 1 January 2027 in Bangkok: 2570.
        assert_eq!(buddhist_year(1_798_738_200_000), 2570);
        assert_eq!(buddhist_year(1_798_734_600_000), 2569);
        assert_eq!(doc_code("GR", 2569, 1), "GR2569-000001");
        assert_eq!(doc_code("TF", 2569, 1_234_567), "TF2569-1234567");
    }
}
