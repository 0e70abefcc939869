//! One table in the host: a task holding the authoritative [`Table`] of a
//! game between two sessions, or a session and the computer. Sessions send
//! it commands through a [`RoomHandle`]; it publishes every new state on a
//! watch channel (a slow session just sees the latest state, nothing queues
//! up) and answers a refused move only to the session that sent it.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::compute::Computer;
use super::{Cmd, Command, SessionId, ToSession};
use crate::clock::{Clock, TimeControl};
use crate::engine::Level;
use crate::game::{Move, Rules, Side};
use crate::protocol::RenderSlot;
use crate::protocol::{Refusal, SeatCmd, Seating};
use crate::store::{
    self, GameRecord, GameResult, MoveRecord, PlayerRecord, Reason, Recorded, Recorder, Stored,
};
use crate::table::{
    ChatLine, Ending, Opening, PLAYERS_CHAT, RatingChange, Seat, Swap2Stage, Table, TableError,
    WATCHERS_CHAT,
};

pub use super::state::RoomId;

/// What every session at the table sees.
#[derive(Debug, Clone)]
pub struct RoomState {
    pub view: crate::table::GameView,
    /// The session in each seat, by side (`None`: the computer).
    pub ids: [Option<SessionId>; 2],
    /// Whether each seat's player is still at the table.
    pub present: [bool; 2],
    /// What another host needs to carry the game on (`None` for a table
    /// followed from another host).
    pub carry: Option<Arc<Carry>>,
    /// The host handed the game over (it restarts): the players carry it
    /// on from another host.
    pub handed_over: bool,
    /// The pictures of this state that its watchers share: the first to
    /// draw it renders, the others take the same bytes.
    pub frames: RenderSlot,
}

/// What a table knows beside its view that another host needs to carry
/// its game on (cluster mode): this round's record so far and what takes
/// each seat back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Carry {
    /// The game's id in the store (the same on every host that runs it).
    pub game: String,
    pub started_ms: i64,
    /// Milliseconds since the start of each move.
    pub move_ms: Vec<u64>,
    /// By side: the player's account, if any.
    pub accounts: [Option<String>; 2],
    /// By side: a guest's resume code.
    pub resumes: [Option<String>; 2],
    /// How the game opens.
    pub opening: Opening,
}

/// A game carried on from another host (cluster mode): what it had
/// reached there.
#[derive(Debug, Clone)]
pub struct Resumed {
    pub game: String,
    pub started_ms: i64,
    /// Every move so far, in order, with its time since the start.
    pub moves: Vec<Move>,
    pub move_ms: Vec<u64>,
    /// Each side's time left, in a game with a clock.
    pub clock_left: Option<[Duration; 2]>,
    /// The sides whose player is not here yet: their seats wait for
    /// them the grace time.
    pub away: [bool; 2],
    /// The last lines of the players' chat and of the watchers'.
    pub chat: [Vec<ChatLine>; 2],
    /// How the game opens, and where a swap2 opening stands (`None`:
    /// over).
    pub opening: Opening,
    pub swap2: Option<Swap2Stage>,
}

/// Lines of each chat a table keeps (and a late watcher or a player
/// back from a dropped connection sees).
pub const CHAT_TAIL: usize = 30;

impl RoomState {
    /// Seating as seen by session `me`.
    pub fn seating(&self, me: SessionId) -> Seating {
        Seating {
            mine: [self.ids[0] == Some(me), self.ids[1] == Some(me)],
            present: self.present,
        }
    }
}

/// Commands from sessions (and the lobby) to a room.
#[derive(Debug)]
pub enum RoomCmd {
    /// A seated person's command (or a watcher's chat line).
    Seat {
        who: SessionId,
        /// The name chat lines go under.
        name: String,
        cmd: SeatCmd,
        /// When the key press reached the host (for the move latency).
        at: Instant,
    },
    /// A session of this account takes its seat back (after a dropped
    /// connection, or from another terminal while the old one lingers).
    Rejoin {
        /// The account, or a guest's resume code.
        key: String,
        id: SessionId,
        inbox: crate::mailbox::Sender<ToSession>,
    },
    /// Someone wants to watch the game (the lobby checked it is public).
    Watch {
        id: SessionId,
        inbox: crate::mailbox::Sender<ToSession>,
    },
    /// A watcher goes.
    Unwatch { id: SessionId },
    /// Stop the game without a result (the host shuts down).
    Abort { reason: String },
    /// The host restarts in a cluster: the room stops without a result,
    /// leaving its game in NATS for another host to carry on.
    HandOver,
    /// Another host runs this game now (this one was cut off or paused
    /// past its lease): the room stops without a result, and its players
    /// here are taken to the table that goes on.
    Fence,
    /// The game with this id is stored or journaled (or the recorder gave
    /// up on it); `change` is how a rated game moved the ratings.
    Recorded {
        game: String,
        change: Option<store::RatingChange>,
    },
}

impl RoomCmd {
    /// A seat's command that is no key press of a named person (a leave
    /// at the end of a session, a visitor's host gone; tests).
    pub fn seat(who: SessionId, cmd: SeatCmd) -> RoomCmd {
        RoomCmd::Seat {
            who,
            name: String::new(),
            cmd,
            at: Instant::now(),
        }
    }
}

/// A cheap handle to a room.
#[derive(Debug, Clone)]
pub struct RoomHandle {
    pub id: RoomId,
    tx: mpsc::Sender<RoomCmd>,
}

impl RoomHandle {
    /// A handle whose commands go to `tx` (cluster mode: a table on
    /// another host, reached through NATS).
    pub fn proxy(id: RoomId, tx: mpsc::Sender<RoomCmd>) -> RoomHandle {
        RoomHandle { id, tx }
    }

