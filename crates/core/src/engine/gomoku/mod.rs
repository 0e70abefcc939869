//! The Gomoku engine: pure, synchronous, no IO.
//!
//! * [`pattern`]: line patterns (five, open four, four, open three, ...) and
//!   their per-point combinations, as lookup tables built once per rule.
//! * [`board`]: the padded search board that keeps patterns, categories,
//!   counts, evaluation sums and the Zobrist hash incrementally per move.
//! * [`threat`]: VCF and VCT (threat-space) searches and open-three defences.
//! * [`search`]: the root threat checks and iterative-deepening PVS.
//! * [`tt`]: the transposition tables.
//! * [`weights`]: the learned evaluation's weights, passed to the board.
//! * [`learned`]: what the fit sees of a position (shapes, threat states).
//! * [`swap2`]: the swap2 opening's decisions (which stones, which colour).
//!
//! The game layer calls [`GomokuPlayer::choose`]; `inarow pbrain` and
//! `inarow bench gomoku` call [`GomokuPlayer::analyse`] for the figures.
//! Board sizes from 5 to 32 (width and height separately) are supported,
//! under freestyle (five or more wins), exactly-five (an overline does not
//! win) or renju (black, the first player, has forbidden points) rules.
//!
//! Under renju the engine must know which stones are black, but it is told
//! only whose they are ([`Stone::Own`] or [`Stone::Opponent`]): it counts
//! them. With an even number of stones on the board the side to move is
//! black (the first player), with an odd number white. Inside, the search
//! board then has black as colour 1 (under the other rules colour 1 is the
//! side to move).

pub mod board;
pub mod learned;
pub mod pattern;
pub mod search;
pub mod swap2;
pub mod threat;
pub mod tt;
pub mod weights;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{Limits, TimeShares};

use rand::{Rng, RngExt};

use board::{Board, Pos};
use pattern::{C_FOUR, C_LOW, C_NONE};
pub use search::Source;
use search::{Options, Search};
pub use swap2::{Swap2Choice, Swap2Decision, Swap2Error};
use tt::{ThreatCache, Tt};
use weights::Weights;

pub use board::{MAX_SIZE, MIN_SIZE};

/// Which lines win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins; six or more (an overline) does not.
    ExactFive,
    /// Renju (RIF): black, the first player, wins only with exactly five
    /// and may not play a double three, a double four or an overline
    /// ([`crate::game::renju`]); white wins with five or more and has no
    /// forbidden points. Which stones are black is read from their number:
    /// with an even number of stones on the board, the side to move is
    /// black.
    Renju,
}

impl Rule {
    /// Whether `black` (the first player) wins with this run length
    /// through a stone, and likewise for white.
    pub fn wins(self, black: bool, run: usize) -> bool {
        match self {
            Rule::Freestyle => run >= 5,
            Rule::ExactFive => run == 5,
            Rule::Renju if black => run == 5,
            Rule::Renju => run >= 5,
        }
    }
}

/// How hard the computer plays: a ladder of levels from 1 (weakest) to
/// [`GomokuLevel::COUNT`] (the full engine), each meant to score about 75 %
/// against the one below it (the figures are in docs/gomoku-engine.md).
///
/// | level | plays |
/// |-------|-------|
/// | 1 | a random pick among its 5 best-looking points (may miss a five or a block) |
/// | 2, 3 | level 4, but 60 % / 25 % of its moves are level 1's |
/// | 4 | one ply, the forced cases (five, block, open four, open-three answers), evaluation error ±150 |
/// | 5 | two plies, a VCF of 4 fours, evaluation error ±150 |
/// | 6 | three plies, a VCF of 6 fours |
/// | 7 | the full engine within 50,000 nodes |
/// | 8 | the full engine, as deep as the time allows |
///
/// Levels 1 to 7 are bounded by depth and nodes, not time, so they play
/// the same on any machine: the same seed and position give the same move
/// (a time limit is only a safety net). Level 8 uses the time it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GomokuLevel(u8);

