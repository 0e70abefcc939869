//! `inarow analyze`: every move's values, best moves and label agree with
//! the solver's own exact scores (`inarow solve --analyze`), and bad input
//! is refused in words.

use crate::util::{inarow, run_with_input};

/// A game of 18 moves, off the book after the opening, that the first
/// player wins.
const GAME: &str = "444432461175135152";

/// The seven scores `inarow solve --analyze` gives for each position
/// before a move of `game` (`None`: a full column).
fn solver_scores(game: &str) -> Vec<[Option<i32>; 7]> {
    let input: String = (0..game.len())
        .map(|i| format!("{}\n", &game[..i]))
        .collect();
    let out = run_with_input(&["solve", "--analyze"], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), game.len(), "{text}");
    lines
        .iter()
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // The empty board's line has no move string before its scores.
            let scores = &fields[fields.len() - 7..];
            let mut out = [None; 7];
            for (o, s) in out.iter_mut().zip(scores) {
                *o = s.parse().ok();
            }
            out
        })
        .collect()
}

/// `inarow analyze --json ARGS`, which must succeed, as JSON.
fn analyze_json(args: &[&str]) -> serde_json::Value {
    let out = inarow()
        .args(["analyze", "--json"])
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_connect_four_label_agrees_with_an_exact_solve() {
    // Time enough for every position also on a busy machine (it takes
    // under 4 s in all on a quiet one).
    let json = analyze_json(&["--game", "connect4", "--budget-ms", "30000", GAME]);
    assert_eq!(json["game"], "connect4");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), GAME.len());
    let mut labels = std::collections::HashSet::new();
    for (i, (m, scores)) in moves.iter().zip(solver_scores(GAME)).enumerate() {
        let col = usize::from(GAME.as_bytes()[i] - b'1');
        assert_eq!(m["move"], GAME[i..=i], "move {}", i + 1);
        assert_eq!(m["exact"], true, "move {} not settled: {m}", i + 1);
        let before = scores.iter().flatten().max().copied().unwrap();
        let after = scores[col].unwrap();
        assert_eq!(m["value_before"], before, "move {}: {m}", i + 1);
        assert_eq!(m["value_after"], after, "move {}: {m}", i + 1);
        let best: Vec<String> = (0..7)
            .filter(|&c| scores[c] == Some(before))
            .map(|c| (c + 1).to_string())
            .collect();
        assert_eq!(m["best"], serde_json::json!(best), "move {}", i + 1);
        let label = if after >= before {
            "best"
        } else if (before > 0 && after > 0) || (before < 0 && after < 0) {
            "slower win"
        } else if before > 0 && after < 0 {
            "blunder"
        } else {
            "mistake"
        };
        assert_eq!(m["label"], label, "move {}: {m}", i + 1);
        labels.insert(label);
    }
    // The game has good moves and bad ones.
    assert!(labels.contains("best") && labels.len() >= 3, "{labels:?}");

    // The text says the same in words, with a summary per player.
    let out = inarow()
        .args([
            "analyze",
            "--game",
            "connect4",
            "--budget-ms",
            "30000",
            GAME,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("18 moves, 18 settled exactly"), "{text}");
    assert!(
        text.contains("first player: ") && text.contains("second player: "),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3 + 18, "{text}");
}

#[test]
fn gomoku_analysis_names_missed_and_allowed_wins_proven_by_the_threat_search() {
    // Black makes an open three (h8 i8 j8); white plays far away (a14:
    // allowed a win), black plays a1 instead of the open four (missed
    // win), white again far away, then black's k8 keeps the win.
    let game = "h8 a15 i8 b15 j8 a14 a1 c15 k8";
    let mut args = vec!["--game", "gomoku", "--budget-ms", "300"];
    args.extend(game.split(' '));
    let json = analyze_json(&args);
    assert_eq!(json["game"], "gomoku");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert_eq!(moves[0]["move"], "h8");
    assert_eq!(moves[5]["label"], "allowed a win", "{}", moves[5]);
    assert_eq!(moves[6]["label"], "missed win", "{}", moves[6]);
    let best = moves[6]["best"].as_array().unwrap();
    assert!(best == &["g8"] || best == &["k8"], "{}", moves[6]);
    assert_eq!(moves[7]["label"], "allowed a win", "{}", moves[7]);
    assert_eq!(moves[8]["label"], "best", "{}", moves[8]);
    assert_eq!(moves[8]["exact"], true, "{}", moves[8]);
    // Nothing to say of the quiet first move.
    assert!(moves[0]["label"].is_null(), "{}", moves[0]);
}

#[test]
fn analyze_refuses_what_is_not_a_game_in_words() {
    for (args, says) in [
        (
            vec!["--game", "connect4", "4489"],
            "move 3: 8 is not a column",
        ),
        (
            vec!["--game", "connect4", "4444444"],
            "move 7: column 4 is full",
        ),
        (
            vec!["--game", "connect4", "12121213"],
            "move 8 comes after the game was won",
        ),
    ] {
        let out = inarow().arg("analyze").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// Over SSH, as players see it: `[a]` on a game's end screen shows its
/// analysis (the first player's move in the corner column is the
/// blunder that lost a won game), Esc goes back to the end screen, and
/// the analysis is kept with the game's record in the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_on_the_end_screen_shows_the_analysis_and_it_is_kept_with_the_record() {
    use crate::util::ssh::{play, start_host_with};
    let t = start_host_with("[analysis]\nbudget_ms = 2000\n").await;
    let (mut first, mut second) = crate::ssh::quick_match_pair(&t, ["alice", "bob"], b"1").await;
    for _ in 0..3 {
        play(&mut first, "a").await;
        play(&mut second, "b").await;
    }
    play(&mut first, "a").await;
    let end = first.wait_for("wins with (0|0) (0|1) (0|2) (0|3)").await;
    assert!(end.contains("[a] analysis"), "{end}");
    first.send(b"a").await;
    let shown = first.wait_for("1 blunder (move 1)").await;
    // The first move: a win thrown away, the middle column marked best.
    first.send(b"\x1b[H\x1b[C").await;
    let shown_first = first.wait_for("Move 1 of 7").await;
    assert!(shown_first.contains("blunder"), "{shown_first}");
    assert!(shown_first.contains("best: D (marked *)"), "{shown_first}");
    assert!(shown.contains("alice:"), "{shown}");
    // The other player asks too: the same analysis (kept, or the one
    // being made), not a second computation.
    second.wait_for("[a] analysis").await;
    second.send(b"a").await;
    second.wait_for("1 blunder (move 1)").await;
    // Esc: the end screen again, with its keys.
    first.send(b"\x1b").await;
    first.wait_for("[r] rematch").await;
    // Kept with the record.
    let url = format!("sqlite://{}", t.dir.path().join("var/inarow.db").display());
    let store = inarow::store::Store::open(&url).await.unwrap();
    let games = store
        .export(&inarow::store::ExportFilter {
            player: None,
            game: None,
            since_ms: None,
            after: None,
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(games.len(), 1);
    let kept = store.analysis(&games[0].id).await.unwrap().expect("kept");
    let json: serde_json::Value = serde_json::from_str(&kept.moves).unwrap();
    assert_eq!(json[0]["label"], "blunder", "{json}");
    assert_eq!(json[0]["best"], serde_json::json!(["4"]), "{json}");
    store.close().await;
}
