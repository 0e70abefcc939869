//! Rules of both games: wins in every direction touching every edge, draws,
//! gravity, occupied and off-board points, exactly-five, notation output.

use std::collections::BTreeSet;

use inarow::game::{GameKind, IllegalMoveError, Move, Outcome, Point, Position, Rules, Side};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Brute-force oracle: every maximal run of `side`'s stones through `p`, per direction.
fn runs_through(pos: &Position, p: Point, side: Side) -> Vec<((i32, i32), Vec<Point>)> {
    let r = pos.rules();
    let inside =
        |x: i32, y: i32| x >= 0 && y >= 0 && x < i32::from(r.width()) && y < i32::from(r.height());
    let mut out = Vec::new();
    for d in DIRS {
        let (mut x, mut y) = (i32::from(p.x), i32::from(p.y));
        while inside(x - d.0, y - d.1)
            && pos.get(Point::new((x - d.0) as u8, (y - d.1) as u8)) == Some(side)
        {
            x -= d.0;
            y -= d.1;
        }
        let mut run = Vec::new();
        while inside(x, y) && pos.get(Point::new(x as u8, y as u8)) == Some(side) {
            run.push(Point::new(x as u8, y as u8));
            x += d.0;
            y += d.1;
        }
        out.push((d, run));
    }
    out
}

/// Which board edges a line touches.
fn edges(rules: &Rules, line: &[Point]) -> Vec<&'static str> {
    let mut e = Vec::new();
    if line.iter().any(|p| p.x == 0) {
        e.push("left");
    }
    if line.iter().any(|p| p.x == rules.width() - 1) {
        e.push("right");
    }
    if line.iter().any(|p| p.y == 0) {
        e.push("bottom");
    }
    if line.iter().any(|p| p.y == rules.height() - 1) {
        e.push("top");
    }
    e
}

fn direction_of(line: &[Point]) -> (i32, i32) {
    let (a, b) = (line[0], line[1]);
    (
        i32::from(b.x) - i32::from(a.x),
        i32::from(b.y) - i32::from(a.y),
    )
}

/// Plays random games on gravity boards, checking every outcome against the
/// oracle, and returns the (direction, edge) pairs that winning lines covered.
fn random_connect_four_games(
    rules: Rules,
    games: usize,
    seed: u64,
) -> BTreeSet<((i32, i32), &'static str)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = BTreeSet::new();
    let k = usize::from(rules.line());
    for _ in 0..games {
        let mut pos = Position::new(rules);
        while !pos.is_over() {
            let side = pos.to_move();
            let m = *pos.legal_moves().choose(&mut rng).unwrap();
            let p = pos.play(m).unwrap();
            let wins: Vec<_> = runs_through(&pos, p, side)
                .into_iter()
                .filter(|(_, run)| run.len() >= k)
                .collect();
            match pos.outcome() {
                Outcome::Win { side: w, line } => {
                    assert_eq!(*w, side);
                    assert!(!wins.is_empty(), "a win the oracle does not see: {line:?}");
                    assert!(line.contains(&p), "the line must hold the last stone");
                    // The reported line is one of the oracle's maximal runs, in order.
                    assert!(
                        wins.iter().any(|(_, run)| run == line),
                        "{line:?} vs {wins:?}"
                    );
                    let d = direction_of(line);
                    for e in edges(&rules, line) {
                        seen.insert((d, e));
                    }
                }
                Outcome::Draw => {
                    assert!(wins.is_empty());
                    assert_eq!(pos.stones(), rules.cells());
                }
                Outcome::Ongoing => assert!(wins.is_empty(), "the oracle sees a win: {wins:?}"),
            }
        }
    }
    seen
}

/// Every direction paired with every edge.
fn all_direction_edge_pairs() -> BTreeSet<((i32, i32), &'static str)> {
    DIRS.iter()
        .flat_map(|&d| ["left", "right", "bottom", "top"].map(|e| (d, e)))
        .collect()
}

#[test]
fn connect_four_wins_in_every_direction_touching_every_edge() {
    for (w, h) in [(7, 6), (8, 7), (9, 7)] {
        let rules = Rules::new(GameKind::ConnectFour, w, h, 4, false).unwrap();
        let seen = random_connect_four_games(rules, 40_000, u64::from(w) * 31 + u64::from(h));
        let want = all_direction_edge_pairs();
        let missing: Vec<_> = want.difference(&seen).collect();
        assert!(missing.is_empty(), "{w}x{h}: never saw {missing:?}");
    }
}

/// Plays `first` stones for the first player and `second` for the second,
/// alternating, the first player's in the given order.
fn gomoku(rules: Rules, first: &[Point], second: &[Point]) -> Position {
    let mut pos = Position::new(rules);
    for i in 0..first.len().max(second.len()) {
        if let Some(&p) = first.get(i) {
            pos.play(Move::Point(p)).unwrap();
        }
        if let Some(&p) = second.get(i) {
            if pos.is_over() {
                break;
            }
            pos.play(Move::Point(p)).unwrap();
        }
    }
    pos
}

