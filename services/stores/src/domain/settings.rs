//! Store settings: units of measurement (SPEC §3, §5, §9) and the store-wide safety stock
//! (SPEC §5, §7).
//!
//! A unit of measurement names a quantity of a base unit: "แพ็ค 6" is 6 pieces. Its name is
//! required and unique in the store (compared without case and repeated spaces); its
//! quantity is required, a whole number from 1; its base unit is one of SPEC §9's six. A
//! safety-stock setting is an amount in units, required, a whole number from 0. Numbers
//! arrive as entered (form values are text) and are read here.

use super::{msg, Errors};

/// The base unit types of SPEC §9, in the order screens offer them.
pub const BASE_UNITS: [&str; 6] = ["piece", "dozen", "pack", "carton", "box", "sack"];

/// The longest unit name, in characters.
pub const NAME_MAX: usize = 100;
/// The largest quantity a unit may hold.
pub const QUANTITY_MAX: i64 = 1_000_000;
/// The largest safety stock.
pub const AMOUNT_MAX: i64 = 1_000_000_000;

/// Message key: not one of the base unit types.
pub const UNIT_TYPE: &str = "validation.unit_type";

/// A unit as written (numbers as text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitDraft {
    /// Name.
    pub name: String,
    /// Quantity of the base unit, as entered.
    pub quantity: String,
    /// Base unit type.
    pub base_unit: String,
}

/// A checked unit, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Name, trimmed.
    pub name: String,
    /// The name as compared for uniqueness.
    pub name_key: String,
    /// Quantity of the base unit.
    pub quantity: i64,
    /// Base unit type.
    pub base_unit: String,
}

/// A partial change to a unit (numbers as text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitPatch {
    /// Name.
    pub name: Option<String>,
    /// Quantity, as entered.
    pub quantity: Option<String>,
    /// Base unit type.
    pub base_unit: Option<String>,
}

impl UnitPatch {
    /// The unit `current` with this patch applied, to validate again.
    pub fn over(self, current: UnitDraft) -> UnitDraft {
        UnitDraft {
            name: self.name.unwrap_or(current.name),
            quantity: self.quantity.unwrap_or(current.quantity),
            base_unit: self.base_unit.unwrap_or(current.base_unit),
        }
    }
}

/// The name as compared for uniqueness: trimmed, spaces collapsed, lower case.
pub fn name_key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Reads a whole number written as digits (commas between thousands and a fraction of
/// zeros allowed: "1,000", "6.0"), within `min..=max`.
fn whole_number(s: &str, min: i64, max: i64) -> Result<i64, &'static str> {
    let s = s.trim();
    if s.is_empty() {
        return Err(msg::REQUIRED);
    }
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits: String = whole.chars().filter(|c| *c != ',').collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b == b'0') {
        return Err(msg::QUANTITY);
    }
    match digits.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(msg::QUANTITY),
    }
}

/// A unit's quantity: required, a whole number from 1 to [`QUANTITY_MAX`].
pub fn parse_quantity(s: &str) -> Result<i64, &'static str> {
    whole_number(s, 1, QUANTITY_MAX)
}

/// A safety stock: required, a whole number from 0 to [`AMOUNT_MAX`].
pub fn parse_amount(s: &str) -> Result<i64, &'static str> {
    whole_number(s, 0, AMOUNT_MAX)
}

/// True for one of the six base unit types.
pub fn is_base_unit(s: &str) -> bool {
    BASE_UNITS.contains(&s)
}

/// `quantity` of `base_unit` in the smallest unit it converts to: a dozen is 12 pieces;
/// the other types have no fixed size and stay as they are.
pub fn converted(quantity: i64, base_unit: &str) -> (i64, &str) {
    match base_unit {
        "dozen" => (quantity.saturating_mul(12), "piece"),
        other => (quantity, other),
    }
}

/// Checks a unit and normalises it.
pub fn validate_unit(d: UnitDraft) -> bo_kit::Result<Unit> {
    let mut errs = Errors::default();
    let name = d.name.split_whitespace().collect::<Vec<_>>().join(" ");
    errs.required("name", &name, NAME_MAX);
    let quantity = match parse_quantity(&d.quantity) {
        Ok(q) => q,
        Err(code) => {
            errs.add("quantity", code);
            0
        }
    };
    let base_unit = d.base_unit.trim().to_ascii_lowercase();
    if base_unit.is_empty() {
        errs.add("base_unit", msg::REQUIRED);
    } else if !is_base_unit(&base_unit) {
        errs.add("base_unit", UNIT_TYPE);
    }
    errs.finish()?;
    Ok(Unit { name_key: name_key(&name), name, quantity, base_unit })
}

