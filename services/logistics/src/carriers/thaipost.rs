//! Thailand Post's tracking API (`trackapi.thailandpost.co.th`).
//!
//! The store's API key buys a token (`POST /post/api/v1/authenticate/token` with
//! `Authorization: Token <key>`), kept until shortly before the expiry the API gives; the
//! token tracks up to 100 barcodes a call (`POST /post/api/v1/track`). Thailand Post also
//! pushes the same items to our webhook ([`parse_webhook`]).
//!
//! Dates come as `19/07/2566 18:12:26+07:00`: day first, in the Buddhist era when asked in
//! Thai (2566 is 2023), at Bangkok's offset. Token expiries come as
//! `2026-12-25 10:00:00+07:00`.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use bo_kit::config::Secret;
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::StatusCode;
use serde::{Deserialize, Deserializer};
use tokio::sync::Mutex;

use super::{read_bounded, send, server_trouble, unix_ms, CarrierError, Progress, Tracker, TrackingEvent, THAIPOST};

/// The most barcodes one track call takes; longer lists are asked in several calls.
pub const MAX_BARCODES: usize = 100;
/// The largest webhook body we read, bytes.
pub const WEBHOOK_MAX_BYTES: usize = 1024 * 1024;
/// The most items a webhook push may carry.
pub const WEBHOOK_MAX_ITEMS: usize = 1_000;
/// The largest answer we read (100 parcels with their whole history fit well within).
const ANSWER_MAX_BYTES: usize = 8 * 1024 * 1024;
/// A token is renewed this long before the expiry it was given with.
const RENEW_BEFORE_MS: i64 = 5 * 60_000;
/// Bangkok's offset, assumed when a date carries none.
const BANGKOK_S: i32 = 7 * 3600;
/// Years from this one up are Buddhist-era years (2400 BE is 1857).
const BUDDHIST_ERA_FROM: i32 = 2400;
/// Buddhist era minus common era.
const BUDDHIST_ERA_OFFSET: i32 = 543;

/// Thailand Post's tracking API for one store's API key. Clones share the token.
#[derive(Clone)]
pub struct ThaiPost {
    http: reqwest::Client,
    base_url: String,
    api_key: Secret,
    token: Arc<Mutex<Option<Token>>>,
}

/// A token and when to stop using it.
struct Token {
    value: Secret,
    renew_at_ms: i64,
}

impl fmt::Debug for ThaiPost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThaiPost")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key)
            .field("token", &self.token.try_lock().map(|t| t.as_ref().map(|t| t.value.clone())).ok().flatten())
            .finish()
    }
}

/// The token endpoint's answer.
#[derive(Deserialize)]
struct TokenAnswer {
    #[serde(default)]
    expire: String,
    #[serde(default)]
    token: String,
}

/// A refusal: DRF's `{"detail": ...}` or the API's `{"status": false, "message": ...}`.
#[derive(Deserialize, Default)]
struct Refusal {
    #[serde(default, deserialize_with = "text")]
    detail: String,
    #[serde(default, deserialize_with = "text")]
    message: String,
}

impl Refusal {
    fn read(body: &[u8]) -> Refusal {
        serde_json::from_slice(body).unwrap_or_default()
    }
    fn say(&self) -> &str {
        if self.detail.is_empty() {
            &self.message
        } else {
            &self.detail
        }
    }
}

/// The track endpoint's answer.
#[derive(Deserialize)]
struct TrackAnswer {
    #[serde(default)]
    response: Option<TrackResponse>,
    #[serde(default, deserialize_with = "text")]
    message: String,
    #[serde(default)]
    status: bool,
}

#[derive(Deserialize)]
struct TrackResponse {
    #[serde(default)]
    items: Option<std::collections::HashMap<String, Vec<Item>>>,
}

/// The webhook's body.
#[derive(Deserialize)]
struct HookBody {
    #[serde(default)]
    status: bool,
    #[serde(default, deserialize_with = "text")]
    message: String,
    #[serde(default)]
    items: Vec<Item>,
}

