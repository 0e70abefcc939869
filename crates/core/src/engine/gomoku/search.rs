//! The search: threat checks at the root, then iterative-deepening PVS.
//!
//! Order of business for a move (see [`Search::think`]):
//! 1. the rules' forced cases: make five; block the opponent's five; make an
//!    open four;
//! 2. a VCF for us (cheap, often decisive);
//! 3. the root moves: every candidate, or, when the opponent threatens an
//!    open four, only the moves that stop it plus our own fours;
//! 4. a VCT for us, with a share of the time;
//! 5. drop root moves after which the opponent has a VCF (unless all do);
//! 6. iterative deepening with principal variation search, a transposition
//!    table, history and killer ordering, late move reductions, frontier
//!    pruning of weak quiet moves and a VCF at the leaves;
//! 7. with a clock (level 8), a check of the chosen move from the
//!    opponent's side: a move it is shown to beat gives way to the next.
//!
//! Inside the tree the same forced cases are applied at every node, so a
//! four is always answered by its one block and an open three only by the
//! moves that stop it; when the opponent has a four-three or double-three
//! point and we have no four, only the moves that take all such points away
//! are searched (with our threes against double threes). Limits: a soft
//! deadline (no new iteration after it), a hard deadline and a stop flag
//! (checked every 1024 nodes), a node limit and a depth limit.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::{Board, Color, Pos, other};
use super::learned;
use super::pattern::{
    C_FIVE, C_FLEX4, C_FOUR, C_FOUR_PLUS, C_FOUR_THREE, C_NONE, C_THREE, C_THREE_THREE,
};
use super::tt::{BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, ThreatCache, Tt};

/// The score of a win now; `WIN - n` is a win in `n` plies.
pub const WIN: i32 = 30000;
/// Scores at least this far from zero are proven wins or losses.
pub const WIN_MIN: i32 = WIN - 1000;
const INF: i32 = 31000;
const MAX_PLY: i32 = 100;
/// Hash salt for "white to move", so the same stones with the other side to
/// move are a different table entry.
const SIDE_SALT: u64 = 0x7A5C_1E3D_96B2_4F08;
/// How many plies deeper than the root's last iteration the check of the
/// chosen move ([`Options::verify_share`]) may search after it.
const VERIFY_PLIES: i32 = 6;
/// How many fours deep the quiescence search ([`Search::qsearch`]) goes.
const QSEARCH_FOURS: i32 = 6;

/// What one search may use, and which of the engine's parts it switches on.
#[derive(Clone, Debug)]
pub struct Options {
    /// Maximum iterative-deepening depth.
    pub max_depth: i32,
    /// VCF depth (attacker moves) at the root; 0 = off.
    pub root_vcf: i32,
    /// VCT depth (attacker moves) at the root; 0 = off.
    pub root_vct: i32,
    /// Share of the budget the root VCT may use.
    pub vct_share: f64,
    /// VCF depth at the leaves; 0 = off.
    pub leaf_vcf: i32,
    /// Drop root moves that allow the opponent a VCF.
    pub defend_vcf: bool,
    /// Most moves searched at an interior node.
    pub max_width: usize,
    /// Prune at the frontier: at most 10 moves at depth 1 and 16 at depth 2,
    /// and none scoring under a quarter of the best, off the principal variation.
    pub frontier_pruning: bool,
    /// Side-to-move weight of the evaluation, in percent.
    pub tempo_weight: i32,
    /// Inside the tree, when the opponent has a four-three or double-three
    /// point and we have no four, search only the moves that take all such
    /// points away, our fours, and (against double threes only) our threes.
    pub defend_double_threats: bool,
    /// Evaluation error: up to this much is added to or taken from every
    /// static evaluation, the same for the same position and `noise_seed`
    /// (the weaker levels' misjudgements); 0 = none.
    pub eval_noise: i32,
    /// Seed of the evaluation error.
    pub noise_seed: u64,
    /// Bound the root VCT by its share (`vct_share`) of the node limit
    /// instead of the time, so that the search plays the same on any
    /// machine (the hard deadline still stops it).
    pub vct_by_nodes: bool,
    /// Evaluate with the mean of the hand-set scores and the learned
    /// weights ([`super::learned`]) instead of the hand-set scores alone
    /// (not under renju: the weights were fitted to freestyle games).
    pub learned_eval: bool,
    /// Static cut (reverse futility pruning): off the principal variation,
    /// in a quiet node (no four, open three or double threat to answer) at
    /// depth 1 to 3, return the static evaluation without searching when
    /// it beats beta by this margin per ply of depth; 0 = off.
    pub static_cut: i32,
    /// The last four of a VCF is only tried when it also makes a three
    /// or a second four (a plain four, once blocked, leaves no open four):
    /// the same verdicts for fewer nodes.
    pub lean_vcf: bool,
    /// Past the horizon an open three is answered (a threat extension)
    /// only down to this depth; below it the node is a leaf.
    pub three_floor: i32,
    /// At a leaf whose static evaluation already reaches beta, return it
    /// without the leaf VCF: a win found there would cut the node all the
    /// same.
    pub leaf_stand_pat: bool,
    /// Order moves by the learned move-ordering weights
    /// ([`learned::order_by_combo`]) instead of the hand-set point scores
    /// (not under renju: they were fitted to freestyle games).
    pub learned_order: bool,
    /// With a clock: after the deepening, search the position after the
    /// chosen move from the opponent's side, to prove a forced win for it,
    /// until this share of the time to the hard deadline; a refuted move
    /// gives way to the next root move (checked the same way). A line the
    /// root's last iteration reduced or cut short is looked at again with
    /// the opponent's own ordering, which finds such wins sooner. 0 = off.
    pub verify_share: f64,
    /// At the horizon, a quiescence search over fours ([`Search::qsearch`])
    /// instead of the leaf's VCF and the answers to open threes past it.
    pub qsearch: bool,
    /// Late move reductions of at least ln(depth) x ln(move number) plies,
    /// times this percentage (0 = only the fixed steps).
    pub lmr_log: i32,
    /// Move-count pruning: in a quiet node off the principal variation at
    /// depth 8 or less, no more than `a + depth^b` moves (the others only
    /// when all of those lose).
    pub move_count: Option<(f64, f64)>,
    /// A four-three or double three of the side to move is a proven win
    /// when the opponent has no point that makes a four: every node and
    /// the quiescence search return it at once (not under renju, where
    /// the follow-up may be a forbidden point), instead of standing pat
    /// or cutting on the static evaluation before trying it.
    pub quick_wins: bool,
}