/// Checks a safety-stock amount as entered.
pub fn validate_amount(s: &str) -> bo_kit::Result<i64> {
    parse_amount(s).map_err(|code| bo_kit::Error::invalid_field("amount", code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::error::Kind;

    fn draft(name: &str, quantity: &str, base_unit: &str) -> UnitDraft {
        UnitDraft { name: name.into(), quantity: quantity.into(), base_unit: base_unit.into() }
    }

    fn fields(e: bo_kit::Error) -> Vec<(String, String)> {
        assert_eq!(e.kind, Kind::Invalid);
        e.fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    #[test]
    fn a_pack_of_six_is_accepted_and_normalised() {
        let u = validate_unit(draft("  แพ็ค   6 ", " 6 ", "Piece")).unwrap();
        assert_eq!(
            u,
            Unit {
                name: "แพ็ค 6".into(), name_key: "แพ็ค 6".into(), quantity: 6, base_unit: "piece".into()
            }
        );
        assert_eq!(name_key("Box  Of 10"), name_key(" box of 10"));
    }

    #[test]
    fn name_quantity_and_base_unit_are_required() {
        let f = fields(validate_unit(UnitDraft::default()).unwrap_err());
        assert_eq!(
            f,
            vec![
                ("name".into(), msg::REQUIRED.into()),
                ("quantity".into(), msg::REQUIRED.into()),
                ("base_unit".into(), msg::REQUIRED.into())
            ]
        );
    }

    #[test]
    fn quantities_are_whole_numbers_from_one() {
        assert_eq!(parse_quantity("12"), Ok(12));
        assert_eq!(parse_quantity("1,000"), Ok(1000));
        assert_eq!(parse_quantity("6.0"), Ok(6));
        for bad in ["0", "-1", "1.5", "abc", "6 ชิ้น", "๖", "1000001", "99999999999999999999", "."] {
            assert_eq!(parse_quantity(bad), Err(msg::QUANTITY), "{bad}");
        }
        assert_eq!(parse_quantity("  "), Err(msg::REQUIRED));
    }

    #[test]
    fn safety_stock_is_a_whole_number_from_zero() {
        assert_eq!(parse_amount("0"), Ok(0));
        assert_eq!(parse_amount("25"), Ok(25));
        assert_eq!(parse_amount(""), Err(msg::REQUIRED));
        assert_eq!(parse_amount("-5"), Err(msg::QUANTITY));
        assert_eq!(parse_amount("2.5"), Err(msg::QUANTITY));
        let e = validate_amount("x").unwrap_err();
        assert_eq!(fields(e), vec![("amount".into(), msg::QUANTITY.into())]);
    }

    #[test]
    fn base_units_are_the_six_types() {
        for b in BASE_UNITS {
            assert!(validate_unit(draft("x", "1", b)).is_ok(), "{b}");
        }
        let f = fields(validate_unit(draft("x", "1", "litre")).unwrap_err());
        assert_eq!(f, vec![("base_unit".into(), UNIT_TYPE.into())]);
    }

    #[test]
    fn long_names_are_refused() {
        let f = fields(validate_unit(draft(&"ก".repeat(NAME_MAX + 1), "1", "box")).unwrap_err());
        assert_eq!(f, vec![("name".into(), msg::TOO_LONG.into())]);
    }

    #[test]
    fn dozens_convert_to_pieces() {
        assert_eq!(converted(2, "dozen"), (24, "piece"));
        assert_eq!(converted(6, "piece"), (6, "piece"));
        assert_eq!(converted(3, "carton"), (3, "carton"));
    }

    #[test]
    fn patches_change_only_what_they_name() {
        let cur = draft("แพ็ค 6", "6", "piece");
        let p = UnitPatch { quantity: Some("12".into()), ..Default::default() };
        assert_eq!(p.over(cur.clone()), draft("แพ็ค 6", "12", "piece"));
        assert_eq!(UnitPatch::default().over(cur.clone()), cur);
    }
}
