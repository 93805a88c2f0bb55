//! What an order comes to: the one place its money is computed. Everything is integer
//! satang; percentages are basis points (1% = 100 bp).
//!
//! The rule, in order:
//!
//! 1. `subtotal` = Σ price × quantity of the lines.
//! 2. `discount_amount`: a fixed discount is taken as given, at most the subtotal; a
//!    percent discount is that share of the subtotal.
//! 3. `net` = subtotal − discount: what the goods sell for.
//! 4. `shipping_total` = domestic + international shipping charged.
//! 5. The VAT base is net + shipping + additional fee. VAT included: the base already holds
//!    7%, `vat_amount` = base − base × 100/107, and `total` = base. VAT added: `vat_amount`
//!    = 7% of the base, and `total` = base + VAT.
//! 6. `net_ex_vat` = the goods without VAT (net × 100/107 when included, else net);
//!    `cost_total` = Σ cost × quantity; `profit` = net_ex_vat − cost_total (the gross profit
//!    of the goods: shipping charged passes to the carrier, and VAT to the Revenue Department).
//!
//! Every share (percent discount, VAT) is rounded once, half away from zero, to the satang
//! (`bo_kit::money`). The 50,000-baht limit (SPEC §9) holds per warehouse bill: the lines of
//! one warehouse at their prices, before the order's discount. Each warehouse's bill is
//! its share of the total by those values ([`bill_amounts`]); the bills add up to the total.

use std::collections::BTreeMap;

use bo_kit::money::Satang;

/// VAT in Thailand: 7%.
pub const VAT_BP: i64 = 700;
/// The most a warehouse bill's goods may come to: 50,000 baht (SPEC §9).
pub const BILL_LIMIT: i64 = 5_000_000;
/// The most basis points a percent discount takes (100%).
pub const FULL_BP: i64 = 10_000;

/// A line as the money sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Line {
    /// Price of one unit.
    pub price: i64,
    /// Cost of one unit.
    pub cost: i64,
    /// Units.
    pub quantity: i64,
    /// Warehouse it is taken from.
    pub warehouse_id: i64,
}

/// A discount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Discount {
    /// None.
    #[default]
    None,
    /// An amount in satang.
    Fixed(i64),
    /// A share in basis points.
    Percent(i64),
}

/// What is charged besides the goods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Charges {
    /// The discount.
    pub discount: Discount,
    /// Prices include VAT.
    pub vat_included: bool,
    /// Domestic shipping charged.
    pub shipping_charge: i64,
    /// International shipping charged.
    pub shipping_charge_inter: i64,
    /// Additional fee.
    pub additional_fee: i64,
}

/// What an order comes to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Totals {
    pub subtotal: i64,
    pub discount_amount: i64,
    pub net: i64,
    pub shipping_charge: i64,
    pub shipping_charge_inter: i64,
    pub shipping_total: i64,
    pub additional_fee: i64,
    pub vat_amount: i64,
    pub total: i64,
    pub cost_total: i64,
    pub net_ex_vat: i64,
    pub profit: i64,
    /// Goods at their prices per warehouse.
    pub per_warehouse: BTreeMap<i64, i64>,
}

/// Why an order's money cannot be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoneyError {
    /// An amount is negative where it cannot be, or a share is over 100%.
    OutOfRange,
    /// The amounts are too large to hold.
    Overflow,
}

fn mul(a: i64, b: i64) -> Result<i64, MoneyError> {
    a.checked_mul(b).ok_or(MoneyError::Overflow)
}

fn add(a: i64, b: i64) -> Result<i64, MoneyError> {
    a.checked_add(b).ok_or(MoneyError::Overflow)
}

