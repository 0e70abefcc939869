//! The learned evaluation: weights per point shape, fitted to game outcomes.
//!
//! A point's *shape* for a colour is the multiset of its four directional
//! patterns (order does not matter: 715 shapes of four levels out of ten).
//! The evaluation of a position, seen by the side to move, is the sum over
//! the empty points of a weight for the side to move's shape there (the
//! "own" table) and a weight for the opponent's shape there (the "other"
//! table, mostly negative: the opponent's shapes count against the side to
//! move, and less than its own, since it has to wait to use them), plus
//! three terms for the double threats the hand-set evaluation also scores,
//! plus one weight for the position's *threat state* (see
//! [`threat_index`]): how many fours, open threes and winning points each
//! side could make, taken together, since who has the initiative is not a
//! sum over points.
//!
//! The weights are fitted by `inarow train gomoku-eval` (see
//! `src/cli/train`) to the outcomes of self-play games from the quiet
//! positions in them, and embedded from `eval-weights.txt`. The board keeps
//! the two sums per colour incrementally, like its other sums.

use std::sync::OnceLock;

use super::board::{Board, Color, other};
use super::pattern::{
    C_FIVE, C_FLEX4, C_FOUR, C_FOUR_PLUS, C_FOUR_THREE, C_THREE, C_THREE_PLUS, C_THREE_THREE,
    LEVELS,
};
// The weights and the numbering of shapes and threat states, under the
// names the trainer and the tests know them by.
pub use super::weights::{
    BONUSES, COMBOS, ORDER_SHIPPED, SHAPES, SHIPPED, THREAT_RANGES, THREATS, Weights, WeightsError,
    combo_of, digits_of_threat, index_of_digits, order_by_combo, shape_levels, shape_of_combo,
};

/// The threat state's digits for the side to move `me`: its four points
/// (0, 1, 2 or more), its open-three points (0, 1, 2 or more), whether it
/// has a four-three or double-three point; the opponent's open-four points
/// (an open three of its on the board, or a double four: 0, 1, 2 or more),
/// its four points and its open-three points (0, 1, 2 or more), whether
/// it has a four-three or double-three point.
pub fn threat_digits(b: &Board, me: Color) -> [u8; 7] {
    let op = other(me);
    let two = |n: u16| n.min(2) as u8;
    let fours = |c| b.count(c, C_FOUR) + b.count(c, C_FOUR_PLUS);
    let threes = |c| b.count(c, C_THREE) + b.count(c, C_THREE_PLUS);
    let wins = |c| u8::from(b.count(c, C_FOUR_THREE) + b.count(c, C_THREE_THREE) > 0);
    [
        two(fours(me)),
        two(threes(me)),
        wins(me),
        two(b.count(op, C_FLEX4)),
        two(fours(op)),
        two(threes(op)),
        wins(op),
    ]
}

/// The threat state as an index below [`THREATS`].
pub fn threat_index(b: &Board, me: Color) -> usize {
    index_of_digits(threat_digits(b, me))
}

/// What the fit sees of one position: per shape, how many empty points
/// have it for the side to move (`own`) and for the opponent (`other`),
/// and the three extra terms.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// (shape, count), shapes other than the empty one (all levels dead).
    pub own: Vec<(u16, u16)>,
    pub other: Vec<(u16, u16)>,
    pub bonus: [f32; BONUSES],
    /// The threat state ([`threat_index`]).
    pub threat: u16,
    /// Extra features, (index, count), of `gomoku-eval --experiment`
    /// (empty otherwise).
    pub extra: Vec<(u16, u16)>,
}