impl GomokuLevel {
    /// How many levels there are; the last is the full engine.
    pub const COUNT: u8 = 8;
    /// The weakest level.
    pub const WEAKEST: GomokuLevel = GomokuLevel(1);
    /// The full engine: VCF, VCT, open-three defence, deep PVS, by time.
    pub const STRONG: GomokuLevel = GomokuLevel(GomokuLevel::COUNT);
    /// Nodes level 7 may search per move.
    pub const LEVEL7_NODES: u64 = 50_000;

    /// Level `n`, 1 to [`GomokuLevel::COUNT`].
    pub fn new(n: u8) -> Option<GomokuLevel> {
        (1..=GomokuLevel::COUNT)
            .contains(&n)
            .then_some(GomokuLevel(n))
    }

    /// Level `n` in a constant; `n` must be 1 to [`GomokuLevel::COUNT`].
    pub const fn nth(n: u8) -> GomokuLevel {
        assert!(n >= 1 && n <= GomokuLevel::COUNT);
        GomokuLevel(n)
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = GomokuLevel> {
        (1..=GomokuLevel::COUNT).map(GomokuLevel)
    }

    /// The level's number, 1 to [`GomokuLevel::COUNT`].
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether the level plays by depth and nodes only (all but the top),
    /// so that the time it is given is only a safety net.
    pub fn is_bounded(self) -> bool {
        self.0 < GomokuLevel::COUNT
    }

    /// Share of moves levels 2 and 3 take from level 1, in percent.
    fn level_one_share(self) -> u32 {
        match self.0 {
            1 => 100,
            2 => 60,
            3 => 25,
            _ => 0,
        }
    }

    /// The search options of a searching level (4 and up); `noise_seed`
    /// seeds the evaluation error of levels 4 and 5.
    fn options(self, noise_seed: u64) -> Options {
        let mut o = match self.0 {
            0..=4 => Options {
                max_depth: 1,
                root_vcf: 0,
                eval_noise: 150,
                ..Options::medium()
            },
            5 => Options {
                max_depth: 2,
                root_vcf: 4,
                eval_noise: 150,
                ..Options::medium()
            },
            6 => Options {
                max_depth: 3,
                root_vcf: 6,
                ..Options::medium()
            },
            7 => Options {
                vct_by_nodes: true,
                // Level 7 keeps the search its ladder figures were measured
                // with (and the training games were played with; it plays
                // by nodes, so the leaner VCF would change its games).
                lean_vcf: false,
                ..Options::strong().without_cuts()
            },
            _ => Options::strong(),
        };
        o.noise_seed = noise_seed;
        o
    }

    /// The most nodes a bounded level may search per move.
    fn node_limit(self) -> Option<u64> {
        match self.0 {
            7 => Some(GomokuLevel::LEVEL7_NODES),
            // Depth bounds these, but the answers to open threes are
            // searched past the horizon, and a chain of them can run long:
            // the nodes keep such a move short.
            1..=6 => Some(25_000),
            _ => None,
        }
    }
}

impl std::fmt::Display for GomokuLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// Whose a stone is, seen from the engine: the player to move next (the
/// one the engine chooses for) or the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    /// The player to move next.
    Own,
    /// The other player (the one who moved last).
    Opponent,
}

/// What a search found, for protocol and benchmark output.
#[derive(Clone, Debug)]
pub struct Report {
    /// The chosen point (x column, y row); `None` only on a full board.
    pub mv: Option<(u8, u8)>,
    /// Score for the side to move, in centi-stones-ish; beyond ±29000 a proven win or loss.
    pub score: i32,
    /// Deepest completed iteration (0 when no search was needed).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub source: Source,
    /// The score of the iteration before the one `score` comes from
    /// (`None` when no search, or only one iteration, was done).
    pub score_before: Option<i32>,
}

/// A reusable computer player for one board size and rule; keeps its
/// transposition tables between moves.
pub struct GomokuPlayer {
    width: usize,
    height: usize,
    rule: Rule,
    tt: Tt,
    cache: ThreatCache,
    /// Evaluate with the hand-set scores even where the level would use
    /// the learned weights (to make self-play games as an earlier version
    /// did; see `inarow train gomoku-games --eval`).
    hand_eval: bool,
    /// The learned weights it evaluates with (the shipped ones unless
    /// [set](GomokuPlayer::set_weights)).
    weights: Arc<Weights>,
}

