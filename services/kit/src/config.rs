//! Configuration pieces shared by every target.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A secret value (a key, a password): never printed, never logged.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(s: impl Into<String>) -> Self {
        Self(s.into())
    }
    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// True when no secret is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "Secret(<empty>)" } else { "Secret(<redacted>)" })
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        text(d).map(Secret)
    }
}

/// A setting that is text even where the environment's value reads as a number (an app key
/// `100001` set as `BO_…=100001`): `#[serde(deserialize_with = "bo_kit::config::text")]`.
pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Read {
        Words(String),
        Signed(i64),
        Unsigned(u64),
        Real(f64),
    }
    Ok(match Read::deserialize(d)? {
        Read::Words(s) => s,
        Read::Signed(n) => n.to_string(),
        Read::Unsigned(n) => n.to_string(),
        Read::Real(n) => n.to_string(),
    })
}

/// Serialises the value itself: configuration layering (defaults → file → environment)
/// passes through serde. Only `Debug` and `Display` are shown to people, and both redact.
impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// Hides the password of a database or NATS URL for logging.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print() {
        let s = Secret::new("hunter2");
        assert!(!format!("{s:?} {s}").contains("hunter2"));
    }

    #[test]
    fn redacts_url_passwords() {
        assert_eq!(redact_url("postgres://bo:pw@db:5432/x"), "postgres://bo:***@db:5432/x");
        assert_eq!(redact_url("sqlite://data/x.db"), "sqlite://data/x.db");
        assert_eq!(redact_url("nats://host:4222"), "nats://host:4222");
    }
}
