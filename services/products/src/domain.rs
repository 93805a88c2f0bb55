//! Catalog rules (SPEC §3 Product, §5), pure.

use std::collections::HashSet;

use bo_kit::money::Satang;
use bo_kit::{Error, FieldError, Result};

/// VAT in Thailand: 7%.
pub const VAT_BP: i64 = 700;

/// The price without VAT: the price itself when VAT is not included.
pub fn price_ex_vat(price: i64, vat_included: bool) -> i64 {
    if vat_included {
        Satang(price).ex_vat(VAT_BP).0
    } else {
        price
    }
}

/// Whether a product (or one of its SKUs) is for sale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Status {
    /// On sale (a new product's).
    #[default]
    Active,
    /// Hidden from sale.
    Inactive,
    /// A status this build does not know: refused.
    Unknown,
}

impl Status {
    /// The word kept in storage (the contract's `ProductStatus` words).
    pub fn word(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Inactive => "inactive",
            Status::Unknown => "",
        }
    }

    /// The status a stored word names.
    pub fn of_word(word: &str) -> Status {
        match word {
            "active" => Status::Active,
            "inactive" => Status::Inactive,
            _ => Status::Unknown,
        }
    }
}

/// A variant dimension: its name and options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub options: Vec<String>,
}

/// A SKU as written (money in satang, quantities in units).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sku {
    /// Its id when it exists (0 for a new one).
    pub id: i64,
    pub code: String,
    pub cost: i64,
    pub price: i64,
    pub safety_stock: i64,
    pub barcode: String,
    pub status: Status,
    /// Its option of variant 1 (empty without variants).
    pub option1: String,
    pub option2: String,
}

/// A product as written, with its SKUs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Product {
    /// Its id when it exists (0 for a new one).
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub short_description: String,
    pub description: String,
    pub code: String,
    pub hs_code: String,
    pub brand: String,
    pub tags: Vec<String>,
    pub category_id: i64,
    pub price: i64,
    pub cost: i64,
    /// Prices include VAT.
    pub vat: bool,
    pub weight_grams: i64,
    pub barcode: String,
    pub unit_id: i64,
    pub variants: Vec<Variant>,
    pub skus: Vec<Sku>,
    pub status: Status,
}

/// The most satang a price may hold (10 million baht).
pub const MAX_MONEY: i64 = 1_000_000_000;
/// The most SKUs a product may hold (marketplaces list far fewer).
pub const MAX_SKUS: usize = 300;
/// The most options one variant may offer.
pub const MAX_OPTIONS: usize = 100;
/// The most tags a product may carry.
pub const MAX_TAGS: usize = 20;
/// The longest variant name, option, tag, brand and barcode, in characters.
pub const MAX_LABEL_CHARS: usize = 50;

struct Errors(Vec<FieldError>);

impl Errors {
    fn add(&mut self, field: impl Into<String>, code: &str) {
        self.0.push(FieldError::new(field, code));
    }
    fn required(&mut self, field: &str, v: &str, max: usize) {
        if v.trim().is_empty() {
            self.add(field, "validation.required");
        } else if v.chars().count() > max {
            self.add(field, "validation.too_long");
        }
    }
    fn money(&mut self, field: impl Into<String>, v: i64) {
        if !(0..=MAX_MONEY).contains(&v) {
            self.add(field, "validation.money");
        }
    }
}

/// An HS code: 6, 8 or 10 digits.
pub fn is_hs_code(s: &str) -> bool {
    matches!(s.len(), 6 | 8 | 10) && s.bytes().all(|b| b.is_ascii_digit())
}

fn trim(s: &mut String) {
    *s = s.trim().to_string();
}

