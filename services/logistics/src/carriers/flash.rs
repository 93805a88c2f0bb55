//! Flash Express's open API (`open-api.flashexpress.com`).
//!
//! Every call is a form POST carrying the merchant (`mchId`), a random `nonceStr` and a
//! `sign` over the other fields ([`sign`]). Answers are `{"code":1,"message":"success",
//! "data":...}`; any other code is a refusal, `1002` being a bad signature (a wrong key or
//! merchant). Money is in satang and weight in grams, as Flash takes them.

use std::collections::BTreeMap;
use std::fmt;

use async_trait::async_trait;
use bo_kit::config::Secret;
use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use reqwest::header::CONTENT_TYPE;
use reqwest::StatusCode;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{
    read_bounded, send, server_trouble, CarrierError, CreatedShipment, NewShipment, Progress, Tracker, TrackingEvent,
    FLASH,
};

/// The largest label we take, bytes.
pub const LABEL_MAX_BYTES: usize = 5 * 1024 * 1024;
/// The largest JSON answer we read, bytes.
const ANSWER_MAX_BYTES: usize = 1024 * 1024;
/// Flash's code for success.
const OK: i64 = 1;
/// Flash's code for a signature it does not accept.
pub const SIGN_ERROR: i64 = 1002;
/// Standard delivery.
const EXPRESS_CATEGORY: &str = "1";
/// Article category "others".
const ARTICLE_OTHERS: &str = "99";
/// Parcels asked about at once when tracking.
const TRACK_CONCURRENCY: usize = 4;

/// Flash Express for one merchant. Clones share the HTTP client.
#[derive(Clone)]
pub struct Flash {
    http: reqwest::Client,
    base_url: String,
    mch_id: String,
    key: Secret,
}

impl fmt::Debug for Flash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flash")
            .field("base_url", &self.base_url)
            .field("mch_id", &self.mch_id)
            .field("key", &self.key)
            .finish()
    }
}

/// The signature of a call: every parameter but `sign` with a value, sorted by name (bytes,
/// as ASCII), joined as `k=v` with `&`, then `&key=<secret>`, hashed with SHA-256 and
/// written in upper-case hex.
pub fn sign<'a>(params: impl IntoIterator<Item = (&'a str, &'a str)>, key: &Secret) -> String {
    let sorted: BTreeMap<&str, &str> = params.into_iter().filter(|(k, v)| *k != "sign" && !v.is_empty()).collect();
    let mut text = sorted.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    text.push_str("&key=");
    text.push_str(key.expose());
    hex::encode_upper(Sha256::digest(text.as_bytes()))
}

/// Flash's envelope.
#[derive(Deserialize)]
struct Envelope {
    code: serde_json::Value,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    data: serde_json::Value,
}

/// `data` of a created order.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Created {
    #[serde(default)]
    pno: String,
    #[serde(default)]
    sort_code: Option<String>,
    #[serde(default)]
    dst_store_name: Option<String>,
}

/// `data` of a parcel's routes.
#[derive(Deserialize)]
struct Routes {
    #[serde(default)]
    pno: Option<String>,
    #[serde(default)]
    routes: Option<Vec<Route>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Route {
    routed_at: i64,
    #[serde(default)]
    route_action: Option<String>,
    #[serde(default)]
    message: Option<String>,
    state: i64,
}

impl Flash {
    /// The API at `base_url` (`https://open-api.flashexpress.com`) for the merchant `mch_id`
    /// with its key.
    pub fn new(http: reqwest::Client, base_url: impl Into<String>, mch_id: impl Into<String>, key: Secret) -> Self {
        Flash { http, base_url: base_url.into(), mch_id: mch_id.into(), key }
    }

