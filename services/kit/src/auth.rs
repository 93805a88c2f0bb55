//! Tokens, shared by the gateway and every service. Signing in gives a user token (audience
//! `backoffice-user`); exchanging it for a store gives a store token (`backoffice-store`)
//! carrying the store, the user, the permission level and the role's permission keys; work
//! that no request carries (consumers, schedulers, start-up) acts with a short-lived service
//! token (`backoffice-service`). All are HS256 with one shared key, expiry, audience and
//! issuer checked. The gateway forwards the caller's token on every gRPC call and each
//! service checks it again ([`crate::grpc::Verify`]).

use crate::Code;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// The token of an `authorization` header value: `Bearer x` in any letter case.
pub fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

/// Audience of user tokens.
pub const AUD_USER: &str = "backoffice-user";
/// Audience of store tokens.
pub const AUD_STORE: &str = "backoffice-store";
/// Audience of service tokens (background work, start-up, a gateway before sign-in).
pub const AUD_SERVICE: &str = "backoffice-service";
/// Audience of a call token: what the gateway gives the services for one request, once it
/// has checked the user's session (and, for a store, the membership and its version). The
/// services' ports take call and service tokens only, so a user's or a revoked member's
/// token is refused there too (decision 0012).
pub const AUD_CALL: &str = "backoffice-call";
/// Audience of a device token: given with a successful sign-in and shown at the next one,
/// it lets that account's sign-in from this device skip the line strangers wait in.
pub const AUD_DEVICE: &str = "backoffice-device";
/// Lifetime of device tokens: 90 days, renewed on every sign-in.
pub const DEVICE_TOKEN_SECS: i64 = 90 * 24 * 3600;
/// Audience of a download link's token: one file of one store, for a few minutes, to a
/// browser that follows a link and sends no header.
pub const AUD_LINK: &str = "backoffice-link";
/// Lifetime of download links.
pub const LINK_TOKEN_SECS: i64 = 300;
/// Lifetime of call tokens: the longest request's time.
pub const CALL_TOKEN_SECS: i64 = 300;
const ISSUER: &str = "backoffice";
/// Lifetime of service tokens.
pub const SERVICE_TOKEN_SECS: i64 = 300;

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
    /// The membership version the store token was issued at: a membership or role changed
    /// since refuses the token on its next request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<i64>,
}

