//! Logistics (SPEC §3 COD provider, Logistic store channel, §5, §8, §9): the carrier
//! catalogue, the store's shipping channels with their prices, its COD accounts, and the one
//! place a parcel is priced.
//!
//! A logistic store channel ships from one warehouse with one provider (a carrier service of
//! the catalogue), domestic or international, at a price by one of three methods: flat; by
//! weight brackets (the first bracket whose limit holds the parcel's chargeable weight); or
//! free from an order total up (the flat price below it). Only one international channel per
//! warehouse per provider. COD can be offered only by a COD provider, and only once the store
//! has its COD account for that provider.

use bo_kit::{Error, FieldError};

/// Shipment types (SPEC §9).
pub const SHIPMENT_TYPES: [&str; 3] = ["all", DOMESTIC, INTERNATIONAL];
/// Within Thailand.
pub const DOMESTIC: &str = "domestic";
/// Abroad.
pub const INTERNATIONAL: &str = "international";

/// Pricing: one price for every parcel.
pub const FLAT: &str = "flat";
/// Pricing: by weight brackets.
pub const WEIGHT: &str = "weight";
/// Pricing: free from an order total up, the flat price below it.
pub const FREE_OVER: &str = "free_over";
/// Pricing (international only): the store's rate table for the provider, the destination's
/// zone and the parcel's weight, plus the channel's price as a handling fee.
pub const RATE_TABLE: &str = "rate_table";
/// The pricing methods.
pub const METHODS: [&str; 4] = [FLAT, WEIGHT, FREE_OVER, RATE_TABLE];

/// Status: offered.
pub const ACTIVE: &str = "active";
/// Status: not offered.
pub const INACTIVE: &str = "inactive";

/// Default most channels a store may keep (`services.logistics.max_store_channels`).
pub const DEFAULT_MAX_CHANNELS: i64 = 100;
/// Most weight brackets of a channel.
pub const MAX_BRACKETS: usize = 30;
/// Longest channel name, in characters.
pub const NAME_MAX: usize = 100;
/// The heaviest parcel priced, in grams (carriers stop well below 100 kg).
pub const MAX_WEIGHT_G: i64 = 100_000;
/// The highest price of a channel, in satang (1,000,000 baht).
pub const MAX_PRICE: i64 = 100_000_000;
/// Volumetric divisor: cm³ per kg (L × W × H / 5000), as Thai couriers price.
pub const VOLUMETRIC_DIVISOR: i64 = 5_000;
/// What both COD providers keep of the cash they collect: 3% (basis points).
pub const COD_FEE_BP: i64 = 300;

/// The COD fee of collecting `cod_amount` satang on delivery (3%, half away from zero).
pub fn cod_fee(cod_amount: i64) -> i64 {
    if cod_amount <= 0 {
        return 0;
    }
    bo_kit::money::Satang(cod_amount).share_bp(COD_FEE_BP).0
}

/// Message keys.
pub mod code {
    /// Required.
    pub const REQUIRED: &str = "validation.required";
    /// Too long.
    pub const TOO_LONG: &str = "validation.too_long";
    /// Not domestic or international.
    pub const LOGISTIC_TYPE: &str = "validation.logistic_type";
    /// Not a provider of the catalogue for this type.
    pub const PROVIDER: &str = "validation.logistic_provider";
    /// Not flat, weight or free_over.
    pub const METHOD: &str = "validation.pricing_method";
    /// Not an amount in baht, or out of range.
    pub const PRICE: &str = "validation.price";
    /// Brackets must rise in weight, each with a price.
    pub const BRACKETS: &str = "validation.weight_brackets";
    /// A weight in grams above zero and at most the limit.
    pub const WEIGHT: &str = "validation.weight";
    /// Not active or inactive.
    pub const STATUS: &str = "validation.status";
    /// Not one of the store's warehouses.
    pub const WAREHOUSE: &str = "validation.warehouse_unknown";
    /// The provider does not collect cash on delivery.
    pub const COD_UNSUPPORTED: &str = "validation.cod_unsupported";
    /// A COD account number: digits.
    pub const COD_ACCOUNT: &str = "validation.account_number";
    /// A postcode is five digits.
    pub const POSTCODE: &str = "validation.postcode";
    /// A country code is two letters.
    pub const COUNTRY: &str = "validation.country_unknown";
    /// Refusal: COD without the store's COD account for the provider ('missing COD number').
    pub const COD_ACCOUNT_MISSING: bo_kit::Code = bo_kit::Code::CodAccountMissing;
    /// Refusal: a second international channel for the warehouse and provider.
    pub const INTER_DUPLICATE: bo_kit::Code = bo_kit::Code::LogisticInterDuplicate;
    /// Refusal: more channels than the set number ('exceeded the set number').
    pub const TOO_MANY: bo_kit::Code = bo_kit::Code::LogisticLimitReached;
    /// Refusal: a second COD account for the same provider.
    pub const PROVIDER_DUPLICATE: bo_kit::Code = bo_kit::Code::CodProviderDuplicate;
    /// No such channel.
    pub const NOT_FOUND: bo_kit::Code = bo_kit::Code::LogisticChannelNotFound;
    /// No such COD provider.
    pub const PROVIDER_NOT_FOUND: bo_kit::Code = bo_kit::Code::CodProviderNotFound;
}

