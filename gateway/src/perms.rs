//! Permission keys `area.resource.action` with `*` wildcards (SPEC §2, §6). A route passes
//! when its role check or its permission check passes; the owner holds everything; the
//! action `all` grants every action of its resource.

/// Does the granted key `granted` cover the required key `required`?
pub fn covers(granted: &str, required: &str) -> bool {
    let g: Vec<&str> = granted.split('.').collect();
    let r: Vec<&str> = required.split('.').collect();
    for (i, gs) in g.iter().enumerate() {
        if *gs == "*" {
            return true;
        }
        let Some(rs) = r.get(i) else { return false };
        if *rs == "*" {
            // A required wildcard (e.g. `store.*`) is met only by a grant as wide.
            return false;
        }
        let last = i == g.len() - 1 && i == r.len() - 1;
        if gs != rs && !(last && *gs == "all") {
            return false;
        }
    }
    g.len() == r.len()
}

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
    fn wildcards_and_all() {
        assert!(covers("*", "store.customer.read"));
        assert!(covers("store.*", "store.customer.read"));
        assert!(covers("store.customer.*", "store.customer.read"));
        assert!(covers("store.customer.read", "store.customer.read"));
        assert!(covers("order.order.all", "order.order.cancel"));
        assert!(!covers("store.customer.read", "store.customer.create"));
        assert!(!covers("store.customer", "store.customer.read"));
        assert!(!covers("product.*", "store.customer.read"));
        assert!(!covers("store.customer.read", "store.*"));
        assert!(covers("store.*", "store.*"));
        assert!(!covers("store.customer.all", "store.role.read"));
    }

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
