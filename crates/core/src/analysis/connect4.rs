//! Connect Four, analysed exactly by the solver. Values are in the
//! solver's score convention, seen from the player who made the move:
//! positive, that player wins (the larger, the sooner); 0, a draw;
//! negative, that player loses.
//!
//! The positions are solved from the last to the first: near the end of a
//! game the search is cheap, and what it stores in the table makes the
//! earlier positions cheaper; the opening book answers the early ones it
//! holds. Each position has its own time budget; one not settled within
//! it is reported as not settled.

use std::time::{Duration, Instant};

use thiserror::Error;

use super::{Label, MoveAnalysis};
use crate::engine::connect4::position::win_now_score;
use crate::engine::connect4::{Book, C4Position, Cutoff, Solver, WIDTH};
use crate::game::Move;

/// Why a list of columns is not a game of Connect Four on the standard
/// board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("move {index}: column {column} is not on the board (1-7)")]
    OffBoard { index: usize, column: u16 },
    #[error("move {index}: column {column} is full")]
    Full { index: usize, column: u16 },
    #[error("move {index} comes after the game was won")]
    AfterWin { index: usize },
}

/// The positions before each move of `columns` (0..=6, from the empty
/// board), checked.
pub fn positions(columns: &[u8]) -> Result<Vec<C4Position>, GameError> {
    let mut out = Vec::with_capacity(columns.len());
    let mut pos = C4Position::new();
    let mut won = false;
    for (i, &c) in columns.iter().enumerate() {
        let index = i + 1;
        let column = u16::from(c) + 1;
        if won {
            return Err(GameError::AfterWin { index });
        }
        if c as usize >= WIDTH {
            return Err(GameError::OffBoard { index, column });
        }
        if !pos.can_play(c as usize) {
            return Err(GameError::Full { index, column });
        }
        out.push(pos);
        won = pos.is_winning_move(c as usize);
        pos.play_col(c as usize);
    }
    Ok(out)
}

/// Analyses every move of the game `columns` (0..=6, from the empty
/// board), each position within `budget`.
pub fn analyze(
    columns: &[u8],
    solver: &mut Solver,
    book: Option<&Book>,
    budget: Duration,
) -> Result<Vec<MoveAnalysis>, GameError> {
    let positions = positions(columns)?;
    let mut out: Vec<MoveAnalysis> = Vec::with_capacity(positions.len());
    for (pos, &col) in positions.iter().zip(columns).rev() {
        out.push(analyze_move(pos, col, solver, book, budget));
    }
    out.reverse();
    Ok(out)
}

/// Analyses the move `col` (0..=6, a column that is not full) from `pos`,
/// within `budget`.
pub fn analyze_move(
    pos: &C4Position,
    col: u8,
    solver: &mut Solver,
    book: Option<&Book>,
    budget: Duration,
) -> MoveAnalysis {
    // A win on the spot is the best there is, and only a win on the spot
    // equals it: nothing to search.
    if pos.is_winning_move(col as usize) {
        let win = win_now_score(pos);
        return MoveAnalysis {
            played: Move::Column(col),
            before: Some(win),
            after: Some(win),
            best: (0..WIDTH as u8)
                .filter(|&c| pos.can_play(c as usize) && pos.is_winning_move(c as usize))
                .map(Move::Column)
                .collect(),
            label: Some(Label::Best),
            exact: true,
        };
    }
    if let Some(known) = book.and_then(|b| from_book(pos, col, b)) {
        return known;
    }
    let limits = Cutoff {
        deadline: Some(Instant::now() + budget),
        stop: None,
    };
    let mut out = of_scores(col, solver.analyze_within(pos, false, book, limits));
    if !out.exact {
        // Not settled: the engine's best guess, the move its search
        // would try first (one that does not lose at once, making the
        // most threats, nearest the centre).
        let guess = crate::engine::connect4::player::ordered_non_losing(pos);
        out.best = guess
            .first()
            .map(|&c| Move::Column(c))
            .into_iter()
            .collect();
    }
    out
}

/// The move `col` from `pos` answered by the book alone: the position is
/// in it (its exact score and every best column) and so is the position
/// after the move (its score, negated, is the move's value). The book
/// holds the positions the computer's levels reach in their games, so
/// the opening of a game against the computer is answered at once.
fn from_book(pos: &C4Position, col: u8, book: &Book) -> Option<MoveAnalysis> {
    let entry = book.get(pos)?;
    let mut child = *pos;
    child.play_col(col as usize);
    let after = -book.score(&child)?;
    let before = entry.score;
    Some(MoveAnalysis {
        played: Move::Column(col),
        before: Some(before),
        after: Some(after),
        best: (0..WIDTH as u8)
            .filter(|&c| entry.best & (1 << c) != 0)
            .map(Move::Column)
            .collect(),
        label: Some(Label::of_values(before, after)),
        exact: true,
    })
}

