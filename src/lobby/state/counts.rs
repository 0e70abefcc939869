//! The counts the lobby screen shows (online, seeking, playing...), here
//! and, in cluster mode, on the other hosts.

use super::*;

impl LobbyState {
    /// The counts for the lobby screen, if they changed since last taken.
    pub fn take_stats(&mut self) -> Option<Stats> {
        std::mem::take(&mut self.dirty).then(|| self.stats())
    }

    /// Cluster mode: the other hosts' counts, summed; the lobby screen
    /// shows them added to this host's.
    pub fn set_remote(&mut self, remote: Stats) {
        if remote == self.remote {
            return;
        }
        // The other hosts are back: the seekers waiting here are offered
        // to them again (their offers may not have reached them).
        if self.cluster && self.remote.degraded && !remote.degraded {
            let seekers: Vec<(SessionId, GameKind)> = self
                .queues
                .iter()
                .flat_map(|(kind, q)| q.iter().map(|&(id, _)| (id, *kind)))
                .collect();
            for (id, kind) in seekers {
                if let (Some(rules), Some(m)) = (self.rules(kind), self.members.get(&id)) {
                    let seeker = m.seeker(Some(&rules));
                    self.out
                        .push(Effect::Across(Ask::Seek { id, kind, seeker }));
                }
            }
        }
        self.remote = remote;
        self.dirty = true;
    }

    /// The counts for the lobby screen: this host's and the others'.
    pub fn stats(&self) -> Stats {
        let mut s = self.local_stats();
        s.online += self.remote.online;
        s.playing += self.remote.playing;
        s.degraded = self.remote.degraded;
        // Seekers elsewhere count too: quick match pairs across hosts.
        for (kind, n) in &self.remote.waiting {
            match s.waiting.iter_mut().find(|(k, _)| k == kind) {
                Some((_, m)) => *m += n,
                None => s.waiting.push((*kind, *n)),
            }
        }
        s
    }

    /// How many people are online on this host.
    pub fn online_here(&self) -> usize {
        self.members.len()
    }

    /// This host's own counts.
    pub fn local_stats(&self) -> Stats {
        let playing = self
            .members
            .values()
            .filter(|m| matches!(m.status, Status::Playing(_)))
            .count();
        let waiting = self
            .games
            .iter()
            .map(|r| {
                (
                    r.kind(),
                    self.queues.get(&r.kind()).map_or(0, VecDeque::len),
                )
            })
            .collect();
        Stats {
            online: self.members.len(),
            playing,
            waiting,
            degraded: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn the_counts_are_taken_only_when_they_changed() {
        let mut s = lobby(19);
        assert!(s.take_stats().is_some(), "the first counts go out");
        assert_eq!(s.take_stats(), None);
        named(&mut s, 1, "ann");
        let stats = s.take_stats().expect("someone arrived");
        assert_eq!(stats.online, 1);
        assert_eq!(stats.waiting, vec![(C4, 0), (GOMOKU, 0)]);
        s.handle(Command::SetColour {
            id: 1,
            colour: Some(Colour::Red),
        });
        assert_eq!(s.take_stats(), None, "a colour changes no count");
        quick(&mut s, 1, GOMOKU);
        assert_eq!(s.take_stats().map(|st| st.waiting_for(GOMOKU)), Some(1));
    }
}
