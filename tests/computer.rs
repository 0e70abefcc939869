//! The first computer players: Connect Four easy and medium, Gomoku easy.
//! They must win when they can and block when they must.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use inarow::engine::{EngineOptions, Level, Limits, choose_legal, engine_for};
use inarow::game::{Move, Point, Position, Rules, Side};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

fn winning(pos: &Position, side: Side) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| pos.wins_with(m, side))
        .collect()
}

/// Random Connect Four positions (not over) from random play.
fn random_positions(rules: Rules, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::new(rules);
        loop {
            if pos.is_over() {
                break;
            }
            out.push(pos.clone());
            let m = *pos.legal_moves().choose(&mut rng).unwrap();
            pos.play(m).unwrap();
        }
    }
    out
}

#[test]
fn connect_four_levels_win_when_they_can_and_block_when_they_must() {
    let stop = AtomicBool::new(false);
    for rules in [
        Rules::connect_four(),
        Rules::new(inarow::game::GameKind::ConnectFour, 8, 7, 4, false).unwrap(),
    ] {
        let positions = random_positions(rules, 3000, 11);
        let (mut wins_checked, mut blocks_checked, mut safe_checked) = (0, 0, 0);
        for level in [Level::Easy, Level::Medium] {
            let mut engine = engine_for(
                &rules,
                level,
                &EngineOptions {
                    seed: Some(3),
                    ..EngineOptions::default()
                },
            );
            for pos in &positions {
                let me = pos.to_move();
                let mine = winning(pos, me);
                let theirs = winning(pos, me.other());
                if mine.is_empty() && theirs.len() != 1 && level == Level::Medium {
                    continue; // only the tactical positions for the slower level
                }
                let limits = Limits::new(Duration::from_secs(1));
                let m = choose_legal(engine.as_mut(), pos, &limits, &stop).unwrap();
                if !mine.is_empty() {
                    assert!(
                        mine.contains(&m),
                        "{level}: missed a win {mine:?}, played {m:?}"
                    );
                    wins_checked += 1;
                } else if theirs.len() == 1 {
                    assert_eq!(m, theirs[0], "{level}: did not block");
                    blocks_checked += 1;
                } else if theirs.is_empty() && level == Level::Easy {
                    // Easy avoids a move that hands the opponent a win when it can.
                    let gives_win = |m: Move| {
                        let mut after = pos.clone();
                        after.play(m).unwrap();
                        !winning(&after, me.other()).is_empty()
                    };
                    let safe_exists = pos.legal_moves().into_iter().any(|m| !gives_win(m));
                    if safe_exists {
                        assert!(!gives_win(m), "easy handed over a win with {m:?}");
                        safe_checked += 1;
                    }
                }
            }
        }
        assert!(
            wins_checked > 100 && blocks_checked > 100 && safe_checked > 100,
            "too few cases: {wins_checked} {blocks_checked} {safe_checked}"
        );
    }
}

/// Random Gomoku positions with stones clustered in the middle.
fn gomoku_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let region: Vec<Point> = (4..11)
        .flat_map(|y| (4..11).map(move |x| Point::new(x, y)))
        .collect();
    while out.len() < n {
        let mut pos = Position::new(Rules::gomoku());
        let stones = 10 + out.len() % 25;
        for _ in 0..stones {
            let free: Vec<&Point> = region.iter().filter(|p| pos.is_empty(**p)).collect();
            let p = **free.choose(&mut rng).unwrap();
            pos.play(Move::Point(p)).unwrap();
            if pos.is_over() {
                break;
            }
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

#[test]
/// Levels 4 and up see the rules' musts (levels 1 to 3 may miss them: that
/// is what makes them weak).
fn gomoku_levels_from_4_complete_their_five_and_block_a_four() {
    for n in 4..=6 {
        gomoku_level_completes_its_five_and_blocks_a_four(Level::gomoku(n).unwrap());
    }
}

fn gomoku_level_completes_its_five_and_blocks_a_four(level: Level) {
    let stop = AtomicBool::new(false);
    let mut engine = engine_for(
        &Rules::gomoku(),
        level,
        &EngineOptions {
            seed: Some(5),
            ..EngineOptions::default()
        },
    );
    let (mut wins, mut blocks) = (0, 0);
    for pos in gomoku_positions(3000, 21) {
        let me = pos.to_move();
        let mine = winning(&pos, me);
        let theirs = winning(&pos, me.other());
        if mine.is_empty() && theirs.is_empty() {
            continue;
        }
        let m = choose_legal(
            engine.as_mut(),
            &pos,
            &Limits::new(Duration::from_secs(1)),
            &stop,
        )
        .unwrap();
        if !mine.is_empty() {
            assert!(mine.contains(&m), "missed its five: {mine:?} vs {m:?}");
            wins += 1;
        } else {
            assert!(theirs.contains(&m), "did not block: {theirs:?} vs {m:?}");
            blocks += 1;
        }
    }
    assert!(wins > 50 && blocks > 50, "too few cases: {wins} {blocks}");
}

#[test]
fn engines_answer_on_the_empty_board_and_stop_when_asked() {
    for rules in [Rules::connect_four(), Rules::gomoku()] {
        for &level in Level::for_game(rules.kind()) {
            let mut e = engine_for(&rules, level, &EngineOptions::default());
            let pos = Position::new(rules);
            let stop = AtomicBool::new(true);
            let m = choose_legal(
                e.as_mut(),
                &pos,
                &Limits::new(Duration::from_secs(30)),
                &stop,
            )
            .unwrap();
            assert!(pos.check(m).is_ok());
        }
    }
}
