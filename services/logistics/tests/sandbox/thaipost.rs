//! Thailand Post's tracking API as it behaves: a Django REST Framework service.
//!
//! - `POST /post/api/v1/authenticate/token` takes `Authorization: Token <api key>` and
//!   answers `{"expire": "YYYY-MM-DD HH:MM:SS+07:00", "token": "..."}`; any other key is
//!   401 `{"detail": "Invalid token."}`.
//! - `POST /post/api/v1/track` takes `Authorization: Token <token>` (401 for a token it did
//!   not issue or one past its expiry), a JSON body only (415 otherwise, as DRF), at most
//!   100 barcodes (400), and answers each barcode's items (an empty list for one it does not
//!   know) with the day's count; past the daily limit it answers `status: false`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use time::macros::offset;
use time::OffsetDateTime;

use super::{now_s, serve, Server};

/// The real service's limit of barcodes per call.
pub const MAX_BARCODES: usize = 100;

/// A running sandbox.
pub struct ThaiPostSandbox {
    /// Its base URL.
    pub base_url: String,
    state: Arc<Mutex<Inner>>,
    _server: Server,
}

struct Inner {
    key: String,
    token_lifetime_s: i64,
    tokens: HashMap<String, i64>,
    parcels: HashMap<String, Vec<Value>>,
    token_calls: usize,
    track_calls: Vec<usize>,
    tracked_today: usize,
    daily_limit: usize,
    down: bool,
}

type Shared = Arc<Mutex<Inner>>;

impl ThaiPostSandbox {
    /// A sandbox accepting `api_key`, issuing tokens good for a month.
    pub async fn start(api_key: &str) -> Self {
        let state = Arc::new(Mutex::new(Inner {
            key: api_key.to_string(),
            token_lifetime_s: 30 * 24 * 3600,
            tokens: HashMap::new(),
            parcels: HashMap::new(),
            token_calls: 0,
            track_calls: Vec::new(),
            tracked_today: 0,
            daily_limit: 1_000,
            down: false,
        }));
        let app = Router::new()
            .route("/post/api/v1/authenticate/token", post(token))
            .route("/post/api/v1/track", post(track))
            .with_state(state.clone());
        let server = serve(app).await;
        ThaiPostSandbox { base_url: server.base_url.clone(), state, _server: server }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        f(&mut self.state.lock().unwrap())
    }

    /// Tokens issued from now on are good for `seconds`.
    pub fn token_lifetime(&self, seconds: i64) {
        self.with(|s| s.token_lifetime_s = seconds);
    }

    /// Forgets every token issued (as if they had been revoked).
    pub fn revoke_tokens(&self) {
        self.with(|s| s.tokens.clear());
    }

    /// Every token issued and still known.
    pub fn issued_tokens(&self) -> Vec<String> {
        self.with(|s| s.tokens.keys().cloned().collect())
    }

    /// The number of barcodes tracked a day before `status: false`.
    pub fn daily_limit(&self, n: usize) {
        self.with(|s| s.daily_limit = n);
    }

    /// While down, every call answers 503.
    pub fn down(&self, down: bool) {
        self.with(|s| s.down = down);
    }

    /// How many tokens were asked for.
    pub fn token_calls(&self) -> usize {
        self.with(|s| s.token_calls)
    }

    /// How many barcodes each track call asked for.
    pub fn track_calls(&self) -> Vec<usize> {
        self.with(|s| s.track_calls.clone())
    }

    /// Adds a status to a parcel's history.
    pub fn scan(&self, barcode: &str, status: &str, description: &str, date: &str, location: &str, postcode: &str) {
        let it = item(barcode, status, description, date, location, postcode);
        self.with(|s| s.parcels.entry(barcode.to_string()).or_default().push(it));
    }
}

