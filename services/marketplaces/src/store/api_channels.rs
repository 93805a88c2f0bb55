//! SQL of open-API channels and their keys. A key is kept as its prefix and the digest of its
//! secret; binding a generated key to a channel, rolling and revoking are conditional updates
//! in the channel's transaction, so a key is bound once and a roll never leaves two new keys.

use base64::Engine as _;
use bo_kit::time::now_ms;
use bo_kit::{Code, Error, FieldError, Result};
use sqlx::FromRow;

use super::Repo;
use crate::adapters::Secret;
use crate::domain::api_channel::{self, Form};

/// An open-API channel as kept (its webhook secret sealed).
#[derive(Debug, Clone, FromRow)]
pub struct ApiChannelRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub channel: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    pub status: String,
    pub webhook_url: String,
    /// JSON: the events its webhook is sent.
    pub events: String,
    pub created_by: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    /// Its webhook has been failing since (0: answering), ms.
    pub webhook_failing_since: i64,
    /// Its webhook was turned off at (0: on), ms.
    pub webhook_disabled_at: i64,
    /// Its webhook's last delivery (0: none), ms.
    pub webhook_delivered_at: i64,
}

impl ApiChannelRow {
    /// The events its webhook is sent.
    pub fn events(&self) -> Vec<String> {
        serde_json::from_str(&self.events).unwrap_or_default()
    }

    /// Whether its keys work.
    pub fn active(&self) -> bool {
        self.status == api_channel::Status::Active.as_str()
    }
}

const CHANNEL_COLUMNS: &str = "id, store_id, name, channel, warehouse_id, logistic_channel_id, payment_channel_id, \
    status, webhook_url, events, created_by, created_at, updated_at, version, webhook_failing_since, \
    webhook_disabled_at, webhook_delivered_at";

/// A key of a channel as the screens show it (never its secret).
#[derive(Debug, Clone, FromRow)]
pub struct KeyRow {
    pub id: i64,
    pub api_channel_id: i64,
    pub prefix: String,
    pub created_by: i64,
    pub created_at: i64,
    pub bound_at: i64,
    pub expires_at: i64,
    pub revoked_at: i64,
    pub last_used_at: i64,
}

impl KeyRow {
    /// Whether it works at `now` (ms).
    pub fn works(&self, now: i64) -> bool {
        self.api_channel_id > 0 && self.revoked_at == 0 && (self.expires_at == 0 || self.expires_at > now)
    }
}

const KEY_COLUMNS: &str =
    "id, api_channel_id, prefix, created_by, created_at, bound_at, expires_at, revoked_at, last_used_at";

fn not_found() -> Error {
    Error::not_found(Code::ApiChannelNotFound)
}

fn binding(id: i64) -> String {
    format!("api_channel:{id}:webhook_secret")
}

