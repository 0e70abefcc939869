//! The lobby's decisions, without IO: who is online under which name, the
//! quick-match queues, rooms waiting for a friend, who sits at which table.
//! Like [`crate::session::Session`], it is a state machine: a command goes
//! in, [`Effect`]s come out (tell a session, open a room with these seats,
//! forget a session...), and the lobby task only carries them out. No tokio,
//! no channels; randomness (colours, who moves first, guest names, codes)
//! comes from an rng it owns, seedable for tests.
//!
//! One [`LobbyState`], its methods by concept: [`online`] (who is here and
//! their names), [`quick_match`], [`friend_rooms`], [`invitations`],
//! [`watching`], [`counts`], [`tables`] (opening a table) and [`cluster`]
//! (people and rooms on other hosts); [`commands`] holds what goes in and
//! comes out.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use rand::RngExt;
use rand::rngs::SmallRng;

use super::codes::{RESUME_LEN, new_code, new_code_of, normalise_code};
use super::naming::{self, Remembered};
use crate::clock::TimeControl;
use crate::engine::Level;
use crate::game::{Colour, GameKind, Rules};
use crate::presence::{Nearest, Stats, wait_for_gap};
use crate::table::Opening;
use crate::term::board::Theme;

mod cluster;
mod commands;
mod counts;
mod friend_rooms;
pub(super) mod invitations;
mod online;
mod quick_match;
mod tables;
#[cfg(test)]
mod testing;
mod watching;

pub use cluster::{AFAR_IDS, Afar, Seeker, VISITOR_IDS, Visitor};
pub use commands::{Ask, Command, Effect, NewTable, Notice, Occupant};
use invitations::Invite;
pub use online::PEOPLE_LISTED;

pub type SessionId = u64;
pub type RoomId = u64;

/// Someone arriving in the lobby.
#[derive(Debug, Clone, Default)]
pub struct Arrival {
    pub id: SessionId,
    /// Wanted display name, already sanitised; `None` for a guest name
    /// (the one this key had last time, if any).
    pub name: Option<String>,
    /// SSH key fingerprint, for identified users.
    pub identity: Option<String>,
    /// The player's account (players with a key), and their ratings.
    pub account: Option<Player>,
}

/// What the lobby knows of a player with an account.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Player {
    /// The account's id in the store.
    pub account: String,
    /// Ratings by game ([`rating_index`]), rounded.
    pub ratings: [Option<u32>; 2],
}

impl Player {
    pub fn rating(&self, kind: GameKind) -> Option<u32> {
        rating_index(kind).and_then(|i| self.ratings[i])
    }
}

/// The room a person playing at a table on another host is "in".
pub const ELSEWHERE: RoomId = 0;

/// The index of a rated game in per-game rating arrays; `None` for a game
/// that is never rated (renju).
pub fn rating_index(kind: GameKind) -> Option<usize> {
    kind.rating_index()
}

/// Whether games with these rules move ratings: the standard boards only
/// (Connect Four 7x6, Gomoku 15x15 freestyle).
pub fn rated_rules(rules: &Rules) -> bool {
    rules.is_rated()
}

pub use crate::presence::rating_window;

pub use crate::protocol::{Challenge, Doing, Invitation, Person, Refusal};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    Idle,
    Seeking(GameKind),
    Hosting(String),
    Playing(RoomId),
    Watching(RoomId),
}

/// A room for a friend, waiting for them.
#[derive(Debug, Clone, Copy)]
struct Hosted {
    host: SessionId,
    kind: GameKind,
    /// The host chose a rated game.
    rated: bool,
    /// The host lets people watch.
    watchers: bool,
    /// The game's time control (none by default).
    clock: Option<TimeControl>,
    /// How its games open (standard by default).
    opening: Opening,
}