/// What a store token grants: the membership's permission level, role, the role's keys and
/// the membership version they were read at.
#[derive(Debug, Clone, Default)]
pub struct StoreGrant {
    /// owner, admin or cashier.
    pub permission: String,
    /// The role id.
    pub role: i64,
    /// The role's permission keys.
    pub perms: Vec<String>,
    /// The membership version.
    pub version: i64,
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
            mv: None,
        })
    }

    /// Signs a store token for a membership at `version`.
    pub fn store_token(&self, user_id: i64, sid: &str, store: i64, grant: StoreGrant) -> anyhow::Result<(String, i64)> {
        self.sign(Claims {
            sub: user_id.to_string(),
            aud: AUD_STORE.into(),
            iss: ISSUER.into(),
            iat: 0,
            exp: 0,
            sid: sid.into(),
            store: Some(store),
            perm: Some(grant.permission),
            role: Some(grant.role),
            perms: grant.perms,
            mv: Some(grant.version),
        })
    }

    /// Signs a short-lived service token for `module`, acting in `store` (0 for none) as
    /// `user` (0 for the system).
    pub fn service_token(&self, module: &str, store: i64, user: i64) -> anyhow::Result<String> {
        let now = crate::time::now_ms() / 1000;
        let c = Claims {
            sub: user.to_string(),
            aud: AUD_SERVICE.into(),
            iss: ISSUER.into(),
            iat: now,
            exp: now + SERVICE_TOKEN_SECS,
            sid: format!("service:{module}"),
            store: (store > 0).then_some(store),
            perm: Some("service".into()),
            role: None,
            perms: Vec::new(),
            mv: None,
        };
        Ok(jsonwebtoken::encode(&Header::new(Algorithm::HS256), &c, &self.enc)?)
    }

    /// Signs a call token for one request the gateway checked: `user` of session `sid`,
    /// acting in `store` (0 for none) with the membership's `permission` and `perms`.
    pub fn call_token(
        &self,
        user: i64,
        sid: &str,
        store: i64,
        permission: &str,
        perms: &[String],
    ) -> anyhow::Result<String> {
        let now = crate::time::now_ms() / 1000;
        let c = Claims {
            sub: user.to_string(),
            aud: AUD_CALL.into(),
            iss: ISSUER.into(),
            iat: now,
            exp: now + CALL_TOKEN_SECS,
            sid: sid.into(),
            store: (store > 0).then_some(store),
            perm: (!permission.is_empty()).then(|| permission.to_string()),
            role: None,
            perms: perms.to_vec(),
            mv: None,
        };
        Ok(jsonwebtoken::encode(&Header::new(Algorithm::HS256), &c, &self.enc)?)
    }

    /// Signs a download link's token for the file `what` (e.g. `export:42`) of `store`,
    /// asked by `user`; answers it and when it expires (seconds).
    pub fn link_token(&self, user: i64, store: i64, what: &str) -> anyhow::Result<(String, i64)> {
        let now = crate::time::now_ms() / 1000;
        let c = Claims {
            sub: user.to_string(),
            aud: AUD_LINK.into(),
            iss: ISSUER.into(),
            iat: now,
            exp: now + LINK_TOKEN_SECS,
            sid: what.into(),
            store: Some(store),
            perm: None,
            role: None,
            perms: Vec::new(),
            mv: None,
        };
        Ok((jsonwebtoken::encode(&Header::new(Algorithm::HS256), &c, &self.enc)?, c.exp))
    }

    /// The store and user of a download link's token for `what`; refused when it is for
    /// another file, expired or forged.
    pub fn verify_link(&self, token: &str, what: &str) -> Result<(i64, i64), crate::Error> {
        let c = self.verify(token, &[AUD_LINK])?;
        match (c.sid == what, c.store, c.sub.parse::<i64>()) {
            (true, Some(store), Ok(user)) => Ok((store, user)),
            _ => Err(crate::Error::unauthenticated(Code::Unauthenticated)),
        }
    }

    /// Signs a device token for the account `email` of `user`.
    pub fn device_token(&self, user: i64, email: &str) -> anyhow::Result<String> {
        let now = crate::time::now_ms() / 1000;
        let c = Claims {
            sub: user.to_string(),
            aud: AUD_DEVICE.into(),
            iss: ISSUER.into(),
            iat: now,
            exp: now + DEVICE_TOKEN_SECS,
            sid: format!("device:{}", email.trim().to_lowercase()),
            store: None,
            perm: None,
            role: None,
            perms: Vec::new(),
            mv: None,
        };
        Ok(jsonwebtoken::encode(&Header::new(Algorithm::HS256), &c, &self.enc)?)
    }

    /// Whether `token` is a valid device token of the account `email`.
    pub fn is_device_of(&self, token: &str, email: &str) -> bool {
        self.verify(token, &[AUD_DEVICE])
            .is_ok_and(|c| c.sid.strip_prefix("device:") == Some(email.trim().to_lowercase().as_str()))
    }

    fn sign(&self, mut c: Claims) -> anyhow::Result<(String, i64)> {
        let now = crate::time::now_ms() / 1000;
        c.iat = now;
        c.exp = now + self.ttl_secs;
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &c, &self.enc)?;
        Ok((token, c.exp))
    }

    /// Checks a token for one of `audiences`.
    pub fn verify(&self, token: &str, audiences: &[&str]) -> Result<Claims, crate::Error> {
        let mut v = Validation::new(Algorithm::HS256);
        v.algorithms = vec![Algorithm::HS256];
        v.set_audience(audiences);
        v.set_issuer(&[ISSUER]);
        v.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        v.leeway = 30;
        jsonwebtoken::decode::<Claims>(token, &self.dec, &v).map(|d| d.claims).map_err(|e| match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => crate::Error::unauthenticated(Code::TokenExpired),
            _ => crate::Error::unauthenticated(Code::Unauthenticated),
        })
    }
}

