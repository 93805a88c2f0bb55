//! Money: integer satang (1 baht = 100 satang), never floating point.
//!
//! Rounding rule, used everywhere a share of an amount is taken (percent discounts, VAT):
//! the exact value is rounded half away from zero to the nearest satang.

use std::fmt;

/// An amount in satang.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Satang(pub i64);

/// Why a baht amount could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Not a number with at most two decimals.
    #[error("not an amount")]
    Malformed,
    /// Too large to hold.
    #[error("amount out of range")]
    Overflow,
}

impl Satang {
    /// Zero.
    pub const ZERO: Satang = Satang(0);

    /// Whole baht.
    pub fn from_baht(baht: i64) -> Option<Satang> {
        baht.checked_mul(100).map(Satang)
    }

    /// Reads "1,234.5", "-12.05" or "7" as baht.
    pub fn parse_baht(s: &str) -> Result<Satang, MoneyError> {
        let s = s.trim().replace(',', "");
        let (neg, digits) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s.as_str()),
        };
        let (whole, frac) = match digits.split_once('.') {
            Some((w, f)) => (w, f),
            None => (digits, ""),
        };
        if whole.is_empty() && frac.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
            || frac.len() > 2
        {
            return Err(MoneyError::Malformed);
        }
        let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| MoneyError::Overflow)? };
        let frac: i64 = match frac.len() {
            0 => 0,
            1 => frac.parse::<i64>().map_err(|_| MoneyError::Malformed)? * 10,
            _ => frac.parse().map_err(|_| MoneyError::Malformed)?,
        };
        let v = whole.checked_mul(100).and_then(|w| w.checked_add(frac)).ok_or(MoneyError::Overflow)?;
        Ok(Satang(if neg { -v } else { v }))
    }

    /// The share `basis_points / 10_000` of this amount (1% = 100 bp), rounded half away
    /// from zero.
    pub fn share_bp(self, basis_points: i64) -> Satang {
        let num = i128::from(self.0) * i128::from(basis_points);
        Satang(div_round_half_away(num, 10_000) as i64)
    }

    /// The amount without VAT when this amount includes `rate_bp` of VAT (7% = 700 bp),
    /// rounded half away from zero.
    pub fn ex_vat(self, rate_bp: i64) -> Satang {
        Satang(div_round_half_away(i128::from(self.0) * 10_000, 10_000 + i128::from(rate_bp)) as i64)
    }

    /// Checked sum.
    pub fn checked_add(self, other: Satang) -> Option<Satang> {
        self.0.checked_add(other.0).map(Satang)
    }
}

fn div_round_half_away(num: i128, den: i128) -> i128 {
    let q = num / den;
    let r = num % den;
    if r.abs() * 2 >= den.abs() {
        q + num.signum() * den.signum()
    } else {
        q
    }
}

impl fmt::Display for Satang {
    /// Baht with two decimals: `1234.50`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_baht() {
        assert_eq!(Satang::parse_baht("1,234.5"), Ok(Satang(123_450)));
        assert_eq!(Satang::parse_baht("7"), Ok(Satang(700)));
        assert_eq!(Satang::parse_baht("-12.05"), Ok(Satang(-1205)));
        assert_eq!(Satang::parse_baht(".5"), Ok(Satang(50)));
        assert_eq!(Satang::parse_baht("1.234"), Err(MoneyError::Malformed));
        assert_eq!(Satang::parse_baht("abc"), Err(MoneyError::Malformed));
        assert_eq!(Satang::parse_baht(""), Err(MoneyError::Malformed));
        assert_eq!(Satang::parse_baht("99999999999999999999"), Err(MoneyError::Overflow));
    }

    #[test]
    fn removes_included_vat() {
        // 107.00 baht including 7% VAT is 100.00 without.
        assert_eq!(Satang(10_700).ex_vat(700), Satang(10_000));
        // 199.00 baht: 185.981... -> 185.98
        assert_eq!(Satang(19_900).ex_vat(700), Satang(18_598));
        assert_eq!(Satang(0).ex_vat(700), Satang(0));
    }

    #[test]
    fn displays_two_decimals() {
        assert_eq!(Satang(123_450).to_string(), "1234.50");
        assert_eq!(Satang(-5).to_string(), "-0.05");
    }

    #[test]
    fn shares_round_half_away_from_zero() {
        // 7% of 10.07 baht = 70.49 satang -> 70
        assert_eq!(Satang(1007).share_bp(700), Satang(70));
        // 7% of 0.50 baht = 3.5 satang -> 4
        assert_eq!(Satang(50).share_bp(700), Satang(4));
        assert_eq!(Satang(-50).share_bp(700), Satang(-4));
        assert_eq!(Satang(5_000_000).share_bp(10_000), Satang(5_000_000));
    }
}
