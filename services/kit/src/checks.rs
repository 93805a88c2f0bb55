//! Checks of identifiers people type, shared by every service: Thai tax and national ids
//! (13 digits with a check digit), phone numbers, postcodes and email addresses.

/// True for a 13-digit Thai tax id whose last digit is the check digit: the first twelve
/// weighted 13 down to 2, the check is `(11 - sum mod 11) mod 10`.
pub fn is_thai_tax_id(s: &str) -> bool {
    let d: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if d.len() != 13 || s.chars().count() != 13 {
        return false;
    }
    let sum: u32 = d[..12].iter().enumerate().map(|(i, v)| v * (13 - i as u32)).sum();
    (11 - sum % 11) % 10 == d[12]
}

/// A tax id as typed, without the spaces and dashes people group it with.
pub fn clean_tax_id(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, ' ' | '-')).collect()
}

/// A Thai phone number's digits (9 or 10, typed with spaces or dashes or not); None when it
/// is not one.
pub fn thai_phone(s: &str) -> Option<String> {
    let digits: String = s.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    (digits.bytes().all(|b| b.is_ascii_digit()) && (9..=10).contains(&digits.len())).then_some(digits)
}

/// A phone number abroad: an optional +, then 6 to 15 digits (spaces, dashes and brackets
/// dropped); None when it is not one.
pub fn international_phone(s: &str) -> Option<String> {
    let cleaned: String = s.chars().filter(|c| !matches!(c, ' ' | '-' | '(' | ')')).collect();
    let digits = cleaned.strip_prefix('+').unwrap_or(&cleaned);
    (digits.bytes().all(|b| b.is_ascii_digit()) && (6..=15).contains(&digits.len())).then_some(cleaned)
}

/// A Thai postcode: five digits.
pub fn is_thai_postcode(s: &str) -> bool {
    s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit())
}

/// A plausible email address: one @, a local part, a dotted domain, no spaces.
pub fn is_valid_email(s: &str) -> bool {
    let s = s.trim();
    if s.len() > 254 || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else { return false };
    if local.is_empty() || local.len() > 64 || domain.contains('@') {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-' || !c.is_ascii())
        })
        && labels.last().is_some_and(|tld| tld.chars().count() >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_ids_carry_the_thai_check_digit() {
        assert!(is_thai_tax_id("1234567890121"));
        assert!(check_ok("010553601234"));
        for bad in ["1234567890122", "123456789012", "12345678901212", "123456789012a", "๑๒๓๔๕๖๗๘๙๐๑๒๑"]
        {
            assert!(!is_thai_tax_id(bad), "{bad}");
        }
        assert_eq!(clean_tax_id("1-2345-67890-12-1"), "1234567890121");
    }

    /// Appends the check digit computed the long way, for a second opinion.
    fn check_ok(first12: &str) -> bool {
        let mut sum = 0;
        for (i, c) in first12.chars().enumerate() {
            sum += c.to_digit(10).unwrap() * (13 - i as u32);
        }
        let check = (11 - sum % 11) % 10;
        is_thai_tax_id(&format!("{first12}{check}"))
    }

    #[test]
    fn every_twelve_digits_have_exactly_one_check_digit() {
        for first12 in ["000000000000", "999999999999", "310010012345", "010553601234"] {
            let valid: Vec<u32> = (0..10).filter(|c| is_thai_tax_id(&format!("{first12}{c}"))).collect();
            assert_eq!(valid.len(), 1, "{first12}");
        }
    }
}
