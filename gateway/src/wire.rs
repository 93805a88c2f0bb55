//! The wire (SPEC §7): request bodies in snake_case as JSON or form-encoded (nested keys in
//! bracket form, `items[0][sku_id]`); query keys in kebab-case; snake_case JSON answers;
//! lists as `{data, total, limit, page, pages}`.

use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use bo_kit::Code;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;

/// A request body read from JSON or from a form.
pub struct Body<T>(pub T);

/// The longest text any body field may hold, in characters (a product's long description);
/// fields have tighter rules of their own where they matter (names, codes, reasons).
pub const MAX_TEXT_CHARS: usize = 20_000;
/// The longest value a query parameter may hold, in bytes once decoded (search terms are
/// short; 600 bytes is 200 Thai characters).
pub const MAX_QUERY_VALUE_BYTES: usize = 600;

/// The first string in `v` longer than [`MAX_TEXT_CHARS`], by its path (`items[0].note`).
fn too_long_text(v: &serde_json::Value, path: &str) -> Option<String> {
    match v {
        serde_json::Value::String(s) if s.chars().count() > MAX_TEXT_CHARS => {
            Some(if path.is_empty() { "body".into() } else { path.to_string() })
        }
        serde_json::Value::Array(items) => {
            items.iter().enumerate().find_map(|(i, x)| too_long_text(x, &format!("{path}[{i}]")))
        }
        serde_json::Value::Object(map) => map
            .iter()
            .find_map(|(k, x)| too_long_text(x, &if path.is_empty() { k.clone() } else { format!("{path}.{k}") })),
        _ => None,
    }
}

/// The name of the first `key=value` pair of a query or form whose value decodes to more
/// than `max` bytes.
fn too_long_pair(encoded: &[u8], max: usize) -> Option<String> {
    encoded.split(|b| *b == b'&').find_map(|pair| {
        let (name, value) = match pair.iter().position(|b| *b == b'=') {
            Some(i) => (&pair[..i], &pair[i + 1..]),
            None => (pair, &pair[..0]),
        };
        // Each %XX is one byte once decoded; a stray % (fuzzing found "%%%") counts for none.
        let decoded = value.len().saturating_sub(2 * value.iter().filter(|b| **b == b'%').count());
        (decoded > max).then(|| String::from_utf8_lossy(name).into_owned())
    })
}

/// Reads `bytes` of `content_type` into `T`. Texts longer than [`MAX_TEXT_CHARS`] are
/// refused on their field (`validation.too_long`) before `T` sees them.
pub fn decode_body<T: DeserializeOwned>(content_type: &str, bytes: &[u8]) -> Result<T, ApiError> {
    let ct = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if ct == "application/json" || ct.ends_with("+json") || (ct.is_empty() && bytes.is_empty()) {
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { bytes };
        let unreadable = |e: serde_json::Error| {
            tracing::debug!(error = %e, "unreadable JSON body");
            ApiError::bad_request(Code::InvalidBody)
        };
        // A body shorter than the limit cannot hold a text longer than it: read it directly.
        if bytes.len() <= MAX_TEXT_CHARS {
            return serde_json::from_slice(bytes).map_err(unreadable);
        }
        let value: serde_json::Value = serde_json::from_slice(bytes).map_err(unreadable)?;
        if let Some(field) = too_long_text(&value, "") {
            return Err(ApiError::invalid_field(&field, "validation.too_long"));
        }
        serde_json::from_value(value).map_err(unreadable)
    } else if ct == "application/x-www-form-urlencoded" {
        // A character is at most four bytes.
        if let Some(field) = too_long_pair(bytes, MAX_TEXT_CHARS * 4) {
            return Err(ApiError::invalid_field(&field, "validation.too_long"));
        }
        serde_qs::Config::new(5, false).deserialize_bytes(bytes).map_err(|e| {
            tracing::debug!(error = %e, "unreadable form body");
            ApiError::bad_request(Code::InvalidBody)
        })
    } else {
        Err(ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, Code::UnsupportedMediaType))
    }
}

