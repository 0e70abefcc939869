//! The host's screens driven directly (no network): a remote session fed
//! bytes, its requests collected, its output read back through a terminal
//! emulator, as a person would see it.

use crate::util::Emulated;
use std::time::{Duration, Instant};

use inarow::engine::Level;
use inarow::game::{Colour, GameKind, Move, Rules, Side};
use inarow::protocol::SeatCmd;
use inarow::session::lobby::{Nearest, RemoteOptions, Stats};
use inarow::session::{Output, Request, Seating, Session};
use inarow::table::{Seat, Table};
use inarow::term::board::Theme;

struct Remote {
    session: Session,
    term: vt100::Parser,
    requests: Vec<Request>,
    table: Option<Table>,
    /// Which side this terminal plays at the table.
    me: Side,
    /// The time as this test says it is (the session reads no clock).
    clock: Instant,
}

fn options(motd: &str, ask_name: bool) -> RemoteOptions {
    RemoteOptions {
        name: "Guest0042".into(),
        motd: Some(motd.into()),
        games: vec![Rules::connect_four(), Rules::gomoku()],
        match_wait: Duration::from_secs(30),
        join_hint: "ssh -p 2222 CODE@play.example.org".into(),
        max_line: 64,
        ask_name,
        chat_max: 200,
        web: Some("https://play.example.org".into()),
        lang: inarow::lang::Lang::En,
    }
}

const LONG_MOTD: &str =
    "Welcome to inarow: Connect Four, Gomoku and Renju, against people or the computer.";

impl crate::util::Emulated for Remote {
    fn term(&self) -> &vt100::Parser {
        &self.term
    }
}

impl Remote {
    fn new(cols: u16, rows: u16) -> Remote {
        Remote::with(options(LONG_MOTD, false), cols, rows)
    }

    fn with(opts: RemoteOptions, cols: u16, rows: u16) -> Remote {
        let session = Session::remote(opts, Theme::Ascii, u32::from(cols), u32::from(rows));
        let mut r = Remote {
            session,
            term: vt100::Parser::new(rows, cols, 0),
            requests: Vec::new(),
            table: None,
            me: Side::First,
            clock: Instant::now(),
        };
        let out = r.session.open();
        r.apply(out);
        r
    }

    fn apply(&mut self, out: Output) {
        self.term.process(&out.bytes);
        self.requests.extend(out.requests);
    }

    fn send(&mut self, bytes: &[u8]) {
        self.clock += Duration::from_millis(50);
        let out = self.session.input(bytes, self.clock);
        self.apply(out);
    }

    /// The Esc key alone (a lone ESC, then the decoder's wait runs out).
    fn esc(&mut self) {
        self.send(b"\x1b");
        self.clock += Duration::from_millis(50);
        let out = self.session.flush_input(self.clock);
        self.apply(out);
    }

    /// The session's clock ticks at `secs` after `from`.
    fn tick_at(&mut self, from: Instant, secs: u64) {
        let out = self.session.tick(from + Duration::from_secs(secs));
        self.apply(out);
    }

    /// Asks for a quick match of Connect Four from the lobby; the moment
    /// the wait began.
    fn seek_connect_four(&mut self) -> Instant {
        self.send(b"1"); // Connect Four
        self.send(b"1"); // quick match
        self.clock
    }

    /// The counts say `waiting` people wait for Connect Four, this one
    /// among them, with two online.
    fn others_waiting(&mut self, waiting: usize) {
        let out = self.session.stats(Stats {
            online: 2,
            playing: 0,
            waiting: vec![(GameKind::ConnectFour, waiting)],
            degraded: false,
        });
        self.apply(out);
    }

    fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    fn resize(&mut self, cols: u16, rows: u16) {
        self.term.screen_mut().set_size(rows, cols);
        let out = self.session.resize(u32::from(cols), u32::from(rows));
        self.apply(out);
    }

    /// Seats this terminal at a table against the computer (`me` moves first).
    fn sit_against_computer(&mut self, rules: Rules, me_first: bool) {
        let human = Seat::human("Guest0042", Colour::Red);
        let computer = Seat::computer(Level::Easy, Colour::Yellow);
        let (seats, me) = if me_first {
            ([human, computer], Side::First)
        } else {
            ([computer, human], Side::Second)
        };
        let t = Table::new(rules, seats);
        self.me = me;
        let out = self.session.game_started(t.view().clone(), self.seating());
        self.table = Some(t);
        self.apply(out);
    }

    /// Seats this terminal at a table against another person.
    fn sit_against_person(&mut self, rules: Rules) {
        let t = Table::new(
            rules,
            [
                Seat::human("Guest0042", Colour::Red),
                Seat::human("Bob", Colour::Blue),
            ],
        );
        self.me = Side::First;
        let out = self.session.game_started(t.view().clone(), self.seating());
        self.table = Some(t);
        self.apply(out);
    }

    fn seating(&self) -> Seating {
        let mut mine = [false; 2];
        mine[self.me.index()] = true;
        Seating::local(mine)
    }

    /// Plays what the session asked for on the table (moves, undo), as the
    /// room would, and shows the result.
    fn serve_table(&mut self) {
        for req in self.take_requests() {
            let Some(t) = self.table.as_mut() else {
                continue;
            };
            let out = match req {
                Request::Seat(SeatCmd::Move(m)) => t.play(self.me, m).map(|_| ()),
                Request::Seat(SeatCmd::Undo) => t.undo(self.me),
                _ => continue,
            };
            let mut mine = [false; 2];
            mine[self.me.index()] = true;
            let out = match out {
                Ok(()) => self
                    .session
                    .game_update(t.view().clone(), Seating::local(mine)),
                Err(e) => self.session.table_refused(&e),
            };
            self.apply(out);
        }
    }

    /// The other side (the computer or the other person) plays `m`.
    fn other_plays(&mut self, m: Move) {
        let seating = self.seating();
        let t = self.table.as_mut().unwrap();
        t.play(self.me.other(), m).unwrap();
        let out = self.session.game_update(t.view().clone(), seating);
        self.apply(out);
    }

    fn stones(&self) -> usize {
        self.table.as_ref().unwrap().position().stones()
    }
}

#[test]
fn the_lobby_fits_a_60x24_terminal_with_a_long_message_of_the_day() {
    let mut r = Remote::new(60, 24);
    let s = r.screen();
    assert!(!s.contains("please enlarge"), "{s}");
    assert!(s.contains("Choose a game"), "{s}");
    // The whole message is there, wrapped.
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(joined.contains("against people or the computer."), "{s}");
    // Every screen of the lobby fits too.
    for keys in [&b"1"[..], b"2", b"c", b"\x1b\x1bn"] {
        r.send(keys);
        let s = r.screen();
        assert!(!s.contains("please enlarge"), "after {keys:?}:\n{s}");
    }
}

/// The lobby's game menus and a won game's end, in every language, at
/// the smallest size: nothing spills past 60 columns (Chinese characters
/// take two), nothing asks for a bigger terminal, and each language's own
/// words are there whole.
/// The day's puzzle in the lobby is worded when drawn: `L` switches it
/// with the rest of the screen.
#[test]
fn the_days_puzzle_in_the_lobby_follows_the_language_chosen() {
    let mut r = Remote::new(80, 24);
    let out = r
        .session
        .set_daily(Some(inarow::session::words::DailyWords {
            kind: Some(GameKind::ConnectFour),
            win: Some(Some(2)),
        }));
    r.apply(out);
    r.shows("Connect Four, win in 2");
    r.send(b"L");
    r.shows("Vier Gewinnt, Gewinn in 2");
    r.send(b"L");
    r.shows("四子棋：2 步勝");
}

