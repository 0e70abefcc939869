//! Cluster mode: what the lobby keeps about people and rooms on other
//! hosts. Seekers offered to and matched on other hosts, visitors seated
//! here, people elsewhere (their ids here and the list of them), and a
//! game carried on after its host went.

use super::*;

/// Cluster mode: someone on another host who sits at a table here (the
/// room runs on this host; their commands and the table's state travel
/// over NATS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visitor {
    /// Their host's name, and the session there.
    pub host: String,
    pub session: SessionId,
    pub name: String,
    /// Their account (cluster hosts share one store).
    pub account: Option<String>,
    /// Their rating in the game, for a rated game.
    pub rating: Option<u32>,
    pub colour: Option<Colour>,
    /// The secret their host's commands for the seat carry.
    pub token: String,
}

/// What a seeker on this host is, as a quick match on another host needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seeker {
    pub name: String,
    pub account: Option<String>,
    /// The rating that counts in a rated game of the offered rules.
    pub rating: Option<u32>,
    /// Ratings by game ([`rating_index`]), for a player with an account.
    pub ratings: [Option<u32>; 2],
    pub colour: Option<Colour>,
}

/// Session ids from here up are seats of visitors from other hosts
/// (the host numbers its own sessions from 1).
pub const VISITOR_IDS: SessionId = 1 << 48;

/// Session ids from here up stand, in this lobby's lists and invitations,
/// for people on other hosts (one id per host and session).
pub const AFAR_IDS: SessionId = 1 << 56;

/// Cluster mode: someone on another host who invited a person here, or
/// whom a person here invited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Afar {
    pub host: String,
    pub session: SessionId,
    pub name: String,
}

impl LobbyState {
    /// Cluster mode: seekers nobody here meets are offered to the other
    /// hosts ([`Ask::Seek`]).
    pub fn with_cluster(mut self, on: bool) -> LobbyState {
        self.cluster = on;
        self
    }

    /// Cluster mode: a host has matched this session's ticket. Takes it
    /// out of the queue (so nobody here pairs it meanwhile) and says who
    /// it is, if it still seeks that game; it stays "seeking" until
    /// [`LobbyState::open_across`] or [`LobbyState::release`].
    pub fn reserve(&mut self, id: SessionId, kind: GameKind) -> Option<Seeker> {
        let rules = self.rules(kind)?;
        let m = self.members.get(&id)?;
        if m.status != Status::Seeking(kind) {
            return None;
        }
        let q = self.queues.get_mut(&kind)?;
        let at = q.iter().position(|&(x, _)| x == id)?;
        q.remove(at);
        self.dirty = true;
        Some(m.seeker(Some(&rules)))
    }

    /// Cluster mode: the match of a reserved seeker fell through: it
    /// seeks again (and is offered to the other hosts again).
    pub fn release(&mut self, id: SessionId, kind: GameKind) -> Vec<Effect> {
        if self.members.get(&id).is_some_and(|m| {
            m.status == Status::Seeking(kind) || m.status == Status::Playing(ELSEWHERE)
        }) {
            self.quick_match(id, kind);
        }
        std::mem::take(&mut self.out)
    }

    /// Cluster mode: the reserved seeker `id` plays `visitor` at a table
    /// on this host. `None` if `id` no longer seeks (it left or cancelled).
    pub fn open_across(
        &mut self,
        id: SessionId,
        kind: GameKind,
        visitor: Visitor,
    ) -> Option<(RoomId, Vec<Effect>)> {
        let rules = self.rules(kind)?;
        if self.members.get(&id)?.status != Status::Seeking(kind) {
            return None;
        }
        if let Some(m) = self.members.get_mut(&id) {
            m.status = Status::Idle;
        }
        let clock = self.clocks.get(&kind).copied();
        let room = self.start_with_visitor(rules, id, visitor, true, clock, Opening::Standard);
        let effects = std::mem::take(&mut self.out);
        room.map(|room| (room, effects))
    }

    /// Cluster mode: a host on which `id` will play has taken its ticket.
    /// Takes it out of the queue and marks it playing elsewhere, if it
    /// still seeks that game.
    pub fn leave_for(&mut self, id: SessionId, kind: GameKind) -> Option<(Seeker, Vec<Effect>)> {
        let seeker = self.reserve(id, kind)?;
        if let Some(m) = self.members.get_mut(&id) {
            m.status = Status::Playing(ELSEWHERE);
        }
        self.withdraw_invites_to(id, crate::protocol::news::LapseWhy::StartedAnotherGame);
        self.withdraw_invites_of(id);
        Some((seeker, std::mem::take(&mut self.out)))
    }

