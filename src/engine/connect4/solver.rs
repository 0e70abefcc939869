//! The exact solver: negamax with alpha-beta over [`Position`], a
//! transposition table, move ordering, and null-window narrowing at the root.
//!
//! # Scores
//!
//! Scores follow Pascal Pons' convention (see the bench README): for the
//! side to move, `22 - n` if it wins with its n-th stone, `n - 22` if the
//! opponent wins with its n-th stone, 0 for a draw. With `s` stones on the
//! board that is `(43 - s) / 2` for a win with the next stone, and so on.
//!
//! # Search
//!
//! * Only "non-losing" moves are searched: a move that lets the opponent
//!   win at once is never better than any other move (if all moves do, the
//!   position is lost with the opponent's next stone).
//! * A node is never entered with an immediate win for the side to move,
//!   so scores are bounded without search: at most `(41 - s) / 2`, at least
//!   `-(40 - s) / 2`. These bounds tighten the window before any work.
//! * The root asks yes/no questions with a null window (`[v, v + 1]`,
//!   "is the score above v?") and narrows the interval, starting near 0
//!   where most positions are. The table keeps both bounds, so each
//!   question reuses what the previous ones proved.
//! * Mirrored positions share table entries.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::position::{CELLS, Position, WIDTH, column_mask, column_of, threat_cells};
use super::table::{Bounds, Table};

/// The highest score: a win with the side's first stone... on an empty
/// board that would be 21 (not reachable in practice, but the range is).
pub const MAX_SCORE: i32 = 21;
/// The lowest score.
pub const MIN_SCORE: i32 = -21;

/// Columns in the order they are tried when nothing else tells them apart:
/// centre first, because central stones take part in more lines.
const CENTRE_FIRST: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// Stop conditions for a search that must not run forever.
#[derive(Clone, Copy, Default)]
pub struct Limits<'a> {
    /// Give up when this instant has passed.
    pub deadline: Option<Instant>,
    /// Give up as soon as this flag is set.
    pub stop: Option<&'a AtomicBool>,
}

impl Limits<'_> {
    /// No limits: the search runs to the end.
    pub const NONE: Limits<'static> = Limits {
        deadline: None,
        stop: None,
    };
}

/// The score of a position whose side to move wins with its next stone.
#[inline]
pub(crate) fn win_now_score(pos: &Position) -> i32 {
    (CELLS as i32 + 1 - pos.moves() as i32) / 2
}

/// A reusable solver: a transposition table and counters. Not `Sync`; use
/// one per thread.
pub struct Solver {
    table: Table,
    nodes: u64,
}

impl Solver {
    /// A solver with a transposition table of about `table_mb` MiB.
    pub fn new(table_mb: usize) -> Solver {
        Solver {
            table: Table::new(table_mb),
            nodes: 0,
        }
    }

    /// Forgets everything the table holds (cheap).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Nodes searched since the solver was made or [`Solver::reset_nodes`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resets the node counter.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Table size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The exact score of `pos` (a position that is not finished).
    pub fn solve(&mut self, pos: &Position) -> i32 {
        self.solve_within(pos, false, Limits::NONE)
            .expect("a search without limits always finishes")
    }

    /// The sign of the score of `pos`: 1 win, 0 draw, -1 loss.
    pub fn solve_weak(&mut self, pos: &Position) -> i32 {
        self.solve_within(pos, true, Limits::NONE)
            .expect("a search without limits always finishes")
    }

    /// Like [`Solver::solve`] (or [`Solver::solve_weak`] if `weak`), giving up
    /// with `None` when a limit is hit.
    pub fn solve_within(&mut self, pos: &Position, weak: bool, limits: Limits) -> Option<i32> {
        if pos.can_win_next() {
            let s = win_now_score(pos);
            return Some(if weak { 1 } else { s });
        }
        let moves = pos.moves() as i32;
        let (mut lo, mut hi) = if weak {
            (-1, 1)
        } else {
            (-(CELLS as i32 - moves) / 2, (CELLS as i32 + 1 - moves) / 2)
        };
        while lo < hi {
            // Probe near 0 first: most positions are close to a draw, and
            // the sign is what matters most.
            let mut mid = lo + (hi - lo) / 2;
            if mid <= 0 && lo / 2 < mid {
                mid = lo / 2;
            } else if mid >= 0 && hi / 2 > mid {
                mid = hi / 2;
            }
            let r = self.window(pos, mid, mid + 1, limits)?;
            // Fail-soft results may overshoot the weak range [-1, 1].
            if r <= mid {
                hi = r.max(lo);
            } else {
                lo = r.min(hi);
            }
        }
        Some(lo)
    }

    /// Searches `pos` (no immediate win for the side to move) in the window
    /// `(alpha, beta)` and returns a fail-soft result: at most `alpha`
    /// means "the score is at most this", at least `beta` means "at least
    /// this", in between is exact. `None` if a limit was hit.
    pub fn window(&mut self, pos: &Position, alpha: i32, beta: i32, limits: Limits) -> Option<i32> {
        debug_assert!(!pos.can_win_next());
        debug_assert!(alpha < beta);
        let mut search = Search {
            table: &mut self.table,
            nodes: 0,
            limits,
            next_check: CHECK_INTERVAL,
            aborted: false,
        };
        let r = search.negamax(pos, alpha, beta);
        self.nodes += search.nodes;
        if search.aborted { None } else { Some(r) }
    }

