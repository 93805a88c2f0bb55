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
    fn owner_holds_everything() {
        assert_eq!(built_in()[0], ("owner", &["*"][..]));
    }
}
