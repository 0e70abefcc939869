//! Why a host will not do what was asked of it for someone: the lobby's
//! answer to another host's request (joining a room, an invitation,
//! watching, a seat taken back). It crosses hosts as data; its words are
//! made where it is shown ([`std::fmt::Display`]), the names in it
//! sanitised there.

use serde::{Deserialize, Serialize};

/// Why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    /// The request did not parse, or broke a bound.
    #[error("a request this host does not understand")]
    NotUnderstood,
    #[error("the host is shutting down")]
    ShuttingDown,
    #[error("that game is not offered here")]
    GameNotOffered,
    #[error("that player has left")]
    PlayerLeft,
    /// `{0}` (a name) turned invitations off.
    #[error("{0} does not take invitations")]
    NoInvitations(String),
    #[error("{0} is playing: try later")]
    Playing(String),
    #[error("{0} is watching a game: try later")]
    Watching(String),
    #[error("{0} is waiting for a friend: try later")]
    Hosting(String),
    #[error("you have invited {0} already: wait for the answer")]
    InvitedAlready(String),
    #[error("at most {0} invitations may wait at once: wait for answers")]
    TooManyInvitations(usize),
    #[error("{0} has many invitations waiting: try later")]
    ManyInvitationsWaiting(String),
    #[error("that invitation is no longer open")]
    InvitationClosed,
    #[error("{0} is no longer free to play")]
    NoLongerFree(String),
    #[error("{0} has left")]
    HasLeft(String),
    #[error("your friend has left")]
    FriendLeft,
    #[error("that game has ended: choose another")]
    GameEnded,
    #[error("that game is private: its players did not allow watchers")]
    Private,
    #[error("you have left")]
    YouLeft,
    #[error("you are at another table")]
    AtAnotherTable,
    #[error("that game has no seat for you")]
    NoSeat,
    /// The room under code `{0}` has started its game.
    #[error("the room {0} is already playing: ask your friend for a new code")]
    RoomPlaying(String),
    #[error("no room has the code {}: check it with your friend", crate::text::sanitize_quote(.0, 8))]
    NoSuchRoom(String),
    /// The game kept in NATS is not one this host can run.
    #[error("the game kept in NATS is not one this host can run")]
    CannotRun,
    /// Cluster mode: a move reached a table whose game went on at another
    /// host (fenced or handed over) before its player was taken there.
    #[error("your game moved to another host: play your move again")]
    GameMoved,
    /// Cluster mode: the host holding the player's table did not take a
    /// move in time (it went, or NATS is restarting).
    #[error("the host of your game is not answering: play again in a moment")]
    HostNotAnswering,
    /// A room code of one's own room, typed to join it.
    #[error("that is your own room: give the code to a friend")]
    OwnRoom,
    /// Asked to watch a game one plays in.
    #[error("you play in that game")]
    YouPlayThere,
    #[error("you cannot invite yourself")]
    InviteYourself,
    /// A name kept for the computer's seats.
    #[error("that name is kept for the computer: choose another")]
    NameReserved,
    /// A name asked for is someone else's: the person has another
    /// (boxed: a refusal stays as small as one name).
    #[error("{} is taken: you are {}", .0.asked, .0.given)]
    NameTaken(Box<NameTaken>),
    /// The game has all the watchers it may have (`0`).
    #[error("that game has all the watchers it may have ({0}): choose another")]
    FullOfWatchers(usize),
    /// A resume code of a game that has ended.
    #[error("that game is over: the code no longer leads back to it")]
    ResumeOver,
    /// A win claimed before the opponent has been idle long enough.
    #[error("you can claim the win only when your opponent has not moved for a while")]
    ClaimEarly,
    /// A move, offer, answer or takeback the table did not take (boxed:
    /// a move's reasons carry names and points).
    #[error(transparent)]
    Table(Box<crate::table::TableError>),
    /// The computer has no such level at this game (its id, `connect4`).
    #[error("the computer has no such level at {0}")]
    NoSuchLevel(String),
    /// More invitations in a minute than anyone may send (the bound).
    #[error("at most {0} invitations a minute: wait a little")]
    InvitationsPerMinute(usize),
    /// The host of the game or person asked for (its name) did not answer.
    #[error("{0} did not answer: try again")]
    HostDidNotAnswer(String),
    /// The host of the friend's room with this code did not answer.
    #[error("the host of the room {0} did not answer: try again")]
    RoomHostDidNotAnswer(String),
    /// The host of the game (its name) did not answer in time: the game
    /// did not start.
    #[error("{0} did not answer: the game did not start")]
    GameDidNotStart(String),
    /// Words made by a host of an older version, shown as they came
    /// (sanitised); this version sends none.
    #[error("{0}")]
    Said(String),
}

/// The name asked for and the one given instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameTaken {
    pub asked: String,
    pub given: String,
}

impl Refusal {
    /// The words for a person, from a refusal that came from another host
    /// (the names in it are theirs: sanitised, and bounded).
    pub fn shown(&self) -> String {
        crate::text::sanitize(&self.to_string(), 200)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_crosses_as_data_and_reads_as_before() {
        let r = Refusal::NoLongerFree("ann".into());
        let bytes = serde_json::to_vec(&r).unwrap();
        assert_eq!(serde_json::from_slice::<Refusal>(&bytes).unwrap(), r);
        assert_eq!(r.to_string(), "ann is no longer free to play");
        assert_eq!(
            Refusal::NoSuchRoom("ab\u{1b}cd".into()).to_string(),
            format!(
                "no room has the code {}: check it with your friend",
                crate::text::sanitize_quote("ab\u{1b}cd", 8)
            )
        );
        assert!(
            !Refusal::HasLeft("x\u{1b}[2J".into())
                .shown()
                .contains('\u{1b}')
        );
    }
}
