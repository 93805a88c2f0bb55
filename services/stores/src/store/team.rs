//! SQL for the team: memberships of a store, roles, invitations and the audit trail. Every
//! change takes the store's row first (`claim_store`), so two changes of one store's team
//! never interleave: the last owner cannot be demoted twice at once on PostgreSQL.

use bo_kit::db::Tx;
use bo_kit::error::is_unique_violation;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use serde_json::json;
use sqlx::FromRow;

use super::{bump_role_members, insert_user, like_escape, MembershipRow, Repo, UserRow, MEMBERSHIP_SELECT};
use crate::domain::roles::{self, status, Permission};
use crate::domain::team::{self, Actor, Change, Target};

/// A role row.
#[derive(Debug, Clone, FromRow)]
pub struct RoleRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub permissions: String,
    pub built_in: i64,
}

impl RoleRow {
    /// Its permission keys.
    pub fn keys(&self) -> Vec<String> {
        serde_json::from_str(&self.permissions).unwrap_or_default()
    }
}

/// An invitation with its role.
#[derive(Debug, Clone, FromRow)]
pub struct InvitationRow {
    pub id: i64,
    pub store_id: i64,
    pub invite_key: String,
    pub permission: String,
    pub created_by: i64,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    pub deleted_at: Option<i64>,
    pub role_id: i64,
    pub role_name: String,
    pub role_permissions: String,
    pub role_built_in: i64,
    pub store_name: String,
    pub inviter_first_name: String,
    pub inviter_last_name: String,
    pub inviter_email: String,
}

/// An audit entry with the actor's name.
#[derive(Debug, Clone, FromRow)]
pub struct AuditRow {
    pub id: i64,
    pub actor_user_id: i64,
    pub action: String,
    pub subject_type: String,
    pub subject_id: i64,
    pub subject_user_id: i64,
    pub detail: String,
    pub created_at: i64,
    pub actor_first_name: String,
    pub actor_last_name: String,
    pub actor_email: String,
}

/// A change to a membership; `None` parts stay.
#[derive(Debug, Clone, Default)]
pub struct MemberUpdate {
    /// The membership's user as the caller names it (0: not checked).
    pub user_id: i64,
    pub level: Option<Permission>,
    pub role_id: Option<i64>,
    pub status: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub tel: Option<String>,
}

const ROLE_COLUMNS: &str = "id, store_id, name, permissions, built_in";

const INVITATION_SELECT: &str = "SELECT i.id, i.store_id, i.invite_key, i.permission, i.created_by, i.created_at, \
    i.expires_at, i.used_at, i.deleted_at, r.id AS role_id, r.name AS role_name, r.permissions AS role_permissions, \
    r.built_in AS role_built_in, s.name AS store_name, COALESCE(u.first_name, '') AS inviter_first_name, \
    COALESCE(u.last_name, '') AS inviter_last_name, COALESCE(u.email, '') AS inviter_email \
    FROM invitations i JOIN roles r ON r.id = i.role_id JOIN stores s ON s.id = i.store_id \
    LEFT JOIN users u ON u.id = i.created_by";

