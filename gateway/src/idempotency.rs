//! `Idempotency-Key` on writes (Stripe's rule): the first request with a key does the
//! work and its answer is saved; a repeat with the same method, path and body replays the
//! answer without acting again; the same key with a different request is refused. Keys are
//! per store, kept a day, in the stores service's database, so every gateway replica sees
//! them.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
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

/// The middleware.
pub async fn layer(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let is_write = matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH | Method::DELETE);
    let Some(key) = req.headers().get(HEADER).filter(|_| is_write).cloned() else {
        return next.run(req).await;
    };
    let Some(key) = key.to_str().ok().filter(|k| !k.is_empty() && k.len() <= 255).map(str::to_string) else {
        return ApiError::bad_request("idempotency_key_invalid").into_response();
    };
    // Keys are per store; without a store token the key is not used (the handler
    // answers 401/403 as usual).
    let Some(ctx) = StoreAuth::peek(&state, req.headers()) else {
        return next.run(req).await;
    };
    let (parts, body) = req.into_parts();
    let bytes = match body.collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").into_response(),
    };
    let fingerprint = fingerprint(&parts.method, parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or(""), &bytes);
    let begun = state
        .stores()
        .begin_idempotent_request(ctx.request(pb::BeginIdempotentRequestRequest { key: key.clone(), fingerprint }))
        .await;
    let begun = match begun {
        Ok(r) => r.into_inner(),
        Err(s) => return ApiError::from(s).into_response(),
    };
    match pb::IdempotencyOutcome::try_from(begun.outcome).unwrap_or(pb::IdempotencyOutcome::Unspecified) {
        pb::IdempotencyOutcome::Proceed => {}
        pb::IdempotencyOutcome::Replay => {
            let mut res = Response::new(Body::from(begun.body));
            *res.status_mut() = StatusCode::from_u16(begun.status as u16).unwrap_or(StatusCode::OK);
            res.headers_mut().insert(axum::http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            res.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
            return res;
        }
        pb::IdempotencyOutcome::Mismatch => {
            return ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "idempotency_key_reused").into_response()
        }
        _ => return ApiError::new(StatusCode::CONFLICT, "idempotency_in_progress").into_response(),
    }

    let res = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    let (parts, body) = res.into_parts();
    let bytes = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let mut stores = state.stores();
    if parts.status.is_server_error() || bytes.len() > MAX_SAVED {
        // Nothing durable can be said of a failed or huge answer: let the client retry.
        if let Err(e) =
            stores.abandon_idempotent_request(ctx.request(pb::AbandonIdempotentRequestRequest { key })).await
        {
            tracing::warn!(error = %e, "could not release an idempotency key");
        }
    } else if let Err(e) = stores
        .complete_idempotent_request(ctx.request(pb::CompleteIdempotentRequestRequest {
            key,
            status: i32::from(parts.status.as_u16()),
            body: bytes.to_vec(),
        }))
        .await
    {
        tracing::warn!(error = %e, "could not save an idempotent answer");
    }
    Response::from_parts(parts, Body::from(bytes))
}

fn fingerprint(method: &Method, path: &str, body: &Bytes) -> String {
    let mut h = Sha256::new();
    h.update(method.as_str().as_bytes());
    h.update([0]);
    h.update(path.as_bytes());
    h.update([0]);
    h.update(body);
    hex::encode(h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_cover_method_path_and_body() {
        let a = fingerprint(&Method::POST, "/api/x", &Bytes::from_static(b"{}"));
        assert_eq!(a, fingerprint(&Method::POST, "/api/x", &Bytes::from_static(b"{}")));
        assert_ne!(a, fingerprint(&Method::PUT, "/api/x", &Bytes::from_static(b"{}")));
        assert_ne!(a, fingerprint(&Method::POST, "/api/y", &Bytes::from_static(b"{}")));
        assert_ne!(a, fingerprint(&Method::POST, "/api/x", &Bytes::from_static(b"{ }")));
    }
}