/// One move's analysis from the scores of every column of the position
/// before it (`None`: not settled).
fn of_scores(col: u8, scores: Option<[Option<i32>; WIDTH]>) -> MoveAnalysis {
    let played = Move::Column(col);
    let settled = scores.and_then(|s| {
        let before = s.iter().flatten().max().copied()?;
        Some((s, before, s[col as usize]?))
    });
    let Some((scores, before, after)) = settled else {
        return MoveAnalysis {
            played,
            before: None,
            after: None,
            best: Vec::new(),
            label: None,
            exact: false,
        };
    };
    let best = (0..WIDTH as u8)
        .filter(|&c| scores[c as usize] == Some(before))
        .map(Move::Column)
        .collect();
    MoveAnalysis {
        played,
        before: Some(before),
        after: Some(after),
        best,
        label: Some(Label::of_values(before, after)),
        exact: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(digits: &str) -> Vec<u8> {
        digits.bytes().map(|b| b - b'1').collect()
    }

    #[test]
    fn a_game_is_checked_before_it_is_analysed() {
        assert_eq!(
            positions(&cols("18")),
            Err(GameError::OffBoard {
                index: 2,
                column: 8
            })
        );
        assert_eq!(
            positions(&cols("4444444")),
            Err(GameError::Full {
                index: 7,
                column: 4
            })
        );
        // Four in column 1 wins at move 7; an eighth move is no game.
        assert_eq!(positions(&cols("1212121")).map(|p| p.len()), Ok(7));
        assert_eq!(
            positions(&cols("12121213")),
            Err(GameError::AfterWin { index: 8 })
        );
    }

    #[test]
    fn missing_a_win_in_one_is_a_blunder_and_taking_it_is_best() {
        let mut solver = Solver::new(16);
        // Red has three in column 1 and yellow three in column 2; red to
        // move: column 1 wins at once, anything else but 2 lets yellow win.
        let pos = C4Position::from_moves("121212").unwrap();
        let budget = Duration::from_secs(60);
        let missed = analyze_move(&pos, 2, &mut solver, None, budget);
        assert!(missed.exact);
        assert_eq!(missed.best, vec![Move::Column(0)]);
        let (before, after) = (missed.before.unwrap(), missed.after.unwrap());
        assert!(before > 0 && after < 0, "{missed:?}");
        assert_eq!(missed.label, Some(Label::Blunder));
        // The values are the solver's own, seen from the mover.
        let scores = solver.analyze(&pos, false);
        assert_eq!(Some(before), scores.iter().flatten().max().copied());
        assert_eq!(Some(after), scores[2]);
        let won = analyze_move(&pos, 0, &mut solver, None, budget);
        assert_eq!(won.label, Some(Label::Best));
        assert_eq!(won.before, won.after);
    }

    #[test]
    fn a_position_not_settled_in_its_budget_says_so() {
        let mut solver = Solver::new(1);
        // The empty board, without the book, takes far longer than no time.
        let a = analyze(&[3], &mut solver, None, Duration::ZERO).unwrap();
        assert_eq!(a[0].label, None);
        assert_eq!((a[0].before, a[0].after), (None, None));
        assert!(!a[0].exact);
        // With the engine's best guess: the middle column.
        assert_eq!(a[0].best, vec![Move::Column(3)]);
    }

    /// A move between two positions of the book is answered by the book
    /// alone, at once, and says what the solver says.
    #[test]
    fn a_move_between_book_positions_is_answered_by_the_book_as_the_solver_would() {
        let book = Book::builtin();
        let mut solver = Solver::new(64);
        // Book positions of 8 stones with a move to another of 9.
        let mut checked = 0;
        for (pos, _) in book.iter().filter(|(p, _)| p.moves() == 8) {
            let Some(col) = (0..WIDTH as u8).find(|&c| {
                let mut child = pos;
                pos.can_play(c as usize) && !pos.is_winning_move(c as usize) && {
                    child.play_col(c as usize);
                    book.score(&child).is_some()
                }
            }) else {
                continue;
            };
            let started = Instant::now();
            let quick = analyze_move(&pos, col, &mut solver, Some(&book), Duration::ZERO);
            assert!(started.elapsed() < Duration::from_millis(50));
            assert!(quick.exact, "{quick:?}");
            let slow = analyze_move(&pos, col, &mut solver, None, Duration::from_secs(120));
            assert_eq!(quick, slow);
            checked += 1;
            if checked == 3 {
                break;
            }
        }
        assert_eq!(checked, 3);
    }
}
