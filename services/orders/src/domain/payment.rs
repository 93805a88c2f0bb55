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
use bo_kit::states::Table;
use bo_kit::Code;

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
pub const TABLE: Table<&str, PayAction> = Table::new(&[
    (UNPAID, PayAction::Attach, PENDING),
    (PENDING, PayAction::Attach, PENDING),
    (PENDING, PayAction::Confirm, PAID),
    (UNPAID, PayAction::Cancel, CANCELLED),
    (PENDING, PayAction::Cancel, CANCELLED),
    (PENDING, PayAction::Void, PAID),
    (PAID, PayAction::Void, VOIDED),
]);

/// Where `action` takes a payment in `from`, or why it cannot (a message key of SPEC §8).
pub fn next(from: &str, action: PayAction) -> Result<&'static str, Code> {
    if let Some(to) = TABLE.next(from, action) {
        return Ok(to);
    }
    Err(match (from, action) {
        (CANCELLED, _) => Code::PaymentCancelled,
        (VOIDED, _) => Code::PaymentVoided,
        (PAID, PayAction::Confirm) => Code::PaymentAlreadyConfirmed,
        (PAID, _) => Code::PaymentAlreadyProcessed,
        (UNPAID, PayAction::Confirm) => Code::PaymentAttachmentRequired,
        _ => Code::PaymentNotPending,
    })
}

/// Where confirming a payment takes it, or why it cannot: the table, plus a slip; for cash
/// on delivery no slip (the carrier collects) but an order that has been shipped, and an
/// unpaid COD payment is confirmed straight to paid once the money is remitted.
pub fn confirm(state: &str, has_slip: bool, cod: bool, order_state: &str) -> Result<&'static str, Code> {
    let shipped = matches!(order_state, super::state::SHIPPED | super::state::CLOSED);
    if cod && matches!(state, UNPAID | PENDING) {
        return if shipped { Ok(PAID) } else { Err(Code::PaymentCodNotShipped) };
    }
    let to = next(state, PayAction::Confirm)?;
    if !has_slip {
        return Err(Code::PaymentAttachmentRequired);
    }
    Ok(to)
}