    /// Hands a parcel to Flash (`POST /open/v3/orders`). The reference is Flash's
    /// `outTradeNo`: asking again with it never makes a second parcel.
    pub async fn create_order(&self, s: &NewShipment) -> Result<CreatedShipment, CarrierError> {
        let weight = s.weight_g.to_string();
        let (cod_enabled, cod_amount) = match s.cod_satang {
            Some(amount) => ("1", amount.to_string()),
            None => ("0", String::new()),
        };
        let (src, dst) = (&s.sender, &s.receiver);
        let params: Vec<(&str, &str)> = vec![
            ("outTradeNo", s.reference.as_str()),
            ("expressCategory", EXPRESS_CATEGORY),
            ("srcName", src.name.as_str()),
            ("srcPhone", src.phone.as_str()),
            ("srcProvinceName", src.province.as_str()),
            ("srcCityName", src.district.as_str()),
            ("srcDistrictName", src.sub_district.as_str()),
            ("srcPostalCode", src.postcode.as_str()),
            ("srcDetailAddress", src.detail.as_str()),
            ("dstName", dst.name.as_str()),
            ("dstPhone", dst.phone.as_str()),
            ("dstProvinceName", dst.province.as_str()),
            ("dstCityName", dst.district.as_str()),
            ("dstDistrictName", dst.sub_district.as_str()),
            ("dstPostalCode", dst.postcode.as_str()),
            ("dstDetailAddress", dst.detail.as_str()),
            ("articleCategory", ARTICLE_OTHERS),
            ("weight", weight.as_str()),
            ("insured", "0"),
            ("codEnabled", cod_enabled),
            ("codAmount", cod_amount.as_str()),
        ];
        let data = self.call(&["open", "v3", "orders"], params).await?;
        let created: Created =
            serde_json::from_value(data).map_err(|e| CarrierError::Malformed(format!("flash: created order: {e}")))?;
        if created.pno.trim().is_empty() {
            return Err(CarrierError::Malformed("flash: created order without a pno".into()));
        }
        Ok(CreatedShipment {
            tracking_no: created.pno.trim().to_string(),
            sort_code: created.sort_code.unwrap_or_default(),
            destination_store: created.dst_store_name.unwrap_or_default(),
        })
    }

    /// Cancels a parcel Flash has not picked up yet (`POST /open/v1/orders/{pno}/cancel`).
    pub async fn cancel(&self, pno: &str) -> Result<(), CarrierError> {
        self.call(&["open", "v1", "orders", pno.trim(), "cancel"], Vec::new()).await.map(|_| ())
    }

    /// A parcel's routes, oldest first (`POST /open/v1/orders/{pno}/routes`).
    pub async fn routes(&self, pno: &str) -> Result<Vec<TrackingEvent>, CarrierError> {
        let pno = pno.trim();
        let data = self.call(&["open", "v1", "orders", pno, "routes"], Vec::new()).await?;
        if data.is_null() {
            return Ok(Vec::new());
        }
        let routes: Routes =
            serde_json::from_value(data).map_err(|e| CarrierError::Malformed(format!("flash: routes: {e}")))?;
        let barcode = routes.pno.filter(|p| !p.trim().is_empty()).unwrap_or_else(|| pno.to_string());
        let mut events = routes
            .routes
            .unwrap_or_default()
            .into_iter()
            .map(|r| TrackingEvent {
                carrier: FLASH.into(),
                barcode: barcode.clone(),
                status: r.state.to_string(),
                description: r.message.or(r.route_action).unwrap_or_default(),
                location: String::new(),
                postcode: String::new(),
                at_ms: r.routed_at.saturating_mul(1000),
                progress: progress(r.state),
            })
            .collect::<Vec<_>>();
        events.sort_by_key(|e| e.at_ms);
        Ok(events)
    }

