//! A position: the stones on the board, whose turn it is, the moves so far
//! and the outcome. Moves are checked; a rejected move leaves the position
//! unchanged and says why in one short line.

use thiserror::Error;

use super::renju;
use super::{DIRECTIONS, Move, ParseMoveError, Point, Rules, Side};

/// How a game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    /// `line` holds the winning stones in order along the line.
    Win {
        side: Side,
        line: Vec<Point>,
    },
    /// The board is full and nobody has a line.
    Draw,
}

impl Outcome {
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }
}

/// Why a move cannot be played here (the texts, in English, are for
/// logs and tools; a person's words are made where they are shown).
#[derive(Debug, Clone, PartialEq, Eq, Error, serde::Serialize, serde::Deserialize)]
pub enum IllegalMoveError {
    #[error("the game is over")]
    GameOver,
    #[error("column {0} is full")]
    ColumnFull(char),
    #[error("{0} is already taken")]
    Occupied(String),
    #[error("{0} is off the board")]
    OffBoard(String),
    #[error("{point} is forbidden for the first player in renju: a {why}")]
    Forbidden {
        point: String,
        why: renju::Forbidden,
    },
    #[error("a stone dropped in column {column} lands on {lands}, not {asked}")]
    NotLanding {
        column: char,
        lands: String,
        asked: String,
    },
}

/// Why a list of moves is not a game ([`Position::from_moves`]): which
/// move (from 1) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FromMovesError {
    #[error("move {0}: {1}")]
    Unreadable(usize, ParseMoveError),
    #[error("move {0}: {1}")]
    Illegal(usize, IllegalMoveError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    rules: Rules,
    /// Row-major from the bottom row: `cells[y * width + x]`.
    cells: Vec<Option<Side>>,
    /// Stones per column (used for gravity).
    heights: Vec<u8>,
    history: Vec<Point>,
    outcome: Outcome,
}