impl GomokuPlayer {
    /// A player for a `size` x `size` board (clamped to 5..=32) with a
    /// transposition table of about `tt_mb` MiB.
    pub fn new(size: usize, rule: Rule, tt_mb: usize) -> GomokuPlayer {
        GomokuPlayer::with_dimensions(size, size, rule, tt_mb)
    }

    /// A player for a `width` x `height` board (each clamped to 5..=32).
    pub fn with_dimensions(width: usize, height: usize, rule: Rule, tt_mb: usize) -> GomokuPlayer {
        // Build the pattern tables now rather than during the first move.
        pattern::Tables::get(rule);
        GomokuPlayer {
            width: width.clamp(MIN_SIZE, MAX_SIZE),
            height: height.clamp(MIN_SIZE, MAX_SIZE),
            rule,
            tt: Tt::new(tt_mb),
            // A quarter of the main table's memory, 64 KiB to 4 MiB.
            cache: ThreatCache::new(cache_bits(tt_mb)),
            hand_eval: false,
            weights: Weights::shipped(),
        }
    }

    /// Evaluates with the learned weights `weights` (self-play with an
    /// earlier round's weights) instead of the shipped ones; clears the
    /// tables, whose scores came from the old ones.
    pub fn set_weights(&mut self, weights: Arc<Weights>) {
        if !Arc::ptr_eq(&weights, &self.weights) {
            self.weights = weights;
            self.clear();
        }
    }

    /// Evaluates with the hand-set scores at every level (`true`), or as
    /// each level does (`false`, the default).
    pub fn set_hand_eval(&mut self, hand: bool) {
        if hand != self.hand_eval {
            self.hand_eval = hand;
            self.clear();
        }
    }

