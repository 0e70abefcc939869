//! The messages between sessions, the lobby task and the rooms. These
//! carry channels (a session's inbox, a room's state), so they live here,
//! apart from the pure [`super::state`].

use std::sync::Arc;

use tokio::sync::{oneshot, watch};

use super::room::{RoomHandle, RoomState};
use super::state::{Command, SessionId};
pub use crate::protocol::{GameSummary, Refusal};

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
    LobbyError(String),
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
    Said(String),
    /// An invitation to a game.
    Invited(Box<super::state::Invitation>),
    /// The invitation from this session is gone.
    InvitationGone { from: SessionId },
    /// A guest back at their table by a resume code chose these stones
    /// (`[t]`) before.
    Stones(crate::term::board::Theme),
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
        arrival: super::state::Arrival,
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
        reply: oneshot::Sender<Vec<super::state::Person>>,
    },
    /// Cluster mode: the other hosts' counts in, this host's own back.
    Cluster {
        remote: crate::presence::Stats,
        people: Vec<super::state::Person>,
        reply: oneshot::Sender<(crate::presence::Stats, Vec<super::state::Person>)>,
    },
    /// Cluster mode: another host matched this seeker; take it out of the
    /// queue and say who it is (`None`: it no longer seeks).
    Reserve {
        id: SessionId,
        kind: crate::game::GameKind,
        reply: oneshot::Sender<Option<super::state::Seeker>>,
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
        visitor: super::state::Visitor,
        reply: oneshot::Sender<bool>,
    },
    /// Cluster mode: this seeker plays at a table on another host; take
    /// it out of the queue and give its description and inbox.
    LeaveFor {
        id: SessionId,
        kind: crate::game::GameKind,
        reply: oneshot::Sender<Option<(super::state::Seeker, crate::mailbox::Sender<ToSession>)>>,
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
        room: super::RoomId,
        reply: oneshot::Sender<Result<GhostWatcher, Refusal>>,
    },
    /// Cluster mode: someone on another host invites a person here; why
    /// not, for them.
    InvitedFromAfar {
        host: String,
        to: SessionId,
        invitation: super::state::Invitation,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Cluster mode: the invitation `inviter` sent to `session` on `host`
    /// is off (`why`, for the inviter).
    InviteRefused {
        inviter: SessionId,
        host: String,
        session: SessionId,
        why: String,
    },
    /// Cluster mode: someone on another host takes a seat here (in the
    /// room for a friend under a code, or at the table of the person whose
    /// invitation they accepted); the error is for them.
    OpenFor {
        to: crate::protocol::JoinTo,
        visitor: super::state::Visitor,
        ratings: [Option<u32>; 2],
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Cluster mode: `id` goes to a room for a friend on another host;
    /// its description and inbox, if it is free.
    LeaveToJoin {
        id: SessionId,
        reply: oneshot::Sender<Option<(super::state::Seeker, crate::mailbox::Sender<ToSession>)>>,
    },
    /// Cluster mode: carry on here a game whose host went away, with `id`
    /// back in the seat `key` takes; why not, if not.
    CarryOn {
        id: SessionId,
        key: String,
        game: Box<Carried>,
        reply: oneshot::Sender<Result<super::RoomId, Refusal>>,
    },
    /// Cluster mode: a player on another host takes back their seat
    /// (by `key`) at the table `room` here, as a visitor.
    RejoinForVisitor {
        room: super::RoomId,
        key: String,
        visitor: super::state::Visitor,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Something for session `id` to read, wherever it is.
    Tell { id: SessionId, text: String },
    /// Anything else, for the lobby state as it is.
    Do(Command),
}

/// A game carried on from another host, as read from NATS.
#[derive(Debug, Clone)]
pub struct Carried {
    pub rules: crate::game::Rules,
    /// The seats, first player first (their session ids are set here).
    pub seats: [super::state::Occupant; 2],
    pub rated: bool,
    pub clock: Option<crate::clock::TimeControl>,
    pub resumed: super::room::Resumed,
    /// Its key in NATS and the revision claimed.
    pub from: (String, u64),
}

/// What the lobby hands the cluster (cluster mode only).
pub enum Across {
    /// A table opened here: its game is kept in NATS while it runs.
    Kept {
        room: super::RoomId,
        /// The table, stopped if another host takes its game over.
        handle: super::room::RoomHandle,
        state: watch::Receiver<Arc<RoomState>>,
        /// A game carried on from another host: its key in NATS and the
        /// revision claimed.
        from: Option<(String, u64)>,
    },
    /// Something the lobby's state asks of the other hosts.
    Ask(super::state::Ask),
    /// `id` accepted the invitation of `inviter` on `host`: it plays there.
    Accept {
        id: SessionId,
        host: String,
        inviter: SessionId,
        seeker: super::state::Seeker,
        inbox: crate::mailbox::Sender<ToSession>,
    },
    /// A table here seats a visitor from another host as `ghost`: its
    /// state and what the room tells the seat go to the visitor's host;
    /// the visitor's commands come back through `handle`.
    Opened {
        handle: RoomHandle,
        state: watch::Receiver<Arc<RoomState>>,
        ghost: SessionId,
        visitor: super::state::Visitor,
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
