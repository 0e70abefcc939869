//! Reading and printing moves.
//!
//! * Connect Four: a move is a column, typed as a letter (`A`.., any case) or
//!   a digit from 1; a cell prints as `(x|y)` with `(0|0)` at the bottom left
//!   and also parses back (it must then be the cell the stone would land on).
//! * Gomoku: a point prints as `h8` (column letter from `a`, row number from
//!   1 at the bottom); `8,h` (row, comma, column) is also accepted.
//!
//! Parsing is the first of two steps: text -> [`Move`] checks syntax and
//! bounds only ([`ParseMoveError`]); whether the move is legal in a position
//! is [`crate::game::Position::check`]'s business.

use std::fmt;

use thiserror::Error;

use super::{GameKind, Point, Rules};
use crate::text;

/// A move as typed: a column (Connect Four) or a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Move {
    /// Drop into this column (Connect Four).
    Column(u8),
    /// Place on this point (Gomoku), or, in Connect Four, the cell the stone lands on.
    Point(Point),
}

/// Longest move text we look at; anything longer is not a move.
const MAX_MOVE_TEXT: usize = 32;
/// How much of a bad input is quoted back in an error message.
const QUOTE_CHARS: usize = 12;

/// Why a typed move could not be read. Messages are one short line and
/// quote the input only after sanitising it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    #[error("type a move")]
    Empty,
    #[error("unknown column '{text}': use {columns}")]
    UnknownColumn { text: String, columns: String },
    #[error("'{text}' is off the board: {range}")]
    OffBoard { text: String, range: String },
    #[error("not understood: '{text}': {hint}")]
    NotUnderstood { text: String, hint: String },
}

fn quote(input: &str) -> String {
    text::sanitize_quote(input, QUOTE_CHARS)
}

fn column_letter(x: u8) -> char {
    char::from(b'a' + x)
}

impl Rules {
    /// The input help for this game, e.g. `A-G or 1-7` or `a point like h8 or 8,h`.
    pub fn move_hint(&self) -> String {
        match self.kind() {
            GameKind::ConnectFour => self.column_range(),
            GameKind::Gomoku | GameKind::Renju => "type a point like h8 or 8,h".to_string(),
        }
    }

    fn column_range(&self) -> String {
        let last = column_letter(self.width() - 1).to_ascii_uppercase();
        format!("A-{last} or 1-{}", self.width())
    }

    fn point_range(&self) -> String {
        format!(
            "columns a-{}, rows 1-{}",
            column_letter(self.width() - 1),
            self.height()
        )
    }

    /// A column's label: `A`, `B`, ... for Connect Four, `a`, `b`, ... for Gomoku.
    pub fn column_label(&self, x: u8) -> char {
        match self.kind() {
            GameKind::ConnectFour => column_letter(x).to_ascii_uppercase(),
            GameKind::Gomoku | GameKind::Renju => column_letter(x),
        }
    }

    /// A row's label: the `y` of `(x|y)` for Connect Four, the row number (from 1) for Gomoku.
    pub fn row_label(&self, y: u8) -> String {
        match self.kind() {
            GameKind::ConnectFour => y.to_string(),
            GameKind::Gomoku | GameKind::Renju => (u16::from(y) + 1).to_string(),
        }
    }

    /// Prints a point in this game's notation: `(3|0)` or `h8`.
    pub fn format_point(&self, p: Point) -> String {
        match self.kind() {
            GameKind::ConnectFour => format!("({}|{})", p.x, p.y),
            GameKind::Gomoku | GameKind::Renju => {
                format!("{}{}", column_letter(p.x), u16::from(p.y) + 1)
            }
        }
    }

    /// Prints a move: a column letter (`D`) or a point.
    pub fn format_move(&self, m: Move) -> String {
        match m {
            Move::Column(x) => self.column_label(x).to_string(),
            Move::Point(p) => self.format_point(p),
        }
    }