    /// Cluster mode: `id` goes to a room for a friend on another host.
    /// `None` if it is not free (playing, or gone).
    pub fn leave_to_join(&mut self, id: SessionId) -> Option<Seeker> {
        self.unqueue(id);
        let m = self.members.get_mut(&id)?;
        if m.status != Status::Idle {
            return None;
        }
        m.status = Status::Playing(ELSEWHERE);
        let seeker = m.seeker(None);
        self.withdraw_invites_to(id, crate::protocol::news::LapseWhy::StartedAnotherGame);
        self.withdraw_invites_of(id);
        self.dirty = true;
        Some(seeker)
    }

    /// Cluster mode: the people on the other hosts (at most
    /// [`PEOPLE_LISTED`] are kept).
    pub fn set_remote_people(&mut self, mut people: Vec<Person>) {
        people.truncate(PEOPLE_LISTED);
        self.remote_people = people;
        // Ids for the people listed; those of people gone are kept while
        // an invitation names them.
        let listed: Vec<(String, SessionId, String)> = self
            .remote_people
            .iter()
            .map(|p| (p.host.clone().unwrap_or_default(), p.id, p.name.clone()))
            .collect();
        let mut keep: std::collections::HashSet<SessionId> = self
            .invites
            .iter()
            .flat_map(|i| [i.from, i.to])
            .filter(|&id| id >= AFAR_IDS)
            .collect();
        for (host, session, name) in listed {
            keep.insert(self.afar_id(&host, session, &name));
        }
        self.afar.retain(|id, _| keep.contains(id));
        let afar = &self.afar;
        self.afar_ids.retain(|_, id| afar.contains_key(id));
    }

