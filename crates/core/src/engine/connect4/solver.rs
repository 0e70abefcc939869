//! The exact solver: negamax with alpha-beta over [`C4Position`], a
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

use super::book::Book;
use super::position::{
    BOARD, BOTTOM, C4Position, CELLS, ROWS_024, ROWS_135, WIDTH, column_mask, column_of, has_four,
    threat_cells, win_now_score,
};
use super::table::{Bounds, Slot, TransTable};

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
pub struct Cutoff<'a> {
    /// Give up when this instant has passed.
    pub deadline: Option<Instant>,
    /// Give up as soon as this flag is set.
    pub stop: Option<&'a AtomicBool>,
}

impl Cutoff<'_> {
    /// No limits: the search runs to the end.
    pub const NONE: Cutoff<'static> = Cutoff {
        deadline: None,
        stop: None,
    };
}

/// A reusable solver: a transposition table and counters. Not `Sync`; use
/// one per thread.
pub struct Solver {
    table: TransTable,
    small: TransTable,
    nodes: u64,
    tuning: Tuning,
}

impl Solver {
    /// A solver with a transposition table of about `table_mb` MiB.
    pub fn new(table_mb: usize) -> Solver {
        Solver {
            table: TransTable::new(table_mb),
            small: TransTable::with_bytes(Tuning::default().small_kb << 10),
            nodes: 0,
            tuning: Tuning::default(),
        }
    }

    /// Replaces the search knobs (for measurements).
    #[doc(hidden)]
    pub fn set_tuning(&mut self, tuning: Tuning) {
        self.tuning = tuning;
        self.small = TransTable::with_bytes(tuning.small_kb << 10);
    }

