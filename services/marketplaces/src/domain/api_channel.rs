//! Open-API channels (SPEC §3 Open API connection, §5 its form): a store's connection for an
//! integrator's app, selling as one of the catalogue's channels that are not marketplaces,
//! with the warehouse, shipping channel and payment account its orders take, the events its
//! webhook is sent, and keys: generated, shown once, kept as a digest; rolled with a grace
//! period in which the old key still works; revoked.
//!
//! A key reads `bok_<prefix>_<secret>`: the prefix (16 hex digits) finds it, the secret (64 hex
//! digits, 256 random bits) proves it. Only the SHA-256 of the secret is kept, compared in
//! constant time; a key this random needs no slow hash.

use bo_kit::{Error, FieldError, Result};

use super::catalogue::{self, Kind};

/// The longest name.
pub const NAME_MAX: usize = 100;
/// The longest webhook URL.
pub const URL_MAX: usize = 500;
/// A generated key not yet given to a channel is forgotten after this, ms.
pub const UNBOUND_MS: i64 = 60 * 60 * 1000;
/// The grace periods an old key may keep working for after a roll, hours.
pub const GRACE_HOURS: [i64; 5] = [0, 1, 24, 72, 168];

/// What an open-API channel's webhook may be sent (`GET /open-api/webhook-events`).
pub const EVENTS: [&str; 8] = [
    "order.created",
    "order.state_changed",
    "order.paid",
    "order.shipped",
    "order.cancelled",
    "stock.changed",
    "product.changed",
    "channel.key_expiring",
];

/// Whether a channel takes orders (its keys work) or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Its keys work.
    Active,
    /// Its keys are refused, its webhook is not sent.
    Inactive,
}

impl Status {
    /// Its word.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Inactive => "inactive",
        }
    }

    /// The status of a word.
    pub fn parse(s: &str) -> Option<Status> {
        [Status::Active, Status::Inactive].into_iter().find(|x| x.as_str() == s)
    }
}

/// The catalogue's channels an open-API channel may sell as (every one but the marketplaces,
/// whose shops are connected instead).
pub fn sellable_as() -> impl Iterator<Item = &'static catalogue::SaleChannel> {
    catalogue::CATALOGUE.iter().filter(|c| c.kind != Kind::Marketplace)
}

/// A channel's form, as the owner fills it in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form {
    /// Its name.
    pub name: String,
    /// The sales channel its orders are (a code of the catalogue, not a marketplace's).
    pub channel: String,
    /// The warehouse its orders take stock from.
    pub warehouse_id: i64,
    /// The shipping channel its orders ship by.
    pub logistic_channel_id: i64,
    /// The payment account its orders are paid to.
    pub payment_channel_id: i64,
    /// Where its webhook is sent (empty: none).
    pub webhook_url: String,
    /// The events its webhook is sent.
    pub events: Vec<String>,
    /// Active or inactive.
    pub status: String,
}

/// True when `url` may receive webhooks: https, or http to this machine (for an integrator
/// trying things out), without credentials in it.
pub fn webhook_url_ok(url: &str) -> bool {
    let Ok(u) = reqwest::Url::parse(url) else { return false };
    let local = matches!(u.host_str(), Some("localhost" | "127.0.0.1" | "[::1]" | "::1"));
    (u.scheme() == "https" || (u.scheme() == "http" && local))
        && u.host_str().is_some_and(|h| !h.is_empty())
        && u.username().is_empty()
        && u.password().is_none()
}

