//! The lobby: who is online, the quick-match queues, rooms waiting for a
//! friend, and the rooms in play. One task owns all of it (the actor
//! pattern); sessions talk to it through a cheap [`LobbyHandle`] over a
//! bounded channel and hear back on their own bounded inbox. Counts for the
//! lobby screen go out on a watch channel, at most a few times a second,
//! so ten thousand idle sessions cost no queue space.

pub mod compute;
pub mod room;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use rand::RngExt;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use tokio::sync::{mpsc, oneshot, watch};

use crate::engine::Level;
use crate::game::{Colour, GameKind, Rules};
use crate::session::remote::Stats;
use compute::Computer;
use room::{RoomCmd, RoomHandle, RoomId, RoomState, SeatSpec};

pub type SessionId = u64;

/// What the lobby and rooms tell a session.
#[derive(Debug)]
pub enum ToSession {
    /// Your display name (unique among those online).
    Name(String),
    /// Your room for a friend is open under this code.
    RoomCode(String),
    /// What you asked for did not work.
    LobbyError(String),
    /// You sit at a table now.
    Joined(RoomLink),
    /// Your move was refused.
    Rejected(String),
    /// Close the session with this message.
    Kick(String),
}

/// A session's link to its table.
#[derive(Debug)]
pub struct RoomLink {
    pub room: RoomHandle,
    pub state: watch::Receiver<Arc<RoomState>>,
}

/// Someone arriving in the lobby.
pub struct NewMember {
    pub id: SessionId,
    /// Wanted display name, already sanitised; `None` for a guest name
    /// (the one this key had last time, if any).
    pub name: Option<String>,
    /// SSH key fingerprint, for identified users.
    pub identity: Option<String>,
    pub inbox: mpsc::Sender<ToSession>,
}

/// Commands to the lobby task.
pub enum Cmd {
    Join {
        member: NewMember,
        reply: oneshot::Sender<String>,
    },
    /// The session is gone.
    Leave {
        id: SessionId,
    },
    SetColour {
        id: SessionId,
        colour: Option<Colour>,
    },
    SetName {
        id: SessionId,
        name: String,
    },
    QuickMatch {
        id: SessionId,
        kind: GameKind,
    },
    /// Stop seeking or close one's own room.
    Cancel {
        id: SessionId,
    },
    PlayComputer {
        id: SessionId,
        kind: GameKind,
        level: Level,
        /// Whether the person moves first (`None`: drawn at random).
        human_first: Option<bool>,
    },
    CreateRoom {
        id: SessionId,
        kind: GameKind,
    },
    JoinRoom {
        id: SessionId,
        code: String,
        /// The code came as the login name (`ssh CODE@host`): if no room
        /// has it, it was a name after all.
        from_login: bool,
    },
    /// From a room: this session left its table.
    LeftRoom {
        id: SessionId,
    },
    /// From a room: it has ended.
    RoomClosed {
        room: RoomId,
    },
    /// Stop every game (the host shuts down).
    Shutdown {
        reason: String,
    },
}

/// A cheap-to-clone handle to the lobby.
#[derive(Clone)]
pub struct LobbyHandle {
    tx: mpsc::Sender<Cmd>,
    stats: watch::Receiver<Stats>,
}

impl LobbyHandle {
    /// Joins; returns the display name given (unique), or `None` if the lobby is gone.
    pub async fn join(&self, member: NewMember) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Join { member, reply }).await.ok()?;
        rx.await.ok()
    }

    pub async fn send(&self, cmd: Cmd) {
        let _ = self.tx.send(cmd).await;
    }

    /// For synchronous code (a Drop); dropped if the lobby is overloaded.
    pub fn try_send(&self, cmd: Cmd) {
        let _ = self.tx.try_send(cmd);
    }

    /// The counts shown in the lobby, updated a few times a second.
    pub fn stats(&self) -> watch::Receiver<Stats> {
        self.stats.clone()
    }
}

