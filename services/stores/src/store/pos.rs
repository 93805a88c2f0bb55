//! SQL for point of sale: branches, POS units, cashiers and sellers. Every change records
//! itself in the store's audit trail in its own transaction; the limits and "in use" checks
//! are read inside that transaction.

use bo_kit::db::Tx;
use bo_kit::error::is_unique_violation;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use serde_json::json;
use sqlx::FromRow;

use super::team::record;
use super::Repo;
use crate::domain::pos::{
    code, Branch, PersonDraft, PosUnitDraft, MAX_BRANCHES, MAX_CASHIERS, MAX_POS_UNITS, MAX_SELLERS,
};

/// A branch row.
#[derive(Debug, Clone, FromRow)]
pub struct BranchRow {
    pub id: i64,
    pub store_id: i64,
    pub branch_no: String,
    pub name: String,
    pub tax_id: String,
    pub warehouse_id: i64,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    pub state_province: String,
    pub postcode: String,
    pub created_by: i64,
    pub updated_by: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const BRANCH_COLUMNS: &str = "id, store_id, branch_no, name, tax_id, warehouse_id, address, sub_district, district, \
     state_province, postcode, created_by, updated_by, created_at, updated_at";

/// A POS unit row, with its branch and the warehouse it deducts from.
#[derive(Debug, Clone, FromRow)]
pub struct PosUnitRow {
    pub id: i64,
    pub store_id: i64,
    pub pos_no: String,
    pub branch_id: i64,
    pub branch_no: String,
    pub branch_name: String,
    /// Its own warehouse (0: the branch's).
    pub warehouse_id: i64,
    pub branch_warehouse_id: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const POS_SELECT: &str = "SELECT p.id, p.store_id, p.pos_no, p.branch_id, b.branch_no, b.name AS branch_name, \
     p.warehouse_id, b.warehouse_id AS branch_warehouse_id, p.created_at, p.updated_at \
     FROM pos_units p JOIN branches b ON b.id = p.branch_id";

/// A cashier or seller row, with its branch.
#[derive(Debug, Clone, FromRow)]
pub struct PersonRow {
    pub id: i64,
    pub store_id: i64,
    /// The member (cashiers; 0 for sellers).
    pub user_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub branch_id: i64,
    pub branch_no: String,
    pub branch_name: String,
    /// Sellers only ('' for cashiers).
    pub tel: String,
    pub code: String,
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const CASHIER_SELECT: &str = "SELECT c.id, c.store_id, c.user_id, c.first_name, c.last_name, c.email, c.branch_id, \
     b.branch_no, b.name AS branch_name, '' AS tel, '' AS code, \
     CASE WHEN m.status = 'active' THEN 'active' ELSE 'inactive' END AS status, c.created_at, c.updated_at \
     FROM cashiers c JOIN branches b ON b.id = c.branch_id \
     LEFT JOIN memberships m ON m.store_id = c.store_id AND m.user_id = c.user_id";

const SELLER_SELECT: &str = "SELECT s.id, s.store_id, 0 AS user_id, s.first_name, s.last_name, s.email, s.branch_id, \
     b.branch_no, b.name AS branch_name, s.tel, s.code, s.status, s.created_at, s.updated_at \
     FROM sellers s JOIN branches b ON b.id = s.branch_id";

fn duplicate(code: Code) -> impl Fn(sqlx::Error) -> Error {
    move |e| if is_unique_violation(&e) { Error::conflict(code) } else { e.into() }
}

async fn count(tx: &mut Tx, table: &str, store_id: i64) -> Result<i64> {
    Ok(sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE store_id = $1"))
        .bind(store_id)
        .fetch_one(&mut **tx)
        .await?)
}

async fn under_limit(tx: &mut Tx, table: &str, store_id: i64, max: i64) -> Result<()> {
    if count(tx, table, store_id).await? >= max {
        return Err(Error::failed_precondition(code::TOO_MANY));
    }
    Ok(())
}

/// The branch must be the store's: a field error otherwise.
async fn own_branch(tx: &mut Tx, store_id: i64, branch_id: i64) -> Result<()> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM branches WHERE store_id = $1 AND id = $2")
        .bind(store_id)
        .bind(branch_id)
        .fetch_optional(&mut **tx)
        .await?;
    found.map(|_| ()).ok_or_else(|| Error::invalid_field("branch_id", code::BRANCH))
}

async fn paged<T>(
    repo: &Repo,
    count_sql: &str,
    select: &str,
    order: &str,
    store_id: i64,
    page: PageRequest,
) -> Result<(Vec<T>, Page)>
where
    T: for<'r> FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    let total: i64 = sqlx::query_scalar(count_sql).bind(store_id).fetch_one(repo.db.pool()).await?;
    let page = page.resolve(total);
    let rows = sqlx::query_as::<_, T>(&format!("{select} ORDER BY {order} LIMIT $2 OFFSET $3"))
        .bind(store_id)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(repo.db.pool())
        .await?;
    Ok((rows, page))
}

fn branch_detail(b: &Branch) -> serde_json::Value {
    json!({ "branch_no": b.branch_no, "name": b.name, "warehouse_id": b.warehouse_id })
}

fn person_detail(p: &PersonDraft) -> serde_json::Value {
    json!({ "name": format!("{} {}", p.first_name, p.last_name), "branch_id": p.branch_id })
}

impl Repo {
    /// The store's branches by number (the main branch first), paged (`limit = -1`: all).
    pub async fn branches(&self, store_id: i64, page: PageRequest) -> Result<(Vec<BranchRow>, Page)> {
        paged(
            self,
            "SELECT COUNT(*) FROM branches WHERE store_id = $1",
            &format!("SELECT {BRANCH_COLUMNS} FROM branches WHERE store_id = $1"),
            "branch_no, id",
            store_id,
            page,
        )
        .await
    }

