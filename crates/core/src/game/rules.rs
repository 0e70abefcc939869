//! The rules of one k-in-a-row game as data: which game (gravity or free
//! placement), board width and height, the line length that wins, and
//! whether a longer line (an overline) also wins.

use std::fmt;

use thiserror::Error;

/// The games inarow hosts, each a game of its own on the host (its own
/// queue, clock and menu entry). The kind decides placement (gravity or
/// not) and notation; everything else is in [`Rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Stones drop to the lowest free cell of a column.
    ConnectFour,
    /// Stones go on any empty intersection.
    Gomoku,
    /// Gomoku of five where black (who moves first) may not make a double
    /// three, a double four or an overline ([`super::renju`]).
    Renju,
}

impl GameKind {
    /// Every kind, in menu order.
    pub const ALL: [GameKind; 3] = [GameKind::ConnectFour, GameKind::Gomoku, GameKind::Renju];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::ConnectFour => "Connect Four",
            GameKind::Gomoku => "Gomoku",
            GameKind::Renju => "Renju",
        }
    }

    /// The short identifier used in flags and config: `connect4`,
    /// `gomoku`, `renju`.
    pub fn id(self) -> &'static str {
        match self {
            GameKind::ConnectFour => "connect4",
            GameKind::Gomoku => "gomoku",
            GameKind::Renju => "renju",
        }
    }

    /// Whether games of this kind are rated (on its standard board):
    /// Connect Four and Gomoku; renju is played unrated.
    pub fn is_rated(self) -> bool {
        self != GameKind::Renju
    }

    /// Where a rated game's ratings sit in per-game rating arrays
    /// (`[Connect Four, Gomoku]`); `None` for a game never rated.
    pub fn rating_index(self) -> Option<usize> {
        match self {
            GameKind::ConnectFour => Some(0),
            GameKind::Gomoku => Some(1),
            GameKind::Renju => None,
        }
    }

    /// Whether stones fall to the lowest free cell (Connect Four); the
    /// others place stones on any empty intersection.
    pub fn has_gravity(self) -> bool {
        self == GameKind::ConnectFour
    }

    /// The line length the game is played to on its standard board.
    pub fn standard_line(self) -> u8 {
        match self {
            GameKind::ConnectFour => 4,
            GameKind::Gomoku | GameKind::Renju => 5,
        }
    }
}

impl std::str::FromStr for GameKind {
    type Err = super::ParseNameError;

    /// `connect4` (also `Connect Four`, `c4`...) or `gomoku`, any case.
    fn from_str(text: &str) -> Result<GameKind, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "connect4" | "connect-four" | "connectfour" | "c4" | "connect four" => {
                Ok(GameKind::ConnectFour)
            }
            "gomoku" | "gobang" | "five" => Ok(GameKind::Gomoku),
            "renju" => Ok(GameKind::Renju),
            _ => Err(super::ParseNameError::new(
                "game",
                text,
                "connect4, gomoku or renju",
            )),
        }
    }
}

/// A board size, `WIDTHxHEIGHT` (`7x6`, `15x15`): parsed and printed the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardSize {
    pub width: u8,
    pub height: u8,
}

/// Text that is not `WIDTHxHEIGHT`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("expected WIDTHxHEIGHT such as 7x6, got '{0}'")]
pub struct ParseSizeError(String);

impl std::str::FromStr for BoardSize {
    type Err = ParseSizeError;

    fn from_str(text: &str) -> Result<BoardSize, ParseSizeError> {
        text.trim()
            .split_once(['x', 'X'])
            .and_then(|(w, h)| {
                Some(BoardSize {
                    width: w.trim().parse().ok()?,
                    height: h.trim().parse().ok()?,
                })
            })
            .ok_or_else(|| ParseSizeError(crate::text::sanitize_quote(text, 16)))
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Board sizes are bounded so that every column has a letter (a-z) and
/// every count fits comfortably in a `u8`.
pub const MAX_SIDE: u8 = 26;
/// Smallest board side we accept.
pub const MIN_SIDE: u8 = 3;

/// Why a set of rules is not playable.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error("board width {0} is out of range ({MIN_SIDE}-{MAX_SIDE})")]
    Width(u8),
    #[error("board height {0} is out of range ({MIN_SIDE}-{MAX_SIDE})")]
    Height(u8),
    #[error(
        "line length {line} does not fit on a {width}x{height} board (needs 3 to the longer side)"
    )]
    Line { line: u8, width: u8, height: u8 },
    #[error("renju is played to five in a line, not {0}")]
    RenjuLine(u8),
}