#[test]
fn the_lobby_and_a_won_game_fit_60x24_in_every_language() {
    use inarow::lang::Lang;
    for (lang, menu, action, won) in [
        (
            Lang::En,
            "Choose a game:",
            "Quick match",
            "Red) wins with (0|0) (0|1) (0|2) (0|3)",
        ),
        (
            Lang::De,
            "Wähle ein Spiel:",
            "Schnelles Spiel",
            "(Rot) hat mit folgenden Steinen gewonnen:",
        ),
        (
            Lang::ZhTw,
            "選擇遊戲：",
            "快速配對",
            "（紅） 以 (0|0) (0|1) (0|2) (0|3) 連線獲勝",
        ),
    ] {
        let opts = RemoteOptions {
            lang,
            ..options(LONG_MOTD, false)
        };
        let mut r = Remote::with(opts, 60, 24);
        let fits = |r: &mut Remote, what: &str| {
            let s = r.screen();
            assert!(!s.contains("please enlarge"), "{lang:?} {what}:\n{s}");
            for line in r.session.frame_text().lines() {
                assert!(
                    inarow::text::width(line) <= 60,
                    "{lang:?} {what}: {} columns: {line}",
                    inarow::text::width(line)
                );
            }
            s
        };
        let s = fits(&mut r, "games");
        assert!(s.contains(menu), "{lang:?}:\n{s}");
        r.send(b"1");
        let s = fits(&mut r, "actions");
        assert!(s.contains(action), "{lang:?}:\n{s}");
        r.sit_against_computer(Rules::connect_four(), true);
        for _ in 0..3 {
            r.send(b"a\r");
            r.serve_table();
            r.other_plays(Move::Column(1));
        }
        r.send(b"a\r");
        r.serve_table();
        // The status line as the session drew it (the terminal emulator
        // keeps a wide character's cell apart).
        let text = r.session.frame_text();
        fits(&mut r, "won");
        assert!(text.contains(won), "{lang:?}:\n{text}");
    }
}

#[test]
fn a_too_small_terminal_asks_for_what_this_screen_needs_and_keys_wait() {
    let mut r = Remote::new(80, 24);
    r.send(b"1"); // Connect Four
    assert!(r.screen().contains("Quick match"));
    r.resize(30, 10);
    r.shows("please enlarge");
    // A key pressed behind the notice does nothing yet: it waits.
    r.send(b"1");
    assert!(r.take_requests().is_empty());
    r.shows("Keys wait until it fits.");
    // Once the screen fits, it acts (1: quick match).
    r.resize(80, 24);
    assert_eq!(
        r.take_requests(),
        vec![Request::QuickMatch(GameKind::ConnectFour)]
    );
    // A game screen: keys do not play moves blind either, and wait too.
    r.sit_against_computer(Rules::connect_four(), true);
    r.resize(20, 8);
    r.send(b"d");
    r.send(b"\r");
    assert!(r.take_requests().is_empty());
    r.resize(80, 24);
    assert_eq!(
        r.take_requests(),
        vec![Request::Seat(SeatCmd::Move(Move::Column(3)))]
    );
}

#[test]
fn keys_that_waited_for_a_screen_that_is_gone_are_dropped_and_are_bounded() {
    let mut r = Remote::new(80, 24);
    r.sit_against_person(Rules::connect_four());
    r.resize(20, 8);
    // A flood behind the notice (one key a read: typed, not pasted).
    for _ in 0..10_000 {
        r.send(b"x");
    }
    r.send(b"q");
    // The game ends meanwhile (the other player wins): the q meant
    // "leave the game", not "quit" on the end screen.
    let t = r.table.as_mut().unwrap();
    t.forfeit(Side::Second, "left");
    let (view, seating) = (t.view().clone(), r.seating());
    let out = r.session.game_update(view, seating);
    r.apply(out);
    r.resize(80, 24);
    assert!(r.take_requests().is_empty());
    assert!(!r.screen().contains("Leave the game?"), "{}", r.screen());
    // The end screen works as usual.
    r.send(b"l");
    assert!(
        r.screen().contains("Quick match") || r.screen().contains("Choose a game"),
        "{}",
        r.screen()
    );
}

#[test]
fn q_in_a_game_asks_first_and_alt_q_does_nothing() {
    let mut r = Remote::new(80, 24);
    r.sit_against_person(Rules::connect_four());
    r.send(b"\x1bq"); // Alt-q, or Esc and q in one read
    assert!(r.take_requests().is_empty());
    assert!(!r.screen().contains("Leave the game?"));
    // Before both have moved, leaving aborts the game (not a loss).
    r.send(b"q");
    r.shows("Leave the game? It is aborted: not both players have moved. y/n");
    r.send(b"n");
    r.send(b"d\r");
    r.serve_table();
    r.other_plays(Move::Column(3));
    r.send(b"q");
    r.shows("Leave the game? You will lose. y/n");
    assert!(r.take_requests().is_empty());
    r.send(b"n");
    assert!(r.take_requests().is_empty());
    assert!(!r.screen().contains("Leave the game?"));
    r.send(b"q");
    r.send(b"y");
    assert_eq!(r.take_requests(), vec![Request::Seat(SeatCmd::LEAVE)]);
}

#[test]
fn gomoku_q_after_typed_text_asks_too() {
    let mut r = Remote::new(80, 30);
    r.sit_against_person(Rules::gomoku());
    r.send(b"h");
    r.send(b"q");
    r.shows("Leave the game?");
    assert!(!r.screen().contains("Move: hq"), "{}", r.screen());
}

#[test]
fn pasted_text_is_never_a_command() {
    let mut r = Remote::new(80, 24);
    r.sit_against_person(Rules::connect_four());
    // A bracketed paste full of q, y and newlines: nothing happens.
    let mut paste = b"\x1b[200~".to_vec();
    paste.extend(b"quit\ny\nq y q\r\n".repeat(20));
    paste.extend(b"\x1b[201~");
    r.send(&paste);
    assert!(r.take_requests().is_empty());
    assert!(!r.screen().contains("Leave the game?"), "{}", r.screen());
    // A paste split across reads stays a paste until its end marker.
    r.send(b"\x1b[200~ab");
    r.send(b"qy");
    r.send(b"\x1b[201~");
    assert!(r.take_requests().is_empty());
    assert!(!r.screen().contains("Leave the game?"));
    // Without bracketed paste: 10 KB in one read is text, not commands.
    r.esc(); // clear the field
    let burst = b"q".repeat(10_000);
    r.send(&burst);
    assert!(r.take_requests().is_empty());
    assert!(!r.screen().contains("Leave the game?"));
    // Typed keys still work afterwards.
    r.esc();
    r.send(b"q");
    assert!(r.screen().contains("Leave the game?"));
}

#[test]
fn a_short_paste_without_markers_never_leaves_a_game() {
    // tmux paste-buffer sends CR for each line break; other pastes LF.
    for paste in [&b"d\nq\ny\n"[..], b"d\rq\ry\r", b"q\ry"] {
        let mut r = Remote::new(80, 24);
        r.sit_against_computer(Rules::connect_four(), true);
        r.send(paste);
        let requests = r.take_requests();
        assert!(
            !requests.contains(&Request::Seat(SeatCmd::LEAVE)),
            "{paste:?}: {requests:?}"
        );
        assert!(
            requests.is_empty(),
            "{paste:?}: a pasted line is not played: {requests:?}"
        );
        assert!(!r.screen().contains("Leave the game?"), "{}", r.screen());
        // Typing goes on as before: a move and its Enter in one read plays.
        r.esc();
        r.send(b"d\r");
        assert_eq!(
            r.take_requests(),
            vec![Request::Seat(SeatCmd::Move(Move::Column(3)))]
        );
    }
}

