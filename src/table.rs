//! A game table: the authoritative board of one game and who sits at it.
//! Pure (no IO, no async): the local `inarow play` driver owns one directly,
//! the host's room task owns one per game. Both hand snapshots of it
//! ([`GameView`]) to the sessions that draw it.

use thiserror::Error;

use crate::engine::Level;
use crate::game::{Colour, IllegalMoveError, Move, Outcome, Point, Position, Rules, Side};

/// Who a seat is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Sanitised display name.
    pub name: String,
    pub colour: Colour,
    /// `Some(level)` when the computer plays this seat.
    pub computer: Option<Level>,
    /// The player's rating in this game, shown beside the name (players
    /// with an account, in a rated game).
    pub rating: Option<u32>,
}

impl Seat {
    pub fn human(name: impl Into<String>, colour: Colour) -> Seat {
        Seat {
            name: name.into(),
            colour,
            computer: None,
            rating: None,
        }
    }

    pub fn computer(level: Level, colour: Colour) -> Seat {
        Seat {
            name: format!("Computer ({level})"),
            colour,
            computer: Some(level),
            rating: None,
        }
    }

    /// `Alice (Red)`; the computer `Computer (easy, Green)`.
    pub fn label(&self) -> String {
        match self.computer {
            Some(level) => format!("Computer ({level}, {})", self.colour),
            None => format!("{} ({})", self.name, self.colour),
        }
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A line on the board: the winner and its stones.
    Line { winner: Side, line: Vec<Point> },
    /// The board is full.
    Draw,
    /// A player left or dropped; the other wins.
    Forfeit { leaver: Side, reason: String },
    /// The game was stopped without a result (e.g. the host shut down).
    Aborted { reason: String },
}

/// A move that was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    #[error("it is not your turn: {0} is to move")]
    NotYourTurn(String),
    #[error("{0}")]
    CannotUndo(&'static str),
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

/// What a session needs to draw a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    pub position: Position,
    /// Indexed by [`Side::index`]: `seats[0]` moves first.
    pub seats: [Seat; 2],
    pub ending: Option<Ending>,
    /// Which seats have asked for a rematch.
    pub rematch: [bool; 2],
    /// Games played at this table so far (1 for the first).
    pub round: u32,
    /// Wins of the player in each seat over the rounds, indexed like
    /// `seats` (the scores swap with the seats when a rematch swaps sides).
    pub score: [u32; 2],
    /// Whether this game counts for the players' ratings.
    pub rated: bool,
    /// Each seat's rating before and after this game, once the store has
    /// moved them (rated games).
    pub rating_change: [Option<RatingChange>; 2],
}

/// A rating moved by a game: `1512 → 1527 (+15)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingChange {
    pub before: u32,
    pub after: u32,
}

impl std::fmt::Display for RatingChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = i64::from(self.after) - i64::from(self.before);
        write!(f, "{} \u{2192} {} ({d:+})", self.before, self.after)
    }
}

impl GameView {
    /// The seat moving next, if the game is on.
    pub fn to_move(&self) -> Option<Side> {
        self.ending.is_none().then(|| self.position.to_move())
    }

    pub fn seat(&self, side: Side) -> &Seat {
        &self.seats[side.index()]
    }

    pub fn colours(&self) -> [Colour; 2] {
        [self.seats[0].colour, self.seats[1].colour]
    }

    /// The one line that says how the game ended, e.g.
    /// `Alice (Red) wins with (1|0) (2|0) (3|0) (4|0)`.
    pub fn ending_text(&self) -> Option<String> {
        let rules = self.position.rules();
        Some(match self.ending.as_ref()? {
            Ending::Line { winner, line } => format!(
                "{} wins with {}",
                self.seat(*winner).label(),
                rules.format_points(line)
            ),
            Ending::Draw => "Draw: the board is full".to_string(),
            Ending::Forfeit { leaver, reason } => format!(
                "{} {reason}: {} wins by forfeit",
                self.seat(*leaver).label(),
                self.seat(leaver.other()).label()
            ),
            Ending::Aborted { reason } => format!("Game stopped: {reason}"),
        })
    }
}

/// The authoritative game.
#[derive(Debug, Clone)]
pub struct Table {
    view: GameView,
}

impl Table {
    /// A new game; `seats[0]` moves first.
    pub fn new(rules: Rules, seats: [Seat; 2]) -> Table {
        Table {
            view: GameView {
                position: Position::new(rules),
                seats,
                ending: None,
                rematch: [false; 2],
                round: 1,
                score: [0; 2],
                rated: false,
                rating_change: [None; 2],
            },
        }
    }

    pub fn view(&self) -> &GameView {
        &self.view
    }

    pub fn position(&self) -> &Position {
        &self.view.position
    }

