//! Magento 2 channels (SPEC §3 Magento channel, §5 its form): a store's Magento shop, reached
//! at its URL with an integration's credentials, whose orders come in by polling and to which
//! our stock goes out. It is an open-API channel too: the generated key lets the shop's own
//! code call the integrator's API.
//!
//! Three rules live here:
//! - the form, checked, with the credentials of one of the two ways Magento lets an
//!   integration in ([`Auth`]): its access token as a bearer token (refused by default since
//!   Magento 2.4.4, which must allow it), or OAuth 1.0a with its four credentials;
//! - what a Magento order's state means for our order ([`STATES`], one row per state);
//! - the watermark the poll follows ([`Watermark`]): orders are asked in `(updated_at,
//!   entity_id)` order, a page at a time, each page after the last order read, never by page
//!   number, so an order changing while the poll reads cannot shift another across a page
//!   boundary and none is skipped or read twice.

use bo_kit::{FieldError, Result};
use serde::{Deserialize, Serialize};

use super::api_channel::{check_defaults, check_status, Defaults};
use super::status::OrderState;

/// The longest URL.
pub const URL_MAX: usize = 300;
/// The longest store code, source code or credential.
pub const CODE_MAX: usize = 64;
/// The longest credential.
pub const SECRET_MAX: usize = 200;
/// The sales channel a Magento shop's orders are (the seller's own website).
pub const SALE_CHANNEL: &str = "website";
/// Orders asked per page.
pub const PAGE_SIZE: i64 = 50;
/// How far back the first poll of a channel reaches, seconds (three days).
pub const BACKFILL_S: i64 = 3 * 86_400;
/// How far before its watermark each poll looks again (an order saved in the second the
/// last poll read, after it read), seconds.
pub const OVERLAP_S: i64 = 120;

/// How an integration is let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Auth {
    /// Its access token as `Authorization: Bearer` (Magento ≥ 2.4.4 only when
    /// `oauth/consumer/enable_integration_as_bearer` is on).
    Bearer,
    /// Every call signed by OAuth 1.0a (HMAC-SHA256) with the integration's consumer key and
    /// secret and its access token and secret.
    Oauth1,
}

impl Auth {
    /// Its word.
    pub fn as_str(self) -> &'static str {
        match self {
            Auth::Bearer => "bearer",
            Auth::Oauth1 => "oauth1",
        }
    }

    /// The way of a word.
    pub fn parse(s: &str) -> Option<Auth> {
        [Auth::Bearer, Auth::Oauth1].into_iter().find(|a| a.as_str() == s)
    }
}

/// An integration's credentials, sealed at rest as one JSON text.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    /// The access token (the bearer token, or OAuth's token).
    pub access_token: String,
    /// OAuth's token secret.
    #[serde(default)]
    pub access_token_secret: String,
    /// OAuth's consumer key.
    #[serde(default)]
    pub consumer_key: String,
    /// OAuth's consumer secret.
    #[serde(default)]
    pub consumer_secret: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Credentials(…)")
    }
}

/// A channel's form, as the owner fills it in. On an edit, empty credentials keep those kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form {
    /// Its title.
    pub name: String,
    /// The shop's address (`https://shop.example.com`, the part before `/rest`).
    pub url: String,
    /// The store view its calls name (`default` when empty).
    pub store_code: String,
    /// `bearer` or `oauth1`.
    pub auth: String,
    /// The credentials.
    pub credentials: Credentials,
    /// The multi-source inventory source our stock is written to; empty: the single stock
    /// (`stockItems`).
    pub source_code: String,
    /// The warehouse its orders take stock from and whose stock it is told.
    pub warehouse_id: i64,
    /// The shipping channel its orders ship by.
    pub logistic_channel_id: i64,
    /// The payment account its orders are paid to.
    pub payment_channel_id: i64,
    /// Active or inactive.
    pub status: String,
}