/// The three extra terms for the side to move `me` (as the evaluation
/// scores them): it has a four-three point and the opponent no four; it has
/// a double three and the opponent neither a four nor an open-four point;
/// and, when it has no four, the opponent's winning points (four-threes
/// and double threes), at most three.
pub fn bonus_terms(b: &Board, me: Color) -> [i32; BONUSES] {
    let op = other(me);
    let my_fours = b.count_at_least(me, C_FOUR);
    let op_fours = b.count_at_least(op, C_FOUR);
    let mut t = [0; BONUSES];
    if op_fours == 0 {
        if b.count(me, C_FOUR_THREE) > 0 {
            t[0] = 1;
        } else if b.count(me, C_THREE_THREE) > 0 && b.count(op, C_FLEX4) == 0 {
            t[1] = 1;
        }
    }
    let op_wins = (b.count(op, C_FOUR_THREE) + b.count(op, C_THREE_THREE)) as i32;
    if op_wins > 0 && my_fours == 0 {
        t[2] = op_wins.min(3);
    }
    t
}

/// Per-shape counts as (shape, count) pairs, leaving out the empty shape
/// (all levels dead) and the shapes no point has.
fn sparse(counts: &[u16]) -> Vec<(u16, u16)> {
    counts
        .iter()
        .enumerate()
        .skip(1)
        .filter(|&(_, &n)| n > 0)
        .map(|(s, &n)| (s as u16, n))
        .collect()
}

/// The position as the fit sees it, or `None` when it is not quiet: a
/// five is on the board for either side, or the side to move has an
/// open-four point (the search decides those, never the evaluation).
pub fn sample(b: &Board) -> Option<Sample> {
    let me = b.to_move();
    let op = other(me);
    if b.count(me, C_FIVE) > 0 || b.count(op, C_FIVE) > 0 || b.count(me, C_FLEX4) > 0 {
        return None;
    }
    let table = shape_of_combo();
    let mut own = vec![0u16; SHAPES];
    let mut oth = vec![0u16; SHAPES];
    for &p in b.points() {
        if !b.is_empty(p) {
            continue;
        }
        let pats = |c| [0, 1, 2, 3].map(|d| b.pat(p, c, d));
        own[table[combo_of(pats(me))] as usize] += 1;
        oth[table[combo_of(pats(op))] as usize] += 1;
    }
    Some(Sample {
        own: sparse(&own),
        other: sparse(&oth),
        bonus: bonus_terms(b, me).map(|x| x as f32),
        threat: threat_index(b, me) as u16,
        extra: Vec::new(),
    })
}

/// Finer directional levels than the board's ten, for the evaluation
/// only: an open two, a three and an open three are told apart by how
/// many points of their line raise them one step (an open two by the
/// open threes it can make: two or fewer, three, four or more; a three by
/// its fours and an open three by its open fours: one, or two or more;
/// under freestyle a three always has two). Only `gomoku-eval
/// --experiment` reads them: they did not predict outcomes better.
pub const FINE_LEVELS: usize = 14;
/// Multisets of four fine levels.
pub const FINE_SHAPES: usize = 2380;

/// The fine level `c` makes by playing the empty point `p` along `d`
/// (freestyle, as the games `gomoku-eval` reads are played).
pub fn fine_pat(b: &Board, p: super::board::Pos, c: Color, d: usize) -> u8 {
    super::pattern::fine_pattern(b.key(p, d), c)
}

/// The fine shape (index below [`FINE_SHAPES`]) of four fine levels.
pub fn fine_shape(mut l: [u8; 4]) -> usize {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let n = FINE_LEVELS;
        let mut id = vec![u16::MAX; n * n * n * n];
        let mut next = 0u16;
        for a in 0..n {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        id[((a * n + b) * n + c) * n + d] = next;
                        next += 1;
                    }
                }
            }
        }
        debug_assert_eq!(next as usize, FINE_SHAPES);
        id
    });
    l.sort_unstable_by(|a, b| b.cmp(a));
    let n = FINE_LEVELS;
    t[((l[0] as usize * n + l[1] as usize) * n + l[2] as usize) * n + l[3] as usize] as usize
}

