//! What an order as sent must hold (SPEC §5 Order), every broken rule at once, and when its
//! shipping address is complete enough to prepare.
//!
//! An order may be saved with an incomplete address (a chat sale is often written before the
//! buyer sends it); it then carries the problem `address_incomplete` and cannot be prepared.
//! What is given must be well formed: a phone of 9 or 10 digits (6 to 15 abroad), a Thai
//! postcode of five digits, a valid email, a two-letter country.

use bo_kit::checks::{international_phone, is_thai_postcode, is_valid_email, thai_phone};
use bo_kit::{Error, FieldError, Result};

use super::money::FULL_BP;

/// The most lines of an order.
pub const MAX_ITEMS: usize = 200;
/// The most units of a line.
pub const MAX_QUANTITY: i64 = 100_000;
/// The highest price of a unit, satang (1,000,000 baht).
pub const MAX_PRICE: i64 = 100_000_000;
/// The highest shipping charge or fee, satang.
pub const MAX_CHARGE: i64 = 100_000_000;
/// The longest note of an order.
pub const NOTE_MAX: usize = 500;
/// The longest note of a line.
pub const LINE_NOTE_MAX: usize = 200;
/// The most packing options of a line, and their longest.
pub const MAX_PACKING: usize = 10;
pub const PACKING_MAX: usize = 50;
/// The longest channel reference.
pub const REFERENCE_MAX: usize = 100;

/// Discount kinds.
pub const FIXED: &str = "fixed";
pub const PERCENT: &str = "percent";

/// A shipping address as sent or kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    pub name: String,
    pub tel: String,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    pub state_province: String,
    pub postcode: String,
    pub email: String,
    /// ISO alpha-2, TH when empty.
    pub country: String,
    pub city: String,
}

impl Address {
    /// Outside Thailand.
    pub fn is_international(&self) -> bool {
        !self.country.is_empty() && self.country != "TH"
    }

    /// Nothing typed at all.
    pub fn is_empty(&self) -> bool {
        [&self.name, &self.tel, &self.address, &self.sub_district, &self.district, &self.state_province, &self.postcode]
            .iter()
            .all(|f| f.is_empty())
            && self.email.is_empty()
            && self.city.is_empty()
    }

    /// Complete enough to ship: name, phone, address and, in Thailand, sub-district,
    /// district, province and postcode; abroad, city and country.
    pub fn is_complete(&self) -> bool {
        let base = !self.name.is_empty() && !self.tel.is_empty() && !self.address.is_empty();
        if self.is_international() {
            base && !self.city.is_empty()
        } else {
            base && !self.sub_district.is_empty()
                && !self.district.is_empty()
                && !self.state_province.is_empty()
                && !self.postcode.is_empty()
        }
    }

    /// Trims, normalises (country upper-cased, TH by default; phone digits) and checks what
    /// is given; field errors are named under `prefix`.
    pub fn normalise(mut self, prefix: &str, errs: &mut Vec<FieldError>) -> Address {
        for f in [
            &mut self.name,
            &mut self.tel,
            &mut self.address,
            &mut self.sub_district,
            &mut self.district,
            &mut self.state_province,
            &mut self.postcode,
            &mut self.email,
            &mut self.country,
            &mut self.city,
        ] {
            *f = f.trim().to_string();
        }
        let at = |f: &str| format!("{prefix}{f}");
        self.country = if self.country.is_empty() { "TH".into() } else { self.country.to_ascii_uppercase() };
        if self.country.len() != 2 || !self.country.bytes().all(|b| b.is_ascii_uppercase()) {
            errs.push(FieldError::new(at("country"), "validation.country_unknown"));
        }
        for (name, v, max) in [
            ("name", &self.name, 200),
            ("address", &self.address, 500),
            ("sub_district", &self.sub_district, 100),
            ("district", &self.district, 100),
            ("state_province", &self.state_province, 100),
            ("city", &self.city, 100),
        ] {
            if v.chars().count() > max {
                errs.push(FieldError::new(at(name), "validation.too_long"));
            }
        }
        if !self.tel.is_empty() {
            let tel = if self.is_international() { international_phone(&self.tel) } else { thai_phone(&self.tel) };
            match tel {
                Some(t) => self.tel = t,
                None => errs.push(FieldError::new(
                    at("tel"),
                    if self.is_international() { "validation.phone_international" } else { "validation.phone_digits" },
                )),
            }
        }
        if !self.postcode.is_empty() && !self.is_international() && !is_thai_postcode(&self.postcode) {
            errs.push(FieldError::new(at("postcode"), "validation.postcode"));
        }
        if self.postcode.chars().count() > 20 {
            errs.push(FieldError::new(at("postcode"), "validation.too_long"));
        }
        if !self.email.is_empty() && !is_valid_email(&self.email) {
            errs.push(FieldError::new(at("email"), "validation.email"));
        }
        self
    }
}