/// One status of one parcel, as both the track answer and the webhook give it.
#[derive(Deserialize)]
struct Item {
    #[serde(default, deserialize_with = "text")]
    barcode: String,
    #[serde(default, deserialize_with = "text")]
    status: String,
    #[serde(default, deserialize_with = "text")]
    status_description: String,
    #[serde(default, deserialize_with = "text")]
    status_date: String,
    #[serde(default, deserialize_with = "text")]
    location: String,
    #[serde(default, deserialize_with = "text")]
    postcode: String,
}

impl Item {
    fn event(self, barcode: &str) -> Result<TrackingEvent, CarrierError> {
        let at_ms = parse_date(&self.status_date).ok_or_else(|| {
            CarrierError::Malformed(format!("thaipost: unreadable status_date {:?}", super::clip(&self.status_date)))
        })?;
        let barcode =
            if self.barcode.trim().is_empty() { barcode.to_string() } else { self.barcode.trim().to_string() };
        Ok(TrackingEvent {
            carrier: THAIPOST.into(),
            barcode,
            progress: progress(&self.status),
            status: self.status,
            description: self.status_description,
            location: self.location,
            postcode: self.postcode,
            at_ms,
        })
    }
}

/// A text field that may come as a string, a number or null.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => s,
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    })
}

impl ThaiPost {
    /// The API at `base_url` (`https://trackapi.thailandpost.co.th`) with a store's key.
    pub fn new(http: reqwest::Client, base_url: impl Into<String>, api_key: Secret) -> Self {
        ThaiPost { http, base_url: base_url.into(), api_key, token: Arc::new(Mutex::new(None)) }
    }

    /// A token: the kept one while it is good, else a new one. Callers at the same moment
    /// share one request.
    pub async fn token(&self) -> Result<Secret, CarrierError> {
        let mut kept = self.token.lock().await;
        if let Some(t) = kept.as_ref().filter(|t| bo_kit::time::now_ms() < t.renew_at_ms) {
            return Ok(t.value.clone());
        }
        let fresh = self.fetch_token().await?;
        let value = fresh.value.clone();
        *kept = Some(fresh);
        Ok(value)
    }

    /// Ok when the key buys a token (the e-parcel settings screen shows whether it works).
    /// Always asks the API.
    pub async fn validate_key(&self) -> Result<(), CarrierError> {
        let mut kept = self.token.lock().await;
        *kept = Some(self.fetch_token().await?);
        Ok(())
    }

    /// Forgets `used` if it is still the kept token (the API refused it before its time).
    async fn forget(&self, used: &Secret) {
        let mut kept = self.token.lock().await;
        if kept.as_ref().is_some_and(|t| t.value.expose() == used.expose()) {
            *kept = None;
        }
    }

    async fn fetch_token(&self) -> Result<Token, CarrierError> {
        if self.api_key.is_empty() {
            return Err(CarrierError::Auth("thaipost: no API key".into()));
        }
        let url = super::url(THAIPOST, &self.base_url, &["post", "api", "v1", "authenticate", "token"])?;
        let req = self
            .http
            .post(url)
            .header(AUTHORIZATION, authorization(&self.api_key)?)
            .header(CONTENT_TYPE, "application/json");
        let res = send(THAIPOST, req).await?;
        let status = res.status();
        if let Some(e) = server_trouble(THAIPOST, status) {
            return Err(e);
        }
        let body = read_bounded(THAIPOST, res, ANSWER_MAX_BYTES).await?;
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            let why = Refusal::read(&body);
            tracing::warn!(carrier = THAIPOST, %status, "the API key was refused");
            return Err(CarrierError::Auth(format!("thaipost: {status}: {}", super::clip(why.say()))));
        }
        if !status.is_success() {
            return Err(CarrierError::rejected(status.as_u16().to_string(), Refusal::read(&body).say()));
        }
        let answer: TokenAnswer = serde_json::from_slice(&body)
            .map_err(|e| CarrierError::Malformed(format!("thaipost: token answer: {e}")))?;
        if answer.token.trim().is_empty() {
            return Err(CarrierError::Malformed("thaipost: token answer without a token".into()));
        }
        // A token whose expiry cannot be read, or that expires within the margin, serves
        // this call only.
        let renew_at_ms = match parse_date(&answer.expire) {
            Some(expire) => expire - RENEW_BEFORE_MS,
            None => {
                tracing::warn!(carrier = THAIPOST, expire = %answer.expire, "unreadable token expiry");
                i64::MIN
            }
        };
        Ok(Token { value: Secret::new(answer.token.trim()), renew_at_ms })
    }

    /// One track call of at most [`MAX_BARCODES`]; a refused token is renewed once.
    async fn track_some(&self, barcodes: &[String]) -> Result<Vec<TrackingEvent>, CarrierError> {
        let url = super::url(THAIPOST, &self.base_url, &["post", "api", "v1", "track"])?;
        let body = serde_json::json!({ "status": "all", "language": "TH", "barcode": barcodes });
        let mut renewed = false;
        loop {
            let token = self.token().await?;
            let req = self
                .http
                .post(url.clone())
                .header(AUTHORIZATION, authorization(&token)?)
                .header(CONTENT_TYPE, "application/json")
                .body(body.to_string());
            let res = send(THAIPOST, req).await?;
            let status = res.status();
            if let Some(e) = server_trouble(THAIPOST, status) {
                return Err(e);
            }
            let answer = read_bounded(THAIPOST, res, ANSWER_MAX_BYTES).await?;
            if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                if !renewed {
                    self.forget(&token).await;
                    renewed = true;
                    continue;
                }
                let why = Refusal::read(&answer);
                return Err(CarrierError::Auth(format!("thaipost: {status}: {}", super::clip(why.say()))));
            }
            return read_track(status, &answer, barcodes);
        }
    }
}

