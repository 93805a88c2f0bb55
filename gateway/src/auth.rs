//! Tokens. Signing in gives a user token (audience `backoffice-user`); exchanging it for a
//! store gives a store token (audience `backoffice-store`) carrying the store, the user,
//! the permission level and the role's permission keys. HS256 only, expiry and audience
//! checked. Every token names its session; a signed-out session's tokens stop working.

use bo_kit::Code;
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

pub use bo_kit::auth::{load_or_create_key, Claims, Keys, StoreGrant, AUD_SERVICE, AUD_STORE, AUD_USER};

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

/// Store tokens whose membership the stores service found current a moment ago, by session,
/// store and membership version (decision 0012). Only agreement is kept, for `ttl`; a change
/// made through this gateway forgets the store's entries at once ([`Self::forget_store`]),
/// and signing out forgets the session's.
pub struct MembershipCache {
    ttl: Duration,
    entries: Mutex<HashMap<(String, i64), (i64, Instant)>>,
    /// Moves on with every forgetting, so an answer asked for before a change and arriving
    /// after it is not kept.
    generation: std::sync::atomic::AtomicU64,
}

impl MembershipCache {
    /// A cache keeping agreement for `ttl` (zero keeps nothing).
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, entries: Mutex::new(HashMap::new()), generation: Default::default() }
    }

    /// Taken before asking the stores service; [`Self::agreed`] keeps the answer only if
    /// nothing was forgotten meanwhile.
    fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn holds(&self, sid: &str, store: i64, version: i64) -> bool {
        if self.ttl.is_zero() {
            return false;
        }
        let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&(sid.to_string(), store)).is_some_and(|(v, at)| *v == version && at.elapsed() < self.ttl)
    }

    fn agreed(&self, sid: &str, store: i64, version: i64, asked_at: u64) {
        if self.ttl.is_zero() {
            return;
        }
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if self.generation() != asked_at {
            return;
        }
        if map.len() > 50_000 {
            let ttl = self.ttl;
            map.retain(|_, (_, at)| at.elapsed() < ttl);
        }
        map.insert((sid.to_string(), store), (version, Instant::now()));
    }

    /// Forgets every token of `store`: its team or roles changed through this gateway.
    pub fn forget_store(&self, store: i64) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        map.retain(|(_, s), _| *s != store);
    }

    /// Forgets a session's tokens (signed out).
    pub fn forget_session(&self, sid: &str) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        map.retain(|(s, _), _| s != sid);
    }
}

/// Limits failed sign-ins per client address and per account: one address cannot try many
/// accounts, and many addresses cannot try one account, faster than `per_minute` failures a
/// minute each. An attempt is counted before its password is checked ([`LoginLimiter::begin`])
/// and kept only if it fails, so guesses sent at once get no further than guesses sent one
/// after another. Successful sign-ins count for nothing.
pub struct LoginLimiter {
    per_minute: u32,
    counts: Mutex<HashMap<LimitKey, Count>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum LimitKey {
    Addr(IpAddr),
    Account(String),
}

/// Failures this minute, and attempts being checked now.
#[derive(Debug, Clone, Copy)]
struct Count {
    failures: u32,
    since: Instant,
    in_flight: u32,
}

impl Count {
    fn new(now: Instant) -> Self {
        Self { failures: 0, since: now, in_flight: 0 }
    }
    /// Failures of the current minute (an older minute's are forgotten).
    fn failures(&self, now: Instant) -> u32 {
        if now.duration_since(self.since) < Duration::from_secs(60) {
            self.failures
        } else {
            0
        }
    }
}

/// A sign-in attempt being checked; it counts against its address and account until it is
/// known to have succeeded (dropped) or failed ([`Attempt::failed`]).
pub struct Attempt<'a> {
    limiter: &'a LoginLimiter,
    keys: [LimitKey; 2],
    failed: bool,
}

impl Attempt<'_> {
    /// The attempt failed: it counts as a failure for the rest of the minute.
    pub fn failed(mut self) {
        self.failed = true;
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        let mut map = self.limiter.counts.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        for key in &self.keys {
            let c = map.entry(key.clone()).or_insert_with(|| Count::new(now));
            c.in_flight = c.in_flight.saturating_sub(1);
            if self.failed {
                if c.failures(now) == 0 {
                    c.since = now;
                    c.failures = 0;
                }
                c.failures += 1;
            }
        }
    }
}

