//! `inarow play` through the real binary when stdin is not a terminal.

use crate::util::run_with_input;

fn text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn scripted_connect_four_game_with_bad_lines() {
    // Bad lines in the middle: an unknown column, an off-board digit,
    // garbage, a blank line, and a full column attempt.
    let script = "a\nb\nz\na\n9\nb\nhello world\n\na\nb\na\n";
    let o = run_with_input(&["play", "--game", "connect4", "--vs", "human"], script);
    let out = text(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("error: unknown column 'z': use A-G or 1-7"),
        "{out}"
    );
    assert!(out.contains("error: '9' is off the board"), "{out}");
    assert!(
        out.contains("error: not understood: 'hello world'"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("Player 1 (Red) wins with (0|0) (0|1) (0|2) (0|3)"),
        "{out}"
    );
    // After an error the same player moves again: Player 2's line "a" after
    // "z" went to Player 2, so the game still ended with Player 1 winning in A.
    assert!(!out.contains('\x1b'), "no escape sequences in plain output");
}

/// In German (the language the programs inarow grew from were written
/// in), a scripted game ends with the original's winner line.
#[test]
fn a_scripted_game_in_german_prints_the_winner_line_in_german() {
    let mut child = crate::util::inarow()
        .args(["play", "--game", "connect4", "--vs", "human"])
        .env("LANG", "de_DE.UTF-8")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a\nb\na\nb\na\nb\na\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o);
    assert!(out.contains("Spieler 1 (Rot) vs Spieler 2 (Gelb)"), "{out}");
    assert!(
        out.trim_end().ends_with(
            "Spieler 1 (Rot) hat mit folgenden Steinen gewonnen: (0|0) (0|1) (0|2) (0|3)"
        ),
        "{out}"
    );
}

#[test]
fn the_example_from_the_issue() {
    let o = run_with_input(
        &["play", "--game", "connect4", "--vs", "human"],
        "a\nb\na\nb\na\nb\na\n",
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o).contains("Player 1 (Red) wins with (0|0) (0|1) (0|2) (0|3)"));
}

#[test]
fn full_column_and_game_over() {
    let script = "a\na\na\na\na\na\na\nb\nc\nb\nc\nb\nc\nb\n";
    let o = run_with_input(
        &[
            "play",
            "--game",
            "connect4",
            "--vs",
            "human",
            "--names",
            "Ann,Bob",
            "--colors",
            "blue,green",
        ],
        script,
    );
    let out = text(&o);
    assert!(out.contains("error: column A is full"), "{out}");
    assert!(
        out.contains("Ann (Blue)") && out.contains("Bob (Green)"),
        "{out}"
    );
    assert_eq!(o.status.code(), Some(0), "{out}");
}