/// True when `url` may be a Magento shop's address: https, or http to this machine (a shop
/// being tried out), with a host and no credentials, query or fragment.
pub fn url_ok(url: &str) -> bool {
    let Ok(u) = reqwest::Url::parse(url) else { return false };
    let local = matches!(u.host_str(), Some("localhost" | "127.0.0.1" | "[::1]" | "::1"));
    (u.scheme() == "https" || (u.scheme() == "http" && local))
        && u.host_str().is_some_and(|h| !h.is_empty())
        && u.username().is_empty()
        && u.password().is_none()
        && u.query().is_none()
        && u.fragment().is_none()
}

fn code_ok(s: &str) -> bool {
    !s.is_empty() && s.len() <= CODE_MAX && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The form, trimmed and checked: every broken rule at once. `creating`: the credentials of
/// its way are required (on an edit, those left empty are kept).
pub fn check(f: &Form, creating: bool) -> Result<Form> {
    let mut errs = Vec::new();
    let (name, _) = check_defaults(
        Defaults {
            name: &f.name,
            channel: SALE_CHANNEL,
            warehouse_id: f.warehouse_id,
            logistic_channel_id: f.logistic_channel_id,
            payment_channel_id: f.payment_channel_id,
        },
        |_| true,
        &mut errs,
    );
    let url = f.url.trim().trim_end_matches('/').to_string();
    if url.is_empty() {
        errs.push(FieldError::new("url", "validation.required"));
    } else if url.chars().count() > URL_MAX {
        errs.push(FieldError::new("url", "validation.too_long"));
    } else if !url_ok(&url) {
        errs.push(FieldError::new("url", "validation.magento_url"));
    }
    let store_code = match f.store_code.trim() {
        "" => "default".to_string(),
        s => s.to_string(),
    };
    if !code_ok(&store_code) {
        errs.push(FieldError::new("store_code", "validation.invalid"));
    }
    let source_code = f.source_code.trim().to_string();
    if !source_code.is_empty() && !code_ok(&source_code) {
        errs.push(FieldError::new("source_code", "validation.invalid"));
    }
    let auth = Auth::parse(f.auth.trim());
    if auth.is_none() {
        errs.push(FieldError::new("auth", "validation.required"));
    }
    let c = &f.credentials;
    let credentials = Credentials {
        access_token: c.access_token.trim().to_string(),
        access_token_secret: c.access_token_secret.trim().to_string(),
        consumer_key: c.consumer_key.trim().to_string(),
        consumer_secret: c.consumer_secret.trim().to_string(),
    };
    let mut needed = vec![("access_token", &credentials.access_token)];
    if auth == Some(Auth::Oauth1) {
        needed.extend([
            ("access_token_secret", &credentials.access_token_secret),
            ("consumer_key", &credentials.consumer_key),
            ("consumer_secret", &credentials.consumer_secret),
        ]);
    }
    for (field, v) in needed {
        if v.is_empty() {
            if creating {
                errs.push(FieldError::new(field, "validation.required"));
            }
        } else if v.len() > SECRET_MAX || v.chars().any(|c| c.is_whitespace() || c.is_control()) {
            errs.push(FieldError::new(field, "validation.invalid"));
        }
    }
    let status = check_status(&f.status, &mut errs);
    if !errs.is_empty() {
        return Err(bo_kit::Error::invalid(errs));
    }
    Ok(Form {
        name,
        url,
        store_code,
        auth: auth.map(Auth::as_str).unwrap_or_default().to_string(),
        credentials,
        source_code,
        warehouse_id: f.warehouse_id,
        logistic_channel_id: f.logistic_channel_id,
        payment_channel_id: f.payment_channel_id,
        status,
    })
}

/// The credentials an edit leaves: those typed, else those kept; a change of way keeps none
/// of the other way's.
pub fn merge(kept: &Credentials, typed: &Credentials) -> Credentials {
    let pick = |t: &str, k: &str| if t.is_empty() { k.to_string() } else { t.to_string() };
    Credentials {
        access_token: pick(&typed.access_token, &kept.access_token),
        access_token_secret: pick(&typed.access_token_secret, &kept.access_token_secret),
        consumer_key: pick(&typed.consumer_key, &kept.consumer_key),
        consumer_secret: pick(&typed.consumer_secret, &kept.consumer_secret),
    }
}

/// The credentials `auth` needs that are missing (after an edit's merge): their fields.
pub fn missing(auth: Auth, c: &Credentials) -> Vec<&'static str> {
    let mut out = Vec::new();
    if c.access_token.is_empty() {
        out.push("access_token");
    }
    if auth == Auth::Oauth1 {
        for (f, v) in [
            ("access_token_secret", &c.access_token_secret),
            ("consumer_key", &c.consumer_key),
            ("consumer_secret", &c.consumer_secret),
        ] {
            if v.is_empty() {
                out.push(f);
            }
        }
    }
    out
}

