//! The computer levels the game layer calls for the standard 7x6 board:
//! [`C4Level::Perfect`] (game-theoretically best, fastest win, slowest
//! loss, random among equals) and [`C4Level::Hard`] (perfect, except for an
//! occasional deliberate, not silly, inaccuracy). Easy and medium are
//! generic over board sizes and live in [`crate::engine::simple`].
//!
//! # How a move is chosen
//!
//! 1. An immediate win is taken; a single non-losing move is played at once.
//! 2. The opening book answers the positions it holds.
//! 3. Otherwise the root is searched move by move, keeping for each move a
//!    proved lower and upper bound. The first questions are the sign ("can
//!    we win?", then "can we draw?"), then the interval is halved until the
//!    score is exact, then every move not yet classified is checked against
//!    it. The table is kept between moves of a game (its facts stay true).
//! 4. If the deadline or the stop flag cuts the search short, the move with
//!    the best *proved* lower bound is played, so a proved win or draw is
//!    never given away; only if nothing at all was proved yet does the
//!    heuristic order pick (still never a move that loses at once).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::RngExt;

use super::book::Book;
use super::position::{
    C4Position, CELLS, WIDTH, column_mask, column_of, threat_cells, win_now_score,
};
use super::solver::{Cutoff, Solver};
use crate::engine::{Limits, TimeShares};

/// The Connect Four levels this module provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum C4Level {
    /// Usually perfect; about one move in [`HARD_SLIP_ONE_IN`] is a
    /// deliberate inaccuracy (never a move that loses at once or lets the
    /// opponent set up an unstoppable double threat).
    Hard,
    /// Always a best move: the fastest win, else a draw, else the slowest
    /// loss; random among equally good moves.
    Perfect,
}

/// On average one move in this many is a deliberate slip at the hard level
/// (the first two stones of the game excepted).
pub const HARD_SLIP_ONE_IN: u32 = 5;

/// A reusable computer player: a solver (its table persists between moves)
/// and an optional shared opening book.
pub struct C4Player {
    solver: Solver,
    book: Option<Arc<Book>>,
}

/// Proved bounds on the score of each root move (for the side to move).
#[derive(Clone, Copy)]
struct RootBounds {
    lower: [i32; WIDTH],
    upper: [i32; WIDTH],
    /// Whether the search finished (else the limits cut it short).
    complete: bool,
}

impl C4Player {
    /// A player with a transposition table of about `tt_mb` MiB and an
    /// optional opening book (shared: many players can use one book).
    pub fn new(tt_mb: usize, book: Option<Arc<Book>>) -> Self {
        C4Player {
            solver: Solver::new(tt_mb),
            book,
        }
    }

    /// Chooses a column (0..=6) for the side to move after `moves` (columns
    /// 0..=6 played from the empty board; legal, game not over). Answers by
    /// the end of `limits`' time (within about a millisecond; depth and
    /// node limits do not apply) or as soon as `stop` is set.
    /// Input that is not a legal, unfinished game is not trusted: the
    /// longest valid prefix is used, and the answer is always a playable
    /// column of that position.
    pub fn choose(
        &mut self,
        moves: &[u8],
        level: C4Level,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut impl rand::Rng,
    ) -> u8 {
        let pos = longest_valid_prefix(moves);
        let limits = Cutoff {
            deadline: limits.deadlines(TimeShares::CONNECT4, limits.start).hard,
            stop: Some(stop),
        };
        if level == C4Level::Hard
            && pos.moves() >= 2
            && rng.random_range(0..HARD_SLIP_ONE_IN) == 0
            && let Some(col) = slip(&pos, rng)
        {
            return col;
        }
        self.perfect(&pos, limits, rng)
    }

    /// The perfect level's choice.
    fn perfect(&mut self, pos: &C4Position, limits: Cutoff, rng: &mut impl rand::Rng) -> u8 {
        let playable = pos.playable_columns();
        // Immediate wins: all equally fast.
        let wins: Vec<u8> = playable
            .iter()
            .copied()
            .filter(|&c| pos.is_winning_move(c as usize))
            .collect();
        if !wins.is_empty() {
            return pick(&wins, rng);
        }
        let candidates = ordered_non_losing(pos);
        if candidates.is_empty() {
            // Lost with the opponent's next stone whatever we do.
            return pick(&playable, rng);
        }
        if candidates.len() == 1 {
            return candidates[0];
        }
        if let Some(entry) = self.book.as_ref().and_then(|b| b.get(pos)) {
            let best: Vec<u8> = candidates
                .iter()
                .copied()
                .filter(|&c| entry.best & (1 << c) != 0)
                .collect();
            if !best.is_empty() {
                return pick(&best, rng);
            }
        }
        let bounds = self.search_root(pos, &candidates, limits);
        if !bounds.complete {
            // Cut short: the best proved lower bound (then the best upper
            // bound), ties to the heuristic order.
            let rank = |c: u8| (bounds.lower[c as usize], bounds.upper[c as usize]);
            let top = candidates
                .iter()
                .map(|&c| rank(c))
                .max()
                .expect("not empty");
            return *candidates
                .iter()
                .find(|&&c| rank(c) == top)
                .expect("the maximum is one of them");
        }
        let top = candidates
            .iter()
            .map(|&c| bounds.lower[c as usize])
            .max()
            .expect("candidates is not empty");
        let best: Vec<u8> = candidates
            .iter()
            .copied()
            .filter(|&c| bounds.lower[c as usize] == top)
            .collect();
        pick(&best, rng)
    }

