//! Adding, renaming, deactivating warehouses. A deactivated warehouse keeps its stock and
//! history but takes no new stock (receipts, transfers in, adjustments up).

use bo_kit::outbox;
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, FieldError, Result};
use bo_proto::events::v1 as ev;

use super::{Actor, Repo, WarehouseRow};

/// The most warehouses a store may have.
pub const MAX_WAREHOUSES: i64 = 50;

/// Checks a warehouse name: 1 to 100 characters.
pub fn check_name(name: &str) -> Result<()> {
    let n = name.trim();
    if n.is_empty() {
        Err(Error::invalid_field("name", "validation.required"))
    } else if n.chars().count() > 100 {
        Err(Error::invalid_field("name", "validation.too_long"))
    } else {
        Ok(())
    }
}

/// Checks a code: 1 to 20 capital letters, digits or dashes.
pub fn check_code(code: &str) -> Result<()> {
    if code.is_empty()
        || code.len() > 20
        || !code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(Error::invalid(vec![FieldError::new("code", "validation.code")]));
    }
    Ok(())
}

const COLUMNS: &str = "id, store_id, name, code, is_default, created_at, active";

impl Repo {
    async fn warehouse_in(tx: &mut bo_kit::db::Tx, store_id: i64, id: i64) -> Result<WarehouseRow> {
        sqlx::query_as::<_, WarehouseRow>(&format!("SELECT {COLUMNS} FROM warehouses WHERE store_id = $1 AND id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?
            .ok_or_else(|| Error::not_found(Code::WarehouseNotFound))
    }

    async fn name_taken(tx: &mut bo_kit::db::Tx, store_id: i64, name: &str, except: i64) -> Result<bool> {
        let names: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM warehouses WHERE store_id = $1")
            .bind(store_id)
            .fetch_all(&mut **tx)
            .await?;
        let key = name.trim().to_lowercase();
        Ok(names.iter().any(|(id, n)| *id != except && n.trim().to_lowercase() == key))
    }

    /// Adds a warehouse; an empty code becomes `WH` and the next free number.
    pub async fn create_warehouse(&self, who: Actor, name: &str, code: &str) -> Result<WarehouseRow> {
        check_name(name)?;
        let code = code.trim().to_uppercase();
        if !code.is_empty() {
            check_code(&code)?;
        }
        let mut tx = self.db.begin().await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM warehouses WHERE store_id = $1")
            .bind(who.store_id)
            .fetch_one(&mut *tx)
            .await?;
        if count >= MAX_WAREHOUSES {
            return Err(Error::failed_precondition(Code::WarehouseLimitReached));
        }
        if Self::name_taken(&mut tx, who.store_id, name, 0).await? {
            return Err(Error::conflict(Code::WarehouseNameTaken));
        }
        let code = if code.is_empty() {
            let codes: Vec<String> = sqlx::query_scalar("SELECT code FROM warehouses WHERE store_id = $1")
                .bind(who.store_id)
                .fetch_all(&mut *tx)
                .await?;
            (1..).map(|n| format!("WH{n}")).find(|c| !codes.contains(c)).expect("a free code")
        } else {
            code
        };
        let now = now_ms();
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO warehouses (store_id, name, code, is_default, created_at, updated_at, active) \
             VALUES ($1, $2, $3, 0, $4, $4, 1) ON CONFLICT (store_id, code) DO NOTHING RETURNING id",
        )
        .bind(who.store_id)
        .bind(name.trim())
        .bind(&code)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let id = id.ok_or_else(|| Error::conflict(Code::WarehouseCodeTaken))?;
        let w = Self::warehouse_in(&mut tx, who.store_id, id).await?;
        outbox::enqueue(
            &mut tx,
            who.store_id,
            who.user_id,
            &ev::WarehouseCreated { warehouse_id: w.id, name: w.name.clone(), code: w.code.clone(), is_default: false },
        )
        .await?;
        tx.commit().await?;
        Ok(w)
    }

    /// Renames and (de)activates a warehouse; the default one cannot be deactivated.
    pub async fn update_warehouse(
        &self,
        who: Actor,
        id: i64,
        name: &str,
        active: Option<bool>,
    ) -> Result<WarehouseRow> {
        if !name.trim().is_empty() {
            check_name(name)?;
        }
        let mut tx = self.db.begin().await?;
        let mut w = Self::warehouse_in(&mut tx, who.store_id, id).await?;
        if active == Some(false) && w.is_default != 0 {
            return Err(Error::failed_precondition(Code::WarehouseDefault));
        }
        if !name.trim().is_empty() && name.trim() != w.name {
            if Self::name_taken(&mut tx, who.store_id, name, id).await? {
                return Err(Error::conflict(Code::WarehouseNameTaken));
            }
            w.name = name.trim().to_string();
        }
        if let Some(a) = active {
            w.active = i64::from(a);
        }
        sqlx::query("UPDATE warehouses SET name = $1, active = $2, updated_at = $3 WHERE store_id = $4 AND id = $5")
            .bind(&w.name)
            .bind(w.active)
            .bind(now_ms())
            .bind(who.store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        outbox::enqueue(
            &mut tx,
            who.store_id,
            who.user_id,
            &ev::WarehouseUpdated { warehouse_id: w.id, name: w.name.clone(), active: w.active != 0 },
        )
        .await?;
        tx.commit().await?;
        Ok(w)
    }
}
