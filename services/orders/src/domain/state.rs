//! Order states and the actions that move them (SPEC §4): one table, and the reason each
//! refused move is refused.
//!
//! ```text
//! new ──ready_to_fulfillment──▶ ready_to_fulfillment ──ship──▶ shipped ──close──▶ closed
//!  │                                  │        │                   │                │
//!  └──cancel──▶ cancelled ◀──cancel───┘        └──fail──▶ failed   └──void──┐  ┌─void─┘
//!                  ▲                                        │              ▼  ▼
//!                  └────────────────cancel──────────────────┘           cancelled
//! ```
//!
//! Cancel is for orders whose goods have not left (their stock is released); void annuls an
//! order whose goods have left (shipped or closed): it ends cancelled, with the time it was
//! voided, and its stock stays shipped (goods that come back are received again).
use bo_kit::states::Table;
use bo_kit::Code;

/// Waiting to be prepared (SPEC: pending).
pub const NEW: &str = "new";
/// Being prepared (SPEC: preparing).
pub const READY: &str = "ready_to_fulfillment";
/// Gone with the carrier (SPEC: delivered).
pub const SHIPPED: &str = "shipped";
/// Done.
pub const CLOSED: &str = "closed";
/// Fulfilment failed.
pub const FAILED: &str = "failed";
/// Cancelled (or voided after shipping).
pub const CANCELLED: &str = "cancelled";

/// Every state, in board order.
pub const STATES: [&str; 6] = [NEW, READY, SHIPPED, CLOSED, CANCELLED, FAILED];

/// Open orders hold stock (or are flagged short).
pub fn is_open(state: &str) -> bool {
    state == NEW || state == READY
}

/// An action on an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Prepare shipment.
    Prepare,
    /// Ship its parcels (through `POST /wms/parcels/ship/in-store`).
    Ship,
    /// Close.
    Close,
    /// Cancel.
    Cancel,
    /// Void.
    Void,
    /// Fulfilment failed.
    Fail,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 6] =
        [Action::Prepare, Action::Ship, Action::Close, Action::Cancel, Action::Void, Action::Fail];

    /// The action's name (snake case; the URL uses it dash-separated).
    pub fn name(self) -> &'static str {
        match self {
            Action::Prepare => "ready_to_fulfillment",
            Action::Ship => "ship",
            Action::Close => "close",
            Action::Cancel => "cancel",
            Action::Void => "void",
            Action::Fail => "fail",
        }
    }

    /// The action of a name, snake case or dash-separated.
    pub fn parse(name: &str) -> Option<Action> {
        let n = name.trim().replace('-', "_");
        Action::ALL.into_iter().find(|a| a.name() == n)
    }
}

/// The allowed moves: (from, action, to).
pub const TABLE: Table<&str, Action> = Table::new(&[
    (NEW, Action::Prepare, READY),
    (NEW, Action::Cancel, CANCELLED),
    (READY, Action::Ship, SHIPPED),
    (READY, Action::Cancel, CANCELLED),
    (READY, Action::Fail, FAILED),
    (SHIPPED, Action::Close, CLOSED),
    (SHIPPED, Action::Void, CANCELLED),
    (CLOSED, Action::Void, CANCELLED),
    (FAILED, Action::Cancel, CANCELLED),
]);

/// Where `action` takes an order in `from`, or why it cannot (a message key of SPEC §4/§8).
pub fn next(from: &str, action: Action) -> Result<&'static str, Code> {
    if let Some(to) = TABLE.next(from, action) {
        return Ok(to);
    }
    Err(match (from, action) {
        (CANCELLED, _) => Code::AlreadyCancelled,
        (READY, Action::Prepare) => Code::AlreadyReadyToFulfillment,
        (SHIPPED | CLOSED, Action::Prepare | Action::Ship | Action::Cancel | Action::Fail) => Code::AlreadyShipped,
        (CLOSED, Action::Close) => Code::AlreadyClosed,
        (FAILED, _) => Code::AlreadyFailed,
        (NEW | READY, Action::Close | Action::Void) => Code::NotShipped,
        (NEW, Action::Ship | Action::Fail) => Code::NotReadyToFulfillment,
        _ => Code::StateRefused,
    })
}

