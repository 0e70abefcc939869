//! One finished game as the store keeps it: rules, both players, who
//! started, every move with its time, the result and why, the winning line
//! and the ratings before and after. The same struct is a journal line
//! (JSON), so it is checked ([`GameRecord::validate`]) before it is
//! written anywhere.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::{GameKind, Rules};

/// A stored or exported name ([`GameResult`], [`Reason`]) that is none of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} '{}'", crate::text::sanitize_quote(.name, 20))]
pub struct UnknownName {
    /// What was named: `result` or `reason`.
    pub what: &'static str,
    /// The name as given (bounded; shown sanitised).
    pub name: String,
}

/// Why a [`GameRecord`] cannot be stored or journaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum InvalidRecord {
    #[error("id is not a UUID")]
    Id,
    #[error("invalid rules")]
    Rules,
    #[error("first must be 0 or 1")]
    First,
    #[error("ended before it started")]
    Times,
    #[error("a win needs a winner 0 or 1")]
    WinWithoutWinner,
    #[error("only a win has a winner")]
    WinnerWithoutWin,
    #[error("a player's text is too long")]
    TextTooLong,
    #[error("rating is not a number")]
    Rating,
    #[error("more moves or line points than the board has")]
    TooManyPoints,
    #[error("a point is off the board")]
    OffBoard,
}

/// A stored game's moves or winning line that do not read back.
#[derive(Debug, Error)]
pub enum BadPoints {
    #[error("moves: {0}")]
    Moves(serde_json::Error),
    #[error("winning line: {0}")]
    Line(serde_json::Error),
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    Win,
    Draw,
    Aborted,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// A line of the winning length.
    Line,
    /// The board filled up.
    Draw,
    /// The loser left the table.
    ForfeitLeft,
    /// The loser stopped moving.
    ForfeitIdle,
    /// The loser's clock ran out.
    Flag,
    /// The loser resigned.
    Resign,
    /// Cut short (shutdown, both gone).
    Aborted,
}

macro_rules! names {
    ($t:ty, $what:literal, $($v:ident = $s:literal),+) => {
        impl $t {
            /// The stored and exported name.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$v => $s),+ }
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl FromStr for $t {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                match s {
                    $($s => Ok(Self::$v),)+
                    _ => Err(UnknownName {
                        what: $what,
                        name: s.chars().take(40).collect(),
                    }),
                }
            }
        }
    };
}
names!(
    GameResult,
    "result",
    Win = "win",
    Draw = "draw",
    Aborted = "aborted"
);
names!(
    Reason,
    "reason",
    Line = "line",
    Draw = "draw",
    ForfeitLeft = "forfeit_left",
    ForfeitIdle = "forfeit_idle",
    Flag = "flag",
    Resign = "resign",
    Aborted = "aborted"
);

/// One seat of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The name shown at the table (an account's name, a guest's, the computer's).
    pub name: String,
    /// The account id; `None` for guests and the computer.
    pub account: Option<String>,
    /// The computer's level; `None` for people.
    pub computer: Option<String>,
    /// The stone colour's name.
    pub colour: String,
    /// Rating before and after the game; `None` when the game was not rated.
    /// The store fills these in for rated games.
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
}

impl PlayerRecord {
    /// A person (with an account or a guest), not yet rated.
    pub fn person(name: &str, account: Option<&str>, colour: &str) -> PlayerRecord {
        PlayerRecord {
            name: name.into(),
            account: account.map(str::to_string),
            computer: None,
            colour: colour.into(),
            rating_before: None,
            rating_after: None,
        }
    }
}

