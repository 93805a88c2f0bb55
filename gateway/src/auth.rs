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
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::perms::Access;
use crate::state::AppState;

/// Audience of user tokens.
pub const AUD_USER: &str = "backoffice-user";
/// Audience of store tokens.
pub const AUD_STORE: &str = "backoffice-store";
const ISSUER: &str = "backoffice";

/// Token claims.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// Audience.
    pub aud: String,
    /// Issuer.
    pub iss: String,
    /// Issued at (seconds).
    pub iat: i64,
    /// Expires at (seconds).
    pub exp: i64,
    /// Session id.
    pub sid: String,
    /// Store id (store tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store: Option<i64>,
    /// owner, admin or cashier (store tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perm: Option<String>,
    /// Role id (store tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<i64>,
    /// The role's permission keys (store tokens).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub perms: Vec<String>,
}

/// Signing and checking keys.
pub struct Keys {
    enc: EncodingKey,
    dec: DecodingKey,
    ttl_secs: i64,
}

impl Keys {
    /// Keys from an HMAC secret of at least 32 bytes.
    pub fn new(secret: &[u8], ttl_minutes: i64) -> anyhow::Result<Keys> {
        anyhow::ensure!(secret.len() >= 32, "auth.jwt_secret must be at least 32 bytes");
        Ok(Keys {
            enc: EncodingKey::from_secret(secret),
            dec: DecodingKey::from_secret(secret),
            ttl_secs: ttl_minutes.max(1) * 60,
        })
    }

    /// Token lifetime in seconds.
    pub fn ttl_secs(&self) -> i64 {
        self.ttl_secs
    }

    /// Signs a user token.
    pub fn user_token(&self, user_id: i64, sid: &str) -> anyhow::Result<(String, i64)> {
        self.sign(Claims {
            sub: user_id.to_string(),
            aud: AUD_USER.into(),
            iss: ISSUER.into(),
            iat: 0,
            exp: 0,
            sid: sid.into(),
            store: None,
            perm: None,
            role: None,
            perms: Vec::new(),
        })
    }

    /// Signs a store token.
    pub fn store_token(
        &self,
        user_id: i64,
        sid: &str,
        store: i64,
        perm: &str,
        role: i64,
        perms: Vec<String>,
    ) -> anyhow::Result<(String, i64)> {
        self.sign(Claims {
            sub: user_id.to_string(),
            aud: AUD_STORE.into(),
            iss: ISSUER.into(),
            iat: 0,
            exp: 0,
            sid: sid.into(),
            store: Some(store),
            perm: Some(perm.into()),
            role: Some(role),
            perms,
        })
    }

    fn sign(&self, mut c: Claims) -> anyhow::Result<(String, i64)> {
        let now = bo_kit::time::now_ms() / 1000;
        c.iat = now;
        c.exp = now + self.ttl_secs;
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &c, &self.enc)?;
        Ok((token, c.exp))
    }

    /// Checks a token for one of `audiences`.
    pub fn verify(&self, token: &str, audiences: &[&str]) -> Result<Claims, ApiError> {
        let mut v = Validation::new(Algorithm::HS256);
        v.algorithms = vec![Algorithm::HS256];
        v.set_audience(audiences);
        v.set_issuer(&[ISSUER]);
        v.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        v.leeway = 30;
        jsonwebtoken::decode::<Claims>(token, &self.dec, &v).map(|d| d.claims).map_err(|e| match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => ApiError::unauthenticated("token_expired"),
            _ => ApiError::unauthenticated("unauthenticated"),
        })
    }
}

/// The embedded target's signing key: generated on first start and kept under the data
/// folder, readable by its owner only.
pub fn load_or_create_key(data_dir: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context as _;
    let path = data_dir.join("jwt.key");
    if let Ok(hex_key) = std::fs::read_to_string(&path) {
        return hex::decode(hex_key.trim()).context("reading data/jwt.key");
    }
    std::fs::create_dir_all(data_dir)?;
    let mut key = [0u8; 32];
    getrandom(&mut key)?;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.mode(0o600);
    }
    use std::io::Write as _;
    opts.open(&path).with_context(|| format!("creating {}", path.display()))?.write_all(hex::encode(key).as_bytes())?;
    Ok(key.to_vec())
}

fn getrandom(buf: &mut [u8]) -> anyhow::Result<()> {
    use std::io::Read as _;
    std::fs::File::open("/dev/urandom")?.read_exact(buf)?;
    Ok(())
}

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
    parts
        .headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(str::trim)
}