impl<S, T> FromRequest<S> for Body<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let ct = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|_| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge))?;
        decode_body(&ct, &bytes).map(Body)
    }
}

/// Query parameters (kebab-case keys, declared on `T`).
pub struct Query<T>(pub T);

impl<S, T> FromRequestParts<S> for Query<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let q = parts.uri.query().unwrap_or("");
        if let Some(field) = too_long_pair(q.as_bytes(), MAX_QUERY_VALUE_BYTES) {
            return Err(ApiError::invalid_field(&field, "validation.too_long"));
        }
        serde_qs::Config::new(2, false)
            .deserialize_str(q)
            .map(Query)
            .map_err(|_| ApiError::bad_request(Code::InvalidQuery))
    }
}

/// Path parameters; a non-numeric id is a 400, not a text error.
pub struct Path<T>(pub T);

impl<S, T> FromRequestParts<S> for Path<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Path(p.0))
            .map_err(|_: PathRejection| ApiError::bad_request(Code::InvalidPath))
    }
}

/// Paging query: `page` from 1, `limit` 10 by default, `-1` for all.
#[derive(Debug, Clone, Copy, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page number (clamped to 1..last).
    pub page: Option<i64>,
    /// Page size; -1 means all.
    pub limit: Option<i64>,
}

impl PageQuery {
    /// As a service request.
    pub fn to_proto(self) -> bo_proto::common::v1::PageRequest {
        page_request(self.page, self.limit)
    }
}

/// A page as a service request (page 1 and the default size when absent).
pub fn page_request(page: Option<i64>, limit: Option<i64>) -> bo_proto::common::v1::PageRequest {
    bo_proto::common::v1::PageRequest { page: page.unwrap_or(1), limit: limit.unwrap_or(0) }
}

/// A page of a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct List<T> {
    /// The rows.
    pub data: Vec<T>,
    /// Rows matching.
    pub total: i64,
    /// Page size (-1 for all).
    pub limit: i64,
    /// This page.
    pub page: i64,
    /// Number of pages.
    pub pages: i64,
}

impl<T> List<T> {
    /// Every row at once (`limit` -1, one page).
    pub fn all(data: Vec<T>) -> Self {
        let total = data.len() as i64;
        List { data, total, limit: -1, page: 1, pages: 1 }
    }

    /// A list from rows and the service's paging info.
    pub fn new(data: Vec<T>, page: Option<bo_proto::common::v1::PageInfo>) -> Self {
        let p = page.unwrap_or_default();
        List { data, total: p.total, limit: p.limit, page: p.page.max(1), pages: p.pages.max(1) }
    }
}