impl LoginLimiter {
    /// `per_minute` failures per address and per account per minute.
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute: per_minute.max(1), counts: Mutex::new(HashMap::new()) }
    }

    /// Starts an attempt from `ip` on `account`, or `None` when the failures of this minute
    /// and the attempts being checked already reach the limit for either.
    pub fn begin(&self, ip: IpAddr, account: &str) -> Option<Attempt<'_>> {
        let mut map = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if map.len() > 100_000 {
            map.retain(|_, c| c.in_flight > 0 || c.failures(now) > 0);
        }
        let keys = [LimitKey::Addr(ip), LimitKey::Account(account.to_string())];
        let spent = |k: &LimitKey| map.get(k).map_or(0, |c| c.failures(now) + c.in_flight);
        if keys.iter().any(|k| spent(k) >= self.per_minute) {
            return None;
        }
        for key in &keys {
            map.entry(key.clone()).or_insert_with(|| Count::new(now)).in_flight += 1;
        }
        Some(Attempt { limiter: self, keys, failed: false })
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy, in which case the
/// nearest address of `X-Forwarded-For` that is not one (proxies append, so the addresses
/// on the left are whatever the client claimed).
pub fn client_ip(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[IpNet]) -> IpAddr {
    if !trusted.iter().any(|n| n.contains(peer)) {
        return peer;
    }
    let forwarded: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    forwarded.into_iter().rev().find(|a| !trusted.iter().any(|n| n.contains(*a))).unwrap_or(peer)
}

/// An address or a network (`10.0.0.0/8`, `192.168.1.7`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpNet {
    addr: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for IpNet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (addr, prefix) = match s.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s.trim(), None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| format!("not an address: {s:?}"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(|| format!("not a prefix: {s:?}"))?,
            None => max,
        };
        Ok(IpNet { addr, prefix })
    }
}

impl IpNet {
    /// Whether `ip` is in the network.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let bits = |a: IpAddr| -> (u128, u8) {
            match a {
                IpAddr::V4(v) => (u128::from(u32::from(v)), 32),
                IpAddr::V6(v) => match v.to_ipv4_mapped() {
                    Some(v4) => (u128::from(u32::from(v4)), 32),
                    None => (u128::from(v), 128),
                },
            }
        };
        let ((net, width), (other, other_width)) = (bits(self.addr), bits(ip));
        if width != other_width {
            return false;
        }
        let shift = u32::from(width - self.prefix.min(width));
        if shift >= 128 {
            return true;
        }
        (net >> shift) == (other >> shift)
    }
}

fn bearer(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers.get(axum::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bo_kit::auth::bearer)
}