/// Rewriting the order's lines (`PUT /orders/{id}`): only a new order.
pub const EDIT: &str = "edit";
/// Changing its shipping address: an open order.
pub const CHANGE_ADDRESS: &str = "change_address";

/// What may be done to an order in `state`, from the one table: each action of
/// [`TABLE`] that leaves it, by name, then [`EDIT`] and [`CHANGE_ADDRESS`] where the
/// service allows them. The app offers these and no others (rights are checked apart).
pub fn allowed_actions(state: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        Action::ALL.into_iter().filter(|a| next(state, *a).is_ok()).map(Action::name).collect();
    if state == NEW {
        out.push(EDIT);
    }
    if is_open(state) {
        out.push(CHANGE_ADDRESS);
    }
    out
}

/// What the platform decides for an order its marketplace ships: prepared (its shipment
/// arranged), shipped (its carrier picks it up) and cancelled there first, and ours follows
/// what the platform then says. Staff cannot make these moves by hand.
pub const PLATFORM_DECIDES: [Action; 3] = [Action::Prepare, Action::Ship, Action::Cancel];

/// Why a person cannot move an order by `action` by hand (`platform_ships`: its marketplace
/// ships it), before the table is asked.
pub fn by_hand(action: Action, platform_ships: bool) -> Result<(), Code> {
    if platform_ships && PLATFORM_DECIDES.contains(&action) {
        return Err(Code::ChannelOrderFollowsPlatform);
    }
    Ok(())
}

/// What a person may do to an order: [`allowed_actions`] less what the platform decides for
/// an order its marketplace ships.
pub fn allowed_actions_of(state: &str, platform_ships: bool) -> Vec<&'static str> {
    let mut out = allowed_actions(state);
    if platform_ships {
        out.retain(|a| Action::parse(a).is_none_or(|a| by_hand(a, true).is_ok()));
    }
    out
}

/// Failure causes (SPEC §4).
pub const CAUSES: [&str; 2] = ["fulfillment_failed", "cancelled_by_warehouse"];

