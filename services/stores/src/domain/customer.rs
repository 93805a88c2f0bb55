//! Customers and their address books (SPEC §3 Customer, §5): name, phone and address
//! required; phone 9 or 10 digits; email valid when given; international addresses need a
//! country and use city and state; exactly one default address.

use super::{is_thai_postcode, is_valid_email, msg, parse_international_phone, Errors, Phone};

/// The country of domestic addresses.
pub const DOMESTIC: &str = "TH";

/// Address fields as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressDraft {
    /// Recipient name.
    pub name: String,
    /// Recipient phone.
    pub tel: String,
    /// Address line.
    pub address: String,
    /// Sub-district (domestic).
    pub sub_district: String,
    /// District (domestic).
    pub district: String,
    /// Province, or state abroad.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
    /// ISO country code; empty means TH.
    pub country: String,
    /// City (abroad).
    pub city: String,
    /// Email.
    pub email: String,
}

impl AddressDraft {
    /// True when the address is outside Thailand.
    pub fn is_international(&self) -> bool {
        let c = self.country.trim();
        !c.is_empty() && !c.eq_ignore_ascii_case(DOMESTIC)
    }

    /// Checks the rules and normalises the fields; `prefix` names the fields on the wire
    /// (`""` for an address, `""` too for a customer's flattened default address).
    pub fn validate(mut self, errs: &mut Errors, prefix: &str) -> AddressDraft {
        let f = |name: &str| format!("{prefix}{name}");
        trim_all(&mut self);
        self.country = if self.country.is_empty() { DOMESTIC.into() } else { self.country.to_ascii_uppercase() };
        if self.country.len() != 2 || !self.country.bytes().all(|b| b.is_ascii_uppercase()) {
            errs.add(&f("country"), msg::COUNTRY);
        }
        errs.required(&f("name"), &self.name, 200);
        errs.required(&f("address"), &self.address, 500);
        let international = self.country != DOMESTIC;
        if international {
            errs.required(&f("city"), &self.city, 100);
            errs.max_len(&f("state_province"), &self.state_province, 100);
            errs.max_len(&f("postcode"), &self.postcode, 20);
            self.sub_district.clear();
            self.district.clear();
            if !self.tel.is_empty() {
                match parse_international_phone(&self.tel) {
                    Ok(t) => self.tel = t,
                    Err(code) => errs.add(&f("tel"), code),
                }
            }
        } else {
            errs.required(&f("sub_district"), &self.sub_district, 100);
            errs.required(&f("district"), &self.district, 100);
            errs.required(&f("state_province"), &self.state_province, 100);
            if self.postcode.is_empty() {
                errs.add(&f("postcode"), msg::REQUIRED);
            } else if !is_thai_postcode(&self.postcode) {
                errs.add(&f("postcode"), msg::POSTCODE);
            }
            self.city.clear();
            if !self.tel.is_empty() {
                match Phone::parse(&self.tel) {
                    Ok(p) => self.tel = p.into_string(),
                    Err(code) => errs.add(&f("tel"), code),
                }
            }
        }
        if !self.email.is_empty() && !is_valid_email(&self.email) {
            errs.add(&f("email"), msg::EMAIL);
        }
        self
    }

    /// Applies a patch over this address.
    pub fn patched(mut self, p: &AddressPatch) -> AddressDraft {
        let set = |dst: &mut String, src: &Option<String>| {
            if let Some(v) = src {
                *dst = v.clone();
            }
        };
        set(&mut self.name, &p.name);
        set(&mut self.tel, &p.tel);
        set(&mut self.address, &p.address);
        set(&mut self.sub_district, &p.sub_district);
        set(&mut self.district, &p.district);
        set(&mut self.state_province, &p.state_province);
        set(&mut self.postcode, &p.postcode);
        set(&mut self.country, &p.country);
        set(&mut self.city, &p.city);
        set(&mut self.email, &p.email);
        self
    }
}

fn trim_all(a: &mut AddressDraft) {
    for s in [
        &mut a.name,
        &mut a.tel,
        &mut a.address,
        &mut a.sub_district,
        &mut a.district,
        &mut a.state_province,
        &mut a.postcode,
        &mut a.country,
        &mut a.city,
        &mut a.email,
    ] {
        *s = s.trim().to_string();
    }
}

/// A partial change to an address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPatch {
    /// Recipient name.
    pub name: Option<String>,
    /// Recipient phone.
    pub tel: Option<String>,
    /// Address line.
    pub address: Option<String>,
    /// Sub-district.
    pub sub_district: Option<String>,
    /// District.
    pub district: Option<String>,
    /// Province or state.
    pub state_province: Option<String>,
    /// Postcode.
    pub postcode: Option<String>,
    /// Country.
    pub country: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Email.
    pub email: Option<String>,
}

impl AddressPatch {
    /// True when nothing is changed.
    pub fn is_empty(&self) -> bool {
        *self == AddressPatch::default()
    }
}

/// Customer fields as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CustomerDraft {
    /// Name.
    pub name: String,
    /// Phone.
    pub tel: String,
    /// Email.
    pub email: String,
    /// Facebook contact.
    pub facebook: String,
    /// LINE contact.
    pub line: String,
}