async fn check_session(state: &AppState, sid: &str) -> Result<(), ApiError> {
    let open = match state.sessions.get(sid) {
        Some(open) => open,
        None => {
            let r = state
                .stores()
                .check_session(CheckSessionRequest { session_id: sid.to_string() })
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
}

impl FromRequestParts<AppState> for UserAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or_else(|| ApiError::unauthenticated("unauthenticated"))?;
        let claims = state.keys.verify(token, &[AUD_USER, AUD_STORE])?;
        let user_id = claims.sub.parse().map_err(|_| ApiError::unauthenticated("unauthenticated"))?;
        check_session(state, &claims.sid).await?;
        Ok(UserAuth { user_id, session_id: claims.sid })
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
}

impl StoreAuth {
    /// The call context for services.
    pub fn ctx(&self) -> CallCtx {
        CallCtx::new(self.store_id, self.user_id)
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
    pub fn peek(state: &AppState, headers: &axum::http::HeaderMap) -> Option<i64> {
        let v = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
        let token = v.strip_prefix("Bearer ")?.trim();
        state.keys.verify(token, &[AUD_STORE]).ok()?.store
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
        Ok(StoreAuth { store_id, user_id, permission, perms: claims.perms, session_id: claims.sid })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Keys {
        Keys::new(&[7u8; 32], 60).unwrap()
    }

    #[test]
    fn tokens_check_audience_and_signature() {
        let k = keys();
        let (user, _) = k.user_token(5, "s1").unwrap();
        assert!(k.verify(&user, &[AUD_USER]).is_ok());
        assert_eq!(k.verify(&user, &[AUD_STORE]).unwrap_err().code, "unauthenticated");
        let other = Keys::new(&[8u8; 32], 60).unwrap();
        assert!(other.verify(&user, &[AUD_USER]).is_err());
        let (store, _) = k.store_token(5, "s1", 9, "admin", 2, vec!["store.customer.*".into()]).unwrap();
        let c = k.verify(&store, &[AUD_STORE]).unwrap();
        assert_eq!((c.store, c.perm.as_deref(), c.perms.len()), (Some(9), Some("admin"), 1));
    }

    #[test]
    fn refuses_other_algorithms_and_expired_tokens() {
        let k = keys();
        // alg "none"
        let none = format!(
            "{}.{}.",
            hex_free_b64(r#"{"alg":"none","typ":"JWT"}"#),
            hex_free_b64(r#"{"sub":"1","aud":"backoffice-user","iss":"backoffice","exp":99999999999,"sid":"x"}"#)
        );
        assert!(k.verify(&none, &[AUD_USER]).is_err());
        // HS512 with the same secret
        let claims = Claims {
            sub: "1".into(),
            aud: AUD_USER.into(),
            iss: ISSUER.into(),
            iat: 0,
            exp: 99_999_999_999,
            sid: "x".into(),
            store: None,
            perm: None,
            role: None,
            perms: vec![],
        };
        let hs512 =
            jsonwebtoken::encode(&Header::new(Algorithm::HS512), &claims, &EncodingKey::from_secret(&[7u8; 32]))
                .unwrap();
        assert!(k.verify(&hs512, &[AUD_USER]).is_err());
        let expired = Claims { exp: 1_000, ..claims };
        let old = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &expired, &EncodingKey::from_secret(&[7u8; 32]))
            .unwrap();
        assert_eq!(k.verify(&old, &[AUD_USER]).unwrap_err().code, "token_expired");
    }

    fn hex_free_b64(s: &str) -> String {
        const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let b = s.as_bytes();
        let mut out = String::new();
        for chunk in b.chunks(3) {
            let n = (u32::from(chunk[0]) << 16)
                | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
                | u32::from(*chunk.get(2).unwrap_or(&0));
            let chars = chunk.len() + 1;
            for i in 0..chars {
                out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        out
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(Keys::new(b"short", 60).is_err());
    }

    #[test]
    fn limits_login_attempts_per_address() {
        let l = LoginLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(l.attempt(a) && l.attempt(a) && l.attempt(a));
        assert!(!l.attempt(a));
        assert!(l.attempt(b));
    }

    #[test]
    fn generated_keys_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let k1 = load_or_create_key(dir.path()).unwrap();
        let k2 = load_or_create_key(dir.path()).unwrap();
        assert_eq!(k1, k2);
        assert_eq!(k1.len(), 32);
    }
}
