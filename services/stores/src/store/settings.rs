//! SQL for store settings: units of measurement and safety-stock history.

use bo_kit::error::is_unique_violation;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use sqlx::FromRow;

use super::Repo;
use crate::domain::bills::BillExpiry;
use crate::domain::settings::Unit;

/// A unit of measurement row.
#[derive(Debug, Clone, FromRow)]
pub struct UnitRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub quantity: i64,
    pub base_unit: String,
    pub created_by: i64,
    pub updated_by: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A bill expiry setting row.
#[derive(Debug, Clone, FromRow)]
pub struct BillExpiryRow {
    pub id: i64,
    pub store_id: i64,
    pub expiry_type: String,
    pub days: i64,
    pub hours: i64,
    pub minutes: i64,
    pub on_expiry: String,
    pub created_by: i64,
    pub created_at: i64,
}

const BILL_EXPIRY_COLUMNS: &str = "id, store_id, expiry_type, days, hours, minutes, on_expiry, created_by, created_at";

/// A safety-stock history row.
#[derive(Debug, Clone, FromRow)]
pub struct SafetyStockRow {
    pub id: i64,
    pub store_id: i64,
    pub amount: i64,
    pub created_by: i64,
    pub created_at: i64,
}

const UNIT_COLUMNS: &str = "id, store_id, name, quantity, base_unit, created_by, updated_by, created_at, updated_at";

fn name_conflict(e: sqlx::Error) -> Error {
    if is_unique_violation(&e) {
        Error::conflict(Code::UnitNameDuplicate)
    } else {
        e.into()
    }
}

impl Repo {
    /// A store's units of measurement, newest first, paged.
    pub async fn units(&self, store_id: i64, page: PageRequest) -> Result<(Vec<UnitRow>, Page)> {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM store_unit_of_measurements WHERE store_id = $1")
            .bind(store_id)
            .fetch_one(self.db.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, UnitRow>(&format!(
            "SELECT {UNIT_COLUMNS} FROM store_unit_of_measurements WHERE store_id = $1 \
             ORDER BY id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(store_id)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page))
    }

    /// One unit of a store.
    pub async fn unit(&self, store_id: i64, id: i64) -> Result<UnitRow> {
        sqlx::query_as::<_, UnitRow>(&format!(
            "SELECT {UNIT_COLUMNS} FROM store_unit_of_measurements WHERE store_id = $1 AND id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::UnitNotFound))
    }

    /// Creates a unit (validated); a name already in the store is a conflict.
    pub async fn create_unit(&self, store_id: i64, actor: i64, u: &Unit) -> Result<UnitRow> {
        let now = now_ms();
        sqlx::query_as::<_, UnitRow>(&format!(
            "INSERT INTO store_unit_of_measurements (store_id, name, name_key, quantity, base_unit, created_by, \
             updated_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $7) RETURNING {UNIT_COLUMNS}"
        ))
        .bind(store_id)
        .bind(&u.name)
        .bind(&u.name_key)
        .bind(u.quantity)
        .bind(&u.base_unit)
        .bind(actor)
        .bind(now)
        .fetch_one(self.db.pool())
        .await
        .map_err(name_conflict)
    }

    /// Replaces a unit's fields (validated by the caller from the current row).
    pub async fn update_unit(&self, store_id: i64, actor: i64, id: i64, u: &Unit) -> Result<UnitRow> {
        sqlx::query_as::<_, UnitRow>(&format!(
            "UPDATE store_unit_of_measurements SET name = $1, name_key = $2, quantity = $3, base_unit = $4, \
             updated_by = $5, updated_at = $6 WHERE store_id = $7 AND id = $8 RETURNING {UNIT_COLUMNS}"
        ))
        .bind(&u.name)
        .bind(&u.name_key)
        .bind(u.quantity)
        .bind(&u.base_unit)
        .bind(actor)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await
        .map_err(name_conflict)?
        .ok_or_else(|| Error::not_found(Code::UnitNotFound))
    }

    /// Deletes a unit.
    pub async fn delete_unit(&self, store_id: i64, id: i64) -> Result<()> {
        let gone = sqlx::query("DELETE FROM store_unit_of_measurements WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        if gone.rows_affected() == 0 {
            return Err(Error::not_found(Code::UnitNotFound));
        }
        Ok(())
    }

    /// Records a store-wide safety-stock setting.
    pub async fn record_safety_stock(&self, store_id: i64, actor: i64, amount: i64) -> Result<SafetyStockRow> {
        // The history and the event that makes the catalog apply it commit together.
        let mut tx = self.db.begin().await?;
        let row = sqlx::query_as::<_, SafetyStockRow>(
            "INSERT INTO store_safety_stock_histories (store_id, amount, created_by, created_at) \
             VALUES ($1, $2, $3, $4) RETURNING id, store_id, amount, created_by, created_at",
        )
        .bind(store_id)
        .bind(amount)
        .bind(actor)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        let set = bo_proto::events::v1::SafetyStockSet { amount, history_id: row.id };
        bo_kit::outbox::enqueue(&mut tx, store_id, actor, &set).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Records a bill expiry setting for bills made from now on; the earlier ones stay for
    /// the bills made under them.
    pub async fn set_bill_expiry(&self, store_id: i64, actor: i64, b: &BillExpiry) -> Result<BillExpiryRow> {
        let mut tx = self.db.begin().await?;
        let row = sqlx::query_as::<_, BillExpiryRow>(&format!(
            "INSERT INTO bill_expiry_settings (store_id, expiry_type, days, hours, minutes, on_expiry, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {BILL_EXPIRY_COLUMNS}"
        ))
        .bind(store_id)
        .bind(&b.expiry_type)
        .bind(b.days)
        .bind(b.hours)
        .bind(b.minutes)
        .bind(&b.on_expiry)
        .bind(actor)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        let detail = serde_json::json!({
            "expiry_type": b.expiry_type, "days": b.days, "hours": b.hours, "minutes": b.minutes, "on_expiry": b.on_expiry,
        });
        super::team::record(&mut tx, store_id, actor, "settings.bill_expiry", "store", store_id, 0, detail).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// The bill expiry setting that held at `at` (milliseconds): the newest one begun by
    /// then; `None` when the store had chosen none (bills never expire).
    pub async fn bill_expiry_at(&self, store_id: i64, at: i64) -> Result<Option<BillExpiryRow>> {
        Ok(sqlx::query_as::<_, BillExpiryRow>(&format!(
            "SELECT {BILL_EXPIRY_COLUMNS} FROM bill_expiry_settings WHERE store_id = $1 AND created_at <= $2 \
             ORDER BY created_at DESC, id DESC LIMIT 1"
        ))
        .bind(store_id)
        .bind(at)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// The store's bill expiry settings, newest first.
    pub async fn bill_expiry_history(&self, store_id: i64, limit: i64) -> Result<Vec<BillExpiryRow>> {
        Ok(sqlx::query_as::<_, BillExpiryRow>(&format!(
            "SELECT {BILL_EXPIRY_COLUMNS} FROM bill_expiry_settings WHERE store_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"
        ))
        .bind(store_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The newest safety-stock setting of a store.
    pub async fn latest_safety_stock(&self, store_id: i64) -> Result<SafetyStockRow> {
        sqlx::query_as::<_, SafetyStockRow>(
            "SELECT id, store_id, amount, created_by, created_at FROM store_safety_stock_histories \
             WHERE store_id = $1 ORDER BY id DESC LIMIT 1",
        )
        .bind(store_id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::SafetyStockNotSet))
    }
}