/// A big answer (a statement's thousands of matched lines) built and written as JSON on the CPU
/// pool, off the async workers: turning megabytes into JSON takes tens of milliseconds, which
/// every other request, `/healthz` included, would otherwise wait.
pub async fn big_json<T, F>(build: F) -> Result<axum::response::Response, ApiError>
where
    T: Serialize,
    F: FnOnce() -> T + Send + 'static,
{
    let bytes = bo_kit::cpu::run(move || serde_json::to_vec(&build())).await?.map_err(anyhow::Error::from)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], bytes).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Item {
        sku_id: i64,
        quantity: i64,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Order {
        note: String,
        items: Vec<Item>,
        vat_included: Option<bool>,
    }

    #[test]
    fn forms_with_bracket_keys_read_like_json() {
        let form = "note=%E0%B8%AA%E0%B9%88%E0%B8%87+%E0%B8%94%E0%B9%88%E0%B8%A7%E0%B8%99&items%5B0%5D%5Bsku_id%5D=7&items[0][quantity]=2&items[1][sku_id]=8&items[1][quantity]=1&vat_included=true";
        let from_form: Order =
            decode_body("application/x-www-form-urlencoded; charset=UTF-8", form.as_bytes()).unwrap();
        let json =
            r#"{"note":"ส่ง ด่วน","items":[{"sku_id":7,"quantity":2},{"sku_id":8,"quantity":1}],"vat_included":true}"#;
        let from_json: Order = decode_body("application/json", json.as_bytes()).unwrap();
        assert_eq!(from_form, from_json);
        assert_eq!(from_form.note, "ส่ง ด่วน");
    }

    #[test]
    fn other_media_types_are_refused() {
        let e = decode_body::<Order>("text/plain", b"x").unwrap_err();
        assert_eq!(e.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let e = decode_body::<Order>("application/json", b"{nope").unwrap_err();
        assert_eq!(e.code, Code::InvalidBody);
    }

    #[test]
    fn texts_past_the_limit_are_refused_on_their_field() {
        let long = "ก".repeat(MAX_TEXT_CHARS + 1);
        let json = serde_json::json!({"note": "x", "items": [{"sku_id": 1, "quantity": 1, "memo": long}]});
        let e = decode_body::<Order>("application/json", json.to_string().as_bytes()).unwrap_err();
        assert_eq!((e.status, e.fields[0].field.as_str()), (StatusCode::UNPROCESSABLE_ENTITY, "items[0].memo"));
        assert_eq!(e.fields[0].code, "validation.too_long");
        let ok = serde_json::json!({"note": "ก".repeat(MAX_TEXT_CHARS), "items": []});
        assert!(decode_body::<Order>("application/json", ok.to_string().as_bytes()).is_ok());
        let form = format!("items=&note={}", "%E0%B8%81".repeat(MAX_TEXT_CHARS * 2));
        let e = decode_body::<Order>("application/x-www-form-urlencoded", form.as_bytes()).unwrap_err();
        assert_eq!(e.fields[0].field, "note");
        assert_eq!(too_long_pair(b"search=abc&page=1", 3), None);
        assert_eq!(too_long_pair(b"search=abcd&page=1", 3).as_deref(), Some("search"));
        assert_eq!(too_long_pair(b"search=%E0%B8%81", 3), None, "percent escapes count as one byte");
        // Found by fuzzing: more % than the value can hold once decoded.
        assert_eq!(too_long_pair(b"a=%%%&b=%", 3), None);
        let crash = b"na{\"n\xa2\x92\x9a\xdd\xc5\xdd\x87\xdd,\"itsem:\"[{[{me=%";
        assert!(decode_body::<Order>("application/x-www-form-urlencoded", crash).is_err());
    }

    #[test]
    fn query_keys_are_kebab_case() {
        #[derive(Deserialize)]
        #[serde(rename_all = "kebab-case")]
        struct Q {
            order_state: String,
            page: i64,
        }
        let q: Q = serde_qs::Config::new(2, false).deserialize_str("order-state=ready_to_fulfillment&page=2").unwrap();
        assert_eq!((q.order_state.as_str(), q.page), ("ready_to_fulfillment", 2));
    }
}

/// A decimal as sent: a JSON string ("199.50"), a JSON number (199.5) or a form value.
/// Read exactly, from its text, never through floating point.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Decimal {
    /// "199.50"
    Text(String),
    /// 199.5
    #[schema(value_type = f64)]
    Number(serde_json::Number),
}

impl Decimal {
    fn text(&self) -> String {
        match self {
            Decimal::Text(s) => s.trim().to_string(),
            Decimal::Number(n) => n.to_string(),
        }
    }

    /// A whole number ("3" or 3).
    pub fn whole(&self) -> Option<i64> {
        self.text().parse().ok()
    }

    /// Baht with at most two decimals, as satang.
    pub fn satang(&self) -> Option<i64> {
        bo_kit::money::Satang::parse_baht(&self.text()).ok().map(|s| s.0)
    }

    /// Kilograms with at most three decimals, as grams.
    pub fn grams(&self) -> Option<i64> {
        let t = self.text();
        let (whole, frac) = t.split_once('.').unwrap_or((&t, ""));
        if whole.is_empty() && frac.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
            || frac.len() > 3
        {
            return None;
        }
        let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
        let frac: i64 = format!("{frac:0<3}").parse().ok()?;
        whole.checked_mul(1000)?.checked_add(frac)
    }
}