    /// The parcel's small label, a PDF (`POST /open/v1/orders/{pno}/small/pre_print`), at most
    /// [`LABEL_MAX_BYTES`]. A JSON answer there is a refusal.
    pub async fn label(&self, pno: &str) -> Result<Bytes, CarrierError> {
        let res = self.post(&["open", "v1", "orders", pno.trim(), "small", "pre_print"], Vec::new()).await?;
        let status = res.status();
        if let Some(e) = server_trouble(FLASH, status) {
            return Err(e);
        }
        let pdf = res
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().to_ascii_lowercase().starts_with("application/pdf"));
        if status.is_success() && pdf {
            let body = read_bounded(FLASH, res, LABEL_MAX_BYTES).await?;
            if !body.starts_with(b"%PDF-") {
                return Err(CarrierError::Malformed("flash: label is not a PDF".into()));
            }
            return Ok(body);
        }
        let body = read_bounded(FLASH, res, ANSWER_MAX_BYTES).await?;
        envelope(status, &body)?;
        Err(CarrierError::Malformed("flash: a JSON success where a label was expected".into()))
    }

    /// A signed form POST; the answer as it came.
    async fn post(&self, path: &[&str], params: Vec<(&str, &str)>) -> Result<reqwest::Response, CarrierError> {
        if self.key.is_empty() || self.mch_id.trim().is_empty() {
            return Err(CarrierError::Auth("flash: no merchant id or key".into()));
        }
        let url = super::url(FLASH, &self.base_url, path)?;
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        // Empty fields are not sent: Flash leaves them out of the signature.
        let mut form: Vec<(&str, &str)> = params.into_iter().map(|(k, v)| (k, v.trim())).collect();
        form.push(("mchId", self.mch_id.trim()));
        form.push(("nonceStr", &nonce));
        form.retain(|(_, v)| !v.is_empty());
        let signature = sign(form.iter().copied(), &self.key);
        form.push(("sign", &signature));
        send(FLASH, self.http.post(url).form(&form)).await
    }

    /// A signed call whose answer is Flash's envelope: its `data` on success.
    async fn call(&self, path: &[&str], params: Vec<(&str, &str)>) -> Result<serde_json::Value, CarrierError> {
        let res = self.post(path, params).await?;
        let status = res.status();
        if let Some(e) = server_trouble(FLASH, status) {
            return Err(e);
        }
        let body = read_bounded(FLASH, res, ANSWER_MAX_BYTES).await?;
        envelope(status, &body)
    }
}

/// The `data` of a successful envelope, or what a refusal means.
fn envelope(status: StatusCode, body: &[u8]) -> Result<serde_json::Value, CarrierError> {
    let parsed: Option<Envelope> = serde_json::from_slice(body).ok();
    let code = parsed.as_ref().and_then(|e| match &e.code {
        serde_json::Value::Number(n) => n.as_i64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    });
    let (Some(envelope), Some(code)) = (parsed, code) else {
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            return Err(CarrierError::Auth(format!("flash: {status}")));
        }
        return Err(CarrierError::Malformed(format!("flash: {status}: not Flash's answer")));
    };
    let message = envelope.message.unwrap_or_default();
    match code {
        OK => Ok(envelope.data),
        SIGN_ERROR => {
            tracing::warn!(carrier = FLASH, "the merchant's signature was refused");
            Err(CarrierError::Auth(format!("flash: {code}: {}", super::clip(&message))))
        }
        _ => Err(CarrierError::rejected(code.to_string(), &message)),
    }
}

#[async_trait]
impl Tracker for Flash {
    /// Asks each parcel's routes, a few at a time. A parcel Flash refuses to answer for
    /// (one it does not know) has no events; other failures fail the call.
    async fn track(&self, barcodes: &[String]) -> Result<Vec<TrackingEvent>, CarrierError> {
        let barcodes = super::distinct(barcodes);
        let per_parcel: Vec<Vec<TrackingEvent>> = futures::stream::iter(barcodes)
            .map(|pno| async move {
                match self.routes(&pno).await {
                    Err(CarrierError::Rejected { code, message }) => {
                        tracing::info!(carrier = FLASH, %pno, %code, %message, "no routes for the parcel");
                        Ok(Vec::new())
                    }
                    other => other,
                }
            })
            .buffered(TRACK_CONCURRENCY)
            .try_collect()
            .await?;
        Ok(per_parcel.into_iter().flatten().collect())
    }
}

