//! The team: who may change whose membership, and how (SPEC §6; decision 0013). Pure rules,
//! one table of refusals, each with a test.
//!
//! - Managing the team takes the owner level or the `user.*` permission (checked by the
//!   caller); what follows is checked here.
//! - Nobody changes their own level, role or status: rights are always given by someone else.
//! - Only an owner may touch an owner's membership or make someone an owner.
//! - The store always keeps at least one active owner: the last one cannot be demoted,
//!   deactivated or removed.
//! - A removed membership is history: it cannot be edited (an invitation brings the person
//!   back).

use super::roles::{status, Permission};
use bo_kit::Code;

/// Why a change is refused: the error code the API answers.
pub mod refusal {
    /// The membership is removed or does not exist.
    pub const NOT_FOUND: bo_kit::Code = bo_kit::Code::UserStoreNotFound;
    /// A member cannot change their own level, role or status.
    pub const OWN_RIGHTS: bo_kit::Code = bo_kit::Code::TeamOwnRights;
    /// Only an owner may change an owner or make one.
    pub const OWNER_ONLY: bo_kit::Code = bo_kit::Code::TeamOwnerOnly;
    /// The store's last active owner stays.
    pub const LAST_OWNER: bo_kit::Code = bo_kit::Code::TeamLastOwner;
    /// A custom role goes with the admin or cashier level; a built-in role with its own level.
    pub const ROLE_LEVEL: bo_kit::Code = bo_kit::Code::TeamRoleLevel;
}

/// The member acting.
#[derive(Debug, Clone, Copy)]
pub struct Actor {
    /// Their user id.
    pub user_id: i64,
    /// Their level in the store.
    pub level: Permission,
}

/// The membership changed, as it stands.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// Its user.
    pub user_id: i64,
    /// Its level.
    pub level: Permission,
    /// active, inactive or deleted.
    pub status: &'a str,
}

/// What is asked: each part `None` when it stays.
#[derive(Debug, Clone, Copy, Default)]
pub struct Change<'a> {
    /// A new level.
    pub level: Option<Permission>,
    /// A new role: (its name, whether it is built in).
    pub role: Option<(&'a str, bool)>,
    /// A new status: active, inactive or deleted.
    pub status: Option<&'a str>,
}

impl Change<'_> {
    fn touches_rights(&self) -> bool {
        self.level.is_some() || self.role.is_some() || self.status.is_some()
    }
}

/// Checks a change of `target` by `actor`; `active_owners` counts the store's active owner
/// memberships (the target included when it is one). `Err` holds the refusal's code.
pub fn check(actor: Actor, target: Target<'_>, change: Change<'_>, active_owners: i64) -> Result<(), Code> {
    if target.status == status::DELETED {
        return Err(refusal::NOT_FOUND);
    }
    if !change.touches_rights() {
        return Ok(());
    }
    if actor.user_id == target.user_id {
        return Err(refusal::OWN_RIGHTS);
    }
    let makes_owner = change.level == Some(Permission::Owner);
    if (target.level == Permission::Owner || makes_owner) && actor.level != Permission::Owner {
        return Err(refusal::OWNER_ONLY);
    }
    let level = change.level.unwrap_or(target.level);
    if let Some((name, built_in)) = change.role {
        let fits = if built_in { name == level.as_str() } else { level != Permission::Owner };
        if !fits {
            return Err(refusal::ROLE_LEVEL);
        }
    }
    let stays_active_owner = level == Permission::Owner && change.status.unwrap_or(target.status) == status::ACTIVE;
    let is_active_owner = target.level == Permission::Owner && target.status == status::ACTIVE;
    if is_active_owner && !stays_active_owner && active_owners <= 1 {
        return Err(refusal::LAST_OWNER);
    }
    Ok(())
}

/// How long an invitation's link works.
pub const INVITATION_TTL_MS: i64 = 7 * 24 * 3_600_000;
/// Most pending invitations a store keeps at once.
pub const MAX_PENDING_INVITATIONS: i64 = 100;

/// An invitation's state, from its times (milliseconds).
pub fn invitation_state(used_at: Option<i64>, deleted_at: Option<i64>, expires_at: i64, now: i64) -> &'static str {
    if deleted_at.is_some() {
        "deleted"
    } else if used_at.is_some() {
        "used"
    } else if now >= expires_at {
        "expired"
    } else {
        "valid"
    }
}

/// The error of joining with an invitation in `state` (`None` when it may be used).
pub fn invitation_refusal(state: &str) -> Option<Code> {
    match state {
        "valid" => None,
        "expired" => Some(Code::InvitationExpired),
        "used" => Some(Code::InvitationUsed),
        _ => Some(Code::InvitationDeleted),
    }
}

/// A new invitation key: 64 hex digits from two random UUIDs (244 random bits).
pub fn new_invitation_key() -> String {
    format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple())
}

