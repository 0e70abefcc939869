//! Renju: the points where black may not play.
//!
//! Renju is gomoku with handicaps for black, who moves first. The rules
//! here follow the RIF definitions, read for a move by black on an empty
//! point `p`, with the stone counted on `p`:
//!
//! * A **five** is exactly five black stones in an unbroken row. It wins,
//!   and a move that makes a five is never forbidden, whatever else it
//!   makes in the other lines (five takes precedence).
//! * An **overline** is six or more black stones in a row. Making one is
//!   forbidden, unless the same move makes a five in another line: then the
//!   five wins (the RIF convention, and the one used here).
//! * A **four** is a line through `p` to which one more black stone makes
//!   a five (exactly five: a stone that would make an overline does not
//!   count). A *straight four* is four in a row whose two ends are empty and
//!   each make a five; it counts as one four. One line can hold two fours
//!   at once: in `X.XXX.X` (the middle stone just played) either gap makes
//!   a five, with different stones. Making two or more fours at once is a
//!   **double four**, forbidden.
//! * A **three** is a line through `p` to which one more black stone makes
//!   a straight four, **and** that stone may be played: the point is not
//!   itself forbidden (with `p` on the board). This makes the definition
//!   recursive; each level of the recursion adds a stone, so it ends. A
//!   line counts as at most one three. Making two or more threes at once
//!   is a **double three**, forbidden, even when the move also makes a four.
//!
//! A line is one of the four directions through `p` (horizontal, vertical
//! and both diagonals); stones and patterns along it are what matter, the
//! edge of the board and white stones both stop it.
//!
//! When a move is forbidden for more than one reason it is reported as an
//! overline first, then as a double four, then as a double three.
//!
//! White has no forbidden points, and any row of five or more white stones
//! wins, overlines included.
//!
//! Everything here works on [`Board`], a plain grid of stones that can be
//! built directly or from a [`Position`](super::Position) (where
//! [`Side::First`] is black); the positions ask this module, never the
//! other way round.
//!
//! The recursion is followed to the end, never cut off. Most points are
//! decided by their four lines alone, and only where two lines could be
//! threes are the straight-four points looked at, themselves by their lines
//! first. On positions from play a query takes about a tenth of a
//! microsecond; the worst found, on an artificial 26x26 board covered with
//! black stones, needs about a thousand nested looks (well under a
//! millisecond).

use std::fmt;

use super::rules::{MAX_SIDE, MIN_SIDE};
use super::{DIRECTIONS, Point, RulesError, Side};

/// Black, the first player, the only side with forbidden points.
pub const BLACK: Side = Side::First;
/// White, the second player.
pub const WHITE: Side = Side::Second;

/// Why black may not play a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Forbidden {
    /// The move makes two or more threes at once.
    DoubleThree,
    /// The move makes two or more fours at once (possibly in one line).
    DoubleFour,
    /// The move makes six or more stones in a row (and no five).
    Overline,
}

