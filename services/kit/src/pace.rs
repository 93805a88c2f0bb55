//! Pacing of background rounds (the outbox relay's, a consumer's): while work keeps coming,
//! rounds start at least [`ROUND_EVERY`] apart, so a burst of events is read, published and
//! applied in a few batches (one statement and one commit each) instead of a round per
//! event; after a rest, a round starts at once. Under load this trades at most that much
//! delay of an event for far fewer transactions in every service.

use std::time::Duration;

use tokio::time::Instant;

/// The shortest time between the starts of two rounds.
pub const ROUND_EVERY: Duration = Duration::from_millis(25);

/// When the last round started, and how far apart rounds are kept.
#[derive(Debug, Clone)]
pub struct Pace {
    every: Duration,
    last: Option<Instant>,
}

impl Default for Pace {
    fn default() -> Self {
        Self::new(ROUND_EVERY)
    }
}

impl Pace {
    /// Rounds at least `every` apart.
    pub fn new(every: Duration) -> Self {
        Self { every, last: None }
    }

    /// How long a round wanted at `now` waits.
    pub fn delay(&self, now: Instant) -> Duration {
        match self.last {
            Some(last) => self.every.saturating_sub(now.saturating_duration_since(last)),
            None => Duration::ZERO,
        }
    }

    /// Waits until the next round may start, and counts it as started.
    pub async fn wait(&mut self) {
        let delay = self.delay(Instant::now());
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        self.last = Some(Instant::now());
    }

    /// Counts a round as started now, without waiting.
    pub fn started(&mut self, now: Instant) {
        self.last = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_round_and_one_after_a_rest_start_at_once_and_a_busy_one_waits_the_rest() {
        let every = Duration::from_millis(10);
        let mut pace = Pace::new(every);
        let t0 = Instant::now();
        assert_eq!(pace.delay(t0), Duration::ZERO, "nothing ran before");
        pace.started(t0);
        assert_eq!(pace.delay(t0), every, "right after a round");
        assert_eq!(pace.delay(t0 + Duration::from_millis(4)), Duration::from_millis(6));
        assert_eq!(pace.delay(t0 + every), Duration::ZERO);
        assert_eq!(pace.delay(t0 + Duration::from_secs(5)), Duration::ZERO, "after a rest");
    }

    #[tokio::test]
    async fn waiting_counts_the_round() {
        let mut pace = Pace::new(Duration::from_millis(30));
        pace.wait().await;
        let start = Instant::now();
        pace.wait().await;
        assert!(start.elapsed() >= Duration::from_millis(25), "the second round waited for the first's period");
    }
}
