//! A call's credentials checked as Magento 2.4 checks them: an integration's access token as
//! `Bearer` where allowed, or an OAuth 1.0a signature (RFC 5849) recomputed here.
//!
//! The OAuth checks run in Magento's order (`Framework\Oauth\Oauth::validateAccessTokenRequest`):
//! version, required parameters and the token's length (400), the signature method (400),
//! the consumer key, the timestamp and the nonce (401; the nonce is kept before the signature
//! is looked at, so a refused call spends its nonce too), the token, then the signature (401).
//! The signature base string is the method, the base URI as the client named it (scheme,
//! Host header, path; the query left out) and every oauth and query parameter, each name and
//! value percent-encoded (RFC 5849 §3.6), sorted by name then value; the key is the consumer
//! secret and the token secret, each encoded, joined by `&`. JSON bodies are not signed.

use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::Response;
use base64::Engine;
use serde_json::json;

use super::{not_authorized, refuse, Inner};
use crate::now_s;

/// How far a timestamp may be from now, seconds (Magento's `Nonce\Generator::TIME_DEVIATION`).
const TIME_DEVIATION: i64 = 600;
/// The length of Magento's consumer keys and tokens.
const KEY_LENGTH: usize = 32;
/// Magento's id of the sandbox's one consumer.
const CONSUMER_ID: &str = "1";

/// `text` percent-encoded as RFC 5849 §3.6 asks: its UTF-8 bytes, the unreserved characters
/// (ALPHA, DIGIT, `-`, `.`, `_`, `~`) kept, every other byte as `%XX` in upper case.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `text` with its `%XX` sequences decoded (and, in a form, `+` read as a space); a `%` that
/// starts no sequence is kept as it is.
pub fn decode(text: &str, form: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' if form => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `name=value` pairs of a query string, decoded, in their order (repeated names kept).
pub fn form_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k, true), decode(v, true))
        })
        .collect()
}

/// The parameters of an `OAuth` Authorization header (what follows the scheme), decoded;
/// `realm` is left out (it is not signed).
fn header_params(value: &str) -> Vec<(String, String)> {
    value
        .split(',')
        .filter_map(|p| {
            let (k, v) = p.trim().split_once('=')?;
            let v = v.trim();
            let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v);
            Some((decode(k.trim(), false), decode(v, false)))
        })
        .filter(|(k, _)| k != "realm")
        .collect()
}

/// RFC 5849 §3.4.1.3.2: every pair's name and value encoded, sorted by name then value, each
/// joined by `=`, all by `&`.
pub fn normalized(params: &[(String, String)]) -> String {
    let mut pairs: Vec<(String, String)> = params.iter().map(|(k, v)| (encode(k), encode(v))).collect();
    pairs.sort();
    pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&")
}

/// The signature base string (RFC 5849 §3.4.1): method, base URI and normalized parameters,
/// each encoded, joined by `&`.
pub fn base_string(method: &str, base_uri: &str, params: &[(String, String)]) -> String {
    format!("{}&{}&{}", method.to_ascii_uppercase(), encode(base_uri), encode(&normalized(params)))
}

/// The base64 HMAC of `base` under `encode(consumer secret)&encode(token secret)`, for
/// `HMAC-SHA256` or `HMAC-SHA1` (`None` for another method).
pub fn signature(method: &str, consumer_secret: &str, token_secret: &str, base: &str) -> Option<String> {
    let algorithm = match method {
        "HMAC-SHA256" => ring::hmac::HMAC_SHA256,
        "HMAC-SHA1" => ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
        _ => return None,
    };
    let key =
        ring::hmac::Key::new(algorithm, format!("{}&{}", encode(consumer_secret), encode(token_secret)).as_bytes());
    Some(base64::engine::general_purpose::STANDARD.encode(ring::hmac::sign(&key, base.as_bytes())))
}