#[test]
fn a_pasted_room_code_lands_in_the_code_field() {
    let mut r = Remote::new(80, 24);
    r.send(b"j");
    r.shows("room code");
    r.send(b"\x1b[200~KB2C\r\n\x1b[201~");
    assert!(r.take_requests().is_empty(), "a pasted Enter is not Enter");
    r.send(b"\r");
    assert_eq!(r.take_requests(), vec![Request::JoinRoom("KB2C".into())]);
}

#[test]
fn a_room_code_typed_into_a_menu_joins_and_j_is_join_everywhere() {
    let mut r = Remote::new(80, 24);
    // At the top menu and in a game's menu, j opens the code field.
    r.send(b"j");
    r.shows("Your friend's room code");
    r.esc();
    r.send(b"1");
    r.shows("[j] Join a friend");
    r.send(b"j");
    r.shows("Your friend's room code");
    r.esc();
    // Typing a code straight into the menu: the whole code goes to the
    // field (2 would otherwise pick "Play the computer").
    for c in b"RP2R" {
        r.send(&[*c]);
    }
    r.shows("RP2R");
    r.send(b"\r");
    assert_eq!(r.take_requests(), vec![Request::JoinRoom("RP2R".into())]);
}

#[test]
fn help_shows_the_keys_and_rules_and_any_key_closes_it() {
    let mut r = Remote::new(80, 24);
    r.send(b"?");
    let s = r.screen();
    assert!(s.contains("Help") && s.contains("join a friend"), "{s}");
    r.send(b"x");
    r.shows("Choose a game");
    assert!(r.take_requests().is_empty());
    r.sit_against_computer(Rules::connect_four(), true);
    r.send(b"\x1bOP"); // F1
    let s = r.screen();
    assert!(s.contains("Four stones") && s.contains("take back"), "{s}");
    // The key that closes help does not also play.
    r.send(b"d");
    assert!(r.take_requests().is_empty());
    r.shows("Move:");
}

#[test]
fn stones_switch_between_emoji_and_letters_from_the_lobby() {
    let mut r = Remote::new(80, 24);
    r.shows("[t] Stones");
    r.shows("(now ascii)");
    assert_eq!(r.session.theme(), Theme::Ascii);
    r.take_requests();
    r.send(b"t");
    assert_eq!(r.session.theme(), Theme::Emoji);
    r.shows("(now emoji)");
    // The choice is kept (by the host: with the account or resume code).
    assert_eq!(r.take_requests(), vec![Request::SetStones(Theme::Emoji)]);
    r.sit_against_computer(Rules::connect_four(), true);
    assert!(r.screen().contains('\u{1F534}'), "{}", r.screen());
}

#[test]
fn the_lobby_shows_who_waits_for_which_game() {
    let mut r = Remote::new(80, 24);
    let out = r.session.stats(Stats {
        online: 3,
        playing: 0,
        waiting: vec![(GameKind::ConnectFour, 1), (GameKind::Gomoku, 0)],
        degraded: false,
    });
    r.apply(out);
    r.shows("1 waiting for Connect Four");
    assert!(!r.screen().contains("waiting for Gomoku"));
    assert!(!r.screen().contains("some features are unavailable"));
    // In a cluster whose other hosts cannot be reached, the lobby says so.
    let out = r.session.stats(Stats {
        online: 3,
        playing: 0,
        waiting: vec![],
        degraded: true,
    });
    r.apply(out);
    r.shows("some features are unavailable");
}

#[test]
fn the_name_question_says_enter_keeps_the_guest_name() {
    let mut r = Remote::with(options("hi", true), 80, 24);
    r.shows("Enter keeps Guest0042");
    r.send(b"\r");
    assert_eq!(
        r.take_requests(),
        vec![Request::SetName("Guest0042".into())]
    );
}

#[test]
fn a_refused_name_at_the_name_prompt_asks_again_a_bounded_number_of_times() {
    let mut r = Remote::with(options("hi", true), 80, 24);
    r.send(b"ann\r");
    assert_eq!(r.take_requests(), vec![Request::SetName("ann".into())]);
    let refused = "ann belongs to a registered player: choose another";
    let out = r.session.lobby_error(refused);
    r.apply(out);
    // Still the prompt, with the reason and an empty field.
    r.shows("What should people call you?");
    r.shows(refused);
    assert!(!r.screen().contains("Choose a game"), "{}", r.screen());
    assert!(!r.screen().contains("Name: ann"), "{}", r.screen());
    // Another name: the prompt closes once the host gives it.
    r.send(b"bea\r");
    assert_eq!(r.take_requests(), vec![Request::SetName("bea".into())]);
    let out = r.session.name_set("bea");
    r.apply(out);
    r.shows("Choose a game");
    assert!(!r.screen().contains(refused), "{}", r.screen());

    // Refused again and again: after a few tries, the lobby as the guest.
    let mut r = Remote::with(options("hi", true), 80, 24);
    let mut tries = 0;
    while r.screen().contains("What should people call you?") {
        tries += 1;
        assert!(tries <= 10, "asked forever");
        r.send(b"ann\r");
        let out = r.session.lobby_error(refused);
        r.apply(out);
    }
    assert!(tries > 1, "asked again");
    r.shows("Choose a game");
    r.shows(refused);
}

#[test]
fn against_the_computer_choose_who_moves_first() {
    let mut r = Remote::new(80, 24);
    r.send(b"1"); // Connect Four
    r.send(b"2"); // the computer
    r.shows("Who moves first");
    assert!(r.screen().contains("drawn at random"));
    r.send(b"f");
    r.shows("[f] Who moves first  you");
    r.send(b"1");
    assert_eq!(
        r.take_requests(),
        vec![Request::PlayComputer(
            GameKind::ConnectFour,
            Level::Easy,
            Some(true)
        )]
    );
}

#[test]
fn the_gomoku_levels_are_the_ladder_of_eight() {
    let mut r = Remote::new(80, 30);
    r.send(b"2"); // Gomoku
    r.send(b"2"); // the computer
    for n in 1..=8 {
        r.shows(&format!("[{n}] Level {n}"));
    }
    r.shows("threat search, hard to beat");
    assert!(!r.screen().contains("Strong"), "{}", r.screen());
    r.send(b"3");
    assert_eq!(
        r.take_requests(),
        vec![Request::PlayComputer(
            GameKind::Gomoku,
            Level::gomoku(3).unwrap(),
            None
        )]
    );
}

#[test]
fn undo_against_the_computer_takes_back_to_my_turn() {
    let mut r = Remote::new(80, 24);
    r.sit_against_computer(Rules::connect_four(), true);
    r.shows("u undo");
    r.send(b"d\r");
    r.serve_table();
    r.other_plays(Move::Column(3));
    assert_eq!(r.stones(), 2);
    r.send(b"u");
    r.serve_table();
    assert_eq!(r.stones(), 0);
    r.shows("Move:");
    // Against a person there is no undo: u is just a bad column.
    let mut p = Remote::new(80, 24);
    p.sit_against_person(Rules::connect_four());
    assert!(!p.screen().contains("u undo"));
    p.send(b"u");
    assert!(!p.take_requests().contains(&Request::Seat(SeatCmd::Undo)));
}

