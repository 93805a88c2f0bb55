//! Webhooks out (Standard Webhooks): what an open-API channel's endpoint is sent, signed, and
//! when a failed delivery is tried again.
//!
//! A message is a JSON body `{"type", "timestamp", "data"}` sent with three headers:
//! `webhook-id` (the message's id, the same on every attempt and replay, so the receiver can
//! drop a repeat), `webhook-timestamp` (unix seconds of this attempt) and `webhook-signature`
//! (`v1,` and the base64 HMAC-SHA256, under the secret after `whsec_` read as base64, of
//! `id.timestamp.body`). A failed attempt is tried again after the waits of [`BACKOFF_MS`]
//! (about three days in eleven attempts), then given up; the messages of one ordering key
//! (one order, one product, a channel's stock) go out in their order, each waiting for the one
//! before to be delivered or given up. An endpoint failing for [`DISABLE_AFTER_MS`] without
//! one delivery is turned off until its owner turns it back on.

use base64::Engine as _;
use bo_kit::states::Table;
use serde_json::{json, Value};

/// The waits before attempts 2, 3, …, ms: about three days in all.
pub const BACKOFF_MS: [u64; 10] =
    [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 28_800_000, 86_400_000, 129_600_000];
/// An endpoint failing this long without a delivery is turned off, and its owner told, ms.
pub const DISABLE_AFTER_MS: u64 = 3 * 24 * 3600 * 1000;
/// How long messages and their attempts are kept, ms.
pub const LOG_KEPT_MS: i64 = 30 * 24 * 3600 * 1000;
/// The longest answer kept in the log, characters.
pub const ANSWER_KEPT: usize = 2_000;
/// The most of an answer read, bytes.
pub const ANSWER_READ: usize = 64 * 1024;
/// How long an endpoint has to answer, ms (one answering in 10 s is still delivered).
pub const TIMEOUT_MS: u64 = 15_000;
/// The most SKUs one `stock.changed` message tells.
pub const STOCK_ITEMS_MAX: i64 = 500;
/// A key is told to be expiring this long before it stops working, ms.
pub const KEY_EXPIRY_NOTICE_MS: i64 = 24 * 3600 * 1000;
/// The most messages one replay of a time range sends again.
pub const REPLAY_MAX: i64 = 10_000;
/// The event of the owner's test send (sent whatever events the channel chose).
pub const TEST_EVENT: &str = "webhook.test";

/// Where a message stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// Waiting for its turn, its next attempt, or an answer.
    Pending,
    /// An attempt was answered 2xx.
    Delivered,
    /// Every attempt failed: given up.
    Failed,
}

impl State {
    /// Every state.
    pub const ALL: [State; 3] = [State::Pending, State::Delivered, State::Failed];

    /// Its word in storage and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Pending => "pending",
            State::Delivered => "delivered",
            State::Failed => "failed",
        }
    }

    /// The state of a word.
    pub fn parse(s: &str) -> Option<State> {
        State::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// What happens to a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// An attempt answered 2xx.
    Deliver,
    /// An attempt failed with attempts left.
    Retry,
    /// An attempt failed, the last one.
    GiveUp,
    /// The owner sends it again.
    Replay,
}

/// How a message moves.
pub const MOVES: Table<State, Action> = Table::new(&[
    (State::Pending, Action::Deliver, State::Delivered),
    (State::Pending, Action::Retry, State::Pending),
    (State::Pending, Action::GiveUp, State::Failed),
    (State::Delivered, Action::Replay, State::Pending),
    (State::Failed, Action::Replay, State::Pending),
]);

/// The wait after the `attempts`-th failed attempt under `schedule` (ms), or `None` when
/// the message is given up.
pub fn retry_after_ms(schedule: &[u64], attempts: i64) -> Option<u64> {
    usize::try_from(attempts - 1).ok().and_then(|i| schedule.get(i)).copied()
}

/// True when an answer's status means delivered (any 2xx).
pub fn delivered(status: u16) -> bool {
    (200..300).contains(&status)
}

/// The key a `whsec_…` secret signs with (`None` when it does not read).
pub fn key_of(secret: &str) -> Option<Vec<u8>> {
    let b64 = secret.strip_prefix("whsec_").unwrap_or(secret);
    base64::engine::general_purpose::STANDARD.decode(b64.trim()).ok().filter(|k| !k.is_empty())
}

/// The `webhook-signature` of a message.
pub fn signature(key: &[u8], id: &str, timestamp_s: i64, body: &str) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key);
    let tag = ring::hmac::sign(&key, format!("{id}.{timestamp_s}.{body}").as_bytes());
    format!("v1,{}", base64::engine::general_purpose::STANDARD.encode(tag.as_ref()))
}

/// A message's body: its type, when it happened (RFC 3339) and its data.
pub fn body(event_type: &str, at_rfc3339: &str, data: Value) -> String {
    json!({ "type": event_type, "timestamp": at_rfc3339, "data": data }).to_string()
}

