//! Bundles: a listing sold as a set of our SKUs, so many units of each. Its stock is the
//! number of whole sets its parts allow (`stock_rule::sets`); an order of it holds its parts.
//! Each part carries a share of the set's price (its cost share, in basis points), so the
//! order's lines are the parts at prices that add up to what the buyer paid.

use bo_kit::{FieldError, Result};

/// The most parts a bundle has.
pub const MAX_PARTS: usize = 20;
/// The most units of one part a set takes.
pub const MAX_PER_SET: i64 = 1_000;
/// The whole of a price, in basis points.
pub const WHOLE_BP: i64 = 10_000;

/// One part of a bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// Our SKU.
    pub sku_id: i64,
    /// Units of it in one set.
    pub per_set: i64,
    /// Its share of the set's price, basis points (the shares add up to 10,000).
    pub share_bp: i64,
}

/// Checks a bundle's parts: 1 to [`MAX_PARTS`], each SKU once, 1 to [`MAX_PER_SET`] units,
/// shares adding up to the whole. Shares all 0 are spread by units.
pub fn check(mut parts: Vec<Part>) -> Result<Vec<Part>> {
    let mut errs = Vec::new();
    if parts.is_empty() || parts.len() > MAX_PARTS {
        errs.push(FieldError::new(
            "parts",
            if parts.is_empty() { "validation.required" } else { "validation.too_many" },
        ));
    }
    for (i, p) in parts.iter().enumerate() {
        if p.sku_id <= 0 {
            errs.push(FieldError::new(format!("parts[{i}].sku_id"), "validation.required"));
        } else if parts[..i].iter().any(|q| q.sku_id == p.sku_id) {
            errs.push(FieldError::new(format!("parts[{i}].sku_id"), "validation.duplicated"));
        }
        if !(1..=MAX_PER_SET).contains(&p.per_set) {
            errs.push(FieldError::new(format!("parts[{i}].quantity"), "validation.quantity"));
        }
        if !(0..=WHOLE_BP).contains(&p.share_bp) {
            errs.push(FieldError::new(format!("parts[{i}].cost_share"), "validation.percent"));
        }
    }
    if errs.is_empty() {
        let total: i64 = parts.iter().map(|p| p.share_bp).sum();
        if total == 0 {
            let shares = apportion(WHOLE_BP, &parts.iter().map(|p| p.per_set).collect::<Vec<_>>());
            for (p, s) in parts.iter_mut().zip(shares) {
                p.share_bp = s;
            }
        } else if total != WHOLE_BP {
            errs.push(FieldError::new("parts", "validation.shares_sum"));
        }
    }
    if errs.is_empty() {
        Ok(parts)
    } else {
        Err(bo_kit::Error::invalid(errs))
    }
}

/// `total` split in proportion to `weights`, largest remainders first, adding up exactly (all
/// to the first when every weight is 0).
pub fn apportion(total: i64, weights: &[i64]) -> Vec<i64> {
    let sum: i64 = weights.iter().map(|w| w.max(&0)).sum();
    if weights.is_empty() {
        return Vec::new();
    }
    if sum == 0 {
        let mut out = vec![0; weights.len()];
        out[0] = total;
        return out;
    }
    let exact: Vec<(i128, i128)> = weights
        .iter()
        .map(|w| {
            let n = i128::from(total) * i128::from((*w).max(0));
            (n / i128::from(sum), n % i128::from(sum))
        })
        .collect();
    let mut out: Vec<i64> = exact.iter().map(|(q, _)| *q as i64).collect();
    let mut left = total - out.iter().sum::<i64>();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|a, b| exact[*b].1.cmp(&exact[*a].1).then(a.cmp(b)));
    for i in order.into_iter().cycle() {
        if left <= 0 {
            break;
        }
        out[i] += 1;
        left -= 1;
    }
    out
}

/// One part of an ordered bundle: which SKU, how many units and at what price each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartLine {
    /// Our SKU.
    pub sku_id: i64,
    /// Units ordered (sets × units per set).
    pub quantity: i64,
    /// The price of one unit, satang.
    pub unit_price: i64,
}

