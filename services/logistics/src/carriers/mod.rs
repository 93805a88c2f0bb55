//! Carrier adapters: Thailand Post's tracking API (`thaipost`) and Flash Express's open API
//! (`flash`), over HTTP with a bounded time and bounded answers.
//!
//! Every failure is one of four [`CarrierError`]s, whatever the carrier: it could not be
//! reached, it refused our credentials, it refused the request itself, or it answered
//! something we cannot read. Keys, tokens and signing keys are kept as [`Secret`]s, so no
//! `Debug`, log line or error ever shows them.
//!
//! What a carrier says about a parcel becomes [`TrackingEvent`]s, oldest first, each with its
//! [`Progress`], which says what it means for our shipment (see [`Progress::shipment_state`]).

pub mod flash;
pub mod thaipost;

use std::time::Duration;

use async_trait::async_trait;
pub use bo_kit::config::Secret;
use bo_kit::error::Kind;
use serde::{Deserialize, Serialize};

pub use flash::Flash;
pub use thaipost::ThaiPost;

/// Thailand Post's carrier code (as in the catalogue, `domain::CATALOGUE`).
pub const THAIPOST: &str = "thaipost";
/// Flash Express's carrier code.
pub const FLASH: &str = "flash";

/// Our shipment state once the carrier holds the parcel.
pub const SHIPMENT_SHIPPED: &str = "shipped";
/// Our shipment state once the carrier has cancelled the parcel.
pub const SHIPMENT_CANCELLED: &str = "cancelled";

/// The longest carrier message kept in an error, in characters.
const MESSAGE_MAX: usize = 200;

/// Message keys of carrier failures.
pub mod code {
    /// The carrier could not be reached (network, timeout, its own failure).
    pub const UNREACHABLE: bo_kit::Code = bo_kit::Code::CarrierUnreachable;
    /// The carrier refused our key, token or signature.
    pub const AUTH_FAILED: bo_kit::Code = bo_kit::Code::CarrierAuthFailed;
    /// The carrier refused the request.
    pub const REJECTED: bo_kit::Code = bo_kit::Code::CarrierRejected;
    /// The carrier answered something we cannot read.
    pub const BAD_ANSWER: bo_kit::Code = bo_kit::Code::CarrierBadAnswer;
}

/// What went wrong talking to a carrier. The texts are for logs: they hold the carrier's
/// words and HTTP statuses, never a key, a token or a request body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CarrierError {
    /// A network error, a timeout, or the carrier's own failure (5xx, 429).
    #[error("carrier unreachable: {0}")]
    Unreachable(String),
    /// The carrier refused our key, token or signature.
    #[error("carrier refused the credentials: {0}")]
    Auth(String),
    /// The carrier refused the request: its own code and message.
    #[error("carrier refused the request ({code}): {message}")]
    Rejected {
        /// The carrier's code (Flash's `code`, Thailand Post's HTTP status).
        code: String,
        /// The carrier's message, kept for the logs.
        message: String,
    },
    /// An answer we cannot read.
    #[error("carrier answer unreadable: {0}")]
    Malformed(String),
}

impl CarrierError {
    /// The stable code the app translates.
    pub fn code(&self) -> bo_kit::Code {
        match self {
            CarrierError::Unreachable(_) => code::UNREACHABLE,
            CarrierError::Auth(_) => code::AUTH_FAILED,
            CarrierError::Rejected { .. } => code::REJECTED,
            CarrierError::Malformed(_) => code::BAD_ANSWER,
        }
    }

    /// A refusal of the carrier, its message cut to a loggable length.
    pub(crate) fn rejected(code: impl Into<String>, message: &str) -> Self {
        CarrierError::Rejected { code: code.into(), message: clip(message) }
    }

    /// What a failed request or body read means: a timeout or a network error.
    pub(crate) fn from_http(carrier: &str, e: &reqwest::Error) -> Self {
        CarrierError::Unreachable(clip(&bo_kit::outbound::describe(carrier, e)))
    }
}