/// The call's base URI as its client named it (behind a proxy the Host header is the
/// client's): scheme (`https` where the proxy says so in `X-Forwarded-Proto`, as Magento's
/// offloader header), host in lower case, the port unless it is the scheme's own, the path.
fn base_uri(parts: &Parts) -> String {
    let proto = parts.headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).unwrap_or("");
    let scheme = if proto.eq_ignore_ascii_case("https") { "https" } else { "http" };
    let host = parts
        .headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| parts.uri.authority().map(|a| a.to_string()))
        .unwrap_or_default()
        .to_ascii_lowercase();
    let host = match (scheme, host.rsplit_once(':')) {
        ("http", Some((h, "80"))) | ("https", Some((h, "443"))) => h.to_string(),
        _ => host,
    };
    format!("{scheme}://{host}{}", parts.uri.path())
}

/// The call's credentials checked for `resource`: a refusal as Magento answers it, or none.
pub(super) fn check(s: &mut Inner, parts: &Parts, resource: &str) -> Result<(), Response> {
    let auth = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("").trim();
    let (scheme, rest) = auth.split_once(' ').unwrap_or((auth, ""));
    if scheme.eq_ignore_ascii_case("bearer") {
        // An integration's token is a bearer token only where the store allows it (2.4.4+: off).
        return match s.bearer && rest.trim() == s.integration.access_token {
            true => Ok(()),
            false => Err(not_authorized(resource)),
        };
    }
    if !scheme.eq_ignore_ascii_case("oauth") {
        return Err(not_authorized(resource));
    }
    let oauth = header_params(rest);
    let get = |k: &str| oauth.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    if let Some(version) = get("oauth_version").filter(|v| *v != "1.0") {
        return Err(refuse(StatusCode::BAD_REQUEST, "The \"%1\" Oauth version isn't supported.", json!([version])));
    }
    let required = [
        "oauth_consumer_key",
        "oauth_signature",
        "oauth_signature_method",
        "oauth_nonce",
        "oauth_timestamp",
        "oauth_token",
    ];
    if let Some(missing) = required.iter().find(|k| get(k).is_none()) {
        return Err(super::required(missing));
    }
    let field = |k: &str| get(k).unwrap_or_default();
    if field("oauth_token").len() != KEY_LENGTH {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "The token length is invalid. Check the length and try again.",
            json!(null),
        ));
    }
    let method = field("oauth_signature_method");
    // Magento 2.4's OAuth signs with HMAC-SHA256 only.
    if method != "HMAC-SHA256" {
        return Err(refuse(StatusCode::BAD_REQUEST, "Signature method %1 is not supported", json!([method])));
    }
    let unauthorized = |message: &str, parameters| refuse(StatusCode::UNAUTHORIZED, message, parameters);
    let key = field("oauth_consumer_key");
    if key.len() != KEY_LENGTH {
        return Err(unauthorized("Consumer key is not the correct length", json!(null)));
    }
    if key != s.integration.consumer_key {
        return Err(unauthorized("A consumer having the specified key does not exist", json!(null)));
    }
    // Magento refuses only a timestamp more than 600 s ahead, and answers it with its nonce
    // check's generic message; the sandbox refuses one as far behind too.
    let ts: i64 = field("oauth_timestamp").parse().unwrap_or(0);
    if ts <= 0 || (ts - now_s()).abs() > TIME_DEVIATION {
        return Err(unauthorized("An error occurred validating the nonce", json!(null)));
    }
    if !s.nonces.insert(field("oauth_nonce").to_string()) {
        return Err(unauthorized("The nonce is already being used by the consumer with ID %1", json!([CONSUMER_ID])));
    }
    if field("oauth_token") != s.integration.access_token {
        return Err(unauthorized("Specified token does not exist", json!(null)));
    }
    let mut params: Vec<(String, String)> = oauth.iter().filter(|(k, _)| k != "oauth_signature").cloned().collect();
    params.extend(form_pairs(parts.uri.query().unwrap_or("")));
    let base = base_string(parts.method.as_str(), &base_uri(parts), &params);
    let expected = signature(method, &s.integration.consumer_secret, &s.integration.access_token_secret, &base);
    if expected.as_deref() != Some(field("oauth_signature")) {
        return Err(unauthorized("The signature is invalid. Verify and try again.", json!(null)));
    }
    Ok(())
}