#[test]
fn the_end_screen_says_you_win_or_you_lost_and_offers_only_what_can_happen() {
    let mut r = Remote::new(80, 24);
    r.sit_against_person(Rules::connect_four());
    // We leave: we lost, and no rematch is offered to us.
    r.send(b"q");
    r.send(b"y");
    assert_eq!(r.take_requests(), vec![Request::Seat(SeatCmd::LEAVE)]);
    let t = r.table.as_mut().unwrap();
    t.forfeit(Side::First, "left");
    let out = r.session.game_update(
        t.view().clone(),
        Seating {
            mine: [true, false],
            present: [false, true],
        },
    );
    r.apply(out);
    let s = r.screen();
    assert!(s.contains("You lost."), "{s}");
    assert!(!s.contains("[r] rematch"), "{s}");
    r.send(b"r");
    assert!(r.take_requests().is_empty());
    r.shows("no rematch");
    // An unknown key says so in one line, not a copy of the footer.
    r.send(b"z");
    let s = r.screen();
    assert!(s.contains("'z' does nothing here"), "{s}");
    assert_eq!(s.matches("back to the lobby").count(), 1, "{s}");
}

#[test]
fn a_won_game_fits_a_60x24_terminal_and_says_how_to_read_the_line() {
    let mut r = Remote::new(60, 24);
    r.sit_against_computer(Rules::connect_four(), true);
    for _ in 0..3 {
        r.send(b"a\r");
        r.serve_table();
        r.other_plays(Move::Column(1));
    }
    r.send(b"a\r");
    r.serve_table();
    let s = r.screen();
    let widths: Vec<(usize, String)> = r
        .session
        .frame_text()
        .lines()
        .map(|l| (inarow::text::width(l), l.to_string()))
        .collect();
    assert!(!s.contains("please enlarge"), "{widths:#?}");
    assert!(s.contains("You win!"), "{s}");
    assert!(s.contains("wins with (0|0) (0|1) (0|2) (0|3)"), "{s}");
    assert!(s.contains("counted from 0 at the bottom left"), "{s}");
    // Against the computer a won game can still be taken back.
    assert!(s.contains("[u] undo"), "{s}");
    r.send(b"u");
    r.serve_table();
    r.shows("Move:");
    assert_eq!(r.stones(), 6);
}

#[test]
fn an_ended_games_screen_gives_its_address_on_the_web() {
    let id = "0190aaaa-bbbb-7ccc-8ddd-eeeeffff0000";
    for (width, shown) in [
        (80, format!("On the web: https://play.example.org/g/{id}")),
        (
            60,
            "https://play.example.org/g/0190aaaabbbb7ccc8dddeeeeffff0000".to_string(),
        ),
    ] {
        let mut r = Remote::new(width, 24);
        r.sit_against_computer(Rules::connect_four(), true);
        for _ in 0..3 {
            r.send(b"a\r");
            r.serve_table();
            r.other_plays(Move::Column(1));
        }
        r.send(b"a\r");
        r.serve_table();
        assert!(!r.screen().contains("play.example.org"), "{}", r.screen());
        // The room names the record once the game is stored.
        let mut view = r.table.as_ref().unwrap().view().clone();
        view.record = Some(id.into());
        let seating = r.seating();
        let out = r.session.game_update(view, seating);
        r.apply(out);
        let s = r.screen();
        assert!(s.contains(&shown), "{width}: {s}");
        assert!(!s.contains("please enlarge"), "{s}");
    }
}

#[test]
fn an_error_line_does_not_move_the_menu_sideways() {
    let mut r = Remote::new(100, 30);
    let column = |r: &Remote| {
        r.screen()
            .lines()
            .find_map(|l| l.find("[1] Connect Four"))
            .unwrap()
    };
    let before = column(&r);
    r.send(b"!");
    r.shows("is not one of the choices");
    assert_eq!(column(&r), before, "{}", r.screen());
}

#[test]
fn quick_match_offers_the_computer_when_the_callers_clock_says_so() {
    // No real waiting: the session goes by the time it is given.
    let mut r = Remote::new(80, 24);
    let started = r.seek_connect_four();
    assert_eq!(
        r.take_requests(),
        vec![Request::QuickMatch(GameKind::ConnectFour)]
    );
    r.shows("Looking for another Connect Four player... 0s");
    let deadline = r.session.next_deadline().unwrap();
    assert_eq!(deadline, started + Duration::from_secs(1));
    r.tick_at(started, 12);
    r.shows("player... 12s");
    assert!(!r.screen().contains("Play the computer meanwhile"));
    r.tick_at(started, 30);
    r.shows("Nobody has come yet. Play the computer meanwhile?");
}

#[test]
fn quick_match_says_why_others_waiting_are_not_paired_yet() {
    let mut r = Remote::new(80, 24);
    let started = r.seek_connect_four();
    r.take_requests();
    r.shows("You are paired with the next person who asks for this game.");
    // Someone else waits too (2 with us), and we are not paired: the
    // ratings are further apart than the window (30 s to anyone here).
    r.others_waiting(2);
    r.tick_at(started, 15);
    r.shows("1 other player waits, with a rating too far from yours for now:");
    r.shows("pairing within \u{b1}300 now, widening to anyone in 15 s.");
    assert!(
        !r.screen().contains("paired with the next person"),
        "{}",
        r.screen()
    );
    // The window widens as the wait goes on.
    r.tick_at(started, 24);
    r.shows("pairing within \u{b1}420 now, widening to anyone in 6 s.");
}

#[test]
fn quick_match_names_the_nearest_rating_and_when_the_window_reaches_it() {
    let mut r = Remote::new(80, 24);
    let started = r.seek_connect_four();
    r.take_requests();
    r.others_waiting(2);
    // The lobby names the other seeker here nearest to being paired.
    let nearest = Nearest {
        others: 1,
        rating: 1662,
        window: Some(325),
        at: started + Duration::from_secs(15),
    };
    let out = r.session.waiting_news(GameKind::ConnectFour, Some(nearest));
    r.apply(out);
    r.tick_at(started, 3);
    r.shows("1 other player waiting, rating 1662:");
    r.shows("pairing when the window reaches \u{b1}325 (in 12 s).");
    assert!(!r.screen().contains("too far"), "{}", r.screen());
    // It counts down, and says so when the pairing is due.
    r.tick_at(started, 14);
    r.shows("(in 1 s).");
    r.tick_at(started, 15);
    r.shows("(any moment now).");
    // Several, one past any window but "anyone".
    let out = r.session.waiting_news(
        GameKind::ConnectFour,
        Some(Nearest {
            others: 3,
            rating: 2210,
            window: None,
            at: started + Duration::from_secs(30),
        }),
    );
    r.apply(out);
    r.shows("3 other players waiting, the nearest rating 2210:");
    r.shows("pairing when the window opens to anyone (in 15 s).");
    // News of another game's queue is not ours.
    let out = r.session.waiting_news(GameKind::Gomoku, None);
    r.apply(out);
    r.shows("the nearest rating 2210");
    // Nobody named (the others are on other hosts, in a cluster): the
    // counts and the window, as before.
    let out = r.session.waiting_news(GameKind::ConnectFour, None);
    r.apply(out);
    r.shows("1 other player waits, with a rating too far from yours for now:");
}

