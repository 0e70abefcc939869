//! The search board: a padded one-dimensional array with incrementally kept
//! line keys, patterns, categories, scores and a Zobrist hash.
//!
//! Points are `Pos` indices into an array with a five-point wall border on
//! every side, so that scanning five points along any line from a real point
//! never leaves the array and needs no bounds checks. Playing a stone
//! touches the forty points within five steps along its four lines: their
//! keys change by one two-bit slot and their patterns are looked up again.
//! The previous state of each empty point whose patterns change is pushed
//! on a log first, so taking the stone back is a copy of those points and
//! the keys' slot cleared again (looking the patterns up again gave about
//! 40 % fewer nodes per second; copying all forty points back and forth,
//! 1.5 kB each way, took about 3 % longer for as many instructions). Per
//! colour, the board keeps how many empty points have each category and
//! the sum of the empty points' scores (the evaluation), so the
//! questions the search asks most ("does the opponent threaten a five?",
//! "can I make an open four?") are a counter read.
//!
//! Under renju the board also keeps black's forbidden points (black is
//! always colour 1 there). A forbidden point counts for black as no shape
//! at all (category none, score nothing), so every counter the search
//! reads ("can black make an open four?") leaves it out; white's view of
//! the point is unchanged. A point is judged again whenever a stone lands
//! on its lines, mostly from its patterns alone (a five allows it; an
//! overline or two fours forbid it; fewer than two open-three lines allow
//! it); only points with two open-three lines ("suspects") are asked of
//! [`crate::game::renju`], on a mirror of the stones, since a three is real
//! only if black may play its four point. That depends on the four point's
//! own lines, so the suspects are kept in a bit set and judged again after
//! a stone off their lines too, when it lies on a line of one of their
//! threes' four points. So the flags are exact (a test checks them against
//! [`crate::game::renju::forbidden`] through thousands of random plays and
//! undos), and the renju work is done only under renju.

use super::Rule;
use super::pattern::{
    self, B4, C_FIVE, C_FLEX4, C_FOUR_THREE, C_NONE, C_THREE_PLUS, C_THREE_THREE, CAT_BONUS, CATS,
    Cat, DIR_WEIGHT, F3, F4, Pat, Tables,
};
use super::weights::Weights;
use crate::game::Point;
use crate::game::renju;
use std::sync::{Arc, OnceLock};

/// A point: an index into the padded array.
pub type Pos = u16;

/// The wall width around the board.
pub const PAD: usize = 5;
/// Smallest and largest supported board side.
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 32;

pub const EMPTY: u8 = 0;
pub const WALL: u8 = 3;

/// A colour: 1 or 2. The other one is `3 - c`.
pub type Color = u8;

/// Black's colour under renju (the first player; the only one with
/// forbidden points). Under the other rules colour 1 is simply whoever the
/// board was set up to have it.
pub const BLACK: Color = 1;

#[inline]
pub const fn other(c: Color) -> Color {
    3 - c
}

/// Per-point state: line keys, and per colour the directional patterns,
/// their combination index, category and score.
#[derive(Clone, Copy, Default)]
struct Info {
    keys: [u32; 4],
    pats: [[Pat; 4]; 2],
    combos: [u16; 2],
    cats: [Cat; 2],
    scores: [i16; 2],
    /// Renju, black's view of an empty point: [`R_OVERLINES`],
    /// [`R_FORBIDDEN`], [`R_SUSPECT`].
    renju: u8,
}

/// Renju flags: the directions (bits 0..4) along which a black stone on the
/// point makes six or more in a row.
const R_OVERLINES: u8 = 0x0F;
/// Renju flag: black may not play the point.
const R_FORBIDDEN: u8 = 0x10;
/// Renju flag: black has two open-three lines through the point (it is in
/// the suspects' bit set).
const R_SUSPECT: u8 = 0x20;

/// Renju bookkeeping: the stones as [`renju`] reads them, and the points
/// whose verdict can change without a stone on their lines.
#[derive(Clone)]
struct Renju {
    mirror: renju::Board,
    /// Empty points where black has two or more open-three lines, one bit
    /// per array index.
    suspects: Vec<u64>,
    /// Per stone on the board (by its number): `suspects` before it.
    saved_suspects: Vec<u64>,
    /// Points off a stone's lines whose state the stone changed: (stone
    /// number, point, state before), so `undo` can put them back.
    changed: Vec<(usize, Pos, Info)>,
}

/// What the board sums over its empty points: per colour the counts per
/// category, the score sums and the learned sums.
type Totals = ([[u16; CATS]; 2], [i32; 2], [[i32; 2]; 2]);

/// The search board.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    rule: Rule,
    tables: &'static Tables,
    dirs: [isize; 4],
    cells: Vec<u8>,
    /// Everything kept per point, together so that an update touches one cache line.
    info: Vec<Info>,
    /// Stones within Chebyshev distance 2 (candidate moves have some).
    near: Vec<u8>,
    zobrist: Vec<[u64; 2]>,
    /// Per colour (index c - 1): empty points of each category.
    counts: [[u16; CATS]; 2],
    /// Per colour: sum of the empty points' scores.
    sums: [i32; 2],
    /// Per colour: sums of the empty points' learned weights, as the side
    /// to move and as the opponent (see [`super::learned`]).
    learned_sums: [[i32; 2]; 2],
    /// The learned weights the board sums and the search evaluates with.
    weights: Arc<Weights>,
    /// Per combination index: category, score and learned weights, packed
    /// (see [`Joint`]), so that a changed pattern costs one load per
    /// combination.
    joint: Arc<[Joint]>,
    hash: u64,
    history: Vec<Pos>,
    /// The empty points whose patterns the stones on the board changed,
    /// each with its state before the change, oldest stone first, so
    /// `undo` copies them back instead of looking the patterns up again.
    log: Vec<(Pos, Info)>,
    /// Per stone on the board (by its number): where its entries in `log` begin.
    log_start: Vec<u32>,
    /// Per stone on the board: the counts and sums before it.
    saved_totals: Vec<Totals>,
    to_move: Color,
    /// Every real point, row by row.
    points: Vec<Pos>,
    /// Under renju only: black's forbidden points.
    renju: Option<Box<Renju>>,
}