/// The rules of one game, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    kind: GameKind,
    width: u8,
    height: u8,
    line: u8,
    /// Only exactly `line` stones win, for both players. Never set for
    /// renju, whose black is held to exactly five by its own rule.
    exact: bool,
}

impl Rules {
    /// Connect Four, 7 columns by 6 rows, four in a line.
    pub fn connect_four() -> Rules {
        Rules {
            kind: GameKind::ConnectFour,
            width: 7,
            height: 6,
            line: 4,
            exact: false,
        }
    }

    /// Gomoku, 15x15, five or more in a line (freestyle).
    pub fn gomoku() -> Rules {
        Rules {
            kind: GameKind::Gomoku,
            width: 15,
            height: 15,
            line: 5,
            exact: false,
        }
    }

    /// Renju on the standard 15x15 board: five in a row, black (who moves
    /// first) barred from double threes, double fours and overlines.
    pub fn renju() -> Rules {
        Rules {
            kind: GameKind::Renju,
            ..Rules::gomoku()
        }
    }

    /// The standard rules of a game kind.
    pub fn standard(kind: GameKind) -> Rules {
        match kind {
            GameKind::ConnectFour => Rules::connect_four(),
            GameKind::Gomoku => Rules::gomoku(),
            GameKind::Renju => Rules::renju(),
        }
    }

