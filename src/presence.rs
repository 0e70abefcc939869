//! Who is around: the counts the lobby publishes and the lobby screen
//! shows. Plain data, so the screens ([`crate::session`]) and the lobby
//! share it without either depending on the other.

use std::time::{Duration, Instant};

use crate::game::GameKind;

/// The rating gap two rated seekers accept when the one who has waited
/// longer has waited `waited`: 100 at once, widening evenly to 500 over
/// `full` (the quick-match wait, when the computer is offered), and anyone
/// after that: a small host never keeps its only two seekers apart. (The
/// lobby pairs by it; the waiting screen shows it.)
pub fn rating_window(waited: Duration, full: Duration) -> u32 {
    if waited >= full {
        u32::MAX
    } else {
        100 + (400.0 * waited.as_secs_f64() / full.as_secs_f64().max(0.001)) as u32
    }
}

/// How long the longer wait of two rated seekers whose ratings are `gap`
/// apart must be for [`rating_window`] to reach them: none within 100, the
/// whole quick-match wait `full` from 500 on (only "anyone" reaches them).
pub fn wait_for_gap(gap: u32, full: Duration) -> Duration {
    if gap <= 100 {
        return Duration::ZERO;
    }
    if gap >= 500 {
        return full;
    }
    let mut wait = full.mul_f64(f64::from(gap - 100) / 400.0);
    // The window is rounded down: make sure it has reached the gap.
    while rating_window(wait, full) < gap && wait < full {
        wait += Duration::from_millis(1);
    }
    wait.min(full)
}

/// The seeker nearest to being paired with a waiting player, among those
/// this host knows in detail (its own seekers; in a cluster, not the
/// other hosts').
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nearest {
    /// How many others wait here for the game, not paired yet.
    pub others: usize,
    /// The rating of the one who will be paired first.
    pub rating: u32,
    /// The window that reaches them (their gap); `None`: only the end of
    /// the wait does, when anyone is paired with anyone.
    pub window: Option<u32>,
    /// When the window reaches them (the lobby pairs at its next tick).
    pub at: Instant,
}

/// Who is around, as shown in the lobby.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub online: usize,
    pub playing: usize,
    /// People waiting in quick match, per game.
    pub waiting: Vec<(GameKind, usize)>,
    /// Cluster mode: the other hosts cannot be reached just now, so what
    /// crosses hosts (matches, invitations, watching, codes) is off.
    pub degraded: bool,
}

impl Stats {
    /// People waiting in quick match for `kind`.
    pub fn waiting_for(&self, kind: GameKind) -> usize {
        self.waiting.iter().find(|w| w.0 == kind).map_or(0, |w| w.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_for_a_gap_is_when_the_window_reaches_it() {
        let full = Duration::from_secs(30);
        assert_eq!(wait_for_gap(0, full), Duration::ZERO);
        assert_eq!(wait_for_gap(100, full), Duration::ZERO);
        assert_eq!(wait_for_gap(500, full), full);
        assert_eq!(wait_for_gap(900, full), full);
        for gap in [101, 200, 325, 333, 499] {
            let wait = wait_for_gap(gap, full);
            assert!(rating_window(wait, full) >= gap, "{gap}: {wait:?}");
            assert!(
                rating_window(wait.saturating_sub(Duration::from_millis(2)), full) < gap,
                "{gap}: {wait:?} is the first moment"
            );
        }
        // 325 is 225 past the first 100: 225/400 of the wait.
        let wait = wait_for_gap(325, full);
        assert!(wait.abs_diff(Duration::from_millis(16_875)) <= Duration::from_millis(1));
    }
}