/// One item as the API gives it, in the track answer and in webhook pushes.
pub fn item(barcode: &str, status: &str, description: &str, date: &str, location: &str, postcode: &str) -> Value {
    let delivered = status == "501";
    json!({
        "barcode": barcode,
        "status": status,
        "status_description": description,
        "status_date": date,
        "location": location,
        "postcode": postcode,
        "delivery_status": if delivered { json!("S") } else { Value::Null },
        "delivery_description": if delivered { json!("ส่งสำเร็จ") } else { Value::Null },
        "delivery_datetime": if delivered { json!(date) } else { Value::Null },
        "receiver_name": if delivered { json!("ผู้รับ") } else { Value::Null },
        "signature": Value::Null,
    })
}

fn detail(status: StatusCode, text: &str) -> Response {
    (status, Json(json!({ "detail": text }))).into_response()
}

/// The value after `Token ` in the Authorization header.
fn presented(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    v.strip_prefix("Token ").map(str::to_string)
}

async fn token(State(state): State<Shared>, headers: HeaderMap) -> Response {
    let mut s = state.lock().unwrap();
    if s.down {
        return super::outage();
    }
    let Some(key) = presented(&headers) else {
        return detail(StatusCode::UNAUTHORIZED, "Authentication credentials were not provided.");
    };
    if key != s.key {
        return detail(StatusCode::UNAUTHORIZED, "Invalid token.");
    }
    s.token_calls += 1;
    let token = format!("eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.{}", uuid::Uuid::new_v4().simple());
    let expires = now_s() + s.token_lifetime_s;
    s.tokens.insert(token.clone(), expires);
    let at = OffsetDateTime::from_unix_timestamp(expires).unwrap().to_offset(offset!(+7));
    let expire = format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}+07:00",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    );
    Json(json!({ "expire": expire, "token": token })).into_response()
}

async fn track(State(state): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let mut s = state.lock().unwrap();
    if s.down {
        return super::outage();
    }
    let Some(token) = presented(&headers) else {
        return detail(StatusCode::UNAUTHORIZED, "Authentication credentials were not provided.");
    };
    match s.tokens.get(&token) {
        None => return detail(StatusCode::UNAUTHORIZED, "Invalid token."),
        Some(&expires) if expires <= now_s() => return detail(StatusCode::UNAUTHORIZED, "Signature has expired."),
        Some(_) => {}
    }
    let media = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !media.starts_with("application/json") {
        return detail(StatusCode::UNSUPPORTED_MEDIA_TYPE, &format!("Unsupported media type \"{media}\" in request."));
    }
    let asked: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return detail(StatusCode::BAD_REQUEST, &format!("JSON parse error - {e}")),
    };
    let barcodes: Option<Vec<String>> =
        asked["barcode"].as_array().map(|a| a.iter().filter_map(|b| b.as_str().map(str::to_string)).collect());
    let status_ok = asked["status"].as_str().is_some_and(|v| v == "all" || v.parse::<u16>().is_ok());
    let language_ok = asked["language"].as_str().is_some_and(|v| ["TH", "EN", "CN"].contains(&v));
    let Some(barcodes) = barcodes.filter(|b| !b.is_empty() && status_ok && language_ok) else {
        return refuse(StatusCode::BAD_REQUEST, "status, language and barcode are required");
    };
    if barcodes.len() > MAX_BARCODES {
        return refuse(StatusCode::BAD_REQUEST, "barcode must not exceed 100 items");
    }
    s.track_calls.push(barcodes.len());
    if s.tracked_today + barcodes.len() > s.daily_limit {
        return refuse(StatusCode::OK, "Track count limit exceeded");
    }
    s.tracked_today += barcodes.len();
    let items: serde_json::Map<String, Value> =
        barcodes.iter().map(|b| (b.clone(), json!(s.parcels.get(b).cloned().unwrap_or_default()))).collect();
    let today = OffsetDateTime::now_utc().to_offset(offset!(+7));
    Json(json!({
        "response": {
            "items": items,
            "track_count": {
                "track_date": format!("{:02}/{:02}/{}", today.day(), u8::from(today.month()), today.year() + 543),
                "count_number": s.tracked_today,
                "track_count_limit": s.daily_limit,
            },
        },
        "message": "successful",
        "status": true,
    }))
    .into_response()
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "response": null, "message": message, "status": false }))).into_response()
}
