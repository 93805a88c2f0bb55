//! SQL for the stores service: one code path for SQLite and PostgreSQL.

use bo_kit::db::{Db, Tx};
use bo_kit::error::is_unique_violation;
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use bo_proto::events::v1 as ev;
use sqlx::FromRow;

use crate::domain::customer::{AddressDraft, CustomerDraft};
use crate::domain::roles::{self, Permission};
use crate::domain::store::StorePatch;

mod customers;
mod idempotency;
mod pictures;
mod pos;
mod settings;
mod team;
pub use pictures::{IdentityRow, ReceiptRow};
pub use pos::{BranchRow, PersonRow, PosUnitRow};
pub use settings::{BillExpiryRow, SafetyStockRow, UnitRow};
pub use team::{AuditRow, InvitationRow, MemberUpdate, RoleRow};

/// A user row.
#[derive(Debug, Clone, FromRow)]
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub tel: String,
    pub created_at: i64,
}

/// A store row.
#[derive(Debug, Clone, FromRow)]
pub struct StoreRow {
    pub id: i64,
    pub name: String,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    pub province: String,
    pub postcode: String,
    pub tel: String,
    pub vat_included: i64,
    pub menu_hiding_list: String,
    pub gs_payment: i64,
    pub gs_logistic: i64,
    pub gs_product: i64,
    pub gs_goods_receipt: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A membership with its store, role and user.
#[derive(Debug, Clone, FromRow)]
pub struct MembershipRow {
    pub id: i64,
    pub user_id: i64,
    pub store_id: i64,
    pub permission: String,
    pub status: String,
    pub created_at: i64,
    /// Moves on with every change to the membership or its role (see [`Repo::session_access`]).
    pub version: i64,
    pub role_id: i64,
    pub role_name: String,
    pub role_permissions: String,
    pub role_built_in: i64,
    pub s_name: String,
    pub s_address: String,
    pub s_sub_district: String,
    pub s_district: String,
    pub s_province: String,
    pub s_postcode: String,
    pub s_tel: String,
    pub s_vat_included: i64,
    pub s_menu_hiding_list: String,
    pub s_gs_payment: i64,
    pub s_gs_logistic: i64,
    pub s_gs_product: i64,
    pub s_gs_goods_receipt: i64,
    pub s_created_at: i64,
    pub s_updated_at: i64,
    pub user_email: String,
    pub user_first_name: String,
    pub user_last_name: String,
    pub user_tel: String,
    pub user_created_at: i64,
}

impl MembershipRow {
    /// The membership's store.
    pub fn store(&self) -> StoreRow {
        StoreRow {
            id: self.store_id,
            name: self.s_name.clone(),
            address: self.s_address.clone(),
            sub_district: self.s_sub_district.clone(),
            district: self.s_district.clone(),
            province: self.s_province.clone(),
            postcode: self.s_postcode.clone(),
            tel: self.s_tel.clone(),
            vat_included: self.s_vat_included,
            menu_hiding_list: self.s_menu_hiding_list.clone(),
            gs_payment: self.s_gs_payment,
            gs_logistic: self.s_gs_logistic,
            gs_product: self.s_gs_product,
            gs_goods_receipt: self.s_gs_goods_receipt,
            created_at: self.s_created_at,
            updated_at: self.s_updated_at,
        }
    }
}

/// What [`Repo::session_access`] finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionAccess {
    /// The session's user.
    pub user_id: i64,
    /// Their membership in the store asked about: status and version.
    pub membership: Option<(String, i64)>,
}

impl SessionAccess {
    /// Whether a store token issued at membership `version` still holds: the membership
    /// is active and has not changed since.
    pub fn store_token_holds(&self, version: i64) -> bool {
        matches!(&self.membership, Some((status, v)) if status == roles::status::ACTIVE && *v == version)
    }
}

/// A customer with its default address.
#[derive(Debug, Clone, FromRow)]
pub struct CustomerRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub tel: String,
    pub email: String,
    pub facebook: String,
    pub line: String,
    pub order_count: i64,
    pub created_by: i64,
    pub updated_by: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub address_count: i64,
    pub a_id: Option<i64>,
    pub a_name: Option<String>,
    pub a_tel: Option<String>,
    pub a_address: Option<String>,
    pub a_sub_district: Option<String>,
    pub a_district: Option<String>,
    pub a_state_province: Option<String>,
    pub a_postcode: Option<String>,
    pub a_country: Option<String>,
    pub a_city: Option<String>,
    pub a_email: Option<String>,
    pub a_created_at: Option<i64>,
    pub a_updated_at: Option<i64>,
}