    /// Proves as much as the limits allow about each candidate's score.
    fn search_root(&mut self, pos: &C4Position, candidates: &[u8], limits: Cutoff) -> RootBounds {
        let moves = pos.moves() as i32;
        let mut b = RootBounds {
            lower: [i32::MIN; WIDTH],
            upper: [i32::MAX; WIDTH],
            complete: false,
        };
        let children: Vec<C4Position> = candidates
            .iter()
            .map(|&c| {
                let mut child = *pos;
                child.play_col(c as usize);
                child
            })
            .collect();
        // Every candidate is non-losing, so the opponent cannot win before
        // its second stone from now; and we cannot win with this stone.
        let mut lo = -(CELLS as i32 - 2 - moves) / 2;
        let mut hi = (CELLS as i32 - 1 - moves) / 2;
        // A cheap safety pass first: does each move survive the opponent's
        // next few stones? Such a search is shallow (the window cuts every
        // line longer than that), and if the deadline then cuts the deep
        // questions short, a move that loses quickly is not chosen.
        let safety = lo + 4;
        if safety < hi.min(0) {
            for (i, &c) in candidates.iter().enumerate() {
                let col = c as usize;
                match self
                    .solver
                    .window(&children[i], -(safety + 1), -safety, limits)
                {
                    Some(v) if -v > safety => b.lower[col] = -v,
                    Some(v) => b.upper[col] = -v,
                    None => return b,
                }
            }
        }
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        let mut first = true;
        while lo < hi {
            // The sign first ("win?", then "draw?"), then halve.
            let mid = if first {
                0.clamp(lo, hi - 1)
            } else if lo < 0 && hi == 0 {
                -1
            } else {
                lo + (hi - lo) / 2
            };
            first = false;
            let mut found = None;
            for (k, &i) in order.iter().enumerate() {
                let col = candidates[i] as usize;
                if b.upper[col] <= mid {
                    continue;
                }
                if b.lower[col] > mid {
                    found = Some(k);
                    break;
                }
                let child = &children[i];
                let r = if child.moves() == CELLS {
                    0
                } else {
                    match self.solver.window(child, -(mid + 1), -mid, limits) {
                        Some(v) => -v,
                        None => return b,
                    }
                };
                if r > mid {
                    b.lower[col] = b.lower[col].max(r);
                    found = Some(k);
                    break;
                }
                b.upper[col] = b.upper[col].min(r);
            }
            match found {
                Some(k) => {
                    // Try the move that worked first next time.
                    let i = order.remove(k);
                    order.insert(0, i);
                    lo = lo.max(b.lower[candidates[i] as usize]);
                }
                None => {
                    hi = candidates
                        .iter()
                        .map(|&c| b.upper[c as usize])
                        .max()
                        .expect("candidates is not empty")
                        .min(hi);
                }
            }
        }
        let score = lo;
        // Classify the remaining moves against the exact score.
        for (i, &c) in candidates.iter().enumerate() {
            let col = c as usize;
            if b.lower[col] >= score || b.upper[col] < score {
                continue;
            }
            let child = &children[i];
            let r = if child.moves() == CELLS {
                0
            } else {
                match self.solver.window(child, -score, -(score - 1), limits) {
                    Some(v) => -v,
                    None => return b,
                }
            };
            if r >= score {
                b.lower[col] = r;
            } else {
                b.upper[col] = r;
            }
        }
        b.complete = true;
        b
    }
}

/// The position after the longest prefix of `moves` that is a legal,
/// unfinished game.
fn longest_valid_prefix(moves: &[u8]) -> C4Position {
    let mut pos = C4Position::new();
    for &c in moves {
        let col = c as usize;
        if col >= WIDTH
            || !pos.can_play(col)
            || pos.is_winning_move(col)
            || pos.moves() + 1 >= CELLS
        {
            break;
        }
        pos.play_col(col);
    }
    pos
}