/// Takes the store's row for the rest of the transaction: team changes of one store run
/// one at a time.
pub(crate) async fn claim_store(tx: &mut Tx, store_id: i64) -> Result<()> {
    let n = sqlx::query("UPDATE stores SET updated_at = updated_at WHERE id = $1")
        .bind(store_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if n == 1 {
        Ok(())
    } else {
        Err(Error::not_found(Code::StoreNotFound))
    }
}

async fn member_where(tx: &mut Tx, store_id: i64, clause: &str, id: i64) -> Result<Option<MembershipRow>> {
    Ok(sqlx::query_as::<_, MembershipRow>(&format!("{MEMBERSHIP_SELECT} WHERE m.store_id = $1 AND {clause} = $2"))
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?)
}

/// The acting member, active, or a refusal.
async fn actor_in(tx: &mut Tx, store_id: i64, user_id: i64) -> Result<MembershipRow> {
    match member_where(tx, store_id, "m.user_id", user_id).await? {
        Some(m) if m.status == status::ACTIVE => Ok(m),
        _ => Err(Error::permission_denied(Code::NotAMember)),
    }
}

fn level_of(m: &MembershipRow) -> Permission {
    Permission::parse(&m.permission).unwrap_or(Permission::Cashier)
}

fn keys_of(m: &MembershipRow) -> Vec<String> {
    serde_json::from_str(&m.role_permissions).unwrap_or_default()
}

/// The gateway checks each route's right; the service checks it again from the membership
/// as stored now: the owner level, or a role holding `key`.
fn require(me: &MembershipRow, key: &str) -> Result<()> {
    if level_of(me) == Permission::Owner || bo_kit::perms::holds(&keys_of(me), key) {
        Ok(())
    } else {
        Err(Error::permission_denied(Code::Forbidden))
    }
}

async fn role_in(tx: &mut Tx, store_id: i64, id: i64) -> Result<RoleRow> {
    sqlx::query_as::<_, RoleRow>(&format!("SELECT {ROLE_COLUMNS} FROM roles WHERE store_id = $1 AND id = $2"))
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::not_found(Code::RoleNotFound))
}

async fn built_in_role(tx: &mut Tx, store_id: i64, level: Permission) -> Result<RoleRow> {
    sqlx::query_as::<_, RoleRow>(&format!(
        "SELECT {ROLE_COLUMNS} FROM roles WHERE store_id = $1 AND name = $2 AND built_in = 1"
    ))
    .bind(store_id)
    .bind(level.as_str())
    .fetch_one(&mut **tx)
    .await
    .map_err(Into::into)
}

async fn active_owners(tx: &mut Tx, store_id: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM memberships WHERE store_id = $1 AND permission = $2 AND status = $3")
        .bind(store_id)
        .bind(Permission::Owner.as_str())
        .bind(status::ACTIVE)
        .fetch_one(&mut **tx)
        .await?)
}

