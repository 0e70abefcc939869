//! Who is around: the counts the lobby publishes and the lobby screen
//! shows. Plain data, so the screens ([`crate::session`]) and the lobby
//! share it without either depending on the other.

use crate::game::GameKind;

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