/// One move: the point played and when, in milliseconds since the game started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub x: u8,
    pub y: u8,
    pub ms: u64,
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Unique id, a UUIDv7 made when the game starts ([`GameRecord::new_id`]).
    pub id: String,
    #[serde(with = "kind_serde")]
    pub game: GameKind,
    pub width: u8,
    pub height: u8,
    /// Stones in a line that win.
    pub k: u8,
    /// `freestyle` (longer lines win too) or `exact`.
    pub rule: String,
    /// Whether the game moves ratings (both players with accounts, standard board).
    pub rated: bool,
    pub started_ms: i64,
    pub ended_ms: i64,
    /// The seat (0 or 1) that moved first.
    pub first: u8,
    pub players: [PlayerRecord; 2],
    pub result: GameResult,
    /// The winning seat (0 or 1) when `result` is `win`.
    pub winner: Option<u8>,
    pub reason: Reason,
    /// The winning line's points (x, y), empty when there is none.
    pub line: Vec<(u8, u8)>,
    pub moves: Vec<MoveRecord>,
}

/// Longest name, colour, level or id text a record may carry (bytes).
const MAX_TEXT: usize = 128;

/// The game kind's serde form: its id (`connect4`, `gomoku`, `renju`).
mod kind_serde {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(k: &GameKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(k.id())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl GameRecord {
    /// A short Connect Four game, for benches and tests: the first seat
    /// wins with four in column D (x = 3), the second answering in column
    /// E; seven moves a second and a half apart, ended at `ended_ms`.
    pub fn column_win(players: [PlayerRecord; 2], rated: bool, ended_ms: i64) -> GameRecord {
        let moves = (0..7u8)
            .map(|i| MoveRecord {
                x: if i % 2 == 0 { 3 } else { 4 },
                y: i / 2,
                ms: u64::from(i) * 1_500 + 700,
            })
            .collect();
        GameRecord {
            id: GameRecord::new_id(),
            game: GameKind::ConnectFour,
            width: 7,
            height: 6,
            k: 4,
            rule: "freestyle".into(),
            rated,
            started_ms: ended_ms - 60_000,
            ended_ms,
            first: 0,
            players,
            result: GameResult::Win,
            winner: Some(0),
            reason: Reason::Line,
            line: vec![(3, 0), (3, 1), (3, 2), (3, 3)],
            moves,
        }
    }

    /// A fresh game id: a UUIDv7 (time-ordered), as text.
    pub fn new_id() -> String {
        uuid::Uuid::now_v7().to_string()
    }

    /// The rule name for a set of rules: `exact`, `renju` or `freestyle`.
    pub fn rule_name(rules: &Rules) -> &'static str {
        if rules.is_exact() {
            "exact"
        } else if rules.is_renju() {
            "renju"
        } else {
            "freestyle"
        }
    }

    /// The rules this record was played under, when they are valid.
    pub fn rules(&self) -> Option<Rules> {
        let (exact, renju) = match self.rule.as_str() {
            "exact" => (true, false),
            "renju" => (false, true),
            "freestyle" => (false, false),
            _ => return None,
        };
        let rules = Rules::new(self.game, self.width, self.height, self.k, exact).ok()?;
        let rules = rules.with_renju(renju);
        // Records from before renju was a game of its own say `gomoku`
        // with the rule `renju`.
        let game_fits = rules.kind() == self.game || (renju && self.game == GameKind::Gomoku);
        (rules.is_renju() == renju && game_fits).then_some(rules)
    }

    /// Whether the board and rules are ones that count for ratings:
    /// Connect Four 7x6 and Gomoku 15x15 freestyle.
    pub fn rateable_rules(&self) -> bool {
        self.game.is_rated()
            && self
                .rules()
                .is_some_and(|r| r == Rules::standard(self.game))
    }

    /// Whether storing this record moves ratings: marked rated, standard
    /// rules, two different accounts, and not aborted.
    pub fn moves_ratings(&self) -> bool {
        self.rated
            && self.rateable_rules()
            && self.result != GameResult::Aborted
            && match (&self.players[0].account, &self.players[1].account) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            }
    }

    /// The first seat's score: 1 won, 0.5 draw, 0 lost; `None` when aborted.
    pub fn score(&self) -> Option<f64> {
        match (self.result, self.winner) {
            (GameResult::Win, Some(0)) => Some(1.0),
            (GameResult::Win, Some(_)) => Some(0.0),
            (GameResult::Draw, _) => Some(0.5),
            _ => None,
        }
    }

