//! Bills (SPEC §4 Bill): an order has one bill per warehouse, for that warehouse's share of
//! the order's total ([`super::money::bill_amounts`]). A bill is active or expired. When it
//! expires follows the store's bill-expiry setting that held when the bill was made (the
//! stores service answers it, with the time); what happens to the order then is that
//! setting's action: the order is cancelled (its stock released) or kept new.
//!
//! ```text
//! active ──expire──▶ expired
//!   ▲ │                 │
//!   └─┴──renew (days)───┘
//! ```
//!
//! Only a bill of a new, unpaid order expires: once the buyer has sent a slip (pending),
//! paid, or the order is being prepared, its bill waits. A renewal sets the bill to expire
//! a number of days from now, whatever it was.
use bo_kit::states::Table;
use bo_kit::Code;

/// Payable.
pub const ACTIVE: &str = "active";
/// Past its time.
pub const EXPIRED: &str = "expired";
/// Every state.
pub const STATES: [&str; 2] = [ACTIVE, EXPIRED];

/// Cancel the order when its bill expires.
pub const CANCEL_ORDER: &str = "cancel_order";
/// Keep the order new when its bill expires.
pub const KEEP_NEW: &str = "keep_new";

/// The most days a renewal gives.
pub const MAX_RENEW_DAYS: i64 = 30;
/// A day, in milliseconds.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// What is done to a bill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillAction {
    /// Its time passed (the scheduler).
    Expire,
    /// Given more days (`PATCH /orders/{id}/bill-expiry`).
    Renew,
}

impl BillAction {
    /// Both actions.
    pub const ALL: [BillAction; 2] = [BillAction::Expire, BillAction::Renew];
}

/// The allowed moves: (from, action, to).
pub const TABLE: Table<&str, BillAction> = Table::new(&[
    (ACTIVE, BillAction::Expire, EXPIRED),
    (ACTIVE, BillAction::Renew, ACTIVE),
    (EXPIRED, BillAction::Renew, ACTIVE),
]);

/// Where `action` takes a bill in `from`, or why it cannot.
pub fn next(from: &str, action: BillAction) -> Result<&'static str, Code> {
    TABLE.next(from, action).ok_or(match (from, action) {
        (EXPIRED, BillAction::Expire) => Code::BillAlreadyExpired,
        _ => Code::BillStateRefused,
    })
}

/// Why a bill of an order in `order_state` with `payment_state`, expiring at `expires_at`
/// (0 never), cannot be renewed; None when it can.
pub fn renew_refusal(order_state: &str, payment_state: &str, expires_at: i64) -> Option<Code> {
    if order_state != super::state::NEW {
        return Some(Code::BillOrderNotNew);
    }
    if payment_state == super::payment::PAID {
        return Some(Code::BillPaid);
    }
    if expires_at == 0 {
        return Some(Code::BillNeverExpires);
    }
    None
}

/// When a bill renewed at `now` for `days` expires; `Err` names the field's problem.
pub fn renewed_until(now: i64, days: i64) -> Result<i64, &'static str> {
    if !(1..=MAX_RENEW_DAYS).contains(&days) {
        return Err("validation.bill_renew_days");
    }
    Ok(now + days * DAY_MS)
}

/// Whether a bill of an order in `order_state` with `payment_state` may expire now.
pub fn may_expire(order_state: &str, payment_state: &str) -> bool {
    order_state == super::state::NEW && payment_state == super::payment::UNPAID
}

/// Whether a bill is open: the buyer may still pay it into the accounts its page shows. A
/// bill closes when it expires, when its order is paid, or when its order ends (cancelled,
/// failed or closed); a renewal opens it again.
pub fn is_open(bill_state: &str, order_state: &str, payment_state: &str) -> bool {
    use super::state::{CANCELLED, CLOSED, FAILED};
    bill_state == ACTIVE && !matches!(order_state, CANCELLED | CLOSED | FAILED) && payment_state != super::payment::PAID
}

/// A new, unguessable bill token: 128 random bits as 32 hex characters.
pub fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{payment, state};
    use bo_kit::states::check_every_pair;

    #[test]
    fn bills_are_open_while_payable() {
        assert!(is_open(ACTIVE, state::NEW, payment::UNPAID));
        assert!(is_open(ACTIVE, state::READY, payment::PENDING));
        assert!(is_open(ACTIVE, state::SHIPPED, payment::UNPAID));
        assert!(!is_open(EXPIRED, state::NEW, payment::UNPAID));
        assert!(!is_open(ACTIVE, state::NEW, payment::PAID));
        for ended in [state::CANCELLED, state::CLOSED, state::FAILED] {
            assert!(!is_open(ACTIVE, ended, payment::UNPAID), "{ended}");
        }
    }

    #[test]
    fn every_allowed_and_refused_move() {
        let expected: &[(&str, BillAction, Result<&str, Code>)] = &[
            (ACTIVE, BillAction::Expire, Ok(EXPIRED)),
            (ACTIVE, BillAction::Renew, Ok(ACTIVE)),
            (EXPIRED, BillAction::Expire, Err(Code::BillAlreadyExpired)),
            (EXPIRED, BillAction::Renew, Ok(ACTIVE)),
        ];
        check_every_pair(&TABLE, &STATES, &BillAction::ALL, expected, next);
    }

    #[test]
    fn only_a_new_unpaid_order_s_bill_expires() {
        for s in state::STATES {
            for p in payment::STATES {
                assert_eq!(may_expire(s, p), s == state::NEW && p == payment::UNPAID, "{s} {p}");
            }
        }
    }

    #[test]
    fn renewals_take_one_to_thirty_days_from_now() {
        assert_eq!(renewed_until(1_000, 1), Ok(1_000 + DAY_MS));
        assert_eq!(renewed_until(1_000, 30), Ok(1_000 + 30 * DAY_MS));
        for bad in [0, -1, 31, i64::MAX] {
            assert_eq!(renewed_until(1_000, bad), Err("validation.bill_renew_days"), "{bad}");
        }
    }

    #[test]
    fn a_renewal_needs_a_new_unpaid_order_and_a_bill_that_expires() {
        assert_eq!(renew_refusal(state::NEW, payment::UNPAID, 5), None);
        assert_eq!(renew_refusal(state::NEW, payment::PENDING, 5), None);
        assert_eq!(renew_refusal(state::CANCELLED, payment::UNPAID, 5), Some(Code::BillOrderNotNew));
        assert_eq!(renew_refusal(state::READY, payment::UNPAID, 5), Some(Code::BillOrderNotNew));
        assert_eq!(renew_refusal(state::NEW, payment::PAID, 5), Some(Code::BillPaid));
        assert_eq!(renew_refusal(state::NEW, payment::UNPAID, 0), Some(Code::BillNeverExpires));
    }

    #[test]
    fn tokens_are_long_random_and_distinct() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