async fn check_session(state: &AppState, sid: &str) -> Result<(), ApiError> {
    let open = match state.sessions.get(sid) {
        Some(open) => open,
        None => {
            let r = state
                .stores()
                .check_session(
                    state.system().request(CheckSessionRequest { session_id: sid.to_string(), ..Default::default() }),
                )
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
        Err(ApiError::unauthenticated(Code::SessionEnded))
    }
}

/// A store token holds while its session is open and its membership is active and unchanged
/// since the token was issued (one indexed query in the stores service). A member removed,
/// deactivated or given another role (or whose role's permissions changed) loses the old
/// rights on the next request: changes made through this gateway forget what it knew at
/// once; a replica that did not make the change trusts its last agreement for at most
/// `auth.membership_check_ms`.
async fn check_membership(state: &AppState, sid: &str, store_id: i64, version: i64) -> Result<(), ApiError> {
    if state.memberships.holds(sid, store_id, version) {
        return Ok(());
    }
    let asked_at = state.memberships.generation();
    let r = state
        .stores()
        .check_session(state.system().request(CheckSessionRequest {
            session_id: sid.to_string(),
            store_id,
            membership_version: version,
        }))
        .await
        .map_err(ApiError::from)?
        .into_inner();
    if !r.active {
        state.sessions.forget(sid);
        return Err(ApiError::unauthenticated(Code::SessionEnded));
    }
    if !r.membership_current {
        // The app exchanges its user token for a new store token and tries again.
        return Err(ApiError::unauthenticated(Code::MembershipChanged));
    }
    state.memberships.agreed(sid, store_id, version, asked_at);
    Ok(())
}

/// A signed-in user (user or store token).
#[derive(Debug, Clone)]
pub struct UserAuth {
    /// The user.
    pub user_id: i64,
    /// The session.
    pub session_id: String,
    /// This request's call token, forwarded to services.
    pub token: std::sync::Arc<str>,
}

impl UserAuth {
    /// The call context for services: a call token for this request (the services' ports
    /// take no user token).
    pub fn ctx(&self) -> CallCtx {
        CallCtx::with_token(0, self.user_id, self.token.clone())
    }
}

impl FromRequestParts<AppState> for UserAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(&parts.headers).ok_or_else(|| ApiError::unauthenticated(Code::Unauthenticated))?;
        let claims = state.keys.verify(token, &[AUD_USER, AUD_STORE])?;
        let user_id = claims.sub.parse().map_err(|_| ApiError::unauthenticated(Code::Unauthenticated))?;
        check_session(state, &claims.sid).await?;
        let call = state.keys.call_token(user_id, &claims.sid, 0, "", &[])?;
        Ok(UserAuth { user_id, session_id: claims.sid, token: call.into() })
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
    /// This request's call token, forwarded to services (which check it again): minted once
    /// the store token, its session and its membership version were checked.
    pub token: std::sync::Arc<str>,
    /// The saved answer of a repeated `Idempotency-Key`, answered by [`StoreAuth::require`]
    /// once the permission check passes (set by the idempotency layer).
    pub(crate) replay: Option<crate::idempotency::Replay>,
}

impl StoreAuth {
    /// The call context for services: the store token itself.
    pub fn ctx(&self) -> CallCtx {
        CallCtx::with_token(self.store_id, self.user_id, self.token.clone())
    }

    /// Refuses unless the route's role or permission check passes. On a repeated
    /// `Idempotency-Key` whose check passes, answers the saved answer instead, so the
    /// handler never acts twice (every write handler calls this before it acts).
    pub fn require(&self, access: Access) -> Result<(), ApiError> {
        if !access.allows(&self.permission, &self.perms) {
            return Err(ApiError::forbidden());
        }
        if let Some(replay) = &self.replay {
            return Err(ApiError::replay(replay.clone()));
        }
        Ok(())
    }

    /// Whether the route's role or permission check would pass.
    pub fn allows(&self, access: Access) -> bool {
        access.allows(&self.permission, &self.perms)
    }

    /// Refuses a path store id that is not the token's store.
    pub fn same_store(&self, store_id: i64) -> Result<(), ApiError> {
        if store_id == self.store_id {
            Ok(())
        } else {
            Err(ApiError::new(axum::http::StatusCode::FORBIDDEN, Code::StoreMismatch))
        }
    }

    /// Both checks at once.
    pub fn require_in(&self, store_id: i64, access: Access) -> Result<(), ApiError> {
        self.same_store(store_id)?;
        self.require(access)
    }
}

impl StoreAuth {
    /// Checks the store token of `headers` and its session: once per request, by the
    /// idempotency layer before it reads a body, else by the extractor.
    pub async fn authenticate(state: &AppState, headers: &axum::http::HeaderMap) -> Result<StoreAuth, ApiError> {
        let token = bearer(headers).ok_or_else(|| ApiError::unauthenticated(Code::Unauthenticated))?;
        let claims = state.keys.verify(token, &[AUD_USER, AUD_STORE])?;
        if claims.aud != AUD_STORE {
            // A user token on a store route: signed in, but no store chosen.
            return Err(ApiError::new(axum::http::StatusCode::FORBIDDEN, Code::StoreTokenRequired));
        }
        let (Some(store_id), Some(permission)) = (claims.store, claims.perm) else {
            return Err(ApiError::unauthenticated(Code::Unauthenticated));
        };
        let user_id = claims.sub.parse().map_err(|_| ApiError::unauthenticated(Code::Unauthenticated))?;
        check_membership(state, &claims.sid, store_id, claims.mv.unwrap_or(0)).await?;
        let call = state.keys.call_token(user_id, &claims.sid, store_id, &permission, &claims.perms)?;
        Ok(StoreAuth {
            store_id,
            user_id,
            permission,
            perms: claims.perms,
            session_id: claims.sid,
            token: call.into(),
            replay: None,
        })
    }
}

