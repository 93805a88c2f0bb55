//! Tokens. Signing in gives a user token (audience `backoffice-user`); exchanging it for a
//! store gives a store token (audience `backoffice-store`) carrying the store, the user,
//! the permission level and the role's permission keys. HS256 only, expiry and audience
//! checked. Every token names its session; a signed-out session's tokens stop working.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use bo_kit::grpc::CallCtx;
use bo_proto::stores::v1::CheckSessionRequest;

use crate::error::ApiError;
use crate::perms::Access;
use crate::state::AppState;

pub use bo_kit::auth::{load_or_create_key, Claims, Keys, AUD_SERVICE, AUD_STORE, AUD_USER};

/// Remembers which sessions are open for a short while, so most requests make no call.
pub struct SessionCache {
    ttl: Duration,
    entries: Mutex<HashMap<String, (bool, Instant)>>,
}

impl SessionCache {
    /// A cache keeping answers for `ttl`.
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, entries: Mutex::new(HashMap::new()) }
    }

    fn get(&self, sid: &str) -> Option<bool> {
        let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        map.get(sid).filter(|(_, at)| at.elapsed() < self.ttl).map(|(ok, _)| *ok)
    }

    fn put(&self, sid: &str, ok: bool) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 50_000 {
            let ttl = self.ttl;
            map.retain(|_, (_, at)| at.elapsed() < ttl);
        }
        map.insert(sid.to_string(), (ok, Instant::now()));
    }

    /// Forgets a session (after signing out here).
    pub fn forget(&self, sid: &str) {
        self.put(sid, false);
    }
}

/// Limits sign-in attempts per client address.
pub struct LoginLimiter {
    per_minute: u32,
    hits: Mutex<HashMap<IpAddr, (u32, Instant)>>,
}

impl LoginLimiter {
    /// `per_minute` attempts per address per minute.
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute: per_minute.max(1), hits: Mutex::new(HashMap::new()) }
    }

    /// Counts an attempt; false when over the limit.
    pub fn attempt(&self, ip: IpAddr) -> bool {
        let mut map = self.hits.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if map.len() > 100_000 {
            map.retain(|_, (_, start)| now.duration_since(*start) < Duration::from_secs(60));
        }
        let entry = map.entry(ip).or_insert((0, now));
        if now.duration_since(entry.1) >= Duration::from_secs(60) {
            *entry = (0, now);
        }
        entry.0 += 1;
        entry.0 <= self.per_minute
    }
}

fn bearer(parts: &Parts) -> Option<&str> {
    parts.headers.get(axum::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bo_kit::auth::bearer)
}

async fn check_session(state: &AppState, sid: &str) -> Result<(), ApiError> {
    let open = match state.sessions.get(sid) {
        Some(open) => open,
        None => {
            let r = state
                .stores()
                .check_session(state.system().request(CheckSessionRequest { session_id: sid.to_string() }))
                .await
                .map_err(ApiError::from)?
                .into_inner();
            state.sessions.put(sid, r.active);
            r.active
        }
    };
    if open {
        Ok(())
    } else {
        Err(ApiError::unauthenticated("session_ended"))
    }
}

/// A signed-in user (user or store token).
#[derive(Debug, Clone)]
pub struct UserAuth {
    /// The user.
    pub user_id: i64,
    /// The session.
    pub session_id: String,
    /// The verified token, forwarded to services.
    pub token: std::sync::Arc<str>,
}

impl UserAuth {
    /// The call context for services: the user's own token.
    pub fn ctx(&self) -> CallCtx {
        CallCtx::with_token(0, self.user_id, self.token.clone())
    }
}

impl FromRequestParts<AppState> for UserAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or_else(|| ApiError::unauthenticated("unauthenticated"))?;
        let claims = state.keys.verify(token, &[AUD_USER, AUD_STORE])?;
        let user_id = claims.sub.parse().map_err(|_| ApiError::unauthenticated("unauthenticated"))?;
        check_session(state, &claims.sid).await?;
        Ok(UserAuth { user_id, session_id: claims.sid, token: token.into() })
    }
}

/// A store token's holder.
#[derive(Debug, Clone)]
pub struct StoreAuth {
    /// The store.
    pub store_id: i64,
    /// The user.
    pub user_id: i64,
    /// owner, admin or cashier.
    pub permission: String,
    /// The role's permission keys.
    pub perms: Vec<String>,
    /// The session.
    pub session_id: String,
    /// The verified token, forwarded to services (which check it again).
    pub token: std::sync::Arc<str>,
}

impl StoreAuth {
    /// The call context for services: the store token itself.
    pub fn ctx(&self) -> CallCtx {
        CallCtx::with_token(self.store_id, self.user_id, self.token.clone())
    }

    /// Refuses unless the route's role or permission check passes.
    pub fn require(&self, access: Access) -> Result<(), ApiError> {
        if access.allows(&self.permission, &self.perms) {
            Ok(())
        } else {
            Err(ApiError::forbidden())
        }
    }

    /// Refuses a path store id that is not the token's store.
    pub fn same_store(&self, store_id: i64) -> Result<(), ApiError> {
        if store_id == self.store_id {
            Ok(())
        } else {
            Err(ApiError::new(axum::http::StatusCode::FORBIDDEN, "store_mismatch"))
        }
    }

    /// Both checks at once.
    pub fn require_in(&self, store_id: i64, access: Access) -> Result<(), ApiError> {
        self.same_store(store_id)?;
        self.require(access)
    }
}

impl StoreAuth {
    /// Reads a store token from headers without checking the session (the idempotency
    /// layer uses it only to scope keys; the handler checks fully).
    pub fn peek(state: &AppState, headers: &axum::http::HeaderMap) -> Option<CallCtx> {
        let v = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
        let token = bo_kit::auth::bearer(v)?;
        let claims = state.keys.verify(token, &[AUD_STORE]).ok()?;
        Some(CallCtx::with_token(claims.store?, claims.sub.parse().ok()?, token))
    }
}

impl FromRequestParts<AppState> for StoreAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or_else(|| ApiError::unauthenticated("unauthenticated"))?;
        let claims = state.keys.verify(token, &[AUD_USER, AUD_STORE])?;
        if claims.aud != AUD_STORE {
            // A user token on a store route: signed in, but no store chosen.
            return Err(ApiError::new(axum::http::StatusCode::FORBIDDEN, "store_token_required"));
        }
        let (Some(store_id), Some(permission)) = (claims.store, claims.perm) else {
            return Err(ApiError::unauthenticated("unauthenticated"));
        };
        let user_id = claims.sub.parse().map_err(|_| ApiError::unauthenticated("unauthenticated"))?;
        check_session(state, &claims.sid).await?;
        Ok(StoreAuth {
            store_id,
            user_id,
            permission,
            perms: claims.perms,
            session_id: claims.sid,
            token: token.into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_login_attempts_per_address() {
        let l = LoginLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(l.attempt(a) && l.attempt(a) && l.attempt(a));
        assert!(!l.attempt(a));
        assert!(l.attempt(b));
    }
}
