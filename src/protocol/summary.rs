//! The summaries the lobby, the screens and the other hosts share.

use serde::{Deserialize, Serialize};

use crate::game::GameKind;

type SessionId = u64;

/// A game in play that may be watched: as the lobby lists it, as the
/// games screen shows it, and as a host of a cluster lists its own for
/// the others.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The table, to ask to watch it (on the screen, a game on another
    /// host has a number of its own: see `server/conn.rs`).
    pub room: u64,
    /// "Connect Four 7x6" and the like.
    pub game: String,
    /// Both players as shown at the table (name, with the rating in a
    /// rated game), first player first.
    pub players: [String; 2],
    pub rated: bool,
    /// Stones on the board.
    pub moves: usize,
    pub watchers: usize,
    /// Cluster mode: the host the game is on, if not this one. Not on the
    /// wire: the host that asked knows whom it asked.
    #[serde(skip)]
    pub host: Option<String>,
    /// The rules and both seats as facts, so the reader's screen names
    /// them in its own language (`None` from a host of an older version:
    /// `game` and `players` are shown as they came).
    #[serde(default)]
    pub facts: Option<Box<SummaryFacts>>,
}

/// A game in play's rules and seats, as facts (see [`GameSummary::facts`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryFacts {
    pub game: String,
    pub width: u8,
    pub height: u8,
    pub line: u8,
    pub exact: bool,
    /// First player first: name, colour, rating, the computer's level.
    pub seats: [SummarySeat; 2],
}

/// One seat of a game in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummarySeat {
    pub name: String,
    pub colour: String,
    pub rating: Option<u32>,
    /// The computer's level by name (`easy`, `level 3`), at its seat.
    pub computer: Option<String>,
}

impl SummaryFacts {
    /// The facts of a game in play.
    pub fn of(view: &crate::table::GameView) -> SummaryFacts {
        let r = view.position.rules();
        SummaryFacts {
            game: r.kind().id().to_string(),
            width: r.width(),
            height: r.height(),
            line: r.line(),
            exact: r.is_exact(),
            seats: [0, 1].map(|i| {
                let s = &view.seats[i];
                SummarySeat {
                    name: s.name.clone(),
                    colour: s.colour.name().to_string(),
                    rating: s.rating,
                    computer: s.computer.map(|l| l.name().to_string()),
                }
            }),
        }
    }

    /// The rules, if they are ones this host knows.
    pub fn rules(&self) -> Option<crate::game::Rules> {
        let kind: GameKind = self.game.parse().ok()?;
        crate::game::Rules::new(kind, self.width, self.height, self.line, self.exact).ok()
    }

    /// A seat as the table has it, if its colour and level read
    /// (names bounded and cleaned).
    pub fn seat(&self, i: usize) -> Option<crate::table::Seat> {
        let s = self.seats.get(i)?;
        let colour = s.colour.parse().ok()?;
        let name = crate::text::sanitize(&s.name, crate::text::MAX_NAME_WIDTH);
        let mut seat = match &s.computer {
            Some(level) => crate::table::Seat::computer(level.parse().ok()?, colour),
            None => crate::table::Seat::human(name, colour),
        };
        seat.rating = s.rating.filter(|&r| r <= 10_000);
        Some(seat)
    }
}

impl GameSummary {
    /// Most watched first, then the longest, then the oldest table.
    pub fn order(a: &GameSummary, b: &GameSummary) -> std::cmp::Ordering {
        (b.watchers, b.moves, a.room).cmp(&(a.watchers, a.moves, b.room))
    }
}

/// Someone online: as the lobby lists them, as the who-is-online screen
/// shows them, and as a host of a cluster announces its people in NATS
/// (without `id`, `me` and `host`, which mean something only to the host
/// that reads them: it fills them in).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// The session, to invite it (for someone on another host: their
    /// session there, or in a lobby's list the id that stands for them).
    #[serde(skip)]
    pub id: SessionId,
    pub name: String,
    /// Ratings by game ([`GameKind::rating_index`]), for a player with an
    /// account.
    pub ratings: [Option<u32>; 2],
    pub account: bool,
    /// Their account's id (cluster mode: the same account on two hosts is
    /// one person).
    #[serde(default)]
    pub account_id: Option<String>,
    #[serde(with = "doing_word")]
    pub doing: Doing,
    /// Takes invitations.
    #[serde(default = "yes")]
    pub invitable: bool,
    /// This is the one asking.
    #[serde(skip)]
    pub me: bool,
    /// Cluster mode: the host they are on, when it is another one.
    #[serde(skip)]
    pub host: Option<String>,
}

fn yes() -> bool {
    true
}

/// [`Doing`] as its word.
mod doing_word {
    use super::Doing;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(doing: &Doing, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(doing.word())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Doing, D::Error> {
        let word = String::deserialize(d)?;
        Doing::from_word(&word).ok_or_else(|| serde::de::Error::custom("no such doing"))
    }
}

/// What someone online is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doing {
    Lobby,
    Seeking(GameKind),
    /// Waiting for a friend in a room of their own.
    Hosting,
    Playing,
    Watching,
}

impl Doing {
    /// One word for the wire (cluster mode).
    pub fn word(self) -> &'static str {
        match self {
            Doing::Lobby => "lobby",
            Doing::Seeking(GameKind::ConnectFour) => "seeking_connect4",
            Doing::Seeking(GameKind::Gomoku) => "seeking_gomoku",
            Doing::Seeking(GameKind::Renju) => "seeking_renju",
            Doing::Hosting => "hosting",
            Doing::Playing => "playing",
            Doing::Watching => "watching",
        }
    }

    /// The word back; `None` for anything else.
    pub fn from_word(word: &str) -> Option<Doing> {
        Some(match word {
            "lobby" => Doing::Lobby,
            "seeking_connect4" => Doing::Seeking(GameKind::ConnectFour),
            "seeking_gomoku" => Doing::Seeking(GameKind::Gomoku),
            "seeking_renju" => Doing::Seeking(GameKind::Renju),
            "hosting" => Doing::Hosting,
            "playing" => Doing::Playing,
            "watching" => Doing::Watching,
            _ => return None,
        })
    }

    /// In words, for the who-is-online screen.
    pub fn describe(self) -> String {
        match self {
            Doing::Lobby => "in the lobby".into(),
            Doing::Seeking(kind) => format!("seeking {}", kind.name()),
            Doing::Hosting => "waiting for a friend".into(),
            Doing::Playing => "playing".into(),
            Doing::Watching => "watching".into(),
        }
    }
}