impl Position {
    /// The empty board; `Side::First` moves.
    pub fn new(rules: Rules) -> Position {
        Position {
            rules,
            cells: vec![None; rules.cells()],
            heights: vec![0; usize::from(rules.width())],
            history: Vec::new(),
            outcome: Outcome::Ongoing,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side whose turn it is (also after the game ended: the side that would move).
    pub fn to_move(&self) -> Side {
        if self.history.len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_over()
    }

    /// Points played so far, in order.
    pub fn history(&self) -> &[Point] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Point> {
        self.history.last().copied()
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.history.len()
    }

    fn index(&self, p: Point) -> usize {
        usize::from(p.y) * usize::from(self.rules.width()) + usize::from(p.x)
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x < self.rules.width() && p.y < self.rules.height()
    }

    /// The stone on a point, if any (`None` off the board too).
    pub fn get(&self, p: Point) -> Option<Side> {
        if self.contains(p) {
            self.cells[self.index(p)]
        } else {
            None
        }
    }

    /// Where a stone dropped into column `x` would land (Connect Four), if the column has room.
    pub fn landing(&self, x: u8) -> Option<Point> {
        let h = *self.heights.get(usize::from(x))?;
        (h < self.rules.height()).then_some(Point::new(x, h))
    }

    /// Whether a point is empty and on the board (ignores gravity).
    pub fn is_empty(&self, p: Point) -> bool {
        self.contains(p) && self.cells[self.index(p)].is_none()
    }

    /// Checks a move without playing it; returns the point it would fill.
    pub fn check(&self, m: Move) -> Result<Point, IllegalMoveError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver);
        }
        let rules = &self.rules;
        match m {
            Move::Column(x) => {
                if x >= rules.width() {
                    return Err(IllegalMoveError::OffBoard(format!("column {}", x + 1)));
                }
                if !rules.has_gravity() {
                    return Err(IllegalMoveError::OffBoard(format!(
                        "column {}: name a point",
                        rules.column_label(x)
                    )));
                }
                self.landing(x)
                    .ok_or(IllegalMoveError::ColumnFull(rules.column_label(x)))
            }
            Move::Point(p) => {
                if !self.contains(p) {
                    return Err(IllegalMoveError::OffBoard(rules.format_point(p)));
                }
                if !self.is_empty(p) {
                    return Err(IllegalMoveError::Occupied(rules.format_point(p)));
                }
                if rules.is_renju()
                    && self.to_move() == Side::First
                    && let Some(why) = renju::forbidden(&renju::Board::from(self), p)
                {
                    return Err(IllegalMoveError::Forbidden {
                        point: rules.format_point(p),
                        why,
                    });
                }
                if rules.has_gravity() {
                    let lands = self
                        .landing(p.x)
                        .ok_or(IllegalMoveError::ColumnFull(rules.column_label(p.x)))?;
                    if lands != p {
                        return Err(IllegalMoveError::NotLanding {
                            column: rules.column_label(p.x),
                            lands: rules.format_point(lands),
                            asked: rules.format_point(p),
                        });
                    }
                }
                Ok(p)
            }
        }
    }

    /// Plays a move for the side to move. On error the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Point, IllegalMoveError> {
        let p = self.check(m)?;
        self.place(p);
        Ok(p)
    }

    /// Places a stone for the side to move on a point known to be legal
    /// (see [`Position::check`]); updates the outcome.
    fn place(&mut self, p: Point) {
        let side = self.to_move();
        let i = self.index(p);
        self.cells[i] = Some(side);
        self.heights[usize::from(p.x)] = self.heights[usize::from(p.x)].max(p.y + 1);
        self.history.push(p);
        self.outcome = match self.line_through(p, side) {
            Some(line) => Outcome::Win { side, line },
            None if self.history.len() == self.rules.cells() => Outcome::Draw,
            // Under renju black may be left with no point it may play (only
            // on a nearly full board): nobody can win any more.
            None if self.rules.is_renju()
                && self.to_move() == Side::First
                && self.rules.cells() - self.history.len() <= 16
                && self.legal_moves().is_empty() =>
            {
                Outcome::Draw
            }
            None => Outcome::Ongoing,
        };
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.history.pop()?;
        let i = self.index(p);
        self.cells[i] = None;
        if self.rules.has_gravity() {
            self.heights[usize::from(p.x)] = p.y;
        } else {
            let col = usize::from(p.x);
            self.heights[col] = (0..self.rules.height())
                .rev()
                .find(|&y| {
                    self.cells[usize::from(y) * usize::from(self.rules.width()) + col].is_some()
                })
                .map_or(0, |y| y + 1);
        }
        self.outcome = Outcome::Ongoing;
        Some(p)
    }

    /// Every legal move: columns with room (Connect Four) or empty points.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        if self.rules.has_gravity() {
            (0..self.rules.width())
                .filter(|&x| self.landing(x).is_some())
                .map(Move::Column)
                .collect()
        } else {
            // Under renju black's forbidden points are not legal moves.
            let barred = (self.rules.is_renju() && self.to_move() == Side::First)
                .then(|| renju::Board::from(self));
            let mut v = Vec::new();
            for y in 0..self.rules.height() {
                for x in 0..self.rules.width() {
                    let p = Point::new(x, y);
                    if self.cells[self.index(p)].is_none()
                        && barred
                            .as_ref()
                            .is_none_or(|b| renju::forbidden(b, p).is_none())
                    {
                        v.push(Move::Point(p));
                    }
                }
            }
            v
        }
    }

    /// Length of the run of `side` stones through `p` along `(dx, dy)`,
    /// counting `p` itself as `side`'s whatever is on it; returns the run's
    /// two ends as offsets (back, forward) from `p`.
    fn run(&self, p: Point, side: Side, (dx, dy): (i8, i8)) -> (i32, i32) {
        let step = |k: i32| -> Option<Point> {
            let x = i32::from(p.x) + k * i32::from(dx);
            let y = i32::from(p.y) + k * i32::from(dy);
            let q = Point::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
            self.contains(q).then_some(q)
        };
        let mut fwd = 0;
        while let Some(q) = step(fwd + 1) {
            if self.get(q) != Some(side) {
                break;
            }
            fwd += 1;
        }
        let mut back = 0;
        while let Some(q) = step(-(back + 1)) {
            if self.get(q) != Some(side) {
                break;
            }
            back += 1;
        }
        (back, fwd)
    }

    fn wins_with_length(&self, len: i32, side: Side) -> bool {
        usize::try_from(len).is_ok_and(|len| self.rules.wins_with_length(len, side))
    }

    /// The winning line through `p` if `side` had a stone there.
    fn line_through(&self, p: Point, side: Side) -> Option<Vec<Point>> {
        for dir in DIRECTIONS {
            let (back, fwd) = self.run(p, side, dir);
            if self.wins_with_length(back + fwd + 1, side) {
                let line = (-back..=fwd)
                    .map(|k| {
                        Point::new(
                            (i32::from(p.x) + k * i32::from(dir.0)) as u8,
                            (i32::from(p.y) + k * i32::from(dir.1)) as u8,
                        )
                    })
                    .collect();
                return Some(line);
            }
        }
        None
    }

    /// Whether `side` playing `m` now would win at once. `m` must be legal.
    pub fn wins_with(&self, m: Move, side: Side) -> bool {
        match self.check(m) {
            Ok(p) => DIRECTIONS.iter().any(|&dir| {
                let (back, fwd) = self.run(p, side, dir);
                self.wins_with_length(back + fwd + 1, side)
            }),
            Err(_) => false,
        }
    }

    /// Plays a sequence of moves given as text (handy for tests and scripts).
    pub fn from_moves(rules: Rules, moves: &[&str]) -> Result<Position, FromMovesError> {
        let mut pos = Position::new(rules);
        for (i, text) in moves.iter().enumerate() {
            let m = rules
                .parse_move(text)
                .map_err(|e| FromMovesError::Unreadable(i + 1, e))?;
            pos.play(m).map_err(|e| FromMovesError::Illegal(i + 1, e))?;
        }
        Ok(pos)
    }
}

