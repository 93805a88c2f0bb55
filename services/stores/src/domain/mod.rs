//! The stores service's rules: pure, unit-tested, no I/O.

pub mod bills;
pub mod customer;
pub mod identity;
pub mod pos;
pub mod roles;
pub mod settings;
pub mod store;
pub mod team;
pub mod user;

use bo_kit::FieldError;

/// Message keys for broken rules; the app translates them.
pub mod msg {
    /// The field is required.
    pub const REQUIRED: &str = "validation.required";
    /// Too long.
    pub const TOO_LONG: &str = "validation.too_long";
    /// A Thai phone must be 9 or 10 digits.
    pub const PHONE_DIGITS: &str = "validation.phone_digits";
    /// An international phone: 6 to 15 digits, an optional leading +.
    pub const PHONE_INTERNATIONAL: &str = "validation.phone_international";
    /// Not an email address.
    pub const EMAIL: &str = "validation.email";
    /// A Thai postcode is 5 digits.
    pub const POSTCODE: &str = "validation.postcode";
    /// A country is a two-letter ISO code.
    pub const COUNTRY: &str = "validation.country";
    /// A password needs at least 8 characters.
    pub const PASSWORD_SHORT: &str = "validation.password_short";
    /// Not a whole number in range.
    pub const QUANTITY: &str = "validation.quantity";
}

/// Collects field errors.
#[derive(Debug, Default)]
pub struct Errors(pub Vec<FieldError>);

impl Errors {
    /// Adds one.
    pub fn add(&mut self, field: &str, code: &str) {
        self.0.push(FieldError::new(field, code));
    }
    /// Requires a non-blank value no longer than `max` characters.
    pub fn required(&mut self, field: &str, value: &str, max: usize) {
        if value.trim().is_empty() {
            self.add(field, msg::REQUIRED);
        } else {
            self.max_len(field, value, max);
        }
    }
    /// Limits length in characters.
    pub fn max_len(&mut self, field: &str, value: &str, max: usize) {
        if value.chars().count() > max {
            self.add(field, msg::TOO_LONG);
        }
    }
    /// Ok when nothing was broken.
    pub fn finish(self) -> bo_kit::Result<()> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(bo_kit::Error::invalid(self.0))
        }
    }
}

/// A Thai phone number: 9 or 10 digits once spaces and dashes are removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    /// Reads a phone number.
    pub fn parse(s: &str) -> Result<Phone, &'static str> {
        if s.chars().all(|c| matches!(c, ' ' | '-')) {
            return Err(msg::REQUIRED);
        }
        bo_kit::checks::thai_phone(s).map(Phone).ok_or(msg::PHONE_DIGITS)
    }
    /// The digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The digits, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// An international phone: 6 to 15 digits, an optional leading +.
pub fn parse_international_phone(s: &str) -> Result<String, &'static str> {
    if s.chars().all(|c| matches!(c, ' ' | '-' | '(' | ')' | '+')) {
        return Err(msg::REQUIRED);
    }
    bo_kit::checks::international_phone(s).ok_or(msg::PHONE_INTERNATIONAL)
}

pub use bo_kit::checks::is_valid_email;

pub use bo_kit::checks::is_thai_postcode;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_have_nine_or_ten_digits() {
        assert_eq!(Phone::parse("081-234-5678").unwrap().as_str(), "0812345678");
        assert_eq!(Phone::parse("02 123 4567").unwrap().as_str(), "021234567");
        assert_eq!(Phone::parse("08123456"), Err(msg::PHONE_DIGITS));
        assert_eq!(Phone::parse("08123456789"), Err(msg::PHONE_DIGITS));
        assert_eq!(Phone::parse("08123456x"), Err(msg::PHONE_DIGITS));
        assert_eq!(Phone::parse("๐๘๑๒๓๔๕๖๗๘"), Err(msg::PHONE_DIGITS));
        assert_eq!(Phone::parse(" "), Err(msg::REQUIRED));
    }

    #[test]
    fn international_phones() {
        assert_eq!(parse_international_phone("+44 20 7946 0958").unwrap(), "+442079460958");
        assert_eq!(parse_international_phone("12345"), Err(msg::PHONE_INTERNATIONAL));
    }

    #[test]
    fn emails() {
        for ok in ["a@b.co", "somchai.j@example.co.th", "x+y@ตัวอย่าง.ไทย"] {
            assert!(is_valid_email(ok), "{ok}");
        }
        for bad in ["", "a", "a@", "@b.co", "a@b", "a b@c.co", "a@b..co", "a@@b.co", "a@b.c"] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }

    #[test]
    fn postcodes() {
        assert!(is_thai_postcode("10110"));
        assert!(!is_thai_postcode("1011"));
        assert!(!is_thai_postcode("1011a"));
    }
}