    pub fn is_over(&self) -> bool {
        self.view.ending.is_some()
    }

    /// The side to move, if the game is on.
    pub fn to_move(&self) -> Option<Side> {
        self.view.to_move()
    }

    /// Marks the game rated (or not) and shows each seat's rating.
    pub fn set_rated(&mut self, rated: bool, ratings: [Option<u32>; 2]) {
        self.view.rated = rated;
        for (seat, r) in self.view.seats.iter_mut().zip(ratings) {
            seat.rating = r;
        }
    }

    /// The ratings a finished rated game moved, by side.
    pub fn set_rating_change(&mut self, change: [Option<RatingChange>; 2]) {
        self.view.rating_change = change;
    }

    /// Plays `m` for `side`. Errors leave the table unchanged.
    pub fn play(&mut self, side: Side, m: Move) -> Result<Point, TableError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver.into());
        }
        let to_move = self.view.position.to_move();
        if side != to_move {
            return Err(TableError::NotYourTurn(self.view.seat(to_move).label()));
        }
        let p = self.view.position.play(m)?;
        match self.view.position.outcome() {
            Outcome::Win { side, line } => {
                self.view.ending = Some(Ending::Line {
                    winner: *side,
                    line: line.clone(),
                });
                self.view.score[side.index()] += 1;
            }
            Outcome::Draw => self.view.ending = Some(Ending::Draw),
            Outcome::Ongoing => {}
        }
        Ok(p)
    }

    /// `side` left (quit, dropped, idle): the other side wins. No effect on a finished game.
    pub fn forfeit(&mut self, side: Side, reason: &str) {
        if self.is_over() {
            return;
        }
        self.view.ending = Some(Ending::Forfeit {
            leaver: side,
            reason: reason.to_string(),
        });
        self.view.score[side.other().index()] += 1;
    }

    /// Ends the game without a result.
    pub fn abort(&mut self, reason: &str) {
        if !self.is_over() {
            self.view.ending = Some(Ending::Aborted {
                reason: reason.to_string(),
            });
        }
    }

    /// Takes back `side`'s last move in a game against the computer (and
    /// the computer's answer to it), so `side` is to move again. Works in
    /// a game in play or one that ended on the board (a win taken back no
    /// longer counts); not after a forfeit or against a person.
    pub fn undo(&mut self, side: Side) -> Result<(), TableError> {
        let v = &mut self.view;
        if v.seat(side).computer.is_some() || v.seat(side.other()).computer.is_none() {
            return Err(TableError::CannotUndo(
                "moves are taken back only against the computer",
            ));
        }
        match &v.ending {
            None | Some(Ending::Draw) => {}
            Some(Ending::Line { winner, .. }) => {
                let w = winner.index();
                v.score[w] = v.score[w].saturating_sub(1);
            }
            Some(_) => return Err(TableError::CannotUndo("this game is over")),
        }
        let first_own = match side {
            Side::First => 1,
            Side::Second => 2,
        };
        if v.position.stones() < first_own {
            return Err(TableError::CannotUndo("you have no move to take back"));
        }
        v.ending = None;
        v.rematch = [false; 2];
        // Back past our own last stone, then to our turn.
        let mut own_taken = false;
        while !own_taken || v.position.to_move() != side {
            let mover = v.position.to_move().other();
            if v.position.undo().is_none() {
                break;
            }
            own_taken |= mover == side;
        }
        Ok(())
    }

    /// `side` asks for a rematch; when both have asked (computer seats
    /// always agree), a new game starts with the other seat moving first.
    /// Returns whether it started.
    pub fn ask_rematch(&mut self, side: Side) -> bool {
        if !self.is_over() {
            return false;
        }
        self.view.rematch[side.index()] = true;
        for s in Side::BOTH {
            if self.view.seat(s).computer.is_some() {
                self.view.rematch[s.index()] = true;
            }
        }
        if self.view.rematch == [true, true] {
            self.restart_swapped();
            true
        } else {
            false
        }
    }

    /// A new game at once with the seats swapped (who moved second moves first).
    pub fn restart_swapped(&mut self) {
        let v = &mut self.view;
        // A rated game's new ratings are the next game's.
        for (seat, change) in v.seats.iter_mut().zip(v.rating_change) {
            if let Some(c) = change {
                seat.rating = Some(c.after);
            }
        }
        v.seats.swap(0, 1);
        v.score.swap(0, 1);
        v.position = Position::new(*v.position.rules());
        v.ending = None;
        v.rematch = [false; 2];
        v.round += 1;
        v.rating_change = [None; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table::new(
            Rules::connect_four(),
            [
                Seat::human("Alice", Colour::Red),
                Seat::human("Bob", Colour::Yellow),
            ],
        )
    }

    #[test]
    fn turns_are_enforced() {
        let mut t = table();
        assert_eq!(
            t.play(Side::Second, Move::Column(0))
                .unwrap_err()
                .to_string(),
            "it is not your turn: Alice (Red) is to move"
        );
        assert!(t.play(Side::First, Move::Column(0)).is_ok());
        assert!(t.play(Side::First, Move::Column(0)).is_err());
    }

    #[test]
    fn a_win_ends_with_the_line() {
        let mut t = table();
        for (i, c) in [1, 0, 2, 0, 3, 0, 4].into_iter().enumerate() {
            let side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            t.play(side, Move::Column(c)).unwrap();
        }
        assert_eq!(
            t.view().ending_text().unwrap(),
            "Alice (Red) wins with (1|0) (2|0) (3|0) (4|0)"
        );
        assert_eq!(t.view().score, [1, 0]);
    }

    #[test]
    fn forfeit_and_rematch() {
        let mut t = table();
        t.play(Side::First, Move::Column(3)).unwrap();
        t.forfeit(Side::First, "left");
        assert_eq!(
            t.view().ending_text().unwrap(),
            "Alice (Red) left: Bob (Yellow) wins by forfeit"
        );
        assert!(!t.ask_rematch(Side::First));
        assert!(t.ask_rematch(Side::Second));
        // Bob now moves first, with his score.
        assert_eq!(t.view().seats[0].name, "Bob");
        assert_eq!(t.view().score, [1, 0]);
        assert_eq!(t.position().stones(), 0);
        assert_eq!(t.view().round, 2);
    }

    #[test]
    fn undo_takes_back_to_my_turn_against_the_computer_only() {
        use crate::engine::Level;
        let mut t = Table::new(
            Rules::connect_four(),
            [
                Seat::human("Alice", Colour::Red),
                Seat::computer(Level::Easy, Colour::Yellow),
            ],
        );
        assert!(t.undo(Side::First).is_err(), "nothing to take back yet");
        t.play(Side::First, Move::Column(3)).unwrap();
        // The computer is thinking: only my stone goes.
        t.undo(Side::First).unwrap();
        assert_eq!(t.position().stones(), 0);
        assert_eq!(t.to_move(), Some(Side::First));
        // Win, then take the win back.
        for _ in 0..3 {
            t.play(Side::First, Move::Column(0)).unwrap();
            t.play(Side::Second, Move::Column(1)).unwrap();
        }
        t.play(Side::First, Move::Column(0)).unwrap();
        assert_eq!(t.view().score, [1, 0]);
        t.undo(Side::First).unwrap();
        assert_eq!(t.view().score, [0, 0]);
        assert!(t.view().ending.is_none());
        assert_eq!(t.position().stones(), 6);
        assert_eq!(t.to_move(), Some(Side::First));
        // My turn after the computer's answer: both stones go.
        t.play(Side::First, Move::Column(4)).unwrap();
        t.play(Side::Second, Move::Column(4)).unwrap();
        t.undo(Side::First).unwrap();
        assert_eq!(t.position().stones(), 6);
        // Not after a forfeit, not for the computer, not between people.
        assert!(t.undo(Side::Second).is_err());
        t.forfeit(Side::First, "left");
        assert!(t.undo(Side::First).is_err());
        let mut h = table();
        h.play(Side::First, Move::Column(0)).unwrap();
        assert!(h.undo(Side::First).is_err());
    }

    #[test]
    fn computers_always_agree_to_a_rematch() {
        let mut t = Table::new(
            Rules::gomoku(),
            [
                Seat::human("Ann", Colour::Blue),
                Seat::computer(Level::Easy, Colour::Green),
            ],
        );
        t.forfeit(Side::First, "left");
        assert!(t.ask_rematch(Side::First));
    }

    #[test]
    fn a_rating_change_prints_and_carries_into_the_rematch() {
        let up = RatingChange {
            before: 1512,
            after: 1527,
        };
        let down = RatingChange {
            before: 1500,
            after: 1485,
        };
        assert_eq!(up.to_string(), "1512 \u{2192} 1527 (+15)");
        assert_eq!(down.to_string(), "1500 \u{2192} 1485 (-15)");
        let mut t = table();
        t.set_rated(true, [Some(1512), Some(1500)]);
        t.forfeit(Side::Second, "left");
        t.set_rating_change([Some(up), Some(down)]);
        t.restart_swapped();
        // Seats swapped sides: Bob first now, both with their new ratings.
        assert_eq!(t.view().seats[0].name, "Bob");
        assert_eq!(t.view().seats[0].rating, Some(1485));
        assert_eq!(t.view().seats[1].rating, Some(1527));
        assert_eq!(t.view().rating_change, [None, None]);
    }
}
