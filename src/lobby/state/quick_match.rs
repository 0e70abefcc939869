//! Quick match: the seekers' queues by game, pairing by rating within a
//! window that widens with the wait, and telling waiting seekers who is
//! nearest.

use super::*;

/// The seekers of a game told who is nearest to them (the longest
/// waiting), and the others each looks among: bounds the work per change.
pub const MAX_TOLD_WAITING: usize = 200;

impl LobbyState {
    pub(super) fn quick_match(&mut self, id: SessionId, kind: GameKind) {
        self.unqueue(id);
        // A new wait, a new screen: it is told afresh.
        self.waiting_sent.remove(&id);
        self.waiting_told.remove(&kind);
        let Some(rules) = self.offered(id, kind) else {
            return;
        };
        let now = self.now;
        let queue = self.queues.entry(kind).or_default();
        queue.retain(|(other, _)| *other != id);
        queue.push_back((id, now));
        if let Some(m) = self.members.get_mut(&id) {
            m.status = Status::Seeking(kind);
        }
        self.dirty = true;
        self.pair_seekers(rules, true);
        if self.cluster
            && !self.remote.degraded
            && self
                .queues
                .get(&kind)
                .is_some_and(|q| q.iter().any(|&(x, _)| x == id))
            && let Some(m) = self.members.get(&id)
        {
            let seeker = m.seeker(Some(&rules));
            self.out
                .push(Effect::Across(Ask::Seek { id, kind, seeker }));
        }
    }

