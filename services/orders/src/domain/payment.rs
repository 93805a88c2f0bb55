//! Payments of orders (SPEC §4 Payment state): a payment is made against one bill, for its
//! amount, to one of the store's accounts. Its states and the actions that move them are one
//! table; confirmation is refused with the reasons of SPEC §8.
//!
//! ```text
//! unpaid ──attach slip──▶ pending ──confirm──▶ paid ──void──▶ voided
//!   │                       │  └──void──▶ paid (SPEC: voiding a pending payment makes it paid)
//!   └──cancel──▶ cancelled ◀┘
//! ```
//!
//! An order's payment state follows its bills' payments ([`order_state`]).

/// Nothing paid yet.
pub const UNPAID: &str = "unpaid";
/// A slip waits for confirmation.
pub const PENDING: &str = "pending";
/// Confirmed.
pub const PAID: &str = "paid";
/// A confirmed payment annulled.
pub const VOIDED: &str = "voided";
/// Cancelled before it was confirmed.
pub const CANCELLED: &str = "cancelled";
/// Every payment state.
pub const STATES: [&str; 5] = [UNPAID, PENDING, PAID, VOIDED, CANCELLED];

/// What is done to a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayAction {
    /// A slip is attached (by the buyer on the bill's page, or by staff).
    Attach,
    /// Staff confirm the money arrived.
    Confirm,
    /// Staff cancel it (a wrong slip, a buyer who will not pay).
    Cancel,
    /// Staff void it.
    Void,
}

impl PayAction {
    /// Every action.
    pub const ALL: [PayAction; 4] = [PayAction::Attach, PayAction::Confirm, PayAction::Cancel, PayAction::Void];

    /// The action's name (the URL's last part).
    pub fn name(self) -> &'static str {
        match self {
            PayAction::Attach => "attach",
            PayAction::Confirm => "confirm",
            PayAction::Cancel => "cancel",
            PayAction::Void => "void",
        }
    }

    /// The action of a name.
    pub fn parse(name: &str) -> Option<PayAction> {
        PayAction::ALL.into_iter().find(|a| a.name() == name.trim())
    }
}

/// The allowed moves: (from, action, to).
pub const TRANSITIONS: &[(&str, PayAction, &str)] = &[
    (UNPAID, PayAction::Attach, PENDING),
    (PENDING, PayAction::Attach, PENDING),
    (PENDING, PayAction::Confirm, PAID),
    (UNPAID, PayAction::Cancel, CANCELLED),
    (PENDING, PayAction::Cancel, CANCELLED),
    (PENDING, PayAction::Void, PAID),
    (PAID, PayAction::Void, VOIDED),
];

/// Where `action` takes a payment in `from`, or why it cannot (a message key of SPEC §8).
pub fn next(from: &str, action: PayAction) -> Result<&'static str, &'static str> {
    if let Some((_, _, to)) = TRANSITIONS.iter().find(|(f, a, _)| *f == from && *a == action) {
        return Ok(to);
    }
    Err(match (from, action) {
        (CANCELLED, _) => "payment_cancelled",
        (VOIDED, _) => "payment_voided",
        (PAID, PayAction::Confirm) => "payment_already_confirmed",
        (PAID, _) => "payment_already_processed",
        (UNPAID, PayAction::Confirm) => "payment_attachment_required",
        _ => "payment_not_pending",
    })
}

/// Where confirming a payment takes it, or why it cannot: the table, plus a slip; for cash
/// on delivery no slip (the carrier collects) but an order that has been shipped, and an
/// unpaid COD payment is confirmed straight to paid once the money is remitted.
pub fn confirm(state: &str, has_slip: bool, cod: bool, order_state: &str) -> Result<&'static str, &'static str> {
    let shipped = matches!(order_state, super::state::SHIPPED | super::state::CLOSED);
    if cod && matches!(state, UNPAID | PENDING) {
        return if shipped { Ok(PAID) } else { Err("payment_cod_not_shipped") };
    }
    let to = next(state, PayAction::Confirm)?;
    if !has_slip {
        return Err("payment_attachment_required");
    }
    Ok(to)
}

/// Where a bank statement's line (or a carrier's COD remittance) takes a bill's payment
/// (`None`: the bill has none yet), or why it cannot. The line is the proof a slip would be,
/// so an unpaid payment, or none, is confirmed straight to paid, as a pending one is; cash on
/// delivery still only once shipped. (Reconciliation, decision 0022.)
pub fn reconcile(state: Option<&str>, cod: bool, order_state: &str) -> Result<&'static str, &'static str> {
    let shipped = matches!(order_state, super::state::SHIPPED | super::state::CLOSED);
    match state {
        None | Some(UNPAID) | Some(PENDING) if cod && !shipped => Err("payment_cod_not_shipped"),
        None | Some(UNPAID) | Some(PENDING) => Ok(PAID),
        Some(s) => next(s, PayAction::Confirm),
    }
}