    /// Prints a line of points separated by spaces: `(1|0) (2|0) (3|0) (4|0)`.
    pub fn format_points(&self, points: &[Point]) -> String {
        points
            .iter()
            .map(|&p| self.format_point(p))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads a typed move. Checks syntax and board bounds, not legality.
    pub fn parse_move(&self, input: &str) -> Result<Move, ParseMoveError> {
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if trimmed.len() > MAX_MOVE_TEXT {
            return Err(self.not_understood(trimmed));
        }
        let compact: String = trimmed
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        match self.kind() {
            GameKind::ConnectFour => self.parse_connect_four(trimmed, &compact),
            GameKind::Gomoku | GameKind::Renju => self.parse_gomoku(trimmed, &compact),
        }
    }

    fn not_understood(&self, input: &str) -> ParseMoveError {
        let hint = match self.kind() {
            GameKind::ConnectFour => format!("type a column, {}", self.column_range()),
            GameKind::Gomoku | GameKind::Renju => self.move_hint(),
        };
        ParseMoveError::NotUnderstood {
            text: quote(input),
            hint,
        }
    }

    fn parse_connect_four(&self, input: &str, s: &str) -> Result<Move, ParseMoveError> {
        let bytes = s.as_bytes();
        // A single letter names a column.
        if bytes.len() == 1 && bytes[0].is_ascii_alphabetic() {
            let x = bytes[0] - b'a';
            if x < self.width() {
                return Ok(Move::Column(x));
            }
            return Err(ParseMoveError::UnknownColumn {
                text: quote(input),
                columns: self.column_range(),
            });
        }
        // Digits count columns from 1.
        if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
            return match s.parse::<u32>() {
                Ok(n) if n >= 1 && n <= u32::from(self.width()) => Ok(Move::Column((n - 1) as u8)),
                _ => Err(ParseMoveError::OffBoard {
                    text: quote(input),
                    range: format!("columns are {}", self.column_range()),
                }),
            };
        }
        // `(x|y)`: a cell, as printed.
        if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')'))
            && let Some((xs, ys)) = inner.split_once('|')
            && let (Ok(x), Ok(y)) = (xs.parse::<u32>(), ys.parse::<u32>())
        {
            if x < u32::from(self.width()) && y < u32::from(self.height()) {
                return Ok(Move::Point(Point::new(x as u8, y as u8)));
            }
            return Err(ParseMoveError::OffBoard {
                text: quote(input),
                range: format!(
                    "cells are (0|0) to ({}|{})",
                    self.width() - 1,
                    self.height() - 1
                ),
            });
        }
        if bytes.iter().all(u8::is_ascii_alphabetic) && bytes.len() <= 3 {
            return Err(ParseMoveError::UnknownColumn {
                text: quote(input),
                columns: self.column_range(),
            });
        }
        Err(self.not_understood(input))
    }

    fn parse_gomoku(&self, input: &str, s: &str) -> Result<Move, ParseMoveError> {
        let (letters, digits) = if let Some((row, col)) = s.split_once(',') {
            // `8,h`: row number, comma, column letter.
            (col, row)
        } else {
            // `h8`: letters then digits.
            let split = s
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(s.len());
            (&s[..split], &s[split..])
        };
        let valid_shape = letters.len() == 1
            && letters.as_bytes()[0].is_ascii_alphabetic()
            && !digits.is_empty()
            && digits.len() <= 3
            && digits.bytes().all(|b| b.is_ascii_digit());
        if !valid_shape {
            return Err(self.not_understood(input));
        }
        let x = letters.as_bytes()[0] - b'a';
        let row: u32 = digits.parse().unwrap_or(0);
        if x >= self.width() || row == 0 || row > u32::from(self.height()) {
            return Err(ParseMoveError::OffBoard {
                text: quote(input),
                range: self.point_range(),
            });
        }
        Ok(Move::Point(Point::new(x, (row - 1) as u8)))
    }
}

