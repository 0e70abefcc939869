//! Live play over real SSH: resigning, draw offers and takebacks between
//! two people at one table, on both screens and in the game's record.

use serde_json::Value;

use crate::accounts::{config_file, exported};
use crate::ssh::quick_match_pair;
use crate::util::TestClient;
use crate::util::ssh::{
    Client, Login, MY_TURN, declined_then_accepted, mover_first, new_key, play, start_host,
    start_host_with, wait_any,
};

/// The record of the game with this reason, once it is stored.
async fn record_with(config: &std::path::Path, reason: &str, count: usize) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + crate::util::ssh::WAIT;
    loop {
        let games: Vec<Value> = exported(config)
            .into_iter()
            .filter(|g| g["reason"] == reason)
            .collect();
        if games.len() >= count {
            return games;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {count} games with reason {reason}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_and_resignations_between_two_people() {
    let t = start_host().await;
    let config = config_file(&t);
    let (mut first, mut second) = quick_match_pair(&t, ["ann", "bob"], b"1").await;
    play(&mut first, "d").await;

    // A draw offer: the other side sees it with the keys that answer,
    // declines it; the same offer at the same move is refused.
    first.send(b"=").await;
    first.wait_for("You offered a draw: waiting for").await;
    second.wait_for("offers a draw: = accept   - decline").await;
    second.send(b"-").await;
    first.wait_for("declined the draw: play on").await;
    let s = first.screen();
    assert!(!s.contains("You offered a draw"), "{s}");
    first.send(b"=").await;
    first
        .wait_for("you made an offer at this move already")
        .await;

    // A takeback in a casual game: asked after one's own move, allowed,
    // and the asker is to move again with one stone fewer.
    play(&mut second, "d").await;
    second.send(b"u").await;
    first
        .wait_for("asks to take back a move: = allow   - refuse")
        .await;
    first.send(b"=").await;
    second.wait_for(MY_TURN).await;
    assert_eq!(crate::util::board_stones(&second.screen()), 1);

    // An offer lapses when the one it was made to moves instead.
    second.send(b"=").await;
    first.wait_for("offers a draw").await;
    play(&mut second, "e").await;
    play(&mut first, "e").await;
    let s = first.screen();
    assert!(!s.contains("offers a draw"), "{s}");

    // Accepted: a draw by agreement on both screens, recorded as a draw.
    second.wait_for(MY_TURN).await;
    second.send(b"=").await;
    first.wait_for("offers a draw").await;
    first.send(b"=").await;
    for c in [&mut first, &mut second] {
        c.wait_for("Draw by agreement").await;
        c.wait_for("Draw.").await;
    }
    let drawn = record_with(&config, "draw", 1).await;
    assert_eq!(drawn[0]["result"], "draw");
    // d, e, e: the second d was taken back.
    assert_eq!(drawn[0]["moves"].as_array().unwrap().len(), 3);

    // The rematch: resigning asks first; a no keeps the game going, a yes
    // loses it, on the opponent's turn too.
    for c in [&mut first, &mut second] {
        c.send(b"r").await;
    }
    for c in [&mut first, &mut second] {
        wait_any(c, &[MY_TURN, "Waiting for"]).await;
    }
    let (mut mover, mut other) = mover_first(second, first);
    other.send(b"!").await;
    // No stone down yet: resigning would abort the game, and says so.
    other
        .wait_for("Resign? The game is aborted: not both players have moved. y/n")
        .await;
    other.send(b"n").await;
    other.wait_for("you play on").await;
    play(&mut mover, "c").await;
    play(&mut other, "c").await;
    mover.send(b"!").await;
    mover.wait_for("Resign?").await;
    mover.send(b"y").await;
    for c in [&mut mover, &mut other] {
        c.wait_for("resigned:").await;
    }
    mover.wait_for("You lost.").await;
    other.wait_for("You win!").await;
    let resigned = record_with(&config, "resign", 1).await;
    assert_eq!(resigned[0]["result"], "win");
    let winner = resigned[0]["winner"].as_u64().unwrap() as usize;
    let loser_name = resigned[0]["players"][1 - winner]["name"].as_str().unwrap();
    let s = mover.screen();
    assert!(s.contains(&format!("{loser_name} (you)")), "{s}");
    assert_eq!(resigned[0]["moves"].as_array().unwrap().len(), 2);
}

/// The clock row of a screen: the line under the players.
fn clock_row(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(" vs "))
        .unwrap_or_else(|| panic!("no players line:\n{screen}"));
    lines.get(at + 1).unwrap_or(&"").to_string()
}

/// Reads until `done` holds for the screen; panics with the screen after
/// [`crate::util::ssh::WAIT`].
async fn wait_until(c: &mut Client, what: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + crate::util::ssh::WAIT;
    loop {
        let s = c.screen();
        if done(&s) {
            return s;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what} never showed:\n{s}"
        );
        c.pump(std::time::Duration::from_millis(50)).await;
    }
}

