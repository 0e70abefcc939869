//! Who is online and under which name: arrivals, unique names (ignoring
//! case, remembered by key), leaving, and the who-is-online list.

use super::*;

/// Most people the who-is-online list holds.
pub const PEOPLE_LISTED: usize = 500;

impl LobbyState {
    /// Someone arrives: returns the display name given (unique) and what to do.
    pub fn join(&mut self, arrival: Arrival) -> (String, Vec<Effect>) {
        let Arrival {
            id,
            name,
            identity,
            account,
        } = arrival;
        // An account with a game in play (its connection dropped, or still
        // open elsewhere): the room may give the seat to this session.
        if let Some(a) = account.as_ref().map(|p| p.account.clone()) {
            let playing = self.members.values().find_map(|m| match m.status {
                Status::Playing(room) if m.account.as_ref().is_some_and(|p| p.account == a) => {
                    Some(room)
                }
                _ => None,
            });
            match playing.or_else(|| self.held.get(&a).copied()) {
                Some(room) if room != ELSEWHERE => {
                    self.out.push(Effect::Rejoin { room, key: a, id })
                }
                _ if self.cluster => self.out.push(Effect::Across(Ask::FindSeat { id, key: a })),
                _ => {}
            }
        }
        // The same key connecting again: the old session goes, so the
        // person finds their name again rather than a copy.
        if let Some(identity) = &identity {
            let old: Vec<SessionId> = self
                .members
                .iter()
                .filter(|(_, m)| m.identity.as_ref() == Some(identity))
                .map(|(&id, _)| id)
                .collect();
            for old in old {
                self.tell(
                    old,
                    Notice::Replaced("You connected again from another terminal.".into()),
                );
                self.remove(old);
            }
        }
        let since_ms = crate::store::now_ms();
        if self.cluster && (account.is_some() || identity.is_some()) {
            self.out.push(Effect::Across(Ask::SignedIn {
                account: account.as_ref().map(|p| p.account.clone()),
                identity: identity.clone(),
                at_ms: since_ms,
            }));
        }
        let wanted = name
            .or_else(|| {
                identity
                    .as_deref()
                    .and_then(|i| self.remembered.get(i))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| naming::guest_name(identity.as_deref(), &mut self.rng));
        let name = self.unique_name(&wanted, id, account.as_ref().map(|p| p.account.as_str()));
        self.remembered.remember(identity.as_deref(), &name);
        self.index_name(&name);
        if let Some(old) = self.members.insert(
            id,
            Member {
                name: name.clone(),
                colour: None,
                identity: identity.clone(),
                account: account.clone(),
                since_ms,
                status: Status::Idle,
                invitable: true,
                invited_at: VecDeque::new(),
                prefs: Prefs::default(),
            },
        ) {
            self.unindex_name(&old.name);
        }
        self.dirty = true;
        if let Some(reason) = self.shutting_down.clone() {
            self.tell(id, Notice::Kick(reason));
        }
        (name, std::mem::take(&mut self.out))
    }

    /// The display name of a session in the lobby.
    #[cfg(test)]
    pub fn name(&self, id: SessionId) -> Option<&str> {
        self.members.get(&id).map(|m| m.name.as_str())
    }

    /// A member's display name ("someone" once gone).
    pub(super) fn name_of(&self, id: SessionId) -> String {
        match self.members.get(&id) {
            Some(m) => m.name.clone(),
            None => self
                .afar
                .get(&id)
                .map_or_else(|| "someone".to_string(), |a| a.name.clone()),
        }
    }

    /// `name`, or the first free variant of it. Free: nobody here has it,
    /// and (cluster mode) nobody on another host who could claim it: a
    /// guest gives way to anyone, a player with an account (whose name is
    /// theirs in the shared store) only to another account.
    pub(super) fn unique_name(&self, name: &str, id: SessionId, account: Option<&str>) -> String {
        let has_account = account.is_some();
        let own = self.members.get(&id).map(|m| m.name.as_str());
        naming::unique_name(name, id, |candidate| {
            let holders = self
                .names
                .get(&candidate.to_ascii_lowercase())
                .copied()
                .unwrap_or(0);
            let mine = u32::from(own.is_some_and(|n| n.eq_ignore_ascii_case(candidate)));
            // Someone elsewhere under this account is this person's other
            // session (replaced as this one signs in), not another person.
            holders > mine
                || self.remote_people.iter().any(|p| {
                    (p.account || !has_account)
                        && p.name.eq_ignore_ascii_case(candidate)
                        && (account.is_none() || p.account_id.as_deref() != account)
                })
        })
    }

    pub(super) fn set_name(&mut self, id: SessionId, name: String) {
        if crate::text::is_reserved_name(&name) {
            self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::NameReserved),
            );
            return;
        }
        if self.members.contains_key(&id) {
            let account = self
                .members
                .get(&id)
                .and_then(|m| m.account.as_ref())
                .map(|p| p.account.clone());
            let unique = self.unique_name(&name, id, account.as_deref());
            self.index_name(&unique);
            let identity = self.members.get_mut(&id).map(|m| {
                let old = std::mem::replace(&mut m.name, unique.clone());
                (old, m.identity.clone())
            });
            let identity = identity.and_then(|(old, identity)| {
                self.unindex_name(&old);
                identity
            });
            self.remembered.remember(identity.as_deref(), &unique);
            if unique != name {
                self.tell(
                    id,
                    Notice::LobbyError(crate::protocol::Refusal::NameTaken(Box::new(
                        crate::protocol::refusal::NameTaken {
                            asked: name.clone(),
                            given: unique.clone(),
                        },
                    ))),
                );
            }
            self.tell(id, Notice::Name(unique));
        }
    }

    pub(super) fn remove(&mut self, id: SessionId) {
        self.withdraw_invites_to(id, crate::protocol::news::LapseWhy::Left);
        self.withdraw_invites_of(id);
        self.unqueue(id);
        if let Some(m) = self.members.remove(&id) {
            self.unindex_name(&m.name);
            self.dirty = true;
            self.out.push(Effect::Forget { id });
        }
    }

    pub(super) fn index_name(&mut self, name: &str) {
        *self.names.entry(name.to_ascii_lowercase()).or_insert(0) += 1;
    }

    pub(super) fn unindex_name(&mut self, name: &str) {
        let key = name.to_ascii_lowercase();
        if let Some(n) = self.names.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.names.remove(&key);
            }
        }
    }

    /// Everyone online as the who-is-online list shows them (`asker`
    /// marked), by name; at most [`PEOPLE_LISTED`], the asker always among
    /// them.
    pub fn people(&self, asker: SessionId) -> Vec<Person> {
        let mut people = self.local_people();
        for p in &mut people {
            p.me = p.id == asker;
        }
        people.extend(self.remote_people.iter().map(|r| {
            Person {
                id: self
                    .afar_ids
                    .get(&(r.host.clone().unwrap_or_default(), r.id))
                    .copied()
                    .unwrap_or(0),
                me: false,
                ..r.clone()
            }
        }));
        // The asker first, then by name.
        people.sort_by_cached_key(|p| (!p.me, p.name.to_lowercase(), p.id));
        people.truncate(PEOPLE_LISTED);
        people
    }

    /// Everyone on this host (none marked as the asker), in no order.
    pub fn local_people(&self) -> Vec<Person> {
        self.members
            .iter()
            .map(|(&id, m)| Person {
                id,
                name: m.name.clone(),
                ratings: m.account.as_ref().map_or([None; 2], |p| p.ratings),
                account: m.account.is_some(),
                account_id: m.account.as_ref().map(|p| p.account.clone()),
                doing: m.doing(),
                invitable: m.invitable,
                me: false,
                host: None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn the_same_key_again_replaces_the_old_session() {
        let mut s = lobby(12);
        assert_eq!(arrive(&mut s, 1, Some("ann"), Some("key-a")), "ann");
        quick(&mut s, 1, C4);
        let (name, effects) = s.join(Arrival {
            id: 2,
            name: Some("ann".into()),
            account: None,
            identity: Some("key-a".into()),
        });
        assert_eq!(name, "ann", "the name is free again, not ann2");
        assert_eq!(
            effects,
            vec![
                tell(
                    1,
                    Notice::Replaced("You connected again from another terminal.".into())
                ),
                Effect::Forget { id: 1 },
            ]
        );
        assert_eq!(s.name(1), None);
        assert_eq!(s.stats().online, 1);
        assert_eq!(
            s.stats().waiting_for(C4),
            0,
            "the old session's seeking ended"
        );
        // Another key with the same wish gets a suffix.
        assert_eq!(arrive(&mut s, 3, Some("ann"), Some("key-b")), "ann2");
    }

    #[test]
    fn a_returning_key_gets_its_last_name_back() {
        let mut s = lobby(13);
        let guest = arrive(&mut s, 1, None, Some("key-a"));
        assert!(guest.starts_with("Guest"), "{guest}");
        s.handle(Command::SetName {
            id: 1,
            name: "zed".into(),
        });
        s.handle(Command::Leave { id: 1 });
        assert_eq!(arrive(&mut s, 2, None, Some("key-a")), "zed");
        // A name given at login wins over the remembered one.
        s.handle(Command::Leave { id: 2 });
        assert_eq!(arrive(&mut s, 3, Some("amy"), Some("key-a")), "amy");
        // Without a key, a guest name.
        assert!(arrive(&mut s, 4, None, None).starts_with("Guest"));
    }

    #[test]
    fn names_are_unique_ignoring_case() {
        let mut s = lobby(14);
        named(&mut s, 1, "alice");
        assert_eq!(arrive(&mut s, 2, Some("ALICE"), None), "ALICE2");
        assert_eq!(arrive(&mut s, 3, Some("Alice"), None), "Alice3");
        named(&mut s, 4, "bob");
        assert_eq!(
            s.handle(Command::SetName {
                id: 4,
                name: "alice".into()
            }),
            vec![
                error(
                    4,
                    crate::protocol::Refusal::NameTaken(Box::new(
                        crate::protocol::refusal::NameTaken {
                            asked: "alice".into(),
                            given: "alice4".into()
                        }
                    ))
                ),
                tell(4, Notice::Name("alice4".into())),
            ]
        );
        // One's own name, in another case, is no clash.
        assert_eq!(
            s.handle(Command::SetName {
                id: 1,
                name: "Alice".into()
            }),
            vec![tell(1, Notice::Name("Alice".into()))]
        );
        // A name freed by someone leaving can be taken.
        s.handle(Command::Leave { id: 2 });
        assert_eq!(arrive(&mut s, 5, Some("alice2"), None), "alice2");
        // So can one given up for another.
        s.handle(Command::SetName {
            id: 4,
            name: "carol".into(),
        });
        assert_eq!(arrive(&mut s, 6, Some("ALICE4"), None), "ALICE4");
        assert_eq!(arrive(&mut s, 7, Some("Carol"), None), "Carol2");
    }

    #[test]
    fn a_crowd_wanting_one_name_each_gets_its_own() {
        let mut s = lobby(16);
        let names: Vec<String> = (1..=2_000)
            .map(|id| arrive(&mut s, id, Some("play"), None))
            .collect();
        assert_eq!(names[0], "play");
        assert_eq!(names[1], "play2");
        assert_eq!(names[1_999], "play2000");
        let distinct: std::collections::HashSet<String> =
            names.iter().map(|n| n.to_ascii_lowercase()).collect();
        assert_eq!(distinct.len(), 2_000);
        // The first half leave; their names are free again, the others'
        // are not.
        for id in 1..=1_000 {
            s.handle(Command::Leave { id });
        }
        assert_eq!(arrive(&mut s, 5_000, Some("PLAY"), None), "PLAY");
        assert_eq!(arrive(&mut s, 5_001, Some("play1500"), None), "play15002");
    }

    #[test]
    fn names_kept_for_the_computer_are_refused() {
        let mut s = lobby(15);
        named(&mut s, 1, "ann");
        for name in ["Computer", "cpu", "C0MPUTER", "inarow"] {
            assert_eq!(
                s.handle(Command::SetName {
                    id: 1,
                    name: name.into()
                }),
                vec![error(1, crate::protocol::Refusal::NameReserved)],
                "{name}"
            );
        }
        assert_eq!(s.name(1), Some("ann"));
    }

    #[test]
    fn an_account_seated_in_a_game_is_sent_back_to_its_room() {
        let mut s = lobby(41);
        rated_player(&mut s, 1, "ann", 1500);
        rated_player(&mut s, 2, "bob", 1500);
        quick(&mut s, 1, C4);
        let (room, _, _) = opened(&quick(&mut s, 2, C4));
        // Ann's old terminal is still connected: the room decides.
        let want = vec![Effect::Rejoin {
            room,
            key: "acct-ann".into(),
            id: 3,
        }];
        assert_eq!(rejoins(&mut s, 3, "acct-ann"), want);
        // Her connection dropped: the room keeps the seat and says so.
        s.handle(Command::Leave { id: 1 });
        s.handle(Command::Leave { id: 3 });
        s.handle(Command::SeatHeld {
            key: "acct-ann".into(),
            room,
        });
        let want = vec![Effect::Rejoin {
            room,
            key: "acct-ann".into(),
            id: 4,
        }];
        assert_eq!(rejoins(&mut s, 4, "acct-ann"), want);
        // Back at the table: told so and playing.
        let effects = s.handle(Command::Rejoined {
            id: 4,
            room,
            key: "acct-ann".into(),
        });
        assert!(
            effects.contains(&tell(4, Notice::Joined(room))),
            "{effects:?}"
        );
        // Once the seat is released, nothing to go back to.
        s.handle(Command::Leave { id: 4 });
        s.handle(Command::SeatReleased {
            key: "acct-ann".into(),
        });
        assert_eq!(rejoins(&mut s, 5, "acct-ann"), vec![]);
        // Nor for someone else, nor after the room closed.
        s.handle(Command::SeatHeld {
            key: "acct-ann".into(),
            room,
        });
        assert_eq!(rejoins(&mut s, 6, "acct-cat"), vec![]);
        s.handle(Command::RoomClosed { room });
        assert_eq!(rejoins(&mut s, 7, "acct-ann"), vec![]);
    }
}
