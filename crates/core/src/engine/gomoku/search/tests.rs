use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::super::Rule;
use super::super::board::Board;
use super::super::tt::{ThreatCache, Tt};
use super::{Options, Search, WIN_MIN};

/// Positions from play: each side picks among the three best-looking
/// points, from the centre, for 8 to 23 stones.
fn positions(count: usize, seed: u64) -> Vec<Board> {
    let stop = AtomicBool::new(false);
    let mut tt = Tt::new(1);
    let mut cache = ThreatCache::new(10);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut next = move || rng.random::<u32>() as usize;
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        b.play(b.pos(7, 7).unwrap());
        let stones = 8 + next() % 16;
        let mut over = false;
        while b.stone_count() < stones {
            // The hand-set ordering's three best, as these positions
            // were first drawn.
            let opts = Options {
                learned_order: false,
                ..Options::strong()
            };
            let mut s = Search::new(b.clone(), &mut tt, &mut cache, &stop, opts);
            let me = b.to_move();
            let moves = s.ordered_candidates(me, 3);
            if moves.is_empty() {
                over = true;
                break;
            }
            b.play(moves[next() % moves.len()]);
            if b.count(b.to_move(), super::C_FIVE) > 0 || b.count(me, super::C_FIVE) > 1 {
                over = true;
                break;
            }
        }
        if !over {
            out.push(b);
        }
    }
    out
}

/// The full engine with the leaf's VCF and the answers to open threes
/// past the horizon instead of the quiescence search, and without the
/// logarithmic reductions and move-count pruning: the search the
/// leaf's options (floor, stand-pat) and the static cut were measured on.
fn leaf_mode() -> Options {
    Options {
        qsearch: false,
        lmr_log: 0,
        move_count: None,
        ..Options::strong()
    }
}

/// (nodes, score) of a depth-bounded search.
fn search(b: &Board, opts: Options) -> (u64, i32) {
    let stop = AtomicBool::new(false);
    let mut tt = Tt::new(4);
    let mut cache = ThreatCache::new(12);
    let mut s = Search::new(b.clone(), &mut tt, &mut cache, &stop, opts);
    let r = s.think(None, None, u64::MAX);
    (s.nodes(), r.score)
}

/// A position's stones, its score with the option and without it.
type Scores = Vec<(Vec<u16>, i32, i32)>;

/// Searches each position with `with` and with `without`: the two
/// node totals and, per position, the stones and the two scores.
fn side_by_side(boards: Vec<Board>, with: Options, without: Options) -> (u64, u64, Scores) {
    let (mut n_with, mut n_without) = (0u64, 0u64);
    let mut scores = Vec::new();
    for b in boards {
        let (n1, s1) = search(&b, with.clone());
        let (n0, s0) = search(&b, without.clone());
        n_with += n1;
        n_without += n0;
        scores.push((b.history().to_vec(), s1, s0));
    }
    (n_with, n_without, scores)
}

/// The results the search without the option proved, and how many of
/// them the search with it proved too. A proof may be out of its reach,
/// but it never proves the opposite: that fails the test.
fn proofs_kept(scores: &Scores, option: &str) -> (usize, usize) {
    let (mut proven, mut kept) = (0, 0);
    for (stones, s1, s0) in scores.iter().filter(|s| s.2.abs() >= WIN_MIN) {
        proven += 1;
        kept += usize::from(s1.abs() >= WIN_MIN);
        assert!(
            s1.abs() < WIN_MIN || s1.signum() == s0.signum(),
            "stones {stones:?}: {s1} with {option}, {s0} without"
        );
    }
    (proven, kept)
}

/// One search option tried on positions from play, with and without it.
struct Trial {
    /// What the option is, for the messages.
    option: &'static str,
    /// How many positions, from which seed ([`positions`]).
    positions: (usize, u64),
    with: Options,
    without: Options,
    /// At least this many results proven without the option...
    proven: usize,
    /// ...of which at least this share (in percent) is proven with it too.
    kept_percent: usize,
    /// The nodes with the option stay under this share (in percent) of
    /// those without it; `None`: not checked.
    nodes_percent: Option<u64>,
    /// At least this share of the scores (in percent) is the same.
    same_percent: usize,
}