impl Options {
    /// Everything on.
    pub fn strong() -> Options {
        Options {
            max_depth: 60,
            root_vcf: 24,
            root_vct: 6,
            vct_share: 0.1,
            leaf_vcf: 3,
            defend_vcf: true,
            max_width: 24,
            frontier_pruning: true,
            tempo_weight: 120,
            defend_double_threats: true,
            eval_noise: 0,
            noise_seed: 0,
            vct_by_nodes: false,
            learned_eval: true,
            static_cut: 200,
            lean_vcf: true,
            three_floor: -2,
            leaf_stand_pat: true,
            learned_order: true,
            verify_share: 0.97,
            qsearch: true,
            lmr_log: 100,
            move_count: Some((3.0, 1.5)),
            quick_wins: true,
        }
    }

    /// This search without level 8's cuts (the static cut, the leaf VCF of
    /// 3 fours, the floor under the threat extension): the search that
    /// level 7's ladder figures and swap2's thresholds were measured on.
    pub fn without_cuts(self) -> Options {
        Options {
            static_cut: 0,
            leaf_vcf: 5,
            three_floor: i32::MIN,
            leaf_stand_pat: false,
            learned_order: false,
            verify_share: 0.0,
            qsearch: false,
            lmr_log: 0,
            move_count: None,
            quick_wins: false,
            ..self
        }
    }

    /// A shallow search with the tactical safety nets.
    pub fn medium() -> Options {
        Options {
            max_depth: 4,
            root_vcf: 8,
            root_vct: 0,
            vct_share: 0.0,
            leaf_vcf: 0,
            defend_vcf: false,
            max_width: 16,
            frontier_pruning: false,
            tempo_weight: 120,
            defend_double_threats: false,
            eval_noise: 0,
            noise_seed: 0,
            vct_by_nodes: false,
            learned_eval: false,
            lean_vcf: false,
            // And none of level 8's cuts.
            ..Options::strong().without_cuts()
        }
    }
}

/// Where the chosen move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The only sensible move: a five, a block, an open four, the centre.
    Forced,
    /// The first move of a VCF.
    Vcf,
    /// The first move of a VCT.
    Vct,
    /// The alpha-beta search.
    Search,
}

/// The result of [`Search::think`].
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub mv: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub source: Source,
    /// The score of the iteration before the one `score` comes from, if
    /// there was one: odd and even depths lean opposite ways, so the two
    /// together say more about a quiet position than either.
    pub score_before: Option<i32>,
}

impl SearchOutcome {
    /// A move found before any depth of search (forced, or a threat win).
    fn at_once(mv: Option<Pos>, score: i32, source: Source) -> SearchOutcome {
        SearchOutcome {
            mv,
            score,
            depth: 0,
            source,
            score_before: None,
        }
    }
}

/// One search's working state, borrowing the tables that outlive it.
pub struct Search<'a> {
    pub(super) b: Board,
    pub(super) cache: &'a mut ThreatCache,
    pub(super) nodes: u64,
    pub(super) aborted: bool,
    pub(super) threat_move: Option<Pos>,
    tt: &'a mut Tt,
    history: Vec<[u32; 2]>,
    killers: Vec<[Pos; 2]>,
    /// Move lists the nodes borrow and give back, so that a node does not
    /// allocate its own.
    move_bufs: Vec<Vec<Pos>>,
    /// The candidates' sort keys, reused by every [`Search::fill_candidates`].
    keys: Vec<i64>,
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: u64,
    pub(super) opts: Options,
}

