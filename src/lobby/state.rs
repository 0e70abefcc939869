//! The lobby's decisions, without IO: who is online under which name, the
//! quick-match queues, rooms waiting for a friend, who sits at which table.
//! Like [`crate::session::Session`], it is a state machine: a command goes
//! in, [`Effect`]s come out (tell a session, open a room with these seats,
//! forget a session...), and the lobby task only carries them out. No tokio,
//! no channels; randomness (colours, who moves first, guest names, codes)
//! comes from an rng it owns, seedable for tests.

use std::collections::{HashMap, VecDeque};

use rand::RngExt;
use rand::rngs::SmallRng;

use super::codes::{new_code, normalise_code};
use super::naming::{self, Remembered};
use crate::engine::Level;
use crate::game::{Colour, GameKind, Rules};
use crate::presence::Stats;

pub type SessionId = u64;
pub type RoomId = u64;

/// Someone arriving in the lobby.
#[derive(Debug, Clone)]
pub struct Arrival {
    pub id: SessionId,
    /// Wanted display name, already sanitised; `None` for a guest name
    /// (the one this key had last time, if any).
    pub name: Option<String>,
    /// SSH key fingerprint, for identified users.
    pub identity: Option<String>,
}

/// What sessions (and rooms, and the host) ask of the lobby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
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

/// What the lobby tells one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Your display name (unique among those online).
    Name(String),
    /// Your room for a friend is open under this code.
    RoomCode(String),
    /// What you asked for did not work.
    LobbyError(String),
    /// You sit at this table now (opened by an earlier [`Effect::OpenRoom`]).
    Joined(RoomId),
    /// Close the session with this message.
    Kick(String),
}

/// Who takes a seat at a new table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    Human {
        id: SessionId,
        name: String,
        colour: Colour,
    },
    Computer {
        level: Level,
        colour: Colour,
    },
}

impl Seat {
    pub fn colour(&self) -> Colour {
        match self {
            Seat::Human { colour, .. } | Seat::Computer { colour, .. } => *colour,
        }
    }

    /// The session in this seat (`None`: the computer).
    pub fn id(&self) -> Option<SessionId> {
        match self {
            Seat::Human { id, .. } => Some(*id),
            Seat::Computer { .. } => None,
        }
    }
}

/// What the lobby task is to do, in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Send this to the session (dropped if its inbox is full: a session
    /// that does not read is cut off by its own limits).
    Tell { to: SessionId, notice: Notice },
    /// Start a table; `seats[0]` moves first.
    OpenRoom {
        room: RoomId,
        rules: Rules,
        seats: [Seat; 2],
    },
    /// The session has left the lobby: drop its inbox.
    Forget { id: SessionId },
    /// The room has ended: drop its handle.
    RoomGone { room: RoomId },
    /// Stop the game at every table, without a result.
    AbortRooms { reason: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    Idle,
    Seeking(GameKind),
    Hosting(String),
    Playing(RoomId),
}

#[derive(Debug)]
struct Member {
    name: String,
    /// The colour this person would like.
    colour: Option<Colour>,
    identity: Option<String>,
    status: Status,
}

/// Everything the lobby knows. Every collection is bounded by the people
/// online (one queue place, one hosted room, one table each), except the
/// names remembered by key, bounded by [`naming::REMEMBERED_MAX`].
pub struct LobbyState {
    games: Vec<Rules>,
    members: HashMap<SessionId, Member>,
    queues: HashMap<GameKind, VecDeque<SessionId>>,
    /// Open rooms for a friend: code -> (host, game).
    hosted: HashMap<String, (SessionId, GameKind)>,
    /// Friend rooms whose game has started, while it lasts: code -> room.
    started: HashMap<String, RoomId>,
    next_room: RoomId,
    /// The counts changed since they were last taken.
    dirty: bool,
    rng: SmallRng,
    shutting_down: Option<String>,
    remembered: Remembered,
    /// Effects of the command being handled.
    out: Vec<Effect>,
}