    /// Sends a command; a room that has ended ignores it.
    pub async fn send(&self, cmd: RoomCmd) {
        let _ = self.tx.send(cmd).await;
    }

    /// Sends without waiting (from synchronous code, e.g. a Drop); dropped if the room is busy.
    pub fn try_send(&self, cmd: RoomCmd) {
        let _ = self.tx.try_send(cmd);
    }

    /// Sends without waiting; a command the room has no space for comes
    /// back (a room that has ended takes it and ignores it).
    // The command itself comes back, to be sent another way.
    #[allow(clippy::result_large_err)]
    pub fn try_give(&self, cmd: RoomCmd) -> Result<(), RoomCmd> {
        match self.tx.try_send(cmd) {
            Err(mpsc::error::TrySendError::Full(cmd)) => Err(cmd),
            _ => Ok(()),
        }
    }
}

/// Who takes a seat, as the lobby decided, with the person's inbox
/// (where refused moves are told; `None` for the computer or nowhere).
pub type SeatSpec = (
    super::state::Occupant,
    Option<crate::mailbox::Sender<ToSession>>,
);

/// Commands a room may have queued: moves arrive one per person at a time,
/// so a small bound is plenty and keeps a flood from growing memory.
const ROOM_QUEUE: usize = 32;

/// How long a fenced room answers its players' moves (they are being
/// taken to the table that goes on at another host).
const MOVED_ANSWERED: Duration = Duration::from_secs(5);
#[cfg(test)]
pub(crate) const ROOM_QUEUE_FOR_TESTS: usize = ROOM_QUEUE;

/// Longest a finished game's end is kept from the screens while its
/// record is made durable (stored, or journaled when the store is out of
/// reach): a game shown as over survives a kill -9 of the host. Normally a
/// few milliseconds; the bound keeps a stalled store from hiding the end.
const RECORD_HOLD: Duration = Duration::from_secs(2);

/// What every room of a lobby shares.
pub struct RoomServices {
    /// Where rooms report back.
    pub lobby: mpsc::Sender<Cmd>,
    pub computer: Computer,
    /// Where finished games go (`None`: not kept).
    pub recorder: Option<Arc<Recorder>>,
    /// Where room tasks run, so a shutdown can wait for them.
    pub tracker: tokio_util::task::TaskTracker,
    /// Without a clock: how long until the waiting player may claim the win.
    pub claim_after: Duration,
    /// How long a dropped player's seat is kept.
    pub reconnect_grace: Duration,
    /// Most people watching one game.
    pub max_spectators: usize,
    /// Longest chat line, in characters.
    pub chat_max: usize,
    /// What operators see at `/metrics`.
    pub metrics: Arc<crate::metrics::Metrics>,
}

/// Starts a room; `seats[0]` moves first (or, with a swap2 opening,
/// places the opening stones).
#[allow(clippy::too_many_arguments)]
pub fn spawn(
    id: RoomId,
    rules: Rules,
    seats: [SeatSpec; 2],
    rated: bool,
    clock: Option<TimeControl>,
    opening: Opening,
    resumed: Option<Resumed>,
    services: &RoomServices,
) -> (RoomHandle, watch::Receiver<Arc<RoomState>>) {
    let lobby = services.lobby.clone();
    let computer = services.computer.clone();
    let recorder = services.recorder.clone();
    let [a, b] = seats.map(|(seat, inbox)| match seat {
        super::state::Occupant::Human {
            id,
            name,
            colour,
            account,
            rating,
            resume,
        } => (
            Seat {
                rating,
                ..Seat::human(name, colour)
            },
            Sitter {
                id: Some(id),
                present: true,
                inbox,
                level: None,
                account,
                resume,
                away_until: None,
            },
        ),
        super::state::Occupant::Computer { level, colour } => (
            Seat::computer(level, colour),
            Sitter {
                id: None,
                present: true,
                inbox: None,
                level: Some(level),
                account: None,
                resume: None,
                away_until: None,
            },
        ),
    });
    let ratings = [a.0.rating, b.0.rating];
    let mut table = Table::new(rules, [a.0, b.0]);
    table.set_rated(rated, ratings);
    let sitters = [a.1, b.1];
    let mut record = Round::new();
    if let Some(r) = &resumed {
        for &m in &r.moves {
            let Some(side) = table.to_move() else { break };
            if table.play(side, m).is_err() {
                break;
            }
        }
        let since = u64::try_from(store::now_ms().saturating_sub(r.started_ms)).unwrap_or(0);
        record.id = r.game.clone();
        record.started_ms = r.started_ms;
        record.started = super::now()
            .checked_sub(Duration::from_millis(since))
            .unwrap_or_else(super::now);
        record.move_ms = r.move_ms.clone();
        record.move_ms.resize(table.position().stones(), since);
    }
    // A game carried on was replayed as it stands; its opening's stage
    // comes with it.
    table.set_opening(opening);
    if let Some(r) = &resumed {
        table.set_swap2_stage(r.swap2);
    }
    // The first side's time runs from the start (a game carried on: the
    // side to move's, from what it had left).
    let clock = clock.map(|c| {
        let mut clock = Clock::new(c);
        let now = super::now();
        match resumed.as_ref().and_then(|r| r.clock_left) {
            Some(left) => clock.resume(left, table.to_move(), now),
            None => clock.start(table.to_move().unwrap_or(Side::First), now),
        }
        clock
    });
    // The first state; `publish` below adds the clocks and claims.
    let state = Arc::new(RoomState {
        view: table.view().clone(),
        ids: sitters.each_ref().map(|s| s.id),
        present: [true, true],
        carry: None,
        handed_over: false,
        frames: Default::default(),
    });
    let (state_tx, state_rx) = watch::channel(state);
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    let (thoughts_tx, thoughts_rx) = mpsc::channel(1);
    let mut room = Room {
        id,
        in_play: Some(services.metrics.game_in_play(rules.kind())),
        metrics: Arc::clone(&services.metrics),
        table,
        sitters,
        record,
        recorder,
        tx: tx.clone(),
        state_tx,
        relay: None,
        rx,
        lobby,
        computer,
        thinking: None,
        held: None,
        searches: 0,
        thoughts_tx,
        thoughts_rx,
        clock,
        claim_after: services.claim_after,
        grace: services.reconnect_grace,
        turn: Some((Side::First, super::now())),
        watchers: HashSet::new(),
        max_spectators: services.max_spectators,
        chat_max: services.chat_max,
        chat: Default::default(),
        chat_shown: Default::default(),
        handed_over: false,
        fenced: false,
    };
    // A game carried on: its chats as they were; the players not here
    // yet have the grace time.
    if let Some(r) = &resumed {
        for (i, lines) in r.chat.iter().enumerate() {
            room.chat[i] = lines.iter().rev().take(CHAT_TAIL).rev().cloned().collect();
            room.chat_shown[i] = Arc::new(room.chat[i].iter().cloned().collect());
        }
        room.turn = room.table.to_move().map(|s| (s, super::now()));
        for side in Side::BOTH {
            if r.away[side.index()] && room.sitters[side.index()].id.is_some() {
                room.hold_seat(side);
            }
        }
    }
    // What the first screens show, claims included.
    room.publish();
    services.tracker.spawn(room.run());
    (RoomHandle { id, tx }, state_rx)
}