impl<'a> Search<'a> {
    pub fn new(
        b: Board,
        tt: &'a mut Tt,
        cache: &'a mut ThreatCache,
        stop: &'a AtomicBool,
        opts: Options,
    ) -> Search<'a> {
        let n = b.array_len();
        Search {
            b,
            cache,
            nodes: 0,
            aborted: false,
            threat_move: None,
            tt,
            history: vec![[0; 2]; n],
            killers: vec![[0; 2]; MAX_PLY as usize + 2],
            move_bufs: Vec::new(),
            keys: Vec::new(),
            stop,
            hard: None,
            node_limit: u64::MAX,
            opts,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn board(&self) -> &Board {
        &self.b
    }

    /// Counts a node; every 1024 nodes looks at the clock, the stop flag and the node limit.
    #[inline]
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && !self.aborted {
            let late = self.hard.is_some_and(|h| Instant::now() >= h);
            if late || self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The first move of the shortest win by continuous fours for the side
    /// to move, of at most `max_fours` of its fours (an open four or a
    /// five already on the board count), if one is proven before `hard`
    /// or `node_limit`; `None` otherwise (no such win, or not found in
    /// time: [`Search::aborted`] tells which).
    pub fn vcf_first(
        &mut self,
        max_fours: i32,
        hard: Option<Instant>,
        node_limit: u64,
    ) -> Option<Pos> {
        self.hard = hard;
        self.node_limit = node_limit.max(1);
        for d in 1..=max_fours.max(1) {
            if self.vcf(d, true) {
                return self.threat_move;
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// Whether the last search stopped at a limit before it was done.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Chooses a move for the side to move. `soft`: start no new iteration
    /// after it; `hard`: stop at once. Always returns an empty point if one exists.
    pub fn think(
        &mut self,
        soft: Option<Instant>,
        hard: Option<Instant>,
        node_limit: u64,
    ) -> SearchOutcome {
        self.hard = hard;
        self.node_limit = node_limit.max(1);
        self.tt.new_search();
        let start = Instant::now();
        let me = self.b.to_move();
        let op = other(me);
        let forced =
            |mv: Option<Pos>, score: i32| SearchOutcome::at_once(mv, score, Source::Forced);
        if self.b.is_full() {
            return forced(None, 0);
        }
        if self.b.stone_count() == 0 {
            let c = self.b.pos(self.b.width() / 2, self.b.height() / 2);
            return forced(c, 0);
        }
        if let Some(p) = self.b.find_five(me) {
            return forced(Some(p), WIN - 1);
        }
        if let Some(p) = self.b.find_five(op) {
            if self.b.is_forbidden(p, me) {
                // Renju: black may not block there, so the game is lost;
                // any allowed point will do.
                let mv = self.ordered_candidates(me, 1).first().copied();
                return forced(mv.or_else(|| self.b.first_empty(me)), -(WIN - 2));
            }
            let score = if self.b.count(op, C_FIVE) >= 2 {
                -(WIN - 2)
            } else {
                0
            };
            return forced(Some(p), score);
        }
        if self.b.count(me, C_FLEX4) > 0 {
            return forced(self.find_cat(me, C_FLEX4), WIN - 3);
        }
        let fallback = self.ordered_candidates(me, 0);
        let fallback = SearchOutcome::at_once(
            fallback.first().copied().or_else(|| self.b.first_empty(me)),
            0,
            Source::Forced,
        );

        // Deepening one four at a time finds the shortest VCF, so a won
        // game is closed out without detours.
        let mut vcf_found = false;
        for d in 1..=self.opts.root_vcf {
            if self.vcf(d, true) {
                vcf_found = true;
                break;
            }
            if self.aborted {
                break;
            }
        }
        if vcf_found && let Some(m) = self.threat_move {
            return SearchOutcome::at_once(Some(m), WIN - 10, Source::Vcf);
        }
        if self.aborted {
            return fallback;
        }

        // The root moves.
        let mut roots: Vec<Pos> = Vec::new();
        if self.b.count(op, C_FLEX4) > 0 {
            self.answers_to_open_three(me, op, &mut roots);
        }
        if roots.is_empty() {
            roots = self.ordered_candidates(me, 0);
        }
        if roots.is_empty() {
            return fallback;
        }
        if roots.len() == 1 {
            return SearchOutcome::at_once(Some(roots[0]), 0, Source::Forced);
        }

        if self.opts.root_vct > 0 {
            let saved = self.hard;
            let saved_limit = self.node_limit;
            if self.opts.vct_by_nodes {
                // Its share of the nodes; the hard deadline stays.
                let share = (saved_limit as f64 * self.opts.vct_share) as u64;
                self.node_limit = saved_limit.min(self.nodes.saturating_add(share.max(1)));
            } else {
                let share = match hard {
                    Some(h) => Some(
                        start
                            + h.saturating_duration_since(start)
                                .mul_f64(self.opts.vct_share),
                    ),
                    None => None,
                };
                self.hard = share;
                if hard.is_none() {
                    // Deterministic runs (bench, training games) bound the
                    // VCT by nodes instead: its share of a node limit, or
                    // 200,000 nodes when there is none.
                    self.node_limit = if saved_limit == u64::MAX {
                        self.nodes + 200_000
                    } else {
                        let share = (saved_limit as f64 * self.opts.vct_share) as u64;
                        saved_limit.min(self.nodes.saturating_add(share.max(1)))
                    };
                }
            }
            let won = self.vct(self.opts.root_vct, 12, true);
            self.hard = saved;
            self.node_limit = saved_limit;
            if won && let Some(m) = self.threat_move {
                return SearchOutcome::at_once(Some(m), WIN - 20, Source::Vct);
            }
            let externally =
                self.stop.load(Ordering::Relaxed) || hard.is_some_and(|h| Instant::now() >= h);
            if externally {
                return fallback;
            }
            self.aborted = false;
        }

        if self.opts.defend_vcf && self.b.count_at_least(op, C_FOUR) > 0 {
            let mut safe = Vec::with_capacity(roots.len());
            for &m in &roots {
                self.b.play(m);
                let loses = self.vcf(16, false);
                self.b.undo();
                if self.aborted {
                    break;
                }
                if !loses {
                    safe.push(m);
                }
            }
            if self.aborted {
                return fallback;
            }
            if !safe.is_empty() {
                roots = safe;
            }
            if roots.len() == 1 {
                return SearchOutcome::at_once(Some(roots[0]), 0, Source::Forced);
            }
        }

        // The threat searches above used part of the time: the soft
        // deadline moves back by as much, so the main search keeps its
        // share (the hard deadline still bounds everything).
        let soft = soft.map(|s| {
            let shifted = s + Instant::now().saturating_duration_since(start);
            hard.map_or(shifted, |h| shifted.min(h))
        });
        let mut scores = vec![-INF; roots.len()];
        let mut best = SearchOutcome::at_once(Some(roots[0]), 0, Source::Search);
        for depth in 1..=self.opts.max_depth {
            if depth > 1 && soft.is_some_and(|s| Instant::now() >= s) {
                break;
            }
            let (score, mv, searched) = self.root_search(depth, &mut roots, &mut scores);
            if self.aborted {
                // The first root move is last iteration's best, and a later
                // one only replaces it after a full-window search proved it
                // better, so a partly searched iteration's best is trusted.
                if searched >= 1 && mv.is_some() {
                    if best.depth >= 1 {
                        best.score_before = Some(best.score);
                    }
                    best.mv = mv;
                    best.score = score;
                }
                break;
            }
            best = SearchOutcome {
                mv,
                score,
                depth,
                source: Source::Search,
                score_before: (best.depth >= 1).then_some(best.score),
            };
            if score.abs() >= WIN_MIN {
                break;
            }
        }
        if best.mv.is_none() {
            best.mv = fallback.mv;
        }
        // Only with a clock and no node limit: a search bounded by nodes
        // stays the same on any machine, and has no time left over.
        if self.opts.verify_share > 0.0
            && node_limit == u64::MAX
            && let (Some(h), Some(mv)) = (hard, best.mv)
            && best.score.abs() < WIN_MIN
            && !self.stop.load(Ordering::Relaxed)
        {
            let until = start
                + h.saturating_duration_since(start)
                    .mul_f64(self.opts.verify_share);
            best = self.verify(best, mv, &roots, &scores, until);
        }
        debug_assert!(best.mv.is_none_or(|m| !self.b.is_forbidden(m, me)));
        best
    }

    /// Checks the chosen move `mv` until `until`: the position after it is
    /// searched from the opponent's side, one ply deeper at a time up to
    /// [`VERIFY_PLIES`] past the root's last iteration, with a null window
    /// at a proven win. While the opponent proves one, the
    /// next root move in the last iteration's order is checked instead;
    /// the first move not refuted when the time is up is played (the
    /// chosen one if every move checked was refuted: then all lose). A
    /// move the deepening already scored as lost counts as refuted.
    fn verify(
        &mut self,
        best: SearchOutcome,
        mv: Pos,
        roots: &[Pos],
        scores: &[i32],
        until: Instant,
    ) -> SearchOutcome {
        let saved = self.hard;
        self.hard = Some(saved.map_or(until, |h| h.min(until)));
        self.aborted = false;
        let order: Vec<(Pos, i32)> = std::iter::once((mv, best.score))
            .chain(
                roots
                    .iter()
                    .zip(scores)
                    .filter(|&(&m, _)| m != mv)
                    .map(|(&m, &s)| (m, s)),
            )
            .collect();
        // If every move is refuted, the first choice stays, scored as lost.
        let mut pick = (mv, -(WIN_MIN + 1));
        for &(m, score) in &order {
            if score <= -WIN_MIN && score > -INF {
                // The deepening itself proved this one lost (and the
                // ones after it, in score order, unless never searched).
                continue;
            }
            // A move no iteration reached has no score of its own.
            let score = if score == -INF { best.score } else { score };
            // A move left unchecked when time is up is still better than
            // one shown to lose.
            if self.aborted
                || Instant::now() >= until
                || !self.opponent_wins_after(m, best.depth + VERIFY_PLIES)
            {
                pick = (m, score);
                break;
            }
        }
        self.hard = saved;
        self.aborted = false;
        SearchOutcome {
            mv: Some(pick.0),
            score: pick.1,
            ..best
        }
    }

    /// Whether the opponent proves a win after `m`, searching one ply
    /// deeper at a time up to `max_depth` with a null window at a win.
    /// False if the clock stops it first.
    fn opponent_wins_after(&mut self, m: Pos, max_depth: i32) -> bool {
        self.b.play(m);
        let mut wins = false;
        for depth in 1..=max_depth {
            let v = self.pvs(depth, 1, WIN_MIN - 1, WIN_MIN);
            if self.aborted || v <= -WIN_MIN {
                break;
            }
            if v >= WIN_MIN {
                wins = true;
                break;
            }
        }
        self.b.undo();
        wins
    }

    /// One iteration at the root: (best score, best move, moves searched).
    fn root_search(
        &mut self,
        depth: i32,
        roots: &mut [Pos],
        scores: &mut [i32],
    ) -> (i32, Option<Pos>, usize) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best_mv = None;
        let mut searched = 0;
        let me = self.b.to_move();
        let op = other(me);
        for i in 0..roots.len() {
            let m = roots[i];
            // Late quiet root moves are first tried shallower, as inside the tree.
            let quiet = self.b.cat(m, me) < C_THREE && self.b.cat(m, op) < C_THREE;
            let r = if depth >= 3 && quiet && i >= 4 {
                1 + (i >= 12) as i32
            } else {
                0
            };
            self.b.play(m);
            let mut v;
            if i == 0 {
                v = -self.pvs(depth - 1, 1, -beta, -alpha);
            } else {
                v = -self.pvs(depth - 1 - r, 1, -alpha - 1, -alpha);
                if v > alpha && r > 0 && !self.aborted {
                    v = -self.pvs(depth - 1, 1, -alpha - 1, -alpha);
                }
                if v > alpha && !self.aborted {
                    v = -self.pvs(depth - 1, 1, -beta, -alpha);
                }
            }
            self.b.undo();
            if self.aborted {
                break;
            }
            searched += 1;
            scores[i] = v;
            if v > alpha {
                alpha = v;
                best_mv = Some(m);
            }
        }
        // Best first for the next iteration; unsearched moves keep their order.
        let mut order: Vec<(i32, usize)> = (0..roots.len())
            .map(|i| (if i < searched { scores[i] } else { -INF - 1 }, i))
            .collect();
        order.sort_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
        let new_roots: Vec<Pos> = order.iter().map(|&(_, i)| roots[i]).collect();
        let new_scores: Vec<i32> = order.iter().map(|&(_, i)| scores[i]).collect();
        roots.copy_from_slice(&new_roots);
        scores.copy_from_slice(&new_scores);
        (alpha, best_mv, searched)
    }

    /// What every node of the tree checks first: out of time, a five to
    /// make, two fives to block, a full board, the deepest ply. `Err`
    /// holds such a node's score; `Ok` the number of fives the opponent
    /// threatens (0 or 1).
    /// The position's key in the transposition table (the side to move salted in).
    fn tt_key(&self) -> u64 {
        self.b.hash() ^ if self.b.to_move() == 2 { SIDE_SALT } else { 0 }
    }

    fn node_prelude(&mut self, ply: i32) -> Result<u16, i32> {
        if self.tick() {
            return Err(0);
        }
        let me = self.b.to_move();
        let op = other(me);
        if self.b.count(me, C_FIVE) > 0 {
            return Err(WIN - ply - 1);
        }
        let opf = self.b.count(op, C_FIVE);
        if opf >= 2 {
            return Err(-(WIN - ply - 2));
        }
        if self.b.is_full() {
            return Err(0);
        }
        if ply >= MAX_PLY {
            return Err(self.evaluate());
        }
        Ok(opf)
    }

    fn pvs(&mut self, depth: i32, ply: i32, alpha: i32, beta: i32) -> i32 {
        let opf = match self.node_prelude(ply) {
            Ok(opf) => opf,
            Err(v) => return v,
        };
        let me = self.b.to_move();
        let op = other(me);
        // Mate distance pruning: no line from here beats a win already in hand.
        let alpha0 = alpha;
        if alpha >= WIN - ply - 1 {
            return alpha;
        }
        let pv = beta - alpha > 1;
        let mut moves: Vec<Pos> = self.move_bufs.pop().unwrap_or_default();
        moves.clear();
        let new_depth = match self.forced_moves(opf, depth, ply, alpha, beta, &mut moves) {
            ControlFlow::Break(v) => return v,
            // Answering a four is not a real choice: it is searched at the
            // same depth (the four itself cost the ply).
            ControlFlow::Continue(true) => depth,
            ControlFlow::Continue(false) => depth - 1,
        };

        let key = self.tt_key();
        let mut tt_move: Pos = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            let s = from_tt(e.score as i32, ply);
            if !pv && e.depth as i32 >= depth && cuts(e.bound, s, alpha, beta) {
                return s;
            }
        }

        // A quiet node (no four or open three to answer), past the table.
        if moves.is_empty() {
            self.double_threat_answers(me, op, &mut moves);
        }
        let mut pruned_after = usize::MAX;
        if moves.is_empty() {
            pruned_after = match self.quiet_moves(depth, pv, beta, &mut moves) {
                ControlFlow::Break(v) => return v,
                ControlFlow::Continue(n) => n,
            };
        } else if moves.len() > 1 {
            let h = &self.history;
            moves.sort_by_key(|&p| {
                std::cmp::Reverse(
                    self.order_score(p, me, op) + (h[p as usize][me as usize - 1] >> 4) as i32,
                )
            });
        }
        self.killers_and_table_move_first(ply, tt_move, &mut moves);
        if let Some((a, b)) = self.opts.move_count
            && !pv
            && depth <= 8
            && pruned_after != usize::MAX
        {
            // Only in quiet nodes (where `pruned_after` was set).
            let lim = (a + (depth as f64).powf(b)) as usize;
            pruned_after = pruned_after.min(lim.max(1));
        }
        let Some((best, best_mv)) =
            self.search_moves(&moves, pruned_after, depth, new_depth, ply, alpha, beta)
        else {
            return 0;
        };
        let bound = bound_of(best, alpha0, beta);
        self.tt.store(key, best_mv, to_tt(best, ply), depth, bound);
        self.move_bufs.push(moves);
        best
    }

    /// The forced cases of a node, before the table is asked: a five to
    /// block (`Continue(true)`: searched at the same depth), an open four
    /// or a double threat that wins, an open three to answer (past the
    /// horizon too, down to the floor), or the horizon itself. `Break`
    /// holds the node's score when that decides it; `moves` gets the
    /// forced moves, and stays empty in a quiet node.
    fn forced_moves(
        &mut self,
        opf: u16,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
        moves: &mut Vec<Pos>,
    ) -> ControlFlow<i32, bool> {
        let me = self.b.to_move();
        let op = other(me);
        if opf == 1 {
            let Some(f) = self.b.find_five(op) else {
                return ControlFlow::Break(0);
            };
            if self.b.is_forbidden(f, me) {
                // Renju: black may not block there.
                return ControlFlow::Break(-(WIN - ply - 2));
            }
            moves.push(f);
            return ControlFlow::Continue(true);
        }
        if self.b.count(me, C_FLEX4) > 0 {
            return ControlFlow::Break(WIN - ply - 3);
        }
        if self.double_threat_wins(me, op) {
            return ControlFlow::Break(WIN - ply - 5);
        }
        if self.b.count(op, C_FLEX4) > 0 {
            // An open three must be answered even at the horizon (a threat
            // extension): the answers are few and each removes the threat.
            // Not without end: past the floor the leaf's VCF and the
            // evaluation judge it; with the quiescence search, the horizon
            // itself (the evaluation's threat states price the three).
            if self.opts.qsearch && depth <= 0 {
                return ControlFlow::Break(self.qsearch(ply, alpha, beta, 0));
            }
            if depth <= self.opts.three_floor {
                return ControlFlow::Break(self.leaf(ply, beta));
            }
            self.answers_to_open_three(me, op, moves);
            if moves.is_empty() {
                return ControlFlow::Break(-(WIN - ply - 4));
            }
        } else if depth <= 0 {
            if self.opts.qsearch {
                return ControlFlow::Break(self.qsearch(ply, alpha, beta, 0));
            }
            return ControlFlow::Break(self.leaf(ply, beta));
        }
        ControlFlow::Continue(false)
    }

    /// In a node with nothing forced: when the opponent has a four-three
    /// or double-three point and we have no four, the moves that take them
    /// away (and, against double threes only, our own threes).
    fn double_threat_answers(&mut self, me: Color, op: Color, moves: &mut Vec<Pos>) {
        if !self.opts.defend_double_threats
            || self.b.count_at_least(me, C_FOUR) != 0
            || (self.b.count(op, C_FOUR_THREE) == 0 && self.b.count(op, C_THREE_THREE) == 0)
        {
            return;
        }
        self.double_threat_defences(op, moves);
        if !moves.is_empty() && self.b.count(op, C_FOUR_THREE) == 0 {
            for &p in self.b.points() {
                if self.b.is_empty(p) && self.b.cat(p, me) >= C_THREE && !moves.contains(&p) {
                    moves.push(p);
                }
            }
        }
    }

    /// The moves of a quiet node, best-looking first, and how many of them
    /// are searched before the rest is pruned; `Break` with a score when
    /// the static cut stands pat or there is no move.
    fn quiet_moves(
        &mut self,
        depth: i32,
        pv: bool,
        beta: i32,
        moves: &mut Vec<Pos>,
    ) -> ControlFlow<i32, usize> {
        let me = self.b.to_move();
        let op = other(me);
        let frontier = self.opts.frontier_pruning && !pv;
        let width = match depth {
            1 if frontier => 10,
            2 if frontier => 16,
            _ => self.opts.max_width,
        };
        if !pv && depth <= 3 && self.opts.static_cut > 0 {
            let e = self.evaluate();
            // Nothing to answer here, so standing pat is safe enough
            // this close to the horizon when it is far above beta
            // (the threat searches at the leaves and the root catch
            // what it misses; in matches it gained more than it lost).
            if e - self.opts.static_cut * depth >= beta {
                return ControlFlow::Break(e);
            }
        }
        self.fill_candidates(me, 0, moves);
        let mut pruned_after = width.min(moves.len());
        if frontier && depth <= 2 && pruned_after > 4 {
            // Quiet points far weaker than the best are not worth a look this close to the horizon.
            let b = &self.b;
            let value = |p: Pos| b.score(p, me) + b.score(p, op);
            // The learned ordering does not always put the best-scoring
            // point first, so the bar is set by the best of the slice.
            let top = if self.learned_order() {
                moves[..pruned_after]
                    .iter()
                    .map(|&p| value(p))
                    .max()
                    .unwrap_or(0)
            } else {
                value(moves[0])
            };
            pruned_after = 4 + moves[4..pruned_after]
                .iter()
                .take_while(|&&p| value(p) * 4 >= top)
                .count();
        }
        if moves.is_empty() {
            return ControlFlow::Break(0);
        }
        ControlFlow::Continue(pruned_after)
    }

    /// Killers (quiet cutoff moves from this ply) right behind the
    /// strongest shapes, then the table's move first of all.
    fn killers_and_table_move_first(&self, ply: i32, tt_move: Pos, moves: &mut [Pos]) {
        let killers = self.killers[ply as usize];
        for k in killers.iter().rev() {
            if *k != 0
                && let Some(i) = moves.iter().position(|&m| m == *k)
                && i > 2
            {
                moves[2..=i].rotate_right(1);
            }
        }
        if tt_move != 0
            && let Some(i) = moves.iter().position(|&m| m == tt_move)
        {
            moves[..=i].rotate_right(1);
        }
    }

    /// The recursive step: each move in turn, the first with the full
    /// window, the others with a null window (reduced when late and quiet)
    /// and searched again when they beat alpha; stops at a cutoff, and
    /// after `pruned_after` moves unless all so far lose. The best score
    /// and move; `None` when the search was stopped.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        moves: &[Pos],
        pruned_after: usize,
        depth: i32,
        new_depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Pos)> {
        let me = self.b.to_move();
        let op = other(me);
        let mut best = -INF;
        let mut best_mv: Pos = moves[0];
        for (i, &m) in moves.iter().enumerate() {
            // The pruned moves are only looked at when all the others lose:
            // a loss is not claimed on the strength of a pruned search.
            if i >= pruned_after && best > -WIN_MIN {
                break;
            }
            let quiet = self.b.cat(m, me) < C_THREE && self.b.cat(m, op) < C_THREE;
            self.b.play(m);
            let mut v;
            if i == 0 {
                v = -self.pvs(new_depth, ply + 1, -beta, -alpha);
            } else {
                let r = self.reduction(depth, new_depth, i, quiet);
                v = -self.pvs(new_depth - r, ply + 1, -alpha - 1, -alpha);
                if v > alpha && r > 0 && !self.aborted {
                    v = -self.pvs(new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.pvs(new_depth, ply + 1, -beta, -alpha);
                }
            }
            self.b.undo();
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_mv = m;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.note_cutoff(ply, m, depth, me);
                        break;
                    }
                }
            }
        }
        Some((best, best_mv))
    }