#[test]
fn gomoku_script_with_both_notations() {
    let script = "h8\na1\ni8\n2,a\nj8\nh8\nzz\na3\nk8\na4\nl8\n";
    let o = run_with_input(
        &[
            "play", "--game", "gomoku", "--vs", "human", "--theme", "ascii",
        ],
        script,
    );
    let out = text(&o);
    assert!(out.contains("error: h8 is already taken"), "{out}");
    assert!(
        out.contains("Player 1 (Red) wins with h8 i8 j8 k8 l8"),
        "{out}"
    );
    assert!(out.is_ascii(), "the ascii theme prints no emoji");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn input_ending_early_is_an_error() {
    let o = run_with_input(&["play", "--game", "connect4", "--vs", "human"], "a\nb\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("input ended before the game was over"));
}

#[test]
fn against_the_computer_the_game_finishes() {
    // The human plays every column in turn; the medium computer must win or draw.
    let script: String = (0..200).map(|i| format!("{}\n", i % 7 + 1)).collect();
    let o = run_with_input(
        &[
            "play",
            "--game",
            "connect4",
            "--vs",
            "computer",
            "--level",
            "medium",
            "--seed",
            "4",
            "--think-ms",
            "200",
        ],
        &script,
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("Computer (medium, "), "{out}");
    assert!(
        out.contains(" wins with ") || out.contains("Draw: the board is full"),
        "{out}"
    );
}

#[test]
fn bad_flags_are_clear_errors() {
    for (args, needle) in [
        (vec!["play", "--game", "chess"], "invalid value 'chess'"),
        (
            vec!["play", "--game", "connect4", "--level", "strong"],
            "--level strong is not offered for Connect Four",
        ),
        (
            vec!["play", "--game", "connect4", "--level", "5"],
            "--level level 5 is not offered for Connect Four: choose one of easy, medium, hard or perfect",
        ),
        (vec!["play", "--level", "9"], "unknown level '9'"),
        (
            vec!["play", "--colors", "red,red"],
            "cannot take the first player's colour",
        ),
        (vec!["play", "--colors", "pink"], "unknown colour 'pink'"),
        (
            vec!["play", "--game", "connect4", "--size", "99x2"],
            "--size",
        ),
        (vec!["play", "--first", "3"], "3"),
    ] {
        let o = run_with_input(&args, "");
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn other_board_sizes_from_flags() {
    let script = "a\nb\na\nb\na\nb\na\n";
    let o = run_with_input(
        &[
            "play", "--game", "connect4", "--vs", "human", "--size", "9x7", "--theme", "ascii",
        ],
        script,
    );
    let out = text(&o);
    assert!(out.contains("Connect Four 9x7"), "{out}");
    assert!(out.contains("  A  B  C  D  E  F  G  H  I"), "{out}");
    assert!(out.contains("wins with (0|0) (0|1) (0|2) (0|3)"), "{out}");
}

/// Stones in the grid rows of an ascii-theme Connect Four board.
fn ascii_stones(screen: &str) -> usize {
    screen
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('|') || l.starts_with('(') || l.starts_with('['))
        .map(|l| {
            ["R ", "G ", "Y ", "B "]
                .iter()
                .map(|s| l.matches(s).count())
                .sum::<usize>()
        })
        .sum()
}

#[test]
fn local_undo_against_the_computer_in_a_real_terminal() {
    let tmux = crate::util::Tmux::new("inarow-undo", 80, 24);
    let bin = env!("CARGO_BIN_EXE_inarow");
    tmux.run(&format!(
        "{bin} play --game connect4 --vs computer --level easy --first 1 --names Ann,x \
         --colors red,yellow --theme ascii --think-ms 50; echo PLAY-EXIT-$?"
    ));
    tmux.wait_for("Move:");
    tmux.keys(&["d", "Enter"]);
    let wait_stones = |n: usize| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        while ascii_stones(&tmux.screen()) != n {
            assert!(std::time::Instant::now() < deadline, "{}", tmux.screen());
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    // Our stone and the computer's answer, then both taken back.
    wait_stones(2);
    tmux.wait_for("Move:");
    tmux.keys(&["u"]);
    wait_stones(0);
    // q asks; y quits and gives the terminal back.
    tmux.keys(&["q"]);
    tmux.wait_for("Leave the game?");
    tmux.keys(&["y"]);
    tmux.wait_for("PLAY-EXIT-0");
}

#[test]
fn scripted_swap2_opening_between_two_people() {
    // Ann places three stones; Bob's bad choice is refused, then he asks
    // for two more; Ann takes the second side and places the sixth stone.
    let script = "h8\ni8\nh9\nx\n3\ng7\nj10\n2\nk11\nq\n";
    let o = run_with_input(
        &[
            "play",
            "--game",
            "gomoku",
            "--opening",
            "swap2",
            "--names",
            "Ann,Bob",
            "--colors",
            "red,yellow",
            "--first",
            "1",
            "--theme",
            "ascii",
        ],
        script,
    );
    let out = text(&o);
    assert!(out.contains("Ann places a Yellow stone at i8"), "{out}");
    assert!(out.contains("Bob, swap2: 1 play Red, 2 play Yellow and place the next stone, 3 place two more stones"), "{out}");
    assert!(out.contains("error: choose with 1, 2 or 3"), "{out}");
    assert!(out.contains("Bob places two more stones"), "{out}");
    assert!(out.contains("Bob places a Red stone at j10"), "{out}");
    assert!(
        out.contains("Ann, swap2: 1 play Red, 2 play Yellow and place the next stone\n"),
        "{out}"
    );
    assert!(out.contains("Ann plays Yellow"), "{out}");
    assert!(out.contains("Ann (Yellow) plays k11"), "{out}");
    assert!(out.contains("Bob (Red) to move"), "{out}");
    // Swap2 is for two people playing Gomoku or Renju.
    for args in [
        &["play", "--game", "connect4", "--opening", "swap2"][..],
        &[
            "play",
            "--game",
            "gomoku",
            "--level",
            "3",
            "--opening",
            "swap2",
        ][..],
        &["play", "--game", "gomoku", "--opening", "swap3"][..],
    ] {
        let o = run_with_input(args, "");
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--opening") || err.contains("swap3"), "{err}");
    }
}
