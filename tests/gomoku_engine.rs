//! Gomoku engine and `inarow pbrain` tests.
//!
//! Answers are checked by a small brute-force referee written here, not by
//! the engine's own pattern tables: a five is a run of five (exactly five
//! under that rule) through the stone just played.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use inarow::engine::Limits;
use inarow::engine::gomoku::search::WIN_MIN;
use inarow::engine::gomoku::{GomokuLevel, GomokuPlayer, Report, Rule, Stone, stones_from_moves};
use inarow::game::Point;
use inarow::game::renju::{self, Forbidden};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Levels that see the rules' musts (a five, a four to block): level 4,
/// level 6 and the full engine. Levels 1 to 3 may miss them on purpose.
const LEVELS: [GomokuLevel; 3] = [
    GomokuLevel::nth(4),
    GomokuLevel::nth(6),
    GomokuLevel::STRONG,
];

/// The whole ladder, weakest first.
const ALL: [GomokuLevel; 8] = [
    GomokuLevel::nth(1),
    GomokuLevel::nth(2),
    GomokuLevel::nth(3),
    GomokuLevel::nth(4),
    GomokuLevel::nth(5),
    GomokuLevel::nth(6),
    GomokuLevel::nth(7),
    GomokuLevel::nth(8),
];

/// The referee's board: 0 empty, 1 and 2 the colours.
#[derive(Clone)]
struct Grid {
    n: usize,
    rule: Rule,
    cells: Vec<u8>,
}

impl Grid {
    fn new(n: usize, rule: Rule) -> Grid {
        Grid {
            n,
            rule,
            cells: vec![0; n * n],
        }
    }

    fn get(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x >= self.n as i32 || y >= self.n as i32 {
            return 3;
        }
        self.cells[y as usize * self.n + x as usize]
    }

    fn set(&mut self, x: usize, y: usize, c: u8) {
        self.cells[y * self.n + x] = c;
    }

    /// Whether the stone at (x, y) is part of a winning line.
    fn wins_at(&self, x: usize, y: usize) -> bool {
        let c = self.get(x as i32, y as i32);
        if c == 0 || c == 3 {
            return false;
        }
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let mut len = 1;
            for sign in [1, -1] {
                let (mut px, mut py) = (x as i32 + sign * dx, y as i32 + sign * dy);
                while self.get(px, py) == c {
                    len += 1;
                    px += sign * dx;
                    py += sign * dy;
                }
            }
            match self.rule {
                Rule::Freestyle => len >= 5,
                Rule::ExactFive => len == 5,
                // Renju grids here have black as colour 1.
                Rule::Renju if c == 1 => len == 5,
                Rule::Renju => len >= 5,
            }
        })
    }

    /// Empty points where a stone of `c` makes `good` true of the board
    /// (given the board and the point).
    fn points_where(
        &self,
        c: u8,
        good: impl Fn(&Self, usize, usize) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                if self.get(x as i32, y as i32) == 0 {
                    let mut g = self.clone();
                    g.set(x, y, c);
                    if good(&g, x, y) {
                        out.push((x, y));
                    }
                }
            }
        }
        out
    }

    /// Empty points where `c` would win at once.
    fn five_points(&self, c: u8) -> Vec<(usize, usize)> {
        self.points_where(c, |g, x, y| g.wins_at(x, y))
    }

    /// Empty points where `c` would make two or more five points (an open four or a double four).
    fn open_four_points(&self, c: u8) -> Vec<(usize, usize)> {
        self.points_where(c, |g, _, _| g.five_points(c).len() >= 2)
    }

    /// Stones for the engine, with `mover`'s as its own.
    fn stones(&self, mover: u8) -> Vec<(u8, u8, Stone)> {
        let mut out = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                let c = self.get(x as i32, y as i32);
                if c == 1 || c == 2 {
                    let whose = if c == mover {
                        Stone::Own
                    } else {
                        Stone::Opponent
                    };
                    out.push((x as u8, y as u8, whose));
                }
            }
        }
        out
    }
}

/// A grid from rows of text: `x` colour 1 (to move), `o` colour 2, `.` empty.
fn grid(rows: &[&str], rule: Rule) -> Grid {
    let n = rows.len();
    let mut g = Grid::new(n, rule);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            match ch {
                'x' => g.set(x, y, 1),
                'o' => g.set(x, y, 2),
                _ => {}
            }
        }
    }
    g
}

fn choose(g: &Grid, mover: u8, level: GomokuLevel, ms: u64) -> (usize, usize) {
    let mut player = GomokuPlayer::new(g.n, g.rule, 16);
    let stop = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(3);
    let (x, y) = player.choose(
        &g.stones(mover),
        level,
        &Limits::new(Duration::from_millis(ms)),
        &stop,
        &mut rng,
    );
    assert_eq!(
        g.get(x as i32, y as i32),
        0,
        "engine played on a taken point {x},{y}"
    );
    (x as usize, y as usize)
}

const EMPTY15: &str = "...............";