/// What a Flash parcel state means:
///
/// | state | meaning | progress |
/// |---|---|---|
/// | 0 | created, not picked up | awaiting |
/// | 1 | picked up | accepted |
/// | 2 | in transit | in transit |
/// | 3 | out for delivery | out for delivery |
/// | 4 | held after a failed delivery | attempted |
/// | 5 | signed for | delivered |
/// | 6 | problem being handled | exception |
/// | 7 | returned to the sender | returned |
/// | 8 | closed abnormally | exception |
/// | 9 | cancelled | cancelled |
/// | anything else | | unknown |
pub fn progress(state: i64) -> Progress {
    match state {
        0 => Progress::Awaiting,
        1 => Progress::Accepted,
        2 => Progress::InTransit,
        3 => Progress::OutForDelivery,
        4 => Progress::Attempted,
        5 => Progress::Delivered,
        6 | 8 => Progress::Exception,
        7 => Progress::Returned,
        9 => Progress::Cancelled,
        _ => Progress::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_signature() {
        let params = [("body", "test"), ("mch_id", "5a7bdfd22593414adb72df5f"), ("nonce_str", "yyv6YJP436wCkdpNdghC")];
        let key = Secret::new("dd807a8e18b40153888e5a9864e70080");
        assert_eq!(sign(params, &key), "BF46380E893F6B8F5486D2EDFE265BB8942C6A9BD5C897E34373734CE08B4B67");
        // Order does not matter; empty values and `sign` itself are left out.
        let shuffled = [
            ("nonce_str", "yyv6YJP436wCkdpNdghC"),
            ("sign", "anything"),
            ("empty", ""),
            ("mch_id", "5a7bdfd22593414adb72df5f"),
            ("body", "test"),
        ];
        assert_eq!(sign(shuffled, &key), "BF46380E893F6B8F5486D2EDFE265BB8942C6A9BD5C897E34373734CE08B4B67");
        assert_ne!(sign(params, &Secret::new("another")), sign(params, &key));
    }

    #[test]
    fn names_sort_as_ascii() {
        // Upper case sorts before lower case: `Z=1&a=2`.
        let key = Secret::new("k");
        let expected = hex::encode_upper(Sha256::digest(b"Z=1&a=2&key=k"));
        assert_eq!(sign([("a", "2"), ("Z", "1")], &key), expected);
    }

    #[test]
    fn states() {
        let cases = [
            (0, Progress::Awaiting),
            (1, Progress::Accepted),
            (2, Progress::InTransit),
            (3, Progress::OutForDelivery),
            (4, Progress::Attempted),
            (5, Progress::Delivered),
            (6, Progress::Exception),
            (7, Progress::Returned),
            (8, Progress::Exception),
            (9, Progress::Cancelled),
            (42, Progress::Unknown),
        ];
        for (state, p) in cases {
            assert_eq!(progress(state), p, "{state}");
        }
    }

    #[test]
    fn envelopes() {
        let ok = StatusCode::OK;
        assert_eq!(envelope(ok, br#"{"code":1,"message":"success","data":{"a":1}}"#).unwrap()["a"], 1);
        assert!(matches!(
            envelope(ok, br#"{"code":1002,"message":"sign error","data":null}"#),
            Err(CarrierError::Auth(_))
        ));
        assert_eq!(
            envelope(ok, br#"{"code":"1001","message":"dstPhone is required","data":null}"#),
            Err(CarrierError::Rejected { code: "1001".into(), message: "dstPhone is required".into() })
        );
        assert!(matches!(envelope(ok, b"<html>"), Err(CarrierError::Malformed(_))));
        assert!(matches!(envelope(StatusCode::FORBIDDEN, b"<html>"), Err(CarrierError::Auth(_))));
    }

    #[test]
    fn debug_hides_the_key() {
        let f = Flash::new(reqwest::Client::new(), "http://x", "AA0001", Secret::new("dd807a8e18b4"));
        let shown = format!("{f:?}");
        assert!(!shown.contains("dd807a8e18b4") && shown.contains("AA0001"), "{shown}");
    }
}
