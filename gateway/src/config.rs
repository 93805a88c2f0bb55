//! The gateway's sections of the configuration (`auth`, `maintenance`), read from the
//! process's configuration through its module context. Secrets never print.

use bo_kit::config::Secret;
use serde::{Deserialize, Serialize};

/// Tokens and sign-in.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct AuthConfig {
    /// HMAC key for tokens (at least 32 bytes). Required by distributed gateways so every
    /// replica accepts every token; the embedded target generates one under `data_dir`.
    pub jwt_secret: Secret,
    /// Token lifetime in minutes.
    pub token_ttl_minutes: i64,
    /// Sign-in attempts allowed per client address per minute.
    pub login_attempts_per_minute: u32,
    /// Slips a bill's public page takes per client address, and per bill, per minute.
    pub slips_per_minute: u32,
    /// Unsigned pushes a marketplace push path takes from one client address per minute
    /// before it answers 429 to that address (signed pushes are never counted).
    pub unsigned_pushes_per_minute: u32,
    /// How long a gateway trusts its last check of a store token's membership, in
    /// milliseconds (decision 0012). A change made through this gateway takes effect on the
    /// next request whatever this is; one made through another replica within this time.
    /// 0 asks the stores service on every request.
    pub membership_check_ms: u64,
    /// Calls an open-API channel's key may make per minute (a burst of as many, then that
    /// pace), per gateway replica.
    pub api_requests_per_minute: u32,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            jwt_secret: Secret::default(),
            token_ttl_minutes: 12 * 60,
            login_attempts_per_minute: 10,
            slips_per_minute: 5,
            unsigned_pushes_per_minute: 30,
            membership_check_ms: 1000,
            api_requests_per_minute: 300,
        }
    }
}

/// Maintenance notice answered by `/api/statuses/services/maintaining`.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct MaintenanceConfig {
    /// The back-office is under maintenance.
    pub enabled: bool,
}