    /// One branch of the store.
    pub async fn branch(&self, store_id: i64, id: i64) -> Result<BranchRow> {
        sqlx::query_as::<_, BranchRow>(&format!(
            "SELECT {BRANCH_COLUMNS} FROM branches WHERE store_id = $1 AND id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::BranchNotFound))
    }

    /// Creates a branch (checked, its warehouse confirmed); a number already in the store is a
    /// conflict.
    pub async fn create_branch(&self, store_id: i64, actor: i64, b: &Branch) -> Result<BranchRow> {
        let mut tx = self.db.begin().await?;
        under_limit(&mut tx, "branches", store_id, MAX_BRANCHES).await?;
        let now = now_ms();
        let row = sqlx::query_as::<_, BranchRow>(&format!(
            "INSERT INTO branches (store_id, branch_no, name, tax_id, warehouse_id, address, sub_district, district, \
             state_province, postcode, created_by, updated_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $12) RETURNING {BRANCH_COLUMNS}"
        ))
        .bind(store_id)
        .bind(&b.branch_no)
        .bind(&b.name)
        .bind(&b.tax_id)
        .bind(b.warehouse_id)
        .bind(&b.address)
        .bind(&b.sub_district)
        .bind(&b.district)
        .bind(&b.state_province)
        .bind(&b.postcode)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(duplicate(code::BRANCH_DUPLICATE))?;
        record(&mut tx, store_id, actor, "pos.branch.create", "branch", row.id, 0, branch_detail(b)).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Replaces a branch's fields (checked by the caller over the current row).
    pub async fn update_branch(&self, store_id: i64, actor: i64, id: i64, b: &Branch) -> Result<BranchRow> {
        let mut tx = self.db.begin().await?;
        let row = sqlx::query_as::<_, BranchRow>(&format!(
            "UPDATE branches SET branch_no = $1, name = $2, tax_id = $3, warehouse_id = $4, address = $5, \
             sub_district = $6, district = $7, state_province = $8, postcode = $9, updated_by = $10, updated_at = $11 \
             WHERE store_id = $12 AND id = $13 RETURNING {BRANCH_COLUMNS}"
        ))
        .bind(&b.branch_no)
        .bind(&b.name)
        .bind(&b.tax_id)
        .bind(b.warehouse_id)
        .bind(&b.address)
        .bind(&b.sub_district)
        .bind(&b.district)
        .bind(&b.state_province)
        .bind(&b.postcode)
        .bind(actor)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(duplicate(code::BRANCH_DUPLICATE))?
        .ok_or_else(|| Error::not_found(Code::BranchNotFound))?;
        record(&mut tx, store_id, actor, "pos.branch.update", "branch", id, 0, branch_detail(b)).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Deletes a branch that has no POS units, cashiers or sellers.
    pub async fn delete_branch(&self, store_id: i64, actor: i64, id: i64) -> Result<()> {
        let mut tx = self.db.begin().await?;
        // The row lock keeps a POS unit or person from joining the branch meanwhile.
        let b = sqlx::query_as::<_, BranchRow>(&format!(
            "UPDATE branches SET updated_at = updated_at WHERE store_id = $1 AND id = $2 RETURNING {BRANCH_COLUMNS}"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(Code::BranchNotFound))?;
        let used: i64 = sqlx::query_scalar(
            "SELECT (SELECT COUNT(*) FROM pos_units WHERE branch_id = $1) + (SELECT COUNT(*) FROM cashiers WHERE branch_id = $1) \
             + (SELECT COUNT(*) FROM sellers WHERE branch_id = $1)",
        )
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        if used > 0 {
            return Err(Error::failed_precondition(code::BRANCH_IN_USE));
        }
        sqlx::query("DELETE FROM branches WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let detail = json!({ "branch_no": b.branch_no, "name": b.name });
        record(&mut tx, store_id, actor, "pos.branch.delete", "branch", id, 0, detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The store's POS units by branch and number, paged (`limit = -1`: all).
    pub async fn pos_units(&self, store_id: i64, page: PageRequest) -> Result<(Vec<PosUnitRow>, Page)> {
        paged(
            self,
            "SELECT COUNT(*) FROM pos_units WHERE store_id = $1",
            &format!("{POS_SELECT} WHERE p.store_id = $1"),
            "b.branch_no, p.pos_no_key, p.id",
            store_id,
            page,
        )
        .await
    }

    /// One POS unit of the store.
    pub async fn pos_unit(&self, store_id: i64, id: i64) -> Result<PosUnitRow> {
        sqlx::query_as::<_, PosUnitRow>(&format!("{POS_SELECT} WHERE p.store_id = $1 AND p.id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or_else(|| Error::not_found(Code::PosUnitNotFound))
    }

    /// Creates a POS unit at one of the store's branches; its number is unique in the store
    /// (without regard to case).
    pub async fn create_pos_unit(&self, store_id: i64, actor: i64, p: &PosUnitDraft) -> Result<PosUnitRow> {
        let mut tx = self.db.begin().await?;
        under_limit(&mut tx, "pos_units", store_id, MAX_POS_UNITS).await?;
        own_branch(&mut tx, store_id, p.branch_id).await?;
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO pos_units (store_id, pos_no, pos_no_key, branch_id, warehouse_id, created_by, updated_by, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $7) RETURNING id",
        )
        .bind(store_id)
        .bind(&p.pos_no)
        .bind(p.pos_no.to_lowercase())
        .bind(p.branch_id)
        .bind(p.warehouse_id)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(duplicate(code::POS_DUPLICATE))?;
        let detail = json!({ "pos_no": p.pos_no, "branch_id": p.branch_id });
        record(&mut tx, store_id, actor, "pos.unit.create", "pos_unit", id, 0, detail).await?;
        tx.commit().await?;
        self.pos_unit(store_id, id).await
    }

    /// Replaces a POS unit's number, branch and warehouse.
    pub async fn update_pos_unit(&self, store_id: i64, actor: i64, id: i64, p: &PosUnitDraft) -> Result<PosUnitRow> {
        let mut tx = self.db.begin().await?;
        own_branch(&mut tx, store_id, p.branch_id).await?;
        let done = sqlx::query(
            "UPDATE pos_units SET pos_no = $1, pos_no_key = $2, branch_id = $3, warehouse_id = $4, updated_by = $5, \
             updated_at = $6 WHERE store_id = $7 AND id = $8",
        )
        .bind(&p.pos_no)
        .bind(p.pos_no.to_lowercase())
        .bind(p.branch_id)
        .bind(p.warehouse_id)
        .bind(actor)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(duplicate(code::POS_DUPLICATE))?;
        if done.rows_affected() == 0 {
            return Err(Error::not_found(Code::PosUnitNotFound));
        }
        let detail = json!({ "pos_no": p.pos_no, "branch_id": p.branch_id });
        record(&mut tx, store_id, actor, "pos.unit.update", "pos_unit", id, 0, detail).await?;
        tx.commit().await?;
        self.pos_unit(store_id, id).await
    }

    /// Deletes a POS unit.
    pub async fn delete_pos_unit(&self, store_id: i64, actor: i64, id: i64) -> Result<()> {
        let p = self.pos_unit(store_id, id).await?;
        let mut tx = self.db.begin().await?;
        let gone = sqlx::query("DELETE FROM pos_units WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if gone.rows_affected() == 0 {
            return Err(Error::not_found(Code::PosUnitNotFound));
        }
        record(&mut tx, store_id, actor, "pos.unit.delete", "pos_unit", id, 0, json!({ "pos_no": p.pos_no })).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The store's cashiers by name, paged (`limit = -1`: all).
    pub async fn cashiers(&self, store_id: i64, page: PageRequest) -> Result<(Vec<PersonRow>, Page)> {
        paged(
            self,
            "SELECT COUNT(*) FROM cashiers WHERE store_id = $1",
            &format!("{CASHIER_SELECT} WHERE c.store_id = $1"),
            "c.first_name, c.last_name, c.id",
            store_id,
            page,
        )
        .await
    }

    /// One cashier of the store.
    pub async fn cashier(&self, store_id: i64, id: i64) -> Result<PersonRow> {
        sqlx::query_as::<_, PersonRow>(&format!("{CASHIER_SELECT} WHERE c.store_id = $1 AND c.id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or_else(|| Error::not_found(Code::CashierNotFound))
    }

    /// Makes an active member of the store a cashier at one of its branches (once).
    pub async fn create_cashier(&self, store_id: i64, actor: i64, c: &PersonDraft) -> Result<PersonRow> {
        let mut tx = self.db.begin().await?;
        under_limit(&mut tx, "cashiers", store_id, MAX_CASHIERS).await?;
        active_member(&mut tx, store_id, c.user_id).await?;
        own_branch(&mut tx, store_id, c.branch_id).await?;
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO cashiers (store_id, user_id, first_name, last_name, email, branch_id, created_by, updated_by, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $8) RETURNING id",
        )
        .bind(store_id)
        .bind(c.user_id)
        .bind(&c.first_name)
        .bind(&c.last_name)
        .bind(&c.email)
        .bind(c.branch_id)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(duplicate(code::CASHIER_DUPLICATE))?;
        record(&mut tx, store_id, actor, "pos.cashier.create", "cashier", id, c.user_id, person_detail(c)).await?;
        tx.commit().await?;
        self.cashier(store_id, id).await
    }

    /// Replaces a cashier's names, email and branch (the member stays the same).
    pub async fn update_cashier(&self, store_id: i64, actor: i64, id: i64, c: &PersonDraft) -> Result<PersonRow> {
        let mut tx = self.db.begin().await?;
        own_branch(&mut tx, store_id, c.branch_id).await?;
        let done = sqlx::query(
            "UPDATE cashiers SET first_name = $1, last_name = $2, email = $3, branch_id = $4, updated_by = $5, \
             updated_at = $6 WHERE store_id = $7 AND id = $8",
        )
        .bind(&c.first_name)
        .bind(&c.last_name)
        .bind(&c.email)
        .bind(c.branch_id)
        .bind(actor)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(Error::not_found(Code::CashierNotFound));
        }
        record(&mut tx, store_id, actor, "pos.cashier.update", "cashier", id, c.user_id, person_detail(c)).await?;
        tx.commit().await?;
        self.cashier(store_id, id).await
    }

    /// Takes a member off the tills.
    pub async fn delete_cashier(&self, store_id: i64, actor: i64, id: i64) -> Result<()> {
        let c = self.cashier(store_id, id).await?;
        let mut tx = self.db.begin().await?;
        sqlx::query("DELETE FROM cashiers WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let detail = json!({ "name": format!("{} {}", c.first_name, c.last_name) });
        record(&mut tx, store_id, actor, "pos.cashier.delete", "cashier", id, c.user_id, detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The store's sellers by name, paged (`limit = -1`: all).
    pub async fn sellers(&self, store_id: i64, page: PageRequest) -> Result<(Vec<PersonRow>, Page)> {
        paged(
            self,
            "SELECT COUNT(*) FROM sellers WHERE store_id = $1",
            &format!("{SELLER_SELECT} WHERE s.store_id = $1"),
            "s.first_name, s.last_name, s.id",
            store_id,
            page,
        )
        .await
    }

    /// One seller of the store.
    pub async fn seller(&self, store_id: i64, id: i64) -> Result<PersonRow> {
        sqlx::query_as::<_, PersonRow>(&format!("{SELLER_SELECT} WHERE s.store_id = $1 AND s.id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or_else(|| Error::not_found(Code::SellerNotFound))
    }

    /// Creates a seller at one of the store's branches; an email already among the store's
    /// sellers is a conflict.
    pub async fn create_seller(&self, store_id: i64, actor: i64, s: &PersonDraft) -> Result<PersonRow> {
        let mut tx = self.db.begin().await?;
        under_limit(&mut tx, "sellers", store_id, MAX_SELLERS).await?;
        own_branch(&mut tx, store_id, s.branch_id).await?;
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO sellers (store_id, first_name, last_name, email, branch_id, tel, code, status, created_by, \
             updated_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $10) RETURNING id",
        )
        .bind(store_id)
        .bind(&s.first_name)
        .bind(&s.last_name)
        .bind(&s.email)
        .bind(s.branch_id)
        .bind(&s.tel)
        .bind(&s.code)
        .bind(&s.status)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(duplicate(code::SELLER_DUPLICATE))?;
        record(&mut tx, store_id, actor, "pos.seller.create", "seller", id, 0, person_detail(s)).await?;
        tx.commit().await?;
        self.seller(store_id, id).await
    }

    /// Replaces a seller's fields.
    pub async fn update_seller(&self, store_id: i64, actor: i64, id: i64, s: &PersonDraft) -> Result<PersonRow> {
        let mut tx = self.db.begin().await?;
        own_branch(&mut tx, store_id, s.branch_id).await?;
        let done = sqlx::query(
            "UPDATE sellers SET first_name = $1, last_name = $2, email = $3, branch_id = $4, tel = $5, code = $6, \
             status = $7, updated_by = $8, updated_at = $9 WHERE store_id = $10 AND id = $11",
        )
        .bind(&s.first_name)
        .bind(&s.last_name)
        .bind(&s.email)
        .bind(s.branch_id)
        .bind(&s.tel)
        .bind(&s.code)
        .bind(&s.status)
        .bind(actor)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(duplicate(code::SELLER_DUPLICATE))?;
        if done.rows_affected() == 0 {
            return Err(Error::not_found(Code::SellerNotFound));
        }
        record(&mut tx, store_id, actor, "pos.seller.update", "seller", id, 0, person_detail(s)).await?;
        tx.commit().await?;
        self.seller(store_id, id).await
    }

    /// Deletes a seller.
    pub async fn delete_seller(&self, store_id: i64, actor: i64, id: i64) -> Result<()> {
        let s = self.seller(store_id, id).await?;
        let mut tx = self.db.begin().await?;
        sqlx::query("DELETE FROM sellers WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let detail = json!({ "name": format!("{} {}", s.first_name, s.last_name) });
        record(&mut tx, store_id, actor, "pos.seller.delete", "seller", id, 0, detail).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The user must be an active member of the store: a field error otherwise.
async fn active_member(tx: &mut Tx, store_id: i64, user_id: i64) -> Result<()> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT id FROM memberships WHERE store_id = $1 AND user_id = $2 AND status = 'active'")
            .bind(store_id)
            .bind(user_id)
            .fetch_optional(&mut **tx)
            .await?;
    found.map(|_| ()).ok_or_else(|| Error::invalid_field("user_id", code::MEMBER))
}
