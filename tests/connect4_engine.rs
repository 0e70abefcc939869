//! Connect Four solver, book and `inarow solve` / `bench connect4` tests.
//!
//! The reference positions come from ../shared/bench/connect4/ (next to
//! the repository, as in CI).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use inarow::engine::Limits;
use inarow::engine::connect4::builder::compute_entry;
use inarow::engine::connect4::player::move_scores;
use inarow::engine::connect4::{Book, C4Level, C4Player, C4Position, CELLS, Solver, WIDTH};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn reference_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/connect4");
    let path = dir.join(name);
    assert!(
        path.is_file(),
        "reference set {} not found (shared/ must sit next to the repository)",
        path.display()
    );
    path
}

/// Every `step`-th line of a reference file, up to `count` lines.
fn sample(name: &str, step: usize, count: usize) -> Vec<(String, i32)> {
    let text = std::fs::read_to_string(reference_file(name)).unwrap();
    text.lines()
        .step_by(step)
        .take(count)
        .map(|line| {
            let (moves, score) = line.split_once(' ').unwrap();
            (moves.to_string(), score.parse().unwrap())
        })
        .collect()
}

fn check_sample(name: &str, step: usize, count: usize) {
    let mut solver = Solver::new(64);
    let lines = sample(name, step, count);
    assert_eq!(lines.len(), count);
    for (i, (moves, expected)) in lines.iter().enumerate() {
        let pos = C4Position::from_moves(moves).unwrap();
        solver.clear();
        assert_eq!(solver.solve(&pos), *expected, "{name} {moves}");
        // The weak solver on every other line: the sign only.
        if i % 2 == 0 {
            solver.clear();
            assert_eq!(
                solver.solve_weak(&pos),
                expected.signum(),
                "{name} {moves} weak"
            );
        }
    }
}

#[test]
fn exact_scores_end_easy() {
    check_sample("Test_L3_R1", 10, 100);
}

#[test]
fn exact_scores_middle_easy() {
    check_sample("Test_L2_R1", 10, 100);
}

#[test]
fn exact_scores_middle_medium() {
    check_sample("Test_L2_R2", 25, 40);
}

#[test]
fn exact_scores_begin_easy() {
    check_sample("Test_L1_R1", 10, 100);
}

#[test]
fn exact_scores_begin_medium() {
    check_sample("Test_L1_R2", 50, 20);
}

#[test]
fn exact_scores_begin_hard() {
    check_sample("Test_L1_R3", 500, 2);
}

#[test]
fn tutorial_examples() {
    let mut solver = Solver::new(16);
    assert_eq!(solver.solve(&C4Position::from_moves("4455").unwrap()), 18);
    assert_eq!(
        solver.solve(&C4Position::from_moves("44455554221").unwrap()),
        -15
    );
}

fn run_solve(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .arg("solve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code(),
    )
}

#[test]
fn solve_command_scores_and_bad_lines() {
    // A reference line, score included (the score is ignored on input);
    // the board's column letters read as the digits do.
    let (ref_moves, ref_score) = sample("Test_L2_R1", 1, 1).remove(0);
    let input = format!(
        "4455\n448\n44455554221 -15\n1111111\n1212121\n4h\nDDEE\n{ref_moves} {ref_score}\n"
    );
    let (stdout, stderr, code) = run_solve(&[], &input);
    assert_eq!(
        stdout,
        format!("4455 18\n44455554221 -15\nDDEE 18\n{ref_moves} {ref_score}\n")
    );
    let errors: Vec<&str> = stderr.lines().collect();
    assert_eq!(errors.len(), 4, "{stderr}");
    assert!(errors[0].starts_with("line 2:") && errors[0].contains("'8'"));
    assert!(errors[1].starts_with("line 4:") && errors[1].contains("full"));
    assert!(errors[2].starts_with("line 5:") && errors[2].contains("won"));
    assert!(errors[3].starts_with("line 6:") && errors[3].contains("'h'"));
    assert_eq!(code, Some(1));

    let (stdout, stderr, code) = run_solve(&["--weak"], "4455\n44455554221\n");
    assert_eq!(stdout, "4455 1\n44455554221 -1\n");
    assert_eq!(stderr, "");
    assert_eq!(code, Some(0));
}

#[test]
fn solve_command_analyze() {
    // Column 1 is full after six stones there; the other scores are the
    // negated scores of the children.
    let (stdout, _, code) = run_solve(&["--analyze", "--no-book"], "111111444\n");
    assert_eq!(code, Some(0));
    let fields: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(fields[0], "111111444");
    assert_eq!(fields[1], "full");
    let pos = C4Position::from_moves("111111444").unwrap();
    let mut solver = Solver::new(64);
    let expected = move_scores(&mut solver, &pos);
    for col in 1..WIDTH {
        assert_eq!(fields[col + 1], expected[col].unwrap().to_string());
    }
}