/// A carrier service of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Carrier {
    /// Provider name, as channels store it.
    pub code: &'static str,
    /// Who carries it (`thaipost`, `flash`, ...).
    pub carrier: &'static str,
    /// Thai name.
    pub name_th: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// domestic or international.
    pub shipment_type: &'static str,
    /// Collects cash on delivery (a COD provider).
    pub cod: bool,
}

const fn domestic(code: &'static str, carrier: &'static str, th: &'static str, en: &'static str, cod: bool) -> Carrier {
    Carrier { code, carrier, name_th: th, name_en: en, shipment_type: DOMESTIC, cod }
}

const fn abroad(code: &'static str, th: &'static str, en: &'static str) -> Carrier {
    Carrier { code, carrier: "thaipost", name_th: th, name_en: en, shipment_type: INTERNATIONAL, cod: false }
}

/// The carrier catalogue: domestic carriers, the eight international services (SPEC §9,
/// carried by the postal provider), and which of them collect cash on delivery: the postal
/// provider and a courier.
pub const CATALOGUE: [Carrier; 15] = [
    domestic("thaipost", "thaipost", "ไปรษณีย์ไทย", "Thailand Post", true),
    domestic("flash", "flash", "แฟลช เอ็กซ์เพรส", "Flash Express", true),
    domestic("kerry", "kerry", "เคอรี่ เอ็กซ์เพรส", "Kerry Express", false),
    domestic("jt", "jt", "เจแอนด์ที เอ็กซ์เพรส", "J&T Express", false),
    domestic("ninjavan", "ninjavan", "นินจาแวน", "Ninja Van", false),
    domestic("best", "best", "เบสท์ เอ็กซ์เพรส", "BEST Express", false),
    domestic("dhl", "dhl", "ดีเอชแอล อีคอมเมิร์ซ", "DHL eCommerce", false),
    abroad("surface_parcel", "พัสดุทางเรือ", "Surface parcel"),
    abroad("surface_registered_mail", "ไปรษณีย์ลงทะเบียนทางเรือ", "Surface registered mail"),
    abroad("air_registered_mail", "ไปรษณีย์ลงทะเบียนทางอากาศ", "Air registered mail"),
    abroad("epacket_lp", "อีแพ็กเก็ต แอลพี", "ePacket LP"),
    abroad("epacket", "อีแพ็กเก็ต", "ePacket"),
    abroad("ems_world_package", "อีเอ็มเอส เวิลด์ (สิ่งของ)", "EMS World package"),
    abroad("ems_world_document", "อีเอ็มเอส เวิลด์ (เอกสาร)", "EMS World document"),
    abroad("air_parcel", "พัสดุทางอากาศ", "Air parcel"),
];

/// The catalogue's entry for `code`.
pub fn carrier(code: &str) -> Option<&'static Carrier> {
    CATALOGUE.iter().find(|c| c.code == code)
}

/// The catalogue for a shipment type (`all`, `domestic`, `international`); None if unknown.
pub fn catalogue(shipment_type: &str) -> Option<Vec<&'static Carrier>> {
    match shipment_type.trim() {
        "" | "all" => Some(CATALOGUE.iter().collect()),
        t @ (DOMESTIC | INTERNATIONAL) => Some(CATALOGUE.iter().filter(|c| c.shipment_type == t).collect()),
        _ => None,
    }
}

/// One weight bracket: parcels up to `max_weight_g` cost `price`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bracket {
    /// Upper weight, grams (inclusive).
    pub max_weight_g: i64,
    /// Price, satang.
    pub price: i64,
}

/// A channel as sent (amounts already in satang; -1 means not given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// Warehouse id.
    pub warehouse_id: i64,
    /// domestic or international.
    pub logistic_type: String,
    /// Name shown to staff and on bills.
    pub name: String,
    /// Provider code of the catalogue.
    pub provider: String,
    /// Price, satang; -1 when missing or unreadable.
    pub price: i64,
    /// flat, weight or free_over.
    pub method: String,
    /// Weight brackets (weight).
    pub brackets: Vec<Bracket>,
    /// The order total from which shipping is free, satang (free_over); -1 when missing.
    pub free_over: i64,
    /// Offers cash on delivery.
    pub cod: bool,
    /// active or inactive; empty means active.
    pub status: String,
}

