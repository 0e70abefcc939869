//! The lobby's decisions, without IO: who is online under which name, the
//! quick-match queues, rooms waiting for a friend, who sits at which table.
//! Like [`crate::session::Session`], it is a state machine: a command goes
//! in, [`Effect`]s come out (tell a session, open a room with these seats,
//! forget a session...), and the lobby task only carries them out. No tokio,
//! no channels; randomness (colours, who moves first, guest names, codes)
//! comes from an rng it owns, seedable for tests.

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

/// Why `name` cannot be invited now (taking invitations or not, doing
/// `doing`), if they cannot.
fn not_free(name: &str, invitable: bool, doing: Doing) -> Option<Refusal> {
    let name = name.to_string();
    if !invitable {
        return Some(Refusal::NoInvitations(name));
    }
    match doing {
        Doing::Lobby | Doing::Seeking(_) => None,
        Doing::Playing => Some(Refusal::Playing(name)),
        Doing::Watching => Some(Refusal::Watching(name)),
        Doing::Hosting => Some(Refusal::Hosting(name)),
    }
}

/// The room a person playing at a table on another host is "in".
pub const ELSEWHERE: RoomId = 0;

/// The seekers of a game told who is nearest to them (the longest
/// waiting), and the others each looks among: bounds the work per change.
pub const MAX_TOLD_WAITING: usize = 200;

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
    /// From a room: a rated game moved this player's rating.
    Rated {
        id: SessionId,
        kind: GameKind,
        rating: u32,
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
        /// The host chose a rated game (it is, when both players have
        /// accounts and the board is standard).
        rated: bool,
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
    /// Cluster mode: this session left its table on another host (and is
    /// not at a table here since).
    LeftElsewhere {
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
    /// From a room: a player lost the connection mid-game; the seat is
    /// kept for the grace time. `key`: the account, or a guest's resume code.
    SeatHeld {
        key: String,
        room: RoomId,
    },
    /// From a room: that seat is no longer kept (the player came back,
    /// the grace ran out, the game ended).
    SeatReleased {
        key: String,
    },
    /// Cluster mode: someone signed in on another host with this account
    /// or key at `at_ms`: their sessions here from before then end.
    SignedInElsewhere {
        account: Option<String>,
        identity: Option<String>,
        at_ms: i64,
    },
    /// Cluster mode, from a room: another host runs its game now; the
    /// session `id` here looks for its seat there (by `key`).
    Fenced {
        id: SessionId,
        key: String,
    },
    /// Cluster mode: a seat of `key`'s at the table `room` here is
    /// held by a visitor from another host (that host may be gone): the
    /// session arriving with that key takes it.
    TakeSeat {
        id: SessionId,
        room: RoomId,
        key: String,
    },
    /// From a room: this session has taken a seat back (by its account
    /// or a resume code: `key`).
    Rejoined {
        id: SessionId,
        room: RoomId,
        key: String,
    },
    /// Watch the game at this table.
    Watch {
        id: SessionId,
        room: RoomId,
    },
    /// The host of a room for a friend lets people watch its game (or not).
    AllowWatchers {
        id: SessionId,
        allow: bool,
    },
    /// The host of a room for a friend sets its time control.
    SetRoomClock {
        id: SessionId,
        clock: Option<TimeControl>,
    },
    /// The host of a room for a friend sets how its games open.
    SetRoomOpening {
        id: SessionId,
        opening: Opening,
    },
    /// Invite another person to a game.
    Challenge {
        id: SessionId,
        to: SessionId,
        kind: GameKind,
        /// Rated, if both have accounts and the board is standard.
        rated: bool,
        clock: Option<TimeControl>,
        opening: Opening,
    },
    /// Accept or decline the invitation from `from`.
    AnswerChallenge {
        id: SessionId,
        from: SessionId,
        accept: bool,
    },
    /// Take invitations, or not.
    SetInvitations {
        id: SessionId,
        on: bool,
    },
    /// The person chose these stones (`[t]`): a guest's resume codes keep
    /// them (an account keeps them in the store).
    SetStones {
        id: SessionId,
        stones: Theme,
    },
}

impl Command {
    /// The session asking for something for itself, if any.
    fn asker(&self) -> Option<SessionId> {
        match *self {
            Command::SetColour { id, .. }
            | Command::SetName { id, .. }
            | Command::QuickMatch { id, .. }
            | Command::Cancel { id }
            | Command::PlayComputer { id, .. }
            | Command::CreateRoom { id, .. }
            | Command::JoinRoom { id, .. }
            | Command::Watch { id, .. }
            | Command::AllowWatchers { id, .. }
            | Command::SetRoomClock { id, .. }
            | Command::SetRoomOpening { id, .. }
            | Command::Challenge { id, .. }
            | Command::AnswerChallenge { id, .. }
            | Command::SetInvitations { id, .. }
            | Command::SetStones { id, .. }
            | Command::TakeSeat { id, .. } => Some(id),
            Command::Leave { .. }
            | Command::Rated { .. }
            | Command::LeftRoom { .. }
            | Command::LeftElsewhere { .. }
            | Command::RoomClosed { .. }
            | Command::Shutdown { .. }
            | Command::SeatHeld { .. }
            | Command::SeatReleased { .. }
            | Command::SignedInElsewhere { .. }
            | Command::Fenced { .. }
            | Command::Rejoined { .. } => None,
        }
    }
}

/// What the lobby tells one session, as the pure core says it. The lobby
/// task hands it on as a [`super::ToSession`], which is not used here
/// because it carries channels (a seat is [`Notice::Joined`] by room id
/// here, a link to the room's state there) and this core has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Your display name (unique among those online).
    Name(String),
    /// Your room for a friend is open under this code.
    RoomCode(String),
    /// What you asked for did not work.
    LobbyError(String),
    /// The login name had the shape of a room code and no room has it.
    /// Not a name yet: the session checks it with the store (an account
    /// keeps its own name; a guest may not take an account's name).
    NoRoomForLogin(String),
    /// You sit at this table now (opened by an earlier [`Effect::OpenRoom`]).
    Joined(RoomId),
    /// Close the session with this message.
    Kick(String),
    /// Close the session: the same key connected again. A seat it holds
    /// is kept for the new session (not forfeited).
    Replaced(String),
    /// Something for this person to read, wherever they are.
    Said(String),
    /// Someone invites you to a game.
    Invited(Invitation),
    /// The invitation from this session is gone (lapsed, withdrawn).
    InvitationGone { from: SessionId },
    /// The stones this guest chose before, back at their table by a
    /// resume code.
    Stones(Theme),
    /// You wait in quick match for `kind`: the other seeker here nearest
    /// to being paired with you, if any (see [`LobbyState::nearest`]).
    Waiting {
        kind: GameKind,
        nearest: Option<Nearest>,
    },
}

pub use crate::protocol::{Doing, Invitation, Person, Refusal};

/// How long an invitation waits for its answer.
pub const INVITATION_LAPSE: Duration = Duration::from_secs(60);
/// Invitations one person may send a minute.
pub const INVITATIONS_PER_MINUTE: usize = 5;
/// Invitations of one sender waiting for answers at once.
pub const OPEN_PER_SENDER: usize = 3;
/// Invitations waiting for one recipient at once.
pub const OPEN_PER_RECIPIENT: usize = 10;
/// Most people the who-is-online list holds.
pub const PEOPLE_LISTED: usize = 500;

