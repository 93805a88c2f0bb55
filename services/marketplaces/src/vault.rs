//! Marketplace tokens at rest: sealed with AES-256-GCM under a key from config
//! (`services.marketplaces.token_key`, 64 hex digits), each bound to the row and field it
//! belongs to (the associated data), so a sealed token copied into another shop's row does
//! not open. A sealed value names its key by a short fingerprint; keys listed in
//! `previous_token_keys` still open what they sealed, so a key can be changed without
//! disconnecting a shop (the next refresh seals with the new key).
//!
//! Written as `v1:<key fingerprint>:<hex of nonce, ciphertext and tag>`.

use std::fmt;

use bo_kit::config::Secret;
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};
use ring::rand::{SecureRandom, SystemRandom};

/// Why a token could not be sealed or opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VaultError {
    /// A configured key is not 64 hex digits.
    #[error("a token key must be 64 hex digits (32 bytes): head -c 32 /dev/urandom | xxd -p -c 64")]
    BadKey,
    /// The sealed value was made with a key we no longer have.
    #[error("the token was sealed with a key that is not configured (fingerprint {0})")]
    UnknownKey(String),
    /// The sealed value is damaged, or belongs to another row.
    #[error("the sealed token does not open (damaged, or moved from another record)")]
    Tampered,
}

/// The keys tokens are sealed with. `Debug` shows fingerprints only.
#[derive(Clone)]
pub struct Vault {
    /// The key that seals, then the older ones that still open.
    keys: Vec<(String, std::sync::Arc<LessSafeKey>)>,
}

impl fmt::Debug for Vault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vault").field("keys", &self.keys.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>()).finish()
    }
}

impl Vault {
    /// The vault sealing with `key` and opening with it and `previous`.
    pub fn new(key: &Secret, previous: &[Secret]) -> Result<Vault, VaultError> {
        let keys = std::iter::once(key)
            .chain(previous)
            .map(|k| {
                let bytes = hex::decode(k.expose().trim()).map_err(|_| VaultError::BadKey)?;
                if bytes.len() != 32 {
                    return Err(VaultError::BadKey);
                }
                let unbound = UnboundKey::new(&AES_256_GCM, &bytes).map_err(|_| VaultError::BadKey)?;
                Ok((fingerprint(&bytes), std::sync::Arc::new(LessSafeKey::new(unbound))))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Vault { keys })
    }

    /// A new random key, as config takes it (for the embedded target's generated key).
    pub fn generate_key() -> Secret {
        let mut bytes = [0u8; 32];
        SystemRandom::new().fill(&mut bytes).expect("the system's random source");
        Secret::new(hex::encode(bytes))
    }

    /// `plain` sealed for the place `binding` names (`"channel:12:access"`).
    pub fn seal(&self, binding: &str, plain: &str) -> String {
        let (id, key) = &self.keys[0];
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new().fill(&mut nonce).expect("the system's random source");
        let mut sealed = plain.as_bytes().to_vec();
        key.seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(binding.as_bytes()), &mut sealed)
            .expect("AES-GCM seals any length we store");
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        format!("v1:{id}:{}", hex::encode(out))
    }

    /// What `sealed` holds, if it was sealed for `binding` with one of our keys.
    pub fn open(&self, binding: &str, sealed: &str) -> Result<Secret, VaultError> {
        let mut parts = sealed.splitn(3, ':');
        let (Some("v1"), Some(id), Some(body)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(VaultError::Tampered);
        };
        let (_, key) = self.keys.iter().find(|(k, _)| k == id).ok_or_else(|| VaultError::UnknownKey(id.to_string()))?;
        let bytes = hex::decode(body).map_err(|_| VaultError::Tampered)?;
        if bytes.len() < NONCE_LEN {
            return Err(VaultError::Tampered);
        }
        let (nonce, rest) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| VaultError::Tampered)?;
        let mut buf = rest.to_vec();
        let plain =
            key.open_in_place(nonce, Aad::from(binding.as_bytes()), &mut buf).map_err(|_| VaultError::Tampered)?;
        String::from_utf8(plain.to_vec()).map(Secret::new).map_err(|_| VaultError::Tampered)
    }
}

/// A key's fingerprint: the first 4 bytes of its SHA-256, in hex.
fn fingerprint(key: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, key);
    hex::encode(&digest.as_ref()[..4])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> Secret {
        Secret::new(hex::encode([byte; 32]))
    }

    #[test]
    fn a_token_opens_where_it_was_sealed_and_nowhere_else() {
        let v = Vault::new(&key(1), &[]).unwrap();
        let sealed = v.seal("channel:7:access", "shopee-access-token");
        assert!(sealed.starts_with("v1:"), "{sealed}");
        assert!(!sealed.contains("shopee-access-token"));
        assert_eq!(v.open("channel:7:access", &sealed).unwrap().expose(), "shopee-access-token");
        assert_eq!(v.open("channel:8:access", &sealed), Err(VaultError::Tampered), "moved to another row");
        assert_eq!(v.open("channel:7:refresh", &sealed), Err(VaultError::Tampered), "moved to another field");
        let mut flipped = sealed.clone().into_bytes();
        let last = flipped.len() - 1;
        flipped[last] = if flipped[last] == b'0' { b'1' } else { b'0' };
        assert_eq!(v.open("channel:7:access", std::str::from_utf8(&flipped).unwrap()), Err(VaultError::Tampered));
        assert_eq!(v.open("channel:7:access", "plain"), Err(VaultError::Tampered));
    }

    #[test]
    fn two_seals_of_one_token_differ() {
        let v = Vault::new(&key(1), &[]).unwrap();
        assert_ne!(v.seal("b", "t"), v.seal("b", "t"));
    }

    #[test]
    fn an_old_key_still_opens_and_the_new_one_seals() {
        let old = Vault::new(&key(1), &[]).unwrap();
        let sealed_old = old.seal("b", "t");
        let rolled = Vault::new(&key(2), &[key(1)]).unwrap();
        assert_eq!(rolled.open("b", &sealed_old).unwrap().expose(), "t");
        let sealed_new = rolled.seal("b", "t");
        assert!(matches!(old.open("b", &sealed_new), Err(VaultError::UnknownKey(_))));
        let forgotten = Vault::new(&key(2), &[]).unwrap();
        assert!(matches!(forgotten.open("b", &sealed_old), Err(VaultError::UnknownKey(_))));
    }

    #[test]
    fn keys_must_be_32_bytes_of_hex_and_never_show() {
        assert_eq!(Vault::new(&Secret::new("short"), &[]).unwrap_err(), VaultError::BadKey);
        assert_eq!(Vault::new(&Secret::new("zz".repeat(32)), &[]).unwrap_err(), VaultError::BadKey);
        let generated = Vault::generate_key();
        assert_eq!(generated.expose().len(), 64);
        let v = Vault::new(&generated, &[]).unwrap();
        assert!(!format!("{v:?}").contains(generated.expose()));
    }
}
