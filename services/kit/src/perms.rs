//! Permission keys `area.resource.action` with `*` wildcards (SPEC §6): the catalogue every
//! route and role draws from, and what a grant covers. The owner holds everything; the
//! action `all` grants every action of its resource.

/// Every permission key a route may require or a role may grant (SPEC §6), in the order
/// the role editor lists them. The app's list is generated from this one (the OpenAPI
/// document's `PermissionKey` schema), so the two never drift.
pub const KEYS: &[&str] = &[
    keys::PRODUCT_SKU_READ,
    keys::PRODUCT_SKU_CREATE,
    keys::PRODUCT_SKU_EDIT,
    keys::ORDER_ORDER_ALL,
    keys::ORDER_ORDER_READ,
    keys::ORDER_ORDER_CREATE,
    keys::ORDER_ORDER_EDIT,
    keys::ORDER_ORDER_CANCEL,
    keys::WMS_GOODS_RECEIPT_ALL,
    keys::WMS_GOODS_RECEIPT_READ,
    keys::WMS_GOODS_RECEIPT_CREATE,
    keys::WMS_GOODS_RECEIPT_EDIT,
    keys::WMS_GOODS_RECEIPT_DELETE,
    keys::WMS_GOODS_RECEIPT_APPROVE,
    keys::WMS_GOODS_ADJUST_READ,
    keys::WMS_GOODS_ADJUST_CREATE,
    keys::STORE_CUSTOMER_READ,
    keys::STORE_CUSTOMER_CREATE,
    keys::STORE_CUSTOMER_EDIT,
    keys::PAYMENT_PAYMENT_ALL,
    keys::PAYMENT_PAYMENT_READ,
    keys::PAYMENT_PAYMENT_CREATE,
    keys::PAYMENT_PAYMENT_EDIT,
    keys::PAYMENT_PAYMENT_DELETE,
    keys::PAYMENT_PAYMENT_APPROVE,
    keys::PAYMENT_PAYMENT_REJECT,
    keys::STORE_ALL,
    keys::PAYMENT_STORE_CHANNEL_ALL,
    keys::LOGISTIC_STORE_CHANNEL_ALL,
    keys::USER_ALL,
    keys::STORE_ROLE_ALL,
];

/// The keys by name, for routes' [`Access`] constants.
pub mod keys {
    /// Read products and SKUs.
    pub const PRODUCT_SKU_READ: &str = "product.sku.read";
    /// Create products.
    pub const PRODUCT_SKU_CREATE: &str = "product.sku.create";
    /// Edit products.
    pub const PRODUCT_SKU_EDIT: &str = "product.sku.edit";
    /// Every order action.
    pub const ORDER_ORDER_ALL: &str = "order.order.all";
    /// Read orders.
    pub const ORDER_ORDER_READ: &str = "order.order.read";
    /// Create orders.
    pub const ORDER_ORDER_CREATE: &str = "order.order.create";
    /// Edit orders.
    pub const ORDER_ORDER_EDIT: &str = "order.order.edit";
    /// Cancel orders.
    pub const ORDER_ORDER_CANCEL: &str = "order.order.cancel";
    /// Every goods-receipt action.
    pub const WMS_GOODS_RECEIPT_ALL: &str = "wms.goodsReceipt.all";
    /// Read goods receipts.
    pub const WMS_GOODS_RECEIPT_READ: &str = "wms.goodsReceipt.read";
    /// Create goods receipts.
    pub const WMS_GOODS_RECEIPT_CREATE: &str = "wms.goodsReceipt.create";
    /// Edit goods receipts.
    pub const WMS_GOODS_RECEIPT_EDIT: &str = "wms.goodsReceipt.edit";
    /// Delete goods receipts.
    pub const WMS_GOODS_RECEIPT_DELETE: &str = "wms.goodsReceipt.delete";
    /// Approve goods receipts.
    pub const WMS_GOODS_RECEIPT_APPROVE: &str = "wms.goodsReceipt.approve";
    /// Read stock adjustments.
    pub const WMS_GOODS_ADJUST_READ: &str = "wms.goodsAdjust.read";
    /// Adjust stock.
    pub const WMS_GOODS_ADJUST_CREATE: &str = "wms.goodsAdjust.create";
    /// Read customers.
    pub const STORE_CUSTOMER_READ: &str = "store.customer.read";
    /// Create customers.
    pub const STORE_CUSTOMER_CREATE: &str = "store.customer.create";
    /// Edit customers.
    pub const STORE_CUSTOMER_EDIT: &str = "store.customer.edit";
    /// Every payment action.
    pub const PAYMENT_PAYMENT_ALL: &str = "payment.payment.all";
    /// Read payments.
    pub const PAYMENT_PAYMENT_READ: &str = "payment.payment.read";
    /// Create payments.
    pub const PAYMENT_PAYMENT_CREATE: &str = "payment.payment.create";
    /// Edit payments.
    pub const PAYMENT_PAYMENT_EDIT: &str = "payment.payment.edit";
    /// Delete payments.
    pub const PAYMENT_PAYMENT_DELETE: &str = "payment.payment.delete";
    /// Approve payments.
    pub const PAYMENT_PAYMENT_APPROVE: &str = "payment.payment.approve";
    /// Reject payments.
    pub const PAYMENT_PAYMENT_REJECT: &str = "payment.payment.reject";
    /// Everything about the store (its settings).
    pub const STORE_ALL: &str = "store.*";
    /// The store's payment accounts.
    pub const PAYMENT_STORE_CHANNEL_ALL: &str = "payment.storeChannel.*";
    /// The store's logistics channels.
    pub const LOGISTIC_STORE_CHANNEL_ALL: &str = "logistic.storeChannel.*";
    /// The store's team.
    pub const USER_ALL: &str = "user.*";
    /// The store's roles.
    pub const STORE_ROLE_ALL: &str = "store.role.*";
}

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

/// Whether `granted` covers `key` (a key or a wildcard pattern asked for).
pub fn holds(granted: &[String], key: &str) -> bool {
    granted.iter().any(|g| covers(g, key))
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
        assert!(holds(&["wms.*".into()], "wms.goodsAdjust.read") && !holds(&[], "wms.goodsAdjust.read"));
    }

    #[test]
    fn keys_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for k in KEYS {
            assert!(seen.insert(*k), "{k} twice");
            let parts: Vec<&str> = k.split('.').collect();
            assert!((2..=3).contains(&parts.len()) && parts.iter().all(|p| !p.is_empty()), "{k}");
        }
    }
}
