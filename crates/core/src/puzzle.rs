//! Puzzles made from real games: Connect Four positions where exactly one
//! column wins (proven by the solver), the win at most
//! [`MAX_WIN_STONES`] of the mover's stones away, and positions where
//! exactly one column does not lose. Each comes with its whole solution
//! line: the winning move, the defender's best defence (the reply that
//! puts the loss furthest away), the winner's fastest continuation, to
//! the win.
//!
//! Gomoku and Renju puzzles are positions with a win by continuous fours
//! (a VCF) whose first move is the only move that keeps such a win, both
//! proven by the engine's threat search; the line is the fours and their
//! forced answers, to the five.
//!
//! Pure: the engines are handed in, and every search has its budget; a
//! position not settled within it is no puzzle.

use std::time::{Duration, Instant};

use crate::engine::connect4::{Book, C4Position, Cutoff, Solver, WIDTH};

/// The furthest win a puzzle asks for, in the mover's stones.
pub const MAX_WIN_STONES: i32 = 10;

/// What a puzzle asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PuzzleKind {
    /// Find the winning move (the only one).
    Win,
    /// Find the only move that does not lose.
    Hold,
}

impl PuzzleKind {
    /// The kind's name in the store and the commands' output.
    pub fn id(self) -> &'static str {
        match self {
            PuzzleKind::Win => "win",
            PuzzleKind::Hold => "hold",
        }
    }

    pub fn of_id(id: &str) -> Option<PuzzleKind> {
        match id {
            "win" => Some(PuzzleKind::Win),
            "hold" => Some(PuzzleKind::Hold),
            _ => None,
        }
    }
}

/// A Connect Four puzzle found in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct C4Puzzle {
    /// The columns (0..=6) from the empty board to the puzzle's position.
    pub moves: Vec<u8>,
    pub kind: PuzzleKind,
    /// The solution, from the puzzle's position: the answer, then the
    /// defence and the answers in turn (a `Hold` puzzle: the one move).
    pub line: Vec<u8>,
    /// `Win`: in how many of the mover's stones the win comes.
    pub win_in: Option<i32>,
    /// The canonical key of the position (the same for its mirror image):
    /// a puzzle is kept once.
    pub key: u64,
}

/// The exact score of every column of `pos` within `budget`, the book
/// answering what it holds; `None` unless every playable column settled.
fn scores(
    pos: &C4Position,
    solver: &mut Solver,
    book: Option<&Book>,
    budget: Duration,
) -> Option<[Option<i32>; WIDTH]> {
    let limits = Cutoff {
        deadline: Some(Instant::now() + budget),
        stop: None,
    };
    let s = solver.analyze_within(pos, false, book, limits)?;
    (0..WIDTH)
        .all(|c| !pos.can_play(c) || s[c].is_some())
        .then_some(s)
}

/// In how many of the mover's stones a win of score `score` comes, in a
/// position of `stones` stones (the solver's convention: the winner's
/// stones at the win are 22 minus the score).
pub fn win_stones(score: i32, stones: usize) -> i32 {
    22 - score - (stones / 2) as i32
}

/// Whether every move of `pos` but `answer` lets the opponent win at
/// once: `answer` is a forced block, no puzzle.
fn forced(pos: &C4Position, answer: usize) -> bool {
    (0..WIDTH)
        .filter(|&c| c != answer && pos.can_play(c))
        .all(|c| {
            let mut p = *pos;
            p.play_col(c);
            p.can_win_next()
        })
}