/// An invitation waiting for its answer: the lobby's own note of it
/// (who invited whom to what, and since when). It never leaves the lobby;
/// what the recipient is sent is an [`Invitation`].
#[derive(Debug, Clone)]
struct Invite {
    from: SessionId,
    to: SessionId,
    kind: GameKind,
    rated: bool,
    clock: Option<TimeControl>,
    opening: Opening,
    at: Instant,
}

/// Who takes a seat at a new table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Occupant {
    Human {
        id: SessionId,
        name: String,
        colour: Colour,
        /// The account, for a player who has one.
        account: Option<String>,
        /// The rating shown at the table (a rated game).
        rating: Option<u32>,
        /// A guest's resume code: connecting again with it (or typing it
        /// in the lobby) takes the seat back after a dropped connection.
        resume: Option<String>,
    },
    Computer {
        level: Level,
        colour: Colour,
    },
}

impl Occupant {
    #[cfg(test)]
    pub fn colour(&self) -> Colour {
        match self {
            Occupant::Human { colour, .. } | Occupant::Computer { colour, .. } => *colour,
        }
    }

    /// The session in this seat (`None`: the computer).
    #[cfg(test)]
    pub fn id(&self) -> Option<SessionId> {
        match self {
            Occupant::Human { id, .. } => Some(*id),
            Occupant::Computer { .. } => None,
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
        seats: [Occupant; 2],
        /// Whether the game moves the players' ratings.
        rated: bool,
        /// The game's time control (`None`: no clock).
        clock: Option<TimeControl>,
        /// How the game opens.
        opening: Opening,
    },
    /// The session has left the lobby: drop its inbox.
    Forget { id: SessionId },
    /// The room has ended: drop its handle.
    RoomGone { room: RoomId },
    /// Stop the game at every table, without a result.
    AbortRooms { reason: String },
    /// This session belongs to an account seated in a game at `room`
    /// (its connection lost, or still open elsewhere), or gave a guest's
    /// resume code: the room decides whether it takes the seat back.
    Rejoin {
        room: RoomId,
        /// The account, or the resume code.
        key: String,
        id: SessionId,
    },
    /// This session would watch the game at `room` (the room has the
    /// last word: it may be full).
    Watch { room: RoomId, id: SessionId },
    /// Cluster mode: this session seeks a quick match and found nobody
    /// here; the other hosts may have someone.
    Seek {
        id: SessionId,
        kind: GameKind,
        seeker: Seeker,
    },
    /// Cluster mode: this session no longer seeks.
    Unseek { id: SessionId },
    /// Cluster mode: an account arrived with no game here; it may have a
    /// seat in a game kept in NATS (its host gone, or another host's).
    FindSeat { id: SessionId, key: String },
    /// Cluster mode: someone signed in here with this account or key (at
    /// `at_ms`, Unix milliseconds): their sessions on the other hosts end
    /// (one person, one session in the whole cluster; the newest wins).
    SignedIn {
        account: Option<String>,
        identity: Option<String>,
        at_ms: i64,
    },
    /// Cluster mode: a room for a friend opened here under `code`.
    CodeOpened { code: String, kind: GameKind },
    /// Cluster mode: the room for a friend under `code` closed (or started).
    CodeClosed { code: String },
    /// Cluster mode: no room here has `code`: look on the other hosts
    /// (and if none has it, [`LobbyState::code_unknown`]).
    FindCode {
        id: SessionId,
        code: String,
        from_login: bool,
        joiner: Seeker,
    },
    /// Cluster mode: an invitation for `session` on `host`.
    InviteAcross {
        host: String,
        session: SessionId,
        invitation: Invitation,
    },
    /// Cluster mode: `id` declined the invitation of `inviter` on `host`.
    DeclineAcross {
        host: String,
        inviter: SessionId,
        id: SessionId,
    },
    /// Cluster mode: `id` accepted the invitation of `inviter` on `host`
    /// and goes to play there.
    AcceptAcross {
        id: SessionId,
        host: String,
        inviter: SessionId,
        seeker: Seeker,
    },
    /// Cluster mode: the next [`Effect::OpenRoom`] seats `visitor` as
    /// session `ghost`.
    Visit {
        room: RoomId,
        ghost: SessionId,
        visitor: Visitor,
    },
}

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
    /// The stones this person chose (`[t]`), if they did this visit or
    /// came back by a resume code that kept them.
    stones: Option<Theme>,
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
    resume_stones: HashMap<String, Theme>,
    /// Invitations waiting for answers (bounded by the people online times
    /// [`OPEN_PER_SENDER`]).
    invites: Vec<Invite>,
    /// Cluster mode: quick match looks on the other hosts too.
    cluster: bool,
    /// Visitors being seated by [`LobbyState::open_across`].
    visitors: HashMap<SessionId, Visitor>,
    next_ghost: SessionId,
}

impl LobbyState {
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
            resume_stones: HashMap::new(),
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

