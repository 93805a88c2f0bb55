//! An integrator's order, checked before anything is asked of the other services: its
//! reference, its lines (one of our SKUs by code or the integrator's linked id, a quantity, a
//! price), where it goes, its charges, and how it is paid (at the integrator, or cash on
//! delivery: an order through the open API has no bill of ours). Every broken rule is named
//! at once, by the field the integrator sent. Its digest tells a repeat from another order
//! under the same Idempotency-Key or reference.

use bo_kit::{Error, FieldError, Result};
use serde::Serialize;

/// The longest reference.
pub const REFERENCE_MAX: usize = 100;
/// The most lines.
pub const LINES_MAX: usize = 200;
/// The most units of a line.
pub const QUANTITY_MAX: i64 = 100_000;
/// The highest price of one unit, satang (10 million baht).
pub const PRICE_MAX: i64 = 1_000_000_000;
/// The highest shipping charge or discount, satang (1 million baht).
pub const CHARGE_MAX: i64 = 100_000_000;
/// The longest note.
pub const NOTE_MAX: usize = 500;
/// The longest Idempotency-Key.
pub const KEY_MAX: usize = 255;

/// A line as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Line {
    pub sku_code: String,
    pub external_id: String,
    pub quantity: i64,
    pub unit_price: i64,
}

/// The address as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Address {
    pub name: String,
    pub tel: String,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    pub state_province: String,
    pub postcode: String,
    pub email: String,
}

/// An integrator's order as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Input {
    pub reference: String,
    pub note: String,
    pub address: Address,
    pub lines: Vec<Line>,
    pub shipping_charge: i64,
    pub discount: i64,
    pub cod: bool,
    pub paid: bool,
}

fn digits_only(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_digit()).collect()
}

/// The order trimmed (the phone to its digits) and checked.
pub fn check(input: &Input) -> Result<Input> {
    let mut errs = Vec::new();
    let t = |s: &str| s.trim().to_string();
    let reference = t(&input.reference);
    if reference.is_empty() {
        errs.push(FieldError::new("reference", "validation.required"));
    } else if reference.chars().count() > REFERENCE_MAX || reference.chars().any(char::is_control) {
        errs.push(FieldError::new("reference", "validation.too_long"));
    }
    let note = t(&input.note);
    if note.chars().count() > NOTE_MAX {
        errs.push(FieldError::new("note", "validation.too_long"));
    }
    let a = &input.address;
    let address = Address {
        name: t(&a.name),
        tel: digits_only(&a.tel),
        address: t(&a.address),
        sub_district: t(&a.sub_district),
        district: t(&a.district),
        state_province: t(&a.state_province),
        postcode: t(&a.postcode),
        email: t(&a.email),
    };
    for (field, v, max) in [
        ("name", &address.name, 200),
        ("address", &address.address, 500),
        ("sub_district", &address.sub_district, 100),
        ("district", &address.district, 100),
        ("state_province", &address.state_province, 100),
    ] {
        if v.is_empty() {
            errs.push(FieldError::new(format!("address.{field}"), "validation.required"));
        } else if v.chars().count() > max {
            errs.push(FieldError::new(format!("address.{field}"), "validation.too_long"));
        }
    }
    if address.tel.is_empty() {
        errs.push(FieldError::new("address.tel", "validation.required"));
    } else if !(9..=10).contains(&address.tel.len()) {
        errs.push(FieldError::new("address.tel", "validation.phone_digits"));
    }
    if address.postcode.len() != 5 || !address.postcode.bytes().all(|b| b.is_ascii_digit()) {
        errs.push(FieldError::new("address.postcode", "validation.postcode"));
    }
    if !address.email.is_empty() && (address.email.len() > 200 || !address.email.contains('@')) {
        errs.push(FieldError::new("address.email", "validation.email"));
    }
    if input.lines.is_empty() {
        errs.push(FieldError::new("lines", "validation.required"));
    } else if input.lines.len() > LINES_MAX {
        errs.push(FieldError::new("lines", "validation.too_many"));
    }
    let mut lines = Vec::with_capacity(input.lines.len());
    let mut goods: i64 = 0;
    for (i, l) in input.lines.iter().enumerate() {
        let at = |f: &str| format!("lines[{i}].{f}");
        let line = Line { sku_code: t(&l.sku_code), external_id: t(&l.external_id), ..l.clone() };
        if line.sku_code.is_empty() == line.external_id.is_empty() {
            errs.push(FieldError::new(at("sku_code"), "validation.sku_or_external_id"));
        }
        if line.sku_code.chars().count() > 100 || line.external_id.chars().count() > 100 {
            errs.push(FieldError::new(at("sku_code"), "validation.too_long"));
        }
        if !(1..=QUANTITY_MAX).contains(&line.quantity) {
            errs.push(FieldError::new(at("quantity"), "validation.quantity"));
        }
        if !(0..=PRICE_MAX).contains(&line.unit_price) {
            errs.push(FieldError::new(at("unit_price"), "validation.price"));
        }
        goods = goods.saturating_add(line.unit_price.saturating_mul(line.quantity));
        lines.push(line);
    }
    if !(0..=CHARGE_MAX).contains(&input.shipping_charge) {
        errs.push(FieldError::new("shipping_charge", "validation.price"));
    }
    if !(0..=CHARGE_MAX).contains(&input.discount) || input.discount > goods {
        errs.push(FieldError::new("discount", "validation.price"));
    }
    if !input.paid && !input.cod {
        errs.push(FieldError::new("paid", "validation.paid_or_cod"));
    }
    if input.paid && input.cod {
        errs.push(FieldError::new("cod", "validation.paid_or_cod"));
    }
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    Ok(Input { reference, note, address, lines, ..input.clone() })
}

