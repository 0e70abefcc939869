//! Watching: which rooms may be watched, people here watching a game here
//! or on another host, and ghost watchers for people watching from
//! elsewhere.

use super::*;

impl LobbyState {
    /// Whether anyone may watch the game at `room` (in play, and not a
    /// friend's room kept private).
    pub fn watchable(&self, room: RoomId) -> bool {
        self.public.get(&room).copied().unwrap_or(false)
    }

    pub(super) fn watch(&mut self, id: SessionId, room: RoomId) {
        let seated = self
            .members
            .get(&id)
            .is_some_and(|m| m.status == Status::Playing(room));
        match self.public.get(&room) {
            _ if seated => {
                self.tell(
                    id,
                    Notice::LobbyError(crate::protocol::Refusal::YouPlayThere),
                );
            }
            None => self.tell(id, Notice::LobbyError(crate::protocol::Refusal::GameEnded)),
            Some(false) => self.tell(id, Notice::LobbyError(crate::protocol::Refusal::Private)),
            Some(true) => {
                self.unqueue(id);
                if let Some(m) = self.members.get_mut(&id) {
                    m.status = Status::Watching(room);
                }
                self.dirty = true;
                self.out.push(Effect::Watch { room, id });
            }
        }
    }

    /// Cluster mode: this session would watch a game on another host:
    /// its name, if it is free to (in the lobby, not at a table).
    pub fn watch_elsewhere(&mut self, id: SessionId) -> Option<String> {
        self.unqueue(id);
        let m = self.members.get_mut(&id)?;
        if m.status != Status::Idle {
            return None;
        }
        m.status = Status::Watching(ELSEWHERE);
        let name = m.name.clone();
        self.dirty = true;
        Some(name)
    }

    /// Cluster mode: someone on another host would watch the game at
    /// `room`: the session id they watch as, or why not (for them).
    pub fn ghost_watcher(&mut self, room: RoomId) -> Result<SessionId, Refusal> {
        match self.public.get(&room) {
            None => Err(Refusal::GameEnded),
            Some(false) => Err(Refusal::Private),
            Some(true) => {
                let ghost = self.next_ghost;
                self.next_ghost += 1;
                Ok(ghost)
            }
        }
    }

    /// A session id for a seat whose player is elsewhere (a visitor, a
    /// player not back yet).
    pub fn new_ghost(&mut self) -> SessionId {
        let ghost = self.next_ghost;
        self.next_ghost += 1;
        ghost
    }
}

#[cfg(test)]
mod tests {
    use crate::lobby::state::testing::*;

    #[test]
    fn in_cluster_mode_games_here_are_watched_from_elsewhere_and_people_here_watch_elsewhere() {
        let mut s = lobby(43).with_cluster(true);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        quick(&mut s, 1, C4);
        let (room, _, _) = opened(&quick(&mut s, 2, C4));
        // Someone on another host watches as a ghost of their own.
        let one = s.ghost_watcher(room).expect("a quick match may be watched");
        let two = s.ghost_watcher(room).expect("and by more than one");
        assert!(one >= VISITOR_IDS && two >= VISITOR_IDS && one != two);
        assert_eq!(s.ghost_watcher(room + 100), Err(Refusal::GameEnded));
        // A friend's room whose host allows no watchers is private.
        named(&mut s, 3, "cy");
        named(&mut s, 4, "dee");
        let effects = s.handle(Command::CreateRoom {
            id: 3,
            kind: C4,
            rated: false,
        });
        let code = effects
            .iter()
            .find_map(|e| match e {
                Effect::Tell {
                    notice: Notice::RoomCode(code),
                    ..
                } => Some(code.clone()),
                _ => None,
            })
            .expect("a code");
        let (private, _, _) = opened(&s.handle(Command::JoinRoom {
            id: 4,
            code,
            from_login: false,
        }));
        assert_eq!(s.ghost_watcher(private), Err(Refusal::Private));
        // Someone here watches a game elsewhere: only from the lobby, once.
        named(&mut s, 5, "eve");
        assert_eq!(s.watch_elsewhere(5), Some("eve".into()));
        assert_eq!(s.watch_elsewhere(5), None);
        assert_eq!(s.watch_elsewhere(1), None, "a player is at a table");
        let eve = s.local_people().into_iter().find(|p| p.id == 5).unwrap();
        assert_eq!(eve.doing, Doing::Watching);
        s.handle(Command::LeftRoom { id: 5 });
        assert_eq!(s.watch_elsewhere(5), Some("eve".into()));
    }
}