#[test]
fn a_rated_game_shows_ratings_and_how_mine_moved() {
    let mut r = Remote::new(80, 24);
    r.sit_against_person(Rules::connect_four());
    let seating = r.seating();
    let t = r.table.as_mut().unwrap();
    t.set_rated(true, [Some(1512), Some(1488)]);
    let out = r.session.game_update(t.view().clone(), seating);
    r.apply(out);
    r.shows("rated");
    r.shows("Guest0042 1512");
    r.shows("Bob 1488");
    let t = r.table.as_mut().unwrap();
    t.forfeit(Side::Second, "left");
    t.set_rating_change([
        Some(inarow::table::RatingChange {
            before: 1512,
            after: 1527,
        }),
        Some(inarow::table::RatingChange {
            before: 1488,
            after: 1473,
        }),
    ]);
    let out = r.session.game_update(t.view().clone(), seating);
    r.apply(out);
    r.shows("You win!   rating 1512 \u{2192} 1527 (+15)");
    assert!(
        !r.screen().contains("1473"),
        "only my own change:\n{}",
        r.screen()
    );
}

// The profile, keys, leaderboard and replay screens, fed plain views as the
// server would after asking its store.

use inarow::session::records::{
    GameOutcome, GameRow, KeyRow, LeaderRow, LeaderboardView, ProfileView, RatingRow, ReplayPlayer,
    ReplayView,
};

const HOSTILE: &str = "\x1b[2J\x1b]0;pwned\x07Evil\u{202e}\r\nName";

fn game_row(i: usize, opponent: &str) -> GameRow {
    GameRow {
        id: format!("game-{i}"),
        date: format!("2026-11-{:02}", 23 - i % 20),
        game: if i.is_multiple_of(2) {
            GameKind::ConnectFour
        } else {
            GameKind::Gomoku
        },
        opponent: opponent.into(),
        outcome: [GameOutcome::Won, GameOutcome::Lost, GameOutcome::Draw][i % 3],
        rating_change: i
            .is_multiple_of(2)
            .then_some(if i.is_multiple_of(3) { 12 } else { -9 }),
    }
}

fn profile(games: usize) -> ProfileView {
    ProfileView {
        name: "Alice".into(),
        ratings: vec![RatingRow {
            game: GameKind::ConnectFour,
            rating: 1523,
            deviation: 61,
            wins: 7,
            losses: 3,
            draws: 1,
        }],
        puzzles: Some(inarow::session::records::PuzzleRow {
            rating: 1612,
            deviation: 88,
            solved: 9,
            tried: 14,
        }),
        games: (0..games)
            .map(|i| game_row(i, &format!("Bob{i}")))
            .collect(),
    }
}

/// Connect Four: the first player drops four in column d, the second plays e.
fn c4_replay() -> ReplayView {
    ReplayView {
        rules: Rules::connect_four(),
        players: [
            ReplayPlayer {
                name: "Alice".into(),
                colour: Colour::Red,
            },
            ReplayPlayer {
                name: "Computer".into(),
                colour: Colour::Yellow,
            },
        ],
        moves: [3, 4, 3, 4, 3, 4, 3].map(Move::Column).to_vec(),
        winner: Some(Side::First),
        reason: "four in a line".into(),
        date: "2026-11-23".into(),
        game_id: Some("game-0".into()),
    }
}

fn leader(rank: i64, name: &str, me: bool) -> LeaderRow {
    LeaderRow {
        rank,
        name: name.into(),
        rating: 2000 - rank * 10,
        games: 30 + rank,
        me,
    }
}

impl Remote {
    /// Lines of the screen whose text contains `needle`, with whether the
    /// cell where it starts is drawn in reverse video.
    fn reversed_at(&self, needle: &str) -> bool {
        let (col, row) = self.find(needle);
        self.term
            .screen()
            .cell(row, col)
            .is_some_and(|c| c.inverse())
    }

    fn no_enlarge(&self) {
        let s = self.screen();
        assert!(!s.contains("please enlarge"), "{s}");
    }
}

#[test]
fn the_lobby_offers_the_profile_and_the_leaderboard_and_still_fits_60x24() {
    let mut r = Remote::new(60, 24);
    r.shows("[p] Your profile");
    r.shows("[l] Leaderboard");
    r.send(b"1"); // Connect Four's menu: its own keys and these too.
    r.shows("[p] Your profile");
    r.shows("[l] Leaderboard");
    r.shows("[b] Back");
    r.no_enlarge();
    r.send(b"l");
    assert_eq!(
        r.take_requests(),
        vec![Request::Leaderboard(GameKind::ConnectFour)]
    );
    r.shows("Leaderboard");
    r.esc();
    r.shows("Quick match"); // back at Connect Four's menu
    r.send(b"p");
    assert_eq!(r.take_requests(), vec![Request::Profile]);
    r.shows("Loading your profile");
    r.no_enlarge();
}

#[test]
fn the_profile_shows_whole_opponent_names() {
    let mut r = Remote::new(60, 24);
    r.send(b"p");
    r.take_requests();
    let mut p = profile(3);
    p.games[1].opponent = "Computer (level 3)".into();
    p.games[2].opponent = "Wilhelmina Annabelle".into();
    let out = r.session.show_profile(Some(p));
    r.apply(out);
    r.no_enlarge();
    r.shows("Gomoku        Computer (level 3)   lost");
    r.shows("Wilhelmina Annabelle draw");
    r.shows("Bob0                 won   +12");
}

#[test]
fn the_profile_lists_games_and_enter_asks_for_a_replay() {
    let mut r = Remote::new(60, 24);
    r.send(b"p");
    r.take_requests();
    let out = r.session.show_profile(Some(profile(20)));
    r.apply(out);
    r.no_enlarge();
    r.shows("Profile of Alice");
    r.shows("Connect Four  1523 \u{b1} 61   7 won, 3 lost, 1 drawn");
    r.shows("Gomoku        no rated games yet");
    r.shows("Your last 20 games:");
    // The opponent column is as wide as the names in it.
    r.shows("2026-11-23  Connect Four  Bob0     won   +12");
    r.shows("Gomoku        Bob1     lost");
    assert!(r.reversed_at("2026-11-23  Connect Four  Bob0"));
    // Down twice, then Enter: the third game's replay is asked for.
    r.send(b"\x1b[B");
    r.send(b"\x1b[B");
    assert!(r.reversed_at("Bob2"));
    r.send(b"\r");
    assert_eq!(r.take_requests(), vec![Request::Replay("game-2".into())]);
    r.shows("Loading the game");
    // The list scrolls to the last game.
    r.esc(); // the game did not come: back to the profile
    r.shows("Profile of Alice");
    for _ in 0..30 {
        r.send(b"\x1b[B");
    }
    r.shows("Bob19");
    assert!(r.reversed_at("Bob19"));
    r.no_enlarge();
    // , and . move too (a client in line mode has no arrows).
    r.send(b",");
    assert!(r.reversed_at("Bob18"));
    r.send(b".");
    assert!(r.reversed_at("Bob19"));
    // [k] opens the keys screen and asks for the keys.
    r.send(b"k");
    assert_eq!(r.take_requests(), vec![Request::Keys]);
    r.esc();
    r.shows("Profile of Alice");
    r.esc();
    r.shows("Choose a game");
}

#[test]
fn a_guest_reads_what_an_ssh_key_would_keep() {
    let mut r = Remote::new(60, 24);
    r.send(b"p");
    let out = r.session.show_profile(None);
    r.apply(out);
    r.shows("playing as a guest");
    r.shows("ssh -p 2222 YOURNAME@play.example.org");
    r.send(b"k\r");
    assert_eq!(r.take_requests(), vec![Request::Profile]);
    r.no_enlarge();
    r.send(b"q");
    r.shows("Choose a game");
}

