//! What the host tells a person unasked: an invitation sent, declined or
//! lapsed, a game that goes on at another host. It crosses hosts as data;
//! its words are made where it is shown, in the reader's language
//! ([`crate::session::words::news`]); [`std::fmt::Display`] gives the
//! English, for logs and tests.

use serde::{Deserialize, Serialize};

/// How long an invitation waits for its answer, in seconds (the lobby's
/// rule, said on screens).
pub const INVITATION_WAIT_SECS: u64 = 60;

/// Something to tell a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "kebab-case")]
pub enum News {
    /// The invitation to `0` went out.
    #[error("invitation sent to {0}: it waits {INVITATION_WAIT_SECS} s for an answer")]
    InvitationSent(String),
    #[error("{0} did not answer your invitation")]
    NotAnswered(String),
    #[error("{0} declined your invitation")]
    Declined(String),
    /// The invitation can no longer be answered (boxed: news stays as
    /// small as a name).
    #[error("your invitation lapsed: {} {}", .0.name, .0.why)]
    Lapsed(Box<Lapse>),
    /// Cluster mode: the table was handed to another host.
    #[error("your game goes on at another host: taking you there")]
    GameElsewhere,
    /// Cluster mode: a game across hosts did not begin.
    #[error("the game on the other host did not start")]
    NotStarted,
    #[error("your opponent left before the game began")]
    OpponentLeftEarly,
    /// Cluster mode: the host of the person's game went and no other
    /// host took the game on.
    #[error("The host of your game did not come back: it is lost, sorry.")]
    HostLost,
    #[error("The host of your game is not answering: looking for it...")]
    HostSilent,
    /// Another host would not do what this person asked (boxed).
    #[error("{0}")]
    Refused(Box<super::Refusal>),
    /// An invitation the host of the person invited (its name) did not
    /// take in time.
    #[error("{0} did not answer: the invitation did not reach them")]
    NotDelivered(String),
    /// Words made elsewhere (a host of an older version); this version
    /// sends none.
    #[error("{0}")]
    Said(String),
}

/// An invitation that lapsed: whose, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lapse {
    pub name: String,
    pub why: LapseWhy,
}

/// Why an invitation lapsed before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "kebab-case")]
pub enum LapseWhy {
    #[error("has started another game")]
    StartedAnotherGame,
    #[error("does not take invitations now")]
    NoInvitationsNow,
    #[error("has left")]
    Left,
}