/// [`sample`] with the fine directional levels counted as extra
/// features: the side to move's (0..14) and the opponent's (14..28).
pub fn sample_fine_levels(b: &Board) -> Option<Sample> {
    let mut s = sample(b)?;
    let me = b.to_move();
    let op = other(me);
    let mut n = [0u16; 2 * FINE_LEVELS];
    for &p in b.points() {
        if !b.is_empty(p) {
            continue;
        }
        for d in 0..4 {
            n[fine_pat(b, p, me, d) as usize] += 1;
            n[FINE_LEVELS + fine_pat(b, p, op, d) as usize] += 1;
        }
    }
    s.extra = n
        .iter()
        .enumerate()
        .filter(|&(i, &k)| k > 0 && i % FINE_LEVELS != 0)
        .map(|(i, &k)| (i as u16, k))
        .collect();
    Some(s)
}

/// [`sample`] with shapes of four fine levels instead (indices below
/// [`FINE_SHAPES`]).
pub fn sample_fine_shapes(b: &Board) -> Option<Sample> {
    let mut s = sample(b)?;
    let me = b.to_move();
    let op = other(me);
    let mut own = vec![0u16; FINE_SHAPES];
    let mut oth = vec![0u16; FINE_SHAPES];
    for &p in b.points() {
        if !b.is_empty(p) {
            continue;
        }
        let f = |c| [0, 1, 2, 3].map(|d| fine_pat(b, p, c, d));
        own[fine_shape(f(me))] += 1;
        oth[fine_shape(f(op))] += 1;
    }
    s.own = sparse(&own);
    s.other = sparse(&oth);
    Some(s)
}

const _: () = assert!(LEVELS == 10);

#[cfg(test)]
mod tests {
    use super::super::pattern::Pat;
    use super::*;