    /// Cluster mode: seekers nobody here meets are offered to the other
    /// hosts ([`Effect::Seek`]).
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
        self.withdraw_invites_to(id, "has started another game");
        self.withdraw_invites_of(id);
        Some((seeker, std::mem::take(&mut self.out)))
    }

    /// The resume code of the guest `id` at `room`, if any.
    pub fn resume_code(&self, room: RoomId, id: SessionId) -> Option<String> {
        self.resumes
            .iter()
            .find(|(_, (r, s))| *r == room && *s == id)
            .map(|(code, _)| code.clone())
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
                _ if self.cluster => self.out.push(Effect::FindSeat { id, key: a }),
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
            self.out.push(Effect::SignedIn {
                account: account.as_ref().map(|p| p.account.clone()),
                identity: identity.clone(),
                at_ms: since_ms,
            });
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
                stones: None,
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
            Command::CreateRoom { id, kind, rated } => {
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
                        self.out.push(Effect::CodeOpened {
                            code: code.clone(),
                            kind,
                        });
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
                    self.out.push(Effect::FindSeat { id, key });
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
                // With the stones the guest chose before.
                if let Some(&stones) = self.resume_stones.get(&key)
                    && let Some(m) = self.members.get_mut(&id)
                {
                    m.stones = Some(stones);
                    self.tell(id, Notice::Stones(stones));
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
            Command::Challenge {
                id,
                to,
                kind,
                rated,
                clock,
                opening,
            } => self.challenge(id, to, kind, rated, clock, opening),
            Command::AnswerChallenge { id, from, accept } => {
                self.answer_challenge(id, from, accept)
            }
            Command::SetStones { id, stones } => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.stones = Some(stones);
                }
                for (code, (_, holder)) in &self.resumes {
                    if *holder == id {
                        self.resume_stones.insert(code.clone(), stones);
                    }
                }
            }
            Command::SetInvitations { id, on } => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.invitable = on;
                }
                if !on {
                    self.withdraw_invites_to(id, "does not take invitations now");
                }
            }
            Command::RoomClosed { room } => {
                self.out.push(Effect::RoomGone { room });
                self.public.remove(&room);
                self.started.retain(|_, r| *r != room);
                self.held.retain(|_, r| *r != room);
                self.resumes.retain(|_, (r, _)| *r != room);
                let resumes = &self.resumes;
                self.resume_stones
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
                    self.out.push(Effect::Seek { id, kind, seeker });
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
    fn afar_id(&mut self, host: &str, session: SessionId, name: &str) -> SessionId {
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

    /// A member's display name ("someone" once gone).
    fn name_of(&self, id: SessionId) -> String {
        match self.members.get(&id) {
            Some(m) => m.name.clone(),
            None => self
                .afar
                .get(&id)
                .map_or_else(|| "someone".to_string(), |a| a.name.clone()),
        }
    }

    /// `id` invites `to` to a game, within the bounds: one open invitation
    /// per pair, [`OPEN_PER_SENDER`] and [`INVITATIONS_PER_MINUTE`] per
    /// sender, [`OPEN_PER_RECIPIENT`] per recipient.
    fn challenge(
        &mut self,
        id: SessionId,
        to: SessionId,
        kind: GameKind,
        rated: bool,
        clock: Option<TimeControl>,
        opening: Opening,
    ) {
        let now = self.now;
        let refuse = |s: &mut Self, why: String| s.tell(id, Notice::LobbyError(why));
        if to == id {
            return refuse(self, "you cannot invite yourself".into());
        }
        let Some(rules) = self.offered(id, kind) else {
            return;
        };
        // Who they are and what they do (someone on another host as
        // their host last said; it has the last word).
        let (name, invitable, doing, account) = match self.members.get(&to) {
            Some(t) => (
                t.name.clone(),
                t.invitable,
                t.doing(),
                t.rated(&rules).is_some(),
            ),
            None => {
                let listed = self.afar.get(&to).and_then(|a| {
                    self.remote_people
                        .iter()
                        .find(|p| p.host.as_ref() == Some(&a.host) && p.id == a.session)
                });
                match listed {
                    Some(p) => (
                        p.name.clone(),
                        p.invitable,
                        p.doing,
                        p.account && rated_rules(&rules),
                    ),
                    None => return refuse(self, "that player has left".into()),
                }
            }
        };
        if let Some(why) = not_free(&name, invitable, doing) {
            return refuse(self, why.to_string());
        }
        if self.invites.iter().any(|i| i.from == id && i.to == to) {
            return refuse(
                self,
                format!("you have invited {name} already: wait for the answer"),
            );
        }
        if self.invites.iter().filter(|i| i.from == id).count() >= OPEN_PER_SENDER {
            return refuse(
                self,
                format!("at most {OPEN_PER_SENDER} invitations may wait at once: wait for answers"),
            );
        }
        if self.invites.iter().filter(|i| i.to == to).count() >= OPEN_PER_RECIPIENT {
            return refuse(
                self,
                format!("{name} has many invitations waiting: try later"),
            );
        }
        let Some(me) = self.members.get_mut(&id) else {
            return;
        };
        while me
            .invited_at
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= Duration::from_secs(60))
        {
            me.invited_at.pop_front();
        }
        if me.invited_at.len() >= INVITATIONS_PER_MINUTE {
            return refuse(
                self,
                format!("at most {INVITATIONS_PER_MINUTE} invitations a minute: wait a little"),
            );
        }
        me.invited_at.push_back(now);
        let from_name = me.name.clone();
        // Rated only between two accounts on the standard board.
        let rated = rated
            && self
                .members
                .get(&id)
                .and_then(|m| m.rated(&rules))
                .is_some()
            && account;
        let rating = if rated {
            self.members.get(&id).and_then(|m| m.rated(&rules))
        } else {
            None
        };
        self.invites.push(Invite {
            from: id,
            to,
            kind,
            rated,
            clock,
            opening,
            at: now,
        });
        let from_account = self
            .members
            .get(&id)
            .is_some_and(|m| m.seeker(Some(&rules)).account.is_some());
        let invitation = Invitation {
            from: id,
            name: from_name,
            account: from_account,
            rating,
            kind,
            rated,
            clock,
            opening,
        };
        match self.afar.get(&to) {
            Some(a) => {
                self.out.push(Effect::InviteAcross {
                    host: a.host.clone(),
                    session: a.session,
                    invitation,
                });
            }
            None => self.tell(to, Notice::Invited(invitation)),
        }
        self.tell(
            id,
            Notice::Said(format!(
                "invitation sent to {name}: it waits {} s for an answer",
                INVITATION_LAPSE.as_secs()
            )),
        );
    }

    /// The answer of `id` to the invitation from `from`.
    fn answer_challenge(&mut self, id: SessionId, from: SessionId, accept: bool) {
        let Some(i) = self
            .invites
            .iter()
            .position(|i| i.from == from && i.to == id)
        else {
            self.tell(
                id,
                Notice::LobbyError("that invitation is no longer open".into()),
            );
            return;
        };
        let invite = self.invites.swap_remove(i);
        let name = self.name_of(id);
        if let Some(a) = self.afar.get(&from).cloned() {
            return self.answer_from_afar(id, a, invite, accept);
        }
        if !accept {
            self.tell(
                from,
                Notice::Said(format!("{name} declined your invitation")),
            );
            return;
        }
        let free = |m: Option<&Member>| {
            m.is_some_and(|m| matches!(m.status, Status::Idle | Status::Seeking(_)))
        };
        if !free(self.members.get(&from)) {
            let inviter = self.name_of(from);
            self.tell(
                id,
                Notice::LobbyError(format!("{inviter} is no longer free to play")),
            );
            return;
        }
        let Some(rules) = self.rules(invite.kind) else {
            return;
        };
        self.unqueue(id);
        self.unqueue(from);
        let first = self.rng.random_bool(0.5);
        self.start_room(
            rules,
            from,
            Some(id),
            None,
            first,
            invite.rated,
            invite.clock,
            invite.opening,
        );
    }

    /// Cluster mode: `id` answers the invitation of `a`, on another host.
    /// Declined: their host hears it. Accepted: `id` goes to play there
    /// (the table runs on the inviter's host).
    fn answer_from_afar(&mut self, id: SessionId, a: Afar, invite: Invite, accept: bool) {
        if !accept {
            self.out.push(Effect::DeclineAcross {
                host: a.host,
                inviter: a.session,
                id,
            });
            return;
        }
        let Some(rules) = self.rules(invite.kind) else {
            return;
        };
        self.unqueue(id);
        let Some(m) = self.members.get_mut(&id) else {
            return;
        };
        m.status = Status::Playing(ELSEWHERE);
        let seeker = m.seeker(Some(&rules));
        self.withdraw_invites_to(id, "has started another game");
        self.withdraw_invites_of(id);
        self.dirty = true;
        self.out.push(Effect::AcceptAcross {
            id,
            host: a.host,
            inviter: a.session,
            seeker,
        });
    }

    /// Cluster mode: someone on another host invites a person here; why
    /// not, for them, if it cannot be (the same bounds as here).
    /// `ask.from` is their session on `host`.
    pub fn invited_from_afar(
        &mut self,
        host: &str,
        to: SessionId,
        ask: Invitation,
    ) -> Result<Vec<Effect>, Refusal> {
        let name = crate::text::sanitize_name(&ask.name, "Visitor");
        let from = self.afar_id(host, ask.from, &name);
        let rules = self.rules(ask.kind).ok_or(Refusal::GameNotOffered)?;
        let Some(target) = self.members.get(&to) else {
            return Err(Refusal::PlayerLeft);
        };
        let to_name = target.name.clone();
        if let Some(why) = not_free(&to_name, target.invitable, target.doing()) {
            return Err(why);
        }
        let rated = ask.rated && ask.account && target.rated(&rules).is_some();
        if self.invites.iter().any(|i| i.from == from && i.to == to) {
            return Err(Refusal::InvitedAlready(to_name));
        }
        if self.invites.iter().filter(|i| i.from == from).count() >= OPEN_PER_SENDER {
            return Err(Refusal::TooManyInvitations(OPEN_PER_SENDER));
        }
        if self.invites.iter().filter(|i| i.to == to).count() >= OPEN_PER_RECIPIENT {
            return Err(Refusal::ManyInvitationsWaiting(to_name));
        }
        self.invites.push(Invite {
            from,
            to,
            kind: ask.kind,
            rated,
            clock: ask.clock,
            opening: ask.opening,
            at: self.now,
        });
        self.tell(
            to,
            Notice::Invited(Invitation {
                from,
                name,
                rating: ask.rating.filter(|_| rated),
                rated,
                ..ask
            }),
        );
        Ok(std::mem::take(&mut self.out))
    }

    /// Cluster mode: the invitation `inviter` sent to `session` on `host`
    /// did not reach them, or they declined it (`why`: for the inviter).
    pub fn invitation_refused(
        &mut self,
        inviter: SessionId,
        host: &str,
        session: SessionId,
        why: String,
    ) -> Vec<Effect> {
        if let Some(&to) = self.afar_ids.get(&(host.to_string(), session))
            && let Some(i) = self
                .invites
                .iter()
                .position(|i| i.from == inviter && i.to == to)
        {
            self.invites.swap_remove(i);
            self.tell(inviter, Notice::Said(why));
        }
        std::mem::take(&mut self.out)
    }

    /// Cluster mode: the person `inviter` invited on another host accepted:
    /// the game starts here, with them as a visitor. The error is for them.
    pub fn open_for_invitee(
        &mut self,
        inviter: SessionId,
        mut visitor: Visitor,
        ratings: [Option<u32>; 2],
    ) -> Result<Vec<Effect>, Refusal> {
        let to = self
            .afar_ids
            .get(&(visitor.host.clone(), visitor.session))
            .copied()
            .ok_or(Refusal::InvitationClosed)?;
        let i = self
            .invites
            .iter()
            .position(|i| i.from == inviter && i.to == to)
            .ok_or(Refusal::InvitationClosed)?;
        let invite = self.invites.swap_remove(i);
        let inviter_name = self.name_of(inviter);
        if !self
            .members
            .get(&inviter)
            .is_some_and(|m| matches!(m.status, Status::Idle | Status::Seeking(_)))
        {
            return Err(Refusal::NoLongerFree(inviter_name));
        }
        let rules = self.rules(invite.kind).ok_or(Refusal::GameNotOffered)?;
        visitor.rating = if invite.rated && visitor.account.is_some() && rated_rules(&rules) {
            Some(
                rating_index(invite.kind)
                    .and_then(|i| ratings[i])
                    .unwrap_or(1500),
            )
        } else {
            None
        };
        self.unqueue(inviter);
        self.withdraw_invites_of(inviter);
        self.withdraw_invites_to(inviter, "has started another game");
        match self.start_with_visitor(
            rules,
            inviter,
            visitor,
            invite.rated,
            invite.clock,
            invite.opening,
        ) {
            Some(_) => Ok(std::mem::take(&mut self.out)),
            None => {
                self.out.clear();
                Err(Refusal::HasLeft(inviter_name))
            }
        }
    }

    /// Invitations waiting for `id` are void (`why`: "has left"...): their
    /// senders are told, and `id`'s screen drops them.
    fn withdraw_invites_to(&mut self, id: SessionId, why: &str) {
        let (gone, open): (Vec<Invite>, Vec<Invite>) = std::mem::take(&mut self.invites)
            .into_iter()
            .partition(|i| i.to == id);
        self.invites = open;
        let name = self.name_of(id);
        for i in gone {
            self.tell(
                i.from,
                Notice::Said(format!("your invitation lapsed: {name} {why}")),
            );
            self.tell(id, Notice::InvitationGone { from: i.from });
        }
    }

    /// Invitations `id` sent are void: their recipients' screens drop them.
    fn withdraw_invites_of(&mut self, id: SessionId) {
        let (gone, open): (Vec<Invite>, Vec<Invite>) = std::mem::take(&mut self.invites)
            .into_iter()
            .partition(|i| i.from == id);
        self.invites = open;
        for i in gone {
            self.tell(i.to, Notice::InvitationGone { from: id });
        }
    }

    /// Whether anyone may watch the game at `room` (in play, and not a
    /// friend's room kept private).
    pub fn watchable(&self, room: RoomId) -> bool {
        self.public.get(&room).copied().unwrap_or(false)
    }

    fn watch(&mut self, id: SessionId, room: RoomId) {
        let seated = self
            .members
            .get(&id)
            .is_some_and(|m| m.status == Status::Playing(room));
        match self.public.get(&room) {
            _ if seated => {
                self.tell(id, Notice::LobbyError("you play in that game".into()));
            }
            None => self.tell(
                id,
                Notice::LobbyError("that game has ended: choose another".into()),
            ),
            Some(false) => self.tell(
                id,
                Notice::LobbyError(
                    "that game is private: its players did not allow watchers".into(),
                ),
            ),
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

    /// The display name of a session in the lobby.
    #[cfg(test)]
    pub fn name(&self, id: SessionId) -> Option<&str> {
        self.members.get(&id).map(|m| m.name.as_str())
    }

    fn tell(&mut self, to: SessionId, notice: Notice) {
        if self.members.contains_key(&to) {
            self.out.push(Effect::Tell { to, notice });
        }
    }

    /// `name`, or the first free variant of it. Free: nobody here has it,
    /// and (cluster mode) nobody on another host who could claim it: a
    /// guest gives way to anyone, a player with an account (whose name is
    /// theirs in the shared store) only to another account.
    fn unique_name(&self, name: &str, id: SessionId, account: Option<&str>) -> String {
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

    fn set_name(&mut self, id: SessionId, name: String) {
        if crate::text::is_reserved_name(&name) {
            self.tell(id, Notice::LobbyError(naming::RESERVED.into()));
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
                    q.retain(|&(x, _)| x != id);
                }
                if self.cluster {
                    self.out.push(Effect::Unseek { id });
                }
            }
            Status::Hosting(code) => {
                self.hosted.remove(&code);
                if self.cluster {
                    self.out.push(Effect::CodeClosed { code });
                }
            }
            other => m.status = other,
        }
        self.dirty = true;
    }

    fn remove(&mut self, id: SessionId) {
        self.withdraw_invites_to(id, "has left");
        self.withdraw_invites_of(id);
        self.unqueue(id);
        if let Some(m) = self.members.remove(&id) {
            self.unindex_name(&m.name);
            self.dirty = true;
            self.out.push(Effect::Forget { id });
        }
    }

    fn index_name(&mut self, name: &str) {
        *self.names.entry(name.to_ascii_lowercase()).or_insert(0) += 1;
    }

    fn unindex_name(&mut self, name: &str) {
        let key = name.to_ascii_lowercase();
        if let Some(n) = self.names.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.names.remove(&key);
            }
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
        let Some(level) = level.in_game(kind) else {
            self.tell(
                id,
                Notice::LobbyError(format!(
                    "{level} is not a level of {}: its levels are {}",
                    kind.name(),
                    Level::names_for(kind)
                )),
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

    fn join_room(&mut self, id: SessionId, code: &str, from_login: bool) {
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
            Some(h) if h.host == id => self.tell(
                id,
                Notice::LobbyError("that is your own room: give the code to a friend".into()),
            ),
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
                Notice::LobbyError(format!(
                    "the room {code} is already playing: ask your friend for a new code"
                )),
            ),
            // Another host may have it.
            None if self.cluster => {
                if let Some(m) = self.members.get(&id) {
                    let joiner = m.seeker(None);
                    self.out.push(Effect::FindCode {
                        id,
                        code,
                        from_login,
                        joiner,
                    });
                }
            }
            None => self.no_such_code(id, code, from_login),
        }
    }

    fn no_such_code(&mut self, id: SessionId, code: String, from_login: bool) {
        if from_login {
            // `ssh FWDX@host` with no such room: FWDX may be a name, if
            // the store agrees (the session asks it, then `SetName`).
            self.tell(id, Notice::NoRoomForLogin(code));
        } else {
            self.tell(
                id,
                Notice::LobbyError(format!(
                    "no room has the code {}: check it with your friend",
                    crate::text::sanitize_quote(&code, 8)
                )),
            );
        }
    }

    /// Effects of the direct calls above that are still to be carried out.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.out)
    }

    /// Cluster mode: no host has the room `code` that `id` asked for.
    pub fn code_unknown(&mut self, id: SessionId, code: String, from_login: bool) -> Vec<Effect> {
        if self.members.contains_key(&id) {
            self.no_such_code(id, code, from_login);
        }
        std::mem::take(&mut self.out)
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
        self.withdraw_invites_to(id, "has started another game");
        self.withdraw_invites_of(id);
        self.dirty = true;
        Some(seeker)
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
    fn start_with_visitor(
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

    fn quick_match(&mut self, id: SessionId, kind: GameKind) {
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
            self.out.push(Effect::Seek { id, kind, seeker });
        }
    }

    /// Pairs the seekers of one game who may play each other, until no
    /// pair is left: anyone with anyone, longest waiting first, except two
    /// players who would play a rated game, whose ratings must be within
    /// [`rating_window`] of the longer wait. A newcomer with a rating meets
    /// the closest rating it may. `newest_only`: only the last seeker
    /// looks (it just arrived; the others were paired before if they could).
    fn pair_seekers(&mut self, rules: Rules, newest_only: bool) {
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
                self.out.push(Effect::Unseek { id: a });
                self.out.push(Effect::Unseek { id: b });
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
        // Invitations nobody answered lapse.
        let (lapsed, open): (Vec<Invite>, Vec<Invite>) = std::mem::take(&mut self.invites)
            .into_iter()
            .partition(|i| now.saturating_duration_since(i.at) >= INVITATION_LAPSE);
        self.invites = open;
        for i in lapsed {
            let name = self.name_of(i.to);
            self.tell(
                i.from,
                Notice::Said(format!("{name} did not answer your invitation")),
            );
            self.tell(i.to, Notice::InvitationGone { from: i.from });
        }
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
    fn tell_waiters(&mut self) {
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

    /// Seats `a` and `b` (or the computer at `level`) at a new table;
    /// `a_first` says who moves first; `may_rate`: rated when both have
    /// accounts and the board is standard; `clock`: the time control of a
    /// game between two people. Returns the room, if it opened.
    #[allow(clippy::too_many_arguments)]
    fn start_room(
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
                if let Some(stones) = self.members.get(id).and_then(|m| m.stones) {
                    self.resume_stones.insert(code.clone(), stones);
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
        self.out.push(Effect::OpenRoom {
            room,
            rules,
            seats,
            rated,
            clock,
            opening,
        });
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
            self.withdraw_invites_to(id, "has started another game");
            self.withdraw_invites_of(id);
        }
        self.dirty = true;
        Some(room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::make_rng;

    const C4: GameKind = GameKind::ConnectFour;
    const GOMOKU: GameKind = GameKind::Gomoku;

    fn lobby(seed: u64) -> LobbyState {
        LobbyState::new(
            vec![Rules::connect_four(), Rules::gomoku()],
            make_rng(Some(seed)),
        )
    }

    fn arrive(s: &mut LobbyState, id: SessionId, name: Option<&str>, key: Option<&str>) -> String {
        let (name, effects) = s.join(Arrival {
            id,
            name: name.map(str::to_string),
            account: None,
            identity: key.map(str::to_string),
        });
        assert_eq!(effects, vec![], "nothing to tell a plain arrival");
        name
    }

    fn named(s: &mut LobbyState, id: SessionId, name: &str) {
        assert_eq!(arrive(s, id, Some(name), None), name);
    }

    fn tell(to: SessionId, notice: Notice) -> Effect {
        Effect::Tell { to, notice }
    }

    fn error(to: SessionId, text: &str) -> Effect {
        tell(to, Notice::LobbyError(text.into()))
    }

    /// The room and seats of the one room these effects open.
    fn opened(effects: &[Effect]) -> (RoomId, Rules, [Occupant; 2]) {
        let rooms: Vec<_> = effects
            .iter()
            .filter_map(|e| match e {
                Effect::OpenRoom {
                    room, rules, seats, ..
                } => Some((*room, *rules, seats.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(rooms.len(), 1, "one room opens: {effects:?}");
        rooms.into_iter().next().unwrap()
    }

    fn seated(seats: &[Occupant; 2]) -> Vec<Option<SessionId>> {
        let mut ids: Vec<_> = seats.iter().map(Occupant::id).collect();
        ids.sort();
        ids
    }

    fn quick(s: &mut LobbyState, id: SessionId, kind: GameKind) -> Vec<Effect> {
        s.handle(Command::QuickMatch { id, kind })
    }

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
    fn a_game_not_on_offer_is_refused() {
        let mut s = LobbyState::new(vec![Rules::connect_four()], make_rng(Some(5)));
        named(&mut s, 1, "ann");
        let no = vec![error(1, "Gomoku is not offered here")];
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
                "strong is not a level of Connect Four: its levels are easy, medium, hard or perfect"
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
                "level 3 is not a level of Connect Four: its levels are easy, medium, hard or perfect"
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

    fn create(s: &mut LobbyState, id: SessionId) -> String {
        match s
            .handle(Command::CreateRoom {
                id,
                kind: C4,
                rated: false,
            })
            .as_slice()
        {
            [
                Effect::Tell {
                    to,
                    notice: Notice::RoomCode(code),
                },
            ] if *to == id => code.clone(),
            other => panic!("no code: {other:?}"),
        }
    }

    fn join_code(s: &mut LobbyState, id: SessionId, code: &str, from_login: bool) -> Vec<Effect> {
        s.handle(Command::JoinRoom {
            id,
            code: code.into(),
            from_login,
        })
    }

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
            assert_eq!(r.len(), super::super::codes::RESUME_LEN);
            assert!(super::super::codes::looks_like_code(r), "{r}");
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
        assert_eq!(s.resume_stones.get(&ann), Some(&Theme::Ascii));
        assert_eq!(s.resume_stones.get(&bob), None, "bob chose nothing");
        // Bob chooses during the game.
        s.handle(Command::SetStones {
            id: 2,
            stones: Theme::Emoji,
        });
        assert_eq!(s.resume_stones.get(&bob), Some(&Theme::Emoji));
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
            vec![&Notice::Stones(Theme::Ascii), &Notice::Joined(room)],
            "{effects:?}"
        );
        // Her new session changes them: the code keeps the change.
        s.handle(Command::SetStones {
            id: 3,
            stones: Theme::Emoji,
        });
        assert_eq!(s.resume_stones.get(&ann), Some(&Theme::Emoji));
        // Someone without a code keeps the choice for their next one only.
        named(&mut s, 4, "nobody");
        s.handle(Command::SetStones {
            id: 4,
            stones: Theme::Ascii,
        });
        assert_eq!(s.resume_stones.len(), 2, "only codes held get stones");
        s.handle(Command::RoomClosed { room });
        assert!(s.resume_stones.is_empty(), "gone with the room");
    }

    #[test]
    fn room_codes_are_unique_and_a_friend_joins_with_one() {
        let mut s = lobby(9);
        let mut codes = std::collections::HashSet::new();
        for id in 1..=300 {
            named(&mut s, id, &format!("p{id}"));
            let code = create(&mut s, id);
            assert!(super::super::codes::looks_like_code(&code), "{code}");
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
                &format!("the room {code} is already playing: ask your friend for a new code")
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
                &format!("no room has the code {code}: check it with your friend")
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
            vec![error(1, "that is your own room: give the code to a friend")]
        );
        // Cancelling closes the room; seeking a match does too.
        s.handle(Command::Cancel { id: 1 });
        let unknown = format!("no room has the code {code}: check it with your friend");
        assert_eq!(join_code(&mut s, 2, &code, false), vec![error(2, &unknown)]);
        let code = create(&mut s, 1);
        quick(&mut s, 1, GOMOKU);
        let unknown = format!("no room has the code {code}: check it with your friend");
        assert_eq!(join_code(&mut s, 2, &code, false), vec![error(2, &unknown)]);
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
                "no room has the code KB2C: check it with your friend"
            )]
        );
        assert_eq!(s.name(2), Some("bob"));
    }

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
                error(4, "alice is taken: you are alice4"),
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
                vec![error(1, naming::RESERVED)],
                "{name}"
            );
        }
        assert_eq!(s.name(1), Some("ann"));
    }

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

    fn arrive_replacing(s: &mut LobbyState, id: SessionId, key: &str) {
        let (_, effects) = s.join(Arrival {
            id,
            name: None,
            account: None,
            identity: Some(key.into()),
        });
        assert!(effects.contains(&Effect::Forget { id: 1 }), "{effects:?}");
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

    /// A player with an account and a Connect Four rating.
    fn rated_player(s: &mut LobbyState, id: SessionId, name: &str, c4: u32) {
        let (given, _) = s.join(Arrival {
            id,
            name: Some(name.into()),
            identity: Some(format!("SHA256:{name}")),
            account: Some(Player {
                account: format!("acct-{name}"),
                ratings: [Some(c4), None],
            }),
        });
        assert_eq!(given, name);
    }

    /// What joining as this account (with another key) asks of rooms.
    fn rejoins(s: &mut LobbyState, id: SessionId, account: &str) -> Vec<Effect> {
        let (_, effects) = s.join(Arrival {
            id,
            name: None,
            identity: Some(format!("SHA256:other-{id}")),
            account: Some(Player {
                account: account.into(),
                ratings: [None, None],
            }),
        });
        effects
            .into_iter()
            .filter(|e| matches!(e, Effect::Rejoin { .. }))
            .collect()
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

    fn rated_of(effects: &[Effect]) -> bool {
        effects
            .iter()
            .find_map(|e| match e {
                Effect::OpenRoom { rated, .. } => Some(*rated),
                _ => None,
            })
            .expect("a room opened")
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

    /// `host` opens a friend room (rated or not), `guest` joins it: whether
    /// the game is rated.
    fn friend_room(s: &mut LobbyState, host: SessionId, guest: SessionId, rated: bool) -> bool {
        s.handle(Command::CreateRoom {
            id: host,
            kind: C4,
            rated,
        });
        let code = s.hosted.keys().next().unwrap().clone();
        rated_of(&s.handle(Command::JoinRoom {
            id: guest,
            code,
            from_login: false,
        }))
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

    /// The effects but the news of who waits nearest ([`Notice::Waiting`]).
    fn no_waiting_news(effects: Vec<Effect>) -> Vec<Effect> {
        effects
            .into_iter()
            .filter(|e| {
                !matches!(
                    e,
                    Effect::Tell {
                        notice: Notice::Waiting { .. },
                        ..
                    }
                )
            })
            .collect()
    }

    /// What each seeker was told of who waits nearest, by session.
    fn waiting_news(effects: &[Effect]) -> Vec<(SessionId, Option<Nearest>)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Tell {
                    to,
                    notice: Notice::Waiting { kind: C4, nearest },
                } => Some((*to, *nearest)),
                _ => None,
            })
            .collect()
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

    fn presence_wait(gap: u32, full: Duration) -> Duration {
        crate::presence::wait_for_gap(gap, full)
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

    fn invite(s: &mut LobbyState, id: SessionId, to: SessionId) -> Vec<Effect> {
        s.handle(Command::Challenge {
            id,
            to,
            kind: C4,
            rated: false,
            clock: Some(TimeControl::new(3, 2)),
            opening: Opening::Standard,
        })
    }

    fn invited(effects: &[Effect], to: SessionId) -> Option<Invitation> {
        effects.iter().find_map(|e| match e {
            Effect::Tell {
                to: t,
                notice: Notice::Invited(i),
            } if *t == to => Some(i.clone()),
            _ => None,
        })
    }

    fn said(effects: &[Effect], to: SessionId) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Tell {
                    to: t,
                    notice: Notice::Said(m) | Notice::LobbyError(m),
                } if *t == to => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_accepted_invitation_seats_both_on_its_clock_and_a_declined_one_says_so() {
        let mut s = lobby(31);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        let e = invite(&mut s, 1, 2);
        let inv = invited(&e, 2).expect("bob is invited");
        assert_eq!((inv.from, inv.name.as_str(), inv.kind), (1, "ann", C4));
        assert!(said(&e, 1)[0].contains("invitation sent to bob"), "{e:?}");
        // Declined: the inviter is told; the invitation is gone.
        let e = s.handle(Command::AnswerChallenge {
            id: 2,
            from: 1,
            accept: false,
        });
        assert_eq!(said(&e, 1), vec!["bob declined your invitation"]);
        let e = s.handle(Command::AnswerChallenge {
            id: 2,
            from: 1,
            accept: true,
        });
        assert_eq!(said(&e, 2), vec!["that invitation is no longer open"]);
        // Accepted: a table for the two, on the invitation's clock,
        // watchable, and both listed as playing.
        invite(&mut s, 1, 2);
        let e = s.handle(Command::AnswerChallenge {
            id: 2,
            from: 1,
            accept: true,
        });
        let (room, rules, seats) = opened(&e);
        assert_eq!(rules, Rules::connect_four());
        let mut ids = seated(&seats);
        ids.sort();
        assert_eq!(ids, vec![Some(1), Some(2)]);
        assert!(e.iter().any(|x| matches!(
            x,
            Effect::OpenRoom { clock: Some(c), .. } if *c == TimeControl::new(3, 2)
        )));
        assert!(s.watchable(room));
        let people = s.people(1);
        assert!(
            people.iter().all(|p| p.doing == Doing::Playing),
            "{people:?}"
        );
        assert!(people[0].me && people[0].name == "ann");
    }

    fn visitor(name: &str) -> Visitor {
        Visitor {
            host: "host-b".into(),
            session: 9,
            name: name.into(),
            account: None,
            rating: None,
            colour: Some(Colour::Blue),
            token: "t".into(),
        }
    }

    #[test]
    fn in_cluster_mode_a_lonely_seeker_is_offered_to_the_other_hosts_and_seated_with_a_visitor() {
        let mut s = lobby(40).with_cluster(true);
        named(&mut s, 1, "ann");
        let effects = quick(&mut s, 1, C4);
        assert!(
            effects.iter().any(
                |e| matches!(e, Effect::Seek { id: 1, kind: C4, seeker } if seeker.name == "ann")
            ),
            "{effects:?}"
        );
        // Cancelling withdraws the ticket; seeking again offers it again.
        let effects = s.handle(Command::Cancel { id: 1 });
        assert!(effects.contains(&Effect::Unseek { id: 1 }), "{effects:?}");
        quick(&mut s, 1, C4);
        // Another host took the ticket: ann is reserved, out of the queue,
        // so a newcomer here does not meet her meanwhile.
        assert_eq!(s.reserve(1, C4).map(|p| p.name), Some("ann".into()));
        named(&mut s, 2, "cy");
        let effects = quick(&mut s, 2, C4);
        assert!(
            !effects.iter().any(|e| matches!(e, Effect::OpenRoom { .. })),
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
        assert!(super::super::codes::looks_like_code(&code), "{code}");
        assert_eq!(code.len(), super::super::codes::RESUME_LEN);
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
                Effect::CodeOpened { code, kind: C4 } => Some(code.clone()),
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
            matches!(effects.as_slice(), [Effect::FindCode { id: 2, code, .. }] if code == "ZZZZ"),
            "{effects:?}"
        );
        // None has it: the usual error, or (as a login name) a name the
        // session may ask for, once the store agrees.
        let effects = s.code_unknown(2, "ZZZZ".into(), false);
        assert_eq!(
            effects,
            vec![error(
                2,
                "no room has the code ZZZZ: check it with your friend"
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
        assert!(effects.contains(&Effect::CodeClosed { code: code.clone() }));
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
            !e.iter().any(|x| matches!(x, Effect::Seek { .. })),
            "offered while NATS is away: {e:?}"
        );
        s.set_remote(Stats::default());
        assert!(!s.stats().degraded);
        let e = s.take_effects();
        assert!(
            e.iter().any(|x| matches!(
                x,
                Effect::Seek {
                    id: 1,
                    kind: C4,
                    ..
                }
            )),
            "{e:?}"
        );
    }

    #[test]
    fn in_cluster_mode_people_on_other_hosts_are_invited_and_invite() {
        // Host A: ann invites bo, who is on host-b.
        let mut a = lobby(44).with_cluster(true);
        named(&mut a, 1, "ann");
        a.set_remote_people(vec![Person {
            host: Some("host-b".into()),
            id: 7,
            me: false,
            invitable: true,
            name: "bo".into(),
            account: false,
            account_id: None,
            ratings: [None; 2],
            doing: Doing::Lobby,
        }]);
        let bo = a.people(1).iter().find(|p| p.name == "bo").unwrap().id;
        assert!(bo >= AFAR_IDS);
        assert_eq!(
            a.afar(bo).map(|x| (x.host.as_str(), x.session)),
            Some(("host-b", 7))
        );
        let e = invite(&mut a, 1, bo);
        assert!(
            e.iter().any(|x| matches!(x,
                Effect::InviteAcross { host, session: 7, invitation, .. }
                    if host == "host-b" && invitation.from == 1 && invitation.name == "ann")),
            "{e:?}"
        );
        assert!(said(&e, 1)[0].contains("invitation sent to bo"), "{e:?}");
        let e = invite(&mut a, 1, bo);
        assert!(said(&e, 1)[0].contains("invited bo already"), "{e:?}");
        // Declined there: ann hears it and may ask again.
        let e = a.invitation_refused(1, "host-b", 7, "bo declined your invitation".into());
        assert_eq!(said(&e, 1), vec!["bo declined your invitation"]);
        invite(&mut a, 1, bo);
        // Accepted there: the table opens here, bo a visitor.
        let mut v = visitor("bo");
        v.host = "host-b".into();
        v.session = 7;
        let e = a.open_for_invitee(1, v.clone(), [None; 2]).expect("opened");
        assert!(e.iter().any(|x| matches!(x, Effect::Visit { .. })), "{e:?}");
        let (_, _, seats) = opened(&e);
        assert!(seated(&seats).contains(&Some(1)));
        assert_eq!(
            a.open_for_invitee(1, v, [None; 2]),
            Err(Refusal::InvitationClosed)
        );

        // Host B: cy gets ann's invitation from host-a.
        let mut b = lobby(45).with_cluster(true);
        named(&mut b, 2, "cy");
        let ask = Invitation {
            from: 1,
            name: "ann\u{1b}[2J".into(),
            account: false,
            rating: None,
            kind: C4,
            rated: false,
            clock: None,
            opening: Opening::Standard,
        };
        let e = b
            .invited_from_afar("host-a", 2, ask.clone())
            .expect("delivered");
        let inv = invited(&e, 2).expect("cy is invited");
        assert!(inv.from >= AFAR_IDS);
        assert!(!inv.name.contains('\u{1b}'), "{inv:?}");
        assert!(matches!(
            b.invited_from_afar("host-a", 2, ask.clone()),
            Err(Refusal::InvitedAlready(_))
        ));
        assert_eq!(
            b.invited_from_afar("host-a", 99, ask.clone()),
            Err(Refusal::PlayerLeft)
        );
        let e = b.handle(Command::AnswerChallenge {
            id: 2,
            from: inv.from,
            accept: false,
        });
        assert_eq!(
            e,
            vec![Effect::DeclineAcross {
                host: "host-a".into(),
                inviter: 1,
                id: 2
            }]
        );
        b.invited_from_afar("host-a", 2, ask.clone())
            .expect("delivered again");
        let e = b.handle(Command::AnswerChallenge {
            id: 2,
            from: inv.from,
            accept: true,
        });
        assert!(
            e.iter().any(|x| matches!(x,
                Effect::AcceptAcross { id: 2, host, inviter: 1, seeker } if host == "host-a" && seeker.name == "cy")),
            "{e:?}"
        );
        // cy plays elsewhere now: not free for another invitation.
        assert!(
            b.invited_from_afar("host-a", 2, ask.clone())
                .unwrap_err()
                .to_string()
                .contains("is playing")
        );
    }

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
                .any(|e| matches!(e, Effect::Seek { id: 1, .. })),
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

    #[test]
    fn invitations_are_bounded_per_pair_per_sender_and_lapse() {
        let mut s = lobby(32);
        for (id, name) in [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee"), (5, "eve")] {
            named(&mut s, id, name);
        }
        let now = Instant::now();
        s.tick(now);
        assert!(invited(&invite(&mut s, 1, 2), 2).is_some());
        // One open invitation per pair.
        let e = invite(&mut s, 1, 2);
        assert!(invited(&e, 2).is_none());
        assert!(said(&e, 1)[0].contains("invited bob already"), "{e:?}");
        // Nobody invites themself, or someone who turned invitations off.
        assert!(said(&invite(&mut s, 1, 1), 1)[0].contains("yourself"));
        s.handle(Command::SetInvitations { id: 5, on: false });
        let e = invite(&mut s, 1, 5);
        assert!(invited(&e, 5).is_none());
        assert!(said(&e, 1)[0].contains("eve does not take invitations"));
        // At most three waiting at once per sender.
        assert!(invited(&invite(&mut s, 1, 3), 3).is_some());
        assert!(invited(&invite(&mut s, 1, 4), 4).is_some());
        s.handle(Command::SetInvitations { id: 5, on: true });
        let e = invite(&mut s, 1, 5);
        assert!(invited(&e, 5).is_none(), "{e:?}");
        assert!(said(&e, 1)[0].contains("at most 3 invitations may wait"));
        // After a minute they lapse: both sides hear of it.
        let e = s.tick(now + INVITATION_LAPSE);
        let lapsed = said(&e, 1);
        assert_eq!(lapsed.len(), 3, "{e:?}");
        assert!(lapsed.iter().all(|m| m.contains("did not answer")));
        assert!(e.contains(&tell(2, Notice::InvitationGone { from: 1 })));
        // The rate: five a minute, counted from the sends (those before
        // the lapse are a minute old now).
        let decline = |s: &mut LobbyState, to: SessionId| {
            s.handle(Command::AnswerChallenge {
                id: to,
                from: 1,
                accept: false,
            })
        };
        for to in [2, 3, 4, 5, 2] {
            assert!(invited(&invite(&mut s, 1, to), to).is_some(), "to {to}");
            decline(&mut s, to);
        }
        let e = invite(&mut s, 1, 3);
        assert!(invited(&e, 3).is_none(), "the sixth in a minute: {e:?}");
        assert!(said(&e, 1)[0].contains("at most 5 invitations a minute"));
        s.tick(now + INVITATION_LAPSE * 2);
        assert!(invited(&invite(&mut s, 1, 3), 3).is_some());
    }

    /// An invitation's answer: the invited person says yes to `from`.
    fn accept(s: &mut LobbyState, id: SessionId, from: SessionId) -> Vec<Effect> {
        s.handle(Command::AnswerChallenge {
            id,
            from,
            accept: true,
        })
    }

    #[test]
    fn a_recipient_holds_at_most_ten_invitations_and_a_lapsed_one_cannot_be_accepted() {
        let mut s = lobby(34);
        let now = Instant::now();
        s.tick(now);
        named(&mut s, 1, "ann");
        for i in 0..=OPEN_PER_RECIPIENT as SessionId {
            named(&mut s, 10 + i, &format!("fan{i}"));
        }
        for i in 0..OPEN_PER_RECIPIENT as SessionId {
            assert!(invited(&invite(&mut s, 10 + i, 1), 1).is_some(), "fan{i}");
        }
        let last = 10 + OPEN_PER_RECIPIENT as SessionId;
        let e = invite(&mut s, last, 1);
        assert!(invited(&e, 1).is_none(), "the eleventh reached ann: {e:?}");
        assert_eq!(
            said(&e, last),
            vec!["ann has many invitations waiting: try later"]
        );
        // A minute on, none is open: accepting one now seats nobody.
        let e = s.tick(now + INVITATION_LAPSE);
        assert_eq!(
            e.iter()
                .filter(|x| matches!(
                    x,
                    Effect::Tell {
                        to: 1,
                        notice: Notice::InvitationGone { .. }
                    }
                ))
                .count(),
            OPEN_PER_RECIPIENT,
            "{e:?}"
        );
        let e = accept(&mut s, 1, 10);
        assert!(
            !e.iter().any(|x| matches!(x, Effect::OpenRoom { .. })),
            "{e:?}"
        );
        assert_eq!(said(&e, 1), vec!["that invitation is no longer open"]);
        // Room again for new ones.
        assert!(invited(&invite(&mut s, last, 1), 1).is_some());
        let (_, _, seats) = opened(&accept(&mut s, 1, last));
        let mut ids = seated(&seats);
        ids.sort();
        assert_eq!(ids, vec![Some(1), Some(last)]);
    }

    #[test]
    fn an_invitation_is_rated_only_between_two_accounts_on_the_standard_board() {
        let mut s = lobby(35);
        rated_player(&mut s, 1, "ann", 1620);
        rated_player(&mut s, 2, "bob", 1480);
        named(&mut s, 3, "cy");
        let ask = |s: &mut LobbyState, id, to, rated| {
            s.handle(Command::Challenge {
                id,
                to,
                kind: C4,
                rated,
                clock: None,
                opening: Opening::Standard,
            })
        };
        let rated_of = |e: &[Effect]| {
            e.iter().find_map(|x| match x {
                Effect::OpenRoom { rated, .. } => Some(*rated),
                _ => None,
            })
        };
        // Two accounts, rated asked: the invitation says so with the
        // inviter's rating, and the game moves ratings.
        let inv = invited(&ask(&mut s, 1, 2, true), 2).expect("bob is invited");
        assert!(inv.rated, "{inv:?}");
        assert_eq!(inv.rating, Some(1620));
        assert_eq!(rated_of(&accept(&mut s, 2, 1)), Some(true));
        // Casual when asked so.
        rated_player(&mut s, 4, "dee", 1500);
        rated_player(&mut s, 5, "eve", 1500);
        let inv = invited(&ask(&mut s, 4, 5, false), 5).unwrap();
        assert!(!inv.rated);
        assert_eq!(rated_of(&accept(&mut s, 5, 4)), Some(false));
        // A guest on either side: never rated, whatever was asked.
        rated_player(&mut s, 6, "fay", 1500);
        let inv = invited(&ask(&mut s, 6, 3, true), 3).unwrap();
        assert!(!inv.rated, "{inv:?}");
        assert_eq!(rated_of(&accept(&mut s, 3, 6)), Some(false));
        named(&mut s, 7, "gus");
        rated_player(&mut s, 8, "hal", 1500);
        let inv = invited(&ask(&mut s, 7, 8, true), 8).unwrap();
        assert!(!inv.rated, "{inv:?}");
        assert_eq!(rated_of(&accept(&mut s, 8, 7)), Some(false));
    }

    #[test]
    fn invitations_go_when_either_side_leaves_or_sits_down() {
        let mut s = lobby(33);
        for (id, name) in [(1, "ann"), (2, "bob"), (3, "cy")] {
            named(&mut s, id, name);
        }
        invite(&mut s, 1, 2);
        invite(&mut s, 3, 2);
        // bob sits down with the computer: both invitations are void.
        let e = s.handle(Command::PlayComputer {
            id: 2,
            kind: C4,
            level: Level::Easy,
            human_first: Some(true),
        });
        for from in [1, 3] {
            assert!(
                said(&e, from)[0].contains("bob has started another game"),
                "{e:?}"
            );
            assert!(e.contains(&tell(2, Notice::InvitationGone { from })));
        }
        // A player at a table is not invited; a watcher neither.
        let e = invite(&mut s, 1, 2);
        assert!(said(&e, 1)[0].contains("bob is playing"), "{e:?}");
        // The inviter leaves: the invitation goes from the screen.
        invite(&mut s, 1, 3);
        let e = s.handle(Command::Leave { id: 1 });
        assert!(
            e.contains(&tell(3, Notice::InvitationGone { from: 1 })),
            "{e:?}"
        );
        let e = s.handle(Command::AnswerChallenge {
            id: 3,
            from: 1,
            accept: true,
        });
        assert!(said(&e, 3)[0].contains("no longer open"));
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
            Effect::OpenRoom { clock: Some(c), .. } if *c == TimeControl::new(5, 3)
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