    /// Forgets everything the table holds (cheap).
    pub fn clear(&mut self) {
        self.table.clear();
        self.small.clear();
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
    pub fn solve(&mut self, pos: &C4Position) -> i32 {
        self.solve_within(pos, false, Cutoff::NONE)
            .expect("a search without limits always finishes")
    }

    /// The sign of the score of `pos`: 1 win, 0 draw, -1 loss.
    pub fn solve_weak(&mut self, pos: &C4Position) -> i32 {
        self.solve_within(pos, true, Cutoff::NONE)
            .expect("a search without limits always finishes")
    }

    /// Like [`Solver::solve`] (or [`Solver::solve_weak`] if `weak`), giving up
    /// with `None` when a limit is hit.
    pub fn solve_within(&mut self, pos: &C4Position, weak: bool, limits: Cutoff) -> Option<i32> {
        let start = Start {
            lo: MIN_SCORE,
            hi: MAX_SCORE,
            guess: None,
        };
        self.solve_from(pos, weak, start, None, limits)
    }

    /// Like [`Solver::solve_within`], starting from what is known (the
    /// search only narrows `start`'s interval, so the answer is exact if
    /// its bounds are true). With a `book`, the search takes the exact
    /// score of every position it meets in the book instead of searching
    /// below it.
    fn solve_from(
        &mut self,
        pos: &C4Position,
        weak: bool,
        start: Start,
        book: Option<&Book>,
        limits: Cutoff,
    ) -> Option<i32> {
        let Start { lo, hi, guess } = start;
        debug_assert!(lo <= hi);
        if pos.can_win_next() {
            let s = win_now_score(pos);
            return Some(if weak { 1 } else { s });
        }
        let moves = pos.moves() as i32;
        let mut lo = lo.max(-(CELLS as i32 - moves) / 2);
        let mut hi = hi.min((CELLS as i32 + 1 - moves) / 2);
        if weak && !self.tuning.weak_probe {
            lo = lo.clamp(-1, 1);
            hi = hi.clamp(-1, 1);
        }
        if weak && self.tuning.weak_probe {
            // Two cheap questions first, far from 0 (a quick win, a quick
            // loss: their windows cut every long line), then the sign.
            for mid in [hi / 2, lo / 2] {
                if lo < mid && mid < hi {
                    let r = self.window_book(pos, mid, mid + 1, book, limits)?;
                    if r <= mid {
                        hi = r.max(lo);
                    } else {
                        lo = r.min(hi);
                    }
                }
            }
            lo = lo.clamp(-1, 1);
            hi = hi.clamp(-1, 1);
        }
        if let Some(g) = guess.filter(|_| !weak) {
            // "Above g - 1?" and "above g?": two questions settle a
            // good guess.
            for mid in [g - 1, g] {
                if lo <= mid && mid < hi {
                    let r = self.window_book(pos, mid, mid + 1, book, limits)?;
                    if r <= mid {
                        hi = r.max(lo);
                    } else {
                        lo = r.min(hi);
                    }
                }
            }
        }
        while lo < hi {
            if weak && (lo > 0 || hi < 0 || (lo == 0 && hi == 0)) {
                break;
            }
            // Ask halfway between 0 and the bound first: a question far
            // from 0 is cheap (its window cuts every long line) and often
            // settles a position with a quick result; then narrow.
            let mut mid = lo + (hi - lo) / 2;
            if mid <= 0 && lo / 2 < mid {
                mid = lo / 2;
            } else if mid >= 0 && hi / 2 > mid {
                mid = hi / 2;
            }
            let r = self.window_book(pos, mid, mid + 1, book, limits)?;
            // Fail-soft results may overshoot the weak range [-1, 1].
            if r <= mid {
                hi = r.max(lo);
            } else {
                lo = r.min(hi);
            }
        }
        Some(if weak { lo.signum() } else { lo })
    }

    /// Searches `pos` (no immediate win for the side to move) in the window
    /// `(alpha, beta)` and returns a fail-soft result: at most `alpha`
    /// means "the score is at most this", at least `beta` means "at least
    /// this", in between is exact. `None` if a limit was hit.
    pub fn window(
        &mut self,
        pos: &C4Position,
        alpha: i32,
        beta: i32,
        limits: Cutoff,
    ) -> Option<i32> {
        self.window_book(pos, alpha, beta, None, limits)
    }

    /// [`Solver::window`], answering positions in `book` from it.
    fn window_book(
        &mut self,
        pos: &C4Position,
        alpha: i32,
        beta: i32,
        book: Option<&Book>,
        limits: Cutoff,
    ) -> Option<i32> {
        debug_assert!(!pos.can_win_next());
        debug_assert!(alpha < beta);
        let mut search = Search {
            small_below: if self.tuning.adapt_nodes > 0 {
                CELLS as i32 + 1
            } else {
                self.tuning.small_below
            },
            table: &mut self.table,
            small: &mut self.small,
            book: book.filter(|b| self.tuning.book_search && !b.is_empty()),
            book_depth: book.map_or(0, |b| b.depth() as i32),
            history: [[0; 64]; 2],
            tuning: self.tuning,
            nodes: 0,
            limits,
            next_check: CHECK_INTERVAL,
            aborted: false,
        };
        let opp_wins = threat_cells(pos.current() ^ pos.mask()) & !pos.mask();
        let r = search.negamax(pos, alpha, beta, None, opp_wins);
        self.nodes += search.nodes;
        if search.aborted { None } else { Some(r) }
    }

    /// The score of every move: `None` for a full column, otherwise the
    /// score for the side to move after playing there (the negation of the
    /// opponent's score). With `weak`, only the sign.
    pub fn analyze(&mut self, pos: &C4Position, weak: bool) -> [Option<i32>; WIDTH] {
        self.analyze_within(pos, weak, None, Cutoff::NONE)
            .expect("a search without limits always finishes")
    }

    /// Like [`Solver::analyze`], answering from `book` what it can and
    /// giving up with `None` when a limit is hit.
    ///
    /// The book gives exact scores only, so every column's score stays
    /// exact: a child position in the book is answered by it; otherwise
    /// the book bounds the child's score and the search narrows what is
    /// left (see [`analyze_bounds`]). Searched children share the table,
    /// and the ones with the narrowest bounds go first.
    pub fn analyze_within(
        &mut self,
        pos: &C4Position,
        weak: bool,
        book: Option<&Book>,
        limits: Cutoff,
    ) -> Option<[Option<i32>; WIDTH]> {
        let bounds = analyze_bounds(pos, book);
        let mut out = [None; WIDTH];
        let mut todo: Vec<(usize, i32, i32)> = Vec::new();
        for (col, b) in bounds.iter().enumerate() {
            match *b {
                None => {}
                Some((lo, hi)) if lo == hi => out[col] = Some(lo),
                Some((lo, hi)) => todo.push((col, lo, hi)),
            }
        }
        // Narrow intervals first (a bound from the book makes a search
        // cheap), then centre first (more transpositions for the rest).
        todo.sort_by_key(|&(col, lo, hi)| (hi - lo, (2 * col as i32 - 6).abs()));
        // Siblings often score alike: the previous one's score is the
        // first question about the next (it only saves questions).
        let mut last: Option<i32> = None;
        for (col, lo, hi) in todo {
            let mut child = *pos;
            child.play_col(col);
            // `lo..=hi` bounds our score after `col`; the child's score
            // is its negation.
            let start = Start {
                lo: -hi,
                hi: -lo,
                guess: last.map(|v| -v),
            };
            let v = -self.solve_from(&child, weak, start, book, limits)?;
            last = Some(v);
            out[col] = Some(v);
        }
        if weak {
            for s in out.iter_mut().flatten() {
                *s = s.signum();
            }
        }
        Some(out)
    }
}

/// Where a root search starts: the exact score is known to lie in
/// `lo..=hi`, and `guess` (if any) is asked about first.
#[derive(Clone, Copy)]
struct Start {
    lo: i32,
    hi: i32,
    guess: Option<i32>,
}

/// What is known without search about the score of each move from `pos`
/// (for the side to move, after playing that column): `None` for a full
/// column, else `(lo, hi)` with the exact score in `lo..=hi`; `lo == hi`
/// when it is known exactly.
///
/// Without a book only immediate wins and a full board are exact. With
/// one, for the child position `c` after a move:
///
/// * `c` in the book: exact, the negation of the book's score for `c`
///   (whose side to move is the opponent).
/// * `pos` in the book with score `s`: each of its best moves scores
///   exactly `s`, every other move at most `s - 1`.
/// * each reply from `c` that reaches a position in the book (or ends the
///   game) gives the opponent at least the negation of that position's
///   score, so our score is at most the negation of the best of them; if
///   every reply is covered, the score is exact.
///
/// The book holds only positions the perfect player meets, so a move off
/// its lines usually needs search; these bounds make that search shorter.
pub fn analyze_bounds(pos: &C4Position, book: Option<&Book>) -> [Option<(i32, i32)>; WIDTH] {
    let mut out = [None; WIDTH];
    let entry = book.and_then(|b| b.get(pos));
    for (col, slot) in out.iter_mut().enumerate() {
        if !pos.can_play(col) {
            continue;
        }
        if pos.is_winning_move(col) {
            let s = win_now_score(pos);
            *slot = Some((s, s));
            continue;
        }
        let mut child = *pos;
        child.play_col(col);
        if child.moves() == CELLS {
            *slot = Some((0, 0));
            continue;
        }
        if child.can_win_next() {
            let s = -win_now_score(&child);
            *slot = Some((s, s));
            continue;
        }
        let moves = child.moves() as i32;
        // The child's own bounds without search, negated: its side to
        // move cannot win with its next stone (so at best with the one
        // after), and we may win with our next one.
        let mut lo = -((CELLS as i32 - 1 - moves) / 2);
        let mut hi = (CELLS as i32 - moves) / 2;
        if let Some(book) = book {
            if let Some(s) = book.score(&child) {
                *slot = Some((-s, -s));
                continue;
            }
            if let Some(e) = entry {
                if e.best & (1 << col) != 0 {
                    *slot = Some((e.score, e.score));
                    continue;
                }
                hi = hi.min(e.score - 1);
            }
            // One ply further: the opponent's replies.
            let mut best_reply = i32::MIN;
            let mut all_known = true;
            for reply in 0..WIDTH {
                if !child.can_play(reply) {
                    continue;
                }
                let mut next = child;
                next.play_col(reply);
                let known = if next.moves() == CELLS {
                    Some(0)
                } else {
                    book.score(&next).map(|s| -s)
                };
                match known {
                    Some(v) => best_reply = best_reply.max(v),
                    None => all_known = false,
                }
            }
            if best_reply > i32::MIN {
                // The opponent gets at least `best_reply`.
                hi = hi.min(-best_reply);
                if all_known {
                    lo = lo.max(-best_reply);
                }
            }
        }
        debug_assert!(lo <= hi, "inconsistent book at column {col}");
        *slot = Some((lo, hi.max(lo)));
    }
    out
}

/// How many nodes pass between two looks at the clock and the stop flag:
/// about a tenth of a millisecond of search.
const CHECK_INTERVAL: u64 = 4096;

/// Search knobs, for measuring ideas against each other (`inarow bench
/// connect4 --tune ...`). The defaults are the measured best.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Share table entries between mirrored positions.
    pub mirror: bool,
    /// ... with fewer than this many stones.
    pub mirror_below: i32,
    /// Play a single forced move without table or ordering work.
    pub forced_fast: bool,
    /// Positions with fewer empty cells do not use the table.
    pub tt_min_empty: i32,
    /// Probe the children in the table before searching any of them
    /// (enhanced transposition cutoff) at nodes with at least this many
    /// empty cells.
    pub etc_min_empty: i32,
    /// Static bound from the follow-up (claimeven) strategy.
    pub claimeven: bool,
    /// Move ordering variant.
    pub order: u8,
    /// Weak solving asks the strong solver's first questions (cheap ones
    /// far from 0) and stops as soon as the sign is known.
    pub weak_probe: bool,
    /// Bound the score by 0 for a side that cannot complete any line.
    pub dead: bool,
    /// ... from this many stones on.
    pub dead_from: i32,
    /// Positions with fewer empty cells use a small, cache-resident table.
    pub small_below: i32,
    /// Searches start with every position in the small table and move the
    /// positions with many empty cells to the big one after this many
    /// nodes (0: from the start).
    pub adapt_nodes: u64,
    /// Size of the small table, KiB.
    pub small_kb: usize,
    /// Searches given a book look up the positions they meet in it.
    pub book_search: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            mirror: true,
            mirror_below: 20,
            forced_fast: true,
            tt_min_empty: 0,
            etc_min_empty: 100,
            claimeven: true,
            order: 0,
            weak_probe: true,
            dead: true,
            dead_from: 20,
            small_below: 16,
            adapt_nodes: 50_000,
            small_kb: 1024,
            book_search: true,
        }
    }
}