impl Board {
    /// An empty board; black (1) moves first. Sizes are clamped to the
    /// supported range. Under renju, colour 1 is black whoever moves. It
    /// sums the shipped learned weights ([`Weights::shipped`]).
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        Board::with_weights(width, height, rule, &Weights::shipped())
    }

    /// [`Board::new`] summing the learned weights `weights`.
    pub fn with_weights(width: usize, height: usize, rule: Rule, weights: &Arc<Weights>) -> Board {
        let width = width.clamp(MIN_SIZE, MAX_SIZE);
        let height = height.clamp(MIN_SIZE, MAX_SIZE);
        let stride = width + 2 * PAD;
        let total = stride * (height + 2 * PAD);
        let mut cells = vec![WALL; total];
        let mut points = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                let p = (y + PAD) * stride + x + PAD;
                cells[p] = EMPTY;
                points.push(p as Pos);
            }
        }
        let dirs = [1, stride as isize, stride as isize + 1, stride as isize - 1];
        let mut zobrist = vec![[0u64; 2]; total];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (width as u64) << 8 ^ height as u64;
        for z in zobrist.iter_mut() {
            z[0] = splitmix(&mut seed);
            z[1] = splitmix(&mut seed);
        }
        let mut board = Board {
            width,
            height,
            stride,
            rule,
            tables: Tables::get(rule),
            dirs,
            cells,
            info: vec![Info::default(); total],
            near: vec![0; total],
            zobrist,
            counts: [[0; CATS]; 2],
            sums: [0; 2],
            learned_sums: [[0; 2]; 2],
            weights: weights.clone(),
            joint: joint_table(rule, weights),
            hash: 0,
            history: Vec::with_capacity(width * height),
            log: Vec::new(),
            log_start: Vec::with_capacity(width * height),
            saved_totals: Vec::new(),
            to_move: 1,
            points,
            renju: (rule == Rule::Renju).then(|| {
                Box::new(Renju {
                    mirror: renju::Board::with_size(width as u8, height as u8),
                    suspects: vec![0; total.div_ceil(64)],
                    saved_suspects: Vec::new(),
                    changed: Vec::new(),
                })
            }),
        };
        for i in 0..board.points.len() {
            let p = board.points[i] as usize;
            for (d, &dir) in dirs.iter().enumerate() {
                let mut key = 0u32;
                for o in 1..=5i32 {
                    let a = (p as isize + o as isize * dir) as usize;
                    let b = (p as isize - o as isize * dir) as usize;
                    key |= (board.cells[a] as u32) << (2 * pattern::slot(o));
                    key |= (board.cells[b] as u32) << (2 * pattern::slot(-o));
                }
                board.info[p].keys[d] = key;
            }
            board.recompute(p);
            board.add(p);
        }
        board
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// The learned weights this board sums.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Lets `c` move next (used when setting up positions).
    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }
    pub fn history(&self) -> &[Pos] {
        &self.history
    }
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().copied()
    }
    pub fn points(&self) -> &[Pos] {
        &self.points
    }
    pub fn dirs(&self) -> [isize; 4] {
        self.dirs
    }
    pub fn array_len(&self) -> usize {
        self.cells.len()
    }

    /// The point at column `x`, row `y`, if on the board.
    pub fn pos(&self, x: usize, y: usize) -> Option<Pos> {
        (x < self.width && y < self.height).then(|| ((y + PAD) * self.stride + x + PAD) as Pos)
    }

    /// Column and row of a point.
    pub fn xy(&self, p: Pos) -> (usize, usize) {
        let p = p as usize;
        (p % self.stride - PAD, p / self.stride - PAD)
    }

    #[inline]
    pub fn cell(&self, p: Pos) -> u8 {
        self.cells[p as usize]
    }
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p as usize] == EMPTY
    }
    #[inline]
    pub fn cat(&self, p: Pos, c: Color) -> Cat {
        self.info[p as usize].cats[c as usize - 1]
    }
    #[inline]
    pub fn pat(&self, p: Pos, c: Color, d: usize) -> Pat {
        self.info[p as usize].pats[c as usize - 1][d]
    }
    /// The combination index of the point's four directional patterns for `c`.
    #[inline]
    pub fn combo(&self, p: Pos, c: Color) -> u16 {
        self.info[p as usize].combos[c as usize - 1]
    }
    #[inline]
    pub fn score(&self, p: Pos, c: Color) -> i32 {
        self.info[p as usize].scores[c as usize - 1] as i32
    }
    /// The category the empty point `q` would have for `c` were a stone of
    /// colour `s` on the empty point `r` (not `q`): what playing `r` would
    /// leave `q`, read from the one line key through both instead of
    /// played. Not under renju, where a point's verdict can depend on
    /// points off its lines.
    pub fn cat_if(&self, q: Pos, c: Color, r: Pos, s: Color) -> Cat {
        debug_assert!(self.renju.is_none() && q != r);
        let diff = r as isize - q as isize;
        for (d, &dir) in self.dirs.iter().enumerate() {
            let o = diff / dir;
            if diff % dir != 0 || o == 0 || o.abs() > 5 {
                continue;
            }
            let info = &self.info[q as usize];
            let key = info.keys[d] ^ ((s as u32) << (2 * pattern::slot(o as i32)));
            let (b, w) = self.tables.patterns(key);
            let ci = c as usize - 1;
            let new = if ci == 0 { b } else { w };
            let wgt = DIR_WEIGHT[d];
            let combo = info.combos[ci] - info.pats[ci][d] as u16 * wgt + new as u16 * wgt;
            return self.tables.combo(combo as usize).0;
        }
        self.cat(q, c)
    }
    /// The line key of the empty point `p` along direction `d`.
    pub fn key(&self, p: Pos, d: usize) -> u32 {
        self.info[p as usize].keys[d]
    }
    /// Whether `c` may not play the empty point `p`: black's forbidden
    /// points under renju, and nothing else.
    #[inline]
    pub fn is_forbidden(&self, p: Pos, c: Color) -> bool {
        c == BLACK && self.info[p as usize].renju & R_FORBIDDEN != 0
    }
    /// Whether `c` may play `p`: it is empty and not forbidden to `c`.
    #[inline]
    pub fn may_play(&self, p: Pos, c: Color) -> bool {
        self.is_empty(p) && !self.is_forbidden(p, c)
    }
    /// Whether black has forbidden points here (the rule is renju).
    pub fn is_renju(&self) -> bool {
        self.renju.is_some()
    }
    /// Under renju, the stones as [`crate::game::renju`] reads them (with
    /// the same `x` and `y`).
    pub fn renju_board(&self) -> Option<&renju::Board> {
        self.renju.as_deref().map(|r| &r.mirror)
    }
    #[inline]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p as usize] > 0
    }
    /// How many empty points have category `cat` for `c`.
    #[inline]
    pub fn count(&self, c: Color, cat: Cat) -> u16 {
        self.counts[c as usize - 1][cat as usize]
    }
    /// How many empty points have category `cat` or better for `c`.
    pub fn count_at_least(&self, c: Color, cat: Cat) -> u32 {
        self.counts[c as usize - 1][cat as usize..]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }
    /// Sum of the empty points' scores for `c`.
    #[inline]
    pub fn sum(&self, c: Color) -> i32 {
        self.sums[c as usize - 1]
    }
    /// Sum of the empty points' learned weights for `c`, as the side to
    /// move (`as_mover`) or as the opponent.
    #[inline]
    pub fn learned_sum(&self, c: Color, as_mover: bool) -> i32 {
        self.learned_sums[c as usize - 1][usize::from(!as_mover)]
    }
    /// The point `o` steps from `p` in direction `d` (may be a wall).
    #[inline]
    pub fn step(&self, p: Pos, d: usize, o: isize) -> Pos {
        (p as isize + o * self.dirs[d]) as Pos
    }

    /// The first empty point `c` may play, else the first empty point (a
    /// board where black may play nowhere), else `None` (a full board).
    pub fn first_empty(&self, c: Color) -> Option<Pos> {
        let mut empty = self.points.iter().copied().filter(|&p| self.is_empty(p));
        let first = empty.clone().next();
        empty.find(|&p| !self.is_forbidden(p, c)).or(first)
    }

    /// Whether the board has no empty point left.
    pub fn is_full(&self) -> bool {
        self.history.len() >= self.points.len()
    }

    /// An empty point where `c` makes five, looking along the four lines
    /// through `p` (usually the stone that just made a four).
    pub fn five_point_near(&self, p: Pos, c: Color) -> Option<Pos> {
        for d in 0..4 {
            for o in (-4..=4).filter(|&o| o != 0) {
                let q = self.step(p, d, o);
                if self.is_empty(q) && self.cat(q, c) == C_FIVE {
                    return Some(q);
                }
            }
        }
        None
    }

    /// The first empty point where `c` makes five, anywhere.
    pub fn find_five(&self, c: Color) -> Option<Pos> {
        let n = self.count(c, C_FIVE);
        if n == 0 {
            return None;
        }
        if n == 1
            && let Some(last) = self.last_move()
            && let Some(q) = self.five_point_near(last, c)
        {
            // The one five point is nearly always on a line through the
            // last stone (the four it just made, or the one it failed to
            // block): forty points to look at rather than the board.
            debug_assert_eq!(
                Some(q),
                self.points
                    .iter()
                    .copied()
                    .find(|&p| self.is_empty(p) && self.cat(p, c) == C_FIVE)
            );
            return Some(q);
        }
        self.points
            .iter()
            .copied()
            .find(|&p| self.is_empty(p) && self.cat(p, c) == C_FIVE)
    }

    /// Whether the stone at `p` is part of a winning line for its owner.
    pub fn is_win_at(&self, p: Pos) -> bool {
        let c = self.cells[p as usize];
        if c != 1 && c != 2 {
            return false;
        }
        (0..4).any(|d| {
            let mut len = 1;
            let mut o = 1;
            while self.cell(self.step(p, d, o)) == c {
                len += 1;
                o += 1;
            }
            let mut o = 1;
            while self.cell(self.step(p, d, -o)) == c {
                len += 1;
                o += 1;
            }
            self.rule.wins(c == BLACK, len)
        })
    }

    /// Plays the side to move on the empty point `p`.
    pub fn play(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p));
        let c = self.to_move;
        let pu = p as usize;
        // The saved totals are indexed by the stone's number and kept when a
        // stone is taken back, so a search reuses them without clearing.
        let n = self.history.len();
        if self.saved_totals.len() <= n {
            self.saved_totals
                .resize(n + 1, ([[0; CATS]; 2], [0; 2], [[0; 2]; 2]));
        }
        self.saved_totals[n] = (self.counts, self.sums, self.learned_sums);
        self.log_start.push(self.log.len() as u32);
        self.remove(pu);
        self.cells[pu] = c;
        if self.renju.is_some() {
            self.renju_before_play(pu, n, c);
        }
        self.hash ^= self.zobrist[pu][c as usize - 1];
        if self.renju.is_some() {
            self.update_lines::<true>(pu, c as u32);
            self.renju_after_play(pu, n);
        } else {
            self.update_lines::<false>(pu, c as u32);
        }
        self.update_near(pu, true);
        self.history.push(p);
        self.to_move = other(c);
    }

    /// Takes back the last stone. Does nothing on an empty history.
    pub fn undo(&mut self) {
        let Some(p) = self.history.pop() else { return };
        let pu = p as usize;
        let c = self.cells[pu];
        self.cells[pu] = EMPTY;
        self.hash ^= self.zobrist[pu][c as usize - 1];
        self.update_near(pu, false);
        // The keys lose the stone's slot again, and the points whose
        // patterns it changed are copied back as they were.
        for (d, &dir) in self.dirs.iter().enumerate() {
            for o in 1..=5i32 {
                let q = (pu as isize + o as isize * dir) as usize;
                self.info[q].keys[d] ^= (c as u32) << (2 * pattern::slot(-o));
                let q = (pu as isize - o as isize * dir) as usize;
                self.info[q].keys[d] ^= (c as u32) << (2 * pattern::slot(o));
            }
        }
        let start = self.log_start.pop().unwrap_or(0) as usize;
        for &(q, before) in &self.log[start..] {
            self.info[q as usize] = before;
        }
        self.log.truncate(start);
        let n = self.history.len();
        (self.counts, self.sums, self.learned_sums) = self.saved_totals[n];
        if self.renju.is_some() {
            let point = self.point(p);
            if let Some(r) = self.renju.as_deref_mut() {
                r.mirror.set(point, None);
                let w = r.suspects.len();
                r.suspects
                    .copy_from_slice(&r.saved_suspects[n * w..(n + 1) * w]);
                while let Some(&(k, q, before)) = r.changed.last()
                    && k == n
                {
                    self.info[q as usize] = before;
                    r.changed.pop();
                }
            }
        }
        self.to_move = c;
    }

    /// The mirror's point for `p`.
    fn point(&self, p: Pos) -> Point {
        let (x, y) = self.xy(p);
        Point::new(x as u8, y as u8)
    }

    /// Renju, before stone number `n` of colour `c` lands on `p`: saves the
    /// suspects and puts the stone on the mirror.
    fn renju_before_play(&mut self, p: usize, n: usize, c: Color) {
        let point = self.point(p as Pos);
        let Some(r) = self.renju.as_deref_mut() else {
            return;
        };
        let w = r.suspects.len();
        if r.saved_suspects.len() < (n + 1) * w {
            r.saved_suspects.resize((n + 1) * w, 0);
        }
        r.saved_suspects[n * w..(n + 1) * w].copy_from_slice(&r.suspects);
        r.suspects[p / 64] &= !(1u64 << (p % 64));
        let side = if c == BLACK {
            renju::BLACK
        } else {
            renju::WHITE
        };
        r.mirror.set(point, Some(side));
    }

    /// Renju, after stone number `n` landed on `p` and the points on its
    /// lines were judged again: judges the suspects elsewhere, whose
    /// verdict may depend on the new stone through a three's four point.
    /// Those that change are saved for `undo`.
    fn renju_after_play(&mut self, p: usize, n: usize) {
        let (px, py) = ((p % self.stride) as isize, (p / self.stride) as isize);
        let words = self.renju.as_deref().map_or(0, |r| r.suspects.len());
        for w in 0..words {
            let mut bits = self.renju.as_deref().map_or(0, |r| r.suspects[w]);
            while bits != 0 {
                let q = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let dx = (q % self.stride) as isize - px;
                let dy = (q / self.stride) as isize - py;
                if on_lines(dx, dy) || !self.renju_reaches(q, px, py) {
                    continue;
                }
                let before = self.info[q];
                if self.renju_judge(q)
                    && let Some(r) = self.renju.as_deref_mut()
                {
                    r.changed.push((n, q as Pos, before));
                }
            }
        }
    }

    /// Renju: whether the verdict on the suspect `q` may depend on the
    /// point at column `px`, row `py` of the padded array, which is off
    /// `q`'s lines.
    ///
    /// Such a point matters only through a three's four point `g` (a
    /// point within four steps along one of `q`'s open-three lines): `q`'s
    /// three is real if black may play `g` with `q` played, which is read
    /// from `g`'s lines. The point matters if it is on them, or if `g` has
    /// two open-three lines of its own besides the one through `q` (then
    /// the rules look further, at `g`'s threes' four points, and this
    /// answers yes rather than follow them).
    fn renju_reaches(&self, q: usize, px: isize, py: isize) -> bool {
        const STEPS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        let (qx, qy) = ((q % self.stride) as isize, (q / self.stride) as isize);
        let info = &self.info[q];
        for (d, &(sx, sy)) in STEPS.iter().enumerate() {
            if info.pats[0][d] != F3 {
                continue;
            }
            for o in (-4..=4isize).filter(|&o| o != 0) {
                let g = (q as isize + o * self.dirs[d]) as usize;
                if self.cells[g] != EMPTY {
                    continue;
                }
                let (gx, gy) = (qx + o * sx, qy + o * sy);
                if on_lines(px - gx, py - gy) {
                    return true;
                }
                let threes = (0..4)
                    .filter(|&e| e != d && self.info[g].pats[0][e] == F3)
                    .count();
                if threes >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Renju: the line of the empty point `q` along direction `d` has just
    /// changed (and its patterns are up to date): notes whether a black
    /// stone there would make an overline along it, and judges the point
    /// again unless its patterns leave no doubt.
    #[inline]
    fn renju_touch(&mut self, q: usize, d: usize) {
        let i = &mut self.info[q];
        let bit = 1u8 << d;
        let over = if black_overline(i.keys[d]) { bit } else { 0 };
        i.renju = (i.renju & !bit) | over;
        if i.renju == 0
            && !matches!(
                self.tables.combo(i.combos[0] as usize).0,
                C_THREE_THREE | C_FOUR_THREE | C_FLEX4
            )
        {
            // Neither forbidden nor a suspect, before or now, and black's
            // category is the tables' own.
            return;
        }
        self.renju_judge(q);
    }

    /// Renju: judges whether black may play the empty point `q` and sets
    /// black's category and score to match. Returns whether anything
    /// changed.
    ///
    /// The lines decide most points, read as [`renju`] reads them: a five
    /// allows the point whatever else it makes; then an overline forbids
    /// it, and so do two fours (a four line holds one, an open-four line
    /// one if it is four in a row, else two: `X.XXX.X`); fewer than two
    /// open-three lines allow it (each real three is one, and only an open
    /// three can be one). Only the rest, two open-three lines and no more
    /// than one four, are asked of [`renju::forbidden_mut`], which looks at
    /// whether the threes' four points may be played; those points are the
    /// suspects.
    fn renju_judge(&mut self, q: usize) -> bool {
        let info = &self.info[q];
        let (raw_cat, raw_score) = self.tables.combo(info.combos[0] as usize);
        let mut fours = 0;
        let mut open_threes = 0;
        for (&pat, &key) in info.pats[0].iter().zip(&info.keys) {
            match pat {
                B4 => fours += 1,
                F4 if black_run(key) == 3 => fours += 1,
                F4 => fours += 2,
                F3 => open_threes += 1,
                _ => {}
            }
        }
        let overline = info.renju & R_OVERLINES != 0;
        let decided = raw_cat == C_FIVE || overline || fours >= 2;
        let suspect = !decided && open_threes >= 2;
        let forbidden = if decided {
            raw_cat != C_FIVE
        } else {
            suspect && {
                let point =
                    Point::new((q % self.stride - PAD) as u8, (q / self.stride - PAD) as u8);
                self.renju
                    .as_deref_mut()
                    .is_some_and(|r| renju::forbidden_mut(&mut r.mirror, point).is_some())
            }
        };
        if let Some(r) = self.renju.as_deref_mut() {
            let bit = 1u64 << (q % 64);
            if suspect {
                r.suspects[q / 64] |= bit;
            } else {
                r.suspects[q / 64] &= !bit;
            }
        }
        let (cat, score) = if forbidden {
            (C_NONE, 0)
        } else if raw_cat == C_THREE_THREE {
            // Allowed, so at most one of the open threes is a real three
            // (the others' four points are forbidden): no double threat.
            let bonus = CAT_BONUS[C_THREE_THREE as usize] - CAT_BONUS[C_THREE_PLUS as usize];
            (C_THREE_PLUS, raw_score - bonus as i16)
        } else {
            (raw_cat, raw_score)
        };
        let flags = (info.renju & R_OVERLINES)
            | if forbidden { R_FORBIDDEN } else { 0 }
            | if suspect { R_SUSPECT } else { 0 };
        if info.renju == flags && info.cats[0] == cat && info.scores[0] == score {
            return false;
        }
        self.remove(q);
        let i = &mut self.info[q];
        i.renju = flags;
        i.cats[0] = cat;
        i.scores[0] = score;
        self.add(q);
        true
    }

    /// Passes the move (used by threat searches that ask "what if the opponent moved").
    pub fn pass(&mut self) {
        self.to_move = other(self.to_move);
    }

    /// Toggles stone `c` in the keys of the forty points around `p`, and
    /// refreshes the empty ones (and under renju judges them again).
    fn update_lines<const RENJU: bool>(&mut self, p: usize, c: u32) {
        // Past the tables' reach only the keys change.
        let reach = self.tables.reach();
        for d in 0..4 {
            let dir = self.dirs[d];
            for o in 1..=5i32 {
                let near = o <= reach;
                for (q, slot) in [
                    ((p as isize + o as isize * dir) as usize, -o),
                    ((p as isize - o as isize * dir) as usize, o),
                ] {
                    let delta = c << (2 * pattern::slot(slot));
                    if near && self.cells[q] == EMPTY {
                        self.refresh::<RENJU>(q, d, delta);
                        if RENJU {
                            self.renju_touch(q, d);
                        }
                    } else {
                        self.info[q].keys[d] ^= delta;
                    }
                }
            }
        }
    }

    fn update_near(&mut self, p: usize, add: bool) {
        let s = self.stride as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let q = (p as isize + dy * s + dx) as usize;
                if add {
                    self.near[q] += 1;
                } else {
                    self.near[q] -= 1;
                }
            }
        }
    }

    /// Changes the key of empty point `q` along direction `d` by `delta`
    /// and updates its patterns, category and score, logging its state
    /// before if its patterns change (under renju always: the judge may
    /// change it too).
    #[inline]
    fn refresh<const RENJU: bool>(&mut self, q: usize, d: usize, delta: u32) {
        let tables = self.tables;
        let joint = &*self.joint;
        let info = &mut self.info[q];
        let key = info.keys[d] ^ delta;
        let (b, w) = tables.patterns(key);
        if RENJU || b != info.pats[0][d] || w != info.pats[1][d] {
            self.log.push((q as Pos, *info));
        }
        info.keys[d] = key;
        let wgt = DIR_WEIGHT[d];
        // Only a colour whose pattern changed is looked up again, and the
        // totals move by the difference (what `remove`, `combine` and
        // `add` would do, for that colour).
        for (c, new) in [(0, b), (1, w)] {
            let old = info.pats[c][d];
            if old == new {
                continue;
            }
            let was = info.combos[c];
            let now = was - old as u16 * wgt + new as u16 * wgt;
            let (was_j, now_j) = (joint[was as usize], joint[now as usize]);
            let (cat, score) = (now_j.cat(), now_j.score());
            info.pats[c][d] = new;
            info.combos[c] = now;
            self.counts[c][info.cats[c] as usize] -= 1;
            self.counts[c][cat as usize] += 1;
            self.sums[c] += score as i32 - info.scores[c] as i32;
            info.cats[c] = cat;
            info.scores[c] = score;
            self.learned_sums[c][0] += now_j.own() - was_j.own();
            self.learned_sums[c][1] += now_j.other() - was_j.other();
        }
    }

    /// Recomputes all four directions of empty point `q` (not counted).
    fn recompute(&mut self, q: usize) {
        for d in 0..4 {
            let (b, w) = self.tables.patterns(self.info[q].keys[d]);
            self.info[q].pats[0][d] = b;
            self.info[q].pats[1][d] = w;
        }
        for c in 0..2 {
            self.info[q].combos[c] = Tables::combo_index(self.info[q].pats[c]) as u16;
        }
        self.combine(q);
    }

    #[inline]
    fn combine(&mut self, q: usize) {
        for c in 0..2 {
            let (cat, score) = self.tables.combo(self.info[q].combos[c] as usize);
            self.info[q].cats[c] = cat;
            self.info[q].scores[c] = score;
        }
    }

    #[inline]
    fn add(&mut self, q: usize) {
        for c in 0..2 {
            self.counts[c][self.info[q].cats[c] as usize] += 1;
            self.sums[c] += self.info[q].scores[c] as i32;
            let j = self.joint[self.info[q].combos[c] as usize];
            self.learned_sums[c][0] += j.own();
            self.learned_sums[c][1] += j.other();
        }
    }

    #[inline]
    fn remove(&mut self, q: usize) {
        for c in 0..2 {
            self.counts[c][self.info[q].cats[c] as usize] -= 1;
            self.sums[c] -= self.info[q].scores[c] as i32;
            let j = self.joint[self.info[q].combos[c] as usize];
            self.learned_sums[c][0] -= j.own();
            self.learned_sums[c][1] -= j.other();
        }
    }
}

