//! Parcels of orders (SPEC §3 Parcels, §4 Parcel states) and the packagings they go in.
//!
//! A parcel is pending until its order ships, then shipped. Its size is kept in grams and
//! whole centimetres; its fees (shipping, COD, packing) in satang, priced by the orders
//! service with logistics before the parcel is saved.

use bo_kit::{Error, FieldError, Result};

/// Waiting to ship.
pub const PENDING: &str = "pending";
/// Gone with its carrier.
pub const SHIPPED: &str = "shipped";

/// The heaviest parcel, grams (as logistics prices).
pub const MAX_WEIGHT_G: i64 = 100_000;
/// The longest side, cm.
pub const MAX_SIDE_CM: i64 = 300;
/// The most parcels one order is sent in.
pub const MAX_PER_ORDER: i64 = 20;
/// The longest tracking number.
pub const MAX_TRACKING: usize = 40;

/// A packaging of the catalogue (`GET /wms/packagings`): the postal provider's standard
/// boxes by their letter code, and a bubble mailer. The packing fee is what the box costs
/// the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packaging {
    /// Code.
    pub code: &'static str,
    /// Thai name.
    pub name_th: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// Width, length, height in cm.
    pub dims_cm: [i64; 3],
    /// Packing fee, satang.
    pub fee: i64,
}

const fn boxed(code: &'static str, th: &'static str, en: &'static str, dims_cm: [i64; 3], fee: i64) -> Packaging {
    Packaging { code, name_th: th, name_en: en, dims_cm, fee }
}

/// The packagings, smallest first.
pub const PACKAGINGS: [Packaging; 10] = [
    boxed("bubble_mailer", "ซองกันกระแทก", "Bubble mailer", [17, 25, 2], 500),
    boxed("box_00", "กล่องเบอร์ 00", "Box 00", [10, 14, 6], 400),
    boxed("box_0", "กล่องเบอร์ 0", "Box 0", [11, 17, 6], 500),
    boxed("box_0_4", "กล่องเบอร์ 0+4", "Box 0+4", [11, 17, 10], 600),
    boxed("box_a", "กล่องเบอร์ A", "Box A", [14, 20, 6], 700),
    boxed("box_b", "กล่องเบอร์ B", "Box B", [17, 25, 9], 900),
    boxed("box_c", "กล่องเบอร์ C", "Box C", [20, 30, 11], 1_300),
    boxed("box_d", "กล่องเบอร์ D", "Box D", [22, 35, 14], 1_700),
    boxed("box_e", "กล่องเบอร์ E", "Box E", [24, 40, 17], 2_000),
    boxed("box_f", "กล่องเบอร์ F", "Box F", [30, 45, 20], 3_000),
];

/// The packaging of `code` (None for an unknown code).
pub fn packaging(code: &str) -> Option<&'static Packaging> {
    PACKAGINGS.iter().find(|p| p.code == code)
}

/// A parcel as the orders service saves it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParcelDraft {
    /// Grams.
    pub weight_g: i64,
    /// Width, length, height in cm (0 when not measured).
    pub dims_cm: [i64; 3],
    /// Packaging code, or empty for the seller's own.
    pub packaging_code: String,
    /// Fees, satang.
    pub shipping_fee: i64,
    /// Cash to collect.
    pub cod_amount: i64,
    /// COD fee.
    pub cod_fee: i64,
    /// Packing fee.
    pub packing_fee: i64,
    /// Tracking number (may be empty until shipping).
    pub tracking_no: String,
}

/// A parcel to save: its order, where it leaves from, who carries it, and what the rules
/// check of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parcel {
    /// Parcel id (0 for a new one).
    pub id: i64,
    /// The order.
    pub order_id: i64,
    /// Shipped from.
    pub warehouse_id: i64,
    /// The shipping channel (logistics) that carries it.
    pub logistic_store_channel_id: i64,
    /// Its carrier's provider code.
    pub provider: String,
    /// The carrier booking it belongs to (0 for none).
    pub shipment_id: i64,
    /// Size, packaging, fees and tracking number.
    pub draft: ParcelDraft,
}

/// Checks a parcel, every field at once.
pub fn check(p: &ParcelDraft) -> Result<()> {
    let mut errs = Vec::new();
    if p.weight_g <= 0 || p.weight_g > MAX_WEIGHT_G {
        errs.push(FieldError::new("weight", "validation.weight"));
    }
    for (name, v) in ["width", "length", "height"].iter().zip(p.dims_cm) {
        if !(0..=MAX_SIDE_CM).contains(&v) {
            errs.push(FieldError::new(*name, "validation.dimension"));
        }
    }
    if !p.packaging_code.is_empty() && packaging(&p.packaging_code).is_none() {
        errs.push(FieldError::new("packaging_code", "validation.packaging_unknown"));
    }
    for (name, v) in [
        ("shipping_fee", p.shipping_fee),
        ("cod_amount", p.cod_amount),
        ("cod_fee", p.cod_fee),
        ("packing_fee", p.packing_fee),
    ] {
        if !(0..=100_000_000).contains(&v) {
            errs.push(FieldError::new(name, "validation.price"));
        }
    }
    let t = p.tracking_no.trim();
    if t.chars().count() > MAX_TRACKING || !t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        errs.push(FieldError::new("tracking_no", "validation.tracking_no"));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(errs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> ParcelDraft {
        ParcelDraft { weight_g: 800, dims_cm: [20, 30, 11], packaging_code: "box_c".into(), ..Default::default() }
    }

    #[test]
    fn a_measured_parcel_in_a_box_passes() {
        assert!(check(&ok()).is_ok());
        assert!(check(&ParcelDraft { packaging_code: String::new(), dims_cm: [0, 0, 0], ..ok() }).is_ok());
        assert!(check(&ParcelDraft { tracking_no: "EF123456785TH".into(), ..ok() }).is_ok());
    }

    #[test]
    fn every_wrong_field_is_named() {
        let e = check(&ParcelDraft {
            weight_g: 0,
            dims_cm: [-1, 301, 5],
            packaging_code: "crate".into(),
            shipping_fee: -1,
            cod_fee: 200_000_000,
            tracking_no: "EF 123".into(),
            ..Default::default()
        })
        .unwrap_err();
        let fields: Vec<&str> = e.fields.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["weight", "width", "length", "packaging_code", "shipping_fee", "cod_fee", "tracking_no"]);
    }

    #[test]
    fn packagings_are_unique_and_priced() {
        for (i, p) in PACKAGINGS.iter().enumerate() {
            assert!(p.fee > 0 && p.dims_cm.iter().all(|d| *d > 0), "{}", p.code);
            assert!(PACKAGINGS[i + 1..].iter().all(|q| q.code != p.code), "{} twice", p.code);
        }
        assert_eq!(packaging("box_a").unwrap().dims_cm, [14, 20, 6]);
        assert!(packaging("box_z").is_none());
    }
}