    /// Checks every field is within bounds and consistent, so a hostile or
    /// corrupt record (a journal line) never reaches the database.
    pub fn validate(&self) -> Result<(), InvalidRecord> {
        if uuid::Uuid::parse_str(&self.id).is_err() || self.id.len() != 36 {
            return Err(InvalidRecord::Id);
        }
        let rules = self.rules().ok_or(InvalidRecord::Rules)?;
        if self.first > 1 {
            return Err(InvalidRecord::First);
        }
        if self.ended_ms < self.started_ms || self.started_ms < 0 {
            return Err(InvalidRecord::Times);
        }
        match (self.result, self.winner) {
            (GameResult::Win, Some(0 | 1)) => {}
            (GameResult::Win, _) => return Err(InvalidRecord::WinWithoutWinner),
            (_, None) => {}
            (_, Some(_)) => return Err(InvalidRecord::WinnerWithoutWin),
        }
        for p in &self.players {
            let texts = [
                Some(&p.name),
                p.account.as_ref(),
                p.computer.as_ref(),
                Some(&p.colour),
            ];
            if texts.iter().flatten().any(|t| t.len() > MAX_TEXT) {
                return Err(InvalidRecord::TextTooLong);
            }
            for r in [p.rating_before, p.rating_after].into_iter().flatten() {
                if !r.is_finite() {
                    return Err(InvalidRecord::Rating);
                }
            }
        }
        if self.moves.len() > rules.cells()
            || self.line.len() > usize::from(rules.width().max(rules.height()))
        {
            return Err(InvalidRecord::TooManyPoints);
        }
        let on_board = |x: u8, y: u8| x < rules.width() && y < rules.height();
        if !self.moves.iter().all(|m| on_board(m.x, m.y))
            || !self.line.iter().all(|&(x, y)| on_board(x, y))
        {
            return Err(InvalidRecord::OffBoard);
        }
        Ok(())
    }

    /// The moves as stored: a JSON array of `[x, y, ms]`.
    pub(crate) fn moves_text(&self) -> String {
        let v: Vec<(u8, u8, u64)> = self.moves.iter().map(|m| (m.x, m.y, m.ms)).collect();
        serde_json::to_string(&v).unwrap_or_else(|_| "[]".into())
    }

    /// The winning line as stored: a JSON array of `[x, y]`, or `None`.
    pub(crate) fn line_text(&self) -> Option<String> {
        (!self.line.is_empty()).then(|| serde_json::to_string(&self.line).unwrap_or_default())
    }

    pub(crate) fn parse_moves(text: &str) -> Result<Vec<MoveRecord>, BadPoints> {
        let v: Vec<(u8, u8, u64)> = serde_json::from_str(text).map_err(BadPoints::Moves)?;
        Ok(v.into_iter()
            .map(|(x, y, ms)| MoveRecord { x, y, ms })
            .collect())
    }