/// Records a change in the store's audit trail, in the change's transaction.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn record(
    tx: &mut Tx,
    store_id: i64,
    actor: i64,
    action: &str,
    subject_type: &str,
    subject_id: i64,
    subject_user_id: i64,
    detail: serde_json::Value,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO store_audit (store_id, actor_user_id, action, subject_type, subject_id, subject_user_id, detail, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(store_id)
    .bind(actor)
    .bind(action)
    .bind(subject_type)
    .bind(subject_id)
    .bind(subject_user_id)
    .bind(detail.to_string())
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn refused(code: Code) -> Error {
    match code {
        team::refusal::NOT_FOUND => Error::not_found(code),
        team::refusal::OWN_RIGHTS | team::refusal::OWNER_ONLY => Error::permission_denied(code),
        _ => Error::conflict(code),
    }
}

impl Repo {
    // ---- members ----

    /// The store's memberships: `status` one of active, inactive, deleted, or empty for the
    /// active and inactive; `search` in name, email or phone; owners first, then by id.
    pub async fn members(
        &self,
        store_id: i64,
        status_filter: &str,
        search: &str,
        page: PageRequest,
    ) -> Result<(Vec<MembershipRow>, Page)> {
        let status_clause = if status_filter.is_empty() { "m.status <> $2" } else { "m.status = $2" };
        let status_value = if status_filter.is_empty() { status::DELETED } else { status_filter };
        let search = search.trim().to_lowercase();
        let pattern = format!("%{}%", like_escape(&search));
        let search_clause = if search.is_empty() {
            ""
        } else {
            " AND (LOWER(u.first_name || ' ' || u.last_name) LIKE $3 ESCAPE '\\' \
               OR LOWER(u.email) LIKE $3 ESCAPE '\\' OR u.tel LIKE $3 ESCAPE '\\')"
        };
        let filter = format!("WHERE m.store_id = $1 AND {status_clause}{search_clause}");
        let count_sql = format!("SELECT COUNT(*) FROM memberships m JOIN users u ON u.id = m.user_id {filter}");
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id).bind(status_value);
        if !search.is_empty() {
            count = count.bind(pattern.clone());
        }
        let total = count.fetch_one(self.db.pool()).await?;
        let page = page.resolve(total);
        let (lim, off) = if search.is_empty() { ("$3", "$4") } else { ("$4", "$5") };
        let sql = format!(
            "{MEMBERSHIP_SELECT} {filter} ORDER BY CASE WHEN m.permission = 'owner' THEN 0 ELSE 1 END, m.id \
             LIMIT {lim} OFFSET {off}"
        );
        let mut q = sqlx::query_as::<_, MembershipRow>(&sql).bind(store_id).bind(status_value);
        if !search.is_empty() {
            q = q.bind(pattern);
        }
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?;
        Ok((rows, page))
    }

    /// One membership of the store (removed ones too, for their history).
    pub async fn member(&self, store_id: i64, id: i64) -> Result<MembershipRow> {
        sqlx::query_as::<_, MembershipRow>(&format!("{MEMBERSHIP_SELECT} WHERE m.store_id = $1 AND m.id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or_else(|| Error::not_found(Code::UserStoreNotFound))
    }

    /// Changes a membership as `actor` (a member of the store) asks, under the team's rules.
    /// Any change of level, role or status moves the membership's version on.
    pub async fn update_member(&self, store_id: i64, actor: i64, id: i64, u: MemberUpdate) -> Result<MembershipRow> {
        let mut tx = self.db.begin().await?;
        claim_store(&mut tx, store_id).await?;
        let me = actor_in(&mut tx, store_id, actor).await?;
        let target = member_where(&mut tx, store_id, "m.id", id)
            .await?
            .filter(|m| u.user_id == 0 || m.user_id == u.user_id)
            .ok_or_else(|| Error::not_found(Code::UserStoreNotFound))?;
        let profile = u.first_name.is_some() || u.last_name.is_some() || u.tel.is_some();
        if profile && target.user_id != actor {
            // A person's name and phone are theirs, shared by every store they belong to.
            return Err(Error::permission_denied(Code::TeamProfileOwnOnly));
        }
        let new_level = u.level.filter(|l| *l != level_of(&target));
        let new_status = u.status.clone().filter(|s| *s != target.status);
        // A new level without a role takes the level's built-in role.
        let role = match (u.role_id, new_level) {
            (Some(r), _) => Some(role_in(&mut tx, store_id, r).await?),
            (None, Some(level)) => Some(built_in_role(&mut tx, store_id, level).await?),
            (None, None) => None,
        }
        .filter(|r| r.id != target.role_id || new_level.is_some());
        if new_level.is_some() || role.is_some() || new_status.is_some() {
            require(&me, bo_kit::perms::keys::USER_ALL)?;
        }
        let owners = active_owners(&mut tx, store_id).await?;
        team::check(
            Actor { user_id: actor, level: level_of(&me) },
            Target { user_id: target.user_id, level: level_of(&target), status: &target.status },
            Change {
                level: new_level,
                role: role.as_ref().map(|r| (r.name.as_str(), r.built_in != 0)),
                status: new_status.as_deref(),
            },
            owners,
        )
        .map_err(refused)?;
        if let Some(r) = &role {
            if !roles::may_grant(level_of(&me), &keys_of(&me), &r.keys()) {
                return Err(Error::permission_denied(Code::RoleBeyondOwnRights));
            }
        }
        let now = now_ms();
        let mut detail = serde_json::Map::new();
        if new_level.is_some() || role.is_some() || new_status.is_some() {
            let level = new_level.unwrap_or(level_of(&target));
            let role_id = role.as_ref().map_or(target.role_id, |r| r.id);
            let st = new_status.clone().unwrap_or(target.status.clone());
            sqlx::query(
                "UPDATE memberships SET permission = $1, role_id = $2, status = $3, version = version + 1, \
                 updated_at = $4 WHERE id = $5",
            )
            .bind(level.as_str())
            .bind(role_id)
            .bind(&st)
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if let Some(l) = new_level {
                detail.insert("permission".into(), json!([target.permission, l.as_str()]));
            }
            if let Some(r) = &role {
                detail.insert("role".into(), json!([target.role_name, r.name]));
            }
            if let Some(s) = &new_status {
                detail.insert("status".into(), json!([target.status, s]));
            }
        }
        if profile {
            sqlx::query("UPDATE users SET first_name = $1, last_name = $2, tel = $3, updated_at = $4 WHERE id = $5")
                .bind(u.first_name.as_deref().unwrap_or(&target.user_first_name))
                .bind(u.last_name.as_deref().unwrap_or(&target.user_last_name))
                .bind(u.tel.as_deref().unwrap_or(&target.user_tel))
                .bind(now)
                .bind(target.user_id)
                .execute(&mut *tx)
                .await?;
            for (k, old, new) in [
                ("first_name", &target.user_first_name, &u.first_name),
                ("last_name", &target.user_last_name, &u.last_name),
                ("tel", &target.user_tel, &u.tel),
            ] {
                if let Some(new) = new.as_ref().filter(|n| *n != old) {
                    detail.insert(k.into(), json!([old, new]));
                }
            }
        }
        if !detail.is_empty() {
            record(&mut tx, store_id, actor, "member.updated", "member", id, target.user_id, detail.into()).await?;
        }
        let row = member_where(&mut tx, store_id, "m.id", id)
            .await?
            .ok_or_else(|| Error::not_found(Code::UserStoreNotFound))?;
        tx.commit().await?;
        Ok(row)
    }

    /// Removes a member (their membership is kept as history, status deleted).
    pub async fn remove_member(&self, store_id: i64, actor: i64, id: i64, user_id: i64) -> Result<()> {
        self.update_member(
            store_id,
            actor,
            id,
            MemberUpdate { user_id, status: Some(status::DELETED.into()), ..Default::default() },
        )
        .await
        .map(|_| ())
    }

    // ---- roles ----

    /// The store's roles, built-in first, with how many live members hold each.
    pub async fn roles(&self, store_id: i64) -> Result<Vec<(RoleRow, i64)>> {
        let roles = sqlx::query_as::<_, RoleRow>(&format!(
            "SELECT {ROLE_COLUMNS} FROM roles WHERE store_id = $1 ORDER BY built_in DESC, id"
        ))
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?;
        let counts: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT role_id, COUNT(*) FROM memberships WHERE store_id = $1 AND status <> $2 GROUP BY role_id",
        )
        .bind(store_id)
        .bind(status::DELETED)
        .fetch_all(self.db.pool())
        .await?;
        Ok(roles
            .into_iter()
            .map(|r| {
                let n = counts.iter().find(|(id, _)| *id == r.id).map_or(0, |(_, n)| *n);
                (r, n)
            })
            .collect())
    }

    /// One role with its live member count.
    pub async fn role(&self, store_id: i64, id: i64) -> Result<(RoleRow, i64)> {
        self.roles(store_id)
            .await?
            .into_iter()
            .find(|(r, _)| r.id == id)
            .ok_or_else(|| Error::not_found(Code::RoleNotFound))
    }

    /// Creates a custom role; `keys` already checked against the catalogue.
    pub async fn create_role(&self, store_id: i64, actor: i64, name: &str, keys: &[String]) -> Result<RoleRow> {
        let mut tx = self.db.begin().await?;
        claim_store(&mut tx, store_id).await?;
        let me = actor_in(&mut tx, store_id, actor).await?;
        require(&me, bo_kit::perms::keys::STORE_ROLE_ALL)?;
        if !roles::may_grant(level_of(&me), &keys_of(&me), keys) {
            return Err(Error::permission_denied(Code::RoleBeyondOwnRights));
        }
        let custom: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM roles WHERE store_id = $1 AND built_in = 0")
            .bind(store_id)
            .fetch_one(&mut *tx)
            .await?;
        if custom >= roles::MAX_CUSTOM_ROLES {
            return Err(Error::conflict(Code::RoleLimitReached));
        }
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO roles (store_id, name, permissions, built_in, created_at, updated_at) \
             VALUES ($1, $2, $3, 0, $4, $4) RETURNING id",
        )
        .bind(store_id)
        .bind(name.trim())
        .bind(serde_json::to_string(keys).map_err(Error::internal)?)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(role_name_conflict)?;
        record(
            &mut tx,
            store_id,
            actor,
            "role.created",
            "role",
            id,
            0,
            json!({"name": name.trim(), "permissions": keys}),
        )
        .await?;
        let row = role_in(&mut tx, store_id, id).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Changes a custom role; its members' tokens are renewed when its keys change.
    pub async fn update_role(
        &self,
        store_id: i64,
        actor: i64,
        id: i64,
        name: Option<&str>,
        keys: Option<&[String]>,
    ) -> Result<RoleRow> {
        let mut tx = self.db.begin().await?;
        claim_store(&mut tx, store_id).await?;
        let me = actor_in(&mut tx, store_id, actor).await?;
        require(&me, bo_kit::perms::keys::STORE_ROLE_ALL)?;
        let cur = role_in(&mut tx, store_id, id).await?;
        if cur.built_in != 0 {
            return Err(Error::conflict(Code::RoleBuiltIn));
        }
        if level_of(&me) != Permission::Owner && me.role_id == id {
            // Raising one's own role's rights would go around "only what you hold".
            return Err(Error::permission_denied(Code::TeamOwnRights));
        }
        let mut detail = serde_json::Map::new();
        let new_name = name.map(str::trim).filter(|n| *n != cur.name);
        if let Some(n) = new_name {
            detail.insert("name".into(), json!([cur.name, n]));
        }
        let old_keys = cur.keys();
        let new_keys = keys.filter(|k| *k != old_keys.as_slice());
        if let Some(k) = new_keys {
            if !roles::may_grant(level_of(&me), &keys_of(&me), k) {
                return Err(Error::permission_denied(Code::RoleBeyondOwnRights));
            }
            let added: Vec<&String> = k.iter().filter(|x| !old_keys.contains(x)).collect();
            let removed: Vec<&String> = old_keys.iter().filter(|x| !k.contains(x)).collect();
            detail.insert("added".into(), json!(added));
            detail.insert("removed".into(), json!(removed));
        }
        if detail.is_empty() {
            tx.commit().await?;
            return Ok(cur);
        }
        sqlx::query("UPDATE roles SET name = $1, permissions = $2, updated_at = $3 WHERE id = $4")
            .bind(new_name.unwrap_or(&cur.name))
            .bind(match new_keys {
                Some(k) => serde_json::to_string(k).map_err(Error::internal)?,
                None => cur.permissions.clone(),
            })
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(role_name_conflict)?;
        if new_keys.is_some() {
            bump_role_members(&mut tx, id).await?;
        }
        record(&mut tx, store_id, actor, "role.updated", "role", id, 0, detail.into()).await?;
        let row = role_in(&mut tx, store_id, id).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Deletes a custom role. Its live members and pending invitations move to
    /// `move_to` (refused without one while there are any); its history (removed members,
    /// used invitations) moves to the built-in role of each one's level.
    pub async fn delete_role(&self, store_id: i64, actor: i64, id: i64, move_to: i64) -> Result<i64> {
        let mut tx = self.db.begin().await?;
        claim_store(&mut tx, store_id).await?;
        let me = actor_in(&mut tx, store_id, actor).await?;
        require(&me, bo_kit::perms::keys::STORE_ROLE_ALL)?;
        let cur = role_in(&mut tx, store_id, id).await?;
        if cur.built_in != 0 {
            return Err(Error::conflict(Code::RoleBuiltIn));
        }
        if level_of(&me) != Permission::Owner && me.role_id == id {
            return Err(Error::permission_denied(Code::TeamOwnRights));
        }
        let now = now_ms();
        let live: i64 = sqlx::query_scalar(
            "SELECT (SELECT COUNT(*) FROM memberships WHERE role_id = $1 AND status <> $2) + \
             (SELECT COUNT(*) FROM invitations WHERE role_id = $1 AND used_at IS NULL AND deleted_at IS NULL AND expires_at > $3)",
        )
        .bind(id)
        .bind(status::DELETED)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        let mut moved = 0;
        if live > 0 {
            if move_to == 0 {
                return Err(Error::conflict(Code::RoleInUse));
            }
            let target = role_in(&mut tx, store_id, move_to).await?;
            if target.id == id {
                return Err(Error::invalid_field("move_to_role_id", "validation.role_move_same"));
            }
            if !roles::may_grant(level_of(&me), &keys_of(&me), &target.keys()) {
                return Err(Error::permission_denied(Code::RoleBeyondOwnRights));
            }
            // A built-in target must match each member's level: only the same level's role.
            if target.built_in != 0 {
                let mismatched: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM memberships WHERE role_id = $1 AND status <> $2 AND permission <> $3",
                )
                .bind(id)
                .bind(status::DELETED)
                .bind(&target.name)
                .fetch_one(&mut *tx)
                .await?;
                if mismatched > 0 {
                    return Err(Error::conflict(Code::TeamRoleLevel));
                }
            }
            moved = sqlx::query(
                "UPDATE memberships SET role_id = $1, version = version + 1, updated_at = $2 WHERE role_id = $3 AND status <> $4",
            )
            .bind(move_to)
            .bind(now)
            .bind(id)
            .bind(status::DELETED)
            .execute(&mut *tx)
            .await?
            .rows_affected() as i64;
            sqlx::query(
                "UPDATE invitations SET role_id = $1 WHERE role_id = $2 AND used_at IS NULL AND deleted_at IS NULL",
            )
            .bind(move_to)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        for table in ["memberships", "invitations"] {
            sqlx::query(&format!(
                "UPDATE {table} SET role_id = (SELECT r.id FROM roles r WHERE r.store_id = $1 AND r.built_in = 1 \
                 AND r.name = {table}.permission) WHERE role_id = $2"
            ))
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("DELETE FROM roles WHERE id = $1").bind(id).execute(&mut *tx).await?;
        record(
            &mut tx,
            store_id,
            actor,
            "role.deleted",
            "role",
            id,
            0,
            json!({"name": cur.name, "moved": moved, "move_to": move_to}),
        )
        .await?;
        tx.commit().await?;
        Ok(moved)
    }

    // ---- invitations ----

    /// Pending invitations (not used, deleted or expired), newest first.
    pub async fn invitations(&self, store_id: i64) -> Result<Vec<InvitationRow>> {
        Ok(sqlx::query_as::<_, InvitationRow>(&format!(
            "{INVITATION_SELECT} WHERE i.store_id = $1 AND i.used_at IS NULL AND i.deleted_at IS NULL \
             AND i.expires_at > $2 ORDER BY i.id DESC"
        ))
        .bind(store_id)
        .bind(now_ms())
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Invites by link with `level` and a role (`role_id` 0: the level's built-in role).
    pub async fn create_invitation(
        &self,
        store_id: i64,
        actor: i64,
        level: Permission,
        role_id: i64,
    ) -> Result<InvitationRow> {
        let mut tx = self.db.begin().await?;
        claim_store(&mut tx, store_id).await?;
        let me = actor_in(&mut tx, store_id, actor).await?;
        require(&me, bo_kit::perms::keys::USER_ALL)?;
        let role = if role_id == 0 {
            built_in_role(&mut tx, store_id, level).await?
        } else {
            role_in(&mut tx, store_id, role_id).await?
        };
        if role.built_in != 0 && role.name != level.as_str() {
            return Err(Error::conflict(Code::TeamRoleLevel));
        }
        if !roles::may_grant(level_of(&me), &keys_of(&me), &role.keys()) {
            return Err(Error::permission_denied(Code::RoleBeyondOwnRights));
        }
        let now = now_ms();
        let pending: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM invitations WHERE store_id = $1 AND used_at IS NULL AND deleted_at IS NULL AND expires_at > $2",
        )
        .bind(store_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        if pending >= team::MAX_PENDING_INVITATIONS {
            return Err(Error::conflict(Code::InvitationLimitReached));
        }
        let key = team::new_invitation_key();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO invitations (store_id, invite_key, permission, role_id, created_by, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(store_id)
        .bind(&key)
        .bind(level.as_str())
        .bind(role.id)
        .bind(actor)
        .bind(now)
        .bind(now + team::INVITATION_TTL_MS)
        .fetch_one(&mut *tx)
        .await?;
        record(
            &mut tx,
            store_id,
            actor,
            "invitation.created",
            "invitation",
            id,
            0,
            json!({"permission": level.as_str(), "role": role.name}),
        )
        .await?;
        let row = invitation_by_id(&mut tx, id)
            .await?
            .ok_or_else(|| Error::internal(anyhow::anyhow!("invitation vanished")))?;
        tx.commit().await?;
        Ok(row)
    }

    /// Withdraws a pending invitation of the store.
    pub async fn delete_invitation(&self, store_id: i64, actor: i64, key: &str) -> Result<()> {
        let mut tx = self.db.begin().await?;
        claim_store(&mut tx, store_id).await?;
        require(&actor_in(&mut tx, store_id, actor).await?, bo_kit::perms::keys::USER_ALL)?;
        let inv = invitation_by_key(&mut tx, key)
            .await?
            .filter(|i| i.store_id == store_id && i.deleted_at.is_none())
            .ok_or_else(|| Error::not_found(Code::InvitationNotFound))?;
        if inv.used_at.is_some() {
            return Err(Error::conflict(Code::InvitationUsed));
        }
        sqlx::query("UPDATE invitations SET deleted_at = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(inv.id)
            .execute(&mut *tx)
            .await?;
        record(
            &mut tx,
            store_id,
            actor,
            "invitation.deleted",
            "invitation",
            inv.id,
            0,
            json!({"permission": inv.permission, "role": inv.role_name}),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// An invitation by its key, in any state.
    pub async fn invitation(&self, key: &str) -> Result<Option<InvitationRow>> {
        let mut conn = self.db.pool().acquire().await?;
        invitation_by_key(&mut conn, key).await
    }

    /// Joins `user_id` to the invitation's store: claims the invitation (once, whoever
    /// races), then adds the membership or brings back a removed one.
    pub async fn accept_invitation(&self, key: &str, user_id: i64) -> Result<MembershipRow> {
        let mut tx = self.db.begin().await?;
        let row = join(&mut tx, key, user_id).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Creates an account from an invitation and joins its store, in one transaction: no
    /// account is left behind when the invitation cannot be used.
    pub async fn register_with_invitation(
        &self,
        key: &str,
        email: &str,
        password_hash: &str,
        first_name: &str,
        last_name: &str,
    ) -> Result<(UserRow, MembershipRow)> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let user_id = insert_user(&mut tx, email, password_hash, first_name, last_name, now).await?;
        let m = join(&mut tx, key, user_id).await?;
        let user = sqlx::query_as::<_, UserRow>(
            "SELECT id, email, password_hash, first_name, last_name, tel, created_at FROM users WHERE id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((user, m))
    }

    // ---- audit ----

    /// The store's audit trail, newest first; `actor` 0 for everyone.
    pub async fn audit(&self, store_id: i64, actor: i64, page: PageRequest) -> Result<(Vec<AuditRow>, Page)> {
        let filter = if actor > 0 { "a.store_id = $1 AND a.actor_user_id = $2" } else { "a.store_id = $1 AND $2 = 0" };
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM store_audit a WHERE {filter}"))
            .bind(store_id)
            .bind(actor)
            .fetch_one(self.db.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, AuditRow>(&format!(
            "SELECT a.id, a.actor_user_id, a.action, a.subject_type, a.subject_id, a.subject_user_id, a.detail, \
             a.created_at, COALESCE(u.first_name, '') AS actor_first_name, COALESCE(u.last_name, '') AS actor_last_name, \
             COALESCE(u.email, '') AS actor_email FROM store_audit a LEFT JOIN users u ON u.id = a.actor_user_id \
             WHERE {filter} ORDER BY a.id DESC LIMIT $3 OFFSET $4"
        ))
        .bind(store_id)
        .bind(actor)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page))
    }
}

fn role_name_conflict(e: sqlx::Error) -> Error {
    if is_unique_violation(&e) {
        Error::invalid_field("name", "validation.role_name_duplicate")
    } else {
        e.into()
    }
}

async fn invitation_by_id(conn: &mut sqlx::AnyConnection, id: i64) -> Result<Option<InvitationRow>> {
    Ok(sqlx::query_as::<_, InvitationRow>(&format!("{INVITATION_SELECT} WHERE i.id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

async fn invitation_by_key(conn: &mut sqlx::AnyConnection, key: &str) -> Result<Option<InvitationRow>> {
    Ok(sqlx::query_as::<_, InvitationRow>(&format!("{INVITATION_SELECT} WHERE i.invite_key = $1"))
        .bind(key)
        .fetch_optional(conn)
        .await?)
}

async fn join(tx: &mut Tx, key: &str, user_id: i64) -> Result<MembershipRow> {
    let now = now_ms();
    let inv = invitation_by_key(tx, key).await?.ok_or_else(|| Error::not_found(Code::InvitationNotFound))?;
    if let Some(code) =
        team::invitation_refusal(team::invitation_state(inv.used_at, inv.deleted_at, inv.expires_at, now))
    {
        return Err(Error::conflict(code));
    }
    claim_store(tx, inv.store_id).await?;
    let existing = member_where(tx, inv.store_id, "m.user_id", user_id).await?;
    if existing.as_ref().is_some_and(|m| m.status != status::DELETED) {
        return Err(Error::conflict(Code::AlreadyMember));
    }
    // Claim the invitation: of two people racing for one link, one joins.
    let claimed = sqlx::query(
        "UPDATE invitations SET used_at = $1, used_by = $2 WHERE id = $3 AND used_at IS NULL AND deleted_at IS NULL",
    )
    .bind(now)
    .bind(user_id)
    .bind(inv.id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if claimed != 1 {
        return Err(Error::conflict(Code::InvitationUsed));
    }
    let id = match existing {
        Some(m) => {
            sqlx::query(
                "UPDATE memberships SET permission = $1, role_id = $2, status = $3, version = version + 1, \
                 updated_at = $4 WHERE id = $5",
            )
            .bind(&inv.permission)
            .bind(inv.role_id)
            .bind(status::ACTIVE)
            .bind(now)
            .bind(m.id)
            .execute(&mut **tx)
            .await?;
            m.id
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO memberships (user_id, store_id, permission, role_id, status, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
            )
            .bind(user_id)
            .bind(inv.store_id)
            .bind(&inv.permission)
            .bind(inv.role_id)
            .bind(status::ACTIVE)
            .bind(now)
            .fetch_one(&mut **tx)
            .await?
        }
    };
    record(
        tx,
        inv.store_id,
        user_id,
        "member.joined",
        "member",
        id,
        user_id,
        json!({"permission": inv.permission, "role": inv.role_name, "invited_by": inv.created_by}),
    )
    .await?;
    member_where(tx, inv.store_id, "m.id", id)
        .await?
        .ok_or_else(|| Error::internal(anyhow::anyhow!("membership vanished")))
}