/// Checks and normalises a product and its SKUs. A product without variants has exactly
/// one SKU; with variants, each SKU names an option of each dimension, each combination
/// once. SKU codes must be unique within the product here (and within the store in SQL).
pub fn validate(mut p: Product) -> Result<Product> {
    let mut e = Errors(Vec::new());
    for s in [
        &mut p.name,
        &mut p.name_en,
        &mut p.short_description,
        &mut p.code,
        &mut p.hs_code,
        &mut p.brand,
        &mut p.barcode,
    ] {
        trim(s);
    }
    e.required("name", &p.name, 255);
    if p.name_en.chars().count() > 255 {
        e.add("name_en", "validation.too_long");
    }
    e.required("short_description", &p.short_description, 500);
    if p.description.chars().count() > 20_000 {
        e.add("description", "validation.too_long");
    }
    e.required("code", &p.code, 100);
    if p.brand.chars().count() > 100 {
        e.add("brand", "validation.too_long");
    }
    if p.barcode.chars().count() > MAX_LABEL_CHARS {
        e.add("barcode", "validation.too_long");
    }
    if !p.hs_code.is_empty() && !is_hs_code(&p.hs_code) {
        e.add("hs_code", "validation.hs_code");
    }
    if p.category_id <= 0 {
        e.add("category_id", "validation.required");
    }
    e.money("price", p.price);
    e.money("cost", p.cost);
    if p.weight_grams < 0 || p.weight_grams > 1_000_000 {
        e.add("weight", "validation.weight");
    }
    // Tags: at least one, none repeated.
    for t in &mut p.tags {
        trim(t);
    }
    if p.tags.is_empty() || p.tags.iter().all(|t| t.is_empty()) {
        e.add("tags", "validation.required");
    } else if p.tags.len() > MAX_TAGS {
        e.add("tags", "validation.tags_max");
    } else if p.tags.iter().any(|t| t.is_empty() || t.chars().count() > MAX_LABEL_CHARS) {
        e.add("tags", "validation.tag");
    } else if has_duplicates(&p.tags) {
        e.add("tags", "validation.duplicated");
    }
    // Variants: at most two; each named, with options, none repeated.
    if p.variants.len() > 2 {
        e.add("variants", "validation.variants_max");
    }
    for (i, v) in p.variants.iter_mut().enumerate() {
        trim(&mut v.name);
        for o in &mut v.options {
            trim(o);
        }
        if v.name.is_empty() {
            e.add(format!("variant{}", i + 1), "validation.required");
        } else if v.name.chars().count() > MAX_LABEL_CHARS {
            e.add(format!("variant{}", i + 1), "validation.too_long");
        }
        if v.options.is_empty() || v.options.iter().any(String::is_empty) {
            e.add(format!("variant{}_options", i + 1), "validation.required");
        } else if v.options.len() > MAX_OPTIONS {
            e.add(format!("variant{}_options", i + 1), "validation.options_max");
        } else if v.options.iter().any(|o| o.chars().count() > MAX_LABEL_CHARS) {
            e.add(format!("variant{}_options", i + 1), "validation.too_long");
        } else if has_duplicates(&v.options) {
            e.add(format!("variant{}_options", i + 1), "validation.duplicated");
        }
    }
    if p.variants.len() == 2 && p.variants[0].name == p.variants[1].name && !p.variants[0].name.is_empty() {
        e.add("variant2", "validation.duplicated");
    }
    // SKUs.
    if p.skus.is_empty() {
        e.add("skus", "validation.required");
    }
    if p.variants.is_empty() && p.skus.len() > 1 {
        e.add("skus", "validation.one_sku_without_variants");
    }
    if p.skus.len() > MAX_SKUS {
        // Checked before each SKU, so a huge list gets one error, not thousands.
        e.add("skus", "validation.skus_max");
        return Err(Error::invalid(e.0));
    }
    let mut combos = HashSet::new();
    let mut codes = HashSet::new();
    let variants = p.variants.clone();
    for (i, s) in p.skus.iter_mut().enumerate() {
        trim(&mut s.code);
        trim(&mut s.barcode);
        trim(&mut s.option1);
        trim(&mut s.option2);
        if s.code.is_empty() && variants.is_empty() {
            s.code = p.code.clone();
        }
        let f = |name: &str| format!("skus[{i}].{name}");
        e.required(&f("code"), &s.code, 100);
        if s.barcode.chars().count() > MAX_LABEL_CHARS {
            e.add(f("barcode"), "validation.too_long");
        }
        if !s.code.is_empty() && !codes.insert(s.code.to_lowercase()) {
            e.add(f("code"), "validation.duplicated");
        }
        e.money(f("price"), s.price);
        e.money(f("cost"), s.cost);
        if s.safety_stock < 0 {
            e.add(f("safety_stock"), "validation.quantity");
        }
        if s.status == Status::Unknown {
            e.add(f("status"), "validation.status");
        }
        let opt = |n: usize, value: &str| {
            variants.get(n).map(|v| v.options.iter().any(|o| o == value)).unwrap_or(value.is_empty())
        };
        if !opt(0, &s.option1) {
            e.add(f("variant_option"), "validation.variant_option");
        }
        if !opt(1, &s.option2) {
            e.add(f("variant_option"), "validation.variant_option");
        }
        if !combos.insert((s.option1.clone(), s.option2.clone())) {
            e.add(f("variant_option"), "validation.duplicated");
        }
    }
    if p.status == Status::Unknown {
        e.add("status", "validation.status");
    }
    if e.0.is_empty() {
        Ok(p)
    } else {
        Err(Error::invalid(e.0))
    }
}