#[derive(Debug)]
struct Member {
    name: String,
    /// The colour this person would like.
    colour: Option<Colour>,
    identity: Option<String>,
    account: Option<Player>,
    /// When they signed in (Unix milliseconds): of one person's sessions
    /// on two hosts, the newer stays.
    since_ms: i64,
    status: Status,
    /// Takes invitations.
    invitable: bool,
    /// When this person's last invitations were sent (the last minute).
    invited_at: VecDeque<Instant>,
    /// The stones (`[t]`) and language (`[L]`) this person chose, if
    /// they did this visit or came back by a resume code that kept them.
    prefs: Prefs,
}

/// What a person chose for their screens: the stones (`[t]`) and the
/// language (`[L]`); a guest's resume codes keep them (an account keeps
/// them in the store).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Prefs {
    pub stones: Option<Theme>,
    pub lang: Option<crate::lang::Lang>,
}

impl Prefs {
    fn is_empty(&self) -> bool {
        *self == Prefs::default()
    }
}

impl Member {
    /// What this person is doing, as the lists say it.
    fn doing(&self) -> Doing {
        match self.status {
            Status::Idle => Doing::Lobby,
            Status::Seeking(kind) => Doing::Seeking(kind),
            Status::Hosting(_) => Doing::Hosting,
            Status::Playing(_) => Doing::Playing,
            Status::Watching(_) => Doing::Watching,
        }
    }

    /// Who this is, as another host needs it (`rules`: of the game sought).
    fn seeker(&self, rules: Option<&Rules>) -> Seeker {
        Seeker {
            name: self.name.clone(),
            account: self.account.as_ref().map(|p| p.account.clone()),
            rating: rules.and_then(|r| self.rated(r)),
            ratings: self.account.as_ref().map_or([None; 2], |p| p.ratings),
            colour: self.colour,
        }
    }

    /// The rating that counts in a rated game of `rules`, if it would be one.
    fn rated(&self, rules: &Rules) -> Option<u32> {
        if !rated_rules(rules) {
            return None;
        }
        let p = self.account.as_ref()?;
        Some(p.rating(rules.kind()).unwrap_or(1500))
    }
}

/// Everything the lobby knows. Every collection is bounded by the people
/// online (one queue place, one hosted room, one table each), except the
/// names remembered by key, bounded by [`naming::REMEMBERED_MAX`].
pub struct LobbyState {
    /// When each seeker paired since last taken started to seek (for the
    /// quick-match wait operators see).
    paired_since: Vec<Instant>,
    /// Cluster mode: the other hosts' counts.
    remote: Stats,
    /// Cluster mode: the people on the other hosts.
    /// Cluster mode: the people on the other hosts, as their hosts
    /// announced them (`host` theirs, `id` their session there).
    remote_people: Vec<Person>,
    /// Cluster mode: the ids given to people on other hosts (see
    /// [`AFAR_IDS`]), kept while listed or in an invitation.
    afar: HashMap<SessionId, Afar>,
    afar_ids: HashMap<(String, SessionId), SessionId>,
    next_afar: SessionId,
    games: Vec<Rules>,
    members: HashMap<SessionId, Member>,
    /// How many members have each name, by the name in ASCII lower case
    /// (names are unique regardless of case): finding a free name must not
    /// read every member's once per join.
    names: HashMap<String, u32>,
    /// Seekers by game, longest waiting first, with when they started.
    queues: HashMap<GameKind, VecDeque<(SessionId, Instant)>>,
    /// Each queue as its seekers were last told who is nearest
    /// ([`Notice::Waiting`]), and what each was told.
    waiting_told: HashMap<GameKind, Vec<(SessionId, Instant)>>,
    waiting_sent: HashMap<SessionId, Nearest>,
    /// The time, as last told by [`LobbyState::tick`].
    now: Instant,
    /// How long a seeker waits before the computer is offered: by then
    /// any two seekers are paired, whatever their ratings.
    match_wait: Duration,
    /// Open rooms for a friend, by code.
    hosted: HashMap<String, Hosted>,
    /// The rooms in play, and whether anyone may watch (friend rooms
    /// only when their host allows it).
    public: HashMap<RoomId, bool>,
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
    /// Quick matches' time controls, by game (none: no clock).
    clocks: HashMap<GameKind, TimeControl>,
    /// Accounts whose connection dropped mid-game, and the room keeping
    /// their seat.
    held: HashMap<String, RoomId>,
    /// Guests' resume codes: the room and the session seated with it.
    resumes: HashMap<String, (RoomId, SessionId)>,
    /// The stones the guest holding a resume code chose (`[t]`), by code:
    /// given back with the seat. In memory only, like the codes (a guest
    /// has nothing else that lasts); gone with the room.
    resume_prefs: HashMap<String, Prefs>,
    /// Invitations waiting for answers (bounded by the people online times
    /// [`invitations::OPEN_PER_SENDER`]).
    invites: Vec<Invite>,
    /// Cluster mode: quick match looks on the other hosts too.
    cluster: bool,
    /// Visitors being seated by [`LobbyState::open_across`].
    visitors: HashMap<SessionId, Visitor>,
    next_ghost: SessionId,
}