/// Why a tuning setting is refused (the setting as written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TuningError {
    #[error("{0}: expected name=value")]
    NotNameValue(String),
    #[error("{0}: not a number")]
    NotANumber(String),
    #[error("{0}: unknown setting")]
    Unknown(String),
}

impl Tuning {
    /// Applies `name=value,name=value` settings.
    pub fn parse(&mut self, text: &str) -> Result<(), TuningError> {
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| TuningError::NotNameValue(item.to_string()))?;
            let v: i32 = value
                .parse()
                .map_err(|_| TuningError::NotANumber(item.to_string()))?;
            match name {
                "mirror" => self.mirror = v != 0,
                "mirrorbelow" => self.mirror_below = v,
                "forced" => self.forced_fast = v != 0,
                "tt" => self.tt_min_empty = v,
                "etc" => self.etc_min_empty = v,
                "claimeven" => self.claimeven = v != 0,
                "order" => self.order = v as u8,
                "weakprobe" => self.weak_probe = v != 0,
                "dead" => self.dead = v != 0,
                "deadfrom" => self.dead_from = v,
                "small" => self.small_below = v,
                "adapt" => self.adapt_nodes = v as u64,
                "smallkb" => self.small_kb = v as usize,
                "booksearch" => self.book_search = v != 0,
                _ => return Err(TuningError::Unknown(name.to_string())),
            }
        }
        Ok(())
    }
}

