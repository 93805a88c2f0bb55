//! SQL of a store's own channels (social commerce and its website): a row each, rewritten
//! only when its version is the one read.

use bo_kit::time::now_ms;
use bo_kit::{Code, Error, Result};
use sqlx::FromRow;

use super::Repo;
use crate::domain::own_channel::Form;

/// An own channel as kept.
#[derive(Debug, Clone, FromRow)]
pub struct OwnChannelRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub channel: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
}

const COLUMNS: &str = "id, store_id, name, channel, warehouse_id, logistic_channel_id, payment_channel_id, status, \
    created_at, updated_at, version";

fn not_found() -> Error {
    Error::not_found(Code::OwnChannelNotFound)
}

impl Repo {
    /// Makes an own channel of `form` (checked).
    pub async fn create_own_channel(&self, store_id: i64, user_id: i64, form: &Form) -> Result<OwnChannelRow> {
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO own_channels (store_id, name, channel, warehouse_id, logistic_channel_id, payment_channel_id, \
             status, created_by, updated_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9) RETURNING id",
        )
        .bind(store_id)
        .bind(&form.name)
        .bind(&form.channel)
        .bind(form.warehouse_id)
        .bind(form.logistic_channel_id)
        .bind(form.payment_channel_id)
        .bind(&form.status)
        .bind(user_id)
        .bind(now)
        .fetch_one(self.db.pool())
        .await?;
        self.own_channel(store_id, id).await
    }

    /// The store's own channels (active ones only, where asked), oldest first.
    pub async fn own_channels(&self, store_id: i64, active_only: bool) -> Result<Vec<OwnChannelRow>> {
        Ok(sqlx::query_as::<_, OwnChannelRow>(&format!(
            "SELECT {COLUMNS} FROM own_channels WHERE store_id = $1 AND ($2 = 0 OR status = 'active') ORDER BY id"
        ))
        .bind(store_id)
        .bind(i64::from(active_only))
        .fetch_all(self.db.pool())
        .await?)
    }

    /// One own channel of the store.
    pub async fn own_channel(&self, store_id: i64, id: i64) -> Result<OwnChannelRow> {
        sqlx::query_as::<_, OwnChannelRow>(&format!(
            "SELECT {COLUMNS} FROM own_channels WHERE store_id = $1 AND id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(not_found)
    }

    /// Rewrites an own channel's form; refused when it changed since `version` was read (0:
    /// as it is now).
    pub async fn update_own_channel(
        &self,
        store_id: i64,
        user_id: i64,
        id: i64,
        form: &Form,
        version: i64,
    ) -> Result<OwnChannelRow> {
        let done = sqlx::query(
            "UPDATE own_channels SET name = $1, channel = $2, warehouse_id = $3, logistic_channel_id = $4, \
             payment_channel_id = $5, status = $6, updated_by = $7, updated_at = $8, version = version + 1 \
             WHERE store_id = $9 AND id = $10 AND ($11 = 0 OR version = $11)",
        )
        .bind(&form.name)
        .bind(&form.channel)
        .bind(form.warehouse_id)
        .bind(form.logistic_channel_id)
        .bind(form.payment_channel_id)
        .bind(&form.status)
        .bind(user_id)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .bind(version)
        .execute(self.db.pool())
        .await?;
        if done.rows_affected() != 1 {
            self.own_channel(store_id, id).await?;
            return Err(Error::conflict(Code::ApiChannelChanged));
        }
        self.own_channel(store_id, id).await
    }
}