/// Unavailable for an unreachable carrier; a failed precondition (the store's account or
/// the parcel's details need attention) for refusals; internal for unreadable answers.
impl From<CarrierError> for bo_kit::Error {
    fn from(e: CarrierError) -> Self {
        let kind = match e {
            CarrierError::Unreachable(_) => Kind::Unavailable,
            CarrierError::Auth(_) | CarrierError::Rejected { .. } => Kind::FailedPrecondition,
            // The carrier answered, but nothing we can read: like a carrier down, worth a retry, and
            // the app says which.
            CarrierError::Malformed(_) => Kind::Unavailable,
        };
        let mut err = bo_kit::Error::new(kind, e.code());
        err.source = Some(anyhow::Error::new(e));
        err
    }
}

/// Cuts a carrier's text to [`MESSAGE_MAX`] characters.
pub(crate) fn clip(s: &str) -> String {
    bo_kit::outbound::clip(s, MESSAGE_MAX)
}

/// Where a parcel is, in words common to every carrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Progress {
    /// The carrier knows of the parcel but does not hold it yet.
    Awaiting,
    /// The carrier has taken the parcel.
    Accepted,
    /// On its way between the carrier's offices.
    InTransit,
    /// With the courier, or at a pickup point, for the receiver.
    OutForDelivery,
    /// A delivery failed; the carrier will try again or hold it.
    Attempted,
    /// The receiver has it.
    Delivered,
    /// Held by a problem the carrier is handling.
    Exception,
    /// On its way back to the sender.
    Returning,
    /// Back with the sender.
    Returned,
    /// Cancelled before the carrier took it.
    Cancelled,
    /// A code we do not know.
    Unknown,
}

impl Progress {
    /// What the event means for our shipment (SPEC: pending, shipped, cancelled, grouped,
    /// picked, packed), or `None` when it changes nothing:
    ///
    /// | progress | shipment |
    /// |---|---|
    /// | awaiting | none: the parcel is still ours, in whatever warehouse state (pending, grouped, picked, packed) |
    /// | accepted, in transit, out for delivery, attempted, delivered, exception, returning, returned | `shipped` |
    /// | cancelled | `cancelled` |
    /// | unknown | none |
    ///
    /// Delivery, failed attempts and returns do not change the shipment (it has left us);
    /// they are what the order's own follow-up (COD, failure) reads from [`Progress`].
    pub fn shipment_state(self) -> Option<&'static str> {
        match self {
            Progress::Awaiting | Progress::Unknown => None,
            Progress::Accepted
            | Progress::InTransit
            | Progress::OutForDelivery
            | Progress::Attempted
            | Progress::Delivered
            | Progress::Exception
            | Progress::Returning
            | Progress::Returned => Some(SHIPMENT_SHIPPED),
            Progress::Cancelled => Some(SHIPMENT_CANCELLED),
        }
    }

    /// True when nothing more will happen to the parcel.
    pub fn is_final(self) -> bool {
        matches!(self, Progress::Delivered | Progress::Returned | Progress::Cancelled)
    }
}

/// One thing a carrier reports about a parcel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackingEvent {
    /// The carrier ([`THAIPOST`] or [`FLASH`]).
    pub carrier: String,
    /// The tracking number.
    pub barcode: String,
    /// The carrier's own status code, as text (`"501"`, `"5"`).
    pub status: String,
    /// What the status means in the carrier's words.
    pub description: String,
    /// Where it happened (an office's name), when the carrier says.
    pub location: String,
    /// The postcode of that place, when the carrier says.
    pub postcode: String,
    /// When, in UTC unix milliseconds.
    pub at_ms: i64,
    /// What the status means, in our words.
    pub progress: Progress,
}

impl TrackingEvent {
    /// What the event means for our shipment ([`Progress::shipment_state`]).
    pub fn shipment_state(&self) -> Option<&'static str> {
        self.progress.shipment_state()
    }
}

/// A carrier that answers where parcels are.
#[async_trait]
pub trait Tracker: Send + Sync {
    /// The events of each parcel, oldest first, parcels in the order asked (a repeated
    /// barcode is asked once). A parcel the carrier does not know has no events.
    async fn track(&self, barcodes: &[String]) -> Result<Vec<TrackingEvent>, CarrierError>;
}