/// Where a position's table entry is and what it held when probed.
#[derive(Clone, Copy)]
struct Probe {
    slot: Slot,
    small: bool,
    mirrored: bool,
    bounds: Option<Bounds>,
}

/// One call into the search: the table, a node counter and the limits.
struct Search<'t, 'l> {
    small_below: i32,
    table: &'t mut TransTable,
    small: &'t mut TransTable,
    /// Positions with at most `book_depth` stones are looked up here.
    book: Option<&'t Book>,
    book_depth: i32,
    history: [[i32; 64]; 2],
    tuning: Tuning,
    nodes: u64,
    limits: Cutoff<'l>,
    next_check: u64,
    aborted: bool,
}

impl Search<'_, '_> {
    #[cold]
    fn check_limits(&mut self) -> bool {
        self.next_check = self.nodes + CHECK_INTERVAL;
        if self.nodes >= self.tuning.adapt_nodes {
            // The search has outgrown the cache-resident table: from now
            // on only the positions near the leaves stay there.
            self.small_below = self.tuning.small_below;
        }
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

    #[inline]
    fn probe(&self, pos: &C4Position) -> Probe {
        let small = (CELLS - pos.moves()) < self.small_below as usize;
        let table: &TransTable = if small { self.small } else { self.table };
        let (key, mirrored) =
            if self.tuning.mirror && (pos.moves() as i32) < self.tuning.mirror_below {
                pos.canonical_key()
            } else {
                (pos.key(), false)
            };
        let slot = table.slot(key);
        Probe {
            slot,
            small,
            mirrored,
            bounds: table.probe(slot),
        }
    }

    /// Fail-soft negamax. Precondition: the side to move cannot win with
    /// its next stone. `hint` is the position's table probe if the caller
    /// already made it. After an abort the result is meaningless and
    /// nothing more is stored.
    fn negamax(
        &mut self,
        pos: &C4Position,
        mut alpha: i32,
        mut beta: i32,
        hint: Option<Probe>,
        opp_wins: u64,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check_limits() {
            return 0;
        }
        let t = self.tuning;
        let moves = pos.moves() as i32;
        let mask = pos.mask();
        let current = pos.current();
        debug_assert_eq!(opp_wins, threat_cells(current ^ mask) & !mask);
        let possible = (mask + BOTTOM) & BOARD;
        let forced = possible & opp_wins;
        let mut candidates = possible;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two threats to block: lost with the opponent's next stone.
                return -(CELLS as i32 - moves) / 2;
            }
            candidates = forced;
        }
        // Never play just below an opponent's winning cell.
        candidates &= !(opp_wins >> 1);
        if candidates == 0 {
            return -(CELLS as i32 - moves) / 2;
        }
        if moves >= CELLS as i32 - 2 {
            // Two cells left, neither side can complete a line in them.
            return 0;
        }
        let mut lo = -(CELLS as i32 - 2 - moves) / 2;
        let mut hi = (CELLS as i32 - 1 - moves) / 2;
        if t.dead && moves >= t.dead_from {
            // A side that cannot complete any line any more cannot win.
            let empty = BOARD & !mask;
            if !has_four(current | empty) {
                hi = hi.min(0);
            }
            if !has_four((current ^ mask) | empty) {
                lo = lo.max(0);
            }
        }
        if alpha < lo {
            alpha = lo;
            if alpha >= beta {
                return alpha;
            }
        }
        if t.claimeven && (mask + BOTTOM) & ROWS_135 == 0 {
            // Every column has an even number of empty cells: the opponent
            // can answer every move in the same column and so claim all
            // empty cells on rows 1, 3 and 5 (0-based), leaving us rows 0,
            // 2 and 4. If those cannot give us four in a line, we cannot win.
            let empty = BOARD & !mask;
            if !has_four(current | (empty & ROWS_024)) {
                let bound = if has_four((current ^ mask) | (empty & ROWS_135)) {
                    -1
                } else {
                    0
                };
                hi = hi.min(bound);
            }
        }
        if beta > hi {
            beta = hi;
            if alpha >= beta {
                return beta;
            }
        }
        // An exact score from the book fits any window.
        if moves <= self.book_depth
            && let Some(s) = self.book.and_then(|b| b.score(pos))
        {
            return s;
        }
        if t.forced_fast && candidates & (candidates - 1) == 0 {
            let threats = threat_cells(current | candidates) & !(mask | candidates);
            return -self.negamax(&pos.after(candidates), -beta, -alpha, None, threats);
        }

