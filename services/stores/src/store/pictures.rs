//! SQL for the store's pictures, its receipt text and the owner's identity verification.

use bo_kit::time::now_ms;
use bo_kit::{Error, Result};
use serde_json::json;
use sqlx::FromRow;

use super::team::record;
use super::Repo;
use crate::domain::identity::{next, state, Action, IdentityDraft, Slot};

/// The receipt's footer text row.
#[derive(Debug, Clone, FromRow)]
pub struct ReceiptRow {
    pub footer_text: String,
    pub updated_by: i64,
    pub updated_at: i64,
}

/// An identity verification row.
#[derive(Debug, Clone, Default, FromRow)]
pub struct IdentityRow {
    pub store_id: i64,
    pub status: String,
    pub first_name: String,
    pub last_name: String,
    pub tel: String,
    pub email: String,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    pub state_province: String,
    pub postcode: String,
    pub id_card_photo: String,
    pub holding_photo: String,
    pub submitted_by: i64,
    pub submitted_at: i64,
    pub approved_at: i64,
}

const IDENTITY_COLUMNS: &str = "store_id, status, first_name, last_name, tel, email, address, sub_district, district, \
     state_province, postcode, id_card_photo, holding_photo, submitted_by, submitted_at, approved_at";

impl Repo {
    /// The store's pictures as (slot, file name).
    pub async fn pictures(&self, store_id: i64) -> Result<Vec<(String, String)>> {
        Ok(sqlx::query_as::<_, (String, String)>(
            "SELECT slot, name FROM store_pictures WHERE store_id = $1 ORDER BY slot",
        )
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The picture in `slot`, if any.
    pub async fn picture(&self, store_id: i64, slot: Slot) -> Result<Option<String>> {
        Ok(sqlx::query_scalar("SELECT name FROM store_pictures WHERE store_id = $1 AND slot = $2")
            .bind(store_id)
            .bind(slot.as_str())
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// Puts `name` in `slot` (None takes the picture out); answers the picture it replaced,
    /// whose file the caller forgets.
    pub async fn set_picture(
        &self,
        store_id: i64,
        actor: i64,
        slot: Slot,
        name: Option<&str>,
    ) -> Result<Option<String>> {
        let mut tx = self.db.begin().await?;
        let old: Option<String> =
            sqlx::query_scalar("DELETE FROM store_pictures WHERE store_id = $1 AND slot = $2 RETURNING name")
                .bind(store_id)
                .bind(slot.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        if let Some(name) = name {
            sqlx::query(
                "INSERT INTO store_pictures (store_id, slot, name, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(store_id)
            .bind(slot.as_str())
            .bind(name)
            .bind(actor)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        let action = if name.is_some() { "store.picture_set" } else { "store.picture_removed" };
        record(&mut tx, store_id, actor, action, "store", store_id, 0, json!({ "slot": slot.as_str() })).await?;
        tx.commit().await?;
        Ok(old)
    }

    /// The receipt's footer text, if the store has written one.
    pub async fn receipt(&self, store_id: i64) -> Result<Option<ReceiptRow>> {
        Ok(sqlx::query_as::<_, ReceiptRow>(
            "SELECT footer_text, updated_by, updated_at FROM receipt_settings WHERE store_id = $1",
        )
        .bind(store_id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Writes the receipt's footer text (checked).
    pub async fn set_receipt_text(&self, store_id: i64, actor: i64, text: &str) -> Result<ReceiptRow> {
        let mut tx = self.db.begin().await?;
        let now = now_ms();
        let row = sqlx::query_as::<_, ReceiptRow>(
            "INSERT INTO receipt_settings (store_id, footer_text, updated_by, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (store_id) DO UPDATE SET footer_text = $2, updated_by = $3, updated_at = $4 \
             RETURNING footer_text, updated_by, updated_at",
        )
        .bind(store_id)
        .bind(text)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        record(&mut tx, store_id, actor, "settings.receipt", "store", store_id, 0, json!({ "footer_text": text }))
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// The store's identity verification, if anything was submitted.
    pub async fn identity(&self, store_id: i64) -> Result<Option<IdentityRow>> {
        Ok(sqlx::query_as::<_, IdentityRow>(&format!(
            "SELECT {IDENTITY_COLUMNS} FROM identity_verifications WHERE store_id = $1"
        ))
        .bind(store_id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Records a submission (checked, its new photos stored as `id_card` and `holding`, None
    /// keeping the earlier ones); answers the row and the photos it replaced. Refused once
    /// approved.
    pub async fn submit_identity(
        &self,
        store_id: i64,
        actor: i64,
        d: &IdentityDraft,
        id_card: Option<&str>,
        holding: Option<&str>,
    ) -> Result<(IdentityRow, Vec<String>)> {
        let mut tx = self.db.begin().await?;
        // The store row's lock keeps two submissions (or a submission and an approval) apart.
        super::team::claim_store(&mut tx, store_id).await?;
        let current = sqlx::query_as::<_, IdentityRow>(&format!(
            "SELECT {IDENTITY_COLUMNS} FROM identity_verifications WHERE store_id = $1"
        ))
        .bind(store_id)
        .fetch_optional(&mut *tx)
        .await?;
        let from = current.as_ref().map(|c| c.status.as_str()).unwrap_or(state::PENDING);
        let to = next(from, Action::Submit).map_err(Error::conflict)?;
        let mut replaced = Vec::new();
        let keep =
            |field: &str, new: Option<&str>, old: Option<&String>, replaced: &mut Vec<String>| -> Result<String> {
                match (new, old.filter(|o| !o.is_empty())) {
                    (Some(n), old) => {
                        replaced.extend(old.cloned());
                        Ok(n.to_string())
                    }
                    (None, Some(o)) => Ok(o.clone()),
                    (None, None) => Err(Error::invalid_field(field, "validation.photo_required")),
                }
            };
        let card = keep("id_card_photo", id_card, current.as_ref().map(|c| &c.id_card_photo), &mut replaced)?;
        let hold = keep("holding_photo", holding, current.as_ref().map(|c| &c.holding_photo), &mut replaced)?;
        let now = now_ms();
        let row = sqlx::query_as::<_, IdentityRow>(&format!(
            "INSERT INTO identity_verifications (store_id, status, first_name, last_name, tel, email, address, sub_district, \
             district, state_province, postcode, id_card_photo, holding_photo, submitted_by, submitted_at, approved_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0) \
             ON CONFLICT (store_id) DO UPDATE SET status = $2, first_name = $3, last_name = $4, tel = $5, email = $6, \
             address = $7, sub_district = $8, district = $9, state_province = $10, postcode = $11, id_card_photo = $12, \
             holding_photo = $13, submitted_by = $14, submitted_at = $15 RETURNING {IDENTITY_COLUMNS}"
        ))
        .bind(store_id)
        .bind(to)
        .bind(&d.first_name)
        .bind(&d.last_name)
        .bind(&d.tel)
        .bind(&d.email)
        .bind(&d.address)
        .bind(&d.sub_district)
        .bind(&d.district)
        .bind(&d.state_province)
        .bind(&d.postcode)
        .bind(&card)
        .bind(&hold)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        // The trail names the step, never the person's details.
        record(&mut tx, store_id, actor, "identity.submitted", "store", store_id, 0, json!({})).await?;
        tx.commit().await?;
        Ok((row, replaced))
    }

    /// The operator's approval of a submitted identity.
    pub async fn approve_identity(&self, store_id: i64) -> Result<IdentityRow> {
        let mut tx = self.db.begin().await?;
        super::team::claim_store(&mut tx, store_id).await?;
        let from: Option<String> = sqlx::query_scalar("SELECT status FROM identity_verifications WHERE store_id = $1")
            .bind(store_id)
            .fetch_optional(&mut *tx)
            .await?;
        let to = next(from.as_deref().unwrap_or(state::PENDING), Action::Approve).map_err(Error::conflict)?;
        let row = sqlx::query_as::<_, IdentityRow>(&format!(
            "UPDATE identity_verifications SET status = $1, approved_at = $2 WHERE store_id = $3 RETURNING {IDENTITY_COLUMNS}"
        ))
        .bind(to)
        .bind(now_ms())
        .bind(store_id)
        .fetch_one(&mut *tx)
        .await?;
        record(&mut tx, store_id, 0, "identity.approved", "store", store_id, 0, json!({})).await?;
        tx.commit().await?;
        Ok(row)
    }
}