    /// The id that stands here for `session` on `host` (named `name`).
    pub(super) fn afar_id(&mut self, host: &str, session: SessionId, name: &str) -> SessionId {
        let key = (host.to_string(), session);
        let id = match self.afar_ids.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.next_afar;
                self.next_afar += 1;
                self.afar_ids.insert(key, id);
                id
            }
        };
        self.afar.insert(
            id,
            Afar {
                host: host.to_string(),
                session,
                name: name.to_string(),
            },
        );
        id
    }

    /// Who the id of someone on another host stands for.
    #[cfg(test)]
    pub fn afar(&self, id: SessionId) -> Option<&Afar> {
        self.afar.get(&id)
    }

    /// Cluster mode: a game carried on here from another host (its host
    /// went away), with `id` back in the seat that `key` (its account or
    /// resume code) takes; the other player may come back to theirs within
    /// the grace. The room and the seats with their sessions, or why not.
    pub fn carry_on(
        &mut self,
        id: SessionId,
        key: &str,
        mut seats: [Occupant; 2],
    ) -> Result<(RoomId, [Occupant; 2]), Refusal> {
        let Some(m) = self.members.get(&id) else {
            return Err(Refusal::YouLeft);
        };
        if matches!(m.status, Status::Watching(_))
            || matches!(m.status, Status::Playing(r) if r != ELSEWHERE)
        {
            return Err(Refusal::AtAnotherTable);
        }
        let takes = |seat: &Occupant| {
            matches!(seat, Occupant::Human { account, resume, .. }
                if account.as_deref() == Some(key) || resume.as_deref() == Some(key))
        };
        let Some(mine) = seats.iter().position(takes) else {
            return Err(Refusal::NoSeat);
        };
        let room = self.next_room;
        self.next_room += 1;
        for (i, seat) in seats.iter_mut().enumerate() {
            if let Occupant::Human {
                id: sid, resume, ..
            } = seat
            {
                *sid = if i == mine { id } else { self.new_ghost() };
                if let Some(code) = resume.as_ref().filter(|c| c.len() <= RESUME_LEN) {
                    self.resumes.insert(code.clone(), (room, *sid));
                }
            }
        }
        self.unqueue(id);
        if let Some(m) = self.members.get_mut(&id) {
            m.status = Status::Playing(room);
        }
        self.public.insert(room, true);
        self.dirty = true;
        Ok((room, seats))
    }

    /// Cluster mode: seats `member` and a visitor from another host at a
    /// new table here (who starts drawn at random); the room, if it opened.
    pub(super) fn start_with_visitor(
        &mut self,
        rules: Rules,
        member: SessionId,
        visitor: Visitor,
        rated: bool,
        clock: Option<TimeControl>,
        opening: Opening,
    ) -> Option<RoomId> {
        let ghost = self.next_ghost;
        self.next_ghost += 1;
        self.visitors.insert(ghost, visitor.clone());
        self.out.push(Effect::Visit {
            room: self.next_room,
            ghost,
            visitor,
        });
        let member_first = self.rng.random_bool(0.5);
        let room = self.start_room(
            rules,
            member,
            Some(ghost),
            None,
            member_first,
            rated,
            clock,
            opening,
        );
        self.visitors.remove(&ghost);
        room
    }

    /// Cluster mode: someone on another host joins the room for a friend
    /// under `code`: the game starts here, with them as a visitor. The
    /// error says why not, for the joiner.
    pub fn open_for_visitor(
        &mut self,
        code: &str,
        mut visitor: Visitor,
        ratings: [Option<u32>; 2],
    ) -> Result<Vec<Effect>, Refusal> {
        let code = normalise_code(code);
        let Some(h) = self.hosted.get(&code).copied() else {
            return Err(if self.started.contains_key(&code) {
                Refusal::RoomPlaying(code)
            } else {
                Refusal::NoSuchRoom(code)
            });
        };
        let rules = self.rules(h.kind).ok_or(Refusal::GameNotOffered)?;
        visitor.rating = if visitor.account.is_some() && rated_rules(&rules) {
            Some(
                rating_index(h.kind)
                    .and_then(|i| ratings[i])
                    .unwrap_or(1500),
            )
        } else {
            None
        };
        self.unqueue(h.host);
        match self.start_with_visitor(rules, h.host, visitor, h.rated, h.clock, h.opening) {
            Some(room) => {
                self.started.insert(code, room);
                self.public.insert(room, h.watchers);
                Ok(std::mem::take(&mut self.out))
            }
            None => {
                self.out.clear();
                Err(Refusal::FriendLeft)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn in_cluster_mode_a_lonely_seeker_is_offered_to_the_other_hosts_and_seated_with_a_visitor() {
        let mut s = lobby(40).with_cluster(true);
        named(&mut s, 1, "ann");
        let effects = quick(&mut s, 1, C4);
        assert!(
            effects.iter().any(
                |e| matches!(e, Effect::Across(Ask::Seek { id: 1, kind: C4, seeker }) if seeker.name == "ann")
            ),
            "{effects:?}"
        );
        // Cancelling withdraws the ticket; seeking again offers it again.
        let effects = s.handle(Command::Cancel { id: 1 });
        assert!(
            effects.contains(&Effect::Across(Ask::Unseek { id: 1 })),
            "{effects:?}"
        );
        quick(&mut s, 1, C4);
        // Another host took the ticket: ann is reserved, out of the queue,
        // so a newcomer here does not meet her meanwhile.
        assert_eq!(s.reserve(1, C4).map(|p| p.name), Some("ann".into()));
        named(&mut s, 2, "cy");
        let effects = quick(&mut s, 2, C4);
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, Effect::OpenRoom(NewTable { .. }))),
            "{effects:?}"
        );
        assert_eq!(
            s.reserve(1, GameKind::Gomoku),
            None,
            "not seeking that game"
        );
        // The visitor sits with ann at a table here.
        let (room, effects) = s.open_across(1, C4, visitor("bea")).expect("opened");
        let Some(Effect::Visit {
            ghost, visitor: v, ..
        }) = effects.first()
        else {
            panic!("{effects:?}")
        };
        assert!(*ghost >= VISITOR_IDS);
        assert_eq!(v.name, "bea");
        let (opened, _, seats) = opened(&effects);
        assert_eq!(opened, room);
        assert_eq!(seated(&seats).into_iter().flatten().count(), 2);
        assert!(seated(&seats).contains(&Some(*ghost)));
        // The visiting guest has a resume code of her own, as a guest here
        // does: typed on this host, it leads back to her seat.
        let code = seats
            .iter()
            .find_map(|seat| match seat {
                Occupant::Human { id, resume, .. } if id == ghost => resume.clone(),
                _ => None,
            })
            .expect("the visitor's seat has a resume code");
        assert!(crate::lobby::codes::looks_like_code(&code), "{code}");
        assert_eq!(code.len(), crate::lobby::codes::RESUME_LEN);
        assert_eq!(s.resume_code(room, *ghost), Some(code.clone()));
        assert_ne!(s.resume_code(room, 1), Some(code.clone()));
        named(&mut s, 5, "newcomer");
        let back = join_code(&mut s, 5, &code, true);
        assert_eq!(
            back,
            vec![Effect::Rejoin {
                room,
                key: code,
                id: 5
            }]
        );
        // A seeker who has gone cannot be seated.
        assert_eq!(s.open_across(2, GameKind::Gomoku, visitor("dee")), None);
        s.handle(Command::Leave { id: 2 });
        assert_eq!(s.open_across(2, C4, visitor("dee")), None);
    }

    #[test]
    fn in_cluster_mode_room_codes_are_announced_looked_for_elsewhere_and_open_for_visitors() {
        let mut s = lobby(42).with_cluster(true);
        named(&mut s, 1, "fay");
        let effects = s.handle(Command::CreateRoom {
            id: 1,
            kind: C4,
            rated: false,
        });
        let code = effects
            .iter()
            .find_map(|e| match e {
                Effect::Across(Ask::CodeOpened { code, kind: C4 }) => Some(code.clone()),
                _ => None,
            })
            .expect("announced");
        // A code no room here has is looked for on the other hosts.
        named(&mut s, 2, "gus");
        let effects = s.handle(Command::JoinRoom {
            id: 2,
            code: "ZZZZ".into(),
            from_login: false,
        });
        assert!(
            matches!(effects.as_slice(), [Effect::Across(Ask::FindCode { id: 2, code, .. })] if code == "ZZZZ"),
            "{effects:?}"
        );
        // None has it: the usual error, or (as a login name) a name the
        // session may ask for, once the store agrees.
        let effects = s.code_unknown(2, "ZZZZ".into(), false);
        assert_eq!(
            effects,
            vec![error(
                2,
                crate::protocol::Refusal::NoSuchRoom("ZZZZ".into())
            )]
        );
        assert_eq!(
            s.code_unknown(2, "QQQQ".into(), true),
            vec![tell(2, Notice::NoRoomForLogin("QQQQ".into()))]
        );
        assert_eq!(s.name(2), Some("gus"));
        // Someone from another host joins fay's room: the game starts here.
        let effects = s
            .open_for_visitor(&code.to_lowercase(), visitor("hal"), [None; 2])
            .expect("opened");
        assert!(effects.iter().any(|e| matches!(e, Effect::Visit { .. })));
        assert!(effects.contains(&Effect::Across(Ask::CodeClosed { code: code.clone() })));
        let (_, _, seats) = opened(&effects);
        assert!(seated(&seats).contains(&Some(1)));
        let again = s.open_for_visitor(&code, visitor("ivy"), [None; 2]);
        assert!(matches!(again, Err(Refusal::RoomPlaying(_))), "{again:?}");
        // A session that is playing cannot go to a room elsewhere.
        assert_eq!(s.leave_to_join(1), None);
        assert_eq!(s.leave_to_join(2).map(|j| j.name), Some("gus".into()));
    }

    #[test]
    fn in_cluster_mode_seekers_are_kept_home_while_the_other_hosts_are_away_and_offered_on_return()
    {
        let mut s = lobby(46).with_cluster(true);
        named(&mut s, 1, "ann");
        let away = Stats {
            degraded: true,
            ..Stats::default()
        };
        s.set_remote(away);
        assert!(s.stats().degraded);
        let e = quick(&mut s, 1, C4);
        assert!(
            !e.iter()
                .any(|x| matches!(x, Effect::Across(Ask::Seek { .. }))),
            "offered while NATS is away: {e:?}"
        );
        s.set_remote(Stats::default());
        assert!(!s.stats().degraded);
        let e = s.take_effects();
        assert!(
            e.iter().any(|x| matches!(
                x,
                Effect::Across(Ask::Seek {
                    id: 1,
                    kind: C4,
                    ..
                })
            )),
            "{e:?}"
        );
    }

    #[test]
    fn in_cluster_mode_a_seeker_leaving_for_another_host_plays_elsewhere_or_seeks_again() {
        let mut s = lobby(41).with_cluster(true);
        named(&mut s, 1, "ann");
        quick(&mut s, 1, C4);
        let (seeker, _) = s.leave_for(1, C4).expect("still seeking");
        assert_eq!(seeker.name, "ann");
        assert_eq!(s.local_stats().playing, 1);
        assert_eq!(s.leave_for(1, C4), None, "taken once only");
        // The table never started: she seeks again, offered again.
        let effects = s.release(1, C4);
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, Effect::Across(Ask::Seek { id: 1, .. }))),
            "{effects:?}"
        );
        // Back from the other host's table: free again.
        s.leave_for(1, C4).expect("seeking again");
        s.handle(Command::LeftRoom { id: 1 });
        assert_eq!(s.local_stats().playing, 0);
    }

    #[test]
    fn names_on_other_hosts_are_taken_for_guests_and_accounts_names_for_accounts() {
        let mut s = lobby(43).with_cluster(true);
        let remote = |name: &str, account: bool| Person {
            host: Some("host-b".into()),
            id: name.len() as u64,
            me: false,
            invitable: true,
            name: name.into(),
            account,
            account_id: account.then(|| format!("acct-{name}")),
            ratings: [None; 2],
            doing: Doing::Lobby,
        };
        s.set_remote_people(vec![remote("bea", false), remote("cal", true)]);
        // A guest gives way to anyone on another host, any case.
        assert_ne!(arrive(&mut s, 1, Some("BEA"), None).to_lowercase(), "bea");
        assert_ne!(arrive(&mut s, 2, Some("cal"), None), "cal");
        // An account's name is its own against a guest elsewhere...
        rated_player(&mut s, 3, "bea", 1500);
        // ...but not against another account.
        let (given, _) = s.join(Arrival {
            id: 4,
            name: Some("cal".into()),
            identity: Some("SHA256:cal2".into()),
            account: Some(Player {
                account: "acct-cal-2".into(),
                ratings: [None; 2],
            }),
        });
        assert_ne!(given, "cal");
        // The same account signing in here while its other session is
        // still listed elsewhere keeps its name (that session goes).
        let (given, _) = s.join(Arrival {
            id: 5,
            name: Some("cal".into()),
            identity: Some("SHA256:cal".into()),
            account: Some(Player {
                account: "acct-cal".into(),
                ratings: [None; 2],
            }),
        });
        assert_eq!(given, "cal");
        // Renaming obeys the same rule.
        s.handle(Command::SetName {
            id: 1,
            name: "Cal".into(),
        });
        assert_ne!(s.name(1), Some("Cal"));
    }

    #[test]
    fn other_hosts_people_are_listed_and_counted_with_their_invitations_setting() {
        let mut s = lobby(32);
        named(&mut s, 1, "ann");
        s.handle(Command::QuickMatch {
            id: 1,
            kind: GameKind::ConnectFour,
        });
        s.set_remote(Stats {
            online: 3,
            playing: 2,
            waiting: vec![(GameKind::ConnectFour, 1)],
            degraded: false,
        });
        s.set_remote_people(vec![Person {
            host: Some("host-b".into()),
            id: 3,
            me: false,
            invitable: false,
            name: "bea".into(),
            account: true,
            account_id: Some("acct-bea".into()),
            ratings: [Some(1620), None],
            doing: Doing::Playing,
        }]);
        let stats = s.take_stats().unwrap();
        assert_eq!((stats.online, stats.playing), (4, 2));
        // Seekers on both hosts: quick match pairs across hosts.
        assert_eq!(stats.waiting_for(GameKind::ConnectFour), 2);
        assert_eq!(s.local_stats().online, 1);
        let people = s.people(1);
        assert_eq!(people.len(), 2);
        assert!(people[0].me && people[0].host.is_none());
        let bea = &people[1];
        assert_eq!(bea.host.as_deref(), Some("host-b"));
        assert!(!bea.invitable && !bea.me && bea.id >= AFAR_IDS);
        assert_eq!(bea.ratings, [Some(1620), None]);
        assert_eq!(s.local_people().len(), 1);
        for d in [
            Doing::Lobby,
            Doing::Seeking(GameKind::Gomoku),
            Doing::Hosting,
            Doing::Playing,
            Doing::Watching,
        ] {
            assert_eq!(Doing::from_word(d.word()), Some(d));
        }
        assert_eq!(Doing::from_word("dancing"), None);
    }
}