/// Where a bank statement's line (or a carrier's COD remittance) takes a bill's payment
/// (`None`: the bill has none yet), or why it cannot. The line is the proof a slip would be,
/// so an unpaid payment, or none, is confirmed straight to paid, as a pending one is; cash on
/// delivery still only once shipped. (Reconciliation, decision 0022.)
pub fn reconcile(state: Option<&str>, cod: bool, order_state: &str) -> Result<&'static str, Code> {
    let shipped = matches!(order_state, super::state::SHIPPED | super::state::CLOSED);
    match state {
        None | Some(UNPAID) | Some(PENDING) if cod && !shipped => Err(Code::PaymentCodNotShipped),
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

/// What the buyer has paid of an order, satang: the amounts of its bills (amount, the
/// state of the bill's newest payment, none for a bill without one) whose payment is paid.
pub fn paid(bills: &[(i64, Option<&str>)]) -> i64 {
    bills.iter().filter(|(_, s)| *s == Some(PAID)).map(|(amount, _)| *amount).sum()
}

/// Why an edit that makes an order's bills `after` (warehouse, amount) from `now` is
/// refused: money a buyer sent (or says they sent) is for the bills as they are, so an order
/// whose payment is pending or paid keeps its bills' warehouses and amounts.
pub fn edit_refusal(payment_state: &str, now: &[(i64, i64)], after: &[(i64, i64)]) -> Option<Code> {
    if !matches!(payment_state, PENDING | PAID) {
        return None;
    }
    let (mut now, mut after) = (now.to_vec(), after.to_vec());
    now.sort_unstable();
    after.sort_unstable();
    (now != after).then_some(Code::OrderPaymentMade)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::state;
    use bo_kit::states::check_every_pair;

    #[test]
    fn money_sent_keeps_the_bills_as_they_are() {
        let bills = [(2, 100), (1, 19_900)];
        for st in [UNPAID, CANCELLED, VOIDED] {
            assert_eq!(edit_refusal(st, &bills, &[(1, 500_000)]), None, "{st}: nothing sent, anything goes");
        }
        for st in [PENDING, PAID] {
            assert_eq!(edit_refusal(st, &bills, &[(1, 19_900), (2, 100)]), None, "{st}: the same bills in any order");
            assert_eq!(edit_refusal(st, &bills, &[(1, 500_000), (2, 100)]), Some(Code::OrderPaymentMade), "{st}");
            assert_eq!(edit_refusal(st, &bills, &[(3, 19_900), (2, 100)]), Some(Code::OrderPaymentMade), "{st}");
            assert_eq!(edit_refusal(st, &bills, &[(1, 20_000)]), Some(Code::OrderPaymentMade), "{st}");
        }
    }

    #[test]
    fn every_allowed_and_refused_move() {
        use PayAction::*;
        let expected: &[(&str, PayAction, Result<&str, Code>)] = &[
            (UNPAID, Attach, Ok(PENDING)),
            (UNPAID, Confirm, Err(Code::PaymentAttachmentRequired)),
            (UNPAID, Cancel, Ok(CANCELLED)),
            (UNPAID, Void, Err(Code::PaymentNotPending)),
            (PENDING, Attach, Ok(PENDING)),
            (PENDING, Confirm, Ok(PAID)),
            (PENDING, Cancel, Ok(CANCELLED)),
            (PENDING, Void, Ok(PAID)),
            (PAID, Attach, Err(Code::PaymentAlreadyProcessed)),
            (PAID, Confirm, Err(Code::PaymentAlreadyConfirmed)),
            (PAID, Cancel, Err(Code::PaymentAlreadyProcessed)),
            (PAID, Void, Ok(VOIDED)),
            (VOIDED, Attach, Err(Code::PaymentVoided)),
            (VOIDED, Confirm, Err(Code::PaymentVoided)),
            (VOIDED, Cancel, Err(Code::PaymentVoided)),
            (VOIDED, Void, Err(Code::PaymentVoided)),
            (CANCELLED, Attach, Err(Code::PaymentCancelled)),
            (CANCELLED, Confirm, Err(Code::PaymentCancelled)),
            (CANCELLED, Cancel, Err(Code::PaymentCancelled)),
            (CANCELLED, Void, Err(Code::PaymentCancelled)),
        ];
        check_every_pair(&TABLE, &STATES, &PayAction::ALL, expected, next);
    }

    #[test]
    fn confirmation_is_refused_with_the_spec_reasons() {
        assert_eq!(confirm(PENDING, true, false, state::NEW), Ok(PAID));
        assert_eq!(confirm(PENDING, false, false, state::NEW), Err(Code::PaymentAttachmentRequired));
        assert_eq!(confirm(UNPAID, false, false, state::NEW), Err(Code::PaymentAttachmentRequired));
        assert_eq!(confirm(CANCELLED, true, false, state::NEW), Err(Code::PaymentCancelled));
        assert_eq!(confirm(PAID, true, false, state::NEW), Err(Code::PaymentAlreadyConfirmed));
        assert_eq!(confirm(VOIDED, true, false, state::NEW), Err(Code::PaymentVoided));
        // Cash on delivery: only once shipped, and without a slip.
        assert_eq!(confirm(PENDING, true, true, state::READY), Err(Code::PaymentCodNotShipped));
        assert_eq!(confirm(UNPAID, false, true, state::NEW), Err(Code::PaymentCodNotShipped));
        assert_eq!(confirm(UNPAID, false, true, state::SHIPPED), Ok(PAID), "COD needs no slip");
        assert_eq!(confirm(PENDING, false, true, state::CLOSED), Ok(PAID));
        assert_eq!(confirm(PAID, false, true, state::SHIPPED), Err(Code::PaymentAlreadyConfirmed));
        assert_eq!(confirm(CANCELLED, false, true, state::SHIPPED), Err(Code::PaymentCancelled));
    }

    #[test]
    fn a_statement_line_confirms_as_a_slip_would() {
        // (the bill's payment, cash on delivery, the order's state) → where it goes.
        type Case = (Option<&'static str>, bool, &'static str, Result<&'static str, Code>);
        let expected: &[Case] = &[
            (None, false, state::NEW, Ok(PAID)),
            (Some(UNPAID), false, state::NEW, Ok(PAID)),
            (Some(PENDING), false, state::READY, Ok(PAID)),
            (Some(PAID), false, state::NEW, Err(Code::PaymentAlreadyConfirmed)),
            (Some(VOIDED), false, state::NEW, Err(Code::PaymentVoided)),
            (Some(CANCELLED), false, state::NEW, Err(Code::PaymentCancelled)),
            (None, true, state::NEW, Err(Code::PaymentCodNotShipped)),
            (Some(UNPAID), true, state::READY, Err(Code::PaymentCodNotShipped)),
            (Some(UNPAID), true, state::SHIPPED, Ok(PAID)),
            (None, true, state::CLOSED, Ok(PAID)),
            (Some(PAID), true, state::SHIPPED, Err(Code::PaymentAlreadyConfirmed)),
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

    #[test]
    fn what_is_paid_is_the_bills_whose_payment_is() {
        assert_eq!(paid(&[]), 0);
        assert_eq!(paid(&[(35_000, None)]), 0);
        assert_eq!(paid(&[(35_000, Some(PAID)), (12_000, Some(PENDING))]), 35_000);
        assert_eq!(paid(&[(35_000, Some(PAID)), (12_000, Some(PAID))]), 47_000);
        assert_eq!(paid(&[(35_000, Some(VOIDED)), (12_000, Some(CANCELLED)), (9_000, Some(UNPAID))]), 0);
    }
}