/// Secrets from examples and old defaults, refused wherever they are given.
const KNOWN_SECRETS: &[&str] =
    &["change-me-to-32-or-more-random-bytes!!", "at-least-32-bytes-of-random-secret!", "secret", "changeme"];

/// Refuses a token key that is short, a known example, or too regular to be random: it
/// must be at least 32 bytes, use at least 12 different characters, and carry at least 120
/// bits by its own letter frequencies.
pub fn check_secret(secret: &[u8]) -> anyhow::Result<()> {
    anyhow::ensure!(secret.len() >= 32, "auth.jwt_secret must be at least 32 bytes");
    let text = String::from_utf8_lossy(secret);
    anyhow::ensure!(
        !KNOWN_SECRETS.iter().any(|k| text.trim().eq_ignore_ascii_case(k)) && !text.contains("change-me"),
        "auth.jwt_secret is an example value: generate one (head -c 48 /dev/urandom | base64)"
    );
    let mut counts = [0usize; 256];
    for b in secret {
        counts[*b as usize] += 1;
    }
    let n = secret.len() as f64;
    let per_byte: f64 = counts.iter().filter(|c| **c > 0).map(|c| *c as f64 / n).map(|p| -p * p.log2()).sum();
    let distinct = counts.iter().filter(|c| **c > 0).count();
    anyhow::ensure!(
        distinct >= 12 && per_byte * n >= 120.0,
        "auth.jwt_secret is too regular to be random: generate one (head -c 48 /dev/urandom | base64)"
    );
    Ok(())
}

/// The embedded target's signing key: generated on first start and kept under the data
/// folder, readable by its owner only.
pub fn load_or_create_key(data_dir: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    load_or_create_named_key(data_dir, "jwt.key")
}

/// A 32-byte key kept in `data_dir/<name>` (hex), made on first use: the embedded target's
/// stand-in for a key the operator sets.
pub fn load_or_create_named_key(data_dir: &std::path::Path, name: &str) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context as _;
    let path = data_dir.join(name);
    if let Ok(hex_key) = std::fs::read_to_string(&path) {
        return hex::decode(hex_key.trim()).with_context(|| format!("reading {}", path.display()));
    }
    crate::files::private_dir(data_dir)?;
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

#[cfg(test)]
mod tests {