impl Forbidden {
    /// A short text for people: `double three`, `double four`, `overline`.
    pub fn text(self) -> &'static str {
        match self {
            Forbidden::DoubleThree => "double three",
            Forbidden::DoubleFour => "double four",
            Forbidden::Overline => "overline",
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A board of stones, `width` by `height`, with the same coordinates as
/// [`Position`](super::Position): `x` from the left, `y` from the bottom, both from 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    width: u8,
    height: u8,
    /// Row-major from the bottom row: `cells[y * width + x]`.
    cells: Vec<Option<Side>>,
}

impl Board {
    /// An empty board; each side must be within the sizes inarow plays
    /// (3 to 26).
    pub fn new(width: u8, height: u8) -> Result<Board, RulesError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) {
            return Err(RulesError::Width(width));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(RulesError::Height(height));
        }
        Ok(Board {
            width,
            height,
            cells: vec![None; usize::from(width) * usize::from(height)],
        })
    }

    /// An empty board of any size from 1 to 255 a side, beyond the sizes
    /// the game layer plays: the Gomoku engine keeps one of these up to
    /// 32x32. Zero sides become one.
    pub fn with_size(width: u8, height: u8) -> Board {
        let (width, height) = (width.max(1), height.max(1));
        Board {
            width,
            height,
            cells: vec![None; usize::from(width) * usize::from(height)],
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    fn index(&self, p: Point) -> Option<usize> {
        self.contains(p)
            .then(|| usize::from(p.y) * usize::from(self.width) + usize::from(p.x))
    }

    /// The stone on a point, if any (`None` off the board too).
    pub fn get(&self, p: Point) -> Option<Side> {
        self.index(p)
            .and_then(|i| self.cells.get(i).copied())
            .flatten()
    }

    /// Whether a point is on the board and empty.
    pub fn is_empty(&self, p: Point) -> bool {
        self.index(p)
            .and_then(|i| self.cells.get(i))
            .is_some_and(Option::is_none)
    }

    /// Puts a stone on a point, or clears it with `None`. Returns `false`,
    /// changing nothing, when the point is off the board.
    pub fn set(&mut self, p: Point, stone: Option<Side>) -> bool {
        match self.index(p).and_then(|i| self.cells.get_mut(i)) {
            Some(cell) => {
                *cell = stone;
                true
            }
            None => false,
        }
    }

    /// The point `k` steps from `p` along `dir`, if it is on the board.
    fn step(&self, p: Point, (dx, dy): (i8, i8), k: i32) -> Option<Point> {
        let x = u8::try_from(i32::from(p.x) + k * i32::from(dx)).ok()?;
        let y = u8::try_from(i32::from(p.y) + k * i32::from(dy)).ok()?;
        let q = Point::new(x, y);
        self.contains(q).then_some(q)
    }

    /// The line through `p` along `dir` as seen by `side`, `p` counted as
    /// one of `side`'s stones.
    fn line(&self, p: Point, dir: (i8, i8), side: Side) -> Line {
        let mut line = [Cell::Other; SPAN];
        for (i, cell) in line.iter_mut().enumerate() {
            let k = i as i32 - CENTRE as i32;
            *cell = match self.step(p, dir, k) {
                None => Cell::Other,
                Some(_) if k == 0 => Cell::Own,
                Some(q) => match self.get(q) {
                    None => Cell::Empty,
                    Some(s) if s == side => Cell::Own,
                    Some(_) => Cell::Other,
                },
            };
        }
        line
    }
}

/// Whether black may not play `p`, and why. `None` when the move is
/// allowed, and also when `p` is off the board or taken (such a move is
/// illegal for a plainer reason, which is not this module's business).
pub fn forbidden(board: &Board, p: Point) -> Option<Forbidden> {
    if !board.is_empty(p) {
        return None;
    }
    match survey(board, p) {
        Survey::Decided(verdict) => verdict,
        Survey::Threes(shapes) => {
            // Only now is a scratch board worth making: whether a three is
            // real depends on stones that are not there yet.
            let mut scratch = board.clone();
            judge_threes(&mut scratch, p, &shapes)
        }
    }
}

/// [`forbidden`], using `board` itself as scratch space where the rules
/// must look at stones not yet played (it is left as it was): no copy of
/// the board is made, for callers that ask very often.
pub fn forbidden_mut(board: &mut Board, p: Point) -> Option<Forbidden> {
    if !board.is_empty(p) {
        return None;
    }
    judge(board, p)
}

/// [`forbidden`] for either side: white is never forbidden anything.
pub fn forbidden_for(board: &Board, side: Side, p: Point) -> Option<Forbidden> {
    match side {
        Side::First => forbidden(board, p),
        Side::Second => None,
    }
}

/// Every empty point black may not play, with the reason, from the bottom
/// row up and left to right.
pub fn forbidden_points(board: &Board) -> Vec<(Point, Forbidden)> {
    let mut scratch = board.clone();
    let mut found = Vec::new();
    for y in 0..board.height {
        for x in 0..board.width {
            let p = Point::new(x, y);
            if board.is_empty(p)
                && let Some(reason) = judge(&mut scratch, p)
            {
                found.push((p, reason));
            }
        }
    }
    found
}

/// Whether `side` playing `p` wins under renju: exactly five for black (in
/// any line, whatever the other lines make), five or more for white. `p`
/// may be empty or already hold `side`'s stone; off the board or holding
/// the other side's stone, the answer is `false`.
pub fn is_win(board: &Board, side: Side, p: Point) -> bool {
    if !board.contains(p) || board.get(p).is_some_and(|s| s != side) {
        return false;
    }
    DIRECTIONS.iter().any(|&dir| {
        let line = board.line(p, dir, side);
        let run = own_run(&line, CENTRE_I - 1, -1) + 1 + own_run(&line, CENTRE_I + 1, 1);
        match side {
            Side::First => run == 5,
            Side::Second => run >= 5,
        }
    })
}

/// How far a line is looked at on each side of the point. Five is enough:
/// the furthest cell any shape below needs is five steps away, and a run
/// cut short by the window is already too long to be a five or a four.
const REACH: usize = 5;
const SPAN: usize = 2 * REACH + 1;
const CENTRE: usize = REACH;
const CENTRE_I: isize = REACH as isize;

/// A cell of a line as one side sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Own,
    /// The other side's stone, or off the board (or off the window).
    Other,
}

/// The cells at offsets `-REACH..=REACH` from a point along a direction.
type Line = [Cell; SPAN];

fn cell(line: &Line, i: isize) -> Cell {
    usize::try_from(i)
        .ok()
        .and_then(|i| line.get(i).copied())
        .unwrap_or(Cell::Other)
}

/// The number of own stones in a row from index `from`, stepping by `step`.
fn own_run(line: &Line, from: isize, step: isize) -> usize {
    let mut n = 0;
    let mut i = from;
    while cell(line, i) == Cell::Own {
        n += 1;
        i += step;
    }
    n
}

/// What one line through a black stone on the point makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Shape {
    /// Exactly five in a row through the point.
    five: bool,
    /// Six or more in a row through the point.
    overline: bool,
    /// Fours through the point: 0, 1 or 2.
    fours: u8,
    /// Offsets along the line of the points where one more stone makes a
    /// straight four through the point (at most one on each side).
    straight_four_points: [Option<i8>; 2],
}

impl Shape {
    fn has_three_candidate(&self) -> bool {
        self.straight_four_points.iter().any(Option::is_some)
    }
}