    #[test]
    fn fine_levels_refine_the_boards_levels_and_count_the_ways_up() {
        use super::super::Rule;
        use super::super::pattern::{Tables, fine_pattern};
        // Every line key: the fine level falls back to the board's level.
        const COARSE: [Pat; FINE_LEVELS] = [0, 1, 2, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 9];
        let t = Tables::get(Rule::Freestyle);
        for key in (0..1u32 << 20).step_by(7) {
            for c in [1, 2] {
                let f = fine_pattern(key, c);
                assert_eq!(
                    COARSE[f as usize],
                    t.pattern(key, c),
                    "key {key:#x} colour {c}"
                );
            }
        }
        // Black's stones on row 7; white's far away in a corner.
        let board = |black: &[(usize, usize)]| {
            let mut b = Board::new(15, 15, Rule::Freestyle);
            let white = [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14)];
            for (i, &(x, y)) in black.iter().enumerate() {
                b.play(b.pos(x, y).unwrap());
                b.play(b.pos(white[i].0, white[i].1).unwrap());
            }
            b
        };
        let fine = |b: &Board, x, y| fine_pat(b, b.pos(x, y).unwrap(), 1, 0);
        // Two stones, then a third beside them: an open three with an open
        // four at either end (fine 10).
        let b = board(&[(6, 7), (7, 7)]);
        assert_eq!(fine(&b, 8, 7), 10);
        // Split: X X _ p makes an open three whose only open four fills
        // the gap (fine 9).
        let b = board(&[(5, 7), (6, 7)]);
        assert_eq!(fine(&b, 8, 7), 9);
        // Against the edge: a closed three, with two four points (a
        // three within five points always has two under freestyle, so
        // fine level 7 does not occur there).
        let b = board(&[(0, 7), (1, 7)]);
        assert_eq!(fine(&b, 2, 7), 8);
        let b = board(&[(0, 7), (2, 7)]);
        assert_eq!(b.pat(b.pos(4, 7).unwrap(), 1, 0), super::super::pattern::B3);
        assert_eq!(fine(&b, 4, 7), 8);
        // One stone in the open: a second beside it is an open two with
        // four ways to an open three (fine 6).
        let b = board(&[(7, 7)]);
        assert_eq!(fine(&b, 8, 7), 6);
        assert_eq!(fine_shape([10, 0, 3, 6]), fine_shape([6, 3, 10, 0]));
        assert_ne!(fine_shape([10, 0, 3, 6]), fine_shape([9, 0, 3, 6]));
        assert_eq!(fine_shape([13, 13, 13, 13]), FINE_SHAPES - 1);
    }

    #[test]
    fn fine_samples_refine_the_shipped_sample() {
        use super::super::Rule;
        const COARSE: [Pat; FINE_LEVELS] = [0, 1, 2, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 9];
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 6),
            (7, 6),
            (9, 9),
            (4, 10),
            (7, 9),
        ] {
            b.play(b.pos(x, y).unwrap());
        }
        let base = sample(&b).unwrap();
        // Fine shapes: the same points, each fine shape read back as its
        // coarse shape gives the shipped counts.
        let fine = sample_fine_shapes(&b).unwrap();
        let n = FINE_LEVELS;
        let mut levels_of = vec![[0u8; 4]; FINE_SHAPES];
        for a in 0..n as u8 {
            for b2 in 0..=a {
                for c in 0..=b2 {
                    for d in 0..=c {
                        levels_of[fine_shape([a, b2, c, d])] = [a, b2, c, d];
                    }
                }
            }
        }
        let coarse = |v: &[(u16, u16)]| {
            let mut counts = vec![0u16; SHAPES];
            for &(f, k) in v {
                let l = levels_of[f as usize].map(|x| COARSE[x as usize]);
                counts[shape_of_combo()[combo_of(l)] as usize] += k;
            }
            sparse(&counts)
        };
        assert_eq!(coarse(&fine.own), base.own);
        assert_eq!(coarse(&fine.other), base.other);
        assert_eq!((fine.threat, fine.bonus), (base.threat, base.bonus));
        // Black (to move) has a lone stone at (4, 10): beside it, an
        // open two with four ways to an open three (fine level 6).
        assert!(
            fine.own
                .iter()
                .any(|&(f, _)| levels_of[f as usize].contains(&6))
        );
        // Fine levels: per side, every empty point's four directions
        // counted once (the dead ones left out).
        let lv = sample_fine_levels(&b).unwrap();
        assert_eq!((&lv.own, &lv.other), (&base.own, &base.other));
        let empty = b.points().iter().filter(|&&p| b.is_empty(p)).count();
        let dead = |side: usize| {
            let c = if side == 0 {
                b.to_move()
            } else {
                other(b.to_move())
            };
            b.points()
                .iter()
                .filter(|&&p| b.is_empty(p))
                .map(|&p| (0..4).filter(|&d| b.pat(p, c, d) == 0).count())
                .sum::<usize>()
        };
        for side in 0..2 {
            let sum: usize = lv
                .extra
                .iter()
                .filter(|&&(i, _)| i as usize / FINE_LEVELS == side)
                .map(|&(_, k)| k as usize)
                .sum();
            assert_eq!(sum + dead(side), 4 * empty, "side {side}");
        }
    }

    #[test]
    fn the_threat_state_counts_each_sides_fours_threes_and_winning_points() {
        use super::super::Rule;
        // Black (to move after an even count) has an open two on row 7
        // and a two on row 3; white has an open three on row 10.
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [
            (6, 7),
            (4, 10),
            (7, 7),
            (5, 10),
            (1, 3),
            (6, 10),
            (2, 3),
            (13, 13),
        ] {
            b.play(b.pos(x, y).unwrap());
        }
        let me = b.to_move();
        let d = threat_digits(&b, me);
        // Black: no four point; its open twos give open-three points.
        assert_eq!(d[0], 0, "{d:?}");
        assert_eq!(d[1], 2, "{d:?}");
        // White: its open three (4..6 on row 10) makes open fours at 3 and 7,
        // and broken fours at 2 and 8.
        assert_eq!(d[3], 2, "{d:?}");
        assert_eq!(d[4], 2, "{d:?}");
        assert_eq!(threat_index(&b, me), index_of_digits(d));
        // Seen from white, the digits trade places.
        let w = threat_digits(&b, other(me));
        assert_eq!(w[3], 0, "{w:?}");
        assert_eq!(w[5], d[1], "{w:?}");
    }
}