    /// Pairs the seekers of one game who may play each other, until no
    /// pair is left: anyone with anyone, longest waiting first, except two
    /// players who would play a rated game, whose ratings must be within
    /// [`rating_window`] of the longer wait. A newcomer with a rating meets
    /// the closest rating it may. `newest_only`: only the last seeker
    /// looks (it just arrived; the others were paired before if they could).
    pub(super) fn pair_seekers(&mut self, rules: Rules, newest_only: bool) {
        let kind = rules.kind();
        loop {
            let queue: Vec<(SessionId, Instant)> = self
                .queues
                .get(&kind)
                .map(|q| q.iter().copied().collect())
                .unwrap_or_default();
            let rating = |id: SessionId| self.members.get(&id).and_then(|m| m.rated(&rules));
            let mut best: Option<(u32, usize, usize)> = None;
            // The newest seeker looks for a partner among those waiting.
            let lowest = if newest_only {
                queue.len().saturating_sub(1).max(1)
            } else {
                1
            };
            'outer: for j in (lowest..queue.len()).rev() {
                for i in 0..j {
                    let (a, since) = queue[i];
                    let (b, _) = queue[j];
                    let gap = match (rating(a), rating(b)) {
                        (Some(ra), Some(rb)) => {
                            let gap = ra.abs_diff(rb);
                            let waited = self.now.saturating_duration_since(since);
                            if gap > rating_window(waited, self.match_wait) {
                                continue;
                            }
                            gap
                        }
                        // Not rated: the longest waiting comes first.
                        _ => u32::MAX,
                    };
                    if best.is_none_or(|(g, _, _)| gap < g) {
                        best = Some((gap, i, j));
                    }
                    if gap == u32::MAX {
                        // The first one acceptable, in waiting order.
                        break;
                    }
                }
                if best.is_some() {
                    break 'outer;
                }
            }
            let Some((_, i, j)) = best else {
                return;
            };
            let (a, b) = (queue[i].0, queue[j].0);
            if self.paired_since.len() < 1024 {
                self.paired_since.extend([queue[i].1, queue[j].1]);
            }
            if let Some(q) = self.queues.get_mut(&kind) {
                q.retain(|&(x, _)| x != a && x != b);
            }
            if self.cluster {
                self.out.push(Effect::Across(Ask::Unseek { id: a }));
                self.out.push(Effect::Across(Ask::Unseek { id: b }));
            }
            for id in [a, b] {
                if let Some(m) = self.members.get_mut(&id) {
                    m.status = Status::Idle;
                }
            }
            let first_is_waiting = self.rng.random_bool(0.5);
            let clock = self.clocks.get(&kind).copied();
            self.start_room(
                rules,
                a,
                Some(b),
                None,
                first_is_waiting,
                true,
                clock,
                Opening::Standard,
            );
        }
    }

    /// Takes a member out of any queue or hosted room.
    pub(super) fn unqueue(&mut self, id: SessionId) {
        let Some(m) = self.members.get_mut(&id) else {
            return;
        };
        match std::mem::replace(&mut m.status, Status::Idle) {
            Status::Seeking(kind) => {
                if let Some(q) = self.queues.get_mut(&kind) {
                    q.retain(|&(x, _)| x != id);
                }
                if self.cluster {
                    self.out.push(Effect::Across(Ask::Unseek { id }));
                }
            }
            Status::Hosting(code) => {
                self.hosted.remove(&code);
                if self.cluster {
                    self.out.push(Effect::Across(Ask::CodeClosed { code }));
                }
            }
            other => m.status = other,
        }
        self.dirty = true;
    }

    /// Moves the time forward without anything else a tick does, so a
    /// seeker's wait starts when it asked, not at the last tick.
    pub fn set_now(&mut self, now: Instant) {
        if now > self.now {
            self.now = now;
        }
    }

    /// When the seekers paired since the last call started to seek.
    pub fn take_paired_since(&mut self) -> Vec<Instant> {
        std::mem::take(&mut self.paired_since)
    }

    /// The time now: quick-match windows widen with it, and seekers whose
    /// windows meet are paired.
    pub fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.now = now;
        self.lapse_invites(now);
        for rules in self.games.clone() {
            if self.queues.get(&rules.kind()).is_some_and(|q| q.len() >= 2) {
                self.pair_seekers(rules, false);
            }
        }
        self.tell_waiters();
        std::mem::take(&mut self.out)
    }

    /// For the seeker `id`, waiting for `kind` since `since`: the other
    /// seeker here who will be paired with them first, and when (their
    /// ratings' gap against the window of the longer wait of the two);
    /// `None` when nobody here waits apart from them, or the pairing does
    /// not depend on ratings (someone without one is paired at once).
    pub fn nearest(&self, id: SessionId, kind: GameKind, since: Instant) -> Option<Nearest> {
        let rules = self.rules(kind)?;
        let mine = self.members.get(&id)?.rated(&rules)?;
        let mut others = 0;
        let mut best: Option<Nearest> = None;
        for &(other, other_since) in self.queues.get(&kind)?.iter().take(MAX_TOLD_WAITING) {
            if other == id {
                continue;
            }
            let Some(rating) = self.members.get(&other).and_then(|m| m.rated(&rules)) else {
                continue;
            };
            others += 1;
            let gap = mine.abs_diff(rating);
            let at = since.min(other_since) + wait_for_gap(gap, self.match_wait);
            let window = (gap < 500).then_some(gap);
            let key = |n: &Nearest| (n.at, n.window.unwrap_or(u32::MAX));
            let this = Nearest {
                others: 0,
                rating,
                window,
                at,
            };
            if best.is_none_or(|b| key(&this) < key(&b)) {
                best = Some(this);
            }
        }
        best.map(|b| Nearest { others, ..b })
    }

    /// Tells each seeker whose queue changed who is nearest now
    /// ([`Notice::Waiting`]), if that changed for them.
    pub(super) fn tell_waiters(&mut self) {
        for rules in self.games.clone() {
            let kind = rules.kind();
            let queue: Vec<(SessionId, Instant)> = self
                .queues
                .get(&kind)
                .map(|q| q.iter().take(MAX_TOLD_WAITING).copied().collect())
                .unwrap_or_default();
            if self.waiting_told.get(&kind) == Some(&queue) {
                continue;
            }
            for (id, _) in self.waiting_told.remove(&kind).unwrap_or_default() {
                if !queue.iter().any(|&(x, _)| x == id) {
                    self.waiting_sent.remove(&id);
                }
            }
            // A new wait starts with nobody named: only a change is told.
            for &(id, since) in &queue {
                let nearest = self.nearest(id, kind, since);
                if self.waiting_sent.get(&id) != nearest.as_ref() {
                    match nearest {
                        Some(n) => self.waiting_sent.insert(id, n),
                        None => self.waiting_sent.remove(&id),
                    };
                    self.tell(id, Notice::Waiting { kind, nearest });
                }
            }
            self.waiting_told.insert(kind, queue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn quick_match_pairs_two_seekers_of_a_game_and_tells_both() {
        let mut s = lobby(1);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        assert_eq!(quick(&mut s, 1, C4), vec![], "the first one waits");
        assert_eq!(s.stats().waiting_for(C4), 1);
        let effects = quick(&mut s, 2, C4);
        let (room, rules, seats) = opened(&effects);
        assert_eq!(rules, Rules::connect_four());
        assert_eq!(seated(&seats), vec![Some(1), Some(2)]);
        assert_ne!(seats[0].colour(), seats[1].colour());
        // The room opens first, then the one who waited hears, then the other.
        assert_eq!(
            effects[1..],
            [tell(1, Notice::Joined(room)), tell(2, Notice::Joined(room))]
        );
        let stats = s.stats();
        assert_eq!((stats.online, stats.playing), (2, 2));
        assert_eq!(stats.waiting_for(C4), 0);
    }

    #[test]
    fn different_games_are_not_paired() {
        let mut s = lobby(2);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        assert_eq!(quick(&mut s, 1, C4), vec![]);
        assert_eq!(quick(&mut s, 2, GOMOKU), vec![]);
        assert_eq!(s.stats().waiting, vec![(C4, 1), (GOMOKU, 1)]);
        // A third for Gomoku meets the Gomoku seeker, not the longer-waiting C4 one.
        named(&mut s, 3, "cy");
        let (_, rules, seats) = opened(&quick(&mut s, 3, GOMOKU));
        assert_eq!(rules, Rules::gomoku());
        assert_eq!(seated(&seats), vec![Some(2), Some(3)]);
        assert_eq!(s.stats().waiting, vec![(C4, 1), (GOMOKU, 0)]);
    }

    #[test]
    fn the_longest_waiting_seeker_still_here_is_met_first() {
        let mut s = lobby(3);
        for (id, name) in [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee")] {
            named(&mut s, id, name);
        }
        quick(&mut s, 1, C4);
        // Switching games leaves the first queue.
        quick(&mut s, 1, GOMOKU);
        assert_eq!(s.stats().waiting, vec![(C4, 0), (GOMOKU, 1)]);
        quick(&mut s, 2, C4);
        let (_, _, seats) = opened(&quick(&mut s, 3, C4));
        assert_eq!(seated(&seats), vec![Some(2), Some(3)]);
        // Seeking again is not meeting oneself.
        assert_eq!(quick(&mut s, 1, GOMOKU), vec![]);
        assert_eq!(s.stats().waiting_for(GOMOKU), 1);
        let (_, _, seats) = opened(&quick(&mut s, 4, GOMOKU));
        assert_eq!(seated(&seats), vec![Some(1), Some(4)]);
    }

    #[test]
    fn leave_and_cancel_take_a_seeker_out_of_the_queue() {
        let mut s = lobby(4);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        named(&mut s, 3, "cy");
        quick(&mut s, 1, C4);
        assert_eq!(
            s.handle(Command::Leave { id: 1 }),
            vec![Effect::Forget { id: 1 }]
        );
        assert_eq!(s.stats().waiting_for(C4), 0);
        assert_eq!(quick(&mut s, 2, C4), vec![], "nobody left to meet");
        assert_eq!(s.handle(Command::Cancel { id: 2 }), vec![]);
        assert_eq!(s.stats().waiting_for(C4), 0);
        assert_eq!(
            quick(&mut s, 3, C4),
            vec![],
            "a cancelled seeker is not met"
        );
        assert_eq!(s.stats().online, 2);
    }

    #[test]
    fn quick_match_pairs_the_closest_rating_within_the_window() {
        let mut s = lobby(44);
        let t0 = Instant::now();
        s.tick(t0);
        rated_player(&mut s, 1, "ann", 1500);
        rated_player(&mut s, 2, "bob", 1900);
        rated_player(&mut s, 3, "cy", 1880);
        assert_eq!(quick(&mut s, 1, C4), vec![]);
        assert_eq!(
            no_waiting_news(quick(&mut s, 2, C4)),
            vec![],
            "400 apart: both wait"
        );
        // Cy meets Bob (20 apart), not Ann who waited longest.
        let (_, _, seats) = opened(&quick(&mut s, 3, C4));
        assert_eq!(seated(&seats), vec![Some(2), Some(3)]);
        assert_eq!(s.stats().waiting_for(C4), 1);
        // A guest meets whoever waits longest, rated or not.
        named(&mut s, 4, "dee");
        let (_, _, seats) = opened(&quick(&mut s, 4, C4));
        assert_eq!(seated(&seats), vec![Some(1), Some(4)]);
    }

    /// Rated seekers too far apart to be paired yet are told who waits
    /// nearest (the rating) and when the window reaches them (their gap,
    /// the longer wait of the two counting); told again only when that
    /// changes; a guest is paired at once, so never told.
    #[test]
    fn a_waiting_seeker_is_told_the_nearest_rating_and_when_it_is_reached() {
        let full = Duration::from_secs(30);
        let mut s = lobby(47).with_match_wait(full);
        let t0 = Instant::now();
        s.tick(t0);
        rated_player(&mut s, 1, "ann", 1662);
        rated_player(&mut s, 2, "bob", 1337);
        rated_player(&mut s, 3, "cy", 1150);
        assert_eq!(quick(&mut s, 1, C4), vec![], "alone: nothing to tell");
        s.tick(t0 + Duration::from_secs(5));
        let effects = quick(&mut s, 2, C4);
        // 325 apart: the window reaches it after 225/400 of the wait,
        // counted from ann's start.
        let at = t0 + presence_wait(325, full);
        assert_eq!(
            waiting_news(&effects),
            vec![
                (
                    1,
                    Some(Nearest {
                        others: 1,
                        rating: 1337,
                        window: Some(325),
                        at
                    })
                ),
                (
                    2,
                    Some(Nearest {
                        others: 1,
                        rating: 1662,
                        window: Some(325),
                        at
                    })
                ),
            ]
        );
        // Nothing new a second later.
        assert_eq!(s.tick(t0 + Duration::from_secs(6)), vec![]);
        // Cy, 187 below bob and 512 below ann: bob hears nothing new (ann
        // is still nearer in time), ann now hears of two others, cy of bob.
        s.tick(t0 + Duration::from_secs(8));
        let effects = quick(&mut s, 3, C4);
        let news = waiting_news(&effects);
        let cy_bob = t0 + Duration::from_secs(5) + presence_wait(187, full);
        assert!(cy_bob < at);
        assert_eq!(
            news,
            vec![
                (
                    1,
                    Some(Nearest {
                        others: 2,
                        rating: 1337,
                        window: Some(325),
                        at
                    })
                ),
                (
                    2,
                    Some(Nearest {
                        others: 2,
                        rating: 1150,
                        window: Some(187),
                        at: cy_bob
                    })
                ),
                (
                    3,
                    Some(Nearest {
                        others: 2,
                        rating: 1337,
                        window: Some(187),
                        at: cy_bob
                    })
                ),
            ],
            "{effects:?}"
        );
        // Bob and cy are paired when the window reaches 187; ann, left
        // alone, is told nobody waits near her now.
        let effects = s.tick(cy_bob + Duration::from_millis(1));
        let (_, _, seats) = opened(&effects);
        assert_eq!(seated(&seats), vec![Some(2), Some(3)]);
        assert_eq!(waiting_news(&effects), vec![(1, None)]);
        // A gap past 500 is reached only when anyone is paired.
        rated_player(&mut s, 4, "dot", 2200);
        let effects = quick(&mut s, 4, C4);
        let news = waiting_news(&effects);
        assert_eq!(news.len(), 2, "{news:?}");
        assert_eq!(news[0].1.unwrap().window, None);
        assert_eq!(news[0].1.unwrap().at, t0 + full);
        // A guest is paired at once: nobody is told.
        s.handle(Command::Cancel { id: 4 });
        named(&mut s, 5, "guest");
        let effects = quick(&mut s, 5, C4);
        assert!(waiting_news(&effects).is_empty(), "{effects:?}");
        opened(&effects);
    }

    #[test]
    fn the_rating_window_widens_with_the_wait() {
        let full = Duration::from_secs(40);
        assert_eq!(rating_window(Duration::ZERO, full), 100);
        assert_eq!(rating_window(Duration::from_secs(10), full), 200);
        assert_eq!(rating_window(Duration::from_secs(40), full), u32::MAX);
        let mut s = lobby(45).with_match_wait(full);
        let t0 = Instant::now();
        s.tick(t0);
        rated_player(&mut s, 1, "ann", 1500);
        rated_player(&mut s, 2, "bob", 1750);
        quick(&mut s, 1, C4);
        assert_eq!(no_waiting_news(quick(&mut s, 2, C4)), vec![]);
        assert_eq!(s.tick(t0 + Duration::from_secs(10)), vec![], "250 apart");
        assert_eq!(s.stats().waiting_for(C4), 2);
        let effects = s.tick(t0 + Duration::from_secs(15));
        let (_, _, seats) = opened(&effects);
        assert_eq!(seated(&seats), vec![Some(1), Some(2)]);
        assert!(rated_of(&effects));
        assert_eq!(s.stats().waiting_for(C4), 0);
    }
}