/// Checks an Idempotency-Key: empty, or 1 to 255 visible characters.
pub fn check_key(key: &str) -> Result<()> {
    if key.len() > KEY_MAX || key.chars().any(|c| c.is_control() || c == ' ') {
        return Err(Error::invalid_field("idempotency_key", "validation.invalid"));
    }
    Ok(())
}

/// The digest of an order as checked: two requests are the same order when their digests are.
pub fn digest(input: &Input) -> String {
    let text = serde_json::to_string(input).unwrap_or_default();
    hex::encode(ring::digest::digest(&ring::digest::SHA256, text.as_bytes()).as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn input() -> Input {
        Input {
            reference: " WEB-1001 ".into(),
            note: "ฝากไว้หน้าบ้าน".into(),
            address: Address {
                name: "สมหญิง รักดี".into(),
                tel: "089-111-2233".into(),
                address: "12/3 ถนนนิมมานเหมินท์".into(),
                sub_district: "สุเทพ".into(),
                district: "เมืองเชียงใหม่".into(),
                state_province: "เชียงใหม่".into(),
                postcode: "50200".into(),
                email: String::new(),
            },
            lines: vec![
                Line { sku_code: "TS-001".into(), quantity: 2, unit_price: 19_900, ..Default::default() },
                Line { external_id: "woo-77".into(), quantity: 1, unit_price: 9_900, ..Default::default() },
            ],
            shipping_charge: 4_000,
            discount: 1_000,
            cod: false,
            paid: true,
        }
    }

    #[test]
    fn an_order_is_trimmed_and_its_phone_read_as_digits() {
        let o = check(&input()).unwrap();
        assert_eq!((o.reference.as_str(), o.address.tel.as_str()), ("WEB-1001", "0891112233"));
        assert_eq!(digest(&o), digest(&check(&input()).unwrap()), "the same order, the same digest");
        let mut other = input();
        other.lines[0].quantity = 3;
        assert_ne!(digest(&o), digest(&check(&other).unwrap()));
    }

    #[test]
    fn every_broken_rule_is_named_by_what_was_sent() {
        let bad = Input {
            reference: String::new(),
            lines: vec![
                Line { quantity: 0, unit_price: -1, ..Default::default() },
                Line { sku_code: "A".into(), external_id: "B".into(), quantity: 1, unit_price: 1 },
            ],
            discount: 5,
            ..Default::default()
        };
        let fields: Vec<String> = check(&bad).unwrap_err().fields.into_iter().map(|f| f.field).collect();
        assert_eq!(
            fields,
            vec![
                "reference",
                "address.name",
                "address.address",
                "address.sub_district",
                "address.district",
                "address.state_province",
                "address.tel",
                "address.postcode",
                "lines[0].sku_code",
                "lines[0].quantity",
                "lines[0].unit_price",
                "lines[1].sku_code",
                "discount",
                "paid"
            ]
        );
        let mut both = input();
        both.cod = true;
        assert_eq!(check(&both).unwrap_err().fields[0].field, "cod");
        let mut none = input();
        none.lines.clear();
        assert_eq!(check(&none).unwrap_err().fields[0].field, "lines");
    }

    #[test]
    fn keys_are_visible_characters() {
        assert!(check_key("").is_ok());
        assert!(check_key("order-1001-try-1").is_ok());
        assert!(check_key("two words").is_err());
        assert!(check_key(&"k".repeat(KEY_MAX + 1)).is_err());
    }
}