impl LobbyState {
    /// `id` chose stones or a language: kept for this visit and with
    /// every resume code `id` holds.
    fn set_prefs(&mut self, id: SessionId, change: impl Fn(&mut Prefs)) {
        if let Some(m) = self.members.get_mut(&id) {
            change(&mut m.prefs);
        }
        for (code, (_, holder)) in &self.resumes {
            if *holder == id {
                change(self.resume_prefs.entry(code.clone()).or_default());
            }
        }
    }

    /// A lobby offering `games`.
    pub fn new(games: Vec<Rules>, rng: SmallRng) -> LobbyState {
        LobbyState {
            games,
            members: HashMap::new(),
            names: HashMap::new(),
            queues: HashMap::new(),
            waiting_told: HashMap::new(),
            waiting_sent: HashMap::new(),
            now: Instant::now(),
            match_wait: Duration::from_secs(30),
            hosted: HashMap::new(),
            public: HashMap::new(),
            started: HashMap::new(),
            next_room: 1,
            dirty: true,
            rng,
            shutting_down: None,
            remembered: Remembered::default(),
            out: Vec::new(),
            clocks: HashMap::new(),
            held: HashMap::new(),
            resumes: HashMap::new(),
            resume_prefs: HashMap::new(),
            invites: Vec::new(),
            paired_since: Vec::new(),
            remote: Stats::default(),
            remote_people: Vec::new(),
            afar: HashMap::new(),
            afar_ids: HashMap::new(),
            next_afar: AFAR_IDS,
            cluster: false,
            visitors: HashMap::new(),
            next_ghost: VISITOR_IDS,
        }
    }

    /// Sets the quick matches' time controls.
    pub fn with_clocks(mut self, clocks: HashMap<GameKind, TimeControl>) -> LobbyState {
        self.clocks = clocks;
        self
    }

    /// Sets the time now (the lobby task's clock: see `lobby::now`), also
    /// back from what `new` read, where [`LobbyState::set_now`] only moves
    /// it on.
    pub fn with_now(mut self, now: Instant) -> LobbyState {
        self.now = now;
        self
    }

