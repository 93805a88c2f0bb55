//! `Idempotency-Key` on writes (Stripe's rule): the first request with a key does the work
//! and its answer is saved; a repeat with the same method, path and body replays the answer
//! without acting again; the same key with a different request is refused. Keys are kept a
//! day in the stores service's database (every gateway replica sees them), scoped to the
//! store and the user of the token: two members never share a key.
//!
//! In this order:
//! 1. the caller is authenticated (token and session) before any byte of the body is read;
//!    without a valid store token the key is not used and the handler answers 401/403;
//! 2. the body is read bounded by `http.body_limit` (413 past it);
//! 3. a repeat is answered only once the handler's own permission check passes: the saved
//!    answer rides in the request to [`crate::auth::StoreAuth::require`], which answers it
//!    instead of letting the handler act, so a member who lost the right gets 403;
//! 4. 401, 403 and 5xx answers are never kept, so they are never replayed.
//!
//! A file answer (a PDF, a spreadsheet) is never buffered here: it streams to the client and
//! its key is kept with a refusal (409 `idempotency_file_answer`), so a repeat neither acts
//! again nor is sent a copy.
//!
//! Multipart uploads are not buffered here: their handlers stream the files into storage,
//! fingerprint the parts' contents (never the random boundary) and call [`deferred`] with
//! the key this layer leaves them ([`Deferred`]). Either way the layer's check of the token
//! and session is handed to the handler's `StoreAuth`, so it runs once per request.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bo_kit::Code;
use bo_proto::stores::v1 as pb;
use http_body_util::BodyExt as _;
use sha2::{Digest, Sha256};

use crate::auth::StoreAuth;
use crate::error::ApiError;
use crate::state::AppState;

/// The header.
pub const HEADER: &str = "idempotency-key";
/// Set on replayed answers.
pub const REPLAYED: &str = "idempotent-replayed";
/// Largest answer saved for replay.
const MAX_SAVED: usize = 1024 * 1024;

/// A saved answer, replayed once the handler's permission check passes.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The first answer's status.
    pub status: u16,
    /// The first answer's body.
    pub body: Bytes,
}

impl IntoResponse for Replay {
    fn into_response(self) -> Response {
        let mut res = Response::new(Body::from(self.body));
        *res.status_mut() = StatusCode::from_u16(self.status).unwrap_or(StatusCode::OK);
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        res.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
        res
    }
}

/// A request that holds its key and acts: handlers that hand a reference to a service
/// use [`Proceeding::reference`], so a different body under the same key can never be
/// taken for the first one.
#[derive(Debug, Clone)]
pub struct Proceeding {
    /// The key as stored (scoped to the user).
    key: String,
    /// The request's fingerprint (method, path, body).
    fingerprint: String,
}

impl Proceeding {
    /// A command reference for a service (`adjust:<hex>`): the user, the key and the
    /// request's fingerprint, hashed.
    pub fn reference(&self, prefix: &str) -> String {
        let mut h = Sha256::new();
        h.update(self.key.as_bytes());
        h.update([0]);
        h.update(self.fingerprint.as_bytes());
        format!("{prefix}:{}", hex::encode(h.finalize()))
    }
}

/// The key of a multipart write, left for its handler with the request's method and path.
#[derive(Debug, Clone)]
pub struct Deferred {
    key: String,
    method: Method,
    path: String,
}

/// What [`begin`] decided.
pub enum Begun {
    /// Act, then [`finish`].
    Proceed,
    /// Answer this instead (after the permission check).
    Replay(Replay),
}

/// Claims `key` for the caller with `fingerprint`.
pub async fn begin(state: &AppState, auth: &StoreAuth, key: &str, fingerprint: &str) -> Result<Begun, ApiError> {
    let begun = state
        .stores()
        .begin_idempotent_request(auth.ctx().request(pb::BeginIdempotentRequestRequest {
            key: scoped(auth, key),
            fingerprint: fingerprint.to_string(),
        }))
        .await?
        .into_inner();
    match pb::IdempotencyOutcome::try_from(begun.outcome).unwrap_or(pb::IdempotencyOutcome::Unspecified) {
        pb::IdempotencyOutcome::Proceed => Ok(Begun::Proceed),
        pb::IdempotencyOutcome::Replay => {
            Ok(Begun::Replay(Replay { status: begun.status as u16, body: begun.body.into() }))
        }
        pb::IdempotencyOutcome::Mismatch => {
            Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, Code::IdempotencyKeyReused))
        }
        _ => Err(ApiError::new(StatusCode::CONFLICT, Code::IdempotencyInProgress)),
    }
}