/// An address as a carrier takes it (Thai addresses: province, district, sub-district).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// The person's or shop's name.
    pub name: String,
    /// Phone number.
    pub phone: String,
    /// Province (จังหวัด).
    pub province: String,
    /// District (อำเภอ / เขต).
    pub district: String,
    /// Sub-district (ตำบล / แขวง).
    pub sub_district: String,
    /// Five-digit postcode.
    pub postcode: String,
    /// House number, street, building.
    pub detail: String,
}

/// A parcel to hand to a carrier.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewShipment {
    /// Our reference, unique per parcel: the carrier keeps one order per reference, so a
    /// retry never makes a second parcel.
    pub reference: String,
    /// Who sends it (the warehouse).
    pub sender: Address,
    /// Who receives it.
    pub receiver: Address,
    /// Weight, grams.
    pub weight_g: i64,
    /// Cash to collect on delivery, satang; `None` without COD.
    pub cod_satang: Option<i64>,
}

/// A parcel a carrier has taken.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedShipment {
    /// The tracking number.
    pub tracking_no: String,
    /// The carrier's sorting code, printed on the label.
    pub sort_code: String,
    /// The carrier's destination branch.
    pub destination_store: String,
}

/// Where the carriers are and how long we wait for them (`services.logistics.carriers`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CarrierConfig {
    /// Thailand Post's tracking API.
    pub thaipost_base_url: String,
    /// Flash Express's open API.
    pub flash_base_url: String,
    /// The longest a request may take, connection included, in milliseconds.
    pub timeout_ms: u64,
}

/// Default request time limit, milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 15_000;