/// An order's payment state from its bills' payments (each bill's live payment state, or
/// unpaid for a bill without one): paid when every bill is paid; pending when one waits for
/// confirmation; voided or cancelled when every bill's payment is; else unpaid.
pub fn order_state(bills: &[&str]) -> &'static str {
    if bills.is_empty() {
        return UNPAID;
    }
    if bills.iter().all(|s| *s == PAID) {
        return PAID;
    }
    if bills.contains(&PENDING) {
        return PENDING;
    }
    if bills.iter().all(|s| *s == VOIDED) {
        return VOIDED;
    }
    if bills.iter().all(|s| *s == CANCELLED) {
        return CANCELLED;
    }
    UNPAID
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::state;

    #[test]
    fn every_allowed_and_refused_move() {
        use PayAction::*;
        let expected: &[(&str, PayAction, Result<&str, &str>)] = &[
            (UNPAID, Attach, Ok(PENDING)),
            (UNPAID, Confirm, Err("payment_attachment_required")),
            (UNPAID, Cancel, Ok(CANCELLED)),
            (UNPAID, Void, Err("payment_not_pending")),
            (PENDING, Attach, Ok(PENDING)),
            (PENDING, Confirm, Ok(PAID)),
            (PENDING, Cancel, Ok(CANCELLED)),
            (PENDING, Void, Ok(PAID)),
            (PAID, Attach, Err("payment_already_processed")),
            (PAID, Confirm, Err("payment_already_confirmed")),
            (PAID, Cancel, Err("payment_already_processed")),
            (PAID, Void, Ok(VOIDED)),
            (VOIDED, Attach, Err("payment_voided")),
            (VOIDED, Confirm, Err("payment_voided")),
            (VOIDED, Cancel, Err("payment_voided")),
            (VOIDED, Void, Err("payment_voided")),
            (CANCELLED, Attach, Err("payment_cancelled")),
            (CANCELLED, Confirm, Err("payment_cancelled")),
            (CANCELLED, Cancel, Err("payment_cancelled")),
            (CANCELLED, Void, Err("payment_cancelled")),
        ];
        assert_eq!(expected.len(), STATES.len() * PayAction::ALL.len(), "every pair is listed");
        for (from, action, want) in expected {
            assert_eq!(next(from, *action), *want, "{from} --{}-->", action.name());
        }
        assert_eq!(expected.iter().filter(|(_, _, r)| r.is_ok()).count(), TRANSITIONS.len());
    }

    #[test]
    fn confirmation_is_refused_with_the_spec_reasons() {
        assert_eq!(confirm(PENDING, true, false, state::NEW), Ok(PAID));
        assert_eq!(confirm(PENDING, false, false, state::NEW), Err("payment_attachment_required"));
        assert_eq!(confirm(UNPAID, false, false, state::NEW), Err("payment_attachment_required"));
        assert_eq!(confirm(CANCELLED, true, false, state::NEW), Err("payment_cancelled"));
        assert_eq!(confirm(PAID, true, false, state::NEW), Err("payment_already_confirmed"));
        assert_eq!(confirm(VOIDED, true, false, state::NEW), Err("payment_voided"));
        // Cash on delivery: only once shipped, and without a slip.
        assert_eq!(confirm(PENDING, true, true, state::READY), Err("payment_cod_not_shipped"));
        assert_eq!(confirm(UNPAID, false, true, state::NEW), Err("payment_cod_not_shipped"));
        assert_eq!(confirm(UNPAID, false, true, state::SHIPPED), Ok(PAID), "COD needs no slip");
        assert_eq!(confirm(PENDING, false, true, state::CLOSED), Ok(PAID));
        assert_eq!(confirm(PAID, false, true, state::SHIPPED), Err("payment_already_confirmed"));
        assert_eq!(confirm(CANCELLED, false, true, state::SHIPPED), Err("payment_cancelled"));
    }

    #[test]
    fn a_statement_line_confirms_as_a_slip_would() {
        // (the bill's payment, cash on delivery, the order's state) → where it goes.
        type Case = (Option<&'static str>, bool, &'static str, Result<&'static str, &'static str>);
        let expected: &[Case] = &[
            (None, false, state::NEW, Ok(PAID)),
            (Some(UNPAID), false, state::NEW, Ok(PAID)),
            (Some(PENDING), false, state::READY, Ok(PAID)),
            (Some(PAID), false, state::NEW, Err("payment_already_confirmed")),
            (Some(VOIDED), false, state::NEW, Err("payment_voided")),
            (Some(CANCELLED), false, state::NEW, Err("payment_cancelled")),
            (None, true, state::NEW, Err("payment_cod_not_shipped")),
            (Some(UNPAID), true, state::READY, Err("payment_cod_not_shipped")),
            (Some(UNPAID), true, state::SHIPPED, Ok(PAID)),
            (None, true, state::CLOSED, Ok(PAID)),
            (Some(PAID), true, state::SHIPPED, Err("payment_already_confirmed")),
        ];
        for (from, cod, order, want) in expected {
            assert_eq!(reconcile(*from, *cod, order), *want, "{from:?} cod={cod} {order}");
        }
    }

    #[test]
    fn an_order_is_paid_when_every_bill_is() {
        assert_eq!(order_state(&[]), UNPAID);
        assert_eq!(order_state(&[PAID]), PAID);
        assert_eq!(order_state(&[PAID, PAID]), PAID);
        assert_eq!(order_state(&[PAID, UNPAID]), UNPAID);
        assert_eq!(order_state(&[PAID, PENDING]), PENDING);
        assert_eq!(order_state(&[PENDING]), PENDING);
        assert_eq!(order_state(&[VOIDED]), VOIDED);
        assert_eq!(order_state(&[CANCELLED, CANCELLED]), CANCELLED);
        assert_eq!(order_state(&[CANCELLED, UNPAID]), UNPAID);
    }
}