impl FromRequestParts<AppState> for StoreAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // The idempotency layer has checked the token and session already when a key came.
        if let Some(auth) = parts.extensions.get::<StoreAuth>() {
            return Ok(auth.clone());
        }
        StoreAuth::authenticate(state, &parts.headers).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn membership_agreement_is_kept_briefly_and_forgotten_on_change() {
        let c = MembershipCache::new(Duration::from_secs(60));
        c.agreed("s1", 7, 3, c.generation());
        c.agreed("s2", 8, 1, c.generation());
        assert!(c.holds("s1", 7, 3));
        assert!(!c.holds("s1", 7, 4), "another version is asked again");
        assert!(!c.holds("s1", 9, 3), "another store too");
        c.forget_store(7);
        assert!(!c.holds("s1", 7, 3) && c.holds("s2", 8, 1), "only the changed store is forgotten");
        c.forget_session("s2");
        assert!(!c.holds("s2", 8, 1));
        // An answer asked for before a change and arriving after it is not kept.
        let asked = c.generation();
        c.forget_store(9);
        c.agreed("s3", 7, 1, asked);
        assert!(!c.holds("s3", 7, 1));
        let off = MembershipCache::new(Duration::ZERO);
        off.agreed("s1", 7, 3, off.generation());
        assert!(!off.holds("s1", 7, 3), "0 asks every time");
    }

    #[test]
    fn failures_are_limited_per_address_and_per_account() {
        let l = LoginLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        // Successes count for nothing: an attempt dropped without failing is given back.
        for _ in 0..5 {
            drop(l.begin(a, "x@shop.th").expect("allowed"));
        }
        for _ in 0..3 {
            l.begin(a, "x@shop.th").expect("allowed").failed();
        }
        assert!(l.begin(a, "someone-else@shop.th").is_none(), "the address is spent");
        assert!(l.begin(b, "x@shop.th").is_none(), "the account is spent, from any address");
        assert!(l.begin(b, "y@shop.th").is_some(), "others are untouched");
    }

    #[test]
    fn attempts_being_checked_count_against_the_limit() {
        let l = LoginLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..3).map(|_| l.begin(a, "x@shop.th").expect("allowed")).collect();
        assert!(l.begin(a, "x@shop.th").is_none(), "three in flight: a fourth waits for their outcome");
        let mut held = held.into_iter();
        drop(held.next()); // succeeded: its place is free again
        let again = l.begin(a, "x@shop.th").expect("a place was given back");
        for attempt in held.chain([again]) {
            attempt.failed();
        }
        assert!(l.begin(a, "x@shop.th").is_none(), "three failures: spent for the minute");
    }

    #[test]
    fn forwarded_addresses_count_only_behind_trusted_proxies() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap(), "fd00::1".parse().unwrap()];
        let mut h = axum::http::HeaderMap::new();
        h.insert("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.1.1.1".parse().unwrap());
        let proxy: IpAddr = "10.0.0.5".parse().unwrap();
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        assert_eq!(client_ip(proxy, &h, &trusted), "203.0.113.9".parse::<IpAddr>().unwrap());
        assert_eq!(client_ip(stranger, &h, &trusted), stranger, "an untrusted peer cannot claim an address");
        assert_eq!(client_ip(proxy, &axum::http::HeaderMap::new(), &trusted), proxy);
        let net: IpNet = "192.168.1.0/24".parse().unwrap();
        assert!(net.contains("192.168.1.200".parse().unwrap()) && !net.contains("192.168.2.1".parse().unwrap()));
        assert!("0.0.0.0/0".parse::<IpNet>().unwrap().contains("8.8.8.8".parse().unwrap()));
        assert!("fd00::1".parse::<IpNet>().unwrap().contains("fd00::1".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<IpNet>().is_err() && "nope".parse::<IpNet>().is_err());
    }
}