/// The puzzle in position `pos` (reached by `moves`), if it is one.
pub fn puzzle_at(
    moves: &[u8],
    solver: &mut Solver,
    book: Option<&Book>,
    budget: Duration,
) -> Option<C4Puzzle> {
    let pos = position_of(moves)?;
    if pos.can_win_next() {
        return None; // a win on the spot: nothing to find
    }
    let s = scores(&pos, solver, book, budget)?;
    let playable: Vec<usize> = (0..WIDTH).filter(|&c| pos.can_play(c)).collect();
    if playable.len() < 2 {
        return None;
    }
    let winning: Vec<usize> = playable
        .iter()
        .copied()
        .filter(|&c| s[c].is_some_and(|v| v > 0))
        .collect();
    let holding: Vec<usize> = playable
        .iter()
        .copied()
        .filter(|&c| s[c].is_some_and(|v| v >= 0))
        .collect();
    let (kind, answer) = match (winning.as_slice(), holding.as_slice()) {
        (&[c], _) => (PuzzleKind::Win, c),
        (&[], &[c]) => (PuzzleKind::Hold, c),
        _ => return None,
    };
    if forced(&pos, answer) {
        return None;
    }
    let win_in = match kind {
        PuzzleKind::Win => {
            let k = win_stones(s[answer]?, pos.moves());
            if !(2..=MAX_WIN_STONES).contains(&k) {
                return None;
            }
            Some(k)
        }
        PuzzleKind::Hold => None,
    };
    let line = match kind {
        PuzzleKind::Win => win_line(&pos, answer, solver, book, budget)?,
        PuzzleKind::Hold => vec![answer as u8],
    };
    Some(C4Puzzle {
        moves: moves.to_vec(),
        kind,
        line,
        win_in,
        key: pos.canonical_key().0,
    })
}

/// The whole line of a win puzzle from `pos`: `first` (the winning move),
/// then the defender's longest defence and the winner's fastest answer in
/// turn, to the winning stone.
fn win_line(
    pos: &C4Position,
    first: usize,
    solver: &mut Solver,
    book: Option<&Book>,
    budget: Duration,
) -> Option<Vec<u8>> {
    let mut p = *pos;
    let mut line = Vec::new();
    let mut col = first;
    for _ in 0..2 * MAX_WIN_STONES + 2 {
        line.push(col as u8);
        if p.is_winning_move(col) {
            return Some(line);
        }
        p.play_col(col);
        // Defender: the reply that keeps the loss furthest away (the
        // largest score for the defender, a loss, so the nearest to 0).
        let d = scores(&p, solver, book, budget)?;
        let reply = (0..WIDTH).filter(|&c| p.can_play(c)).max_by_key(|&c| {
            // Left to right among equals: the first column found.
            (d[c].unwrap_or(i32::MIN), -(c as i32))
        })?;
        line.push(reply as u8);
        if p.is_winning_move(reply) {
            return None; // the defender wins: not a win puzzle after all
        }
        p.play_col(reply);
        // Winner: the fastest win.
        let w = scores(&p, solver, book, budget)?;
        col = (0..WIDTH)
            .filter(|&c| p.can_play(c))
            .max_by_key(|&c| (w[c].unwrap_or(i32::MIN), -(c as i32)))?;
        if w[col].is_none_or(|v| v <= 0) {
            return None;
        }
    }
    None
}

/// The position after `moves` (0..=6), if they are a game not yet won.
pub fn position_of(moves: &[u8]) -> Option<C4Position> {
    let mut pos = C4Position::new();
    for &c in moves {
        let c = usize::from(c);
        if !pos.can_play(c) || pos.is_winning_move(c) {
            return None;
        }
        pos.play_col(c);
    }
    Some(pos)
}

/// Every puzzle in the game `columns`, at most one a position, in order.
pub fn puzzles_in(
    columns: &[u8],
    solver: &mut Solver,
    book: Option<&Book>,
    budget: Duration,
) -> Vec<C4Puzzle> {
    (1..columns.len())
        .filter_map(|n| puzzle_at(&columns[..n], solver, book, budget))
        .collect()
}

/// A Gomoku or Renju puzzle found in a game: find the win by continuous
/// fours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VcfPuzzle {
    /// The points (x, y from 0) from the empty board to the puzzle.
    pub moves: Vec<(u8, u8)>,
    /// The solution: the fours and the forced answers in turn, to the
    /// five.
    pub line: Vec<(u8, u8)>,
    /// The position under the board's eight symmetries, the smallest:
    /// a puzzle is kept once.
    pub key: String,
}

