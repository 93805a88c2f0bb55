//! Users: email sign-in with argon2id password hashes.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use super::{is_valid_email, msg, Errors};

/// The shortest password accepted.
pub const MIN_PASSWORD: usize = 8;

/// Normalises an email for storage and look-up.
pub fn normalise_email(s: &str) -> String {
    s.trim().to_lowercase()
}

/// Checks a new account's email and password.
pub fn validate_new_account(email: &str, password: &str) -> bo_kit::Result<()> {
    let mut errs = Errors::default();
    if email.trim().is_empty() {
        errs.add("email", msg::REQUIRED);
    } else if !is_valid_email(email) {
        errs.add("email", msg::EMAIL);
    }
    if password.chars().count() < MIN_PASSWORD {
        errs.add("password", msg::PASSWORD_SHORT);
    }
    errs.max_len("password", password, 256);
    errs.finish()
}

/// Hashes a password with argon2id and a random salt.
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
}

/// Checks a password against a stored hash. Unknown users are checked against a fixed
/// hash, so the answer takes as long whether or not the email exists.
pub fn verify_password(password: &str, hash: Option<&str>) -> bool {
    const DUMMY: &str =
        "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0pHq3xqEo8xwYxVxWJnXJ5E3m1p9L8vPq6y0c5XxQ2E";
    let Ok(parsed) = PasswordHash::new(hash.unwrap_or(DUMMY)) else { return false };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok() && hash.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", Some(&h)));
        assert!(!verify_password("wrong", Some(&h)));
        assert!(!verify_password("correct horse", None));
    }

    #[test]
    fn accounts_need_an_email_and_a_long_password() {
        assert!(validate_new_account("owner@example.com", "12345678").is_ok());
        let e = validate_new_account("nope", "short").unwrap_err();
        let f: Vec<_> = e.fields.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(f, ["email", "password"]);
        assert_eq!(normalise_email(" Owner@Example.COM "), "owner@example.com");
    }
}