/// Computes the order's money (the rule is the module's documentation).
pub fn totals(lines: &[Line], c: &Charges) -> Result<Totals, MoneyError> {
    let mut t = Totals::default();
    for l in lines {
        if l.price < 0 || l.cost < 0 || l.quantity < 0 {
            return Err(MoneyError::OutOfRange);
        }
        let value = mul(l.price, l.quantity)?;
        t.subtotal = add(t.subtotal, value)?;
        t.cost_total = add(t.cost_total, mul(l.cost, l.quantity)?)?;
        let w = t.per_warehouse.entry(l.warehouse_id).or_insert(0);
        *w = add(*w, value)?;
    }
    if c.shipping_charge < 0 || c.shipping_charge_inter < 0 || c.additional_fee < 0 {
        return Err(MoneyError::OutOfRange);
    }
    t.discount_amount = match c.discount {
        Discount::None => 0,
        Discount::Fixed(v) if v < 0 => return Err(MoneyError::OutOfRange),
        Discount::Fixed(v) => v.min(t.subtotal),
        Discount::Percent(bp) if !(0..=FULL_BP).contains(&bp) => return Err(MoneyError::OutOfRange),
        Discount::Percent(bp) => Satang(t.subtotal).share_bp(bp).0,
    };
    t.net = t.subtotal - t.discount_amount;
    t.shipping_charge = c.shipping_charge;
    t.shipping_charge_inter = c.shipping_charge_inter;
    t.shipping_total = add(c.shipping_charge, c.shipping_charge_inter)?;
    t.additional_fee = c.additional_fee;
    let base = add(add(t.net, t.shipping_total)?, t.additional_fee)?;
    if c.vat_included {
        t.vat_amount = base - Satang(base).ex_vat(VAT_BP).0;
        t.total = base;
        t.net_ex_vat = Satang(t.net).ex_vat(VAT_BP).0;
    } else {
        t.vat_amount = Satang(base).share_bp(VAT_BP).0;
        t.total = add(base, t.vat_amount)?;
        t.net_ex_vat = t.net;
    }
    t.profit = t.net_ex_vat - t.cost_total;
    Ok(t)
}

/// The warehouses whose bill passes the limit, with their value.
pub fn over_limit(t: &Totals) -> Vec<(i64, i64)> {
    t.per_warehouse.iter().filter(|(_, v)| **v > BILL_LIMIT).map(|(w, v)| (*w, *v)).collect()
}

/// Each warehouse's bill: the order's total shared by the warehouses' goods at their
/// prices ([`apportion`]), so the bills always add up to the total. An order with no goods
/// value bills its first warehouse for everything.
pub fn bill_amounts(t: &Totals) -> Vec<(i64, i64)> {
    let warehouses: Vec<i64> = t.per_warehouse.keys().copied().collect();
    let values: Vec<i64> = t.per_warehouse.values().copied().collect();
    warehouses.into_iter().zip(apportion(t.total, &values)).collect()
}

/// `amount` shared by `weights`: each share is its weight's part, rounded down, and the
/// largest remainders take the leftover satang (the first on a tie), so the shares always
/// add up to `amount`. Without any weight, the first share takes everything.
pub fn apportion(amount: i64, weights: &[i64]) -> Vec<i64> {
    if weights.is_empty() {
        return Vec::new();
    }
    let sum: i128 = weights.iter().map(|w| i128::from(*w)).sum();
    if sum == 0 {
        let mut out = vec![0; weights.len()];
        out[0] = amount;
        return out;
    }
    let whole = i128::from(amount);
    let mut shares: Vec<(i64, i128)> = weights
        .iter()
        .map(|w| {
            let exact = whole * i128::from(*w);
            ((exact.div_euclid(sum)) as i64, exact.rem_euclid(sum))
        })
        .collect();
    let mut left = amount - shares.iter().map(|s| s.0).sum::<i64>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|a, b| shares[*b].1.cmp(&shares[*a].1).then(a.cmp(b)));
    for i in order.into_iter().cycle() {
        if left == 0 {
            break;
        }
        shares[i].0 += 1;
        left -= 1;
    }
    shares.into_iter().map(|(share, _)| share).collect()
}

/// Each line's part of what the order sells: its share of the net and of the net without
/// VAT, by the lines' value at their prices ([`apportion`]), so the lines add up to the
/// order's figures; and its cost.
pub fn line_figures(lines: &[Line], t: &Totals) -> Vec<LineFigures> {
    let values: Vec<i64> = lines.iter().map(|l| l.price.saturating_mul(l.quantity)).collect();
    let net = apportion(t.net, &values);
    let ex = apportion(t.net_ex_vat, &values);
    lines
        .iter()
        .zip(net.into_iter().zip(ex))
        .map(|(l, (net, net_ex_vat))| LineFigures { net, net_ex_vat, cost: l.cost.saturating_mul(l.quantity) })
        .collect()
}