/// What a combination index means, packed in one word: the category (bits
/// 0..8), the score (16..32) and the learned weights as the side to move
/// (32..48) and as the opponent (48..64).
#[derive(Clone, Copy)]
struct Joint(u64);

impl Joint {
    #[inline]
    fn cat(self) -> Cat {
        self.0 as u8
    }
    #[inline]
    fn score(self) -> i16 {
        (self.0 >> 16) as u16 as i16
    }
    #[inline]
    fn own(self) -> i32 {
        (self.0 >> 32) as u16 as i16 as i32
    }
    #[inline]
    fn other(self) -> i32 {
        (self.0 >> 48) as u16 as i16 as i32
    }
}

/// The packed combination table for `rule`: [`Tables::combo`] beside the
/// learned weights `weights`. Built once per rule for the shipped weights
/// (a constant), for others with each board.
fn joint_table(rule: Rule, weights: &Arc<Weights>) -> Arc<[Joint]> {
    let build = || {
        let tables = Tables::get(rule);
        weights
            .by_combo
            .iter()
            .enumerate()
            .map(|(i, &[own, other])| {
                let (cat, score) = tables.combo(i);
                Joint(
                    cat as u64
                        | (score as u16 as u64) << 16
                        | (own as u16 as u64) << 32
                        | (other as u16 as u64) << 48,
                )
            })
            .collect::<Arc<[Joint]>>()
    };
    if !Arc::ptr_eq(weights, &Weights::shipped()) {
        return build();
    }
    static SHIPPED: [OnceLock<Arc<[Joint]>>; 3] = [const { OnceLock::new() }; 3];
    let slot = match rule {
        Rule::Freestyle => 0,
        Rule::ExactFive => 1,
        Rule::Renju => 2,
    };
    SHIPPED[slot].get_or_init(build).clone()
}

