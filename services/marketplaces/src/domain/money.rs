//! The marketplaces' money in satang, exactly. Shopee answers prices as JSON numbers
//! (`59.0`, `1234.5`), Lazada as decimal strings (`"1,234.50"` in some fields, `"59.00"` in
//! most), TikTok Shop as decimal strings (`"59"`, `"59.9"`). A baht amount has at most two
//! decimals; more digits are accepted only when they are zeros (`"59.900"`), so a value we
//! cannot hold exactly is refused rather than rounded.

use serde_json::Value;

/// Why an amount was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// Not a decimal number (`"abc"`, `""`, `null`, an object).
    #[error("not an amount: {0}")]
    Malformed(String),
    /// More than two decimals that are not zeros (`12.345`).
    #[error("amount finer than a satang: {0}")]
    TooFine(String),
    /// Too large for satang in 64 bits.
    #[error("amount out of range: {0}")]
    Overflow(String),
}

/// Baht written as decimal text (`"1,234.50"`, `"-3"`, `"0.5"`, `"59.900"`) in satang.
pub fn satang_of_text(text: &str) -> Result<i64, AmountError> {
    let raw = text.trim().replace(',', "");
    let malformed = || AmountError::Malformed(text.chars().take(40).collect());
    let (neg, digits) = match raw.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, raw.strip_prefix('+').unwrap_or(&raw)),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if (whole.is_empty() && frac.is_empty())
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(malformed());
    }
    let (cents, rest) = frac.split_at(frac.len().min(2));
    if rest.bytes().any(|b| b != b'0') {
        return Err(AmountError::TooFine(raw.clone()));
    }
    let overflow = || AmountError::Overflow(raw.clone());
    let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| overflow())? };
    let cents: i64 = match cents.len() {
        0 => 0,
        1 => i64::from(cents.as_bytes()[0] - b'0') * 10,
        _ => cents.parse().map_err(|_| malformed())?,
    };
    let v = whole.checked_mul(100).and_then(|w| w.checked_add(cents)).ok_or_else(overflow)?;
    Ok(if neg { -v } else { v })
}

/// A JSON amount, number or decimal text, in satang; `null` or a missing field is 0.
///
/// A JSON number is read from its shortest decimal form (`59.9` as written, not as the
/// binary fraction closest to it), which is what the marketplace meant.
pub fn satang_of(value: &Value) -> Result<i64, AmountError> {
    match value {
        Value::Null => Ok(0),
        Value::Number(n) => satang_of_text(&n.to_string()),
        Value::String(s) if s.trim().is_empty() => Ok(0),
        Value::String(s) => satang_of_text(s),
        other => Err(AmountError::Malformed(other.to_string().chars().take(40).collect())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decimal_texts_are_exact() {
        for (text, satang) in [
            ("59", 5900),
            ("59.9", 5990),
            ("59.90", 5990),
            ("59.900", 5990),
            ("1,234.50", 123_450),
            ("0.01", 1),
            (".5", 50),
            ("-3", -300),
            ("+7.25", 725),
            (" 12.00 ", 1200),
        ] {
            assert_eq!(satang_of_text(text), Ok(satang), "{text}");
        }
    }

    #[test]
    fn what_is_not_money_is_refused() {
        for text in ["", "abc", "1.2.3", "12a", "-", ".", "1e3", "฿12"] {
            assert!(matches!(satang_of_text(text), Err(AmountError::Malformed(_))), "{text}");
        }
        assert!(matches!(satang_of_text("12.345"), Err(AmountError::TooFine(_))));
        assert!(matches!(satang_of_text("99999999999999999999"), Err(AmountError::Overflow(_))));
    }

    #[test]
    fn json_numbers_are_read_as_written() {
        assert_eq!(satang_of(&json!(59.9)), Ok(5990));
        assert_eq!(satang_of(&json!(0.1)), Ok(10));
        assert_eq!(satang_of(&json!(19.99)), Ok(1999));
        assert_eq!(satang_of(&json!(1234.5)), Ok(123_450));
        assert_eq!(satang_of(&json!(199)), Ok(19_900));
        assert_eq!(satang_of(&json!("59.00")), Ok(5900));
        assert_eq!(satang_of(&json!(null)), Ok(0));
        assert_eq!(satang_of(&json!("")), Ok(0));
        assert!(satang_of(&json!({"amount": 1})).is_err());
        assert!(satang_of(&json!(12.345)).is_err());
    }
}