/// What a Magento order's state means for our order: where it goes, and whether the buyer
/// has paid (`None`: as it was).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meaning {
    /// Our order's state. The shop's staff pack and ship in the back-office, so a Magento
    /// order never moves ours forward past new: only a cancellation moves it.
    pub state: OrderState,
    /// Paid, unpaid, or as it was.
    pub paid: Option<bool>,
    /// Its rank among states changed in one second (a later one is newer).
    pub rank: i64,
}

const fn meaning(state: OrderState, paid: Option<bool>, rank: i64) -> Meaning {
    Meaning { state, paid, rank }
}

/// Magento's order states (`sales_order.state`) and what each means:
///
/// | state | our order | paid |
/// |---|---|---|
/// | new | new | no |
/// | pending_payment | new | no |
/// | payment_review | new | no |
/// | holded | new | as it was |
/// | processing | new | yes |
/// | complete | new (ours ships in the back-office) | yes |
/// | closed (refunded) | cancelled | as it was |
/// | canceled | cancelled | as it was |
pub const STATES: [(&str, Meaning); 8] = [
    ("new", meaning(OrderState::New, Some(false), 1)),
    ("pending_payment", meaning(OrderState::New, Some(false), 2)),
    ("payment_review", meaning(OrderState::New, Some(false), 3)),
    ("holded", meaning(OrderState::New, None, 4)),
    ("processing", meaning(OrderState::New, Some(true), 5)),
    ("complete", meaning(OrderState::New, Some(true), 6)),
    ("closed", meaning(OrderState::Cancelled, None, 7)),
    ("canceled", meaning(OrderState::Cancelled, None, 8)),
];

/// What `state` means, when it is one of Magento's.
pub fn state_meaning(state: &str) -> Option<Meaning> {
    STATES.iter().find(|(s, _)| *s == state).map(|(_, m)| *m)
}

/// When a change happened for the orders service: the second Magento dates it at, a later
/// state of the same second newer.
pub fn changed_at_ms(updated_at_s: i64, m: Meaning) -> i64 {
    updated_at_s.max(0) * 1000 + m.rank
}

/// Magento's date text (`2026-12-06 10:05:00`, UTC) as unix seconds.
pub fn parse_date(s: &str) -> Option<i64> {
    let fmt = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    let t = time::PrimitiveDateTime::parse(s.trim(), &fmt).ok()?;
    Some(t.assume_utc().unix_timestamp())
}

/// Unix seconds as Magento's date text.
pub fn date_text(s: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(s).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let fmt = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    t.format(&fmt).unwrap_or_default()
}

/// Where the poll has read to: the last order read, by when it changed and its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Watermark {
    /// When it changed, unix seconds.
    pub at: i64,
    /// Its `entity_id`.
    pub id: i64,
}