/// The form, trimmed and checked: every broken rule at once (SPEC §5: name, channel,
/// warehouse, shipping channel and payment account are required).
pub fn check(f: &Form) -> Result<Form> {
    let mut errs = Vec::new();
    let (name, channel) = check_defaults(
        Defaults {
            name: &f.name,
            channel: &f.channel,
            warehouse_id: f.warehouse_id,
            logistic_channel_id: f.logistic_channel_id,
            payment_channel_id: f.payment_channel_id,
        },
        |c| sellable_as().any(|s| s.code == c),
        &mut errs,
    );
    let webhook_url = f.webhook_url.trim().to_string();
    if webhook_url.chars().count() > URL_MAX {
        errs.push(FieldError::new("webhook_url", "validation.too_long"));
    } else if !webhook_url.is_empty() && !webhook_url_ok(&webhook_url) {
        errs.push(FieldError::new("webhook_url", "validation.webhook_url"));
    }
    let mut events: Vec<String> = f.events.iter().map(|e| e.trim().to_string()).filter(|e| !e.is_empty()).collect();
    events.sort();
    events.dedup();
    if events.iter().any(|e| !EVENTS.contains(&e.as_str())) {
        errs.push(FieldError::new("events", "validation.choice"));
    }
    if !events.is_empty() && webhook_url.is_empty() {
        errs.push(FieldError::new("webhook_url", "validation.required"));
    }
    let status = check_status(&f.status, &mut errs);
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    Ok(Form { name, channel, webhook_url, events, status, ..f.clone() })
}

/// What every channel of ours that the owner sets up by hand has: its name, the sales
/// channel its orders are, and the warehouse, shipping channel and payment account they take.
#[derive(Debug, Clone, Copy)]
pub struct Defaults<'a> {
    /// Its name.
    pub name: &'a str,
    /// The sales channel's code.
    pub channel: &'a str,
    /// The warehouse.
    pub warehouse_id: i64,
    /// The shipping channel.
    pub logistic_channel_id: i64,
    /// The payment account.
    pub payment_channel_id: i64,
}

/// Checks a channel's defaults (SPEC §5: each is required), its name within [`NAME_MAX`] and
/// its sales channel one `allowed` takes; every broken rule is pushed to `errs`. The name and
/// the code, trimmed.
pub fn check_defaults(d: Defaults<'_>, allowed: impl Fn(&str) -> bool, errs: &mut Vec<FieldError>) -> (String, String) {
    let name = d.name.trim().to_string();
    if name.is_empty() {
        errs.push(FieldError::new("name", "validation.required"));
    } else if name.chars().count() > NAME_MAX {
        errs.push(FieldError::new("name", "validation.too_long"));
    }
    let channel = d.channel.trim().to_string();
    if channel.is_empty() {
        errs.push(FieldError::new("channel", "validation.required"));
    } else if !allowed(&channel) {
        errs.push(FieldError::new("channel", "validation.channel_unknown"));
    }
    for (field, v) in [
        ("warehouse_id", d.warehouse_id),
        ("logistic_channel_id", d.logistic_channel_id),
        ("payment_channel_id", d.payment_channel_id),
    ] {
        if v <= 0 {
            errs.push(FieldError::new(field, "validation.required"));
        }
    }
    (name, channel)
}

/// A channel's status word (empty: active), a broken one pushed to `errs`.
pub fn check_status(status: &str, errs: &mut Vec<FieldError>) -> String {
    let status = if status.trim().is_empty() { Status::Active.as_str() } else { status.trim() };
    if Status::parse(status).is_none() {
        errs.push(FieldError::new("status", "validation.status"));
    }
    status.to_string()
}

/// A new key: (the key as given to the integrator, its prefix, the digest kept of its secret).
pub fn new_key() -> (String, String, String) {
    use ring::rand::SecureRandom as _;
    let rng = ring::rand::SystemRandom::new();
    let mut prefix = [0u8; 8];
    let mut secret = [0u8; 32];
    rng.fill(&mut prefix).expect("the system's random source");
    rng.fill(&mut secret).expect("the system's random source");
    let (prefix, secret) = (hex::encode(prefix), hex::encode(secret));
    (format!("bok_{prefix}_{secret}"), prefix.clone(), digest(&secret))
}

/// The digest kept of a key's secret.
pub fn digest(secret: &str) -> String {
    hex::encode(ring::digest::digest(&ring::digest::SHA256, secret.as_bytes()).as_ref())
}