/// Saves the answer to a request that proceeded, or releases the key when the answer must
/// not be replayed (401, 403, 5xx, or too large to keep).
pub async fn finish(state: &AppState, auth: &StoreAuth, key: &str, status: StatusCode, body: &[u8]) {
    let key = scoped(auth, key);
    let mut stores = state.stores();
    let keep = !(status.is_server_error()
        || status == StatusCode::UNAUTHORIZED
        || status == StatusCode::FORBIDDEN
        || body.len() > MAX_SAVED);
    let done = if keep {
        stores
            .complete_idempotent_request(auth.ctx().request(pb::CompleteIdempotentRequestRequest {
                key,
                status: i32::from(status.as_u16()),
                body: body.to_vec(),
            }))
            .await
            .map(|_| ())
    } else {
        stores
            .abandon_idempotent_request(auth.ctx().request(pb::AbandonIdempotentRequestRequest { key }))
            .await
            .map(|_| ())
    };
    if let Err(e) = done {
        tracing::warn!(error = %e.message(), "could not settle an idempotency key");
    }
}

/// The key as stored: the store comes from the token with every call, the user is written
/// into the key, so members of one store never meet each other's keys.
fn scoped(auth: &StoreAuth, key: &str) -> String {
    format!("u{}:{key}", auth.user_id)
}

/// The `Idempotency-Key` of a write, if any: `Ok(None)` without one, an error for a bad one.
fn key_of(method: &Method, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    if !matches!(*method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE) {
        return Ok(None);
    }
    let Some(v) = headers.get(HEADER) else { return Ok(None) };
    v.to_str()
        .ok()
        .filter(|k| !k.is_empty() && k.len() <= 255 && k.bytes().all(|b| b.is_ascii_graphic()))
        .map(|k| Some(k.to_string()))
        .ok_or_else(|| ApiError::bad_request(Code::IdempotencyKeyInvalid))
}

fn is_multipart(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.trim_start().to_ascii_lowercase().starts_with("multipart/"))
}

/// The middleware.
pub async fn layer(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let key = match key_of(req.method(), req.headers()) {
        Ok(Some(k)) => k,
        Ok(None) => return next.run(req).await,
        Err(e) => return e.into_response(),
    };
    // Without a valid store token and open session, the key is not used: the handler
    // answers 401 or 403 as it would without one. With them, the handler reuses this check.
    let Ok(mut auth) = StoreAuth::authenticate(&state, req.headers()).await else {
        return next.run(req).await;
    };
    if is_multipart(req.headers()) {
        let path = req.uri().path_and_query().map(|p| p.as_str()).unwrap_or("").to_string();
        let method = req.method().clone();
        req.extensions_mut().insert(Deferred { key, method, path });
        req.extensions_mut().insert(auth);
        return next.run(req).await;
    }
    let (mut parts, body) = req.into_parts();
    let bytes = match http_body_util::Limited::new(body, state.body_limit).collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge).into_response(),
    };
    let print = fingerprint(&parts.method, parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or(""), &[&bytes]);
    match begin(&state, &auth, &key, &print).await {
        Err(e) => e.into_response(),
        Ok(Begun::Replay(replay)) => {
            auth.replay = Some(replay);
            parts.extensions.insert(auth);
            let res = next.run(Request::from_parts(parts, Body::from(bytes))).await;
            if !res.headers().contains_key(REPLAYED) && res.status().is_success() {
                tracing::error!("a handler acted on a repeated Idempotency-Key without checking permissions first");
            }
            res
        }
        Ok(Begun::Proceed) => {
            parts.extensions.insert(Proceeding { key: scoped(&auth, &key), fingerprint: print });
            parts.extensions.insert(auth.clone());
            let res = next.run(Request::from_parts(parts, Body::from(bytes))).await;
            settle(&state, &auth, &key, res).await
        }
    }
}

/// Whether an answer is a file (a PDF, a spreadsheet, a picture) rather than JSON.
fn is_file(res: &Response) -> bool {
    res.status().is_success()
        && !res
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.trim_start().starts_with("application/json"))
}