/// Whether `key` looks like one (checked before any query).
pub fn is_invitation_key(key: &str) -> bool {
    key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Invitations bring admins and cashiers; owners are made by another owner in the team.
pub fn invitation_level(permission: &str) -> Option<Permission> {
    Permission::parse(permission).filter(|p| *p != Permission::Owner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Permission::{Admin, Cashier, Owner};

    const OWNER: Actor = Actor { user_id: 1, level: Owner };
    const ADMIN: Actor = Actor { user_id: 2, level: Admin };

    fn member(user_id: i64, level: Permission, status: &str) -> Target<'_> {
        Target { user_id, level, status }
    }

    fn level(p: Permission) -> Change<'static> {
        Change { level: Some(p), ..Change::default() }
    }

    fn status(s: &'static str) -> Change<'static> {
        Change { status: Some(s), ..Change::default() }
    }

    #[test]
    fn invitations_work_once_and_until_they_expire() {
        assert_eq!(invitation_state(None, None, 100, 99), "valid");
        assert_eq!(invitation_state(None, None, 100, 100), "expired");
        assert_eq!(invitation_state(Some(50), None, 100, 60), "used");
        assert_eq!(invitation_state(Some(50), Some(70), 100, 60), "deleted");
        assert_eq!(invitation_refusal("valid"), None);
        assert_eq!(invitation_refusal("expired"), Some(Code::InvitationExpired));
        assert_eq!(invitation_refusal("used"), Some(Code::InvitationUsed));
        assert_eq!(invitation_refusal("deleted"), Some(Code::InvitationDeleted));
        let (a, b) = (new_invitation_key(), new_invitation_key());
        assert!(a != b && is_invitation_key(&a) && is_invitation_key(&b));
        assert!(!is_invitation_key("../../etc") && !is_invitation_key(&a[..63]));
        assert_eq!(invitation_level("cashier"), Some(Permission::Cashier));
        assert_eq!(invitation_level("owner"), None);
        assert_eq!(invitation_level("root"), None);
    }

    #[test]
    fn the_table_of_changes() {
        let cashier = member(3, Cashier, status::ACTIVE);
        let owner = member(1, Owner, status::ACTIVE);
        let co_owner = member(4, Owner, status::ACTIVE);
        let gone = member(5, Cashier, status::DELETED);
        let till = Some(("till", false));
        type Case<'a> = (&'a str, Actor, Target<'a>, Change<'a>, i64, Result<(), Code>);
        let cases: &[Case] = &[
            ("owner promotes a cashier to admin", OWNER, cashier, level(Admin), 1, Ok(())),
            ("admin with user.* deactivates a cashier", ADMIN, cashier, status(status::INACTIVE), 1, Ok(())),
            ("admin removes a cashier", ADMIN, cashier, status(status::DELETED), 1, Ok(())),
            (
                "admin gives a cashier a custom role",
                ADMIN,
                cashier,
                Change { role: till, ..Change::default() },
                1,
                Ok(()),
            ),
            ("nothing asked of a removed membership", OWNER, gone, Change::default(), 1, Err(refusal::NOT_FOUND)),
            ("a removed membership is not edited", OWNER, gone, status(status::ACTIVE), 1, Err(refusal::NOT_FOUND)),
            (
                "an admin cannot change their own role",
                ADMIN,
                member(2, Admin, status::ACTIVE),
                level(Owner),
                2,
                Err(refusal::OWN_RIGHTS),
            ),
            (
                "an owner cannot deactivate themself",
                OWNER,
                owner,
                status(status::INACTIVE),
                2,
                Err(refusal::OWN_RIGHTS),
            ),
            ("an admin cannot make an owner", ADMIN, cashier, level(Owner), 1, Err(refusal::OWNER_ONLY)),
            (
                "an admin cannot deactivate an owner",
                ADMIN,
                co_owner,
                status(status::INACTIVE),
                2,
                Err(refusal::OWNER_ONLY),
            ),
            ("an owner makes a co-owner", OWNER, cashier, level(Owner), 1, Ok(())),
            ("an owner demotes a co-owner", OWNER, co_owner, level(Admin), 2, Ok(())),
            (
                "the last owner is not demoted",
                Actor { user_id: 9, level: Owner },
                co_owner,
                level(Admin),
                1,
                Err(refusal::LAST_OWNER),
            ),
            (
                "the last owner is not removed",
                Actor { user_id: 9, level: Owner },
                co_owner,
                status(status::DELETED),
                1,
                Err(refusal::LAST_OWNER),
            ),
            (
                "an owner holds no custom role",
                OWNER,
                cashier,
                Change { level: Some(Owner), role: till, status: None },
                1,
                Err(refusal::ROLE_LEVEL),
            ),
            (
                "a built-in role matches its level",
                OWNER,
                cashier,
                Change { role: Some(("admin", true)), ..Change::default() },
                1,
                Err(refusal::ROLE_LEVEL),
            ),
            (
                "the admin role with the admin level",
                OWNER,
                cashier,
                Change { level: Some(Admin), role: Some(("admin", true)), status: None },
                1,
                Ok(()),
            ),
            (
                "an inactive owner may be removed",
                OWNER,
                member(4, Owner, status::INACTIVE),
                status(status::DELETED),
                1,
                Ok(()),
            ),
        ];
        for (what, actor, target, change, owners, want) in cases {
            assert_eq!(check(*actor, *target, *change, *owners), *want, "{what}");
        }
    }
}