/// Reads one line, its centre holding black's new stone.
///
/// Only the first empty cell on each side of the run through the centre
/// can matter: a stone that is to join the run to anything must fill the
/// first gap, or the run would not reach it.
fn shape(line: &Line) -> Shape {
    let left = own_run(line, CENTRE_I - 1, -1);
    let right = own_run(line, CENTRE_I + 1, 1);
    let run = left + 1 + right;
    let mut shape = Shape::default();
    if run == 5 {
        shape.five = true;
        return shape;
    }
    if run > 5 {
        shape.overline = true;
        return shape;
    }
    let mut completions = 0;
    for (slot, step) in [(0, -1isize), (1, 1isize)] {
        let gap = if step < 0 {
            CENTRE_I - 1 - left as isize
        } else {
            CENTRE_I + 1 + right as isize
        };
        if cell(line, gap) != Cell::Empty {
            continue;
        }
        let beyond = own_run(line, gap + step, step);
        match run + 1 + beyond {
            5 => completions += 1,
            4 => {
                // The four the stone on `gap` would make, from `low` to `high`.
                let (low, high) = if step < 0 {
                    (gap - beyond as isize, CENTRE_I + right as isize)
                } else {
                    (CENTRE_I - left as isize, gap + beyond as isize)
                };
                let open = |end: isize, out: isize| {
                    cell(line, end) == Cell::Empty && cell(line, end + out) != Cell::Own
                };
                if open(low - 1, -1) && open(high + 1, 1) {
                    shape.straight_four_points[slot] = i8::try_from(gap - CENTRE_I).ok();
                }
            }
            _ => {}
        }
    }
    // A straight four's two ends complete the same four stones.
    shape.fours = if run == 4 && completions == 2 {
        1
    } else {
        completions
    };
    shape
}

/// What the four lines through a point say, before any recursion.
enum Survey {
    /// The answer, from the shapes alone.
    Decided(Option<Forbidden>),
    /// Two or more lines may be threes: whether they are real needs a look
    /// at the points that would make their straight fours.
    Threes([Shape; 4]),
}

/// Reads the lines through the empty point `p` with a black stone counted
/// on it (the board itself is not changed).
fn survey(board: &Board, p: Point) -> Survey {
    let shapes = DIRECTIONS.map(|dir| shape(&board.line(p, dir, BLACK)));
    if shapes.iter().any(|s| s.five) {
        return Survey::Decided(None);
    }
    if shapes.iter().any(|s| s.overline) {
        return Survey::Decided(Some(Forbidden::Overline));
    }
    if shapes.iter().map(|s| s.fours).sum::<u8>() >= 2 {
        return Survey::Decided(Some(Forbidden::DoubleFour));
    }
    if shapes.iter().filter(|s| s.has_three_candidate()).count() < 2 {
        return Survey::Decided(None);
    }
    Survey::Threes(shapes)
}

/// [`forbidden`] on a board that may be changed while looking (and is
/// left as it was); `p` must be empty.
fn judge(board: &mut Board, p: Point) -> Option<Forbidden> {
    match survey(board, p) {
        Survey::Decided(verdict) => verdict,
        Survey::Threes(shapes) => judge_threes(board, p, &shapes),
    }
}

/// The straight-four points of one line that its shapes leave undecided,
/// with what their own lines make.
type Deeper = [Option<(Point, [Shape; 4])>; 2];