struct Thinking {
    /// Which search this is: an answer from an older one (a round that
    /// ended, a position taken back) is dropped.
    id: u64,
    stop: Arc<AtomicBool>,
    task: JoinHandle<()>,
}

/// A finished search: which search it was and its move.
type Thought = (u64, Option<Move>);

/// Who sits in one seat, beside what the table knows of it: the facts
/// that move together when a rematch swaps the seats' sides.
struct Sitter {
    /// The session (`None`: the computer).
    id: Option<SessionId>,
    /// Still at the table.
    present: bool,
    /// Where refusals go (`None` once the person left, or the computer).
    inbox: Option<crate::mailbox::Sender<ToSession>>,
    /// The computer's level, for a computer seat.
    level: Option<Level>,
    /// The player's account, if any.
    account: Option<String>,
    /// A guest's resume code.
    resume: Option<String>,
    /// The connection dropped mid-game: the seat is kept until then.
    away_until: Option<Instant>,
}

impl Sitter {
    /// What takes this seat back after a dropped connection: the account,
    /// or a guest's resume code.
    fn seat_key(&self) -> Option<&str> {
        self.account.as_deref().or(self.resume.as_deref())
    }
}

/// The game being played this round, for its record.
struct Round {
    id: String,
    started: Instant,
    started_ms: i64,
    /// Milliseconds since the start of each move on the board.
    move_ms: Vec<u64>,
    /// Sent to the recorder already.
    recorded: bool,
}

impl Round {
    fn new() -> Round {
        Round {
            id: GameRecord::new_id(),
            started: super::now(),
            started_ms: store::now_ms(),
            move_ms: Vec::new(),
            recorded: false,
        }
    }
}

/// What the forfeit reasons given by sessions mean for the record.
fn forfeit_reason(reason: &str) -> Reason {
    if reason.contains("idle") {
        Reason::ForfeitIdle
    } else {
        Reason::ForfeitLeft
    }
}

struct Room {
    id: RoomId,
    table: Table,
    metrics: Arc<crate::metrics::Metrics>,
    /// Counts this game among those in play until it is over.
    in_play: Option<crate::metrics::GaugeGuard>,
    /// This round's record so far.
    record: Round,
    /// Where finished games go (`None`: not kept, e.g. benchmarks).
    recorder: Option<Arc<Recorder>>,
    /// To this room itself (the recorder's answers come back this way).
    tx: mpsc::Sender<RoomCmd>,
    /// By side this round, like the table's seats.
    sitters: [Sitter; 2],
    state_tx: watch::Sender<Arc<RoomState>>,
    /// Passes the state on to the watchers, a batch at a time (started
    /// with the first watcher).
    relay: Option<relay::Relay<Arc<RoomState>>>,
    rx: mpsc::Receiver<RoomCmd>,
    lobby: mpsc::Sender<Cmd>,
    computer: Computer,
    thinking: Option<Thinking>,
    /// A finished game whose record is not durable yet, and until when its
    /// end is kept from the screens ([`RECORD_HOLD`]).
    held: Option<(String, tokio::time::Instant)>,
    searches: u64,
    thoughts_tx: mpsc::Sender<Thought>,
    thoughts_rx: mpsc::Receiver<Thought>,
    /// Both players' time, in a game with a clock: the room is its
    /// authority (a move that arrives after the time ran out loses).
    clock: Option<Clock>,
    claim_after: Duration,
    grace: Duration,
    /// The side to move and since when (for claims).
    turn: Option<(Side, Instant)>,
    /// Who watches (bounded by `max_spectators`).
    watchers: HashSet<SessionId>,
    max_spectators: usize,
    chat_max: usize,
    /// Each chat's last lines ([`CHAT_TAIL`]), players' then watchers'.
    chat: [VecDeque<ChatLine>; 2],
    /// The same, as last published (rebuilt only when a line comes).
    chat_shown: [Arc<Vec<ChatLine>>; 2],
    /// The game went to the cluster (the host restarts): the room ends
    /// without a result.
    handed_over: bool,
    /// Another host runs the game now ([`RoomCmd::Fence`]): its players
    /// are being taken there.
    fenced: bool,
}