impl LobbyState {
    /// A lobby offering `games`.
    pub fn new(games: Vec<Rules>, rng: SmallRng) -> LobbyState {
        LobbyState {
            games,
            members: HashMap::new(),
            queues: HashMap::new(),
            hosted: HashMap::new(),
            started: HashMap::new(),
            next_room: 1,
            dirty: true,
            rng,
            shutting_down: None,
            remembered: Remembered::default(),
            out: Vec::new(),
        }
    }

    /// Someone arrives: returns the display name given (unique) and what to do.
    pub fn join(&mut self, arrival: Arrival) -> (String, Vec<Effect>) {
        let Arrival { id, name, identity } = arrival;
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
                    Notice::Kick("You connected again from another terminal.".into()),
                );
                self.remove(old);
            }
        }
        let wanted = name
            .or_else(|| {
                identity
                    .as_deref()
                    .and_then(|i| self.remembered.get(i))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| naming::guest_name(identity.as_deref(), &mut self.rng));
        let name = self.unique_name(&wanted, id);
        self.remembered.remember(identity.as_deref(), &name);
        self.members.insert(
            id,
            Member {
                name: name.clone(),
                colour: None,
                identity,
                status: Status::Idle,
            },
        );
        self.dirty = true;
        if let Some(reason) = self.shutting_down.clone() {
            self.tell(id, Notice::Kick(reason));
        }
        (name, std::mem::take(&mut self.out))
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Command) -> Vec<Effect> {
        match cmd {
            Command::Leave { id } => self.remove(id),
            Command::SetName { id, name } => self.set_name(id, name),
            Command::SetColour { id, colour } => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.colour = colour;
                }
            }
            Command::QuickMatch { id, kind } => self.quick_match(id, kind),
            Command::Cancel { id } => self.unqueue(id),
            Command::PlayComputer {
                id,
                kind,
                level,
                human_first,
            } => self.play_computer(id, kind, level, human_first),
            Command::CreateRoom { id, kind } => {
                self.unqueue(id);
                if self.offered(id, kind).is_some() {
                    let code = new_code(&mut self.rng, |c| self.hosted.contains_key(c));
                    self.hosted.insert(code.clone(), (id, kind));
                    if let Some(m) = self.members.get_mut(&id) {
                        m.status = Status::Hosting(code.clone());
                    }
                    self.tell(id, Notice::RoomCode(code));
                }
            }
            Command::JoinRoom {
                id,
                code,
                from_login,
            } => self.join_room(id, &code, from_login),
            Command::LeftRoom { id } => {
                if let Some(m) = self.members.get_mut(&id)
                    && matches!(m.status, Status::Playing(_))
                {
                    m.status = Status::Idle;
                    self.dirty = true;
                }
            }
            Command::RoomClosed { room } => {
                self.out.push(Effect::RoomGone { room });
                self.started.retain(|_, r| *r != room);
                for m in self.members.values_mut() {
                    if m.status == Status::Playing(room) {
                        m.status = Status::Idle;
                    }
                }
                self.dirty = true;
            }
            Command::Shutdown { reason } => {
                self.out.push(Effect::AbortRooms {
                    reason: reason.clone(),
                });
                self.shutting_down = Some(reason);
            }
        }
        std::mem::take(&mut self.out)
    }

    /// The counts for the lobby screen, if they changed since last taken.
    pub fn take_stats(&mut self) -> Option<Stats> {
        std::mem::take(&mut self.dirty).then(|| self.stats())
    }

    /// The counts for the lobby screen.
    pub fn stats(&self) -> Stats {
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
        }
    }

    /// The display name of a session in the lobby.
    pub fn name(&self, id: SessionId) -> Option<&str> {
        self.members.get(&id).map(|m| m.name.as_str())
    }

    fn tell(&mut self, to: SessionId, notice: Notice) {
        if self.members.contains_key(&to) {
            self.out.push(Effect::Tell { to, notice });
        }
    }

    fn unique_name(&self, name: &str, id: SessionId) -> String {
        naming::unique_name(name, id, |candidate| {
            self.members
                .iter()
                .any(|(&other, m)| other != id && m.name.eq_ignore_ascii_case(candidate))
        })
    }

    fn set_name(&mut self, id: SessionId, name: String) {
        if crate::text::is_reserved_name(&name) {
            self.tell(id, Notice::LobbyError(naming::RESERVED.into()));
            return;
        }
        if self.members.contains_key(&id) {
            let unique = self.unique_name(&name, id);
            let identity = self.members.get_mut(&id).and_then(|m| {
                m.name = unique.clone();
                m.identity.clone()
            });
            self.remembered.remember(identity.as_deref(), &unique);
            if unique != name {
                self.tell(
                    id,
                    Notice::LobbyError(format!("{name} is taken: you are {unique}")),
                );
            }
            self.tell(id, Notice::Name(unique));
        }
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

    fn remove(&mut self, id: SessionId) {
        self.unqueue(id);
        if self.members.remove(&id).is_some() {
            self.dirty = true;
            self.out.push(Effect::Forget { id });
        }
    }

    fn rules(&self, kind: GameKind) -> Option<Rules> {
        self.games.iter().copied().find(|r| r.kind() == kind)
    }

    /// The rules of a game on offer; otherwise tells `id` it is not.
    fn offered(&mut self, id: SessionId, kind: GameKind) -> Option<Rules> {
        let rules = self.rules(kind);
        if rules.is_none() {
            self.tell(
                id,
                Notice::LobbyError(format!("{} is not offered here", kind.name())),
            );
        }
        rules
    }

    fn play_computer(
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
        if !Level::for_game(kind).contains(&level) {
            self.tell(
                id,
                Notice::LobbyError(format!("{level} is not a level of {}", kind.name())),
            );
            return;
        }
        let human_first = human_first.unwrap_or_else(|| self.rng.random_bool(0.5));
        self.start_room(rules, id, None, Some(level), human_first);
    }

    fn join_room(&mut self, id: SessionId, code: &str, from_login: bool) {
        let code = normalise_code(code);
        match self.hosted.get(&code).copied() {
            Some((host, _)) if host == id => self.tell(
                id,
                Notice::LobbyError("that is your own room: give the code to a friend".into()),
            ),
            Some((host, kind)) => {
                self.unqueue(id);
                self.unqueue(host);
                if let Some(rules) = self.rules(kind) {
                    let host_first = self.rng.random_bool(0.5);
                    if let Some(room) = self.start_room(rules, host, Some(id), None, host_first) {
                        self.started.insert(code, room);
                    }
                }
            }
            None if self.started.contains_key(&code) => self.tell(
                id,
                Notice::LobbyError(format!(
                    "the room {code} is already playing: ask your friend for a new code"
                )),
            ),
            // `ssh FWDX@host` with no such room: FWDX was a name.
            None if from_login => self.set_name(id, code),
            None => self.tell(
                id,
                Notice::LobbyError(format!(
                    "no room has the code {}: check it with your friend",
                    crate::text::sanitize_quote(&code, 8)
                )),
            ),
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
        let seat_a = match self.members.get(&a) {
            Some(m) => Seat::Human {
                id: a,
                name: m.name.clone(),
                colour: take_colour(&mut self.rng, m.colour),
            },
            None => return None,
        };
        let seat_b = match b {
            Some(b) => match self.members.get(&b) {
                Some(m) => Seat::Human {
                    id: b,
                    name: m.name.clone(),
                    colour: take_colour(&mut self.rng, m.colour),
                },
                None => return None,
            },
            None => Seat::Computer {
                level: level.unwrap_or(Level::Medium),
                colour: take_colour(&mut self.rng, None),
            },
        };
        let seats = if a_first {
            [seat_a, seat_b]
        } else {
            [seat_b, seat_a]
        };
        self.out.push(Effect::OpenRoom { room, rules, seats });
        for id in [Some(a), b].into_iter().flatten() {
            if let Some(m) = self.members.get_mut(&id) {
                m.status = Status::Playing(room);
            }
            self.tell(id, Notice::Joined(room));
        }
        self.dirty = true;
        Some(room)
    }
}
