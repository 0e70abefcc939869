//! What goes into the lobby core and what comes out: the [`Command`]s
//! sessions, rooms and the host send it, the [`Notice`]s it has told to
//! sessions, and the [`Effect`]s the lobby task carries out.

use super::*;

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
        challenge: crate::protocol::Challenge,
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
    /// The person chose this language (`[L]`): kept like the stones.
    SetLanguage {
        id: SessionId,
        lang: crate::lang::Lang,
    },
}

impl Command {
    /// The session asking for something for itself, if any.
    pub(super) fn asker(&self) -> Option<SessionId> {
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
            | Command::SetLanguage { id, .. }
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
    LobbyError(crate::protocol::Refusal),
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
    Told(crate::protocol::News),
    /// Someone invites you to a game.
    Invited(Invitation),
    /// The invitation from this session is gone (lapsed, withdrawn).
    InvitationGone { from: SessionId },
    /// The stones and language this guest chose before, back at their
    /// table by a resume code.
    Prefs(super::Prefs),
    /// You wait in quick match for `kind`: the other seeker here nearest
    /// to being paired with you, if any (see [`LobbyState::nearest`]).
    Waiting {
        kind: GameKind,
        nearest: Option<Nearest>,
    },
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

/// A table to start; `seats[0]` moves first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTable {
    pub room: RoomId,
    pub rules: Rules,
    pub seats: [Occupant; 2],
    /// Whether the game moves the players' ratings.
    pub rated: bool,
    /// The game's time control (`None`: no clock).
    pub clock: Option<TimeControl>,
    /// How the game opens.
    pub opening: Opening,
}

/// What the lobby task is to do, in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Send this to the session (dropped if its inbox is full: a session
    /// that does not read is cut off by its own limits).
    Tell { to: SessionId, notice: Notice },
    /// Start a table.
    OpenRoom(NewTable),
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
    /// Cluster mode: something for the other hosts ([`Ask`]).
    Across(Ask),
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

/// What the lobby asks of the other hosts (cluster mode): made here,
/// carried to the cluster unchanged ([`crate::lobby::Across::Ask`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// this session seeks a quick match and found nobody
    /// here; the other hosts may have someone.
    Seek {
        id: SessionId,
        kind: GameKind,
        seeker: Seeker,
    },
    /// this session no longer seeks.
    Unseek { id: SessionId },
    /// an account arrived with no game here; it may have a
    /// seat in a game kept in NATS (its host gone, or another host's).
    FindSeat { id: SessionId, key: String },
    /// someone signed in here with this account or key (at
    /// `at_ms`, Unix milliseconds): their sessions on the other hosts end
    /// (one person, one session in the whole cluster; the newest wins).
    SignedIn {
        account: Option<String>,
        identity: Option<String>,
        at_ms: i64,
    },
    /// a room for a friend opened here under `code`.
    CodeOpened { code: String, kind: GameKind },
    /// the room for a friend under `code` closed (or started).
    CodeClosed { code: String },
    /// no room here has `code`: look on the other hosts
    /// (and if none has it, [`LobbyState::code_unknown`]).
    FindCode {
        id: SessionId,
        code: String,
        from_login: bool,
        joiner: Seeker,
    },
    /// an invitation for `session` on `host`.
    Invite {
        host: String,
        session: SessionId,
        invitation: Invitation,
    },
    /// `id` declined the invitation of `inviter` on `host`.
    Decline {
        host: String,
        inviter: SessionId,
        id: SessionId,
    },
}