/// Lobby settings.
#[derive(Clone)]
pub struct LobbySettings {
    pub games: Vec<Rules>,
    pub computer: Computer,
}

/// How many commands may wait for the lobby; senders wait beyond that
/// (backpressure rather than unbounded memory).
const LOBBY_QUEUE: usize = 4096;
/// How often the counts may change on screen.
const STATS_INTERVAL: Duration = Duration::from_millis(500);
/// Room codes use no vowels (so no user name such as `play` or `guest`
/// is ever taken for a code, and no word is spelled by accident) and no
/// characters that look alike (I/1, O/0). 28^4 = 614,656 codes.
const CODE_ALPHABET: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ23456789";
const CODE_LEN: usize = 4;

/// Starts the lobby task.
pub fn spawn(settings: LobbySettings) -> LobbyHandle {
    let (tx, rx) = mpsc::channel(LOBBY_QUEUE);
    let (stats_tx, stats_rx) = watch::channel(Stats::default());
    let lobby = Lobby {
        members: HashMap::new(),
        queues: HashMap::new(),
        hosted: HashMap::new(),
        started: HashMap::new(),
        rooms: HashMap::new(),
        settings,
        next_room: 1,
        stats_tx,
        dirty: true,
        rng: crate::engine::simple::make_rng(None),
        tx: tx.clone(),
        shutting_down: None,
        remembered: HashMap::new(),
    };
    tokio::spawn(lobby.run(rx));
    LobbyHandle {
        tx,
        stats: stats_rx,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    Idle,
    Seeking(GameKind),
    Hosting(String),
    Playing(RoomId),
}

struct Member {
    name: String,
    /// The colour this person would like.
    colour: Option<Colour>,
    identity: Option<String>,
    inbox: mpsc::Sender<ToSession>,
    status: Status,
}

struct Lobby {
    members: HashMap<SessionId, Member>,
    queues: HashMap<GameKind, VecDeque<SessionId>>,
    /// Open rooms for a friend: code -> (host, game).
    hosted: HashMap<String, (SessionId, GameKind)>,
    /// Friend rooms whose game has started, while it lasts: code -> room.
    started: HashMap<String, RoomId>,
    rooms: HashMap<RoomId, RoomHandle>,
    settings: LobbySettings,
    next_room: RoomId,
    stats_tx: watch::Sender<Stats>,
    dirty: bool,
    rng: SmallRng,
    tx: mpsc::Sender<Cmd>,
    shutting_down: Option<String>,
    /// The last name each key used, so a returning player gets it back.
    remembered: HashMap<String, String>,
}

/// Keys whose names are remembered, at most; beyond, the memory starts over.
const REMEMBERED_MAX: usize = 100_000;

/// Normalises a typed room code: upper case, no spaces or dashes.
pub fn normalise_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(16)
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether a character can be part of a room code (either case).
pub fn is_code_char(c: char) -> bool {
    c.is_ascii() && CODE_ALPHABET.contains(&(c as u8).to_ascii_uppercase())
}

/// Whether text has the shape of a room code (used for `ssh CODE@host`).
pub fn looks_like_code(text: &str) -> bool {
    text.len() == CODE_LEN
        && text
            .bytes()
            .all(|b| CODE_ALPHABET.contains(&b.to_ascii_uppercase()))
}

impl Lobby {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let mut tick = tokio::time::interval(STATS_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.command(cmd),
                    None => break,
                },
                _ = tick.tick() => {
                    if self.dirty {
                        self.dirty = false;
                        self.stats_tx.send_replace(self.stats());
                    }
                }
            }
        }
    }

    fn stats(&self) -> Stats {
        let playing = self
            .members
            .values()
            .filter(|m| matches!(m.status, Status::Playing(_)))
            .count();
        let waiting = self
            .settings
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
        }
    }

    fn tell(&self, id: SessionId, msg: ToSession) {
        if let Some(m) = self.members.get(&id) {
            // A session whose inbox is full is not reading; it will be
            // cut off by its own limits, so dropping here is safe.
            let _ = m.inbox.try_send(msg);
        }
    }

    fn name_taken(&self, name: &str, except: SessionId) -> bool {
        self.members
            .iter()
            .any(|(&id, m)| id != except && m.name.eq_ignore_ascii_case(name))
    }

    /// `name`, or `name2`, `name3`... whichever is free (never past the width bound).
    fn unique_name(&self, name: &str, id: SessionId) -> String {
        if !self.name_taken(name, id) {
            return name.to_string();
        }
        for n in 2..10_000u32 {
            let suffix = n.to_string();
            let room = crate::text::MAX_NAME_WIDTH.saturating_sub(suffix.len());
            let base = crate::text::sanitize(name, room);
            let candidate = format!("{base}{suffix}");
            if !self.name_taken(&candidate, id) {
                return candidate;
            }
        }
        format!("Guest{id}")
    }

    /// Takes a member out of any queue or hosted room.
    fn unqueue(&mut self, id: SessionId) {
        let Some(m) = self.members.get_mut(&id) else {
            return;
        };
        match std::mem::replace(&mut m.status, Status::Idle) {
            Status::Seeking(kind) => {
                if let Some(q) = self.queues.get_mut(&kind) {
                    q.retain(|&x| x != id);
                }
            }
            Status::Hosting(code) => {
                self.hosted.remove(&code);
            }
            other => m.status = other,
        }
        self.dirty = true;
    }

    fn rules(&self, kind: GameKind) -> Option<Rules> {
        self.settings
            .games
            .iter()
            .copied()
            .find(|r| r.kind() == kind)
    }

    /// The rules of a game on offer; otherwise tells `id` it is not.
    fn offered(&self, id: SessionId, kind: GameKind) -> Option<Rules> {
        let rules = self.rules(kind);
        if rules.is_none() {
            self.tell(
                id,
                ToSession::LobbyError(format!("{} is not offered here", kind.name())),
            );
        }
        rules
    }

    fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { member, reply } => {
                // The same key connecting again: the old session goes, so
                // the person finds their name again rather than a copy.
                if let Some(identity) = &member.identity {
                    let old: Vec<SessionId> = self
                        .members
                        .iter()
                        .filter(|(_, m)| m.identity.as_ref() == Some(identity))
                        .map(|(&id, _)| id)
                        .collect();
                    for id in old {
                        self.tell(
                            id,
                            ToSession::Kick("You connected again from another terminal.".into()),
                        );
                        self.remove(id);
                    }
                }
                let wanted = member
                    .name
                    .clone()
                    .or_else(|| {
                        member
                            .identity
                            .as_ref()
                            .and_then(|i| self.remembered.get(i).cloned())
                    })
                    .unwrap_or_else(|| self.guest_name(member.identity.as_deref()));
                let name = self.unique_name(&wanted, member.id);
                self.remember(member.identity.as_deref(), &name);
                self.members.insert(
                    member.id,
                    Member {
                        name: name.clone(),
                        colour: None,
                        identity: member.identity,
                        inbox: member.inbox,
                        status: Status::Idle,
                    },
                );
                self.dirty = true;
                if let Some(reason) = &self.shutting_down {
                    self.tell(member.id, ToSession::Kick(reason.clone()));
                }
                let _ = reply.send(name);
            }
            Cmd::Leave { id } => self.remove(id),
            Cmd::SetName { id, name } => {
                if crate::text::is_reserved_name(&name) {
                    self.tell(
                        id,
                        ToSession::LobbyError(
                            "that name is kept for the computer: choose another".into(),
                        ),
                    );
                    return;
                }
                if self.members.contains_key(&id) {
                    let unique = self.unique_name(&name, id);
                    let identity = self.members.get_mut(&id).and_then(|m| {
                        m.name = unique.clone();
                        m.identity.clone()
                    });
                    self.remember(identity.as_deref(), &unique);
                    if unique != name {
                        self.tell(
                            id,
                            ToSession::LobbyError(format!("{name} is taken: you are {unique}")),
                        );
                    }
                    self.tell(id, ToSession::Name(unique));
                }
            }
            Cmd::SetColour { id, colour } => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.colour = colour;
                }
            }
            Cmd::QuickMatch { id, kind } => self.quick_match(id, kind),
            Cmd::Cancel { id } => self.unqueue(id),
            Cmd::PlayComputer {
                id,
                kind,
                level,
                human_first,
            } => {
                self.unqueue(id);
                let Some(rules) = self.offered(id, kind) else {
                    return;
                };
                if !Level::for_game(kind).contains(&level) {
                    self.tell(
                        id,
                        ToSession::LobbyError(format!("{level} is not a level of {}", kind.name())),
                    );
                    return;
                }
                let human_first = human_first.unwrap_or_else(|| self.rng.random_bool(0.5));
                self.start_room(rules, id, None, Some(level), human_first);
            }
            Cmd::CreateRoom { id, kind } => {
                self.unqueue(id);
                if self.offered(id, kind).is_none() {
                    return;
                }
                let code = self.new_code();
                self.hosted.insert(code.clone(), (id, kind));
                if let Some(m) = self.members.get_mut(&id) {
                    m.status = Status::Hosting(code.clone());
                }
                self.tell(id, ToSession::RoomCode(code));
            }
            Cmd::JoinRoom {
                id,
                code,
                from_login,
            } => {
                let code = normalise_code(&code);
                match self.hosted.get(&code).copied() {
                    Some((host, _)) if host == id => self.tell(
                        id,
                        ToSession::LobbyError(
                            "that is your own room: give the code to a friend".into(),
                        ),
                    ),
                    Some((host, kind)) => {
                        self.unqueue(id);
                        self.unqueue(host);
                        if let Some(rules) = self.rules(kind) {
                            let host_first = self.rng.random_bool(0.5);
                            if let Some(room) =
                                self.start_room(rules, host, Some(id), None, host_first)
                            {
                                self.started.insert(code, room);
                            }
                        }
                    }
                    None if self.started.contains_key(&code) => self.tell(
                        id,
                        ToSession::LobbyError(format!(
                            "the room {code} is already playing: ask your friend for a new code"
                        )),
                    ),
                    // `ssh FWDX@host` with no such room: FWDX was a name.
                    None if from_login => {
                        self.command(Cmd::SetName {
                            id,
                            name: code.clone(),
                        });
                    }
                    None => self.tell(
                        id,
                        ToSession::LobbyError(format!(
                            "no room has the code {}: check it with your friend",
                            crate::text::sanitize_quote(&code, 8)
                        )),
                    ),
                }
            }
            Cmd::LeftRoom { id } => {
                if let Some(m) = self.members.get_mut(&id)
                    && matches!(m.status, Status::Playing(_))
                {
                    m.status = Status::Idle;
                    self.dirty = true;
                }
            }
            Cmd::RoomClosed { room } => {
                self.rooms.remove(&room);
                self.started.retain(|_, r| *r != room);
                for m in self.members.values_mut() {
                    if m.status == Status::Playing(room) {
                        m.status = Status::Idle;
                    }
                }
                self.dirty = true;
            }
            Cmd::Shutdown { reason } => {
                for room in self.rooms.values() {
                    room.try_send(RoomCmd::Abort {
                        reason: reason.clone(),
                    });
                }
                self.shutting_down = Some(reason);
            }
        }
    }

    fn remember(&mut self, identity: Option<&str>, name: &str) {
        if let Some(i) = identity {
            if self.remembered.len() >= REMEMBERED_MAX {
                self.remembered.clear();
            }
            self.remembered.insert(i.to_string(), name.to_string());
        }
    }

    /// A guest name: stable for a key (from its fingerprint), random otherwise.
    fn guest_name(&mut self, identity: Option<&str>) -> String {
        let n = match identity {
            Some(fp) => {
                fp.bytes()
                    .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
                    % 10_000
            }
            None => self.rng.random_range(0..10_000),
        };
        format!("Guest{n:04}")
    }

    fn remove(&mut self, id: SessionId) {
        self.unqueue(id);
        if self.members.remove(&id).is_some() {
            self.dirty = true;
        }
    }

    fn new_code(&mut self) -> String {
        loop {
            let code: String = (0..CODE_LEN)
                .map(|_| char::from(*CODE_ALPHABET.choose(&mut self.rng).unwrap_or(&b'A')))
                .collect();
            if !self.hosted.contains_key(&code) {
                return code;
            }
        }
    }

    fn quick_match(&mut self, id: SessionId, kind: GameKind) {
        self.unqueue(id);
        let Some(rules) = self.offered(id, kind) else {
            return;
        };
        let queue = self.queues.entry(kind).or_default();
        // The longest-waiting person still here.
        while let Some(other) = queue.pop_front() {
            if other != id && self.members.contains_key(&other) {
                if let Some(m) = self.members.get_mut(&other) {
                    m.status = Status::Idle;
                }
                let first_is_waiting = self.rng.random_bool(0.5);
                self.start_room(rules, other, Some(id), None, first_is_waiting);
                return;
            }
        }
        self.queues.entry(kind).or_default().push_back(id);
        if let Some(m) = self.members.get_mut(&id) {
            m.status = Status::Seeking(kind);
        }
        self.dirty = true;
    }

    /// Seats `a` and `b` (or the computer at `level`) at a new table;
    /// `a_first` says who moves first. Returns the room, if it opened.
    fn start_room(
        &mut self,
        rules: Rules,
        a: SessionId,
        b: Option<SessionId>,
        level: Option<Level>,
        a_first: bool,
    ) -> Option<RoomId> {
        let room_id = self.next_room;
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
        let seat_a = match self.members.get(&a) {
            Some(m) => SeatSpec::Human {
                id: a,
                name: m.name.clone(),
                colour: take_colour(&mut self.rng, m.colour),
                inbox: m.inbox.clone(),
            },
            None => return None,
        };
        let seat_b = match b {
            Some(b) => match self.members.get(&b) {
                Some(m) => SeatSpec::Human {
                    id: b,
                    name: m.name.clone(),
                    colour: take_colour(&mut self.rng, m.colour),
                    inbox: m.inbox.clone(),
                },
                None => return None,
            },
            None => SeatSpec::Computer {
                level: level.unwrap_or(Level::Medium),
                colour: take_colour(&mut self.rng, None),
            },
        };
        let seats = if a_first {
            [seat_a, seat_b]
        } else {
            [seat_b, seat_a]
        };
        let (handle, state) = room::spawn(
            room_id,
            rules,
            seats,
            self.tx.clone(),
            self.settings.computer.clone(),
        );
        for id in [Some(a), b].into_iter().flatten() {
            if let Some(m) = self.members.get_mut(&id) {
                m.status = Status::Playing(room_id);
            }
            self.tell(
                id,
                ToSession::Joined(RoomLink {
                    room: handle.clone(),
                    state: state.clone(),
                }),
            );
        }
        self.rooms.insert(room_id, handle);
        self.dirty = true;
        Some(room_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(normalise_code(" kb-2c "), "KB2C");
        assert!(looks_like_code("KB2C"));
        assert!(looks_like_code("kb2c"));
        assert!(!looks_like_code("KB0C"), "0 is not in the alphabet");
        for word in ["play", "user", "root", "demo", "test", "game"] {
            assert!(!looks_like_code(word), "{word}");
        }
    }
}
