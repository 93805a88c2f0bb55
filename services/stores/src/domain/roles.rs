//! Built-in roles and their permission keys (SPEC §6). The owner holds everything; the
//! grants of admin and cashier are this product's defaults, editable later through
//! custom roles.

/// A membership's permission level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// The store's owner.
    Owner,
    /// An admin.
    Admin,
    /// A cashier.
    Cashier,
}

impl Permission {
    /// As stored and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Owner => "owner",
            Permission::Admin => "admin",
            Permission::Cashier => "cashier",
        }
    }
    /// Reads one.
    pub fn parse(s: &str) -> Option<Permission> {
        match s {
            "owner" => Some(Permission::Owner),
            "admin" => Some(Permission::Admin),
            "cashier" => Some(Permission::Cashier),
            _ => None,
        }
    }
}

/// The built-in roles created with every store: (name, permission keys).
pub fn built_in() -> [(&'static str, &'static [&'static str]); 3] {
    [
        ("owner", &["*"]),
        ("admin", &["product.sku.*", "order.order.*", "wms.*", "store.customer.*", "payment.payment.*", "user.*"]),
        (
            "cashier",
            &[
                "product.sku.read",
                "order.order.read",
                "order.order.create",
                "store.customer.read",
                "store.customer.create",
                "store.customer.edit",
            ],
        ),
    ]
}

/// Longest role name, in characters.
pub const MAX_ROLE_NAME: usize = 50;
/// Most custom roles a store keeps.
pub const MAX_CUSTOM_ROLES: i64 = 50;

/// Checks a custom role's name and keys; answers the keys in catalogue order, each once.
/// A name may not be one of the built-in roles'; every key must be in the catalogue.
pub fn validate_role(name: Option<&str>, perms: Option<&[String]>) -> bo_kit::Result<Vec<String>> {
    let mut errors = super::Errors::default();
    if let Some(name) = name {
        errors.required("name", name, MAX_ROLE_NAME);
        if built_in().iter().any(|(b, _)| b.eq_ignore_ascii_case(name.trim())) {
            errors.add("name", msg::ROLE_NAME_RESERVED);
        }
    }
    let mut keys = Vec::new();
    if let Some(perms) = perms {
        if perms.is_empty() {
            errors.add("permissions", super::msg::REQUIRED);
        }
        if perms.iter().any(|p| !bo_kit::perms::KEYS.contains(&p.as_str())) {
            errors.add("permissions", msg::PERMISSION_UNKNOWN);
        }
        keys = bo_kit::perms::KEYS.iter().filter(|k| perms.iter().any(|p| p == *k)).map(|k| k.to_string()).collect();
    }
    errors.finish()?;
    Ok(keys)
}

/// Whether a member holding `granted` may hand out `keys` (to a role, or a role to a
/// member): an owner may hand out anything; anyone else only what they hold themself, so
/// managing roles or the team never raises one's own rights.
pub fn may_grant(level: Permission, granted: &[String], keys: &[String]) -> bool {
    level == Permission::Owner || keys.iter().all(|k| bo_kit::perms::holds(granted, k))
}

/// Message keys of role rules.
pub mod msg {
    /// The name of a built-in role.
    pub const ROLE_NAME_RESERVED: &str = "validation.role_name_reserved";
    /// A key not in the catalogue.
    pub const PERMISSION_UNKNOWN: &str = "validation.permission_unknown";
}

/// Membership status values.
pub mod status {
    /// May sign in to the store.
    pub const ACTIVE: &str = "active";
    /// Suspended.
    pub const INACTIVE: &str = "inactive";
    /// Removed.
    pub const DELETED: &str = "deleted";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_round_trip() {
        for p in [Permission::Owner, Permission::Admin, Permission::Cashier] {
            assert_eq!(Permission::parse(p.as_str()), Some(p));
        }
        assert_eq!(Permission::parse("root"), None);
    }

    #[test]
    fn custom_roles_name_known_keys() {
        let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let ok = validate_role(
            Some(" แพ็คของ "),
            Some(&keys(&["store.customer.read", "product.sku.read", "product.sku.read"])),
        )
        .unwrap();
        assert_eq!(ok, keys(&["product.sku.read", "store.customer.read"]), "catalogue order, once each");
        let codes = |r: bo_kit::Result<Vec<String>>| {
            r.unwrap_err().fields.into_iter().map(|f| (f.field, f.code)).collect::<Vec<_>>()
        };
        assert_eq!(
            codes(validate_role(Some(" "), Some(&[]))),
            vec![
                ("name".to_string(), "validation.required".to_string()),
                ("permissions".to_string(), "validation.required".to_string()),
            ]
        );
        assert_eq!(
            codes(validate_role(Some("Admin"), None)),
            vec![("name".to_string(), msg::ROLE_NAME_RESERVED.to_string())]
        );
        assert_eq!(codes(validate_role(Some(&"ก".repeat(51)), None))[0].1, "validation.too_long");
        assert_eq!(
            codes(validate_role(None, Some(&keys(&["product.sku.fly"]))))[0].1,
            msg::PERMISSION_UNKNOWN,
            "only catalogue keys"
        );
        assert!(validate_role(None, Some(&keys(&["user.*", "order.order.all"]))).is_ok());
    }

    #[test]
    fn only_what_one_holds_is_handed_out() {
        let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let admin = keys(&["product.sku.*", "user.*"]);
        assert!(may_grant(Permission::Admin, &admin, &keys(&["product.sku.read", "product.sku.edit"])));
        assert!(!may_grant(Permission::Admin, &admin, &keys(&["store.role.*"])));
        assert!(!may_grant(Permission::Admin, &admin, &keys(&["store.*"])), "a wider pattern than held");
        assert!(may_grant(Permission::Owner, &[], &keys(&["store.*", "store.role.*"])));
    }

    #[test]
    fn owner_holds_everything() {
        assert_eq!(built_in()[0], ("owner", &["*"][..]));
    }
}