/// The actions that take a marketplace order from our `from` to the marketplace's `to`, in
/// turn; empty when it is there already or only a person may move it back (a marketplace
/// never takes an order backwards: an order our staff prepared stays prepared while the
/// marketplace still says paid). Cancelled after shipping is a void; a marketplace's
/// failure before shipping cancels a new order and fails a prepared one, and after shipping
/// changes nothing (returned goods are received again).
pub fn channel_steps(from: &str, to: &str) -> Vec<Action> {
    use Action::*;
    match (from, to) {
        (NEW, READY) => vec![Prepare],
        (NEW, SHIPPED) => vec![Prepare, Ship],
        (NEW, CLOSED) => vec![Prepare, Ship, Close],
        (READY, SHIPPED) => vec![Ship],
        (READY, CLOSED) => vec![Ship, Close],
        (SHIPPED, CLOSED) => vec![Close],
        (NEW | READY | FAILED, CANCELLED) => vec![Cancel],
        (SHIPPED | CLOSED, CANCELLED) => vec![Void],
        (NEW, FAILED) => vec![Cancel],
        (READY, FAILED) => vec![Fail],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::states::check_every_pair;

    #[test]
    fn the_platform_decides_for_the_orders_it_ships() {
        // Every action, with and without the platform shipping: refused by hand only for the
        // three the platform decides.
        for a in Action::ALL {
            assert_eq!(by_hand(a, false), Ok(()), "{a:?}");
            let refused = matches!(a, Action::Prepare | Action::Ship | Action::Cancel);
            assert_eq!(by_hand(a, true).is_err(), refused, "{a:?}");
        }
        assert_eq!(by_hand(Action::Cancel, true), Err(Code::ChannelOrderFollowsPlatform));
        assert_eq!(allowed_actions_of(NEW, true), vec![EDIT, CHANGE_ADDRESS]);
        assert_eq!(allowed_actions_of(READY, true), vec!["fail", CHANGE_ADDRESS]);
        assert_eq!(allowed_actions_of(SHIPPED, true), vec!["close", "void"]);
        assert_eq!(allowed_actions_of(NEW, false), allowed_actions(NEW));
    }

    #[test]
    fn allowed_actions_follow_the_table() {
        assert_eq!(allowed_actions(NEW), vec!["ready_to_fulfillment", "cancel", EDIT, CHANGE_ADDRESS]);
        assert_eq!(allowed_actions(READY), vec!["ship", "cancel", "fail", CHANGE_ADDRESS]);
        assert_eq!(allowed_actions(SHIPPED), vec!["close", "void"]);
        assert_eq!(allowed_actions(CLOSED), vec!["void"]);
        assert_eq!(allowed_actions(FAILED), vec!["cancel"]);
        assert!(allowed_actions(CANCELLED).is_empty());
        for from in STATES {
            for a in Action::ALL {
                assert_eq!(allowed_actions(from).contains(&a.name()), next(from, a).is_ok(), "{from} {a:?}");
            }
        }
    }

    /// Every (from, action) pair: the allowed ones land where the table says, every other is
    /// refused with its reason.
    #[test]
    fn every_allowed_and_refused_move() {
        let expected: &[(&str, Action, Result<&str, Code>)] = &[
            (NEW, Action::Prepare, Ok(READY)),
            (NEW, Action::Ship, Err(Code::NotReadyToFulfillment)),
            (NEW, Action::Close, Err(Code::NotShipped)),
            (NEW, Action::Cancel, Ok(CANCELLED)),
            (NEW, Action::Void, Err(Code::NotShipped)),
            (NEW, Action::Fail, Err(Code::NotReadyToFulfillment)),
            (READY, Action::Prepare, Err(Code::AlreadyReadyToFulfillment)),
            (READY, Action::Ship, Ok(SHIPPED)),
            (READY, Action::Close, Err(Code::NotShipped)),
            (READY, Action::Cancel, Ok(CANCELLED)),
            (READY, Action::Void, Err(Code::NotShipped)),
            (READY, Action::Fail, Ok(FAILED)),
            (SHIPPED, Action::Prepare, Err(Code::AlreadyShipped)),
            (SHIPPED, Action::Ship, Err(Code::AlreadyShipped)),
            (SHIPPED, Action::Close, Ok(CLOSED)),
            (SHIPPED, Action::Cancel, Err(Code::AlreadyShipped)),
            (SHIPPED, Action::Void, Ok(CANCELLED)),
            (SHIPPED, Action::Fail, Err(Code::AlreadyShipped)),
            (CLOSED, Action::Prepare, Err(Code::AlreadyShipped)),
            (CLOSED, Action::Ship, Err(Code::AlreadyShipped)),
            (CLOSED, Action::Close, Err(Code::AlreadyClosed)),
            (CLOSED, Action::Cancel, Err(Code::AlreadyShipped)),
            (CLOSED, Action::Void, Ok(CANCELLED)),
            (CLOSED, Action::Fail, Err(Code::AlreadyShipped)),
            (FAILED, Action::Prepare, Err(Code::AlreadyFailed)),
            (FAILED, Action::Ship, Err(Code::AlreadyFailed)),
            (FAILED, Action::Close, Err(Code::AlreadyFailed)),
            (FAILED, Action::Cancel, Ok(CANCELLED)),
            (FAILED, Action::Void, Err(Code::AlreadyFailed)),
            (FAILED, Action::Fail, Err(Code::AlreadyFailed)),
            (CANCELLED, Action::Prepare, Err(Code::AlreadyCancelled)),
            (CANCELLED, Action::Ship, Err(Code::AlreadyCancelled)),
            (CANCELLED, Action::Close, Err(Code::AlreadyCancelled)),
            (CANCELLED, Action::Cancel, Err(Code::AlreadyCancelled)),
            (CANCELLED, Action::Void, Err(Code::AlreadyCancelled)),
            (CANCELLED, Action::Fail, Err(Code::AlreadyCancelled)),
        ];
        check_every_pair(&TABLE, &STATES, &Action::ALL, expected, next);
    }

    #[test]
    fn actions_read_dashed_or_snake() {
        assert_eq!(Action::parse("ready-to-fulfillment"), Some(Action::Prepare));
        assert_eq!(Action::parse("ready_to_fulfillment"), Some(Action::Prepare));
        assert_eq!(Action::parse("void"), Some(Action::Void));
        assert_eq!(Action::parse("explode"), None);
        for a in Action::ALL {
            assert_eq!(Action::parse(&a.name().replace('_', "-")), Some(a));
        }
    }

    /// Every (ours, marketplace's) pair: the steps, each of them allowed by the table in turn.
    #[test]
    fn marketplace_states_are_reached_by_allowed_steps() {
        use Action::*;
        let expected: &[(&str, &str, &[Action])] = &[
            (NEW, NEW, &[]),
            (NEW, READY, &[Prepare]),
            (NEW, SHIPPED, &[Prepare, Ship]),
            (NEW, CLOSED, &[Prepare, Ship, Close]),
            (NEW, CANCELLED, &[Cancel]),
            (NEW, FAILED, &[Cancel]),
            (READY, NEW, &[]),
            (READY, READY, &[]),
            (READY, SHIPPED, &[Ship]),
            (READY, CLOSED, &[Ship, Close]),
            (READY, CANCELLED, &[Cancel]),
            (READY, FAILED, &[Fail]),
            (SHIPPED, NEW, &[]),
            (SHIPPED, READY, &[]),
            (SHIPPED, SHIPPED, &[]),
            (SHIPPED, CLOSED, &[Close]),
            (SHIPPED, CANCELLED, &[Void]),
            (SHIPPED, FAILED, &[]),
            (CLOSED, NEW, &[]),
            (CLOSED, READY, &[]),
            (CLOSED, SHIPPED, &[]),
            (CLOSED, CLOSED, &[]),
            (CLOSED, CANCELLED, &[Void]),
            (CLOSED, FAILED, &[]),
            (CANCELLED, NEW, &[]),
            (CANCELLED, READY, &[]),
            (CANCELLED, SHIPPED, &[]),
            (CANCELLED, CLOSED, &[]),
            (CANCELLED, CANCELLED, &[]),
            (CANCELLED, FAILED, &[]),
            (FAILED, NEW, &[]),
            (FAILED, READY, &[]),
            (FAILED, SHIPPED, &[]),
            (FAILED, CLOSED, &[]),
            (FAILED, CANCELLED, &[Cancel]),
            (FAILED, FAILED, &[]),
        ];
        assert_eq!(expected.len(), STATES.len() * STATES.len(), "every pair");
        for (from, to, steps) in expected {
            assert_eq!(channel_steps(from, to), steps.to_vec(), "{from} → {to}");
            let mut at = *from;
            for a in *steps {
                at = next(at, *a).unwrap_or_else(|e| panic!("{from} → {to}: {a:?} refused at {at} ({e:?})"));
            }
            if !steps.is_empty() {
                let lands = if *to == FAILED && *from == NEW { CANCELLED } else { to };
                assert_eq!(at, lands, "{from} → {to}");
            }
        }
    }

    #[test]
    fn only_new_and_prepared_orders_are_open() {
        let open: Vec<&str> = STATES.into_iter().filter(|s| is_open(s)).collect();
        assert_eq!(open, [NEW, READY]);
    }
}