impl From<&Position> for renju::Board {
    /// The stones of a position (its rules' board size; gravity and the
    /// line length are not looked at: renju is always about five).
    fn from(position: &Position) -> renju::Board {
        let rules = position.rules();
        let mut board = renju::Board::with_size(rules.width(), rules.height());
        for y in 0..rules.height() {
            for x in 0..rules.width() {
                let p = Point::new(x, y);
                board.set(p, position.get(p));
            }
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;

    fn c4(moves: &str) -> Position {
        let m: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
        let refs: Vec<&str> = m.iter().map(String::as_str).collect();
        Position::from_moves(Rules::connect_four(), &refs).unwrap()
    }

    #[test]
    fn gravity_stacks_stones() {
        let pos = c4("444");
        assert_eq!(
            pos.history(),
            &[Point::new(3, 0), Point::new(3, 1), Point::new(3, 2)]
        );
        assert_eq!(pos.get(Point::new(3, 1)), Some(Side::Second));
        assert_eq!(pos.landing(3), Some(Point::new(3, 3)));
    }

    #[test]
    fn full_column_is_refused_and_position_unchanged() {
        let mut pos = c4("444444");
        let before = pos.clone();
        assert_eq!(
            pos.play(Move::Column(3)),
            Err(IllegalMoveError::ColumnFull('D'))
        );
        assert_eq!(pos, before);
        assert_eq!(
            pos.play(Move::Column(3)).unwrap_err().to_string(),
            "column D is full"
        );
    }

    #[test]
    fn connect_four_cell_input_must_be_the_landing_cell() {
        let mut pos = c4("4");
        assert!(matches!(
            pos.play(Move::Point(Point::new(3, 3))),
            Err(IllegalMoveError::NotLanding { .. })
        ));
        assert_eq!(
            pos.play(Move::Point(Point::new(3, 1))),
            Ok(Point::new(3, 1))
        );
    }

    #[test]
    fn undo_restores_the_position() {
        let mut pos = c4("4455");
        let before = pos.clone();
        pos.play(Move::Column(5)).unwrap();
        pos.undo();
        assert_eq!(pos, before);
        let mut g = Position::new(Rules::gomoku());
        g.play(Move::Point(Point::new(7, 7))).unwrap();
        let before = g.clone();
        g.play(Move::Point(Point::new(7, 12))).unwrap();
        g.undo();
        assert_eq!(g, before);
    }

    #[test]
    fn occupied_and_off_board_points() {
        let mut g = Position::new(Rules::gomoku());
        g.play(Move::Point(Point::new(7, 7))).unwrap();
        assert_eq!(
            g.play(Move::Point(Point::new(7, 7)))
                .unwrap_err()
                .to_string(),
            "h8 is already taken"
        );
        assert!(matches!(
            g.play(Move::Point(Point::new(15, 0))),
            Err(IllegalMoveError::OffBoard(_))
        ));
        assert_eq!(g.stones(), 1);
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        let mut pos = c4("1212121");
        assert!(pos.is_over());
        assert_eq!(pos.play(Move::Column(4)), Err(IllegalMoveError::GameOver));
        assert!(pos.legal_moves().is_empty());
    }

    #[test]
    fn wins_with_sees_immediate_wins() {
        let pos = c4("121212");
        assert!(pos.wins_with(Move::Column(0), Side::First));
        assert!(!pos.wins_with(Move::Column(2), Side::First));
        assert!(pos.wins_with(Move::Column(1), Side::Second));
        let _ = GameKind::Gomoku;
    }

    fn renju(moves: &[&str]) -> Position {
        Position::from_moves(Rules::renju(), moves).unwrap()
    }

    fn point(text: &str) -> Move {
        Rules::renju().parse_move(text).unwrap()
    }

    #[test]
    fn renju_refuses_blacks_forbidden_points_and_lets_white_play_them() {
        use crate::game::renju::Forbidden;
        // Black: f8 g8 across, h6 h7 down; h8 makes two open threes.
        let mut pos = renju(&["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"]);
        assert_eq!(pos.to_move(), Side::First);
        let e = pos.play(point("h8")).unwrap_err();
        assert_eq!(
            e,
            IllegalMoveError::Forbidden {
                point: "h8".into(),
                why: Forbidden::DoubleThree
            }
        );
        assert_eq!(
            e.to_string(),
            "h8 is forbidden for the first player in renju: a double three"
        );
        assert_eq!(pos.stones(), 8, "a refused move changes nothing");
        assert!(!pos.legal_moves().contains(&point("h8")));
        assert!(pos.legal_moves().contains(&point("h9")));
        // The same point is free for white.
        pos.play(point("o15")).unwrap();
        assert!(pos.legal_moves().contains(&point("h8")));
        pos.play(point("h8")).unwrap();
        // Freestyle Gomoku has no such rule.
        let free = Position::from_moves(
            Rules::gomoku(),
            &["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7", "h8"],
        );
        assert!(free.is_ok());
    }

    #[test]
    fn renju_black_wins_with_exactly_five_and_white_with_an_overline() {
        use crate::game::renju::Forbidden;
        // Black b5 c5 d5 e5 _ g5: f5 would make six.
        let mut pos = renju(&["b5", "a1", "c5", "a3", "d5", "a9", "e5", "a11", "g5", "a13"]);
        assert!(matches!(
            pos.play(point("f5")),
            Err(IllegalMoveError::Forbidden {
                why: Forbidden::Overline,
                ..
            })
        ));
        assert!(!pos.wins_with(point("f5"), Side::First));
        // Exactly five wins for black.
        let mut pos = renju(&["e5", "a1", "f5", "a3", "g5", "a9", "h5", "a11"]);
        pos.play(point("i5")).unwrap();
        assert!(
            matches!(pos.outcome(), Outcome::Win { side: Side::First, line } if line.len() == 5)
        );
        // White's six wins: c1 d1 e1 _ g1 h1, then f1.
        let mut pos = renju(&[
            "o15", "c1", "m15", "d1", "o11", "e1", "k15", "g1", "o7", "h1", "i15",
        ]);
        assert!(pos.wins_with(point("f1"), Side::Second));
        pos.play(point("f1")).unwrap();
        assert!(
            matches!(pos.outcome(), Outcome::Win { side: Side::Second, line } if line.len() == 6)
        );
    }
}
