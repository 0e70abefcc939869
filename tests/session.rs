//! The session state machine driven with raw bytes, its output read back
//! through a terminal emulator: what a person would see.

use crate::util::Emulated;
use inarow::engine::Limits;
use inarow::game::{Colour, Rules};
use inarow::local::{Flow, LocalDriver};
use inarow::session::setup::{Opponent, PlayOptions};
use inarow::session::{Output, Session};
use inarow::table::Table;
use inarow::term::board::Theme;

/// A session wired to the local driver, as `inarow play` is; the
/// computer's searches run inline (easy, a few milliseconds each).
struct Harness {
    session: Session,
    driver: LocalDriver,
    term: vt100::Parser,
    last: Vec<u8>,
}

impl crate::util::Emulated for Harness {
    fn term(&self) -> &vt100::Parser {
        &self.term
    }
}

impl Harness {
    fn new(preset: PlayOptions, cols: u16, rows: u16) -> Harness {
        let session = Session::local(
            preset,
            Theme::Emoji,
            u32::from(cols),
            u32::from(rows),
            Some(1),
        );
        let mut h = Harness {
            session,
            driver: LocalDriver::new(Some(1)),
            term: vt100::Parser::new(rows, cols, 0),
            last: Vec::new(),
        };
        let out = h.session.open();
        h.apply(out);
        h
    }

    fn apply(&mut self, out: Output) {
        let (mut bytes, flow) = self.driver.drive(&mut self.session, out);
        if flow == Flow::Quit {
            bytes.extend(self.session.close());
        }
        while let Some(job) = self.driver.think() {
            let answer = job.run(&Limits::new(std::time::Duration::from_millis(20)));
            let out = self.driver.answer(&mut self.session, answer);
            let (more, _) = self.driver.drive(&mut self.session, out);
            bytes.extend(more);
        }
        self.term.process(&bytes);
        self.last = bytes;
    }

    fn table(&self) -> &Table {
        self.driver.game().expect("a game is on").table()
    }

    fn send(&mut self, bytes: &[u8]) {
        let out = self.session.input(bytes, std::time::Instant::now());
        self.apply(out);
    }
}

fn hot_seat() -> PlayOptions {
    PlayOptions {
        rules: Some(Rules::connect_four()),
        opponent: Some(Opponent::Human),
        names: [Some("Ann".into()), Some("Bob".into())],
        colours: [Some(Colour::Red), Some(Colour::Yellow)],
        first: Some(1),
        ..PlayOptions::default()
    }
}

#[test]
fn a_hot_seat_game_with_keys_typed_moves_and_errors() {
    let mut h = Harness::new(hot_seat(), 80, 24);
    h.shows("Ann (Red) to move");
    // Arrows + Enter, typed columns, a digit, and a bad column.
    h.send(b"\x1b[D\x1b[D\x1b[D\r"); // column A
    h.send(b"b\r");
    h.send(b"x\r");
    h.shows("unknown column 'x'");
    assert!(
        h.screen().contains("Ann (Red) to move"),
        "the same player moves again"
    );
    h.send(b"1\r");
    h.send(b"\x1bOC\r"); // SS3 right arrow: column B (cursor follows the last move)
    h.send(b"a\r\x00");
    h.send(b"b\r\n");
    h.send(b"a\r");
    let s = h.screen();
    assert!(
        s.contains("Ann (Red) wins with (0|0) (0|1) (0|2) (0|3)"),
        "{s}"
    );
    assert!(s.contains("[r] play again"), "{s}");
    // Play again: Bob starts the second round.
    h.send(b"r");
    h.shows("Bob (Yellow) to move");
    assert!(h.screen().contains("round 2"));
}

/// A Connect Four move is one key: a second column key replaces the first
/// (the cursor follows) instead of piling up, and q leaves even after a
/// column was typed.
#[test]
fn connect_four_column_keys_replace_each_other_and_q_still_leaves() {
    let mut h = Harness::new(hot_seat(), 80, 24);
    h.send(b"4e\r");
    let t = h.table();
    assert_eq!(t.position().history(), &[inarow::game::Point::new(4, 0)]);
    h.send(b"xc\r");
    let t = h.table();
    assert_eq!(
        t.position().history(),
        &[
            inarow::game::Point::new(4, 0),
            inarow::game::Point::new(2, 0)
        ]
    );
    h.send(b"d");
    h.shows("Move: d");
    // q asks first; anything but y keeps the game.
    h.send(b"q");
    assert!(!h.session.is_closed());
    h.shows("Leave the game? y/n");
    h.send(b"n");
    h.shows("you stay in the game");
    h.send(b"q");
    h.send(b"y");
    assert!(h.session.is_closed());
}

#[test]
fn a_mouse_click_drops_in_the_clicked_column() {
    let mut h = Harness::new(hot_seat(), 90, 30);
    let (col, row) = h.find("  E  ");
    // The label E is two columns into the match.
    let click = format!("\x1b[<0;{};{}M", col + 2 + 1, row + 1);
    h.send(click.as_bytes());
    let t = h.table();
    assert_eq!(t.position().history(), &[inarow::game::Point::new(4, 0)]);
    // A release or a right click does nothing.
    h.send(
        format!(
            "\x1b[<0;{};{}m\x1b[<2;{};{}M",
            col + 3,
            row + 1,
            col + 3,
            row + 1
        )
        .as_bytes(),
    );
    assert_eq!(h.table().position().stones(), 1);
}