/// Every search option that prunes or extends: it saves nodes and never
/// turns a proven result around (a proof may be out of its reach).
#[test]
fn each_option_saves_nodes_and_never_turns_a_proof_around() {
    let strong = Options::strong();
    // With the hand-set ordering, as the floor and the cut were measured
    // (with the learned one the tree is smaller and they save less).
    let floor = |three_floor: i32| Options {
        max_depth: 6,
        three_floor,
        learned_order: false,
        ..leaf_mode()
    };
    let cut = |static_cut: i32| Options {
        max_depth: 5,
        static_cut,
        learned_order: false,
        ..leaf_mode()
    };
    let stand_pat = |leaf_stand_pat: bool| Options {
        max_depth: 6,
        leaf_stand_pat,
        ..leaf_mode()
    };
    // Deep enough for the ordering to matter: the saving grows with the
    // depth (6 % at depth 7, a quarter at depth 9 in `inarow bench
    // gomoku`, 7 % on these positions).
    let ordering = |learned_order: bool| Options {
        max_depth: 9,
        learned_order,
        ..strong.clone()
    };
    let reductions = |on: bool| Options {
        max_depth: 8,
        lmr_log: if on { strong.lmr_log } else { 0 },
        move_count: if on { strong.move_count } else { None },
        ..strong.clone()
    };
    let quick_wins = |quick_wins: bool| Options {
        max_depth: 8,
        quick_wins,
        ..strong.clone()
    };
    // It replaces the leaf's VCF and the answers to open threes past the
    // horizon.
    let qsearch = |qsearch: bool| Options {
        max_depth: 6,
        qsearch,
        ..strong.clone()
    };
    let trials = [
        Trial {
            option: "the floor under the threat extension",
            positions: (90, 8),
            with: floor(strong.three_floor),
            without: floor(i32::MIN),
            proven: 5,
            kept_percent: 80,
            nodes_percent: Some(80),
            same_percent: 0,
        },
        Trial {
            option: "standing pat at the leaves",
            positions: (60, 9),
            with: stand_pat(true),
            without: stand_pat(false),
            proven: 5,
            kept_percent: 90,
            nodes_percent: Some(80),
            // The root's window is open, so its score rarely moves at all.
            same_percent: 80,
        },
        Trial {
            option: "the learned ordering",
            positions: (24, 10),
            with: ordering(true),
            without: ordering(false),
            proven: 3,
            kept_percent: 80,
            nodes_percent: Some(96),
            same_percent: 0,
        },
        Trial {
            option: "the static cut",
            positions: (40, 7),
            with: cut(strong.static_cut),
            without: cut(0),
            proven: 3,
            // The cut keeps every proof, not only most of them.
            kept_percent: 100,
            nodes_percent: Some(80),
            same_percent: 0,
        },
        Trial {
            option: "the reductions and the move-count pruning",
            positions: (24, 14),
            with: reductions(true),
            without: reductions(false),
            proven: 3,
            kept_percent: 70,
            nodes_percent: Some(80),
            same_percent: 0,
        },
        Trial {
            option: "the quick wins",
            positions: (24, 14),
            with: quick_wins(true),
            without: quick_wins(false),
            proven: 3,
            kept_percent: 100,
            nodes_percent: Some(100),
            same_percent: 0,
        },
        Trial {
            option: "the quiescence search",
            positions: (60, 13),
            with: qsearch(true),
            without: qsearch(false),
            proven: 5,
            kept_percent: 70,
            nodes_percent: None,
            same_percent: 0,
        },
    ];
    for t in trials {
        let (count, seed) = t.positions;
        let (with, without, scores) = side_by_side(positions(count, seed), t.with, t.without);
        let (proven, kept) = proofs_kept(&scores, t.option);
        let option = t.option;
        assert!(proven >= t.proven, "{option}: {proven} proven results");
        assert!(
            kept * 100 >= proven * t.kept_percent,
            "{option}: {kept} of {proven} proofs kept"
        );
        let same = scores.iter().filter(|s| s.1 == s.2).count();
        assert!(
            same * 100 >= scores.len() * t.same_percent,
            "{option}: {same} of {} scores the same",
            scores.len()
        );
        if let Some(percent) = t.nodes_percent {
            assert!(
                with * 100 < without * percent,
                "{option}: {with} nodes with it, {without} without"
            );
        }
    }
}

#[test]
fn the_check_after_the_deepening_replaces_moves_the_opponent_wins_against() {
    // Depth-2 searches with a clock far away: the deepening stops at
    // once and the check of the chosen move runs to its depth cap,
    // not to the clock, so the test does not depend on the machine.
    // Without the quiescence search and the deeper reductions, as the
    // check was measured: shallow searches then leave more forced
    // losses among their choices for it to find.
    let shallow = |share: f64| Options {
        max_depth: 2,
        verify_share: share,
        ..leaf_mode()
    };
    let stop = AtomicBool::new(false);
    let think = |b: &Board, opts: Options| {
        let mut tt = Tt::new(4);
        let mut cache = ThreatCache::new(12);
        let mut s = Search::new(b.clone(), &mut tt, &mut cache, &stop, opts);
        let far = std::time::Instant::now() + std::time::Duration::from_secs(600);
        s.think(Some(far), Some(far), u64::MAX)
    };
    let (mut changed, mut same) = (0, 0);
    for b in positions(80, 11) {
        let plain = think(&b, shallow(0.0));
        let checked = think(&b, shallow(Options::strong().verify_share));
        let (Some(p), Some(c)) = (plain.mv, checked.mv) else {
            panic!("no move");
        };
        assert!(b.is_empty(c));
        if p == c {
            same += 1;
            continue;
        }
        changed += 1;
        // The move given up loses by force: the opponent's own search
        // after it proves a win.
        let mut after = b.clone();
        after.play(p);
        let (_, score) = search(
            &after,
            Options {
                max_depth: 2 + super::VERIFY_PLIES,
                ..leaf_mode()
            },
        );
        assert!(score >= WIN_MIN, "{p} given up at {score}");
        assert!(
            plain.score > -WIN_MIN,
            "the plain search already saw the loss"
        );
    }
    // Shallow searches leave forced losses among their choices; the
    // check finds some of them and keeps most choices.
    assert!(changed >= 3, "{changed} moves replaced, {same} kept");
    assert!(same > changed, "{changed} moves replaced, {same} kept");
}