/// The longest VCF a puzzle is made of, in the mover's fours.
pub const MAX_VCF_FOURS: i32 = 12;

/// One of a square board's symmetries: (last index, x, y) to (x, y).
type Symmetry = fn(u8, u8, u8) -> (u8, u8);

/// The position's key under the square board's eight symmetries (the
/// smallest of the eight sorted stone lists, each stone with its side).
pub fn point_key(size: u8, moves: &[(u8, u8)]) -> String {
    let n = size.saturating_sub(1);
    let maps: [Symmetry; 8] = [
        |_, x, y| (x, y),
        |n, x, y| (n - x, y),
        |n, x, y| (x, n - y),
        |n, x, y| (n - x, n - y),
        |_, x, y| (y, x),
        |n, x, y| (n - y, x),
        |n, x, y| (y, n - x),
        |n, x, y| (n - y, n - x),
    ];
    maps.iter()
        .map(|f| {
            let mut stones: Vec<(u8, u8, usize)> = moves
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| {
                    let (a, b) = f(n, x, y);
                    (a, b, i % 2)
                })
                .collect();
            stones.sort_unstable();
            stones
                .iter()
                .map(|(x, y, side)| format!("{x}.{y}.{side}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .min()
        .unwrap_or_default()
}

/// The puzzle in the position after `moves` under `rules` (Gomoku or
/// Renju, a square board), if it is one: `player` is set to those rules.
pub fn vcf_puzzle_at(
    rules: crate::game::Rules,
    moves: &[(u8, u8)],
    player: &mut crate::engine::gomoku::GomokuPlayer,
    budget: Duration,
) -> Option<VcfPuzzle> {
    use crate::engine::Limits;
    use crate::engine::gomoku::stones_from_moves;
    use crate::game::{Move, Point, Position};
    let mut pos = Position::new(rules);
    for &(x, y) in moves {
        pos.play(Move::Point(Point::new(x, y))).ok()?;
    }
    if pos.is_over() || rules.width() != rules.height() {
        return None;
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let limits = || Limits::new(budget);
    let stones = stones_from_moves(moves);
    let first = player
        .vcf(&stones, MAX_VCF_FOURS, &limits(), &stop)
        .ok()??;
    let mover = pos.to_move();
    let at = |(x, y): (u8, u8)| Move::Point(Point::new(x, y));
    // A five on the spot: nothing to find.
    if pos.wins_with(at(first), mover) {
        return None;
    }
    // The only move that keeps a win by fours: every other is proven not
    // to (a search that does not finish is no proof: no puzzle).
    for y in 0..rules.height() {
        for x in 0..rules.width() {
            if (x, y) == first || !pos.is_empty(Point::new(x, y)) {
                continue;
            }
            match player.keeps_vcf(&stones, (x, y), MAX_VCF_FOURS, &limits(), &stop) {
                Ok(false) => {}
                _ => return None,
            }
        }
    }
    // The line: each four, its one answer, the next four, to the five.
    let mut line = Vec::new();
    let mut now: Vec<(u8, u8)> = moves.to_vec();
    let mut m = first;
    for _ in 0..MAX_VCF_FOURS + 1 {
        pos.play(at(m)).ok()?;
        line.push(m);
        now.push(m);
        if pos.is_over() {
            return Some(VcfPuzzle {
                moves: moves.to_vec(),
                line,
                key: point_key(rules.width(), moves),
            });
        }
        // The one point where the mover would make five: the answer.
        let empty = (0..rules.height())
            .flat_map(|y| (0..rules.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| pos.is_empty(Point::new(x, y)));
        let fives: Vec<(u8, u8)> = empty.filter(|&q| pos.wins_with(at(q), mover)).collect();
        let &[block] = fives.as_slice() else {
            // Two fives at once (an open four): any answer loses.
            let block = *fives.first()?;
            pos.play(at(block)).ok()?;
            line.push(block);
            let five = fives.iter().copied().find(|&q| q != block)?;
            pos.play(at(five)).ok()?;
            line.push(five);
            return pos.is_over().then(|| VcfPuzzle {
                moves: moves.to_vec(),
                line,
                key: point_key(rules.width(), moves),
            });
        };
        pos.play(at(block)).ok()?;
        line.push(block);
        now.push(block);
        m = player
            .vcf(&stones_from_moves(&now), MAX_VCF_FOURS, &limits(), &stop)
            .ok()??;
    }
    None
}

/// Every Gomoku or Renju puzzle in the game `points`, in order.
pub fn vcf_puzzles_in(
    rules: crate::game::Rules,
    points: &[(u8, u8)],
    player: &mut crate::engine::gomoku::GomokuPlayer,
    budget: Duration,
) -> Vec<VcfPuzzle> {
    (1..points.len())
        .filter_map(|n| vcf_puzzle_at(rules, &points[..n], player, budget))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(s: &str) -> Vec<u8> {
        s.bytes().map(|b| b - b'1').collect()
    }

    #[test]
    fn positions_with_one_good_column_are_puzzles_with_their_whole_line() {
        let mut solver = Solver::new(16);
        let book = Book::builtin();
        let budget = Duration::from_secs(10);
        // The second player to move wins only in column A, in 3 stones:
        // A, A (the best defence), B, A, B.
        let p = puzzle_at(&cols("641354636633611"), &mut solver, Some(&book), budget)
            .expect("a puzzle");
        assert_eq!(p.kind, PuzzleKind::Win);
        assert_eq!(p.win_in, Some(3));
        assert_eq!(p.line, cols("11212"));
        // Only column C does not lose.
        let p = puzzle_at(&cols("5355"), &mut solver, Some(&book), budget).expect("a puzzle");
        assert_eq!((p.kind, p.line.clone()), (PuzzleKind::Hold, cols("3")));
        // Its mirror image is the same puzzle.
        let m = puzzle_at(&cols("3533"), &mut solver, Some(&book), budget).expect("a puzzle");
        assert_eq!(m.key, p.key);
        // The empty board (several columns hold) and a win on the spot are
        // none.
        assert_eq!(puzzle_at(&[], &mut solver, Some(&book), budget), None);
        assert_eq!(
            puzzle_at(&cols("112233"), &mut solver, Some(&book), budget),
            None
        );
    }

    fn points(s: &str) -> Vec<(u8, u8)> {
        s.split_whitespace()
            .map(|w| (w.as_bytes()[0] - b'a', w[1..].parse::<u8>().unwrap() - 1))
            .collect()
    }

    #[test]
    fn a_win_by_fours_with_one_first_move_is_a_gomoku_puzzle() {
        let rules = crate::game::Rules::gomoku();
        let mut player = crate::analysis::gomoku::player_for(&rules, 16);
        let budget = Duration::from_secs(5);
        // Found in a game of the computer's: the second player wins by
        // fours on the diagonal d8-h4, and only g5 starts it.
        let game = points("h8 f6 i7 j6 h7 h6 k7 j7 i6 j5 j8 j4 j3 i5 k3 f8 g7 f5 f7 e7 i10");
        let p = vcf_puzzle_at(rules, &game, &mut player, budget).expect("a puzzle");
        assert_eq!(p.line, points("g5 h5 h4 i3 d8"));
        // The same position turned a quarter: the same key.
        let turned: Vec<(u8, u8)> = game.iter().map(|&(x, y)| (y, 14 - x)).collect();
        assert_eq!(point_key(15, &turned), p.key);
        assert_ne!(point_key(15, &game[..20]), p.key);
        // A move earlier, the first player to move: no such win.
        assert_eq!(vcf_puzzle_at(rules, &game[..20], &mut player, budget), None);
    }

    #[test]
    fn win_stones_follow_the_solvers_convention() {
        // Empty board, a win with the mover's 4th stone: score 18.
        assert_eq!(win_stones(18, 0), 4);
        // 6 stones on the board (3 each): the mover's 21st stone is 18
        // stones away; score 1.
        assert_eq!(win_stones(1, 6), 18);
    }
}