impl Default for Draft {
    fn default() -> Self {
        Draft {
            warehouse_id: 0,
            logistic_type: String::new(),
            name: String::new(),
            provider: String::new(),
            price: -1,
            method: String::new(),
            brackets: Vec::new(),
            free_over: -1,
            cod: false,
            status: String::new(),
        }
    }
}

/// A checked channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// Warehouse id.
    pub warehouse_id: i64,
    /// domestic or international.
    pub logistic_type: &'static str,
    /// Name.
    pub name: String,
    /// Provider code.
    pub provider: &'static str,
    /// Price, satang (the flat price; under the threshold for free_over; unused by weight).
    pub price: i64,
    /// Pricing method.
    pub method: &'static str,
    /// Brackets, rising (weight only).
    pub brackets: Vec<Bracket>,
    /// Threshold, satang (free_over only).
    pub free_over: i64,
    /// Offers COD.
    pub cod: bool,
    /// active or inactive.
    pub status: &'static str,
}

impl Channel {
    /// International.
    pub fn international(&self) -> bool {
        self.logistic_type == INTERNATIONAL
    }
}

fn status_of(s: &str, errs: &mut Vec<FieldError>) -> &'static str {
    match s.trim() {
        "" | ACTIVE => ACTIVE,
        INACTIVE => INACTIVE,
        _ => {
            errs.push(FieldError::new("status", code::STATUS));
            ACTIVE
        }
    }
}

/// A status as sent, checked.
pub fn status(s: &str) -> bo_kit::Result<&'static str> {
    match s.trim() {
        ACTIVE => Ok(ACTIVE),
        INACTIVE => Ok(INACTIVE),
        "" => Err(Error::invalid_field("status", code::REQUIRED)),
        _ => Err(Error::invalid_field("status", code::STATUS)),
    }
}

/// Checks a channel in the form's order: warehouse, type, name, provider, price, method,
/// COD, status. Whether the warehouse is the store's and whether its COD account exists are
/// checked against wms and the store's COD providers by the caller.
pub fn validate(d: Draft) -> bo_kit::Result<Channel> {
    let mut errs = Vec::new();
    if d.warehouse_id <= 0 {
        errs.push(FieldError::new("warehouse_id", code::REQUIRED));
    }
    let logistic_type = match d.logistic_type.trim() {
        DOMESTIC => DOMESTIC,
        INTERNATIONAL => INTERNATIONAL,
        "" => {
            errs.push(FieldError::new("logistic_type", code::REQUIRED));
            DOMESTIC
        }
        _ => {
            errs.push(FieldError::new("logistic_type", code::LOGISTIC_TYPE));
            DOMESTIC
        }
    };
    let name = d.name.trim().to_string();
    if name.is_empty() {
        errs.push(FieldError::new("name", code::REQUIRED));
    } else if name.chars().count() > NAME_MAX {
        errs.push(FieldError::new("name", code::TOO_LONG));
    }
    let provider = match carrier(d.provider.trim()) {
        Some(c) if c.shipment_type == logistic_type => Some(c),
        _ if d.provider.trim().is_empty() => {
            errs.push(FieldError::new("provider", code::REQUIRED));
            None
        }
        _ => {
            errs.push(FieldError::new("provider", code::PROVIDER));
            None
        }
    };
    let method = match METHODS.iter().find(|m| **m == d.method.trim()) {
        Some(&RATE_TABLE) if logistic_type != INTERNATIONAL => {
            errs.push(FieldError::new("method", code::METHOD));
            FLAT
        }
        Some(m) => *m,
        None => {
            errs.push(FieldError::new(
                "method",
                if d.method.trim().is_empty() { code::REQUIRED } else { code::METHOD },
            ));
            FLAT
        }
    };
    let mut price = d.price;
    let mut brackets = Vec::new();
    let mut free_over = 0;
    match method {
        WEIGHT => {
            price = 0;
            if d.brackets.is_empty() {
                errs.push(FieldError::new("brackets", code::REQUIRED));
            } else if d.brackets.len() > MAX_BRACKETS
                || d.brackets.iter().any(|b| b.max_weight_g <= 0 || b.max_weight_g > MAX_WEIGHT_G)
                || d.brackets.iter().any(|b| !(0..=MAX_PRICE).contains(&b.price))
                || d.brackets.windows(2).any(|w| w[1].max_weight_g <= w[0].max_weight_g)
            {
                errs.push(FieldError::new("brackets", code::BRACKETS));
            } else {
                brackets = d.brackets.clone();
            }
        }
        _ => {
            if d.price < 0 || d.price > MAX_PRICE {
                errs.push(FieldError::new("price", if d.price == -1 { code::REQUIRED } else { code::PRICE }));
            }
            if method == FREE_OVER {
                if d.free_over <= 0 || d.free_over > MAX_PRICE {
                    errs.push(FieldError::new(
                        "free_over",
                        if d.free_over == -1 { code::REQUIRED } else { code::PRICE },
                    ));
                } else {
                    free_over = d.free_over;
                }
            }
        }
    }
    if d.cod && provider.is_some_and(|p| !p.cod) {
        errs.push(FieldError::new("cod", code::COD_UNSUPPORTED));
    }
    let status = status_of(&d.status, &mut errs);
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    Ok(Channel {
        warehouse_id: d.warehouse_id,
        logistic_type,
        name,
        provider: provider.map(|p| p.code).unwrap_or_default(),
        price: price.max(0),
        method,
        brackets,
        free_over,
        cod: d.cod,
        status,
    })
}