/// A line as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemDraft {
    pub sku_id: i64,
    pub quantity: i64,
    /// None: the SKU's price.
    pub price: Option<i64>,
    /// 0: the order's warehouse.
    pub warehouse_id: i64,
    pub packing_options: Vec<String>,
    pub note: String,
}

/// An order as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderDraft {
    pub channel: String,
    pub reference: String,
    pub note: String,
    pub warehouse_id: i64,
    pub customer_id: i64,
    pub customer_address_id: i64,
    pub address: Address,
    pub items: Vec<ItemDraft>,
    pub discount_type: String,
    pub discount_value: i64,
    pub vat_included: bool,
    pub logistic_store_channel_id: i64,
    /// None: priced with the channel.
    pub shipping_charge: Option<i64>,
    pub additional_fee: i64,
    pub cod: bool,
    pub imported: bool,
}

fn too_long(s: &str, max: usize) -> bool {
    s.chars().count() > max
}

/// Checks and normalises a draft; every broken rule at once. `known_channel` says whether a
/// code is a sales channel (the catalogue is the marketplaces service's).
pub fn validate(mut d: OrderDraft, known_channel: impl Fn(&str) -> bool) -> Result<OrderDraft> {
    let mut errs = Vec::new();
    d.channel = d.channel.trim().to_string();
    d.reference = d.reference.trim().to_string();
    d.note = d.note.trim().to_string();
    d.discount_type = d.discount_type.trim().to_string();
    if d.channel.is_empty() {
        errs.push(FieldError::new("channel", "validation.required"));
    } else if !known_channel(&d.channel) {
        errs.push(FieldError::new("channel", "validation.channel_unknown"));
    }
    if too_long(&d.reference, REFERENCE_MAX) {
        errs.push(FieldError::new("reference", "validation.too_long"));
    }
    if too_long(&d.note, NOTE_MAX) {
        errs.push(FieldError::new("note", "validation.too_long"));
    }
    if d.warehouse_id <= 0 {
        errs.push(FieldError::new("warehouse_id", "validation.required"));
    }
    if d.customer_id < 0 || d.customer_address_id < 0 {
        errs.push(FieldError::new("customer_id", "validation.required"));
    }
    if d.customer_address_id > 0 && d.customer_id == 0 {
        errs.push(FieldError::new("customer_id", "validation.required"));
    }
    if d.items.is_empty() {
        errs.push(FieldError::new("items", "validation.required"));
    } else if d.items.len() > MAX_ITEMS {
        errs.push(FieldError::new("items", "validation.too_many"));
    }
    for (i, it) in d.items.iter_mut().enumerate() {
        let at = |f: &str| format!("items[{i}].{f}");
        if it.sku_id <= 0 {
            errs.push(FieldError::new(at("sku_id"), "validation.required"));
        }
        if it.quantity <= 0 || it.quantity > MAX_QUANTITY {
            errs.push(FieldError::new(at("quantity"), "validation.quantity"));
        }
        if it.price.is_some_and(|p| !(0..=MAX_PRICE).contains(&p)) {
            errs.push(FieldError::new(at("price"), "validation.price"));
        }
        if it.warehouse_id < 0 {
            errs.push(FieldError::new(at("warehouse_id"), "validation.required"));
        }
        if it.warehouse_id == 0 {
            it.warehouse_id = d.warehouse_id;
        }
        it.note = it.note.trim().to_string();
        if too_long(&it.note, LINE_NOTE_MAX) {
            errs.push(FieldError::new(at("note"), "validation.too_long"));
        }
        it.packing_options =
            it.packing_options.iter().map(|o| o.trim().to_string()).filter(|o| !o.is_empty()).collect();
        it.packing_options.dedup();
        if it.packing_options.len() > MAX_PACKING || it.packing_options.iter().any(|o| too_long(o, PACKING_MAX)) {
            errs.push(FieldError::new(at("packing_options"), "validation.packing_options"));
        }
    }
    match d.discount_type.as_str() {
        "" => d.discount_value = 0,
        FIXED if !(0..=MAX_CHARGE).contains(&d.discount_value) => {
            errs.push(FieldError::new("discount_value", "validation.price"))
        }
        PERCENT if !(0..=FULL_BP).contains(&d.discount_value) => {
            errs.push(FieldError::new("discount_value", "validation.percent"))
        }
        FIXED | PERCENT => {}
        _ => errs.push(FieldError::new("discount_type", "validation.discount_type")),
    }
    if d.shipping_charge.is_some_and(|c| !(0..=MAX_CHARGE).contains(&c)) {
        errs.push(FieldError::new("shipping_charge", "validation.price"));
    }
    if !(0..=MAX_CHARGE).contains(&d.additional_fee) {
        errs.push(FieldError::new("additional_fee", "validation.price"));
    }
    if d.logistic_store_channel_id < 0 {
        errs.push(FieldError::new("logistic_store_channel_id", "validation.required"));
    }
    if d.cod && d.logistic_store_channel_id == 0 {
        errs.push(FieldError::new("logistic_store_channel_id", "validation.cod_needs_channel"));
    }
    d.address = std::mem::take(&mut d.address).normalise("shipping_address.", &mut errs);
    if errs.is_empty() {
        Ok(d)
    } else {
        Err(Error::invalid(errs))
    }
}

