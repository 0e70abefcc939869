//! `inarow puzzles`: puzzles mined from games, kept once, listed and
//! shown; every kept Connect Four puzzle checked again by a fresh solve
//! of all its columns.

use inarow::engine::connect4::{Book, C4Position, Cutoff, Solver, WIDTH};
use inarow::puzzle::win_stones;

use crate::util::inarow;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = inarow().args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A casual game Bob won, ended at `ended_ms` (moves set by the caller).
fn ann_bob_game(ended_ms: i64) -> inarow::store::GameRecord {
    crate::store::game(
        [
            crate::store::person("Ann", None, "red"),
            crate::store::person("Bob", None, "yellow"),
        ],
        Some(1),
        false,
        ended_ms,
    )
}

/// `N new kept` in `build`'s summary.
fn kept(summary: &str) -> usize {
    number_before(summary, " new kept")
}

/// `N already kept` in `build`'s summary.
fn already(summary: &str) -> usize {
    number_before(summary, " already kept")
}

fn number_before(summary: &str, what: &str) -> usize {
    let at = summary
        .find(what)
        .unwrap_or_else(|| panic!("{what:?} in {summary}"));
    summary[..at]
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number before {what:?} in {summary}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_built_from_games_kept_once_and_every_one_checks_out() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("var/inarow.db").display());
    let config = dir.path().join("inarow.toml");
    std::fs::write(&config, format!("[store]\nurl = \"{url}\"\n")).unwrap();
    let config = config.to_str().unwrap();
    // A recorded game with a puzzle in it: after its first 15 moves the
    // second player wins only in column A (A, A, B, A, B).
    let store = inarow::store::Store::open(&url).await.unwrap();
    let mut g = ann_bob_game(1_700_000_000_000);
    let mut heights = [0u8; 7];
    g.moves = "641354636633611"
        .bytes()
        .chain("11212".bytes())
        .map(|b| {
            let x = b - b'1';
            heights[usize::from(x)] += 1;
            inarow::store::MoveRecord {
                x,
                y: heights[usize::from(x)] - 1,
                ms: 100,
            }
        })
        .collect();
    store.record_game(&g).await.unwrap();
    // And a Gomoku game with one: the second player wins by fours on the
    // diagonal d8-h4, and only g5 starts it.
    let mut go = ann_bob_game(1_700_000_100_000);
    go.game = inarow::game::GameKind::Gomoku;
    (go.width, go.height, go.k) = (15, 15, 5);
    go.line = vec![(3, 7), (4, 6), (5, 5), (6, 4), (7, 3)];
    go.moves = "h8 f6 i7 j6 h7 h6 k7 j7 i6 j5 j8 j4 j3 i5 k3 f8 g7 f5 f7 e7 i10 g5 h5 h4 i3 d8"
        .split_whitespace()
        .map(|w| inarow::store::MoveRecord {
            x: w.as_bytes()[0] - b'a',
            y: w[1..].parse::<u8>().unwrap() - 1,
            ms: 100,
        })
        .collect();
    store.record_game(&go).await.unwrap();
    let back = store.game(&go.id).await.unwrap().expect("recorded");
    assert!(back.rules().is_some(), "{back:?}");
    store.close().await;
    let (ok, mined, err) = run(&[
        "puzzles",
        "build",
        "--config",
        config,
        "--games",
        "2",
        "--budget-ms",
        "2000",
    ]);
    assert!(ok, "{mined}{err}");
    assert!(mined.starts_with("2 games mined"), "{mined}");
    let store = inarow::store::Store::open(&url).await.unwrap();
    let from_game = store.puzzles(1000).await.unwrap();
    store.close().await;
    assert!(
        from_game
            .iter()
            .any(|p| p.puzzle.source == g.id && p.puzzle.position == "641354636633611"),
        "{mined}: {from_game:?}"
    );
    assert!(
        from_game.iter().any(|p| p.puzzle.source == go.id
            && p.puzzle.line == "g5 h5 h4 i3 d8"
            && p.puzzle.game == "gomoku"),
        "{mined}: {from_game:?}"
    );
    let (ok, out, err) = run(&[
        "puzzles",
        "build",
        "--config",
        config,
        "--games",
        "0",
        "--from-self-play",
        "6",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.starts_with("12 games mined in "), "{out}");
    // Again: the same games give the same puzzles, none kept twice (a
    // position settled only this time, on a busy machine, is new).
    let (ok, again, err) = run(&[
        "puzzles",
        "build",
        "--config",
        config,
        "--games",
        "0",
        "--from-self-play",
        "6",
    ]);
    assert!(ok, "{again}{err}");
    let store = inarow::store::Store::open(&url).await.unwrap();
    let all = store.puzzles(1000).await.unwrap();
    store.close().await;
    assert!(!all.is_empty(), "six games and no puzzle: {out}");
    assert_eq!(
        all.len(),
        from_game.len() + kept(&out) + kept(&again),
        "{out}{again}"
    );
    assert!(already(&again) >= 1, "{again}");
    let (ok, list, _) = run(&["puzzles", "list", "--config", config]);
    assert!(ok);
    assert!(
        list.starts_with(&format!("{} puzzles", all.len())),
        "{list}"
    );
    // Every puzzle, solved afresh: exactly its first move wins (or, for
    // "only move", does not lose), its win is as near as it says, and its
    // line is legal and ends with the winning stone.
    let book = Book::builtin();
    let mut keys = std::collections::HashSet::new();
    let mut gomoku = 0;
    for p in &all {
        let q = &p.puzzle;
        assert!(keys.insert(q.key.clone()), "kept twice: {q:?}");
        if q.game == "gomoku" {
            gomoku_checks_out(q);
            gomoku += 1;
            continue;
        }
        assert_eq!(q.game, "connect4");
        let pos = C4Position::from_moves(&q.position).unwrap();
        let mut fresh = Solver::new(64);
        let scores = fresh
            .analyze_within(&pos, false, Some(&book), Cutoff::NONE)
            .unwrap();
        let first = usize::from(q.line.as_bytes()[0] - b'1');
        let good: Vec<usize> = (0..WIDTH)
            .filter(|&c| match q.kind.as_str() {
                "win" => scores[c].is_some_and(|v| v > 0),
                _ => scores[c].is_some_and(|v| v >= 0),
            })
            .collect();
        assert_eq!(good, vec![first], "{q:?}: {scores:?}");
        if q.kind == "win" {
            let k = win_stones(scores[first].unwrap(), pos.moves());
            assert_eq!(q.win_in, Some(i64::from(k)), "{q:?}");
            assert!((2..=10).contains(&k), "{q:?}");
        }
        let mut line = pos;
        for (i, b) in q.line.bytes().enumerate() {
            let c = usize::from(b - b'1');
            assert!(line.can_play(c), "{q:?}");
            let last = i + 1 == q.line.len();
            assert_eq!(line.is_winning_move(c), last && q.kind == "win", "{q:?}");
            line.play_col(c);
        }
    }
    assert!(gomoku >= 1, "the recorded game's puzzle, at least");
    // One shown: the task, the board, the solution.
    let (ok, shown, err) = run(&["puzzles", "show", &all[0].id, "--config", config]);
    assert!(ok, "{err}");
    assert!(shown.contains("player to move: find the"), "{shown}");
    assert!(
        shown.contains(&format!("solution {}", all[0].puzzle.line)),
        "{shown}"
    );
    assert!(shown.contains("+--+--+"), "{shown}");
    // An unknown id: said, and a failure.
    let (ok, _, err) = run(&[
        "puzzles",
        "show",
        "no-such-puzzle\u{1b}[31m",
        "--config",
        config,
    ]);
    assert!(!ok);
    assert!(err.contains("no puzzle has the id"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
}

/// A Gomoku puzzle, checked afresh: a new engine finds a win by fours
/// from the position starting with the puzzle's first move, no other
/// first move keeps one, and the line is legal: fours, each answered at
/// the one point that stops five, to the five.
fn gomoku_checks_out(q: &inarow::store::NewPuzzle) {
    use inarow::engine::Limits;
    use inarow::engine::gomoku::stones_from_moves;
    use inarow::game::{Move, Position, Rules};
    let rules = Rules::gomoku();
    let moves: Vec<Move> = q
        .position
        .split_whitespace()
        .map(|w| rules.parse_move(w).unwrap())
        .collect();
    let line: Vec<Move> = q
        .line
        .split_whitespace()
        .map(|w| rules.parse_move(w).unwrap())
        .collect();
    let xy = |m: &Move| match m {
        Move::Point(p) => (p.x, p.y),
        Move::Column(_) => panic!("a point"),
    };
    let points: Vec<(u8, u8)> = moves.iter().map(xy).collect();
    let mut fresh = inarow::analysis::gomoku::player_for(&rules, 16);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let limits = Limits::new(std::time::Duration::from_secs(30));
    let stones = stones_from_moves(&points);
    assert!(
        fresh.vcf(&stones, 12, &limits, &stop).unwrap().is_some(),
        "{q:?}"
    );
    assert!(
        fresh
            .keeps_vcf(&stones, xy(&line[0]), 12, &limits, &stop)
            .unwrap(),
        "{q:?}"
    );
    let mut pos = Position::new(rules);
    for m in &moves {
        pos.play(*m).unwrap();
    }
    let mover = pos.to_move();
    for y in 0..15 {
        for x in 0..15 {
            if (x, y) != xy(&line[0]) && pos.is_empty(inarow::game::Point::new(x, y)) {
                assert!(
                    !fresh
                        .keeps_vcf(&stones, (x, y), 12, &limits, &stop)
                        .unwrap(),
                    "{q:?}: {x},{y} keeps a win too"
                );
            }
        }
    }
    for (i, m) in line.iter().enumerate() {
        assert!(!pos.is_over(), "{q:?}");
        if i % 2 == 1 {
            // The answer stops a five that was there.
            assert!(pos.wins_with(*m, mover), "{q:?}: answer {i}");
        }
        pos.play(*m).unwrap();
    }
    assert!(pos.is_over(), "{q:?}");
    assert_eq!(q.win_in, Some(line.len().div_ceil(2) as i64), "{q:?}");
}

/// Two Connect Four puzzles in the store of a test host: red to move
/// makes an open three on the bottom row and wins with the other end
/// (`2233`: `4`, yellow `1`, `5`; `4455`: `3`, yellow `6`, `2`).
async fn two_puzzles(store: &inarow::store::Store) -> [String; 2] {
    let now = inarow::store::now_ms();
    let puzzle = |position: &str, line: &str, key: &str| inarow::store::NewPuzzle {
        game: "connect4".into(),
        kind: "win".into(),
        position: position.into(),
        line: line.into(),
        win_in: Some(2),
        key: key.into(),
        source: "self-play".into(),
    };
    let first = store
        .add_puzzle(&puzzle("2233", "415", "test:a"), now - 2_000)
        .await
        .unwrap()
        .unwrap();
    let second = store
        .add_puzzle(&puzzle("4455", "362", "test:b"), now - 1_000)
        .await
        .unwrap()
        .unwrap();
    [first, second]
}

/// `[z] Puzzles` over SSH, as a player with a key: the day's puzzle in
/// the lobby's header and first; the line played against the host's
/// answer to "Solved!" and a higher puzzle rating; the next puzzle with
/// a wrong move, its refutation on the board and a lower rating; the
/// profile's puzzle line; each attempt recorded once in the store; a
/// guest plays unrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_played_in_the_lobby_rated_once_and_shown_on_the_profile() {
    use crate::util::ssh::{Client, Login, new_key, start_host};
    let mut t = start_host().await;
    let url = format!("sqlite://{}", t.dir.path().join("var/inarow.db").display());
    let store = inarow::store::Store::open(&url).await.unwrap();
    let [first, second] = two_puzzles(&store).await;
    let mut ann = Client::in_lobby(t.addr, "ann", Login::Key(new_key())).await;
    let lobby = ann
        .wait_for("Puzzle of the day: Connect Four, win in 2 [z]")
        .await;
    assert!(lobby.contains("[z] Puzzles"), "{lobby}");
    ann.send(b"z").await;
    let shown = ann.wait_for("Red to move").await;
    assert!(shown.contains("Puzzle of the day"), "{shown}");
    assert!(
        shown.contains("Red to move: find the winning move (win in 2)"),
        "{shown}"
    );
    assert!(shown.contains("rated"), "{shown}");
    ann.send(b"4\r").await;
    ann.wait_for("Yellow answers A").await;
    ann.send(b"5\r").await;
    ann.wait_for("Solved!").await;
    let rated = ann.wait_for("your puzzle rating: 1500 -> ").await;
    assert!(rated.contains("(+"), "{rated}");
    // The next puzzle (the other one: the first was tried), a wrong move.
    ann.send(b"n").await;
    let next = ann.wait_for("Puzzle   Connect Four").await;
    assert!(!next.contains("Puzzle of the day"), "{next}");
    ann.send(b"7\r").await;
    let failed = ann.wait_for("Yellow answers").await;
    assert!(failed.contains("G is not the move"), "{failed}");
    assert!(failed.contains("best: C"), "{failed}");
    ann.wait_for("your puzzle rating: ").await;
    // The day's puzzle again: not rated twice.
    ann.send(b"d").await;
    ann.wait_for("Red to move").await;
    ann.send(b"4\r").await;
    ann.send(b"5\r").await;
    ann.wait_for("tried before: not rated again").await;
    // The profile: the puzzle rating, one solved of two.
    ann.send(b"\x1b").await;
    ann.wait_for("[z] Puzzles").await;
    ann.send(b"p").await;
    ann.wait_for("1 solved of 2").await;
    // In the store: two attempts, one each, and the puzzles rated.
    let a = store.puzzle(&first).await.unwrap().unwrap();
    let b = store.puzzle(&second).await.unwrap().unwrap();
    assert_eq!((a.attempts, a.solved), (1, 1));
    assert_eq!((b.attempts, b.solved), (1, 0));
    assert!(a.rating.rating < 1500.0 && b.rating.rating > 1500.0);
    // A guest plays unrated: nothing kept.
    let mut guest = Client::in_lobby(t.addr, "guest", Login::Guest).await;
    guest.send(b"z").await;
    let shown = guest.wait_for("Red to move").await;
    assert!(shown.contains("unrated"), "{shown}");
    assert!(shown.contains("Puzzle of the day"), "{shown}");
    guest.send(b"4\r").await;
    guest.send(b"5\r").await;
    guest
        .wait_for("unrated: guests keep no puzzle rating")
        .await;
    let a = store.puzzle(&first).await.unwrap().unwrap();
    assert_eq!(a.attempts, 1);
    store.close().await;
    t.shutdown().await;
}