/// A COD account as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderDraft {
    /// A COD provider of the catalogue.
    pub provider: String,
    /// The account number the provider remits to.
    pub cod_account_no: String,
}

/// Checks a COD account: both fields required, a COD provider, digits (10 to 20).
pub fn validate_provider(d: ProviderDraft) -> bo_kit::Result<(&'static str, String)> {
    let mut errs = Vec::new();
    let provider = match carrier(d.provider.trim()) {
        Some(c) if c.cod => c.code,
        _ => {
            errs.push(FieldError::new(
                "provider",
                if d.provider.trim().is_empty() { code::REQUIRED } else { code::PROVIDER },
            ));
            ""
        }
    };
    let no: String = d.cod_account_no.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    if no.is_empty() {
        errs.push(FieldError::new("cod_account_no", code::REQUIRED));
    } else if !no.bytes().all(|b| b.is_ascii_digit()) || !(10..=20).contains(&no.len()) {
        errs.push(FieldError::new("cod_account_no", code::COD_ACCOUNT));
    }
    if errs.is_empty() {
        Ok((provider, no))
    } else {
        Err(Error::invalid(errs))
    }
}

/// A parcel to price.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parcel {
    /// Actual weight, grams.
    pub weight_g: i64,
    /// Length, width, height in centimetres (0 when not measured).
    pub dims_cm: [i64; 3],
    /// Destination postcode (domestic).
    pub postcode: String,
    /// Destination country, ISO alpha-2; empty or TH is domestic.
    pub country: String,
    /// The order's total, satang (for free shipping over a total).
    pub order_total: i64,
    /// Cash on delivery wanted.
    pub cod: bool,
    /// Cash to collect, satang (0 when not given).
    pub cod_amount: i64,
}

impl Parcel {
    /// Checks the parcel.
    pub fn check(&self) -> bo_kit::Result<()> {
        let mut errs = Vec::new();
        if self.weight_g <= 0 || self.weight_g > MAX_WEIGHT_G {
            errs.push(FieldError::new("weight", code::WEIGHT));
        }
        if self.dims_cm.iter().any(|d| !(0..=300).contains(d)) {
            errs.push(FieldError::new("dimensions", code::WEIGHT));
        }
        let postcode_ok =
            self.postcode.is_empty() || self.postcode.len() == 5 && self.postcode.bytes().all(|b| b.is_ascii_digit());
        if !postcode_ok {
            errs.push(FieldError::new("postcode", code::POSTCODE));
        }
        let country_ok =
            self.country.is_empty() || self.country.len() == 2 && self.country.bytes().all(|b| b.is_ascii_alphabetic());
        if !country_ok {
            errs.push(FieldError::new("country", code::COUNTRY));
        }
        if self.order_total < 0 {
            errs.push(FieldError::new("order_total", code::PRICE));
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(Error::invalid(errs))
        }
    }

    /// Going abroad.
    pub fn international(&self) -> bool {
        !self.country.is_empty() && !self.country.eq_ignore_ascii_case("TH")
    }

    /// The weight a carrier charges: the actual weight or the volumetric weight
    /// (L × W × H cm / 5000 kg, rounded up to the gram), whichever is more.
    pub fn chargeable_g(&self) -> i64 {
        let [l, w, h] = self.dims_cm;
        let volume = l * w * h;
        let volumetric = (volume * 1000 + VOLUMETRIC_DIVISOR - 1) / VOLUMETRIC_DIVISOR;
        self.weight_g.max(volumetric)
    }
}