/// The discount of a validated draft.
pub fn discount(kind: &str, value: i64) -> super::money::Discount {
    match kind {
        FIXED => super::money::Discount::Fixed(value),
        PERCENT => super::money::Discount::Percent(value),
        _ => super::money::Discount::None,
    }
}

/// Checks an address sent on its own (change shipping address); its errors name the
/// fields as an order's do (`shipping_address.tel`), so a form shows them in one way.
pub fn validate_address(a: Address) -> Result<Address> {
    let mut errs = Vec::new();
    let a = a.normalise("shipping_address.", &mut errs);
    if errs.is_empty() {
        Ok(a)
    } else {
        Err(Error::invalid(errs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home() -> Address {
        Address {
            name: "สมชาย ใจดี".into(),
            tel: "081-234-5678".into(),
            address: "99/1 ถนนสุขุมวิท".into(),
            sub_district: "คลองเตยเหนือ".into(),
            district: "วัฒนา".into(),
            state_province: "กรุงเทพมหานคร".into(),
            postcode: "10110".into(),
            ..Default::default()
        }
    }

    /// The channels these tests know (the catalogue is the marketplaces service's).
    fn known(code: &str) -> bool {
        ["facebook", "line", "shopee"].contains(&code)
    }

    fn draft() -> OrderDraft {
        OrderDraft {
            channel: "facebook".into(),
            warehouse_id: 1,
            address: home(),
            items: vec![ItemDraft { sku_id: 7, quantity: 2, ..Default::default() }],
            ..Default::default()
        }
    }

    #[test]
    fn a_chat_sale_passes_and_is_normalised() {
        let d = validate(draft(), known).unwrap();
        assert_eq!(d.address.tel, "0812345678");
        assert_eq!(d.address.country, "TH");
        assert_eq!(d.items[0].warehouse_id, 1, "a line takes the order's warehouse");
        assert!(d.address.is_complete());
    }

    #[test]
    fn an_order_may_be_saved_without_an_address_and_is_then_incomplete() {
        let d = validate(OrderDraft { address: Address::default(), ..draft() }, known).unwrap();
        assert!(d.address.is_empty());
        assert!(!d.address.is_complete());
        let mut partial = home();
        partial.postcode.clear();
        assert!(!validate(OrderDraft { address: partial, ..draft() }, known).unwrap().address.is_complete());
    }

    #[test]
    fn an_address_abroad_needs_a_city() {
        let abroad = Address {
            name: "Taro".into(),
            tel: "+81 3-1234-5678".into(),
            address: "1-1 Chiyoda".into(),
            country: "jp".into(),
            ..Default::default()
        };
        let d = validate(OrderDraft { address: abroad.clone(), ..draft() }, known).unwrap();
        assert_eq!(d.address.country, "JP");
        assert!(!d.address.is_complete());
        let d = validate(OrderDraft { address: Address { city: "Tokyo".into(), ..abroad }, ..draft() }, known).unwrap();
        assert!(d.address.is_complete());
    }

    #[test]
    fn every_broken_rule_is_named() {
        let e = validate(
            OrderDraft {
                channel: "myspace".into(),
                reference: "r".repeat(101),
                note: "n".repeat(501),
                warehouse_id: 0,
                customer_address_id: 3,
                items: vec![
                    ItemDraft { sku_id: 0, quantity: 0, price: Some(-1), ..Default::default() },
                    ItemDraft {
                        sku_id: 1,
                        quantity: 100_001,
                        packing_options: (0..11).map(|i| format!("o{i}")).collect(),
                        note: "x".repeat(201),
                        ..Default::default()
                    },
                ],
                discount_type: "percent".into(),
                discount_value: 10_001,
                shipping_charge: Some(-5),
                additional_fee: -1,
                cod: true,
                address: Address { tel: "12345".into(), postcode: "1011".into(), email: "a@b".into(), ..home() },
                ..draft()
            },
            known,
        )
        .unwrap_err();
        let fields: Vec<(&str, &str)> = e.fields.iter().map(|f| (f.field.as_str(), f.code.as_str())).collect();
        assert_eq!(
            fields,
            [
                ("channel", "validation.channel_unknown"),
                ("reference", "validation.too_long"),
                ("note", "validation.too_long"),
                ("warehouse_id", "validation.required"),
                ("customer_id", "validation.required"),
                ("items[0].sku_id", "validation.required"),
                ("items[0].quantity", "validation.quantity"),
                ("items[0].price", "validation.price"),
                ("items[1].quantity", "validation.quantity"),
                ("items[1].note", "validation.too_long"),
                ("items[1].packing_options", "validation.packing_options"),
                ("discount_value", "validation.percent"),
                ("shipping_charge", "validation.price"),
                ("additional_fee", "validation.price"),
                ("logistic_store_channel_id", "validation.cod_needs_channel"),
                ("shipping_address.tel", "validation.phone_digits"),
                ("shipping_address.postcode", "validation.postcode"),
                ("shipping_address.email", "validation.email"),
            ]
        );
    }

    #[test]
    fn discounts_are_fixed_or_percent() {
        assert!(validate(OrderDraft { discount_type: "fixed".into(), discount_value: 50_00, ..draft() }, known).is_ok());
        let e = validate(OrderDraft { discount_type: "coupon".into(), ..draft() }, known).unwrap_err();
        assert_eq!(e.fields[0].field, "discount_type");
        let none = validate(OrderDraft { discount_value: 99, ..draft() }, known).unwrap();
        assert_eq!(none.discount_value, 0, "no type, no discount");
    }
}