#[test]
fn the_replay_steps_through_the_moves_and_marks_the_line_at_the_end() {
    let mut r = Remote::new(60, 24);
    r.send(b"p");
    let out = r.session.show_profile(Some(profile(3)));
    r.apply(out);
    r.take_requests();
    r.send(b"\r");
    assert_eq!(r.take_requests(), vec![Request::Replay("game-0".into())]);
    let out = r.session.show_replay(c4_replay());
    r.apply(out);
    r.no_enlarge();
    r.shows("Alice");
    r.shows("Computer");
    r.shows("Alice won: four in a line");
    // It opens at the end: the winning line marked.
    r.shows("Move 7 of 7");
    let board = |r: &Remote| r.screen();
    assert!(board(&r).contains('*'), "{}", board(&r));
    // One back: the line is not there yet, the last move is marked.
    r.send(b"\x1b[D");
    r.shows("Move 6 of 7");
    assert!(!board(&r).contains('*'), "{}", board(&r));
    assert!(board(&r).contains('('), "{}", board(&r));
    // Home: an empty board; Right: one stone.
    r.send(b"\x1b[H");
    r.shows("Move 0 of 7");
    r.send(b"\x1b[C");
    r.shows("Move 1 of 7");
    r.send(b"\x1b[C\x1b[C");
    r.shows("Move 3 of 7");
    // Past the ends nothing breaks.
    for _ in 0..20 {
        r.send(b"\x1b[C");
    }
    r.shows("Move 7 of 7");
    r.send(b"\x1b[H");
    r.send(b"\x1b[D");
    r.shows("Move 0 of 7");
    // , and . step as well (a client in line mode has no arrows).
    r.send(b".");
    r.shows("Move 1 of 7");
    r.send(b",");
    r.shows("Move 0 of 7");
    // End: the line again.
    r.send(b"\x1b[F");
    r.shows("Move 7 of 7");
    assert!(board(&r).contains('*'));
    // a: the analysis of this recorded game is asked for, and shown once
    // it comes: the summary, and each move's label.
    r.shows("press a for the analysis");
    r.send(b"a");
    let ask = match r.take_requests().as_slice() {
        [Request::Analyze(ask)] => ask.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(ask.game_id.as_deref(), Some("game-0"));
    assert_eq!(ask.moves, c4_replay().moves);
    r.shows("analysing the game");
    let analysis = inarow::analyst::Analyzer::new(std::time::Duration::from_secs(2), 16)
        .game(&ask.rules, &ask.moves)
        .expect("a standard game");
    let out = r
        .session
        .show_analysis(&ask, Ok(std::sync::Arc::new(analysis)));
    r.apply(out);
    // (From the book: after d e, b wins and d only draws; after d e d,
    // e lets d win. The solver agrees: `echo 45 | inarow solve --analyze`.)
    r.shows("Alice: 1 mistake (move 3), Computer: 1 mistake (move 4)");
    r.shows("Alice D: best");
    r.no_enlarge();
    // Esc: back to the profile.
    r.esc();
    r.shows("Profile of Alice");
}

#[test]
fn a_gomoku_replay_fits_80x24() {
    let mut r = Remote::new(80, 24);
    r.send(b"p");
    let out = r.session.show_profile(Some(profile(1)));
    r.apply(out);
    let moves = (0..9u8)
        .map(|i| {
            let (x, y) = if i % 2 == 0 {
                (3 + i / 2, 7)
            } else {
                (3 + i / 2, 9)
            };
            Move::Point(inarow::game::Point::new(x, y))
        })
        .collect();
    let out = r.session.show_replay(ReplayView {
        rules: Rules::gomoku(),
        moves,
        ..c4_replay()
    });
    r.apply(out);
    r.no_enlarge();
    r.shows("Move 9 of 9");
    assert!(r.screen().contains('*'), "{}", r.screen());
    // With its analysis (two lines more) it still fits.
    r.send(b"a");
    let Some(Request::Analyze(ask)) = r.take_requests().pop() else {
        panic!("a asks for the analysis")
    };
    let analysis = inarow::analyst::Analyzer::new(std::time::Duration::from_millis(100), 16)
        .game(&ask.rules, &ask.moves)
        .expect("a Gomoku game");
    let out = r
        .session
        .show_analysis(&ask, Ok(std::sync::Arc::new(analysis)));
    r.apply(out);
    r.no_enlarge();
    r.shows("Alice: ");
    r.shows("Move 9 of 9");
}

#[test]
fn the_leaderboard_highlights_my_row_even_outside_the_top_20() {
    let mut r = Remote::new(60, 24);
    r.send(b"l");
    assert_eq!(
        r.take_requests(),
        vec![Request::Leaderboard(GameKind::ConnectFour)]
    );
    let view = LeaderboardView {
        game: GameKind::ConnectFour,
        top: (1..=20)
            .map(|i| leader(i, &format!("Top{i}"), false))
            .collect(),
        me: Some(leader(57, "Guest0042", true)),
        requirement: "5 rated games and a deviation under 110".into(),
    };
    let out = r.session.show_leaderboard(view.clone());
    r.apply(out);
    r.no_enlarge();
    r.shows("Top1 ");
    r.shows("  57  Guest0042");
    assert!(r.reversed_at("57  Guest0042"));
    assert!(!r.reversed_at("Top1 "));
    // Scrolling down shows the rest of the top 20.
    for _ in 0..10 {
        r.send(b"\x1b[B");
    }
    r.shows("Top20");
    r.shows("  57  Guest0042");
    // Wide names keep the columns (and the 60 columns).
    let out = r.session.show_leaderboard(LeaderboardView {
        top: vec![leader(1, "\u{5c71}\u{7530}".repeat(10).as_str(), false)],
        ..view.clone()
    });
    r.apply(out);
    r.no_enlarge();
    r.shows("\u{5c71}\u{7530}\u{5c71}\u{7530}");
    let out = r.session.show_leaderboard(view.clone());
    r.apply(out);
    // My row inside the top 20 is highlighted there.
    let mut inside = view.clone();
    inside.top[1].me = true;
    inside.me = Some(LeaderRow {
        me: true,
        ..inside.top[1].clone()
    });
    let out = r.session.show_leaderboard(inside);
    r.apply(out);
    r.send(b"\x1b[H");
    for _ in 0..10 {
        r.send(b"\x1b[A");
    }
    assert!(r.reversed_at("Top2 "));
    // Other game: asked for, and a player who does not qualify yet reads
    // what it takes.
    r.send(b"\x1b[C");
    assert_eq!(
        r.take_requests(),
        vec![Request::Leaderboard(GameKind::Gomoku)]
    );
    r.shows("Loading");
    let out = r.session.show_leaderboard(LeaderboardView {
        game: GameKind::Gomoku,
        top: vec![leader(1, "Solo", false)],
        me: Some(LeaderRow {
            rank: 0,
            ..leader(0, "Guest0042", true)
        }),
        requirement: "5 rated games and a deviation under 110".into(),
    });
    r.apply(out);
    r.shows("Solo");
    r.shows("not on the list yet: it takes 5 rated");
    r.shows("games and a deviation under 110.");
    // A stale answer for the other game changes nothing.
    let out = r.session.show_leaderboard(view);
    r.apply(out);
    assert!(!r.screen().contains("Top1 "), "{}", r.screen());
    r.send(b"g");
    assert!(r.take_requests().is_empty(), "already Gomoku");
    r.send(b"c");
    assert_eq!(
        r.take_requests(),
        vec![Request::Leaderboard(GameKind::ConnectFour)]
    );
    r.send(b"q");
    r.shows("Choose a game");
}

#[test]
fn the_keys_screen_removes_the_selected_key_and_shows_a_link_code() {
    let mut r = Remote::new(60, 24);
    r.send(b"p");
    let out = r.session.show_profile(Some(profile(0)));
    r.apply(out);
    r.take_requests();
    r.shows("No games yet");
    r.send(b"k");
    assert_eq!(r.take_requests(), vec![Request::Keys]);
    let keys: Vec<KeyRow> = (0..2)
        .map(|i| KeyRow {
            fingerprint: format!("SHA256:{i}bcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"),
            added: "2026-11-2".to_string() + &i.to_string(),
        })
        .collect();
    let out = r.session.show_keys(keys.clone());
    r.apply(out);
    r.no_enlarge();
    r.shows("2026-11-20  0bcdefghij");
    r.shows("2026-11-21  1bcdefghij");
    r.send(b"\x1b[B");
    r.send(b"d");
    assert_eq!(
        r.take_requests(),
        vec![Request::RemoveKey(keys[1].fingerprint.clone())]
    );
    let out = r
        .session
        .records_message("the last key of an account cannot be removed");
    r.apply(out);
    r.shows("! the last key of an account cannot be removed");
    r.send(b"g");
    assert_eq!(r.take_requests(), vec![Request::LinkCode]);
    let out = r.session.show_link_code("WXYZ-KLMN");
    r.apply(out);
    r.no_enlarge();
    r.shows("Link code: WXYZ-KLMN");
    r.shows("ssh -p 2222 WXYZ-KLMN@play.example.org");
    r.shows("within 10 minutes");
    r.esc();
    r.shows("No games yet");
}

#[test]
fn hostile_names_in_the_views_never_reach_the_terminal_raw() {
    let mut r = Remote::new(80, 24);
    let mut bytes = Vec::new();
    let mut apply = |r: &mut Remote, out: Output| {
        bytes.extend_from_slice(&out.bytes);
        r.apply(out);
    };
    r.send(b"p");
    let mut p = profile(3);
    p.name = HOSTILE.into();
    p.games[1].opponent = HOSTILE.into();
    p.games[1].date = HOSTILE.into();
    let out = r.session.show_profile(Some(p));
    apply(&mut r, out);
    r.shows("Evil");
    let mut replay = c4_replay();
    replay.players[0].name = HOSTILE.into();
    replay.reason = HOSTILE.into();
    replay.date = HOSTILE.into();
    let out = r.session.show_replay(replay);
    apply(&mut r, out);
    r.shows("Evil");
    r.esc();
    r.send(b"k");
    let out = r.session.show_keys(vec![KeyRow {
        fingerprint: HOSTILE.into(),
        added: HOSTILE.into(),
    }]);
    apply(&mut r, out);
    let out = r.session.show_link_code(HOSTILE);
    apply(&mut r, out);
    let out = r.session.records_message(HOSTILE);
    apply(&mut r, out);
    r.esc();
    r.esc();
    r.send(b"l");
    let out = r.session.show_leaderboard(LeaderboardView {
        game: GameKind::ConnectFour,
        top: vec![leader(1, HOSTILE, false)],
        me: Some(leader(2, HOSTILE, true)),
        requirement: HOSTILE.into(),
    });
    apply(&mut r, out);
    r.shows("Evil");
    let text = String::from_utf8_lossy(&bytes);
    // (The session sets the window title itself: only the name's own
    // sequences are looked for.)
    for raw in [
        "\x1b]0;pwned",
        "\x1b[2J\x1b]",
        "pwned\x07",
        "\u{202e}",
        "\r\nName",
    ] {
        assert!(!text.contains(raw), "{raw:?} reached the terminal");
    }
    assert!(!r.screen().contains("pwned\n"));
}

#[test]
fn oversized_input_on_these_screens_does_nothing_bad() {
    let mut r = Remote::new(60, 24);
    r.send(b"p");
    let out = r.session.show_profile(Some(profile(20)));
    r.apply(out);
    r.take_requests();
    // A flood of keys: pasted (a burst), never commands.
    let flood: Vec<u8> = b"dgkq\r\x1b[B"
        .iter()
        .copied()
        .cycle()
        .take(64 * 1024)
        .collect();
    r.send(&flood);
    r.shows("Profile of Alice");
    assert!(r.take_requests().is_empty());
    // Ten thousand arrows one by one stay in the list.
    for _ in 0..2000 {
        r.send(b"\x1b[B\x1b[A\x1b[B");
    }
    r.shows("Bob19");
    r.send(b"k");
    r.take_requests();
    let out = r.session.show_keys(
        (0..100)
            .map(|i| KeyRow {
                fingerprint: format!("SHA256:{}", "x".repeat(5000) + &i.to_string()),
                added: "9".repeat(5000),
            })
            .collect(),
    );
    r.apply(out);
    r.no_enlarge();
    r.send(&flood);
    assert!(r.take_requests().is_empty());
    let out = r.session.show_link_code(&"A".repeat(100_000));
    r.apply(out);
    r.no_enlarge();
    r.esc();
    r.esc();
    r.send(b"l");
    let out = r.session.show_leaderboard(LeaderboardView {
        game: GameKind::ConnectFour,
        top: (1..5000)
            .map(|i| leader(i, &"N".repeat(1000), false))
            .collect(),
        me: None,
        requirement: "x".repeat(100_000),
    });
    r.apply(out);
    r.no_enlarge();
    r.send(&flood);
    r.no_enlarge();
}

#[test]
fn help_on_the_records_screens_names_their_keys() {
    let mut r = Remote::new(60, 24);
    r.send(b"?");
    r.shows("your profile: ratings, games, replays,");
    r.send(b" ");
    r.send(b"p");
    let out = r.session.show_profile(Some(profile(2)));
    r.apply(out);
    r.send(b"?");
    r.no_enlarge();
    r.shows("replay: first and last move");
    r.send(b" ");
    r.shows("Profile of Alice");
}

/// The screen fits 60x24 and shows `words` (their first few characters:
/// a line may be shortened to fit).
fn fits_showing(r: &mut Remote, lang: inarow::lang::Lang, what: &str, words: &str) {
    let s = r.screen();
    let small = lang.text("small-title");
    assert!(!s.contains(&small), "{lang:?} {what}:\n{s}");
    let text = r.session.frame_text();
    for line in text.lines() {
        let w = inarow::text::width(line);
        assert!(w <= 60, "{lang:?} {what}: {w} columns: {line}");
        // Nothing was shortened to fit: the words are short enough (the
        // games in play shorten players' names to their column).
        assert!(
            what == "games in play" || !line.ends_with('…'),
            "{lang:?} {what}: shortened: {line}"
        );
    }
    let head: String = words
        .split('\n')
        .next()
        .unwrap()
        .trim()
        .chars()
        .take(12)
        .collect();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(head.trim()),
        "{lang:?} {what}: no {head:?}\n{text}"
    );
}