impl Watermark {
    /// Where a poll starts: `OVERLAP_S` before the kept watermark (orders saved late in its
    /// second), or `BACKFILL_S` before now for a channel never polled.
    pub fn start(kept_at: i64, now_s: i64) -> Watermark {
        let at = if kept_at <= 0 { now_s - BACKFILL_S } else { (kept_at - OVERLAP_S).max(now_s - BACKFILL_S * 10) };
        Watermark { at, id: 0 }
    }

    /// The watermark after an order read at `(at, id)`: never back.
    pub fn after(self, at: i64, id: i64) -> Watermark {
        self.max(Watermark { at, id })
    }
}

/// Which of the two asks of a poll's round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Orders changed in the watermark's second, after its order.
    SameSecond,
    /// Orders changed after the watermark's second.
    Later,
}

/// The `searchCriteria` query of one ask: its filters (groups are AND'ed), its sort, one
/// page of `PAGE_SIZE`, always the first (the filters move, not the page).
pub fn criteria(step: Step, w: Watermark) -> Vec<(String, String)> {
    let filter = |g: usize, field: &str, value: String, condition: &str| {
        let p = format!("searchCriteria[filter_groups][{g}][filters][0]");
        [
            (format!("{p}[field]"), field.to_string()),
            (format!("{p}[value]"), value),
            (format!("{p}[condition_type]"), condition.to_string()),
        ]
    };
    let mut q: Vec<(String, String)> = Vec::new();
    match step {
        Step::SameSecond => {
            q.extend(filter(0, "updated_at", date_text(w.at), "eq"));
            q.extend(filter(1, "entity_id", w.id.to_string(), "gt"));
            q.push(("searchCriteria[sortOrders][0][field]".into(), "entity_id".into()));
            q.push(("searchCriteria[sortOrders][0][direction]".into(), "ASC".into()));
        }
        Step::Later => {
            q.extend(filter(0, "updated_at", date_text(w.at), "gt"));
            q.push(("searchCriteria[sortOrders][0][field]".into(), "updated_at".into()));
            q.push(("searchCriteria[sortOrders][0][direction]".into(), "ASC".into()));
            q.push(("searchCriteria[sortOrders][1][field]".into(), "entity_id".into()));
            q.push(("searchCriteria[sortOrders][1][direction]".into(), "ASC".into()));
        }
    }
    q.push(("searchCriteria[pageSize]".into(), PAGE_SIZE.to_string()));
    q.push(("searchCriteria[currentPage]".into(), "1".into()));
    q
}

/// What a round does after a page of `n` orders of `step`: the next step, or `None` when
/// the round is done (a short page of later orders).
pub fn next_step(step: Step, n: usize) -> Option<Step> {
    let full = n as i64 >= PAGE_SIZE;
    match (step, full) {
        (Step::SameSecond, true) => Some(Step::SameSecond),
        (Step::SameSecond, false) => Some(Step::Later),
        (Step::Later, true) => Some(Step::SameSecond),
        (Step::Later, false) => None,
    }
}

/// `what: a, b, c`, cut to a loggable length.
pub fn clip_list(what: &str, items: &[String]) -> String {
    format!("{what}: {}", items.join(", ")).chars().take(200).collect()
}