fn has_duplicates(items: &[String]) -> bool {
    let mut seen = HashSet::new();
    items.iter().any(|i| !seen.insert(i.to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn shirt() -> Product {
        Product {
            name: "เสื้อยืดคอกลม".into(),
            short_description: "ผ้าฝ้าย 100%".into(),
            code: "TS-01".into(),
            category_id: 1,
            price: 19_900,
            cost: 9_000,
            tags: vec!["เสื้อ".into(), "cotton".into()],
            variants: vec![
                Variant { name: "สี".into(), options: vec!["ขาว".into(), "ดำ".into()] },
                Variant { name: "ไซซ์".into(), options: vec!["M".into(), "L".into()] },
            ],
            skus: vec![
                Sku {
                    code: "TS-01-W-M".into(),
                    price: 19_900,
                    cost: 9_000,
                    option1: "ขาว".into(),
                    option2: "M".into(),
                    ..Default::default()
                },
                Sku {
                    code: "TS-01-B-L".into(),
                    price: 19_900,
                    cost: 9_000,
                    option1: "ดำ".into(),
                    option2: "L".into(),
                    ..Default::default()
                },
            ],
            ..Default::default()
        }
    }

    fn fields(p: Product) -> Vec<(String, String)> {
        validate(p).unwrap_err().fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    #[test]
    fn a_product_with_variants_is_accepted() {
        let p = validate(shirt()).unwrap();
        assert_eq!(p.status, Status::Active);
        assert_eq!(p.skus[0].status, Status::Active);
    }

    #[test]
    fn a_status_this_build_does_not_know_is_refused() {
        let mut p = shirt();
        p.status = Status::Unknown;
        p.skus[1].status = Status::Inactive;
        let f = fields(p);
        assert_eq!(f, vec![("status".to_string(), "validation.status".to_string())]);
    }

    #[test]
    fn required_fields() {
        let f = fields(Product::default());
        for want in ["name", "short_description", "code", "category_id", "tags", "skus"] {
            assert!(f.iter().any(|(n, _)| n == want), "{want} in {f:?}");
        }
    }

    #[test]
    fn tags_and_options_may_not_repeat() {
        let mut p = shirt();
        p.tags = vec!["เสื้อ".into(), "เสื้อ".into()];
        p.variants[0].options = vec!["ขาว".into(), "ขาว".into()];
        let f = fields(p);
        assert!(f.contains(&("tags".into(), "validation.duplicated".into())));
        assert!(f.contains(&("variant1_options".into(), "validation.duplicated".into())));
    }

    #[test]
    fn skus_name_real_options_once() {
        let mut p = shirt();
        p.skus[1].option1 = "แดง".into();
        assert!(fields(p).contains(&("skus[1].variant_option".into(), "validation.variant_option".into())));
        let mut p = shirt();
        p.skus[1].option1 = "ขาว".into();
        p.skus[1].option2 = "M".into();
        assert!(fields(p).contains(&("skus[1].variant_option".into(), "validation.duplicated".into())));
        let mut p = shirt();
        p.skus[1].code = "ts-01-w-m".into();
        assert!(fields(p).contains(&("skus[1].code".into(), "validation.duplicated".into())));
    }

    #[test]
    fn hs_codes_have_6_8_or_10_digits() {
        for ok in ["610910", "61091000", "6109100010"] {
            assert!(is_hs_code(ok));
        }
        for bad in ["61091", "6109100", "61091a", ""] {
            assert!(!is_hs_code(bad));
        }
        let mut p = shirt();
        p.hs_code = "1234567".into();
        assert!(fields(p).contains(&("hs_code".into(), "validation.hs_code".into())));
    }

    #[test]
    fn a_simple_product_has_one_sku_named_after_it() {
        let mut p = shirt();
        p.variants.clear();
        p.skus = vec![Sku { price: 100, cost: 50, ..Default::default() }];
        let p = validate(p).unwrap();
        assert_eq!(p.skus[0].code, "TS-01");
        let mut two = shirt();
        two.variants.clear();
        two.skus.iter_mut().for_each(|s| {
            s.option1.clear();
            s.option2.clear();
        });
        assert!(fields(two).contains(&("skus".into(), "validation.one_sku_without_variants".into())));
    }

    #[test]
    fn a_product_holds_what_a_real_shop_needs_and_no_more() {
        let codes = |r: Result<Product>| -> Vec<(String, String)> {
            r.err().map(|e| e.fields.into_iter().map(|f| (f.field, f.code)).collect()).unwrap_or_default()
        };
        let mut p = shirt();
        p.tags = (0..=MAX_TAGS).map(|i| format!("t{i}")).collect();
        assert_eq!(codes(validate(p)), vec![("tags".into(), "validation.tags_max".into())]);

        let mut p = shirt();
        p.variants[0].options = (0..=MAX_OPTIONS).map(|i| format!("o{i}")).collect();
        assert!(codes(validate(p)).contains(&("variant1_options".into(), "validation.options_max".into())));

        let mut p = shirt();
        p.variants[1].options[0] = "ก".repeat(MAX_LABEL_CHARS + 1);
        assert!(codes(validate(p)).contains(&("variant2_options".into(), "validation.too_long".into())));

        let mut p = shirt();
        let sku = p.skus[0].clone();
        p.skus = (0..=MAX_SKUS).map(|_| sku.clone()).collect();
        assert_eq!(codes(validate(p)), vec![("skus".into(), "validation.skus_max".into())], "one error, not thousands");

        // At the limits themselves, a product is accepted.
        let mut p = shirt();
        p.tags = (0..MAX_TAGS).map(|i| format!("t{i}")).collect();
        assert!(validate(p).is_ok());
    }
}