    pub(crate) fn parse_line(text: Option<&str>) -> Result<Vec<(u8, u8)>, BadPoints> {
        match text {
            None => Ok(Vec::new()),
            Some(t) => serde_json::from_str(t).map_err(BadPoints::Line),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn rule_names_round_trip_renju_included_and_only_the_standard_rules_rate() {
        for rules in [
            Rules::gomoku(),
            Rules::gomoku().with_exact(true),
            Rules::renju(),
        ] {
            let r = GameRecord {
                game: rules.kind(),
                width: rules.width(),
                height: rules.height(),
                k: rules.line(),
                rule: GameRecord::rule_name(&rules).into(),
                ..sample()
            };
            assert_eq!(r.rules(), Some(rules), "{}", r.rule);
            assert_eq!(r.rateable_rules(), rules == Rules::gomoku(), "{}", r.rule);
        }
        assert_eq!(GameRecord::rule_name(&Rules::renju()), "renju");
        // Renju on a Connect Four record is no rule at all.
        let bad = GameRecord {
            rule: "renju".into(),
            ..sample()
        };
        assert_eq!(bad.game, GameKind::ConnectFour);
        assert_eq!(bad.rules(), None);
        let renju = GameRecord {
            game: GameKind::Renju,
            width: 15,
            height: 15,
            k: 5,
            rule: "renju".into(),
            ..sample()
        };
        assert_eq!(renju.rules(), Some(Rules::renju()));
        // A record of the renju game under another rule is no rule at all;
        // one from before renju was a game of its own still reads as renju.
        let freestyle = GameRecord {
            rule: "freestyle".into(),
            ..renju.clone()
        };
        assert_eq!(freestyle.rules(), None);
        let older = GameRecord {
            game: GameKind::Gomoku,
            ..renju
        };
        assert_eq!(older.rules(), Some(Rules::renju()));
    }

    pub(crate) fn sample() -> GameRecord {
        let player = |name: &str, colour: &str| PlayerRecord::person(name, None, colour);
        let players = [player("ann", "red"), player("bob", "yellow")];
        GameRecord {
            started_ms: 1_000,
            line: vec![(0, 0), (1, 1), (2, 2), (3, 3)],
            moves: vec![MoveRecord {
                x: 3,
                y: 0,
                ms: 400,
            }],
            ..GameRecord::column_win(players, false, 9_000)
        }
    }

    #[test]
    fn records_round_trip_as_json_and_are_checked() {
        let g = sample();
        assert_eq!(g.validate(), Ok(()));
        let json = serde_json::to_string(&g).unwrap();
        assert!(json.contains("\"game\":\"connect4\""), "{json}");
        assert!(json.contains("\"reason\":\"line\""), "{json}");
        assert_eq!(serde_json::from_str::<GameRecord>(&json).unwrap(), g);
        assert!(g.rateable_rules() && !g.moves_ratings());

        let mut bad = g.clone();
        bad.moves.push(MoveRecord { x: 7, y: 0, ms: 1 });
        assert_eq!(bad.validate(), Err(InvalidRecord::OffBoard));
        let mut bad = g.clone();
        bad.players[1].name = "x".repeat(1000);
        assert_eq!(bad.validate(), Err(InvalidRecord::TextTooLong));
        let mut bad = g.clone();
        bad.winner = None;
        assert_eq!(bad.validate(), Err(InvalidRecord::WinWithoutWinner));
        let mut bad = g.clone();
        bad.id = "'; DROP TABLE games; --".into();
        assert_eq!(bad.validate(), Err(InvalidRecord::Id));
        let mut bad = g;
        bad.width = 200;
        assert_eq!(bad.validate(), Err(InvalidRecord::Rules));
        assert_eq!(
            InvalidRecord::WinWithoutWinner.to_string(),
            "a win needs a winner 0 or 1"
        );
    }

    #[test]
    fn result_and_reason_names_round_trip() {
        for r in [GameResult::Win, GameResult::Draw, GameResult::Aborted] {
            assert_eq!(r.as_str().parse::<GameResult>(), Ok(r));
        }
        for r in [
            Reason::Line,
            Reason::Draw,
            Reason::ForfeitLeft,
            Reason::ForfeitIdle,
            Reason::Flag,
            Reason::Resign,
            Reason::Aborted,
        ] {
            assert_eq!(r.as_str().parse::<Reason>(), Ok(r));
        }
        let unknown = "non\u{1b}sense".parse::<Reason>().unwrap_err();
        assert_eq!(unknown.what, "reason");
        assert!(!unknown.to_string().contains('\u{1b}'), "{unknown}");
        assert!(
            unknown.to_string().starts_with("unknown reason '"),
            "{unknown}"
        );
        assert!(matches!(
            GameRecord::parse_moves("[[1,2]]"),
            Err(BadPoints::Moves(_))
        ));
        assert_eq!(
            GameRecord::parse_line(Some("[[1,2],[2,3]]")).unwrap(),
            vec![(1, 2), (2, 3)]
        );
    }
}