    /// Any size and line length within bounds.
    pub fn new(
        kind: GameKind,
        width: u8,
        height: u8,
        line: u8,
        exact: bool,
    ) -> Result<Rules, RulesError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) {
            return Err(RulesError::Width(width));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(RulesError::Height(height));
        }
        if line < 3 || line > width.max(height) {
            return Err(RulesError::Line {
                line,
                width,
                height,
            });
        }
        if kind == GameKind::Renju && line != 5 {
            return Err(RulesError::RenjuLine(line));
        }
        Ok(Rules {
            kind,
            width,
            height,
            line,
            // Renju holds black to exactly five by its own rule.
            exact: exact && kind != GameKind::Renju,
        })
    }

    /// The same rules with "exactly k" on or off: with it on, a line longer
    /// than the line length does not win. Exactly five turns renju into
    /// Gomoku of exactly five (the two exclude each other).
    pub fn with_exact(self, exact: bool) -> Rules {
        let kind = if exact && self.kind == GameKind::Renju {
            GameKind::Gomoku
        } else {
            self.kind
        };
        Rules {
            exact,
            kind,
            ..self
        }
    }

    /// The same rules as renju, or not. Renju is a Gomoku game of five in a
    /// row (any board size); for anything else the rules stay as they are.
    pub fn with_renju(self, renju: bool) -> Rules {
        match (renju, self.kind) {
            (true, GameKind::Gomoku) if self.line == 5 => Rules {
                kind: GameKind::Renju,
                exact: false,
                ..self
            },
            (false, GameKind::Renju) => Rules {
                kind: GameKind::Gomoku,
                ..self
            },
            _ => self,
        }
    }

    pub fn kind(&self) -> GameKind {
        self.kind
    }
    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }
    /// How many stones in a line win.
    pub fn line(&self) -> u8 {
        self.line
    }
    /// Whether only exactly `line` stones win (overlines do not), for
    /// both players. (Under renju that holds for black only: see
    /// [`Rules::wins_with_length`].)
    pub fn is_exact(&self) -> bool {
        self.exact
    }
    /// Whether these are renju rules (black has forbidden points).
    pub fn is_renju(&self) -> bool {
        self.kind == GameKind::Renju
    }
    /// Whether `len` stones in a row by `side` win: at least the line
    /// length, or exactly it under "exactly k" and for black under renju.
    pub fn wins_with_length(&self, len: usize, side: super::Side) -> bool {
        let k = usize::from(self.line);
        if self.exact || (self.is_renju() && side == super::Side::First) {
            len == k
        } else {
            len >= k
        }
    }
    /// Whether stones fall to the lowest free cell (Connect Four).
    pub fn has_gravity(&self) -> bool {
        self.kind.has_gravity()
    }
    /// Number of cells on the board.
    pub fn cells(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }
    /// Whether games under these rules move ratings: a rated game on its
    /// standard board (Connect Four 7x6, Gomoku 15x15 freestyle).
    pub fn is_rated(&self) -> bool {
        self.kind.is_rated() && *self == Rules::standard(self.kind)
    }
    /// Whether these are the standard 7x6 Connect Four rules (the perfect solver's board).
    pub fn is_standard_connect_four(&self) -> bool {
        *self == Rules::connect_four()
    }

    /// A one-line description, e.g. `Connect Four 7x6` or `Gomoku 15x15, exactly five`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} {}x{}", self.kind.name(), self.width, self.height);
        if self.line != self.kind.standard_line() {
            s.push_str(&format!(", {} in a line", self.line));
        }
        if self.exact {
            s.push_str(&format!(", exactly {}", self.line));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_checked() {
        assert!(Rules::new(GameKind::ConnectFour, 8, 7, 4, false).is_ok());
        assert!(Rules::new(GameKind::ConnectFour, 9, 7, 4, false).is_ok());
        assert_eq!(
            Rules::new(GameKind::ConnectFour, 2, 7, 4, false),
            Err(RulesError::Width(2))
        );
        assert_eq!(
            Rules::new(GameKind::Gomoku, 15, 27, 5, false),
            Err(RulesError::Height(27))
        );
        assert!(matches!(
            Rules::new(GameKind::Gomoku, 4, 4, 5, false),
            Err(RulesError::Line { .. })
        ));
    }

    #[test]
    fn kinds_parse() {
        assert_eq!("connect4".parse(), Ok(GameKind::ConnectFour));
        assert_eq!("Gomoku".parse(), Ok(GameKind::Gomoku));
        assert!("chess".parse::<GameKind>().is_err());
        assert_eq!(
            "8x7".parse(),
            Ok(BoardSize {
                width: 8,
                height: 7
            })
        );
        assert!("8by7".parse::<BoardSize>().is_err());
        assert!("300x7".parse::<BoardSize>().is_err());
    }

    #[test]
    fn renju_is_gomoku_of_five_with_black_held_to_exactly_five() {
        use crate::game::Side;
        let r = Rules::renju();
        assert!(r.is_renju() && !r.is_exact());
        assert_eq!(
            (r.kind(), r.width(), r.height(), r.line()),
            (GameKind::Renju, 15, 15, 5)
        );
        assert_ne!(r, Rules::gomoku());
        assert_eq!(r.describe(), "Renju 15x15");
        assert!(r.wins_with_length(5, Side::First) && !r.wins_with_length(6, Side::First));
        assert!(r.wins_with_length(5, Side::Second) && r.wins_with_length(6, Side::Second));
        assert_eq!(Rules::gomoku().with_renju(true), r);
        assert_eq!(r.with_renju(false), Rules::gomoku());
        // Exactly five and renju exclude each other; Connect Four and other
        // line lengths are never renju.
        assert_eq!(r.with_exact(true), Rules::gomoku().with_exact(true));
        assert_eq!(
            Rules::connect_four().with_renju(true),
            Rules::connect_four()
        );
        let four = Rules::new(GameKind::Gomoku, 9, 9, 4, false).unwrap();
        assert!(!four.with_renju(true).is_renju());
        assert_eq!(
            Rules::new(GameKind::Renju, 15, 15, 4, false),
            Err(RulesError::RenjuLine(4))
        );
        assert_eq!(Rules::new(GameKind::Renju, 15, 15, 5, true), Ok(r));
        assert_eq!("Renju".parse(), Ok(GameKind::Renju));
        assert_eq!(Rules::standard(GameKind::Renju), r);
    }

    #[test]
    fn describe_mentions_options() {
        assert_eq!(Rules::connect_four().describe(), "Connect Four 7x6");
        assert_eq!(
            Rules::gomoku().with_exact(true).describe(),
            "Gomoku 15x15, exactly 5"
        );
    }
}