impl Room {
    fn side_of(&self, who: SessionId) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.sitters[s.index()].id == Some(who))
    }

    fn humans_present(&self) -> bool {
        Side::BOTH.into_iter().any(|s| {
            let sitter = &self.sitters[s.index()];
            sitter.id.is_some() && (sitter.present || sitter.away_until.is_some())
        })
    }

    /// A dropped player's seat: kept for the grace time when the player
    /// has an account and the game is on. Whether it is kept.
    fn hold_seat(&mut self, side: Side) -> bool {
        let sitter = &mut self.sitters[side.index()];
        let Some(key) = sitter.seat_key().map(str::to_string) else {
            return false;
        };
        if self.table.is_over() {
            return false;
        }
        sitter.present = false;
        sitter.inbox = None;
        sitter.away_until = Some(super::now() + self.grace);
        tracing::info!(room = self.id, side = ?side, "connection lost: seat kept");
        let _ = self
            .lobby
            .try_send(Command::SeatHeld { key, room: self.id }.into());
        true
    }

    /// Seats no longer kept (the game ended, or the grace ran out).
    fn release_seats(&mut self) {
        for sitter in &mut self.sitters {
            if sitter.away_until.take().is_some()
                && let Some(key) = sitter.seat_key().map(str::to_string)
            {
                let _ = self.lobby.try_send(Command::SeatReleased { key }.into());
            }
        }
    }

    /// A session of `account` takes its seat back, if the game is on and
    /// the seat was not given up: a dropped connection within the grace,
    /// or another terminal while the old one is still connected (that one
    /// is closed).
    fn rejoin(&mut self, key: &str, id: SessionId, inbox: crate::mailbox::Sender<ToSession>) {
        // A resume code typed in vain is told why (an account's automatic
        // attempt at every login is not).
        let refuse = |why: Refusal| {
            if self
                .sitters
                .iter()
                .any(|s| s.resume.as_deref() == Some(key))
            {
                let _ = inbox.try_send(ToSession::LobbyError(Box::new(why)));
            }
        };
        if self.table.is_over() {
            refuse(Refusal::ResumeOver);
            return;
        }
        let Some(side) = Side::BOTH
            .into_iter()
            .find(|s| self.sitters[s.index()].seat_key() == Some(key))
        else {
            return;
        };
        let gave_up = {
            let sitter = &self.sitters[side.index()];
            !sitter.present && sitter.away_until.is_none()
        };
        if gave_up {
            refuse(Refusal::PlayerLeft);
            return;
        }
        let sitter = &mut self.sitters[side.index()];
        if sitter.id == Some(id) {
            return;
        }
        let old = sitter.id;
        if let Some(old_inbox) = sitter.inbox.take() {
            let _ = old_inbox.try_send(ToSession::Kick(
                "You connected again from another terminal: the game goes on there.".into(),
            ));
        }
        sitter.id = Some(id);
        sitter.inbox = Some(inbox);
        sitter.present = true;
        let was_away = sitter.away_until.take().is_some();
        tracing::info!(room = self.id, side = ?side, was_away, "player back at the table");
        if was_away {
            let _ = self.lobby.try_send(
                Command::SeatReleased {
                    key: key.to_string(),
                }
                .into(),
            );
        }
        if let Some(old) = old {
            let _ = self.lobby.try_send(Command::LeftRoom { id: old }.into());
        }
        let _ = self.lobby.try_send(
            Command::Rejoined {
                id,
                room: self.id,
                key: key.to_string(),
            }
            .into(),
        );
        self.publish();
    }

    /// The grace of a dropped player ran out: the game is lost.
    fn grace_over(&mut self) {
        let now = super::now();
        let Some(side) = Side::BOTH
            .into_iter()
            .find(|s| self.sitters[s.index()].away_until.is_some_and(|t| t <= now))
        else {
            return;
        };
        if !self.table.is_over() {
            self.stop_thinking();
            // The end screen says it: "bob (Blue) did not come back:
            // ann (Red) wins by forfeit".
            self.leave_or_abort(side, "did not come back");
            self.sync_clock(None);
            if let Some(text) = self.table.view().ending_text() {
                tracing::info!(room = self.id, result = %text, "game over");
            }
        }
        self.release_seats();
        self.record_if_over();
        self.publish();
    }

    /// In a game between two people without a clock: from when the
    /// player waiting for the other's move may claim the win.
    fn claim_from(&self) -> Option<Instant> {
        let (side, since) = self.turn?;
        let people = self.sitters.iter().all(|s| s.level.is_none());
        (self.clock.is_none() && people && !self.table.is_over())
            .then(|| since + self.claim_after)
            .filter(|_| self.table.to_move() == Some(side))
    }

    fn publish(&mut self) {
        if self.table.is_over() {
            self.in_play = None;
        }
        let to_move = self.table.to_move();
        if self.turn.map(|t| t.0) != to_move {
            self.turn = to_move.map(|s| (s, super::now()));
        }
        if self.held.is_some() {
            return; // published once the record is durable
        }
        let mut view = self.table.view().clone();
        view.clock = self.clock.map(|c| c.view(super::now()));
        view.claim_from = self.claim_from();
        view.away = self.sitters.each_ref().map(|s| s.away_until);
        view.watchers = self.watchers.len();
        view.chat = self.chat_shown.clone();
        // The record's id once the game ended and was handed to the
        // recorder (its analysis is kept with it).
        view.record = (self.table.is_over() && self.record.recorded && self.recorder.is_some())
            .then(|| self.record.id.clone());
        self.state_tx.send_replace(Arc::new(RoomState {
            view,
            ids: self.sitters.each_ref().map(|s| s.id),
            present: self.sitters.each_ref().map(|s| s.present),
            carry: Some(Arc::new(Carry {
                game: self.record.id.clone(),
                started_ms: self.record.started_ms,
                move_ms: self.record.move_ms.clone(),
                accounts: self.sitters.each_ref().map(|s| s.account.clone()),
                resumes: self.sitters.each_ref().map(|s| s.resume.clone()),
                opening: self.table.opening(),
            })),
            handed_over: self.handed_over,
            frames: Default::default(),
        }));
    }

    /// Someone starts watching, if there is room; they get the table's
    /// state to follow, like the players.
    fn watch(&mut self, id: SessionId, inbox: crate::mailbox::Sender<ToSession>) {
        if self.side_of(id).is_some() {
            return;
        }
        if self.watchers.len() >= self.max_spectators && !self.watchers.contains(&id) {
            let _ = inbox.try_send(ToSession::LobbyError(Box::new(Refusal::FullOfWatchers(
                self.max_spectators,
            ))));
            let _ = self.lobby.try_send(Command::LeftRoom { id }.into());
            return;
        }
        self.watchers.insert(id);
        self.publish();
        let link = super::RoomLink {
            room: RoomHandle {
                id: self.id,
                tx: self.tx.clone(),
            },
            state: self
                .relay
                .get_or_insert_with(|| relay::Relay::start(self.state_tx.subscribe()))
                .subscribe(self.state_tx.borrow().clone()),
            resume: None,
        };
        if inbox.try_send(ToSession::Watching(Box::new(link))).is_err() {
            self.watchers.remove(&id);
            self.publish();
        }
    }

    /// A line said at the table: to the players' chat from a player, to
    /// the watchers' from a watcher; from anyone else, nowhere.
    fn chat(&mut self, who: SessionId, from: &str, text: &str) {
        let side = self.side_of(who);
        let which = if side.is_some() {
            PLAYERS_CHAT
        } else if self.watchers.contains(&who) {
            WATCHERS_CHAT
        } else {
            return;
        };
        // Within the length in characters (checked before), at most twice
        // as many columns (wide characters).
        let text = crate::text::sanitize(text.trim(), self.chat_max * 2);
        if text.is_empty() {
            return;
        }
        let lines = &mut self.chat[which];
        if lines.len() >= CHAT_TAIL {
            lines.pop_front();
        }
        lines.push_back(ChatLine {
            from: crate::text::sanitize(from, crate::text::MAX_NAME_WIDTH),
            side,
            text,
        });
        self.chat_shown[which] = Arc::new(lines.iter().cloned().collect());
        self.publish();
    }

    fn stop_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
            t.task.abort();
        }
    }

    /// Starts the computer's search if it is to move and not already thinking.
    fn maybe_think(&mut self) {
        if self.thinking.is_some() {
            return;
        }
        let Some(side) = self.table.to_move() else {
            return;
        };
        let Some(level) = self.sitters[side.index()].level else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let computer = self.computer.clone();
        let position = self.table.position().clone();
        self.searches += 1;
        let id = self.searches;
        let tx = self.thoughts_tx.clone();
        let task = tokio::spawn({
            let stop = Arc::clone(&stop);
            async move {
                let m = computer.think(position, level, stop).await;
                let _ = tx.send((id, m)).await;
            }
        });
        self.thinking = Some(Thinking { id, stop, task });
    }

    async fn run(mut self) {
        tracing::info!(room = self.id, game = %self.table.position().rules().describe(),
            first = %self.table.view().seats[0].label(), second = %self.table.view().seats[1].label(), "game start");
        loop {
            self.maybe_think();
            let hold_until = self.held.as_ref().map(|h| h.1);
            let flag_at = self
                .clock
                .and_then(|c| c.deadline())
                .map(tokio::time::Instant::from_std);
            let grace_at = self
                .sitters
                .iter()
                .filter_map(|s| s.away_until)
                .min()
                .map(tokio::time::Instant::from_std);
            tokio::select! {
                _ = tokio::time::sleep_until(grace_at.unwrap_or_else(tokio::time::Instant::now)), if grace_at.is_some() => {
                    self.grace_over();
                }
                _ = tokio::time::sleep_until(flag_at.unwrap_or_else(tokio::time::Instant::now)), if flag_at.is_some() => {
                    self.check_flag();
                }
                _ = tokio::time::sleep_until(hold_until.unwrap_or_else(tokio::time::Instant::now)), if hold_until.is_some() => {
                    tracing::warn!(room = self.id, "the game's record is slow to store; showing the end anyway");
                    self.release();
                }
                cmd = self.rx.recv() => match cmd {
                    Some(cmd) => {
                        self.command(cmd);
                        if self.handed_over {
                            break;
                        }
                    }
                    None => break,
                },
                Some((id, m)) = self.thoughts_rx.recv() => {
                    if self.thinking.as_ref().map(|t| t.id) != Some(id) {
                        continue; // an answer for a position that is gone
                    }
                    self.thinking = None;
                    if let Some(m) = m
                        && let Some(side) = self.table.to_move()
                        && self.sitters[side.index()].level.is_some()
                        && !self.check_flag()
                    {
                        match self.table.play(side, m) {
                            Ok(_) => self.metrics.observe_move(self.table.position().rules().kind(), None),
                            Err(e) => {
                                tracing::error!(room = self.id, error = %e, "the computer's move was refused");
                                self.table.abort("the computer failed");
                            }
                        }
                        self.after_move(side);
                    }
                }
            }
            // Everyone gone: done, once the last game's end is shown.
            if !self.humans_present() && self.held.is_none() {
                break;
            }
        }
        self.stop_thinking();
        let _ = self
            .lobby
            .send(Command::RoomClosed { room: self.id }.into())
            .await;
        if self.handed_over {
            self.refuse_moves_after_hand_over().await;
        }
    }

    /// The game went on at another host: moves its players sent before
    /// they were taken there are answered ([`Refusal::GameMoved`]), not
    /// lost without a word. Those already queued, and after a fence
    /// (the players are on their way to the table that goes on) those
    /// sent for [`MOVED_ANSWERED`] or until nobody holds the room's
    /// handle; after a hand-over (this host shuts down) only the queued.
    async fn refuse_moves_after_hand_over(&mut self) {
        let until = tokio::time::Instant::now()
            + if self.fenced {
                MOVED_ANSWERED
            } else {
                Duration::ZERO
            };
        loop {
            let cmd = match self.rx.try_recv() {
                Ok(cmd) => cmd,
                Err(mpsc::error::TryRecvError::Disconnected) => return,
                Err(mpsc::error::TryRecvError::Empty) => {
                    match tokio::time::timeout_at(until, self.rx.recv()).await {
                        Ok(Some(cmd)) => cmd,
                        Ok(None) | Err(_) => return,
                    }
                }
            };
            if let RoomCmd::Seat {
                who,
                cmd: SeatCmd::Move(_),
                ..
            } = cmd
                && let Some(side) = self.side_of(who)
                && let Some(inbox) = &self.sitters[side.index()].inbox
            {
                let _ = inbox.try_send(ToSession::Rejected(Refusal::GameMoved));
            }
        }
    }

    /// Ends the game if the side to move has run out of time; whether it did.
    fn check_flag(&mut self) -> bool {
        let Some(clock) = &self.clock else {
            return false;
        };
        let Some(side) = clock.flagged(super::now()) else {
            return false;
        };
        if self.table.is_over() {
            return false;
        }
        self.stop_thinking();
        self.table.flag(side);
        self.sync_clock(None);
        if let Some(text) = self.table.view().ending_text() {
            tracing::info!(room = self.id, result = %text, "game over");
        }
        self.record_if_over();
        self.publish();
        true
    }

    /// Brings the clock in line with the table: stopped once the game is
    /// over, else running for the side to act. `mover`: the side that has
    /// just moved or chosen (it gets its increment).
    fn sync_clock(&mut self, mover: Option<Side>) {
        let Some(clock) = &mut self.clock else {
            return;
        };
        let now = super::now();
        match self.table.to_move() {
            _ if self.table.is_over() => clock.stop(now),
            Some(side) => {
                if let Some(mover) = mover {
                    // The check before the move said the mover was in time.
                    let _ = clock.moved(mover, now);
                }
                // In a swap2 opening one side may place several stones.
                if mover != Some(side.other()) {
                    clock.start(side, now);
                }
            }
            None => clock.stop(now),
        }
    }

    fn after_move(&mut self, mover: Side) {
        self.sync_clock(Some(mover));
        let ms = super::now()
            .saturating_duration_since(self.record.started)
            .as_millis() as u64;
        let stones = self.table.position().stones();
        self.record.move_ms.resize(stones, ms);
        if let Some(text) = self.table.view().ending_text() {
            tracing::info!(room = self.id, result = %text, "game over");
        }
        self.record_if_over();
        self.publish();
    }

    /// The finished game as the store keeps it.
    fn game_record(&self) -> Option<GameRecord> {
        let view = self.table.view();
        let rules = view.position.rules();
        let (result, winner, reason, line) = match view.ending.as_ref()? {
            Ending::Line { winner, line } => (
                GameResult::Win,
                Some(winner.index() as u8),
                Reason::Line,
                line.iter().map(|p| (p.x, p.y)).collect(),
            ),
            Ending::Draw => (GameResult::Draw, None, Reason::Draw, Vec::new()),
            Ending::Forfeit { leaver, reason } => (
                GameResult::Win,
                Some(leaver.other().index() as u8),
                forfeit_reason(reason),
                Vec::new(),
            ),
            Ending::Aborted { .. } => (GameResult::Aborted, None, Reason::Aborted, Vec::new()),
            Ending::Resigned { loser } => (
                GameResult::Win,
                Some(loser.other().index() as u8),
                Reason::Resign,
                Vec::new(),
            ),
            Ending::DrawAgreed => (GameResult::Draw, None, Reason::Draw, Vec::new()),
            Ending::Flag { loser } => (
                GameResult::Win,
                Some(loser.other().index() as u8),
                Reason::Flag,
                Vec::new(),
            ),
        };
        let players = [0, 1].map(|i| {
            let seat = &view.seats[i];
            PlayerRecord {
                name: seat.name.clone(),
                account: self.sitters[i].account.clone(),
                computer: seat.computer.map(|l| l.to_string()),
                colour: seat.colour.to_string(),
                rating_before: None,
                rating_after: None,
            }
        });
        let moves = view
            .position
            .history()
            .iter()
            .enumerate()
            .map(|(i, p)| MoveRecord {
                x: p.x,
                y: p.y,
                ms: self.record.move_ms.get(i).copied().unwrap_or(0),
            })
            .collect();
        Some(GameRecord {
            id: self.record.id.clone(),
            game: rules.kind(),
            width: rules.width(),
            height: rules.height(),
            k: rules.line(),
            rule: GameRecord::rule_name(rules).to_string(),
            rated: view.rated,
            started_ms: self.record.started_ms,
            ended_ms: store::now_ms().max(self.record.started_ms),
            first: 0,
            players,
            result,
            winner,
            reason,
            line,
            moves,
        })
    }

    /// Sends a game that just ended to the recorder, once, and holds its
    /// end back from the screens until the recorder answers
    /// ([`RoomCmd::Recorded`], with a rated game's new ratings).
    fn record_if_over(&mut self) {
        if self.record.recorded || !self.table.is_over() {
            return;
        }
        // Nobody waits for a seat at a finished game.
        self.release_seats();
        self.record.recorded = true;
        let (Some(recorder), Some(record)) = (&self.recorder, self.game_record()) else {
            return;
        };
        let game = record.id.clone();
        let answer = recorder.submit(record);
        self.held = Some((game.clone(), tokio::time::Instant::now() + RECORD_HOLD));
        let tx = self.tx.clone();
        let room = self.id;
        tokio::spawn(async move {
            let change = match answer.await {
                Ok(Recorded::Stored(Stored::New(change))) => change,
                Ok(Recorded::Failed(e)) => {
                    tracing::error!(room, game = %game, error = %e, "game not recorded");
                    None
                }
                Ok(Recorded::Journaled) => {
                    tracing::warn!(room, game = %game, "store unreachable: game journaled");
                    None
                }
                _ => None,
            };
            let _ = tx.send(RoomCmd::Recorded { game, change }).await;
        });
    }

    /// Shows what was held back while a record was being made durable.
    fn release(&mut self) {
        if self.held.take().is_some() {
            self.publish();
        }
    }

    /// The recorder answered for a game of this room: show its end, with
    /// the rating change of a rated one.
    fn recorded(&mut self, game: &str, change: Option<store::RatingChange>) {
        if let Some(change) = change {
            self.rated(game, change);
        }
        if self.held.as_ref().is_some_and(|h| h.0 == game) {
            self.release();
        }
    }

    /// The store moved the ratings of this round's game: show the change
    /// and tell the lobby (the next quick match uses the new ratings).
    fn rated(&mut self, game: &str, change: store::RatingChange) {
        if game != self.record.id {
            return; // a round that is gone
        }
        let mut shown = [None; 2];
        for side in Side::BOTH {
            let i = side.index();
            let Some(account) = &self.sitters[i].account else {
                continue;
            };
            let Some(k) = change.accounts.iter().position(|a| a == account) else {
                continue;
            };
            let before = change.before[k].rating.round().max(0.0) as u32;
            let after = change.after[k].rating.round().max(0.0) as u32;
            shown[i] = Some(RatingChange { before, after });
            if let Some(id) = self.sitters[i].id {
                let _ = self.lobby.try_send(
                    Command::Rated {
                        id,
                        kind: change.game,
                        rating: after,
                    }
                    .into(),
                );
            }
        }
        self.table.set_rating_change(shown);
        self.publish();
    }

    fn command(&mut self, cmd: RoomCmd) {
        match cmd {
            RoomCmd::Seat { who, name, cmd, at } => self.seat(who, &name, cmd, at),
            RoomCmd::Abort { reason } => {
                if !self.table.is_over() {
                    tracing::info!(room = self.id, reason = %reason, "game stopped");
                }
                self.stop_thinking();
                self.table.abort(&reason);
                self.sync_clock(None);
                self.record_if_over();
                self.publish();
            }
            RoomCmd::Fence => {
                if self.table.is_over() {
                    return;
                }
                tracing::warn!(
                    room = self.id,
                    "another host runs this game now: the table here stops"
                );
                self.stop_thinking();
                self.handed_over = true;
                self.fenced = true;
                for sitter in &self.sitters {
                    let (Some(id), Some(key)) = (sitter.id, sitter.seat_key()) else {
                        continue;
                    };
                    if let Some(inbox) = &sitter.inbox {
                        let _ = inbox.try_send(ToSession::Told(Box::new(
                            crate::protocol::News::GameElsewhere,
                        )));
                    }
                    let _ = self.lobby.try_send(
                        Command::Fenced {
                            id,
                            key: key.to_string(),
                        }
                        .into(),
                    );
                }
                self.publish();
            }
            RoomCmd::HandOver => {
                if self.table.is_over() {
                    return; // nothing to carry on: its record is on its way
                }
                tracing::info!(room = self.id, "game handed over to the cluster");
                self.stop_thinking();
                self.handed_over = true;
                self.publish();
            }
            RoomCmd::Rejoin { key, id, inbox } => self.rejoin(&key, id, inbox),
            RoomCmd::Recorded { game, change } => self.recorded(&game, change),
            RoomCmd::Watch { id, inbox } => self.watch(id, inbox),
            RoomCmd::Unwatch { id } => {
                if self.watchers.remove(&id) {
                    self.publish();
                }
            }
        }
    }

    /// A seat's command: the table's one place for what a person asks of
    /// it (a watcher may only chat).
    fn seat(&mut self, who: SessionId, name: &str, cmd: SeatCmd, at: Instant) {
        if let SeatCmd::Chat(text) = &cmd {
            return self.chat(who, name, text);
        }
        let Some(side) = self.side_of(who) else {
            return; // not seated here
        };
        match cmd {
            SeatCmd::Chat(_) => {}
            SeatCmd::Move(m) => {
                if self.check_flag() {
                    return; // too late: the time ran out first
                }
                match self.table.play(side, m) {
                    Ok(_) => {
                        self.after_move(side);
                        self.metrics
                            .observe_move(self.table.position().rules().kind(), Some(at.elapsed()));
                    }
                    Err(e) => {
                        if let Some(inbox) = &self.sitters[side.index()].inbox {
                            let _ =
                                inbox.try_send(ToSession::Rejected(Refusal::Table(Box::new(e))));
                        }
                    }
                }
            }
            SeatCmd::Leave { reason, dropped } => {
                if !self.sitters[side.index()].present {
                    return;
                }
                if dropped && self.hold_seat(side) {
                    self.publish();
                    return;
                }
                let sitter = &mut self.sitters[side.index()];
                sitter.present = false;
                sitter.inbox = None;
                if !self.table.is_over() {
                    self.stop_thinking();
                    self.leave_or_abort(side, reason.text());
                    self.sync_clock(None);
                    if let Some(text) = self.table.view().ending_text() {
                        tracing::info!(room = self.id, result = %text, "game over");
                    }
                    self.record_if_over();
                }
                let _ = self.lobby.try_send(Command::LeftRoom { id: who }.into());
                self.publish();
            }
            SeatCmd::Rematch => {
                if self.sitters.iter().all(|s| s.present) && self.table.ask_rematch(side) {
                    self.stop_thinking();
                    // Seats swap sides: the one who moved second moves first.
                    self.sitters.swap(0, 1);
                    self.record = Round::new();
                    self.held = None;
                    self.in_play = Some(
                        self.metrics
                            .game_in_play(self.table.position().rules().kind()),
                    );
                    if let Some(clock) = &mut self.clock {
                        clock.reset();
                        clock.start(Side::First, super::now());
                    }
                    tracing::info!(room = self.id, round = self.table.view().round, "rematch");
                }
                self.publish();
            }
            SeatCmd::Undo => {
                self.stop_thinking();
                match self.table.undo(side) {
                    Ok(()) => {
                        self.sync_clock(None);
                        let stones = self.table.position().stones();
                        self.record.move_ms.truncate(stones);
                        if self.record.recorded {
                            // A finished game taken back goes on: what
                            // follows is recorded as a game of its own.
                            self.record.id = GameRecord::new_id();
                            self.record.recorded = false;
                            self.held = None;
                        }
                        self.publish();
                    }
                    Err(e) => {
                        if let Some(inbox) = &self.sitters[side.index()].inbox {
                            let _ =
                                inbox.try_send(ToSession::Rejected(Refusal::Table(Box::new(e))));
                        }
                    }
                }
            }
            SeatCmd::Claim => {
                let due = self.claim_from().is_some_and(|t| super::now() >= t);
                if !due || self.table.to_move() != Some(side.other()) {
                    if let Some(inbox) = &self.sitters[side.index()].inbox {
                        let _ = inbox.try_send(ToSession::Rejected(Refusal::ClaimEarly));
                    }
                    return;
                }
                let secs = self.claim_after.as_secs();
                self.table
                    .forfeit(side.other(), &format!("stayed idle for {secs} s"));
                tracing::info!(room = self.id, "win claimed: the opponent was idle");
                self.after_answer(side, Ok(()));
            }
            SeatCmd::Resign => {
                let result = if self.table.is_over() || !self.aborts_early() {
                    self.table.resign(side)
                } else {
                    self.abort_early(side, "resigned");
                    Ok(())
                };
                self.after_answer(side, result);
            }
            SeatCmd::Offer(kind) => {
                let result = self.table.offer(side, kind);
                self.after_answer(side, result);
            }
            SeatCmd::Answer(accept) => {
                let stones = self.table.position().stones();
                let result = self.table.answer(side, accept).map(|_| ());
                // A takeback: the moves' times go with the moves.
                if self.table.position().stones() < stones {
                    self.stop_thinking();
                    let left = self.table.position().stones();
                    self.record.move_ms.truncate(left);
                }
                self.after_answer(side, result);
            }
            SeatCmd::Swap2(choice) => {
                if self.check_flag() {
                    return;
                }
                match self.table.choose_swap2(side, choice) {
                    Ok(swapped) => {
                        let mut chooser = side;
                        if swapped {
                            // The players change seats: each keeps their
                            // own time, and the chooser's clock runs on.
                            self.sitters.swap(0, 1);
                            if let Some(clock) = &mut self.clock {
                                clock.swap_sides();
                            }
                            chooser = side.other();
                        }
                        tracing::info!(room = self.id, choice = choice.id(), "swap2 choice");
                        // The chooser's clock stops, the next actor's runs.
                        self.after_answer(chooser, Ok(()));
                    }
                    Err(e) => self.after_answer(side, Err(e)),
                }
            }
        }
    }

    /// After a resignation, offer or answer from `side`: the refusal to
    /// that side, or the new state (and the record of a game it ended)
    /// to everyone.
    /// `side` left the game in play (`reason`: "left", "did not come
    /// back"...): lost by forfeit once both players have moved, aborted
    /// before (unrated, nobody wins).
    fn leave_or_abort(&mut self, side: Side, reason: &str) {
        if self.aborts_early() {
            self.abort_early(side, reason);
        } else {
            self.table.forfeit(side, reason);
        }
    }

    /// Whether leaving or resigning now aborts the game: between two
    /// people, before both have moved (a rating is never lost to a game
    /// that did not begin). Against the computer it is lost as ever.
    fn aborts_early(&self) -> bool {
        let people = self.sitters.iter().all(|s| s.level.is_none());
        people && !self.table.view().both_moved()
    }

    /// Ends the game without a result: `side` `did` (left, resigned)
    /// before both players had moved. The end screen says "Game aborted:
    /// bob (Blue) left before both players had moved".
    fn abort_early(&mut self, side: Side, did: &str) {
        let who = self.table.view().seat(side).label();
        self.table
            .abort(&format!("{who} {did} before both players had moved"));
    }

    fn after_answer(&mut self, side: Side, result: Result<(), TableError>) {
        match result {
            Ok(()) => {
                self.sync_clock(None);
                if let Some(text) = self.table.view().ending_text()
                    && !self.record.recorded
                {
                    tracing::info!(room = self.id, result = %text, "game over");
                }
                self.record_if_over();
                self.publish();
            }
            Err(e) => {
                if let Some(inbox) = &self.sitters[side.index()].inbox {
                    let _ = inbox.try_send(ToSession::Rejected(Refusal::Table(Box::new(e))));
                }
            }
        }
    }
}

mod relay;

#[cfg(test)]
mod timers;