/// An address row.
#[derive(Debug, Clone, FromRow)]
pub struct AddressRow {
    pub id: i64,
    pub customer_id: i64,
    pub name: String,
    pub tel: String,
    pub address: String,
    pub sub_district: String,
    pub district: String,
    pub state_province: String,
    pub postcode: String,
    pub country: String,
    pub city: String,
    pub email: String,
    pub is_default: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

impl AddressRow {
    /// The address as a draft, to patch and validate.
    pub fn draft(&self) -> AddressDraft {
        AddressDraft {
            name: self.name.clone(),
            tel: self.tel.clone(),
            address: self.address.clone(),
            sub_district: self.sub_district.clone(),
            district: self.district.clone(),
            state_province: self.state_province.clone(),
            postcode: self.postcode.clone(),
            country: self.country.clone(),
            city: self.city.clone(),
            email: self.email.clone(),
        }
    }
}

/// What to do with a write under an idempotency key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Idempotency {
    /// New key: go ahead.
    Proceed,
    /// Seen with the same request: here is the answer.
    Replay { status: i32, body: Vec<u8> },
    /// Seen with another request.
    Mismatch,
    /// The first request is still running.
    InProgress,
}

/// How long an idempotency key is kept.
pub const IDEMPOTENCY_TTL_MS: i64 = 24 * 3600 * 1000;
/// How long a request holds its key before a retry may take over: longer than any request
/// (the HTTP server stops a request at `http.timeouts.request_secs`, 300 s by default, and
/// refuses to start with a longer one), so a retry never runs beside the first.
pub const IDEMPOTENCY_LEASE_MS: i64 = 6 * 60 * 1000;

const MEMBERSHIP_SELECT: &str = "SELECT m.id, m.user_id, m.store_id, m.permission, m.status, m.created_at, m.version, \
    r.id AS role_id, r.name AS role_name, r.permissions AS role_permissions, r.built_in AS role_built_in, \
    s.name AS s_name, s.address AS s_address, s.sub_district AS s_sub_district, s.district AS s_district, \
    s.province AS s_province, s.postcode AS s_postcode, s.tel AS s_tel, s.vat_included AS s_vat_included, \
    s.menu_hiding_list AS s_menu_hiding_list, s.gs_payment AS s_gs_payment, s.gs_logistic AS s_gs_logistic, \
    s.gs_product AS s_gs_product, s.gs_goods_receipt AS s_gs_goods_receipt, s.created_at AS s_created_at, \
    s.updated_at AS s_updated_at, \
    u.email AS user_email, u.first_name AS user_first_name, u.last_name AS user_last_name, u.tel AS user_tel, \
    u.created_at AS user_created_at \
    FROM memberships m JOIN stores s ON s.id = m.store_id JOIN roles r ON r.id = m.role_id JOIN users u ON u.id = m.user_id";

const CUSTOMER_SELECT: &str = "SELECT c.id, c.store_id, c.name, c.tel, c.email, c.facebook, c.line, c.order_count, \
    c.created_by, c.updated_by, c.created_at, c.updated_at, \
    (SELECT COUNT(*) FROM customer_addresses x WHERE x.customer_id = c.id) AS address_count, \
    a.id AS a_id, a.name AS a_name, a.tel AS a_tel, a.address AS a_address, a.sub_district AS a_sub_district, \
    a.district AS a_district, a.state_province AS a_state_province, a.postcode AS a_postcode, \
    a.country AS a_country, a.city AS a_city, a.email AS a_email, a.created_at AS a_created_at, \
    a.updated_at AS a_updated_at \
    FROM customers c LEFT JOIN customer_addresses a ON a.customer_id = c.id AND a.is_default = 1";

const ADDRESS_COLUMNS: &str = "id, customer_id, name, tel, address, sub_district, district, state_province, \
    postcode, country, city, email, is_default, created_at, updated_at";

/// The stores service's storage.
#[derive(Clone)]
pub struct Repo {
    db: Db,
}

/// A getting-started step (SPEC §3 Store).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GettingStartedStep {
    /// A payment account was added.
    Payment,
    /// A logistic channel was added.
    Logistic,
    /// A product was made.
    Product,
    /// A goods receipt was made.
    GoodsReceipt,
}