/// A line's part of what the order sells ([`line_figures`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineFigures {
    pub net: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
}

/// Reads a percent typed as text ("10", "12.5", "7.25") into basis points.
pub fn percent_bp(text: &str) -> Option<i64> {
    let v = Satang::parse_baht(text).ok()?.0;
    (0..=FULL_BP).contains(&v).then_some(v)
}

#[cfg(test)]
// Amounts are written baht_satang (199_00 is 199.00 baht).
#[allow(clippy::inconsistent_digit_grouping)]
mod tests {
    use super::*;

    fn line(price: i64, cost: i64, quantity: i64) -> Line {
        Line { price, cost, quantity, warehouse_id: 1 }
    }

    #[test]
    fn bills_share_the_total_by_warehouse_and_add_up() {
        let one = totals(
            &[line(100_00, 0, 1)],
            &Charges { shipping_charge: 40_00, vat_included: true, ..Default::default() },
        )
        .unwrap();
        assert_eq!(bill_amounts(&one), vec![(1, 140_00)]);
        // 2 : 1 of 100.00 → 66.67 and 33.33 (the larger remainder takes the satang).
        let lines = [
            Line { price: 20_00, cost: 0, quantity: 1, warehouse_id: 7 },
            Line { price: 10_00, cost: 0, quantity: 1, warehouse_id: 9 },
        ];
        let two = totals(&lines, &Charges { additional_fee: 70_00, vat_included: true, ..Default::default() }).unwrap();
        assert_eq!(two.total, 100_00);
        assert_eq!(bill_amounts(&two), vec![(7, 66_67), (9, 33_33)]);
        // Three equal shares of 1.00: the first warehouse takes the odd satang.
        let lines: Vec<Line> = (1..=3).map(|w| Line { price: 10, cost: 0, quantity: 1, warehouse_id: w }).collect();
        let three = totals(&lines, &Charges { additional_fee: 70, vat_included: true, ..Default::default() }).unwrap();
        assert_eq!(bill_amounts(&three), vec![(1, 34), (2, 33), (3, 33)]);
        // Free goods: the first warehouse bills the shipping.
        let free = [
            Line { price: 0, cost: 0, quantity: 1, warehouse_id: 4 },
            Line { price: 0, cost: 0, quantity: 1, warehouse_id: 5 },
        ];
        let t = totals(&free, &Charges { shipping_charge: 50_00, vat_included: true, ..Default::default() }).unwrap();
        assert_eq!(bill_amounts(&t), vec![(4, 50_00), (5, 0)]);
        assert!(bill_amounts(&Totals::default()).is_empty());
    }