/// Every screen a person meets, in every language, at the smallest size
/// (60x24): nothing spills past 60 columns (Chinese characters take two),
/// no screen asks for a bigger terminal instead of showing itself, and
/// each screen shows its own words in the person's language.
#[test]
fn every_screen_fits_60x24_in_every_language() {
    use inarow::lang::Lang;
    use inarow::protocol::{Doing, GameSummary, Invitation, Person};
    use inarow::session::puzzle::{PuzzleView, Task};
    use inarow::table::OfferKind;
    for lang in Lang::ALL {
        let opts = RemoteOptions {
            lang,
            ..options(LONG_MOTD, false)
        };
        let mut r = Remote::with(opts, 60, 24);
        let small = lang.text("small-title");
        // The screen fits and shows `id`'s words (a message of the
        // language's own file, before any argument).
        let fits = |r: &mut Remote, what: &str, id: &str| {
            fits_showing(r, lang, what, &lang.text(id));
        };
        fits(&mut r, "games menu", "lobby-choose-game");
        r.send(b"?");
        fits(&mut r, "lobby help", "help-lobby-join");
        r.send(b" ");
        r.send(b"1");
        fits(&mut r, "actions", "lobby-quick-match");
        r.send(b"c");
        fits(&mut r, "colours", "colour-any");
        r.esc();
        r.send(b"n");
        fits(&mut r, "name", "name-field");
        r.esc();
        r.send(b"j");
        fits(&mut r, "room code", "join-field");
        r.esc();
        r.send(b"2");
        fits(&mut r, "levels", "first-who");
        r.esc();
        // Gomoku's levels too, then back to Connect Four's menu.
        r.send(b"b");
        r.send(b"2");
        r.send(b"2");
        fits(&mut r, "gomoku levels", "level-gomoku-8");
        r.esc();
        r.send(b"b");
        r.send(b"1");
        r.send(b"1"); // quick match
        let since = r.clock;
        fits(&mut r, "seeking", "seek-esc");
        r.tick_at(since, 31);
        fits(&mut r, "offer of the computer", "seek-keep-waiting");
        r.esc();
        r.send(b"3");
        let out = r.session.room_code("QX7K");
        r.apply(out);
        fits(&mut r, "room for a friend", "room-code");
        r.esc();
        r.send(b"w");
        let out = r.session.show_games(vec![GameSummary {
            room: 1,
            game: "Connect Four 7x6".into(),
            players: ["Alice (Red)".into(), "Bob (Yellow)".into()],
            rated: true,
            moves: 12,
            watchers: 3,
            host: None,
            facts: Some(Box::new(inarow::protocol::summary::SummaryFacts::of(
                Table::new(
                    Rules::connect_four(),
                    [
                        Seat::human("Alice", Colour::Red),
                        Seat::computer(Level::Easy, Colour::Yellow),
                    ],
                )
                .view(),
            ))),
        }]);
        r.apply(out);
        fits(&mut r, "games in play", "games-keys");
        // The game and its players in the reader's words.
        fits(&mut r, "games in play", "game-connect4");
        r.esc();
        r.send(b"o");
        let person = |id: u64, name: &str, me: bool| Person {
            id,
            name: name.into(),
            ratings: [Some(1520), None],
            account: true,
            account_id: None,
            doing: if me { Doing::Lobby } else { Doing::Playing },
            invitable: true,
            me,
            host: None,
        };
        let out = r.session.show_people(vec![
            person(1, "Guest0042", true),
            person(2, "Beatrix Lindqvist", false),
        ]);
        r.apply(out);
        fits(&mut r, "who is online", "people-doing");
        r.send(b"\x1b[B\r");
        fits(&mut r, "invitation form", "invite-keys");
        r.esc();
        r.esc();
        let out = r.session.invited(Invitation {
            from: 7,
            name: "Beatrix Lindqvist".into(),
            account: true,
            rating: Some(1600),
            kind: GameKind::Gomoku,
            rated: true,
            clock: Some("5+3".parse().unwrap()),
            opening: inarow::table::Opening::Swap2,
        });
        r.apply(out);
        fits(&mut r, "invitation", "invitation-title");
        r.send(b"n");
        r.send(b"p");
        let out = r.session.show_profile(None);
        r.apply(out);
        fits(&mut r, "a guest's profile", "records-for-example");
        r.esc();
        r.send(b"p");
        let out = r.session.show_profile(Some(profile(12)));
        r.apply(out);
        fits(&mut r, "profile", "records-keys-profile");
        r.send(b"k");
        let out = r.session.show_keys(Vec::new());
        r.apply(out);
        fits(&mut r, "keys", "records-keys-title");
        r.esc();
        r.esc();
        r.send(b"l");
        let out = r.session.show_leaderboard(LeaderboardView {
            game: GameKind::ConnectFour,
            top: (1..=20)
                .map(|i| leader(i, &format!("Top{i}"), false))
                .collect(),
            me: Some(leader(0, "Guest0042", true)),
            requirement: "5 rated games and a deviation under 110".into(),
        });
        r.apply(out);
        fits(&mut r, "leaderboard", "records-keys-leaderboard");
        r.esc();
        r.send(b"z");
        let rules = Rules::gomoku();
        let p = |s: &str| rules.parse_move(s).unwrap();
        let out = r.session.show_puzzle(Ok(PuzzleView {
            id: "g1".into(),
            rules,
            task: Task::Win { win_in: Some(3) },
            position: ["h8", "a1", "i8", "a3", "j8", "a5"].map(p).to_vec(),
            line: ["k8", "g8", "l8"].map(p).to_vec(),
            rating: 1480,
            daily: true,
            rated: true,
            my_rating: Some(1500),
        }));
        r.apply(out);
        fits(&mut r, "puzzle", "puzzle-daily");
        r.send(b"a1\r");
        fits(&mut r, "puzzle refused", "puzzle-daily");
        let refused = inarow::session::words::illegal(
            lang,
            &inarow::game::IllegalMoveError::Occupied("a1".into()),
            Colour::Red,
        );
        assert!(
            r.session.frame_text().contains(&refused),
            "{lang:?}: no {refused:?}"
        );
        r.esc();
        // A game against the computer: help, the questions, the end.
        r.sit_against_computer(Rules::connect_four(), true);
        fits(&mut r, "game", "keys-resign");
        r.send(b"?");
        fits(&mut r, "game help", "help-game-drop");
        r.send(b" ");
        r.send(b"!");
        fits(&mut r, "resign?", "confirm-resign");
        r.send(b"x");
        r.send(b"q");
        fits(&mut r, "leave?", "confirm-leave-lose");
        r.send(b"x");
        for _ in 0..3 {
            r.send(b"a\r");
            r.serve_table();
            r.other_plays(Move::Column(1));
        }
        r.send(b"a\r");
        r.serve_table();
        fits(&mut r, "won", "points-how-to-read");
        // A Gomoku game between people: an offer, the chat, a forfeit.
        r.sit_against_person(Rules::gomoku());
        r.send(b"h8\r");
        r.serve_table();
        r.other_plays(Rules::gomoku().parse_move("a1").unwrap());
        r.table
            .as_mut()
            .unwrap()
            .offer(Side::Second, OfferKind::Draw)
            .unwrap();
        let view = r.table.as_ref().unwrap().view().clone();
        let out = r.session.game_update(view, r.seating());
        r.apply(out);
        let offer = lang.text_with("offer-draw-to-me", &[("name", "Bob".into())]);
        fits_showing(&mut r, lang, "offered a draw", &offer);
        r.send(b"\t");
        fits(&mut r, "chat", "chat-enter-sends");
        r.esc();
        r.table
            .as_mut()
            .unwrap()
            .forfeit(Side::Second, "lost the connection");
        let view = r.table.as_ref().unwrap().view().clone();
        let out = r.session.game_update(view, r.seating());
        r.apply(out);
        fits(&mut r, "forfeit", "why-lost-connection");
        // A terminal too small says so in the person's language.
        r.resize(30, 10);
        let s = r.screen();
        assert!(s.contains(&small), "{lang:?}:\n{s}");
        r.resize(60, 24);
    }
}