#[test]
fn a_move_sends_only_the_rows_that_changed() {
    let mut h = Harness::new(hot_seat(), 80, 24);
    let first_len = h.last.len();
    h.send(b"d\r");
    let sent = String::from_utf8_lossy(&h.last).into_owned();
    assert!(!sent.contains("\x1b[2J"), "no full clear on a move");
    assert!(
        !sent.contains("Connect Four 7x6"),
        "the title did not change: {sent:?}"
    );
    assert!(h.last.len() < first_len, "{} vs {first_len}", h.last.len());
    // Ctrl-L repaints everything.
    h.send(b"\x0c");
    assert!(String::from_utf8_lossy(&h.last).contains("\x1b[2J"));
    assert!(h.screen().contains("Connect Four 7x6"));
}

#[test]
fn small_terminals_are_asked_to_grow_and_resizes_redraw() {
    let mut h = Harness::new(hot_seat(), 80, 24);
    let out = h.session.resize(30, 8);
    h.term.screen_mut().set_size(8, 30);
    h.apply(out);
    h.shows("please enlarge to");
    let out = h.session.resize(100, 30);
    h.term.screen_mut().set_size(30, 100);
    h.apply(out);
    h.shows("Ann (Red) to move");
    // Absurd and zero sizes are clamped, not obeyed.
    let out = h.session.resize(8000, 4000);
    assert!(out.bytes.len() < 64 * 1024);
    let out = h.session.resize(0, 0);
    assert!(!out.bytes.is_empty());
}

#[test]
fn hostile_names_never_reach_the_terminal_raw() {
    let evil = "\x1b]0;pwned\x07\x1b[2JMallory\u{202e}";
    let args = inarow::cli::play::PlayArgs {
        game: Some(inarow::game::GameKind::ConnectFour),
        vs: Some(Opponent::Human),
        level: None,
        names: Some(format!("{evil},Bob")),
        colors: None,
        first: Some(1),
        theme: None,
        size: None,
        exact: false,
        opening: None,
        think_ms: 1000,
        seed: None,
    };
    let preset = inarow::cli::play::options_from_args(&args).unwrap();
    let mut h = Harness::new(preset, 80, 24);
    let all = String::from_utf8_lossy(&h.last).into_owned();
    assert!(!all.contains("\x1b]0;"), "an OSC sequence got through");
    assert!(!all.contains('\u{202e}'));
    h.shows("]0;pwned[2JMallory");
    // Typing escape sequences into a name field: the field keeps printable text only.
    let mut h2 = Harness::new(PlayOptions::default(), 80, 24);
    h2.send(b"12"); // Connect Four, two players
    h2.send(b"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f");
    h2.send(b"Eve\x1b[31m\x07\r");
    h2.shows("Eve, pick a colour");
    h.send(b"q");
    assert!(h.session.is_closed());
}

#[test]
fn quit_restores_the_terminal() {
    let mut h = Harness::new(hot_seat(), 80, 24);
    h.send(b"\x03");
    assert!(h.session.is_closed());
    let bytes = String::from_utf8_lossy(&h.last).into_owned();
    assert!(bytes.contains("\x1b[?25h"), "cursor shown again");
    assert!(bytes.contains("\x1b[?1049l"), "main screen restored");
    assert!(bytes.contains("\x1b[0m"), "attributes reset");
}

#[test]
fn against_the_computer_it_answers_undo_takes_back_and_rematch_swaps() {
    let mut h = Harness::new(
        PlayOptions {
            rules: Some(Rules::connect_four()),
            opponent: Some(Opponent::Computer),
            level: Some(inarow::engine::Level::Easy),
            names: [Some("Ann".into()), None],
            colours: [Some(Colour::Red), Some(Colour::Yellow)],
            first: Some(1),
            opening: Default::default(),
            lang: Default::default(),
        },
        80,
        24,
    );
    h.shows("Computer (easy)");
    h.send(b"d\r");
    assert_eq!(h.table().position().stones(), 2, "the computer answered");
    h.shows("Ann (Red) to move");
    h.send(b"u");
    assert_eq!(h.table().position().stones(), 0, "both moves taken back");
    // Play column by column until the game ends, then play again: the
    // computer moves first in round 2 and has already answered.
    for _ in 0..30 {
        if h.table().is_over() {
            break;
        }
        let m = h.table().position().legal_moves()[0];
        let key = match m {
            inarow::game::Move::Column(c) => b'a' + c,
            inarow::game::Move::Point(_) => unreachable!(),
        };
        h.send(&[key, b'\r']);
    }
    assert!(h.table().is_over(), "{}", h.screen());
    h.send(b"r");
    assert_eq!(h.table().view().round, 2);
    assert_eq!(
        h.table().position().stones(),
        1,
        "the computer opened round 2"
    );
    h.shows("Ann (Red) to move");
}

/// `inarow play` in the terminal speaks the language it was given (the
/// environment's): the new-game questions, the game screen and its end,
/// here in Traditional Chinese and German.
#[test]
fn inarow_play_asks_and_plays_in_the_environments_language() {
    use inarow::lang::Lang;
    let mut h = Harness::new(
        PlayOptions {
            lang: Lang::ZhTw,
            ..Default::default()
        },
        80,
        24,
    );
    h.shows("玩哪種棋？");
    h.shows("四子棋");
    h.send(b"1"); // Connect Four
    h.shows("誰來下？");
    h.send(b"2"); // two players
    h.shows("玩家 1 叫什麼名字？");
    let mut h = Harness::new(
        PlayOptions {
            lang: Lang::De,
            ..hot_seat()
        },
        80,
        24,
    );
    h.shows("Ann (Rot) ist am Zug");
    for _ in 0..3 {
        h.send(b"a\r");
        h.send(b"b\r");
    }
    h.send(b"a\r");
    h.shows("Ann (Rot) hat mit folgenden Steinen gewonnen: (0|0) (0|1) (0|2) (0|3)");
    h.shows("[r] nochmal");
}