/// Why a channel cannot take a parcel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// Heavier than its last bracket.
    OverWeight,
    /// COD wanted, the channel does not offer it.
    NoCod,
    /// Domestic channel, parcel abroad, or the other way round.
    WrongDestination,
    /// Priced by the rate table, which does not serve the country (or there is none).
    NotServed,
}

impl Unavailable {
    /// The message key.
    pub fn code(self) -> &'static str {
        match self {
            Unavailable::OverWeight => "shipping.over_weight",
            Unavailable::NoCod => "shipping.cod_not_offered",
            Unavailable::WrongDestination => "shipping.wrong_destination",
            Unavailable::NotServed => "shipping.country_not_served",
        }
    }
}

/// The price of sending `parcel` with `channel`, in satang: the one pricing rule.
pub fn price(channel: &Channel, parcel: &Parcel) -> Result<i64, Unavailable> {
    price_with(channel, parcel, None)
}

/// The price of sending `parcel` with `channel`, in satang, with the store's international
/// rate table for channels priced by it: the table's price plus the channel's handling fee.
pub fn price_with(
    channel: &Channel,
    parcel: &Parcel,
    table: Option<&crate::rates::RateTable>,
) -> Result<i64, Unavailable> {
    if channel.international() != parcel.international() {
        return Err(Unavailable::WrongDestination);
    }
    if parcel.cod && !channel.cod {
        return Err(Unavailable::NoCod);
    }
    match channel.method {
        WEIGHT => {
            let w = parcel.chargeable_g();
            channel.brackets.iter().find(|b| w <= b.max_weight_g).map(|b| b.price).ok_or(Unavailable::OverWeight)
        }
        FREE_OVER if parcel.order_total >= channel.free_over => Ok(0),
        RATE_TABLE => {
            let table = table.ok_or(Unavailable::NotServed)?;
            match table.price(channel.provider, &parcel.country, parcel.chargeable_g()) {
                Ok((_, p)) => Ok(p + channel.price),
                Err(crate::rates::NoRate::NotServed) => Err(Unavailable::NotServed),
                Err(crate::rates::NoRate::OverWeight) => Err(Unavailable::OverWeight),
            }
        }
        _ => Ok(channel.price),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(e: Error) -> Vec<(String, String)> {
        e.fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    fn brackets() -> Vec<Bracket> {
        vec![Bracket { max_weight_g: 1_000, price: 3_800 }, Bracket { max_weight_g: 5_000, price: 6_500 }]
    }

    fn kerry_flat() -> Draft {
        Draft {
            warehouse_id: 1,
            logistic_type: "domestic".into(),
            name: " ส่งด่วน ".into(),
            provider: "kerry".into(),
            price: 5_000,
            method: "flat".into(),
            ..Default::default()
        }
    }

    #[test]
    fn the_catalogue_has_eight_international_services_and_two_cod_providers() {
        assert_eq!(catalogue("international").unwrap().len(), 8);
        assert_eq!(catalogue("domestic").unwrap().len(), 7);
        assert_eq!(catalogue("all").unwrap().len(), CATALOGUE.len());
        assert!(catalogue("moon").is_none());
        let cod: Vec<&str> = CATALOGUE.iter().filter(|c| c.cod).map(|c| c.code).collect();
        assert_eq!(cod, ["thaipost", "flash"]);
        let mut codes: Vec<&str> = CATALOGUE.iter().map(|c| c.code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), CATALOGUE.len());
    }

    #[test]
    fn required_fields_in_the_forms_order() {
        let e = validate(Draft::default()).unwrap_err();
        assert_eq!(
            fields(e),
            pairs(&[
                ("warehouse_id", code::REQUIRED),
                ("logistic_type", code::REQUIRED),
                ("name", code::REQUIRED),
                ("provider", code::REQUIRED),
                ("method", code::REQUIRED),
                ("price", code::REQUIRED),
            ])
        );
        let ok = validate(kerry_flat()).unwrap();
        assert_eq!((ok.name.as_str(), ok.provider, ok.price, ok.status), ("ส่งด่วน", "kerry", 5_000, ACTIVE));
    }

    #[test]
    fn providers_must_match_the_type() {
        let mut d = kerry_flat();
        d.provider = "ems_world_package".into();
        assert_eq!(fields(validate(d.clone()).unwrap_err()), pairs(&[("provider", code::PROVIDER)]));
        d.logistic_type = "international".into();
        assert!(validate(d).unwrap().international());
    }

    #[test]
    fn brackets_must_rise() {
        let mut d = kerry_flat();
        d.method = "weight".into();
        d.price = -1;
        assert_eq!(fields(validate(d.clone()).unwrap_err()), pairs(&[("brackets", code::REQUIRED)]));
        d.brackets = vec![Bracket { max_weight_g: 2_000, price: 100 }, Bracket { max_weight_g: 2_000, price: 200 }];
        assert_eq!(fields(validate(d.clone()).unwrap_err()), pairs(&[("brackets", code::BRACKETS)]));
        d.brackets = brackets();
        assert_eq!(validate(d).unwrap().brackets, brackets());
    }

    #[test]
    fn free_over_needs_a_threshold() {
        let mut d = kerry_flat();
        d.method = "free_over".into();
        assert_eq!(fields(validate(d.clone()).unwrap_err()), pairs(&[("free_over", code::REQUIRED)]));
        d.free_over = 100_000;
        assert_eq!(validate(d).unwrap().free_over, 100_000);
    }

    #[test]
    fn the_cod_fee_is_three_percent_half_away() {
        assert_eq!(cod_fee(0), 0);
        assert_eq!(cod_fee(-5), 0);
        assert_eq!(cod_fee(10_000), 300);
        // 3% of 0.50 baht is 1.5 satang: half away from zero.
        assert_eq!(cod_fee(50), 2);
        assert_eq!(cod_fee(123_456), 3_704);
    }

    #[test]
    fn only_cod_providers_offer_cod() {
        let mut d = kerry_flat();
        d.cod = true;
        assert_eq!(fields(validate(d.clone()).unwrap_err()), pairs(&[("cod", code::COD_UNSUPPORTED)]));
        d.provider = "flash".into();
        assert!(validate(d).unwrap().cod);
    }

    #[test]
    fn cod_accounts_need_a_cod_provider_and_digits() {
        let e = validate_provider(ProviderDraft::default()).unwrap_err();
        assert_eq!(fields(e), pairs(&[("provider", code::REQUIRED), ("cod_account_no", code::REQUIRED)]));
        let e =
            validate_provider(ProviderDraft { provider: "kerry".into(), cod_account_no: "12ab".into() }).unwrap_err();
        assert_eq!(fields(e), pairs(&[("provider", code::PROVIDER), ("cod_account_no", code::COD_ACCOUNT)]));
        let ok =
            validate_provider(ProviderDraft { provider: "thaipost".into(), cod_account_no: "123-456-7890".into() });
        assert_eq!(ok.unwrap(), ("thaipost", "1234567890".to_string()));
    }

    #[test]
    fn parcels_are_priced_by_their_channels_method() {
        let parcel = |w: i64, total: i64| Parcel { weight_g: w, order_total: total, ..Default::default() };
        let flat = validate(kerry_flat()).unwrap();
        assert_eq!(price(&flat, &parcel(20_000, 0)), Ok(5_000));

        let mut d = kerry_flat();
        d.method = "weight".into();
        d.brackets = brackets();
        let by_weight = validate(d).unwrap();
        assert_eq!(price(&by_weight, &parcel(1_000, 0)), Ok(3_800), "a bracket's limit is inclusive");
        assert_eq!(price(&by_weight, &parcel(1_001, 0)), Ok(6_500));
        assert_eq!(price(&by_weight, &parcel(5_001, 0)), Err(Unavailable::OverWeight));
        // A light but bulky parcel is charged by its volume: 30 × 20 × 10 / 5000 = 1.2 kg.
        let bulky = Parcel { weight_g: 300, dims_cm: [30, 20, 10], ..Default::default() };
        assert_eq!(bulky.chargeable_g(), 1_200);
        assert_eq!(price(&by_weight, &bulky), Ok(6_500));

        let mut d = kerry_flat();
        d.method = "free_over".into();
        d.free_over = 50_000;
        let free = validate(d).unwrap();
        assert_eq!(price(&free, &parcel(500, 49_999)), Ok(5_000));
        assert_eq!(price(&free, &parcel(500, 50_000)), Ok(0));
    }

    #[test]
    fn cod_and_destination_must_fit() {
        let flat = validate(kerry_flat()).unwrap();
        let cod = Parcel { weight_g: 500, cod: true, ..Default::default() };
        assert_eq!(price(&flat, &cod), Err(Unavailable::NoCod));
        let abroad = Parcel { weight_g: 500, country: "JP".into(), ..Default::default() };
        assert_eq!(price(&flat, &abroad), Err(Unavailable::WrongDestination));
        let home = Parcel { weight_g: 500, country: "th".into(), ..Default::default() };
        assert_eq!(price(&flat, &home), Ok(5_000));
    }

    #[test]
    fn international_channels_may_price_by_the_rate_table() {
        let mut d = kerry_flat();
        d.method = "rate_table".into();
        assert_eq!(fields(validate(d.clone()).unwrap_err()), pairs(&[("method", code::METHOD)]), "domestic cannot");
        d.logistic_type = "international".into();
        d.provider = "ems_world_package".into();
        d.price = 2_000;
        let ch = validate(d).unwrap();
        let table = crate::rates::sample();
        let to = |country: &str, weight_g| Parcel { weight_g, country: country.into(), ..Default::default() };
        assert_eq!(price_with(&ch, &to("JP", 1_200), Some(&table)), Ok(135_000 + 2_000), "table price + handling fee");
        assert_eq!(price_with(&ch, &to("FR", 1_200), Some(&table)), Err(Unavailable::NotServed));
        assert_eq!(price_with(&ch, &to("JP", 1_200), None), Err(Unavailable::NotServed), "no table loaded");
    }

    #[test]
    fn parcels_are_checked() {
        let e = Parcel { weight_g: 0, postcode: "1050".into(), country: "JPN".into(), ..Default::default() }.check();
        assert_eq!(
            fields(e.unwrap_err()),
            pairs(&[("weight", code::WEIGHT), ("postcode", code::POSTCODE), ("country", code::COUNTRY)])
        );
    }
}

pub mod tracking {
    //! Tracking numbers a store registers in ranges from its carrier and hands out one by
    //! one. Postal numbers (the postal provider and its international services) follow the
    //! UPU S10 format: two letters, an eight-digit serial, a check digit, and the country
    //! `TH`. The check digit weighs the serial's digits 8 6 4 2 3 5 9 7; it is
    //! `11 - sum mod 11`, with 10 written 0 and 11 written 5. Other carriers' numbers are the
    //! prefix and the serial, zero-padded to the width of the range's last serial.

    use bo_kit::{Error, FieldError};

    /// The weights of the S10 check digit.
    pub const S10_WEIGHTS: [u32; 8] = [8, 6, 4, 2, 3, 5, 9, 7];
    /// The most numbers one range may hold.
    pub const MAX_RANGE: i64 = 1_000_000;
    /// The most numbers one reservation hands out.
    pub const MAX_RESERVE: i64 = 100;
    /// The most ranges a store keeps.
    pub const MAX_RANGES: i64 = 200;

    /// Message keys.
    pub mod code {
        /// A prefix: two capital letters for postal numbers, 1 to 6 letters or digits else.
        pub const PREFIX: &str = "validation.tracking_prefix";
        /// A serial range: first ≤ last, within the format and the size limit.
        pub const RANGE: &str = "validation.tracking_range";
        /// A count from 1 to 100.
        pub const COUNT: &str = "validation.quantity";
        /// Refusal: the range overlaps one the store has.
        pub const OVERLAP: bo_kit::Code = bo_kit::Code::TrackingRangeOverlap;
        /// Refusal: no numbers left for the provider.
        pub const EXHAUSTED: bo_kit::Code = bo_kit::Code::TrackingNumbersExhausted;
        /// Refusal: the store keeps as many ranges as it may.
        pub const TOO_MANY: bo_kit::Code = bo_kit::Code::TrackingRangeLimitReached;
    }

    /// The S10 check digit of an eight-digit serial.
    pub fn s10_check_digit(serial: u32) -> u32 {
        let digits = format!("{serial:08}");
        let sum: u32 = digits.bytes().zip(S10_WEIGHTS).map(|(d, w)| (d - b'0') as u32 * w).sum();
        match 11 - sum % 11 {
            10 => 0,
            11 => 5,
            c => c,
        }
    }

    /// An S10 number: `EY` + serial + check digit + `TH`.
    pub fn s10(prefix: &str, serial: u32) -> String {
        format!("{prefix}{serial:08}{}TH", s10_check_digit(serial))
    }

    /// True for a well-formed S10 number with the right check digit.
    pub fn is_valid_s10(n: &str) -> bool {
        let b = n.as_bytes();
        if b.len() != 13 || !b[..2].iter().all(u8::is_ascii_uppercase) || !b[11..].iter().all(u8::is_ascii_uppercase) {
            return false;
        }
        if !b[2..11].iter().all(u8::is_ascii_digit) {
            return false;
        }
        let serial: u32 = n[2..10].parse().unwrap_or(0);
        s10_check_digit(serial) == (b[10] - b'0') as u32
    }

    /// Whether a provider's numbers are postal (S10).
    pub fn is_postal(provider: &str) -> bool {
        super::carrier(provider).is_some_and(|c| c.carrier == "thaipost")
    }

    /// A checked range.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Range {
        /// Provider code.
        pub provider: &'static str,
        /// Letters before the serial.
        pub prefix: String,
        /// First serial.
        pub first: i64,
        /// Last serial (inclusive).
        pub last: i64,
        /// Digits the serial is padded to.
        pub width: i64,
    }

    /// Checks a range a store registers.
    pub fn validate_range(provider: &str, prefix: &str, first: &str, last: &str) -> bo_kit::Result<Range> {
        let mut errs = Vec::new();
        let p =
            super::carrier(provider.trim()).filter(|c| c.shipment_type == super::DOMESTIC || c.carrier == "thaipost");
        if p.is_none() {
            errs.push(FieldError::new(
                "provider_name",
                if provider.trim().is_empty() { super::code::REQUIRED } else { super::code::PROVIDER },
            ));
        }
        let postal = p.is_some_and(|c| is_postal(c.code));
        let prefix = prefix.trim().to_uppercase();
        let prefix_ok = if postal {
            prefix.len() == 2 && prefix.bytes().all(|b| b.is_ascii_uppercase())
        } else {
            (1..=6).contains(&prefix.len()) && prefix.bytes().all(|b| b.is_ascii_alphanumeric())
        };
        if !prefix_ok {
            errs.push(FieldError::new("prefix", if prefix.is_empty() { super::code::REQUIRED } else { code::PREFIX }));
        }
        let (first_t, last_t) = (first.trim(), last.trim());
        let digits = |s: &str| !s.is_empty() && s.len() <= 12 && s.bytes().all(|b| b.is_ascii_digit());
        let mut width = last_t.len() as i64;
        let (f, l) = if digits(first_t) && digits(last_t) {
            (first_t.parse::<i64>().unwrap_or(-1), last_t.parse::<i64>().unwrap_or(-1))
        } else {
            (-1, -1)
        };
        if postal {
            width = 8;
        }
        if f < 0 || l < f || l - f + 1 > MAX_RANGE || (postal && l > 99_999_999) {
            errs.push(FieldError::new("first", code::RANGE));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        Ok(Range { provider: p.map(|c| c.code).unwrap_or_default(), prefix, first: f, last: l, width })
    }

    /// The number for `serial` of a range.
    pub fn number(provider: &str, prefix: &str, width: i64, serial: i64) -> String {
        if is_postal(provider) {
            s10(prefix, serial as u32)
        } else {
            format!("{prefix}{serial:0width$}", width = width as usize)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn s10_check_digits() {
            // 1 2 3 4 5 6 7 8 weigh to 204; 11 - 204 mod 11 = 5.
            assert_eq!(s10_check_digit(12_345_678), 5);
            assert_eq!(s10("EE", 12_345_678), "EE123456785TH");
            assert!(is_valid_s10("EE123456785TH"));
            assert!(!is_valid_s10("EE123456784TH"));
            assert!(!is_valid_s10("E1123456785TH"));
            assert!(!is_valid_s10("EE12345678TH"));
            // A remainder of 1 gives 10, written 0; a remainder of 0 gives 11, written 5.
            let ten = (0..100_000u32).find(|s| {
                let d = format!("{s:08}");
                d.bytes().zip(S10_WEIGHTS).map(|(d, w)| (d - b'0') as u32 * w).sum::<u32>() % 11 == 1
            });
            assert_eq!(s10_check_digit(ten.unwrap()), 0);
            let eleven = (1..100_000u32).find(|s| {
                let d = format!("{s:08}");
                d.bytes().zip(S10_WEIGHTS).map(|(d, w)| (d - b'0') as u32 * w).sum::<u32>() % 11 == 0
            });
            assert_eq!(s10_check_digit(eleven.unwrap()), 5);
            assert_eq!(s10_check_digit(0), 5, "all zeros: sum 0, 11 is written 5");
        }

        #[test]
        fn every_postal_number_handed_out_validates() {
            for serial in [0, 1, 9_999, 47_312_482, 99_999_999] {
                assert!(is_valid_s10(&number("thaipost", "EY", 8, serial)), "{serial}");
            }
            assert_eq!(number("kerry", "KEX", 6, 42), "KEX000042");
        }

        #[test]
        fn ranges_are_checked() {
            let r = validate_range("thaipost", "ey", "00000001", "00001000").unwrap();
            assert_eq!((r.prefix.as_str(), r.first, r.last, r.width), ("EY", 1, 1_000, 8));
            let r = validate_range("ems_world_package", "EE", "1", "20").unwrap();
            assert_eq!(r.provider, "ems_world_package");
            let e = validate_range("thaipost", "E1", "5", "1").unwrap_err();
            let codes: Vec<String> = e.fields.iter().map(|f| f.field.clone()).collect();
            assert_eq!(codes, ["prefix", "first"]);
            assert!(validate_range("thaipost", "EY", "1", "100000000").is_err(), "S10 serials have 8 digits");
            assert!(validate_range("kerry", "KEX", "1", "1000001").is_err(), "a million at most");
            assert!(validate_range("", "KEX", "1", "2").is_err());
        }
    }
}
