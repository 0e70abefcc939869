//! Levels that work on any board size, written against [`Position`] itself.
//!
//! * [`ConnectFourEasy`]: wins if it can, blocks an immediate loss, avoids a
//!   move that lets the opponent win on top of it, otherwise random.
//! * [`ConnectFourSearch`]: negamax with alpha-beta on a window-count
//!   evaluation, iterative deepening under the time budget; `medium` stops at
//!   a shallow depth, `deep` goes as far as the budget allows (used for the
//!   stronger levels on boards the exact solver does not cover).

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

use super::{Deadlines, Engine, Limits, TimeShares};
use crate::game::{Move, Point, Position, Rules, Side};

/// Moves that win at once for `side`.
fn winning_moves(pos: &Position, side: Side) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| pos.wins_with(m, side))
        .collect()
}

/// Connect Four "easy".
pub struct ConnectFourEasy {
    rng: SmallRng,
}

impl ConnectFourEasy {
    pub fn new(rng: SmallRng) -> Self {
        ConnectFourEasy { rng }
    }
}

impl Engine for ConnectFourEasy {
    fn choose(&mut self, pos: &Position, _limits: &Limits, _stop: &AtomicBool) -> Move {
        let me = pos.to_move();
        let moves = pos.legal_moves();
        if let Some(&m) = winning_moves(pos, me).first() {
            return m;
        }
        if let Some(&m) = winning_moves(pos, me.other()).first() {
            return m;
        }
        // Do not play under a cell where the opponent would win.
        let safe: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = pos.clone();
                after.play(m).is_ok() && winning_moves(&after, me.other()).is_empty()
            })
            .collect();
        let pool = if safe.is_empty() { &moves } else { &safe };
        *pool
            .choose(&mut self.rng)
            .expect("a position that is not over has a legal move")
    }
}