    #[test]
    fn bills_always_add_up_to_the_total() {
        let mut seed = 17u64;
        let mut next = |bound: i64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % bound as u64) as i64
        };
        for _ in 0..2_000 {
            let lines: Vec<Line> = (0..1 + next(6))
                .map(|_| Line { price: next(5_000_00), cost: 0, quantity: 1 + next(5), warehouse_id: 1 + next(4) })
                .collect();
            let c = Charges {
                discount: Discount::Percent(next(10_001)),
                vat_included: next(2) == 0,
                shipping_charge: next(200_00),
                shipping_charge_inter: 0,
                additional_fee: next(50_00),
            };
            let t = totals(&lines, &c).unwrap();
            let bills = bill_amounts(&t);
            assert_eq!(bills.iter().map(|b| b.1).sum::<i64>(), t.total, "{lines:?} {c:?}");
            assert!(bills.iter().all(|b| b.1 >= 0));
            assert_eq!(bills.len(), t.per_warehouse.len());
        }
    }

    #[test]
    fn lines_share_the_net_by_their_value_and_add_up() {
        // 10% off 300.00 of goods, VAT included: the lines sell for 180.00 and 90.00.
        let lines = [line(100_00, 60_00, 2), line(100_00, 30_00, 1)];
        let t =
            totals(&lines, &Charges { discount: Discount::Percent(10_00), vat_included: true, ..Default::default() })
                .unwrap();
        let f = line_figures(&lines, &t);
        assert_eq!(f.iter().map(|l| l.net).collect::<Vec<_>>(), vec![180_00, 90_00]);
        // 270.00 × 100/107 = 252.34, shared 2 : 1 (168.226…, 84.113…): the larger remainder
        // takes the satang.
        assert_eq!(t.net_ex_vat, 252_34);
        assert_eq!(f.iter().map(|l| l.net_ex_vat).collect::<Vec<_>>(), vec![168_23, 84_11]);
        assert_eq!(f.iter().map(|l| l.cost).collect::<Vec<_>>(), vec![120_00, 30_00]);
        // Free goods: the first line carries the (empty) net.
        let free = [line(0, 5_00, 1), line(0, 0, 3)];
        let t = totals(&free, &Charges::default()).unwrap();
        assert_eq!(
            line_figures(&free, &t),
            vec![LineFigures { cost: 5_00, ..Default::default() }, LineFigures::default()]
        );
        assert!(line_figures(&[], &Totals::default()).is_empty());
    }

    #[test]
    fn line_figures_always_add_up_to_the_order() {
        let mut seed = 5u64;
        let mut next = |bound: i64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % bound as u64) as i64
        };
        for _ in 0..2_000 {
            let lines: Vec<Line> = (0..1 + next(8))
                .map(|_| Line { price: next(5_000_00), cost: next(3_000_00), quantity: 1 + next(5), warehouse_id: 1 })
                .collect();
            let c = Charges {
                discount: if next(2) == 0 { Discount::Percent(next(10_001)) } else { Discount::Fixed(next(500_00)) },
                vat_included: next(2) == 0,
                ..Default::default()
            };
            let t = totals(&lines, &c).unwrap();
            let f = line_figures(&lines, &t);
            assert_eq!(f.iter().map(|l| l.net).sum::<i64>(), t.net, "{lines:?} {c:?}");
            assert_eq!(f.iter().map(|l| l.net_ex_vat).sum::<i64>(), t.net_ex_vat);
            assert_eq!(f.iter().map(|l| l.cost).sum::<i64>(), t.cost_total);
            assert!(f.iter().all(|l| l.net >= 0 && l.net_ex_vat >= 0));
        }
    }

    #[test]
    fn vat_added_on_goods_shipping_and_fee() {
        // 2 × 199.00 + 1 × 350.50 = 748.50; 10% off = 74.85; net 673.65;
        // shipping 40.00, fee 10.00: base 723.65; VAT 7% = 50.6555 → 50.66; total 774.31.
        let t = totals(
            &[line(199_00, 120_00, 2), line(350_50, 200_00, 1)],
            &Charges {
                discount: Discount::Percent(1_000),
                vat_included: false,
                shipping_charge: 40_00,
                shipping_charge_inter: 0,
                additional_fee: 10_00,
            },
        )
        .unwrap();
        assert_eq!(t.subtotal, 748_50);
        assert_eq!(t.discount_amount, 74_85);
        assert_eq!(t.net, 673_65);
        assert_eq!(t.shipping_total, 40_00);
        assert_eq!(t.vat_amount, 50_66);
        assert_eq!(t.total, 774_31);
        assert_eq!(t.net_ex_vat, 673_65);
        assert_eq!(t.cost_total, 440_00);
        assert_eq!(t.profit, 233_65);
        assert_eq!(t.per_warehouse.get(&1), Some(&748_50));
    }

    #[test]
    fn vat_included_is_taken_out_of_the_total() {
        // 107.00 with VAT included: 7.00 of it is VAT, the goods are 100.00 without it.
        let t = totals(&[line(107_00, 60_00, 1)], &Charges { vat_included: true, ..Default::default() }).unwrap();
        assert_eq!(t.total, 107_00);
        assert_eq!(t.vat_amount, 7_00);
        assert_eq!(t.net_ex_vat, 100_00);
        assert_eq!(t.profit, 40_00);
        // 100.00 included: 100/1.07 = 93.457… → 93.46, so VAT is 6.54.
        let t = totals(&[line(100_00, 0, 1)], &Charges { vat_included: true, ..Default::default() }).unwrap();
        assert_eq!((t.vat_amount, t.net_ex_vat), (6_54, 93_46));
    }

    #[test]
    fn a_fixed_discount_never_goes_below_zero() {
        let c = Charges { discount: Discount::Fixed(500_00), vat_included: true, ..Default::default() };
        let t = totals(&[line(120_00, 0, 2)], &c).unwrap();
        assert_eq!((t.discount_amount, t.net, t.total), (240_00, 0, 0));
    }

    #[test]
    fn percent_shares_round_half_away_from_zero() {
        // 33.3% of 0.15 baht = 4.995 satang → 5.
        let t =
            totals(&[line(15, 0, 1)], &Charges { discount: Discount::Percent(3_330), ..Default::default() }).unwrap();
        assert_eq!(t.discount_amount, 5);
        // 7% of 0.50 baht = 3.5 satang → 4.
        let t = totals(&[line(50, 0, 1)], &Charges::default()).unwrap();
        assert_eq!(t.vat_amount, 4);
    }

    #[test]
    fn international_shipping_counts_in_the_total() {
        let c = Charges { vat_included: true, shipping_charge_inter: 850_00, additional_fee: 0, ..Default::default() };
        let t = totals(&[line(1_000_00, 0, 1)], &c).unwrap();
        assert_eq!(t.shipping_total, 850_00);
        assert_eq!(t.total, 1_850_00);
    }

    #[test]
    fn a_loss_is_a_negative_profit() {
        let t = totals(&[line(90_00, 100_00, 3)], &Charges::default()).unwrap();
        assert_eq!(t.profit, -30_00);
    }

    #[test]
    fn the_bill_limit_is_per_warehouse_at_list_prices() {
        let lines = [
            Line { price: 25_000_00, cost: 0, quantity: 2, warehouse_id: 1 },
            Line { price: 30_000_00, cost: 0, quantity: 1, warehouse_id: 2 },
            Line { price: 1, cost: 0, quantity: 1, warehouse_id: 1 },
        ];
        // Warehouse 1 holds 50,000.01 baht: over, even with a discount.
        let t = totals(&lines, &Charges { discount: Discount::Percent(5_000), ..Default::default() }).unwrap();
        assert_eq!(over_limit(&t), vec![(1, 5_000_001)]);
        let t = totals(&lines[..2], &Charges::default()).unwrap();
        assert!(over_limit(&t).is_empty(), "exactly 50,000 baht is allowed");
    }

    #[test]
    fn out_of_range_and_overflow_are_refused() {
        assert_eq!(totals(&[line(-1, 0, 1)], &Charges::default()), Err(MoneyError::OutOfRange));
        let c = Charges { discount: Discount::Percent(10_001), ..Default::default() };
        assert_eq!(totals(&[line(1, 0, 1)], &c), Err(MoneyError::OutOfRange));
        let c = Charges { discount: Discount::Fixed(-1), ..Default::default() };
        assert_eq!(totals(&[line(1, 0, 1)], &c), Err(MoneyError::OutOfRange));
        let c = Charges { shipping_charge: -1, ..Default::default() };
        assert_eq!(totals(&[line(1, 0, 1)], &c), Err(MoneyError::OutOfRange));
        assert_eq!(totals(&[line(i64::MAX, 0, 2)], &Charges::default()), Err(MoneyError::Overflow));
    }

    #[test]
    fn percents_are_read_as_basis_points() {
        assert_eq!(percent_bp("10"), Some(1_000));
        assert_eq!(percent_bp("12.5"), Some(1_250));
        assert_eq!(percent_bp("100"), Some(10_000));
        assert_eq!(percent_bp("100.01"), None);
        assert_eq!(percent_bp("-1"), None);
        assert_eq!(percent_bp("1.234"), None);
        assert_eq!(percent_bp("abc"), None);
    }
}