/// Counts the real threes among the candidate lines through `p` (empty,
/// on the board): a line is a three when one of its straight-four points
/// is not itself forbidden with black's stone on `p`.
///
/// The points that the shapes alone decide are read first; the recursion
/// is left for lines that still matter once those are counted.
fn judge_threes(board: &mut Board, p: Point, shapes: &[Shape; 4]) -> Option<Forbidden> {
    board.set(p, Some(BLACK));
    let mut real = 0;
    // Lines not yet known to be threes, with the points that need a deeper look.
    let mut open: [Deeper; 4] = [[None; 2]; 4];
    let mut open_lines = 0;
    for ((&dir, shape), deeper) in DIRECTIONS.iter().zip(shapes).zip(open.iter_mut()) {
        let mut is_real = false;
        for (&k, slot) in shape.straight_four_points.iter().zip(deeper.iter_mut()) {
            let Some(q) = k.and_then(|k| board.step(p, dir, i32::from(k))) else {
                continue;
            };
            if !board.is_empty(q) {
                continue;
            }
            match survey(board, q) {
                Survey::Decided(None) => {
                    is_real = true;
                    break;
                }
                Survey::Decided(Some(_)) => {}
                Survey::Threes(next) => *slot = Some((q, next)),
            }
        }
        if is_real {
            real += 1;
            *deeper = [None; 2];
        } else if deeper.iter().any(Option::is_some) {
            open_lines += 1;
        }
    }
    for deeper in &open {
        if real >= 2 || real + open_lines < 2 {
            break;
        }
        if deeper.iter().all(Option::is_none) {
            continue;
        }
        open_lines -= 1;
        if deeper
            .iter()
            .flatten()
            .any(|(q, next)| judge_threes(board, *q, next).is_none())
        {
            real += 1;
        }
    }
    board.set(p, None);
    (real >= 2).then_some(Forbidden::DoubleThree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Position, Rules};

    /// A board from rows of text, the top row first: `.` empty, `X` black,
    /// `O` white, `*` the (empty) point asked about. Spaces are ignored.
    fn parse(rows: &[&str]) -> (Board, Option<Point>) {
        let rows: Vec<Vec<char>> = rows
            .iter()
            .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        let height = u8::try_from(rows.len()).unwrap();
        let width = u8::try_from(rows[0].len()).unwrap();
        let mut board = Board::new(width, height).unwrap();
        let mut asked = None;
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), usize::from(width), "row {i} has another width");
            let y = height - 1 - u8::try_from(i).unwrap();
            for (x, &c) in row.iter().enumerate() {
                let p = Point::new(u8::try_from(x).unwrap(), y);
                match c {
                    '.' => {}
                    'X' => assert!(board.set(p, Some(BLACK))),
                    'O' => assert!(board.set(p, Some(WHITE))),
                    '*' => asked = Some(p),
                    other => panic!("unexpected {other:?} in a diagram"),
                }
            }
        }
        (board, asked)
    }

    /// A square diagram from its top rows: the rows below them, up to as
    /// many rows as the diagram is wide, are empty.
    fn square(top: &[&'static str]) -> Vec<&'static str> {
        let width = top[0].len();
        let mut rows = top.to_vec();
        rows.resize(width, &"..............................."[..width]);
        rows
    }

    /// The answer for black at the `*` of a diagram, checked against the
    /// slow reference reading of the rules.
    fn verdict(rows: &[&str]) -> Option<Forbidden> {
        let (board, asked) = parse(rows);
        let p = asked.expect("the diagram marks a point with *");
        let answer = forbidden(&board, p);
        assert_eq!(answer, reference(&board, p), "the reference disagrees");
        answer
    }

    // ---- The reference: the definitions read literally, slowly. ----

    fn at(b: &Board, x: i32, y: i32) -> Option<Point> {
        let q = Point::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
        b.contains(q).then_some(q)
    }

    fn is_black(b: &Board, x: i32, y: i32) -> bool {
        at(b, x, y).is_some_and(|q| b.get(q) == Some(BLACK))
    }

    fn is_free(b: &Board, x: i32, y: i32) -> bool {
        at(b, x, y).is_some_and(|q| b.is_empty(q))
    }

    /// Whether black playing the empty `p` is forbidden, by brute force:
    /// fours are found as five-cell windows, threes by trying every point
    /// within reach for a straight four, with no shortcut or pruning.
    fn reference(board: &Board, p: Point) -> Option<Forbidden> {
        if !board.is_empty(p) {
            return None;
        }
        let mut b = board.clone();
        b.set(p, Some(BLACK));
        let (px, py) = (i32::from(p.x), i32::from(p.y));
        let dirs = DIRECTIONS.map(|(dx, dy)| (i32::from(dx), i32::from(dy)));
        let black = |b: &Board, (dx, dy): (i32, i32), k: i32| is_black(b, px + k * dx, py + k * dy);
        let free = |b: &Board, (dx, dy): (i32, i32), k: i32| is_free(b, px + k * dx, py + k * dy);

        let runs: Vec<i32> = dirs
            .iter()
            .map(|&d| {
                let back = (1..).take_while(|&k| black(&b, d, -k)).count();
                let fwd = (1..).take_while(|&k| black(&b, d, k)).count();
                i32::try_from(back + fwd + 1).unwrap()
            })
            .collect();
        if runs.contains(&5) {
            return None;
        }
        if runs.iter().any(|&r| r > 5) {
            return Some(Forbidden::Overline);
        }

        let mut fours = 0;
        for &d in &dirs {
            let mut stone_sets: Vec<Vec<i32>> = Vec::new();
            for s in -4..=0 {
                let stones: Vec<i32> = (s..s + 5).filter(|&k| black(&b, d, k)).collect();
                let gaps = (s..s + 5).filter(|&k| free(&b, d, k)).count();
                if stones.len() == 4
                    && gaps == 1
                    && !black(&b, d, s - 1)
                    && !black(&b, d, s + 5)
                    && !stone_sets.contains(&stones)
                {
                    stone_sets.push(stones);
                }
            }
            fours += stone_sets.len();
        }
        if fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }

        let mut threes = 0;
        for &d in &dirs {
            let real = (-4..=4).filter(|&k| k != 0 && free(&b, d, k)).any(|k| {
                let Some(q) = at(&b, px + k * d.0, py + k * d.1) else {
                    return false;
                };
                let mut c = b.clone();
                c.set(q, Some(BLACK));
                let straight = (-3..=0).any(|s| {
                    (s..s + 4).contains(&k)
                        && (s..s + 4).all(|j| black(&c, d, j))
                        && free(&c, d, s - 1)
                        && free(&c, d, s + 4)
                        && !black(&c, d, s - 2)
                        && !black(&c, d, s + 5)
                });
                straight && reference(&b, q).is_none()
            });
            if real {
                threes += 1;
            }
        }
        (threes >= 2).then_some(Forbidden::DoubleThree)
    }

    // ---- Threes ----

    #[test]
    fn two_open_threes_crossing_are_a_double_three() {
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                "...XX*.....",
            ])),
            Some(Forbidden::DoubleThree)
        );
    }

    #[test]
    fn a_three_closed_at_one_end_is_not_a_three() {
        // White at the left end: the horizontal line can only become a
        // four that is not straight. One open three alone is allowed.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                "..OXX*.....",
            ])),
            None
        );
    }

    #[test]
    fn split_threes_count() {
        // .X.XX. made by the last stone of the pair...
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                "..X.X*.....",
            ])),
            Some(Forbidden::DoubleThree)
        );
        // ...by the lone stone...
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                ".....*.XX..",
            ])),
            Some(Forbidden::DoubleThree)
        );
        // ...and with the gap on the other side of the new stone.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                "...X.*X....",
            ])),
            Some(Forbidden::DoubleThree)
        );
    }

    #[test]
    fn threes_against_the_edge() {
        // Against the left edge: the only four it can make is closed.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                "..X........",
                "..X........",
                "XX*........",
            ])),
            None
        );
        // One point further in, it can still become a straight four.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                "...X.......",
                "...X.......",
                ".XX*.......",
            ])),
            Some(Forbidden::DoubleThree)
        );
        // The same at the top edge, vertically.
        assert_eq!(
            verdict(&[
                "..X........",
                "..X........",
                "..*XX......",
                "...........",
                "...........",
            ]),
            None
        );
    }

    #[test]
    fn a_three_whose_four_would_be_an_overline_in_its_line_is_not_a_three() {
        // The horizontal stones can only make XXXX next to the far black
        // stone (X at the right end would make six) or against white.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                ".O.XX*..X..",
            ])),
            None
        );
        // Both ends spoilt by black stones two points away.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                "X..XX*..X..",
            ])),
            None
        );
    }

    /// The horizontal three's only straight-four point is just right of
    /// the `*`. Without anything else there, it is a double three.
    const HORIZONTAL_THREE: [&str; 15] = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        ".....X.........",
        ".....X.........",
        ".O.XX*.........",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ];

    /// The verdict at `q` once black has played the `*` of a diagram.
    fn verdict_after(rows: &[&str], q: Point) -> Option<Forbidden> {
        let (mut board, p) = parse(rows);
        assert!(board.set(p.unwrap(), Some(BLACK)));
        let answer = forbidden(&board, q);
        assert_eq!(answer, reference(&board, q), "the reference disagrees");
        answer
    }

    /// g8, the horizontal three's straight-four point.
    const G8: Point = Point::new(6, 7);

    #[test]
    fn a_three_is_real_only_if_its_four_point_is_allowed() {
        assert_eq!(verdict(&HORIZONTAL_THREE), Some(Forbidden::DoubleThree));
        assert_eq!(verdict_after(&HORIZONTAL_THREE, G8), None);
        // g8 would make six in its column: overline.
        let overline = square(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "......X........",
            ".....XX........",
            ".....XX........",
            ".O.XX*.........",
            "......X........",
            "......X........",
        ]);
        // g8 would make two fours in its column (and a third with the
        // horizontal stones): double four.
        let double_four = square(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "......X........",
            ".....X.........",
            ".....XX........",
            ".O.XX*.........",
            "......X........",
            "...............",
            "......X........",
        ]);
        // g8 would make a four and two real threes (down its column, and
        // the diagonal through f9): four-three-three is a double three.
        let double_three = square(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".....X.........",
            ".....X.........",
            ".O.XX*.........",
            "......XX.......",
            "......X........",
        ]);
        for (rows, at_g8) in [
            (overline, Forbidden::Overline),
            (double_four, Forbidden::DoubleFour),
            (double_three, Forbidden::DoubleThree),
        ] {
            assert_eq!(verdict_after(&rows, G8), Some(at_g8));
            assert_eq!(verdict(&rows), None, "g8 {at_g8}");
        }
    }

    #[test]
    fn a_three_with_one_good_four_point_of_two_is_real() {
        // Open at both ends: the right point (g8) is an overline, the left
        // one is fine.
        let rows = square(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "......X........",
            ".....XX........",
            ".....XX........",
            "...XX*.........",
            "......X........",
            "......X........",
        ]);
        assert_eq!(verdict_after(&rows, G8), Some(Forbidden::Overline));
        assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn realness_is_recursive() {
        // As the four-three-three case above, but the diagonal three of g8
        // is not real: white closes its upper end, and its lower point, i6,
        // would make a double four (down the diagonal and along row 6). So
        // g8 is a plain four-three, allowed; the horizontal three is real
        // again and the `*` is a double three. Three levels of look-ahead.
        let rows = square(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "...O...........",
            ".....X.........",
            ".....X.........",
            ".O.XX*.........",
            "......XX.......",
            "......X..XXX...",
        ]);
        assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
        assert_eq!(verdict_after(&rows, G8), None);
        let (mut board, p) = parse(&rows);
        board.set(p.unwrap(), Some(BLACK));
        board.set(G8, Some(BLACK));
        let i6 = Point::new(8, 5);
        assert_eq!(forbidden(&board, i6), Some(Forbidden::DoubleFour));
        assert_eq!(forbidden(&board, i6), reference(&board, i6));
        // Without row 6's stones i6 is allowed, g8's diagonal is a three,
        // g8 a four-three-three, and the `*` allowed.
        let mut rows = rows;
        rows[9] = "......X........";
        assert_eq!(verdict_after(&rows, G8), Some(Forbidden::DoubleThree));
        assert_eq!(verdict(&rows), None);
    }

    // ---- Fours ----

    #[test]
    fn two_fours_in_two_lines_are_a_double_four() {
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                ".....X.....",
                "..XXX*.....",
            ])),
            Some(Forbidden::DoubleFour)
        );
        // Closed fours count as much as straight ones.
        assert_eq!(
            verdict(&square(&[
                "...........",
                ".....O.....",
                ".....X.....",
                ".....X.....",
                ".....X.....",
                ".OXXX*.....",
            ])),
            Some(Forbidden::DoubleFour)
        );
    }

    #[test]
    fn two_fours_in_one_line_are_a_double_four() {
        for row in [".X.X*X.X...", "XX.*X.XX...", "XXX.*.XXX..", "X.XX*.X...."] {
            let rows = ["...........", row, "..........."];
            assert_eq!(verdict(&rows), Some(Forbidden::DoubleFour), "{row}");
        }
    }

    #[test]
    fn one_new_four_beside_an_old_one_is_allowed() {
        // X.XXX.X by its first stone: only one of its two fours has it.
        assert_eq!(
            verdict(&["...........", "*.XXX.X....", "..........."]),
            None
        );
        // A straight four is one four.
        assert_eq!(
            verdict(&["...........", "..XX*X.....", "..........."]),
            None
        );
    }

    #[test]
    fn four_three_is_allowed_but_four_three_three_is_not() {
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.....",
                ".....X.....",
                ".OXXX*.....",
            ])),
            None
        );
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.X...",
                ".....XX....",
                ".OXXX*.....",
            ])),
            Some(Forbidden::DoubleThree)
        );
    }

    // ---- Overlines and fives ----

    #[test]
    fn six_or_seven_in_a_row_is_an_overline() {
        for row in [".XX*XXX....", "XXX*XXX....", "XXXXX*.....", "..XXX*XX..."] {
            let rows = ["...........", row, "..........."];
            assert_eq!(verdict(&rows), Some(Forbidden::Overline), "{row}");
        }
    }

    #[test]
    fn a_five_wins_whatever_else_it_makes() {
        // Five across, with a four down and a four on the diagonal.
        let with_fours = square(&[
            "...........",
            "...........",
            "..X..X.....",
            "...X.X.....",
            "....XX.....",
            ".XXXX*.....",
        ]);
        assert_eq!(verdict(&with_fours), None);
        let (board, p) = parse(&with_fours);
        assert!(is_win(&board, BLACK, p.unwrap()));
        // Without the five, the fours are a double four.
        let mut no_five = with_fours;
        no_five[5] = "..XXX*.....";
        assert_eq!(verdict(&no_five), Some(Forbidden::DoubleFour));

        // Five across, with two open threes.
        assert_eq!(
            verdict(&square(&[
                "...........",
                "...........",
                "...........",
                ".....X.X...",
                ".....XX....",
                ".XXXX*.....",
            ])),
            None
        );
    }

    #[test]
    fn a_five_beside_an_overline_wins() {
        // Convention (RIF): five across wins even though the column makes six.
        let rows = square(&[
            "...........",
            "...........",
            ".....X.....",
            ".....X.....",
            ".....X.....",
            ".XXXX*.....",
            ".....X.....",
            ".....X.....",
        ]);
        let (board, p) = parse(&rows);
        let p = p.unwrap();
        assert_eq!(verdict(&rows), None);
        assert!(is_win(&board, BLACK, p));
        // Without the five it is an overline, and no win for black.
        let mut only_six = rows;
        only_six[5] = "..XXX*.....";
        assert_eq!(verdict(&only_six), Some(Forbidden::Overline));
        let (board, p) = parse(&only_six);
        assert!(!is_win(&board, BLACK, p.unwrap()));
    }

    // ---- White, the board, the API ----

    #[test]
    fn white_is_never_forbidden_and_wins_with_an_overline() {
        let black = parse(&["...........", "..XXX*XX...", "..........."]);
        let (board, p) = (black.0, black.1.unwrap());
        assert_eq!(forbidden_for(&board, BLACK, p), Some(Forbidden::Overline));
        assert_eq!(forbidden_for(&board, WHITE, p), None);

        let (white, p) = parse(&["...........", "..OOO*OO...", "..........."]);
        let p = p.unwrap();
        assert_eq!(forbidden_for(&white, WHITE, p), None);
        assert!(is_win(&white, WHITE, p));
        assert!(!is_win(&white, BLACK, p));
        // Nothing white does is forbidden, double threes and fours included.
        let (board, p) = parse(&[
            "...........",
            ".....O.....",
            ".....O.....",
            ".....O.....",
            "..OOO*.....",
            "...........",
        ]);
        assert_eq!(forbidden_for(&board, WHITE, p.unwrap()), None);
        let (board, p) = parse(&[".....O.....", ".....O.....", "...OO*....."]);
        assert_eq!(forbidden_for(&board, WHITE, p.unwrap()), None);
    }

    #[test]
    fn wins_need_the_point_free_or_own() {
        let (board, _) = parse(&["...........", ".XXXXXO....", "..........."]);
        // Five already on the board, asked at one of its stones.
        assert!(is_win(&board, BLACK, Point::new(3, 1)));
        assert!(!is_win(&board, WHITE, Point::new(3, 1)));
        assert!(!is_win(&board, BLACK, Point::new(6, 1)));
        assert!(!is_win(&board, BLACK, Point::new(40, 1)));
        assert!(!is_win(&board, BLACK, Point::new(0, 0)));
    }

    #[test]
    fn taken_and_off_board_points_are_not_forbidden() {
        let (board, _) = parse(&[
            "...........",
            ".....X.....",
            ".....X.....",
            "...XXO.....",
            "...........",
        ]);
        // White took the double-three point: not black's business here.
        assert_eq!(forbidden(&board, Point::new(5, 1)), None);
        assert_eq!(forbidden(&board, Point::new(3, 1)), None);
        assert_eq!(forbidden(&board, Point::new(11, 1)), None);
        assert_eq!(forbidden(&board, Point::new(255, 255)), None);
    }

    #[test]
    fn forbidden_points_lists_them_all() {
        let (board, _) = parse(&[
            "...........",
            "...........",
            ".....X.....",
            ".....X.....",
            "...XX......",
            "...........",
            "...........",
        ]);
        assert_eq!(
            forbidden_points(&board),
            vec![(Point::new(5, 2), Forbidden::DoubleThree)]
        );
        assert!(forbidden_points(&Board::new(26, 26).unwrap()).is_empty());
    }

    #[test]
    fn board_sizes_and_cells() {
        assert_eq!(Board::new(2, 15), Err(RulesError::Width(2)));
        assert_eq!(Board::new(15, 27), Err(RulesError::Height(27)));
        let mut board = Board::new(26, 26).unwrap();
        let p = Point::new(25, 25);
        assert!(board.is_empty(p));
        assert!(board.set(p, Some(WHITE)));
        assert_eq!(board.get(p), Some(WHITE));
        assert!(!board.is_empty(p));
        assert!(!board.set(Point::new(26, 0), Some(BLACK)));
        assert_eq!(board.get(Point::new(26, 0)), None);
        assert!(!board.is_empty(Point::new(26, 0)));
    }

    #[test]
    fn reasons_read_as_short_texts() {
        assert_eq!(Forbidden::DoubleThree.to_string(), "double three");
        assert_eq!(Forbidden::DoubleFour.to_string(), "double four");
        assert_eq!(Forbidden::Overline.to_string(), "overline");
    }

    #[test]
    fn positions_are_asked_for_the_side_to_move() {
        // Black f8 g8 and h9 h10 make h8 a double three; white plays far
        // away in between.
        let moves = ["g8", "a1", "f8", "a3", "h9", "a5", "h10", "a7"];
        let pos = Position::from_moves(Rules::gomoku(), &moves).unwrap();
        let h8 = Point::new(7, 7);
        assert_eq!(pos.to_move(), BLACK);
        let board = Board::from(&pos);
        assert_eq!(
            forbidden_for(&board, pos.to_move(), h8),
            Some(Forbidden::DoubleThree)
        );
        assert!(!is_win(&board, pos.to_move(), h8));
        assert_eq!(board.get(Point::new(6, 7)), Some(BLACK));
        assert_eq!(board.get(Point::new(0, 0)), Some(WHITE));
        assert_eq!(forbidden(&board, h8), Some(Forbidden::DoubleThree));

        // White to move: nothing is forbidden.
        let pos = Position::from_moves(Rules::gomoku(), &moves[..7]).unwrap();
        assert_eq!(pos.to_move(), WHITE);
        assert_eq!(forbidden_for(&Board::from(&pos), pos.to_move(), h8), None);
        assert_eq!(
            forbidden(&Board::from(&pos), h8),
            Some(Forbidden::DoubleThree)
        );
    }

    // ---- Timing ----

    /// A game-like position: `stones` stones, each within two points of an
    /// earlier one, colours alternating, no move forbidden or winning.
    fn game_like(rng: &mut rand::rngs::SmallRng, stones: usize) -> Board {
        use rand::RngExt;
        let mut board = Board::new(15, 15).unwrap();
        let mut played = vec![Point::new(7, 7)];
        board.set(Point::new(7, 7), Some(BLACK));
        while played.len() < stones {
            let side = if played.len() % 2 == 0 { BLACK } else { WHITE };
            let near = played[rng.random_range(0..played.len())];
            let x = i32::from(near.x) + rng.random_range(-2..=2);
            let y = i32::from(near.y) + rng.random_range(-2..=2);
            let Some(p) = at(&board, x, y) else { continue };
            if board.is_empty(p)
                && forbidden_for(&board, side, p).is_none()
                && !is_win(&board, side, p)
            {
                board.set(p, Some(side));
                played.push(p);
            }
        }
        board
    }

    /// Times every empty point of each board; returns the mean and the
    /// slowest query in nanoseconds. Each point is timed five times and
    /// the fastest kept, so the other work on the machine counts less.
    fn time_queries(boards: &[Board]) -> (f64, u128) {
        let mut total = 0;
        let mut queries = 0u32;
        let mut slowest = 0;
        for board in boards {
            for y in 0..board.height() {
                for x in 0..board.width() {
                    let p = Point::new(x, y);
                    if !board.is_empty(p) {
                        continue;
                    }
                    let took = (0..5)
                        .map(|_| {
                            let start = std::time::Instant::now();
                            std::hint::black_box(forbidden(std::hint::black_box(board), p));
                            start.elapsed().as_nanos()
                        })
                        .min()
                        .unwrap_or(0);
                    total += took;
                    slowest = slowest.max(took);
                    queries += 1;
                }
            }
        }
        (total as f64 / f64::from(queries), slowest)
    }

    /// `cargo test --release --lib renju::tests::time_per_query -- --ignored --nocapture`
    #[test]
    #[ignore = "timing, run by hand in release mode"]
    fn time_per_query() {
        let mut rng = crate::rng::make_rng(Some(2024));
        for stones in [20, 40, 60, 90] {
            let boards: Vec<Board> = (0..100).map(|_| game_like(&mut rng, stones)).collect();
            let (mean, slowest) = time_queries(&boards);
            println!(
                "15x15, {stones} stones game-like: {mean:.0} ns/query mean, slowest {slowest} ns"
            );
        }
        use rand::RngExt;
        let boards: Vec<Board> = (0..100)
            .map(|_| {
                let cells: Vec<u8> = (0..225).map(|_| rng.random_range(0..100)).collect();
                random_board(15, 15, &cells)
            })
            .collect();
        let (mean, slowest) = time_queries(&boards);
        println!(
            "15x15 random, 22% black 12% white: {mean:.0} ns/query mean, slowest {slowest} ns"
        );
        let tricky = parse(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "...O...........",
            ".....X.........",
            ".....X.........",
            ".O.XX*.........",
            "......XXX......",
            "......X........",
            "........X......",
            "........X......",
            "........X......",
            "........X......",
            "...............",
        ]);
        let (board, p) = (tricky.0, tricky.1.unwrap());
        let start = std::time::Instant::now();
        for _ in 0..10_000 {
            std::hint::black_box(forbidden(std::hint::black_box(&board), p));
        }
        println!(
            "the three-level recursive case: {:.0} ns/query",
            start.elapsed().as_nanos() as f64 / 10_000.0
        );
        // No game gets here: black stones on two diagonals in six, all over
        // a 26x26 board and no white, the worst shape found by a search.
        let mut lattice = Board::new(26, 26).unwrap();
        for y in 0..26 {
            for x in 0..26 {
                if (x + 5 * y) % 6 < 2 {
                    lattice.set(Point::new(x, y), Some(BLACK));
                }
            }
        }
        let (mean, slowest) = time_queries(&[lattice]);
        println!("26x26 black lattice, no white: {mean:.0} ns/query mean, slowest {slowest} ns");
    }

    // ---- Properties on random boards ----

    /// A random board: about 22% black, 12% white.
    fn random_board(width: u8, height: u8, cells: &[u8]) -> Board {
        let mut board = Board::new(width, height).unwrap();
        for y in 0..height {
            for x in 0..width {
                let i = usize::from(y) * usize::from(width) + usize::from(x);
                let stone = match cells[i] {
                    0..=21 => Some(BLACK),
                    22..=33 => Some(WHITE),
                    _ => None,
                };
                board.set(Point::new(x, y), stone);
            }
        }
        board
    }

    /// The eight symmetries of a rectangle, as maps of a point on a
    /// `width x height` board; odd ones swap width and height.
    fn transform(t: u8, width: u8, height: u8, p: Point) -> Point {
        let (x, y) = (p.x, p.y);
        let (fx, fy) = (width - 1 - x, height - 1 - y);
        match t {
            0 => Point::new(x, y),
            1 => Point::new(y, x),
            2 => Point::new(fx, y),
            3 => Point::new(fy, x),
            4 => Point::new(x, fy),
            5 => Point::new(y, fx),
            6 => Point::new(fx, fy),
            _ => Point::new(fy, fx),
        }
    }

    fn transformed(t: u8, board: &Board) -> Board {
        let (w, h) = (board.width(), board.height());
        let mut out = if t % 2 == 1 {
            Board::new(h, w).unwrap()
        } else {
            Board::new(w, h).unwrap()
        };
        for y in 0..h {
            for x in 0..w {
                let p = Point::new(x, y);
                assert!(out.set(transform(t, w, h, p), board.get(p)));
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        #[test]
        fn answers_are_the_same_on_turned_and_mirrored_boards(
            width in 3u8..=26,
            height in 3u8..=26,
            cells in proptest::collection::vec(0u8..100, 26 * 26),
        ) {
            let board = random_board(width, height, &cells);
            let answers: Vec<(Point, Option<Forbidden>)> = (0..height)
                .flat_map(|y| (0..width).map(move |x| Point::new(x, y)))
                .map(|p| (p, forbidden(&board, p)))
                .collect();
            let listed = forbidden_points(&board);
            let expected: Vec<(Point, Forbidden)> = answers
                .iter()
                .filter_map(|&(p, f)| f.map(|f| (p, f)))
                .collect();
            proptest::prop_assert_eq!(listed, expected);
            for t in 1..8 {
                let turned = transformed(t, &board);
                for &(p, answer) in &answers {
                    let q = transform(t, width, height, p);
                    proptest::prop_assert_eq!(forbidden(&turned, q), answer, "symmetry {} at {:?}", t, p);
                }
            }
        }

        #[test]
        fn answers_agree_with_the_reference(
            width in 5u8..=15,
            height in 5u8..=15,
            cells in proptest::collection::vec(0u8..100, 15 * 15),
        ) {
            let board = random_board(width, height, &cells);
            for y in 0..height {
                for x in 0..width {
                    let p = Point::new(x, y);
                    proptest::prop_assert_eq!(forbidden(&board, p), reference(&board, p), "at {:?}", p);
                }
            }
        }
    }
}