/// Whether a point `dx`, `dy` away is on one of the four lines through a
/// point, within five steps.
#[inline]
fn on_lines(dx: isize, dy: isize) -> bool {
    dx.abs().max(dy.abs()) <= 5 && (dx == 0 || dy == 0 || dx == dy || dx == -dy)
}

/// One bit per slot of a line key, at the slot's low bit: set where the
/// slot holds a black (colour 1) stone.
#[inline]
fn black_slots(key: u32) -> u32 {
    key & !(key >> 1) & 0x5_5555
}

/// Whether a black stone on the centre of a line key makes six or more in
/// a row: five consecutive slots of the ten are black (each run of five
/// slots touches the centre).
#[inline]
fn black_overline(key: u32) -> bool {
    let black = black_slots(key);
    const FIVE_SLOTS: u32 = 0x155;
    (0..6).any(|k| black & (FIVE_SLOTS << (2 * k)) == FIVE_SLOTS << (2 * k))
}

/// How many black stones follow the centre of a line key, both sides together.
fn black_run(key: u32) -> u32 {
    let black = black_slots(key);
    let at = |slot: u32| black >> (2 * slot) & 1 == 1;
    let left = (0..5).rev().take_while(|&s| at(s)).count();
    let right = (5..10).take_while(|&s| at(s)).count();
    (left + right) as u32
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_state_matches_fresh_board() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        let moves = [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 6),
            (7, 6),
            (7, 9),
            (0, 0),
            (14, 14),
            (7, 5),
        ];
        for &(x, y) in &moves {
            let p = b.pos(x, y).unwrap();
            b.play(p);
        }
        // Black: (7,5)..(7,8) is a four blocked by white at (7,9): one five point at (7,4).
        assert_eq!(b.count(1, C_FIVE), 1);
        assert_eq!(b.find_five(1), b.pos(7, 4));
        let counts = b.counts;
        let sums = b.sums;
        for _ in 0..moves.len() {
            b.undo();
        }
        let fresh = Board::new(15, 15, Rule::Freestyle);
        assert_eq!(b.counts, fresh.counts);
        assert_eq!(b.sums, fresh.sums);
        assert_eq!(b.hash, 0);
        for &(x, y) in &moves {
            let p = b.pos(x, y).unwrap();
            b.play(p);
        }
        assert_eq!(b.counts, counts);
        assert_eq!(b.sums, sums);
    }

    /// A point as seen from outside: cell, categories, scores, patterns.
    type Seen = (u8, [Cat; 2], [i32; 2], [[Pat; 4]; 2], bool, [u32; 4]);

    /// Every observable per-point value, and the line keys, for comparing
    /// two boards.
    fn snapshot(b: &Board) -> Vec<Seen> {
        b.points()
            .iter()
            .map(|&p| {
                let pats = |c: Color| [0, 1, 2, 3].map(|d| b.pat(p, c, d));
                (
                    b.cell(p),
                    [b.cat(p, 1), b.cat(p, 2)],
                    [b.score(p, 1), b.score(p, 2)],
                    [pats(1), pats(2)],
                    b.is_empty(p) && b.is_forbidden(p, 1),
                    b.info[p as usize].keys,
                )
            })
            .collect()
    }

    /// The board's stones as [`renju`] reads them, built afresh.
    fn renju_copy(b: &Board) -> renju::Board {
        let mut r = renju::Board::with_size(b.width() as u8, b.height() as u8);
        for &p in b.points() {
            let (x, y) = b.xy(p);
            let side = match b.cell(p) {
                1 => Some(renju::BLACK),
                2 => Some(renju::WHITE),
                _ => None,
            };
            r.set(Point::new(x as u8, y as u8), side);
        }
        r
    }

    /// Plays and takes back stones at random, black more often than
    /// white and in a small patch so that forbidden points come up, and
    /// checks every empty point's flag against [`renju::forbidden`] after
    /// every step, and the whole state against a board built afresh now
    /// and then. Some of the runs reach verdicts that hang on a three's
    /// four point two steps away (a stone off a point's lines changing it).
    #[test]
    fn renju_forbidden_points_stay_exact_through_plays_and_undos() {
        let mut seen = [0usize; 3];
        let mut off_line_changes = 0;
        for (patch, black_pct) in [(9usize, 65u64), (9, 75), (11, 75)] {
            for run in 1..=5u64 {
                let mut seed = run * 1000 + patch as u64;
                let lo = (15 - patch) / 2;
                let mut b = Board::new(15, 15, Rule::Renju);
                for step in 0..4000 {
                    let r = splitmix(&mut seed);
                    let empty: Vec<Pos> = b
                        .points()
                        .iter()
                        .copied()
                        .filter(|&p| {
                            let (x, y) = b.xy(p);
                            let inside = |v: usize| (lo..lo + patch).contains(&v);
                            b.is_empty(p) && inside(x) && inside(y)
                        })
                        .collect();
                    if b.stone_count() > 0
                        && (r % 5 < 2 || b.stone_count() > 60 || empty.is_empty())
                    {
                        b.undo();
                    } else {
                        let c = if (r >> 20) % 100 < black_pct { 1 } else { 2 };
                        b.set_to_move(c);
                        b.play(empty[(r >> 8) as usize % empty.len()]);
                        let changes = b.renju.as_ref().unwrap().changed.len();
                        off_line_changes = off_line_changes.max(changes);
                    }
                    let mirror = renju_copy(&b);
                    assert!(&mirror == b.renju_board().unwrap(), "step {step}: mirror");
                    for &p in b.points() {
                        if !b.is_empty(p) {
                            continue;
                        }
                        let (x, y) = b.xy(p);
                        let truth = renju::forbidden(&mirror, Point::new(x as u8, y as u8));
                        assert_eq!(
                            b.is_forbidden(p, 1),
                            truth.is_some(),
                            "patch {patch}, run {run}, step {step}: {x},{y} ({truth:?}) after {:?}",
                            b.history().iter().map(|&q| b.xy(q)).collect::<Vec<_>>()
                        );
                        assert!(!b.is_forbidden(p, 2));
                        if let Some(f) = truth {
                            assert_eq!(b.cat(p, 1), C_NONE);
                            assert_eq!(b.score(p, 1), 0);
                            seen[f as usize] += 1;
                        }
                    }
                    if step % 100 == 0 {
                        let mut fresh = Board::new(15, 15, Rule::Renju);
                        for &p in b.history() {
                            fresh.set_to_move(b.cell(p));
                            fresh.play(p);
                        }
                        assert_eq!(snapshot(&b), snapshot(&fresh), "step {step}");
                        assert_eq!(b.counts, fresh.counts);
                        assert_eq!(b.sums, fresh.sums);
                        assert_eq!(b.hash, fresh.hash);
                    }
                }
            }
        }
        // Every kind came up, and verdicts changed by stones off a point's lines.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
        assert!(off_line_changes > 0);
    }

    #[test]
    fn renju_wins_are_exactly_five_for_black_and_five_or_more_for_white() {
        for (black_line, black_wins) in [(5, true), (6, false)] {
            for (white_line, white_wins) in [(5, true), (6, true)] {
                let mut b = Board::new(15, 15, Rule::Renju);
                let mut last = [0; 3];
                for (c, y, n) in [(1u8, 3usize, black_line), (2, 9, white_line)] {
                    for x in 0..n {
                        b.set_to_move(c);
                        let p = b.pos(x + 2, y).unwrap();
                        b.play(p);
                        last[c as usize] = p;
                    }
                }
                assert_eq!(b.is_win_at(last[1]), black_wins, "black {black_line}");
                assert_eq!(b.is_win_at(last[2]), white_wins, "white {white_line}");
            }
        }
    }

    fn empty_points(b: &Board) -> Vec<Pos> {
        b.points()
            .iter()
            .copied()
            .filter(|&p| b.is_empty(p))
            .collect()
    }

    #[test]
    fn a_category_read_through_a_line_is_the_one_the_stone_would_make() {
        let mut changed = 0;
        for rule in [Rule::Freestyle, Rule::ExactFive] {
            let mut seed = 777u64;
            for _ in 0..40 {
                // A dense random patch, then every pair of its empty points.
                let mut b = Board::new(15, 15, rule);
                let n = 8 + splitmix(&mut seed) % 20;
                for _ in 0..n {
                    let r = splitmix(&mut seed) as usize;
                    let p = b.pos(4 + r % 7, 4 + (r >> 8) % 7).unwrap();
                    if b.is_empty(p) {
                        b.play(p);
                    }
                }
                let empty = empty_points(&b);
                for &r in &empty {
                    for s in [1, 2] {
                        let before = b.to_move();
                        let guess: Vec<[Cat; 2]> = empty
                            .iter()
                            .map(|&q| {
                                if q == r {
                                    [0; 2]
                                } else {
                                    [1, 2].map(|c| b.cat_if(q, c, r, s))
                                }
                            })
                            .collect();
                        b.set_to_move(s);
                        b.play(r);
                        for (&q, g) in empty.iter().zip(&guess) {
                            if q != r {
                                assert_eq!(
                                    *g,
                                    [b.cat(q, 1), b.cat(q, 2)],
                                    "{rule:?} {:?}",
                                    b.history()
                                );
                            }
                        }
                        b.undo();
                        changed += empty
                            .iter()
                            .zip(&guess)
                            .filter(|&(&q, g)| q != r && *g != [b.cat(q, 1), b.cat(q, 2)])
                            .count();
                        b.set_to_move(before);
                    }
                }
            }
        }
        // The stones made a difference often enough to make the test mean something.
        assert!(changed > 1000, "{changed}");
    }

    #[test]
    fn random_plays_and_undos_match_a_board_built_afresh() {
        for rule in [Rule::Freestyle, Rule::ExactFive, Rule::Renju] {
            let mut b = Board::new(9, 9, rule);
            let mut seed = 12345u64;
            for step in 0..600 {
                let r = splitmix(&mut seed);
                if b.stone_count() > 0 && (r.is_multiple_of(3) || b.is_full()) {
                    b.undo();
                } else {
                    let empty = empty_points(&b);
                    b.play(empty[(r >> 8) as usize % empty.len()]);
                }
                if step % 25 == 0 {
                    let mut fresh = Board::new(9, 9, rule);
                    for &p in b.history() {
                        fresh.play(p);
                    }
                    assert_eq!(snapshot(&b), snapshot(&fresh), "step {step}");
                    assert_eq!(b.counts, fresh.counts);
                    assert_eq!(b.sums, fresh.sums);
                    assert_eq!(b.learned_sums, fresh.learned_sums);
                    assert_eq!(b.learned_sums, learned_sums_by_hand(&b));
                    assert_eq!(b.hash, fresh.hash);
                    assert_eq!(b.to_move(), fresh.to_move());
                }
            }
        }
    }

    /// The learned sums counted point by point from the shipped weights.
    fn learned_sums_by_hand(b: &Board) -> [[i32; 2]; 2] {
        let w = b.weights();
        let shape = super::super::weights::shape_of_combo();
        let mut out = [[0; 2]; 2];
        for &p in b.points() {
            if !b.is_empty(p) {
                continue;
            }
            for c in 1..=2u8 {
                let pats = [0, 1, 2, 3].map(|d| b.pat(p, c, d));
                let s = shape[super::super::weights::combo_of(pats)] as usize;
                out[c as usize - 1][0] += w.shapes[s][0];
                out[c as usize - 1][1] += w.shapes[s][1];
            }
        }
        out
    }
}
