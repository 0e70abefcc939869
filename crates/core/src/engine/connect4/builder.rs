//! Building the opening book by search: the exact entry of a position
//! (its score and every column that reaches it) and the positions the
//! perfect player meets next. `inarow book build` walks the book tree with
//! these; the book itself ([`super::book`]) only stores and looks up.

use super::book::BookEntry;
use super::position::{C4Position, CELLS, WIDTH, win_now_score};
use super::solver::{Cutoff, Solver};

/// Computes the book entry of `pos` (not finished) by search: its exact
/// score and every column that achieves it. Used by the book builder and by
/// tests that check the book against the solver.
pub fn compute_entry(solver: &mut Solver, pos: &C4Position) -> BookEntry {
    let mut best = 0u8;
    if pos.can_win_next() {
        for col in 0..WIDTH {
            if pos.can_play(col) && pos.is_winning_move(col) {
                best |= 1 << col;
            }
        }
        return BookEntry {
            score: win_now_score(pos),
            best,
        };
    }
    let score = solver.solve(pos);
    for col in 0..WIDTH {
        if !pos.can_play(col) {
            continue;
        }
        let mut child = *pos;
        child.play_col(col);
        let achieves = if child.moves() == CELLS {
            score == 0
        } else if child.can_win_next() {
            -win_now_score(&child) >= score
        } else {
            // Null window just below -score: fails low iff the child's
            // score is at most -score, i.e. ours is at least `score`.
            let r = solver
                .window(&child, -score, -score + 1, Cutoff::NONE)
                .expect("no limits");
            r <= -score
        };
        if achieves {
            best |= 1 << col;
        }
    }
    BookEntry { score, best }
}

/// The positions the perfect player meets next in its book tree: after each
/// of its best moves (from `entry`), every reply of the opponent that does
/// not end the game. These are again positions with the perfect player to
/// move, two stones deeper.
pub fn next_positions(pos: &C4Position, entry: &BookEntry) -> Vec<C4Position> {
    let mut out = Vec::new();
    for col in 0..WIDTH {
        if entry.best & (1 << col) == 0 || !pos.can_play(col) || pos.is_winning_move(col) {
            continue;
        }
        let mut mid = *pos;
        mid.play_col(col);
        for reply in 0..WIDTH {
            if !mid.can_play(reply) || mid.is_winning_move(reply) || mid.moves() + 1 >= CELLS {
                continue;
            }
            let mut next = mid;
            next.play_col(reply);
            out.push(next);
        }
    }
    out
}

/// Every position after one stone: the perfect player's first positions
/// when it plays second.
pub fn first_replies() -> Vec<C4Position> {
    (0..WIDTH)
        .map(|col| {
            let mut p = C4Position::new();
            p.play_col(col);
            p
        })
        .collect()
}
