//! Rooms for a friend: codes, opening one, a friend joining by its code,
//! and guests' resume codes back to their room.

use super::*;

impl LobbyState {
    /// Opens a room for a friend: `id` hosts it, and is told its code.
    pub(super) fn create_room(&mut self, id: SessionId, kind: GameKind, rated: bool) {
        self.unqueue(id);
        if self.offered(id, kind).is_some() {
            let code = new_code(&mut self.rng, |c| self.hosted.contains_key(c));
            self.hosted.insert(
                code.clone(),
                Hosted {
                    host: id,
                    kind,
                    rated,
                    watchers: false,
                    clock: None,
                    opening: Opening::Standard,
                },
            );
            if let Some(m) = self.members.get_mut(&id) {
                m.status = Status::Hosting(code.clone());
            }
            if self.cluster {
                self.out.push(Effect::Across(Ask::CodeOpened {
                    code: code.clone(),
                    kind,
                }));
            }
            self.tell(id, Notice::RoomCode(code));
        }
    }

    pub(super) fn join_room(&mut self, id: SessionId, code: &str, from_login: bool) {
        let code = normalise_code(code);
        // A guest's resume code: back to that seat, if the room agrees.
        if let Some(&(room, _)) = self.resumes.get(&code) {
            self.out.push(Effect::Rejoin {
                room,
                key: code,
                id,
            });
            return;
        }
        match self.hosted.get(&code).copied() {
            Some(h) if h.host == id => {
                self.tell(id, Notice::LobbyError(crate::protocol::Refusal::OwnRoom))
            }
            Some(h) => {
                self.unqueue(id);
                self.unqueue(h.host);
                if let Some(rules) = self.rules(h.kind) {
                    let host_first = self.rng.random_bool(0.5);
                    if let Some(room) = self.start_room(
                        rules,
                        h.host,
                        Some(id),
                        None,
                        host_first,
                        h.rated,
                        h.clock,
                        h.opening,
                    ) {
                        self.started.insert(code, room);
                        self.public.insert(room, h.watchers);
                    }
                }
            }
            None if self.started.contains_key(&code) => self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::RoomPlaying(code.clone())),
            ),
            // Another host may have it.
            None if self.cluster => {
                if let Some(m) = self.members.get(&id) {
                    let joiner = m.seeker(None);
                    self.out.push(Effect::Across(Ask::FindCode {
                        id,
                        code,
                        from_login,
                        joiner,
                    }));
                }
            }
            None => self.no_such_code(id, code, from_login),
        }
    }

    pub(super) fn no_such_code(&mut self, id: SessionId, code: String, from_login: bool) {
        if from_login {
            // `ssh FWDX@host` with no such room: FWDX may be a name, if
            // the store agrees (the session asks it, then `SetName`).
            self.tell(id, Notice::NoRoomForLogin(code));
        } else {
            self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::NoSuchRoom(code.clone())),
            );
        }
    }

    /// Cluster mode: no host has the room `code` that `id` asked for.
    pub fn code_unknown(&mut self, id: SessionId, code: String, from_login: bool) -> Vec<Effect> {
        if self.members.contains_key(&id) {
            self.no_such_code(id, code, from_login);
        }
        std::mem::take(&mut self.out)
    }

    /// The resume code of the guest `id` at `room`, if any.
    pub fn resume_code(&self, room: RoomId, id: SessionId) -> Option<String> {
        self.resumes
            .iter()
            .find(|(_, (r, s))| *r == room && *s == id)
            .map(|(code, _)| code.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn guests_get_private_resume_codes_that_lead_back_to_their_room() {
        let mut s = lobby(43);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        let code = create(&mut s, 1);
        let effects = join_code(&mut s, 2, &code, false);
        let (room, _, seats) = opened(&effects);
        let resumes: Vec<String> = seats
            .iter()
            .filter_map(|seat| match seat {
                Occupant::Human { resume, .. } => resume.clone(),
                Occupant::Computer { .. } => None,
            })
            .collect();
        assert_eq!(resumes.len(), 2, "{seats:?}");
        assert_ne!(resumes[0], resumes[1]);
        for r in &resumes {
            assert_eq!(r.len(), crate::lobby::codes::RESUME_LEN);
            assert!(crate::lobby::codes::looks_like_code(r), "{r}");
        }
        // Each session is told only its own.
        let ann = s.resume_code(room, 1).unwrap();
        let bob = s.resume_code(room, 2).unwrap();
        assert_ne!(ann, bob);
        // Ann drops; a new session gives her code (typed in lower case).
        s.handle(Command::Leave { id: 1 });
        named(&mut s, 3, "newcomer");
        let effects = join_code(&mut s, 3, &ann.to_lowercase(), false);
        assert_eq!(
            effects,
            vec![Effect::Rejoin {
                room,
                key: ann.clone(),
                id: 3
            }]
        );
        s.handle(Command::Rejoined {
            id: 3,
            room,
            key: ann.clone(),
        });
        assert_eq!(s.resume_code(room, 3), Some(ann.clone()));
        // Once the room is closed, the code is nothing.
        s.handle(Command::RoomClosed { room });
        let effects = join_code(&mut s, 3, &ann, false);
        assert!(
            matches!(
                effects.as_slice(),
                [Effect::Tell {
                    notice: Notice::LobbyError(_),
                    ..
                }]
            ),
            "{effects:?}"
        );
    }

    /// A guest's stones (`[t]`) stay with their resume code: chosen before
    /// the game or during it, they come back with the seat; the room's
    /// end forgets them.
    #[test]
    fn a_guests_stones_come_back_with_the_resume_code() {
        let mut s = lobby(44);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        // Chosen in the lobby, before the game: the code gets it.
        s.handle(Command::SetStones {
            id: 1,
            stones: Theme::Ascii,
        });
        let code = create(&mut s, 1);
        let effects = join_code(&mut s, 2, &code, false);
        let (room, _, _) = opened(&effects);
        let ann = s.resume_code(room, 1).unwrap();
        let bob = s.resume_code(room, 2).unwrap();
        assert_eq!(
            s.resume_prefs.get(&ann).and_then(|p| p.stones),
            Some(Theme::Ascii)
        );
        assert_eq!(s.resume_prefs.get(&bob), None, "bob chose nothing");
        // Bob chooses during the game.
        s.handle(Command::SetStones {
            id: 2,
            stones: Theme::Emoji,
        });
        assert_eq!(
            s.resume_prefs.get(&bob).and_then(|p| p.stones),
            Some(Theme::Emoji)
        );
        // And his language: the code keeps both.
        s.handle(Command::SetLanguage {
            id: 2,
            lang: crate::lang::Lang::ZhTw,
        });
        assert_eq!(
            s.resume_prefs.get(&bob),
            Some(&Prefs {
                stones: Some(Theme::Emoji),
                lang: Some(crate::lang::Lang::ZhTw)
            })
        );
        // Ann drops and comes back by her code: she is told her stones
        // (before the seat, so the table shows with them).
        s.handle(Command::Leave { id: 1 });
        named(&mut s, 3, "back");
        join_code(&mut s, 3, &ann, false);
        let effects = s.handle(Command::Rejoined {
            id: 3,
            room,
            key: ann.clone(),
        });
        let told: Vec<&Notice> = effects
            .iter()
            .filter_map(|e| match e {
                Effect::Tell { to: 3, notice } => Some(notice),
                _ => None,
            })
            .collect();
        assert_eq!(
            told,
            vec![
                &Notice::Prefs(Prefs {
                    stones: Some(Theme::Ascii),
                    lang: None
                }),
                &Notice::Joined(room)
            ],
            "{effects:?}"
        );
        // Her new session changes them: the code keeps the change.
        s.handle(Command::SetStones {
            id: 3,
            stones: Theme::Emoji,
        });
        assert_eq!(
            s.resume_prefs.get(&ann).and_then(|p| p.stones),
            Some(Theme::Emoji)
        );
        // Someone without a code keeps the choice for their next one only.
        named(&mut s, 4, "nobody");
        s.handle(Command::SetStones {
            id: 4,
            stones: Theme::Ascii,
        });
        assert_eq!(s.resume_prefs.len(), 2, "only codes held get stones");
        s.handle(Command::RoomClosed { room });
        assert!(s.resume_prefs.is_empty(), "gone with the room");
    }

    #[test]
    fn room_codes_are_unique_and_a_friend_joins_with_one() {
        let mut s = lobby(9);
        let mut codes = std::collections::HashSet::new();
        for id in 1..=300 {
            named(&mut s, id, &format!("p{id}"));
            let code = create(&mut s, id);
            assert!(crate::lobby::codes::looks_like_code(&code), "{code}");
            assert!(codes.insert(code), "a code given twice");
        }
        // Host 7's code, typed in lower case with a dash, by someone new.
        let code = create(&mut s, 7);
        named(&mut s, 1000, "friend");
        let typed = format!("{}-{}", &code[..2], &code[2..]).to_ascii_lowercase();
        let effects = join_code(&mut s, 1000, &typed, false);
        let (room, _, seats) = opened(&effects);
        assert_eq!(seated(&seats), vec![Some(7), Some(1000)]);
        assert_eq!(
            effects[1..],
            [
                tell(7, Notice::Joined(room)),
                tell(1000, Notice::Joined(room))
            ]
        );
        // The code is spent while the game lasts...
        named(&mut s, 1001, "late");
        assert_eq!(
            join_code(&mut s, 1001, &code, false),
            vec![error(
                1001,
                crate::protocol::Refusal::RoomPlaying(code.clone())
            )]
        );
        // ...and unknown once it is over.
        assert_eq!(
            s.handle(Command::RoomClosed { room }),
            vec![Effect::RoomGone { room }]
        );
        assert_eq!(
            join_code(&mut s, 1001, &code, false),
            vec![error(
                1001,
                crate::protocol::Refusal::NoSuchRoom(code.clone())
            )]
        );
    }

    #[test]
    fn ones_own_code_and_closed_rooms_do_not_join() {
        let mut s = lobby(10);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        let code = create(&mut s, 1);
        assert_eq!(
            join_code(&mut s, 1, &code, false),
            vec![error(1, crate::protocol::Refusal::OwnRoom)]
        );
        // Cancelling closes the room; seeking a match does too.
        s.handle(Command::Cancel { id: 1 });
        let unknown = crate::protocol::Refusal::NoSuchRoom(code.clone());
        assert_eq!(join_code(&mut s, 2, &code, false), vec![error(2, unknown)]);
        let code = create(&mut s, 1);
        quick(&mut s, 1, GOMOKU);
        let unknown = crate::protocol::Refusal::NoSuchRoom(code.clone());
        assert_eq!(join_code(&mut s, 2, &code, false), vec![error(2, unknown)]);
    }

    #[test]
    fn a_code_given_as_login_name_with_no_room_is_not_a_name_yet() {
        let mut s = lobby(11);
        named(&mut s, 1, "ann");
        assert_eq!(
            join_code(&mut s, 1, "kb2c", true),
            vec![tell(1, Notice::NoRoomForLogin("KB2C".into()))]
        );
        // The session decides (with the store); the lobby keeps the name.
        assert_eq!(s.name(1), Some("ann"));
        // Typed in the lobby, the same is an error, and the name stays.
        named(&mut s, 2, "bob");
        assert_eq!(
            join_code(&mut s, 2, "kb2c", false),
            vec![error(
                2,
                crate::protocol::Refusal::NoSuchRoom("KB2C".into())
            )]
        );
        assert_eq!(s.name(2), Some("bob"));
    }

    #[test]
    fn a_replaced_session_cannot_spoil_a_friends_room() {
        let mut s = lobby(20);
        arrive(&mut s, 1, Some("ann"), Some("key-a"));
        named(&mut s, 2, "host");
        let code = create(&mut s, 2);
        // Ann connects again; the old session's request arrives after.
        arrive_replacing(&mut s, 3, "key-a");
        assert_eq!(join_code(&mut s, 1, &code, false), vec![]);
        // The room is still open for the new session.
        let (_, _, seats) = opened(&join_code(&mut s, 3, &code, false));
        assert_eq!(seated(&seats), vec![Some(2), Some(3)]);
    }

    #[test]
    fn a_friend_room_keeps_its_watchers_and_clock_choices() {
        let mut s = lobby(34);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        let code = create(&mut s, 1);
        s.handle(Command::AllowWatchers { id: 1, allow: true });
        s.handle(Command::SetRoomClock {
            id: 1,
            clock: Some(TimeControl::new(5, 3)),
        });
        let e = join_code(&mut s, 2, &code, false);
        let (room, _, _) = opened(&e);
        assert!(s.watchable(room));
        assert!(e.iter().any(|x| matches!(
            x,
            Effect::OpenRoom(NewTable { clock: Some(c), .. }) if *c == TimeControl::new(5, 3)
        )));
        // A room left private is not watched.
        named(&mut s, 3, "cy");
        named(&mut s, 4, "dee");
        let code = create(&mut s, 3);
        let e = join_code(&mut s, 4, &code, false);
        let (private, _, _) = opened(&e);
        assert!(!s.watchable(private));
        let e = s.handle(Command::Watch {
            id: 1,
            room: private,
        });
        assert!(said(&e, 1)[0].contains("private"), "{e:?}");
        let e = s.handle(Command::Watch { id: 3, room });
        assert!(e.contains(&Effect::Watch { room, id: 3 }) || said(&e, 3)[0].contains("play"));
    }
}