    /// How many plies the `i`-th move (from 0, not the first) of a node
    /// is reduced by: late quiet moves far enough from the horizon.
    fn reduction(&self, depth: i32, new_depth: i32, i: usize, quiet: bool) -> i32 {
        if depth < 2 || !quiet || i < 2 {
            return 0;
        }
        let mut r = 1 + (i >= 4) as i32 + (depth >= 4 && i >= 9) as i32;
        if self.opts.lmr_log > 0 {
            // Deeper for late moves far from the horizon: the
            // logarithmic part leaves the move one ply, and
            // never reduces less than the fixed steps.
            let l =
                (depth as f64).ln() * ((i + 1) as f64).ln() * f64::from(self.opts.lmr_log) / 100.0;
            r = r.min(new_depth).max((l as i32).min(new_depth - 1));
        }
        r
    }

    /// A cutoff by `m`: it becomes this ply's first killer, and its
    /// history grows with the depth.
    fn note_cutoff(&mut self, ply: i32, m: Pos, depth: i32, me: Color) {
        let k = &mut self.killers[ply as usize];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let bonus = (depth.max(1) * depth.max(1)) as u32;
        let h = &mut self.history[m as usize][me as usize - 1];
        *h = h.saturating_add(bonus);
    }

    /// The quiescence search at the horizon ([`Options::qsearch`]): a five
    /// wins, the opponent's four is blocked (at no cost in depth), an open
    /// four point wins; otherwise the side to move stands pat on its
    /// static evaluation or plays a four, met by its one block, and goes
    /// on from there, up to [`QSEARCH_FOURS`] fours deep. Only fours near
    /// its last stone (within two points, or four along a line) are
    /// tried, and after the first only those that make a three or two as
    /// well: a line of fours worth following is one that builds where it
    /// began. An open three of the opponent's is not answered here: the
    /// evaluation's threat states price it.
    fn qsearch(&mut self, ply: i32, mut alpha: i32, beta: i32, qd: i32) -> i32 {
        let opf = match self.node_prelude(ply) {
            Ok(opf) => opf,
            Err(v) => return v,
        };
        let me = self.b.to_move();
        let op = other(me);
        if opf == 1 {
            let Some(f) = self.b.find_five(op) else {
                return 0;
            };
            if self.b.is_forbidden(f, me) {
                return -(WIN - ply - 2);
            }
            self.b.play(f);
            let v = -self.qsearch(ply + 1, -beta, -alpha, qd);
            self.b.undo();
            return v;
        }
        if self.b.count(me, C_FLEX4) > 0 {
            return WIN - ply - 3;
        }
        if self.double_threat_wins(me, op) {
            return WIN - ply - 5;
        }
        let e = self.evaluate();
        if e >= beta {
            return e;
        }
        if qd >= QSEARCH_FOURS || self.b.count_at_least(me, C_FOUR) == 0 {
            return e;
        }
        let mut best = e;
        if e > alpha {
            alpha = e;
        }
        let mut fours = Vec::new();
        self.four_moves(me, &mut fours);
        let h = self.b.history();
        let last = if h.len() >= 2 {
            Some(h[h.len() - 2])
        } else {
            None
        };
        // A plain four (no three or two beside it) only as the first.
        let plain_ok = qd == 0;
        let b = &self.b;
        fours.retain(|&m| {
            if !plain_ok && b.cat(m, me) < C_FOUR_PLUS {
                return false;
            }
            match last {
                Some(l) => {
                    let (x0, y0) = b.xy(l);
                    let (x1, y1) = b.xy(m);
                    let dx = (x1 as i32 - x0 as i32).abs();
                    let dy = (y1 as i32 - y0 as i32).abs();
                    let m_ = dx.max(dy);
                    m_ <= 2 || ((dx == 0 || dy == 0 || dx == dy) && m_ <= 4)
                }
                None => true,
            }
        });
        for m in fours {
            self.b.play(m);
            let v = -self.qsearch(ply + 1, -beta, -alpha, qd + 1);
            self.b.undo();
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// A quiet leaf: a short VCF for the side to move, else the static
    /// evaluation. With `leaf_stand_pat`, an evaluation at or above beta
    /// is returned at once: the node fails high either way, and most
    /// leaves in a null-window search do (it halves the nodes at depth 9).
    fn leaf(&mut self, ply: i32, beta: i32) -> i32 {
        let me = self.b.to_move();
        let early = self.opts.leaf_stand_pat.then(|| self.evaluate());
        if let Some(e) = early
            && e >= beta
        {
            return e;
        }
        if self.opts.leaf_vcf > 0
            && self.b.count_at_least(me, C_FOUR) > 0
            && self.vcf(self.opts.leaf_vcf, false)
        {
            return WIN - ply - 2 * self.opts.leaf_vcf - 1;
        }
        early.unwrap_or_else(|| self.evaluate())
    }

    /// Static evaluation for the side to move: the difference of the two
    /// colours' point scores, plus the threats that win by force when the
    /// opponent has no four to interpose.
    /// With [`Options::quick_wins`]: whether the side to move (no five
    /// of the opponent's to block) wins by a four-three or a double three.
    /// The opponent has no point that makes a four, so it has no four to
    /// interpose and no open three; the block of our four or of one of
    /// our threes lies on that threat's line, which meets the other
    /// threat's line only at our stone, and makes no four of its own
    /// (that point would have been a four point). Our open four follows,
    /// then five: a win in five plies.
    fn double_threat_wins(&self, me: Color, op: Color) -> bool {
        self.opts.quick_wins
            && !self.b.is_renju()
            && (self.b.count(me, C_FOUR_THREE) > 0 || self.b.count(me, C_THREE_THREE) > 0)
            && self.b.count_at_least(op, C_FOUR) == 0
    }

    pub(super) fn evaluate(&self) -> i32 {
        let me = self.b.to_move();
        let op = other(me);
        // Double threats: our four-three or double three that the opponent
        // cannot stop, and the opponent's winning points for its next move
        // (one costs us the move, several are usually lost).
        let t = learned::bonus_terms(&self.b, me);
        // The side to move's shapes are worth more: it gets to use them first.
        let hand = self.b.sum(me) * self.opts.tempo_weight / 100 - self.b.sum(op)
            + 3000 * t[0]
            + 2000 * t[1]
            - 300 * t[2];
        let mut s = if self.opts.learned_eval && !self.b.is_renju() {
            // Half the hand-set evaluation, half the learned one: in matches
            // the mix played better than either (docs/gomoku-engine.md).
            let weights = self.b.weights();
            let w = &weights.bonus;
            let fitted = self.b.learned_sum(me, true)
                + self.b.learned_sum(op, false)
                + w[0] * t[0]
                + w[1] * t[1]
                + w[2] * t[2]
                + weights.threat[learned::threat_index(&self.b, me)];
            (hand + fitted) / 2
        } else {
            hand
        };
        if self.opts.eval_noise > 0 {
            s += self.noise(me);
        }
        s.clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }

    /// The evaluation error for this position and side to move, from
    /// `-eval_noise` to `eval_noise`: a hash of the position and the seed,
    /// so the same position is misjudged the same way within a search.
    fn noise(&self, me: Color) -> i32 {
        let n = self.opts.eval_noise as u64;
        let mut h = self.b.hash() ^ self.opts.noise_seed ^ if me == 2 { SIDE_SALT } else { 0 };
        // splitmix64's finaliser.
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        (h % (2 * n + 1)) as i32 - n as i32
    }

    /// Whether moves are ordered by the learned weights.
    #[inline]
    fn learned_order(&self) -> bool {
        self.opts.learned_order && !self.b.is_renju()
    }

    /// How promising the empty point `p` looks for `me` before any search:
    /// the learned ordering's weights of the two colours' shapes there, or
    /// the hand-set attack plus defence scores.
    #[inline]
    fn order_score(&self, p: Pos, me: Color, op: Color) -> i32 {
        self.order_score_in(self.order_table(), p, me, op)
    }

    /// The learned ordering's table when moves are ordered by it.
    #[inline]
    fn order_table(&self) -> Option<&'static [[i16; 2]]> {
        self.learned_order().then(learned::order_by_combo)
    }

    /// [`Search::order_score`] with the table chosen once by the caller.
    #[inline]
    fn order_score_in(&self, t: Option<&[[i16; 2]]>, p: Pos, me: Color, op: Color) -> i32 {
        let b = &self.b;
        match t {
            Some(t) => t[b.combo(p, me) as usize][0] as i32 + t[b.combo(p, op) as usize][1] as i32,
            None => b.score(p, me) + b.score(p, op),
        }
    }

    /// Candidate moves near the stones, best first by attack plus defence
    /// value and history; at most `limit` of them (0 = all). Never a point
    /// forbidden to `me`.
    pub(super) fn ordered_candidates(&mut self, me: Color, limit: usize) -> Vec<Pos> {
        let mut out = Vec::new();
        self.fill_candidates(me, limit, &mut out);
        out
    }

    /// [`Search::ordered_candidates`] into `out` (cleared first), without
    /// allocating once the buffers have grown: each point's sort key packs
    /// its score (higher first) and its index (lower first on a tie) into
    /// one integer, a total order, so an unstable sort gives the one order.
    pub(super) fn fill_candidates(&mut self, me: Color, limit: usize, out: &mut Vec<Pos>) {
        let op = other(me);
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let b = &self.b;
        let t = self.order_table();
        let side = me as usize - 1;
        for &p in b.points() {
            if !b.may_play(p, me) || !b.is_near(p) {
                continue;
            }
            let mut s = self.order_score_in(t, p, me, op);
            if t.is_none() && b.cat(p, me) == C_NONE && b.cat(p, op) == C_NONE {
                // A point that makes no shape for either colour a little less.
                s -= 5;
            }
            s += (self.history[p as usize][side] >> 4).min(200) as i32;
            keys.push((-i64::from(s) << 16) | i64::from(p));
        }
        keys.sort_unstable();
        if limit > 0 {
            keys.truncate(limit);
        }
        out.clear();
        out.extend(keys.iter().map(|&k| (k & 0xFFFF) as Pos));
        self.keys = keys;
    }
}

/// Whether a table entry's score `s` with this bound settles a node
/// searched with this window.
fn cuts(bound: u8, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        BOUND_EXACT => true,
        BOUND_LOWER => s >= beta,
        _ => s <= alpha,
    }
}

/// The bound a node's best score is, for the window it was searched with.
fn bound_of(best: i32, alpha0: i32, beta: i32) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if best > alpha0 {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_MIN {
        score + ply
    } else if score <= -WIN_MIN {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_MIN {
        score - ply
    } else if score <= -WIN_MIN {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests;