/// The lines of `sets` sets bought at `set_price` satang each: each part's share of the
/// money over its units, rounded up to whole satang, and what the rounding added in all
/// (taken off again as a discount, so the order comes to what the buyer paid).
pub fn lines(sets: i64, set_price: i64, parts: &[Part]) -> (Vec<PartLine>, i64) {
    let total = sets.max(0) * set_price.max(0);
    let shares = apportion(total, &parts.iter().map(|p| p.share_bp).collect::<Vec<_>>());
    let mut excess = 0;
    let out = parts
        .iter()
        .zip(shares)
        .map(|(p, share)| {
            let quantity = sets.max(0) * p.per_set.max(1);
            let unit_price = if quantity == 0 { 0 } else { (share + quantity - 1) / quantity };
            excess += unit_price * quantity - share;
            PartLine { sku_id: p.sku_id, quantity, unit_price }
        })
        .collect();
    (out, excess)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(sku_id: i64, per_set: i64, share_bp: i64) -> Part {
        Part { sku_id, per_set, share_bp }
    }

    #[test]
    fn shares_are_checked_and_spread_by_units_when_left_out() {
        let ok = check(vec![part(1, 2, 6000), part(2, 1, 4000)]).unwrap();
        assert_eq!(ok[0].share_bp, 6000);
        let spread = check(vec![part(1, 2, 0), part(2, 1, 0)]).unwrap();
        assert_eq!((spread[0].share_bp, spread[1].share_bp), (6667, 3333));
        let fields =
            |r: Result<Vec<Part>>| r.unwrap_err().fields.into_iter().map(|f| (f.field, f.code)).collect::<Vec<_>>();
        assert_eq!(
            fields(check(vec![part(1, 1, 5000), part(2, 1, 4000)])),
            vec![("parts".into(), "validation.shares_sum".into())]
        );
        assert_eq!(
            fields(check(vec![part(1, 0, 5000), part(1, 1, 5000)])),
            vec![
                ("parts[0].quantity".into(), "validation.quantity".into()),
                ("parts[1].sku_id".into(), "validation.duplicated".into())
            ]
        );
        assert_eq!(fields(check(vec![])), vec![("parts".into(), "validation.required".into())]);
    }

    #[test]
    fn apportioning_adds_up_exactly() {
        assert_eq!(apportion(100, &[1, 1, 1]), vec![34, 33, 33]);
        assert_eq!(apportion(10_000, &[2, 1]), vec![6667, 3333]);
        assert_eq!(apportion(7, &[0, 0]), vec![7, 0]);
        assert_eq!(apportion(5, &[]), Vec::<i64>::new());
        for total in [0, 1, 99, 12_345, 1_000_001] {
            for w in [vec![1], vec![3, 7], vec![6000, 3000, 1000], vec![1, 1, 1, 1, 1, 1, 1]] {
                assert_eq!(apportion(total, &w).iter().sum::<i64>(), total);
            }
        }
    }

    #[test]
    fn an_ordered_bundle_is_its_parts_at_prices_that_add_up() {
        // Two sets of (2 shirts + 1 bag) at 499.00, shirts 70% of the price.
        let (out, excess) = lines(2, 49_900, &[part(1, 2, 7000), part(2, 1, 3000)]);
        assert_eq!(out[0], PartLine { sku_id: 1, quantity: 4, unit_price: 17_465 });
        assert_eq!(out[1], PartLine { sku_id: 2, quantity: 2, unit_price: 14_970 });
        let sum: i64 = out.iter().map(|l| l.quantity * l.unit_price).sum();
        assert_eq!(sum - excess, 2 * 49_900);
        // A price that does not divide: 100.00 over 3 units.
        let (out, excess) = lines(1, 10_000, &[part(5, 3, 10_000)]);
        assert_eq!((out[0].unit_price, excess), (3_334, 2));
        assert_eq!(out[0].quantity * out[0].unit_price - excess, 10_000);
        let (none, excess) = lines(0, 10_000, &[part(5, 3, 10_000)]);
        assert_eq!((none[0].quantity, excess), (0, 0));
    }
}