/// `Token <value>`, marked sensitive so no header dump shows it.
fn authorization(secret: &Secret) -> Result<HeaderValue, CarrierError> {
    let mut v = HeaderValue::from_str(&format!("Token {}", secret.expose().trim()))
        .map_err(|_| CarrierError::Auth("thaipost: the key holds characters a header cannot carry".into()))?;
    v.set_sensitive(true);
    Ok(v)
}

/// A track answer's events for `barcodes`, each parcel's oldest first.
fn read_track(status: StatusCode, body: &[u8], barcodes: &[String]) -> Result<Vec<TrackingEvent>, CarrierError> {
    let code = status.as_u16().to_string();
    let answer: TrackAnswer = match serde_json::from_slice(body) {
        Ok(a) => a,
        Err(_) if !status.is_success() => return Err(CarrierError::rejected(code, Refusal::read(body).say())),
        Err(e) => return Err(CarrierError::Malformed(format!("thaipost: track answer: {e}"))),
    };
    if !status.is_success() || !answer.status {
        return Err(CarrierError::rejected(code, &answer.message));
    }
    let mut items = answer
        .response
        .and_then(|r| r.items)
        .ok_or_else(|| CarrierError::Malformed("thaipost: track answer without items".into()))?;
    let mut events = Vec::new();
    for barcode in barcodes {
        let mut mine = items
            .remove(barcode)
            .unwrap_or_default()
            .into_iter()
            .map(|i| i.event(barcode))
            .collect::<Result<Vec<_>, _>>()?;
        mine.sort_by_key(|e| e.at_ms);
        events.extend(mine);
    }
    Ok(events)
}

#[async_trait]
impl Tracker for ThaiPost {
    /// Asks [`MAX_BARCODES`] at a time, one call after another (the API counts calls).
    async fn track(&self, barcodes: &[String]) -> Result<Vec<TrackingEvent>, CarrierError> {
        let barcodes = super::distinct(barcodes);
        let mut events = Vec::new();
        for some in barcodes.chunks(MAX_BARCODES) {
            events.extend(self.track_some(some).await?);
        }
        Ok(events)
    }
}

/// How far ahead of our clock a pushed status may be dated: a parcel's latest status is the
/// newest one, so a status dated in the future would hide every real one until then.
pub const WEBHOOK_MAX_AHEAD_MS: i64 = 24 * 3600 * 1000;

