//! One invitation to a game: as the lobby keeps it, as its recipient's
//! screen shows it, and as it crosses to a host of the cluster.

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::game::GameKind;
use crate::table::Opening;

/// Where someone from another host is seated: a room for a friend, or the
/// table of the person whose invitation they accepted.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum JoinTo {
    /// The room for a friend under this code.
    Room(String),
    /// The table of this person (their session) on the host asked, whose
    /// invitation the visitor accepted.
    Inviter(u64),
}

/// An invitation as its sender puts it together on the who-is-online
/// screen, carried unchanged by the session's request and the lobby's
/// command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The person invited (their session, or the lobby's id for someone on
    /// another host).
    pub to: u64,
    pub kind: GameKind,
    /// Rated, if both have accounts and the board is standard.
    pub rated: bool,
    pub clock: Option<TimeControl>,
    pub opening: Opening,
}

/// An invitation to a game, as its recipient sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    /// The inviter: their session, or in a lobby the id that stands for
    /// someone on another host. On the wire, their session on their host.
    pub from: u64,
    pub name: String,
    /// The inviter has an account (a rated game needs two).
    pub account: bool,
    /// The inviter's rating in this game, for a rated game.
    pub rating: Option<u32>,
    #[serde(with = "kind_text")]
    pub kind: GameKind,
    pub rated: bool,
    /// On the wire as `"3+2"` and the like, read back through the same
    /// checks as a config file's.
    #[serde(with = "clock_text")]
    pub clock: Option<TimeControl>,
    /// How the game opens (swap2 or not).
    #[serde(default)]
    pub opening: Opening,
}

/// A game kind as its id (`connect4`, `gomoku`, `renju`).
mod kind_text {
    use super::GameKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &GameKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A clock as its text (`"3+2"`), `None` as null.
mod clock_text {
    use super::TimeControl;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(clock: &Option<TimeControl>, s: S) -> Result<S::Ok, S::Error> {
        match clock {
            Some(c) => s.serialize_some(&c.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TimeControl>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| t.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invitation_crosses_and_a_bad_clock_or_game_is_refused() {
        let inv = Invitation {
            from: 7,
            name: "ann".into(),
            account: true,
            rating: Some(1620),
            kind: GameKind::Renju,
            rated: true,
            clock: Some(TimeControl::new(3, 2)),
            opening: Opening::Swap2,
        };
        let text = serde_json::to_string(&inv).unwrap();
        assert!(text.contains(r#""kind":"renju""#), "{text}");
        assert!(text.contains(r#""clock":"3+2""#), "{text}");
        assert_eq!(serde_json::from_str::<Invitation>(&text).unwrap(), inv);
        let no_clock = Invitation { clock: None, ..inv };
        let text = serde_json::to_string(&no_clock).unwrap();
        assert_eq!(serde_json::from_str::<Invitation>(&text).unwrap(), no_clock);
        let bad = text.replace("null", r#""99999+0""#);
        assert!(serde_json::from_str::<Invitation>(&bad).is_err(), "{bad}");
        let bad = text.replace("renju", "chess");
        assert!(serde_json::from_str::<Invitation>(&bad).is_err(), "{bad}");
    }
}
