//! Opening tables: the games on offer, a game against the computer, and
//! seating two people at a new room (colours, rated or casual, clock).

use super::*;

impl LobbyState {
    pub(super) fn rules(&self, kind: GameKind) -> Option<Rules> {
        self.games.iter().copied().find(|r| r.kind() == kind)
    }

    /// The rules of a game on offer; otherwise tells `id` it is not.
    pub(super) fn offered(&mut self, id: SessionId, kind: GameKind) -> Option<Rules> {
        let rules = self.rules(kind);
        if rules.is_none() {
            self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::GameNotOffered),
            );
        }
        rules
    }

    pub(super) fn play_computer(
        &mut self,
        id: SessionId,
        kind: GameKind,
        level: Level,
        human_first: Option<bool>,
    ) {
        self.unqueue(id);
        let Some(rules) = self.offered(id, kind) else {
            return;
        };
        let Some(level) = level.in_game(kind) else {
            self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::NoSuchLevel(kind.id().to_string())),
            );
            return;
        };
        let human_first = human_first.unwrap_or_else(|| self.rng.random_bool(0.5));
        self.start_room(
            rules,
            id,
            None,
            Some(level),
            human_first,
            false,
            None,
            Opening::Standard,
        );
    }

    /// Seats `a` and `b` (or the computer at `level`) at a new table;
    /// `a_first` says who moves first; `may_rate`: rated when both have
    /// accounts and the board is standard; `clock`: the time control of a
    /// game between two people. Returns the room, if it opened.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start_room(
        &mut self,
        rules: Rules,
        a: SessionId,
        b: Option<SessionId>,
        level: Option<Level>,
        a_first: bool,
        may_rate: bool,
        clock: Option<TimeControl>,
        opening: Opening,
    ) -> Option<RoomId> {
        let room = self.next_room;
        self.next_room += 1;
        let mut colours: Vec<Colour> = Colour::ALL.to_vec();
        // A wished-for colour if it is still free, else a random free one
        // (`a` chooses first: the one who waited, or the host of the room).
        let mut take_colour = |rng: &mut SmallRng, wish: Option<Colour>| match wish
            .and_then(|w| colours.iter().position(|&c| c == w))
        {
            Some(i) => colours.swap_remove(i),
            None => {
                let i = rng.random_range(0..colours.len());
                colours.swap_remove(i)
            }
        };
        let b_member = b.and_then(|b| self.members.get(&b));
        let visitor = b.and_then(|b| self.visitors.get(&b));
        // Rated: two players with accounts on a standard board, matched by
        // the quick match (friend rooms and the computer are casual).
        let rated = may_rate
            && level.is_none()
            && self.members.get(&a).and_then(|m| m.rated(&rules)).is_some()
            && (b_member.and_then(|m| m.rated(&rules)).is_some()
                || visitor.is_some_and(|v| v.account.is_some() && v.rating.is_some()));
        let human = |id: SessionId, m: &Member, colour: Colour| Occupant::Human {
            id,
            name: m.name.clone(),
            colour,
            account: m.account.as_ref().map(|p| p.account.clone()),
            rating: if rated { m.rated(&rules) } else { None },
            resume: None,
        };
        let seat_a = match self.members.get(&a) {
            Some(m) => {
                let colour = take_colour(&mut self.rng, m.colour);
                human(a, m, colour)
            }
            None => return None,
        };
        let seat_b = match b {
            Some(b) => match (self.members.get(&b), self.visitors.get(&b)) {
                (Some(m), _) => {
                    let colour = take_colour(&mut self.rng, m.colour);
                    human(b, m, colour)
                }
                (None, Some(v)) => {
                    let colour = take_colour(&mut self.rng, v.colour);
                    Occupant::Human {
                        id: b,
                        name: v.name.clone(),
                        colour,
                        account: v.account.clone(),
                        rating: if rated { v.rating } else { None },
                        // A guest from another host gets a resume code
                        // below, as a guest here does.
                        resume: None,
                    }
                }
                (None, None) => return None,
            },
            None => Occupant::Computer {
                level: level
                    .and_then(|l| l.in_game(rules.kind()))
                    .unwrap_or(Level::default_for(rules.kind())),
                colour: take_colour(&mut self.rng, None),
            },
        };
        let mut seats = if a_first {
            [seat_a, seat_b]
        } else {
            [seat_b, seat_a]
        };
        // Guests get a resume code for a dropped connection; a visitor's
        // (from another host) is sent to it with the table's state, and is
        // kept with the room in NATS: it takes the seat back on any host,
        // also once the visitor's host is gone.
        for seat in &mut seats {
            if let Occupant::Human {
                id,
                account: None,
                resume,
                ..
            } = seat
            {
                let code = new_code_of(&mut self.rng, RESUME_LEN, |c| {
                    self.resumes.contains_key(c) || self.hosted.contains_key(c)
                });
                self.resumes.insert(code.clone(), (room, *id));
                if let Some(prefs) = self.members.get(id).map(|m| m.prefs)
                    && !prefs.is_empty()
                {
                    self.resume_prefs.insert(code.clone(), prefs);
                }
                *resume = Some(code);
            }
        }
        // Only two people play on the clock.
        let clock = clock.filter(|_| b.is_some());
        // Swap2 is for two people, on a board it fits.
        let opening = if b.is_some() && opening.fits(&rules) {
            opening
        } else {
            Opening::Standard
        };
        self.out.push(Effect::OpenRoom(NewTable {
            room,
            rules,
            seats,
            rated,
            clock,
            opening,
        }));
        // Quick matches and games against the computer may be watched; a
        // friend's room says for itself (its caller overrides this).
        self.public.insert(room, true);
        for id in [Some(a), b].into_iter().flatten() {
            if let Some(m) = self.members.get_mut(&id) {
                m.status = Status::Playing(room);
            }
            self.tell(id, Notice::Joined(room));
            // A player at a table answers no invitation, and those it sent
            // are void.
            self.withdraw_invites_to(id, crate::protocol::news::LapseWhy::StartedAnotherGame);
            self.withdraw_invites_of(id);
        }
        self.dirty = true;
        Some(room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn a_game_not_on_offer_is_refused() {
        let mut s = LobbyState::new(vec![Rules::connect_four()], make_rng(Some(5)));
        named(&mut s, 1, "ann");
        let no = vec![error(1, crate::protocol::Refusal::GameNotOffered)];
        assert_eq!(quick(&mut s, 1, GOMOKU), no);
        assert_eq!(
            s.handle(Command::CreateRoom {
                id: 1,
                kind: GOMOKU,
                rated: false,
            }),
            no
        );
        let computer = Command::PlayComputer {
            id: 1,
            kind: GOMOKU,
            level: Level::Easy,
            human_first: None,
        };
        assert_eq!(s.handle(computer), no);
    }

    #[test]
    fn playing_the_computer_opens_a_room_with_a_computer_seat() {
        for (human_first, seed) in [(true, 6), (false, 7)] {
            let mut s = lobby(seed);
            named(&mut s, 1, "ann");
            let effects = s.handle(Command::PlayComputer {
                id: 1,
                kind: C4,
                level: Level::Hard,
                human_first: Some(human_first),
            });
            let (room, rules, seats) = opened(&effects);
            assert_eq!(rules, Rules::connect_four());
            let (me, cpu) = if human_first {
                (&seats[0], &seats[1])
            } else {
                (&seats[1], &seats[0])
            };
            assert!(
                matches!(me, Occupant::Human { id: 1, name, .. } if name == "ann"),
                "{seats:?}"
            );
            assert!(
                matches!(
                    cpu,
                    Occupant::Computer {
                        level: Level::Hard,
                        ..
                    }
                ),
                "{seats:?}"
            );
            assert_ne!(me.colour(), cpu.colour());
            assert_eq!(effects[1..], [tell(1, Notice::Joined(room))]);
            assert_eq!(s.stats().playing, 1);
        }
    }

    #[test]
    fn who_moves_first_against_the_computer_is_drawn_when_not_chosen() {
        let mut firsts = std::collections::HashSet::new();
        for seed in 0..32 {
            let mut s = lobby(seed);
            named(&mut s, 1, "ann");
            let effects = s.handle(Command::PlayComputer {
                id: 1,
                kind: GOMOKU,
                level: Level::Strong,
                human_first: None,
            });
            firsts.insert(opened(&effects).2[0].id());
        }
        assert_eq!(firsts.len(), 2, "both the person and the computer open");
    }

    #[test]
    fn a_level_of_another_game_is_refused() {
        let mut s = lobby(8);
        named(&mut s, 1, "ann");
        let effects = s.handle(Command::PlayComputer {
            id: 1,
            kind: C4,
            level: Level::Strong,
            human_first: Some(true),
        });
        assert_eq!(
            effects,
            vec![error(
                1,
                crate::protocol::Refusal::NoSuchLevel("connect4".into())
            )]
        );
        let effects = s.handle(Command::PlayComputer {
            id: 1,
            kind: C4,
            level: Level::gomoku(3).unwrap(),
            human_first: Some(true),
        });
        assert_eq!(
            effects,
            vec![error(
                1,
                crate::protocol::Refusal::NoSuchLevel("connect4".into())
            )]
        );
        assert_eq!(s.stats().playing, 0);
    }

    #[test]
    fn colour_wishes_are_granted_when_free() {
        for seed in 0..16 {
            let mut s = lobby(seed);
            named(&mut s, 1, "ann");
            named(&mut s, 2, "bob");
            s.handle(Command::SetColour {
                id: 1,
                colour: Some(Colour::Blue),
            });
            s.handle(Command::SetColour {
                id: 2,
                colour: Some(Colour::Green),
            });
            quick(&mut s, 1, C4);
            let (_, _, seats) = opened(&quick(&mut s, 2, C4));
            for seat in &seats {
                let want = if seat.id() == Some(1) {
                    Colour::Blue
                } else {
                    Colour::Green
                };
                assert_eq!(seat.colour(), want, "seed {seed}: {seats:?}");
            }
        }
    }

    #[test]
    fn two_wishing_the_same_colour_cannot_both_have_it() {
        for seed in 0..16 {
            let mut s = lobby(seed);
            named(&mut s, 1, "ann");
            named(&mut s, 2, "bob");
            for id in [1, 2] {
                s.handle(Command::SetColour {
                    id,
                    colour: Some(Colour::Red),
                });
            }
            quick(&mut s, 1, C4);
            let (_, _, seats) = opened(&quick(&mut s, 2, C4));
            let reds: Vec<_> = seats
                .iter()
                .filter(|seat| seat.colour() == Colour::Red)
                .collect();
            assert_eq!(reds.len(), 1, "seed {seed}: {seats:?}");
            // The one who waited chose first.
            assert_eq!(reds[0].id(), Some(1), "seed {seed}");
        }
    }

    #[test]
    fn two_players_with_accounts_play_rated_and_see_their_ratings() {
        let mut s = lobby(40);
        rated_player(&mut s, 1, "ann", 1512);
        rated_player(&mut s, 2, "bob", 1490);
        quick(&mut s, 1, C4);
        let effects = quick(&mut s, 2, C4);
        assert!(rated_of(&effects));
        let (_, _, seats) = opened(&effects);
        let mut shown: Vec<(Option<String>, Option<u32>)> = seats
            .iter()
            .map(|seat| match seat {
                Occupant::Human {
                    account, rating, ..
                } => (account.clone(), *rating),
                Occupant::Computer { .. } => panic!("two people"),
            })
            .collect();
        shown.sort();
        assert_eq!(
            shown,
            vec![
                (Some("acct-ann".into()), Some(1512)),
                (Some("acct-bob".into()), Some(1490))
            ]
        );
        // A rating moved by the room is the next match's.
        s.handle(Command::Rated {
            id: 1,
            kind: C4,
            rating: 1527,
        });
        assert_eq!(
            s.members[&1].account.as_ref().unwrap().rating(C4),
            Some(1527)
        );
    }

    #[test]
    fn guests_friend_rooms_the_computer_and_other_boards_are_casual() {
        let mut s = lobby(41);
        rated_player(&mut s, 1, "ann", 1500);
        named(&mut s, 2, "guest");
        quick(&mut s, 1, C4);
        assert!(!rated_of(&quick(&mut s, 2, C4)), "a guest: casual");
        let mut s = lobby(42);
        rated_player(&mut s, 1, "ann", 1500);
        rated_player(&mut s, 2, "bob", 1500);
        assert!(!friend_room(&mut s, 1, 2, false), "a friend room: casual");
        // Unless its host chose rated.
        let mut s2 = lobby(46);
        rated_player(&mut s2, 1, "ann", 1500);
        rated_player(&mut s2, 2, "bob", 1500);
        named(&mut s2, 3, "guest");
        assert!(friend_room(&mut s2, 1, 2, true), "a rated friend room");
        assert!(
            !friend_room(&mut s2, 1, 3, true),
            "rated wanted, but a guest came: casual"
        );
        let effects = s.handle(Command::PlayComputer {
            id: 1,
            kind: C4,
            level: Level::Easy,
            human_first: Some(true),
        });
        assert!(!rated_of(&effects), "the computer: casual");
        let mut s = LobbyState::new(
            vec![Rules::new(C4, 8, 7, 4, false).unwrap()],
            make_rng(Some(43)),
        );
        rated_player(&mut s, 1, "ann", 1500);
        rated_player(&mut s, 2, "bob", 1500);
        quick(&mut s, 1, C4);
        assert!(!rated_of(&quick(&mut s, 2, C4)), "8x7: casual");
    }

    #[test]
    fn leaving_a_table_and_rooms_closing_free_the_players() {
        let mut s = lobby(17);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        quick(&mut s, 1, C4);
        let (room, _, _) = opened(&quick(&mut s, 2, C4));
        assert_eq!(s.stats().playing, 2);
        s.handle(Command::LeftRoom { id: 1 });
        assert_eq!(s.stats().playing, 1);
        s.handle(Command::RoomClosed { room });
        assert_eq!(s.stats().playing, 0);
        // Room numbers are not reused.
        quick(&mut s, 1, C4);
        let (next, _, _) = opened(&quick(&mut s, 2, C4));
        assert!(next > room);
    }
}
