//! The lobby: who is online, the quick-match queues, rooms waiting for a
//! friend, and the rooms in play. The decisions are made by the pure
//! [`LobbyState`] (command in, effects out); one task owns it and carries
//! out its effects (the actor pattern): it spawns the rooms, keeps each
//! session's inbox and each room's handle, and publishes the counts.
//! Sessions talk to it through a cheap [`LobbyHandle`] over a bounded
//! channel and hear back on their own bounded inbox. Counts for the lobby
//! screen go out on a watch channel, at most a few times a second, so ten
//! thousand idle sessions cost no queue space.

pub(crate) use crate::room_code as codes;
pub mod compute;
pub mod naming;
pub mod room;
pub mod state;
mod task;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::task::TaskTracker;

use crate::game::Rules;
use crate::presence::Stats;
use compute::Computer;
use room::{RoomCmd, RoomHandle, RoomServices, RoomState};

pub use crate::protocol::{GameSummary, Refusal};
pub(crate) use codes::{looks_like_code, normalise_code};
pub use state::{
    Arrival, Ask, Command, Effect, Invitation, LobbyState, NewTable, Notice, Occupant, Person,
    Prefs, RoomId, Seeker, SessionId, Visitor,
};
pub use task::spawn;
pub(crate) use task::stats_interval;

// The messages between sessions, the lobby task and the rooms. These
// carry channels (a session's inbox, a room's state), so they live here,
// apart from the pure [`state`].
/// What the lobby and rooms tell a session. Large payloads are boxed:
/// every session's inbox sets aside room for a block of these when it is
/// made, so their size counts once per person online.
#[derive(Debug)]
pub enum ToSession {
    /// Your display name (unique among those online).
    Name(String),
    /// Your room for a friend is open under this code.
    RoomCode(String),
    /// What you asked for did not work.
    /// Boxed: a message to a session stays small (two refusals side by
    /// side would double it).
    LobbyError(Box<Refusal>),
    /// The login name had the shape of a room code, and no room has it:
    /// the session decides whether it may be the person's name.
    NoRoomForLogin(String),
    /// You sit at a table now.
    Joined(Box<RoomLink>),
    /// You watch a game now.
    Watching(Box<RoomLink>),
    /// What the player asked of their seat (a move, an undo, a claim)
    /// was refused.
    Rejected(crate::protocol::Refusal),
    /// Close the session with this message.
    Kick(String),
    /// Close the session: the same key connected again (its seat, if
    /// any, is kept for the new session).
    Replaced(String),
    /// Something to read, wherever the person is.
    /// Boxed, as [`ToSession::LobbyError`].
    Told(Box<crate::protocol::News>),
    /// An invitation to a game.
    Invited(Box<state::Invitation>),
    /// The invitation from this session is gone.
    InvitationGone { from: SessionId },
    /// A guest back at their table by a resume code chose these stones
    /// (`[t]`) and this language (`[L]`) before.
    Prefs(Prefs),
    /// The host's analysis of a finished game this session asked for
    /// (from the host's analyst, not the lobby).
    Analysed(
        Box<(
            crate::session::review::AnalyzeAsk,
            crate::session::review::Analysed,
        )>,
    ),
    /// What the host made of an attempt at a puzzle (its id).
    PuzzleOutcome(Box<(String, crate::session::puzzle::PuzzleOutcome)>),
    /// You wait in quick match for this game: the other seeker here
    /// nearest to being paired with you, if any.
    Waiting(Box<(crate::game::GameKind, Option<crate::presence::Nearest>)>),
}

/// A session's link to its table.
#[derive(Debug)]
pub struct RoomLink {
    pub room: RoomHandle,
    pub state: watch::Receiver<Arc<RoomState>>,
    /// A guest's resume code for this seat (private to this session).
    pub resume: Option<String>,
}

/// A watcher from another host: the room, the id they watch as, and the
/// inbox on which the room lets them in (or says why not).
pub type GhostWatcher = (RoomHandle, SessionId, crate::mailbox::Receiver<ToSession>);

