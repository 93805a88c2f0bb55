//! Permission keys `area.resource.action` with `*` wildcards (SPEC §2, §6). A route passes
//! when its role check or its permission check passes; the owner holds everything; the
//! action `all` grants every action of its resource.

pub use bo_kit::perms::{covers, keys, KEYS};

/// What a route asks for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Access {
    /// Any of these roles passes (`owner`, `admin`, `cashier`).
    pub roles: &'static [&'static str],
    /// Any of these keys, covered by a grant, passes.
    pub perms: &'static [&'static str],
}

impl Access {
    /// Passes for `role` with `granted` keys?
    pub fn allows(&self, role: &str, granted: &[String]) -> bool {
        if role == "owner" {
            return true;
        }
        if self.roles.is_empty() && self.perms.is_empty() {
            return true;
        }
        self.roles.contains(&role) || self.perms.iter().any(|req| granted.iter().any(|g| covers(g, req)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_or_permission() {
        let a = Access { roles: &["admin"], perms: &["store.customer.create"] };
        assert!(a.allows("owner", &[]));
        assert!(a.allows("admin", &[]));
        assert!(a.allows("cashier", &["store.customer.*".into()]));
        assert!(!a.allows("cashier", &["store.customer.read".into()]));
        let owner_only = Access { roles: &["owner"], perms: &["store.*"] };
        assert!(!owner_only.allows("admin", &["store.customer.*".into()]));
        assert!(owner_only.allows("admin", &["store.*".into()]));
    }
}