impl GettingStartedStep {
    fn column(self) -> &'static str {
        match self {
            GettingStartedStep::Payment => "gs_payment",
            GettingStartedStep::Logistic => "gs_logistic",
            GettingStartedStep::Product => "gs_product",
            GettingStartedStep::GoodsReceipt => "gs_goods_receipt",
        }
    }
}

impl Repo {
    /// Marks a getting-started step done for a store (from another service's event).
    pub async fn mark_getting_started(tx: &mut Tx, store_id: i64, step: GettingStartedStep) -> Result<()> {
        let col = step.column();
        sqlx::query(&format!("UPDATE stores SET {col} = 1, updated_at = $1 WHERE id = $2 AND {col} = 0"))
            .bind(now_ms())
            .bind(store_id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// Counts an order placed by a customer (from the orders service's event); an order
    /// without a customer, or of a customer since deleted, counts for no one.
    pub async fn count_customer_order(tx: &mut Tx, store_id: i64, customer_id: i64) -> Result<()> {
        if customer_id > 0 {
            sqlx::query("UPDATE customers SET order_count = order_count + 1 WHERE store_id = $1 AND id = $2")
                .bind(store_id)
                .bind(customer_id)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Storage on `db`.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

    // ---- users and sessions ----

    /// True when at least one user exists.
    pub async fn has_users(&self) -> Result<bool> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(self.db.pool()).await?;
        Ok(n > 0)
    }

    /// A user by email (normalised).
    pub async fn user_by_email(&self, email: &str) -> Result<Option<UserRow>> {
        Ok(sqlx::query_as::<_, UserRow>(
            "SELECT id, email, password_hash, first_name, last_name, tel, created_at FROM users WHERE email = $1",
        )
        .bind(email)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Creates an owner, their store, its built-in roles and the owner's membership.
    pub async fn create_owner(
        &self,
        email: &str,
        password_hash: &str,
        first_name: &str,
        last_name: &str,
        store_name: &str,
    ) -> Result<(UserRow, StoreRow)> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let user_id = insert_user(&mut tx, email, password_hash, first_name, last_name, now).await?;
        let store_id: i64 = sqlx::query_scalar(
            "INSERT INTO stores (name, created_at, updated_at, updated_by) VALUES ($1, $2, $2, $3) RETURNING id",
        )
        .bind(store_name)
        .bind(now)
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        let mut owner_role = 0;
        for (name, perms) in roles::built_in() {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO roles (store_id, name, permissions, built_in, created_at, updated_at) \
                 VALUES ($1, $2, $3, 1, $4, $4) RETURNING id",
            )
            .bind(store_id)
            .bind(name)
            .bind(serde_json::to_string(perms).map_err(Error::internal)?)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            if name == Permission::Owner.as_str() {
                owner_role = id;
            }
        }
        sqlx::query(
            "INSERT INTO memberships (user_id, store_id, permission, role_id, status, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6)",
        )
        .bind(user_id)
        .bind(store_id)
        .bind(Permission::Owner.as_str())
        .bind(owner_role)
        .bind(roles::status::ACTIVE)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let user = sqlx::query_as::<_, UserRow>(
            "SELECT id, email, password_hash, first_name, last_name, tel, created_at FROM users WHERE id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        let store = fetch_store(&mut tx, store_id).await?;
        outbox::enqueue(
            &mut tx,
            store_id,
            user_id,
            &ev::StoreCreated { store_id, name: store.name.clone(), owner_user_id: user_id },
        )
        .await?;
        tx.commit().await?;
        Ok((user, store))
    }

    /// Adds a member to a store: the user (created when the email is new), with the built-in
    /// role of `permission`, or a store role `role_name` holding `role_permissions`.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_member(
        &self,
        store_id: i64,
        email: &str,
        password_hash: &str,
        first_name: &str,
        last_name: &str,
        permission: Permission,
        role: Option<(&str, &[String])>,
    ) -> Result<MembershipRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        fetch_store(&mut tx, store_id).await?;
        let existing: Option<i64> =
            sqlx::query_scalar("SELECT id FROM users WHERE email = $1").bind(email).fetch_optional(&mut *tx).await?;
        let user_id = match existing {
            Some(id) => id,
            None => insert_user(&mut tx, email, password_hash, first_name, last_name, now).await?,
        };
        let role_id: i64 = match role {
            Some((name, perms)) => {
                sqlx::query_scalar(
                    "INSERT INTO roles (store_id, name, permissions, built_in, created_at, updated_at) \
                     VALUES ($1, $2, $3, 0, $4, $4) \
                     ON CONFLICT (store_id, name) DO UPDATE SET permissions = excluded.permissions, updated_at = excluded.updated_at \
                     RETURNING id",
                )
                .bind(store_id)
                .bind(name)
                .bind(serde_json::to_string(perms).map_err(Error::internal)?)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?
            }
            None => sqlx::query_scalar("SELECT id FROM roles WHERE store_id = $1 AND name = $2 AND built_in = 1")
                .bind(store_id)
                .bind(permission.as_str())
                .fetch_one(&mut *tx)
                .await?,
        };
        if role.is_some() {
            // The role's permissions may have changed: its members' tokens are renewed.
            bump_role_members(&mut tx, role_id).await?;
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO memberships (user_id, store_id, permission, role_id, status, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
        )
        .bind(user_id)
        .bind(store_id)
        .bind(permission.as_str())
        .bind(role_id)
        .bind(roles::status::ACTIVE)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| if is_unique_violation(&e) { Error::conflict(Code::MemberExists) } else { e.into() })?;
        let row = sqlx::query_as::<_, MembershipRow>(&format!("{MEMBERSHIP_SELECT} WHERE m.id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Opens a session for a user.
    pub async fn create_session(&self, user_id: i64, ttl_ms: i64) -> Result<String> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let now = now_ms();
        sqlx::query("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(user_id)
            .bind(now)
            .bind(now + ttl_ms)
            .execute(self.db.pool())
            .await?;
        Ok(id)
    }

    /// Ends a session.
    pub async fn end_session(&self, id: &str) -> Result<()> {
        sqlx::query("UPDATE sessions SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL")
            .bind(now_ms())
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// The user of an open session.
    pub async fn session_user(&self, id: &str) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT user_id FROM sessions WHERE id = $1 AND ended_at IS NULL AND expires_at > $2")
            .bind(id)
            .bind(now_ms())
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// A session's user and, with `store_id`, their membership there (status and version),
    /// in one query: the check a store token passes on every request. `None` when the
    /// session has ended or expired.
    pub async fn session_access(&self, id: &str, store_id: i64) -> Result<Option<SessionAccess>> {
        let row: Option<(i64, Option<String>, Option<i64>)> = sqlx::query_as(
            "SELECT s.user_id, m.status, m.version FROM sessions s \
             LEFT JOIN memberships m ON m.user_id = s.user_id AND m.store_id = $2 \
             WHERE s.id = $1 AND s.ended_at IS NULL AND s.expires_at > $3",
        )
        .bind(id)
        .bind(store_id)
        .bind(now_ms())
        .fetch_optional(self.db.pool())
        .await?;
        Ok(row.map(|(user_id, status, version)| SessionAccess { user_id, membership: status.zip(version) }))
    }

    // ---- memberships ----

    /// A user's memberships that are not deleted, paged.
    pub async fn memberships(&self, user_id: i64, page: PageRequest) -> Result<(Vec<MembershipRow>, Page)> {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM memberships WHERE user_id = $1 AND status <> $2")
            .bind(user_id)
            .bind(roles::status::DELETED)
            .fetch_one(self.db.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, MembershipRow>(&format!(
            "{MEMBERSHIP_SELECT} WHERE m.user_id = $1 AND m.status <> $2 ORDER BY m.id LIMIT $3 OFFSET $4"
        ))
        .bind(user_id)
        .bind(roles::status::DELETED)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page))
    }

    /// One of a user's memberships.
    pub async fn membership(&self, user_id: i64, id: i64) -> Result<MembershipRow> {
        sqlx::query_as::<_, MembershipRow>(&format!(
            "{MEMBERSHIP_SELECT} WHERE m.user_id = $1 AND m.id = $2 AND m.status <> $3"
        ))
        .bind(user_id)
        .bind(id)
        .bind(roles::status::DELETED)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::UserStoreNotFound))
    }

    /// A user's membership of a store, whatever its status.
    pub async fn membership_in(&self, user_id: i64, store_id: i64) -> Result<Option<MembershipRow>> {
        Ok(sqlx::query_as::<_, MembershipRow>(&format!("{MEMBERSHIP_SELECT} WHERE m.user_id = $1 AND m.store_id = $2"))
            .bind(user_id)
            .bind(store_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    // ---- stores ----

    /// A store.
    pub async fn store(&self, id: i64) -> Result<StoreRow> {
        let mut conn = self.db.pool().acquire().await?;
        fetch_store(&mut conn, id).await
    }

    /// Changes a store.
    pub async fn update_store(&self, id: i64, actor: i64, p: StorePatch) -> Result<StoreRow> {
        let mut tx = self.db.begin().await?;
        let cur = fetch_store(&mut tx, id).await?;
        sqlx::query(
            "UPDATE stores SET name = $1, address = $2, sub_district = $3, district = $4, province = $5, \
             postcode = $6, tel = $7, vat_included = $8, updated_at = $9, updated_by = $10 WHERE id = $11",
        )
        .bind(p.name.clone().unwrap_or_else(|| cur.name.clone()))
        .bind(p.address.clone().unwrap_or_else(|| cur.address.clone()))
        .bind(p.sub_district.clone().unwrap_or_else(|| cur.sub_district.clone()))
        .bind(p.district.clone().unwrap_or_else(|| cur.district.clone()))
        .bind(p.province.clone().unwrap_or_else(|| cur.province.clone()))
        .bind(p.postcode.clone().unwrap_or_else(|| cur.postcode.clone()))
        .bind(p.tel.clone().unwrap_or_else(|| cur.tel.clone()))
        .bind(p.vat_included.map(i64::from).unwrap_or(cur.vat_included))
        .bind(now_ms())
        .bind(actor)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let store = fetch_store(&mut tx, id).await?;
        let mut changed = serde_json::Map::new();
        for (field, before, after) in [
            ("name", &cur.name, &store.name),
            ("address", &cur.address, &store.address),
            ("sub_district", &cur.sub_district, &store.sub_district),
            ("district", &cur.district, &store.district),
            ("province", &cur.province, &store.province),
            ("postcode", &cur.postcode, &store.postcode),
            ("tel", &cur.tel, &store.tel),
        ] {
            if before != after {
                changed.insert(field.into(), serde_json::json!([before, after]));
            }
        }
        if cur.vat_included != store.vat_included {
            changed.insert("vat_included".into(), serde_json::json!([cur.vat_included != 0, store.vat_included != 0]));
        }
        if !changed.is_empty() {
            team::record(&mut tx, id, actor, "store.updated", "store", id, 0, changed.into()).await?;
        }
        tx.commit().await?;
        Ok(store)
    }

    /// Hides or shows a menu for the store (an operator's command, recorded as done by the
    /// system); answers the new hiding list.
    pub async fn set_menu_hidden(&self, store_id: i64, key: &str, hidden: bool) -> Result<Vec<String>> {
        let mut tx = self.db.begin().await?;
        let cur = fetch_store(&mut tx, store_id).await?;
        let list: Vec<String> = serde_json::from_str(&cur.menu_hiding_list).unwrap_or_default();
        let next = crate::domain::store::menu_list_with(&list, key, hidden);
        if next != list {
            sqlx::query("UPDATE stores SET menu_hiding_list = $1, updated_at = $2 WHERE id = $3")
                .bind(serde_json::to_string(&next).map_err(Error::internal)?)
                .bind(now_ms())
                .bind(store_id)
                .execute(&mut *tx)
                .await?;
            let action = if hidden { "store.menu_hidden" } else { "store.menu_shown" };
            team::record(&mut tx, store_id, 0, action, "store", store_id, 0, serde_json::json!({ "menu": key }))
                .await?;
        }
        tx.commit().await?;
        Ok(next)
    }

    // ---- customers ----
}

fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

fn phone_conflict(e: sqlx::Error) -> Error {
    if is_unique_violation(&e) {
        Error::conflict(Code::CustomerPhoneDuplicate)
    } else {
        e.into()
    }
}

async fn fetch_store(conn: &mut sqlx::AnyConnection, id: i64) -> Result<StoreRow> {
    sqlx::query_as::<_, StoreRow>(
        "SELECT id, name, address, sub_district, district, province, postcode, tel, vat_included, \
         menu_hiding_list, gs_payment, gs_logistic, gs_product, gs_goods_receipt, created_at, updated_at \
         FROM stores WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| Error::not_found(Code::StoreNotFound))
}

async fn fetch_customer(conn: &mut sqlx::AnyConnection, store_id: i64, id: i64) -> Result<CustomerRow> {
    sqlx::query_as::<_, CustomerRow>(&format!("{CUSTOMER_SELECT} WHERE c.store_id = $1 AND c.id = $2"))
        .bind(store_id)
        .bind(id)
        .fetch_optional(conn)
        .await?
        .ok_or_else(|| Error::not_found(Code::CustomerNotFound))
}

async fn fetch_address(conn: &mut sqlx::AnyConnection, store_id: i64, customer_id: i64, id: i64) -> Result<AddressRow> {
    sqlx::query_as::<_, AddressRow>(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM customer_addresses WHERE store_id = $1 AND customer_id = $2 AND id = $3"
    ))
    .bind(store_id)
    .bind(customer_id)
    .bind(id)
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| Error::not_found(Code::AddressNotFound))
}

async fn insert_address(
    tx: &mut Tx,
    store_id: i64,
    customer_id: i64,
    actor: i64,
    a: &AddressDraft,
    is_default: bool,
    now: i64,
) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO customer_addresses (store_id, customer_id, name, tel, address, sub_district, district, \
         state_province, postcode, country, city, email, is_default, created_by, updated_by, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $15) RETURNING id",
    )
    .bind(store_id)
    .bind(customer_id)
    .bind(&a.name)
    .bind(&a.tel)
    .bind(&a.address)
    .bind(&a.sub_district)
    .bind(&a.district)
    .bind(&a.state_province)
    .bind(&a.postcode)
    .bind(&a.country)
    .bind(&a.city)
    .bind(&a.email)
    .bind(i64::from(is_default))
    .bind(actor)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?)
}

async fn write_address(tx: &mut Tx, id: i64, actor: i64, a: &AddressDraft, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE customer_addresses SET name = $1, tel = $2, address = $3, sub_district = $4, district = $5, \
         state_province = $6, postcode = $7, country = $8, city = $9, email = $10, updated_by = $11, updated_at = $12 \
         WHERE id = $13",
    )
    .bind(&a.name)
    .bind(&a.tel)
    .bind(&a.address)
    .bind(&a.sub_district)
    .bind(&a.district)
    .bind(&a.state_province)
    .bind(&a.postcode)
    .bind(&a.country)
    .bind(&a.city)
    .bind(&a.email)
    .bind(actor)
    .bind(now)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn clear_default(tx: &mut Tx, customer_id: i64) -> Result<()> {
    sqlx::query("UPDATE customer_addresses SET is_default = 0 WHERE customer_id = $1 AND is_default = 1")
        .bind(customer_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn touch_customer(tx: &mut Tx, store_id: i64, id: i64, actor: i64, now: i64) -> Result<()> {
    sqlx::query("UPDATE customers SET updated_by = $1, updated_at = $2 WHERE store_id = $3 AND id = $4")
        .bind(actor)
        .bind(now)
        .bind(store_id)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn history(tx: &mut Tx, store_id: i64, customer_id: i64, action: &str, actor: i64, detail: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO customer_history (store_id, customer_id, action, actor_user_id, detail, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(store_id)
    .bind(customer_id)
    .bind(action)
    .bind(actor)
    .bind(detail)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn customer_updated(tx: &mut Tx, row: &CustomerRow, actor: i64) -> Result<()> {
    outbox::enqueue(tx, row.store_id, actor, &ev::CustomerUpdated { customer: Some(customer_event(row)) }).await?;
    Ok(())
}

fn customer_event(row: &CustomerRow) -> ev::Customer {
    ev::Customer { id: row.id, name: row.name.clone(), tel: row.tel.clone(), email: row.email.clone() }
}

/// Moves on the version of every membership holding `role_id`, so their store tokens are
/// renewed with the role's new permissions on their next request.
pub(crate) async fn bump_role_members(tx: &mut Tx, role_id: i64) -> Result<()> {
    sqlx::query("UPDATE memberships SET version = version + 1, updated_at = $2 WHERE role_id = $1")
        .bind(role_id)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A new user; `user_email_taken` when the email has an account.
pub(crate) async fn insert_user(
    tx: &mut Tx,
    email: &str,
    password_hash: &str,
    first_name: &str,
    last_name: &str,
    now: i64,
) -> Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5) RETURNING id",
    )
    .bind(email)
    .bind(password_hash)
    .bind(first_name)
    .bind(last_name)
    .bind(now)
    .fetch_one(&mut **tx)
    .await
    .map_err(|e| if is_unique_violation(&e) { Error::conflict(Code::UserEmailTaken) } else { e.into() })
}