    /// Sets the quick-match wait (see [`rating_window`]).
    pub fn with_match_wait(mut self, wait: Duration) -> LobbyState {
        self.match_wait = wait;
        self
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Command) -> Vec<Effect> {
        // A session that is gone (replaced by the same key, say) may still
        // have sent requests: they would leave a ghost in a queue or a room
        // code nobody can use, so they are dropped.
        if let Some(id) = cmd.asker()
            && !self.members.contains_key(&id)
        {
            return Vec::new();
        }
        match cmd {
            Command::Leave { id } => self.remove(id),
            Command::SetName { id, name } => self.set_name(id, name),
            Command::SetColour { id, colour } => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.colour = colour;
                }
            }
            Command::QuickMatch { id, kind } => self.quick_match(id, kind),
            Command::Rated { id, kind, rating } => {
                if let (Some(p), Some(i)) = (
                    self.members.get_mut(&id).and_then(|m| m.account.as_mut()),
                    rating_index(kind),
                ) {
                    p.ratings[i] = Some(rating);
                }
            }
            Command::Cancel { id } => self.unqueue(id),
            Command::PlayComputer {
                id,
                kind,
                level,
                human_first,
            } => self.play_computer(id, kind, level, human_first),
            Command::CreateRoom { id, kind, rated } => self.create_room(id, kind, rated),
            Command::JoinRoom {
                id,
                code,
                from_login,
            } => self.join_room(id, &code, from_login),
            Command::LeftRoom { id } => {
                if let Some(m) = self.members.get_mut(&id)
                    && matches!(m.status, Status::Playing(_) | Status::Watching(_))
                {
                    m.status = Status::Idle;
                    self.dirty = true;
                }
            }
            Command::LeftElsewhere { id } => {
                if let Some(m) = self.members.get_mut(&id)
                    && matches!(
                        m.status,
                        Status::Playing(ELSEWHERE) | Status::Watching(ELSEWHERE)
                    )
                {
                    m.status = Status::Idle;
                    self.dirty = true;
                }
            }
            Command::SeatHeld { key, room } => {
                self.held.insert(key, room);
            }
            Command::SeatReleased { key } => {
                self.held.remove(&key);
            }
            Command::SignedInElsewhere {
                account,
                identity,
                at_ms,
            } => {
                let old: Vec<SessionId> = self
                    .members
                    .iter()
                    .filter(|(_, m)| {
                        m.since_ms <= at_ms
                            && (account.is_some()
                                && m.account.as_ref().map(|p| &p.account) == account.as_ref()
                                || identity.is_some() && m.identity == identity)
                    })
                    .map(|(&id, _)| id)
                    .collect();
                for old in old {
                    self.tell(
                        old,
                        Notice::Replaced("You signed in again on another host.".into()),
                    );
                    self.remove(old);
                }
            }
            Command::Fenced { id, key } => {
                if let Some(m) = self.members.get_mut(&id)
                    && matches!(m.status, Status::Playing(r) if r != ELSEWHERE)
                {
                    m.status = Status::Idle;
                    self.dirty = true;
                    self.out.push(Effect::Across(Ask::FindSeat { id, key }));
                }
            }
            Command::TakeSeat { id, room, key } => {
                // Not at a table here (a visitor's table elsewhere that
                // went is left for this one).
                let free = self.members.get(&id).is_some_and(|m| match m.status {
                    Status::Playing(r) => r == ELSEWHERE,
                    Status::Watching(_) => false,
                    _ => true,
                });
                if free && room != ELSEWHERE {
                    self.out.push(Effect::Rejoin { room, key, id });
                }
            }
            Command::Rejoined { id, room, key } => {
                // A guest's code now belongs to the new session.
                if let Some(entry) = self.resumes.get_mut(&key) {
                    entry.1 = id;
                }
                // With the stones and language the guest chose before.
                if let Some(&prefs) = self.resume_prefs.get(&key)
                    && let Some(m) = self.members.get_mut(&id)
                {
                    m.prefs = prefs;
                    self.tell(id, Notice::Prefs(prefs));
                }
                if self.members.contains_key(&id) {
                    self.unqueue(id);
                    if let Some(m) = self.members.get_mut(&id) {
                        m.status = Status::Playing(room);
                    }
                    self.tell(id, Notice::Joined(room));
                    self.dirty = true;
                }
            }
            Command::Watch { id, room } => self.watch(id, room),
            Command::AllowWatchers { id, allow } => {
                if let Some(Status::Hosting(code)) = self.members.get(&id).map(|m| &m.status)
                    && let Some(h) = self.hosted.get_mut(code)
                {
                    h.watchers = allow;
                }
            }
            Command::SetRoomClock { id, clock } => {
                if let Some(Status::Hosting(code)) = self.members.get(&id).map(|m| &m.status)
                    && let Some(h) = self.hosted.get_mut(code)
                {
                    h.clock = clock;
                }
            }
            Command::SetRoomOpening { id, opening } => {
                if let Some(Status::Hosting(code)) = self.members.get(&id).map(|m| &m.status)
                    && let Some(h) = self.hosted.get_mut(code)
                {
                    h.opening = opening;
                }
            }
            Command::Challenge { id, challenge } => self.challenge(id, challenge),
            Command::AnswerChallenge { id, from, accept } => {
                self.answer_challenge(id, from, accept)
            }
            Command::SetStones { id, stones } => self.set_prefs(id, |p| p.stones = Some(stones)),
            Command::SetLanguage { id, lang } => self.set_prefs(id, |p| p.lang = Some(lang)),
            Command::SetInvitations { id, on } => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.invitable = on;
                }
                if !on {
                    self.withdraw_invites_to(id, crate::protocol::news::LapseWhy::NoInvitationsNow);
                }
            }
            Command::RoomClosed { room } => {
                self.out.push(Effect::RoomGone { room });
                self.public.remove(&room);
                self.started.retain(|_, r| *r != room);
                self.held.retain(|_, r| *r != room);
                self.resumes.retain(|_, (r, _)| *r != room);
                let resumes = &self.resumes;
                self.resume_prefs
                    .retain(|code, _| resumes.contains_key(code));
                for m in self.members.values_mut() {
                    if m.status == Status::Playing(room) || m.status == Status::Watching(room) {
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
        self.tell_waiters();
        std::mem::take(&mut self.out)
    }

    fn tell(&mut self, to: SessionId, notice: Notice) {
        if self.members.contains_key(&to) {
            self.out.push(Effect::Tell { to, notice });
        }
    }

    /// Effects of the direct calls above that are still to be carried out.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;

    #[test]
    fn commands_from_a_session_that_left_are_ignored() {
        let mut s = lobby(16);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        s.handle(Command::Leave { id: 1 });
        assert_eq!(s.handle(Command::Leave { id: 1 }), vec![], "leaving twice");
        for cmd in [
            Command::SetName {
                id: 1,
                name: "zed".into(),
            },
            Command::SetName {
                id: 1,
                name: "computer".into(),
            },
            Command::QuickMatch { id: 1, kind: C4 },
            Command::CreateRoom {
                id: 1,
                kind: C4,
                rated: false,
            },
            Command::PlayComputer {
                id: 1,
                kind: C4,
                level: Level::Easy,
                human_first: None,
            },
        ] {
            assert_eq!(s.handle(cmd.clone()), vec![], "{cmd:?}");
        }
        assert_eq!(s.stats().waiting_for(C4), 0);
        assert_eq!(quick(&mut s, 2, C4), vec![], "bob waits: nobody is there");
        assert_eq!(s.stats().online, 1);
    }

    #[test]
    fn shutdown_aborts_the_rooms_and_turns_newcomers_away() {
        let mut s = lobby(18);
        named(&mut s, 1, "ann");
        let reason = "The host is shutting down.".to_string();
        assert_eq!(
            s.handle(Command::Shutdown {
                reason: reason.clone()
            }),
            vec![Effect::AbortRooms {
                reason: reason.clone()
            }]
        );
        let (name, effects) = s.join(Arrival {
            id: 2,
            name: Some("bob".into()),
            account: None,
            identity: None,
        });
        assert_eq!(name, "bob");
        assert_eq!(effects, vec![tell(2, Notice::Kick(reason))]);
    }

    #[test]
    fn the_same_seed_makes_the_same_decisions() {
        let run = |seed| {
            let mut s = lobby(seed);
            named(&mut s, 1, "ann");
            named(&mut s, 2, "bob");
            let code = create(&mut s, 1);
            let effects = join_code(&mut s, 2, &code, false);
            (code, effects)
        };
        assert_eq!(run(42), run(42));
    }
}