impl fmt::Display for Point {
    /// Neutral form used in logs: `x,y` from the bottom left.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c4() -> Rules {
        Rules::connect_four()
    }
    fn go() -> Rules {
        Rules::gomoku()
    }

    #[test]
    fn connect_four_columns_parse_as_letters_and_digits() {
        assert_eq!(c4().parse_move("a"), Ok(Move::Column(0)));
        assert_eq!(c4().parse_move("G"), Ok(Move::Column(6)));
        assert_eq!(c4().parse_move(" d "), Ok(Move::Column(3)));
        assert_eq!(c4().parse_move("1"), Ok(Move::Column(0)));
        assert_eq!(c4().parse_move("7"), Ok(Move::Column(6)));
        assert_eq!(c4().parse_move("(3|0)"), Ok(Move::Point(Point::new(3, 0))));
    }

    #[test]
    fn connect_four_errors_name_the_problem() {
        let e = c4().parse_move("h").unwrap_err();
        assert_eq!(e.to_string(), "unknown column 'h': use A-G or 1-7");
        let e = c4().parse_move("8").unwrap_err();
        assert!(matches!(e, ParseMoveError::OffBoard { .. }), "{e}");
        let e = c4().parse_move("0").unwrap_err();
        assert!(matches!(e, ParseMoveError::OffBoard { .. }), "{e}");
        let e = c4().parse_move("(7|0)").unwrap_err();
        assert!(matches!(e, ParseMoveError::OffBoard { .. }), "{e}");
        let e = c4().parse_move("d4!?").unwrap_err();
        assert!(matches!(e, ParseMoveError::NotUnderstood { .. }), "{e}");
        assert_eq!(c4().parse_move("   "), Err(ParseMoveError::Empty));
    }

    #[test]
    fn wider_connect_four_boards_have_more_columns() {
        let r = Rules::new(GameKind::ConnectFour, 9, 7, 4, false).unwrap();
        assert_eq!(r.parse_move("i"), Ok(Move::Column(8)));
        assert_eq!(r.parse_move("9"), Ok(Move::Column(8)));
        assert!(r.parse_move("j").is_err());
    }

    #[test]
    fn gomoku_points_parse_both_ways() {
        assert_eq!(go().parse_move("h8"), Ok(Move::Point(Point::new(7, 7))));
        assert_eq!(go().parse_move("H8"), Ok(Move::Point(Point::new(7, 7))));
        assert_eq!(go().parse_move("8,h"), Ok(Move::Point(Point::new(7, 7))));
        assert_eq!(go().parse_move("8, H"), Ok(Move::Point(Point::new(7, 7))));
        assert_eq!(go().parse_move("a1"), Ok(Move::Point(Point::new(0, 0))));
        assert_eq!(go().parse_move("o15"), Ok(Move::Point(Point::new(14, 14))));
    }

    #[test]
    fn gomoku_errors_name_the_problem() {
        let e = go().parse_move("p1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'p1' is off the board: columns a-o, rows 1-15"
        );
        assert!(matches!(
            go().parse_move("a16"),
            Err(ParseMoveError::OffBoard { .. })
        ));
        assert!(matches!(
            go().parse_move("a0"),
            Err(ParseMoveError::OffBoard { .. })
        ));
        assert!(matches!(
            go().parse_move("hello"),
            Err(ParseMoveError::NotUnderstood { .. })
        ));
        assert!(matches!(
            go().parse_move("8,"),
            Err(ParseMoveError::NotUnderstood { .. })
        ));
    }

    #[test]
    fn formats() {
        assert_eq!(c4().format_point(Point::new(1, 0)), "(1|0)");
        assert_eq!(c4().format_move(Move::Column(3)), "D");
        assert_eq!(go().format_point(Point::new(7, 7)), "h8");
        assert_eq!(go().format_point(Point::new(14, 14)), "o15");
        assert_eq!(
            c4().format_points(&[Point::new(1, 0), Point::new(2, 0)]),
            "(1|0) (2|0)"
        );
    }

    #[test]
    fn errors_never_quote_control_bytes() {
        let e = go().parse_move("\x1b[2J\x07zz").unwrap_err().to_string();
        assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
    }
}