/// A new message id (`msg_` and a UUIDv7, time-ordered).
pub fn new_message_id() -> String {
    format!("msg_{}", uuid::Uuid::now_v7().simple())
}

/// The events an order's move to `to_state` tells, in order: `order.state_changed`, then
/// `order.shipped` or `order.cancelled` where it went there.
pub fn order_events(to_state: &str) -> Vec<&'static str> {
    let mut out = vec!["order.state_changed"];
    match to_state {
        "shipped" => out.push("order.shipped"),
        "cancelled" => out.push("order.cancelled"),
        _ => {}
    }
    out
}

/// Whether a channel failing since `failing_since` (ms, 0: not failing) is turned off at
/// `now` after `after` ms of failures.
pub fn to_disable(failing_since: i64, now: i64, after: u64) -> bool {
    failing_since > 0 && now - failing_since >= after as i64
}

/// An answer cut to what the log keeps.
pub fn clip_answer(text: &str) -> String {
    text.chars().take(ANSWER_KEPT).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::states::check_every_pair;

    #[test]
    fn the_specifications_own_vector() {
        // The Standard Webhooks specification's example (its libraries' tests use it).
        let key = key_of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        assert_eq!(
            signature(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, r#"{"test": 2432232314}"#),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
        assert!(key_of("whsec_not base64!").is_none());
        assert!(key_of("whsec_").is_none());
    }

    #[test]
    fn a_message_moves_by_its_table() {
        use Action::*;
        use State::*;
        check_every_pair(
            &MOVES,
            &State::ALL,
            &[Deliver, Retry, GiveUp, Replay],
            &[
                (Pending, Deliver, Ok(Delivered)),
                (Pending, Retry, Ok(Pending)),
                (Pending, GiveUp, Ok(Failed)),
                (Pending, Replay, Err("on_its_way")),
                (Delivered, Deliver, Err("settled")),
                (Delivered, Retry, Err("settled")),
                (Delivered, GiveUp, Err("settled")),
                (Delivered, Replay, Ok(Pending)),
                (Failed, Deliver, Err("settled")),
                (Failed, Retry, Err("settled")),
                (Failed, GiveUp, Err("settled")),
                (Failed, Replay, Ok(Pending)),
            ],
            |s, a| MOVES.next(s, a).ok_or(if s == Pending { "on_its_way" } else { "settled" }),
        );
        for s in State::ALL {
            assert_eq!(State::parse(s.as_str()), Some(s));
        }
        assert_eq!(State::parse("sent"), None);
    }

    #[test]
    fn retries_spread_over_about_three_days_then_stop() {
        let total: u64 = (1..=10).filter_map(|n| retry_after_ms(&BACKOFF_MS, n)).sum();
        assert!((2 * 86_400_000..4 * 86_400_000).contains(&total), "{total}");
        assert_eq!(retry_after_ms(&BACKOFF_MS, 1), Some(5_000));
        assert_eq!(retry_after_ms(&BACKOFF_MS, 10), Some(129_600_000));
        assert_eq!(retry_after_ms(&BACKOFF_MS, 11), None, "eleven attempts, then given up");
        assert_eq!(retry_after_ms(&BACKOFF_MS, 0), None);
        assert_eq!(retry_after_ms(&[100], 2), None);
    }

    #[test]
    fn only_2xx_is_delivered() {
        assert!(delivered(200) && delivered(204) && delivered(299));
        assert!(!delivered(0) && !delivered(301) && !delivered(404) && !delivered(500));
    }

    #[test]
    fn a_move_tells_its_own_event_too() {
        assert_eq!(order_events("shipped"), vec!["order.state_changed", "order.shipped"]);
        assert_eq!(order_events("cancelled"), vec!["order.state_changed", "order.cancelled"]);
        assert_eq!(order_events("closed"), vec!["order.state_changed"]);
    }

    #[test]
    fn an_endpoint_is_turned_off_after_days_of_failures() {
        let now = 10 * DISABLE_AFTER_MS as i64;
        assert!(!to_disable(0, now, DISABLE_AFTER_MS));
        assert!(!to_disable(now - DISABLE_AFTER_MS as i64 + 1, now, DISABLE_AFTER_MS));
        assert!(to_disable(now - DISABLE_AFTER_MS as i64, now, DISABLE_AFTER_MS));
    }

    #[test]
    fn a_body_has_its_type_time_and_data() {
        let b: Value = serde_json::from_str(&body("order.created", "2026-12-06T00:00:00Z", json!({"id": 1}))).unwrap();
        assert_eq!(b, json!({"type": "order.created", "timestamp": "2026-12-06T00:00:00Z", "data": {"id": 1}}));
        assert!(new_message_id().starts_with("msg_") && new_message_id() != new_message_id());
        assert_eq!(clip_answer(&"ก".repeat(3000)).chars().count(), ANSWER_KEPT);
    }
}
