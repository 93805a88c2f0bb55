//! The order's rules, pure: its money ([`money`]), its states ([`state`]), its bills
//! ([`bill`]) and payments ([`payment`]), what a draft must hold ([`draft`]), and what the stock check compares
//! ([`check`]).

pub mod bill;
pub mod check;
pub mod draft;
pub mod money;
pub mod payment;
pub mod returns;
pub mod state;

/// Problems an order can have (SPEC §4 failure reasons that keep it from being prepared).
pub mod problem {
    /// Its stock could not be held.
    pub const STOCK: &str = "stock_not_enough";
    /// Its shipping address is incomplete.
    pub const ADDRESS: &str = "address_incomplete";
    /// A marketplace line matches none of our SKUs: it holds no stock until one is picked.
    pub const SKU_NOT_LINKED: &str = "sku_not_linked";
    /// Every problem, in the order they are shown.
    pub const ALL: [&str; 3] = [STOCK, ADDRESS, SKU_NOT_LINKED];
}

/// Where an order's stock stands in wms.
pub mod stock {
    /// Its lines are held (reserved).
    pub const HELD: &str = "held";
    /// It holds nothing: stock was short.
    pub const SHORT: &str = "short";
    /// A hold was asked and its answer is not yet recorded.
    pub const PENDING: &str = "pending";
    /// A release was asked and its answer is not yet recorded.
    pub const RELEASING: &str = "releasing";
    /// Released for good (cancelled or failed).
    pub const RELEASED: &str = "released";
    /// Shipping was asked and its answer is not yet recorded.
    pub const COMMITTING: &str = "committing";
    /// Shipped: the stock left.
    pub const COMMITTED: &str = "committed";
    /// Every stock state.
    pub const ALL: [&str; 7] = [HELD, SHORT, PENDING, RELEASING, RELEASED, COMMITTING, COMMITTED];
    /// States a request is still settling with wms (the reconciler finishes them).
    pub const IN_FLIGHT: [&str; 3] = [PENDING, RELEASING, COMMITTING];
}

/// The stock reference of an order in wms.
pub fn reference(order_id: i64) -> String {
    format!("{REFERENCE_PREFIX}{order_id}")
}

/// What every order's stock reference starts with.
pub const REFERENCE_PREFIX: &str = "order:";

/// The order id of a stock reference (None for other references).
pub fn order_of_reference(reference: &str) -> Option<i64> {
    reference.strip_prefix(REFERENCE_PREFIX).and_then(|n| n.parse().ok())
}

/// The readable number of the `n`th order of a Buddhist-era year: `SO2569-000001`.
pub fn order_no(be_year: i64, n: i64) -> String {
    format!("SO{be_year}-{n:06}")
}

/// What a search looks in: number, reference, receiver's name and phone, lower-cased.
pub fn search_text(order_no: &str, reference: &str, name: &str, tel: &str) -> String {
    format!("{} {} {} {}", order_no, reference, name, tel).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_readable_and_sort_by_count() {
        assert_eq!(order_no(2569, 1), "SO2569-000001");
        assert_eq!(order_no(2569, 123_456), "SO2569-123456");
        assert!(order_no(2569, 9) < order_no(2569, 10));
    }

    #[test]
    fn references_name_their_order() {
        assert_eq!(reference(42), "order:42");
        assert_eq!(order_of_reference("order:42"), Some(42));
        assert_eq!(order_of_reference("gr:42"), None);
        assert_eq!(order_of_reference("order:x"), None);
    }
}
