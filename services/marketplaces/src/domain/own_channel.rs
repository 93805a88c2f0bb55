//! A store's own channels (SPEC §1 "social commerce, website"; §9 channel kinds): the shop's
//! Facebook page, LINE account, Instagram or website, which it sells through by hand. Each
//! is a store channel with its name and the warehouse, shipping channel and payment account
//! an order typed for it takes, so "LINE shop" fills them in on the order's form. Unlike an
//! open-API channel it has no key and no webhook: nobody calls us for it.

use bo_kit::{Error, Result};

use super::api_channel::{self, Defaults};
use super::catalogue::{self, Kind};

/// The catalogue's channels a store sells through by hand: social commerce and websites.
pub fn kinds() -> impl Iterator<Item = &'static catalogue::SaleChannel> {
    catalogue::CATALOGUE.iter().filter(|c| matches!(c.kind, Kind::SocialCommerce | Kind::Website))
}

/// An own channel's form, as the owner fills it in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form {
    /// Its name.
    pub name: String,
    /// The sales channel its orders are (a social network's or the website's code).
    pub channel: String,
    /// The warehouse its orders take stock from.
    pub warehouse_id: i64,
    /// The shipping channel its orders ship by.
    pub logistic_channel_id: i64,
    /// The payment account its orders are paid to.
    pub payment_channel_id: i64,
    /// Active (offered on the order's form) or inactive.
    pub status: String,
}

/// The form, trimmed and checked: every broken rule at once (SPEC §5: name, channel,
/// warehouse, shipping channel and payment account are required).
pub fn check(f: &Form) -> Result<Form> {
    let mut errs = Vec::new();
    let (name, channel) = api_channel::check_defaults(
        Defaults {
            name: &f.name,
            channel: &f.channel,
            warehouse_id: f.warehouse_id,
            logistic_channel_id: f.logistic_channel_id,
            payment_channel_id: f.payment_channel_id,
        },
        |c| kinds().any(|k| k.code == c),
        &mut errs,
    );
    let status = api_channel::check_status(&f.status, &mut errs);
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    Ok(Form { name, channel, status, ..f.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_is_trimmed_and_active_unless_it_says() {
        let f = check(&Form {
            name: "  ร้านไลน์  ".into(),
            channel: " line ".into(),
            warehouse_id: 1,
            logistic_channel_id: 2,
            payment_channel_id: 3,
            status: String::new(),
        })
        .unwrap();
        assert_eq!((f.name.as_str(), f.channel.as_str(), f.status.as_str()), ("ร้านไลน์", "line", "active"));
        let off = check(&Form { status: "inactive".into(), ..f.clone() }).unwrap();
        assert_eq!(off.status, "inactive");
    }

    #[test]
    fn every_broken_rule_is_named() {
        let bad = Form {
            name: " ".into(),
            channel: "open_api".into(),
            warehouse_id: 0,
            logistic_channel_id: 0,
            payment_channel_id: -4,
            status: "paused".into(),
        };
        let err = check(&bad).unwrap_err();
        let fields: Vec<(String, String)> = err.fields.into_iter().map(|f| (f.field, f.code)).collect();
        let want = [
            ("name", "validation.required"),
            ("channel", "validation.channel_unknown"),
            ("warehouse_id", "validation.required"),
            ("logistic_channel_id", "validation.required"),
            ("payment_channel_id", "validation.required"),
            ("status", "validation.status"),
        ];
        assert_eq!(fields, want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec());
        let long = Form { name: "ก".repeat(api_channel::NAME_MAX + 1), channel: String::new(), ..bad };
        let fields: Vec<(String, String)> =
            check(&long).unwrap_err().fields.into_iter().take(2).map(|f| (f.field, f.code)).collect();
        assert_eq!(fields[0], ("name".to_string(), "validation.too_long".to_string()));
        assert_eq!(fields[1], ("channel".to_string(), "validation.required".to_string()));
    }

    #[test]
    fn only_social_networks_and_websites_are_sold_through_by_hand() {
        let codes: Vec<&str> = kinds().map(|c| c.code).collect();
        assert_eq!(codes, vec!["facebook", "line", "instagram", "website"]);
        for refused in ["shopee", "lazada", "tiktok_shop", "open_api", "myspace"] {
            let f = Form {
                name: "x".into(),
                channel: refused.into(),
                warehouse_id: 1,
                logistic_channel_id: 1,
                payment_channel_id: 1,
                status: String::new(),
            };
            assert_eq!(check(&f).unwrap_err().fields[0].code, "validation.channel_unknown", "{refused}");
        }
    }
}