/// Runs `solve --analyze` with `args` on `positions` and checks every
/// field against `solve` with `child_args` on the position after that move:
/// the field is the child's score negated, or `full`. The positions must
/// have no immediate win (a winning move is not a position to solve).
fn check_analyze_against_children(args: &[&str], child_args: &[&str], positions: &[&str]) {
    let input: String = positions.iter().map(|m| format!("{m}\n")).collect();
    let (stdout, stderr, code) = run_solve(&[&["--analyze"], args].concat(), &input);
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), positions.len(), "{stdout}");

    let mut children = String::new();
    for m in positions {
        let pos = C4Position::from_moves(m).unwrap();
        for col in 0..WIDTH {
            if pos.can_play(col) {
                assert!(
                    !pos.is_winning_move(col),
                    "{m}: pick positions without a win"
                );
                children.push_str(&format!("{m}{}\n", col + 1));
            }
        }
    }
    let (child_out, stderr, code) = run_solve(child_args, &children);
    assert_eq!(code, Some(0), "{stderr}");
    let mut child_scores = child_out.lines().map(|line| {
        let (_, score) = line.split_once(' ').unwrap();
        score.parse::<i32>().unwrap()
    });

    for (m, line) in positions.iter().zip(&lines) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 1 + WIDTH, "{line}");
        assert_eq!(fields[0], *m);
        let pos = C4Position::from_moves(m).unwrap();
        for col in 0..WIDTH {
            let expected = if pos.can_play(col) {
                (-child_scores.next().unwrap()).to_string()
            } else {
                "full".to_string()
            };
            assert_eq!(
                fields[col + 1],
                expected,
                "{m}: column {} ({args:?})",
                col + 1
            );
        }
    }
    assert_eq!(child_scores.next(), None);
}

#[test]
fn analyze_from_the_book_matches_the_children() {
    // Early positions whose children the book covers (the empty board's
    // alone would take the search minutes): every field is the negated
    // book score of the child, as plain `solve` reports it.
    let early = ["", "4", "44", "444", "4444", "444444"];
    check_analyze_against_children(&[], &[], &early);
    check_analyze_against_children(&["--weak"], &["--weak"], &early);
    // Positions the book covers only in part (bounds from the book, the
    // rest searched with book lookups inside the search), against the
    // solver alone.
    let partly = ["4433", "4453"];
    check_analyze_against_children(&[], &["--no-book"], &partly);
    check_analyze_against_children(&["--weak"], &["--weak", "--no-book"], &partly);
}

#[test]
fn hostile_input_does_not_crash() {
    let mut input = String::new();
    input.push_str(&"7".repeat(10_000));
    input.push('\n');
    input.push_str("\u{1b}[2J\n\u{0}\u{ff}\n4455\n");
    let (stdout, stderr, code) = run_solve(&[], &input);
    assert_eq!(stdout, "4455 18\n");
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "escape bytes must not reach the terminal"
    );
    assert_eq!(code, Some(1));
}

#[test]
fn book_agrees_with_the_solver() {
    let book = Book::builtin();
    assert!(!book.is_empty());
    // Entries of the deepest ply are the cheapest to recompute; a few of
    // them, chosen at random (seeded), score and best-move set both.
    let deepest = book.iter().map(|(p, _)| p.moves()).max().unwrap();
    let entries: Vec<_> = book.iter().filter(|(p, _)| p.moves() == deepest).collect();
    let mut rng = SmallRng::seed_from_u64(2024);
    let mut solver = Solver::new(256);
    for _ in 0..3 {
        let (pos, entry) = entries[rng.random_range(0..entries.len())];
        assert_eq!(compute_entry(&mut solver, &pos), entry, "{pos:?}");
    }
    // And every entry's score is consistent with its best moves: after a
    // best move, the book's score is the negated child score bound.
    for (pos, entry) in book.iter() {
        assert!(entry.best != 0 && entry.best < 128);
        for col in 0..WIDTH {
            if entry.best & (1 << col) != 0 {
                assert!(pos.can_play(col), "{pos:?}");
            }
        }
    }
}

fn columns_of(moves: &[u8]) -> String {
    moves.iter().map(|c| char::from(b'1' + c)).collect()
}

#[test]
fn perfect_level_never_worsens_the_result() {
    let mut rng = SmallRng::seed_from_u64(99);
    let mut player = C4Player::new(64, Some(Arc::new(Book::builtin())));
    let mut solver = Solver::new(64);
    let stop = AtomicBool::new(false);
    for round in 0..120 {
        // Random games of 14 to 34 stones (the player's hard cases are
        // covered by the book and the perfect-vs-perfect test).
        let stones = 14 + round % 21;
        let mut moves = Vec::new();
        let pos = loop {
            moves.clear();
            let mut pos = C4Position::new();
            let mut ok = true;
            while pos.moves() < stones {
                let cols: Vec<u8> = (0..WIDTH as u8)
                    .filter(|&c| pos.can_play(c as usize) && !pos.is_winning_move(c as usize))
                    .collect();
                if cols.is_empty() {
                    ok = false;
                    break;
                }
                let c = cols[rng.random_range(0..cols.len())];
                pos.play_col(c as usize);
                moves.push(c);
            }
            if ok {
                break pos;
            }
        };
        let scores = move_scores(&mut solver, &pos);
        let best = scores.iter().flatten().max().copied().unwrap();
        let limits = Limits::new(Duration::from_secs(60));
        let col = player.choose(&moves, C4Level::Perfect, &limits, &stop, &mut rng);
        assert_eq!(
            scores[col as usize],
            Some(best),
            "{}: played column {}, scores {scores:?}",
            columns_of(&moves),
            col + 1
        );
    }
}