/// Two people seated by a quick match of Connect Four (ann with a key,
/// bob a guest), once each sees the table, whatever the game has come to
/// by then (a short clock may have run out already).
async fn seated_by_quick_match(t: &crate::util::ssh::TestHost) -> (Client, Client) {
    let mut ann = Client::connect(t.addr, "ann", Login::Key(new_key())).await;
    let mut bob = Client::connect(t.addr, "bob", Login::Guest).await;
    for c in [&mut ann, &mut bob] {
        c.seek(b"1").await;
    }
    for c in [&mut ann, &mut bob] {
        c.wait_for("(you)").await;
    }
    (ann, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_out_and_the_game_is_lost_on_time() {
    // The shortest clock the config takes: one second each, no increment.
    // When the room flags, to the millisecond, and the increments are
    // tested with a paused clock (src/lobby/room/timers.rs); here, that the
    // flag reaches both screens and the record, however slow the machine:
    // nothing below depends on when the clients see their screens.
    let t = start_host_with("[games]\nconnect4_clock = \"0.02+0\"\n").await;
    let config = config_file(&t);
    let (ann, bob) = seated_by_quick_match(&t).await;
    // Nobody moves: the first to move runs out of time.
    let flagged = record_with(&config, "flag", 1).await;
    assert_eq!(flagged[0]["result"], "win");
    assert_eq!(flagged[0]["winner"], 1);
    assert!(flagged[0]["moves"].as_array().unwrap().is_empty());
    let first = flagged[0]["players"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut loser, mut winner) = if first == "ann" {
        (ann, bob)
    } else {
        (bob, ann)
    };
    for c in [&mut loser, &mut winner] {
        let s = c.wait_for("ran out of time").await;
        let line = s.lines().find(|l| l.contains("ran out of time")).unwrap();
        let name = line.find(&format!("{first} (")).unwrap_or(usize::MAX);
        assert!(name < line.find("ran out").unwrap(), "{line}");
    }
    loser.wait_for("You lost.").await;
    winner.wait_for("You win!").await;
    // Both see both clocks: the one that ran at 0:00, the other's stood.
    for c in [&loser, &winner] {
        let row = clock_row(&c.screen());
        assert!(row.contains("0:00") && row.contains("0:01"), "{row}");
    }
}

/// A guest opens a Connect Four friend room (no clock) and a guest joins
/// it by logging in with the code; returns (host, friend), both seated.
async fn friend_room_pair(t: &crate::util::ssh::TestHost, host_name: &str) -> (Client, Client) {
    let mut host = Client::in_lobby(t.addr, host_name, Login::Guest).await;
    host.send(b"1").await;
    host.wait_for("Invite a friend").await;
    host.send(b"3").await;
    let code = crate::ssh::room_code(&host.wait_for("Room code:").await);
    let mut friend = Client::connect(t.addr, &code, Login::Guest).await;
    for c in [&mut host, &mut friend] {
        c.wait_for("(you)").await;
        wait_any(c, &[MY_TURN, "Waiting for"]).await;
    }
    (host, friend)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_clock_the_win_is_claimed_from_an_idle_opponent() {
    let t = start_host_with("[lobby]\nclaim_after_secs = 5\n").await;
    let config = config_file(&t);
    // A friend room: no clock.
    let (host, friend) = friend_room_pair(&t, "kim").await;
    let (mut mover, mut waiter) = mover_first(host, friend);
    let row = clock_row(&mover.screen());
    assert!(row.trim().is_empty(), "no clock in a friend room: {row}");
    // A move each; then the mover sits still, and after claim_after_secs
    // (the shortest the config takes) the other may claim. That a claim
    // is refused before, and when exactly it is due, is tested with a
    // paused clock (src/lobby/room/timers.rs, and the screen's own test in
    // src/session/play.rs): here nothing depends on the machine's speed.
    play(&mut mover, "d").await;
    play(&mut waiter, "d").await;
    waiter
        .wait_for_within(
            "has not moved for a long while: w claims the win",
            std::time::Duration::from_secs(5) + crate::util::ssh::WAIT,
        )
        .await;
    let s = mover.screen();
    assert!(
        !s.contains("w claims the win"),
        "only the waiting side may claim: {s}"
    );
    waiter.send(b"w").await;
    for c in [&mut mover, &mut waiter] {
        c.wait_for("stayed idle for 5 s").await;
    }
    waiter.wait_for("You win!").await;
    mover.wait_for("You lost.").await;
    let games = record_with(&config, "forfeit_idle", 1).await;
    assert_eq!(games[0]["moves"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_comes_back_to_the_table_with_the_same_key() {
    let t = start_host().await;
    let config = config_file(&t);
    let (ann, bob) = (new_key(), new_key());
    let (mut first, second) = crate::accounts::rated_pair(&t, ("ann", &ann), ("bob", &bob)).await;
    play(&mut first, "d").await;
    let (name, key) = if second.screen().contains("ann 1500 (you)") {
        ("ann", &ann)
    } else {
        ("bob", &bob)
    };
    // The connection is lost (not a quit): the seat is kept and the
    // opponent sees the wait count down.
    drop(second);
    let lost = format!("{name} lost the connection, waiting ");
    let left = |s: &str| -> Option<u64> {
        let after = &s[s.find(&lost)? + lost.len()..];
        after.split(" s").next()?.parse().ok()
    };
    let s = first.wait_for(&lost).await;
    let shown = left(&s).unwrap_or_else(|| panic!("no countdown:\n{s}"));
    assert!(shown <= 60, "the grace is 60 s: {s}");
    // It counts down (only that line changes), however many seconds the
    // screens took to get here.
    wait_until(&mut first, "the countdown going down", |s| {
        left(s).is_some_and(|n| n < shown)
    })
    .await;
    // The same key again: straight back to the table, position and clock kept.
    let mut back = Client::connect(t.addr, name, Login::Key(key.clone())).await;
    back.wait_for(MY_TURN).await;
    let s = back.screen();
    assert_eq!(crate::util::board_stones(&s), 1, "{s}");
    assert!(s.contains(&format!("{name} 1500 (you)")), "{s}");
    assert!(clock_row(&s).contains(':'), "the clocks came back: {s}");
    let s = first.wait_gone("lost the connection").await;
    assert!(s.contains("Waiting for"), "{s}");
    // The game goes on between the same two, to its end.
    play(&mut back, "e").await;
    play(&mut first, "d").await;
    back.send(b"!").await;
    back.wait_for("Resign?").await;
    back.send(b"y").await;
    first.wait_for("You win!").await;
    let games = record_with(&config, "resign", 1).await;
    assert_eq!(games[0]["moves"].as_array().unwrap().len(), 3);
    assert!(games[0]["rated"].as_bool().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connecting_again_while_the_old_connection_lingers_moves_the_game_over() {
    let t = start_host().await;
    let (ann, bob) = (new_key(), new_key());
    let (mut first, mut second) =
        crate::accounts::rated_pair(&t, ("ann", &ann), ("bob", &bob)).await;
    let (name, key) = if first.screen().contains("ann 1500 (you)") {
        ("ann", &ann)
    } else {
        ("bob", &bob)
    };
    // The first player opens a second terminal with the same key: the game
    // moves there, the old terminal is told and closed.
    let mut other = Client::connect(t.addr, name, Login::Key(key.clone())).await;
    other.wait_for(MY_TURN).await;
    first
        .wait_for("You connected again from another terminal")
        .await;
    play(&mut other, "c").await;
    second.wait_for(MY_TURN).await;
    assert_eq!(crate::util::board_stones(&second.screen()), 1);
}

/// The resume code shown under a guest's board.
pub fn resume_code(screen: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains("Cut off? Log in as "))
        .unwrap_or_else(|| panic!("no resume code:\n{screen}"));
    line.split("Log in as ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_comes_back_with_the_resume_code() {
    let t = start_host().await;
    let (mut host, mut friend) = friend_room_pair(&t, "ned").await;
    let s = host.wait_for("Cut off? Log in as ").await;
    let resume = resume_code(&s);
    assert_eq!(resume.len(), 6, "{resume}");
    // Each sees only their own code.
    let theirs = resume_code(&friend.wait_for("Cut off? Log in as ").await);
    assert_ne!(resume, theirs);
    assert!(!friend.screen().contains(&resume));

    // Dropped, back by logging in with the code.
    drop(host);
    friend.wait_for("ned lost the connection, waiting").await;
    let mut back = Client::connect(t.addr, &resume, Login::Guest).await;
    back.wait_for("(you)").await;
    let s = back.screen();
    assert!(s.contains("ned (you)"), "{s}");
    assert_eq!(resume_code(&s), resume, "the same code still works");
    friend.wait_gone("lost the connection").await;

    // Dropped again, back by typing the code in the lobby.
    drop(back);
    friend.wait_for("ned lost the connection, waiting").await;
    let mut again = Client::in_lobby(t.addr, "someone", Login::Guest).await;
    again.send(b"j").await;
    again.wait_for("room code:").await;
    again
        .send(format!("{}\r", resume.to_lowercase()).as_bytes())
        .await;
    again.wait_for("ned (you)").await;
    friend.wait_gone("lost the connection").await;
    // And the game goes on: whoever is to move plays.
    let (mut mover, mut other) = mover_first(again, friend);
    play(&mut mover, "d").await;
    other.wait_for(MY_TURN).await;
}

/// Whether a screen shows emoji stones (the player list has one per seat).
fn shows_emoji(screen: &str) -> bool {
    screen.contains(['\u{1F534}', '\u{1F7E2}', '\u{1F7E1}', '\u{1F535}'])
}

/// A guest's stones (`[t]`) are kept with the resume code (in the host's
/// memory: a guest has nothing else that lasts): back at the table by the
/// code, the guest sees the stones they chose.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_stones_come_back_with_the_resume_code() {
    let t = start_host().await;
    let mut host = Client::connect(t.addr, "pia", Login::Guest).await;
    host.wait_for("(now emoji)").await;
    host.walk(&[(b"t", "(now ascii)"), (b"1", "Invite a friend")])
        .await;
    host.send(b"3").await;
    let code = crate::ssh::room_code(&host.wait_for("Room code:").await);
    let mut friend = Client::connect(t.addr, &code, Login::Guest).await;
    let resume = resume_code(&host.wait_for("Cut off? Log in as ").await);
    friend.wait_for("(you)").await;
    assert!(!shows_emoji(&host.screen()), "{}", host.screen());
    assert!(shows_emoji(&friend.screen()), "{}", friend.screen());

    drop(host);
    friend.wait_for("pia lost the connection, waiting").await;
    let mut back = Client::connect(t.addr, &resume, Login::Guest).await;
    let s = back.wait_for("pia (you)").await;
    assert!(!shows_emoji(&s), "letters again:\n{s}");
    assert!(
        ["R", "G", "Y", "B"]
            .iter()
            .any(|l| s.contains(&format!("{l} pia"))),
        "{s}"
    );
    // The friend, who chose nothing, still has emoji.
    assert!(shows_emoji(&friend.screen()), "{}", friend.screen());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_code_for_a_finished_game_says_so() {
    let t = start_host().await;
    let (mut host, mut friend) = friend_room_pair(&t, "ole").await;
    let resume = resume_code(&host.wait_for("Cut off? Log in as ").await);
    host.send(b"!").await;
    host.wait_for("Resign?").await;
    host.send(b"y").await;
    // Before both moved: aborted, and the game is over all the same.
    friend.wait_for("Game aborted").await;
    let mut late = Client::in_lobby(t.addr, "pia", Login::Guest).await;
    late.send(b"j").await;
    late.wait_for("room code:").await;
    late.send(format!("{resume}\r").as_bytes()).await;
    late.wait_for("that game is over").await;
}

/// Opens the list of games in play from the lobby.
async fn games_list(c: &mut Client) -> String {
    c.send(b"w").await;
    c.wait_for("Games in play:").await;
    wait_any(c, &["to watch", "none just now"]).await;
    c.screen()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_watch_a_game_live_and_each_table_chats_apart() {
    let t = start_host_with("[lobby]\nmax_spectators = 1\n").await;
    let (mut first, mut second) = quick_match_pair(&t, ["ann", "bob"], b"1").await;
    play(&mut first, "d").await;

    // A watcher joins late: the list shows the game, Enter shows the
    // position as it is, the moves so far and the players' clocks.
    let mut cy = Client::in_lobby(t.addr, "cy", Login::Guest).await;
    let list = games_list(&mut cy).await;
    assert!(list.contains("Games in play: 1 to watch"), "{list}");
    assert!(list.contains("ann") && list.contains("bob"), "{list}");
    cy.send(b"\r").await;
    cy.wait_for("Moves (1)").await;
    cy.wait_for("q back to the lobby").await;
    assert_eq!(crate::util::board_stones(&cy.screen()), 1);
    let s = cy.screen();
    assert!(!s.contains("(you)"), "a watcher plays no side: {s}");
    for c in [&mut first, &mut second] {
        c.wait_for("1 watching").await;
    }
    // The next move reaches the watcher too.
    play(&mut second, "d").await;
    cy.wait_for("Moves (2)").await;
    // A watcher's keys do not play.
    cy.send(b"e\r").await;
    cy.wait_for("you are watching").await;
    assert_eq!(crate::util::board_stones(&cy.screen()), 2);

    // One watcher is all this host allows per game.
    let mut dee = Client::in_lobby(t.addr, "dee", Login::Guest).await;
    games_list(&mut dee).await;
    dee.send(b"\r").await;
    dee.wait_for("has all the watchers it may have (1)").await;

    // The players talk; what they say is cleaned of control bytes, and
    // the watcher does not see it.
    first.send(b"\t").await;
    first.wait_for("Say:").await;
    // (An escape sequence typed is no text; a right-to-left override is
    // dropped from the line.)
    first.send("hi\u{202e} \x1b[2Jthere\r".as_bytes()).await;
    second.wait_for(": hi there").await;
    first.wait_for(": hi there").await;
    let rlo = "\u{202e}".as_bytes();
    assert!(
        !second.raw.windows(rlo.len()).any(|w| w == rlo),
        "a control character reached the other terminal"
    );
    // The watcher talks to the watchers only.
    cy.send(b"\tnice game\r").await;
    cy.wait_for("cy: nice game").await;
    second.send(b"\tthanks\r").await;
    first.wait_for(": thanks").await;
    for c in [&first, &second] {
        let s = c.screen();
        assert!(
            !s.contains("nice game"),
            "the watchers' chat reached a player: {s}"
        );
    }
    let s = cy.screen();
    assert!(
        !s.contains("thanks"),
        "the players' chat reached a watcher: {s}"
    );
    // The screen was never cleared by the escape in the message.
    assert_eq!(crate::util::board_stones(&first.screen()), 2);

    // /mute hides the other side's lines from then on, not one's own.
    second.send(b"\t/mute\r").await;
    second
        .wait_for("messages are hidden for the rest of this game")
        .await;
    first.send(b"\tare you there\r").await;
    first.wait_for(": are you there").await;
    second.send(b"\tstill here\r").await;
    first.wait_for(": still here").await;
    second.wait_for(": still here").await;
    let s = second.screen();
    assert!(!s.contains("are you there"), "muted, yet shown: {s}");

    // The watcher leaves with q: the players' count goes, the place is free.
    cy.send(b"q").await;
    cy.wait_for("Watch a game").await;
    first.wait_gone("1 watching").await;
    games_list(&mut dee).await;
    dee.send(b"\r").await;
    dee.wait_for("Moves (2)").await;
    second.wait_for("1 watching").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_room_is_watched_only_when_its_host_allows_it() {
    let t = start_host().await;
    // A private room: its game is not listed.
    let (_host, _friend) = friend_room_pair(&t, "kim").await;
    let mut eve = Client::in_lobby(t.addr, "eve", Login::Guest).await;
    let list = games_list(&mut eve).await;
    assert!(list.contains("none just now"), "{list}");
    eve.send(b"\x1b").await;
    eve.wait_for("Choose a game").await;

    // A host who lets people watch (w, before the friend comes).
    let mut lee = Client::in_lobby(t.addr, "lee", Login::Guest).await;
    lee.send(b"1").await;
    lee.wait_for("Invite a friend").await;
    lee.send(b"3").await;
    let code = crate::ssh::room_code(&lee.wait_for("Room code:").await);
    lee.wait_for("your game is private").await;
    lee.send(b"w").await;
    lee.wait_for("others may watch your game").await;
    let mut max = Client::connect(t.addr, &code, Login::Guest).await;
    max.wait_for("(you)").await;
    let list = games_list(&mut eve).await;
    assert!(list.contains("Games in play: 1 to watch"), "{list}");
    assert!(list.contains("lee"), "{list}");
    assert!(!list.contains("kim"), "the private room is listed: {list}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_keeps_to_its_length_and_rate_and_can_be_turned_off() {
    let t = start_host_with("[chat]\nmax_length = 10\nper_minute = 2\n").await;
    let (mut first, mut second) = quick_match_pair(&t, ["ann", "bob"], b"1").await;
    // Typing stops at the length, with a word on why.
    first
        .walk(&[(b"\t", "Say:"), (b"abcdefghijkl", "at most 10 characters")])
        .await;
    first.send(b"\r").await;
    second.wait_for(": abcdefghij").await;
    first.send(b"\ttwo\r").await;
    second.wait_for(": two").await;
    // The third line within the minute is refused, and not sent.
    first.send(b"\tthree\r").await;
    first
        .wait_for("slow down: at most 2 messages a minute")
        .await;
    second.pump(std::time::Duration::from_millis(300)).await;
    assert!(!second.screen().contains("three"));

    let off = start_host_with("[chat]\nenabled = false\n").await;
    let (mut a, _b) = quick_match_pair(&off, ["cat", "dan"], b"1").await;
    let s = a.screen();
    assert!(!s.contains("Tab chat"), "{s}");
    a.send(b"\thello\r").await;
    a.pump(std::time::Duration::from_millis(300)).await;
    assert!(!a.screen().contains("Say:"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_invites_another_from_the_list_of_people_online() {
    let t = start_host().await;
    let mut ann = Client::in_lobby(t.addr, "ann", Login::Guest).await;
    let mut bob = Client::in_lobby(t.addr, "bob", Login::Guest).await;

    // The list: both, what they do, ann first as "(you)".
    ann.send(b"o").await;
    ann.wait_for("Who is online: 2").await;
    ann.wait_for("2 in the lobby").await;
    let s = ann.wait_for("bob").await;
    assert!(s.contains("ann (you)"), "{s}");
    // Inviting oneself is refused; bob gets an invitation with the clock.
    ann.walk(&[
        (b"\r", "that is you"),
        (b"\x1b[B\r", "Invite bob to a game"),
        (b"c", "Clock:  1+0"),
        (b"\r", "invitation sent to bob"),
    ])
    .await;
    bob.wait_for("ann invites you to a game").await;
    bob.wait_for("Connect Four, casual, 1+0").await;
    // Declined: ann hears it, bob is back where he was; asked again, and
    // accepted: a game on the chosen clock.
    declined_then_accepted((&mut ann, "ann"), (&mut bob, "bob")).await;
    for c in [&mut ann, &mut bob] {
        c.wait_for("(you)").await;
        let s = wait_any(c, &[MY_TURN, "Waiting for"]).await;
        let _ = s;
        let row = clock_row(&c.screen());
        assert!(row.contains("1:00"), "a one-minute clock: {row}");
    }

    // Someone who turns invitations off is not invited.
    let mut cy = Client::in_lobby(t.addr, "cy", Login::Guest).await;
    cy.walk(&[(b"o", "invitations (on)"), (b"i", "invitations (off)")])
        .await;
    let mut dee = Client::in_lobby(t.addr, "dee", Login::Guest).await;
    dee.send(b"o").await;
    let s = dee.wait_for("no invitations").await;
    assert!(s.contains("ann") && s.contains("playing"), "{s}");
    // The list is by name after oneself: dee, then ann, bob, cy.
    dee.send(b"\x1b[B\x1b[B\x1b[B\r").await;
    dee.wait_for("cy does not take invitations").await;
    // ann is playing: the lobby says so.
    dee.walk(&[
        (b"\x1b[A\x1b[A\r", "Invite ann to a game"),
        (b"\r", "ann is playing: try later"),
    ])
    .await;
}

/// Two players with keys: an invitation marked rated says so, the game it
/// starts shows both ratings, and its end moves both, as the record says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_invitation_between_two_accounts_moves_their_ratings() {
    let t = start_host().await;
    let config = config_file(&t);
    let mut ann = Client::in_lobby(t.addr, "ann", Login::Key(new_key())).await;
    let mut bob = Client::in_lobby(t.addr, "bob", Login::Key(new_key())).await;
    ann.invite_form("bob").await;
    ann.wait_for("[r] Rated:  casual").await;
    ann.send(b"r").await;
    ann.wait_for("[r] Rated:  rated").await;
    ann.send(b"\r").await;
    bob.wait_for("ann (1500) invites you to a game").await;
    bob.wait_for("Connect Four, rated,").await;
    bob.send(b"y").await;
    for c in [&mut ann, &mut bob] {
        c.wait_for("1500 (you)").await;
    }
    // The one to move resigns at once: before both have moved the game
    // is aborted, recorded unrated, and nobody's rating moves.
    let (mover, other) = mover_first(&mut ann, &mut bob);
    mover.send(b"!").await;
    mover.wait_for("Resign? The game is aborted").await;
    mover.send(b"y").await;
    for c in [&mut *mover, &mut *other] {
        let s = c.wait_for("Game aborted: ").await;
        assert!(s.contains("resigned before both players had moved"), "{s}");
        assert!(!s.contains("rating 1500 \u{2192}"), "{s}");
        assert!(!s.contains("You lost.") && !s.contains("You win!"), "{s}");
    }
    let games = record_with(&config, "aborted", 1).await;
    let g = &games[0];
    assert_eq!(g["rated"], false, "{g}");
    assert_eq!(g["result"], "aborted", "{g}");
    // The rematch: once both have moved, resigning loses, rated.
    for c in [&mut ann, &mut bob] {
        c.send(b"r").await;
    }
    for c in [&mut ann, &mut bob] {
        wait_any(c, &[MY_TURN, "Waiting for"]).await;
    }
    let (mover, other) = mover_first(&mut ann, &mut bob);
    play(mover, "d").await;
    play(other, "d").await;
    mover.send(b"!").await;
    mover.wait_for("Resign? You lose this game.").await;
    mover.send(b"y").await;
    let lost = mover.wait_for("rating 1500 \u{2192} ").await;
    assert!(lost.contains("You lost.") && lost.contains(" (-"), "{lost}");
    let won = other.wait_for("rating 1500 \u{2192} ").await;
    assert!(won.contains("You win!") && won.contains(" (+"), "{won}");
    let games = record_with(&config, "resign", 1).await;
    let g = &games[0];
    assert_eq!(g["rated"], true, "{g}");
    let winner = g["winner"].as_u64().unwrap() as usize;
    let after = |i: usize| g["players"][i]["rating_after"].as_f64().unwrap();
    assert!(after(winner) > 1500.0 && after(1 - winner) < 1500.0, "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_people_asking_to_watch_at_once_all_get_in() {
    // More at once than a room's command queue holds: none is lost.
    const CROWD: usize = 48;
    let t = start_host().await;
    let (mut first, _second) = quick_match_pair(&t, ["ann", "bob"], b"1").await;
    let mut crowd = Vec::new();
    for i in 0..CROWD {
        let addr = t.addr;
        crowd.push(tokio::spawn(async move {
            Client::in_lobby(addr, &format!("fan{i}"), Login::Guest).await
        }));
    }
    let mut watchers = Vec::new();
    for c in crowd {
        watchers.push(c.await.unwrap());
    }
    // Everyone opens the list first, then all ask in the same moment.
    for c in &mut watchers {
        games_list(c).await;
    }
    for c in &mut watchers {
        c.send(b"\r").await;
    }
    for c in &mut watchers {
        c.wait_for("Moves (0)").await;
    }
    first.wait_for(&format!("{CROWD} watching")).await;
}

/// The live features with the stock OpenSSH client under tmux, as people
/// use them: a quick match between `ssh` with a key and another client,
/// a watcher on `ssh` who sees the moves and both clocks, the table's chat,
/// the `ssh` player's connection killed and taken back with the same key,
/// and a resignation every screen shows.
#[test]
fn stock_openssh_players_and_watchers_play_live() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host());
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("id_ed25519");
    crate::util::ssh::openssh_key(&key, None);
    let common = format!(
        "ssh -tt -p {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
        t.addr.port()
    );
    let uma_ssh = format!(
        "{common} -i {} -o IdentitiesOnly=yes uma@127.0.0.1",
        key.display()
    );
    let uma = crate::util::Tmux::new("inarow-live-uma", 100, 30);
    uma.run(&format!("{uma_ssh}; echo SSH-EXIT-$?; sleep 60"));
    uma.wait_for("Choose a game");
    uma.keys(&["1"]);
    uma.wait_for("Quick match");
    uma.keys(&["1"]);
    uma.wait_for("Looking for");
    let mut bob = rt.block_on(async {
        let mut bob = Client::connect(t.addr, "bob", Login::Guest).await;
        crate::util::TestClient::walk(&mut bob, &[(b"1", "Quick match")]).await;
        bob.send(b"1").await;
        wait_any(&mut bob, &[MY_TURN, "Waiting for"]).await;
        bob
    });
    // Whoever starts, two moves: one by each.
    let stones = |s: &str| crate::util::board_stones(s);
    let uma_moves = |column: &str, before: usize| {
        uma.wait_for(MY_TURN);
        uma.keys(&[column, "Enter"]);
        let deadline = std::time::Instant::now() + crate::util::ssh::WAIT;
        while stones(&uma.screen()) <= before {
            assert!(std::time::Instant::now() < deadline, "{}", uma.screen());
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    };
    if bob.screen().contains(MY_TURN) {
        rt.block_on(play(&mut bob, "d"));
        uma_moves("e", 1);
    } else {
        uma_moves("d", 0);
        rt.block_on(play(&mut bob, "e"));
    }

    // A watcher on stock ssh: the list, the position so far, both clocks.
    let cy = crate::util::Tmux::new("inarow-live-cy", 100, 30);
    cy.run(&format!(
        "{common} -o PubkeyAuthentication=no cy@127.0.0.1; echo SSH-EXIT-$?; sleep 60"
    ));
    cy.wait_for("Choose a game");
    cy.keys(&["w"]);
    cy.wait_for("1 to watch");
    cy.keys(&["Enter"]);
    let s = cy.wait_for("Moves (2)");
    assert_eq!(stones(&s), 2, "{s}");
    let clocks = clock_row(&s);
    assert_eq!(clocks.matches(':').count(), 2, "both clocks: {clocks}");
    rt.block_on(bob.wait_for("1 watching"));

    // The table's chat: from uma's terminal to bob's, not to the watcher.
    uma.keys(&["Tab"]);
    uma.wait_for("Say:");
    uma.keys(&["hello from ssh", "Enter"]);
    rt.block_on(bob.wait_for("uma: hello from ssh"));

    // The next move reaches the watcher.
    if bob.screen().contains(MY_TURN) {
        rt.block_on(play(&mut bob, "c"));
    } else {
        uma_moves("c", 2);
    }
    let s = cy.wait_for("Moves (3)");
    assert!(
        !s.contains("hello from ssh"),
        "the players' chat reached a watcher: {s}"
    );

    // uma's connection dies (the terminal is gone, no quit): the seat waits,
    // and the same key brings uma back to the same position and chat.
    uma.kill();
    rt.block_on(bob.wait_for("uma lost the connection, waiting"));
    let uma = crate::util::Tmux::new("inarow-live-uma2", 100, 30);
    uma.run(&format!("{uma_ssh}; echo SSH-EXIT-$?; sleep 60"));
    let s = uma.wait_for("hello from ssh");
    assert_eq!(stones(&s), 3, "{s}");
    assert!(s.contains("uma (you)"), "{s}");
    assert_eq!(clock_row(&s).matches(':').count(), 2, "{s}");
    rt.block_on(bob.wait_gone("lost the connection"));

    // uma resigns: every screen says so.
    uma.keys(&["!"]);
    uma.wait_for("Resign?");
    uma.keys(&["y"]);
    uma.wait_for("You lost.");
    rt.block_on(bob.wait_for("You win!"));
    cy.wait_for("uma");
    cy.wait_for("resigned");
    uma.keys(&["q"]);
    uma.wait_for("SSH-EXIT-0");
    drop(rt);
}