/// The events of a webhook push received at `now_ms`, oldest first. At most
/// [`WEBHOOK_MAX_BYTES`] and [`WEBHOOK_MAX_ITEMS`], none dated more than
/// [`WEBHOOK_MAX_AHEAD_MS`] ahead; an unreadable push is `Malformed`, a push saying
/// `status: false` is `Rejected`.
pub fn parse_webhook(body: &[u8], now_ms: i64) -> Result<Vec<TrackingEvent>, CarrierError> {
    if body.len() > WEBHOOK_MAX_BYTES {
        return Err(CarrierError::Malformed(format!("thaipost: webhook body over {WEBHOOK_MAX_BYTES} bytes")));
    }
    let hook: HookBody =
        serde_json::from_slice(body).map_err(|e| CarrierError::Malformed(format!("thaipost: webhook: {e}")))?;
    if !hook.status {
        return Err(CarrierError::rejected("webhook", &hook.message));
    }
    if hook.items.len() > WEBHOOK_MAX_ITEMS {
        return Err(CarrierError::Malformed(format!("thaipost: webhook over {WEBHOOK_MAX_ITEMS} items")));
    }
    let mut events = hook.items.into_iter().map(|i| i.event("")).collect::<Result<Vec<_>, _>>()?;
    if let Some(e) = events.iter().find(|e| e.barcode.is_empty()) {
        return Err(CarrierError::Malformed(format!("thaipost: webhook item without a barcode (status {})", e.status)));
    }
    if let Some(e) = events.iter().find(|e| e.at_ms > now_ms + WEBHOOK_MAX_AHEAD_MS) {
        return Err(CarrierError::Malformed(format!("thaipost: webhook status dated ahead ({} ms)", e.at_ms - now_ms)));
    }
    events.sort_by_key(|e| e.at_ms);
    Ok(events)
}

/// What a Thailand Post status code means:
///
/// | code | meaning | progress |
/// |---|---|---|
/// | 101 | preparing to post (details sent) | awaiting |
/// | 102, 103 | accepted through an agent, accepted | accepted |
/// | 104 | withdrawn by the sender, acceptance cancelled | cancelled |
/// | 203 | returning to the sender | returning |
/// | 209, 210 | export, import cancelled | exception |
/// | other 2xx | in transit, customs, exchange offices, airlines | in transit |
/// | 301, 302, 303 | out for delivery, at the pickup point, contacting the receiver | out for delivery |
/// | 304, 401, 402 | receiver unreachable, delivery failed, notice left at the office | attempted |
/// | 501 | delivered | delivered |
/// | 901 | COD paid to the seller (after delivery) | delivered |
/// | anything else | | unknown |
pub fn progress(status: &str) -> Progress {
    let Ok(code) = status.trim().parse::<u16>() else {
        return Progress::Unknown;
    };
    match code {
        101 => Progress::Awaiting,
        102 | 103 => Progress::Accepted,
        104 => Progress::Cancelled,
        203 => Progress::Returning,
        209 | 210 => Progress::Exception,
        200..=299 => Progress::InTransit,
        301..=303 => Progress::OutForDelivery,
        304 | 401 | 402 => Progress::Attempted,
        501 | 901 => Progress::Delivered,
        _ => Progress::Unknown,
    }
}

/// A Thailand Post date as UTC unix milliseconds: `19/07/2566 18:12:26+07:00` (day first,
/// Buddhist era) or `2026-12-25 10:00:00+07:00` (year first); seconds may have a fraction,
/// the separator may be `T`, the offset may be `Z`, `+0700` or absent (Bangkok). Years from
/// 2400 are Buddhist-era years (the API answers in the common era when asked in English).
/// `None` when it is not a real moment.
pub fn parse_date(s: &str) -> Option<i64> {
    let s = s.trim();
    let (date, rest) = s.split_once([' ', 'T'])?;
    let (year, month, day) = match date.split(['/', '-']).collect::<Vec<_>>()[..] {
        [d, m, y] if date.contains('/') && y.len() == 4 => (y, m, d),
        [y, m, d] if date.contains('-') && y.len() == 4 => (y, m, d),
        _ => return None,
    };
    let mut year: i32 = digits(year)?;
    if year >= BUDDHIST_ERA_FROM {
        year -= BUDDHIST_ERA_OFFSET;
    }
    // The time runs to the offset's sign or Z.
    let cut = rest.find(['+', '-', 'Z']).unwrap_or(rest.len());
    let (clock, offset) = rest.split_at(cut);
    let offset_s = match offset {
        "" => BANGKOK_S,
        "Z" => 0,
        o => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let hm = o[1..].replace(':', "");
            if hm.len() != 4 {
                return None;
            }
            let (h, m): (i32, i32) = (digits(&hm[..2])?, digits(&hm[2..])?);
            if m >= 60 {
                return None;
            }
            sign * (h * 3600 + m * 60)
        }
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let [h, mi, sec] = hms.split(':').collect::<Vec<_>>()[..] else {
        return None;
    };
    let milli = if fraction.is_empty() {
        0
    } else {
        let f = fraction.get(..3.min(fraction.len()))?;
        let _: u32 = digits(fraction)?;
        digits::<u16>(f)? * 10u16.pow(3 - f.len() as u32)
    };
    unix_ms(year, digits(month)?, digits(day)?, (digits(h)?, digits(mi)?, digits(sec)?, milli), offset_s)
}