    /// Changes the rule (clears the tables, whose contents depend on it).
    pub fn set_rule(&mut self, rule: Rule) {
        if rule != self.rule {
            pattern::Tables::get(rule);
            self.rule = rule;
            self.clear();
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.cache.clear();
    }

    /// Chooses a move within `limits`. Level 8 shares their time out by
    /// [`TimeShares::GOMOKU`]; levels 1 to 7 are bounded by depth and
    /// nodes, and honour only the hard deadline, as a safety net (within
    /// it, the same `rng` state and stones give the same move).
    ///
    /// `stones`: (x, y, whose) with x the column, y the row, both from 0. Points off the
    /// board and repeated points are ignored. Returns an empty point whenever
    /// one exists (the centre on an empty board; never a point forbidden
    /// to the side to move); on a full board, (0, 0).
    pub fn choose(
        &mut self,
        stones: &[(u8, u8, Stone)],
        level: GomokuLevel,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut impl Rng,
    ) -> (u8, u8) {
        self.choose_scored(stones, level, limits, stop, rng).0
    }

    /// [`GomokuPlayer::choose`], with the search's score for the side to
    /// move: `None` for a level-one move, which is not searched, and for
    /// a forced move that decides nothing (a block, the only answer),
    /// whose score of 0 is no judgement. The same `rng` state gives the
    /// same move as `choose`.
    pub fn choose_scored(
        &mut self,
        stones: &[(u8, u8, Stone)],
        level: GomokuLevel,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut impl Rng,
    ) -> ((u8, u8), Option<i32>) {
        let mut level = level;
        let share = level.level_one_share();
        if share > 0 {
            if share >= 100 || rng.random_range(0..100) < share {
                let board = self.board(stones);
                let mv = level_one_move(&board, rng).map_or((0, 0), |p| xy8(&board, p));
                return (mv, None);
            }
            level = GomokuLevel(4);
        }
        let noise_seed = rng.random::<u64>();
        let r = self.search(stones, level, limits, stop, noise_seed, false);
        let judged = r.source != Source::Forced || r.score.abs() >= search::WIN_MIN;
        (r.mv.unwrap_or((0, 0)), judged.then_some(r.score))
    }

    /// Searches the position under `limits` and reports the figures, as
    /// [`GomokuPlayer::choose`] would play it (levels 1 to 3 are searched
    /// as level 4: they have nothing else to report; the evaluation error
    /// of levels 4 and 5 has a fixed seed). Level 8 shares the time left
    /// when the search starts out by [`TimeShares::GOMOKU`]; with no time
    /// limit the search is deterministic (same input, same nodes).
    pub fn analyse(
        &mut self,
        stones: &[(u8, u8, Stone)],
        level: GomokuLevel,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Report {
        self.search(stones, level.max(GomokuLevel(4)), limits, stop, 0, false)
    }

    /// A win by continuous fours for the side to move (a VCF): its first
    /// move, found with at most `max_fours` of its own fours within
    /// `limits` (its hard deadline and nodes). `Ok(None)`: proven that no
    /// VCF of that length exists.
    pub fn vcf(
        &mut self,
        stones: &[(u8, u8, Stone)],
        max_fours: i32,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Option<(u8, u8)>, Unfinished> {
        let start = Instant::now();
        let board = self.board(stones);
        self.vcf_on(board, max_fours, limits, start, stop)
    }

    /// The first move of a VCF of at most `max_fours` fours on `board`, for
    /// its side to move, within `limits` from `start`.
    fn vcf_on(
        &mut self,
        board: Board,
        max_fours: i32,
        limits: &Limits,
        start: Instant,
        stop: &AtomicBool,
    ) -> Result<Option<(u8, u8)>, Unfinished> {
        let opts = GomokuLevel::STRONG.options(0);
        let deadlines = limits.deadlines(TimeShares::GOMOKU, start);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut search = Search::new(board, &mut self.tt, &mut self.cache, stop, opts);
        let found = search.vcf_first(max_fours, deadlines.hard, node_limit);
        if found.is_none() && search.aborted() {
            return Err(Unfinished);
        }
        Ok(found.map(|p| xy8(search.board(), p)))
    }

    /// Whether playing `m` from `stones` keeps a win by continuous fours
    /// for the side to move: `m` makes five, or an open four, or a four
    /// whose one answer leaves a VCF of at most `max_fours - 1` more fours.
    pub fn keeps_vcf(
        &mut self,
        stones: &[(u8, u8, Stone)],
        m: (u8, u8),
        max_fours: i32,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<bool, Unfinished> {
        let start = Instant::now();
        let mut b = self.board(stones);
        let Some(p) = b.pos(usize::from(m.0), usize::from(m.1)) else {
            return Ok(false);
        };
        let me = b.to_move();
        if !b.is_empty(p) || !b.may_play(p, me) {
            return Ok(false);
        }
        let op = board::other(me);
        b.play(p);
        if b.is_win_at(p) {
            return Ok(true);
        }
        // The opponent's five comes first; no four, no continuous fours.
        if b.count(op, pattern::C_FIVE) > 0 {
            return Ok(false);
        }
        match b.count(me, pattern::C_FIVE) {
            0 => return Ok(false),
            1 => {}
            _ => return Ok(true),
        }
        let Some(block) = b.find_five(me) else {
            return Ok(false);
        };
        // Under renju the one answer may be forbidden to black.
        if !b.may_play(block, op) {
            return Ok(true);
        }
        b.play(block);
        Ok(self
            .vcf_on(b, max_fours - 1, limits, start, stop)?
            .is_some())
    }

    /// The full engine's analysis as it was before the static cut, the
    /// shorter leaf VCF and the floor under the threat extension, for
    /// swap2's judgements: they compare fixed-depth scores against
    /// thresholds set on that search, and each of those shifts them.
    pub(super) fn judge_position(
        &mut self,
        stones: &[(u8, u8, Stone)],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Report {
        self.search(stones, GomokuLevel::STRONG, limits, stop, 0, true)
    }

    fn search(
        &mut self,
        stones: &[(u8, u8, Stone)],
        level: GomokuLevel,
        limits: &Limits,
        stop: &AtomicBool,
        noise_seed: u64,
        judging: bool,
    ) -> Report {
        let start = Instant::now();
        let board = self.board(stones);
        let mut opts = level.options(noise_seed);
        opts.learned_eval &= !self.hand_eval;
        if judging {
            opts = opts.without_cuts();
        }
        if let Some(d) = limits.depth {
            opts.max_depth = opts.max_depth.min(d.clamp(1, 60) as i32);
        }
        let mut deadlines = limits.deadlines(TimeShares::GOMOKU, start);
        let mut node_limit = limits.nodes.unwrap_or(u64::MAX);
        if level.is_bounded() {
            // Depth and nodes decide; the time is only a safety net, and
            // what earlier moves left in the tables must not matter.
            deadlines.soft = None;
            node_limit = node_limit.min(level.node_limit().unwrap_or(u64::MAX));
            self.clear();
        }
        let mut search = Search::new(board, &mut self.tt, &mut self.cache, stop, opts);
        let out = search.think(deadlines.soft, deadlines.hard, node_limit);
        let b = search.board();
        Report {
            mv: out.mv.map(|p| xy8(b, p)),
            score: out.score,
            depth: out.depth.max(0) as u32,
            nodes: search.nodes(),
            elapsed: start.elapsed(),
            source: out.source,
            score_before: out.score_before,
        }
    }

    /// The search board for `stones`, the side to move being colour 1
    /// except under renju, where colour 1 is black: the side to move when
    /// the number of stones is even.
    fn board(&self, stones: &[(u8, u8, Stone)]) -> Board {
        let mut b = Board::with_weights(self.width, self.height, self.rule, &self.weights);
        let mut seen = vec![false; b.array_len()];
        let stones: Vec<(Pos, Stone)> = stones
            .iter()
            .filter_map(|&(x, y, whose)| {
                let p = b.pos(x as usize, y as usize)?;
                (!std::mem::replace(&mut seen[p as usize], true)).then_some((p, whose))
            })
            .collect();
        let own = if self.rule == Rule::Renju && !stones.len().is_multiple_of(2) {
            2
        } else {
            1
        };
        for (p, whose) in stones {
            b.set_to_move(match whose {
                Stone::Own => own,
                Stone::Opponent => board::other(own),
            });
            b.play(p);
        }
        b.set_to_move(own);
        b
    }
}

/// A threat search stopped at its limits before it was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unfinished;

/// The stones of a game given as its moves in order, for
/// [`GomokuPlayer::choose`]: the player to move after the last move is
/// [`Stone::Own`].
pub fn stones_from_moves(moves: &[(u8, u8)]) -> Vec<(u8, u8, Stone)> {
    let n = moves.len();
    moves
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            let whose = if (n - i).is_multiple_of(2) {
                Stone::Own
            } else {
                Stone::Opponent
            };
            (x, y, whose)
        })
        .collect()
}

/// Bits of the threat cache (16-byte entries) for a main table of `tt_mb` MiB.
fn cache_bits(tt_mb: usize) -> u32 {
    let entries = (tt_mb.max(1) << 20) / 4 / 16;
    entries.max(1).ilog2().clamp(12, 18)
}

fn xy8(b: &Board, p: Pos) -> (u8, u8) {
    let (x, y) = b.xy(p);
    (x as u8, y as u8)
}

/// Level 1: a random pick among the 5 best-looking points near the stones
/// (attack and defence valued roughly; a five or a four to block looks
/// good but is not a must), so a beginner who blocks fours beats it. Never
/// a point the side to move may not play.
fn level_one_move(b: &Board, rng: &mut impl Rng) -> Option<Pos> {
    let me = b.to_move();
    let op = board::other(me);
    if b.stone_count() == 0 {
        return b.pos(b.width() / 2, b.height() / 2);
    }
    let mut list: Vec<(i32, Pos)> = b
        .points()
        .iter()
        .copied()
        .filter(|&p| b.may_play(p, me) && b.is_near(p))
        .map(|p| {
            // Sees fours, its own and the opponent's open threes, and
            // values the rest only roughly.
            let mut s = b.score(p, me).min(60) + b.score(p, op).min(40);
            if b.cat(p, me) >= C_FOUR || b.cat(p, op) >= C_FOUR {
                s += 100;
            }
            if b.cat(p, me) == C_NONE && b.cat(p, op) <= C_LOW {
                s -= 10;
            }
            (s, p)
        })
        .collect();
    if list.is_empty() {
        return b.first_empty(me);
    }
    list.sort_by_key(|&(s, p)| (std::cmp::Reverse(s), p));
    let top = list.len().min(5);
    let pick = rng.random_range(0..top);
    Some(list[pick].1)
}