fn board15(lines: &[(usize, &'static str)]) -> Vec<&'static str> {
    let mut rows = vec![EMPTY15; 15];
    for &(y, s) in lines {
        rows[y] = s;
    }
    rows
}

#[test]
fn every_level_wins_in_one_rather_than_blocking() {
    for rule in [Rule::Freestyle, Rule::ExactFive] {
        let rows = board15(&[
            (3, "..xxxx.o......."),
            (9, "....oooo.x....."),
            (10, "...x..........."),
        ]);
        let g = grid(&rows, rule);
        // x: (2..=5, 3) blocked at (7,3)? no: open at (1,3) and (6,3). o: (4..=7, 9) with x at (9,9).
        let wins = g.five_points(1);
        assert!(!wins.is_empty());
        for level in LEVELS {
            let mv = choose(&g, 1, level, 200);
            assert!(
                wins.contains(&mv),
                "{level:?} {rule:?} played {mv:?}, wins are {wins:?}"
            );
        }
    }
}

#[test]
fn every_level_blocks_a_four() {
    for rule in [Rule::Freestyle, Rule::ExactFive] {
        let rows = board15(&[
            (5, "....xoooo......"),
            (7, "......x........"),
            (8, ".......x......."),
            (11, "..o..........x."),
        ]);
        let g = grid(&rows, rule);
        let threats = g.five_points(2);
        assert_eq!(threats, vec![(9, 5)]);
        assert!(g.five_points(1).is_empty());
        for level in LEVELS {
            assert_eq!(choose(&g, 1, level, 200), (9, 5), "{level:?} {rule:?}");
        }
    }
}

#[test]
fn medium_and_strong_stop_an_open_three() {
    let rows = board15(&[
        (4, "..x............"),
        (7, ".....ooo......."),
        (10, "...........x..."),
        (12, "..x..........o."),
    ]);
    let g = grid(&rows, Rule::Freestyle);
    assert!(!g.open_four_points(2).is_empty());
    for level in [GomokuLevel::nth(5), GomokuLevel::STRONG] {
        let (x, y) = choose(&g, 1, level, 300);
        let mut after = g.clone();
        after.set(x, y, 1);
        assert!(
            after.open_four_points(2).is_empty(),
            "{level:?} played {x},{y} and o can still make an open four"
        );
    }
}

/// Positions (moves in order, the side to move after the last one attacks)
/// where the attacker wins by continuous fours, with the fewest fours needed.
const VCF_POSITIONS: &[(usize, &str)] = &[
    (
        2,
        "7,7 9,9 9,5 9,7 10,4 8,6 11,9 10,6 11,5 9,3 7,5 9,6 7,6 7,4 8,5 10,5 11,6 5,5 11,4 11,7",
    ),
    (
        3,
        "7,7 9,7 7,9 7,6 5,9 8,6 10,8 9,6 6,6 9,9 9,8 10,6 11,6 7,8 6,9 4,9 6,8 6,7 5,8 5,7 8,9 10,7 11,8 12,8 11,7 11,5 12,4 11,10 8,11 7,10 8,8 8,10 5,10 4,10",
    ),
    (
        4,
        "7,7 6,7 6,6 9,9 4,4 5,5 9,5 8,6 7,5 7,8 5,6 4,6 8,4 5,7 7,3 6,2",
    ),
    (
        5,
        "7,7 7,5 7,9 9,7 7,8 7,10 9,10 6,7 6,4 4,9 5,8 6,8 6,6 5,5 6,5 5,10 4,10 6,11 3,8 4,7 9,8 5,12 4,13 7,12 8,13 5,11 5,13 7,11 8,11",
    ),
    (
        6,
        "7,7 7,5 5,5 4,4 7,9 7,8 9,7 6,7 8,8 6,10 9,9 6,6 8,9 6,9 6,8 8,10",
    ),
    (
        7,
        "7,7 6,7 4,5 4,4 6,4 7,8 6,6 8,9 9,10 9,9 6,9 5,8 8,8 10,9 11,9 11,10 7,6 4,6 8,6 9,6 7,5 9,7 9,8 9,5 8,4 9,3 9,4 7,4",
    ),
];

fn parse_moves(s: &str) -> Vec<(u8, u8)> {
    s.split_whitespace()
        .map(|m| {
            let (x, y) = m.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn strong_finds_vcf_wins_of_several_lengths() {
    for &(len, moves) in VCF_POSITIONS {
        let moves = parse_moves(moves);
        let mut g = Grid::new(15, Rule::Freestyle);
        let stones = stones_from_moves(&moves);
        for &(x, y, whose) in &stones {
            g.set(
                x as usize,
                y as usize,
                if whose == Stone::Own { 1 } else { 2 },
            );
        }
        assert!(g.five_points(1).is_empty() && g.five_points(2).is_empty());
        assert!(
            g.open_four_points(1).is_empty(),
            "length {len}: not a VCF-only position"
        );
        let mut player = GomokuPlayer::new(15, Rule::Freestyle, 16);
        let stop = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(1);
        // Replay: every attacker move must be a four (or the five); the
        // defender's only non-losing answer to a four is its five point.
        let mut won = false;
        for step in 0..=len {
            let (x, y) = player.choose(
                &g.stones(1),
                GomokuLevel::STRONG,
                &Limits::new(Duration::from_secs(3)),
                &stop,
                &mut rng,
            );
            let (x, y) = (x as usize, y as usize);
            assert_eq!(g.get(x as i32, y as i32), 0);
            g.set(x, y, 1);
            if g.wins_at(x, y) {
                won = true;
                break;
            }
            let fives = g.five_points(1);
            assert!(
                !fives.is_empty(),
                "length {len}, step {step}: {x},{y} is not a four"
            );
            assert!(
                g.five_points(2).is_empty(),
                "length {len}: the defender can win"
            );
            if fives.len() >= 2 {
                // Unstoppable: whatever the defender blocks, the other point wins.
                won = true;
                break;
            }
            g.set(fives[0].0, fives[0].1, 2);
        }
        assert!(won, "length {len}: no win within {} fours", len + 1);
    }
}

#[test]
fn exact_five_overline_is_not_a_win() {
    // x: (2..=5,7) and (7,7): (6,7) makes six. o: an open three on row 10 is
    // not the point; o's overline-only "four" on row 3 is.
    let rows = board15(&[
        (3, ".xoooo.o......."),
        (7, ".oxxxx.x......."),
        (9, "......xxx......"),
        (12, "o.....o........"),
    ]);
    let exact = grid(&rows, Rule::ExactFive);
    assert!(exact.five_points(1).is_empty());
    assert!(exact.five_points(2).is_empty());
    let free = grid(&rows, Rule::Freestyle);
    assert_eq!(free.five_points(1), vec![(6, 7)]);
    for level in LEVELS {
        // Freestyle: win now.
        let mv = choose(&free, 1, level, 200);
        assert!(
            free.five_points(1).contains(&mv),
            "{level:?} freestyle played {mv:?}"
        );
    }
    for level in [GomokuLevel::nth(5), GomokuLevel::STRONG] {
        // Exactly five: neither (6,7) nor (6,3) wins; the open three on
        // row 9 does, by an open four.
        let (x, y) = choose(&exact, 1, level, 300);
        let mut after = exact.clone();
        after.set(x, y, 1);
        assert!(
            after.five_points(1).len() >= 2,
            "{level:?} exact five played {x},{y} instead of an open four"
        );
    }
}

/// Random positions from random games on a small board.
fn random_positions(n: usize, count: usize, seed: u64) -> Vec<(Grid, u8)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Grid::new(n, Rule::Freestyle);
        let stones = rng.random_range(1..(n * n - 1));
        let mut mover = 1u8;
        for _ in 0..stones {
            let x = rng.random_range(0..n);
            let y = rng.random_range(0..n);
            if g.get(x as i32, y as i32) == 0 {
                g.set(x, y, mover);
                if g.wins_at(x, y) {
                    g.set(x, y, 0);
                    continue;
                }
                mover = 3 - mover;
            }
        }
        out.push((g, mover));
    }
    out
}

#[test]
fn searching_levels_always_take_a_five_and_block_a_four() {
    let stop = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(9);
    let mut checked = 0;
    for (g, mover) in random_positions(9, 300, 4) {
        let mine = g.five_points(mover);
        let theirs = g.five_points(3 - mover);
        if mine.is_empty() && theirs.is_empty() {
            continue;
        }
        let mut player = GomokuPlayer::new(9, Rule::Freestyle, 1);
        let level = LEVELS[checked % 3];
        let (x, y) = player.choose(
            &g.stones(mover),
            level,
            &Limits::new(Duration::from_millis(50)),
            &stop,
            &mut rng,
        );
        let mv = (x as usize, y as usize);
        if !mine.is_empty() {
            assert!(
                mine.contains(&mv),
                "{level} missed its five: {mv:?} not in {mine:?}"
            );
        } else {
            assert!(
                theirs.contains(&mv),
                "{level} did not block: {mv:?} not in {theirs:?}"
            );
        }
        checked += 1;
    }
    assert!(
        checked > 30,
        "too few positions with a five point: {checked}"
    );
}

#[test]
fn every_level_returns_an_empty_point() {
    let stop = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(2);
    for (i, (g, mover)) in random_positions(7, 96, 8).into_iter().enumerate() {
        let level = ALL[i % 8];
        let mut player = GomokuPlayer::new(7, Rule::Freestyle, 1);
        let (x, y) = player.choose(
            &g.stones(mover),
            level,
            &Limits::new(Duration::from_millis(20)),
            &stop,
            &mut rng,
        );
        assert_eq!(
            g.get(x as i32, y as i32),
            0,
            "{level:?} played on a taken point {x},{y}"
        );
    }
    // The empty board: the centre.
    let mut player = GomokuPlayer::new(15, Rule::Freestyle, 1);
    for level in ALL {
        assert_eq!(
            player.choose(
                &[],
                level,
                &Limits::new(Duration::from_millis(20)),
                &stop,
                &mut rng
            ),
            (7, 7)
        );
    }
}

#[test]
fn stop_flag_ends_a_search_at_once() {
    let stop = AtomicBool::new(true);
    let moves = parse_moves("7,7 8,8 8,6 6,8 9,7");
    let mut player = GomokuPlayer::new(15, Rule::Freestyle, 16);
    let t = Instant::now();
    let limits = Limits::new(Duration::from_secs(30));
    let r = player.analyse(
        &stones_from_moves(&moves),
        GomokuLevel::STRONG,
        &limits,
        &stop,
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    let (x, y) = r.mv.expect("a move");
    assert!(!moves.contains(&(x, y)));
}

/// The soft deadline is moved back by the time the root threat searches
/// took, so positions where those searches are long are the ones to watch:
/// the whole move must still come in under the budget.
#[test]
fn timed_strong_search_stays_inside_its_budget() {
    let stop = AtomicBool::new(false);
    let budget = Duration::from_millis(200);
    let positions = [
        "7,7 8,8 8,6",
        "9,8 5,6 5,7 6,5 7,4 4,7 4,3 6,6 4,5 6,8",
        "8,5 7,9 7,5 5,9 6,5 5,5 6,9 6,10 9,5 10,5",
        "7,7 9,7 7,9 7,6 5,9 8,6 10,8 9,6 6,6 9,9 9,8 10,6 11,6 7,8 6,9 4,9 6,8 6,7 5,8 5,7",
    ];
    for moves in positions {
        let moves = parse_moves(moves);
        let mut player = GomokuPlayer::new(15, Rule::Freestyle, 16);
        let limits = Limits::new(budget);
        let t = Instant::now();
        let r = player.analyse(
            &stones_from_moves(&moves),
            GomokuLevel::STRONG,
            &limits,
            &stop,
        );
        let took = t.elapsed();
        // The hard deadline is at 90 %; the rest is slack for a loaded CI
        // machine (a search that ignored its deadline would run for seconds).
        assert!(took <= budget * 2, "{moves:?}: {took:?}");
        let (x, y) = r.mv.expect("a move");
        assert!(!moves.contains(&(x, y)));
    }
}

/// A node limit with no clock (as `train gomoku-games --level 8` plays)
/// bounds the whole move, the root threat searches included: they get
/// their share of it, not a budget of their own.
#[test]
fn node_bounded_strong_search_stays_inside_its_nodes() {
    let stop = AtomicBool::new(false);
    // From level 8's self-play: positions where the root VCT, unbounded,
    // searched 200,000 nodes.
    let positions = [
        "5,8 6,6 7,6 9,4 6,5 9,5 5,7 9,6 9,7 7,7 6,8 11,3",
        "7,4 7,10 4,4 8,9 4,3 9,8 10,7 5,4 6,3 5,2 5,3 7,3",
        "9,4 5,4 5,5 8,8 7,4 8,5 8,4 10,4 7,3 8,7 9,5 10,6",
        "7,7 8,8 8,6",
    ];
    for budget in [3_000u64, 20_000] {
        for moves in positions {
            let moves = parse_moves(moves);
            let mut player = GomokuPlayer::new(15, Rule::Freestyle, 16);
            let limits = Limits {
                nodes: Some(budget),
                ..Limits::unlimited()
            };
            let r = player.analyse(
                &stones_from_moves(&moves),
                GomokuLevel::STRONG,
                &limits,
                &stop,
            );
            // The limit is read every 1024 nodes.
            assert!(
                r.nodes <= budget + 1024,
                "{moves:?}: {} nodes of {budget}",
                r.nodes
            );
            let (x, y) = r.mv.expect("a move");
            assert!(!moves.contains(&(x, y)));
        }
    }
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let moves = parse_moves("7,7 8,8 8,6 6,8 9,7 7,9");
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(4),
        ..Limits::unlimited()
    };
    let run = || {
        let mut p = GomokuPlayer::new(15, Rule::Freestyle, 8);
        let r = p.analyse(
            &stones_from_moves(&moves),
            GomokuLevel::STRONG,
            &limits,
            &stop,
        );
        (r.nodes, r.mv)
    };
    let a = run();
    assert!(a.0 > 0);
    assert_eq!(a, run());
}

#[test]
fn strong_beats_easy_with_both_colours() {
    let stop = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(21);
    let openings = [
        vec![],
        vec![(7, 7)],
        vec![(7, 7), (8, 8)],
        vec![(6, 7), (8, 7), (7, 9)],
        vec![(7, 7), (7, 8), (9, 9), (5, 5)],
    ];
    for opening in &openings {
        for strong_first in [true, false] {
            let mut players = [
                GomokuPlayer::new(15, Rule::Freestyle, 8),
                GomokuPlayer::new(15, Rule::Freestyle, 8),
            ];
            let mut g = Grid::new(15, Rule::Freestyle);
            let mut moves: Vec<(u8, u8)> = opening.clone();
            for (i, &(x, y)) in moves.iter().enumerate() {
                g.set(
                    x as usize,
                    y as usize,
                    if i.is_multiple_of(2) { 1 } else { 2 },
                );
            }
            let winner = loop {
                assert!(moves.len() < 225, "board full");
                let black_to_move = moves.len().is_multiple_of(2);
                let strong_to_move = black_to_move == strong_first;
                // By nodes, not time, so that the games are the same on a
                // busy machine: the strong level within 50,000 nodes a
                // move, easy (level 2) bounded anyway.
                let (idx, level, nodes) = if strong_to_move {
                    (0, GomokuLevel::STRONG, Some(50_000))
                } else {
                    (1, GomokuLevel::nth(2), None)
                };
                let (x, y) = players[idx].choose(
                    &stones_from_moves(&moves),
                    level,
                    &Limits {
                        nodes,
                        ..Limits::new(Duration::from_secs(60))
                    },
                    &stop,
                    &mut rng,
                );
                assert_eq!(g.get(x as i32, y as i32), 0);
                g.set(x as usize, y as usize, if black_to_move { 1 } else { 2 });
                moves.push((x, y));
                if g.wins_at(x as usize, y as usize) {
                    break strong_to_move;
                }
            };
            assert!(
                winner,
                "easy beat strong (strong first: {strong_first}) after opening {opening:?}: {moves:?}"
            );
        }
    }
}

/// Levels 1 to 7 are bounded by depth and nodes: the same seed and
/// position give the same move, whether the player is fresh or searched
/// something else before, and whatever time it is given (only a safety net).
#[test]
fn bounded_levels_play_the_same_move_for_the_same_seed_whatever_the_time() {
    let stop = AtomicBool::new(false);
    let positions = random_positions(11, 29, 31);
    for i in 0..28 {
        let (g, mover) = &positions[i];
        let level = ALL[i % 7];
        assert!(level.is_bounded());
        let stones = g.stones(*mover);
        let seed = 100 + i as u64;
        let mut fresh = GomokuPlayer::new(11, Rule::Freestyle, 4);
        let a = fresh.choose(
            &stones,
            level,
            &Limits::unlimited(),
            &stop,
            &mut SmallRng::seed_from_u64(seed),
        );
        let mut used = GomokuPlayer::new(11, Rule::Freestyle, 4);
        let (other, other_mover) = &positions[i + 1];
        used.choose(
            &other.stones(*other_mover),
            GomokuLevel::STRONG,
            &Limits {
                depth: Some(3),
                ..Limits::unlimited()
            },
            &stop,
            &mut SmallRng::seed_from_u64(1),
        );
        let b = used.choose(
            &stones,
            level,
            &Limits::new(Duration::from_secs(60)),
            &stop,
            &mut SmallRng::seed_from_u64(seed),
        );
        assert_eq!(a, b, "{level}: another move the second time");
        assert_eq!(
            g.get(a.0 as i32, a.1 as i32),
            0,
            "{level} played a taken point"
        );
    }
}

/// Plays `levels[0]` against `levels[1]` from `opening` on 15x15 freestyle
/// (levels 1 to 7: no time limit to speak of, so the game is the same on
/// any machine); `true` when `levels[0]` wins.
fn ladder_game(
    levels: [GomokuLevel; 2],
    first: bool,
    opening: &[(u8, u8)],
    rng: &mut SmallRng,
) -> bool {
    let stop = AtomicBool::new(false);
    let mut players = [
        GomokuPlayer::new(15, Rule::Freestyle, 4),
        GomokuPlayer::new(15, Rule::Freestyle, 4),
    ];
    let mut g = Grid::new(15, Rule::Freestyle);
    let mut moves: Vec<(u8, u8)> = opening.to_vec();
    for (i, &(x, y)) in moves.iter().enumerate() {
        g.set(
            x as usize,
            y as usize,
            if i.is_multiple_of(2) { 1 } else { 2 },
        );
    }
    loop {
        assert!(moves.len() < 225, "board full");
        let black_to_move = moves.len().is_multiple_of(2);
        let idx = if black_to_move == first { 0 } else { 1 };
        let (x, y) = players[idx].choose(
            &stones_from_moves(&moves),
            levels[idx],
            &Limits::new(Duration::from_secs(60)),
            &stop,
            rng,
        );
        assert_eq!(g.get(x as i32, y as i32), 0);
        g.set(x as usize, y as usize, if black_to_move { 1 } else { 2 });
        moves.push((x, y));
        if g.wins_at(x as usize, y as usize) {
            return idx == 0;
        }
    }
}

/// The ladder is ordered at its ends: level 7 beats level 1 and level 4
/// beats level 1, with both colours.
#[test]
fn level_7_and_level_4_beat_level_1() {
    let mut rng = SmallRng::seed_from_u64(5);
    let openings = [
        vec![(7, 7)],
        vec![(7, 7), (8, 8)],
        vec![(6, 7), (8, 7), (7, 9)],
    ];
    for strong in [GomokuLevel::nth(7), GomokuLevel::nth(4)] {
        for opening in &openings {
            for first in [true, false] {
                assert!(
                    ladder_game([strong, GomokuLevel::WEAKEST], first, opening, &mut rng),
                    "level 1 beat {strong} (first: {first}) after {opening:?}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------
// The protocol, through the real binary.

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    fn spawn() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["pbrain", "--tt-mb", "16"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start inarow pbrain");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.write_all(b"\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next reply that is not a MESSAGE or DEBUG line.
    fn reply(&mut self, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no reply within {within:?}"));
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    fn finish(mut self) {
        self.send("END");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "pbrain exited with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "pbrain did not exit after END");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn parse_xy(reply: &str) -> (usize, usize) {
    let (x, y) = reply
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {reply:?}"));
    (
        x.trim()
            .parse()
            .unwrap_or_else(|_| panic!("not a move: {reply:?}")),
        y.trim()
            .parse()
            .unwrap_or_else(|_| panic!("not a move: {reply:?}")),
    )
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn pbrain_plays_a_whole_game_against_a_scripted_opponent() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 100");
    brain.send("INFO timeout_match 100000");
    brain.send("INFO rule 0");
    brain.send("START 15");
    assert_eq!(brain.reply(SECOND), "OK");
    brain.send("ABOUT");
    assert!(brain.reply(SECOND).contains("name=\"inarow\""));
    let mut g = Grid::new(15, Rule::Freestyle);
    // The brain is colour 1 and starts; the script answers along row 0 and
    // then row 14, a weak but legal opponent.
    brain.send("BEGIN");
    let mut script = (0..15).map(|x| (x, 0)).chain((0..15).map(|x| (x, 14)));
    let mut brain_won = false;
    for _ in 0..60 {
        let (x, y) = parse_xy(&brain.reply(3 * SECOND));
        assert_eq!(
            g.get(x as i32, y as i32),
            0,
            "brain played a taken point {x},{y}"
        );
        g.set(x, y, 1);
        if g.wins_at(x, y) {
            brain_won = true;
            break;
        }
        let (sx, sy) = script
            .find(|&(sx, sy)| g.get(sx, sy) == 0)
            .expect("script move");
        g.set(sx as usize, sy as usize, 2);
        assert!(!g.wins_at(sx as usize, sy as usize), "the script won");
        brain.send(&format!("TURN {sx},{sy}"));
    }
    assert!(brain_won);
    // A new game on the same brain.
    brain.send("RESTART");
    assert_eq!(brain.reply(SECOND), "OK");
    brain.send("TURN 7,7");
    let (x, y) = parse_xy(&brain.reply(3 * SECOND));
    assert_ne!((x, y), (7, 7));
    brain.finish();
}

#[test]
fn pbrain_board_wins_and_blocks() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 500");
    brain.send("START 15");
    assert_eq!(brain.reply(SECOND), "OK");
    // Own (1) four on row 3 with one end blocked; the opponent (2) has a four too.
    brain.send("BOARD");
    for line in [
        "4,3,1", "5,3,1", "6,3,1", "7,3,1", "3,3,2", "4,9,2", "5,9,2", "6,9,2", "7,9,2", "8,9,1",
    ] {
        brain.send(line);
    }
    brain.send("DONE");
    assert_eq!(brain.reply(3 * SECOND), "8,3");
    // Only the opponent has a four: block it.
    brain.send("BOARD");
    for line in [
        "4,9,2", "5,9,2", "6,9,2", "7,9,2", "8,9,1", "2,2,1", "12,12,1",
    ] {
        brain.send(line);
    }
    brain.send("DONE");
    assert_eq!(brain.reply(3 * SECOND), "3,9");
    // Exactly-five: the same shape extended to an overline is no win, so block.
    brain.send("INFO rule 1");
    brain.send("BOARD");
    for line in [
        "1,3,2", "2,3,1", "3,3,1", "4,3,1", "5,3,1", "7,3,1", "4,9,2", "5,9,2", "6,9,2", "7,9,2",
        "8,9,1",
    ] {
        brain.send(line);
    }
    brain.send("DONE");
    assert_eq!(brain.reply(3 * SECOND), "3,9");
    brain.send("TAKEBACK 3,9");
    assert_eq!(brain.reply(SECOND), "OK");
    brain.finish();
}

#[test]
fn pbrain_honours_time_limits() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 300");
    brain.send("INFO max_memory 83886080");
    brain.send("START 20");
    assert_eq!(brain.reply(SECOND), "OK");
    let moves = "10,10 11,11 11,9 9,11 12,10 10,12 13,11 8,12";
    let stones = parse_moves(moves);
    brain.send("BOARD");
    for (i, (x, y)) in stones.iter().enumerate() {
        let owner = if i.is_multiple_of(2) { 1 } else { 2 };
        brain.send(&format!("{x},{y},{owner}"));
    }
    brain.send("DONE");
    let t = Instant::now();
    let reply = brain.reply(3 * SECOND);
    let took = t.elapsed();
    parse_xy(&reply);
    // Slack above the limit covers process scheduling on a loaded machine.
    assert!(
        took < Duration::from_millis(300 + 250),
        "turn took {took:?}"
    );
    // Little match time left: the brain must hurry.
    brain.send("INFO timeout_match 10000");
    brain.send("INFO time_left 200");
    brain.send("TURN 0,0");
    let t = Instant::now();
    parse_xy(&brain.reply(3 * SECOND));
    let took = t.elapsed();
    assert!(
        took < Duration::from_millis(200 + 250),
        "turn took {took:?}"
    );
    brain.finish();
}

#[test]
fn pbrain_survives_garbage() {
    let mut brain = Brain::spawn();
    brain.send("hello there");
    assert!(brain.reply(SECOND).starts_with("UNKNOWN"));
    brain.send("TURN 3,3");
    assert!(
        brain.reply(SECOND).starts_with("ERROR"),
        "TURN before START"
    );
    brain.send("START 1000");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    brain.send("RECTSTART 15");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    brain.send("START 15");
    assert_eq!(brain.reply(SECOND), "OK");
    for bad in [
        "TURN",
        "TURN -1,5",
        "TURN 15,15",
        "TURN x,y",
        "TURN 3",
        "TAKEBACK 4,4",
    ] {
        brain.send(bad);
        assert!(brain.reply(SECOND).starts_with("ERROR"), "{bad}");
    }
    brain.send("INFO nonsense_key 12");
    brain.send("INFO timeout_turn banana");
    brain.send_raw(b"\xff\xfe\x00garbage\rABOUT\r");
    assert!(brain.reply(SECOND).starts_with("UNKNOWN"));
    assert!(brain.reply(SECOND).starts_with("name="));
    let long = vec![b'A'; 200_000];
    brain.send_raw(&long);
    brain.send_raw(b"\n");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    // A BOARD with junk inside still ends in a move.
    brain.send("BOARD");
    brain.send("1,1,1");
    brain.send("junk");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    brain.send("99,99,2");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    brain.send("DONE");
    let (x, y) = parse_xy(&brain.reply(6 * SECOND));
    assert_ne!((x, y), (1, 1));
    brain.send("TURN 7,7");
    let (x2, y2) = parse_xy(&brain.reply(6 * SECOND));
    assert!((x2, y2) != (7, 7) && (x2, y2) != (x, y) && (x2, y2) != (1, 1));
    brain.send("TURN 7,7");
    assert!(brain.reply(SECOND).starts_with("ERROR"), "taken point");
    brain.finish();
}

// ---------------------------------------------------------------------
// Renju: black (colour 1 in these grids) has forbidden points. The
// forbidden points are judged by the game layer's referee
// (`inarow::game::renju`), not by the engine's own bookkeeping.

/// Points far from the shapes below, for stones that only even out the
/// counts (under renju the engine reads whose turn it is from them: black
/// moves when both colours have as many stones).
const FILLERS: [(usize, usize); 8] = [
    (0, 0),
    (14, 14),
    (14, 0),
    (0, 14),
    (0, 4),
    (14, 10),
    (10, 0),
    (4, 14),
];

/// A 15x15 grid with `black` as colour 1 and `white` as colour 2, topped
/// up with filler stones of the colour that has fewer so that
/// `black_to_move` holds under renju's counting.
fn renju_grid(
    rule: Rule,
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    black_to_move: bool,
) -> Grid {
    let mut g = Grid::new(15, rule);
    for &(x, y) in black {
        g.set(x, y, 1);
    }
    for &(x, y) in white {
        g.set(x, y, 2);
    }
    // Black to move: as many black stones as white; white to move: one more.
    let lead = usize::from(!black_to_move);
    let (mut nb, mut nw) = (black.len(), white.len());
    let mut fillers = FILLERS.iter();
    while nb != nw + lead {
        let &(x, y) = fillers.next().expect("enough fillers");
        assert_eq!(g.get(x as i32, y as i32), 0, "filler on a stone");
        if nb < nw + lead {
            g.set(x, y, 1);
            nb += 1;
        } else {
            g.set(x, y, 2);
            nw += 1;
        }
    }
    g
}

fn with_rule(g: &Grid, rule: Rule) -> Grid {
    Grid { rule, ..g.clone() }
}

/// The game layer's renju board for a grid (colour 1 black).
fn referee(g: &Grid) -> renju::Board {
    let mut b = renju::Board::with_size(g.n as u8, g.n as u8);
    for y in 0..g.n {
        for x in 0..g.n {
            let side = match g.get(x as i32, y as i32) {
                1 => Some(renju::BLACK),
                2 => Some(renju::WHITE),
                _ => continue,
            };
            b.set(Point::new(x as u8, y as u8), side);
        }
    }
    b
}

fn forbidden_at(g: &Grid, (x, y): (usize, usize)) -> Option<Forbidden> {
    renju::forbidden(&referee(g), Point::new(x as u8, y as u8))
}

fn analyse(g: &Grid, mover: u8, ms: u64) -> Report {
    let mut player = GomokuPlayer::new(g.n, g.rule, 16);
    let stop = AtomicBool::new(false);
    player.analyse(
        &g.stones(mover),
        GomokuLevel::STRONG,
        &Limits::new(Duration::from_millis(ms)),
        &stop,
    )
}

fn mv_of(r: &Report) -> (usize, usize) {
    let (x, y) = r.mv.expect("a move");
    (x as usize, y as usize)
}

/// Black to move in each; the point (7,7) is black's best move under
/// freestyle and forbidden under renju, for a different reason each time.
fn forbidden_best_moves() -> Vec<(Forbidden, Grid)> {
    vec![
        (
            // Row 7 and column 7 each a three blocked at one end: (7,7)
            // makes two fours at once.
            Forbidden::DoubleFour,
            renju_grid(
                Rule::Renju,
                &[(4, 7), (5, 7), (6, 7), (7, 8), (7, 9), (7, 10)],
                &[(3, 7), (7, 11)],
                true,
            ),
        ),
        (
            // xxx.xx: (7,7) makes six.
            Forbidden::Overline,
            renju_grid(
                Rule::Renju,
                &[(4, 7), (5, 7), (6, 7), (8, 7), (9, 7)],
                &[],
                true,
            ),
        ),
        (
            // Two open twos meeting at (7,7): two open threes at once.
            Forbidden::DoubleThree,
            renju_grid(Rule::Renju, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[], true),
        ),
    ]
}

#[test]
fn renju_black_never_plays_a_forbidden_best_move() {
    for (why, g) in forbidden_best_moves() {
        assert_eq!(
            forbidden_at(&g, (7, 7)),
            Some(why),
            "the position is not {why:?}"
        );
        // The test means something only if (7,7) is what black would play
        // without the renju restrictions.
        let free = with_rule(&g, Rule::Freestyle);
        let levels: &[GomokuLevel] = match why {
            // Six wins under freestyle: every level takes a win.
            Forbidden::Overline => &LEVELS,
            // Levels 1 to 3 pick at random among good-looking points, and
            // level 4 sees one move ahead.
            Forbidden::DoubleFour => &[GomokuLevel::nth(5), GomokuLevel::STRONG],
            // Seeing that a double three wins takes a search.
            Forbidden::DoubleThree => &[GomokuLevel::STRONG],
        };
        for &level in levels {
            assert_eq!(
                choose(&free, 1, level, 300),
                (7, 7),
                "{why:?} freestyle {level:?}"
            );
        }
        for level in ALL {
            let mv = choose(&g, 1, level, 300);
            assert_ne!(
                mv,
                (7, 7),
                "{why:?}: renju {level:?} played the forbidden point"
            );
            assert_eq!(
                forbidden_at(&g, mv),
                None,
                "{why:?}: renju {level:?} played {mv:?}"
            );
        }
    }
}

#[test]
fn renju_white_four_with_a_forbidden_block_wins() {
    // White's four on row 7 (x = 3..=6, black on (2,7)) can only be stopped
    // at (7,7), and black may not play there: in one position because it
    // makes six in column 7, in the other because it makes two open threes.
    let overline_block = renju_grid(
        Rule::Renju,
        &[(7, 4), (7, 5), (7, 6), (7, 8), (7, 9), (2, 7)],
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        true,
    );
    let double_three_block = renju_grid(
        Rule::Renju,
        &[(7, 8), (7, 9), (8, 8), (9, 9), (2, 7)],
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        true,
    );
    for (why, g) in [
        (Forbidden::Overline, overline_block),
        (Forbidden::DoubleThree, double_three_block),
    ] {
        assert_eq!(g.five_points(2), vec![(7, 7)]);
        assert!(g.five_points(1).is_empty());
        assert_eq!(forbidden_at(&g, (7, 7)), Some(why));
        let r = analyse(&g, 1, 300);
        assert!(
            r.score <= -WIN_MIN,
            "{why:?}: black's score {} is not a loss",
            r.score
        );
        assert_ne!(mv_of(&r), (7, 7), "{why:?}");
        // Without forbidden points the same block holds.
        let exact = with_rule(&g, Rule::ExactFive);
        let r = analyse(&exact, 1, 300);
        assert_eq!(mv_of(&r), (7, 7), "{why:?}: exactly five");
        assert!(
            r.score > -WIN_MIN,
            "{why:?}: exactly five scores {}",
            r.score
        );
    }

    // White to move: making that four is a win, which the engine sees.
    let g = renju_grid(
        Rule::Renju,
        &[(7, 4), (7, 5), (7, 6), (7, 8), (7, 9), (2, 7)],
        &[(3, 7), (4, 7), (5, 7)],
        false,
    );
    let r = analyse(&g, 2, 500);
    assert!(r.score >= WIN_MIN, "white's score {} is not a win", r.score);
    assert_eq!(mv_of(&r), (6, 7));
    // Under exactly five black may block that four (its six is no five
    // there), so the four alone does not win: white's win, if the search
    // sees one, is a longer attack (white does win there, in 13 plies, as
    // a deeper search shows), scored lower than the renju win.
    let exact = analyse(&with_rule(&g, Rule::ExactFive), 2, 500);
    assert!(
        exact.score < r.score,
        "exactly five: white's score {} is not below the renju win's {}",
        exact.score,
        r.score
    );
}

#[test]
fn renju_black_wins_with_exactly_five_and_not_with_six() {
    // Black: a four on row 3 (five point (6,3)), and xxx.xx on row 10
    // ((5,10) makes six). White: a four on row 12 (five point (9,12)).
    let black = [
        (2, 3),
        (3, 3),
        (4, 3),
        (5, 3),
        (2, 10),
        (3, 10),
        (4, 10),
        (6, 10),
        (7, 10),
        (4, 12),
    ];
    let white = [(1, 3), (5, 12), (6, 12), (7, 12), (8, 12)];
    let g = renju_grid(Rule::Renju, &black, &white, true);
    assert_eq!(g.five_points(1), vec![(6, 3)]);
    assert_eq!(forbidden_at(&g, (5, 10)), Some(Forbidden::Overline));
    for level in LEVELS {
        assert_eq!(choose(&g, 1, level, 300), (6, 3), "{level:?}");
    }
    assert!(analyse(&g, 1, 300).score >= WIN_MIN);

    // Without the four on row 3 black's only "five" is the overline, which
    // does not win: black has to block white's four.
    let g = renju_grid(Rule::Renju, &black[4..], &white[1..], true);
    assert!(g.five_points(1).is_empty());
    assert_eq!(g.five_points(2), vec![(9, 12)]);
    let free = with_rule(&g, Rule::Freestyle);
    assert_eq!(free.five_points(1), vec![(5, 10)]);
    for level in LEVELS {
        assert_eq!(choose(&free, 1, level, 300), (5, 10), "freestyle {level:?}");
        assert_eq!(choose(&g, 1, level, 300), (9, 12), "renju {level:?}");
    }
    let r = analyse(&g, 1, 300);
    assert!(
        r.score < WIN_MIN,
        "renju: black scores {} with an overline",
        r.score
    );
}

#[test]
fn renju_white_wins_with_an_overline() {
    // White to move: oo o.oo on row 5 ((6,5) makes six); black has a four
    // on row 9 (five point (8,9)).
    let black = [(4, 9), (5, 9), (6, 9), (7, 9)];
    let white = [(3, 5), (4, 5), (5, 5), (7, 5), (8, 5), (3, 9)];
    let g = renju_grid(Rule::Renju, &black, &white, false);
    assert_eq!(g.five_points(2), vec![(6, 5)]);
    assert_eq!(g.five_points(1), vec![(8, 9)]);
    for level in LEVELS {
        assert_eq!(choose(&g, 2, level, 300), (6, 5), "renju {level:?}");
    }
    assert!(analyse(&g, 2, 300).score >= WIN_MIN);
    // Under exactly five six is nothing for white either: it blocks.
    let exact = with_rule(&g, Rule::ExactFive);
    assert!(exact.five_points(2).is_empty());
    for level in LEVELS {
        assert_eq!(
            choose(&exact, 2, level, 300),
            (8, 9),
            "exactly five {level:?}"
        );
    }
}

/// Random renju positions with black to move, grown in the middle of the
/// board so that black has forbidden points: every level, every time, plays
/// an allowed point.
#[test]
fn renju_black_moves_are_always_allowed() {
    let stop = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(17);
    let mut tried = 0;
    let mut with_forbidden = 0;
    while with_forbidden < 48 {
        tried += 1;
        assert!(tried < 5000, "too few positions with forbidden points");
        let mut g = Grid::new(15, Rule::Renju);
        let pairs = rng.random_range(5..14);
        let mut placed = 0;
        let mut attempts = 0;
        while placed < 2 * pairs && attempts < 1000 {
            attempts += 1;
            let c = if placed % 2 == 0 { 1 } else { 2 };
            let (x, y) = (rng.random_range(4..11), rng.random_range(4..11));
            if g.get(x as i32, y as i32) != 0 || (c == 1 && forbidden_at(&g, (x, y)).is_some()) {
                continue;
            }
            g.set(x, y, c);
            if g.wins_at(x, y) || !g.five_points(1).is_empty() || !g.five_points(2).is_empty() {
                // Keep the games going: no fives and no fours.
                g.set(x, y, 0);
                continue;
            }
            placed += 1;
        }
        if placed < 2 * pairs {
            continue;
        }
        let forbidden = renju::forbidden_points(&referee(&g));
        if forbidden.is_empty() {
            continue;
        }
        with_forbidden += 1;
        let level = ALL[with_forbidden % 8];
        let mut player = GomokuPlayer::new(15, Rule::Renju, 4);
        let (x, y) = player.choose(
            &g.stones(1),
            level,
            &Limits::new(Duration::from_millis(40)),
            &stop,
            &mut rng,
        );
        let mv = (x as usize, y as usize);
        assert_eq!(
            g.get(x as i32, y as i32),
            0,
            "{level:?} played a taken point"
        );
        assert_eq!(
            forbidden_at(&g, mv),
            None,
            "{level:?} played {mv:?}; forbidden: {forbidden:?}"
        );
    }
}

/// Sends a BOARD of the grid with `own` as the brain's colour.
fn send_board(brain: &mut Brain, g: &Grid, own: u8) {
    brain.send("BOARD");
    for y in 0..g.n {
        for x in 0..g.n {
            let c = g.get(x as i32, y as i32);
            if c == 1 || c == 2 {
                let owner = if c == own { 1 } else { 2 };
                brain.send(&format!("{x},{y},{owner}"));
            }
        }
    }
    brain.send("DONE");
}

#[test]
fn pbrain_renju_rule() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 400");
    brain.send("START 15");
    assert_eq!(brain.reply(SECOND), "OK");
    // The brain is black (an even number of stones). Freestyle: (7,7), a
    // double four, wins.
    let (why, g) = forbidden_best_moves().remove(0);
    assert_eq!(why, Forbidden::DoubleFour);
    brain.send("INFO rule 0");
    send_board(&mut brain, &g, 1);
    assert_eq!(parse_xy(&brain.reply(3 * SECOND)), (7, 7));
    // Renju (bit 4, here with exactly five's bit too): not there, nor on
    // any other forbidden point.
    for rule in ["4", "5"] {
        brain.send(&format!("INFO rule {rule}"));
        send_board(&mut brain, &g, 1);
        let mv = parse_xy(&brain.reply(3 * SECOND));
        assert_ne!(mv, (7, 7), "rule {rule}");
        assert_eq!(g.get(mv.0 as i32, mv.1 as i32), 0);
        assert_eq!(forbidden_at(&g, mv), None, "rule {rule}: {mv:?}");
    }
    // An odd number of stones: the brain is white, which wins with six.
    let black = [(4, 9), (5, 9), (6, 9), (7, 9)];
    let white = [(3, 5), (4, 5), (5, 5), (7, 5), (8, 5), (3, 9)];
    let g = renju_grid(Rule::Renju, &black, &white, false);
    brain.send("INFO rule 4");
    send_board(&mut brain, &g, 2);
    assert_eq!(parse_xy(&brain.reply(3 * SECOND)), (6, 5));
    // Exactly five: six is no win, so it blocks black's four.
    brain.send("INFO rule 1");
    send_board(&mut brain, &g, 2);
    assert_eq!(parse_xy(&brain.reply(3 * SECOND)), (8, 9));
    // Caro is not played: ERROR, and the session goes on.
    brain.send("INFO rule 8");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    brain.send("INFO rule 4");
    send_board(&mut brain, &g, 2);
    assert_eq!(parse_xy(&brain.reply(3 * SECOND)), (6, 5));
    brain.finish();
}

/// Sends `SWAP2BOARD`, the stones, `DONE`.
fn send_swap2(brain: &mut Brain, stones: &[(u8, u8)]) {
    brain.send("SWAP2BOARD");
    for (x, y) in stones {
        brain.send(&format!("{x},{y}"));
    }
    brain.send("DONE");
}

fn parse_points(reply: &str) -> Vec<(usize, usize)> {
    reply.split_whitespace().map(parse_xy).collect()
}

#[test]
fn pbrain_swap2_stages() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 500");
    brain.send("INFO rule 1");
    brain.send("START 15");
    assert_eq!(brain.reply(SECOND), "OK");

    // Stage 1: three distinct points near the centre.
    send_swap2(&mut brain, &[]);
    let t = Instant::now();
    let opening = parse_points(&brain.reply(3 * SECOND));
    assert!(
        t.elapsed() < Duration::from_millis(500 + 300),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(opening.len(), 3, "{opening:?}");
    for (i, &(x, y)) in opening.iter().enumerate() {
        assert!(
            (3..=11).contains(&x) && (3..=11).contains(&y),
            "{opening:?}"
        );
        assert!(!opening[..i].contains(&(x, y)), "{opening:?}");
    }

    // Stage 2, white clearly better (black's stones in corners, white's
    // in the middle): the brain stays white and plays one point.
    send_swap2(&mut brain, &[(0, 0), (7, 7), (14, 14)]);
    let reply = brain.reply(3 * SECOND);
    let (x, y) = parse_xy(&reply);
    assert!(![(0, 0), (7, 7), (14, 14)].contains(&(x, y)), "{reply}");
    // The game goes on from there: black's fifth stone, the brain's sixth.
    brain.send("TURN 0,14");
    let next = parse_xy(&brain.reply(3 * SECOND));
    assert!(![(0, 0), (7, 7), (14, 14), (x, y), (0, 14)].contains(&next));

    // Stage 2, black clearly better: SWAP (the brain takes black), and
    // then white's fourth stone comes as a TURN.
    brain.send("RESTART");
    assert_eq!(brain.reply(SECOND), "OK");
    send_swap2(&mut brain, &[(7, 7), (0, 0), (7, 8)]);
    assert_eq!(brain.reply(3 * SECOND), "SWAP");
    brain.send("TURN 7,9");
    let next = parse_xy(&brain.reply(3 * SECOND));
    assert!(![(7, 7), (0, 0), (7, 8), (7, 9)].contains(&next));

    // Stage 3: black's open three against two white stones in corners:
    // SWAP; white's pair in the middle against scattered black: a move.
    send_swap2(&mut brain, &[(6, 7), (0, 0), (7, 7), (14, 14), (8, 7)]);
    assert_eq!(brain.reply(3 * SECOND), "SWAP");
    let white_better = [(0, 0), (7, 7), (14, 0), (8, 7), (0, 14)];
    send_swap2(&mut brain, &white_better);
    let mv = parse_xy(&brain.reply(3 * SECOND));
    assert!(!white_better.contains(&(mv.0 as u8, mv.1 as u8)));

    // An ordinary three-stone opening: whatever the choice, it is well formed.
    send_swap2(&mut brain, &[(7, 7), (8, 8), (6, 8)]);
    let reply = brain.reply(3 * SECOND);
    if reply != "SWAP" {
        let points = parse_points(&reply);
        assert!(points.len() == 1 || points.len() == 2, "{reply}");
        for (i, p) in points.iter().enumerate() {
            assert!(![(7, 7), (8, 8), (6, 8)].contains(p) && !points[..i].contains(p));
        }
    }
    brain.finish();
}

#[test]
fn pbrain_swap2_refuses_bad_input_and_goes_on() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 200");
    // Before START.
    send_swap2(&mut brain, &[]);
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    brain.send("START 15");
    assert_eq!(brain.reply(SECOND), "OK");
    let bad: &[&[&str]] = &[
        // A repeated stone.
        &["7,7", "8,8", "7,7"],
        // Off the board.
        &["7,7", "15,3", "8,8"],
        &["-1,3"],
        // Not a stone (a word would be a command: see below).
        &["7.5,3"],
        &["(7,7)"],
        &["7,7,1", "8,8,2", "9,9,1"],
        // Numbers of stones swap2 does not ask with.
        &["7,7"],
        &["7,7", "8,8", "9,9", "10,10"],
        &["1,1", "2,2", "3,3", "4,4", "5,5", "6,6"],
        &[
            "1,1", "2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8", "9,9", "10,10", "11,11",
        ],
    ];
    for lines in bad {
        brain.send("SWAP2BOARD");
        for l in lines.iter() {
            brain.send(l);
        }
        brain.send("DONE");
        let reply = brain.reply(SECOND);
        assert!(reply.starts_with("ERROR"), "{lines:?}: {reply}");
    }
    // A command before DONE ends the list with an ERROR and is carried out.
    brain.send("SWAP2BOARD");
    brain.send("7,7");
    brain.send("ABOUT");
    assert!(brain.reply(SECOND).starts_with("ERROR"));
    assert!(brain.reply(SECOND).starts_with("name="));
    // Many lines without DONE are not stored: still one ERROR at the end.
    brain.send("SWAP2BOARD");
    for i in 0..2000 {
        brain.send(&format!("{},{}", i % 15, (i / 15) % 15));
    }
    brain.send("DONE");
    assert!(brain.reply(3 * SECOND).starts_with("ERROR"));
    // The session goes on: a good SWAP2BOARD, then an ordinary game.
    send_swap2(&mut brain, &[(7, 7), (8, 7), (9, 9)]);
    let reply = brain.reply(3 * SECOND);
    assert!(
        reply == "SWAP" || !parse_points(&reply).is_empty(),
        "{reply}"
    );
    brain.send("RESTART");
    assert_eq!(brain.reply(SECOND), "OK");
    brain.send("TURN 7,7");
    let mv = parse_xy(&brain.reply(3 * SECOND));
    assert_ne!(mv, (7, 7));
    brain.finish();
}

// ---------------------------------------------------------------------
// Making the learned evaluation: `inarow train gomoku-games` and
// `inarow train gomoku-eval`, through the real binary.

/// Replays one line of a games file; returns the winner the line claims
/// and whether the last move made five for the player who made it.
fn replay_game_line(line: &str) -> (u8, bool, usize) {
    use inarow::engine::gomoku::board::Board;
    let mut fields = line.split_whitespace();
    let result: u8 = fields.next().unwrap().parse().unwrap();
    let mut b = Board::new(15, 15, Rule::Freestyle);
    let mut last = None;
    for mv in fields {
        // `x,y`, or `x,y:S` with the search's score.
        let xy = mv.split(':').next().unwrap();
        let (x, y) = xy.split_once(',').unwrap();
        let p = b.pos(x.parse().unwrap(), y.parse().unwrap()).unwrap();
        assert!(b.is_empty(p), "{mv} played twice in {line}");
        b.play(p);
        last = Some(p);
    }
    let won = last.is_some_and(|p| b.is_win_at(p));
    (result, won, b.stone_count())
}

#[test]
fn self_play_games_are_recorded_legally_and_the_same_seed_plays_them_again() {
    let dir = tempfile::tempdir().unwrap();
    let run_with = |name: &str, seed: &str, extra: &[&std::ffi::OsStr]| {
        let out = dir.path().join(name);
        let status = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["train", "gomoku-games", "--games", "12", "--nodes", "300"])
            .args(["--seed", seed, "--tt-mb", "4", "--out"])
            .arg(&out)
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read_to_string(out).unwrap()
    };
    let run = |name: &str, seed: &str| run_with(name, seed, &[]);
    let a = run("a.txt", "7");
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 12);
    for line in &lines {
        let (result, won, stones) = replay_game_line(line);
        match result {
            // The first player made the last move of a won game when the
            // number of stones is odd.
            1 | 2 => {
                assert!(won, "no five at the end of {line}");
                assert_eq!(stones % 2 == 1, result == 1, "{line}");
            }
            _ => assert_eq!(stones, 225, "a draw before the board is full: {line}"),
        }
    }
    // The openings differ from game to game.
    let firsts: std::collections::HashSet<String> = lines
        .iter()
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    assert!(firsts.len() > 6, "{firsts:?}");
    assert_eq!(run("b.txt", "7"), a, "the same seed played different games");
    assert_ne!(run("c.txt", "8"), a);
    // `--level 8`: the full engine plays both sides, bounded by the nodes
    // alone: other games than level 7's, and the same again for the same
    // seed.
    let level8: [&std::ffi::OsStr; 2] = ["--level".as_ref(), "8".as_ref()];
    let l8 = run_with("l8.txt", "7", &level8);
    assert_eq!(l8.lines().count(), 12);
    for line in l8.lines() {
        let (result, won, stones) = replay_game_line(line);
        assert!(won || (result == 0 && stones == 225), "{line}");
    }
    assert_ne!(l8, a);
    assert_eq!(run_with("l8b.txt", "7", &level8), l8);

    // Fitting on them writes a weight file the engine can read; a games
    // file with an illegal move is refused with its line number.
    let fit_on = |games: &[&str], out: &std::path::Path, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["train", "gomoku-eval", "--iterations", "3", "--games"])
            .args(games.iter().map(|g| dir.path().join(g)))
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let fit = |out: &std::path::Path, extra: &[&str]| fit_on(&["a.txt", "c.txt"], out, extra);
    let weights = dir.path().join("w.txt");
    let out = fit(&weights, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("24 games:"), "{stdout}");
    let text = std::fs::read_to_string(&weights).unwrap();
    let w = inarow::engine::gomoku::learned::Weights::parse(&text).unwrap();
    assert!(w.shapes.iter().any(|&[a, b]| a != 0 || b != 0), "{text}");
    assert!(text.contains("Log loss held out"), "{text}");

    // A round of games played with those weights: not the games the
    // shipped weights play; the shipped weights given as a file play those
    // again.
    fn with(file: &std::path::Path) -> [&std::ffi::OsStr; 2] {
        ["--weights".as_ref(), file.as_os_str()]
    }
    assert_ne!(run_with("d.txt", "7", &with(&weights)), a);

    // With `--threats` the fit adds a weight per threat state; the
    // engine plays with them: the same weights without those lines play
    // other games.
    let threats = dir.path().join("wt.txt");
    let out = fit(&threats, &["--threats"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text_t = std::fs::read_to_string(&threats).unwrap();
    let wt = inarow::engine::gomoku::learned::Weights::parse(&text_t).unwrap();
    assert!(wt.threat.iter().any(|&x| x != 0), "{text_t}");
    assert!(text_t.contains("--threats"), "{text_t}");
    assert!(!text.contains("\nthreat "), "{text}");
    let stripped = dir.path().join("wt-stripped.txt");
    let kept: String = text_t
        .lines()
        .filter(|l| !l.starts_with("threat "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&stripped, kept).unwrap();
    assert_ne!(
        run_with("g.txt", "7", &with(&threats)),
        run_with("h.txt", "7", &with(&stripped)),
        "the threat weights changed no game"
    );
    // `--experiment` fits another feature set and only reports its log
    // losses: more weights than the shipped features, and no file.
    // (`fine-shapes`' 5,735 weights make a Newton step of half a minute;
    // its features are checked in `learned`'s unit tests.)
    {
        let (name, weights_at_least) = ("fine-levels", 2 * 715 + 28);
        let none = dir.path().join(format!("x-{name}.txt"));
        let out = fit(&none, &["--threats", "--experiment", name]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = stdout
            .lines()
            .find(|l| l.starts_with("experiment"))
            .unwrap_or_else(|| panic!("{stdout}"));
        let n: usize = line
            .split_whitespace()
            .nth(2)
            .unwrap()
            .trim_end_matches(':')
            .parse()
            .unwrap();
        assert!(n >= weights_at_least + 972, "{line}");
        assert!(line.contains("held out"), "{line}");
        assert!(!none.exists(), "{name} wrote a weight file");
    }
    let shipped = dir.path().join("shipped.txt");
    std::fs::write(&shipped, inarow::engine::gomoku::learned::SHIPPED).unwrap();
    assert_eq!(run_with("e.txt", "7", &with(&shipped)), a);
    // A weight file that does not parse, or weights with the hand-set
    // evaluation, are refused before any game is played.
    let refused: [(Vec<std::ffi::OsString>, &str); 3] = [
        (vec!["--level".into(), "9".into()], "9 is not in 7..=8"),
        (
            vec![
                "--weights".into(),
                dir.path().join("a.txt").into_os_string(),
            ],
            "a.txt: line 1",
        ),
        (
            vec![
                "--eval".into(),
                "hand".into(),
                "--weights".into(),
                weights.clone().into_os_string(),
            ],
            "--weights needs --eval learned",
        ),
    ];
    for (extra, wants) in refused {
        let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["train", "gomoku-games", "--games", "1", "--out"])
            .arg(dir.path().join("f.txt"))
            .args(&extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains(wants), "{stderr}");
        assert!(!dir.path().join("f.txt").exists());
    }

    // With `--scores` the same games are written with each searched
    // move's score: the opening's stones have none, and the five that
    // ends a won game scores a win for its player.
    let strip = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                l.split_whitespace()
                    .map(|t| t.split(':').next().unwrap())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    // A block of the opponent's only five point decides nothing and
    // carries no score.
    let scored = run_with("s.txt", "7", &["--scores".as_ref()]);
    assert_eq!(strip(&scored), strip(&a), "--scores changed the games");
    let (mut engine_moves, mut with_score, mut blocks) = (0, 0, 0);
    for line in scored.lines() {
        use inarow::engine::gomoku::board::{Board, other};
        use inarow::engine::gomoku::pattern::C_FIVE;
        let moves = scored_moves(line);
        let opening = moves.iter().take_while(|m| m.2.is_none()).count();
        assert!((3..=6).contains(&opening), "{line}");
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (i, &(x, y, score)) in moves.iter().enumerate() {
            let p = b.pos(x, y).unwrap();
            if i >= opening {
                engine_moves += 1;
                with_score += usize::from(score.is_some());
                let op = other(b.to_move());
                if b.count(b.to_move(), C_FIVE) == 0 && b.count(op, C_FIVE) == 1 {
                    blocks += 1;
                    assert_eq!(score, None, "a block scored in {line}");
                }
                if i == moves.len() - 1 && !line.starts_with('0') {
                    assert!(score.unwrap() >= 29_000, "{line}");
                }
            }
            b.play(p);
        }
    }
    assert!(
        blocks > 0 && with_score * 10 > engine_moves * 8,
        "{with_score} of {engine_moves}, {blocks} blocks"
    );
    let scored_c = run_with("sc.txt", "8", &["--scores".as_ref()]);
    assert_eq!(
        strip(&scored_c),
        strip(&std::fs::read_to_string(dir.path().join("c.txt")).unwrap())
    );
    // Without `--score-weight` the scores change nothing: the same weight
    // file as from the plain games. With it the fit aims elsewhere.
    let plain = dir.path().join("w-plain.txt");
    assert!(fit_on(&["s.txt", "sc.txt"], &plain, &[]).status.success());
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), text);
    let mixed = dir.path().join("w-mixed.txt");
    let out = fit_on(&["s.txt", "sc.txt"], &mixed, &["--score-weight", "0.5"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("targets: 0.50 outcome, 0.50 score"),
        "{stdout}"
    );
    let text_m = std::fs::read_to_string(&mixed).unwrap();
    assert!(text_m.contains("--score-weight 0.5"), "{text_m}");
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_ne!(body(&text_m), body(&text), "the scores changed no weight");
    // A score weight needs scores, and lies between 0 and 1.
    for (games, weight, wants) in [
        (["a.txt", "c.txt"], "0.5", "needs games written with"),
        (["s.txt", "sc.txt"], "1.5", "between 0 and 1"),
    ] {
        let out = fit_on(
            &games,
            &dir.path().join("w3.txt"),
            &["--score-weight", weight],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains(wants), "{stderr}");
        assert!(!dir.path().join("w3.txt").exists());
    }

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, format!("{}\n1 7,7 7,7\n", lines[0])).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["train", "gomoku-eval", "--games"])
        .arg(&bad)
        .arg("--out")
        .arg(dir.path().join("w2.txt"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("bad.txt:2: illegal move 7,7"), "{stderr}");
    assert!(!dir.path().join("w2.txt").exists());
}

// Output to a reader that goes away.

/// `inarow bench gomoku | head -1`: the command ends quietly when its
/// reader closes the pipe (no panic, no message; status 141, what a shell
/// reports for a command ended that way), and a write that fails for
/// another reason is a clear error, not a panic.
/// One games file line's moves: (x, y, score if any).
fn scored_moves(line: &str) -> Vec<(usize, usize, Option<i32>)> {
    line.split_whitespace()
        .skip(1)
        .map(|t| {
            let (xy, score) = match t.split_once(':') {
                Some((xy, s)) => (xy, Some(s.parse().unwrap())),
                None => (t, None),
            };
            let (x, y) = xy.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap(), score)
        })
        .collect()
}

#[test]
fn deeper_searches_score_the_positions_the_fit_uses_without_changing_the_games() {
    use inarow::engine::gomoku::board::Board;
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let output = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["train", "gomoku-games", "--games", "10", "--nodes", "300"])
            .args(["--seed", "11", "--tt-mb", "4", "--scores", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        assert!(output.status.success(), "{stdout}");
        (std::fs::read_to_string(out).unwrap(), stdout)
    };
    let (shallow, _) = run("shallow.txt", &[]);
    let (deep, said) = run("deep.txt", &["--score-nodes", "4000"]);
    assert_eq!(run("deep2.txt", &["--score-nodes", "4000"]).0, deep);
    let (late, _) = run("late.txt", &["--score-nodes", "4000", "--score-from", "20"]);
    let (mut scored, mut differ, mut quiet_unscored) = (0, 0, 0);
    for ((s, d), l) in shallow.lines().zip(deep.lines()).zip(late.lines()) {
        let (s, d, l) = (scored_moves(s), scored_moves(d), scored_moves(l));
        assert_eq!(s.len(), d.len());
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for ((&(x, y, ss), &(dx, dy, ds)), &(lx, ly, ls)) in s.iter().zip(&d).zip(&l) {
            // The same games, move for move.
            assert_eq!((x, y), (dx, dy));
            assert_eq!((x, y), (lx, ly));
            let usable =
                b.stone_count() >= 8 && inarow::engine::gomoku::learned::sample(&b).is_some();
            // A deep score exactly where the game's search judged a
            // position the fit uses; none before `--score-from`.
            assert_eq!(
                ds.is_some(),
                ss.is_some() && usable,
                "{x},{y} at {}",
                b.stone_count()
            );
            assert_eq!(ls.is_some(), ds.is_some() && b.stone_count() >= 20);
            if ls.is_some() {
                assert_eq!(ls, ds, "the same position, the same deep search");
            }
            quiet_unscored += usize::from(ss.is_some() && usable && ds.is_none());
            if let Some(ds) = ds {
                scored += 1;
                differ += usize::from(Some(ds) != ss);
            }
            b.play(b.pos(x, y).unwrap());
        }
    }
    assert_eq!(quiet_unscored, 0);
    // 13 times the nodes judge some positions otherwise.
    assert!(
        scored > 50 && differ * 5 > scored,
        "{differ} of {scored} differ"
    );
    assert!(
        said.contains(&format!(
            "{scored} positions scored by searches of 4000 nodes"
        )),
        "{said}"
    );
    // Deeper scores need `--scores`, and at least one node.
    for (extra, wants) in [
        (vec!["--score-nodes", "4000"], "--scores"),
        (vec!["--scores", "--score-nodes", "0"], "at least 1"),
        (vec!["--scores", "--score-from", "9"], "--score-nodes"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["train", "gomoku-games", "--games", "1", "--out"])
            .arg(dir.path().join("refused.txt"))
            .args(&extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr.contains(wants), "{extra:?}: {stderr}");
        assert!(!dir.path().join("refused.txt").exists());
    }
}

#[test]
fn output_to_a_closed_pipe_ends_quietly_and_a_failed_write_is_an_error() {
    let bin = env!("CARGO_BIN_EXE_inarow");
    // Depth 9 searches for a while after the header line, so most of the
    // output is written after the reader has gone.
    let mut child = Command::new(bin)
        .args(["bench", "gomoku", "--depth", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start inarow bench gomoku");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    reader.read_line(&mut header).unwrap();
    assert!(header.starts_with("position"), "{header:?}");
    drop(reader);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "stderr: {stderr}");
    assert!(stderr.is_empty(), "stderr: {stderr}");

    let full = std::fs::File::create("/dev/full").expect("open /dev/full");
    let out = Command::new(bin)
        .args(["bench", "gomoku", "--depth", "3"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("inarow: error: writing the output: No space left"),
        "stderr: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

/// A pbrain engine that plays the first empty point, row by row: the
/// opponent that loses every game, with either colour.
const FIRST_EMPTY_BRAIN: &str = r#"
import sys
size, taken = 15, set()
def move():
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                print(f"{x},{y}", flush=True)
                return
board = False
for line in sys.stdin:
    cmd = line.strip().upper()
    if board:
        if cmd == "DONE":
            board = False
            move()
        else:
            x, y, _ = cmd.split(",")
            taken.add((int(x), int(y)))
    elif cmd.startswith("START"):
        taken.clear()
        print("OK", flush=True)
    elif cmd == "BOARD":
        taken.clear()
        board = True
    elif cmd.startswith("TURN"):
        x, y = cmd.split()[1].split(",")
        taken.add((int(x), int(y)))
        move()
    elif cmd == "END":
        break
"#;

/// `scripts/pbrain-match.py` counts the openings each engine won with both
/// colours: against an engine that loses everything, the winner is credited
/// with every opening, whichever side of the command line it is on.
#[test]
fn the_opening_judge_lists_each_kind_of_three_stone_opening_once_and_scores_them() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/judge-openings.py");
    let out = Command::new("python3")
        .args([script, "--list"])
        .output()
        .expect("run python3 scripts/judge-openings.py");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let parse = |line: &str| -> Vec<(i32, i32)> {
        let moves = line.split('#').next().unwrap();
        moves
            .split_whitespace()
            .map(|w| {
                let (x, y) = w.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    };
    // The eight symmetries of the board about its centre (7,7).
    let images = |p: (i32, i32)| {
        let (x, y) = (p.0 - 7, p.1 - 7);
        [
            (x, y),
            (-x, y),
            (x, -y),
            (-x, -y),
            (y, x),
            (-y, x),
            (y, -x),
            (-y, -x),
        ]
        .map(|(a, b)| (a + 7, b + 7))
    };
    let mut kinds = std::collections::HashSet::new();
    let mut count = 0;
    for line in text.lines() {
        let m = parse(line);
        assert_eq!(m.len(), 3, "{line}");
        assert!(m[0] != m[1] && m[1] != m[2] && m[0] != m[2], "{line}");
        assert!(
            m.iter()
                .all(|&(x, y)| (x - 7).abs() <= 2 && (y - 7).abs() <= 2),
            "{line}"
        );
        // Its kind: the least image (blacks sorted, then white); no two lines share one.
        let kind = (0..8)
            .map(|k| {
                let (b1, w, b2) = (images(m[0])[k], images(m[1])[k], images(m[2])[k]);
                (b1.min(b2), b1.max(b2), w)
            })
            .min()
            .unwrap();
        assert!(
            kinds.insert(kind),
            "{line} is a symmetric image of another line"
        );
        count += 1;
    }
    // Every kind: two blacks and a white on 25 points come in 904 kinds.
    let mut all = std::collections::HashSet::new();
    let pts: Vec<(i32, i32)> = (5..10).flat_map(|x| (5..10).map(move |y| (x, y))).collect();
    for (i, &b1) in pts.iter().enumerate() {
        for &b2 in &pts[i + 1..] {
            for &w in &pts {
                if w != b1 && w != b2 {
                    all.insert(
                        (0..8)
                            .map(|k| {
                                let (p, q, r) = (images(b1)[k], images(b2)[k], images(w)[k]);
                                (p.min(q), p.max(q), r)
                            })
                            .min()
                            .unwrap(),
                    );
                }
            }
        }
    }
    assert_eq!(count, all.len());
    assert_eq!(count, 904);
    // The shipped balanced openings are 50 of these kinds, each once.
    let listed: std::collections::HashSet<&str> = text.lines().collect();
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/balanced-openings.txt"
    ))
    .unwrap();
    let shipped: Vec<&str> = shipped
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(" # ").next().unwrap())
        .collect();
    assert_eq!(shipped.len(), 50);
    assert!(shipped.iter().all(|l| listed.contains(l)), "{shipped:?}");
    assert_eq!(
        shipped
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        50
    );

    // Judged by the real engine (every 300th opening from the 7th: 3 of
    // them): each line carries its score, and the match script reads the
    // output as an openings file.
    let engine = format!(
        "{} pbrain --tt-mb 16 --messages",
        env!("CARGO_BIN_EXE_inarow")
    );
    let out = Command::new("python3")
        .args([
            script,
            &engine,
            "--turn-ms",
            "100",
            "--parts",
            "300",
            "--part",
            "7",
        ])
        .output()
        .expect("run python3 scripts/judge-openings.py");
    let judged = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{judged}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Vec<&str> = text.lines().skip(7).step_by(300).collect();
    let lines: Vec<&str> = judged.lines().collect();
    assert_eq!(lines.len(), listed.len(), "{judged}");
    for (line, listed) in lines.iter().zip(&listed) {
        let (moves, score) = line.split_once(" # ").unwrap();
        assert_eq!(moves, *listed);
        score.parse::<i32>().unwrap_or_else(|_| panic!("{line}"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("judged.txt");
    std::fs::write(&file, judged.as_bytes()).unwrap();
    let brain = dir.path().join("first_empty.py");
    std::fs::write(&brain, FIRST_EMPTY_BRAIN).unwrap();
    let weak = format!("python3 {}", brain.display());
    let out = Command::new("python3")
        .args([
            concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pbrain-match.py"),
            &weak,
            &weak,
            "--openings-file",
            file.to_str().unwrap(),
            "--quiet",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("over 6 games"), "{text}");
}

#[test]
fn the_match_script_plays_the_openings_of_a_file_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let brain = dir.path().join("first_empty.py");
    std::fs::write(&brain, FIRST_EMPTY_BRAIN).unwrap();
    let weak = format!("python3 {}", brain.display());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pbrain-match.py");
    let file = dir.path().join("openings.txt");
    std::fs::write(
        &file,
        "# three openings\n7,7 7,8 6,6\n\n5,5 9,9 6,5 # judged -12\n8,8 7,7 9,9\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![script, &weak, &weak, "--turn-ms", "200"];
        args.extend_from_slice(extra);
        Command::new("python3")
            .args(&args)
            .output()
            .expect("run python3 scripts/pbrain-match.py")
    };
    // The second opening alone, from both sides: each game starts with its moves.
    let path = file.to_str().unwrap();
    let out = run(&["--openings-file", path, "--offset", "1", "--openings", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("over 2 games"), "{text}");
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game")).collect();
    assert_eq!(games.len(), 2, "{text}");
    for g in games {
        let moves = g.split_once(" moves: ").unwrap().1;
        assert!(moves.starts_with("5,5 9,9 6,5 "), "{g}");
    }
    // The whole file: three openings, six games.
    let out = run(&["--openings-file", path, "--quiet"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("over 6 games") && text.contains("openings: 3;"),
        "{text}"
    );
    // A point off the board or played twice is refused with its line.
    for bad in ["7,7 15,3\n", "7,7 7,8 7,7\n", "7,7 x\n"] {
        std::fs::write(&file, format!("6,6 6,7\n{bad}")).unwrap();
        let out = run(&["--openings-file", path]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{bad:?} was accepted");
        assert!(
            err.contains("openings.txt:2: not an opening"),
            "{bad:?}: {err}"
        );
    }
    // A file that is not there is named, without a traceback.
    let missing = dir.path().join("missing.txt");
    let out = run(&["--openings-file", missing.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("missing.txt: No such file or directory"),
        "{err}"
    );
    assert!(!err.contains("Traceback"), "{err}");
    // So is an engine that cannot be started.
    let out = Command::new("python3")
        .args([script, &weak, "/nonexistent/engine pbrain"])
        .output()
        .expect("run python3 scripts/pbrain-match.py");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(
            "engine B: cannot start '/nonexistent/engine pbrain': No such file or directory"
        ),
        "{err}"
    );
    assert!(!err.contains("Traceback"), "{err}");
}

/// An engine that moves on `DONE` but answers every `TURN` with an error,
/// as one that drops a command it reads while still thinking does.
const ERROR_ON_TURN_BRAIN: &str = r#"
import sys
taken = set()
for line in sys.stdin:
    cmd = line.strip().upper()
    if cmd.startswith("START"):
        print("OK", flush=True)
    elif cmd == "BOARD":
        taken.clear()
    elif cmd.count(",") == 2:
        x, y, _ = cmd.split(",")
        taken.add((int(x), int(y)))
    elif cmd == "DONE":
        x = min(x for x in range(15) if (x, 0) not in taken)
        print(f"{x},0", flush=True)
    elif cmd.startswith("TURN"):
        print("ERROR Unknown command: " + cmd.split()[1], flush=True)
    elif cmd == "END":
        break
"#;

#[test]
fn the_match_script_warns_when_games_are_lost_to_answers_that_are_not_moves() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("first_empty.py");
    std::fs::write(&good, FIRST_EMPTY_BRAIN).unwrap();
    let bad = dir.path().join("error_on_turn.py");
    std::fs::write(&bad, ERROR_ON_TURN_BRAIN).unwrap();
    let good = format!("python3 {}", good.display());
    let bad = format!("python3 {}", bad.display());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pbrain-match.py");
    let run = |a: &str, b: &str| {
        crate::util::output_ok(Command::new("python3").args([
            script,
            a,
            b,
            "--openings",
            "2",
            "--stones",
            "3",
            "--turn-ms",
            "200",
        ]))
    };
    // B fails the protocol at its second move of every game: four games
    // lost, each counted as a fault, and the summary says so.
    let text = run(&good, &bad);
    assert!(text.contains("A vs B: 4-0-0"), "{text}");
    assert!(text.contains("B played 'ERROR Unknown command: "), "{text}");
    assert!(
        text.contains("WARNING: games lost to an answer that was not a move: A 0, B 4;"),
        "{text}"
    );
    // The same engine as A: the faults are A's.
    let text = run(&bad, &good);
    assert!(text.contains("not a move: A 4, B 0;"), "{text}");
    // Games decided by play carry no warning.
    let text = run(&good, &good);
    assert!(text.contains("over 4 games"), "{text}");
    assert!(!text.contains("WARNING"), "{text}");
}

#[test]
fn the_match_script_counts_the_openings_won_with_both_colours() {
    let dir = tempfile::tempdir().unwrap();
    let brain = dir.path().join("first_empty.py");
    std::fs::write(&brain, FIRST_EMPTY_BRAIN).unwrap();
    let ours = format!("{} pbrain --tt-mb 16", env!("CARGO_BIN_EXE_inarow"));
    let weak = format!("python3 {}", brain.display());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pbrain-match.py");
    for (a, b, pairs, score, penta) in [
        (
            &ours,
            &weak,
            "A won both games of 3, B won both of 0, split or drawn 0",
            "A scores 100.0 %",
            "pairs by A's points 0/0.5/1/1.5/2: 0 0 0 0 3; A scores 100.0 % +- 0.0",
        ),
        (
            &weak,
            &ours,
            "A won both games of 0, B won both of 3, split or drawn 0",
            "A scores 0.0 %",
            "pairs by A's points 0/0.5/1/1.5/2: 3 0 0 0 0; A scores 0.0 % +- 0.0",
        ),
    ] {
        let out = Command::new("python3")
            .args([
                script,
                a,
                b,
                "--openings",
                "3",
                "--stones",
                "3",
                "--turn-ms",
                "200",
                "--quiet",
            ])
            .output()
            .expect("run python3 scripts/pbrain-match.py");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("over 6 games"), "{text}");
        assert!(text.contains(score), "{text}");
        assert!(text.contains(&format!("openings: 3; {pairs}")), "{text}");
        assert!(text.contains(penta), "{text}");
    }
    // The error over pairs, worked by hand: one opening lost twice, two
    // split, one won twice: pair scores 0, 0.5, 0.5, 1, mean 0.5,
    // variance 0.125, standard error sqrt(0.125 / 4) = 0.177.
    let out = Command::new("python3")
        .args(["-c", "import importlib.util as u, sys; s = u.spec_from_file_location('m', sys.argv[1]); m = u.module_from_spec(s); s.loader.exec_module(m); print(m.pair_summary([1, 0, 2, 0, 1]))", script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("1 0 2 0 1; A scores 50.0 % +- 17.7 (one standard error over the pairs)"),
        "{text}"
    );
}

/// `inarow bench gomoku --suite` searches every position of a file and
/// counts the wins it proves; a position answered without a search (a five
/// to block) is counted apart, and a bad line names its line number.
#[test]
fn the_suite_bench_counts_proven_wins_and_refuses_bad_lines() {
    let bin = env!("CARGO_BIN_EXE_inarow");
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.txt");
    std::fs::write(
        &suite,
        "# header\n\
         \n\
         7,7 0,0 8,7 0,14 9,7 14,0  # black's open three: an open four wins\n\
         7,7 6,7 8,7 0,0 9,7 0,2 10,7  # white blocks the five at 11,7\n\
         7,7 8,8  # quiet\n\
         7,5 0,0 7,6 14,14 5,7 0,14 6,7 14,0  # black: 7,7 makes two open threes\n",
    )
    .unwrap();
    let out = Command::new(bin)
        .args(["bench", "gomoku", "--depth", "4", "--suite"])
        .arg(&suite)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("line")).collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows[0].starts_with("line3 "), "{stdout}");
    assert!(
        rows[1].contains(" 11,7 ") && rows[1].ends_with("Forced"),
        "{stdout}"
    );
    assert!(
        stdout.contains("suite: won 2 of 3 positions (1 more answered by force, not counted)"),
        "{stdout}"
    );

    for (text, wants) in [
        (
            "7,7 8,8\n7,7 15,1\n",
            "line 2: move \"15,1\" is off the 15x15 board",
        ),
        ("7,7 7,7\n", "line 1: move \"7,7\" is played twice"),
        ("7,7 8\n", "line 1: move \"8\" is not x,y"),
        ("# only a comment\n", "no positions"),
    ] {
        std::fs::write(&suite, text).unwrap();
        let out = Command::new(bin)
            .args(["bench", "gomoku", "--depth", "1", "--suite"])
            .arg(&suite)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{text:?}");
        assert!(stderr.contains(wants), "{text:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{text:?}");
    }
}

/// A judge that reports a forced win for the side to move once the board
/// holds eight stones or more, and a plain score before.
const MATE_AT_EIGHT_JUDGE: &str = r#"
import sys
stones, board = 0, False
for line in sys.stdin:
    cmd = line.strip().upper()
    if board:
        if cmd == "DONE":
            board = False
            print("MESSAGE Eval +M5" if stones >= 8 else "MESSAGE Eval 12", flush=True)
            print("0,0", flush=True)
        else:
            stones += 1
    elif cmd.startswith("START"):
        print("OK", flush=True)
    elif cmd == "BOARD":
        stones, board = 0, True
    elif cmd == "END":
        break
"#;

/// `scripts/judge-games.py` prints, for each game the named engine lost,
/// the first position after one of its moves that the judge calls won for
/// the side to move, and nothing for the games it won.
#[test]
fn the_game_judge_finds_the_first_position_judged_lost_after_the_losers_move() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/judge-games.py");
    let dir = tempfile::tempdir().unwrap();
    let judge = dir.path().join("judge.py");
    std::fs::write(&judge, MATE_AT_EIGHT_JUDGE).unwrap();
    let moves: Vec<String> = (0..12).map(|i| format!("{i},{}", i % 3)).collect();
    let log = dir.path().join("match.txt");
    std::fs::write(
        &log,
        format!(
            "game   1 A first: B wins in 12 moves: {m}\n\
             game   1 B first: A wins in 12 moves: {m}\n\
             game   2 B first: B wins in 12 moves: {m}\n\
             A vs B: 1-2-0\n",
            m = moves.join(" ")
        ),
    )
    .unwrap();
    let run = |loser: &str| {
        let out = Command::new("python3")
            .arg(script)
            .arg(&log)
            .args([
                "--judge",
                &format!("python3 {}", judge.display()),
                "--turn-ms",
                "10",
            ])
            .args(["--loser", loser])
            .output()
            .expect("run python3 scripts/judge-games.py");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // Game 1 (A first: A is white, the fourth stone): positions after A's
    // moves have an even number of stones, the first of eight or more is
    // eight. Game 2 (B first: A is black): an odd number, so nine.
    let want_a = format!(
        "{} # game 1\n{} # game 2\n",
        moves[..8].join(" "),
        moves[..9].join(" ")
    );
    assert_eq!(run("A"), want_a);
    // B lost only the second game of opening 1, as white: eight stones.
    assert_eq!(run("B"), format!("{} # game 1\n", moves[..8].join(" ")));
}