/// A field of 1 to 9 ASCII digits (no sign, no space).
fn digits<T: std::str::FromStr>(s: &str) -> Option<T> {
    (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: i64 = 1_689_765_146_000; // 2023-07-19 11:12:26 UTC

    #[test]
    fn buddhist_era_dates_at_bangkok_offset() {
        assert_eq!(parse_date("19/07/2566 18:12:26+07:00"), Some(AT));
        assert_eq!(parse_date("19/07/2023 18:12:26+07:00"), Some(AT), "English answers are in the common era");
        assert_eq!(parse_date("19/07/2566 18:12:26"), Some(AT), "Bangkok when no offset");
        assert_eq!(parse_date("19/07/2566 11:12:26Z"), Some(AT));
        assert_eq!(parse_date("19/07/2566 18:12:26.250+0700"), Some(AT + 250));
        // 29 February 2567 BE is 2024, a leap year (2567 itself is not one).
        assert_eq!(parse_date("29/02/2567 07:00:00+07:00"), Some(1_709_164_800_000));
        assert_eq!(parse_date("29/02/2566 07:00:00+07:00"), None, "2023 has no 29 February");
        // Just after midnight in Bangkok is still the day before in UTC.
        assert_eq!(parse_date("01/01/2567 00:30:00+07:00"), Some(1_704_043_800_000));
        for bad in ["", "19/07/2566", "2566/07/19 18:12:26", "19/13/2566 18:12:26", "19/07/2566 18:12", "x"] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn token_expiries() {
        assert_eq!(parse_date("2026-12-25 10:00:00+07:00"), Some(1_798_167_600_000));
        assert_eq!(parse_date("2026-12-25T03:00:00Z"), Some(1_798_167_600_000));
        assert_eq!(parse_date("2026-12-25 10:00:00.123456+07:00"), Some(1_798_167_600_123));
    }

    #[test]
    fn status_codes() {
        let cases = [
            ("101", Progress::Awaiting),
            ("103", Progress::Accepted),
            ("104", Progress::Cancelled),
            ("201", Progress::InTransit),
            ("212", Progress::InTransit),
            ("203", Progress::Returning),
            ("209", Progress::Exception),
            ("301", Progress::OutForDelivery),
            ("302", Progress::OutForDelivery),
            ("401", Progress::Attempted),
            ("501", Progress::Delivered),
            ("901", Progress::Delivered),
            ("999", Progress::Unknown),
            ("", Progress::Unknown),
        ];
        for (code, p) in cases {
            assert_eq!(progress(code), p, "{code}");
        }
        assert_eq!(progress("501").shipment_state(), Some("shipped"));
        assert_eq!(progress("104").shipment_state(), Some("cancelled"));
        assert_eq!(progress("101").shipment_state(), None);
    }

    #[test]
    fn debug_hides_the_key() {
        let t = ThaiPost::new(reqwest::Client::new(), "http://x", Secret::new("K3Y&secret|value"));
        let shown = format!("{t:?}");
        assert!(!shown.contains("K3Y&secret|value"), "{shown}");
        assert!(shown.contains("redacted"), "{shown}");
    }
}