    /// The score of every move: `None` for a full column, otherwise the
    /// score for the side to move after playing there (the negation of the
    /// opponent's score). With `weak`, only the sign.
    pub fn analyze(&mut self, pos: &Position, weak: bool) -> [Option<i32>; WIDTH] {
        self.analyze_within(pos, weak, Limits::NONE)
            .expect("a search without limits always finishes")
    }

    /// Like [`Solver::analyze`], giving up with `None` when a limit is hit.
    pub fn analyze_within(
        &mut self,
        pos: &Position,
        weak: bool,
        limits: Limits,
    ) -> Option<[Option<i32>; WIDTH]> {
        let mut out = [None; WIDTH];
        for (col, slot) in out.iter_mut().enumerate() {
            if !pos.can_play(col) {
                continue;
            }
            *slot = Some(if pos.is_winning_move(col) {
                if weak { 1 } else { win_now_score(pos) }
            } else {
                let mut child = *pos;
                child.play_col(col);
                if child.moves() == CELLS {
                    0
                } else {
                    -self.solve_within(&child, weak, limits)?
                }
            });
        }
        Some(out)
    }
}

/// How many nodes pass between two looks at the clock and the stop flag:
/// about a tenth of a millisecond of search.
const CHECK_INTERVAL: u64 = 4096;

/// One call into the search: the table, a node counter and the limits.
struct Search<'t, 'l> {
    table: &'t mut Table,
    nodes: u64,
    limits: Limits<'l>,
    next_check: u64,
    aborted: bool,
}

impl Search<'_, '_> {
    #[cold]
    fn check_limits(&mut self) -> bool {
        self.next_check = self.nodes + CHECK_INTERVAL;
        let stop = self
            .limits
            .stop
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d);
        if stop {
            self.aborted = true;
        }
        stop
    }

    /// Fail-soft negamax. Precondition: the side to move cannot win with
    /// its next stone. After an abort the result is meaningless and nothing
    /// more is stored.
    fn negamax(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check_limits() {
            return 0;
        }
        let moves = pos.moves() as i32;
        let next = pos.non_losing_moves();
        if next == 0 {
            // Every move lets the opponent win with its next stone.
            return -(CELLS as i32 - moves) / 2;
        }
        if moves >= CELLS as i32 - 2 {
            // Two cells left, neither side can complete a line in them.
            return 0;
        }
        let lo = -(CELLS as i32 - 2 - moves) / 2;
        if alpha < lo {
            alpha = lo;
            if alpha >= beta {
                return alpha;
            }
        }
        let hi = (CELLS as i32 - 1 - moves) / 2;
        if beta > hi {
            beta = hi;
            if alpha >= beta {
                return beta;
            }
        }

        let (key, mirrored) = pos.canonical_key();
        let slot = self.table.slot(key);
        let mut known = Bounds {
            lower: lo,
            upper: hi,
            best: 7,
        };
        if let Some(b) = self.table.probe(slot) {
            if b.lower >= beta {
                return b.lower;
            }
            if b.upper <= alpha {
                return b.upper;
            }
            if b.lower == b.upper {
                return b.lower;
            }
            alpha = alpha.max(b.lower);
            beta = beta.min(b.upper);
            known = Bounds {
                lower: b.lower.max(lo),
                upper: b.upper.min(hi),
                best: if b.best < 7 && mirrored {
                    6 - b.best
                } else {
                    b.best
                },
            };
        }

        // Order the moves: the table's best move first, then by the number
        // of cells where the move leaves us a winning threat.
        let mut list = [(0i32, 0u64); WIDTH];
        let mut n = 0;
        let current = pos.current();
        let mask = pos.mask();
        for &col in &CENTRE_FIRST {
            let m = next & column_mask(col);
            if m == 0 {
                continue;
            }
            let score = if col as u8 == known.best {
                1000
            } else {
                (threat_cells(current | m) & !(mask | m)).count_ones() as i32
            };
            // Insertion sort, stable: equal scores keep the centre-first order.
            let mut i = n;
            while i > 0 && list[i - 1].0 < score {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (score, m);
            n += 1;
        }

        let start_nodes = self.nodes;
        let a0 = alpha;
        let mut best = i32::MIN;
        let mut best_move = known.best;
        for &(_, m) in &list[..n] {
            let child = pos.after(m);
            let v = -self.negamax(&child, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = column_of(m) as u8;
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let mut stored = known;
        if best >= beta {
            stored.lower = stored.lower.max(best);
        } else if best > a0 {
            stored.lower = best;
            stored.upper = best;
        } else {
            stored.upper = stored.upper.min(best);
        }
        stored.best = if best_move < 7 && mirrored {
            6 - best_move
        } else {
            best_move
        };
        self.table.store(slot, stored, self.nodes - start_nodes);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(moves: &str) -> i32 {
        Solver::new(16).solve(&Position::from_moves(moves).unwrap())
    }

    #[test]
    fn tutorial_examples() {
        assert_eq!(solve("4455"), 18);
        assert_eq!(solve("44455554221"), -15);
    }

    #[test]
    fn weak_is_the_sign() {
        let mut s = Solver::new(16);
        for m in [
            "4455",
            "44455554221",
            "2252576253462244111563365343671351441",
        ] {
            let p = Position::from_moves(m).unwrap();
            let strong = s.solve(&p);
            s.clear();
            assert_eq!(s.solve_weak(&p), strong.signum(), "{m}");
        }
    }
}
