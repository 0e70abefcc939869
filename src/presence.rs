//! Who is around: the counts the lobby publishes and the lobby screen
//! shows. Plain data, so the screens ([`crate::session`]) and the lobby
//! share it without either depending on the other.

use std::time::Duration;

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
