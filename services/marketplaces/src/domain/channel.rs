//! A connected shop's two states: whether the owner has it on (its `status`), and whether
//! its authorization still works (its token-expiry flag, SPEC §3 "connection lost"). Jobs
//! (order polls, stock pushes, refreshes) run for a shop that is on and connected only.

use bo_kit::states::Table;
use serde::{Deserialize, Serialize};

/// Whether the owner has the shop on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Orders come in and stock goes out.
    Active,
    /// Left alone until the owner turns it on.
    Inactive,
}

impl Status {
    /// Its word in storage and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Inactive => "inactive",
        }
    }

    /// The status of a word.
    pub fn parse(s: &str) -> Option<Status> {
        [Status::Active, Status::Inactive].into_iter().find(|x| x.as_str() == s)
    }
}

/// What the owner does to a shop's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusAction {
    /// Turn it on.
    Activate,
    /// Turn it off.
    Deactivate,
}

/// The owner's moves.
pub const STATUS: Table<Status, StatusAction> = Table::new(&[
    (Status::Inactive, StatusAction::Activate, Status::Active),
    (Status::Active, StatusAction::Deactivate, Status::Inactive),
]);

/// Whether the shop's authorization works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Link {
    /// Its tokens work.
    Connected,
    /// The marketplace refused its refresh token or said the authorization ended: the seller
    /// must connect it again (SPEC: "connection lost").
    TokenExpired,
}

/// What happens to a shop's authorization.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkAction {
    /// A refresh was refused, or the marketplace said the authorization ends.
    Lose,
    /// The seller authorized us again.
    Reconnect,
}

/// The authorization's moves. A reconnect of a connected shop renews its tokens and keeps it
/// connected.
pub const LINK: Table<Link, LinkAction> = Table::new(&[
    (Link::Connected, LinkAction::Lose, Link::TokenExpired),
    (Link::TokenExpired, LinkAction::Reconnect, Link::Connected),
    (Link::Connected, LinkAction::Reconnect, Link::Connected),
]);

/// True when a shop's jobs run.
pub fn runs(status: Status, link: Link) -> bool {
    status == Status::Active && link == Link::Connected
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::states::check_every_pair;

    #[test]
    fn the_owner_turns_a_shop_on_and_off() {
        use Status::*;
        use StatusAction::*;
        check_every_pair(
            &STATUS,
            &[Active, Inactive],
            &[Activate, Deactivate],
            &[
                (Active, Activate, Err("already_active")),
                (Active, Deactivate, Ok(Inactive)),
                (Inactive, Activate, Ok(Active)),
                (Inactive, Deactivate, Err("already_inactive")),
            ],
            |s, a| STATUS.next(s, a).ok_or(if s == Active { "already_active" } else { "already_inactive" }),
        );
    }

    #[test]
    fn a_lost_authorization_comes_back_only_by_reconnecting() {
        use Link::*;
        use LinkAction::*;
        check_every_pair(
            &LINK,
            &[Connected, TokenExpired],
            &[Lose, Reconnect],
            &[
                (Connected, Lose, Ok(TokenExpired)),
                (Connected, Reconnect, Ok(Connected)),
                (TokenExpired, Lose, Err("already_lost")),
                (TokenExpired, Reconnect, Ok(Connected)),
            ],
            |s, a| LINK.next(s, a).ok_or("already_lost"),
        );
    }

    #[test]
    fn jobs_run_for_shops_on_and_connected() {
        assert!(runs(Status::Active, Link::Connected));
        assert!(!runs(Status::Inactive, Link::Connected));
        assert!(!runs(Status::Active, Link::TokenExpired));
        assert!(!runs(Status::Inactive, Link::TokenExpired));
        assert_eq!(Status::parse("inactive"), Some(Status::Inactive));
        assert_eq!(Status::parse("deleted"), None);
    }
}