/// A Magento amount (a JSON number or text, to four decimals) in satang, rounded half away
/// from zero; `null` is 0.
pub fn satang(v: &serde_json::Value) -> Option<i64> {
    let text = match v {
        serde_json::Value::Null => return Some(0),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, text),
    };
    if digits.contains(['e', 'E']) {
        // serde_json writes tiny or huge numbers with an exponent: not an amount.
        return None;
    }
    let (whole, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let mut f = frac.bytes().map(|b| i64::from(b - b'0')).chain(std::iter::repeat(0));
    let cents = f.next()? * 10 + f.next()?;
    let up = i64::from(f.next()? >= 5);
    let v = whole.checked_mul(100)?.checked_add(cents + up)?;
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Form {
        Form {
            name: " ร้านบนเว็บ ".into(),
            url: "https://shop.example.com/".into(),
            store_code: String::new(),
            auth: "bearer".into(),
            credentials: Credentials { access_token: " tok ".into(), ..Default::default() },
            source_code: String::new(),
            warehouse_id: 1,
            logistic_channel_id: 2,
            payment_channel_id: 3,
            status: "active".into(),
        }
    }

    fn fields(e: bo_kit::Error) -> Vec<(String, String)> {
        e.fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    #[test]
    fn a_form_is_trimmed_and_defaults_its_store() {
        let f = check(&form(), true).unwrap();
        assert_eq!(
            (f.name.as_str(), f.url.as_str(), f.store_code.as_str()),
            ("ร้านบนเว็บ", "https://shop.example.com", "default")
        );
        assert_eq!(f.credentials.access_token, "tok");
        assert_eq!(f.auth, "bearer");
    }

    #[test]
    fn every_broken_rule_is_named_at_once() {
        let bad = Form {
            name: String::new(),
            url: "ftp://shop".into(),
            store_code: "a b".into(),
            auth: "basic".into(),
            credentials: Credentials::default(),
            source_code: "x/y".into(),
            warehouse_id: 0,
            logistic_channel_id: 0,
            payment_channel_id: 0,
            status: String::new(),
        };
        let got = fields(check(&bad, true).unwrap_err());
        for (field, code) in [
            ("name", "validation.required"),
            ("url", "validation.magento_url"),
            ("store_code", "validation.invalid"),
            ("source_code", "validation.invalid"),
            ("auth", "validation.required"),
            ("access_token", "validation.required"),
            ("warehouse_id", "validation.required"),
        ] {
            assert!(got.contains(&(field.to_string(), code.to_string())), "{field} {code} in {got:?}");
        }
    }

    #[test]
    fn oauth_needs_its_four_credentials_and_an_edit_keeps_what_is_left_empty() {
        let mut f = form();
        f.auth = "oauth1".into();
        let got = fields(check(&f, true).unwrap_err());
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(check(&f, false).is_ok(), "an edit may leave them as kept");
        let kept = Credentials {
            access_token: "a".into(),
            access_token_secret: "b".into(),
            consumer_key: "c".into(),
            consumer_secret: "d".into(),
        };
        let merged = merge(&kept, &Credentials { access_token: "z".into(), ..Default::default() });
        assert_eq!((merged.access_token.as_str(), merged.consumer_secret.as_str()), ("z", "d"));
        assert!(missing(Auth::Oauth1, &merged).is_empty());
        assert_eq!(missing(Auth::Oauth1, &Credentials { access_token: "a".into(), ..Default::default() }).len(), 3);
        assert!(missing(Auth::Bearer, &Credentials { access_token: "a".into(), ..Default::default() }).is_empty());
        assert_eq!(format!("{kept:?}"), "Credentials(…)", "never shown in a log");
    }

    #[test]
    fn urls_are_https_or_this_machine() {
        assert!(url_ok("https://shop.example.com"));
        assert!(url_ok("http://127.0.0.1:8081/magento"));
        assert!(!url_ok("http://shop.example.com"));
        assert!(!url_ok("https://user:pw@shop.example.com"));
        assert!(!url_ok("https://shop.example.com?a=1"));
        assert!(!url_ok("shop.example.com"));
    }

    #[test]
    fn every_magento_state_has_its_meaning() {
        use OrderState::*;
        let want = [
            ("new", New, Some(false)),
            ("pending_payment", New, Some(false)),
            ("payment_review", New, Some(false)),
            ("holded", New, None),
            ("processing", New, Some(true)),
            ("complete", New, Some(true)),
            ("closed", Cancelled, None),
            ("canceled", Cancelled, None),
        ];
        for (s, state, paid) in want {
            let m = state_meaning(s).unwrap();
            assert_eq!((m.state, m.paid), (state, paid), "{s}");
        }
        assert_eq!(state_meaning("cancelled"), None, "Magento writes canceled");
        assert_eq!(state_meaning(""), None);
        // Ranks are distinct, so two states of one second are ordered.
        let mut ranks: Vec<i64> = STATES.iter().map(|(_, m)| m.rank).collect();
        ranks.dedup();
        assert_eq!(ranks.len(), STATES.len());
        let (paid, cancelled) = (state_meaning("processing").unwrap(), state_meaning("canceled").unwrap());
        assert!(changed_at_ms(100, cancelled) > changed_at_ms(100, paid));
        assert!(changed_at_ms(101, paid) > changed_at_ms(100, cancelled));
    }

    #[test]
    fn dates_read_and_write_as_magento_writes_them() {
        assert_eq!(parse_date("2026-12-06 10:05:00"), Some(1_796_551_500));
        assert_eq!(date_text(1_796_551_500), "2026-12-06 10:05:00");
        assert_eq!(parse_date("2026-12-06T10:05:00Z"), None);
        assert_eq!(parse_date(""), None);
    }

    #[test]
    fn the_watermark_moves_forward_only_and_a_poll_starts_before_it() {
        let w = Watermark { at: 1000, id: 7 };
        assert_eq!(w.after(1000, 9), Watermark { at: 1000, id: 9 });
        assert_eq!(w.after(999, 50), w, "an older order never moves it back");
        assert_eq!(w.after(1001, 1), Watermark { at: 1001, id: 1 });
        let now = 10_000_000;
        assert_eq!(Watermark::start(0, now), Watermark { at: now - BACKFILL_S, id: 0 });
        assert_eq!(Watermark::start(now - 10, now), Watermark { at: now - 10 - OVERLAP_S, id: 0 });
    }

    #[test]
    fn a_round_asks_the_same_second_then_later_seconds_until_a_short_page() {
        let full = PAGE_SIZE as usize;
        assert_eq!(next_step(Step::SameSecond, full), Some(Step::SameSecond));
        assert_eq!(next_step(Step::SameSecond, 3), Some(Step::Later));
        assert_eq!(next_step(Step::Later, full), Some(Step::SameSecond));
        assert_eq!(next_step(Step::Later, 0), None);
        let q = criteria(Step::SameSecond, Watermark { at: 1_796_551_500, id: 12 });
        let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("searchCriteria[filter_groups][0][filters][0][value]"), Some("2026-12-06 10:05:00"));
        assert_eq!(get("searchCriteria[filter_groups][0][filters][0][condition_type]"), Some("eq"));
        assert_eq!(get("searchCriteria[filter_groups][1][filters][0][field]"), Some("entity_id"));
        assert_eq!(get("searchCriteria[filter_groups][1][filters][0][value]"), Some("12"));
        assert_eq!(get("searchCriteria[currentPage]"), Some("1"));
        let q = criteria(Step::Later, Watermark { at: 1_796_551_500, id: 12 });
        let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("searchCriteria[filter_groups][0][filters][0][condition_type]"), Some("gt"));
        assert_eq!(get("searchCriteria[sortOrders][1][field]"), Some("entity_id"));
        assert_eq!(get("searchCriteria[filter_groups][1][filters][0][field]"), None);
    }

    #[test]
    fn amounts_round_to_the_satang() {
        use serde_json::json;
        for (v, want) in [
            (json!(199), Some(19_900)),
            (json!(59.9), Some(5_990)),
            (json!("12.3450"), Some(1_235)),
            (json!("12.3449"), Some(1_234)),
            (json!(-10), Some(-1_000)),
            (json!(-0.005), Some(-1)),
            (json!(null), Some(0)),
            (json!("abc"), None),
            (json!(true), None),
        ] {
            assert_eq!(satang(&v), want, "{v}");
        }
    }
}