/// The lines of `line` cells on a board, each as cell indices.
fn windows(rules: &Rules) -> Vec<Vec<usize>> {
    let (w, h, k) = (
        i32::from(rules.width()),
        i32::from(rules.height()),
        i32::from(rules.line()),
    );
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let (ex, ey) = (x + dx * (k - 1), y + dy * (k - 1));
                if (0..w).contains(&ex) && (0..h).contains(&ey) {
                    out.push(
                        (0..k)
                            .map(|i| ((y + dy * i) * w + x + dx * i) as usize)
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

const WIN: i32 = 1_000_000;

/// Connect Four negamax with alpha-beta and iterative deepening.
pub struct ConnectFourSearch {
    rng: SmallRng,
    max_depth: u32,
    windows: Vec<Vec<usize>>,
    windows_for: Option<Rules>,
    nodes: u64,
}

/// Search aborted by the deadline or the stop flag.
struct Aborted;

impl ConnectFourSearch {
    /// Medium: a few plies ahead, beatable with some care.
    pub fn medium(rng: SmallRng) -> Self {
        Self::with_depth(rng, 5)
    }

    /// As deep as the time budget allows.
    pub fn deep(rng: SmallRng) -> Self {
        Self::with_depth(rng, 42)
    }

    pub fn with_depth(rng: SmallRng, max_depth: u32) -> Self {
        ConnectFourSearch {
            rng,
            max_depth,
            windows: Vec::new(),
            windows_for: None,
            nodes: 0,
        }
    }

    /// Heuristic value for the side to move: stones in windows the other
    /// side has not blocked, weighted steeply by how full they are.
    fn evaluate(&self, pos: &Position) -> i32 {
        let me = pos.to_move();
        let width = usize::from(pos.rules().width());
        let k = usize::from(pos.rules().line());
        let mut score = 0;
        for win in &self.windows {
            let (mut mine, mut theirs) = (0usize, 0usize);
            for &i in win {
                let p = Point::new((i % width) as u8, (i / width) as u8);
                match pos.get(p) {
                    Some(s) if s == me => mine += 1,
                    Some(_) => theirs += 1,
                    None => {}
                }
            }
            let weight = |n: usize| {
                if n == 0 || n >= k {
                    0
                } else {
                    1 << (3 * (n - 1))
                }
            };
            if theirs == 0 {
                score += weight(mine);
            } else if mine == 0 {
                score -= weight(theirs);
            }
        }
        score
    }

    fn ordered_moves(pos: &Position) -> Vec<Move> {
        let centre = i32::from(pos.rules().width() - 1);
        let mut moves = pos.legal_moves();
        moves.sort_by_key(|m| match m {
            Move::Column(x) => (2 * i32::from(*x) - centre).abs(),
            Move::Point(p) => (2 * i32::from(p.x) - centre).abs(),
        });
        moves
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        deadlines: &Deadlines,
        stop: &AtomicBool,
    ) -> Result<i32, Aborted> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && deadlines.should_stop(stop) {
            return Err(Aborted);
        }
        if depth == 0 {
            return Ok(self.evaluate(pos));
        }
        let me = pos.to_move();
        let moves = Self::ordered_moves(pos);
        // A win now ends the search; prefer the fastest.
        if moves.iter().any(|&m| pos.wins_with(m, me)) {
            return Ok(WIN + depth as i32);
        }
        let mut best = -WIN * 2;
        for m in moves {
            if pos.play(m).is_err() {
                continue;
            }
            let score = if pos.is_over() {
                0 // a draw: the move did not win (checked above)
            } else {
                -self.negamax(pos, depth - 1, -beta, -alpha, deadlines, stop)?
            };
            pos.undo();
            if score > best {
                best = score;
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(if best == -WIN * 2 { 0 } else { best })
    }

    /// Scores of every root move at `depth`, or `None` if aborted.
    fn root_scores(
        &mut self,
        pos: &Position,
        depth: u32,
        deadlines: &Deadlines,
        stop: &AtomicBool,
    ) -> Option<Vec<(Move, i32)>> {
        let mut work = pos.clone();
        let me = pos.to_move();
        let mut scores = Vec::new();
        for m in Self::ordered_moves(pos) {
            if pos.wins_with(m, me) {
                scores.push((m, WIN + depth as i32 + 1));
                continue;
            }
            work.play(m).ok()?;
            let s = if work.is_over() {
                0
            } else {
                // Full window at the root so equal moves can be told apart.
                -self
                    .negamax(&mut work, depth - 1, -WIN * 2, WIN * 2, deadlines, stop)
                    .ok()?
            };
            work.undo();
            scores.push((m, s));
        }
        Some(scores)
    }
}

impl Engine for ConnectFourSearch {
    fn choose(&mut self, pos: &Position, limits: &Limits, stop: &AtomicBool) -> Move {
        if self.windows_for != Some(*pos.rules()) {
            self.windows = windows(pos.rules());
            self.windows_for = Some(*pos.rules());
        }
        self.nodes = 0;
        let me = pos.to_move();
        // Win now; block the one cell that loses now, even when the game is
        // lost anyway (a search sees no difference, a person does).
        if let Some(&m) = winning_moves(pos, me).first() {
            return m;
        }
        if let [m] = winning_moves(pos, me.other())[..] {
            return m;
        }
        let deadlines = limits.deadlines(TimeShares::SIMPLE, limits.start);
        let moves = pos.legal_moves();
        let mut best: Vec<Move> = moves.clone();
        let mut depth = 1;
        while depth <= self.max_depth && depth as usize <= moves.len() * 8 {
            let Some(scores) = self.root_scores(pos, depth, &deadlines, stop) else {
                break;
            };
            let top = scores.iter().map(|s| s.1).max().unwrap_or(0);
            best = scores.iter().filter(|s| s.1 == top).map(|s| s.0).collect();
            // A proven result will not change with more depth.
            if top.abs() >= WIN || deadlines.soft_passed() {
                break;
            }
            depth += 1;
        }
        *best
            .choose(&mut self.rng)
            .or(moves.first())
            .expect("a position that is not over has a legal move")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::make_rng;
    use std::time::Duration;

    fn limits() -> Limits {
        Limits::new(Duration::from_secs(2))
    }

    fn c4(moves: &str) -> Position {
        let mut p = Position::new(Rules::connect_four());
        for c in moves.chars() {
            p.play(Move::Column(c.to_digit(10).unwrap() as u8 - 1))
                .unwrap();
        }
        p
    }

    #[test]
    fn window_count_matches_the_board() {
        // 7x6, four in a line: 24 horizontal, 21 vertical, 12 + 12 diagonal.
        assert_eq!(windows(&Rules::connect_four()).len(), 69);
    }

    #[test]
    fn medium_wins_and_blocks() {
        let stop = AtomicBool::new(false);
        for seed in 0..5 {
            let mut e = ConnectFourSearch::medium(make_rng(Some(seed)));
            // First player can win in column A.
            assert_eq!(e.choose(&c4("121212"), &limits(), &stop), Move::Column(0));
            // Second player must block column A.
            assert_eq!(e.choose(&c4("12121"), &limits(), &stop), Move::Column(0));
        }
    }

    #[test]
    fn medium_sees_a_double_threat_coming() {
        // First player to move: D then C/E would make an open three on the
        // bottom row; the search must take a bottom-row square next to it.
        let stop = AtomicBool::new(false);
        let mut e = ConnectFourSearch::medium(make_rng(Some(1)));
        let pos = c4("4477");
        let m = e.choose(&pos, &limits(), &stop);
        assert!(matches!(m, Move::Column(2) | Move::Column(4)), "{m:?}");
    }
}
