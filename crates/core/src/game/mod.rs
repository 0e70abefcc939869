//! Pure game rules: the vocabulary (sides, colours, points), the rules of a
//! k-in-a-row game as data, positions with checked moves and outcomes, and
//! the notation used to read and print moves.
//!
//! No IO, no async, no terminal: every front end (local terminal, SSH,
//! telnet, the engines) builds on this module, and a test keeps it that way.

mod notation;
mod position;
pub mod renju;
mod rules;

pub use notation::{Move, ParseMoveError};
pub use position::{FromMovesError, IllegalMoveError, Outcome, Position};
pub use rules::{BoardSize, GameKind, ParseSizeError, Rules, RulesError};

use std::fmt;

/// The four line directions: horizontal, vertical, both diagonals.
pub(crate) const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// One of the two players, by turn order: `First` moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// Both sides, in turn order.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];
}

/// A stone colour a player can choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Blue,
}

impl Colour {
    /// Every colour, in menu order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Green, Colour::Yellow, Colour::Blue];

    /// The colour's name as shown to people, e.g. `Red`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Green => "Green",
            Colour::Yellow => "Yellow",
            Colour::Blue => "Blue",
        }
    }

    /// The emoji stone (two terminal cells wide).
    pub fn emoji(self) -> &'static str {
        match self {
            Colour::Red => "\u{1F534}",
            Colour::Green => "\u{1F7E2}",
            Colour::Yellow => "\u{1F7E1}",
            Colour::Blue => "\u{1F535}",
        }
    }

    /// The ASCII stone: the colour's initial.
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
            Colour::Blue => 'B',
        }
    }
}

/// A name that is none of a type's values (a flag, a config value, a menu
/// answer). The text is quoted back sanitised and short.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{text}': use {expected}")]
pub struct ParseNameError {
    /// What was being parsed: "game", "level", "colour"...
    pub what: &'static str,
    pub text: String,
    /// The accepted values, for the message.
    pub expected: &'static str,
}

impl ParseNameError {
    pub fn new(what: &'static str, text: &str, expected: &'static str) -> ParseNameError {
        ParseNameError {
            what,
            text: crate::text::sanitize_quote(text, 16),
            expected,
        }
    }
}

impl std::str::FromStr for Colour {
    type Err = ParseNameError;

    /// A colour name or initial, any case.
    fn from_str(text: &str) -> Result<Colour, ParseNameError> {
        let t = text.trim().to_ascii_lowercase();
        Colour::ALL
            .into_iter()
            .find(|c| {
                t == c.name().to_ascii_lowercase()
                    || t == c.letter().to_ascii_lowercase().to_string()
            })
            .ok_or_else(|| ParseNameError::new("colour", text, "red, green, yellow or blue"))
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cell (Connect Four) or intersection (Gomoku): `x` is the column from
/// the left, `y` the row from the bottom, both from 0.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_by_name_and_initial() {
        assert_eq!("red".parse(), Ok(Colour::Red));
        assert_eq!(" YELLOW ".parse(), Ok(Colour::Yellow));
        assert_eq!("b".parse(), Ok(Colour::Blue));
        assert!("purple".parse::<Colour>().is_err());
        for c in Colour::ALL {
            assert_eq!(c.name().parse(), Ok(c));
        }
    }

    #[test]
    fn side_other_is_an_involution() {
        for s in Side::BOTH {
            assert_ne!(s.other(), s);
            assert_eq!(s.other().other(), s);
        }
    }
}