/// A new webhook signing secret, as the Standard Webhooks specification writes one.
fn new_webhook_secret() -> String {
    use ring::rand::SecureRandom as _;
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new().fill(&mut bytes).expect("the system's random source");
    format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

impl Repo {
    /// Keeps a new key of the store, waiting for its channel for an hour: (the key, its id).
    pub async fn generate_api_key(&self, store_id: i64, user_id: i64) -> Result<(String, i64)> {
        let (key, prefix, digest) = api_channel::new_key();
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO api_keys (store_id, prefix, secret_hash, created_by, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(store_id)
        .bind(&prefix)
        .bind(&digest)
        .bind(user_id)
        .bind(now)
        .bind(now + api_channel::UNBOUND_MS)
        .fetch_one(self.db.pool())
        .await?;
        // Generated keys never given to a channel are dropped a day after their hour.
        sqlx::query("DELETE FROM api_keys WHERE api_channel_id = 0 AND expires_at < $1")
            .bind(now - 86_400_000)
            .execute(self.db.pool())
            .await?;
        Ok((key, id))
    }

    /// Makes a channel of `form` (checked) with the generated key `key_id`, which it takes.
    pub async fn create_api_channel(
        &self,
        store_id: i64,
        user_id: i64,
        form: &Form,
        key_id: i64,
    ) -> Result<ApiChannelRow> {
        let mut tx = self.db.begin().await?;
        let id = self.insert_api_channel(&mut tx, store_id, user_id, form, key_id).await?;
        tx.commit().await?;
        self.api_channel(store_id, id).await
    }

    /// Writes a channel of `form` with its webhook secret and the generated key `key_id` in
    /// `tx`: its id.
    pub(super) async fn insert_api_channel(
        &self,
        tx: &mut bo_kit::db::Tx,
        store_id: i64,
        user_id: i64,
        form: &Form,
        key_id: i64,
    ) -> Result<i64> {
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO api_channels (store_id, name, channel, warehouse_id, logistic_channel_id, payment_channel_id, \
             status, webhook_url, events, created_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
        )
        .bind(store_id)
        .bind(&form.name)
        .bind(&form.channel)
        .bind(form.warehouse_id)
        .bind(form.logistic_channel_id)
        .bind(form.payment_channel_id)
        .bind(&form.status)
        .bind(&form.webhook_url)
        .bind(serde_json::to_string(&form.events).map_err(Error::internal)?)
        .bind(user_id)
        .bind(now)
        .fetch_one(&mut **tx)
        .await?;
        sqlx::query("UPDATE api_channels SET webhook_secret = $1 WHERE id = $2")
            .bind(self.vault.seal(&binding(id), &new_webhook_secret()))
            .bind(id)
            .execute(&mut **tx)
            .await?;
        bind_key(tx, store_id, id, key_id, now).await?;
        Ok(id)
    }

    /// The store's open-API channels, oldest first.
    pub async fn api_channels(&self, store_id: i64) -> Result<Vec<ApiChannelRow>> {
        Ok(sqlx::query_as::<_, ApiChannelRow>(&format!(
            "SELECT {CHANNEL_COLUMNS} FROM api_channels WHERE store_id = $1 \
             AND id NOT IN (SELECT api_channel_id FROM magento_channels WHERE store_id = $1) ORDER BY id"
        ))
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// One channel of the store.
    pub async fn api_channel(&self, store_id: i64, id: i64) -> Result<ApiChannelRow> {
        sqlx::query_as::<_, ApiChannelRow>(&format!(
            "SELECT {CHANNEL_COLUMNS} FROM api_channels WHERE store_id = $1 AND id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(not_found)
    }

    /// A channel's webhook signing secret.
    pub async fn webhook_secret(&self, store_id: i64, id: i64) -> Result<Secret> {
        let sealed: Option<String> =
            sqlx::query_scalar("SELECT webhook_secret FROM api_channels WHERE store_id = $1 AND id = $2")
                .bind(store_id)
                .bind(id)
                .fetch_optional(self.db.pool())
                .await?;
        let sealed = sealed.ok_or_else(not_found)?;
        self.vault.open(&binding(id), &sealed).map_err(|e| Error::internal(anyhow::anyhow!("{e}")))
    }

    /// Rewrites a channel's form; refused when it changed since `version` was read (0: as
    /// it is now).
    pub async fn update_api_channel(&self, store_id: i64, id: i64, form: &Form, version: i64) -> Result<ApiChannelRow> {
        let done = sqlx::query(
            "UPDATE api_channels SET name = $1, channel = $2, warehouse_id = $3, logistic_channel_id = $4, \
             payment_channel_id = $5, status = $6, webhook_url = $7, events = $8, updated_at = $9, \
             version = version + 1 WHERE store_id = $10 AND id = $11 AND ($12 = 0 OR version = $12)",
        )
        .bind(&form.name)
        .bind(&form.channel)
        .bind(form.warehouse_id)
        .bind(form.logistic_channel_id)
        .bind(form.payment_channel_id)
        .bind(&form.status)
        .bind(&form.webhook_url)
        .bind(serde_json::to_string(&form.events).map_err(Error::internal)?)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .bind(version)
        .execute(self.db.pool())
        .await?;
        if done.rows_affected() != 1 {
            self.api_channel(store_id, id).await?;
            return Err(Error::conflict(Code::ApiChannelChanged));
        }
        self.api_channel(store_id, id).await
    }

    /// Gives a channel the generated key `key_id`: the keys it had work `grace_hours` more
    /// (0: they stop now).
    pub async fn roll_api_key(&self, store_id: i64, id: i64, key_id: i64, grace_hours: i64) -> Result<()> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let lock = tx.for_update();
        let found: Option<i64> =
            sqlx::query_scalar(&format!("SELECT id FROM api_channels WHERE store_id = $1 AND id = $2{lock}"))
                .bind(store_id)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        found.ok_or_else(not_found)?;
        let until = now + grace_hours * 3_600_000;
        // The keys working now end with the grace period (or now); none is made to last longer.
        sqlx::query(
            "UPDATE api_keys SET expires_at = $1 WHERE store_id = $2 AND api_channel_id = $3 AND revoked_at = 0 \
             AND (expires_at = 0 OR expires_at > $1)",
        )
        .bind(until)
        .bind(store_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if grace_hours == 0 {
            sqlx::query(
                "UPDATE api_keys SET revoked_at = $1 WHERE store_id = $2 AND api_channel_id = $3 AND revoked_at = 0",
            )
            .bind(now)
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        bind_key(&mut tx, store_id, id, key_id, now).await?;
        sqlx::query("UPDATE api_channels SET updated_at = $1, version = version + 1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Revokes every key of a channel at once: none works until a new one is given.
    pub async fn revoke_api_keys(&self, store_id: i64, id: i64) -> Result<u64> {
        self.api_channel(store_id, id).await?;
        let now = now_ms();
        let done = sqlx::query(
            "UPDATE api_keys SET revoked_at = $1 WHERE store_id = $2 AND api_channel_id = $3 AND revoked_at = 0",
        )
        .bind(now)
        .bind(store_id)
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected())
    }

    /// A channel's keys, newest first.
    pub async fn api_keys(&self, store_id: i64, id: i64) -> Result<Vec<KeyRow>> {
        Ok(sqlx::query_as::<_, KeyRow>(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys WHERE store_id = $1 AND api_channel_id = $2 ORDER BY id DESC"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The active channel a key opens, when it works (the key's use is noted at most once a
    /// minute).
    pub async fn authenticate_api_key(&self, key: &str) -> Result<Option<ApiChannelRow>> {
        let Some((prefix, secret)) = api_channel::parse_key(key) else { return Ok(None) };
        let found: Option<(i64, i64, String, i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT id, api_channel_id, secret_hash, store_id, expires_at, revoked_at, last_used_at FROM api_keys \
             WHERE prefix = $1",
        )
        .bind(prefix)
        .fetch_optional(self.db.pool())
        .await?;
        let Some((key_id, channel_id, hash, store_id, expires_at, revoked_at, last_used_at)) = found else {
            return Ok(None);
        };
        let now = now_ms();
        let works = channel_id > 0 && revoked_at == 0 && (expires_at == 0 || expires_at > now);
        if !works || !api_channel::secret_matches(secret, &hash) {
            return Ok(None);
        }
        let channel = self.api_channel(store_id, channel_id).await?;
        if !channel.active() {
            return Ok(None);
        }
        if now - last_used_at > 60_000 {
            sqlx::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2")
                .bind(now)
                .bind(key_id)
                .execute(self.db.pool())
                .await?;
        }
        Ok(Some(channel))
    }
}

/// Gives channel `id` the generated key `key_id` of the store (refused when it is not one
/// waiting for its channel: `api_key_not_generated`).
async fn bind_key(tx: &mut bo_kit::db::Tx, store_id: i64, id: i64, key_id: i64, now: i64) -> Result<()> {
    let bound = sqlx::query(
        "UPDATE api_keys SET api_channel_id = $1, bound_at = $2, expires_at = 0 \
         WHERE id = $3 AND store_id = $4 AND api_channel_id = 0 AND revoked_at = 0 AND expires_at > $2",
    )
    .bind(id)
    .bind(now)
    .bind(key_id)
    .bind(store_id)
    .execute(&mut **tx)
    .await?;
    if bound.rows_affected() != 1 {
        let mut e = Error::failed_precondition(Code::ApiKeyNotGenerated);
        e.fields = vec![FieldError::new("key_id", "validation.api_key")];
        return Err(e);
    }
    Ok(())
}