        let empties = CELLS as i32 - moves;
        let probe = if empties >= t.tt_min_empty {
            Some(hint.unwrap_or_else(|| self.probe(pos)))
        } else {
            None
        };
        let mut known = Bounds {
            lower: lo,
            upper: hi,
            best: 7,
        };
        if let Some(Probe {
            bounds: Some(b),
            mirrored,
            ..
        }) = probe
        {
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
        let etc = empties >= t.etc_min_empty;
        let mut list: [(i32, u64, u64, Option<Probe>); WIDTH] = [(0, 0, 0, None); WIDTH];
        let mut n = 0;
        let mut best = i32::MIN;
        let mut best_move = known.best;
        let start_nodes = self.nodes;
        for &col in &CENTRE_FIRST {
            let m = candidates & column_mask(col);
            if m == 0 {
                continue;
            }
            let mut child_probe = None;
            if etc {
                let cp = self.probe(&pos.after(m));
                if let Some(cb) = cp.bounds {
                    if -cb.upper >= beta {
                        // A child already known to be good enough: cut.
                        let mut stored = known;
                        stored.lower = stored.lower.max(-cb.upper);
                        stored.best = col as u8;
                        self.store(probe, stored, 1);
                        return -cb.upper;
                    }
                    if -cb.lower <= alpha {
                        // Known not to raise alpha: no need to search it.
                        best = best.max(-cb.lower);
                        continue;
                    }
                }
                child_probe = Some(cp);
            }
            let threats = threat_cells(current | m) & !(mask | m);
            let score = if col as u8 == known.best {
                i32::MAX
            } else {
                match t.order {
                    0 => threats.count_ones() as i32,
                    1 => {
                        let good = if moves % 2 == 0 { ROWS_024 } else { ROWS_135 };
                        (threats.count_ones() + (threats & good).count_ones()) as i32
                    }
                    _ => {
                        let good = if moves % 2 == 0 { ROWS_024 } else { ROWS_135 };
                        let s = (threats.count_ones() + (threats & good).count_ones()) as i32;
                        (s << 20)
                            + self.history[(moves & 1) as usize][m.trailing_zeros() as usize]
                                .min((1 << 20) - 1)
                    }
                }
            };
            // Insertion sort, stable: equal scores keep the centre-first order.
            let mut i = n;
            while i > 0 && list[i - 1].0 < score {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (score, m, threats, child_probe);
            n += 1;
        }

        let a0 = alpha;
        for &(_, m, threats, child_probe) in &list[..n] {
            let child = pos.after(m);
            let v = -self.negamax(&child, -beta, -alpha, child_probe, threats);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = column_of(m) as u8;
                    alpha = v;
                    if alpha >= beta {
                        if t.order >= 2 {
                            let h = &mut self.history[(moves & 1) as usize]
                                [m.trailing_zeros() as usize];
                            *h += empties * empties;
                        }
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
        stored.best = best_move;
        self.store(probe, stored, self.nodes - start_nodes);
        best
    }

    /// Stores `b` (oriented like the searched position) if the position
    /// uses the table.
    #[inline]
    fn store(&mut self, probe: Option<Probe>, mut b: Bounds, nodes: u64) {
        if let Some(p) = probe {
            if b.best < 7 && p.mirrored {
                b.best = 6 - b.best;
            }
            if p.small {
                self.small.store(p.slot, b, nodes);
            } else {
                self.table.store(p.slot, b, nodes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(moves: &str) -> i32 {
        Solver::new(16).solve(&C4Position::from_moves(moves).unwrap())
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
            let p = C4Position::from_moves(m).unwrap();
            let strong = s.solve(&p);
            s.clear();
            assert_eq!(s.solve_weak(&p), strong.signum(), "{m}");
        }
    }
}