fn pick(cols: &[u8], rng: &mut impl rand::Rng) -> u8 {
    cols[rng.random_range(0..cols.len())]
}

/// Columns that do not let the opponent win at once, most promising first
/// (the solver's ordering: threats created, then centre first).
pub fn ordered_non_losing(pos: &C4Position) -> Vec<u8> {
    let next = pos.non_losing_moves();
    let mut list: Vec<(i32, u8)> = Vec::new();
    for col in [3usize, 2, 4, 1, 5, 0, 6] {
        let m = next & column_mask(col);
        if m == 0 {
            continue;
        }
        let score = (threat_cells(pos.current() | m) & !(pos.mask() | m)).count_ones() as i32;
        list.push((score, column_of(m) as u8));
    }
    // Stable: ties keep the centre-first order.
    list.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    list.into_iter().map(|(_, c)| c).collect()
}

/// Whether the opponent, to move in `pos`, can make a move after which we
/// have no move that avoids losing at once (a double threat, or a threat
/// with a threat above it).
fn opponent_forces_win(pos: &C4Position) -> bool {
    if pos.can_win_next() {
        return true;
    }
    let next = pos.non_losing_moves();
    let mut rest = next;
    while rest != 0 {
        let m = rest & rest.wrapping_neg();
        rest &= rest - 1;
        let after = pos.after(m);
        if after.moves() < CELLS && after.non_losing_moves() == 0 {
            return true;
        }
    }
    false
}

/// A deliberate inaccuracy for the hard level: a random move among those
/// that neither lose at once nor let the opponent force a win with its next
/// stone. `None` if there is no such choice, or if a win is available now
/// (a slip there would be silly).
fn slip(pos: &C4Position, rng: &mut impl rand::Rng) -> Option<u8> {
    if pos.can_win_next() {
        return None;
    }
    let ok: Vec<u8> = ordered_non_losing(pos)
        .into_iter()
        .filter(|&c| {
            let mut child = *pos;
            child.play_col(c as usize);
            child.moves() == CELLS || !opponent_forces_win(&child)
        })
        .collect();
    if ok.len() < 2 {
        return None;
    }
    Some(pick(&ok, rng))
}

/// The perfect score of every column for the side to move (`None` for a
/// full column), using `book` where it knows the child position. For tests
/// and tools; the player itself searches more lazily.
pub fn move_scores(solver: &mut Solver, pos: &C4Position) -> [Option<i32>; WIDTH] {
    let mut out = [None; WIDTH];
    for (col, slot) in out.iter_mut().enumerate() {
        if !pos.can_play(col) {
            continue;
        }
        *slot = Some(if pos.is_winning_move(col) {
            win_now_score(pos)
        } else {
            let mut child = *pos;
            child.play_col(col);
            if child.moves() == CELLS {
                0
            } else {
                -solver.solve(&child)
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::time::{Duration, Instant};

    fn choose(p: &mut C4Player, moves: &str, level: C4Level) -> u8 {
        let cols: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
        let stop = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(7);
        p.choose(
            &cols,
            level,
            &Limits::new(Duration::from_secs(30)),
            &stop,
            &mut rng,
        )
    }

    #[test]
    fn takes_wins_and_blocks() {
        let mut p = C4Player::new(16, None);
        // Horizontal win available in column 4 (index 3).
        assert_eq!(choose(&mut p, "112233", C4Level::Perfect), 3);
        // The opponent threatens column 1 vertically: block it.
        assert_eq!(choose(&mut p, "17171", C4Level::Perfect), 0);
    }

    #[test]
    fn stops_at_once_when_asked() {
        let mut p = C4Player::new(16, None);
        let stop = AtomicBool::new(true);
        let mut rng = SmallRng::seed_from_u64(1);
        let start = Instant::now();
        let col = p.choose(
            &[3],
            C4Level::Perfect,
            &Limits::new(Duration::from_secs(60)),
            &stop,
            &mut rng,
        );
        assert!(start.elapsed() < Duration::from_secs(1));
        assert!(col < 7);
    }

    #[test]
    fn garbage_input_gives_a_playable_column() {
        let mut p = C4Player::new(1, None);
        let stop = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(1);
        let limits = Limits::new(Duration::from_millis(200));
        let col = p.choose(
            &[0, 0, 0, 0, 0, 0, 0, 9],
            C4Level::Hard,
            &limits,
            &stop,
            &mut rng,
        );
        assert!((1..7).contains(&col));
    }
}