/// Stones for the second player that never make a line: a loose scatter
/// in a region given by the caller.
fn scatter(region: impl Fn(u8) -> Point, n: usize) -> Vec<Point> {
    (0..n as u8).map(region).collect()
}

#[test]
fn gomoku_wins_in_every_direction_touching_every_edge() {
    let rules = Rules::gomoku();
    let n = 15u8;
    let mut seen = BTreeSet::new();
    for (dx, dy) in DIRS {
        // Start points that put a line of five against each edge.
        let starts: Vec<(i32, i32)> = match (dx, dy) {
            (1, 0) => vec![(0, 7), (10, 7), (5, 0), (5, 14)],
            (0, 1) => vec![(0, 5), (14, 5), (7, 0), (7, 10)],
            (1, 1) => vec![(0, 3), (10, 3), (3, 0), (3, 10)],
            _ => vec![(0, 8), (10, 8), (6, 4), (6, 14)],
        };
        for (sx, sy) in starts {
            let line: Vec<Point> = (0..5)
                .map(|i| Point::new((sx + dx * i) as u8, (sy + dy * i) as u8))
                .collect();
            // Complete the line with each of its stones last in turn.
            for last in 0..5 {
                let mut order: Vec<Point> =
                    line.iter().copied().filter(|&p| p != line[last]).collect();
                order.push(line[last]);
                // The opponent plays far from the line, in a loose pattern.
                let far = |i: u8| {
                    let cand = [
                        Point::new(2 * i, 12),
                        Point::new(2 * i, 2),
                        Point::new(13, 2 * i),
                        Point::new(1, 2 * i),
                    ];
                    *cand
                        .iter()
                        .find(|p| {
                            p.x < n
                                && p.y < n
                                && line
                                    .iter()
                                    .all(|q| q.x.abs_diff(p.x) > 1 || q.y.abs_diff(p.y) > 1)
                        })
                        .unwrap()
                };
                let second = scatter(far, 4);
                let pos = gomoku(rules, &order, &second);
                match pos.outcome() {
                    Outcome::Win { side, line: won } => {
                        assert_eq!(*side, Side::First);
                        assert_eq!(won, &line, "start ({sx},{sy}) dir ({dx},{dy})");
                        for e in edges(&rules, won) {
                            seen.insert(((dx, dy), e));
                        }
                    }
                    o => panic!("no win for line {line:?}: {o:?}"),
                }
            }
        }
    }
    let want = all_direction_edge_pairs();
    let missing: Vec<_> = want.difference(&seen).collect();
    assert!(missing.is_empty(), "never saw {missing:?}");
}

#[test]
fn winning_line_prints_in_cell_notation() {
    let rules = Rules::connect_four();
    let mut pos = Position::new(rules);
    for c in [1, 0, 2, 0, 3, 0, 4] {
        pos.play(Move::Column(c)).unwrap();
    }
    let Outcome::Win { line, .. } = pos.outcome() else {
        panic!()
    };
    assert_eq!(rules.format_points(line), "(1|0) (2|0) (3|0) (4|0)");
    let g = gomoku(
        Rules::gomoku(),
        &[
            Point::new(7, 7),
            Point::new(8, 7),
            Point::new(9, 7),
            Point::new(10, 7),
            Point::new(11, 7),
        ],
        &[
            Point::new(0, 0),
            Point::new(0, 2),
            Point::new(0, 4),
            Point::new(0, 6),
        ],
    );
    let Outcome::Win { line, .. } = g.outcome() else {
        panic!()
    };
    assert_eq!(Rules::gomoku().format_points(line), "h8 i8 j8 k8 l8");
}

/// A fill pattern with no three in a row anywhere: colour = (x/2 + y) mod 2.
fn pattern_side(p: Point) -> Side {
    if (p.x / 2 + p.y).is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    }
}

/// Fills a gravity board following the pattern, finding a legal play order by search.
fn fill_with_pattern(pos: &mut Position) -> bool {
    if pos.stones() == pos.rules().cells() {
        return true;
    }
    for x in 0..pos.rules().width() {
        if let Some(p) = pos.landing(x)
            && pattern_side(p) == pos.to_move()
        {
            pos.play(Move::Column(x)).unwrap();
            assert!(!matches!(pos.outcome(), Outcome::Win { .. }));
            if fill_with_pattern(pos) {
                return true;
            }
            pos.undo();
        }
    }
    false
}