#[test]
fn hard_level_plays_legal_moves_and_sometimes_slips() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut player = C4Player::new(32, Some(Arc::new(Book::builtin())));
    let mut solver = Solver::new(32);
    let stop = AtomicBool::new(false);
    let mut slips = 0;
    for _ in 0..60 {
        let mut moves = Vec::new();
        let mut p = C4Position::new();
        while p.moves() < 20 {
            let cols: Vec<u8> = (0..WIDTH as u8)
                .filter(|&c| p.can_play(c as usize) && !p.is_winning_move(c as usize))
                .collect();
            if cols.is_empty() {
                break;
            }
            let c = cols[rng.random_range(0..cols.len())];
            p.play_col(c as usize);
            moves.push(c);
        }
        if p.moves() < 20 || p.can_win_next() {
            continue;
        }
        let limits = Limits::new(Duration::from_secs(60));
        let col = player.choose(&moves, C4Level::Hard, &limits, &stop, &mut rng);
        assert!(p.can_play(col as usize));
        let scores = move_scores(&mut solver, &p);
        let best = scores.iter().flatten().max().copied().unwrap();
        let got = scores[col as usize].unwrap();
        // Never a move that loses at once when another does not.
        let mut child = p;
        child.play_col(col as usize);
        if child.moves() < CELLS && child.can_win_next() {
            assert!(best <= -((CELLS as i32 - p.moves() as i32) / 2));
        }
        if got < best {
            slips += 1;
        }
    }
    assert!(slips > 0, "the hard level never made an inaccuracy");
}

#[test]
fn perfect_against_perfect_is_won_by_the_first_player_at_stone_41() {
    let book = Arc::new(Book::builtin());
    let mut players = [
        C4Player::new(256, Some(book.clone())),
        C4Player::new(256, Some(book)),
    ];
    let stop = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(41);
    let mut moves: Vec<u8> = Vec::new();
    let mut pos = C4Position::new();
    loop {
        let side = pos.moves() % 2;
        let limits = Limits::new(Duration::from_secs(300));
        let col = players[side].choose(&moves, C4Level::Perfect, &limits, &stop, &mut rng);
        assert!(pos.can_play(col as usize));
        let wins = pos.is_winning_move(col as usize);
        pos.play_col(col as usize);
        moves.push(col);
        if wins {
            assert_eq!(side, 0, "the second player won: {}", columns_of(&moves));
            assert_eq!(
                pos.moves(),
                41,
                "won at stone {}: {}",
                pos.moves(),
                columns_of(&moves)
            );
            return;
        }
        assert!(pos.moves() < CELLS, "draw: {}", columns_of(&moves));
    }
}

/// `inarow bench connect4 --book-moves` walks the book tree as the builder
/// does and times the perfect level's move from every position: every book
/// entry is reached, every move is one of the book's best moves (the bench
/// fails otherwise), and none needs the time budget.
#[test]
fn every_book_position_is_answered_from_the_book() {
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["bench", "connect4", "--book-moves", "--budget-ms", "1000"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = inarow::engine::connect4::Book::builtin();
    let expected = format!(
        "{} book positions (book of {} entries)",
        book.len(),
        book.len()
    );
    assert!(stdout.starts_with(&expected), "{stdout}");
    assert!(stdout.contains(", 0 at the budget"), "{stdout}");
}

/// `--player-games`: the perfect level against random non-losing replies
/// never loses, the summary reports every game, and moves cut short by a
/// tight budget (20 ms: the first moves past the book need more) are judged
/// by a search without limits and never throw the result away.
#[test]
fn player_games_bench_reports_wins() {
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args([
            "bench",
            "connect4",
            "--player-games",
            "4",
            // A budget no busy machine runs out of (moves past the book take
            // well under a second): the test checks the report and the
            // results, not the speed.
            "--budget-ms",
            "5000",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("4 games: perfect won 4, drew 0, lost 0"),
        "{stdout}"
    );
    // Moves the budget cut short are judged; none may be worse.
    assert!(stdout.contains(" cut at the 5000 ms budget"), "{stdout}");
    assert!(
        stdout.contains("0 cut at the") || stdout.contains(", 0 worse"),
        "{stdout}"
    );
}