impl Default for CarrierConfig {
    fn default() -> Self {
        CarrierConfig {
            thaipost_base_url: "https://trackapi.thailandpost.co.th".into(),
            flash_base_url: "https://open-api.flashexpress.com".into(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }
}

impl CarrierConfig {
    /// The request time limit.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(if self.timeout_ms == 0 { DEFAULT_TIMEOUT_MS } else { self.timeout_ms })
    }
}

/// The HTTP client every adapter shares ([`bo_kit::outbound::client`] with the configured
/// time limit).
pub fn http_client(config: &CarrierConfig) -> anyhow::Result<reqwest::Client> {
    Ok(bo_kit::outbound::client(config.timeout())?)
}

/// `base` joined with path segments, each escaped (a tracking number cannot reach another
/// path).
pub(crate) fn url(carrier: &str, base: &str, segments: &[&str]) -> Result<reqwest::Url, CarrierError> {
    bo_kit::outbound::join(base, segments)
        .ok_or_else(|| CarrierError::Unreachable(format!("{carrier}: base URL {base:?} is not a URL")))
}

/// An answer's body, refused past `limit` bytes.
pub(crate) async fn read_bounded(
    carrier: &str,
    res: reqwest::Response,
    limit: usize,
) -> Result<bytes::Bytes, CarrierError> {
    bo_kit::outbound::read_bounded(carrier, res, limit).await.map_err(|e| match e {
        bo_kit::outbound::Unread::Transport(why) => CarrierError::Unreachable(clip(&why)),
        bo_kit::outbound::Unread::TooBig(limit) => {
            CarrierError::Malformed(format!("{carrier}: answer over {limit} bytes"))
        }
    })
}

/// Sends a request, mapping transport failures.
pub(crate) async fn send(carrier: &str, req: reqwest::RequestBuilder) -> Result<reqwest::Response, CarrierError> {
    req.send().await.map_err(|e| {
        let err = CarrierError::from_http(carrier, &e);
        tracing::warn!(carrier, error = %err, "carrier request failed");
        err
    })
}

/// The failure a carrier's own trouble means: 5xx and 429 (try later).
pub(crate) fn server_trouble(carrier: &str, status: reqwest::StatusCode) -> Option<CarrierError> {
    bo_kit::outbound::is_their_trouble(status).then(|| {
        tracing::warn!(carrier, %status, "carrier answered with a failure");
        CarrierError::Unreachable(format!("{carrier}: answered {status}"))
    })
}

/// `barcodes` trimmed, without empties and repeats, in their order.
pub(crate) fn distinct(barcodes: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    barcodes.iter().map(|b| b.trim()).filter(|b| !b.is_empty() && seen.insert(*b)).map(str::to_string).collect()
}

/// A date and time of day at a UTC offset, as UTC unix milliseconds; `None` when it is not
/// a real date (a 30 February, a 25th hour).
pub(crate) fn unix_ms(
    year: i32,
    month: u8,
    day: u8,
    (hour, minute, second, milli): (u8, u8, u8, u16),
    offset_s: i32,
) -> Option<i64> {
    let month = time::Month::try_from(month).ok()?;
    let date = time::Date::from_calendar_date(year, month, day).ok()?;
    let at = time::Time::from_hms_milli(hour, minute, second, milli).ok()?;
    let offset = time::UtcOffset::from_whole_seconds(offset_s).ok()?;
    let t = time::PrimitiveDateTime::new(date, at).assume_offset(offset);
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipment_table() {
        use Progress::*;
        for p in [Awaiting, Unknown] {
            assert_eq!(p.shipment_state(), None, "{p:?}");
        }
        for p in [Accepted, InTransit, OutForDelivery, Attempted, Delivered, Exception, Returning, Returned] {
            assert_eq!(p.shipment_state(), Some("shipped"), "{p:?}");
        }
        assert_eq!(Cancelled.shipment_state(), Some("cancelled"));
        assert!(Delivered.is_final() && Returned.is_final() && Cancelled.is_final());
        assert!(!Attempted.is_final() && !Returning.is_final());
    }

    #[test]
    fn errors_have_stable_codes_and_kinds() {
        let cases = [
            (CarrierError::Unreachable("x".into()), bo_kit::Code::CarrierUnreachable, Kind::Unavailable),
            (CarrierError::Auth("x".into()), bo_kit::Code::CarrierAuthFailed, Kind::FailedPrecondition),
            (
                CarrierError::rejected("1001", "dstPhone is required"),
                bo_kit::Code::CarrierRejected,
                Kind::FailedPrecondition,
            ),
            (CarrierError::Malformed("x".into()), bo_kit::Code::CarrierBadAnswer, Kind::Unavailable),
        ];
        for (e, code, kind) in cases {
            assert_eq!(e.code(), code);
            let k = bo_kit::Error::from(e);
            assert_eq!((k.kind, k.code), (kind, code));
            assert!(k.source.is_some(), "the carrier's words stay for the logs");
        }
    }

    #[test]
    fn carrier_texts_are_clipped() {
        let long = "ก".repeat(500);
        let CarrierError::Rejected { message, .. } = CarrierError::rejected("1", &long) else { unreachable!() };
        assert_eq!(message.chars().count(), MESSAGE_MAX + 1);
    }

    #[test]
    fn config_defaults_to_production() {
        let c: CarrierConfig = serde_json::from_str("{}").unwrap();
        assert_eq!(c.thaipost_base_url, "https://trackapi.thailandpost.co.th");
        assert_eq!(c.flash_base_url, "https://open-api.flashexpress.com");
        assert_eq!(c.timeout(), Duration::from_secs(15));
        let c: CarrierConfig = serde_json::from_str(r#"{"timeout_ms": 0}"#).unwrap();
        assert_eq!(c.timeout(), Duration::from_secs(15));
    }

    #[test]
    fn urls_escape_their_segments() {
        let u = url("flash", "http://h:1/api/", &["open", "v1", "orders", "TH1/../x?y", "cancel"]).unwrap();
        assert_eq!(u.as_str(), "http://h:1/api/open/v1/orders/TH1%2F..%2Fx%3Fy/cancel");
        assert!(matches!(url("flash", "not a url", &["x"]), Err(CarrierError::Unreachable(_))));
    }

    #[test]
    fn barcodes_are_asked_once() {
        let b = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(distinct(&b(&[" A ", "B", "A", "", "C"])), b(&["A", "B", "C"]));
    }

    #[test]
    fn unix_ms_refuses_unreal_dates() {
        assert_eq!(unix_ms(2023, 7, 19, (18, 12, 26, 0), 7 * 3600), Some(1_689_765_146_000));
        assert_eq!(unix_ms(2023, 2, 29, (0, 0, 0, 0), 0), None);
        assert_eq!(unix_ms(2023, 2, 1, (24, 0, 0, 0), 0), None);
    }
}