#[test]
fn full_boards_are_draws() {
    for (w, h) in [(7, 6), (8, 7), (9, 7)] {
        let rules = Rules::new(GameKind::ConnectFour, w, h, 4, false).unwrap();
        let mut pos = Position::new(rules);
        if !fill_with_pattern(&mut pos) {
            // 9x7 has an odd number of cells and this pattern does not
            // balance there; the even boards must fill.
            assert_eq!((w, h), (9, 7), "no drawn fill found for {w}x{h}");
            continue;
        }
        assert_eq!(pos.outcome(), &Outcome::Draw, "{w}x{h}");
        assert!(pos.legal_moves().is_empty());
    }
    // Gomoku: the pattern gives the first player 113 points and the second 112.
    let rules = Rules::gomoku();
    let first: Vec<Point> = (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
        .filter(|&p| pattern_side(p) == Side::First)
        .collect();
    let second: Vec<Point> = (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
        .filter(|&p| pattern_side(p) == Side::Second)
        .collect();
    assert_eq!((first.len(), second.len()), (113, 112));
    let pos = gomoku(rules, &first, &second);
    assert_eq!(pos.outcome(), &Outcome::Draw);
}

#[test]
fn gravity_and_full_columns() {
    let mut pos = Position::new(Rules::connect_four());
    for i in 0..6 {
        assert_eq!(pos.play(Move::Column(2)).unwrap(), Point::new(2, i));
    }
    let before = pos.clone();
    let err = pos.play(Move::Column(2)).unwrap_err();
    assert_eq!(err, IllegalMoveError::ColumnFull('C'));
    assert_eq!(err.to_string(), "column C is full");
    assert_eq!(pos, before, "a refused move changes nothing");
    assert!(!pos.legal_moves().contains(&Move::Column(2)));
    // A cell above the landing cell is not playable.
    let mut pos = Position::new(Rules::connect_four());
    assert!(matches!(
        pos.play(Move::Point(Point::new(0, 3))),
        Err(IllegalMoveError::NotLanding { .. })
    ));
}

#[test]
fn occupied_and_off_board_points() {
    let rules = Rules::gomoku();
    let mut pos = Position::new(rules);
    pos.play(rules.parse_move("h8").unwrap()).unwrap();
    assert_eq!(
        pos.play(rules.parse_move("8,h").unwrap())
            .unwrap_err()
            .to_string(),
        "h8 is already taken"
    );
    assert!(
        rules
            .parse_move("p8")
            .unwrap_err()
            .to_string()
            .contains("off the board")
    );
    assert!(
        rules
            .parse_move("h16")
            .unwrap_err()
            .to_string()
            .contains("off the board")
    );
    assert!(matches!(
        pos.play(Move::Point(Point::new(15, 3))),
        Err(IllegalMoveError::OffBoard(_))
    ));
    assert_eq!(pos.stones(), 1);
}

fn overline_position(exact: bool) -> Position {
    // First player: a b c _ e f on row 1, then fills d: six in a row.
    let rules = Rules::gomoku().with_exact(exact);
    let first = [0, 1, 2, 4, 5, 3].map(|x| Point::new(x, 0));
    let second = [0, 2, 4, 6, 8].map(|x| Point::new(x, 10));
    gomoku(rules, &first, &second)
}

#[test]
fn exactly_five_rule() {
    // Freestyle: six in a row wins, and the whole run is the line.
    let free = overline_position(false);
    match free.outcome() {
        Outcome::Win { line, .. } => assert_eq!(line.len(), 6),
        o => panic!("{o:?}"),
    }
    // Exactly five: the same six do not win...
    let exact = overline_position(true);
    assert_eq!(exact.outcome(), &Outcome::Ongoing);
    assert!(!exact.wins_with(Move::Point(Point::new(6, 0)), Side::First));
    // ...but exactly five still does.
    let rules = Rules::gomoku().with_exact(true);
    let first = [0, 1, 2, 3, 4].map(|x| Point::new(x, 5));
    let second = [0, 2, 4, 6].map(|x| Point::new(x, 10));
    let pos = gomoku(rules, &first, &second);
    assert!(matches!(pos.outcome(), Outcome::Win { line, .. } if line.len() == 5));
    // And Connect Four counts five in a line as a win.
    let mut c4 = Position::new(Rules::connect_four());
    for c in [0, 0, 1, 1, 3, 3, 4, 4, 2] {
        c4.play(Move::Column(c)).unwrap();
    }
    assert!(matches!(c4.outcome(), Outcome::Win { line, .. } if line.len() == 5));
}

#[test]
fn random_gomoku_games_agree_with_the_oracle() {
    let mut rng = SmallRng::seed_from_u64(7);
    for exact in [false, true] {
        let rules = Rules::new(GameKind::Gomoku, 9, 9, 5, exact).unwrap();
        for _ in 0..300 {
            let mut pos = Position::new(rules);
            while !pos.is_over() {
                let side = pos.to_move();
                let moves = pos.legal_moves();
                let m = moves[rng.random_range(0..moves.len())];
                let p = pos.play(m).unwrap();
                let wins = runs_through(&pos, p, side).into_iter().any(|(_, run)| {
                    if exact {
                        run.len() == 5
                    } else {
                        run.len() >= 5
                    }
                });
                assert_eq!(matches!(pos.outcome(), Outcome::Win { .. }), wins);
            }
        }
    }
}