    #[test]
    fn a_link_opens_its_own_file_only() {
        let keys = Keys::new(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEF", 15).unwrap();
        let (token, exp) = keys.link_token(3, 7, "export:42").unwrap();
        assert!(exp > crate::time::now_ms() / 1000);
        assert_eq!(keys.verify_link(&token, "export:42").unwrap(), (7, 3));
        assert!(keys.verify_link(&token, "export:43").is_err(), "another file");
        assert!(keys.verify(&token, &[AUD_STORE, AUD_CALL]).is_err(), "never a store or call token");
        let other = Keys::new(b"ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlk", 15).unwrap();
        assert!(other.verify_link(&token, "export:42").is_err(), "another key's");
        let (store_token, _) = keys.store_token(3, "s", 7, StoreGrant::default()).unwrap();
        assert!(keys.verify_link(&store_token, "export:42").is_err(), "a store token is no link");
    }

    use super::*;

    #[test]
    fn a_device_token_vouches_for_its_account_only() {
        let keys = Keys::new(b"a-test-secret-of-at-least-32-bytes-long!!", 60).unwrap();
        let device = keys.device_token(7, "Owner@Example.com ").unwrap();
        assert!(keys.is_device_of(&device, "owner@example.com"));
        assert!(!keys.is_device_of(&device, "someone@example.com"));
        assert!(!keys.is_device_of("not.a.token", "owner@example.com"));
        let other = Keys::new(b"another-secret-of-at-least-32-bytes-long", 60).unwrap();
        assert!(!other.is_device_of(&device, "owner@example.com"), "signed with the installation's key");
        // It is nothing else: no store, user or call token is a device token, nor the reverse.
        assert!(keys.verify(&device, &[AUD_USER, AUD_STORE, AUD_CALL, AUD_SERVICE]).is_err());
        let (user, _) = keys.user_token(7, "s").unwrap();
        assert!(!keys.is_device_of(&user, "owner@example.com"));
    }

    #[test]
    fn weak_and_example_secrets_are_refused() {
        assert!(check_secret(b"short").is_err());
        assert!(check_secret(b"change-me-to-32-or-more-random-bytes!!").is_err());
        assert!(check_secret(b"at-least-32-bytes-of-random-secret!").is_err());
        assert!(check_secret(&[b'a'; 64]).is_err());
        assert!(check_secret("ab".repeat(32).as_bytes()).is_err());
        assert!(check_secret(b"0123456789012345678901234567890123456789").is_err());
        assert!(check_secret(b"q8Zr1vN0xK3pLw7YtB5mJc2HfD9sGe4UaXoRiEnT").is_ok());
        assert!(check_secret(b"a-shared-secret-of-at-least-32-bytes!").is_ok());
    }

    fn keys() -> Keys {
        Keys::new(&[7u8; 32], 60).unwrap()
    }

    #[test]
    fn tokens_check_audience_and_signature() {
        let k = keys();
        let (user, _) = k.user_token(5, "s1").unwrap();
        assert!(k.verify(&user, &[AUD_USER]).is_ok());
        assert_eq!(k.verify(&user, &[AUD_STORE]).unwrap_err().code, crate::Code::Unauthenticated);
        let other = Keys::new(&[8u8; 32], 60).unwrap();
        assert!(other.verify(&user, &[AUD_USER]).is_err());
        let (store, _) = k
            .store_token(
                5,
                "s1",
                9,
                StoreGrant { permission: "admin".into(), role: 2, perms: vec!["store.customer.*".into()], version: 3 },
            )
            .unwrap();
        let c = k.verify(&store, &[AUD_STORE]).unwrap();
        assert_eq!((c.store, c.perm.as_deref(), c.perms.len(), c.mv), (Some(9), Some("admin"), 1, Some(3)));
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
            mv: None,
        };
        let hs512 =
            jsonwebtoken::encode(&Header::new(Algorithm::HS512), &claims, &EncodingKey::from_secret(&[7u8; 32]))
                .unwrap();
        assert!(k.verify(&hs512, &[AUD_USER]).is_err());
        let expired = Claims { exp: 1_000, ..claims };
        let old = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &expired, &EncodingKey::from_secret(&[7u8; 32]))
            .unwrap();
        assert_eq!(k.verify(&old, &[AUD_USER]).unwrap_err().code, crate::Code::TokenExpired);
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
    fn service_tokens_are_short_lived_and_scoped() {
        let k = keys();
        let t = k.service_token("wms", 9, 3).unwrap();
        let c = k.verify(&t, &[AUD_SERVICE]).unwrap();
        assert_eq!((c.store, c.sub.as_str(), c.perm.as_deref()), (Some(9), "3", Some("service")));
        assert!(c.exp - c.iat <= SERVICE_TOKEN_SECS);
        assert!(k.verify(&t, &[AUD_STORE, AUD_USER]).is_err(), "not a store or user token");
        let system = k.verify(&k.service_token("gateway", 0, 0).unwrap(), &[AUD_SERVICE]).unwrap();
        assert_eq!(system.store, None);
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(Keys::new(b"short", 60).is_err());
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