/// Keeps the answer to a request that proceeded and passes it on. A file is streamed as it
/// comes, never held here (an export may be hundreds of megabytes); its key is kept with a
/// refusal to replay, so a repeat neither acts again nor gets a copy of a file this
/// gateway would have had to hold.
async fn settle(state: &AppState, auth: &StoreAuth, key: &str, res: Response) -> Response {
    if is_file(&res) {
        let refusal = ApiError::new(StatusCode::CONFLICT, Code::IdempotencyFileAnswer).into_response();
        let (parts, body) = refusal.into_parts();
        let saved = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
        finish(state, auth, key, parts.status, &saved).await;
        return res;
    }
    let (parts, body) = res.into_parts();
    let bytes = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    finish(state, auth, key, parts.status, &bytes).await;
    Response::from_parts(parts, Body::from(bytes))
}

/// Runs `act` under the key a multipart write carries (when it carries one): a repeat with
/// the same form (`form`, a digest of its parts, never of the random boundary) answers the
/// saved answer and `act` does not run. Call it after the permission check and after the
/// files are staged.
pub async fn deferred<R, F>(state: &AppState, auth: &StoreAuth, key: Option<Deferred>, form: &[u8], act: F) -> Response
where
    R: IntoResponse,
    F: std::future::Future<Output = Result<R, ApiError>>,
{
    let Some(Deferred { key, method, path }) = key else { return act.await.into_response() };
    let print = fingerprint(&method, &path, &[form]);
    match begin(state, auth, &key, &print).await {
        Err(e) => e.into_response(),
        Ok(Begun::Replay(replay)) => replay.into_response(),
        Ok(Begun::Proceed) => settle(state, auth, &key, act.await.into_response()).await,
    }
}

/// A request's fingerprint: method, path with query, and the body's pieces (a JSON or form
/// body is one piece; a multipart upload gives its parts' names and contents).
pub fn fingerprint(method: &Method, path: &str, pieces: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    h.update(method.as_str().as_bytes());
    h.update([0]);
    h.update(path.as_bytes());
    for p in pieces {
        h.update([0]);
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    hex::encode(h.finalize())
}

/// Fingerprints the bytes of one multipart part as they stream by.
#[derive(Default, Clone)]
pub struct PartHasher(Sha256);

impl PartHasher {
    /// Adds a chunk.
    pub fn update(&mut self, chunk: &Bytes) {
        self.0.update(chunk);
    }

    /// The part's digest, named by its field.
    pub fn finish(self, field: &str) -> Vec<u8> {
        let mut out = field.as_bytes().to_vec();
        out.push(0);
        out.extend(self.0.finalize());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_cover_method_path_and_body() {
        let a = fingerprint(&Method::POST, "/api/x", &[b"{}"]);
        assert_eq!(a, fingerprint(&Method::POST, "/api/x", &[b"{}"]));
        assert_ne!(a, fingerprint(&Method::PUT, "/api/x", &[b"{}"]));
        assert_ne!(a, fingerprint(&Method::POST, "/api/y", &[b"{}"]));
        assert_ne!(a, fingerprint(&Method::POST, "/api/x", &[b"{ }"]));
        // Pieces are framed: moving bytes between parts changes the print.
        assert_ne!(fingerprint(&Method::POST, "/x", &[b"ab", b"c"]), fingerprint(&Method::POST, "/x", &[b"a", b"bc"]));
    }

    #[test]
    fn keys_are_visible_text_of_bounded_length() {
        let h = |v: &str| {
            let mut m = HeaderMap::new();
            m.insert(HEADER, HeaderValue::from_str(v).unwrap());
            m
        };
        assert_eq!(key_of(&Method::POST, &h("7d1c5d6e")).unwrap().as_deref(), Some("7d1c5d6e"));
        assert_eq!(key_of(&Method::GET, &h("7d1c5d6e")).unwrap(), None, "reads ignore keys");
        assert!(key_of(&Method::POST, &h(&"k".repeat(256))).is_err());
        assert!(key_of(&Method::POST, &h("a b")).is_err());
        assert_eq!(key_of(&Method::DELETE, &HeaderMap::new()).unwrap(), None);
    }

    #[test]
    fn multipart_is_recognised_in_any_case() {
        let mut m = HeaderMap::new();
        m.insert(header::CONTENT_TYPE, HeaderValue::from_static("Multipart/Form-Data; boundary=x"));
        assert!(is_multipart(&m));
        m.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        assert!(!is_multipart(&m));
    }
}
