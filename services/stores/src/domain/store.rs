//! Store details (SPEC §3 Store).

use super::{is_thai_postcode, msg, Errors, Phone};

/// A partial change to a store.
#[derive(Debug, Clone, Default)]
pub struct StorePatch {
    /// Name.
    pub name: Option<String>,
    /// Address line.
    pub address: Option<String>,
    /// Sub-district.
    pub sub_district: Option<String>,
    /// District.
    pub district: Option<String>,
    /// Province.
    pub province: Option<String>,
    /// Postcode.
    pub postcode: Option<String>,
    /// Phone.
    pub tel: Option<String>,
    /// Prices include VAT.
    pub vat_included: Option<bool>,
}

impl StorePatch {
    /// Checks and normalises the fields that are set.
    pub fn validate(mut self) -> bo_kit::Result<StorePatch> {
        let mut errs = Errors::default();
        for v in [
            &mut self.name,
            &mut self.address,
            &mut self.sub_district,
            &mut self.district,
            &mut self.province,
            &mut self.postcode,
            &mut self.tel,
        ]
        .into_iter()
        .flatten()
        {
            *v = v.trim().to_string();
        }
        if let Some(n) = &self.name {
            errs.required("name", n, 200);
        }
        if let Some(a) = &self.address {
            errs.max_len("address", a, 500);
        }
        for (field, v) in
            [("sub_district", &self.sub_district), ("district", &self.district), ("province", &self.province)]
        {
            if let Some(v) = v {
                errs.max_len(field, v, 100);
            }
        }
        if let Some(p) = &self.postcode {
            if !p.is_empty() && !is_thai_postcode(p) {
                errs.add("postcode", msg::POSTCODE);
            }
        }
        if let Some(t) = &mut self.tel {
            if !t.is_empty() {
                match Phone::parse(t) {
                    Ok(p) => *t = p.into_string(),
                    Err(code) => errs.add("tel", code),
                }
            }
        }
        errs.finish()?;
        Ok(self)
    }
}

/// Whether `key` may name a menu in the store's hiding list: lower-case letters, digits and
/// underscores, starting with a letter, at most 50 (e.g. `connect_e_parcel`, `user_list`).
pub fn is_menu_key(key: &str) -> bool {
    let b = key.as_bytes();
    (1..=50).contains(&b.len())
        && b[0].is_ascii_lowercase()
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

/// The hiding list with `key` hidden or shown, each key once, in the order first hidden.
pub fn menu_list_with(list: &[String], key: &str, hidden: bool) -> Vec<String> {
    let mut out: Vec<String> = list.iter().filter(|k| k.as_str() != key).cloned().collect();
    if hidden {
        out.push(key.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menus_are_hidden_by_plain_keys_once_each() {
        assert!(is_menu_key("connect_e_parcel") && is_menu_key("user_list"));
        for bad in ["", "Connect", "e-parcel", "1st", "a b", &"x".repeat(51)] {
            assert!(!is_menu_key(bad), "{bad:?}");
        }
        let list = vec!["connect_e_parcel".to_string()];
        assert_eq!(menu_list_with(&list, "user_list", true), vec!["connect_e_parcel", "user_list"]);
        assert_eq!(menu_list_with(&list, "connect_e_parcel", true), vec!["connect_e_parcel"], "once");
        assert!(menu_list_with(&list, "connect_e_parcel", false).is_empty());
    }

    #[test]
    fn a_store_needs_a_name_when_renamed() {
        let e = StorePatch { name: Some("  ".into()), ..Default::default() }.validate().unwrap_err();
        assert_eq!(e.fields[0].field, "name");
        let ok = StorePatch { tel: Some("02-123-4567".into()), ..Default::default() }.validate().unwrap();
        assert_eq!(ok.tel.as_deref(), Some("021234567"));
    }

    #[test]
    fn postcodes_are_checked() {
        assert!(StorePatch { postcode: Some("123".into()), ..Default::default() }.validate().is_err());
        assert!(StorePatch { postcode: Some(String::new()), ..Default::default() }.validate().is_ok());
    }
}