impl CustomerDraft {
    /// Checks the customer's own fields and normalises them.
    pub fn validate(mut self, errs: &mut Errors) -> CustomerDraft {
        for s in [&mut self.name, &mut self.tel, &mut self.email, &mut self.facebook, &mut self.line] {
            *s = s.trim().to_string();
        }
        errs.required("name", &self.name, 200);
        match Phone::parse(&self.tel) {
            Ok(p) => self.tel = p.into_string(),
            Err(code) => errs.add("tel", code),
        }
        if !self.email.is_empty() && !is_valid_email(&self.email) {
            errs.add("email", msg::EMAIL);
        }
        errs.max_len("facebook", &self.facebook, 200);
        errs.max_len("line", &self.line, 100);
        self
    }
}

/// Validates a new customer with its first address; the address's name and phone
/// default to the customer's. Field names are flat, as on the wire.
pub fn validate_new(
    customer: CustomerDraft,
    mut address: AddressDraft,
) -> bo_kit::Result<(CustomerDraft, AddressDraft)> {
    let mut errs = Errors::default();
    let customer = customer.validate(&mut errs);
    if address.name.trim().is_empty() {
        address.name = customer.name.clone();
    }
    if address.tel.trim().is_empty() {
        address.tel = customer.tel.clone();
    }
    if address.email.trim().is_empty() {
        address.email = customer.email.clone();
    }
    let address = address.validate(&mut errs, "");
    dedup_fields(&mut errs);
    errs.finish()?;
    Ok((customer, address))
}

/// Validates an address on its own.
pub fn validate_address(address: AddressDraft) -> bo_kit::Result<AddressDraft> {
    let mut errs = Errors::default();
    let address = address.validate(&mut errs, "");
    errs.finish()?;
    Ok(address)
}

/// Customer and address share `name`, `tel` and `email` on the wire: report each once.
fn dedup_fields(errs: &mut Errors) {
    let mut seen = std::collections::HashSet::new();
    errs.0.retain(|e| seen.insert(e.field.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::error::Kind;

    fn thai_address() -> AddressDraft {
        AddressDraft {
            address: "99/1 ถนนสุขุมวิท".into(),
            sub_district: "คลองเตยเหนือ".into(),
            district: "วัฒนา".into(),
            state_province: "กรุงเทพมหานคร".into(),
            postcode: "10110".into(),
            ..Default::default()
        }
    }

    fn customer(tel: &str) -> CustomerDraft {
        CustomerDraft { name: "สมชาย ใจดี".into(), tel: tel.into(), ..Default::default() }
    }

    fn fields(e: bo_kit::Error) -> Vec<(String, String)> {
        assert_eq!(e.kind, Kind::Invalid);
        e.fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    #[test]
    fn a_thai_customer_is_accepted_and_normalised() {
        let (c, a) = validate_new(customer("081-234-5678"), thai_address()).unwrap();
        assert_eq!(c.tel, "0812345678");
        assert_eq!(a.name, "สมชาย ใจดี");
        assert_eq!(a.tel, "0812345678");
        assert_eq!(a.country, "TH");
    }

    #[test]
    fn an_eight_digit_phone_is_refused() {
        let e = validate_new(customer("08123456"), thai_address()).unwrap_err();
        assert_eq!(fields(e), vec![("tel".to_string(), msg::PHONE_DIGITS.to_string())]);
    }

    #[test]
    fn name_phone_and_address_are_required() {
        let e = validate_new(CustomerDraft::default(), AddressDraft::default()).unwrap_err();
        let f = fields(e);
        for want in ["name", "tel", "address", "sub_district", "district", "state_province", "postcode"] {
            assert!(f.iter().any(|(n, c)| n == want && c == msg::REQUIRED), "{want} missing from {f:?}");
        }
    }

    #[test]
    fn a_bad_email_is_refused() {
        let mut c = customer("0812345678");
        c.email = "not-an-email".into();
        let f = fields(validate_new(c, thai_address()).unwrap_err());
        assert!(f.contains(&("email".into(), msg::EMAIL.into())));
    }

    #[test]
    fn international_addresses_need_a_country_and_use_city_and_state() {
        let a = AddressDraft {
            name: "John Smith".into(),
            address: "221B Baker Street".into(),
            city: "London".into(),
            state_province: "Greater London".into(),
            postcode: "NW1 6XE".into(),
            country: "gb".into(),
            sub_district: "ignored".into(),
            ..Default::default()
        };
        let a = validate_address(a).unwrap();
        assert_eq!(a.country, "GB");
        assert!(a.sub_district.is_empty());

        let no_city =
            AddressDraft { name: "J".into(), address: "x".into(), country: "US".into(), ..Default::default() };
        assert!(fields(validate_address(no_city).unwrap_err()).contains(&("city".into(), msg::REQUIRED.into())));

        let bad_country = AddressDraft { country: "England".into(), ..thai_address() };
        assert!(fields(validate_address(bad_country).unwrap_err()).contains(&("country".into(), msg::COUNTRY.into())));
    }

    #[test]
    fn thai_postcodes_are_five_digits() {
        let a = AddressDraft { name: "x".into(), postcode: "1011".into(), ..thai_address() };
        assert_eq!(fields(validate_address(a).unwrap_err()), vec![("postcode".into(), msg::POSTCODE.into())]);
    }

    #[test]
    fn patches_change_only_what_they_name() {
        let a = AddressDraft { name: "x".into(), ..thai_address() };
        let p = AddressPatch { postcode: Some("10200".into()), ..Default::default() };
        let b = a.clone().patched(&p);
        assert_eq!(b.postcode, "10200");
        assert_eq!(b.address, a.address);
        assert!(AddressPatch::default().is_empty());
    }
}