/// Satang as baht text with two decimals ("199.50").
pub fn baht(satang: i64) -> String {
    bo_kit::money::Satang(satang).to_string()
}

/// Grams as kilogram text with three decimals ("0.250").
pub fn kilograms(grams: i64) -> String {
    format!("{}.{:03}", grams / 1000, grams % 1000)
}

#[cfg(test)]
mod decimal_tests {
    use super::*;

    #[test]
    fn decimals_are_read_from_their_text() {
        let d: Decimal = serde_json::from_str("199.5").unwrap();
        assert_eq!(d.satang(), Some(19_950));
        let d: Decimal = serde_json::from_str("\"1,299.00\"").unwrap();
        assert_eq!(d.satang(), Some(129_900));
        let d: Decimal = serde_json::from_str("0.30000000000000004").unwrap();
        assert_eq!(d.satang(), None, "more than two decimals is refused, not rounded");
        let d: Decimal = serde_json::from_str("\"0.25\"").unwrap();
        assert_eq!(d.grams(), Some(250));
        assert_eq!(kilograms(250), "0.250");
        assert_eq!(baht(19_950), "199.50");
    }
}

/// The proto enum value of a word the app sent in `field` (`ready-to-fulfillment` and
/// `ready_to_fulfillment` alike): none or an empty word is unspecified (any), a word that
/// is none of the enum's values a field error with `code`.
pub fn enum_field<E: bo_proto::Wire>(field: &str, word: Option<&str>, code: &str) -> Result<i32, ApiError> {
    let word = word.map(|w| w.trim().replace('-', "_")).unwrap_or_default();
    if word.is_empty() {
        return Ok(0);
    }
    E::from_wire(&word).map(Into::into).ok_or_else(|| ApiError::invalid_field(field, code))
}

/// Several words of a comma list (or repeated parameter) as [`enum_field`] takes one; the
/// field of a wrong word is `field[i]`.
pub fn enum_fields<'a, E: bo_proto::Wire>(
    field: &str,
    words: impl IntoIterator<Item = &'a str>,
    code: &str,
) -> Result<Vec<i32>, ApiError> {
    let words = words.into_iter().flat_map(|w| w.split(',')).map(str::trim).filter(|w| !w.is_empty());
    words.enumerate().map(|(i, w)| enum_field::<E>(&format!("{field}[{i}]"), Some(w), code)).collect()
}

/// The word of an enum value a service answered with (empty when it is none of them).
pub fn word<E: bo_proto::Wire>(value: i32) -> String {
    E::word_of(value).to_string()
}

/// The words of enum values a service answered with.
pub fn words<E: bo_proto::Wire>(values: &[i32]) -> Vec<String> {
    values.iter().map(|v| E::word_of(*v)).filter(|w| !w.is_empty()).map(String::from).collect()
}

#[cfg(test)]
mod enum_tests {
    use super::*;
    use bo_proto::orders::v1::OrderState;

    #[test]
    fn words_become_enum_values_and_wrong_ones_are_refused() {
        assert_eq!(enum_field::<OrderState>("s", Some("ready-to-fulfillment"), "v").unwrap(), 2);
        assert_eq!(enum_field::<OrderState>("s", Some(" "), "v").unwrap(), 0);
        assert_eq!(enum_field::<OrderState>("s", None, "v").unwrap(), 0);
        assert!(enum_field::<OrderState>("s", Some("lost"), "v").is_err());
        assert_eq!(enum_fields::<OrderState>("s", ["new,shipped", "closed"], "v").unwrap(), vec![1, 3, 4]);
        assert!(enum_fields::<OrderState>("s", ["new,bogus"], "v").is_err());
        assert_eq!(words::<OrderState>(&[1, 2, 99]), vec!["new", "ready_to_fulfillment"]);
    }
}