/// What goes to the lobby task.
pub enum Cmd {
    /// Arrive; the display name given comes back on `reply`.
    Join {
        arrival: state::Arrival,
        inbox: crate::mailbox::Sender<ToSession>,
        reply: oneshot::Sender<String>,
    },
    /// The games in play that may be watched, most watched first.
    Games {
        reply: oneshot::Sender<Vec<GameSummary>>,
    },
    /// Everyone online, as `id` sees the list.
    People {
        id: SessionId,
        reply: oneshot::Sender<Vec<state::Person>>,
    },
    /// Cluster mode: the other hosts' counts in, this host's own back.
    Cluster {
        remote: crate::presence::Stats,
        people: Vec<state::Person>,
        reply: oneshot::Sender<(crate::presence::Stats, Vec<state::Person>)>,
    },
    /// Cluster mode: another host matched this seeker; take it out of the
    /// queue and say who it is (`None`: it no longer seeks).
    Reserve {
        id: SessionId,
        kind: crate::game::GameKind,
        reply: oneshot::Sender<Option<state::Seeker>>,
    },
    /// Cluster mode: the reserved seeker seeks again.
    Release {
        id: SessionId,
        kind: crate::game::GameKind,
    },
    /// Cluster mode: seat the reserved seeker and `visitor` at a new table
    /// here; `false` if the seeker has gone.
    OpenAcross {
        id: SessionId,
        kind: crate::game::GameKind,
        visitor: state::Visitor,
        reply: oneshot::Sender<bool>,
    },
    /// Cluster mode: this seeker plays at a table on another host; take
    /// it out of the queue and give its description and inbox.
    LeaveFor {
        id: SessionId,
        kind: crate::game::GameKind,
        reply: oneshot::Sender<Option<(state::Seeker, crate::mailbox::Sender<ToSession>)>>,
    },
    /// Cluster mode: no host has the room `code` that `id` asked for.
    CodeUnknown {
        id: SessionId,
        code: String,
        from_login: bool,
    },
    /// Cluster mode: this session would watch a game on another host:
    /// its name and inbox, if it is free to.
    WatchElsewhere {
        id: SessionId,
        reply: oneshot::Sender<Option<(String, crate::mailbox::Sender<ToSession>)>>,
    },
    /// Cluster mode: someone on another host would watch the game at
    /// `room`: the room's handle, the session id they watch as and the
    /// inbox the room answers on (with [`ToSession::Watching`] or why not).
    WatchForVisitor {
        room: RoomId,
        reply: oneshot::Sender<Result<GhostWatcher, Refusal>>,
    },
    /// Cluster mode: someone on another host invites a person here; why
    /// not, for them.
    InvitedFromAfar {
        host: String,
        to: SessionId,
        invitation: state::Invitation,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Cluster mode: the invitation `inviter` sent to `session` on `host`
    /// is off (`why`, for the inviter).
    InviteRefused {
        inviter: SessionId,
        host: String,
        session: SessionId,
        why: crate::protocol::News,
    },
    /// Cluster mode: someone on another host takes a seat here (in the
    /// room for a friend under a code, or at the table of the person whose
    /// invitation they accepted); the error is for them.
    OpenFor {
        to: crate::protocol::JoinTo,
        visitor: state::Visitor,
        ratings: [Option<u32>; 2],
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Cluster mode: `id` goes to a room for a friend on another host;
    /// its description and inbox, if it is free.
    LeaveToJoin {
        id: SessionId,
        reply: oneshot::Sender<Option<(state::Seeker, crate::mailbox::Sender<ToSession>)>>,
    },
    /// Cluster mode: carry on here a game whose host went away, with `id`
    /// back in the seat `key` takes; why not, if not.
    CarryOn {
        id: SessionId,
        key: String,
        game: Box<Carried>,
        reply: oneshot::Sender<Result<RoomId, Refusal>>,
    },
    /// Cluster mode: a player on another host takes back their seat
    /// (by `key`) at the table `room` here, as a visitor.
    RejoinForVisitor {
        room: RoomId,
        key: String,
        visitor: state::Visitor,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Something for session `id` to read, wherever it is.
    Tell {
        id: SessionId,
        news: crate::protocol::News,
    },
    /// Anything else, for the lobby state as it is.
    Do(Command),
}

/// A game carried on from another host, as read from NATS.
#[derive(Debug, Clone)]
pub struct Carried {
    pub rules: crate::game::Rules,
    /// The seats, first player first (their session ids are set here).
    pub seats: [state::Occupant; 2],
    pub rated: bool,
    pub clock: Option<crate::clock::TimeControl>,
    pub resumed: room::Resumed,
    /// Its key in NATS and the revision claimed.
    pub from: (String, u64),
}

/// What the lobby hands the cluster (cluster mode only).
pub enum Across {
    /// A table opened here: its game is kept in NATS while it runs.
    Kept {
        room: RoomId,
        /// The table, stopped if another host takes its game over.
        handle: room::RoomHandle,
        state: watch::Receiver<Arc<RoomState>>,
        /// A game carried on from another host: its key in NATS and the
        /// revision claimed.
        from: Option<(String, u64)>,
    },
    /// Something the lobby's state asks of the other hosts.
    Ask(state::Ask),
    /// `id` accepted the invitation of `inviter` on `host`: it plays there.
    Accept {
        id: SessionId,
        host: String,
        inviter: SessionId,
        seeker: state::Seeker,
        inbox: crate::mailbox::Sender<ToSession>,
    },
    /// A table here seats a visitor from another host as `ghost`: its
    /// state and what the room tells the seat go to the visitor's host;
    /// the visitor's commands come back through `handle`.
    Opened {
        handle: RoomHandle,
        state: watch::Receiver<Arc<RoomState>>,
        ghost: SessionId,
        visitor: state::Visitor,
        inbox: crate::mailbox::Receiver<ToSession>,
    },
}

impl From<Command> for Cmd {
    fn from(cmd: Command) -> Cmd {
        Cmd::Do(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_to_a_session_is_small() {
        // A session's inbox (and every other queue to a session) holds
        // room for a block of 32 messages from the start: at 80 bytes a
        // message that was 2.5 KiB per person online.
        assert!(std::mem::size_of::<ToSession>() <= 32);
    }
}

/// The time now, for the lobby task, the rooms and the sessions' screens:
/// tokio's clock, so the timers that wake a room (`sleep_until` on its
/// flag, the end of a reconnect grace) and the time it reads when they do
/// are one clock. That is the real time, except in a test that pauses
/// tokio's clock (`#[tokio::test(start_paused = true)]`,
/// `tokio::time::advance`): then it moves only as the test says. Outside a
/// runtime, the real time. Pure code (the clocks in [`crate::clock`], the
/// lobby's [`LobbyState`]) is given the time, never reads it.
pub fn now() -> std::time::Instant {
    tokio::time::Instant::now().into_std()
}

/// A cheap-to-clone handle to the lobby.
#[derive(Clone)]
pub struct LobbyHandle {
    tx: mpsc::Sender<Cmd>,
    stats: watch::Receiver<Stats>,
    /// Every room task, so a shutdown can wait for their last records.
    rooms: TaskTracker,
}

impl LobbyHandle {
    /// Cluster mode: hands the lobby the other hosts' counts (shown summed
    /// with its own) and gets its own back. Never waits: a full queue
    /// drops the exchange (the receiver then errs).
    pub fn exchange(
        &self,
        remote: Stats,
        people: Vec<state::Person>,
    ) -> oneshot::Receiver<(Stats, Vec<state::Person>)> {
        let (reply, rx) = oneshot::channel();
        let _ = self.tx.try_send(Cmd::Cluster {
            remote,
            people,
            reply,
        });
        rx
    }

    /// Joins; returns the display name given (unique), or `None` if the lobby is gone.
    pub async fn join(
        &self,
        arrival: Arrival,
        inbox: crate::mailbox::Sender<ToSession>,
    ) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Cmd::Join {
                arrival,
                inbox,
                reply,
            })
            .await
            .ok()?;
        rx.await.ok()
    }

    pub async fn send(&self, cmd: impl Into<Cmd>) {
        let _ = self.tx.send(cmd.into()).await;
    }

    /// Waits (at most `limit`) for every room to end; a room ends once its
    /// players have left, and it has handed its game to the recorder by then.
    pub async fn rooms_ended(&self, limit: Duration) -> bool {
        self.rooms.close();
        tokio::time::timeout(limit, self.rooms.wait()).await.is_ok()
    }

    /// The games that may be watched, most watched first (at most
    /// [`GAMES_LISTED`]); empty if the lobby is gone.
    pub async fn games(&self) -> Vec<GameSummary> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Cmd::Games { reply }).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Everyone online as `id` sees the list (at most
    /// [`state::PEOPLE_LISTED`]); empty if the lobby is gone.
    pub async fn people(&self, id: SessionId) -> Vec<Person> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Cmd::People { id, reply }).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Cluster mode: takes a seeker another host matched out of the queue.
    pub async fn reserve(&self, id: SessionId, kind: crate::game::GameKind) -> Option<Seeker> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Reserve { id, kind, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Cluster mode: seats a reserved seeker with a visitor; `false` if
    /// the seeker has gone.
    pub async fn open_across(
        &self,
        id: SessionId,
        kind: crate::game::GameKind,
        visitor: Visitor,
    ) -> bool {
        let (reply, rx) = oneshot::channel();
        let cmd = Cmd::OpenAcross {
            id,
            kind,
            visitor,
            reply,
        };
        if self.tx.send(cmd).await.is_err() {
            return false;
        }
        rx.await.unwrap_or(false)
    }

    /// Cluster mode: a session goes to a friend's room on another host.
    pub async fn leave_to_join(
        &self,
        id: SessionId,
    ) -> Option<(Seeker, crate::mailbox::Sender<ToSession>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::LeaveToJoin { id, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Cluster mode: `id` would watch a game on another host: its name
    /// and inbox, if it is free to.
    pub async fn watch_elsewhere(
        &self,
        id: SessionId,
    ) -> Option<(String, crate::mailbox::Sender<ToSession>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::WatchElsewhere { id, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Cluster mode: someone on another host would watch the game at
    /// `room` here: the room, the id they watch as, and the inbox on which
    /// the room lets them in (or says why not).
    pub async fn watch_for_visitor(&self, room: RoomId) -> Result<GhostWatcher, Refusal> {
        self.ask(|reply| Cmd::WatchForVisitor { room, reply }).await
    }

    /// Sends the command `make` builds around a reply channel and waits
    /// for the answer; the error says why not (for someone on another host).
    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Cmd,
    ) -> Result<T, Refusal> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(make(reply)).await.is_err() {
            return Err(Refusal::ShuttingDown);
        }
        rx.await.unwrap_or(Err(Refusal::ShuttingDown))
    }

    /// Cluster mode: carry on here a game whose host went away, with `id`
    /// back in the seat `key` takes.
    /// The room it goes on in here.
    pub async fn carry_on(
        &self,
        id: SessionId,
        key: String,
        game: Carried,
    ) -> Result<RoomId, Refusal> {
        self.ask(|reply| Cmd::CarryOn {
            id,
            key,
            game: Box::new(game),
            reply,
        })
        .await
    }

    /// Cluster mode: a player on another host takes their seat at `room`
    /// back, as a visitor.
    pub async fn rejoin_for_visitor(
        &self,
        room: RoomId,
        key: String,
        visitor: Visitor,
    ) -> Result<(), Refusal> {
        self.ask(|reply| Cmd::RejoinForVisitor {
            room,
            key,
            visitor,
            reply,
        })
        .await
    }

    /// Cluster mode: someone on another host invites a person here.
    pub async fn invited_from_afar(
        &self,
        host: String,
        to: SessionId,
        invitation: Invitation,
    ) -> Result<(), Refusal> {
        self.ask(|reply| Cmd::InvitedFromAfar {
            host,
            to,
            invitation,
            reply,
        })
        .await
    }

    /// Cluster mode: someone on another host takes a seat here: in a
    /// friend's room, or at the table of the person here whose invitation
    /// they accepted.
    pub async fn open_for(
        &self,
        to: crate::protocol::JoinTo,
        visitor: Visitor,
        ratings: [Option<u32>; 2],
    ) -> Result<(), Refusal> {
        self.ask(|reply| Cmd::OpenFor {
            to,
            visitor,
            ratings,
            reply,
        })
        .await
    }

    /// Cluster mode: a seeker goes to play on another host.
    pub async fn leave_for(
        &self,
        id: SessionId,
        kind: crate::game::GameKind,
    ) -> Option<(Seeker, crate::mailbox::Sender<ToSession>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::LeaveFor { id, kind, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// For synchronous code (a Drop); dropped if the lobby is overloaded.
    pub fn try_send(&self, cmd: impl Into<Cmd>) {
        let _ = self.tx.try_send(cmd.into());
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
    /// Where finished games go (`None`: nowhere).
    pub recorder: Option<Arc<crate::store::Recorder>>,
    /// How long quick match waits before the computer is offered.
    pub match_wait: Duration,
    /// Quick matches' time controls, by game.
    pub clocks: HashMap<crate::game::GameKind, crate::clock::TimeControl>,
    /// Without a clock: how long until a player may claim the win.
    pub claim_after: Duration,
    /// How long a dropped player's seat is kept.
    pub reconnect_grace: Duration,
    /// Most people watching one game.
    pub max_spectators: usize,
    /// Longest chat line.
    pub chat_max: usize,
    /// What operators see at `/metrics`.
    pub metrics: Arc<crate::metrics::Metrics>,
    /// Cluster mode: where seekers and visitors' tables go.
    pub across: Option<mpsc::Sender<Across>>,
}

/// How many messages may wait for the cluster ([`Across`]).
pub const ACROSS_QUEUE: usize = 4096;

/// Most games the list of games to watch holds (the most watched).
pub const GAMES_LISTED: usize = 100;

/// How many commands may wait for the lobby; senders wait beyond that
/// (backpressure rather than unbounded memory).
const LOBBY_QUEUE: usize = 4096;
/// How often the counts may change on screen.
const STATS_INTERVAL: Duration = Duration::from_millis(500);
/// Each change of the counts redraws everyone in the lobby: with more
/// people online, the counts change less often, so that they cause at
/// most about this many redraws a second across the host (10,000 people
/// in the lobby would otherwise cost 20,000 redraws a second).
const STATS_REDRAWS_PER_SEC: u32 = 2_000;
/// The longest the counts on screen may lag.
const STATS_INTERVAL_MAX: Duration = Duration::from_secs(10);