#[test]
fn the_quiescence_search_proves_only_real_wins_and_keeps_the_proofs() {
    // Straight from positions of play: a win the quiescence search
    // claims is a win by fours, which the threat search confirms
    // (without the quick wins, which also end in a double three; their
    // own test checks those claims).
    let stop = AtomicBool::new(false);
    let (mut wins, mut quiet) = (0, 0);
    let opts = Options {
        quick_wins: false,
        ..Options::strong()
    };
    for b in positions(300, 12) {
        let mut tt = Tt::new(1);
        let mut cache = ThreatCache::new(10);
        let mut s = Search::new(b.clone(), &mut tt, &mut cache, &stop, opts.clone());
        let v = s.qsearch(1, -super::INF, super::INF, 0);
        if v >= WIN_MIN {
            wins += 1;
            assert!(
                s.vcf(2 * super::QSEARCH_FOURS, false),
                "stones {:?}: {v} claimed without a VCF",
                b.history()
            );
        } else if v.abs() < WIN_MIN {
            quiet += 1;
            assert_eq!(s.board().history(), b.history(), "the board is restored");
        }
    }
    assert!(wins >= 5, "{wins} wins by fours found, {quiet} quiet");
    assert!(quiet >= 100, "{wins} wins by fours found, {quiet} quiet");

    // In the whole search: see `each_option_saves_nodes_and_never_turns_a_proof_around`.
}

/// The board after these moves (x, y), black first.
fn board_of(rule: Rule, moves: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15, 15, rule);
    for &(x, y) in moves {
        b.play(b.pos(x, y).unwrap());
    }
    b
}

#[test]
fn a_four_three_or_double_three_is_a_quick_win_only_when_the_opponent_has_no_four() {
    let stop = AtomicBool::new(false);
    let mut tt = Tt::new(1);
    let mut cache = ThreatCache::new(10);
    // Black to move: (7,7) makes a four on row 7 (closed by white's
    // (3,7)) and an open three on column 7. White has nothing.
    let four_three = [
        (4, 7),
        (3, 7),
        (5, 7),
        (0, 0),
        (6, 7),
        (14, 0),
        (7, 8),
        (0, 14),
        (7, 9),
        (14, 14),
    ];
    // Black to move: (7,7) makes open threes on row 7 and column 7.
    let double_three = [
        (5, 7),
        (0, 0),
        (6, 7),
        (14, 0),
        (7, 8),
        (0, 14),
        (7, 9),
        (14, 14),
    ];
    // As the first, but white's last stones make an open three of its
    // own on row 2: white has points that make a four.
    let answered = [
        (4, 7),
        (3, 7),
        (5, 7),
        (10, 2),
        (6, 7),
        (11, 2),
        (7, 8),
        (12, 2),
        (7, 9),
        (0, 14),
    ];
    let mut wins = |rule: Rule, moves: &[(usize, usize)], quick: bool| {
        let b = board_of(rule, moves);
        let opts = Options {
            quick_wins: quick,
            ..Options::strong()
        };
        let s = Search::new(b, &mut tt, &mut cache, &stop, opts);
        s.double_threat_wins(1, 2)
    };
    assert!(wins(Rule::Freestyle, &four_three, true));
    assert!(wins(Rule::ExactFive, &four_three, true));
    assert!(wins(Rule::Freestyle, &double_three, true));
    assert!(
        !wins(Rule::Freestyle, &answered, true),
        "white can interpose a four"
    );
    assert!(
        !wins(Rule::Freestyle, &four_three, false),
        "only with the option"
    );
    assert!(!wins(Rule::Renju, &four_three, true), "not under renju");
}

#[test]
fn quick_wins_are_real_wins_and_save_nodes() {
    // Every position from play where the side to move has such a win
    // is proven won by the search without the option.
    let stop = AtomicBool::new(false);
    let without = Options {
        max_depth: 6,
        quick_wins: false,
        ..Options::strong()
    };
    let mut found = 0;
    for b in positions(2000, 15) {
        let mut tt = Tt::new(1);
        let mut cache = ThreatCache::new(10);
        let s = Search::new(b.clone(), &mut tt, &mut cache, &stop, Options::strong());
        let me = b.to_move();
        if s.double_threat_wins(me, super::other(me)) {
            found += 1;
            let (_, score) = search(&b, without.clone());
            assert!(
                score >= WIN_MIN,
                "stones {:?}: a quick win the search scores {score}",
                b.history()
            );
        }
    }
    assert!(found >= 5, "{found} positions with a quick win");

    // Inside the tree: see `each_option_saves_nodes_and_never_turns_a_proof_around`.
}