/// A key's prefix and secret, when it reads as a key.
pub fn parse_key(key: &str) -> Option<(&str, &str)> {
    let rest = key.trim().strip_prefix("bok_")?;
    let (prefix, secret) = rest.split_once('_')?;
    let hex_of = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hex_of(prefix, 16) && hex_of(secret, 64)).then_some((prefix, secret))
}

/// True when `secret` is the one whose digest is `kept`, compared in constant time.
pub fn secret_matches(secret: &str, kept: &str) -> bool {
    let (a, b) = (digest(secret), kept.to_string());
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The first characters of a key, as the screens show one already given (never the rest).
pub fn shown(prefix: &str) -> String {
    format!("bok_{prefix}_…")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Form {
        Form {
            name: " เว็บไซต์ร้าน ".into(),
            channel: "website".into(),
            warehouse_id: 1,
            logistic_channel_id: 2,
            payment_channel_id: 3,
            webhook_url: "https://shop.example/hooks/bo".into(),
            events: vec!["order.created".into(), "stock.changed".into(), "order.created".into()],
            status: String::new(),
        }
    }

    #[test]
    fn a_form_is_trimmed_and_its_events_kept_once() {
        let f = check(&form()).unwrap();
        assert_eq!((f.name.as_str(), f.status.as_str()), ("เว็บไซต์ร้าน", "active"));
        assert_eq!(f.events, vec!["order.created", "stock.changed"]);
    }

    #[test]
    fn every_broken_rule_is_named() {
        let bad = Form {
            name: "x".repeat(NAME_MAX + 1),
            channel: "shopee".into(),
            warehouse_id: 0,
            logistic_channel_id: -1,
            payment_channel_id: 0,
            webhook_url: String::new(),
            events: vec!["order.created".into(), "order.exploded".into()],
            status: "paused".into(),
        };
        let fields: Vec<String> = check(&bad).unwrap_err().fields.into_iter().map(|f| f.field).collect();
        assert_eq!(
            fields,
            vec![
                "name",
                "channel",
                "warehouse_id",
                "logistic_channel_id",
                "payment_channel_id",
                "events",
                "webhook_url",
                "status"
            ]
        );
        let none = check(&Form::default()).unwrap_err();
        assert_eq!(none.fields[1].code, "validation.required", "a channel is required");
    }

    #[test]
    fn webhooks_go_to_https_or_to_this_machine() {
        for (url, ok) in [
            ("https://shop.example/hook", true),
            ("http://localhost:9000/hook", true),
            ("http://127.0.0.1/hook", true),
            ("http://shop.example/hook", false),
            ("https://user:pass@shop.example/hook", false),
            ("ftp://shop.example", false),
            ("not a url", false),
        ] {
            assert_eq!(webhook_url_ok(url), ok, "{url}");
        }
    }

    #[test]
    fn the_marketplaces_are_not_sold_as_through_the_open_api() {
        let codes: Vec<&str> = sellable_as().map(|c| c.code).collect();
        assert_eq!(codes, vec!["facebook", "line", "instagram", "website", "open_api"]);
    }

    #[test]
    fn a_key_is_proved_by_its_secret_only() {
        let (key, prefix, kept) = new_key();
        let (p, secret) = parse_key(&key).unwrap();
        assert_eq!(p, prefix);
        assert!(secret_matches(secret, &kept));
        assert!(!secret_matches(&"0".repeat(64), &kept));
        assert_ne!(new_key().0, key, "every key is new");
        assert!(parse_key("bok_123_456").is_none());
        assert!(parse_key(&key.replace("bok_", "sk_")).is_none());
        assert!(parse_key(&format!("{key}0")).is_none());
        assert_eq!(shown(&prefix), format!("bok_{prefix}_…"));
        assert!(!kept.contains(secret), "the secret is not kept");
    }
}
